// apipe-check-hazards on guards carried through a pipelined loop, as the
// pipeliner emits them for a copy under `scf.if` (the read of each tile
// under the condition its copy was issued under, passed along the
// iter_args): the guard of the loop's result is the last iteration's
// comparison (a constant trip count), and an iter_arg guard is its initial
// value in the first iteration. Where those cannot hold, the guarded read
// never runs and a wait that leaves its copy in flight is enough (each was
// a false read-after-write); the twins, whose copies are issued, are
// errors (truly broken under apipe-run's lazy completion). A failing
// `arith.cmpi ne` is decided by cases (`x < 0` or `x > 0`) in the
// constraint solver.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:
// RUN: awk '/^\/\/ -----$/{n++; next} n==0' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - | FileCheck %s --check-prefix=OUT
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1 | FileCheck %s --check-prefix=ALL
// OUT: [1,  -1,  -1,  -1]
// OUT: [-1,  3,  -1,  -1]
// ALL: [1,  -1,  -1,  -1]
// ALL: [-1,  3,  -1,  -1]
// ALL: [1,  -1,  -1,  -1]
// ALL: [-1,  3,  -1,  -1]
// ALL: [1,  -1,  -1,  -1]
// ALL: [-1,  3,  -1,  -1]

// The last iteration skips its copy ((1 mod 3) != 1 fails), so the
// epilogue's read under the carried guard %r never runs: its
// `wait_group 2`, which leaves that copy's group in flight, is enough.
func.func @epilogue_skipped(%A: memref<16xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %ck = arith.constant 1 : index
  %buf = memref.alloc() : memref<2x2xf32>
  %m0 = arith.remui %c0, %c3 : index
  %g0 = arith.cmpi ne, %m0, %ck : index
  scf.if %g0 {
    apipe.copy %A[%c0], %buf[%c0, %c0], 2 : memref<16xf32> to memref<2x2xf32>
  }
  apipe.commit_group
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%g = %g0) -> (i1) {
    %n = arith.addi %i, %c1 : index
    %mn = arith.remui %n, %c3 : index
    %gn = arith.cmpi ne, %mn, %ck : index
    %sn = arith.remui %n, %c2 : index
    %off = arith.muli %n, %c2 : index
    scf.if %gn {
      apipe.copy %A[%off], %buf[%sn, %c0], 2 : memref<16xf32> to memref<2x2xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %s = arith.remui %i, %c2 : index
    scf.if %g {
      %x = memref.load %buf[%s, %c1] : memref<2x2xf32>
      memref.store %x, %out[%i] : memref<4xf32>
    }
    scf.yield %gn : i1
  }
  apipe.commit_group
  apipe.wait_group 2
  scf.if %r {
    %y = memref.load %buf[%c1, %c1] : memref<2x2xf32>
    memref.store %y, %out[%c1] : memref<4xf32>
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<2x2xf32>
  return
}

// The prologue skips its copy ((0 mod 3) != 0 fails), so the first
// iteration's read under the carried guard %g never runs: its
// `wait_group 2` is enough.
func.func @first_skipped(%A: memref<16xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %ck = arith.constant 0 : index
  %buf = memref.alloc() : memref<2x2xf32>
  %m0 = arith.remui %c0, %c3 : index
  %g0 = arith.cmpi ne, %m0, %ck : index
  scf.if %g0 {
    apipe.copy %A[%c0], %buf[%c0, %c0], 2 : memref<16xf32> to memref<2x2xf32>
  }
  apipe.commit_group
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%g = %g0) -> (i1) {
    %n = arith.addi %i, %c1 : index
    %mn = arith.remui %n, %c3 : index
    %gn = arith.cmpi ne, %mn, %ck : index
    %sn = arith.remui %n, %c2 : index
    %off = arith.muli %n, %c2 : index
    scf.if %gn {
      apipe.copy %A[%off], %buf[%sn, %c0], 2 : memref<16xf32> to memref<2x2xf32>
    }
    apipe.commit_group
    apipe.wait_group 2
    %s = arith.remui %i, %c2 : index
    scf.if %g {
      %x = memref.load %buf[%s, %c1] : memref<2x2xf32>
      memref.store %x, %out[%i] : memref<4xf32>
    }
    scf.yield %gn : i1
  }
  apipe.commit_group
  apipe.wait_group 0
  scf.if %r {
    %y = memref.load %buf[%c1, %c1] : memref<2x2xf32>
    memref.store %y, %out[%c1] : memref<4xf32>
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<2x2xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %z = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<16xf32>
  %out = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.sitofp %ii : i32 to f32
    memref.store %v, %A[%i] : memref<16xf32>
  }
  %u = memref.cast %out : memref<4xf32> to memref<*xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %z, %out[%i] : memref<4xf32>
  }
  func.call @epilogue_skipped(%A, %out) : (memref<16xf32>, memref<4xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %z, %out[%i] : memref<4xf32>
  }
  func.call @first_skipped(%A, %out) : (memref<16xf32>, memref<4xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)

