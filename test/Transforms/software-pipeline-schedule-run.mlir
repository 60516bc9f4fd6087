// End to end: loops without stage annotations, scheduled with num-stages 2,
// 3 and 5 (and the CUTLASS or copies-first order), under apipe-run in lazy,
// eager and random completion, print what apipe-make-sync of the input
// prints. Lazy lands each copy at its wait (a too weak wait shows as stale
// data), eager at issue (a version overwritten too early shows).
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2" 2>/dev/null | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=random:1 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | apipe-run - --completion=random:2 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 order=copies-first" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 order=copies-first" 2>/dev/null | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=5" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=5" 2>/dev/null | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=5" 2>/dev/null | apipe-run - --completion=random:3 | FileCheck %s
// The scheduled programs really are pipelined (so the runs above test the
// pipeliner, not the input):
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=5" 2>/dev/null | FileCheck %s --check-prefix=PIPELINED
// PIPELINED-LABEL: func.func @running_sum
// PIPELINED: apipe.wait_group 3
// PIPELINED-LABEL: func.func @carried_offset
// PIPELINED: apipe.wait_group 3
// PIPELINED-LABEL: func.func @vector_sum
// PIPELINED: apipe.wait_group 3
// PIPELINED-LABEL: func.func @sync_form
// PIPELINED: apipe.wait_group 3
// PIPELINED-LABEL: func.func @two_buffers
// PIPELINED: apipe.wait_group 3
// PIPELINED-LABEL: func.func @dynamic
// PIPELINED: apipe.wait_group 3
// PIPELINED-LABEL: func.func @hand_stage
// PIPELINED: apipe.wait_group 0

func.func private @printMemrefF32(memref<*xf32>)

// out[i] = sum over j <= i of A[4j + 1] (an f32 iter_arg).
func.func @running_sum(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> f32 {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] : memref<4xf32>
    %s = arith.addf %acc, %x : f32
    memref.store %s, %out[%i] : memref<16xf32>
    scf.yield %s : f32
  }
  memref.dealloc %buf : memref<4xf32>
  return
}

// out[i] = A[4i + 2], the offset an iter_arg bumped by 4.
func.func @carried_offset(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%off = %c0) -> index {
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %next = arith.addi %off, %c4 : index
    %x = memref.load %buf[%c2] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    scf.yield %next : index
  }
  return
}

// out[0..4) = sum over the 16 tiles of A (a vector<4xf32> iter_arg).
func.func @vector_sum(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> vector<4xf32> {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %v = vector.load %buf[%c0] : memref<4xf32>, vector<4xf32>
    %s = arith.addf %acc, %v : vector<4xf32>
    scf.yield %s : vector<4xf32>
  }
  vector.store %r, %out[%c0] : memref<16xf32>, vector<4xf32>
  return
}

// The synchronous form (commit, wait_group 0): out[i] = A[4i + 3].
func.func @sync_form(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%c3] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  }
  return
}

// Two copies into two buffers: out[i] = A[4i] * A[63 - 4i].
func.func @two_buffers(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c60 = arith.constant 60 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %a[%c0], 4 : memref<64xf32> to memref<4xf32>
    %back = arith.subi %c60, %off : index
    apipe.copy %A[%back], %b[%c0], 4 : memref<64xf32> to memref<4xf32>
    %x = memref.load %a[%c0] : memref<4xf32>
    %y = memref.load %b[%c3] : memref<4xf32>
    %p = arith.mulf %x, %y : f32
    memref.store %p, %out[%i] : memref<16xf32>
  }
  return
}

// Dynamic bounds and step: out[i] = A[4i + 1] for i in [lb, ub) by step.
func.func @dynamic(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %lb: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %lb to %ub step %step {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  }
  return
}

// apipe.num_stages = 4 on the loop and a hand stage on the load (it wins
// over the option): out[i] = A[4i + 1] + 100.
func.func @hand_stage(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %h = arith.constant 100.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    %y = arith.addf %x, %h : f32
    memref.store %y, %out[%i] : memref<16xf32>
  } {apipe.num_stages = 4 : i64}
  return
}

func.func @reset(%out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %m1 = arith.constant -1.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c15 = arith.constant 15 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %out = memref.alloc() : memref<16xf32>
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>

  // CHECK: [1,  6,  15,  28,  45,  66,  91,  120,  153,  190,  231,  276,  325,  378,  435,  496]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @running_sum(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // CHECK: [2,  6,  10,  14,  18,  22,  26,  30,  34,  38,  42,  46,  50,  54,  58,  62]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @carried_offset(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // CHECK: [480,  496,  512,  528,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @vector_sum(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // CHECK: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @sync_form(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // CHECK: [0,  236,  440,  612,  752,  860,  936,  980,  992,  972,  920,  836,  720,  572,  392,  180]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @two_buffers(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // Trip counts 0, 1, 2, 5, and 5 with step 3.
  // CHECK: [-1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @dynamic(%A, %out, %c5, %c5, %c1) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // CHECK: [-1,  -1,  -1,  -1,  -1,  21,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @dynamic(%A, %out, %c5, %c6, %c1) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // CHECK: [1,  5,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @dynamic(%A, %out, %c0, %c2, %c1) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // CHECK: [-1,  5,  9,  13,  17,  21,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @dynamic(%A, %out, %c1, %c6, %c1) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // CHECK: [1,  -1,  -1,  13,  -1,  -1,  25,  -1,  -1,  37,  -1,  -1,  49,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @dynamic(%A, %out, %c0, %c15, %c3) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // CHECK: [101,  105,  109,  113,  117,  121,  125,  129,  133,  137,  141,  145,  149,  153,  157,  161]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @hand_stage(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
