// apipe-software-pipeline in token form: prologue, steady-state loop and
// epilogue; values and tokens crossing stages rotate through iter_args;
// buffers get one version per stage in flight; one commit per async stage per
// step (empty where the stage is idle); a wait on the exact group before the
// first reader.
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline="sync=tokens" | FileCheck %s
// The default counting form: every pending is the exact FIFO distance.
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline | FileCheck %s --check-prefix=COUNT

// Two stages, 16 iterations: 2 versions, 1 prologue commit, the kernel waits
// on the group committed one step earlier (distance 1), then the drain.
// COUNT-LABEL: func.func @two_stage_sixteen_iterations
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: scf.for
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: apipe.wait_group 1{{$}}
// COUNT: {{^ *}}}
// COUNT-NEXT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: apipe.wait_group 1{{$}}
// COUNT-NOT: apipe.token
// CHECK-LABEL: func.func @two_stage_sixteen_iterations
// CHECK-SAME: (%[[A:.*]]: memref<64xf32> {llvm.noalias}, %[[OUT:.*]]: memref<16xf32> {llvm.noalias})
// CHECK-DAG: %[[C15:.*]] = arith.constant 15 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<2x4xf32, 3>
// CHECK-NEXT: %[[OFF0:.*]] = arith.muli %[[C0]], %[[C4]] : index
// CHECK-NEXT: %[[V0:.*]] = memref.subview %[[BUF]][%[[C0]], 0] [1, 4] [1, 1] : memref<2x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
// CHECK-NEXT: apipe.copy %[[A]][%[[OFF0]]], %[[V0]][%[[C0]]], 4 queue 0
// CHECK-NEXT: %[[T0:.*]] = apipe.commit_group queue 0{{$}}
// CHECK-NEXT: %[[LAST:.*]] = scf.for %[[J:.*]] = %[[C0]] to %[[C15]] step %[[C1]] iter_args(%[[PREV:.*]] = %[[T0]]) -> (!apipe.token) {
// CHECK-NEXT:   %[[NEXT:.*]] = arith.addi %[[J]], %[[C1]] : index
// CHECK-NEXT:   %[[OFF:.*]] = arith.muli %[[NEXT]], %[[C4]] : index
// CHECK-NEXT:   %[[WV:.*]] = arith.remui %[[NEXT]], %[[C2]] : index
// CHECK-NEXT:   %[[W:.*]] = memref.subview %[[BUF]][%[[WV]], 0] [1, 4] [1, 1]
// CHECK-NEXT:   apipe.copy %[[A]][%[[OFF]]], %[[W]][%[[C0]]], 4 queue 0
// CHECK-NEXT:   %[[T:.*]] = apipe.commit_group queue 0{{$}}
// CHECK-NEXT:   apipe.wait %[[PREV]]{{$}}
// CHECK-NEXT:   %[[RV:.*]] = arith.remui %[[J]], %[[C2]] : index
// CHECK-NEXT:   %[[R:.*]] = memref.subview %[[BUF]][%[[RV]], 0] [1, 4] [1, 1]
// CHECK-NEXT:   %[[X:.*]] = memref.load %[[R]][%[[C1]]]
// CHECK-NEXT:   memref.store %[[X]], %[[OUT]][%[[J]]] : memref<16xf32>
// CHECK-NEXT:   scf.yield %[[T]] : !apipe.token
// CHECK-NEXT: }
// CHECK-NEXT: apipe.commit_group queue 0{{$}}
// CHECK-NEXT: apipe.wait %[[LAST]]{{$}}
// CHECK-NEXT: %[[R15:.*]] = memref.subview %[[BUF]][%[[C1]], 0] [1, 4] [1, 1]
// CHECK-NEXT: %[[X15:.*]] = memref.load %[[R15]][%[[C1]]]
// CHECK-NEXT: memref.store %[[X15]], %[[OUT]][%[[C15]]] : memref<16xf32>
// CHECK-NEXT: memref.dealloc %[[BUF]] : memref<2x4xf32, 3>
// CHECK-NOT: apipe.stage
// CHECK-NOT: apipe.async_stages
func.func @two_stage_sixteen_iterations(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32, 3>
  return
}

// -----

