// apipe-mbarrier-to-nvvm initialises a ring of up to 16 slots with one
// nvvm.mbarrier.init per slot, and a larger one with an scf.for over its
// slots (one init at 8 x slot bytes past the ring). A fuzz find: a ring of
// 29,055 slots, which fits the 227 KiB of sm_90, was unrolled into 29,055
// inits and apipe-translate ran for minutes in LLVM's code generation.
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-mbarrier-to-nvvm{sm=90})' | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-mbarrier-to-nvvm{sm=90})' | grep -c nvvm.mbarrier.init | FileCheck %s --check-prefix=COUNT
// COUNT: {{^}}18{{$}}
// The whole GPU lowering returns at once, and the PTX keeps a loop:
// RUN: apipe-translate %s --sm=90 -o - | FileCheck %s --check-prefix=PTX
// ptxas assembles the loop (without @largest: its 227 KiB of static shared
// memory would need dynamic shared memory, which apipe-translate does not emit):
// RUN: sed '/^  gpu.func @largest/,/^  }$/d' %s | apipe-translate - --sm=90 -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// CHECK-LABEL: gpu.func @sixteen
// CHECK-COUNT-16: nvvm.mbarrier.init
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @seventeen
// CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C17:.*]] = arith.constant 17 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: scf.for %[[S:.*]] = %[[C0]] to %[[C17]] step %[[C1]] {
// CHECK-NEXT: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index
// CHECK-NEXT: %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[S]], %[[C8]] : index
// CHECK-NEXT: %[[ADDR:.*]] = arith.addi %[[BASE]], %[[OFF]] : index
// CHECK-NEXT: %[[I64:.*]] = arith.index_cast %[[ADDR]] : index to i64
// CHECK-NEXT: %[[P:.*]] = llvm.inttoptr %[[I64]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.mbarrier.init %[[P]], %[[N]] : !llvm.ptr<3>, i32
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
// CHECK-LABEL: gpu.func @largest
// CHECK: arith.constant 29055 : index
// CHECK: scf.for
// CHECK-COUNT-1: nvvm.mbarrier.init
// CHECK: gpu.return
// PTX-LABEL: .entry largest(
// PTX: mbarrier.init.shared.b64
// PTX: bra

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @sixteen() workgroup(%ring: memref<16xi64, 3>) kernel {
    %c1 = arith.constant 1 : index
    apipe.mbarrier_init %ring, %c1 : memref<16xi64, 3>
    gpu.return
  }
  gpu.func @seventeen() workgroup(%ring: memref<17xi64, 3>) kernel {
    %c2 = arith.constant 2 : index
    apipe.mbarrier_init %ring, %c2 : memref<17xi64, 3>
    gpu.return
  }
  gpu.func @largest() workgroup(%ring: memref<29055xi64, 3>) kernel {
    %c1 = arith.constant 1 : index
    apipe.mbarrier_init %ring, %c1 : memref<29055xi64, 3>
    gpu.return
  }
}
}
