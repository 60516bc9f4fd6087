// The kernel of test/Transforms/software-pipeline-user-barriers.mlir
// (@rotate, its own barriers kept by the pipeliner) runs end to end in one
// block of 128 threads (a 512-float tile, 4 floats a thread, 16 tiles)
// after apipe-software-pipeline="num-stages=2" (the options of that test's
// RUN lines), in lazy, eager and random completion and two schedules with
// the race checker on, and prints what apipe-make-sync of the input prints
// (the input's copies are synchronous: no commit, no wait; it runs as its
// make-sync form). src[i] = i, dst zero before the launch.
//
// Thread x of tile t stores src[512 t + (4 x + 4) mod 512] to
// dst[512 t + 4 x] (one float of its neighbour's four). The driver prints
// dst[504..520) = [508, 0, 0, 0, 0, 0, 0, 0, 516, 0, 0, 0, 520, 0, 0, 0]
// (x = 127 reads the first float of the tile) and the sum of dst:
// 128 * 512 * (0 + ... + 15) + 16 * 4 * (0 + ... + 127) = 7864320 + 520192
// = 8384512.
//
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Transforms/software-pipeline-user-barriers.mlir > %t.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.kernel' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - | grep -v base@ > %t.sync
// RUN: FileCheck %s < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.expected
// RUN: apipe-opt %t.mlir --apipe-software-pipeline="num-stages=2" 2>/dev/null > %t.pipelined.mlir
// RUN: apipe-run %t.pipelined.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.pipelined.out
// RUN: diff %t.expected %t.pipelined.out
// The token form and its mbarrier form print the same:
// RUN: apipe-opt %t.mlir --apipe-software-pipeline="num-stages=2 sync=tokens" 2>/dev/null > %t.tokens.mlir
// RUN: apipe-run %t.tokens.mlir --completion=lazy,eager,random:1 --schedule=forward,random:2 | grep -v -e '^// apipe-run' -e base@ > %t.tokens.out
// RUN: diff %t.expected %t.tokens.out
// RUN: apipe-opt %t.tokens.mlir --apipe-tokens-to-mbarrier | apipe-run - --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.mbarrier.out
// RUN: diff %t.expected %t.mbarrier.out
//
// Broken twins (synchronous, apipe-make-sync of the input less one user
// barrier): without the barrier after the copy a thread reads its
// neighbour's floats with no barrier after the neighbour's copy (RAW);
// without the one after the reads the next tile's copy overwrites floats a
// neighbour may still read (WAR):
// RUN: sed -e '0,/^ *gpu.barrier$/{/^ *gpu.barrier$/d}' %t.mlir | apipe-opt --apipe-make-sync > %t.no-first.mlir
// RUN: not apipe-run %t.no-first.mlir 2>&1 | FileCheck %s --check-prefix=RAW
// RUN: not apipe-run %t.no-first.mlir --schedule=reverse 2>&1 | FileCheck %s --check-prefix=RAW
// RAW: error: race (RAW) on shared memory byte
// RUN: awk '/^ *gpu.barrier$/{n++; if (n == 2) next} {print}' %t.mlir | apipe-opt --apipe-make-sync > %t.no-second.mlir
// RUN: not apipe-run %t.no-second.mlir 2>&1 | FileCheck %s --check-prefix=WAR
// RUN: not apipe-run %t.no-second.mlir --schedule=reverse 2>&1 | FileCheck %s --check-prefix=WAR
// WAR: error: race (WAR) on shared memory byte

// CHECK: [508,  0,  0,  0,  0,  0,  0,  0,  516,  0,  0,  0,  520,  0,  0,  0]
// CHECK-NEXT: 8384512
// CHECK-NOT: {{.}}

module attributes {gpu.container_module} {
// @kernels
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %n = arith.constant 8192 : index
    %src = memref.alloc() : memref<8192xf32>
    %dst = memref.alloc() : memref<8192xf32>
    %z = arith.constant 0.0 : f32
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %src[%i] : memref<8192xf32>
      memref.store %z, %dst[%i] : memref<8192xf32>
    }
    gpu.launch_func @kernels::@rotate blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%src : memref<8192xf32>, %dst : memref<8192xf32>)
    %part = memref.subview %dst[504] [16] [1] : memref<8192xf32> to memref<16xf32, strided<[1], offset: 504>>
    %u = memref.cast %part : memref<16xf32, strided<[1], offset: 504>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %s0 = arith.constant 0 : i64
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0) -> (i64) {
      %v = memref.load %dst[%i] : memref<8192xf32>
      %vi = arith.fptosi %v : f32 to i64
      %t = arith.addi %s, %vi : i64
      scf.yield %t : i64
    }
    call @printI64(%sum) : (i64) -> ()
    call @printNewline() : () -> ()
    memref.dealloc %src : memref<8192xf32>
    memref.dealloc %dst : memref<8192xf32>
    return
  }
}
