// The kernels of test/Target/ptx-cp-async.mlir (every cp.async variant
// that apipe-translate emits) run end to end under apipe-run with the race
// checker, in lazy, eager and random completion and two schedules, and
// print what their apipe-make-sync version prints. One block of 32
// threads each; src[i] = i. Each line is the sum of `out` after one
// kernel:
// - cg_sixteen_bytes, ca_sixteen_bytes: out[4t] = 4t, sum 4 * 496 = 1984;
// - ca_eight_bytes: out[2t] = 2t, sum 992;
// - ca_four_bytes_of_i8 (src[i] = i mod 64): out[4t] = 4t mod 64, sum
//   2 * 4 * 120 = 960;
// - zero_fill_dynamic with 0 valid elements: every copied element is
//   zero-filled, sum 0;
// - zero_fill_constant (3 of 4 valid): out[4t] = 4t, sum 1984;
// - three_groups_exact_waits: out[t] = 3 (31 - t) + 96, sum 4560.
//
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Target/ptx-cp-async.mlir > %t.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.kernel' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - > %t.sync
// RUN: FileCheck %s < %t.sync
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v '^// apipe-run' > %t.all
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.expected
// RUN: diff %t.expected %t.all
// CHECK: 1984
// CHECK-NEXT: 1984
// CHECK-NEXT: 992
// CHECK-NEXT: 960
// CHECK-NEXT: 0
// CHECK-NEXT: 1984
// CHECK-NEXT: 4560
// CHECK-NOT: {{.}}

module attributes {gpu.container_module} {
// @kernels
  func.func private @printI64(i64)
  func.func private @printNewline()

  func.func @input() -> memref<1024xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1024 : index
    %src = memref.alloc() : memref<1024xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %src[%i] : memref<1024xf32>
    }
    return %src : memref<1024xf32>
  }

  func.func @zeros() -> memref<1024xf32> {
    %zero = arith.constant 0.0 : f32
    %out = memref.alloc() : memref<1024xf32>
    linalg.fill ins(%zero : f32) outs(%out : memref<1024xf32>)
    return %out : memref<1024xf32>
  }

  // Prints the sum of `out` (an integer: every value is one).
  func.func @report(%out: memref<1024xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1024 : index
    %zero = arith.constant 0.0 : f32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (f32) {
      %v = memref.load %out[%i] : memref<1024xf32>
      %t = arith.addf %s, %v : f32
      scf.yield %t : f32
    }
    %r = arith.fptosi %sum : f32 to i64
    func.call @printI64(%r) : (i64) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %out : memref<1024xf32>
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant 1024 : index
    %src = func.call @input() : () -> memref<1024xf32>

    %o1 = func.call @zeros() : () -> memref<1024xf32>
    gpu.launch_func @kernels::@cg_sixteen_bytes blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%src : memref<1024xf32>, %o1 : memref<1024xf32>)
    func.call @report(%o1) : (memref<1024xf32>) -> ()

    %o2 = func.call @zeros() : () -> memref<1024xf32>
    gpu.launch_func @kernels::@ca_sixteen_bytes blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%src : memref<1024xf32>, %o2 : memref<1024xf32>)
    func.call @report(%o2) : (memref<1024xf32>) -> ()

    %o3 = func.call @zeros() : () -> memref<1024xf32>
    gpu.launch_func @kernels::@ca_eight_bytes blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%src : memref<1024xf32>, %o3 : memref<1024xf32>)
    func.call @report(%o3) : (memref<1024xf32>) -> ()

    // i8: src8[i] = i mod 64; the sum of out8 as f32 through @report.
    %src8 = memref.alloc() : memref<1024xi8>
    %out8 = memref.alloc() : memref<1024xi8>
    %c64 = arith.constant 64 : index
    %z8 = arith.constant 0 : i8
    scf.for %i = %c0 to %n step %c1 {
      %m = arith.remui %i, %c64 : index
      %b = arith.index_cast %m : index to i8
      memref.store %b, %src8[%i] : memref<1024xi8>
      memref.store %z8, %out8[%i] : memref<1024xi8>
    }
    gpu.launch_func @kernels::@ca_four_bytes_of_i8 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%src8 : memref<1024xi8>, %out8 : memref<1024xi8>)
    %o4 = func.call @zeros() : () -> memref<1024xf32>
    scf.for %i = %c0 to %n step %c1 {
      %b = memref.load %out8[%i] : memref<1024xi8>
      %f = arith.sitofp %b : i8 to f32
      memref.store %f, %o4[%i] : memref<1024xf32>
    }
    func.call @report(%o4) : (memref<1024xf32>) -> ()
    memref.dealloc %src8 : memref<1024xi8>
    memref.dealloc %out8 : memref<1024xi8>

    %o5 = func.call @zeros() : () -> memref<1024xf32>
    gpu.launch_func @kernels::@zero_fill_dynamic blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%src : memref<1024xf32>, %o5 : memref<1024xf32>, %c0 : index)
    func.call @report(%o5) : (memref<1024xf32>) -> ()

    %o6 = func.call @zeros() : () -> memref<1024xf32>
    gpu.launch_func @kernels::@zero_fill_constant blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%src : memref<1024xf32>, %o6 : memref<1024xf32>)
    func.call @report(%o6) : (memref<1024xf32>) -> ()

    %o7 = func.call @zeros() : () -> memref<1024xf32>
    gpu.launch_func @kernels::@three_groups_exact_waits blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%src : memref<1024xf32>, %o7 : memref<1024xf32>)
    func.call @report(%o7) : (memref<1024xf32>) -> ()

    memref.dealloc %src : memref<1024xf32>
    return
  }
}
