// Pointers into workgroup memory that are not made from a memref (trial
// 66): an `llvm.mlir.addressof` of an `addr_space = 3` global, an
// `!llvm.ptr<3>` kernel argument. Their accesses are accesses of that
// buffer (the global, at the pointer's byte offset) or of workgroup memory
// of unknown extent (the argument), compared with the other threads' since the last barrier;
// they were taken as global memory, or reached no buffer the kernel
// names, and the neighbour's read went unreported. With the barrier
// (@tile_ordered) nothing is reported. apipe-run refuses a workgroup
// `llvm.mlir.global` with a located error (it failed inside its own
// lowering).
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:
// RUN: not apipe-run %s 2>&1 | FileCheck %s --check-prefix=EMU
// RUN: sed -e 's/addr_space = 3 : i32/addr_space = 1 : i32/' -e 's/!llvm.ptr<3>/!llvm.ptr<1>/g' -e '/^    gpu.func @shared_argument/,/^    }$/d' %s | apipe-run - --entry=main | FileCheck %s --check-prefix=GLOBAL

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // EMU: check-hazards-workgroup-pointers.mlir:[[# @LINE + 1]]:5: error: a workgroup 'llvm.mlir.global' cannot be emulated (one buffer per block)
    llvm.mlir.global internal @tile() {addr_space = 3 : i32} : !llvm.array<8 x f32>

    // Every thread stores its id into its element of a workgroup global
    // reached by its address, and reads its neighbour's.
    gpu.func @global_tile(%out: memref<8xf32>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      %t = arith.index_cast %tid : index to i64
      %ti = arith.index_cast %tid : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %base = llvm.mlir.addressof @tile : !llvm.ptr<3>
      %mine = llvm.getelementptr %base[%t] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
      llvm.store %f, %mine : f32, !llvm.ptr<3>
      %n = arith.addi %tid, %c1 : index
      %m = arith.remui %n, %c8 : index
      %mi = arith.index_cast %m : index to i64
      %next = llvm.getelementptr %base[%mi] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
      // CHECK: check-hazards-workgroup-pointers.mlir:[[# @LINE + 1]]:12: error: 'llvm.load' op reads workgroup memory that another thread wrote, with no gpu.barrier between the two (this thread has x = 0, the other x = 1) (read-after-write between threads)
      %x = llvm.load %next : !llvm.ptr<3> -> f32
      memref.store %x, %out[%tid] : memref<8xf32>
      gpu.return
    }

    // The same through a workgroup pointer the kernel receives.
    gpu.func @shared_argument(%tile: !llvm.ptr<3>, %out: memref<8xf32>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      %t = arith.index_cast %tid : index to i64
      %ti = arith.index_cast %tid : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %mine = llvm.getelementptr %tile[%t] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
      // Workgroup memory of unknown extent: the store may meet the same
      // store in another thread too.
      // CHECK: check-hazards-workgroup-pointers.mlir:[[# @LINE + 1]]:7: error: 'llvm.store' op writes workgroup memory that another thread wrote, with no gpu.barrier between the two (any two threads) (write-after-write between threads)
      llvm.store %f, %mine : f32, !llvm.ptr<3>
      %n = arith.addi %tid, %c1 : index
      %m = arith.remui %n, %c8 : index
      %mi = arith.index_cast %m : index to i64
      %next = llvm.getelementptr %tile[%mi] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
      // CHECK: check-hazards-workgroup-pointers.mlir:[[# @LINE + 1]]:12: error: 'llvm.load' op reads workgroup memory that another thread wrote, with no gpu.barrier between the two (any two threads) (read-after-write between threads)
      %x = llvm.load %next : !llvm.ptr<3> -> f32
      memref.store %x, %out[%tid] : memref<8xf32>
      gpu.return
    }

    // Correct: each thread stores into its own element of the global (at
    // its byte offset), with no barrier.
    gpu.func @own_elements(%out: memref<8xf32>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      %t = arith.index_cast %tid : index to i64
      %base = llvm.mlir.addressof @tile : !llvm.ptr<3>
      %mine = llvm.getelementptr %base[%t] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
      llvm.store %one, %mine : f32, !llvm.ptr<3>
      gpu.return
    }

    gpu.func @tile_ordered(%out: memref<8xf32>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      %t = arith.index_cast %tid : index to i64
      %ti = arith.index_cast %tid : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %base = llvm.mlir.addressof @tile : !llvm.ptr<3>
      %mine = llvm.getelementptr %base[%t] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
      llvm.store %f, %mine : f32, !llvm.ptr<3>
      gpu.barrier
      %n = arith.addi %tid, %c1 : index
      %m = arith.remui %n, %c8 : index
      %mi = arith.index_cast %m : index to i64
      %next = llvm.getelementptr %base[%mi] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
      %x = llvm.load %next : !llvm.ptr<3> -> f32
      memref.store %x, %out[%tid] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  // With the global in global memory (the sed line), apipe-run runs it.
  // GLOBAL: [1,  2,  3,  4,  5,  6,  7,  0]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@tile_ordered blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%out : memref<8xf32>)
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
