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
// The form conversions cannot see a called function from one function
// (it may commit or wait): they refuse the calls, at each call.
// RUN: not apipe-opt %t.mlir --pass-pipeline='builtin.module(func.func(apipe-software-pipeline{sync=tokens},apipe-tokens-to-counting))' 2>&1 | FileCheck %s --check-prefix=CONVERSION
// RUN: not apipe-opt %t.mlir --pass-pipeline='builtin.module(func.func(apipe-software-pipeline,apipe-counting-to-tokens))' 2>&1 | FileCheck %s --check-prefix=CONVERSION
// At module level they see the callees, which commit: refused too.
// RUN: not apipe-opt %t.mlir --pass-pipeline='builtin.module(func.func(apipe-software-pipeline{sync=tokens}),apipe-tokens-to-mbarrier)' 2>&1 | FileCheck %s --check-prefix=MODULE
// apipe-check-hazards follows calls: it runs on a module (or gpu.module),
// and refuses a function (under func.func, or `any`, which would otherwise
// check nothing in silence), with an error at each function.
// RUN: not apipe-opt %t.mlir --pass-pipeline='builtin.module(func.func(apipe-software-pipeline,apipe-check-hazards))' 2>&1 | FileCheck %s --check-prefix=HAZARDS
// RUN: not apipe-opt %t.mlir --pass-pipeline='builtin.module(any(apipe-check-hazards))' 2>&1 | FileCheck %s --check-prefix=HAZARDS

// Each function: its kernel loop and two epilogue steps wait with
// pending = 2; a call of the next function follows (not in the last one).
// CHECK-COUNT-900: apipe.wait_group 2
// CHECK-NOT: apipe.wait_group 2
// CALLS-COUNT-299: call @f
// CALLS-NOT: call @f
// HAZARDS: nested-parallel.mlir.tmp.mlir:1:1: error: 'apipe-check-hazards' follows calls into other functions: run it on an op that holds them (builtin.module, gpu.module), not on 'func.func'
// HAZARDS-NOT: see current operation
// CONVERSION-COUNT-299: error: 'func.call' op calls @f{{[0-9]+}}, which this pass cannot see: nested under a function it runs on that function alone (MLIR may run it on the others in parallel), so it cannot tell whether @f{{[0-9]+}} commits or waits; run the pass on the module
// CONVERSION-NOT: error
// MODULE: error: 'func.call' op calls @f1, which commits or waits (itself or through the functions it calls): apipe counts groups only within a function
