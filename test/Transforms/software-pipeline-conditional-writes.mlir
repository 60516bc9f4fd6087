// The error "writes its buffer under a condition" on a multi-buffered
// buffer fires exactly when some path through an iteration reads a part of
// the buffer that some iteration writes but this path does not (the version
// would then hold the data of V iterations earlier). One case per chunk;
// the cases without a warning line must be silent.
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline --verify-diagnostics -o /dev/null

// -----

// Both branches copy the whole buffer (from different sources): every
// iteration writes it. (A report once warned here.)
func.func @both_branches_write_the_whole_buffer(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    scf.if %odd {
      apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    } else {
      apipe.copy %Y[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Only odd iterations copy, every iteration reads.
func.func @then_only(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    scf.if %odd {
      // expected-error @+1 {{'apipe.copy' op writes its buffer under a condition and the buffer would get 3 versions}}
      apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Only odd iterations copy, and only they read.
func.func @read_under_the_same_condition(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    scf.if %odd {
      apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    } {apipe.stage = 0 : i64}
    scf.if %odd {
      %x = memref.load %buf[%c1] : memref<4xf32>
      memref.store %x, %out[%t] : memref<16xf32>
    } {apipe.stage = 2 : i64}
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Odd iterations copy, even iterations read.
func.func @read_under_the_opposite_condition(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    scf.if %odd {
      // expected-error @+1 {{'apipe.copy' op writes its buffer under a condition and the buffer would get 3 versions}}
      apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    } {apipe.stage = 0 : i64}
    scf.if %odd {
    } else {
      %x = memref.load %buf[%c1] : memref<4xf32>
      memref.store %x, %out[%t] : memref<16xf32>
    } {apipe.stage = 2 : i64}
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// The branches write different halves; the read at 1 is in the half only
// odd iterations write.
func.func @branches_write_different_halves(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<8xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    scf.if %odd {
      // expected-error @+1 {{'apipe.copy' op writes its buffer under a condition and the buffer would get 3 versions}}
      apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
    } else {
      apipe.copy %Y[%off], %buf[%c4], 4 : memref<64xf32> to memref<8xf32>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<8xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Both branches write [0, 4) (odd ones also [4, 8)); the read at 1 is
// always written.
func.func @both_branches_write_the_half_read(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<8xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    scf.if %odd {
      apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
      apipe.copy %X[%off], %buf[%c4], 4 : memref<64xf32> to memref<8xf32>
    } else {
      apipe.copy %Y[%off], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<8xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// As above, but the read at 5 is in [4, 8), which even iterations skip.
func.func @read_in_the_part_one_branch_skips(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c5 = arith.constant 5 : index
  %buf = memref.alloc() : memref<8xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    scf.if %odd {
      apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
      // expected-error @+1 {{'apipe.copy' op writes its buffer under a condition and the buffer would get 3 versions}}
      apipe.copy %X[%off], %buf[%c4], 4 : memref<64xf32> to memref<8xf32>
    } else {
      apipe.copy %Y[%off], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c5] {apipe.stage = 2 : i64} : memref<8xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// scf.index_switch: every case and the default copy the whole buffer.
func.func @switch_every_case_writes(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    %sel = arith.remui %t, %c3 {apipe.stage = 0 : i64} : index
    scf.index_switch %sel {apipe.stage = 0 : i64}
    case 0 {
      apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
      scf.yield
    }
    case 1 {
      apipe.copy %Y[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
      scf.yield
    }
    default {
      apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
      scf.yield
    }
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// scf.index_switch whose default does not copy.
func.func @switch_default_skips(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    %sel = arith.remui %t, %c3 {apipe.stage = 0 : i64} : index
    scf.index_switch %sel {apipe.stage = 0 : i64}
    case 0 {
      // expected-error @+1 {{'apipe.copy' op writes its buffer under a condition and the buffer would get 3 versions}}
      apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
      scf.yield
    }
    case 1 {
      apipe.copy %Y[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
      scf.yield
    }
    default {
      scf.yield
    }
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Nested conditions whose leaves all copy the whole buffer.
func.func @nested_conditions_cover_every_path(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    %big = arith.cmpi ugt, %t, %c3 {apipe.stage = 0 : i64} : index
    scf.if %odd {
      scf.if %big {
        apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
      } else {
        apipe.copy %Y[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
      }
    } else {
      apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// One leaf of the nested conditions does not copy.
func.func @nested_condition_skips_a_leaf(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    %big = arith.cmpi ugt, %t, %c3 {apipe.stage = 0 : i64} : index
    scf.if %odd {
      scf.if %big {
        // expected-error @+1 {{'apipe.copy' op writes its buffer under a condition and the buffer would get 3 versions}}
        apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
      }
    } else {
      apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A condition defined outside the loop: every iteration copies, or none.
func.func @loop_invariant_condition(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    scf.if %flag {
      apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A condition computed from the induction variable inside a branch of the
// body changes between iterations like one computed at the top (it was
// taken to be the same in every iteration: with %flag set, the odd
// iterations read the data of 3 iterations earlier, a miscompile).
func.func @condition_of_the_iteration_inside_a_branch(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %flag: i1, %n: index, %flags: memref<16xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    scf.if %flag {
      %r = arith.remui %t, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      scf.if %even {
        // expected-error @+1 {{'apipe.copy' op writes its buffer under a condition and the buffer would get 3 versions}}
        apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
      }
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A condition loaded in the body may change between iterations, even from
// the same address (memory may change).
func.func @condition_loaded_in_the_body(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %flag: i1, %n: index, %flags: memref<16xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %f = memref.load %flags[%c0] {apipe.stage = 0 : i64} : memref<16xi1>
    scf.if %f {
      // expected-error @+1 {{'apipe.copy' op writes its buffer under a condition and the buffer would get 3 versions}}
      apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A condition computed in the body (inside a branch too) from values
// defined outside the loop, by ops with no memory effects, is the same in
// every iteration: every iteration copies, or none.
func.func @invariant_condition_computed_in_the_body(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %flag: i1, %n: index, %flags: memref<16xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %small = arith.cmpi ult, %n, %c3 {apipe.stage = 0 : i64} : index
    scf.if %flag {
      %both = arith.andi %small, %flag : i1
      scf.if %both {
        apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
      }
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// The result of an scf.if whose condition and yields are the same in every
// iteration is too (trial 89: it was taken to change, a wrong refusal).
func.func @invariant_condition_yielded_by_a_branch(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %flag: i1, %n: index, %flags: memref<16xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %small = scf.if %flag -> i1 {
      %lt = arith.cmpi ult, %n, %c3 : index
      scf.yield %lt : i1
    } else {
      scf.yield %flag : i1
    } {apipe.stage = 0 : i64}
    scf.if %flag {
      scf.if %small {
        apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
      }
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// One of its yields changes between iterations: so does the result.
func.func @condition_of_the_iteration_yielded_by_a_branch(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %flag: i1, %n: index, %flags: memref<16xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %small = scf.if %flag -> i1 {
      %r = arith.remui %t, %c2 : index
      %lt = arith.cmpi eq, %r, %c0 : index
      scf.yield %lt : i1
    } else {
      scf.yield %flag : i1
    } {apipe.stage = 0 : i64}
    scf.if %flag {
      scf.if %small {
        // expected-error @+1 {{'apipe.copy' op writes its buffer under a condition and the buffer would get 3 versions}}
        apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
      }
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// The branches write at different dynamic offsets, which may overlap the
// read.
func.func @branches_write_different_dynamic_offsets(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %a: index, %b: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<8xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    scf.if %odd {
      // expected-error @+1 {{'apipe.copy' op writes its buffer under a condition and the buffer would get 3 versions}}
      apipe.copy %X[%off], %buf[%a], 4 : memref<64xf32> to memref<8xf32>
    } else {
      apipe.copy %Y[%off], %buf[%b], 4 : memref<64xf32> to memref<8xf32>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<8xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Both branches write at the same dynamic offset: the same elements.
func.func @branches_write_the_same_dynamic_offset(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %a: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<8xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    scf.if %odd {
      apipe.copy %X[%off], %buf[%a], 4 : memref<64xf32> to memref<8xf32>
    } else {
      apipe.copy %Y[%off], %buf[%a], 4 : memref<64xf32> to memref<8xf32>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<8xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Copies in an inner loop whose bounds are the same in every iteration.
func.func @copies_in_an_inner_loop_with_fixed_bounds(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<8xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    scf.for %j = %c0 to %c2 step %c1 {
      %o = arith.muli %j, %c4 : index
      apipe.copy %X[%off], %buf[%o], 4 : memref<64xf32> to memref<8xf32>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<8xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Copies in an inner loop that runs t mod 2 times: even iterations copy
// nothing.
func.func @copies_in_an_inner_loop_with_iteration_bounds(%X: memref<64xf32> {llvm.noalias}, %Y: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %t, %c2 {apipe.stage = 0 : i64} : index
    %odd = arith.cmpi ne, %r, %c0 {apipe.stage = 0 : i64} : index
    scf.for %j = %c0 to %r step %c1 {
      // expected-error @+1 {{'apipe.copy' op writes its buffer under a condition and the buffer would get 3 versions}}
      apipe.copy %X[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%t] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A plain store into the versioned buffer under a condition (iteration 0
// only), read in every iteration: the odd iterations read version 1, which
// the store never wrote (trial 8, finding 9: the pipelined loop printed
// [1001, 5, 1009, 13, ...] for make-sync's [1001, 1005, 1009, 1013, ...]).
// Refused at the store, as for a copy.
func.func @store_under_condition(%A: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %k = arith.constant 1000.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 2 : memref<64xf32> to memref<4xf32>
    apipe.commit_group
    apipe.wait_group 0
    %first = arith.cmpi eq, %i, %c0 : index
    scf.if %first {
      // expected-error @+1 {{'memref.store' op writes its buffer under a condition and the buffer would get 2 versions: an iteration that skips the store would read the data of 2 iterations earlier}}
      memref.store %k, %buf[%c3] : memref<4xf32>
    }
    %x = memref.load %buf[%c3] : memref<4xf32>
    %y = memref.load %buf[%c1] : memref<4xf32>
    %z = arith.addf %x, %y : f32
    memref.store %z, %out[%i] : memref<64xf32>
  } {apipe.num_stages = 2 : i64}
  return
}

// -----

// The same store on every path (each iteration writes buf[3]): pipelined.
func.func @store_on_every_path(%A: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %k = arith.constant 1000.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  // expected-remark @+1 {{scheduled 2 stages (num_stages = 2)}}
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 2 : memref<64xf32> to memref<4xf32>
    apipe.commit_group
    apipe.wait_group 0
    memref.store %k, %buf[%c3] : memref<4xf32>
    %x = memref.load %buf[%c3] : memref<4xf32>
    %y = memref.load %buf[%c1] : memref<4xf32>
    %z = arith.addf %x, %y : f32
    memref.store %z, %out[%i] : memref<64xf32>
  } {apipe.num_stages = 2 : i64}
  return
}
