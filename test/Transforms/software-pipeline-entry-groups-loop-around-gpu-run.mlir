// A kernel's loop entered, from the second iteration of the loop around it
// on, with a copy the previous iteration left in flight after the loop
// (inside the same scf.if, one region deeper): the pipelined code starts
// with a commit and a wait, as in the host case
// (software-pipeline-entry-groups-loop-around-run.mlir; trial 26).
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2" 2>/dev/null | apipe-run - --completion=random:4 | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(gpu.module(gpu.func(apipe-software-pipeline{num-stages=3})))' 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | FileCheck %s --check-prefix=COUNTING

// CHECK: [5,  31,  57,  83,  16,  42,  68,  94]

// COUNTING-LABEL: gpu.func @kernel
// COUNTING: scf.if
// COUNTING: apipe.commit_group{{$}}
// COUNTING-NEXT: apipe.wait_group 0
// COUNTING: scf.for
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @kernel(%A: memref<128xf32> {llvm.noalias}, %X: memref<128xf32> {llvm.noalias}, %out: memref<128xf32> {llvm.noalias}, %flag: i1) workgroup(%x: memref<8xf32, 3>, %buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %f1 = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      scf.for %j = %c0 to %c4 step %c1 {
        %e = arith.muli %tid, %c4 : index
        %t = arith.addi %e, %j : index
        memref.store %f1, %x[%t] : memref<8xf32, 3>
      }
      scf.for %j = %c0 to %c3 step %c1 {
        scf.if %flag {
          scf.for %i = %c0 to %c4 step %c1 {
            %base = arith.muli %i, %c8 : index
            %src = arith.addi %base, %tid : index
            apipe.copy %A[%src], %buf[%tid], 1 : memref<128xf32> to memref<8xf32, 3>
            apipe.commit_group
            apipe.wait_group 0
            %e = arith.muli %tid, %c4 : index
            %t = arith.addi %e, %i : index
            %v = memref.load %x[%t] : memref<8xf32, 3>
            %w = memref.load %buf[%tid] : memref<8xf32, 3>
            %s = arith.addf %v, %w : f32
            %o = memref.load %out[%t] : memref<128xf32>
            %r = arith.addf %o, %s : f32
            memref.store %r, %out[%t] : memref<128xf32>
          }
          scf.if %flag {
            %two = arith.muli %tid, %c4 : index
            apipe.copy %X[%two], %x[%two], 4 : memref<128xf32> to memref<8xf32, 3>
            apipe.commit_group
          }
        }
      }
      apipe.wait_group 0
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %c2f = arith.constant 2.0 : f32
    %z = arith.constant 0.0 : f32
    %true = arith.constant true
    %A = memref.alloc() : memref<128xf32>
    %X = memref.alloc() : memref<128xf32>
    %o = memref.alloc() : memref<128xf32>
    scf.for %i = %c0 to %c128 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      memref.store %f, %A[%i] : memref<128xf32>
      %g = arith.addf %f, %c2f : f32
      memref.store %g, %X[%i] : memref<128xf32>
      memref.store %z, %o[%i] : memref<128xf32>
    }
    gpu.launch_func @m::@kernel blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<128xf32>, %X : memref<128xf32>, %o : memref<128xf32>, %true : i1)
    %s = memref.subview %o[0] [8] [1] : memref<128xf32> to memref<8xf32, strided<[1]>>
    %su = memref.cast %s : memref<8xf32, strided<[1]>> to memref<*xf32>
    func.call @printMemrefF32(%su) : (memref<*xf32>) -> ()
    return
  }
}
