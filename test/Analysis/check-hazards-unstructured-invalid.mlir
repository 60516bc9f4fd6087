// What apipe-check-hazards does not follow is refused at its location, not
// passed silently: an apipe op in a region of several blocks (cf.br /
// cf.cond_br inside an scf.execute_region, or in the function body), and a
// call from GPU code to a function with apipe ops. Before, the copy in block
// ^a below, which threads 0-15 run, was never looked at, and the read of
// another thread's element after it (thread 32 reads element 0, copied by
// thread 0) was not reported. A device function's arguments may differ
// between threads (last case).
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

// -----

// Each function is checked on its own: a kernel that calls a function with
// apipe ops is refused at the call. Before, the helper's copy was checked
// alone (its wait completes it for the calling thread), and the kernel's read
// of the neighbour's element after the call, with no barrier, was not
// reported (apipe-run: thread 31 reads element 0, copied by thread 0).
gpu.module @calls {
  func.func @helper(%A: memref<4096xf32>, %buf: memref<32xf32, 3>) {
    %tid = gpu.thread_id x
    apipe.copy %A[%tid], %buf[%tid], 1 : memref<4096xf32> to memref<32xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    return
  }
  gpu.func @k(%A: memref<4096xf32>, %out: memref<4096xf32>) workgroup(%buf: memref<32xf32, 3>) kernel {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    // CHECK: check-hazards-unstructured-invalid.mlir:[[# @LINE + 1]]:5: error: 'func.call' op in GPU code calls @helper, which has async copies, commits or waits, or calls a function that does: apipe-check-hazards checks each function on its own and does not follow them across a call (inline it)
    func.call @helper(%A, %buf) : (memref<4096xf32>, memref<32xf32, 3>) -> ()
    %n = arith.addi %tid, %c1 : index
    %at = arith.remui %n, %c32 : index
    %x = memref.load %buf[%at] : memref<32xf32, 3>
    memref.store %x, %out[%tid] : memref<4096xf32>
    gpu.return
  }
}

// -----

// A device function (a gpu.func that is not a kernel) on its own: its
// arguments may differ between threads, so a copy under `scf.if %c` bounds
// no other thread's id, and the read of `buf[tid mod 32]` by thread 32
// meets thread 0's copy.
gpu.module @device_function {
  gpu.func @device(%A: memref<4096xf32>, %out: memref<4096xf32>, %buf: memref<32xf32, 3>, %c: i1) {
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %at = arith.remui %tid, %c32 : index
    scf.if %c {
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<4096xf32> to memref<32xf32, 3>
    }
    apipe.commit_group
    apipe.wait_group 0
    // CHECK: check-hazards-unstructured-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
    %x = memref.load %buf[%at] : memref<32xf32, 3>
    memref.store %x, %out[%tid] : memref<4096xf32>
    gpu.return
  }
}
