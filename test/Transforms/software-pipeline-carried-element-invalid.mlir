// RUN: apipe-opt %s --split-input-file --verify-diagnostics --apipe-software-pipeline=num-stages=2 -o /dev/null
// RUN: apipe-opt %s --split-input-file --verify-diagnostics --apipe-software-pipeline=num-stages=3 -o /dev/null

// A buffer that async copies write also carries a value from one iteration
// to the next in elements the copies do not write (trial 43): versions
// would give each iteration another copy of it. Each loop is refused; it
// was pipelined, and every completion mode printed other sums than the
// input loop.

// The carried element is reset under `scf.if` before it is read and
// updated after: the iterations that skip the reset read what the last
// iteration stored (the store after the read matched the reset, so the
// paths looked alike).
func.func @reset_under_if(%A: memref<64xf32>, %out: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %ta = memref.alloc() : memref<4xf32>
  scf.for %j = %c0 to %c8 step %c1 {
    %off = arith.muli %j, %c4 : index
    apipe.copy %A[%off], %ta[%c0], 2 : memref<64xf32> to memref<4xf32>
    %first = arith.cmpi eq, %j, %c0 : index
    scf.if %first {
      // expected-error @+1 {{'memref.store' op writes its buffer under a condition and the buffer would get}}
      memref.store %zero, %ta[%c3] : memref<4xf32>
    }
    %x = memref.load %ta[%c1] : memref<4xf32>
    %p = memref.load %ta[%c3] : memref<4xf32>
    %s = arith.addf %p, %x : f32
    memref.store %s, %ta[%c3] : memref<4xf32>
    memref.store %s, %out[%j] : memref<8xf32>
  }
  memref.dealloc %ta : memref<4xf32>
  return
}

// -----

// In a kernel: each thread copies `buf[tid]` and keeps its own sum in
// `buf[8 + tid]`, which the block's copies never write (the read was taken
// as covered by the block's tile).
gpu.module @kernels {
  gpu.func @own_sum(%A: memref<256xi32> {llvm.noalias}, %out: memref<8xi32> {llvm.noalias})
      workgroup(%buf: memref<16xi32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c10 = arith.constant 10 : index
    %zero = arith.constant 0 : i32
    %tid = gpu.thread_id x
    %own = arith.addi %tid, %c8 : index
    %sum = scf.for %t = %c0 to %c10 step %c1 iter_args(%acc = %zero) -> (i32) {
      %ao = arith.muli %t, %c8 : index
      %src = arith.addi %ao, %tid : index
      apipe.copy %A[%src], %buf[%tid], 1 : memref<256xi32> to memref<16xi32, 3>
      %x = memref.load %buf[%tid] : memref<16xi32, 3>
      // expected-error @+1 {{'memref.load' op may read data that an earlier iteration wrote into the buffer}}
      %p = memref.load %buf[%own] : memref<16xi32, 3>
      %q = arith.addi %p, %x : i32
      // expected-note @+1 {{the write of an earlier iteration}}
      memref.store %q, %buf[%own] : memref<16xi32, 3>
      %acc2 = arith.addi %acc, %p : i32
      scf.yield %acc2 : i32
    }
    memref.store %sum, %out[%tid] : memref<8xi32>
    gpu.return
  }
}

// -----

// A counter in `buf[8]` that thread 0 updates, in a block of 8 threads:
// their copies write `buf[0..8)` only. (The neighbour's element, `(tid +
// 1) mod 8`, is within the tile: that read alone is accepted.)
gpu.module @kernels {
  gpu.func @counter(%A: memref<256xi32> {llvm.noalias}, %out: memref<16xi32> {llvm.noalias})
      workgroup(%buf: memref<12xi32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c10 = arith.constant 10 : index
    %zero = arith.constant 0 : i32
    %tid = gpu.thread_id x
    %t1 = arith.addi %tid, %c1 : index
    %nb = arith.remui %t1, %c8 : index
    %is0 = arith.cmpi eq, %tid, %c0 : index
    %sum = scf.for %t = %c0 to %c10 step %c1 iter_args(%acc = %zero) -> (i32) {
      %ao = arith.muli %t, %c8 : index
      %ao3 = arith.addi %ao, %tid : index
      apipe.copy %A[%ao3], %buf[%tid], 1 : memref<256xi32> to memref<12xi32, 3>
      gpu.barrier
      %x = memref.load %buf[%nb] : memref<12xi32, 3>
      // expected-error @+1 {{'memref.load' op may read data that an earlier iteration wrote into the buffer}}
      %p = memref.load %buf[%c8] : memref<12xi32, 3>
      gpu.barrier
      scf.if %is0 {
        %q = arith.addi %p, %x : i32
        // expected-note @+1 {{the write of an earlier iteration}}
        memref.store %q, %buf[%c8] : memref<12xi32, 3>
      }
      %s1 = arith.addi %acc, %p : i32
      scf.yield %s1 : i32
    }
    memref.store %sum, %out[%tid] : memref<16xi32>
    gpu.return
  }
}

// -----

