// End to end, loop-carried values: running sums of tiles streamed through
// 2- and 3-stage pipelines, with the accumulator in scf.for iter_args, for
// dynamic trip counts 0, 1, 2, 3, 16 and static ones. The pipelined program
// under apipe-run in lazy, eager and random completion prints what
// apipe-make-sync of the input prints.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=random:1 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=random:2 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-run - --completion=random:3 | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

// init + sum over i < n of A[4i + 1], stages [0, 1]; the accumulator is
// read and yielded in stage 1.
func.func @sum_two_stages(%A: memref<64xf32>, %n: index, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    %s = arith.addf %acc, %x {apipe.stage = 1 : i64} : f32
    scf.yield %s : f32
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return %r : f32
}

// Stages [0, 1, 2] (copy, load, add) with two accumulators: the sum (f32,
// stage 2) and the count of iterations (i32, stage 0). Returns sum + count.
func.func @sum_three_stages(%A: memref<64xf32>, %n: index, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %buf = memref.alloc() : memref<4xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init, %count = %zero) -> (f32, i32) {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    %next = arith.addi %count, %one {apipe.stage = 0 : i64} : i32
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    %s = arith.addf %acc, %x {apipe.stage = 2 : i64} : f32
    scf.yield %s, %next : f32, i32
  } {apipe.async_stages = array<i64: 0>}
  %f = arith.sitofp %r#1 : i32 to f32
  %t = arith.addf %r#0, %f : f32
  return %t : f32
}

// The accumulator is read in stage 1 and yielded by stage 2, ordered first:
// iteration i's stage 1 and iteration i-1's stage 2 share a time step.
func.func @sum_yield_one_stage_later(%A: memref<64xf32>, %n: index, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64, apipe.order = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64, apipe.order = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64, apipe.order = 2 : i64} : memref<4xf32>
    %a = arith.addf %acc, %x {apipe.stage = 1 : i64, apipe.order = 2 : i64} : f32
    %s = arith.mulf %a, %a {apipe.stage = 2 : i64, apipe.order = 1 : i64} : f32
    %t = math.sqrt %s {apipe.stage = 2 : i64, apipe.order = 1 : i64} : f32
    scf.yield %t : f32
  } {apipe.async_stages = array<i64: 0>}
  return %r : f32
}

// Static trip counts 0, 1, 2, 3 (up to the stage count) and 16 through 3 stages.
func.func @sum_static_zero(%A: memref<64xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    %s = arith.addf %acc, %x {apipe.stage = 2 : i64} : f32
    scf.yield %s : f32
  } {apipe.async_stages = array<i64: 0>}
  return %r : f32
}
func.func @sum_static_one(%A: memref<64xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 1 : index
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    %s = arith.addf %acc, %x {apipe.stage = 2 : i64} : f32
    scf.yield %s : f32
  } {apipe.async_stages = array<i64: 0>}
  return %r : f32
}
func.func @sum_static_two(%A: memref<64xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 2 : index
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    %s = arith.addf %acc, %x {apipe.stage = 2 : i64} : f32
    scf.yield %s : f32
  } {apipe.async_stages = array<i64: 0>}
  return %r : f32
}
func.func @sum_static_three(%A: memref<64xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 3 : index
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    %s = arith.addf %acc, %x {apipe.stage = 2 : i64} : f32
    scf.yield %s : f32
  } {apipe.async_stages = array<i64: 0>}
  return %r : f32
}
func.func @sum_static_sixteen(%A: memref<64xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    %s = arith.addf %acc, %x {apipe.stage = 2 : i64} : f32
    scf.yield %s : f32
  } {apipe.async_stages = array<i64: 0>}
  return %r : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %init = arith.constant 100.0 : f32
  %A = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %out = memref.alloc() : memref<5xf32>
  %u = memref.cast %out : memref<5xf32> to memref<*xf32>
  %counts = arith.constant dense<[0, 1, 2, 3, 16]> : vector<5xindex>

  // 100 + sum over i < n of (4i + 1), n = 0, 1, 2, 3, 16.
  // CHECK: [100,  101,  106,  115,  596]
  scf.for %j = %c0 to %c5 step %c1 {
    %n = vector.extract %counts[%j] : index from vector<5xindex>
    %r = func.call @sum_two_stages(%A, %n, %init) : (memref<64xf32>, index, f32) -> f32
    memref.store %r, %out[%j] : memref<5xf32>
  }
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // The same sums plus the iteration count.
  // CHECK: [100,  102,  108,  118,  612]
  scf.for %j = %c0 to %c5 step %c1 {
    %n = vector.extract %counts[%j] : index from vector<5xindex>
    %r = func.call @sum_three_stages(%A, %n, %init) : (memref<64xf32>, index, f32) -> f32
    memref.store %r, %out[%j] : memref<5xf32>
  }
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // sqrt((a + x)^2) = a + x: the same sums as the first line.
  // CHECK: [100,  101,  106,  115,  596]
  scf.for %j = %c0 to %c5 step %c1 {
    %n = vector.extract %counts[%j] : index from vector<5xindex>
    %r = func.call @sum_yield_one_stage_later(%A, %n, %init) : (memref<64xf32>, index, f32) -> f32
    memref.store %r, %out[%j] : memref<5xf32>
  }
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // Static: the same sums through 3 stages.
  // CHECK: [100,  101,  106,  115,  596]
  %s0 = func.call @sum_static_zero(%A, %init) : (memref<64xf32>, f32) -> f32
  memref.store %s0, %out[%c0] : memref<5xf32>
  %s1 = func.call @sum_static_one(%A, %init) : (memref<64xf32>, f32) -> f32
  memref.store %s1, %out[%c1] : memref<5xf32>
  %s2 = func.call @sum_static_two(%A, %init) : (memref<64xf32>, f32) -> f32
  memref.store %s2, %out[%c2] : memref<5xf32>
  %s3 = func.call @sum_static_three(%A, %init) : (memref<64xf32>, f32) -> f32
  memref.store %s3, %out[%c3] : memref<5xf32>
  %s4 = func.call @sum_static_sixteen(%A, %init) : (memref<64xf32>, f32) -> f32
  memref.store %s4, %out[%c4] : memref<5xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
