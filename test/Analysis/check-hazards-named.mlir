// apipe-check-hazards follows which token names which copy's group on each
// path, not only the token's group distance joined over paths:
// - a token yielded by scf.if / scf.index_switch with `apipe.ready` on the
//   branches that copy nothing names the copy's group on the path that
//   copies (the join of a real token with `apipe.ready`);
// - a token carried through iter_args past an optional commit (its distance
//   is 2..3 or 2..5 depending on the path) names exactly the group of the
//   copy it was committed after.
// These correct programs are silent, in token form and in the mbarrier form
// apipe-tokens-to-mbarrier makes of them (the count values that name the
// groups are followed the same way), and in counting form; their broken
// twins are reported at exact locations in check-hazards-named-invalid.mlir.
// RUN: apipe-opt %s --apipe-check-hazards | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier=slots=1 --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier=slots=2 --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier=slots=4 --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-tokens-to-counting --apipe-check-hazards -o /dev/null
// They print the values of the synchronous program in every completion mode,
// in token form and in mbarrier form:
// RUN: apipe-run %s --entry=main --completion=lazy,eager,random:1,random:2,random:3 > %t.out
// RUN: grep -c "apipe-run: completion=" %t.out | FileCheck %s --check-prefix=MODES
// RUN: grep -v -e Unranked -e "apipe-run: completion=" %t.out > %t.values
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync5
// RUN: diff %t.sync5 %t.values
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier=slots=2 | apipe-run - --entry=main --completion=lazy,eager,random:1,random:2,random:3 | grep -v -e Unranked -e "apipe-run: completion=" > %t.mb
// RUN: diff %t.sync5 %t.mb
// MODES: {{^}}5{{$}}
// VALUES: {{^}}[2,  -1,  -1,  -1]
// VALUES-NEXT: {{^}}[-1,  -1,  -1,  -1]
// VALUES-NEXT: {{^}}[2,  -1,  -1,  -1]
// VALUES-NEXT: {{^}}[6,  -1,  -1,  -1]
// VALUES-NEXT: {{^}}[-1,  -1,  -1,  -1]
// VALUES-NEXT: {{^}}[2,  6,  10,  14,  18,  22,  26,  30,  34,  38,  42,  46,  -1,  -1,  -1,  -1]
// VALUES-NEXT: {{^}}[2,  6,  10,  14,  18,  22,  26,  30,  34,  38,  42,  46,  -1,  -1,  -1,  -1]
// VALUES-NEXT: {{^}}[2,  6,  10,  14,  18,  22,  26,  30,  34,  38,  42,  46,  -1,  -1,  -1,  -1]
// VALUES-NEXT: {{^}}[-1,  0,  -1,  8,  -1,  16,  -1,  24,  -1,  32,  -1,  40,  -1,  48,  -1,  56]

func.func private @printMemrefF32(memref<*xf32>)

// The copy and its commit on the then path, `ready` on
// the else path; one wait after the join, then the read.
// CHECK-LABEL: func.func @if_ready
func.func @if_ready(%A: memref<64xf32>, %out: memref<4xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %none = arith.constant -1.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  memref.store %none, %buf[%c2] : memref<4xf32>
  %xt = scf.if %c -> !apipe.token {
    apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %e = apipe.commit_group
    scf.yield %e : !apipe.token
  } else {
    %rr = apipe.ready
    scf.yield %rr : !apipe.token
  }
  apipe.wait %xt
  %x = memref.load %buf[%c2] : memref<4xf32>
  memref.store %x, %out[%c0] : memref<4xf32>
  return
}

// scf.index_switch: case 0 copies and commits, case 1 copies, commits and
// commits an empty group after it (the yielded token is 1 group back),
// the default copies nothing and yields `ready`.
// CHECK-LABEL: func.func @switch_ready
func.func @switch_ready(%A: memref<64xf32>, %out: memref<4xf32>, %sel: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %none = arith.constant -1.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  memref.store %none, %buf[%c2] : memref<4xf32>
  %xt = scf.index_switch %sel -> !apipe.token
  case 0 {
    apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %e = apipe.commit_group
    scf.yield %e : !apipe.token
  }
  case 1 {
    apipe.copy %A[%c4], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %e = apipe.commit_group
    %f = apipe.commit_group
    scf.yield %e : !apipe.token
  }
  default {
    %rr = apipe.ready
    scf.yield %rr : !apipe.token
  }
  apipe.wait %xt
  %x = memref.load %buf[%c2] : memref<4xf32>
  memref.store %x, %out[%c0] : memref<4xf32>
  return
}

// The token of iteration i - 2 (3 versions), an
// optional empty commit after each copy: the waited group is 2 to 5 groups
// back, depending on the path.
// CHECK-LABEL: func.func @carried_optional_commit
func.func @carried_optional_commit(%A: memref<64xf32>, %out: memref<16xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c14 = arith.constant 14 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %r0 = apipe.ready
  %res:2 = scf.for %i = %c0 to %c14 step %c1 iter_args(%t1 = %r0, %t2 = %r0) -> (!apipe.token, !apipe.token) {
    %off = arith.muli %i, %c4 : index
    %v = arith.remui %i, %c3 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    %t = apipe.commit_group
    scf.if %c {
      %e = apipe.commit_group
    }
    %ge = arith.cmpi uge, %i, %c2 : index
    scf.if %ge {
      apipe.wait %t2
      %j = arith.subi %i, %c2 : index
      %u = arith.remui %j, %c3 : index
      %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
      memref.store %x, %out[%j] : memref<16xf32>
    }
    scf.yield %t, %t1 : !apipe.token, !apipe.token
  }
  apipe.wait %res#0
  return
}

