// The broken twins of check-hazards-named-while.mlir: a wait on the wrong
// token (in the loop the index_switch's token of queue 1 instead of the
// tile's own of queue 0; the older of the two results after the loop; the double buffer yielding the token it
// received instead of its own) and a wait removed, in the loop and after
// it. Each is reported at the read (exact line:col) with a note at the
// copy, and each prints another value than the synchronous program when the
// copies land lazily (at the wait that completes them).
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2> %t.err
// RUN: FileCheck %s < %t.err --implicit-check-not="error: 'memref.load'"
// RUN: FileCheck %s --check-prefix=COPY < %t.err --implicit-check-not="error: 'apipe.copy'"
// RUN: grep -c "error:" %t.err | FileCheck %s --check-prefix=COUNT
// COUNT: {{^}}12{{$}}
// The same in the mbarrier form apipe-tokens-to-mbarrier makes of them:
// RUN: not apipe-opt %s --apipe-tokens-to-mbarrier=slots=4 --apipe-check-hazards -o /dev/null 2> %t.mb.err
// RUN: FileCheck %s < %t.mb.err --implicit-check-not="error: 'memref.load'"
// RUN: FileCheck %s --check-prefix=COPY < %t.mb.err --implicit-check-not="error: 'apipe.copy'"
// RUN: grep -c "error:" %t.mb.err | FileCheck %s --check-prefix=COUNT
// Each program run with 7 tiles in lazy, eager and 2 random completion modes
// (the extra copies of the triple buffer go to queue 1, so their waits do not
// complete the tiles of queue 0) prints something else than its synchronous
// version in some mode without the race checker; with it, each stops at the
// same read with a located error (the host's watch of its copies in flight):
// RUN: not apipe-run %s -e main_triple_wrong_token 2> %t.watch
// RUN: not apipe-run %s -e main_triple_no_wait 2>> %t.watch
// RUN: not apipe-run %s -e main_triple_older_result 2>> %t.watch
// RUN: not apipe-run %s -e main_triple_no_wait_after 2>> %t.watch
// RUN: not apipe-run %s -e main_double_own_token_not_yielded 2>> %t.watch
// RUN: not apipe-run %s -e main_double_no_wait 2>> %t.watch
// RUN: FileCheck %s --check-prefix=WATCH < %t.watch
// RUN: grep -c "error:" %t.watch | FileCheck %s --check-prefix=WATCH-COUNT
// WATCH-COUNT: {{^}}6{{$}}
// RUN: apipe-run %s -e main_triple_wrong_token --no-racecheck --completion=lazy,eager,random:1,random:2 | grep -v -e Unranked -e 'apipe-run: completion=' > %t.triple_wrong_token
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - -e main_triple_wrong_token | grep -v Unranked > %t.triple_wrong_token.sync
// RUN: cat %t.triple_wrong_token.sync %t.triple_wrong_token.sync %t.triple_wrong_token.sync %t.triple_wrong_token.sync | not diff - %t.triple_wrong_token
// RUN: apipe-run %s -e main_triple_no_wait --no-racecheck --completion=lazy,eager,random:1,random:2 | grep -v -e Unranked -e 'apipe-run: completion=' > %t.triple_no_wait
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - -e main_triple_no_wait | grep -v Unranked > %t.triple_no_wait.sync
// RUN: cat %t.triple_no_wait.sync %t.triple_no_wait.sync %t.triple_no_wait.sync %t.triple_no_wait.sync | not diff - %t.triple_no_wait
// RUN: apipe-run %s -e main_triple_older_result --no-racecheck --completion=lazy,eager,random:1,random:2 | grep -v -e Unranked -e 'apipe-run: completion=' > %t.triple_older_result
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - -e main_triple_older_result | grep -v Unranked > %t.triple_older_result.sync
// RUN: cat %t.triple_older_result.sync %t.triple_older_result.sync %t.triple_older_result.sync %t.triple_older_result.sync | not diff - %t.triple_older_result
// RUN: apipe-run %s -e main_triple_no_wait_after --no-racecheck --completion=lazy,eager,random:1,random:2 | grep -v -e Unranked -e 'apipe-run: completion=' > %t.triple_no_wait_after
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - -e main_triple_no_wait_after | grep -v Unranked > %t.triple_no_wait_after.sync
// RUN: cat %t.triple_no_wait_after.sync %t.triple_no_wait_after.sync %t.triple_no_wait_after.sync %t.triple_no_wait_after.sync | not diff - %t.triple_no_wait_after
// RUN: apipe-run %s -e main_double_own_token_not_yielded --no-racecheck --completion=lazy,eager,random:1,random:2 | grep -v -e Unranked -e 'apipe-run: completion=' > %t.double_own_token_not_yielded
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - -e main_double_own_token_not_yielded | grep -v Unranked > %t.double_own_token_not_yielded.sync
// RUN: cat %t.double_own_token_not_yielded.sync %t.double_own_token_not_yielded.sync %t.double_own_token_not_yielded.sync %t.double_own_token_not_yielded.sync | not diff - %t.double_own_token_not_yielded
// RUN: apipe-run %s -e main_double_no_wait --no-racecheck --completion=lazy,eager,random:1,random:2 | grep -v -e Unranked -e 'apipe-run: completion=' > %t.double_no_wait
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - -e main_double_no_wait | grep -v Unranked > %t.double_no_wait.sync
// RUN: cat %t.double_no_wait.sync %t.double_no_wait.sync %t.double_no_wait.sync %t.double_no_wait.sync | not diff - %t.double_no_wait

