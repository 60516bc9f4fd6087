// Dependences between the threads of a block. The input loop runs its
// iterations in step in every thread where its barriers order them, so an
// access of one thread may meet another thread's access of a later
// iteration: a thread stores what its neighbour's copy of the next
// iteration reads, or two threads' copies of consecutive iterations write
// the same element of an unversioned buffer. The schedule must keep those
// dependences too; the pipeliner compares each access with the other
// threads' (their thread-variant values renamed) and refuses the loops it
// would reverse (trial 9, finding 1; trial 8, finding 7). Before, it
// compared a thread's accesses with its own only, and each of these loops
// was pipelined into a race (apipe-run --racecheck: WAR on the copy's
// source, WAW between the copies).
//
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline="num-stages=3" --verify-diagnostics

// A store into global memory at the neighbour's position, which the
// neighbour's copy of the next iteration reads.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @neighbour_global(%A: memref<256xf32>, %out: memref<128xf32> {llvm.noalias})
        workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c8 : index
      scf.for %i = %c0 to %c16 step %c1 {
        %base = arith.muli %i, %c8 : index
        %off = arith.addi %base, %tid : index
        // expected-note@+1 {{the 'apipe.copy' op of iteration i + 1, in another thread}}
        apipe.copy %A[%off], %buf[%tid], 1 : memref<256xf32> to memref<8xf32, 3>
        gpu.barrier
        %x = memref.load %buf[%tid] : memref<8xf32, 3>
        memref.store %x, %out[%off] : memref<128xf32>
        %i1 = arith.addi %i, %c1 : index
        %b1 = arith.muli %i1, %c8 : index
        %w = arith.addi %b1, %nb : index
        %y = arith.addf %x, %x : f32
        // expected-error@+1 {{'memref.store' op in stage 2 may write memory that 'apipe.copy' op in stage 0 may read (its source) 1 iteration later in another thread of the block: the pipelined schedule does not keep this loop-carried read-after-write dependence (iteration distance 1)}}
        memref.store %y, %A[%w] : memref<256xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

// The same through workgroup memory (the copy's source is a workgroup
// buffer), the neighbour given by `tid xor 1`.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @neighbour_shared(%out: memref<256xf32> {llvm.noalias})
        workgroup(%buf: memref<64xf32, 3>, %s: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      %nb = arith.xori %tid, %c1 : index
      %f0 = arith.constant 1.0 : f32
      memref.store %f0, %s[%tid] : memref<64xf32, 3>
      gpu.barrier
      scf.for %i = %c0 to %c8 step %c1 {
        // expected-note@+1 {{the 'apipe.copy' op of iteration i + 1, in another thread}}
        apipe.copy %s[%tid], %buf[%tid], 1 : memref<64xf32, 3> to memref<64xf32, 3>
        gpu.barrier
        %x = memref.load %buf[%tid] : memref<64xf32, 3>
        %base = arith.muli %i, %c8 : index
        %o = arith.addi %base, %tid : index
        memref.store %x, %out[%o] : memref<256xf32>
        %y = arith.addf %x, %x : f32
        // expected-error@+1 {{'memref.store' op in stage 2 may write memory that 'apipe.copy' op in stage 0 may read (its source) 1 iteration later in another thread of the block}}
        memref.store %y, %s[%nb] : memref<64xf32, 3>
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

// Copies of consecutive iterations into one unversioned buffer, each
// iteration at its own offset 16 i + tid: with 32 threads (the copy into
// buf[tid] of 32 elements allows them), thread tid + 16 of iteration i and
// thread tid of iteration i + 1 write the same element, both in flight.
// With a buf of 16 elements the thread ids are below 16 and the loop is
// pipelined (software-pipeline-barriers-fallback.mlir).
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @drain(%A: memref<1024xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias})
        workgroup(%buf: memref<32xf32, 3>, %keep: memref<128xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %r1 = arith.addi %tid, %c3 : index
      %nb = arith.remui %r1, %c32 : index
      %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
        %base = arith.muli %i, %c16 : index
        %off = arith.addi %base, %tid : index
        %o2 = arith.addi %off, %c64 : index
        apipe.copy %A[%off], %buf[%tid], 1 : memref<1024xf32> to memref<32xf32, 3>
        // expected-error@+2 {{'apipe.copy' op in stage 0 may write (its destination) memory that 'apipe.copy' op in stage 0 may write (its destination) 1 iteration later in another thread of the block}}
        // expected-note@+1 {{the 'apipe.copy' op of iteration i + 1, in another thread}}
        apipe.copy %A[%o2], %keep[%off], 1 : memref<1024xf32> to memref<128xf32, 3>
        apipe.commit_group
        apipe.wait_group 0
        gpu.barrier
        %x = memref.load %buf[%nb] : memref<32xf32, 3>
        %a2 = arith.addf %acc, %x : f32
        gpu.barrier
        scf.yield %a2 : f32
      }
      %t2 = arith.muli %tid, %c2 : index
      %k = memref.load %keep[%t2] : memref<128xf32, 3>
      %s2 = arith.addf %s, %k : f32
      memref.store %s2, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

// A copy that only threads 0-7 issue (under `scf.if %tid < 8`), reading
// A[8 t + tid], and a store of A[8 t + tid] by every thread: thread tid + 8
// of iteration t writes what thread tid copies in iteration t + 1. The
// condition around the copy is the copying thread's, not the storing
// one's: it is renamed with the other thread's values too (trial 10,
// finding M1; before, it bounded both threads and the loop was pipelined
// into a race).
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @producer_threads(%A: memref<256xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias})
        workgroup(%buf: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %lo = arith.cmpi ult, %tid, %c8 : index
      %s = scf.for %t = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
        %tile = arith.muli %t, %c8 : index
        %off = arith.addi %tile, %tid : index
        scf.if %lo {
          // expected-note@+1 {{the 'apipe.copy' op of iteration i + 1, in another thread}}
          apipe.copy %A[%off], %buf[%tid], 1 : memref<256xf32> to memref<16xf32, 3>
        }
        gpu.barrier
        %x = memref.load %buf[%tid] : memref<16xf32, 3>
        %p = arith.addf %acc, %x : f32
        // expected-error@+1 {{'memref.store' op in stage 2 may write memory that 'apipe.copy' op in stage 0 may read (its source) 1 iteration later in another thread of the block}}
        memref.store %p, %A[%off] : memref<256xf32>
        gpu.barrier
        scf.yield %p : f32
      }
      memref.store %s, %out[%tid] : memref<16xf32>
      gpu.return
    }
  }
}
