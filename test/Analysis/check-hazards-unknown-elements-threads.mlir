// Races between threads where one side's elements are not known to the
// checker (trial 66), each with a correct twin:
// - the two arms of a branch on the thread id: a whole-buffer op
//   (`linalg.fill`, `memref.copy`), a pointer access or an atomic update
//   through a pointer in one arm, a read of the buffer in the other (only
//   exact accesses were compared across arms; an atomic update was only a
//   read there);
// - pointers of workgroup memory not made from a memref: in
//   check-hazards-workgroup-pointers.mlir;
// - an address made from two buffers' addresses (`g + (w - g)`) is not
//   taken to be in `g`;
// - a thread's own `llvm.alloca` is not shared (it was a false race);
// - a pointer store's elements are those at its offset: every thread's
//   store into one element races, each thread's into its own does not
//   (both were taken as the whole buffer: missed, and a false race).
// A `memref.dealloc` of workgroup memory in a kernel does nothing (the
// block's memory lives as long as the block; apipe-run erases it): every
// thread frees the buffer it shares in gpu-workgroup-memory.mlir, which
// stays silent.
// RUN: apipe-opt %S/../Emulation/gpu-workgroup-memory.mlir --apipe-check-hazards -o /dev/null
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:
// RUN: not apipe-run %s --entry=main_fill_arm --schedule=forward 2>&1 | FileCheck %s --check-prefix=FILL
// FILL: error: race (RAW) on shared memory byte {{[0-9]+}} (byte {{[0-9]+}} of the workgroup buffer at {{.*}}): thread ({{[1-7]}},0,0) of block (0,0,0) reads it, and thread (0,0,0) writes it with no gpu.barrier between ('memref.load' and 'linalg.fill')
// RUN: not apipe-run %s --entry=main_atomic_arm --schedule=reverse 2>&1 | FileCheck %s --check-prefix=ATOMIC
// ATOMIC: error: race ({{WAR|RAW}}) on shared memory byte 0
// RUN: apipe-run %s --entry=main_correct --completion=lazy,eager --schedule=forward,reverse | FileCheck %s --check-prefix=CORRECT
// CORRECT-COUNT-4: [7,  0,  1,  2,  3,  4,  5,  6]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Thread 0 fills the buffer while the others read it.
    gpu.func @fill_arm(%out: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        linalg.fill ins(%one : f32) outs(%buf : memref<8xf32, 3>)
      } else {
        // CHECK: check-hazards-unknown-elements-threads.mlir:[[# @LINE + 1]]:14: error: 'memref.load' op reads workgroup memory that another thread wrote, with no gpu.barrier between the two (any two threads) (read-after-write between threads)
        %x = memref.load %buf[%tid] : memref<8xf32, 3>
        memref.store %x, %out[%tid] : memref<8xf32>
      }
      gpu.return
    }

    // The last thread copies a private buffer over the workgroup buffer
    // while the others store into it.
    gpu.func @copy_arm(%out: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c7 = arith.constant 7 : index
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      %last = arith.cmpi eq, %tid, %c7 : index
      scf.if %last {
        %own = memref.alloca() : memref<8xf32>
        // CHECK: check-hazards-unknown-elements-threads.mlir:[[# @LINE + 1]]:9: error: 'memref.copy' op writes workgroup memory that another thread wrote, with no gpu.barrier between the two (any two threads) (write-after-write between threads)
        memref.copy %own, %buf : memref<8xf32> to memref<8xf32, 3>
      } else {
        memref.store %one, %buf[%tid] : memref<8xf32, 3>
      }
      gpu.return
    }

    // Thread 0 adds to element 0 through a pointer; the others read it.
    gpu.func @atomic_arm(%out: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      memref.store %one, %buf[%tid] : memref<8xf32, 3>
      gpu.barrier
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %p = memref.extract_aligned_pointer_as_index %buf : memref<8xf32, 3> -> index
        %pi = arith.index_cast %p : index to i64
        %pp = llvm.inttoptr %pi : i64 to !llvm.ptr
        %old = llvm.atomicrmw fadd %pp, %one monotonic : !llvm.ptr, f32
      } else {
        // CHECK: check-hazards-unknown-elements-threads.mlir:[[# @LINE + 1]]:14: error: 'memref.load' op reads workgroup memory that another thread wrote, with no gpu.barrier between the two (this thread has x = 1, the other x = 0) (read-after-write between threads)
        %x = memref.load %buf[%c0] : memref<8xf32, 3>
        memref.store %x, %out[%tid] : memref<8xf32>
      }
      gpu.return
    }

    // An address made from a global buffer's and the workgroup buffer's:
    // it points into the workgroup buffer, which the neighbour reads.
    gpu.func @two_bases(%g: memref<8xf32>, %out: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      %t = arith.index_cast %tid : index to i64
      %ti = arith.index_cast %tid : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %w = memref.extract_aligned_pointer_as_index %buf : memref<8xf32, 3> -> index
      %wi = arith.index_cast %w : index to i64
      %gp = memref.extract_aligned_pointer_as_index %g : memref<8xf32> -> index
      %gi = arith.index_cast %gp : index to i64
      %delta = arith.subi %wi, %gi : i64
      %addr = arith.addi %gi, %delta : i64
      %p = llvm.inttoptr %addr : i64 to !llvm.ptr
      %q = llvm.getelementptr %p[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      // Of unknown origin, the store may meet the same store in another
      // thread too.
      // CHECK: check-hazards-unknown-elements-threads.mlir:[[# @LINE + 1]]:7: error: 'llvm.store' op writes workgroup memory that another thread wrote, with no gpu.barrier between the two (any two threads) (write-after-write between threads)
      llvm.store %f, %q : f32, !llvm.ptr
      %n = arith.addi %tid, %c1 : index
      %m = arith.remui %n, %c8 : index
      // CHECK: check-hazards-unknown-elements-threads.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads workgroup memory that another thread wrote, with no gpu.barrier between the two (any two threads) (read-after-write between threads)
      %x = memref.load %buf[%m] : memref<8xf32, 3>
      memref.store %x, %out[%tid] : memref<8xf32>
      gpu.return
    }

    // Every thread stores its id into element 3 through a pointer.
    gpu.func @same_element(%out: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %tid = gpu.thread_id x
      %ti = arith.index_cast %tid : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %w = memref.extract_aligned_pointer_as_index %buf : memref<8xf32, 3> -> index
      %wi = arith.index_cast %w : index to i64
      %wp = llvm.inttoptr %wi : i64 to !llvm.ptr
      %three = llvm.getelementptr %wp[3] : (!llvm.ptr) -> !llvm.ptr, f32
      // CHECK: check-hazards-unknown-elements-threads.mlir:[[# @LINE + 1]]:7: error: 'llvm.store' op writes workgroup memory that another thread wrote, with no gpu.barrier between the two (any two threads) (write-after-write between threads)
      llvm.store %f, %three : f32, !llvm.ptr
      gpu.return
    }

    // Correct: each thread keeps its id in its own `llvm.alloca`, stores
    // it through a pointer into its element (the pointer's offset is its
    // element: no other thread's), reads it back, and after the barrier
    // reads its left neighbour's; thread 0 then fills a scratch buffer in one
    // arm while the others wait at nothing (the arms touch other memory).
    gpu.func @correct(%out: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>, %scratch: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %i1 = arith.constant 1 : i64
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %t = arith.index_cast %tid : index to i64
      %ti = arith.index_cast %tid : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %slot = llvm.alloca %i1 x f32 : (i64) -> !llvm.ptr
      llvm.store %f, %slot : f32, !llvm.ptr
      %kept = llvm.load %slot : !llvm.ptr -> f32
      %w = memref.extract_aligned_pointer_as_index %buf : memref<8xf32, 3> -> index
      %wi = arith.index_cast %w : index to i64
      %wp = llvm.inttoptr %wi : i64 to !llvm.ptr
      %mine = llvm.getelementptr %wp[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %kept, %mine : f32, !llvm.ptr
      %again = memref.load %buf[%tid] : memref<8xf32, 3>
      gpu.barrier
      %left = arith.addi %tid, %c7 : index
      %l = arith.remui %left, %c8 : index
      %x = memref.load %buf[%l] : memref<8xf32, 3>
      memref.store %x, %out[%tid] : memref<8xf32>
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        linalg.fill ins(%zero : f32) outs(%scratch : memref<8xf32, 3>)
      } else {
        %y = memref.load %buf[%tid] : memref<8xf32, 3>
      }
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main_fill_arm() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@fill_arm blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%out : memref<8xf32>)
    return
  }
  func.func @main_atomic_arm() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@atomic_arm blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%out : memref<8xf32>)
    return
  }
  func.func @main_correct() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@correct blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%out : memref<8xf32>)
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
