// Pointer accesses in kernels whose elements the checker does not know
// (an address masked or scaled before llvm.inttoptr, llvm.intr.memset),
// against other threads (trial 69):
// - a read of the element another thread copied, after the wait but with
//   no gpu.barrier: the read of all memory was compared as the copy's own
//   region, which another thread's copy never meets (silent);
// - the same store run by every thread: a write of unknown elements is now
//   compared with itself in other threads (silent before);
// - atomic updates through a pointer do not race with each other.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:
// RUN: not apipe-run %s --entry=main_neighbour --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: error: race ({{RAW|WAR}}) on shared memory byte
// RUN: sed 's|// BARRIER: ||' %s | not apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=ORDERED --implicit-check-not=neighbour
// ORDERED: error:
// RUN: sed 's|// BARRIER: ||' %s | apipe-run - --entry=main_neighbour --completion=lazy,eager --schedule=forward,reverse | FileCheck %s --check-prefix=VALUES
// VALUES-COUNT-4: [1,  2,  3,  4,  5,  6,  7,  0]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Each thread copies its element, waits, and reads its neighbour's
    // through an address masked to 4 bytes.
    gpu.func @neighbour(%A: memref<8xf32>, %out: memref<8xf32>) workgroup(%wg: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %mask = arith.constant -4 : i64
      %tid = gpu.thread_id x
      apipe.copy %A[%tid], %wg[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      // BARRIER: gpu.barrier
      %n = arith.addi %tid, %c1 : index
      %nb = arith.remui %n, %c8 : index
      %ni = arith.index_cast %nb : index to i64
      %base = memref.extract_aligned_pointer_as_index %wg : memref<8xf32, 3> -> index
      %bi = arith.index_cast %base : index to i64
      %aligned = arith.andi %bi, %mask : i64
      %q = llvm.inttoptr %aligned : i64 to !llvm.ptr
      %p = llvm.getelementptr %q[%ni] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      // CHECK: check-hazards-kernel-pointer-threads.mlir:[[# @LINE + 1]]:12: error: 'llvm.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
      %v = llvm.load %p : !llvm.ptr -> f32
      memref.store %v, %out[%tid] : memref<8xf32>
      gpu.return
    }

    // Every thread stores its id into element 0 through a scaled address,
    // and clears element 1 with a memset.
    gpu.func @same_bytes(%out: memref<8xf32>) workgroup(%wg: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %one = arith.constant 1 : i64
      %four = arith.constant 4 : i64
      %zero = arith.constant 0 : i8
      %tid = gpu.thread_id x
      %ti = arith.index_cast %tid : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %base = memref.extract_aligned_pointer_as_index %wg : memref<8xf32, 3> -> index
      %bi = arith.index_cast %base : index to i64
      %scaled = arith.muli %bi, %one : i64
      %q = llvm.inttoptr %scaled : i64 to !llvm.ptr
      // CHECK: check-hazards-kernel-pointer-threads.mlir:[[# @LINE + 1]]:7: error: 'llvm.store' op writes workgroup memory that another thread wrote, with no gpu.barrier between the two (any two threads) (write-after-write between threads)
      llvm.store %f, %q : f32, !llvm.ptr
      gpu.barrier
      %b1 = arith.addi %bi, %four : i64
      %q1 = llvm.inttoptr %b1 : i64 to !llvm.ptr
      // CHECK: check-hazards-kernel-pointer-threads.mlir:[[# @LINE + 1]]:7: error: 'llvm.intr.memset' op writes workgroup memory that another thread wrote, with no gpu.barrier between the two (any two threads) (write-after-write between threads)
      "llvm.intr.memset"(%q1, %zero, %four) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
      gpu.return
    }

    // Correct: every thread adds to element 0 atomically.
    gpu.func @correct(%out: memref<8xf32>) workgroup(%wg: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      %t = arith.index_cast %tid : index to i64
      %base = memref.extract_aligned_pointer_as_index %wg : memref<8xf32, 3> -> index
      %bi = arith.index_cast %base : index to i64
      %q = llvm.inttoptr %bi : i64 to !llvm.ptr
      %old = llvm.atomicrmw fadd %q, %one monotonic : !llvm.ptr, f32
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main_neighbour() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %A = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<8xf32>
    }
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@neighbour blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<8xf32>, %out : memref<8xf32>)
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
