// `--verify-diagnostics` checks the diagnostics against the `expected-*`
// comments (mlir-opt's syntax: same line, `@+N`, `@-N`, `@above`, `@below`),
// per chunk with `--split-input-file`; it exits 0 when they all match.
// RUN: apipe-opt --split-input-file --verify-diagnostics %s
// RUN: apipe-opt -split-input-file -verify-diagnostics %s
// RUN: apipe-opt -split-input-file -verify-diagnostics -apipe-make-sync %s
// RUN: apipe-opt --verify-diagnostics --split-input-file %s -o %t
// RUN: FileCheck %s --input-file=%t
// Without the flag the same diagnostics are plain errors.
// RUN: not apipe-opt --split-input-file %s 2>&1 | FileCheck %s --check-prefix=PLAIN

// Chunks with no diagnostics are still printed; chunks with (expected)
// errors are not.
// CHECK:      // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @clean() {
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// PLAIN: opt-verify-diagnostics.mlir:[[@LINE+5]]:3: error: 'apipe.copy' op attribute 'elements' must be positive, got 0

func.func @next_line(%A: memref<64xf32>, %buf: memref<4xf32, 3>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'apipe.copy' op attribute 'elements' must be positive, got 0}}
  apipe.copy %A[%c0], %buf[%c0], 0 : memref<64xf32> to memref<4xf32, 3>
  return
}

// -----

func.func @same_line() {
  apipe.wait_group -1 // expected-error {{must be non-negative}}
  return
}

// -----

func.func @above_and_offsets() {
  apipe.commit_group queue -2
  // expected-error @above {{attribute 'queue' must be non-negative, got -2}}
  return
}

// -----

func.func @below() {
  // expected-error @below {{'apipe.wait' op}}
  "apipe.wait"() : () -> ()
  return
}

// -----

// A parse error (without the "see current operation" note: as in mlir-opt,
// ops are not printed on diagnostics under --verify-diagnostics).
func.func @parse_error() {
  "apipe.nope"() : () -> ()
  // expected-error @-1 {{unregistered operation 'apipe.nope' found in dialect ('apipe')}}
  return
}

// -----

// A diagnostic with a note.
func.func @with_note(%A: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%c0' expects different type than prior uses: 'memref<64xf32>' vs 'index'}}
  "apipe.copy"(%c0, %c0) {elements = 4 : i64} : (memref<64xf32>, index) -> ()
  return
}

// -----

func.func @clean() {
  return
}
