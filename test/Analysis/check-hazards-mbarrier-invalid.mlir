// apipe-check-hazards refuses the mbarrier form (docs/mbarrier.md) with a
// located error at its first mbarrier op, rather than report hazards that
// its waits rule out: it checks counting and token form.
// RUN: not apipe-opt %s --apipe-check-hazards 2>&1 | FileCheck %s
// The token form of the same program checks clean.
// RUN: apipe-opt %S/../Transforms/software-pipeline-run.mlir --apipe-software-pipeline="sync=tokens" | apipe-opt --apipe-check-hazards | FileCheck %s --check-prefix=TOKENS
// TOKENS: func.func
// The mbarrier form of it is refused.
// RUN: apipe-opt %S/../Transforms/software-pipeline-run.mlir --apipe-software-pipeline="sync=tokens" | apipe-opt --apipe-tokens-to-mbarrier | not apipe-opt --apipe-check-hazards 2>&1 | FileCheck %s --check-prefix=CONVERTED
// CONVERTED: error: 'apipe.mbarrier_init' op is in the mbarrier form, which apipe-check-hazards does not check yet; check the token form before apipe-tokens-to-mbarrier

func.func @one_group(%A: memref<8xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %buf = memref.alloc() : memref<4xi32, 3>
  %ring = memref.alloca() : memref<1xi64, 3>
  // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:3: error: 'apipe.mbarrier_init' op is in the mbarrier form, which apipe-check-hazards does not check yet; check the token form before apipe-tokens-to-mbarrier
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<8xi32> to memref<4xi32, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
  %x = memref.load %buf[%c0] : memref<4xi32, 3>
  return %x : i32
}
