// `--mlir-print-debuginfo` prints locations; they name the real input file
// (as given on the command line) and its real line numbers, also for later
// chunks with `--split-input-file`. Explicit locations in the input are kept,
// and ops made by apipe-make-sync take the location of the copy they replace.
// RUN: apipe-opt --mlir-print-debuginfo %s | FileCheck %s
// RUN: apipe-opt -mlir-print-debuginfo -split-input-file %s | FileCheck %s --check-prefixes=CHECK,SPLIT
// RUN: apipe-opt --mlir-print-debuginfo --apipe-make-sync %s | FileCheck %s --check-prefix=SYNC
// RUN: apipe-opt %s | FileCheck %s --check-prefix=NOLOC
// An input read back with its locations keeps them.
// RUN: apipe-opt --mlir-print-debuginfo %s | apipe-opt --mlir-print-debuginfo | FileCheck %s

// CHECK-DAG: #loc = loc("{{.*}}opt-debuginfo.mlir":0:0)
// CHECK-DAG: #[[FUNC:loc[0-9]+]] = loc("{{.*}}opt-debuginfo.mlir":[[@LINE+8]]:1)
// CHECK-DAG: #[[C0:loc[0-9]+]] = loc("{{.*}}opt-debuginfo.mlir":[[@LINE+8]]:9)
// CHECK-DAG: #[[COPY:loc[0-9]+]] = loc("{{.*}}opt-debuginfo.mlir":[[@LINE+8]]:3)
// CHECK-DAG: #[[OTHER:loc[0-9]+]] = loc("other.mlir":7:9)
// CHECK-DAG: #[[KERNEL:loc[0-9]+]] = loc("kernel.cu":12:5)
// CHECK-DAG: #[[NAMED:loc[0-9]+]] = loc("wait"(#[[KERNEL]]))
// CHECK-DAG: #{{loc[0-9]+}} = loc(unknown)
// CHECK-DAG: loc("{{.*}}opt-debuginfo.mlir":[[@LINE+1]]:14)
func.func @f(%A: memref<64xf32>, %buf: memref<4xf32, 3>) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  %c1 = arith.constant 1 : index loc("other.mlir":7:9)
  apipe.commit_group loc(unknown)
  apipe.wait_group 0 loc("wait"("kernel.cu":12:5))
  return
}

// SPLIT-DAG: #{{loc[0-9]+}} = loc("{{.*}}opt-debuginfo.mlir":[[@LINE+6]]:1)
// SPLIT-DAG: #{{loc[0-9]+}} = loc("{{.*}}opt-debuginfo.mlir":[[@LINE+6]]:3)
// SPLIT-DAG: #{{loc[0-9]+}} = loc("{{.*}}opt-debuginfo.mlir":[[@LINE+6]]:3)

// -----

func.func @second() {
  apipe.commit_group
  return
}

// SYNC:     scf.for {{.*}} {
// SYNC:       memref.load {{.*}} loc(#[[COPY:loc[0-9]+]])
// SYNC:       memref.store {{.*}} loc(#[[COPY]])
// SYNC:     } loc(#[[COPY]])
// SYNC:     #[[COPY]] = loc("{{.*}}opt-debuginfo.mlir":[[@LINE-22]]:3)

// NOLOC-NOT: loc(