// The same counter in a kernel that does not state its block size (trial
// 44): the read of `buf[8]` is taken to be within the tile the block
// copies, but the store into it of an earlier iteration still counts.
gpu.module @kernels {
  gpu.func @counter_unknown_block(%A: memref<256xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias})
      workgroup(%buf: memref<32xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %one = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %is0 = arith.cmpi eq, %tid, %c0 : index
    scf.for %j = %c0 to %c8 step %c1 {
      %b = arith.muli %j, %c8 : index
      %off = arith.addi %b, %tid : index
      apipe.copy %A[%off], %buf[%tid], 1 : memref<256xf32> to memref<32xf32, 3>
      gpu.barrier
      %x = memref.load %buf[%tid] : memref<32xf32, 3>
      // expected-error @+1 {{'memref.load' op may read data that an earlier iteration wrote into the buffer}}
      %r = memref.load %buf[%c8] : memref<32xf32, 3>
      %s = arith.addf %x, %r : f32
      memref.store %s, %out[%off] : memref<64xf32>
      gpu.barrier
      scf.if %is0 {
        %n = arith.addf %r, %one : f32
        // expected-note @+1 {{the write of an earlier iteration}}
        memref.store %n, %buf[%c8] : memref<32xf32, 3>
      }
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// Per-thread sums at `buf[min(tid + 8, 32)]` (an index whose bounds are not
// shown) in a block of 8 threads (trial 44).
gpu.module @kernels {
  gpu.func @unknown_bounds(%A: memref<256xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias})
      workgroup(%buf: memref<33xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    scf.for %j = %c0 to %c8 step %c1 {
      %b = arith.muli %j, %c8 : index
      %off = arith.addi %b, %tid : index
      apipe.copy %A[%off], %buf[%tid], 1 : memref<256xf32> to memref<33xf32, 3>
      gpu.barrier
      %x = memref.load %buf[%tid] : memref<33xf32, 3>
      %t8 = arith.addi %tid, %c8 : index
      %ci = arith.minui %t8, %c32 : index
      // expected-error @+1 {{'memref.load' op may read data that an earlier iteration wrote into the buffer}}
      %r = memref.load %buf[%ci] : memref<33xf32, 3>
      %s = arith.addf %x, %r : f32
      // expected-note @+1 {{the write of an earlier iteration}}
      memref.store %s, %buf[%ci] : memref<33xf32, 3>
      memref.store %s, %out[%off] : memref<64xf32>
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// The reset is a masked store whose mask holds for the carried element in
// iteration 0 only (trial 44): a masked write is no write of every element
// of its region, so it does not give the read its iteration's data.
func.func @masked_reset(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %tile = memref.alloc() : memref<4xf32>
  scf.for %j = %c0 to %c16 step %c1 {
    %off = arith.muli %j, %c2 : index
    apipe.copy %A[%off], %tile[%c0], 2 : memref<64xf32> to memref<4xf32>
    %first = arith.cmpi eq, %j, %c0 : index
    %x = memref.load %tile[%c0] : memref<4xf32>
    %m1 = vector.broadcast %first : i1 to vector<1xi1>
    %t = arith.constant dense<true> : vector<1xi1>
    %mask = vector.shuffle %t, %m1 [0, 1] : vector<1xi1>, vector<1xi1>
    %v = vector.broadcast %zero : f32 to vector<2xf32>
    // expected-note @+1 {{the write of an earlier iteration}}
    vector.maskedstore %tile[%c2], %mask, %v : memref<4xf32>, vector<2xi1>, vector<2xf32>
    // expected-error @+1 {{'memref.load' op may read data that an earlier iteration wrote into the buffer}}
    %r = memref.load %tile[%c3] : memref<4xf32>
    %s = arith.addf %x, %r : f32
    memref.store %s, %out[%j] : memref<16xf32>
    memref.store %s, %tile[%c3] : memref<4xf32>
  }
  memref.dealloc %tile : memref<4xf32>
  return
}

// -----

// A masked store that writes the same elements in every iteration, under a
// mask true on even iterations only (trial 45): it was taken to overwrite
// them in every iteration, so the odd iterations' reads of what the last
// even one stored were accepted.
func.func @masked_even(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %tile = memref.alloc() : memref<4xf32>
  scf.for %j = %c0 to %c16 step %c1 {
    %off = arith.muli %j, %c4 : index
    apipe.copy %A[%off], %tile[%c0], 2 : memref<64xf32> to memref<4xf32>
    %jm = arith.remui %j, %c2 : index
    %even = arith.cmpi eq, %jm, %c0 : index
    %m = vector.broadcast %even : i1 to vector<2xi1>
    %v = vector.broadcast %one : f32 to vector<2xf32>
    // expected-note @+1 {{the write of an earlier iteration}}
    vector.maskedstore %tile[%c2], %m, %v : memref<4xf32>, vector<2xi1>, vector<2xf32>
    %x0 = memref.load %tile[%c0] : memref<4xf32>
    // expected-error @+1 {{'memref.load' op may read data that an earlier iteration wrote into the buffer}}
    %x2 = memref.load %tile[%c2] : memref<4xf32>
    %s = arith.addf %x0, %x2 : f32
    memref.store %s, %out[%j] : memref<16xf32>
  }
  memref.dealloc %tile : memref<4xf32>
  return
}
