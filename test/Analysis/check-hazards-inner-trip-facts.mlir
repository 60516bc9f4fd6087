// Facts of inner loops' trip counts that hold in every iteration of an
// outer loop (trial 18: false alarms, among them a read right after
// `wait_group 0` reported as racing).
//
// @min_trips: the inner loop runs `minui(j, 2)` times. Its trip count in
// an earlier iteration of the outer loop is a stale value, which had no
// facts: `3 + ub + stale(ub) <= 0` was feasible, so the copy counted as
// possibly uncommitted, and `wait_group 0` as leaving it in flight. The
// unsigned min with a nonnegative value is in [0, that value], for a
// stale value too.
//
// @while_trips: an inner `scf.while` commits `j mod 3` groups. Its trip
// count was one fresh symbol for every outer iteration, with no facts;
// it is now the loop's trip count `T_W`, nonnegative, renamed at the outer
// back edge like an `scf.for`'s. The read of slot (j - 2) mod 3 after
// `wait_group 2` is safe: at least 2 newer groups.
// @min_trips_3 reads the copy of iteration j - 3 after `wait_group 1`.
// The count of a copy carried 3 iterations names the trip count of two
// earlier iterations, which the back edge renames to one stale value: it
// keeps that part's bounds, now with the facts of its symbols (it became
// `[0, unbounded]` without them, "0 newer groups").
// RUN: apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error:
// RUN: apipe-run %s --entry=main_min --completion=lazy,eager,random:1,random:2,random:3 | FileCheck %s --check-prefix=MIN
// RUN: apipe-run %s --entry=main_min_3 --completion=lazy,eager,random:1,random:2,random:3 | FileCheck %s --check-prefix=MIN3
// MIN3-COUNT-5: [-1,  -1,  -1,  1,  3,  5,  7,  9,  11,  13,  15,  17,  -1,
// RUN: apipe-run %s --entry=main_while --completion=lazy,eager,random:1,random:2,random:3 | FileCheck %s --check-prefix=WHILE
// MIN-COUNT-5: [-1,  -1,  1,  3,  5,  7,  9,  11,  13,  15,  17,  19,  -1,
// WHILE-COUNT-5: [-1,  -1,  1,  3,  5,  7,  9,  11,  13,  15,  17,  19,  -1,
//
// With `wait_group 4` instead, the copy of iteration j - 2 may be in
// flight (3 newer groups where j mod 3 = 2): reported, as apipe-run finds.
// RUN: sed 's/apipe.wait_group 2$/apipe.wait_group 4/' %s | not apipe-opt --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: sed 's/apipe.wait_group 2$/apipe.wait_group 4/' %s | not apipe-run - --entry=main_while 2>&1 | FileCheck %s --check-prefix=RUNRACE
// RACE: <stdin>:109:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// RACE: <stdin>:106:7: note: `pending = 4` leaves this copy's group in flight: 2 newer group(s) are committed on queue 0 when it waits; `pending <= 2` completes it
// RACE: <stdin>:102:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing
// RUNRACE: <stdin>:109:12: error: the host reads global memory byte 0 of the destination buffer of its own asynchronous copy still in flight
func.func private @printMemrefI32(memref<*xi32>)
func.func @source() -> memref<64xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xi32>
  scf.for %i = %c0 to %c64 step %c1 {
    %v = arith.index_cast %i : index to i32
    %w = arith.addi %v, %v : i32
    %one = arith.constant 1 : i32
    %u = arith.addi %w, %one : i32
    memref.store %u, %A[%i] : memref<64xi32>
  }
  return %A : memref<64xi32>
}
func.func @min_trips(%A: memref<64xi32>, %out: memref<64xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0 : i32
  %buf = memref.alloc() : memref<4x8xi32>
  linalg.fill ins(%z : i32) outs(%buf : memref<4x8xi32>)
  scf.for %j = %c0 to %n step %c1 {
    %jm = arith.remui %j, %c4 : index
    apipe.copy %A[%j], %buf[%jm, %c0], 1 : memref<64xi32> to memref<4x8xi32>
    apipe.commit_group
    %ub = arith.minui %j, %c2 : index
    scf.for %t = %c0 to %ub step %c1 {
      apipe.commit_group
    }
    %ge = arith.cmpi uge, %j, %c2 : index
    scf.if %ge {
      apipe.wait_group 0
      %jmk = arith.subi %j, %c2 : index
      %s = arith.remui %jmk, %c4 : index
      %v = memref.load %buf[%s, %c0] : memref<4x8xi32>
      memref.store %v, %out[%j] : memref<64xi32>
    }
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<4x8xi32>
  return
}
func.func @while_trips(%A: memref<64xi32>, %out: memref<64xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0 : i32
  %buf = memref.alloc() : memref<3x8xi32>
  linalg.fill ins(%z : i32) outs(%buf : memref<3x8xi32>)
  scf.for %j = %c0 to %n step %c1 {
    %jm = arith.remui %j, %c3 : index
    apipe.copy %A[%j], %buf[%jm, %c0], 1 : memref<64xi32> to memref<3x8xi32>
    apipe.commit_group
    %ge = arith.cmpi uge, %j, %c2 : index
    scf.if %ge {
      apipe.wait_group 2
      %jmk = arith.subi %j, %c2 : index
      %s = arith.remui %jmk, %c3 : index
      %v = memref.load %buf[%s, %c0] : memref<3x8xi32>
      memref.store %v, %out[%j] : memref<64xi32>
    }
    %wb = arith.remui %j, %c3 : index
    %wr = scf.while (%k = %c0) : (index) -> index {
      %go = arith.cmpi ult, %k, %wb : index
      scf.condition(%go) %k : index
    } do {
    ^bb0(%k2: index):
      apipe.commit_group
      %kn = arith.addi %k2, %c1 : index
      scf.yield %kn : index
    }
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<3x8xi32>
  return
}
func.func @min_trips_3(%A: memref<64xi32>, %out: memref<64xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0 : i32
  %buf = memref.alloc() : memref<4x8xi32>
  linalg.fill ins(%z : i32) outs(%buf : memref<4x8xi32>)
  scf.for %j = %c0 to %n step %c1 {
    %jm = arith.remui %j, %c4 : index
    apipe.copy %A[%j], %buf[%jm, %c0], 1 : memref<64xi32> to memref<4x8xi32>
    apipe.commit_group
    %ge = arith.cmpi uge, %j, %c3 : index
    scf.if %ge {
      apipe.wait_group 1
      %jmk = arith.subi %j, %c3 : index
      %s = arith.remui %jmk, %c4 : index
      %v = memref.load %buf[%s, %c0] : memref<4x8xi32>
      memref.store %v, %out[%j] : memref<64xi32>
    }
    %ub = arith.minui %j, %c2 : index
    scf.for %t = %c0 to %ub step %c1 {
      apipe.commit_group
    }
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<4x8xi32>
  return
}
func.func @main_min() {
  %m1 = arith.constant -1 : i32
  %A = func.call @source() : () -> memref<64xi32>
  %out = memref.alloc() : memref<64xi32>
  linalg.fill ins(%m1 : i32) outs(%out : memref<64xi32>)
  %cn = arith.constant 12 : index
  func.call @min_trips(%A, %out, %cn) : (memref<64xi32>, memref<64xi32>, index) -> ()
  %u = memref.cast %out : memref<64xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
func.func @main_while() {
  %m1 = arith.constant -1 : i32
  %A = func.call @source() : () -> memref<64xi32>
  %out = memref.alloc() : memref<64xi32>
  linalg.fill ins(%m1 : i32) outs(%out : memref<64xi32>)
  %cn = arith.constant 12 : index
  func.call @while_trips(%A, %out, %cn) : (memref<64xi32>, memref<64xi32>, index) -> ()
  %u = memref.cast %out : memref<64xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
func.func @main_min_3() {
  %m1 = arith.constant -1 : i32
  %A = func.call @source() : () -> memref<64xi32>
  %out = memref.alloc() : memref<64xi32>
  linalg.fill ins(%m1 : i32) outs(%out : memref<64xi32>)
  %cn = arith.constant 12 : index
  func.call @min_trips_3(%A, %out, %cn) : (memref<64xi32>, memref<64xi32>, index) -> ()
  %u = memref.cast %out : memref<64xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
