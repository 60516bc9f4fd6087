// The mbarrier form with a ring whose slot count K is not a power of two
// (trial 46 F1): a loop carries a window of two tokens that start as
// `apipe.ready`. apipe-tokens-to-mbarrier gives each a count that starts at
// the ready sentinel -2^40 and guards each wait with `n - x <=u K`, which
// no sentinel passes (docs/mbarrier.md). The checker read the count as
// possibly negative under the guard (`arith.remui`/`divui` of 2^64 + x
// name another slot unless K is a power of two) and rejected correct
// output at K = 3, 5, 6 and 7. It now knows that the count is >= 0 or
// <= -2^40, and the guard excludes the second case: silent at every K,
// and every completion mode prints what make-sync prints.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier=slots=3 -o %t.3.mlir
// RUN: apipe-opt %t.3.mlir --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-run %t.3.mlir --completion=lazy,eager,random:1,random:2 | FileCheck %s --check-prefix=MODES
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier=slots=5 -o %t.5.mlir
// RUN: apipe-opt %t.5.mlir --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-run %t.5.mlir --completion=lazy,eager,random:3 | FileCheck %s --check-prefix=MODES3
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier=slots=6 | apipe-opt --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier=slots=7 | apipe-opt --apipe-check-hazards -o /dev/null 2>&1 | count 0
// CHECK: [1,  3,  5,  7,  9,  11,  13,  15,  -1,  -1,  16,  19,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// MODES-COUNT-4: [1,  3,  5,  7,  9,  11,  13,  15,  -1,  -1,  16,  19,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// MODES3-COUNT-3: [1,  3,  5,  7,  9,  11,  13,  15,  -1,  -1,  16,  19,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
func.func private @printMemrefF32(memref<*xf32>)
func.func @window(%A: memref<64xf32>, %out: memref<24xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %buf = memref.alloc() : memref<3x2xf32>
  %r0 = apipe.ready
  %r1 = apipe.ready
  %last:2 = scf.for %i = %c0 to %c10 step %c1 iter_args(%older = %r0, %newer = %r1) -> (!apipe.token, !apipe.token) {
    %s = arith.remui %i, %c3 : index
    %src = arith.muli %i, %c2 : index
    apipe.copy %A[%src], %buf[%s, %c0], 2 : memref<64xf32> to memref<3x2xf32>
    %t = apipe.commit_group
    apipe.wait %older
    %ready = arith.cmpi uge, %i, %c2 : index
    scf.if %ready {
      %j = arith.subi %i, %c2 : index
      %js = arith.remui %j, %c3 : index
      %x = memref.load %buf[%js, %c1] : memref<3x2xf32>
      memref.store %x, %out[%j] : memref<24xf32>
    }
    scf.yield %newer, %t : !apipe.token, !apipe.token
  }
  apipe.wait %last#0, %last#1
  %x8 = memref.load %buf[%c2, %c0] : memref<3x2xf32>
  %x9 = memref.load %buf[%c0, %c1] : memref<3x2xf32>
  memref.store %x8, %out[%c10] : memref<24xf32>
  %c11 = arith.constant 11 : index
  memref.store %x9, %out[%c11] : memref<24xf32>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c24 = arith.constant 24 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<24xf32>
  %z = arith.constant -1.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c24 step %c1 { memref.store %z, %out[%i] : memref<24xf32> }
  func.call @window(%A, %out) : (memref<64xf32>, memref<24xf32>) -> ()
  %u = memref.cast %out : memref<24xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
