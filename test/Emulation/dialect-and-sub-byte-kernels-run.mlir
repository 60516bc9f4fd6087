// Two kernels of CHECK-only tests under apipe-run:
// - test/Dialect/mbarrier.mlir @every_mbarrier_op (one of each op of the
//   mbarrier form, a syntax sample, not a correct kernel) runs under the
//   race checker, with 1 thread in each of 2 blocks, which finds its bug in
//   every completion mode and schedule: its apipe.copy writes the bytes its
//   apipe.bulk_copy, still in flight, also writes. (More threads would each
//   init the ring, and threads past 63 index past its 64-row tile.)
// - test/Target/ptx-cp-async-sub-byte.mlir @k copies 32 x i4 (in the
//   emulator's memory, as in LLVM's layout on the host, each i4 element
//   takes a byte) and waits: it runs with 1 thread in every completion mode
//   and two schedules (workgroup memory only: no output); with 2 threads,
//   both copy to the same bytes, a race.
//
// RUN: awk '/^gpu.module @kernels/{on=1} on{print} on && /^}/{exit}' %apipe_root/test/Dialect/mbarrier.mlir > %t.mbarrier
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Target/ptx-cp-async-sub-byte.mlir > %t.subbyte
// RUN: sed -e '/^\/\/ @mbarrier$/r %t.mbarrier' -e '/^  \/\/ Sub-byte/,/^  \/\/ End of sub-byte/d' %s > %t.mlir
// RUN: sed -e '/^\/\/ @subbyte$/r %t.subbyte' -e '/^  \/\/ The mbarrier kernel/,/^  \/\/ Sub-byte/d' %s > %t.subbyte.mlir
// RUN: not apipe-run %t.mlir --entry=mbarrier_one_thread --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=ONE
// ONE-COUNT-2: error: thread (0,0,0) of block ({{0|1}},0,0) writes shared memory byte 4096 (byte 4096 of the workgroup buffer at {{.*}}) that its own asynchronous copy still in flight writes: no wait completes the copy first ('apipe.copy' and 'apipe.bulk_copy')
// ONE: error: the kernel has races (see above)
// RUN: apipe-run %t.subbyte.mlir --entry=sub_byte --completion=lazy,eager,random:1 --schedule=forward,reverse > %t.subbyte.out 2>&1
// RUN: FileCheck %s --check-prefix=SUBBYTE < %t.subbyte.out
// SUBBYTE-COUNT-6: // apipe-run: completion={{.*}}
// SUBBYTE-NOT: {{.}}
// RUN: not apipe-run %t.subbyte.mlir --entry=sub_byte_two_threads 2>&1 | FileCheck %s --check-prefix=SUBBYTE-RACE
// SUBBYTE-RACE: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}}('apipe.copy' and 'apipe.copy')

module attributes {gpu.container_module} {
// @mbarrier
// @subbyte
  // The mbarrier kernel (the sub-byte kernel runs from a module of its own).
  func.func @mbarrier_one_thread() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<2048x2048xf32>
    gpu.launch_func @kernels::@every_mbarrier_op blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<2048x2048xf32>)
    memref.dealloc %A : memref<2048x2048xf32>
    return
  }
  // Sub-byte
  func.func @sub_byte() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %src = memref.alloc() : memref<128x64xi4>
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%src : memref<128x64xi4>, %c2 : index)
    memref.dealloc %src : memref<128x64xi4>
    return
  }
  func.func @sub_byte_two_threads() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %src = memref.alloc() : memref<128x64xi4>
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%src : memref<128x64xi4>, %c2 : index)
    memref.dealloc %src : memref<128x64xi4>
    return
  }
  // End of sub-byte
}
