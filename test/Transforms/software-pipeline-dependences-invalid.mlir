// apipe-software-pipeline refuses a schedule that reverses a memory
// dependence of the original loop: a located error at the access of the
// earlier iteration naming both ops, the kind and the iteration distance,
// and a note at the other op. The IR is not changed (the library entry
// point is checked to leave it unchanged by a unit test).
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline --verify-diagnostics
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline="sync=tokens" --verify-diagnostics

// Iteration i stores A[4(i + 1)] in stage 2; the stage-0 copy of iteration
// i + 1 reads it, two time steps earlier.
func.func @distance_one(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c15 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    // expected-note @+1 {{the 'apipe.copy' op of iteration i + 1}}
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 2 : i64} : memref<4xf32>
    %i1 = arith.addi %i, %c1 {apipe.stage = 2 : i64} : index
    %o1 = arith.muli %i1, %c4 {apipe.stage = 2 : i64} : index
    // expected-error @+1 {{'memref.store' op in stage 2 writes memory that 'apipe.copy' op in stage 0 reads (its source) 1 iteration later: the pipelined schedule does not keep this loop-carried read-after-write dependence (iteration distance 1); change the stages (apipe.stage) or the order (apipe.order) so that the second access stays after the first}}
    memref.store %x, %A[%o1] {apipe.stage = 2 : i64} : memref<64xf32>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Distance 2: the store of iteration i writes what the copy of iteration
// i + 2 reads, in the same time step but after it.
func.func @distance_two(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c14 = arith.constant 14 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c14 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    // expected-note @+1 {{the 'apipe.copy' op of iteration i + 2}}
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 2 : i64} : memref<4xf32>
    %i2 = arith.addi %i, %c2 {apipe.stage = 2 : i64} : index
    %o2 = arith.muli %i2, %c4 {apipe.stage = 2 : i64} : index
    %o3 = arith.addi %o2, %c1 {apipe.stage = 2 : i64} : index
    // expected-error @+1 {{'memref.store' op in stage 2 writes memory that 'apipe.copy' op in stage 0 reads (its source) 2 iterations later: the pipelined schedule does not keep this loop-carried read-after-write dependence (iteration distance 2);}}
    memref.store %x, %A[%o3] {apipe.stage = 2 : i64} : memref<64xf32>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A negative offset: the copy of iteration i reads A[4(i - 1) ...], what the
