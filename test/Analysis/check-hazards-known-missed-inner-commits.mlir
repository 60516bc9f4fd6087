// KNOWN MISSED HAZARD (trial 17), expected to fail until fixed.
// The read of slot (j - 2) mod 3 in iteration j has no wait before it at
// all (the only wait is after the loop), so it races with the copy of
// iteration j - 2, and apipe-run reports it. apipe-check-hazards is
// silent. The inner loop commits 2 groups in even iterations and 1 in odd
// ones (its lower bound is 2 * (j mod 2)); without it the race is reported.
// RUN: not apipe-run %s 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: error: the host reads global memory byte 0 of the destination buffer of its own asynchronous copy still in flight
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// XFAIL: *
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
func.func @f(%A: memref<64xi32>, %out: memref<16xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %z = arith.constant 0 : i32
  %buf = memref.alloc() : memref<3x4xi32>
  linalg.fill ins(%z : i32) outs(%buf : memref<3x4xi32>)
  scf.for %j = %c0 to %n step %c1 {
    %jm = arith.remui %j, %c3 : index
    apipe.copy %A[%j], %buf[%jm, %c0], 1 : memref<64xi32> to memref<3x4xi32>
    apipe.commit_group
    %ge = arith.cmpi uge, %j, %c2 : index
    scf.if %ge {
      %jm2 = arith.subi %j, %c2 : index
      %s = arith.remui %jm2, %c3 : index
      %v = memref.load %buf[%s, %c0] : memref<3x4xi32>
      memref.store %v, %out[%j] : memref<16xi32>
    }
    %p = arith.remui %j, %c2 : index
    %lb = arith.muli %p, %c2 : index
    scf.for %t = %lb to %c4 step %c2 {
      apipe.commit_group
    }
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<3x4xi32>
  return
}
func.func @main() {
  %m1 = arith.constant -1 : i32
  %A = func.call @source() : () -> memref<64xi32>
  %out = memref.alloc() : memref<16xi32>
  linalg.fill ins(%m1 : i32) outs(%out : memref<16xi32>)
  %c6 = arith.constant 6 : index
  func.call @f(%A, %out, %c6) : (memref<64xi32>, memref<16xi32>, index) -> ()
  return
}
