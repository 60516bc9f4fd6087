// apipe-check-hazards refuses async ops and barriers inside loops that are
// not scf.for / scf.while (trial 17: it walked the regions of other region
// ops once, so a hazard between two iterations of an affine.for or an
// scf.parallel went unreported; apipe-run reports both). After
// --lower-affine, the affine.for is an scf.for and its race is reported.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --lower-affine | not apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOWERED
// LOWERED: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
func.func @affine_loop(%A: memref<64xi32>, %out: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xi32>
  apipe.copy %A[%c0], %buf[%c0], 1 : memref<64xi32> to memref<4xi32>
  apipe.commit_group
  affine.for %i = 0 to 2 {
    // CHECK: check-hazards-unsupported-loops-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.wait_group' op inside 'affine.for': apipe-check-hazards follows async copies, commits, waits and barriers only through scf.for, scf.while, scf.if, scf.index_switch and scf.execute_region
    apipe.wait_group 0
    %y = memref.load %buf[%c0] : memref<4xi32>
    memref.store %y, %out[%i] : memref<4xi32>
    apipe.copy %A[%i], %buf[%c0], 1 : memref<64xi32> to memref<4xi32>
  }
  apipe.commit_group
  apipe.wait_group 0
  memref.dealloc %buf : memref<4xi32>
  return
}

func.func @parallel_loop(%A: memref<64xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %buf = memref.alloc() : memref<4xi32>
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    // CHECK: check-hazards-unsupported-loops-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.copy' op inside 'scf.parallel'
    apipe.copy %A[%i], %buf[%c0], 1 : memref<64xi32> to memref<4xi32>
    scf.reduce
  }
  apipe.commit_group
  apipe.wait_group 0
  memref.dealloc %buf : memref<4xi32>
  return
}
