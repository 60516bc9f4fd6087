// The gpu.func kernels of test/Transforms/tokens-to-mbarrier.mlir and
// tokens-to-mbarrier-invalid.mlir run end to end under apipe-run, in lazy,
// eager and random completion and two schedules, and print what their
// apipe-make-sync version prints: the token-form input, and where
// apipe-tokens-to-mbarrier accepts the kernel, its mbarrier-form output.
// The kernels write only shared memory: each run must be race-free and
// deadlock-free (exit 0) and print only the driver's "done".
// - @divergent_copy_and_wait (accepted), 32 threads: thread 0 copies
//   A[0..3], every thread commits (arrives), only thread 0 waits;
// - @device_function (refused: a device function that commits groups),
//   made a kernel by adding `kernel` (a gpu.func that is not a kernel can
//   neither be launched nor called with func.call), 32 threads: an empty
//   group committed and waited; as a kernel the pass accepts it;
// - @commit_under_thread_condition (refused), 32 threads: thread 0
//   copies, commits and waits;
// - @commit_in_thread_dependent_loop (refused), 8 threads, %n = 3: thread
//   t commits and waits t mod 3 empty groups.
// @kernel_ring (tokens-to-mbarrier.mlir), 64 threads (4 floats each), is
// racy as written: its first loop iteration copies into buffer version 0
// while the prologue's copy into it is in flight (the write-after-write
// that check-hazards-mbarrier.mlir's TOKENS lines expect). The race
// checker reports it in both forms, in every mode; without the checker
// (both copies write the same values) it runs in every mode and prints
// what make-sync prints.
//
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@kernel_ring\(/) print b; on=0}' %apipe_root/test/Transforms/tokens-to-mbarrier.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @kernel_ring /' > %t.kernel_ring
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@divergent_copy_and_wait\(/) print b; on=0}' %apipe_root/test/Transforms/tokens-to-mbarrier-invalid.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @divergent /' -e '/expected-/d' > %t.divergent
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@device_function\(/) print b; on=0}' %apipe_root/test/Transforms/tokens-to-mbarrier-invalid.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @device_function /' -e '/expected-/d' -e 's/gpu.func @device_function() {/gpu.func @device_function() kernel {/' > %t.device_function
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@commit_under_thread_condition\(/) print b; on=0}' %apipe_root/test/Transforms/tokens-to-mbarrier-invalid.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @under_condition /' -e '/expected-/d' > %t.under_condition
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@commit_in_thread_dependent_loop\(/) print b; on=0}' %apipe_root/test/Transforms/tokens-to-mbarrier-invalid.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @dependent_loop /' -e '/expected-/d' > %t.dependent_loop
// RUN: sed -e '/^\/\/ @kernel_ring$/r %t.kernel_ring' -e '/^\/\/ @divergent$/r %t.divergent' -e '/^\/\/ @device_function$/r %t.device_function' -e '/^\/\/ @under_condition$/r %t.under_condition' -e '/^\/\/ @dependent_loop$/r %t.dependent_loop' %s > %t.mlir
// The accepted kernels alone (the refused ones and their launches cut),
// through apipe-tokens-to-mbarrier:
// RUN: sed -e '/^\/\/ BEGIN refused$/,/^\/\/ END refused$/d' -e '/\/\/ refused$/d' %t.mlir | apipe-opt --apipe-tokens-to-mbarrier -o %t.mbarrier.mlir
// RUN: FileCheck %s --check-prefix=MBARRIER < %t.mbarrier.mlir
// MBARRIER-COUNT-3: apipe.mbarrier_init
// MBARRIER-NOT: apipe.commit_group
//
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - > %t.sync
// RUN: FileCheck %s < %t.sync
// CHECK: done
// CHECK-NOT: {{.}}
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v '^// apipe-run' > %t.all
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.expected
// RUN: diff %t.expected %t.all
// RUN: apipe-run %t.mbarrier.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v '^// apipe-run' > %t.mbarrier.all
// RUN: diff %t.expected %t.mbarrier.all
//
// @kernel_ring:
// RUN: not apipe-run %t.mlir --entry=ring --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=WAW
// RUN: not apipe-run %t.mbarrier.mlir --entry=ring --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=WAW
// WAW-COUNT-6: error: thread ({{0|63}},0,0) of block (0,0,0) writes shared memory byte {{0|1008}} (byte {{0|1008}} of the workgroup buffer at {{.*}}) that its own asynchronous copy still in flight writes: no wait completes the copy first ('apipe.copy' and 'apipe.copy')
// WAW-NOT: done
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - --entry=ring > %t.ring.sync
// RUN: FileCheck %s < %t.ring.sync
// RUN: apipe-run %t.mlir --entry=ring --no-racecheck --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v '^// apipe-run' > %t.ring.all
// RUN: cat %t.ring.sync %t.ring.sync %t.ring.sync %t.ring.sync %t.ring.sync %t.ring.sync > %t.ring.expected
// RUN: diff %t.ring.expected %t.ring.all
// RUN: apipe-run %t.mbarrier.mlir --entry=ring --no-racecheck --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v '^// apipe-run' > %t.ring.mbarrier.all
// RUN: diff %t.ring.expected %t.ring.mbarrier.all

module attributes {gpu.container_module} {
// @kernel_ring
// @divergent
// @device_function
// BEGIN refused
// @under_condition
// @dependent_loop
  func.func @run_refused(%small: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @under_condition::@commit_under_thread_condition blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%small : memref<64xf32>)
    gpu.launch_func @dependent_loop::@commit_in_thread_dependent_loop blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%c3 : index)
    return
  }
// END refused
  func.func private @printString(!llvm.ptr)
  func.func private @printNewline()
  llvm.mlir.global internal constant @done("done\00") {addr_space = 0 : i32}

  // @kernel_ring alone, 64 threads (4 floats each: the 256 floats of a
  // buffer version).
  func.func @ring() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c1024 = arith.constant 1024 : index
    %a = memref.alloc() : memref<1024xf32>
    scf.for %i = %c0 to %c1024 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %a[%i] : memref<1024xf32>
    }
    gpu.launch_func @kernel_ring::@kernel_ring blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<1024xf32>)
    %done = llvm.mlir.addressof @done : !llvm.ptr
    func.call @printString(%done) : (!llvm.ptr) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %a : memref<1024xf32>
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %small = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %small[%i] : memref<64xf32>
    }
    gpu.launch_func @divergent::@divergent_copy_and_wait blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%small : memref<64xf32>)
    gpu.launch_func @device_function::@device_function blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
    func.call @run_refused(%small) : (memref<64xf32>) -> () // refused
    %done = llvm.mlir.addressof @done : !llvm.ptr
    func.call @printString(%done) : (!llvm.ptr) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %small : memref<64xf32>
    return
  }
}
