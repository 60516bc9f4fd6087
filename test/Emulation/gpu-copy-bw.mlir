// The copy_bw kernels of examples/ run end to end on the CPU, on 65536
// floats (grid 4, 128 threads per block; the examples' 16777216 becomes
// 65536), in every completion mode and three schedules, with the race
// checker on, and print what their apipe-make-sync versions print: the
// number of elements of dst that differ from src (0) and two of them.
//
// The hand-pipelined kernel (examples/pipelined/copy_bw.mlir):
// RUN: sed -e 's/16777216/65536/g' %apipe_root/examples/pipelined/copy_bw.mlir > %t.hand.kernel
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
// CHECK-COUNT-9: {{^}}0, 345, 535{{$}}
// CHECK-NOT: {{^[0-9-]}}
//
// The kernel as users write it (examples/copy_bw.mlir, no annotations) after
// apipe-software-pipeline with num-stages, against its apipe-make-sync version:
// RUN: sed -e 's/16777216/65536/g' %apipe_root/examples/copy_bw.mlir > %t.in.kernel
// RUN: apipe-opt %t.in.kernel --apipe-software-pipeline="num-stages=3" | sed -e '1d' -e '/^}$/d' > %t.pipe.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.pipe.kernel' %s > %t.pipe.mlir
// RUN: sed -e '/^\/\/ @kernels$/r %t.in.kernel' %s | apipe-opt --apipe-make-sync > %t.in.sync.mlir
// RUN: apipe-run %t.in.sync.mlir --completion=lazy,eager,random:2 --schedule=forward,reverse > %t.in.sync.out
// RUN: apipe-run %t.pipe.mlir --completion=lazy,eager,random:2 --schedule=forward,reverse > %t.pipe.out
// RUN: diff %t.in.sync.out %t.pipe.out
// RUN: FileCheck %s --check-prefix=PIPE < %t.pipe.out
// PIPE-COUNT-6: {{^}}0, 345, 535{{$}}

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
    %c128 = arith.constant 128 : index
    %c1000 = arith.constant 1000 : index
    %c12345 = arith.constant 12345 : index
    %c65535 = arith.constant 65535 : index
    %n = arith.constant 65536 : index
    %i0 = arith.constant 0 : i64
    %src = memref.alloc() : memref<65536xf32>
    %dst = memref.alloc() : memref<65536xf32>
    scf.for %i = %c0 to %n step %c1 {
      %m = arith.remui %i, %c1000 : index
      %mi = arith.index_cast %m : index to i32
      %mf = arith.sitofp %mi : i32 to f32
      memref.store %mf, %src[%i] : memref<65536xf32>
    }
    gpu.launch_func @kernels::@copy_bw blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1) args(%src : memref<65536xf32>, %dst : memref<65536xf32>)
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%n0 = %i0) -> (i64) {
      %a = memref.load %src[%i] : memref<65536xf32>
      %b = memref.load %dst[%i] : memref<65536xf32>
      %ne = arith.cmpf une, %a, %b : f32
      %inc = arith.extui %ne : i1 to i64
      %n1 = arith.addi %n0, %inc : i64
      scf.yield %n1 : i64
    }
    func.call @printI64(%bad) : (i64) -> ()
    %x = memref.load %dst[%c12345] : memref<65536xf32>
    %y = memref.load %dst[%c65535] : memref<65536xf32>
    func.call @printComma() : () -> ()
    func.call @printF32(%x) : (f32) -> ()
    func.call @printComma() : () -> ()
    func.call @printF32(%y) : (f32) -> ()
    func.call @printNewline() : () -> ()
    return
  }
}
