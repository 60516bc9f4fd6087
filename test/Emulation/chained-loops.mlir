// Three pipelined loops in sequence, each taking the previous one's results
// as its bound or its iter_arg init (trial 43: the pass planned every loop
// first and kept the erased results of the loops it transformed first: a
// segfault with a dynamic trip count, a loop fed by its own result with a
// constant one). Each plan now reads its bounds and inits again from its
// loop when its turn comes. Every completion mode prints what make-sync
// prints, dynamic and constant trip counts, 2 and 3 stages, and the checker
// is silent on each output.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=2 -o %t.2.mlir
// RUN: apipe-opt %t.2.mlir --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-run %t.2.mlir --completion=lazy,eager,random:1,random:2,random:3 | FileCheck %s --check-prefix=MODES
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 -o %t.3.mlir
// RUN: apipe-opt %t.3.mlir --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-run %t.3.mlir --completion=lazy,eager,random:1,random:2,random:3 | FileCheck %s --check-prefix=MODES
// RUN: sed -e 's/to %%n step/to %%c5 step/' %s | apipe-opt --apipe-software-pipeline=num-stages=2 -o %t.c.mlir
// RUN: apipe-opt %t.c.mlir --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-run %t.c.mlir --completion=lazy,eager,random:1,random:2,random:3 | FileCheck %s --check-prefix=MODES
// The three loops were pipelined: one kernel loop each.
// RUN: FileCheck %s --check-prefix=PIPELINED < %t.2.mlir
// CHECK: [10,  55,  65,  0]
// MODES-COUNT-5: [10,  55,  65,  0]
// PIPELINED-LABEL: func.func @k(
// PIPELINED-COUNT-3: scf.for
// PIPELINED-NOT: scf.for
// PIPELINED: func.func @main
func.func private @printMemrefF32(memref<*xf32>)
func.func @k(%A: memref<64xf32>, %n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<1xf32>
  %b = memref.alloc() : memref<1xf32>
  %t = memref.alloc() : memref<2xf32>
  %s1:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %k = %c0) -> (f32, index) {
    apipe.copy %A[%i], %a[%c0], 1 : memref<64xf32> to memref<1xf32>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %a[%c0] : memref<1xf32>
    %y = arith.addf %acc, %x : f32
    %k1 = arith.addi %k, %c2 : index
    scf.yield %y, %k1 : f32, index
  }
  %s2 = scf.for %i = %c0 to %s1#1 step %c1 iter_args(%acc = %s1#0) -> (f32) {
    apipe.copy %A[%i], %t[%c1], 1 : memref<64xf32> to memref<2xf32>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %t[%c1] : memref<2xf32>
    %y = arith.addf %acc, %x : f32
    scf.yield %y : f32
  }
  %s3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %s2) -> (f32) {
    apipe.copy %A[%i], %b[%c0], 1 : memref<64xf32> to memref<1xf32>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %b[%c0] : memref<1xf32>
    %y = arith.addf %acc, %x : f32
    scf.yield %y : f32
  }
  memref.store %s1#0, %out[%c0] : memref<4xf32>
  memref.store %s2, %out[%c1] : memref<4xf32>
  memref.store %s3, %out[%c2] : memref<4xf32>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %out = memref.alloc() : memref<4xf32>
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%out : memref<4xf32>)
  %n = arith.constant 5 : index
  %nn = arith.addi %n, %c0 : index
  func.call @k(%A, %nn, %out) : (memref<64xf32>, index, memref<4xf32>) -> ()
  %u = memref.cast %out : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
