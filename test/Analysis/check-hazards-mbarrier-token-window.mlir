// apipe-check-hazards on what apipe-tokens-to-mbarrier makes of a window of
// tokens carried through a loop's iter_args (trial 11, finding 1): each
// iteration commits a group, waits on the token of the iteration `w` back
// and reads that iteration's slot; the window starts as `apipe.ready`
// tokens, so in the mbarrier form the first iterations' guards skip their
// waits (a ready token's group number is far below the ring's count). The
// mbarrier analysis used to widen the window's values after two rounds of
// the loop's fixed point, before the real group numbers had reached the
// oldest place (one place per round): the oldest token's group looked
// "between 0 and 4 groups old" and a correct wait was reported as able to
// deadlock. Widening now waits one round per place of the window
// (`scf.for` and `scf.while`), and each of these is silent; a read of a
// slot one iteration too new is reported at the load, and as nothing else.
// The first function also runs end to end: every completion mode prints
// what apipe-make-sync prints.
//
// RUN: apipe-opt %s --split-input-file --apipe-tokens-to-mbarrier | not apipe-opt - --split-input-file --apipe-check-hazards 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=error: < %t.err
// RUN: sed -e '/^\/\/ -----$/,$d' %s > %t.first.mlir
// RUN: apipe-opt %t.first.mlir --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: apipe-opt %t.first.mlir --apipe-tokens-to-mbarrier | apipe-run - --completion=lazy,eager,random:1,random:2,random:3 | grep -v -e Unranked -e "apipe-run: completion=" > %t.all
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync > %t.expected
// RUN: diff %t.expected %t.all

// The window of three, in an scf.for: the wait on the oldest token is
// guarded by `count - x <=u 4` (ring of K = 4 slots).
// CHECK-LABEL: func.func @window_of_three
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (index, index, index, index)
// CHECK: apipe.mbarrier_arrive_copies
// CHECK: arith.cmpi ule, %{{.*}}, %c4
// CHECK-NEXT: scf.if
// CHECK-NEXT: apipe.mbarrier_wait
// CHECK: memref.load
// VALUES: [0, 4, 8, 12, 16, 20, 24, 28, 0, 0, 0, 0, 0, 0, 0, 0]
func.func private @printMemrefF32(memref<*xf32>)
func.func @window_of_three(%A: memref<64xf32>, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4x4xf32>
  %r = apipe.ready queue 0
  %w:3 = scf.for %i = %c0 to %n step %c1 iter_args(%t0 = %r, %t1 = %r, %t2 = %r) -> (!apipe.token, !apipe.token, !apipe.token) {
    %s = arith.remui %i, %c4 : index
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%s, %c0], 4 : memref<64xf32> to memref<4x4xf32>
    %t = apipe.commit_group
    apipe.wait %t0
    %ge = arith.cmpi uge, %i, %c3 : index
    scf.if %ge {
      %im = arith.subi %i, %c3 : index
      %ps = arith.remui %im, %c4 : index
      %x = memref.load %buf[%ps, %c0] : memref<4x4xf32>
      memref.store %x, %out[%im] : memref<16xf32>
    }
    scf.yield %t1, %t2, %t : !apipe.token, !apipe.token, !apipe.token
  }
  apipe.wait %w#2
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c11 = arith.constant 11 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%out : memref<16xf32>)
  func.call @window_of_three(%A, %out, %c11) : (memref<64xf32>, memref<16xf32>, index) -> ()
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// The same window through an scf.while's arguments (scf.condition passes
// them to the after region, whose scf.yield shifts them).
// CHECK-LABEL: func.func @while_window_of_three
// CHECK: scf.while
// CHECK: apipe.mbarrier_wait
func.func @while_window_of_three(%A: memref<64xf32>, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4x4xf32>
  %r = apipe.ready queue 0
  %w:4 = scf.while (%i = %c0, %t0 = %r, %t1 = %r, %t2 = %r) : (index, !apipe.token, !apipe.token, !apipe.token) -> (index, !apipe.token, !apipe.token, !apipe.token) {
    %go = arith.cmpi ult, %i, %n : index
    scf.condition(%go) %i, %t0, %t1, %t2 : index, !apipe.token, !apipe.token, !apipe.token
  } do {
  ^bb0(%j: index, %u0: !apipe.token, %u1: !apipe.token, %u2: !apipe.token):
    %s = arith.remui %j, %c4 : index
    %off = arith.muli %j, %c4 : index
    apipe.copy %A[%off], %buf[%s, %c0], 4 : memref<64xf32> to memref<4x4xf32>
    %t = apipe.commit_group
    apipe.wait %u0
    %ge = arith.cmpi uge, %j, %c3 : index
    scf.if %ge {
      %im = arith.subi %j, %c3 : index
      %ps = arith.remui %im, %c4 : index
      %x = memref.load %buf[%ps, %c0] : memref<4x4xf32>
      memref.store %x, %out[%im] : memref<16xf32>
    }
    %next = arith.addi %j, %c1 : index
    scf.yield %next, %u1, %u2, %t : index, !apipe.token, !apipe.token, !apipe.token
  }
  apipe.wait %w#3
  return
}

