// An op of an unregistered dialect is rejected, with a located error, unless
// `--allow-unregistered-dialect` is given; then it round-trips and passes
// (apipe and upstream) leave it in place. Unknown ops of the registered
// `apipe` dialect stay errors either way.
// RUN: not apipe-opt %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not apipe-opt --apipe-make-sync %s -o %t 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: apipe-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: apipe-opt -allow-unregistered-dialect %s | apipe-opt -allow-unregistered-dialect | FileCheck %s
// RUN: apipe-opt -allow-unregistered-dialect -apipe-make-sync -canonicalize %s | FileCheck %s --check-prefix=SYNC
// RUN: not apipe-opt --allow-unregistered-dialect %S/Inputs/unknown-apipe-op.mlir 2>&1 | FileCheck %s --check-prefix=APIPE
// RUN: not apipe-opt %S/Inputs/unknown-apipe-op.mlir 2>&1 | FileCheck %s --check-prefix=APIPE

// CHECK-LABEL: func.func @unregistered(%arg0: memref<64xf32>, %arg1: memref<4xf32, 3>, %arg2: index) -> i32 {
// CHECK:         %0 = "foo.bar"(%arg2) {attr = 1 : i32} : (index) -> i32
// CHECK:         apipe.copy %arg0[%arg2], %arg1[%c0], 4
// CHECK:         "foo.side_effect"() : () -> ()
// CHECK:         return %0 : i32

func.func @unregistered(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) -> i32 {
  %c0 = arith.constant 0 : index
  // ERR:      opt-allow-unregistered.mlir:[[@LINE+4]]:17: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
  // ERR-NEXT: {{^}}  %x = "foo.bar"(%i) {attr = 1 : i32} : (index) -> i32
  // ERR-NEXT: {{^}}                ^
  // ERR-NOT:  error
  %x = "foo.bar"(%i) {attr = 1 : i32} : (index) -> i32
  apipe.copy %A[%i], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.wait_group 0
  "foo.side_effect"() : () -> ()
  return %x : i32
}

// SYNC-LABEL: func.func @unregistered
// SYNC:         %0 = "foo.bar"(%arg2) {attr = 1 : i32} : (index) -> i32
// SYNC-NOT:     apipe.
// SYNC:         memref.store
// SYNC-NOT:     apipe.
// SYNC:         "foo.side_effect"() : () -> ()
// SYNC-NEXT:    return %0 : i32

// APIPE: unknown-apipe-op.mlir:2:3: error: unregistered operation 'apipe.frobnicate' found in dialect ('apipe') that does not allow unknown operations
