// apipe-mbarrier-to-nvvm: the mbarrier form to NVVM ops (docs/mbarrier.md,
// "Lowering to PTX"). A slot's address is the ring's aligned pointer plus
// 8 x slot as !llvm.ptr<3>; init per slot with the count as i32; the
// arrival is cp.async.mbarrier.arrive with noinc; the wait is
// nvvm.mbarrier.try_wait.parity on sm_90 and a test_wait.parity loop in
// inline assembly before.
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-mbarrier-to-nvvm{sm=90})' | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-mbarrier-to-nvvm)' | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-mbarrier-to-nvvm{sm=86})' | FileCheck %s --check-prefixes=CHECK,SM80
// The whole lowering of this input assembles for both.
// RUN: apipe-translate %s --sm=80 -o %t.80.ptx
// RUN: %ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
// RUN: apipe-translate %s --sm=90 -o %t.90.ptx
// RUN: %ptxas -arch=sm_90 %t.90.ptx -o %t.90.cubin
// RUN: not apipe-opt %s --pass-pipeline='builtin.module(apipe-mbarrier-to-nvvm{sm=75})' 2>&1 | FileCheck %s --check-prefix=SM75
// SM75: error: apipe-mbarrier-to-nvvm: sm=75: expected 80, 86, 89 or 90

// CHECK-LABEL: gpu.func @one_group
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[COUNT:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: %[[B0:.*]] = memref.extract_aligned_pointer_as_index %[[RING:.*]] : memref<2xi64, 3> -> index
// CHECK-NEXT: %[[O0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[A0:.*]] = arith.addi %[[B0]], %[[O0]] : index
// CHECK-NEXT: %[[W0:.*]] = arith.index_cast %[[A0]] : index to i64
// CHECK-NEXT: %[[P0:.*]] = llvm.inttoptr %[[W0]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.mbarrier.init %[[P0]], %[[COUNT]] : !llvm.ptr<3>, i32
// CHECK: %[[O1:.*]] = arith.constant 8 : index
// CHECK-NEXT: %[[A1:.*]] = arith.addi %{{.*}}, %[[O1]] : index
// CHECK: nvvm.mbarrier.init %{{.*}}, %[[COUNT]] : !llvm.ptr<3>, i32
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: gpu.barrier
// CHECK: nvgpu.device_async_copy
// CHECK: %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[C1]], %[[EIGHT]] : index
// CHECK: llvm.inttoptr
// CHECK-NEXT: nvvm.cp.async.mbarrier.arrive %{{.*}} {noinc = true} : !llvm.ptr<3>
// CHECK: %[[PARITY:.*]] = arith.extui %{{.*}} : i1 to i32
// SM90-NEXT: %[[HINT:.*]] = arith.constant 10000000 : i32
// SM90-NEXT: nvvm.mbarrier.try_wait.parity %{{.*}}, %[[PARITY]], %[[HINT]] : !llvm.ptr<3>, i32, i32
// SM80-NEXT: llvm.inline_asm has_side_effects "{\0A\09.reg .pred P1;\0A\09LAB_WAIT:\0A\09mbarrier.test_wait.parity.shared.b64 P1, [$0], $1;\0A\09@!P1 bra.uni LAB_WAIT;\0A\09}", "r,r,~{memory}" %{{.*}}, %[[PARITY]] : (!llvm.ptr<3>, i32) -> ()
// CHECK-NOT: apipe.
// CHECK: gpu.return
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @one_group(%src: memref<1024xf32>, %parity: i1) workgroup(%ring: memref<2xi64, 3>, %buf: memref<512xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %n = gpu.block_dim x
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      apipe.mbarrier_init %ring, %n : memref<2xi64, 3>
    }
    gpu.barrier
    %lane = arith.muli %tid, %c4 : index
    %t = nvgpu.device_async_copy %src[%lane], %buf[%lane], 4 : memref<1024xf32> to memref<512xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c1], %parity : memref<2xi64, 3>
    gpu.return
  }
}
}
