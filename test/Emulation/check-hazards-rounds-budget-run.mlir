// The two kernels of test/Analysis/check-hazards-rounds-budget.mlir
// (@huge_pending, @huge_pending_commit) are broken: the `wait_group 65536`
// in their inner loop waits for nothing, and no barrier separates the reads
// of the tile from the next copies into it. They fail under apipe-run with
// the race checker, which reports the three hazards the checker reports:
// the read of the thread's own copy still in flight (read-after-write, the
// 'vector.load'), the next copy over its own copy in flight
// (write-after-write, 'apipe.copy' and 'apipe.copy') and the copy over a row
// another thread is still reading (WAR across threads, no gpu.barrier).
// Launch: one block of 32 threads (rows 0 and 1 of the 16 x 64 tile: thread
// t copies B[16k + t / 16, 4 (t mod 16) ..] in outer iteration k), B
// 2048 x 2048 of ones passed as both arguments (%A is not used), in lazy and
// eager completion and forward and reverse order.
//
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@huge_pending\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards-rounds-budget.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @plain /' -e '/CHECK/d' > %t.plain
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@huge_pending_commit\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards-rounds-budget.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @commit /' -e '/CHECK/d' > %t.commit
// RUN: sed -e '/^\/\/ @plain$/r %t.plain' -e '/^\/\/ @commit$/r %t.commit' %s > %t.mlir
// RUN: grep -c '^ *gpu.func @huge_pending' %t.mlir | FileCheck %s --check-prefix=EXTRACTED
// EXTRACTED: 2
//
// RUN: not apipe-run %t.mlir --entry=broken_plain 2>&1 | FileCheck %s --check-prefixes=FWD,PLAIN
// RUN: not apipe-run %t.mlir --entry=broken_plain --completion=eager 2>&1 | FileCheck %s --check-prefixes=FWD,PLAIN
// RUN: not apipe-run %t.mlir --entry=broken_commit 2>&1 | FileCheck %s --check-prefixes=FWD,COMMIT
// RUN: not apipe-run %t.mlir --entry=broken_commit --completion=eager 2>&1 | FileCheck %s --check-prefixes=FWD,COMMIT
// FWD: error: thread (0,0,0) of block (0,0,0) reads shared memory byte 4096 (byte 0 of the workgroup buffer at {{.*}}) that its own asynchronous copy still in flight writes: no wait completes the copy first ('vector.load' and 'apipe.copy')
// FWD: error: thread (0,0,0) of block (0,0,0) writes shared memory byte 4096 (byte 0 of the workgroup buffer at {{.*}}) that its own asynchronous copy still in flight writes: no wait completes the copy first ('apipe.copy' and 'apipe.copy')
// FWD: error: race (WAR) on shared memory byte 4352 (byte 256 of the workgroup buffer at {{.*}}): thread (16,0,0) of block (0,0,0) writes it, and thread (0,0,0) reads it with no gpu.barrier between ('apipe.copy' and 'vector.load')
// PLAIN: warning: copies on queue 0 were never committed
// COMMIT-NOT: never committed
// FWD: error: the kernel has races (see above)
// RUN: not apipe-run %t.mlir --entry=broken_plain --schedule=reverse 2>&1 | FileCheck %s --check-prefix=REV
// RUN: not apipe-run %t.mlir --entry=broken_commit --schedule=reverse --completion=eager 2>&1 | FileCheck %s --check-prefix=REV
// REV: error: thread (31,0,0) of block (0,0,0) reads shared memory byte 4592 {{.*}} that its own asynchronous copy still in flight writes: no wait completes the copy first ('vector.load' and 'apipe.copy')
// REV: error: thread (31,0,0) of block (0,0,0) writes shared memory byte 4592 {{.*}} that its own asynchronous copy still in flight writes: no wait completes the copy first ('apipe.copy' and 'apipe.copy')
// REV: error: race (WAR) on shared memory byte 4336 {{.*}}: thread (15,0,0) of block (0,0,0) writes it, and thread (31,0,0) reads it with no gpu.barrier between ('apipe.copy' and 'vector.load')
// REV: error: the kernel has races (see above)

module attributes {gpu.container_module} {
// @plain
// @commit
  func.func @launch(%which: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %one = arith.constant 1.0 : f32
    %b = memref.alloc() : memref<2048x2048xf32>
    linalg.fill ins(%one : f32) outs(%b : memref<2048x2048xf32>)
    %plain = arith.cmpi eq, %which, %c0 : index
    scf.if %plain {
      gpu.launch_func @plain::@huge_pending blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%b : memref<2048x2048xf32>, %b : memref<2048x2048xf32>)
    } else {
      gpu.launch_func @commit::@huge_pending_commit blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%b : memref<2048x2048xf32>, %b : memref<2048x2048xf32>)
    }
    memref.dealloc %b : memref<2048x2048xf32>
    return
  }

  func.func @broken_plain() {
    %c0 = arith.constant 0 : index
    func.call @launch(%c0) : (index) -> ()
    return
  }

  func.func @broken_commit() {
    %c1 = arith.constant 1 : index
    func.call @launch(%c1) : (index) -> ()
    return
  }
}
