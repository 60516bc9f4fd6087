// apipe-check-hazards follows async copies, commits and waits through
// structured control flow only. An apipe op in a region of several blocks
// (cf.br / cf.cond_br inside an scf.execute_region, or in the function
// body) is refused at its location: the walk would not see it. Before, the
// copy below, which threads 0-15 run in block ^a, was never looked at, and
// the read of another thread's element after it (thread 32 reads element 0,
// copied by thread 0) was not reported.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

gpu.module @k {
  gpu.func @execute_region(%A: memref<4096xf32>, %out: memref<4096xf32>) workgroup(%buf: memref<32xf32, 3>) kernel {
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %at = arith.remui %tid, %c32 : index
    %low = arith.cmpi ult, %tid, %c16 : index
    scf.execute_region {
      cf.cond_br %low, ^a, ^b
    ^a:
      // CHECK: check-hazards-unstructured-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.copy' op in a region of several blocks: apipe-check-hazards follows async copies, commits and waits only through structured control flow (scf)
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<4096xf32> to memref<32xf32, 3>
      cf.br ^b
    ^b:
      scf.yield
    }
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%at] : memref<32xf32, 3>
    memref.store %x, %out[%tid] : memref<4096xf32>
    gpu.return
  }
}

// -----

// A function body of several blocks with copies and waits, no commit.
func.func @body(%A: memref<64xf32>, %buf: memref<64xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  cf.cond_br %c, ^copy, ^done
^copy:
  // CHECK: check-hazards-unstructured-invalid.mlir:[[# @LINE + 1]]:3: error: 'apipe.copy' op in a region of several blocks: apipe-check-hazards follows async copies, commits and waits only through structured control flow (scf)
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<64xf32>
  %x = memref.load %buf[%c0] : memref<64xf32>
  cf.br ^done
^done:
  return
}
