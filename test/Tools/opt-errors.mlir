// Bad command lines and bad inputs: each gets a clear message and exit code
// 1 (`not` also fails on a crash), and nothing on stdout. Errors in the input
// are located: `<file>:<line>:<col>: error: ...`.
//
// Unknown pass, as a flag (both spellings) and in a pipeline.
// RUN: not apipe-opt %s --no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not apipe-opt %s -no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not apipe-opt %s --apipe-make-sync --no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not apipe-opt %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not apipe-opt %s --pass-pipeline='builtin.module(func.func(apipe-make-sync,no-such-pass))' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not apipe-opt %s --no-such-pass 2>/dev/null | count 0
// UNKNOWN: error: MLIR Textual PassPipeline Parser:1:{{[0-9]+}}: error: 'no-such-pass' does not refer to a registered pass or pass pipeline
//
// MLIR parses pass options (apipe passes are registered in MLIR's registry
// with MLIR options): a bad name, in a pipeline and as a flag.
// RUN: not apipe-opt %s --pass-pipeline='builtin.module(func.func(apipe-make-sync{bogus=1}))' 2>&1 | FileCheck %s --check-prefix=APIPE-OPTION
// RUN: not apipe-opt %s --pass-pipeline='builtin.module(apipe-make-sync{bogus=1})' 2>&1 | FileCheck %s --check-prefix=APIPE-OPTION
// RUN: not apipe-opt %s '--apipe-make-sync=bogus=1' 2>&1 | FileCheck %s --check-prefix=APIPE-OPTION
// APIPE-OPTION: error: <Pass-Options-Parser>: no such option bogus
// APIPE-OPTION: failed to add `apipe-make-sync` with options `bogus=1`
//
// A bad value: LLVM's option parser names the option and the value (on
// stderr, giving MLIR's handler no message: mlir-opt prints an empty
// "error: " there; apipe-opt says what failed, trial 9 finding 8).
// RUN: not apipe-opt %s --pass-pipeline='builtin.module(apipe-software-pipeline{sync=foo})' 2>&1 | FileCheck %s --check-prefix=APIPE-CHOICE
// RUN: not apipe-opt %s '--apipe-software-pipeline=sync=foo' 2>&1 | FileCheck %s --check-prefix=APIPE-CHOICE
// RUN: not apipe-opt %s '--apipe-tokens-to-counting=strict=maybe' 2>&1 | FileCheck %s --check-prefix=APIPE-BOOL
// APIPE-CHOICE: apipe-opt: for the --sync option: Cannot find option named 'foo'!
// APIPE-CHOICE-NEXT: error: invalid pass option value (the line above names the option and the value)
// APIPE-CHOICE-NEXT: failed to add `apipe-software-pipeline` with options `sync=foo`
// APIPE-BOOL: apipe-opt: for the --strict option: 'maybe' is invalid value for boolean argument! Try 0 or 1
// APIPE-BOOL-NEXT: error: invalid pass option value (the line above names the option and the value)
// APIPE-BOOL-NEXT: failed to add `apipe-tokens-to-counting` with options `strict=maybe`
//
// A bad option name or value on an upstream pass.
// RUN: not apipe-opt %s --pass-pipeline='builtin.module(cse{bogus=1})' 2>&1 | FileCheck %s --check-prefix=UPSTREAM-OPTION
// RUN: not apipe-opt %s --cse=bogus=1 2>&1 | FileCheck %s --check-prefix=UPSTREAM-OPTION
// UPSTREAM-OPTION: error: {{.*}}no such option bogus
// UPSTREAM-OPTION: failed to add `cse` with options `bogus=1`
// RUN: not apipe-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=abc})' 2>&1 | FileCheck %s --check-prefix=UPSTREAM-VALUE
// RUN: not apipe-opt %s --canonicalize=max-iterations=abc 2>&1 | FileCheck %s --check-prefix=UPSTREAM-VALUE
// UPSTREAM-VALUE: apipe-opt: for the --max-iterations option: 'abc' value invalid for long argument!
// UPSTREAM-VALUE-NEXT: error: invalid pass option value (the line above names the option and the value)
// UPSTREAM-VALUE-NEXT: failed to add `canonicalize` with options `max-iterations=abc`
//
// Malformed pipelines: MLIR's messages.
// RUN: not apipe-opt %s --pass-pipeline='builtin.module(' 2>&1 | FileCheck %s --check-prefix=ANCHOR-FORM
// RUN: not apipe-opt %s --pass-pipeline='' 2>&1 | FileCheck %s --check-prefix=ANCHOR-FORM
// RUN: not apipe-opt %s --pass-pipeline='cse' 2>&1 | FileCheck %s --check-prefix=ANCHOR-FORM
// ANCHOR-FORM: error: expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'
// RUN: not apipe-opt %s --pass-pipeline='builtin.module(cse))' 2>&1 | FileCheck %s --check-prefix=TRAILING
// TRAILING: error: MLIR Textual PassPipeline Parser:1:4: error: encountered extra closing ')' creating unbalanced parentheses while parsing pipeline
// A pipeline anchored on another op fails when it runs, as in mlir-opt.
// RUN: not apipe-opt %s --pass-pipeline='func.func(cse)' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// ANCHOR: opt-errors.mlir:0:0: error: can't run 'func.func' pass manager on 'builtin.module' op
// RUN: not apipe-opt %s --pass-pipeline='builtin.module(cse)' --canonicalize 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: error: '--pass-pipeline' cannot be used with individual pass flags
//
// Bad tool arguments.
// RUN: not apipe-opt %s -x 2>&1 | FileCheck %s --check-prefix=ARG
// ARG: error: unexpected argument '-x' found
// RUN: not apipe-opt %s %s 2>&1 | FileCheck %s --check-prefix=TWO-INPUTS
// TWO-INPUTS: error: unexpected argument '{{.*}}opt-errors.mlir' found
//
// Missing input file; a bad pass is reported before the input is read.
// RUN: not apipe-opt %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not apipe-opt %t.does-not-exist.mlir --apipe-make-sync 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not apipe-opt %t.does-not-exist.mlir 2>/dev/null | count 0
// MISSING: error: could not open input file '{{.*}}does-not-exist.mlir'
// RUN: not apipe-opt %t.does-not-exist.mlir --no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN
//
// Malformed MLIR, an unknown apipe op, a verifier error: located errors.
// RUN: not apipe-opt %S/Inputs/broken/bad-tokens-double-equals.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not apipe-opt %S/Inputs/broken/bad-tokens-double-equals.mlir --apipe-make-sync 2>/dev/null | count 0
// PARSE:      {{^}}{{.*}}bad-tokens-double-equals.mlir:3:34: error: expected attribute value
// PARSE-NEXT: {{^}}  "apipe.wait_group"() {pending == 1 : i64} : () -> ()
// PARSE-NEXT: {{^}}                                 ^
// RUN: not apipe-opt %S/Inputs/broken/bad-unknown-apipe-op.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN-OP
// UNKNOWN-OP: {{^}}{{.*}}bad-unknown-apipe-op.mlir:3:3: error: unregistered operation 'apipe.frobnicate' found in dialect ('apipe') that does not allow unknown operations
// RUN: not apipe-opt %S/Inputs/broken/bad-copy-element-type-mismatch.mlir --apipe-make-sync 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: {{^}}{{.*}}bad-copy-element-type-mismatch.mlir:3:3: error: 'apipe.copy' op expected the same element type for src and dst, got f16 and f32
// RUN: echo '"apipe.wait"() : () -> ()' | not apipe-opt 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: {{^}}<stdin>:1:1: error: 'apipe.wait' op expected at least one !apipe.token operand
//
// A pass failure is located too: make-sync cannot drop a token that crosses
// a function boundary.
// RUN: not apipe-opt %s --apipe-make-sync 2>&1 | FileCheck %s --check-prefix=PASS-ERROR
// RUN: not apipe-opt %s --apipe-make-sync 2>/dev/null | count 0
// PASS-ERROR: {{^}}{{.*}}opt-errors.mlir:[[@LINE+4]]:3: error: 'func.return' op uses an !apipe.token value: tokens cannot cross function boundaries

func.func @returns_token() -> !apipe.token {
  %t = apipe.ready
  return %t : !apipe.token
}
