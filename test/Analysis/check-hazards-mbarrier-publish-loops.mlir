// apipe-check-hazards: a gpu.barrier inside an scf.for of constant trip
// count publishes a ring's init to the ops after the loop when the loop
// runs at least once (1 or 2 trips: accepted); with a constant 0 trips it
// never runs (refused at the init). A fresh-user trial found the 1- and
// 2-trip kernels refused while apipe-run ran them clean.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

gpu.module @kernels {
  gpu.func @one_trip(%A: memref<1024xf32> {llvm.noalias}, %out: memref<1024xf32> {llvm.noalias}) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cT = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    %bx = gpu.block_dim x
    %by = gpu.block_dim y
    %bz = gpu.block_dim z
    %bxy = arith.muli %bx, %by : index
    %threads = arith.muli %bxy, %bz : index
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      apipe.mbarrier_init %ring, %threads : memref<2xi64, 3>
    }
    scf.for %i = %c0 to %cT step %c1 {
      gpu.barrier
    }
    apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
    %next = arith.addi %tid, %c1 : index
    %other = arith.remui %next, %threads : index
    %x = memref.load %buf[%other] : memref<256xf32, 3>
    memref.store %x, %out[%tid] : memref<1024xf32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @two_trips(%A: memref<1024xf32> {llvm.noalias}, %out: memref<1024xf32> {llvm.noalias}) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cT = arith.constant 2 : index
    %c256 = arith.constant 256 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    %bx = gpu.block_dim x
    %by = gpu.block_dim y
    %bz = gpu.block_dim z
    %bxy = arith.muli %bx, %by : index
    %threads = arith.muli %bxy, %bz : index
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      apipe.mbarrier_init %ring, %threads : memref<2xi64, 3>
    }
    scf.for %i = %c0 to %cT step %c1 {
      gpu.barrier
    }
    apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
    %next = arith.addi %tid, %c1 : index
    %other = arith.remui %next, %threads : index
    %x = memref.load %buf[%other] : memref<256xf32, 3>
    memref.store %x, %out[%tid] : memref<1024xf32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @no_trip(%A: memref<1024xf32> {llvm.noalias}, %out: memref<1024xf32> {llvm.noalias}) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cT = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    %bx = gpu.block_dim x
    %by = gpu.block_dim y
    %bz = gpu.block_dim z
    %bxy = arith.muli %bx, %by : index
    %threads = arith.muli %bxy, %bz : index
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      // CHECK: check-hazards-mbarrier-publish-loops.mlir:[[# @LINE + 1]]:7: error: 'apipe.mbarrier_init' op initialises its ring in one thread with no gpu.barrier before the ring's first arrive or wait
      apipe.mbarrier_init %ring, %threads : memref<2xi64, 3>
    }
    scf.for %i = %c0 to %cT step %c1 {
      gpu.barrier
    }
    apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
    %next = arith.addi %tid, %c1 : index
    %other = arith.remui %next, %threads : index
    %x = memref.load %buf[%other] : memref<256xf32, 3>
    memref.store %x, %out[%tid] : memref<1024xf32>
    gpu.return
  }
}
