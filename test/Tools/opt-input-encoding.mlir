// Input bytes are read as mlir-opt reads them: bytes that are not UTF-8 are
// a located parse error where they are not allowed, and fine inside comments;
// NUL bytes outside tokens are whitespace.
// RUN: not apipe-opt %S/Inputs/broken/bad-garbage-invalid-utf8.mlir 2>&1 | FileCheck %s --check-prefix=START
// START: {{^}}{{.*}}bad-garbage-invalid-utf8.mlir:1:1: error:
// RUN: not apipe-opt %S/Inputs/broken/bad-garbage-random-bytes.mlir 2>&1 | FileCheck %s --check-prefix=RANDOM
// RANDOM: {{^}}{{.*}}bad-garbage-random-bytes.mlir:1:1: error:
// RUN: not apipe-opt %S/Inputs/broken/bad-garbage-utf16-bom.mlir 2>&1 | FileCheck %s --check-prefix=UTF16
// UTF16: {{^}}{{.*}}bad-garbage-utf16-bom.mlir:1:1: error:
// RUN: not apipe-opt %S/Inputs/broken/bad-garbage-invalid-utf8-in-op-name.mlir 2>&1 | FileCheck %s --check-prefix=OPNAME
// OPNAME: {{^}}{{.*}}bad-garbage-invalid-utf8-in-op-name.mlir:3:3: error:
// RUN: apipe-opt %S/Inputs/broken/ok-invalid-utf8-in-comment.mlir | FileCheck %s --check-prefix=COMMENT
// RUN: apipe-opt --split-input-file --apipe-make-sync %S/Inputs/broken/ok-invalid-utf8-in-comment.mlir | FileCheck %s --check-prefix=COMMENT
// COMMENT: func.func @f(
// RUN: apipe-opt %S/Inputs/broken/ok-nul-bytes-between-ops.mlir | FileCheck %s --check-prefix=NUL
// NUL:      {{^ *}}apipe.commit_group{{$}}
// NUL-NEXT: return
// RUN: apipe-opt %S/Inputs/broken/ok-nul-bytes-only.mlir | FileCheck %s --check-prefix=EMPTY
// EMPTY:      module {
// EMPTY-NEXT: }
// RUN: not apipe-opt %S/Inputs/broken/bad-garbage-nul-in-op.mlir 2>&1 | FileCheck %s --check-prefix=NUL-IN-NAME
// NUL-IN-NAME: {{^}}{{.*}}bad-garbage-nul-in-op.mlir:3:3: error: null character not allowed in operation name