// store of iteration i - 1 wrote.
func.func @negative_offset(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c1 to %c16 step %c1 {
    %m = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    %off = arith.subi %m, %c4 {apipe.stage = 0 : i64} : index
    // expected-note @+1 {{the 'apipe.copy' op of iteration i + 1}}
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    %o = arith.addi %m, %c1 {apipe.stage = 1 : i64} : index
    // expected-error @+1 {{'memref.store' op in stage 1 writes memory that 'apipe.copy' op in stage 0 reads (its source) 1 iteration later: the pipelined schedule does not keep this loop-carried read-after-write dependence (iteration distance 1);}}
    memref.store %x, %A[%o] {apipe.stage = 1 : i64} : memref<64xf32>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Strided: the copy reads A[8i, 8i + 4), the store writes A[8i + 9], which
// the copy of iteration i + 1 reads.
func.func @strided(%A: memref<128xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c15 = arith.constant 15 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c15 step %c1 {
    %off = arith.muli %i, %c8 {apipe.stage = 0 : i64} : index
    // expected-note @+1 {{the 'apipe.copy' op of iteration i + 1}}
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<128xf32> to memref<4xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 1 : i64} : memref<4xf32>
    %o = arith.addi %off, %c9 {apipe.stage = 1 : i64} : index
    // expected-error @+1 {{'memref.store' op in stage 1 writes memory that 'apipe.copy' op in stage 0 reads (its source) 1 iteration later: the pipelined schedule does not keep this loop-carried read-after-write dependence (iteration distance 1);}}
    memref.store %x, %A[%o] {apipe.stage = 1 : i64} : memref<128xf32>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// 2-D, through subviews: the copy reads row i, columns [0, 4) of A (a row
// subview made in stage 0); the store writes A[i + 1, 2].
func.func @two_dimensional_subview(%A: memref<16x8xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c15 = arith.constant 15 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c15 step %c1 {
    %row = memref.subview %A[%i, 0] [1, 8] [1, 1] {apipe.stage = 0 : i64} : memref<16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    // expected-note @+1 {{the 'apipe.copy' op of iteration i + 1}}
    apipe.copy %row[%c0], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<8xf32, strided<[1], offset: ?>> to memref<4xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 1 : i64} : memref<4xf32>
    %i1 = arith.addi %i, %c1 {apipe.stage = 1 : i64} : index
    %next = memref.subview %A[%i1, 0] [1, 8] [1, 1] {apipe.stage = 1 : i64} : memref<16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    // expected-error @+1 {{'memref.store' op in stage 1 writes memory that 'apipe.copy' op in stage 0 reads (its source) 1 iteration later: the pipelined schedule does not keep this loop-carried read-after-write dependence (iteration distance 1);}}
    memref.store %x, %next[%c2] {apipe.stage = 1 : i64} : memref<8xf32, strided<[1], offset: ?>>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A vector.store of 4 elements at A[4i + 2, 4i + 6) meets the copy of
// iteration i + 1 (A[4i + 4, 4i + 8)).
func.func @vector_store(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c15 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    // expected-note @+1 {{the 'apipe.copy' op of iteration i + 1}}
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %v = vector.load %buf[%c0] {apipe.stage = 1 : i64} : memref<4xf32>, vector<4xf32>
    %o = arith.addi %off, %c2 {apipe.stage = 1 : i64} : index
    // expected-error @+1 {{'vector.store' op in stage 1 writes memory that 'apipe.copy' op in stage 0 reads (its source) 1 iteration later: the pipelined schedule does not keep this loop-carried read-after-write dependence (iteration distance 1);}}
    vector.store %v, %A[%o] {apipe.stage = 1 : i64} : memref<64xf32>, vector<4xf32>
    %x = vector.extract %v[0] {apipe.stage = 1 : i64} : f32 from vector<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Write-after-read through a buffer that cannot get versions (an
// argument): iteration i + 1 stores tmp[0] in stage 1 before iteration i
// loads it in stage 2.
func.func @argument_buffer_reused(%A: memref<64xf32> {llvm.noalias}, %tmp: memref<1xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 1 : i64} : memref<4xf32>
    // expected-note @+1 {{the 'memref.store' op of iteration i + 1}}
    memref.store %x, %tmp[%c0] {apipe.stage = 1 : i64} : memref<1xf32>
    // expected-error @+1 {{'memref.load' op in stage 2 reads memory that 'memref.store' op in stage 1 writes 1 iteration later: the pipelined schedule does not keep this loop-carried write-after-read dependence (iteration distance 1);}}
    %y = memref.load %tmp[%c0] {apipe.stage = 2 : i64} : memref<1xf32>
    memref.store %y, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Within one iteration: the stage-2 store of out[0] comes first in the
// body, the stage-1 store of out[0] second; the schedule runs the second
// one time step earlier (write-after-write at distance 0).
func.func @same_iteration(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 1 : i64} : memref<4xf32>
    // expected-error @+1 {{'memref.store' op in stage 2 writes memory that 'memref.store' op in stage 1 writes in the same iteration: the pipelined schedule does not keep this write-after-write dependence (iteration distance 0);}}
    memref.store %x, %out[%c0] {apipe.stage = 2 : i64} : memref<16xf32>
    // expected-note @+1 {{the 'memref.store' op of the same iteration}}
    memref.store %x, %out[%c0] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Index not affine in the induction variable (a loaded index): the test is
// conservative and refuses.
func.func @unknown_index(%A: memref<64xf32> {llvm.noalias}, %idx: memref<16xindex> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    // expected-note @+1 {{the 'apipe.copy' op of iteration i + 1}}
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 1 : i64} : memref<4xf32>
    %j = memref.load %idx[%i] {apipe.stage = 1 : i64} : memref<16xindex>
    // expected-error @+1 {{'memref.store' op in stage 1 may write memory that 'apipe.copy' op in stage 0 may read (its source) 1 iteration later: the pipelined schedule does not keep this loop-carried read-after-write dependence (iteration distance 1);}}
    memref.store %x, %A[%j] {apipe.stage = 1 : i64} : memref<64xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A call that receives the buffer is refused (its effects are unknown).
func.func private @touch(memref<64xf32>)
func.func @call_receiving_the_buffer(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 1 : i64} : memref<4xf32>
    // expected-error @+1 {{'func.call' op cannot be moved by the pipeliner: a call may have side effects (calls are refused in every stage; inline the callee first, e.g. run 'inline' before this pass)}}
    func.call @touch(%A) {apipe.stage = 1 : i64} : (memref<64xf32>) -> ()
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Loops nested in stages: stage 2 reads tmp[4i + 4] (an argument: it
// cannot get versions), which the inner loop of stage 1 of iteration i + 1
// writes (j' = 0) a time step earlier.
func.func @inner_loop_store(%A: memref<64xf32> {llvm.noalias}, %tmp: memref<68xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %base = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%base], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    scf.for %j = %c0 to %c4 step %c1 {
      %x = memref.load %buf[%j] : memref<4xf32>
      %t = arith.addi %base, %j : index
      // expected-note @+1 {{the 'memref.store' op of iteration i + 1}}
      memref.store %x, %tmp[%t] : memref<68xf32>
    } {apipe.stage = 1 : i64}
    %b4 = arith.addi %base, %c4 {apipe.stage = 2 : i64} : index
    // expected-error @+1 {{'memref.load' op in stage 2 reads memory that 'memref.store' op in stage 1 writes 1 iteration later: the pipelined schedule does not keep this loop-carried write-after-read dependence (iteration distance 1);}}
    %next = memref.load %tmp[%b4] {apipe.stage = 2 : i64} : memref<68xf32>
    memref.store %next, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Two copies of one stage in flight together write overlapping elements
// (buf[j, j + 2) for j = 0, 1): their order is not kept.
func.func @overlapping_copies_in_flight(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %base = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    scf.for %j = %c0 to %c2 step %c1 {
      %src = arith.addi %base, %j : index
      // expected-error @+2 {{'apipe.copy' op in stage 0 writes (its destination) memory that 'apipe.copy' op in stage 0 writes (its destination) in the same iteration: the pipelined schedule does not keep this write-after-write dependence (iteration distance 0) (an async copy accesses memory until the wait on its group in stage 1);}}
      // expected-note @+1 {{the 'apipe.copy' op of the same iteration}}
      apipe.copy %A[%src], %buf[%j], 2 : memref<64xf32> to memref<4xf32>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A local buffer written synchronously would need versions, but it is read
// after the loop: it keeps one version, and the schedule is refused.
func.func @local_buffer_read_after_the_loop(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  %tmp = memref.alloca() : memref<1xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 1 : i64} : memref<4xf32>
    // expected-note @+1 {{the 'memref.store' op of iteration i + 1}}
    memref.store %x, %tmp[%c0] {apipe.stage = 1 : i64} : memref<1xf32>
    // expected-error @+1 {{'memref.load' op in stage 2 reads memory that 'memref.store' op in stage 1 writes 1 iteration later: the pipelined schedule does not keep this loop-carried write-after-read dependence (iteration distance 1);}}
    %y = memref.load %tmp[%c0] {apipe.stage = 2 : i64} : memref<1xf32>
    memref.store %y, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  %last = memref.load %tmp[%c0] : memref<1xf32>
  return %last : f32
}

// -----

// A load in async stage 0 (an index that the copy uses) of an element that
// the previous iteration stores in stage 2: in the pipelined loop the load
// of iteration i + 1 runs before the store of iteration i.
func.func @index_written_for_next_iteration(%A: memref<64xf32> {llvm.noalias}, %idx: memref<17xindex> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    // expected-note @+1 {{the 'memref.load' op of iteration i + 1}}
    %j = memref.load %idx[%i] {apipe.stage = 0 : i64} : memref<17xindex>
    %off = arith.muli %j, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
    %i1 = arith.addi %i, %c1 {apipe.stage = 2 : i64} : index
    %n = arith.remui %j, %c16 {apipe.stage = 2 : i64} : index
    // expected-error @+1 {{'memref.store' op in stage 2 writes memory that 'memref.load' op in stage 0 reads 1 iteration later: the pipelined schedule does not keep this loop-carried read-after-write dependence (iteration distance 1);}}
    memref.store %n, %idx[%i1] {apipe.stage = 2 : i64} : memref<17xindex>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// The same loop without stage annotations: num-stages puts the index load
// in stage 0, and the dependence test refuses the schedule.
func.func @index_written_for_next_iteration_unannotated(%A: memref<64xf32> {llvm.noalias}, %idx: memref<17xindex> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    // expected-note @+1 {{the 'memref.load' op of iteration i + 1}}
    %j = memref.load %idx[%i] : memref<17xindex>
    %off = arith.muli %j, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    %i1 = arith.addi %i, %c1 : index
    %y = arith.fptosi %x : f32 to i32
    %yi = arith.index_cast %y : i32 to index
    %n = arith.remui %yi, %c16 : index
    // expected-error @+1 {{'memref.store' op in stage 2 writes memory that 'memref.load' op in stage 0 reads 1 iteration later: the pipelined schedule does not keep this loop-carried read-after-write dependence (iteration distance 1);}}
    memref.store %n, %idx[%i1] : memref<17xindex>
  } {apipe.num_stages = 3 : i64}
  return
}

// -----

// Two arguments without llvm.noalias may be one buffer: stage 2 stores
// w[i + 1] and the stage-0 load of iteration i + 1 reads idx[i + 1], the
// same element when the caller passes one table twice
// (software-pipeline-noalias-run.mlir pipelines it once %w is marked).
func.func @aliasing_arguments(%A: memref<64xf32> {llvm.noalias}, %idx: memref<17xindex>, %w: memref<17xindex>, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    // expected-note @+1 {{the 'memref.load' op of iteration i + 1}}
    %j = memref.load %idx[%i] {apipe.stage = 0 : i64} : memref<17xindex>
    %off = arith.muli %j, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
    %xi = arith.fptosi %x {apipe.stage = 2 : i64} : f32 to i32
    %xx = arith.index_cast %xi {apipe.stage = 2 : i64} : i32 to index
    %n = arith.remui %xx, %c15 {apipe.stage = 2 : i64} : index
    %i1 = arith.addi %i, %c1 {apipe.stage = 2 : i64} : index
    // expected-error @+1 {{'memref.store' op in stage 2 may write memory that 'memref.load' op in stage 0 may read 1 iteration later: the pipelined schedule does not keep this loop-carried read-after-write dependence (iteration distance 1); the two buffers are different values that may be the same memory: mark the function argument {llvm.noalias} if it overlaps no other buffer, or change the stages (apipe.stage) or the order (apipe.order) so that the second access stays after the first}}
    memref.store %n, %w[%i1] {apipe.stage = 2 : i64} : memref<17xindex>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A global and an argument without llvm.noalias may be one buffer: stage 2
// writes @table[i], which the stage-0 copies of iterations i + 1 and i + 2
// may read through %A (a copy of 4 elements from A[i]).
memref.global "private" @table : memref<64xf32> = dense<0.0>
func.func @global_and_argument(%A: memref<64xf32>, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %t = memref.get_global @table : memref<64xf32>
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    // expected-note @+1 {{the 'apipe.copy' op of iteration i + 1}}
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
    // expected-error @+1 {{'memref.store' op in stage 2 may write memory that 'apipe.copy' op in stage 0 may read (its source) 1 iteration later: the pipelined schedule does not keep this loop-carried read-after-write dependence (iteration distance 1); the two buffers are different values that may be the same memory: mark the function argument {llvm.noalias}}}
    memref.store %x, %t[%i] {apipe.stage = 2 : i64} : memref<64xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}
