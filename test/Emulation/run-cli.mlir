// apipe-run's command line: entry, completion, shared libraries, input.
//
// RUN: apipe-run %s | FileCheck %s --check-prefix=OK
// RUN: apipe-run - < %s | FileCheck %s --check-prefix=OK
// RUN: apipe-run %s -e other --shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so | FileCheck %s --check-prefix=OTHER
// OK: 42
// OTHER: 7
//
// RUN: not apipe-run %s --entry=nope 2>&1 | FileCheck %s --check-prefix=NO-ENTRY
// The error is at the input's first op (at line 1 of an input without ops),
// or at the op the entry names.
// NO-ENTRY: run-cli.mlir:55:1: error: entry point 'nope' not found
// RUN: not apipe-run %s --entry=takes_args 2>&1 | FileCheck %s --check-prefix=ARGS
// ARGS: run-cli.mlir:78:1: error: entry point 'takes_args' must take no arguments and return nothing (it is (i64) -> ())
// RUN: not apipe-run %s --entry=printI64 2>&1 | FileCheck %s --check-prefix=DECL
// DECL: run-cli.mlir:55:1: error: entry point 'printI64' is not a func.func with a body
// RUN: echo '// nothing' > %t.empty.mlir
// RUN: not apipe-run %t.empty.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: empty.mlir:1:1: error: entry point 'main' not found: the input has no ops (if it comes from a pipe, did the command before it fail?)
// RUN: not apipe-run - < /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY-PIPE
// EMPTY-PIPE: <stdin>:1:1: error: entry point 'main' not found: the input has no ops
// RUN: not apipe-run %s --completion=late 2>&1 | FileCheck %s --check-prefix=POLICY
// POLICY: error: invalid completion 'late': expected lazy, eager, random or random:SEED
// RUN: not apipe-run %s --completion=random:x 2>&1 | FileCheck %s --check-prefix=SEED
// SEED: error: invalid seed 'x' in '--completion=random:x': expected an unsigned integer
// RUN: not apipe-run %s --schedule=sideways 2>&1 | FileCheck %s --check-prefix=SCHEDULE
// SCHEDULE: error: invalid schedule 'sideways': expected forward, reverse, random or random:SEED
// RUN: not apipe-run %s --jobs=0 2>&1 | FileCheck %s --check-prefix=JOBS
// JOBS: error: invalid --jobs=0: expected at least 1
// RUN: not apipe-run %s --racecheck=maybe 2>&1 | FileCheck %s --check-prefix=RACECHECK
// RACECHECK: invalid value 'maybe' for '--racecheck [<BOOL>]'
// Several modes in one JIT: one announced run each.
// RUN: apipe-run %s --entry=line --completion=lazy,random:2 --schedule=forward,reverse --racecheck --no-runtime-verification | FileCheck %s --check-prefix=MANY
// MANY: // apipe-run: completion=lazy schedule=forward
// MANY-NEXT: 42
// MANY-NEXT: // apipe-run: completion=lazy schedule=reverse
// MANY-NEXT: 42
// MANY-NEXT: // apipe-run: completion=random:2 schedule=forward
// MANY-NEXT: 42
// MANY-NEXT: // apipe-run: completion=random:2 schedule=reverse
// MANY-NEXT: 42
// RUN: not apipe-run %s --shared-libs=%t.missing.so 2>&1 | FileCheck %s --check-prefix=LIB
// LIB: error: could not open shared library '{{.*}}missing.so': no such file
// RUN: not apipe-run %t.nothing.mlir 2>&1 | FileCheck %s --check-prefix=INPUT
// INPUT: error: could not open input file '{{.*}}nothing.mlir'
//
// Parse and verifier errors are located in the input file.
// RUN: echo 'func.func @main() { apipe.wait_group -1 return }' > %t.bad.mlir
// RUN: not apipe-run %t.bad.mlir 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: bad.mlir:1:21: error: 'apipe.wait_group' op
// RUN: echo 'func.func @main() {' > %t.parse.mlir
// RUN: not apipe-run %t.parse.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: parse.mlir:1:20: error: expected operation name in quotes

func.func private @printI64(i64)

func.func @main() {
  %x = arith.constant 42 : i64
  func.call @printI64(%x) : (i64) -> ()
  return
}

func.func private @printNewline()

func.func @line() {
  %x = arith.constant 42 : i64
  func.call @printI64(%x) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

func.func @other() {
  %x = arith.constant 7 : i64
  func.call @printI64(%x) : (i64) -> ()
  return
}

func.func @takes_args(%x: i64) {
  return
}
