// `--verify-diagnostics` fails (exit 1) when a diagnostic was not expected or
// an expectation was not met, reporting each at its real line; every chunk is
// still checked. (The check lines below avoid the word that starts an
// expectation comment, so that they are not read as expectations.)
// RUN: not apipe-opt --split-input-file --verify-diagnostics %s 2>&1 | FileCheck %s
// RUN: not apipe-opt -split-input-file -verify-diagnostics %s 2>&1 | FileCheck %s

func.func @unexpected() {
  // CHECK: opt-verify-diagnostics-fail.mlir:[[@LINE+1]]:3: error: unexpected error: 'apipe.wait_group' op attribute 'pending' must be non-negative, got -1
  apipe.wait_group -1
  return
}

// -----

func.func @not_produced() {
  // CHECK: opt-verify-diagnostics-fail.mlir:[[@LINE+1]]:6: error: expected error "never produced" was not produced
  // expected-error @+1 {{never produced}}
  return
}

// -----

// The wrong text: both reports.
func.func @wrong_text() {
  // CHECK-DAG: opt-verify-diagnostics-fail.mlir:[[@LINE+3]]:3: error: unexpected error: 'apipe.wait' op expected at least one !apipe.token operand
  // CHECK-DAG: opt-verify-diagnostics-fail.mlir:[[@LINE+1]]:6: error: expected error "some other message" was not produced
  // expected-error @+1 {{some other message}}
  "apipe.wait"() : () -> ()
  return
}

// -----

// The right text on the wrong line.
func.func @wrong_line(%A: memref<64xf32>, %buf: memref<4xf32, 3>) {
  // CHECK-DAG: opt-verify-diagnostics-fail.mlir:[[@LINE+2]]:6: error: expected error "elements' must be positive" was not produced
  // CHECK-DAG: opt-verify-diagnostics-fail.mlir:[[@LINE+3]]:3: error: unexpected error: 'apipe.copy' op attribute 'elements' must be positive, got 0
  // expected-error @+1 {{elements' must be positive}}
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %buf[%c0], 0 : memref<64xf32> to memref<4xf32, 3>
  return
}

// -----

// The right line and text, the wrong severity.
func.func @wrong_kind() {
  // CHECK-DAG: opt-verify-diagnostics-fail.mlir:[[@LINE+2]]:3: error: unexpected error: 'apipe.commit_group' op attribute 'queue' must be non-negative, got -1
  // CHECK-DAG: opt-verify-diagnostics-fail.mlir:[[@LINE+1]]:34: error: expected warning "must be non-negative" was not produced
  apipe.commit_group queue -1 // expected-warning {{must be non-negative}}
  return
}
