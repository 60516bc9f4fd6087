// A function pipelined from num-stages, called after a function that
// returned with a copy in flight (trial 56 C2, trial 57 item 2): the
// pipeliner starts the function with `commit_group; wait_group 0`
// (docs/pipelining.md, rule 12), which completes the caller's copy, and
// apipe-tokens-to-mbarrier makes of it an arrive and a wait on a fresh
// slot, which does too. The checker took the caller's copy as still in
// flight at the call in both forms: a false read-after-write on the
// pipeliner's own output. Silent now, and the same output as make-sync.
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 2>/dev/null | apipe-opt - --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-software-pipeline{num-stages=3 sync=tokens},apipe-tokens-to-mbarrier)' 2>/dev/null | apipe-opt - --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-software-pipeline{num-stages=3 sync=tokens},apipe-tokens-to-mbarrier)' 2>/dev/null | FileCheck %s --check-prefix=MBARRIER
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 2>/dev/null | apipe-run - --completion=lazy,eager,random:4 | FileCheck %s --check-prefixes=CHECK,CHECK2,CHECK3
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-software-pipeline{num-stages=3 sync=tokens},apipe-tokens-to-mbarrier)' 2>/dev/null | apipe-run - --completion=lazy,random:5 | FileCheck %s --check-prefixes=CHECK,CHECK2
// CHECK: [15.5,  16.5,  17.5,  18.5,  19.5]
// CHECK2: [15.5,  16.5,  17.5,  18.5,  19.5]
// CHECK3: [15.5,  16.5,  17.5,  18.5,  19.5]
// MBARRIER-LABEL: func.func @rows
// MBARRIER: apipe.mbarrier_init
// MBARRIER: apipe.mbarrier_arrive_copies
// MBARRIER: apipe.mbarrier_wait

func.func private @printMemrefF32(memref<*xf32>)
func.func @prefetch(%A: memref<32xf32>, %bias: memref<2xf32>) {
  %c30 = arith.constant 30 : index
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c30], %bias[%c0], 2 : memref<32xf32> to memref<2xf32>
  apipe.commit_group
  return
}
func.func @rows(%A: memref<32xf32> {llvm.noalias}, %bias: memref<2xf32> {llvm.noalias}, %out: memref<5xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %row = memref.alloc() : memref<2xf32>
  scf.for %i = %c0 to %c5 step %c1 {
    %at = arith.muli %i, %c2 : index
    apipe.copy %A[%at], %row[%c0], 2 : memref<32xf32> to memref<2xf32>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %row[%c0] : memref<2xf32>
    %b = memref.load %bias[%c1] : memref<2xf32>
    %s = arith.addf %x, %b : f32
    %h = arith.constant 0.5 : f32
    %t = arith.mulf %s, %h : f32
    memref.store %t, %out[%i] : memref<5xf32>
  }
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %A = memref.alloc() : memref<32xf32>
  %bias = memref.alloc() : memref<2xf32>
  %out = memref.alloc() : memref<5xf32>
  scf.for %i = %c0 to %c32 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %A[%i] : memref<32xf32>
  }
  func.call @prefetch(%A, %bias) : (memref<32xf32>, memref<2xf32>) -> ()
  func.call @rows(%A, %bias, %out) : (memref<32xf32>, memref<2xf32>, memref<5xf32>) -> ()
  %u = memref.cast %out : memref<5xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
