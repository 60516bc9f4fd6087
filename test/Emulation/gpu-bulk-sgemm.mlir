// The bulk-copy form of sgemm (examples/bulk/sgemm.mlir: one elected thread
// per tile row moves the row with apipe.bulk_copy after
// apipe.mbarrier_expect_tx of its bytes; every thread arrives and waits on
// the K tile's slot) runs end to end on the CPU at 128x128x128 (grid 2x2,
// 256 threads per block), in every completion mode and three schedules,
// with the race checker on, and prints what its apipe-make-sync version
// prints: the number of elements of C that differ from a host reference (0)
// and three of them.
// RUN: sed -e 's/arith.constant 128 : index/arith.constant 8 : index/' -e 's/2048/128/g' %apipe_root/examples/bulk/sgemm.mlir > %t.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.kernel' %s > %t.mlir
// RUN: sed -e 's/arith.constant 128 : index/arith.constant 8 : index/' -e 's/2048/128/g' %apipe_root/examples/pipelined/sgemm.mlir > %t.ref.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.ref.kernel' %s | apipe-opt --apipe-make-sync > %t.sync.mlir
// RUN: apipe-run %t.sync.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse,random:7 > %t.sync.out
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse,random:7 > %t.out
// RUN: diff %t.sync.out %t.out
// RUN: FileCheck %s < %t.out
// CHECK-COUNT-9: {{^}}0, -2, 4, 4{{$}}
// CHECK-NOT: {{^[0-9-]}}
//
// apipe-check-hazards accepts it, and it assembles for sm_90:
// RUN: apipe-opt %apipe_root/examples/bulk/sgemm.mlir --apipe-check-hazards -o /dev/null
// RUN: apipe-translate %apipe_root/examples/bulk/sgemm.mlir --sm=90 -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.90.ptx
// RUN: %ptxas -arch=sm_90 %t.90.ptx -o %t.90.cubin
// PTX: fence.mbarrier_init.release.cluster;
// PTX-COUNT-6: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes

module attributes {gpu.container_module} {
// @kernels
  func.func private @printI64(i64)
  func.func private @printF32(f32)
  func.func private @printComma()
  func.func private @printNewline()

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c64 = arith.constant 64 : index
    %c100 = arith.constant 100 : index
    %c127 = arith.constant 127 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %f0 = arith.constant 0.0 : f32
    %i0 = arith.constant 0 : i64
    %A = memref.alloc() : memref<128x128xf32>
    %B = memref.alloc() : memref<128x128xf32>
    %C = memref.alloc() : memref<128x128xf32>
    // A[i][j] = (i + 2j) mod 7 - 3, B[i][j] = (3i + j) mod 5 - 2.
    scf.for %i = %c0 to %c128 step %c1 {
      scf.for %j = %c0 to %c128 step %c1 {
        %j2 = arith.muli %j, %c2 : index
        %s = arith.addi %i, %j2 : index
        %m = arith.remui %s, %c7 : index
        %a = arith.subi %m, %c3 : index
        %ai = arith.index_cast %a : index to i32
        %af = arith.sitofp %ai : i32 to f32
        memref.store %af, %A[%i, %j] : memref<128x128xf32>
        %i3 = arith.muli %i, %c3 : index
        %t = arith.addi %i3, %j : index
        %n = arith.remui %t, %c5 : index
        %b = arith.subi %n, %c2 : index
        %bi = arith.index_cast %b : index to i32
        %bf = arith.sitofp %bi : i32 to f32
        memref.store %bf, %B[%i, %j] : memref<128x128xf32>
      }
    }
    gpu.launch_func @kernels::@sgemm blocks in (%c2, %c2, %c1) threads in (%c256, %c1, %c1) args(%A : memref<128x128xf32>, %B : memref<128x128xf32>, %C : memref<128x128xf32>)
    // Elements of C that differ from the host's product.
    %bad = scf.for %i = %c0 to %c128 step %c1 iter_args(%n0 = %i0) -> (i64) {
      %row = scf.for %j = %c0 to %c128 step %c1 iter_args(%n1 = %n0) -> (i64) {
        %ref = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %f0) -> (f32) {
          %a = memref.load %A[%i, %k] : memref<128x128xf32>
          %b = memref.load %B[%k, %j] : memref<128x128xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        %c = memref.load %C[%i, %j] : memref<128x128xf32>
        %ne = arith.cmpf une, %c, %ref : f32
        %inc = arith.extui %ne : i1 to i64
        %n2 = arith.addi %n1, %inc : i64
        scf.yield %n2 : i64
      }
      scf.yield %row : i64
    }
    func.call @printI64(%bad) : (i64) -> ()
    %x = memref.load %C[%c5, %c7] : memref<128x128xf32>
    %y = memref.load %C[%c127, %c0] : memref<128x128xf32>
    %z = memref.load %C[%c64, %c100] : memref<128x128xf32>
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