func.func private @printMemrefF32(memref<*xf32>)

// triple_wrong_token: a triple buffer in an scf.while: tile i is copied into slot i mod 3 and
// committed (%t); an optional extra copy (i mod 3 == 0) is committed with an
// extra group, (i mod 3 == 1) an empty group, (i mod 3 == 2) none, all on
// queue 1 (so their waits do not complete the tiles of queue 0), and waited
// through the scf.index_switch's token; from i = 2 on, the tile of i - 2 is
// read after a wait on its token, carried two iterations in the `before`
// arguments (%t -> %t1 -> %t2). After the loop a wait on the result that
// holds the newest token completes the last two tiles.
func.func @triple_wrong_token(%A: memref<256xf32>, %out: memref<64xf32>, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c100 = arith.constant 100 : index
  %c32 = arith.constant 32 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %ex = memref.alloc() : memref<64xf32>
  %r0 = apipe.ready
  %w:3 = scf.while (%i = %c0, %t1 = %r0, %t2 = %r0) : (index, !apipe.token, !apipe.token) -> (index, !apipe.token, !apipe.token) {
    %go = arith.cmpi slt, %i, %T : index
    scf.condition(%go) %i, %t1, %t2 : index, !apipe.token, !apipe.token
  } do {
  ^bb0(%i: index, %t1: !apipe.token, %t2: !apipe.token):
    %off = arith.muli %i, %c4 : index
    %v = arith.remui %i, %c3 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<256xf32> to memref<3x4xf32>
// COPY: check-hazards-named-while-invalid.mlir:[[# @LINE - 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    %t = apipe.commit_group
    %xt = scf.index_switch %v -> !apipe.token
    case 0 {
      %o = arith.addi %off, %c100 : index
      apipe.copy %A[%o], %ex[%i], 1 queue 1 : memref<256xf32> to memref<64xf32>
      %e = apipe.commit_group queue 1
      %f = apipe.commit_group queue 1
      scf.yield %e : !apipe.token
    }
    case 1 {
      %e = apipe.commit_group queue 1
      scf.yield %e : !apipe.token
    }
    default {
      %rr = apipe.ready queue 1
      scf.yield %rr : !apipe.token
    }
    apipe.wait %xt
    %hx = arith.cmpi eq, %v, %c0 : index
    scf.if %hx {
      %y = memref.load %ex[%i] : memref<64xf32>
      %o3 = arith.addi %i, %c32 : index
      memref.store %y, %out[%o3] : memref<64xf32>
    }
    %ge = arith.cmpi uge, %i, %c2 : index
    scf.if %ge {
      apipe.wait %xt
      %j = arith.subi %i, %c2 : index
      %u = arith.remui %j, %c3 : index
      %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
// CHECK: check-hazards-named-while-invalid.mlir:[[# @LINE - 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// WATCH: check-hazards-named-while-invalid.mlir:[[# @LINE - 2]]:12: error: the host reads global memory byte {{[0-9]+}} of the destination buffer of its own asynchronous copy still in flight, which may not have written it yet
      memref.store %x, %out[%j] : memref<64xf32>
    }
    %in = arith.addi %i, %c1 : index
    scf.yield %in, %t, %t1 : index, !apipe.token, !apipe.token
  }
  apipe.wait %w#1
  %T1 = arith.subi %T, %c1 : index
  %T2 = arith.subi %T, %c2 : index
  %h1 = arith.cmpi sge, %T1, %c0 : index
  scf.if %h1 {
    %u = arith.remui %T1, %c3 : index
    %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
    memref.store %x, %out[%T1] : memref<64xf32>
  }
  %h2 = arith.cmpi sge, %T2, %c0 : index
  scf.if %h2 {
    %u = arith.remui %T2, %c3 : index
    %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
    memref.store %x, %out[%T2] : memref<64xf32>
  }
  return
}

