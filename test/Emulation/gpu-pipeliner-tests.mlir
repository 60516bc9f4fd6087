// The GPU input of the pipeliner's tests (test/Transforms/software-pipeline-gpu.mlir,
// @stream_in_gpu_func, one block of 32 threads) runs end to end after
// apipe-software-pipeline, in both of its sync forms, in every completion
// mode and three schedules, with the race checker on.
//
// Its synchronous form races: thread t reads buf[t], which thread t / 4
// copied, with no barrier between (the race checker says so), so its
// apipe-make-sync version has no defined output to compare with. The
// pipeliner's barriers (barriers=true inside gpu.func) after each wait make
// the pipelined kernel race-free; its values are checked directly (out[128 j
// + t] = A[128 j + t] for t < 32, A[i] = i), and the two sync forms print
// the same.
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Transforms/software-pipeline-gpu.mlir > %t.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.kernel' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-make-sync > %t.sync.mlir
// RUN: not apipe-run %t.sync.mlir 2>&1 | FileCheck %s --check-prefix=SYNC-RACE
// SYNC-RACE: error: race (RAW) on shared memory byte 4 {{.*}}: thread (1,0,0) of block (0,0,0) reads it, and thread (0,0,0) writes it with no gpu.barrier between
// RUN: apipe-opt %t.mlir --apipe-software-pipeline > %t.counting.mlir
// RUN: apipe-run %t.counting.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse,random:3 | grep -v base@ > %t.counting.out
// RUN: FileCheck %s --check-prefix=VALUES < %t.counting.out
// VALUES-COUNT-9: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  0,  0,  {{.*}},  0,  128,  129,  130,  131,  132,  133,  134,  135,  136,  137,  138,  139,  140,  141,  142,  143,  144,  145,  146,  147,  148,  149,  150,  151,  152,  153,  154,  155,  156,  157,  158,  159]
// RUN: apipe-opt %t.mlir --apipe-software-pipeline="sync=tokens" > %t.tokens.mlir
// RUN: apipe-run %t.tokens.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse,random:3 | grep -v base@ > %t.tokens.out
// RUN: diff %t.counting.out %t.tokens.out
//
// Without its barriers (barriers=false) the pipelined kernel races.
// RUN: apipe-opt %t.mlir --apipe-software-pipeline="barriers=false" > %t.nobarrier.mlir
// RUN: not apipe-run %t.nobarrier.mlir 2>&1 | FileCheck %s --check-prefix=NOBARRIER
// NOBARRIER: error: race ({{RAW|WAR}}) on shared memory byte

module attributes {gpu.container_module} {
// @kernels
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant 4096 : index
    %A = memref.alloc() : memref<4096xf32>
    %out = memref.alloc() : memref<4096xf32>
    %z = arith.constant 0.0 : f32
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<4096xf32>
      memref.store %z, %out[%i] : memref<4096xf32>
    }
    gpu.launch_func @kernels::@stream_in_gpu_func blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : memref<4096xf32>, %out : memref<4096xf32>)
    %s = memref.subview %out[0] [160] [1] : memref<4096xf32> to memref<160xf32, strided<[1]>>
    %u = memref.cast %s : memref<160xf32, strided<[1]>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
