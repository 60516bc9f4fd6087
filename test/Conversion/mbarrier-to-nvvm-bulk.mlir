// apipe-mbarrier-to-nvvm{sm=90} lowers bulk copies (docs/mbarrier.md, "Bulk
// copies"): apipe.mbarrier_expect_tx to nvvm.mbarrier.expect_tx on the
// slot, apipe.bulk_copy to nvvm.cp.async.bulk.shared.cluster.global with
// both element addresses (aligned pointer + (layout offset + Σ index ×
// stride) × element bytes, the source cast to the global address space),
// the slot and the byte count; the ring that bulk copies complete bytes on
// gets nvvm.fence.mbarrier.init after its initialisation.
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-mbarrier-to-nvvm{sm=90})' | FileCheck %s
//
// Through apipe-translate (PTX ISA 8.0 for bulk copies) and ptxas for sm_90:
// RUN: apipe-translate %s --sm=90 -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.90.ptx
// RUN: %ptxas -arch=sm_90 %t.90.ptx -o %t.90.cubin
// PTX: .version 8.0
// PTX: mbarrier.init.shared.b64
// PTX: fence.mbarrier_init.release.cluster;
// PTX: bar.sync 0;
// PTX: mbarrier.expect_tx.relaxed.cta.shared.b64 [__wg_rows_0], %r[[N:[0-9]+]];
// PTX: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], %r[[N]], [__wg_rows_0];
// PTX: cp.async.mbarrier.arrive.noinc.shared.b64
// PTX: mbarrier.try_wait.parity
// An explicit older PTX ISA is an error:
// RUN: not apipe-translate %s --sm=90 --ptx=78 2>&1 | FileCheck %s --check-prefix=PTX78
// PTX78: error: --ptx=78: bulk copies need PTX ISA 8.0 or newer (cp.async.bulk with mbarrier::complete_tx, mbarrier.expect_tx); pass --ptx=80

// CHECK-LABEL: gpu.func @rows
// CHECK: nvvm.mbarrier.init
// CHECK: nvvm.mbarrier.init
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: nvvm.mbarrier.expect_tx %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// The source: row %row of a 64x64 f32 matrix, column %k: (row * 64 + k) * 4.
// CHECK: %[[S64:.*]] = arith.constant 64 : index
// CHECK-NEXT: arith.muli %{{.*}}, %[[S64]] : index
// CHECK: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[BYTES:.*]] = arith.muli %{{.*}}, %[[FOUR]] : index
// CHECK-NEXT: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<64x64xf32> -> index
// CHECK-NEXT: %[[ADDR:.*]] = arith.addi %[[BASE]], %[[BYTES]] : index
// CHECK-NEXT: %[[WIDE:.*]] = arith.index_cast %[[ADDR]] : index to i64
// CHECK-NEXT: %[[GEN:.*]] = llvm.inttoptr %[[WIDE]] : i64 to !llvm.ptr
// CHECK-NEXT: %[[SRC:.*]] = llvm.addrspacecast %[[GEN]] : !llvm.ptr to !llvm.ptr<1>
// CHECK: %[[SHARED:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[DST:.*]] = llvm.addrspacecast %[[SHARED]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: %[[SIZE:.*]] = arith.constant 64 : i32
// CHECK-NEXT: nvvm.cp.async.bulk.shared.cluster.global %[[DST]], %[[SRC]], %{{.*}}, %[[SIZE]] : !llvm.ptr<7>, <1>
// CHECK: nvvm.cp.async.mbarrier.arrive
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NOT: apipe.
// CHECK: gpu.return
module attributes {gpu.container_module} {
gpu.module @kernels {
  // One tile of 16 rows x 16 floats (64 bytes a row): threads 0..15 each
  // copy one row (an elected thread per tile row), then all read.
  gpu.func @rows(%A: memref<64x64xf32>, %out: memref<256xf32>, %k: index) workgroup(%ring: memref<2xi64, 3>, %tile: memref<16x16xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    %bx = gpu.block_dim x
    %by = gpu.block_dim y
    %bz = gpu.block_dim z
    %bxy = arith.muli %bx, %by : index
    %n = arith.muli %bxy, %bz : index
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      apipe.mbarrier_init %ring, %n : memref<2xi64, 3>
    }
    gpu.barrier
    %row = arith.remui %tid, %c16 : index
    %copies = arith.cmpi ult, %tid, %c16 : index
    scf.if %copies {
      apipe.mbarrier_expect_tx %ring[%c0], 64 : memref<2xi64, 3>
      apipe.bulk_copy %A[%row, %k], %tile[%row, %c0], 16, %ring[%c0] : memref<64x64xf32> to memref<16x16xf32, 3>, memref<2xi64, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
    %x = memref.load %tile[%row, %c0] : memref<16x16xf32, 3>
    memref.store %x, %out[%tid] : memref<256xf32>
    gpu.return
  }
}
}
