// The stack release and the buffers behind region results, in kernels and
// through scf.while (trial 31):
// - a gpu.func's memref.alloca is released at its gpu.return; a copy out of
//   it still in flight there is reported also when the alloca comes
//   through an scf.execute_region or an arith.select (before: compared
//   with any thread's copy, whose private buffer is other memory, and
//   missed);
// - a buffer passed through an scf.while is the one its scf.condition
//   forwards (before: an unknown buffer, so a stack release was missed
//   and a read of it was only a possible hazard).
// - a private attribution, and an alloca of an inline gpu.launch body
//   (released at its gpu.terminator), are the thread's memory too.
// Waiting first is silent.
// RUN: head -n 44 %s | apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: error
// CHECK: check-hazards-stack-release-kernel.mlir:57:5: error: 'gpu.return' op releases the stack memory of a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK: check-hazards-stack-release-kernel.mlir:52:12: note: the 'memref.alloca' whose memory is released there
// CHECK-NOT: error
// CHECK: check-hazards-stack-release-kernel.mlir:71:5: error: 'gpu.return' op releases the stack memory of a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK: check-hazards-stack-release-kernel.mlir:67:10: note: the 'memref.alloca' whose memory is released there
// CHECK-NOT: error
// CHECK: check-hazards-stack-release-kernel.mlir:81:3: error: 'memref.alloca_scope' op releases the stack memory of a buffer region that an async copy may still be writing (its destination)
// CHECK-NOT: error
// CHECK: check-hazards-stack-release-kernel.mlir:114:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK-NOT: error
// CHECK: check-hazards-stack-release-kernel.mlir:[[#@LINE+102]]:5: error: 'gpu.return' op releases the stack memory of a buffer region that an async copy may still be writing (its destination)
// CHECK-NOT: error
// CHECK: check-hazards-stack-release-kernel.mlir:[[#@LINE+115]]:5: error: 'gpu.terminator' op releases the stack memory of a buffer region that an async copy may still be writing (its destination)
// CHECK: check-hazards-stack-release-kernel.mlir:[[#@LINE+111]]:10: note: the 'memref.alloca' whose memory is released there
// CHECK-NOT: error
gpu.module @waited {
  gpu.func @kernel(%out: memref<8xf32>) kernel {
    %c0 = arith.constant 0 : index
    %s = scf.execute_region -> memref<8xf32> {
      %a = memref.alloca() : memref<8xf32>
      scf.yield %a : memref<8xf32>
    }
    apipe.copy %s[%c0], %out[%c0], 8 : memref<8xf32> to memref<8xf32>
    apipe.commit_group
    apipe.wait_group 0
    gpu.return
  }
}

// -----

gpu.module @from_region {
  gpu.func @kernel(%out: memref<8xf32>) kernel {
    %c0 = arith.constant 0 : index
    %s = scf.execute_region -> memref<8xf32> {
      %a = memref.alloca() : memref<8xf32>
      scf.yield %a : memref<8xf32>
    }
    apipe.copy %s[%c0], %out[%c0], 8 : memref<8xf32> to memref<8xf32>
    apipe.commit_group
    gpu.return
  }
}

// -----

gpu.module @selected {
  gpu.func @kernel(%out: memref<8xf32>) kernel {
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    %a = memref.alloca() : memref<8xf32>
    %s = arith.select %true, %a, %out : memref<8xf32>
    apipe.copy %s[%c0], %out[%c0], 8 : memref<8xf32> to memref<8xf32>
    apipe.commit_group
    gpu.return
  }
}

// -----

func.func @through_while(%src: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  memref.alloca_scope {
    %a = memref.alloca() : memref<8xf32>
    %r:2 = scf.while (%i = %c0, %b = %a) : (index, memref<8xf32>) -> (index, memref<8xf32>) {
      %cond = arith.cmpi slt, %i, %c3 : index
      scf.condition(%cond) %i, %b : index, memref<8xf32>
    } do {
    ^bb0(%j: index, %bb: memref<8xf32>):
      %n = arith.addi %j, %c1 : index
      scf.yield %n, %bb : index, memref<8xf32>
    }
    apipe.copy %src[%c0], %r#1[%c0], 8 : memref<8xf32> to memref<8xf32>
  }
  apipe.commit_group
  apipe.wait_group 0
  return
}

// -----

func.func @read_through_while(%src: memref<8xf32>, %a: memref<8xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r:2 = scf.while (%i = %c0, %b = %a) : (index, memref<8xf32>) -> (index, memref<8xf32>) {
    %cond = arith.cmpi slt, %i, %c3 : index
    scf.condition(%cond) %i, %b : index, memref<8xf32>
  } do {
  ^bb0(%j: index, %bb: memref<8xf32>):
    %n = arith.addi %j, %c1 : index
    scf.yield %n, %bb : index, memref<8xf32>
  }
  apipe.copy %src[%c0], %r#1[%c0], 8 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  %x = memref.load %a[%c1] : memref<8xf32>
  memref.store %x, %out[%c0] : memref<1xf32>
  apipe.wait_group 0
  return
}

// -----

// A private attribution is the thread's own memory too (trial 33).
gpu.module @private_attribution {
  gpu.func @kernel(%g: memref<64xf32>) private(%p: memref<2xf32, 5>) kernel {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    apipe.copy %g[%tid], %p[%c0], 1 : memref<64xf32> to memref<2xf32, 5>
    apipe.commit_group
    gpu.return
  }
}

// -----

// The end of an inline gpu.launch body ends the thread (trial 33).
func.func @inline_launch(%g: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c4, %b = %c1, %cc = %c1) {
    %s = memref.alloca() : memref<1xf32>
    apipe.copy %g[%tx], %s[%c0], 1 : memref<8xf32> to memref<1xf32>
    apipe.commit_group
    gpu.terminator
  }
  return
}
