// The kernel of test/Transforms/software-pipeline-barriers-global.mlir
// (@global_after: the loop reads G[t], the thread stores to G[tid] after the
// loop) runs end to end in one block of 32 threads after
// apipe-software-pipeline (the option of that test's RUN line; the loop's
// apipe.num_stages = 2), in counting and token form and the token form's
// mbarrier form, in lazy, eager and random completion and two schedules
// with the race checker on, and prints what apipe-make-sync of the input
// prints (the input's copies are synchronous: no commit, no wait).
// A[i] = i, G[i] = i before the launch.
//
// Every thread sums, over t < 8, buf[0] = A[512 t] (thread 0's copy) and
// G[t] as it was before the launch (the loop's barriers order every read of
// G before any thread's store after the loop): 512 * 28 + 28 = 14364, which
// it stores to G[tid]. The driver prints G[24..40) = [14364 x 8, 32, ..., 39]
// and the sum of G: 32 * 14364 + (32 + ... + 255) = 459648 + 32144 = 491792.
//
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Transforms/software-pipeline-barriers-global.mlir > %t.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.kernel' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - | grep -v base@ > %t.sync
// RUN: FileCheck %s < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.expected
// RUN: apipe-opt %t.mlir --apipe-software-pipeline 2>/dev/null > %t.pipelined.mlir
// RUN: apipe-run %t.pipelined.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.pipelined.out
// RUN: diff %t.expected %t.pipelined.out
// RUN: apipe-opt %t.mlir --apipe-software-pipeline="sync=tokens" 2>/dev/null > %t.tokens.mlir
// RUN: apipe-run %t.tokens.mlir --completion=lazy,eager,random:1 --schedule=forward,random:2 | grep -v -e '^// apipe-run' -e base@ > %t.tokens.out
// RUN: diff %t.expected %t.tokens.out
// RUN: apipe-opt %t.tokens.mlir --apipe-tokens-to-mbarrier | apipe-run - --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.mbarrier.out
// RUN: diff %t.expected %t.mbarrier.out
//
// barriers=false keeps the user's barriers (the pipeliner places none):
// two in the loop, one in the epilogue before the store; it prints the same.
// RUN: apipe-opt %t.mlir --apipe-software-pipeline="barriers=false" 2>/dev/null > %t.user.mlir
// RUN: apipe-run %t.user.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.user.out
// RUN: diff %t.expected %t.user.out
//
// Broken twin: without the epilogue's barrier before the store to G (the
// one that test checks, the last barrier of the pipelined kernel), thread 7
// stores G[7] before threads 8..31 of the forward schedule read it in the
// epilogue: wrong sums under --no-racecheck (the race checker watches shared
// memory, not this read and write of global memory), G[tid] = 14364 - 7 +
// 14364 = 28721 for tid >= 8, the sum 24 * 14357 more: 836360.
// RUN: awk '{l[NR] = $0} /^ *gpu.barrier$/{last = NR} END {for (i = 1; i <= NR; i++) if (i != last) print l[i]}' %t.pipelined.mlir > %t.no-epilogue-barrier.mlir
// RUN: apipe-run %t.no-epilogue-barrier.mlir --no-racecheck --completion=lazy --schedule=forward | FileCheck %s --check-prefix=WRONG
// WRONG: [28721,  28721,  28721,  28721,  28721,  28721,  28721,  28721,  32,  33,  34,  35,  36,  37,  38,  39]
// WRONG-NEXT: 836360

// CHECK: [14364,  14364,  14364,  14364,  14364,  14364,  14364,  14364,  32,  33,  34,  35,  36,  37,  38,  39]
// CHECK-NEXT: 491792
// CHECK-NOT: {{.}}

module attributes {gpu.container_module} {
// @kernels
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 4096 : index
    %A = memref.alloc() : memref<4096xf32>
    %G = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<4096xf32>
    }
    scf.for %i = %c0 to %c256 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %G[%i] : memref<256xf32>
    }
    gpu.launch_func @k::@global_after blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : memref<4096xf32>, %G : memref<256xf32>)
    %part = memref.subview %G[24] [16] [1] : memref<256xf32> to memref<16xf32, strided<[1], offset: 24>>
    %u = memref.cast %part : memref<16xf32, strided<[1], offset: 24>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %s0 = arith.constant 0 : i64
    %sum = scf.for %i = %c0 to %c256 step %c1 iter_args(%s = %s0) -> (i64) {
      %v = memref.load %G[%i] : memref<256xf32>
      %vi = arith.fptosi %v : f32 to i64
      %t = arith.addi %s, %vi : i64
      scf.yield %t : i64
    }
    call @printI64(%sum) : (i64) -> ()
    call @printNewline() : () -> ()
    memref.dealloc %A : memref<4096xf32>
    memref.dealloc %G : memref<256xf32>
    return
  }
}
