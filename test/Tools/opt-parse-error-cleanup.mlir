// A parse error after a forward reference that a definition inside a region
// resolved (the region is then dropped: upstream MLIR 22's cleanup of that
// half-built IR writes to freed memory, and mlir-opt aborts): every tool
// prints the parse diagnostic and exits 1, and with --split-input-file the
// other chunks are still processed. A fuzzed input (the first chunk) once
// aborted apipe-opt here.
// RUN: apipe-opt %s --split-input-file --verify-diagnostics
// RUN: not apipe-opt %s --split-input-file 2>&1 | FileCheck %s
// RUN: not apipe-opt %S/Inputs/parse-error-forward-reference.mlir 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not apipe-translate %S/Inputs/parse-error-forward-reference.mlir --to-ptx 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not apipe-run %S/Inputs/parse-error-forward-reference.mlir 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: parse-error-forward-reference.mlir:9:3: error: custom op 'scf.index_switch' expected 'default'
// ONE-NOT: error

// CHECK: opt-parse-error-cleanup.mlir:[[@LINE+8]]:3: error: custom op 'scf.index_switch' expected 'default'
func.func @index_switch_without_default() {
  %1 = arith.addi %0, %0 : index
  scf.index_switch %1
  case 0 {
    %0 = arith.subi %1, %1 : index
  }
  // expected-error @+1 {{custom op 'scf.index_switch' expected 'default'}}
  return
}

// -----

// CHECK: opt-parse-error-cleanup.mlir:[[@LINE+12]]:3: error: custom op 'scf.index_switch' expected 'default'
func.func @two_cases_and_results(%n: index) {
  %1 = arith.addi %0, %0 : index
  %r = scf.index_switch %n -> index
  case 0 {
    %0 = arith.subi %1, %1 : index
    scf.yield %0 : index
  }
  case 1 {
    scf.yield %1 : index
  }
  // expected-error @+1 {{custom op 'scf.index_switch' expected 'default'}}
  defaul {
  }
  return
}

// -----

// CHECK: opt-parse-error-cleanup.mlir:[[@LINE+9]]:3: error: custom op 'scf.index_switch' expected 'default'
func.func @nested_in_if(%c: i1, %n: index) {
  %1 = arith.addi %0, %0 : index
  scf.if %c {
    scf.index_switch %n
    case 0 {
      %0 = arith.subi %1, %1 : index
    }
  // expected-error @+1 {{custom op 'scf.index_switch' expected 'default'}}
  }
  return
}

// -----

// The forward reference is an apipe token.
// CHECK: opt-parse-error-cleanup.mlir:[[@LINE+8]]:3: error: custom op 'scf.index_switch' expected 'default'
func.func @apipe_token(%n: index) {
  apipe.wait %t
  scf.index_switch %n
  case 0 {
    %t = apipe.commit_group
  }
  // expected-error @+1 {{custom op 'scf.index_switch' expected 'default'}}
  return
}

// -----

// Other ops with a forward reference resolved in a region, then a parse
// error (no use-after-free upstream, the same exit).
// CHECK: opt-parse-error-cleanup.mlir:[[@LINE+6]]:9: error: expected '{' to begin a region
func.func @if_then_garbage(%c: i1) {
  %1 = arith.addi %0, %0 : index
  scf.if %c {
    %0 = arith.subi %1, %1 : index
  // expected-error @+1 {{expected '{' to begin a region}}
  } else garbage
  return
}

// -----

// CHECK: opt-parse-error-cleanup.mlir:[[@LINE+7]]:5: error: custom op 'oops' is unknown
func.func @execute_region_then_garbage() -> index {
  %1 = arith.addi %0, %0 : index
  %2 = scf.execute_region -> index {
    %0 = arith.subi %1, %1 : index
    scf.yield %0 : index
  // expected-error @+1 {{custom op 'oops' is unknown}}
  } oops
  return %2 : index
}

// -----

// A valid chunk after the failed ones is still printed.
// CHECK: func.func @still_processed
func.func @still_processed() {
  return
}
