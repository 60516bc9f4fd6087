// apipe-software-pipeline reads integer arithmetic as it wraps (trials 35
// and 36): a store whose index reaches a copy's source only through
// wrap-around (narrow integers, 64-bit products, integers wider than 64
// bits, an unsigned loop's variable past 2^63) is a dependence, and a
// schedule that reverses it is refused, at the store, with a note at the
// copy. Each index below, read without wrapping, never
// meets the copied elements (the old dependence test accepted the loops,
// and the copies of later iterations ran before the stores they depend
// on); the store is guarded to stay in bounds.
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline --verify-diagnostics
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline="sync=tokens" --verify-diagnostics

// An i16 product: 16384 * i wraps to 0 at i = 4 (and i >= 1 where it
// stores), so iteration 4 stores A[1], which the copy of iteration 5 reads.
func.func @i16_product(%A: memref<65536xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %k = arith.constant 16384 : i16
  %one = arith.constant 1 : i16
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    // expected-note @+1 {{the 'apipe.copy' op of iteration i + 1}}
    apipe.copy %A[%c0], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<65536xf32> to memref<4xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<8xf32>
    %t = arith.index_cast %i {apipe.stage = 2 : i64} : index to i16
    %p = arith.muli %t, %k {apipe.stage = 2 : i64} : i16
    %q = arith.addi %p, %one {apipe.stage = 2 : i64} : i16
    %w = arith.index_castui %q {apipe.stage = 2 : i64} : i16 to index
    %later = arith.cmpi uge, %i, %c1 {apipe.stage = 2 : i64} : index
    scf.if %later {
      // expected-error @+1 {{'memref.store' op in stage 2 writes memory that 'apipe.copy' op in stage 0 reads (its source) 1 iteration later}}
      memref.store %x, %A[%w] : memref<65536xf32>
    } {apipe.stage = 2 : i64}
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// An i8 sum, zero-extended to i32 then to index: i + 4 wraps to 0 at
// i = 252 (the i8 of index i is its low 8 bits), so iteration 252 stores
// A[0], which the copy of iteration 253 reads.
func.func @i8_sum_extended(%A: memref<260xf32> {llvm.noalias}, %out: memref<300xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c300 = arith.constant 300 : index
  %k = arith.constant 4 : i8
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c300 step %c1 {
    // expected-note @+1 {{the 'apipe.copy' op of iteration i + 1}}
    apipe.copy %A[%c0], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<260xf32> to memref<4xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<300xf32>
    %t = arith.index_cast %i {apipe.stage = 2 : i64} : index to i8
    %s = arith.addi %t, %k {apipe.stage = 2 : i64} : i8
    %e = arith.extui %s {apipe.stage = 2 : i64} : i8 to i32
    %w = arith.index_castui %e {apipe.stage = 2 : i64} : i32 to index
    // expected-error @+1 {{'memref.store' op in stage 2 writes memory that 'apipe.copy' op in stage 0 reads (its source) 1 iteration later}}
    memref.store %x, %A[%w] {apipe.stage = 2 : i64} : memref<260xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A 64-bit product: 2^62 * i + 1 wraps to 1 at i = 4 (and i >= 1 where it
// stores). Such a product is not read as exact (a coefficient of 2^32 or
// more may wrap): the store may write what a later copy reads.
func.func @index_product(%A: memref<64xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %k = arith.constant 4611686018427387904 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    // expected-note @+1 {{the 'apipe.copy' op of iteration i + 1}}
    apipe.copy %A[%c0], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<8xf32>
    %w = arith.muli %i, %k {apipe.stage = 2 : i64} : index
    %v = arith.addi %w, %c1 {apipe.stage = 2 : i64} : index
    %later = arith.cmpi uge, %i, %c1 {apipe.stage = 2 : i64} : index
    scf.if %later {
      // expected-error @+1 {{'memref.store' op in stage 2 may write memory that 'apipe.copy' op in stage 0 may read (its source) 1 iteration later}}
      memref.store %x, %A[%v] : memref<64xf32>
    } {apipe.stage = 2 : i64}
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Wider than 64 bits (trial 36): the i128 of a negative index, zero-
// extended, is 2^64 + x, not x. floor((2^64 + i - 10) / 5) & 3 is 1 for
// i < 4 (read as x: 2 or 3), so iterations 0 to 3 store A[1], which the
// copy of the next iteration reads.
func.func @i128_extended(%A: memref<16xf32> {llvm.noalias}, %out: memref<10xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %five = arith.constant 5 : i128
  %three = arith.constant 3 : i128
  %buf = memref.alloc() : memref<2xf32>
  scf.for %i = %c0 to %c10 step %c1 {
    // expected-note @+1 {{the 'apipe.copy' op of iteration i + 1}}
    apipe.copy %A[%c0], %buf[%c0], 2 {apipe.stage = 0 : i64} : memref<16xf32> to memref<2xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 2 : i64} : memref<2xf32>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<10xf32>
    %n = arith.subi %i, %c10 {apipe.stage = 2 : i64} : index
    %e = arith.index_castui %n {apipe.stage = 2 : i64} : index to i128
    %q = arith.floordivsi %e, %five {apipe.stage = 2 : i64} : i128
    %m = arith.andi %q, %three {apipe.stage = 2 : i64} : i128
    %w = arith.index_cast %m {apipe.stage = 2 : i64} : i128 to index
    // expected-error @+1 {{'memref.store' op in stage 2 may write memory that 'apipe.copy' op in stage 0 may read (its source) 1 iteration later}}
    memref.store %x, %A[%w] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// An i128 constant past 2^64 (trial 36): 2^64 + 3 is not 3. Its remainder
// by 7 is 5, in the A[4..5] every copy reads (3 read as 3: outside). MLIR's
// folder computes the remainder in 128 bits: the store writes A[5], a
// dependence known to exist (not only possible).
func.func @i128_constant(%A: memref<16xf32> {llvm.noalias}, %out: memref<10xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %big = arith.constant 18446744073709551619 : i128
  %seven = arith.constant 7 : i128
  %buf = memref.alloc() : memref<2xf32>
  scf.for %i = %c0 to %c10 step %c1 {
    // expected-note @+1 {{the 'apipe.copy' op of iteration i + 1}}
    apipe.copy %A[%c4], %buf[%c0], 2 {apipe.stage = 0 : i64} : memref<16xf32> to memref<2xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 2 : i64} : memref<2xf32>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<10xf32>
    %r = arith.remui %big, %seven {apipe.stage = 2 : i64} : i128
    %w = arith.index_cast %r {apipe.stage = 2 : i64} : i128 to index
    // expected-error @+1 {{'memref.store' op in stage 2 writes memory that 'apipe.copy' op in stage 0 reads (its source) 1 iteration later}}
    memref.store %x, %A[%w] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// An unsigned loop past 2^63 (trial 36): i = 0, 2^62, 2^63, 3 * 2^62, the
// last two negative as an index. i divsi 2^61 is 0, 2, -4, -2 (read as
// lb + step * k: 0, 2, 4, 6), so iteration 2 stores A[0], which the copy
// of iteration 3 reads.
func.func @unsigned_past_sign_bit(%A: memref<16xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %ub = arith.constant -1 : index
  %step = arith.constant 4611686018427387904 : index
  %d = arith.constant 2305843009213693952 : index
  %buf = memref.alloc() : memref<2xf32>
  scf.for unsigned %i = %c0 to %ub step %step {
    // expected-note @+1 {{the 'apipe.copy' op of iteration i + 1}}
    apipe.copy %A[%c0], %buf[%c0], 2 {apipe.stage = 0 : i64} : memref<16xf32> to memref<2xf32>
    %x = memref.load %buf[%c0] {apipe.stage = 2 : i64} : memref<2xf32>
    %k = arith.divui %i, %step {apipe.stage = 2 : i64} : index
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<4xf32>
    %h = arith.divsi %i, %d {apipe.stage = 2 : i64} : index
    %w = arith.addi %h, %c4 {apipe.stage = 2 : i64} : index
    // expected-error @+1 {{'memref.store' op in stage 2 may write memory that 'apipe.copy' op in stage 0 may read (its source) 1 iteration later}}
    memref.store %x, %A[%w] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}
