// apipe-check-hazards follows the tokens that name a copy's group through
// scf.while: from the inits to the `before` arguments, through
// scf.condition to the `after` arguments (in any order) and to the while's
// results, and from the `after` region's yield back to the `before`
// arguments. The `before` arguments that advance by a constant are forms of
// the iteration (the `after` arguments are what the condition passes), so
// the copies of different iterations stay apart and each keeps the tokens
// that name it. Both kernels are silent and print what their synchronous
// version prints in every completion mode; their broken twins are in
// check-hazards-named-while-invalid.mlir.
// RUN: apipe-opt %s --apipe-check-hazards | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:
// CHECK: func.func @triple
// CHECK: func.func @double
// RUN: apipe-run %s --completion=lazy,eager,random:1,random:2,random:3 > %t.out
// RUN: grep -c "apipe-run: completion=" %t.out | FileCheck %s --check-prefix=MODES
// MODES: {{^}}5{{$}}
// RUN: grep -v -e Unranked -e "apipe-run: completion=" %t.out > %t.values
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync | diff - %t.values
// The mbarrier form apipe-tokens-to-mbarrier makes of them: silent, same
// values.
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier=slots=4 > %t.mb.mlir
// RUN: apipe-opt %t.mb.mlir --apipe-check-hazards | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:
// RUN: apipe-run %t.mb.mlir --completion=lazy,eager,random:1,random:2,random:3 | grep -v -e Unranked -e "apipe-run: completion=" | diff - %t.values
// triple with T = 7, 0, 1, 2; double with T = 5, 0, 1:
// VALUES: {{^}}[2,  6,  10,  14,  18,  22,  26,  -1,{{.*}}, 100,  -1,  -1,  112,  -1,  -1,  124,  -1,
// VALUES-NEXT: {{^}}[-1,  -1,
// VALUES-NEXT: {{^}}[2,  -1,{{.*}}, 100,  -1,
// VALUES-NEXT: {{^}}[2,  6,  -1,{{.*}}, 100,  -1,
// VALUES-NEXT: {{^}}[1,  5,  9,  13,  17,  -1,
// VALUES-NEXT: {{^}}[-1,  -1,
// VALUES-NEXT: {{^}}[1,  -1,
// VALUES-NOT: [

func.func private @printMemrefF32(memref<*xf32>)

// A triple buffer in an scf.while: tile i is copied into slot i mod 3 and
// committed (%t); an optional extra copy (i mod 3 == 0) is committed with an
// extra group, (i mod 3 == 1) an empty group, (i mod 3 == 2) none, all on
// queue 1 (so their waits do not complete the tiles of queue 0), and waited
// through the scf.index_switch's token; from i = 2 on, the tile of i - 2 is
// read after a wait on its token, carried two iterations in the `before`
// arguments (%t -> %t1 -> %t2). After the loop a wait on the result that
// holds the newest token completes the last two tiles.
func.func @triple(%A: memref<256xf32>, %out: memref<64xf32>, %T: index) {
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

// A double buffer in an scf.while whose condition passes the token before
// the index (the `after` arguments in another order than the `before`
// ones): tile i goes to slot i mod 2; from i = 1 on, tile i - 1 is read
// after a wait on the token of the previous iteration; the loop's token
// result completes the last tile.
func.func @double(%A: memref<256xf32>, %out: memref<64xf32>, %T: index) {
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
    %t = apipe.commit_group
    %ge = arith.cmpi uge, %k, %c1 : index
    scf.if %ge {
      apipe.wait %tq
      %j = arith.subi %k, %c1 : index
      %u = arith.remui %j, %c2 : index
      %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
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

func.func @run_triple(%T: index) {
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
  func.call @triple(%A, %out, %T) : (memref<256xf32>, memref<64xf32>, index) -> ()
  %u = memref.cast %out : memref<64xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @run_double(%T: index) {
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
  func.call @double(%A, %out, %T) : (memref<256xf32>, memref<64xf32>, index) -> ()
  %u = memref.cast %out : memref<64xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  func.call @run_triple(%c7) : (index) -> ()
  func.call @run_triple(%c0) : (index) -> ()
  func.call @run_triple(%c1) : (index) -> ()
  func.call @run_triple(%c2) : (index) -> ()
  func.call @run_double(%c5) : (index) -> ()
  func.call @run_double(%c0) : (index) -> ()
  func.call @run_double(%c1) : (index) -> ()
  return
}
