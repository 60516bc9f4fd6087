// Barrier placement of the pipeliner in every order x barrier mode, on a
// kernel where each thread reads its neighbour's element of the copied
// tile (the input has no barriers: the pipeliner places them), so the
// pipelined kernel must print the sums below with the race checker on, in
// two completion modes and two thread orders. (With
// order=copies-first barriers=conservative the epilogue once lost its
// barrier after the last wait: a race and wrong sums.)
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2 order=cutlass barriers=true" | apipe-run - --completion=lazy,eager --schedule=forward,reverse | FileCheck %s --check-prefix=FOUR
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2 order=cutlass barriers=conservative" | apipe-run - --completion=lazy,eager --schedule=forward,reverse | FileCheck %s --check-prefix=FOUR
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2 order=copies-first barriers=true" | apipe-run - --completion=lazy,eager --schedule=forward,reverse | FileCheck %s --check-prefix=FOUR
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2 order=copies-first barriers=conservative" | apipe-run - --completion=lazy,eager --schedule=forward,reverse | FileCheck %s --check-prefix=FOUR
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 order=copies-first barriers=conservative" | apipe-run - --completion=lazy,eager --schedule=forward,reverse | FileCheck %s --check-prefix=FOUR
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2 order=copies-first barriers=conservative" | apipe-opt --apipe-check-hazards -o /dev/null

// out[t] = sum over i of A[8 i + (t + 1) mod 8] = 224 + 8 ((t + 1) mod 8).
// FOUR-COUNT-4: [232,  240,  248,  256,  264,  272,  280,  224]
// FOUR-NOT: error

module attributes {gpu.container_module} {
  gpu.module @kern {
    gpu.func @k(%A: memref<64xf32>, %out: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c7 = arith.constant 7 : index
      %tid = gpu.thread_id x
      %zero = arith.constant 0.0 : f32
      %nb = arith.addi %tid, %c1 : index
      %nbr = arith.remui %nb, %c8 : index
      %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> f32 {
        %base = arith.muli %i, %c8 : index
        %src = arith.addi %base, %tid : index
        apipe.copy %A[%src], %buf[%tid], 1 : memref<64xf32> to memref<8xf32, 3>
        %x = memref.load %buf[%nbr] : memref<8xf32, 3>
        %s = arith.addf %acc, %x : f32
        scf.yield %s : f32
      }
      memref.store %r, %out[%tid] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %A = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      memref.store %f, %A[%i] : memref<64xf32>
    }
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kern::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<64xf32>, %out : memref<8xf32>)
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
