// apipe-software-pipeline on a loop whose bound is computed from constants
// (`arith.muli %c4, %c4`, as written before `--canonicalize`): MLIR's folder
// gives 16, so the loop has a static trip count, and the pipeliner emits
// the static form (a prologue of 2 groups, a kernel of 14 iterations, an
// epilogue of 2) as for `arith.constant 16`, without the trip-count switch
// of a dynamic loop. The result runs as make-sync does in every mode.
// RUN: apipe-opt %s --apipe-software-pipeline | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=lazy,eager,random:1,random:2,random:3 | grep -v -e Unranked -e "apipe-run: completion=" > %t.values
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync5
// RUN: diff %t.sync5 %t.values
// VALUES: {{^}}[1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// VALUES-NOT: [

func.func private @printMemrefF32(memref<*xf32>)

// CHECK-LABEL: func.func @stream
// CHECK-DAG:     %[[C14:.*]] = arith.constant 14 : index
// CHECK-NOT:     scf.index_switch
// CHECK-COUNT-2: apipe.commit_group
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C14]] step
// CHECK:           apipe.copy
// CHECK-NEXT:      apipe.commit_group
// CHECK-NEXT:      apipe.wait_group 2
// CHECK:         }
// CHECK-COUNT-2: apipe.wait_group 2
// CHECK-NOT:     apipe.wait_group
// CHECK:         return
func.func @stream(%A: memref<64xf32>, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.muli %c4, %c4 : index
  %tile = memref.alloc() : memref<4xf32>
  scf.for %j = %c0 to %c16 step %c1 {
    %off = arith.muli %j, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %tile[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %tile[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%j] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %none = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %j = arith.index_cast %i : index to i32
    %f = arith.sitofp %j : i32 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %out = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %none, %out[%i] : memref<16xf32>
  }
  func.call @stream(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
