// The pipeliner synchronizes only the ops it emits: the function's other
// apipe ops, in token or counting form, are left exactly as they are, even
// a wait whose count depends on the path (which apipe-tokens-to-counting
// with strict=true refuses), and a loop the pipeliner refuses leaves the
// whole function unchanged (an error about the loop only; the library
// entry point is checked to leave the IR unchanged by a unit test).
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline | FileCheck %s
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline="sync=tokens" | FileCheck %s --check-prefix=TOK
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline --apipe-check-hazards -o /dev/null
// RUN: not apipe-opt %S/Inputs/other-sync-refused-loop.mlir --apipe-software-pipeline -o %t.out 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: other-sync-refused-loop.mlir:{{.*}}: error: 'memref.load' op in stage 0 accesses (reads or writes) a buffer that async stage 0 writes

// CHECK-LABEL: func.func @user_token_wait_kept
// CHECK: %[[T:.*]] = apipe.commit_group queue 5{{$}}
// CHECK: scf.if
// CHECK-NEXT: {{^ *}}apipe.commit_group queue 5{{$}}
// CHECK: apipe.wait %[[T]]{{$}}
// The pipelined loop, in counting form.
// CHECK: apipe.wait_group 1{{$}}
// CHECK-NOT: "apipe.wait"(
// CHECK: return
// TOK-LABEL: func.func @user_token_wait_kept
// TOK: %[[T:.*]] = apipe.commit_group queue 5{{$}}
// TOK: apipe.wait %[[T]]{{$}}
// TOK: scf.for
// TOK: return
func.func @user_token_wait_kept(%A: memref<64xf32> {llvm.noalias}, %B: memref<64xf32> {llvm.noalias}, %pre: memref<4xf32, 3> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  apipe.copy %B[%c0], %pre[%c0], 4 queue 5 : memref<64xf32> to memref<4xf32, 3>
  %t = apipe.commit_group queue 5
  scf.if %c {
    apipe.commit_group queue 5
  }
  // 0 or 1 groups committed after %t, depending on %c.
  apipe.wait %t
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A counting-form wait of the user's, on the pipeliner's queue, before the
// loop: unchanged (its count is the user's).
// CHECK-LABEL: func.func @user_counting_wait_kept
// CHECK: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait_group 3{{$}}
// CHECK: scf.for
func.func @user_counting_wait_kept(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  apipe.commit_group
  apipe.wait_group 3
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}
