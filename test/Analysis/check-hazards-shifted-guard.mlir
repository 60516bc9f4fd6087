// apipe-check-hazards follows a condition that an scf.for iter_arg carries
// one iteration (a shifted condition): the body yields `a(i) <pred> b(i)`,
// so the iter_arg is `a(i - 1) <pred> b(i - 1)`, exactly where the init is
// that comparison at i = -1 (or cannot hold: then i >= 1). The pipeliner's
// guard of the previous stage has this shape; the differential benchmark's
// last counting-form false alarm (a shifted version, Host input 3799) was
// a read under such a guard that never runs in the iteration of the copy
// it was taken to meet. Each function copies into slot i under %c and,
// behind a `wait_group 1` that leaves that copy in flight, reads slot i
// under the carried %g: a race exactly where %c and %g hold together.
// - @pipelined (c = (i + 1) mod 3 != 1, init 0 mod 3 != 1, 2 iterations):
//   never both; silent, and runs clean in 5 modes.
// - @pipelined_long: the same for 3 iterations: both hold at i = 2.
// - @first_late (c = i == 0, init false): g holds only at i = 1; silent.
// - @first_early: the same with init true, which is not the comparison at
//   i = -1: both hold at i = 0; reported (the shifted form alone would
//   say g holds only at i = 1).
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-run %s --entry=run_silent --completion=lazy,eager,random:1,random:2,random:3 | FileCheck %s --check-prefix=OUT
// RUN: not apipe-run %s --entry=run_pipelined_long 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=run_first_early 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: error: the host reads

func.func @pipelined(%A: memref<64xi32>, %out: memref<16xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cT = arith.constant 2 : index
  %z = arith.constant 0 : i32
  %buf = memref.alloc() : memref<16x4xi32>
  linalg.fill ins(%z : i32) outs(%buf : memref<16x4xi32>)
  %m0 = arith.remui %c0, %c3 : index
  %g0 = arith.cmpi ne, %m0, %c1 : index
  %r = scf.for %i = %c0 to %cT step %c1 iter_args(%g = %g0) -> (i1) {
    %i1 = arith.addi %i, %c1 : index
    %m = arith.remui %i1, %c3 : index
    %c = arith.cmpi ne, %m, %c1 : index
    scf.if %c {
      %s = arith.muli %i, %c4 : index
      apipe.copy %A[%s], %buf[%i, %c0], 4 : memref<64xi32> to memref<16x4xi32>
    }
    apipe.commit_group
    apipe.wait_group 1
    scf.if %g {
      %x = memref.load %buf[%i, %c0] : memref<16x4xi32>
      memref.store %x, %out[%i] : memref<16xi32>
    }
    scf.yield %c : i1
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<16x4xi32>
  return
}

func.func @pipelined_long(%A: memref<64xi32>, %out: memref<16xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cT = arith.constant 3 : index
  %z = arith.constant 0 : i32
  %buf = memref.alloc() : memref<16x4xi32>
  linalg.fill ins(%z : i32) outs(%buf : memref<16x4xi32>)
  %m0 = arith.remui %c0, %c3 : index
  %g0 = arith.cmpi ne, %m0, %c1 : index
  %r = scf.for %i = %c0 to %cT step %c1 iter_args(%g = %g0) -> (i1) {
    %i1 = arith.addi %i, %c1 : index
    %m = arith.remui %i1, %c3 : index
    %c = arith.cmpi ne, %m, %c1 : index
    scf.if %c {
      %s = arith.muli %i, %c4 : index
      apipe.copy %A[%s], %buf[%i, %c0], 4 : memref<64xi32> to memref<16x4xi32>
    }
    apipe.commit_group
    apipe.wait_group 1
    scf.if %g {
      // CHECK: check-hazards-shifted-guard.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
      %x = memref.load %buf[%i, %c0] : memref<16x4xi32>
      memref.store %x, %out[%i] : memref<16xi32>
    }
    scf.yield %c : i1
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<16x4xi32>
  return
}

func.func @first_late(%A: memref<64xi32>, %out: memref<16xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cT = arith.constant 4 : index
  %z = arith.constant 0 : i32
  %buf = memref.alloc() : memref<16x4xi32>
  linalg.fill ins(%z : i32) outs(%buf : memref<16x4xi32>)
  %g0 = arith.constant false
  %r = scf.for %i = %c0 to %cT step %c1 iter_args(%g = %g0) -> (i1) {
    %c = arith.cmpi eq, %i, %c0 : index
    scf.if %c {
      %s = arith.muli %i, %c4 : index
      apipe.copy %A[%s], %buf[%i, %c0], 4 : memref<64xi32> to memref<16x4xi32>
    }
    apipe.commit_group
    apipe.wait_group 1
    scf.if %g {
      %x = memref.load %buf[%i, %c0] : memref<16x4xi32>
      memref.store %x, %out[%i] : memref<16xi32>
    }
    scf.yield %c : i1
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<16x4xi32>
  return
}

func.func @first_early(%A: memref<64xi32>, %out: memref<16xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cT = arith.constant 4 : index
  %z = arith.constant 0 : i32
  %buf = memref.alloc() : memref<16x4xi32>
  linalg.fill ins(%z : i32) outs(%buf : memref<16x4xi32>)
  %g0 = arith.constant true
  %r = scf.for %i = %c0 to %cT step %c1 iter_args(%g = %g0) -> (i1) {
    %c = arith.cmpi eq, %i, %c0 : index
    scf.if %c {
      %s = arith.muli %i, %c4 : index
      apipe.copy %A[%s], %buf[%i, %c0], 4 : memref<64xi32> to memref<16x4xi32>
    }
    apipe.commit_group
    apipe.wait_group 1
    scf.if %g {
      // CHECK: check-hazards-shifted-guard.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
      %x = memref.load %buf[%i, %c0] : memref<16x4xi32>
      memref.store %x, %out[%i] : memref<16xi32>
    }
    scf.yield %c : i1
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<16x4xi32>
  return
}

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

// Slot i is copied only in iteration i, and read in iteration i only
// where no copy ran: the reads see the fill (0) and the rest of out stays
// -1 (A[k] = 2k + 1 is never seen), in each of the 5 modes.
// OUT: [0,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// OUT: [-1,  0,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// OUT: [0,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// OUT: [-1,  0,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// OUT: [0,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// OUT: [-1,  0,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// OUT: [0,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// OUT: [-1,  0,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// OUT: [0,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// OUT: [-1,  0,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
func.func @run_silent() {
  %m1 = arith.constant -1 : i32
  %A = func.call @source() : () -> memref<64xi32>
  %out = memref.alloc() : memref<16xi32>
  %u = memref.cast %out : memref<16xi32> to memref<*xi32>
  linalg.fill ins(%m1 : i32) outs(%out : memref<16xi32>)
  func.call @pipelined(%A, %out) : (memref<64xi32>, memref<16xi32>) -> ()
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  linalg.fill ins(%m1 : i32) outs(%out : memref<16xi32>)
  func.call @first_late(%A, %out) : (memref<64xi32>, memref<16xi32>) -> ()
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func @run_pipelined_long() {
  %A = func.call @source() : () -> memref<64xi32>
  %out = memref.alloc() : memref<16xi32>
  func.call @pipelined_long(%A, %out) : (memref<64xi32>, memref<16xi32>) -> ()
  return
}

func.func @run_first_early() {
  %A = func.call @source() : () -> memref<64xi32>
  %out = memref.alloc() : memref<16xi32>
  func.call @first_early(%A, %out) : (memref<64xi32>, memref<16xi32>) -> ()
  return
}
