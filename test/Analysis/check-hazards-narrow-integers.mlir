// apipe-check-hazards: comparisons of integers narrower than 64 bits are
// not turned into linear constraints. Their operations wrap at their width,
// while the checker's forms are exact integers, so a condition that a run
// takes was called infeasible, and the reads under it were not checked
// (trial 17: two missed hazards, present since conditions were first
// followed):
// - @wraps: `x + 1 < x` in i32 holds for x = 2^31 - 1;
// - @truncates: `index_cast x to i32 < 0` holds for x = 2^31 (x >= 0).
// Both read a copy in flight under that condition: reported, as apipe-run
// reports them.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-run %s --entry=run_wraps 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=run_truncates 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: error: the host reads global memory byte 0 of the destination buffer of its own asynchronous copy still in flight
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
func.func @wraps(%A: memref<64xi32>, %out: memref<16xi32>, %x: i32) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %buf = memref.alloc() : memref<4xi32>
  linalg.fill ins(%z : i32) outs(%buf : memref<4xi32>)
  apipe.copy %A[%c0], %buf[%c0], 1 : memref<64xi32> to memref<4xi32>
  apipe.commit_group
  %y = arith.addi %x, %one : i32
  %c = arith.cmpi slt, %y, %x : i32
  scf.if %c {
    // CHECK: check-hazards-narrow-integers.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %v = memref.load %buf[%c0] : memref<4xi32>
    memref.store %v, %out[%c0] : memref<16xi32>
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<4xi32>
  return
}
func.func @truncates(%A: memref<64xi32>, %out: memref<16xi32>, %x: index) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i32
  %buf = memref.alloc() : memref<4xi32>
  linalg.fill ins(%z : i32) outs(%buf : memref<4xi32>)
  apipe.copy %A[%c0], %buf[%c0], 1 : memref<64xi32> to memref<4xi32>
  apipe.commit_group
  %t = arith.index_cast %x : index to i32
  %c = arith.cmpi slt, %t, %z : i32
  %p = arith.cmpi sge, %x, %c0 : index
  scf.if %p {
    scf.if %c {
      // CHECK: check-hazards-narrow-integers.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
      %v = memref.load %buf[%c0] : memref<4xi32>
      memref.store %v, %out[%c0] : memref<16xi32>
    }
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<4xi32>
  return
}
func.func @run_wraps() {
  %m1 = arith.constant -1 : i32
  %x = arith.constant 2147483647 : i32
  %A = func.call @source() : () -> memref<64xi32>
  %out = memref.alloc() : memref<16xi32>
  linalg.fill ins(%m1 : i32) outs(%out : memref<16xi32>)
  func.call @wraps(%A, %out, %x) : (memref<64xi32>, memref<16xi32>, i32) -> ()
  return
}

func.func @run_truncates() {
  %m1 = arith.constant -1 : i32
  %x = arith.constant 2147483648 : index
  %A = func.call @source() : () -> memref<64xi32>
  %out = memref.alloc() : memref<16xi32>
  linalg.fill ins(%m1 : i32) outs(%out : memref<16xi32>)
  func.call @truncates(%A, %out, %x) : (memref<64xi32>, memref<16xi32>, index) -> ()
  return
}