// triple_no_wait: a triple buffer in an scf.while: tile i is copied into slot i mod 3 and
// committed (%t); an optional extra copy (i mod 3 == 0) is committed with an
// extra group, (i mod 3 == 1) an empty group, (i mod 3 == 2) none, all on
// queue 1 (so their waits do not complete the tiles of queue 0), and waited
// through the scf.index_switch's token; from i = 2 on, the tile of i - 2 is
// read after a wait on its token, carried two iterations in the `before`
// arguments (%t -> %t1 -> %t2). After the loop a wait on the result that
// holds the newest token completes the last two tiles.
func.func @triple_no_wait(%A: memref<256xf32>, %out: memref<64xf32>, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c100 = arith.constant 100 : index
  %c32 = arith.constant 32 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %ex = memref.alloc() : memref<64xf32>
  %r0 = apipe.ready
  %w:3 = scf.while (%i = %c0, %t1 = %r0, %t2 = %r0) : (index, !apipe.token, !apipe.token) -> (index, !apipe.token, !apipe.token) {
    %go = arith.cmpi slt, %i, %T : index
    scf.condition(%go) %i, %t1, %t2 : index, !apipe.token, !apipe.token
  } do {
  ^bb0(%i: index, %t1: !apipe.token, %t2: !apipe.token):
    %off = arith.muli %i, %c4 : index
    %v = arith.remui %i, %c3 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<256xf32> to memref<3x4xf32>
// COPY: check-hazards-named-while-invalid.mlir:[[# @LINE - 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    %t = apipe.commit_group
    %xt = scf.index_switch %v -> !apipe.token
    case 0 {
      %o = arith.addi %off, %c100 : index
      apipe.copy %A[%o], %ex[%i], 1 queue 1 : memref<256xf32> to memref<64xf32>
      %e = apipe.commit_group queue 1
      %f = apipe.commit_group queue 1
      scf.yield %e : !apipe.token
    }
    case 1 {
      %e = apipe.commit_group queue 1
      scf.yield %e : !apipe.token
    }
    default {
      %rr = apipe.ready queue 1
      scf.yield %rr : !apipe.token
    }
    apipe.wait %xt
    %hx = arith.cmpi eq, %v, %c0 : index
    scf.if %hx {
      %y = memref.load %ex[%i] : memref<64xf32>
      %o3 = arith.addi %i, %c32 : index
      memref.store %y, %out[%o3] : memref<64xf32>
    }
    %ge = arith.cmpi uge, %i, %c2 : index
    scf.if %ge {
      %j = arith.subi %i, %c2 : index
      %u = arith.remui %j, %c3 : index
      %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
// CHECK: check-hazards-named-while-invalid.mlir:[[# @LINE - 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// WATCH: check-hazards-named-while-invalid.mlir:[[# @LINE - 2]]:12: error: the host reads global memory byte {{[0-9]+}} of the destination buffer of its own asynchronous copy still in flight, which may not have written it yet
      memref.store %x, %out[%j] : memref<64xf32>
    }
    %in = arith.addi %i, %c1 : index
    scf.yield %in, %t, %t1 : index, !apipe.token, !apipe.token
  }
  apipe.wait %w#1
  %T1 = arith.subi %T, %c1 : index
  %T2 = arith.subi %T, %c2 : index
  %h1 = arith.cmpi sge, %T1, %c0 : index
  scf.if %h1 {
    %u = arith.remui %T1, %c3 : index
    %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
    memref.store %x, %out[%T1] : memref<64xf32>
  }
  %h2 = arith.cmpi sge, %T2, %c0 : index
  scf.if %h2 {
    %u = arith.remui %T2, %c3 : index
    %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
    memref.store %x, %out[%T2] : memref<64xf32>
  }
  return
}

