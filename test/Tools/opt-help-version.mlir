// `--help` lists the tool flags and the apipe passes and exits 0; `--version`
// prints the version and exits 0. `-h` and `-help` (mlir-opt's spelling) too.
// RUN: apipe-opt --help | FileCheck %s
// RUN: apipe-opt -help | FileCheck %s
// RUN: apipe-opt -h | FileCheck %s --check-prefix=SHORT
// RUN: apipe-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: apipe-opt -version | FileCheck %s --check-prefix=VERSION
// `--help` wins over the input: a missing file is not read.
// RUN: apipe-opt %t.does-not-exist.mlir --help | FileCheck %s

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
// CHECK:     apipe passes:
// CHECK-NEXT: --apipe-make-sync {{ *}}Replace async copies by synchronous copies and drop all synchronization

// SHORT: Usage: apipe-opt [OPTIONS] [INPUT]
// SHORT: apipe-make-sync

// VERSION: apipe-opt {{[0-9]+\.[0-9]+\.[0-9]+}}
