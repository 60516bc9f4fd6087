// End to end: the pipelined program (counting and token form) under
// apipe-run in lazy, eager and random completion prints what apipe-make-sync
// of the input prints, for each schedule shape and trip count. Lazy lands
// each copy at its wait (a missing or too weak wait shows as stale data),
// eager at issue (a version overwritten too early shows).
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=random:1 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=random:2 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=random:3 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-run - --completion=random:4 | FileCheck %s
// The token form through apipe-tokens-to-mbarrier (docs/mbarrier.md) prints the same:
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-opt --apipe-tokens-to-mbarrier | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-opt --apipe-tokens-to-mbarrier | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-opt --apipe-tokens-to-mbarrier | apipe-run - --completion=random:4 | FileCheck %s
// With barriers (one emulated thread: they only must not break anything).
// RUN: apipe-opt %s --apipe-software-pipeline="barriers=true" | apipe-run - --completion=lazy | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

// out[i] = A[4i + 1], stages [0, 1].
func.func @two_stages(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

// RFC example b: out[i] = A[4i + 2] through shared and local buffers.
func.func @rfc_example_b(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %shared = memref.alloc() : memref<4xf32>
  %local = memref.alloca() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %shared[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    apipe.copy %shared[%c0], %local[%c0], 4 {apipe.stage = 1 : i64} : memref<4xf32> to memref<4xf32>
    %x = memref.load %local[%c2] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0, 1>}
  return
}

// Interleaved producers and two buffers read at different stages:
// out[i] = A[4i] + A[4i + 3], stages [0, 0, 1, 3], order [0, 2, 1, 1].
func.func @interleaved_two_buffers(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64, apipe.order = 0 : i64} : index
    apipe.copy %A[%off], %a[%c0], 4 {apipe.stage = 0 : i64, apipe.order = 0 : i64} : memref<64xf32> to memref<4xf32>
    apipe.copy %A[%off], %b[%c0], 4 {apipe.stage = 0 : i64, apipe.order = 2 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %a[%c0] {apipe.stage = 1 : i64, apipe.order = 1 : i64} : memref<4xf32>
    %y = memref.load %b[%c3] {apipe.stage = 3 : i64, apipe.order = 1 : i64} : memref<4xf32>
    %s = arith.addf %x, %y {apipe.stage = 3 : i64, apipe.order = 1 : i64} : f32
    memref.store %s, %out[%i] {apipe.stage = 3 : i64, apipe.order = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// Stages [0, 3] over iterations [lb, ub) with step: out[i] = A[4i + 1].
func.func @dynamic(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %lb: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %lb to %ub step %step {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 3 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 3 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// Static trip count 2 with stages [0, 3]: out[0..2) = A[1], A[5].
func.func @trip_count_two(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 3 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 3 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// GEMM-like nest: acc[m] += sum over k of A[4k + m], the inner loop consumes.
func.func @gemm_like_nest(%A: memref<64xf32> {llvm.noalias}, %acc: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %tile = memref.alloc() : memref<4xf32>
  scf.for %k = %c0 to %c16 step %c1 {
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %tile[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    scf.for %m = %c0 to %c4 step %c1 {
      %x = memref.load %tile[%m] : memref<4xf32>
      %y = memref.load %acc[%m] : memref<16xf32>
      %z = arith.addf %x, %y : f32
      memref.store %z, %acc[%m] : memref<16xf32>
    } {apipe.stage = 2 : i64}
  } {apipe.async_stages = array<i64: 0>}
  return
}

// A conditional copy: only even iterations copy, and only they consume (the
// predicate, an i1 made in stage 0, rotates to stage 2): out[i] = A[4i + 1]
// for even i.
func.func @conditional_copy(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    %r = arith.remui %i, %c2 {apipe.stage = 0 : i64} : index
    %even = arith.cmpi eq, %r, %c0 {apipe.stage = 0 : i64} : index
    scf.if %even {
      apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    } {apipe.stage = 0 : i64}
    scf.if %even {
      %x = memref.load %buf[%c1] : memref<4xf32>
      memref.store %x, %out[%i] : memref<16xf32>
    } {apipe.stage = 2 : i64}
  } {apipe.async_stages = array<i64: 0>}
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
  %out = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>

  // CHECK: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @two_stages(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [2,  6,  10,  14,  18,  22,  26,  30,  34,  38,  42,  46,  50,  54,  58,  62]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @rfc_example_b(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [3,  11,  19,  27,  35,  43,  51,  59,  67,  75,  83,  91,  99,  107,  115,  123]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @interleaved_two_buffers(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // Trip counts 0, 1, 2, 3 and 5 (dynamic, 4 stages), and 5 with step 3.
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
  // CHECK: [1,  5,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @dynamic(%A, %out, %c0, %c3, %c1) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // CHECK: [-1,  5,  9,  13,  17,  21,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @dynamic(%A, %out, %c1, %c6, %c1) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // CHECK: [1,  -1,  -1,  13,  -1,  -1,  25,  -1,  -1,  37,  -1,  -1,  49,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @dynamic(%A, %out, %c0, %c15, %c3) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  5,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @trip_count_two(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  -1,  9,  -1,  17,  -1,  25,  -1,  33,  -1,  41,  -1,  49,  -1,  57,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @conditional_copy(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // acc[m] = -1 + sum_k (4k + m) = -1 + 480 + 16m for m < 4.
  // CHECK: [479,  495,  511,  527,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @gemm_like_nest(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
