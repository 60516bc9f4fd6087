// Deeply nested input (regions, attributes, affine expressions) is parsed or
// rejected with a located error, never a stack overflow (which aborts the
// process, and `not` fails on that). Moderate depth works end to end.
// RUN: not apipe-opt %S/Inputs/broken/bad-deep-nesting-array-attr.mlir 2>&1 | FileCheck %s --check-prefix=ARRAY
// ARRAY: {{^}}{{.*}}bad-deep-nesting-array-attr.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// RUN: not apipe-opt %S/Inputs/broken/bad-deep-nesting-regions.mlir 2>&1 | FileCheck %s --check-prefix=REGIONS
// REGIONS: {{^}}{{.*}}bad-deep-nesting-regions.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// RUN: not apipe-opt %S/Inputs/broken/bad-deep-nesting-affine-parens.mlir 2>&1 | FileCheck %s --check-prefix=AFFINE
// AFFINE: {{^}}{{.*}}bad-deep-nesting-affine-parens.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// RUN: not apipe-opt %S/Inputs/broken/bad-deep-nesting-tuple-type.mlir 2>&1 | FileCheck %s --check-prefix=TUPLE
// TUPLE: {{^}}{{.*}}bad-deep-nesting-tuple-type.mlir:1:{{[0-9]+}}: error:
// RUN: apipe-opt --apipe-make-sync --canonicalize %S/Inputs/broken/ok-deep-nesting-execute-region.mlir | FileCheck %s --check-prefix=MODERATE
// MODERATE-NOT: apipe.
// MODERATE:     memref.store
// MODERATE-NOT: apipe.
// RUN: not apipe-opt %S/Inputs/broken/bad-deep-nesting-error-inside.mlir 2>&1 | FileCheck %s --check-prefix=INSIDE
// INSIDE: {{^}}{{.*}}bad-deep-nesting-error-inside.mlir:203:3: error: 'apipe.wait_group' op attribute 'pending' must be non-negative, got -1
