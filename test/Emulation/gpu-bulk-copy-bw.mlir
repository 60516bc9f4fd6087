// The bulk-copy form of copy_bw (examples/bulk/copy_bw.mlir: one elected
// thread per tile moves its 2 KiB with apipe.bulk_copy after
// apipe.mbarrier_expect_tx; every thread arrives and waits on the tile's
// slot) runs end to end on the CPU on 65536 floats (grid 4, 128 threads per
// block), in every completion mode and three schedules, with the race
// checker on, and prints what apipe-make-sync of the cp.async kernel
// (examples/pipelined/copy_bw.mlir) prints. (apipe-make-sync of the bulk kernel
// itself is no reference: it leaves the elected thread's copy unordered
// with the other threads' reads, which only the removed wait ordered.) the
// number of elements of dst that differ from src (0) and two of them.
// RUN: sed -e 's/16777216/65536/g' %apipe_root/examples/bulk/copy_bw.mlir > %t.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.kernel' %s > %t.mlir
// RUN: sed -e 's/16777216/65536/g' %apipe_root/examples/pipelined/copy_bw.mlir > %t.ref.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.ref.kernel' %s | apipe-opt --apipe-make-sync > %t.sync.mlir
// RUN: apipe-run %t.sync.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse,random:7 > %t.sync.out
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse,random:7 > %t.out
// RUN: diff %t.sync.out %t.out
// RUN: FileCheck %s < %t.out
// CHECK-COUNT-9: {{^}}0, 345, 535{{$}}
// CHECK-NOT: {{^[0-9-]}}
//
// apipe-check-hazards accepts it (slots, phases and transaction bytes), and
// the example assembles for sm_90 (cp.async.bulk needs sm_90; sm_80 is
// refused at the first bulk op):
// RUN: apipe-opt %apipe_root/examples/bulk/copy_bw.mlir --apipe-check-hazards -o /dev/null
// RUN: apipe-translate %apipe_root/examples/bulk/copy_bw.mlir --sm=90 -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.90.ptx
// RUN: %ptxas -arch=sm_90 %t.90.ptx -o %t.90.cubin
// PTX: fence.mbarrier_init.release.cluster;
// PTX-COUNT-3: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// RUN: not apipe-translate %apipe_root/examples/bulk/copy_bw.mlir --sm=80 2>&1 | FileCheck %s --check-prefix=SM80
// SM80: copy_bw.mlir:{{[0-9]+}}:7: error: 'apipe.mbarrier_expect_tx' op needs sm_90

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
