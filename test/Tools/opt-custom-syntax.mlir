// apipe ops have no custom assembly (DESIGN section 4: generic syntax only).
// Writing one in custom form is a located error, not a silent exit 1.
// RUN: not apipe-opt %S/Inputs/broken/bad-custom-syntax-wait-group.mlir 2>&1 | FileCheck %s --check-prefix=WAIT-GROUP
// WAIT-GROUP: {{^}}{{.*}}bad-custom-syntax-wait-group.mlir:3:3: error: custom assembly of 'apipe.wait_group' is not supported
// RUN: not apipe-opt %S/Inputs/broken/bad-custom-syntax-commit-group.mlir 2>&1 | FileCheck %s --check-prefix=COMMIT-GROUP
// COMMIT-GROUP: {{^}}{{.*}}bad-custom-syntax-commit-group.mlir:3:8: error: custom assembly of 'apipe.commit_group' is not supported
// RUN: not apipe-opt --split-input-file %S/Inputs/broken/bad-custom-syntax-copy.mlir 2>&1 | FileCheck %s --check-prefix=COPY
// COPY: {{^}}{{.*}}bad-custom-syntax-copy.mlir:3:3: error: custom assembly of 'apipe.copy' is not supported
