// The double-buffered kernel of examples/double_buffer_counting.mlir (one
// block of 32 threads) runs end to end in every completion mode and three
// schedules, with the race checker on, and prints what its apipe-make-sync
// version prints: the number of sums that differ from a host reference
// (out[t] = sum over tiles j < 8 of A[128 j + t], A[i] = i mod 13) and three
// sums. Through counting-to-tokens (token form) it prints the same.
//
// RUN: sed -e '/^\/\/ @kernels$/r %apipe_root/examples/double_buffer_counting.mlir' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-make-sync > %t.sync.mlir
// RUN: apipe-run %t.sync.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse,random:7 > %t.sync.out
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse,random:7 > %t.out
// RUN: diff %t.sync.out %t.out
// RUN: FileCheck %s < %t.out
// CHECK-COUNT-9: {{^}}0, 48, 49, 49{{$}}
// RUN: apipe-opt %t.mlir --apipe-counting-to-tokens | apipe-run --completion=lazy,eager,random:3 --schedule=forward,reverse > %t.tokens.out
// RUN: FileCheck %s --check-prefix=TOKENS < %t.tokens.out
// TOKENS-COUNT-6: {{^}}0, 48, 49, 49{{$}}

module attributes {gpu.container_module} {
// @kernels
  func.func private @printI64(i64)
  func.func private @printF32(f32)
  func.func private @printComma()
  func.func private @printNewline()

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %c13 = arith.constant 13 : index
    %c31 = arith.constant 31 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %n = arith.constant 4096 : index
    %i0 = arith.constant 0 : i64
    %f0 = arith.constant 0.0 : f32
    %A = memref.alloc() : memref<4096xf32>
    %out = memref.alloc() : memref<128xf32>
    scf.for %i = %c0 to %n step %c1 {
      %m = arith.remui %i, %c13 : index
      %mi = arith.index_cast %m : index to i32
      %mf = arith.sitofp %mi : i32 to f32
      memref.store %mf, %A[%i] : memref<4096xf32>
    }
    gpu.launch_func @kernels::@stream_sum blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : memref<4096xf32>, %out : memref<128xf32>)
    %bad = scf.for %t = %c0 to %c32 step %c1 iter_args(%n0 = %i0) -> (i64) {
      %ref = scf.for %j = %c0 to %c8 step %c1 iter_args(%acc = %f0) -> (f32) {
        %base = arith.muli %j, %c128 : index
        %i = arith.addi %base, %t : index
        %x = memref.load %A[%i] : memref<4096xf32>
        %s = arith.addf %acc, %x : f32
        scf.yield %s : f32
      }
      %got = memref.load %out[%t] : memref<128xf32>
      %ne = arith.cmpf une, %got, %ref : f32
      %inc = arith.extui %ne : i1 to i64
      %n1 = arith.addi %n0, %inc : i64
      scf.yield %n1 : i64
    }
    func.call @printI64(%bad) : (i64) -> ()
    %x = memref.load %out[%c0] : memref<128xf32>
    %y = memref.load %out[%c5] : memref<128xf32>
    %z = memref.load %out[%c31] : memref<128xf32>
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
