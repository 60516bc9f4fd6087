// apipe-check-hazards relates branch ops on the same condition: a commit
// under `scf.if %c` and a later `scf.if %c { wait_group 1 } else
// { wait_group 0 }` complete the first copy on both paths. The copy's two
// counts (1 newer group where %c holds, 0 where it fails) used to merge
// into one range at the join, with no condition, and the then region's
// `wait_group 1` was taken to leave the copy in flight: a false alarm.
// @same is silent, and runs clean in every mode for both values of %c.
// @swapped (the waits the other way round) and @other (the second branch
// on another condition) race where the copy's count is 0 at
// `wait_group 1`: both are reported, and apipe-run reports @swapped.
// @carried keeps the separation sound across back edges: a copy issued in
// an iteration whose load-dependent condition held, carried through an
// iteration where the same (renamed) condition failed, is read two
// iterations later behind a `wait_group 1` that leaves it in flight.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-run %s --entry=run_same --completion=lazy,eager,random:1,random:2,random:3 | FileCheck %s --check-prefix=OUT
// RUN: not apipe-run %s --entry=run_swapped 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=run_carried 2>&1 | FileCheck %s --check-prefix=RACE
// Where %c holds, out[1] is A[4]; where it fails, out is untouched (A[0]
// is 0): in each of the 5 modes.
// OUT: [0,  4,  0,  0]
// OUT: [0,  0,  0,  0]
// OUT: [0,  4,  0,  0]
// OUT: [0,  0,  0,  0]
// OUT: [0,  4,  0,  0]
// OUT: [0,  0,  0,  0]
// OUT: [0,  4,  0,  0]
// OUT: [0,  0,  0,  0]
// OUT: [0,  4,  0,  0]
// OUT: [0,  0,  0,  0]
// RACE: error: the host reads
func.func private @printMemrefI32(memref<*xi32>)

func.func @same(%A: memref<64xi32>, %out: memref<4xi32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<2x4xi32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xi32> to memref<2x4xi32>
  apipe.commit_group
  scf.if %c {
    apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<64xi32> to memref<2x4xi32>
    apipe.commit_group
  }
  scf.if %c {
    apipe.wait_group 1
  } else {
    apipe.wait_group 0
  }
  %x = memref.load %buf[%c0, %c0] : memref<2x4xi32>
  memref.store %x, %out[%c0] : memref<4xi32>
  apipe.wait_group 0
  scf.if %c {
    %y = memref.load %buf[%c1, %c0] : memref<2x4xi32>
    memref.store %y, %out[%c1] : memref<4xi32>
  }
  memref.dealloc %buf : memref<2x4xi32>
  return
}

func.func @swapped(%A: memref<64xi32>, %out: memref<4xi32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<2x4xi32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xi32> to memref<2x4xi32>
  apipe.commit_group
  scf.if %c {
    apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<64xi32> to memref<2x4xi32>
    apipe.commit_group
  }
  scf.if %c {
    apipe.wait_group 0
  } else {
    apipe.wait_group 1
  }
  // CHECK: check-hazards-same-condition.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %buf[%c0, %c0] : memref<2x4xi32>
  memref.store %x, %out[%c0] : memref<4xi32>
  apipe.wait_group 0
  memref.dealloc %buf : memref<2x4xi32>
  return
}

func.func @other(%A: memref<64xi32>, %out: memref<4xi32>, %c: i1, %d: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<2x4xi32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xi32> to memref<2x4xi32>
  apipe.commit_group
  scf.if %c {
    apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<64xi32> to memref<2x4xi32>
    apipe.commit_group
  }
  scf.if %d {
    apipe.wait_group 1
  } else {
    apipe.wait_group 0
  }
  // CHECK: check-hazards-same-condition.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %buf[%c0, %c0] : memref<2x4xi32>
  memref.store %x, %out[%c0] : memref<4xi32>
  apipe.wait_group 0
  memref.dealloc %buf : memref<2x4xi32>
  return
}

func.func @carried(%A: memref<64xi32>, %flags: memref<16xi32>, %out: memref<16xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i32
  %buf = memref.alloc() : memref<3x4xi32>
  scf.for %i = %c0 to %n step %c1 {
    apipe.wait_group 1
    %old = arith.cmpi uge, %i, %c2 : index
    scf.if %old {
      %im2 = arith.subi %i, %c2 : index
      %v = arith.remui %im2, %c3 : index
      // CHECK: check-hazards-same-condition.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
      %x = memref.load %buf[%v, %c0] : memref<3x4xi32>
      memref.store %x, %out[%i] : memref<16xi32>
    }
    %f = memref.load %flags[%i] : memref<16xi32>
    %c = arith.cmpi ne, %f, %z : i32
    scf.if %c {
      %v = arith.remui %i, %c3 : index
      %s = arith.muli %i, %c4 : index
      // CHECK: check-hazards-same-condition.mlir:[[# @LINE + 1]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing
      apipe.copy %A[%s], %buf[%v, %c0], 4 : memref<64xi32> to memref<3x4xi32>
      apipe.commit_group
    }
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<3x4xi32>
  return
}

func.func @source() -> memref<64xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xi32>
  scf.for %i = %c0 to %c64 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %A[%i] : memref<64xi32>
  }
  return %A : memref<64xi32>
}

func.func @print(%out: memref<4xi32>) {
  %u = memref.cast %out : memref<4xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func @run_same() {
  %z = arith.constant 0 : i32
  %true = arith.constant true
  %false = arith.constant false
  %A = func.call @source() : () -> memref<64xi32>
  %out = memref.alloc() : memref<4xi32>
  linalg.fill ins(%z : i32) outs(%out : memref<4xi32>)
  func.call @same(%A, %out, %true) : (memref<64xi32>, memref<4xi32>, i1) -> ()
  func.call @print(%out) : (memref<4xi32>) -> ()
  linalg.fill ins(%z : i32) outs(%out : memref<4xi32>)
  func.call @same(%A, %out, %false) : (memref<64xi32>, memref<4xi32>, i1) -> ()
  func.call @print(%out) : (memref<4xi32>) -> ()
  return
}

func.func @run_swapped() {
  %z = arith.constant 0 : i32
  %false = arith.constant false
  %A = func.call @source() : () -> memref<64xi32>
  %out = memref.alloc() : memref<4xi32>
  linalg.fill ins(%z : i32) outs(%out : memref<4xi32>)
  func.call @swapped(%A, %out, %false) : (memref<64xi32>, memref<4xi32>, i1) -> ()
  return
}

// Flags 1, 0, 1, 0, ...: the copy of iteration 0 is still in flight when
// iteration 2 reads it.
func.func @run_carried() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %A = func.call @source() : () -> memref<64xi32>
  %flags = memref.alloc() : memref<16xi32>
  %out = memref.alloc() : memref<16xi32>
  scf.for %i = %c0 to %c16 step %c1 {
    %r = arith.remui %i, %c2 : index
    %e = arith.cmpi eq, %r, %c0 : index
    %fv = arith.select %e, %one, %z : i32
    memref.store %fv, %flags[%i] : memref<16xi32>
  }
  linalg.fill ins(%z : i32) outs(%out : memref<16xi32>)
  func.call @carried(%A, %flags, %out, %c8) : (memref<64xi32>, memref<16xi32>, memref<16xi32>, index) -> ()
  return
}