// -----

// A window of five, two copies per group (ring of K = 6 slots).
// CHECK-LABEL: func.func @window_of_five
// CHECK: scf.for {{.*}} -> (index, index, index, index, index, index)
func.func @window_of_five(%A: memref<256xf32>, %out: memref<32xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<6x4xf32>
  %buf2 = memref.alloc() : memref<6x4xf32>
  %r = apipe.ready queue 0
  %w:5 = scf.for %i = %c0 to %n step %c1 iter_args(%t0 = %r, %t1 = %r, %t2 = %r, %t3 = %r, %t4 = %r) -> (!apipe.token, !apipe.token, !apipe.token, !apipe.token, !apipe.token) {
    %s = arith.remui %i, %c6 : index
    %off = arith.muli %i, %c8 : index
    apipe.copy %A[%off], %buf[%s, %c0], 4 : memref<256xf32> to memref<6x4xf32>
    %off2 = arith.addi %off, %c1 : index
    apipe.copy %A[%off2], %buf2[%s, %c0], 4 : memref<256xf32> to memref<6x4xf32>
    %t = apipe.commit_group
    apipe.wait %t0
    %ge = arith.cmpi uge, %i, %c5 : index
    scf.if %ge {
      %im = arith.subi %i, %c5 : index
      %ps = arith.remui %im, %c6 : index
      %x = memref.load %buf[%ps, %c1] : memref<6x4xf32>
      %y = memref.load %buf2[%ps, %c1] : memref<6x4xf32>
      %z = arith.addf %x, %y : f32
      memref.store %z, %out[%im] : memref<32xf32>
    }
    scf.yield %t1, %t2, %t3, %t4, %t : !apipe.token, !apipe.token, !apipe.token, !apipe.token, !apipe.token
  }
  apipe.wait %w#4
  return
}

// -----

// Racy: the read takes the slot of iteration i - 2 while the wait covers
// iteration i - 3 only. Reported at the load, and nothing else (the only
// error of the file).
// ERR: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
func.func @window_read_too_new(%A: memref<64xf32>, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4x4xf32>
  %r = apipe.ready queue 0
  %w:3 = scf.for %i = %c0 to %n step %c1 iter_args(%t0 = %r, %t1 = %r, %t2 = %r) -> (!apipe.token, !apipe.token, !apipe.token) {
    %s = arith.remui %i, %c4 : index
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%s, %c0], 4 : memref<64xf32> to memref<4x4xf32>
    %t = apipe.commit_group
    apipe.wait %t0
    %ge = arith.cmpi uge, %i, %c3 : index
    scf.if %ge {
      %im = arith.subi %i, %c3 : index
      %newer = arith.subi %i, %c2 : index
      %ps = arith.remui %newer, %c4 : index
      %x = memref.load %buf[%ps, %c0] : memref<4x4xf32>
      memref.store %x, %out[%im] : memref<16xf32>
    }
    scf.yield %t1, %t2, %t : !apipe.token, !apipe.token, !apipe.token
  }
  apipe.wait %w#2
  return
}