// triple_older_result: a triple buffer in an scf.while: tile i is copied into slot i mod 3 and
// committed (%t); an optional extra copy (i mod 3 == 0) is committed with an
// extra group, (i mod 3 == 1) an empty group, (i mod 3 == 2) none, all on
// queue 1 (so their waits do not complete the tiles of queue 0), and waited
// through the scf.index_switch's token; from i = 2 on, the tile of i - 2 is
// read after a wait on its token, carried two iterations in the `before`
// arguments (%t -> %t1 -> %t2). After the loop a wait on the result that
// holds the newest token completes the last two tiles.
func.func @triple_older_result(%A: memref<256xf32>, %out: memref<64xf32>, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c100 = arith.constant 100 : index
  %c32 = arith.constant 32 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %ex = memref.alloc() : memref<64xf32>
  %r0 = apipe.ready
  %w:3 = scf.while (%i = %c0, %t1 = %r0, %t2 = %r0) : (index, !apipe.token, !apipe.token) -> (index, !apipe.token, !apipe.token) {
    %go = arith.cmpi slt, %i, %T : index
    scf.condition(%go) %i, %t1, %t2 : index, !apipe.token, !apipe.token
  } do {
  ^bb0(%i: index, %t1: !apipe.token, %t2: !apipe.token):
    %off = arith.muli %i, %c4 : index
    %v = arith.remui %i, %c3 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<256xf32> to memref<3x4xf32>
    %t = apipe.commit_group
    %xt = scf.index_switch %v -> !apipe.token
    case 0 {
      %o = arith.addi %off, %c100 : index
      apipe.copy %A[%o], %ex[%i], 1 queue 1 : memref<256xf32> to memref<64xf32>
      %e = apipe.commit_group queue 1
      %f = apipe.commit_group queue 1
      scf.yield %e : !apipe.token
    }
    case 1 {
      %e = apipe.commit_group queue 1
      scf.yield %e : !apipe.token
    }
    default {
      %rr = apipe.ready queue 1
      scf.yield %rr : !apipe.token
    }
    apipe.wait %xt
    %hx = arith.cmpi eq, %v, %c0 : index
    scf.if %hx {
      %y = memref.load %ex[%i] : memref<64xf32>
      %o3 = arith.addi %i, %c32 : index
      memref.store %y, %out[%o3] : memref<64xf32>
    }
    %ge = arith.cmpi uge, %i, %c2 : index
    scf.if %ge {
      apipe.wait %t2
      %j = arith.subi %i, %c2 : index
      %u = arith.remui %j, %c3 : index
      %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
      memref.store %x, %out[%j] : memref<64xf32>
    }
    %in = arith.addi %i, %c1 : index
    scf.yield %in, %t, %t1 : index, !apipe.token, !apipe.token
  }
  apipe.wait %w#2
  %T1 = arith.subi %T, %c1 : index
  %T2 = arith.subi %T, %c2 : index
  %h1 = arith.cmpi sge, %T1, %c0 : index
  scf.if %h1 {
    %u = arith.remui %T1, %c3 : index
    %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
// CHECK: check-hazards-named-while-invalid.mlir:[[# @LINE - 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// WATCH: check-hazards-named-while-invalid.mlir:[[# @LINE - 2]]:10: error: the host reads global memory byte {{[0-9]+}} of the destination buffer of its own asynchronous copy still in flight, which may not have written it yet
    memref.store %x, %out[%T1] : memref<64xf32>
  }
  %h2 = arith.cmpi sge, %T2, %c0 : index
  scf.if %h2 {
    %u = arith.remui %T2, %c3 : index
    %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
    memref.store %x, %out[%T2] : memref<64xf32>
  }
  return
}

