// Custom syntax that does not parse is a located parse error, for each way
// an op can be written wrongly: a type after commit_group, an attribute
// dictionary instead of wait_group's count, a missing queue value, an index
// list that does not fit the memref's rank, an unranked memref, a missing
// `to`, and two results bound to one commit.
// RUN: not apipe-opt %S/Inputs/broken/bad-custom-syntax-commit-group.mlir 2>&1 | FileCheck %s --check-prefix=COMMIT-TYPE
// COMMIT-TYPE: {{^}}{{.*}}bad-custom-syntax-commit-group.mlir:3:26: error: expected operation name in quotes
// RUN: not apipe-opt %S/Inputs/broken/bad-custom-syntax-wait-group.mlir 2>&1 | FileCheck %s --check-prefix=WAIT-GROUP
// WAIT-GROUP: {{^}}{{.*}}bad-custom-syntax-wait-group.mlir:3:20: error: custom op 'apipe.wait_group' invalid kind of attribute specified
// RUN: not apipe-opt %S/Inputs/broken/bad-custom-wait-group-queue-without-value.mlir 2>&1 | FileCheck %s --check-prefix=QUEUE
// QUEUE: {{^}}{{.*}}bad-custom-wait-group-queue-without-value.mlir:2:27: error: expected attribute value
// RUN: not apipe-opt %S/Inputs/broken/bad-custom-copy-index-split.mlir 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: {{^}}{{.*}}bad-custom-copy-index-split.mlir:3:14: error: custom op 'apipe.copy' expected 2 source indices for memref<64x64xf32>, got 1
// RUN: not apipe-opt %S/Inputs/broken/bad-custom-copy-unranked.mlir 2>&1 | FileCheck %s --check-prefix=UNRANKED
// UNRANKED: {{^}}{{.*}}bad-custom-copy-unranked.mlir:3:37: error: custom op 'apipe.copy' expected ranked memrefs for src and dst, got memref<*xf32> and memref<4xf32, 3>
// RUN: not apipe-opt %S/Inputs/broken/bad-custom-copy-missing-to.mlir 2>&1 | FileCheck %s --check-prefix=TO
// TO: {{^}}{{.*}}bad-custom-copy-missing-to.mlir:3:51: error: custom op 'apipe.copy' expected 'to'
// RUN: not apipe-opt %S/Inputs/broken/bad-custom-commit-group-two-results.mlir 2>&1 | FileCheck %s --check-prefix=RESULTS
// RESULTS: {{^}}{{.*}}bad-custom-commit-group-two-results.mlir:2:3: error: operation defines 1 results but was provided 2 to bind
//
// The destination index list is checked too, and src_elements parses.
// RUN: not apipe-opt %s --split-input-file 2>&1 | FileCheck %s --check-prefix=DST
// RUN: apipe-opt %S/Inputs/broken/ok-custom-syntax-copy.mlir | FileCheck %s --check-prefix=OK
// OK: apipe.copy %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], 4 : memref<64xf32> to memref<4xf32, 3>

// DST: opt-custom-syntax.mlir:[[@LINE+2]]:22: error: custom op 'apipe.copy' expected 3 destination indices for memref<2x4x4xf32, 3>, got 2
func.func @dst_indices(%A: memref<64xf32>, %buf: memref<2x4x4xf32, 3>, %i: index) {
  apipe.copy %A[%i], %buf[%i, %i], 4 : memref<64xf32> to memref<2x4x4xf32, 3>
  return
}