// -----

// The twin: the last copy is issued ((1 mod 3) != 2) and %r holds: the
// epilogue reads it in flight.
func.func @epilogue_issued(%A: memref<16xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %ck = arith.constant 2 : index
  %buf = memref.alloc() : memref<2x2xf32>
  %m0 = arith.remui %c0, %c3 : index
  %g0 = arith.cmpi ne, %m0, %ck : index
  scf.if %g0 {
    apipe.copy %A[%c0], %buf[%c0, %c0], 2 : memref<16xf32> to memref<2x2xf32>
  }
  apipe.commit_group
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%g = %g0) -> (i1) {
    %n = arith.addi %i, %c1 : index
    %mn = arith.remui %n, %c3 : index
    %gn = arith.cmpi ne, %mn, %ck : index
    %sn = arith.remui %n, %c2 : index
    %off = arith.muli %n, %c2 : index
    scf.if %gn {
      apipe.copy %A[%off], %buf[%sn, %c0], 2 : memref<16xf32> to memref<2x2xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %s = arith.remui %i, %c2 : index
    scf.if %g {
      %x = memref.load %buf[%s, %c1] : memref<2x2xf32>
      memref.store %x, %out[%i] : memref<4xf32>
    }
    scf.yield %gn : i1
  }
  apipe.commit_group
  apipe.wait_group 2
  scf.if %r {
    // CHECK: check-hazards-carried-guards.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %y = memref.load %buf[%c1, %c1] : memref<2x2xf32>
    memref.store %y, %out[%c1] : memref<4xf32>
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<2x2xf32>
  return
}

// -----

// The twin: the prologue copy is issued and the first iteration reads it
// in flight.
func.func @first_issued(%A: memref<16xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %ck = arith.constant 2 : index
  %buf = memref.alloc() : memref<2x2xf32>
  %m0 = arith.remui %c0, %c3 : index
  %g0 = arith.cmpi ne, %m0, %ck : index
  scf.if %g0 {
    apipe.copy %A[%c0], %buf[%c0, %c0], 2 : memref<16xf32> to memref<2x2xf32>
  }
  apipe.commit_group
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%g = %g0) -> (i1) {
    %n = arith.addi %i, %c1 : index
    %mn = arith.remui %n, %c3 : index
    %gn = arith.cmpi ne, %mn, %ck : index
    %sn = arith.remui %n, %c2 : index
    %off = arith.muli %n, %c2 : index
    scf.if %gn {
      apipe.copy %A[%off], %buf[%sn, %c0], 2 : memref<16xf32> to memref<2x2xf32>
    }
    apipe.commit_group
    apipe.wait_group 2
    %s = arith.remui %i, %c2 : index
    scf.if %g {
      // CHECK: check-hazards-carried-guards.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
      %x = memref.load %buf[%s, %c1] : memref<2x2xf32>
      memref.store %x, %out[%i] : memref<4xf32>
    }
    scf.yield %gn : i1
  }
  apipe.commit_group
  apipe.wait_group 0
  scf.if %r {
    %y = memref.load %buf[%c1, %c1] : memref<2x2xf32>
    memref.store %y, %out[%c1] : memref<4xf32>
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<2x2xf32>
  return
}