// triple_no_wait_after: a triple buffer in an scf.while: tile i is copied into slot i mod 3 and
// committed (%t); an optional extra copy (i mod 3 == 0) is committed with an
// extra group, (i mod 3 == 1) an empty group, (i mod 3 == 2) none, all on
// queue 1 (so their waits do not complete the tiles of queue 0), and waited
// through the scf.index_switch's token; from i = 2 on, the tile of i - 2 is
// read after a wait on its token, carried two iterations in the `before`
// arguments (%t -> %t1 -> %t2). After the loop a wait on the result that
// holds the newest token completes the last two tiles.
func.func @triple_no_wait_after(%A: memref<256xf32>, %out: memref<64xf32>, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c100 = arith.constant 100 : index
  %c32 = arith.constant 32 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %ex = memref.alloc() : memref<64xf32>
  %r0 = apipe.ready
  %w:3 = scf.while (%i = %c0, %t1 = %r0, %t2 = %r0) : (index, !apipe.token, !apipe.token) -> (index, !apipe.token, !apipe.token) {
    %go = arith.cmpi slt, %i, %T : index
    scf.condition(%go) %i, %t1, %t2 : index, !apipe.token, !apipe.token
  } do {
  ^bb0(%i: index, %t1: !apipe.token, %t2: !apipe.token):
    %off = arith.muli %i, %c4 : index
    %v = arith.remui %i, %c3 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<256xf32> to memref<3x4xf32>
    %t = apipe.commit_group
    %xt = scf.index_switch %v -> !apipe.token
    case 0 {
      %o = arith.addi %off, %c100 : index
      apipe.copy %A[%o], %ex[%i], 1 queue 1 : memref<256xf32> to memref<64xf32>
      %e = apipe.commit_group queue 1
      %f = apipe.commit_group queue 1
      scf.yield %e : !apipe.token
    }
    case 1 {
      %e = apipe.commit_group queue 1
      scf.yield %e : !apipe.token
    }
    default {
      %rr = apipe.ready queue 1
      scf.yield %rr : !apipe.token
    }
    apipe.wait %xt
    %hx = arith.cmpi eq, %v, %c0 : index
    scf.if %hx {
      %y = memref.load %ex[%i] : memref<64xf32>
      %o3 = arith.addi %i, %c32 : index
      memref.store %y, %out[%o3] : memref<64xf32>
    }
    %ge = arith.cmpi uge, %i, %c2 : index
    scf.if %ge {
      apipe.wait %t2
      %j = arith.subi %i, %c2 : index
      %u = arith.remui %j, %c3 : index
      %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
      memref.store %x, %out[%j] : memref<64xf32>
    }
    %in = arith.addi %i, %c1 : index
    scf.yield %in, %t, %t1 : index, !apipe.token, !apipe.token
  }
  %T1 = arith.subi %T, %c1 : index
  %T2 = arith.subi %T, %c2 : index
  %h1 = arith.cmpi sge, %T1, %c0 : index
  scf.if %h1 {
    %u = arith.remui %T1, %c3 : index
    %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
// CHECK: check-hazards-named-while-invalid.mlir:[[# @LINE - 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// WATCH: check-hazards-named-while-invalid.mlir:[[# @LINE - 2]]:10: error: the host reads global memory byte {{[0-9]+}} of the destination buffer of its own asynchronous copy still in flight, which may not have written it yet
    memref.store %x, %out[%T1] : memref<64xf32>
  }
  %h2 = arith.cmpi sge, %T2, %c0 : index
  scf.if %h2 {
    %u = arith.remui %T2, %c3 : index
    %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
// CHECK: check-hazards-named-while-invalid.mlir:[[# @LINE - 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    memref.store %x, %out[%T2] : memref<64xf32>
  }
  return
}

