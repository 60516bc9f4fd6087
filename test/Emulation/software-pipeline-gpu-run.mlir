// The kernel of test/Transforms/software-pipeline-gpu.mlir
// (@stream_in_gpu_func, one block of 32 threads, A[i] = i) runs end to end
// after apipe-software-pipeline with every option set of that test's RUN
// lines: the default (barriers=true, counting), sync=tokens
// barriers=conservative and barriers=conservative (counting), each in lazy,
// eager and random completion and two schedules with the race checker on.
// (gpu-pipeliner-tests.mlir runs the default, sync=tokens and the
// tokens-to-mbarrier form.)
//
// The input's synchronous form races (thread t reads buf[t], which thread
// t / 4 copied, with no gpu.barrier between; gpu-pipeliner-tests.mlir checks
// the race report), so the reference is apipe-make-sync of each pipelined
// kernel: the pipeliner's barriers make it race-free. Thread t of step j
// stores A[128 j + t] to out[128 j + t]; the driver prints the 8 x 32 block
// of written values (row j: 128 j .. 128 j + 31) and the sum of `out`,
// sum over j < 8, t < 32 of (128 j + t) = 114688 + 3968 = 118656.
//
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Transforms/software-pipeline-gpu.mlir > %t.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.kernel' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-software-pipeline > %t.min.mlir
// RUN: apipe-opt %t.min.mlir --apipe-make-sync | apipe-run - | grep -v base@ > %t.sync
// RUN: FileCheck %s < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.expected
// RUN: apipe-run %t.min.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.min.out
// RUN: diff %t.expected %t.min.out
// RUN: apipe-opt %t.mlir --apipe-software-pipeline="sync=tokens barriers=conservative" > %t.tokcons.mlir
// RUN: apipe-opt %t.tokcons.mlir --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-run %t.tokcons.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.tokcons.out
// RUN: diff %t.expected %t.tokcons.out
// RUN: apipe-opt %t.mlir --apipe-software-pipeline="barriers=conservative" > %t.cons.mlir
// RUN: apipe-opt %t.cons.mlir --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-run %t.cons.mlir --completion=lazy,eager,random:1 --schedule=forward,random:2 | grep -v -e '^// apipe-run' -e base@ > %t.cons.out
// RUN: diff %t.expected %t.cons.out
// The conservative token form through apipe-tokens-to-mbarrier prints the
// same:
// RUN: apipe-opt %t.tokcons.mlir --apipe-tokens-to-mbarrier | apipe-run - --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.mbarrier.out
// RUN: diff %t.expected %t.mbarrier.out
//
// sync=tokens barriers=false (the NOBAR run of the source test) races:
// RUN: apipe-opt %t.mlir --apipe-software-pipeline="sync=tokens barriers=false" > %t.nobar.mlir
// RUN: not apipe-run %t.nobar.mlir 2>&1 | FileCheck %s --check-prefix=NOBAR
// RUN: not apipe-run %t.nobar.mlir --schedule=reverse 2>&1 | FileCheck %s --check-prefix=NOBAR
// NOBAR: error: race ({{RAW|WAR}}) on shared memory byte

// CHECK: [0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,   11,   12,   13,   14,   15,   16,   17,   18,   19,   20,   21,   22,   23,   24,   25,   26,   27,   28,   29,   30,   31],
// CHECK-NEXT: [128,   129,   130,   131,   132,   133,   134,   135,   136,   137,   138,   139,   140,   141,   142,   143,   144,   145,   146,   147,   148,   149,   150,   151,   152,   153,   154,   155,   156,   157,   158,   159],
// CHECK-NEXT: [256,   257,   258,   259,   260,   261,   262,   263,   264,   265,   266,   267,   268,   269,   270,   271,   272,   273,   274,   275,   276,   277,   278,   279,   280,   281,   282,   283,   284,   285,   286,   287],
// CHECK-NEXT: [384,   385,   386,   387,   388,   389,   390,   391,   392,   393,   394,   395,   396,   397,   398,   399,   400,   401,   402,   403,   404,   405,   406,   407,   408,   409,   410,   411,   412,   413,   414,   415],
// CHECK-NEXT: [512,   513,   514,   515,   516,   517,   518,   519,   520,   521,   522,   523,   524,   525,   526,   527,   528,   529,   530,   531,   532,   533,   534,   535,   536,   537,   538,   539,   540,   541,   542,   543],
// CHECK-NEXT: [640,   641,   642,   643,   644,   645,   646,   647,   648,   649,   650,   651,   652,   653,   654,   655,   656,   657,   658,   659,   660,   661,   662,   663,   664,   665,   666,   667,   668,   669,   670,   671],
// CHECK-NEXT: [768,   769,   770,   771,   772,   773,   774,   775,   776,   777,   778,   779,   780,   781,   782,   783,   784,   785,   786,   787,   788,   789,   790,   791,   792,   793,   794,   795,   796,   797,   798,   799],
// CHECK-NEXT: [896,   897,   898,   899,   900,   901,   902,   903,   904,   905,   906,   907,   908,   909,   910,   911,   912,   913,   914,   915,   916,   917,   918,   919,   920,   921,   922,   923,   924,   925,   926,   927]]
// CHECK-NEXT: 118656
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
    // Rows j = 0..7 of 32 floats at 128 j.
    %rows = memref.reinterpret_cast %out to offset: [0], sizes: [8, 32], strides: [128, 1] : memref<4096xf32> to memref<8x32xf32, strided<[128, 1]>>
    %u = memref.cast %rows : memref<8x32xf32, strided<[128, 1]>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %s0 = arith.constant 0 : i64
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0) -> (i64) {
      %v = memref.load %out[%i] : memref<4096xf32>
      %vi = arith.fptosi %v : f32 to i64
      %t = arith.addi %s, %vi : i64
      scf.yield %t : i64
    }
    call @printI64(%sum) : (i64) -> ()
    call @printNewline() : () -> ()
    memref.dealloc %A : memref<4096xf32>
    memref.dealloc %out : memref<4096xf32>
    return
  }
}
