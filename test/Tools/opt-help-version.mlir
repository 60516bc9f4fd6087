// `--help` lists the tool flags, then every registered pass (upstream and
// apipe, from MLIR's registry) with its options as mlir-opt does, and exits
// 0; `--list-passes` lists only the passes; `--version` prints the version
// and exits 0. `-h` and `-help` (mlir-opt's spelling) too.
// RUN: apipe-opt --help | FileCheck %s
// RUN: apipe-opt -help | FileCheck %s
// RUN: apipe-opt -h | FileCheck %s --check-prefix=SHORT
// RUN: apipe-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: apipe-opt -version | FileCheck %s --check-prefix=VERSION
// `--help` wins over the input: a missing file is not read.
// RUN: apipe-opt %t.does-not-exist.mlir --help | FileCheck %s
// RUN: apipe-opt --list-passes | FileCheck %s --check-prefix=PASSES

// CHECK: Usage: apipe-opt [OPTIONS] [INPUT]
// CHECK-DAG: -o <FILE>
// CHECK-DAG: --pass-pipeline <PIPELINE>
// CHECK-DAG: --split-input-file
// CHECK-DAG: --verify-diagnostics
// CHECK-DAG: --mlir-print-ir-after-all
// CHECK-DAG: --mlir-timing
// CHECK-DAG: --allow-unregistered-dialect
// CHECK-DAG: --mlir-print-debuginfo
// CHECK-DAG: --version
// CHECK:     Passes:
// CHECK: --apipe-counting-to-tokens {{ *}}- {{ *}}Replace wait_group counts by waits on the token
// CHECK: --apipe-make-sync {{ *}}- {{ *}}Replace async copies by synchronous copies and drop all synchronization
// CHECK: --apipe-software-pipeline {{ *}}- {{ *}}Software-pipeline scf.for loops with asynchronous copy stages
// CHECK-NEXT: --barriers=<value> {{ *}}- gpu.barrier placement
// CHECK-NEXT: =true
// CHECK-NEXT: =false
// CHECK-NEXT: =1
// CHECK-NEXT: =0
// CHECK-NEXT: =conservative
// CHECK-NEXT: --max-shared-bytes=<long> {{ *}}- shared memory a kernel may use
// CHECK-NEXT: --num-stages=<long> {{ *}}- schedule loops that have copies and no stage annotations
// CHECK-NEXT: --order=<value> {{ *}}- order of a scheduled loop's time step
// CHECK-NEXT: =cutlass
// CHECK-NEXT: =copies-first
// CHECK-NEXT: --sm=<value> {{ *}}- target GPU
// CHECK-NEXT: =80
// CHECK-NEXT: =86
// CHECK-NEXT: =89
// CHECK-NEXT: =90
// CHECK-NEXT: =90a
// CHECK-NEXT: --sync=<value> {{ *}}- synchronization form of the output
// CHECK-NEXT: =counting
// CHECK-NEXT: =tokens
// CHECK: --apipe-tokens-to-counting {{ *}}- {{ *}}Replace token waits by wait_group counts
// CHECK-NEXT: --strict {{ *}}- fail on a count that the paths do not agree on
// CHECK: --canonicalize {{ *}}- {{ *}}Canonicalize operations

// PASSES-NOT: Usage:
// PASSES: Passes:
// PASSES: --apipe-import-nvgpu
// PASSES: --apipe-merge-queues
// PASSES: --apipe-to-emulation
// PASSES: --apipe-to-nvgpu
// PASSES-NEXT: --sync=<value>
// PASSES-NEXT: =auto
// PASSES-NEXT: =counting
// PASSES-NEXT: =mbarrier
// PASSES-NEXT: --tokens

// SHORT: Usage: apipe-opt [OPTIONS] [INPUT]
// SHORT: apipe-make-sync

// VERSION: apipe-opt {{[0-9]+\.[0-9]+\.[0-9]+}}