// double_own_token_not_yielded: a double buffer in an scf.while whose condition passes the token before
// the index (the `after` arguments in another order than the `before`
// ones): tile i goes to slot i mod 2; from i = 1 on, tile i - 1 is read
// after a wait on the token of the previous iteration; the loop's token
// result completes the last tile.
func.func @double_own_token_not_yielded(%A: memref<256xf32>, %out: memref<64xf32>, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %r0 = apipe.ready
  %w:2 = scf.while (%i = %c0, %tp = %r0) : (index, !apipe.token) -> (!apipe.token, index) {
    %go = arith.cmpi slt, %i, %T : index
    scf.condition(%go) %tp, %i : !apipe.token, index
  } do {
  ^bb0(%tq: !apipe.token, %k: index):
    %off = arith.muli %k, %c4 : index
    %v = arith.remui %k, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<256xf32> to memref<2x4xf32>
// COPY: check-hazards-named-while-invalid.mlir:[[# @LINE - 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    %t = apipe.commit_group
    %ge = arith.cmpi uge, %k, %c1 : index
    scf.if %ge {
      apipe.wait %tq
      %j = arith.subi %k, %c1 : index
      %u = arith.remui %j, %c2 : index
      %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
// CHECK: check-hazards-named-while-invalid.mlir:[[# @LINE - 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// WATCH: check-hazards-named-while-invalid.mlir:[[# @LINE - 2]]:12: error: the host reads global memory byte {{[0-9]+}} of the destination buffer of its own asynchronous copy still in flight, which may not have written it yet
      memref.store %x, %out[%j] : memref<64xf32>
    }
    %kn = arith.addi %k, %c1 : index
    scf.yield %kn, %tq : index, !apipe.token
  }
  apipe.wait %w#0
  %T1 = arith.subi %T, %c1 : index
  %h1 = arith.cmpi sge, %T1, %c0 : index
  scf.if %h1 {
    %u = arith.remui %T1, %c2 : index
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
// CHECK: check-hazards-named-while-invalid.mlir:[[# @LINE - 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    memref.store %x, %out[%T1] : memref<64xf32>
  }
  return
}

