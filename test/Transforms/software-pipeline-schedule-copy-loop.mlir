// num-stages schedules the innermost loop with copies. When that loop only
// issues copies (a loop of 4 copies per tile, their data read after it),
// the schedule has 1 stage and nothing overlaps: a warning says so and how
// to get a pipeline across tiles (trial 14: only "scheduled 1 stages" was
// said). The output stays correct: the checker is silent on it, and it
// prints what the input prints.
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 2>/dev/null | apipe-opt - --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 2>/dev/null | apipe-run - --completion=lazy,eager,random:3 | FileCheck %s --check-prefix=OUT
// RUN: apipe-run %s | FileCheck %s --check-prefix=OUT
// DIAG: software-pipeline-schedule-copy-loop.mlir:[[# @LINE + 19]]:9: remark: scheduled 1 stages (num_stages = 3): stage 0: 3 ops; versions: none; shared memory: 512 of 49152 bytes; 1 gpu.barrier per iteration
// DIAG: software-pipeline-schedule-copy-loop.mlir:[[# @LINE + 18]]:9: warning: num_stages = 3, but no op of this loop reads what its copies write (their data is read after the loop): the schedule has 1 stage and nothing overlaps; to pipeline across tiles, issue the copies in the loop that reads their data (unroll this copy loop into it)
// DIAG-NOT: warning
// (thread t sums A[128 i + 127 - t] over 4 tiles: 1276 - 4 t)
// OUT: [1276,  1272,  1268, {{.*}}  1156,  1152]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @kern(%A: memref<512xf32>, %out: memref<32xf32> {llvm.noalias}, %n: index)
        workgroup(%sa: memref<128xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c127 = arith.constant 127 : index
      %c128 = arith.constant 128 : index
      %z = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      %t4 = arith.muli %tx, %c4 : index
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
        %base = arith.muli %i, %c128 : index
        scf.for %a = %c0 to %c4 step %c1 {
          %d = arith.addi %t4, %a : index
          %o = arith.addi %base, %d : index
          apipe.copy %A[%o], %sa[%d], 1 : memref<512xf32> to memref<128xf32, 3>
        }
        apipe.commit_group
        apipe.wait_group 0
        gpu.barrier
        %p = arith.subi %c127, %tx : index
        %y = memref.load %sa[%p] : memref<128xf32, 3>
        %a2 = arith.addf %acc, %y : f32
        gpu.barrier
        scf.yield %a2 : f32
      }
      memref.store %r, %out[%tx] : memref<32xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c512 = arith.constant 512 : index
    %A = memref.alloc() : memref<512xf32>
    scf.for %j = %c0 to %c512 step %c1 {
      %ji = arith.index_cast %j : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      memref.store %jf, %A[%j] : memref<512xf32>
    }
    %out = memref.alloc() : memref<32xf32>
    gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : memref<512xf32>, %out : memref<32xf32>, %c4 : index)
    %u = memref.cast %out : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
