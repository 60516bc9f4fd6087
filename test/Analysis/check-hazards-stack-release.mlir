// The stack memory of a memref.alloca is released when its allocation
// scope ends (the function returns, or its memref.alloca_scope ends): an
// async copy into or out of it still in flight there is reported at the
// return or the scope (trial 26: silent before; apipe-run reports "stack
// memory is released here ... while a pending 'apipe.copy' still reads
// it"). Waiting for the copy first is silent.
// RUN: head -n 50 %s | apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// RUN: apipe-opt %s --split-input-file --apipe-make-sync | FileCheck %s --check-prefix=SYNC
// SYNC-NOT: apipe.
// CHECK-NOT: error
// CHECK: check-hazards-stack-release.mlir:60:3: error: 'func.return' op releases the stack memory of a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK: check-hazards-stack-release.mlir:57:8: note: the 'memref.alloca' whose memory is released there
// CHECK-NOT: error
// CHECK: check-hazards-stack-release.mlir:69:3: error: 'memref.alloca_scope' op releases the stack memory of a buffer region that an async copy may still be writing (its destination)
// CHECK-NOT: error
// CHECK: check-hazards-stack-release.mlir:88:3: error: 'func.return' op releases the stack memory of a buffer region that an async copy may still be reading (its source)
// CHECK-NOT: error
// CHECK: check-hazards-stack-release.mlir:105:3: error: 'func.return' op releases the stack memory of a buffer region that an async copy may still be reading (its source)
// CHECK: check-hazards-stack-release.mlir:98:10: note: the 'memref.alloca' whose memory is released there
// CHECK-NOT: error
// CHECK: check-hazards-stack-release.mlir:125:3: error: 'func.return' op releases the stack memory of a buffer region that an async copy may still be writing (its destination)
// CHECK: check-hazards-stack-release.mlir:116:10: note: the 'memref.alloca' whose memory is released there
// CHECK-NOT: error

// Waited before the return.
func.func @fill_from_stack(%dst: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %five = arith.constant 5.0 : f32
  %s = memref.alloca() : memref<8xf32>
  linalg.fill ins(%five : f32) outs(%s : memref<8xf32>)
  apipe.copy %s[%c0], %dst[%c0], 8 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  apipe.wait_group 0
  return
}

// Waited, the alloca returned by an scf.execute_region.
func.func @region_waited(%dst: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %s = scf.execute_region -> memref<8xf32> {
    %a = memref.alloca() : memref<8xf32>
    scf.yield %a : memref<8xf32>
  }
  apipe.copy %s[%c0], %dst[%c0], 8 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  apipe.wait_group 0
  return
}

// -----

// Returns with the copy out of its own stack not even committed.
func.func @escapes(%dst: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %five = arith.constant 5.0 : f32
  %s = memref.alloca() : memref<8xf32>
  linalg.fill ins(%five : f32) outs(%s : memref<8xf32>)
  apipe.copy %s[%c0], %dst[%c0], 8 : memref<8xf32> to memref<8xf32>
  return
}

// -----

// The scope ends with the copy into its alloca not committed (a scope
// cannot commit: the group distance is counted only through scf).
func.func @scope_ends_early(%src: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  memref.alloca_scope {
    %t = memref.alloca() : memref<8xf32>
    apipe.copy %src[%c0], %t[%c0], 8 : memref<8xf32> to memref<8xf32>
  }
  apipe.commit_group
  apipe.wait_group 0
  return
}

// -----

// The buffer is one of two allocas, chosen by a select.
func.func @chosen(%dst: memref<8xf32>, %which: i1) {
  %c0 = arith.constant 0 : index
  %a = memref.alloca() : memref<8xf32>
  %b = memref.alloca() : memref<8xf32>
  %s = arith.select %which, %a, %b : memref<8xf32>
  apipe.copy %s[%c0], %dst[%c0], 8 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  return
}

// -----

// The alloca is returned by an scf.execute_region, through a subview and a
// cast (before: an unknown buffer, and the release went unseen).
func.func @from_region(%dst: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %s = scf.execute_region -> memref<4xf32, strided<[1], offset: 2>> {
    %a = memref.alloca() : memref<8xf32>
    %v = memref.subview %a[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
    scf.yield %v : memref<4xf32, strided<[1], offset: 2>>
  }
  %t = memref.cast %s : memref<4xf32, strided<[1], offset: 2>> to memref<4xf32, strided<[1], offset: ?>>
  apipe.copy %t[%c0], %dst[%c0], 4 : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32>
  apipe.commit_group
  return
}

// -----

// One case of an scf.index_switch yields an alloca, the other a heap
// buffer: the copy into it is still in flight at the return.
func.func @from_switch(%src: memref<8xf32>, %k: index) {
  %c0 = arith.constant 0 : index
  %s = scf.index_switch %k -> memref<8xf32>
  case 1 {
    %a = memref.alloca() : memref<8xf32>
    scf.yield %a : memref<8xf32>
  }
  default {
    %g = memref.alloc() : memref<8xf32>
    scf.yield %g : memref<8xf32>
  }
  apipe.copy %src[%c0], %s[%c0], 8 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  return
}
