// A loop in a gpu.launch body gets the barrier placement of a gpu.func
// (`barriers=true` is the default in GPU code, as gpu-kernel-outlining
// makes the body a gpu.func): one gpu.barrier per iteration where the
// user wrote two (trial 87: the user's barriers were kept and the remark
// gave no count). The output is silent under the checker and prints what
// apipe-make-sync of the input prints, for trip counts 1 to 5, in lazy,
// eager and random completion and both thread orders.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s --check-prefix=VALUES
// RUN: apipe-opt %s --apipe-software-pipeline 2>/dev/null | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline 2>/dev/null | apipe-opt --apipe-check-hazards | apipe-run - --completion=lazy,eager,random:2 --schedule=forward,reverse | FileCheck %s --check-prefix=VALUES
// RUN: apipe-opt %s --apipe-software-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: software-pipeline-launch-barriers.mlir:[[# @LINE + 50]]:12: remark: scheduled 3 stages (num_stages = 3): stage 0: 5 ops, stage 2: 6 ops; versions: memref<3x8xf32, 3> x 1 (96 bytes, its own slots); shared memory: 96 of 49152 bytes; 1 gpu.barrier per iteration
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK-NEXT: apipe.wait_group 1
// CHECK-NOT: gpu.barrier
// CHECK: gpu.barrier
// CHECK-NEXT: memref.load
// CHECK-NOT: gpu.barrier
// CHECK: apipe.copy
// CHECK-NEXT: apipe.commit_group queue 0
// CHECK-NEXT: scf.yield
// VALUES: [3,   4,   5,   6,   7,   0,   1,   2]
// VALUES-NEXT: [11,   12,   13,   14,   15,   8,   9,   10]
// VALUES: [38,   40,   42,   44,   46,   32,   34,   36]
// VALUES-NEXT: [54,   56,   58,   60,   62,   48,   50,   52]
// VALUES: [105,   108,   111,   114,   117,   96,   99,   102]
// VALUES-NEXT: [129,   132,   135,   138,   141,   120,   123,   126]
// VALUES: [204,   208,   212,   216,   220,   192,   196,   200]
// VALUES-NEXT: [236,   240,   244,   248,   252,   224,   228,   232]
// VALUES: [335,   340,   345,   350,   355,   320,   325,   330]
// VALUES-NEXT: [375,   380,   385,   390,   395,   360,   365,   370]
module attributes {gpu.container_module} {
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  %z = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<512xf32>
  %out = memref.alloc() : memref<2x8xf32>
  scf.for %i = %c0 to %c512 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<512xf32>
  }
  %c5 = arith.constant 5 : index
  scf.for %q = %c0 to %c5 step %c1 {
    %n = arith.addi %q, %c1 : index
    linalg.fill ins(%z : f32) outs(%out : memref<2x8xf32>)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %buf = memref.alloc() : memref<3x8xf32, 3>
      %k3 = arith.constant 3 : index
      %k8 = arith.constant 8 : index
      %k32 = arith.constant 32 : index
      %bb = arith.muli %bx, %k8 : index
      %r = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
        %slot = arith.remui %t, %k3 : index
        %tb = arith.muli %t, %k32 : index
        %o0 = arith.addi %tb, %bb : index
        %o = arith.addi %o0, %tx : index
        apipe.copy %A[%o], %buf[%slot, %tx], 1 : memref<512xf32> to memref<3x8xf32, 3>
        gpu.barrier
        %nb = arith.addi %tx, %k3 : index
        %nbm = arith.remui %nb, %k8 : index
        %x = memref.load %buf[%slot, %nbm] : memref<3x8xf32, 3>
        %a2 = arith.addf %acc, %x : f32
        gpu.barrier
        scf.yield %a2 : f32
      } {apipe.num_stages = 3 : i64}
      memref.store %r, %out[%bx, %tx] : memref<2x8xf32>
      gpu.terminator
    }
    %u = memref.cast %out : memref<2x8xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  return
}
}
