// `--mlir-timing` prints MLIR's execution time report to stderr, with a line
// per pass (apipe and upstream) and per nested pipeline; stdout keeps the
// result.
// RUN: apipe-opt %s --apipe-make-sync --canonicalize --mlir-timing -o %t 2>&1 | FileCheck %s
// RUN: apipe-opt %s -apipe-make-sync -canonicalize -mlir-timing 2>/dev/null | FileCheck %s --check-prefix=OUT
// RUN: apipe-opt %s --pass-pipeline='builtin.module(func.func(apipe-make-sync,cse),canonicalize)' --mlir-timing -o %t 2>&1 | FileCheck %s --check-prefix=NESTED
// Without the flag, no report.
// RUN: apipe-opt %s --apipe-make-sync --canonicalize -o %t 2>&1 | count 0

// CHECK:      ===-------------------------------------------------------------------------===
// CHECK-NEXT:                          ... Execution time report ...
// CHECK-NEXT: ===-------------------------------------------------------------------------===
// CHECK-NEXT:   Total Execution Time: {{[0-9]+\.[0-9]+}} seconds
// CHECK-EMPTY:
// CHECK-NEXT:   ----Wall Time----  ----Name----
// CHECK-NOT:  Total
// CHECK:        {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]+}}%)  ApipeMakeSync
// CHECK-NOT:  Total
// CHECK:        {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]+}}%)  Canonicalizer
// CHECK:        {{[0-9]+\.[0-9]+}} (100.0%)  Total

// OUT-NOT: Execution time report
// OUT:     memref.store %1, %arg1[%arg3] : memref<4xf32, 3>
// OUT-NOT: Execution time report

// NESTED:      ... Execution time report ...
// NESTED:      {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]+}}%)  'func.func' Pipeline
// NESTED-NEXT: {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]+}}%)    ApipeMakeSync
// The analysis that records the verified output (docs/passes.md):
// NESTED-NEXT: {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]+}}%)      (A) VerifiedByApipe
// NESTED-NEXT: {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]+}}%)    CSE
// NESTED:      {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]+}}%)  Canonicalizer
// NESTED:      {{[0-9]+\.[0-9]+}} (100.0%)  Total

func.func @counting(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%i], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.wait_group 0
  return
}
