// The stream_sum kernels of examples/ run end to end on the CPU, on 16384
// floats (grid 4, 32 threads per block; the examples' 1048576 and 8192
// become 16384 and 128), in every completion mode and three schedules, with
// the race checker on, and print what their apipe-make-sync versions print:
// the number of sums that differ from a host reference (0) and three sums.
// Each thread sums its neighbour's part of the tile (so the barriers
// matter).
//
// The hand-pipelined kernel (examples/pipelined/stream_sum.mlir):
// RUN: sed -e 's/1048576/16384/g' -e 's/8192/128/g' %apipe_root/examples/pipelined/stream_sum.mlir > %t.hand.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.hand.kernel' %s > %t.hand.mlir
// RUN: apipe-opt %t.hand.mlir --apipe-make-sync > %t.hand.sync.mlir
// RUN: apipe-run %t.hand.sync.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse,random:7 > %t.hand.sync.out
// RUN: apipe-run %t.hand.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse,random:7 > %t.hand.out
// RUN: diff %t.hand.sync.out %t.hand.out
// RUN: FileCheck %s < %t.hand.out
// The same kernel in the mbarrier form (docs/mbarrier.md) prints what
// make-sync prints.
// RUN: apipe-opt %t.hand.mlir --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier)' | apipe-run --completion=lazy,eager,random:1 --schedule=forward,reverse,random:7 > %t.mbarrier.out
// RUN: diff %t.hand.sync.out %t.mbarrier.out
// CHECK-COUNT-9: {{^}}0, 766, 768, 762{{$}}
// CHECK-NOT: {{^[0-9-]}}
//
// The kernel as users write it (examples/stream_sum.mlir, no annotations) after
// apipe-software-pipeline with num-stages, against its apipe-make-sync version:
// RUN: sed -e 's/1048576/16384/g' -e 's/8192/128/g' %apipe_root/examples/stream_sum.mlir > %t.in.kernel
// RUN: apipe-opt %t.in.kernel --apipe-software-pipeline="num-stages=2" | sed -e '1d' -e '/^}$/d' > %t.pipe.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.pipe.kernel' %s > %t.pipe.mlir
// RUN: sed -e '/^\/\/ @kernels$/r %t.in.kernel' %s | apipe-opt --apipe-make-sync > %t.in.sync.mlir
// RUN: apipe-run %t.in.sync.mlir --completion=lazy,eager,random:2 --schedule=forward,reverse > %t.in.sync.out
// RUN: apipe-run %t.pipe.mlir --completion=lazy,eager,random:2 --schedule=forward,reverse > %t.pipe.out
// RUN: diff %t.in.sync.out %t.pipe.out
// RUN: FileCheck %s --check-prefix=PIPE < %t.pipe.out
// PIPE-COUNT-6: {{^}}0, 766, 768, 762{{$}}

module attributes {gpu.container_module} {
// @kernels
  func.func private @printI64(i64)
  func.func private @printF32(f32)
  func.func private @printComma()
  func.func private @printNewline()

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c13 = arith.constant 13 : index
    %c32 = arith.constant 32 : index
    %c77 = arith.constant 77 : index
    %c127 = arith.constant 127 : index
    %c128 = arith.constant 128 : index
    %c4096 = arith.constant 4096 : index
    %n = arith.constant 16384 : index
    %i0 = arith.constant 0 : i64
    %f0 = arith.constant 0.0 : f32
    %A = memref.alloc() : memref<16384xf32>
    %out = memref.alloc() : memref<128xf32>
    scf.for %i = %c0 to %n step %c1 {
      %m = arith.remui %i, %c13 : index
      %mi = arith.index_cast %m : index to i32
      %mf = arith.sitofp %mi : i32 to f32
      memref.store %mf, %A[%i] : memref<16384xf32>
    }
    gpu.launch_func @kernels::@stream_sum blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : memref<16384xf32>, %out : memref<128xf32>)
    // out[32 b + t] = sum over tiles j of A[4096 b + 128 j + 4 ((t + 1) mod 32) + k], k < 4.
    %bad = scf.for %s = %c0 to %c128 step %c1 iter_args(%n0 = %i0) -> (i64) {
      %b = arith.divui %s, %c32 : index
      %t = arith.remui %s, %c32 : index
      %t1 = arith.addi %t, %c1 : index
      %nb = arith.remui %t1, %c32 : index
      %lane = arith.muli %nb, %c4 : index
      %base = arith.muli %b, %c4096 : index
      %ref = scf.for %j = %c0 to %c32 step %c1 iter_args(%acc = %f0) -> (f32) {
        %tile = arith.muli %j, %c128 : index
        %o = arith.addi %base, %tile : index
        %o2 = arith.addi %o, %lane : index
        %part = scf.for %k = %c0 to %c4 step %c1 iter_args(%p = %acc) -> (f32) {
          %i = arith.addi %o2, %k : index
          %x = memref.load %A[%i] : memref<16384xf32>
          %p2 = arith.addf %p, %x : f32
          scf.yield %p2 : f32
        }
        scf.yield %part : f32
      }
      %got = memref.load %out[%s] : memref<128xf32>
      %ne = arith.cmpf une, %got, %ref : f32
      %inc = arith.extui %ne : i1 to i64
      %n1 = arith.addi %n0, %inc : i64
      scf.yield %n1 : i64
    }
    func.call @printI64(%bad) : (i64) -> ()
    %x = memref.load %out[%c0] : memref<128xf32>
    %y = memref.load %out[%c127] : memref<128xf32>
    %z = memref.load %out[%c77] : memref<128xf32>
    func.call @printComma() : () -> ()
    func.call @printF32(%x) : (f32) -> ()
    func.call @printComma() : () -> ()
    func.call @printF32(%y) : (f32) -> ()
    func.call @printComma() : () -> ()
    func.call @printF32(%z) : (f32) -> ()
    func.call @printNewline() : () -> ()
    return
  }
}