// double_no_wait: a double buffer in an scf.while whose condition passes the token before
// the index (the `after` arguments in another order than the `before`
// ones): tile i goes to slot i mod 2; from i = 1 on, tile i - 1 is read
// after a wait on the token of the previous iteration; the loop's token
// result completes the last tile.
func.func @double_no_wait(%A: memref<256xf32>, %out: memref<64xf32>, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %r0 = apipe.ready
  %w:2 = scf.while (%i = %c0, %tp = %r0) : (index, !apipe.token) -> (!apipe.token, index) {
    %go = arith.cmpi slt, %i, %T : index
    scf.condition(%go) %tp, %i : !apipe.token, index
  } do {
  ^bb0(%tq: !apipe.token, %k: index):
    %off = arith.muli %k, %c4 : index
    %v = arith.remui %k, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<256xf32> to memref<2x4xf32>
// COPY: check-hazards-named-while-invalid.mlir:[[# @LINE - 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    %t = apipe.commit_group
    %ge = arith.cmpi uge, %k, %c1 : index
    scf.if %ge {
      %j = arith.subi %k, %c1 : index
      %u = arith.remui %j, %c2 : index
      %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
// CHECK: check-hazards-named-while-invalid.mlir:[[# @LINE - 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// WATCH: check-hazards-named-while-invalid.mlir:[[# @LINE - 2]]:12: error: the host reads global memory byte {{[0-9]+}} of the destination buffer of its own asynchronous copy still in flight, which may not have written it yet
      memref.store %x, %out[%j] : memref<64xf32>
    }
    %kn = arith.addi %k, %c1 : index
    scf.yield %kn, %t : index, !apipe.token
  }
  apipe.wait %w#0
  %T1 = arith.subi %T, %c1 : index
  %h1 = arith.cmpi sge, %T1, %c0 : index
  scf.if %h1 {
    %u = arith.remui %T1, %c2 : index
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
    memref.store %x, %out[%T1] : memref<64xf32>
  }
  return
}

func.func @run_triple_wrong_token(%T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<256xf32>
  %out = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %z, %out[%i] : memref<64xf32>
  }
  func.call @triple_wrong_token(%A, %out, %T) : (memref<256xf32>, memref<64xf32>, index) -> ()
  %u = memref.cast %out : memref<64xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @run_triple_no_wait(%T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<256xf32>
  %out = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %z, %out[%i] : memref<64xf32>
  }
  func.call @triple_no_wait(%A, %out, %T) : (memref<256xf32>, memref<64xf32>, index) -> ()
  %u = memref.cast %out : memref<64xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @run_triple_older_result(%T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<256xf32>
  %out = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %z, %out[%i] : memref<64xf32>
  }
  func.call @triple_older_result(%A, %out, %T) : (memref<256xf32>, memref<64xf32>, index) -> ()
  %u = memref.cast %out : memref<64xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @run_triple_no_wait_after(%T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<256xf32>
  %out = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %z, %out[%i] : memref<64xf32>
  }
  func.call @triple_no_wait_after(%A, %out, %T) : (memref<256xf32>, memref<64xf32>, index) -> ()
  %u = memref.cast %out : memref<64xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @run_double_own_token_not_yielded(%T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<256xf32>
  %out = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %z, %out[%i] : memref<64xf32>
  }
  func.call @double_own_token_not_yielded(%A, %out, %T) : (memref<256xf32>, memref<64xf32>, index) -> ()
  %u = memref.cast %out : memref<64xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @run_double_no_wait(%T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<256xf32>
  %out = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %z, %out[%i] : memref<64xf32>
  }
  func.call @double_no_wait(%A, %out, %T) : (memref<256xf32>, memref<64xf32>, index) -> ()
  %u = memref.cast %out : memref<64xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main_triple_wrong_token() {
  %c7 = arith.constant 7 : index
  func.call @run_triple_wrong_token(%c7) : (index) -> ()
  return
}

func.func @main_triple_no_wait() {
  %c7 = arith.constant 7 : index
  func.call @run_triple_no_wait(%c7) : (index) -> ()
  return
}

func.func @main_triple_older_result() {
  %c7 = arith.constant 7 : index
  func.call @run_triple_older_result(%c7) : (index) -> ()
  return
}

func.func @main_triple_no_wait_after() {
  %c7 = arith.constant 7 : index
  func.call @run_triple_no_wait_after(%c7) : (index) -> ()
  return
}

func.func @main_double_own_token_not_yielded() {
  %c7 = arith.constant 7 : index
  func.call @run_double_own_token_not_yielded(%c7) : (index) -> ()
  return
}

func.func @main_double_no_wait() {
  %c7 = arith.constant 7 : index
  func.call @run_double_no_wait(%c7) : (index) -> ()
  return
}
