// apipe passes nested under func.func, which MLIR's thread pool runs on
// sibling functions in parallel. A pass reads nothing outside its function
// (before, the pipeliner looked for each function's callers in the whole
// module while other threads rewrote them: a segmentation fault on every
// run of this 300-function module). The output is the module-level one.
// RUN: python3 %S/Inputs/calling_functions.py 300 > %t.mlir
// RUN: apipe-opt %t.mlir --pass-pipeline='builtin.module(func.func(apipe-software-pipeline))' > %t.nested.mlir
// RUN: apipe-opt %t.mlir --apipe-software-pipeline > %t.module.mlir
// RUN: diff %t.module.mlir %t.nested.mlir
// RUN: FileCheck %s < %t.nested.mlir
// RUN: FileCheck %s --check-prefix=CALLS < %t.nested.mlir
// RUN: apipe-opt %t.mlir --pass-pipeline='builtin.module(func.func(apipe-software-pipeline{sync=tokens},apipe-tokens-to-counting,apipe-counting-to-tokens,apipe-tokens-to-mbarrier))' -o /dev/null
// apipe-check-hazards follows calls: it runs on a module (or gpu.module),
// and MLIR refuses to schedule it under func.func.
// RUN: not apipe-opt %t.mlir --pass-pipeline='builtin.module(func.func(apipe-software-pipeline,apipe-check-hazards))' 2>&1 | FileCheck %s --check-prefix=HAZARDS

// Each function: its kernel loop and two epilogue steps wait with
// pending = 2; a call of the next function follows (not in the last one).
// CHECK-COUNT-900: apipe.wait_group 2
// CHECK-NOT: apipe.wait_group 2
// CALLS-COUNT-299: call @f
// CALLS-NOT: call @f
// HAZARDS: error: unable to schedule pass 'ApipeCheckHazards' on a PassManager intended to run on 'func.func'!
