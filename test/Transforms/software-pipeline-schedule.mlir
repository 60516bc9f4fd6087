// apipe-software-pipeline{num-stages=N} on loops without stage annotations:
// one function per scheduling rule, with the stages and versions it picks.
//  - stage 0: every apipe.copy and the ops that compute its operands (an
//    iter_arg's yielded value included);
//  - stage N-1: the ops that read a buffer the copies write, and what
//    depends on them; the other ops go there too, after the copies;
//  - CUTLASS order in a time step: the consumers of the oldest tile (wait,
//    then the compute), then the copies of the newest tile;
//  - hand annotations (apipe.stage, apipe.num_stages on the loop) win;
//  - a remark per loop gives the stages, the versions and the bytes.
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 order=copies-first" 2>/dev/null | FileCheck %s --check-prefix=FIRST
// Without the option only the loop with apipe.num_stages is scheduled.
// RUN: apipe-opt %s --apipe-software-pipeline 2>/dev/null | FileCheck %s --check-prefix=NOOPT
// The imported upstream form (nvgpu.device_async_copy, create_group, wait
// with numGroups = 0: synchronous) pipelines the same way.
// RUN: apipe-opt %s --apipe-import-nvgpu --apipe-software-pipeline="num-stages=3" 2>/dev/null | FileCheck %s --check-prefix=NVGPU

// REMARK: software-pipeline-schedule.mlir:[[#@LINE+39]]:8: remark: scheduled 3 stages (num_stages = 3): stage 0: 2 ops, stage 2: 3 ops; versions: memref<4xf32> x 3 (48 bytes); buffers: 48 bytes (not in a gpu.func or gpu.launch: no shared-memory budget)

// Stage 0: %off and the copy (2 tiles in the prologue); stage 2: the load,
// the add and the store (3 versions: the tile of iteration i is read 2
// steps after its copy). The accumulator is carried across the stages.
// CHECK-LABEL: func.func @rules
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<3x4xf32>
// CHECK-NEXT: arith.muli
// CHECK-NEXT: memref.subview %[[BUF]][%c0, 0]
// CHECK-NEXT: apipe.copy
// CHECK-NEXT: apipe.commit_group queue 0
// CHECK-NEXT: arith.muli
// CHECK-NEXT: memref.subview %[[BUF]][%c1, 0]
// CHECK-NEXT: apipe.copy
// CHECK-NEXT: apipe.commit_group queue 0
// CHECK-NEXT: scf.for %[[I:.*]] = %c0 to %c14 step %c1 iter_args(%[[ACC:.*]] = %cst) -> (f32) {
// CHECK-NEXT: apipe.wait_group 1
// CHECK-NEXT: arith.remui %[[I]], %c3
// CHECK-NEXT: memref.subview
// CHECK-NEXT: %[[X:.*]] = memref.load
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT: memref.store %[[S]]
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[I]], %c2
// CHECK-NEXT: arith.muli %[[NEXT]], %c4
// CHECK-NEXT: arith.remui %[[NEXT]], %c3
// CHECK-NEXT: memref.subview
// CHECK-NEXT: apipe.copy
// CHECK-NEXT: apipe.commit_group queue 0
// CHECK-NEXT: scf.yield %[[S]] : f32
// CHECK-COUNT-2: apipe.wait_group 1
// CHECK-NOT: apipe.copy
// CHECK: return
func.func @rules(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) -> f32 {
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
  return %r : f32
}

// REMARK: software-pipeline-schedule.mlir:[[#@LINE+26]]:8: remark: scheduled 3 stages (num_stages = 3): stage 0: 2 ops, stage 2: 3 ops; versions: memref<4xf32> x 3 (48 bytes)

// The offset is an iter_arg bumped each iteration: the bump feeds the copy
// of the next iteration, so it is stage 0 with the copy; %j uses neither
// and goes in the last stage, first in the step (original order).
// CHECK-LABEL: func.func @carried_offset
// CHECK: scf.for %[[I:.*]] = %c0 to %c14 step %c1 iter_args(%[[OFF:.*]] = %{{.*}}) -> (index) {
// CHECK-NEXT: arith.addi %[[I]], %c1
// CHECK-NEXT: apipe.wait_group 1
// CHECK-NEXT: arith.remui
// CHECK-NEXT: memref.subview
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.store
// CHECK-NEXT: arith.addi %[[I]], %c2
// CHECK-NEXT: arith.remui
// CHECK-NEXT: memref.subview
// CHECK-NEXT: apipe.copy %{{.*}}[%[[OFF]]]
// CHECK-NEXT: %[[BUMP:.*]] = arith.addi %[[OFF]], %c4
// CHECK-NEXT: apipe.commit_group queue 0
// CHECK-NEXT: scf.yield %[[BUMP]] : index
func.func @carried_offset(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%off = %c0) -> index {
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %next = arith.addi %off, %c4 : index
    %j = arith.addi %i, %c1 : index
    %x = memref.load %buf[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    scf.yield %next : index
  }
  return
}

