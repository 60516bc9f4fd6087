// A copy guarded by a condition on the thread id alone (`tid < 3`): the
// condition is the same in every iteration, so every iteration's block
// writes the elements the threads read (trial 87: it was refused, "an
// iteration that skips the copy would read the data of 3 iterations
// earlier", though no iteration skips it). The pipelined kernel is silent
// under the checker and prints what apipe-make-sync of the input prints,
// for trip counts 0, 1, 2, 3 and 7, in lazy, eager and random completion
// and both thread orders.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-opt --apipe-check-hazards | apipe-run - --completion=lazy --schedule=forward,reverse | FileCheck %s --check-prefixes=CHECK,TWICE
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=eager,random:2 | FileCheck %s --check-prefixes=CHECK,TWICE
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: software-pipeline-thread-guarded-copy.mlir:[[@LINE+26]]:10: remark: scheduled 3 stages (num_stages = 3): stage 0: 5 ops, stage 2: 7 ops; versions: memref<8xf32, 3> x 3 (96 bytes); shared memory: 96 of 49152 bytes; 1 gpu.barrier per iteration
// CHECK-COUNT-2: [0,   0,   0,   0,   0,   0,   0,   0]
// CHECK: [1,   2,   0,   1,   2,   0,   1,   2]
// CHECK-NEXT: [9,   10,   8,   9,   10,   8,   9,   10]
// CHECK: [34,   36,   32,   34,   36,   32,   34,   36]
// CHECK-NEXT: [50,   52,   48,   50,   52,   48,   50,   52]
// CHECK: [99,   102,   96,   99,   102,   96,   99,   102]
// CHECK-NEXT: [123,   126,   120,   123,   126,   120,   123,   126]
// CHECK: [679,   686,   672,   679,   686,   672,   679,   686]
// CHECK-NEXT: [735,   742,   728,   735,   742,   728,   735,   742]
// TWICE: [679,   686,   672,   679,   686,   672,   679,   686]
// TWICE-NEXT: [735,   742,   728,   735,   742,   728,   735,   742]
module attributes {gpu.container_module} {
func.func private @printMemrefF32(memref<*xf32>)
gpu.module @kernels {
  gpu.func @k(%A: memref<512xf32>, %out: memref<2x8xf32> {llvm.noalias}, %n: index)
      workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %z = arith.constant 0.0 : f32
    %bx = gpu.block_id x
    %tx = gpu.thread_id x
    %bb = arith.muli %bx, %c8 : index
    %r = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
      %slot = arith.remui %t, %c3 : index
      %tb = arith.muli %t, %c32 : index
      %o0 = arith.addi %tb, %bb : index
      %o = arith.addi %o0, %tx : index
      %lo = arith.cmpi ult, %tx, %c3 : index
      scf.if %lo {
        apipe.copy %A[%o], %buf[%tx], 1 : memref<512xf32> to memref<8xf32, 3>
      }
      gpu.barrier
      %nb = arith.addi %tx, %c1 : index
      %nbm = arith.remui %nb, %c3 : index
      %x = memref.load %buf[%nbm] : memref<8xf32, 3>
      %a2 = arith.addf %acc, %x : f32
      gpu.barrier
      scf.yield %a2 : f32
    }
    memref.store %r, %out[%bx, %tx] : memref<2x8xf32>
    gpu.return
  }
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c512 = arith.constant 512 : index
  %z = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<512xf32>
  %out = memref.alloc() : memref<2x8xf32>
  scf.for %i = %c0 to %c512 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<512xf32>
  }
  %ns = arith.constant dense<[0, 1, 2, 3, 7]> : vector<5xindex>
  %c5 = arith.constant 5 : index
  scf.for %q = %c0 to %c5 step %c1 {
    %n = vector.extract %ns[%q] : index from vector<5xindex>
    linalg.fill ins(%z : f32) outs(%out : memref<2x8xf32>)
    gpu.launch_func @kernels::@k blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<512xf32>, %out : memref<2x8xf32>, %n : index)
    %u = memref.cast %out : memref<2x8xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  return
}
}
