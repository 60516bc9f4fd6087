// The checked-in IRDL lets upstream mlir-opt read apipe IR in generic form
// (IRDL has no custom assembly; the plugin gives upstream tools that).
// RUN: %mlir_opt --irdl-file=%apipe_irdl %s | FileCheck %s
// RUN: %mlir_opt --irdl-file=%apipe_irdl %s | %mlir_opt --irdl-file=%apipe_irdl | FileCheck %s
// RUN: not %mlir_opt --irdl-file=%apipe_irdl --split-input-file %S/Inputs/irdl-invalid.mlir 2>&1 | FileCheck %s --check-prefix=INVALID

// CHECK-LABEL: func.func @counting_form
// CHECK: "apipe.copy"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {elements = 4 : i64} : (memref<64xf32>, memref<4xf32, 3>, index, index) -> ()
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: "apipe.wait_group"() {pending = 1 : i64} : () -> ()
func.func @counting_form(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  "apipe.copy"(%A, %buf, %i, %c0) {elements = 4 : i64} : (memref<64xf32>, memref<4xf32, 3>, index, index) -> ()
  "apipe.commit_group"() : () -> ()
  "apipe.wait_group"() {pending = 1 : i64} : () -> ()
  return
}

// CHECK-LABEL: func.func @token_form
// CHECK: %[[T:.*]] = "apipe.commit_group"() {queue = 1 : i64} : () -> !apipe.token
// CHECK-NEXT: %[[R:.*]] = "apipe.ready"() : () -> !apipe.token
// CHECK-NEXT: "apipe.wait"(%[[T]], %[[R]]) : (!apipe.token, !apipe.token) -> ()
func.func @token_form(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  "apipe.copy"(%A, %buf, %i, %c0) {elements = 4 : i64, queue = 1 : i64} : (memref<64xf32>, memref<4xf32, 3>, index, index) -> ()
  %t = "apipe.commit_group"() {queue = 1 : i64} : () -> !apipe.token
  %r = "apipe.ready"() : () -> !apipe.token
  "apipe.wait"(%t, %r) : (!apipe.token, !apipe.token) -> ()
  return
}

// INVALID: error: expected base attribute 'builtin.integer'
// INVALID: error: op expects at least 2 operands, but got 1
