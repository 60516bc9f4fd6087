// A gpu.launch loop that writes a buffer the host allocated (captured by
// the launch: global memory, not the thread's own) keeps the user's
// barriers, which order the threads' exchange through it (trial 90: the
// buffer was taken as private, the loop as writing no global memory, and
// its barriers were dropped: the pipelined program printed wrong values in
// 15 of 15 runs, and the checker, which does not compare plain global
// accesses between threads, was silent). The pipelined program prints what
// apipe-make-sync of the input prints.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2" 2>/dev/null | apipe-opt --apipe-check-hazards | apipe-run - --completion=lazy,eager,random:1 --schedule=forward,reverse,random:5 | FileCheck %s --check-prefixes=CHECK,MANY
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | apipe-run - --completion=random:2 --schedule=reverse | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: scheduled 2 stages (num_stages = 2): stage 0: 3 ops, stage 1: 6 ops; versions: memref<8xf32, 3> x 2 (64 bytes); shared memory: 64 of 49152 bytes; 2 gpu.barrier per iteration
// CHECK: [252,  252,  252,  252,  252,  252,  252,  252]
// MANY-COUNT-8: [252,  252,  252,  252,  252,  252,  252,  252]
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 64 : index
    %A = memref.alloc() : memref<64xf32>
    %G = memref.alloc() : memref<8xf32>
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<64xf32>
    }
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %zero, %G[%i] : memref<8xf32>
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %buf = memref.alloc() : memref<8xf32, 3>
      %tp1 = arith.addi %tx, %c1 : index
      %nb = arith.remui %tp1, %c8 : index
      scf.for %t = %c0 to %c8 step %c1 {
        %tile = arith.muli %t, %c8 : index
        %off = arith.addi %tile, %tx : index
        apipe.copy %A[%off], %buf[%tx], 1 : memref<64xf32> to memref<8xf32, 3>
        apipe.commit_group
        apipe.wait_group 0
        gpu.barrier
        %x = memref.load %buf[%nb] : memref<8xf32, 3>
        %y = memref.load %G[%nb] : memref<8xf32>
        %z = arith.addf %x, %y : f32
        gpu.barrier
        memref.store %z, %G[%tx] : memref<8xf32>
      }
      gpu.terminator
    }
    %u = memref.cast %G : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
