// A thread id along a dimension of size 1 is 0 in every thread: a loop
// bounded by `tz * 8 + 8` in a launch whose z size is the constant 1 is
// uniform, and is pipelined with its barriers (trial 90: refused, "runs a
// number of iterations that depends on the thread id"). The output is
// silent under the checker and prints what apipe-make-sync of the input
// prints, in 6 runs.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-opt --apipe-check-hazards | apipe-run - --completion=lazy,eager,random:2 --schedule=forward,reverse | FileCheck %s --check-prefixes=CHECK,MANY
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// The same bound in a launch of z size 2 still differs between threads:
// RUN: sed -e 's/sz = %%c1/sz = %%c2/' %s | not apipe-opt --apipe-software-pipeline="num-stages=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWO
// REMARK: remark: scheduled 3 stages (num_stages = 3): stage 0: 4 ops, stage 2: 4 ops; versions: memref<8xf32, 3> x 3 (96 bytes); shared memory: 96 of 49152 bytes; 1 gpu.barrier per iteration
// TWO: error: 'scf.for' op runs a number of iterations that depends on the thread id
// CHECK: [456,  464,  472,  480,  488,  496,  504,  448,  520,  528,  536,  544,  552,  560,  568,  512]
// MANY-COUNT-5: [456,  464,  472,  480,  488,  496,  504,  448,  520,  528,  536,  544,  552,  560,  568,  512]
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %n = arith.constant 128 : index
    %A = memref.alloc() : memref<128xf32>
    %out = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<128xf32>
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %buf = memref.alloc() : memref<8xf32, 3>
      %zero = arith.constant 0.0 : f32
      %blk = arith.muli %bx, %c8 : index
      %tp1 = arith.addi %tx, %c1 : index
      %nb = arith.remui %tp1, %c8 : index
      %tz0 = arith.muli %tz, %c8 : index
      %ub = arith.addi %tz0, %c8 : index
      %s = scf.for %t = %c0 to %ub step %c1 iter_args(%acc = %zero) -> f32 {
        %tile = arith.muli %t, %c16 : index
        %o1 = arith.addi %tile, %blk : index
        %off = arith.addi %o1, %tx : index
        apipe.copy %A[%off], %buf[%tx], 1 : memref<128xf32> to memref<8xf32, 3>
        apipe.commit_group
        apipe.wait_group 0
        gpu.barrier
        %x = memref.load %buf[%nb] : memref<8xf32, 3>
        %a2 = arith.addf %acc, %x : f32
        gpu.barrier
        scf.yield %a2 : f32
      }
      %o = arith.addi %blk, %tx : index
      memref.store %s, %out[%o] : memref<16xf32>
      gpu.terminator
    }
    %u = memref.cast %out : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
