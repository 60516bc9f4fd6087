// `--split-input-file` processes each `// -----` chunk on its own: valid
// chunks are printed, separated by `// -----`; a failing chunk prints nothing
// but does not stop the others; the exit code is 1 if any chunk failed.
// Diagnostics carry the line numbers of the whole file.
//
// Like mlir-opt, `-o` is written only when every chunk succeeds (see
// opt-output-on-failure.mlir), so the output is read from stdout here.
// RUN: not apipe-opt --split-input-file %s > %t.out 2> %t.err
// RUN: not apipe-opt --split-input-file %s -o %t.never 2> /dev/null
// RUN: not test -e %t.never
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.out
// RUN: FileCheck %s --check-prefix=ERR --input-file=%t.err
// RUN: not apipe-opt -split-input-file -apipe-make-sync %s 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: not apipe-opt -split-input-file -apipe-make-sync %s 2>&1 | FileCheck %s --check-prefix=ERR
//
// Without the flag the file is one module: the parse error of the third chunk
// is reported at the same line, and nothing is printed.
// RUN: not apipe-opt %s -o %t.whole 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: not FileCheck %s --check-prefix=OUT --input-file=%t.whole

// OUT:      module {
// OUT-NEXT:   func.func @f(%arg0: memref<64xf32>, %arg1: memref<4xf32, 3>) {
// OUT-NEXT:     %c0 = arith.constant 0 : index
// OUT-NEXT:     apipe.copy %arg0[%c0], %arg1[%c0], 4 : memref<64xf32> to memref<4xf32, 3>{{$}}
// OUT-NEXT:     {{^ *}}apipe.commit_group{{$}}
// OUT-NEXT:     apipe.wait_group 0{{$}}
// OUT-NEXT:     return
// OUT-NEXT:   }
// OUT-NEXT: }
// OUT-NOT:  module
// OUT:      // -----
// OUT-NOT:  module
// OUT:      // -----
// OUT-NOT:  module
// OUT:      // -----
// OUT-NOT:  module
// OUT:      // -----
// OUT-NOT:  {{^}}// -----
// OUT:      module {
// OUT-NEXT:   func.func @f() {
// OUT-NEXT:     return
// OUT-NEXT:   }
// OUT-NEXT: }
// OUT-NOT:  {{.}}

// SYNC-LABEL: func.func @f(%arg0: memref<64xf32>, %arg1: memref<4xf32, 3>)
// SYNC-NOT:   apipe.
// SYNC:       memref.store
// SYNC:       // -----
// SYNC:       // -----
// SYNC:       // -----
// SYNC:       // -----
// SYNC:       func.func @f() {

func.func @f(%A: memref<64xf32>, %buf: memref<4xf32, 3>) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.wait_group 0
  return
}

// -----

// A verifier error in the second chunk.
func.func @g(%A: memref<64xf32>, %buf: memref<4xf32, 3>) {
  %c0 = arith.constant 0 : index
  // ERR: {{.*}}opt-split-input-file.mlir:[[@LINE+1]]:3: error: 'apipe.copy' op attribute 'elements' must be positive, got 0
  apipe.copy %A[%c0], %buf[%c0], 0 : memref<64xf32> to memref<4xf32, 3>
  return
}

// -----

// A parse error in the third chunk.
func.func @h() {
  // ERR: {{.*}}opt-split-input-file.mlir:[[@LINE+2]]:3: error: unregistered operation 'apipe.nope' found in dialect ('apipe') that does not allow unknown operations
  // WHOLE: {{.*}}opt-split-input-file.mlir:[[@LINE+1]]:3: error: unregistered operation 'apipe.nope' found in dialect ('apipe') that does not allow unknown operations
  "apipe.nope"() : () -> ()
  return
}

// -----

// Another verifier error, on a line far from the chunk start.
func.func @k() {
  apipe.commit_group
  apipe.commit_group
  apipe.commit_group
  // ERR: {{.*}}opt-split-input-file.mlir:[[@LINE+1]]:3: error: 'apipe.wait_group' op attribute 'pending' must be non-negative, got -1
  apipe.wait_group -1
  return
}

// -----

// The same symbol as the first chunk: fine, chunks are separate modules.
func.func @f() {
  return
}