// REMARK: software-pipeline-schedule.mlir:[[#@LINE+30]]:3: remark: scheduled 4 stages (num_stages = 4): stage 0: 2 ops, stage 1: 1 ops, stage 3: 1 ops; versions: memref<4xf32> x 2 (32 bytes)

// Hand annotations win: apipe.num_stages = 4 on the loop beats the option,
// and the load keeps its apipe.stage = 1, so the buffer needs 2 versions
// (read one step after its copy); the store depends on the load and goes in
// stage 3: its value is carried through 2 iter_args.
// CHECK-LABEL: func.func @hand_wins
// CHECK: memref.alloc() : memref<2x4xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c13 step %c1 iter_args(%[[V1:.*]] = %{{.*}}, %[[V2:.*]] = %{{.*}}) -> (f32, f32) {
// CHECK-NEXT: memref.store %[[V2]]
// CHECK-NEXT: apipe.wait_group 0
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.remui
// CHECK-NEXT: memref.subview
// CHECK-NEXT: %[[X:.*]] = memref.load
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.muli
// CHECK-NEXT: arith.remui
// CHECK-NEXT: memref.subview
// CHECK-NEXT: apipe.copy
// CHECK-NEXT: apipe.commit_group queue 0
// CHECK-NEXT: scf.yield %[[X]], %[[V1]] : f32, f32
// NOOPT-LABEL: func.func @hand_wins
// NOOPT: scf.for %{{.*}} = %c0 to %c13 step %c1 iter_args
func.func @hand_wins(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  } {apipe.num_stages = 4 : i64}
  return
}

// REMARK: software-pipeline-schedule.mlir:[[#@LINE+34]]:8: remark: scheduled 3 stages (num_stages = 3): stage 0: 2 ops, stage 2: 2 ops; versions: memref<4xf32> x 3 (48 bytes)

// Vector iter_args (registers) are carried like scalars. order=copies-first
// puts the wait first, then the new copies, then the compute.
// CHECK-LABEL: func.func @vector_acc
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %c0 to %c14 step %c1 iter_args(%[[ACC:.*]] = %cst) -> (vector<4xf32>) {
// CHECK-NEXT: apipe.wait_group 1
// CHECK: %[[V:.*]] = vector.load
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : vector<4xf32>
// CHECK: apipe.copy
// CHECK-NEXT: apipe.commit_group queue 0
// CHECK-NEXT: scf.yield %[[S]] : vector<4xf32>
// CHECK: arith.addf %[[R]], %{{.*}} : vector<4xf32>
// CHECK: %[[LAST:.*]] = arith.addf
// CHECK: vector.store %[[LAST]]
// FIRST-LABEL: func.func @vector_acc
// FIRST: scf.for
// FIRST-NEXT: apipe.wait_group 1
// FIRST-NEXT: arith.addi
// FIRST-NEXT: arith.muli
// FIRST-NEXT: arith.remui
// FIRST-NEXT: memref.subview
// FIRST-NEXT: apipe.copy
// FIRST-NEXT: apipe.commit_group queue 0
// FIRST-NEXT: arith.remui
// FIRST-NEXT: memref.subview
// FIRST-NEXT: vector.load
func.func @vector_acc(%A: memref<64xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
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
  vector.store %r, %out[%c0] : memref<4xf32>, vector<4xf32>
  return
}

// REMARK: software-pipeline-schedule.mlir:[[#@LINE+25]]:3: remark: scheduled 3 stages (num_stages = 3): stage 0: 2 ops, stage 2: 2 ops; versions: memref<4xf32, 3> x 3 (48 bytes)

// The synchronous form (commit, then wait_group 0 before the read, as
// apipe-import-nvgpu makes of upstream loops) means synchronous copies: its
// commit and wait are left out, the pipeliner places its own.
// CHECK-LABEL: func.func @sync_form
// CHECK: scf.for
// CHECK-NEXT: apipe.wait_group 1
// CHECK-NOT: apipe.wait_group
// CHECK: apipe.commit_group queue 0
// CHECK-NEXT: }
// NVGPU-LABEL: func.func @sync_form
// NVGPU: scf.for
// NVGPU-NEXT: apipe.wait_group 1
// NVGPU-NOT: apipe.wait_group
// NVGPU: apipe.commit_group queue 0
// NVGPU-NEXT: }
// NOOPT-LABEL: func.func @sync_form
// NOOPT: apipe.wait_group 0
func.func @sync_form(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%c1] : memref<4xf32, 3>
    memref.store %x, %out[%i] : memref<16xf32>
  }
  return
}

// NVGPU-LABEL: func.func @nvgpu_form
// NVGPU: memref.alloc() : memref<3x4xf32, 3>
// NVGPU: scf.for
// NVGPU-NEXT: apipe.wait_group 1
// NVGPU-NOT: apipe.wait_group
// NVGPU: apipe.copy
// NVGPU-NEXT: apipe.commit_group queue 0
// NVGPU-NEXT: }
func.func @nvgpu_form(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 : index
    %t = nvgpu.device_async_copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
    %g = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %g {numGroups = 0 : i32}
    %x = memref.load %buf[%c1] : memref<4xf32, 3>
    memref.store %x, %out[%i] : memref<16xf32>
  }
  return
}
