// `--verify-diagnostics` reads `expected-<kind>-re` comments as mlir-opt
// does: literal text with `{{regex}}` parts.
// RUN: apipe-opt --split-input-file --verify-diagnostics %s
// RUN: not apipe-opt --verify-diagnostics %S/Inputs/verify-diagnostics-regex-fail.mlir 2>&1 | FileCheck %s

// CHECK-DAG: verify-diagnostics-regex-fail.mlir:3:3: error: unexpected error: 'apipe.wait_group' op attribute 'pending' must be non-negative, got -1
// CHECK-DAG: verify-diagnostics-regex-fail.mlir:2:6: error: expected error "attribute 'pending' must be {{[{][{]}}[0-9]+{{[}][}]}}, got -1" was not produced

func.func @regex() {
  // expected-error-re @+1 {{attribute 'pending' must be {{[a-z-]+}}, got -1}}
  apipe.wait_group -1
  return
}

// -----

func.func @regex_same_line() {
  apipe.commit_group queue -7 // expected-error-re {{'apipe.commit_group' op attribute 'queue' must be non-negative, got {{-[0-9]+}}}}
  return
}