// Stages [0, 3]: 4 versions, 3 prologue commits, three tokens rotate and the
// kernel waits on the oldest (distance 3); the epilogue drains 13, 14, 15.
// COUNT-LABEL: func.func @stages_zero_three
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: arith.muli
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: scf.for
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: apipe.wait_group 3{{$}}
// COUNT-COUNT-3: apipe.wait_group 3{{$}}
// COUNT-NOT: wait_group
// CHECK-LABEL: func.func @stages_zero_three
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<4x4xf32, 3>
// CHECK: %[[T0:.*]] = apipe.commit_group queue 0
// CHECK: %[[T1:.*]] = apipe.commit_group queue 0
// CHECK: %[[T2:.*]] = apipe.commit_group queue 0
// CHECK-NEXT: %[[K:.*]]:3 = scf.for %[[J:.*]] = %{{.*}} to %[[C13:.*]] step %{{.*}} iter_args(%[[D1:.*]] = %[[T2]], %[[D2:.*]] = %[[T1]], %[[D3:.*]] = %[[T0]]) -> (!apipe.token, !apipe.token, !apipe.token) {
// CHECK:        %[[T:.*]] = apipe.commit_group queue 0
// CHECK-NEXT:   apipe.wait %[[D3]]
// CHECK:        scf.yield %[[T]], %[[D1]], %[[D2]] : !apipe.token, !apipe.token, !apipe.token
// CHECK: apipe.commit_group queue 0
// CHECK-NEXT: apipe.wait %[[K]]#2
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[C13]]]
// CHECK: apipe.commit_group queue 0
// CHECK-NEXT: apipe.wait %[[K]]#1
// CHECK: apipe.commit_group queue 0
// CHECK-NEXT: apipe.wait %[[K]]#0
// CHECK-NOT: apipe.wait
// CHECK: return
func.func @stages_zero_three(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 3 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 3 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// RFC 0077 example b: global -> shared on queue 0, shared -> local on queue 1,
// compute in stage 2. The shared buffer needs 3 versions, not 2: the stage-1
// copy reads it until its own group is waited in stage 2 (write-after-read
// on an async reader). The local buffer needs 2.
// COUNT-LABEL: func.func @rfc_example_b
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: {{^ *}}apipe.commit_group queue 1{{$}}
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: apipe.wait_group 1{{$}}
// COUNT: {{^ *}}apipe.commit_group queue 1{{$}}
// COUNT-NEXT: scf.for
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: apipe.wait_group 1{{$}}
// COUNT: {{^ *}}apipe.commit_group queue 1{{$}}
// COUNT-NEXT: apipe.wait_group 1 queue 1{{$}}
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: apipe.wait_group 1{{$}}
// COUNT: {{^ *}}apipe.commit_group queue 1{{$}}
// COUNT-NEXT: apipe.wait_group 1 queue 1{{$}}
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: {{^ *}}apipe.commit_group queue 1{{$}}
// COUNT-NEXT: apipe.wait_group 1 queue 1{{$}}
// CHECK-LABEL: func.func @rfc_example_b
// CHECK: %[[SHARED:.*]] = memref.alloc() : memref<3x4xf32, 3>
// CHECK: %[[LOCAL:.*]] = memref.alloca() : memref<2x4xf32, 5>
// CHECK: apipe.copy
// CHECK-NEXT: %[[A0:.*]] = apipe.commit_group queue 0
// CHECK-NEXT: %[[B0:.*]] = apipe.commit_group queue 1
// CHECK: apipe.copy
// CHECK-NEXT: %[[A1:.*]] = apipe.commit_group queue 0
// CHECK-NEXT: apipe.wait %[[A0]]
// CHECK: apipe.copy
// CHECK-NEXT: %[[B1:.*]] = apipe.commit_group queue 1
// CHECK-NEXT: %[[K:.*]]:2 = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[QA:.*]] = %[[A1]], %[[QB:.*]] = %[[B1]]) -> (!apipe.token, !apipe.token) {
// CHECK:        %[[V3:.*]] = arith.remui %{{.*}}, %[[C3:.*]] : index
// CHECK-NEXT:   memref.subview %[[SHARED]][%[[V3]], 0] [1, 4] [1, 1] : memref<3x4xf32, 3>
// CHECK-NEXT:   apipe.copy
// CHECK-NEXT:   %[[TA:.*]] = apipe.commit_group queue 0
// CHECK-NEXT:   apipe.wait %[[QA]]
// CHECK:        memref.subview %[[SHARED]]
// CHECK:        memref.subview %[[LOCAL]]
// CHECK-NEXT:   apipe.copy {{.*}}], 4 queue 1
// CHECK-NEXT:   %[[TB:.*]] = apipe.commit_group queue 1
// CHECK-NEXT:   apipe.wait %[[QB]]
// CHECK:        memref.load
// CHECK:        scf.yield %[[TA]], %[[TB]] : !apipe.token, !apipe.token
// CHECK: apipe.commit_group queue 0
// CHECK-NEXT: apipe.wait %[[K]]#0
// CHECK: %[[BE:.*]] = apipe.commit_group queue 1
// CHECK-NEXT: apipe.wait %[[K]]#1
// CHECK: apipe.commit_group queue 0
// CHECK-NEXT: apipe.commit_group queue 1
// CHECK-NEXT: apipe.wait %[[BE]]
func.func @rfc_example_b(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %shared = memref.alloc() : memref<4xf32, 3>
  %local = memref.alloca() : memref<4xf32, 5>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %shared[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    apipe.copy %shared[%c0], %local[%c0], 4 {apipe.stage = 1 : i64} : memref<4xf32, 3> to memref<4xf32, 5>
    %x = memref.load %local[%c1] {apipe.stage = 2 : i64} : memref<4xf32, 5>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0, 1>}
  return
}

// -----

// Interleaved producers: stages [0, 0, 3], order [0, 2, 1]. Both copies of an
// iteration form one group, committed after the second copy, in the prologue,
// the kernel and the epilogue alike (TVM merges prologue groups only).
// COUNT-LABEL: func.func @interleaved_producers
// COUNT: scf.for
// COUNT: apipe.wait_group 2{{$}}
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: {{^ *}}}
// COUNT-COUNT-3: apipe.wait_group 2{{$}}
// CHECK-LABEL: func.func @interleaved_producers
// CHECK: apipe.copy %arg0[
// CHECK-NEXT: memref.subview
// CHECK-NEXT: apipe.copy %arg1[
// CHECK-NEXT: %[[T0:.*]] = apipe.commit_group queue 0
// CHECK: apipe.copy %arg0[
// CHECK-NEXT: memref.subview
// CHECK-NEXT: apipe.copy %arg1[
// CHECK-NEXT: %[[T1:.*]] = apipe.commit_group queue 0
// CHECK: apipe.copy %arg0[
// CHECK-NEXT: memref.subview
// CHECK-NEXT: apipe.copy %arg1[
// CHECK-NEXT: %[[T2:.*]] = apipe.commit_group queue 0
// CHECK-NEXT: scf.for {{.*}} iter_args(%[[D1:.*]] = %[[T2]], %[[D2:.*]] = %[[T1]], %[[D3:.*]] = %[[T0]])
// CHECK:        apipe.copy %arg0[
// CHECK-NEXT:   apipe.wait %[[D3]]
// CHECK:        arith.addf
// CHECK-NEXT:   memref.store
// CHECK-NEXT:   memref.subview
// CHECK-NEXT:   apipe.copy %arg1[
// CHECK-NEXT:   %[[T:.*]] = apipe.commit_group queue 0
// CHECK-NEXT:   scf.yield %[[T]], %[[D1]], %[[D2]]
// CHECK-COUNT-3: apipe.commit_group
// CHECK-NOT: apipe.commit_group
// CHECK: return
func.func @interleaved_producers(%A: memref<64xf32> {llvm.noalias}, %B: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloc() : memref<4xf32, 3>
  %b = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64, apipe.order = 0 : i64} : index
    apipe.copy %A[%off], %a[%c0], 4 {apipe.stage = 0 : i64, apipe.order = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    apipe.copy %B[%off], %b[%c0], 4 {apipe.stage = 0 : i64, apipe.order = 2 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %a[%c1] {apipe.stage = 3 : i64, apipe.order = 1 : i64} : memref<4xf32, 3>
    %y = memref.load %b[%c1] {apipe.stage = 3 : i64, apipe.order = 1 : i64} : memref<4xf32, 3>
    %s = arith.addf %x, %y {apipe.stage = 3 : i64, apipe.order = 1 : i64} : f32
    memref.store %s, %out[%i] {apipe.stage = 3 : i64, apipe.order = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Two buffers consumed at different stages: 2 and 3 versions. The f32 loaded
// in stage 1 and added in stage 2 rotates through an iter_arg like a token.
// COUNT-LABEL: func.func @two_buffers_different_versions
// COUNT: scf.for
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: apipe.wait_group 1{{$}}
// COUNT: apipe.wait_group 2{{$}}
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: apipe.wait_group 1{{$}}
// COUNT: apipe.wait_group 2{{$}}
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: apipe.wait_group 2{{$}}
// CHECK-LABEL: func.func @two_buffers_different_versions
// CHECK: %[[NEAR:.*]] = memref.alloc() : memref<2x4xf32, 3>
// CHECK: %[[FAR:.*]] = memref.alloc() : memref<3x4xf32, 3>
// CHECK: %[[T0:.*]] = apipe.commit_group
// CHECK: %[[T1:.*]] = apipe.commit_group
// CHECK-NEXT: apipe.wait %[[T0]]
// CHECK: %[[X0:.*]] = memref.load
// CHECK-NEXT: %[[K:.*]]:3 = scf.for {{.*}} iter_args(%[[X:.*]] = %[[X0]], %[[D1:.*]] = %[[T1]], %[[D2:.*]] = %[[T0]]) -> (f32, !apipe.token, !apipe.token)
// CHECK:        apipe.wait %[[D1]]
// CHECK:        memref.subview %[[NEAR]]
// CHECK-NEXT:   %[[XN:.*]] = memref.load
// CHECK-NEXT:   apipe.wait %[[D2]]
// CHECK:        memref.subview %[[FAR]]
// CHECK-NEXT:   %[[Y:.*]] = memref.load
// CHECK-NEXT:   arith.addf %[[X]], %[[Y]] : f32
// CHECK:        scf.yield %[[XN]], %{{.*}}, %[[D1]] : f32, !apipe.token, !apipe.token
// CHECK: apipe.wait %[[K]]#1
// CHECK: apipe.wait %[[K]]#2
// CHECK: arith.addf %[[K]]#0
func.func @two_buffers_different_versions(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %near = memref.alloc() : memref<4xf32, 3>
  %far = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %near[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    apipe.copy %A[%off], %far[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %near[%c0] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    %y = memref.load %far[%c1] {apipe.stage = 2 : i64} : memref<4xf32, 3>
    %s = arith.addf %x, %y {apipe.stage = 2 : i64} : f32
    memref.store %s, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A conditional copy: the scf.if moves as a whole and the commit stays
// outside it, so a predicated-off copy still commits an (empty) group.
// COUNT-LABEL: func.func @conditional_copy
// COUNT: scf.for
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: apipe.wait_group 1{{$}}
// CHECK-LABEL: func.func @conditional_copy
// CHECK-SAME: %[[FLAG:[^:]*]]: i1
// CHECK: scf.if %[[FLAG]] {
// CHECK-NEXT: apipe.copy
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: %[[T0:.*]] = apipe.commit_group
// CHECK-NEXT: scf.for {{.*}} iter_args(%[[D1:.*]] = %[[T0]])
// CHECK:        scf.if %[[FLAG]] {
// CHECK-NEXT:     apipe.copy
// CHECK-NEXT:   {{^ *}}}
// CHECK-NEXT:   apipe.commit_group
// CHECK-NEXT:   apipe.wait %[[D1]]
func.func @conditional_copy(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    scf.if %flag {
      apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// GEMM-like nest: the K loop is pipelined; the inner loop consumes the tile
// in stage 2 as one op, reading version k mod 3.
// COUNT-LABEL: func.func @gemm_like_nest
// COUNT: scf.for
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: apipe.wait_group 2{{$}}
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: apipe.wait_group 2{{$}}
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: apipe.wait_group 2{{$}}
// CHECK-LABEL: func.func @gemm_like_nest
// CHECK: %[[TILE:.*]] = memref.alloc() : memref<3x16xf32, 3>
// CHECK: scf.for %[[K:.*]] = {{.*}} iter_args
// CHECK:   apipe.wait %
// CHECK-NEXT: %[[V:.*]] = arith.remui %[[K]], %{{.*}} : index
// CHECK-NEXT: %[[VIEW:.*]] = memref.subview %[[TILE]][%[[V]], 0] [1, 16] [1, 1]
// CHECK-NEXT: scf.for %[[M:.*]] = 
// CHECK-NEXT:   %[[E:.*]] = arith.addi %[[M]]
// CHECK-NEXT:   memref.load %[[VIEW]][%[[E]]]
// CHECK-COUNT-2: scf.for %{{.*}} = %c0 to %c4 step %c1 {
func.func @gemm_like_nest(%A: memref<256xf32> {llvm.noalias}, %acc: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %tile = memref.alloc() : memref<16xf32, 3>
  scf.for %k = %c0 to %c16 step %c1 {
    %off = arith.muli %k, %c16 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %tile[%c0], 16 {apipe.stage = 0 : i64} : memref<256xf32> to memref<16xf32, 3>
    scf.for %m = %c0 to %c4 step %c1 {
      %e = arith.addi %m, %c4 : index
      %x = memref.load %tile[%e] : memref<16xf32, 3>
      %y = memref.load %acc[%m] : memref<4xf32>
      %z = arith.addf %x, %y : f32
      memref.store %z, %acc[%m] : memref<4xf32>
    } {apipe.stage = 2 : i64}
  } {apipe.async_stages = array<i64: 0>}
  return
}