// The same with scf.index_switch committing 0, 1 or 2 empty groups after
// each copy (the waited group is 2 to 7 groups back).
// CHECK-LABEL: func.func @carried_switch_commits
func.func @carried_switch_commits(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c14 = arith.constant 14 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %r0 = apipe.ready
  %res:2 = scf.for %i = %c0 to %c14 step %c1 iter_args(%t1 = %r0, %t2 = %r0) -> (!apipe.token, !apipe.token) {
    %off = arith.muli %i, %c4 : index
    %v = arith.remui %i, %c3 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    %t = apipe.commit_group
    scf.index_switch %v
    case 0 {
      %e = apipe.commit_group
      scf.yield
    }
    case 1 {
      %e = apipe.commit_group
      %f = apipe.commit_group
      scf.yield
    }
    default {
      scf.yield
    }
    %ge = arith.cmpi uge, %i, %c2 : index
    scf.if %ge {
      apipe.wait %t2
      %j = arith.subi %i, %c2 : index
      %u = arith.remui %j, %c3 : index
      %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
      memref.store %x, %out[%j] : memref<16xf32>
    }
    scf.yield %t, %t1 : !apipe.token, !apipe.token
  }
  apipe.wait %res#0
  return
}

// In a loop: the even iterations copy into slot 0 and yield the token, the
// odd ones yield `ready`; the next iteration waits on the carried token
// and reads the previous iteration's slot.
// CHECK-LABEL: func.func @loop_if_ready
func.func @loop_if_ready(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %none = arith.constant -1.0 : f32
  %buf = memref.alloc() : memref<2x4xf32>
  memref.store %none, %buf[%c0, %c0] : memref<2x4xf32>
  memref.store %none, %buf[%c1, %c0] : memref<2x4xf32>
  %r0 = apipe.ready
  %res = scf.for %i = %c0 to %c16 step %c1 iter_args(%tp = %r0) -> (!apipe.token) {
    %v = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %v, %c0 : index
    %t = scf.if %even -> !apipe.token {
      %off = arith.muli %i, %c4 : index
      apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
      %e = apipe.commit_group
      scf.yield %e : !apipe.token
    } else {
      %rr = apipe.ready
      scf.yield %rr : !apipe.token
    }
    apipe.wait %tp
    %ge = arith.cmpi uge, %i, %c1 : index
    scf.if %ge {
      %j = arith.subi %i, %c1 : index
      %u = arith.remui %j, %c2 : index
      %x = memref.load %buf[%u, %c0] : memref<2x4xf32>
      memref.store %x, %out[%i] : memref<16xf32>
    }
    scf.yield %t : !apipe.token
  }
  apipe.wait %res
  %x0 = memref.load %buf[%c1, %c0] : memref<2x4xf32>
  memref.store %x0, %out[%c0] : memref<16xf32>
  return
}

// CHECK-LABEL: func.func @main
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %true = arith.constant true
  %false = arith.constant false
  %none = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %j = arith.index_cast %i : index to i32
    %f = arith.sitofp %j : i32 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %o4 = memref.alloc() : memref<4xf32>
  %u4 = memref.cast %o4 : memref<4xf32> to memref<*xf32>
  %o16 = memref.alloc() : memref<16xf32>
  %u16 = memref.cast %o16 : memref<16xf32> to memref<*xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %none, %o4[%i] : memref<4xf32>
  }
  func.call @if_ready(%A, %o4, %true) : (memref<64xf32>, memref<4xf32>, i1) -> ()
  func.call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %none, %o4[%i] : memref<4xf32>
  }
  func.call @if_ready(%A, %o4, %false) : (memref<64xf32>, memref<4xf32>, i1) -> ()
  func.call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  func.call @switch_ready(%A, %o4, %c0) : (memref<64xf32>, memref<4xf32>, index) -> ()
  func.call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  func.call @switch_ready(%A, %o4, %c1) : (memref<64xf32>, memref<4xf32>, index) -> ()
  func.call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  func.call @switch_ready(%A, %o4, %c7) : (memref<64xf32>, memref<4xf32>, index) -> ()
  func.call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %none, %o16[%i] : memref<16xf32>
  }
  func.call @carried_optional_commit(%A, %o16, %true) : (memref<64xf32>, memref<16xf32>, i1) -> ()
  func.call @printMemrefF32(%u16) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %none, %o16[%i] : memref<16xf32>
  }
  func.call @carried_optional_commit(%A, %o16, %false) : (memref<64xf32>, memref<16xf32>, i1) -> ()
  func.call @printMemrefF32(%u16) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %none, %o16[%i] : memref<16xf32>
  }
  func.call @carried_switch_commits(%A, %o16) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u16) : (memref<*xf32>) -> ()
  func.call @loop_if_ready(%A, %o16) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u16) : (memref<*xf32>) -> ()
  return
}
