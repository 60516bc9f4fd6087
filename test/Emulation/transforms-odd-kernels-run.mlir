// The gpu.func kernels of three test/Transforms tests run end to end under
// apipe-run with the race checker, in lazy, eager and random completion and
// two schedules, and print what their apipe-make-sync version prints, as
// they are and after the passes those tests exercise:
// - conversion-odd-shapes.mlir @kernel_wait_without_commits (a wait with
//   no group, queue 3) and @kernel (one empty group and its wait), 2 blocks
//   x 32 threads each;
// - counting-tokens-entry-groups.mlir @kernel_group_on_one_path (c = true,
//   then c = false; 2 blocks x 32 threads) and @kernel_no_op_wait (a
//   wait_group 1 that waits for nothing: the copy is still in flight at
//   gpu.return, and lands when the kernel ends; i = 0, src[j] = j + 1, so
//   buf = [1, 2, 3, 4]). Its buf is a kernel argument that every thread
//   copies to at the same place (i is uniform): 1 block x 1 thread;
// - select-sync.mlir @divergent (a commit under tid == 0, so the paths
//   commit 0 or 1 groups after the waited group), 2 blocks x 1 thread: every
//   thread copies A[0..4] to the same bytes of the block's buffer, so 2
//   threads in a block race (WAW), as checked below. It writes only
//   workgroup memory.
// Output: buf of @kernel_no_op_wait, then "done".
//
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@kernel_wait_without_commits\(/) print b; on=0}' %apipe_root/test/Transforms/conversion-odd-shapes.mlir | sed -e 's/^gpu.module @m /gpu.module @odd_wait /' > %t.odd_wait
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@kernel\(/) print b; on=0}' %apipe_root/test/Transforms/conversion-odd-shapes.mlir | sed -e 's/^gpu.module @kernels /gpu.module @odd_kernel /' > %t.odd_kernel
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@kernel_group_on_one_path\(/) print b; on=0}' %apipe_root/test/Transforms/counting-tokens-entry-groups.mlir | sed -e 's/^gpu.module @m /gpu.module @one_path /' > %t.one_path
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@kernel_no_op_wait\(/) print b; on=0}' %apipe_root/test/Transforms/counting-tokens-entry-groups.mlir | sed -e 's/^gpu.module @m /gpu.module @no_op_wait /' > %t.no_op_wait
// RUN: awk '/^  gpu.module @kernels /{on=1} on{print} /^  }/{on=0}' %apipe_root/test/Transforms/select-sync.mlir | sed -e 's/^  gpu.module @kernels /  gpu.module @divergent /' -e '/expected-/d' > %t.divergent
// RUN: sed -e '/^\/\/ @odd_wait$/r %t.odd_wait' -e '/^\/\/ @odd_kernel$/r %t.odd_kernel' -e '/^\/\/ @one_path$/r %t.one_path' -e '/^\/\/ @no_op_wait$/r %t.no_op_wait' -e '/^\/\/ @divergent$/r %t.divergent' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - | grep -v base@ > %t.ref
// RUN: FileCheck %s < %t.ref
// CHECK: [1,  2,  3,  4]
// CHECK-NEXT: done
// CHECK-NOT: {{.}}
// RUN: cat %t.ref %t.ref %t.ref %t.ref %t.ref %t.ref > %t.expected
// As is:
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v '^// apipe-run' | grep -v base@ > %t.all
// RUN: diff %t.expected %t.all
// counting-to-tokens (both source tests):
// RUN: apipe-opt %t.mlir --apipe-counting-to-tokens > %t.tokens.mlir
// RUN: FileCheck %s --check-prefix=TOKENS < %t.tokens.mlir
// TOKENS-LABEL: gpu.func @kernel_wait_without_commits
// TOKENS-NEXT: %[[R:.*]] = apipe.ready queue 3{{$}}
// TOKENS-NEXT: apipe.wait %[[R]]{{$}}
// TOKENS-LABEL: gpu.func @kernel_no_op_wait
// TOKENS: apipe.ready
// RUN: apipe-run %t.tokens.mlir --completion=lazy,eager,random:2 --schedule=forward,reverse | grep -v '^// apipe-run' | grep -v base@ > %t.tokens.all
// RUN: diff %t.expected %t.tokens.all
// The round trip, strict, once and twice, of the kernels in counting form
// (not @divergent, token form with an inexact count, which strict=true
// refuses by design: the launch is left out):
// RUN: sed -e '/^\/\/ @odd_wait$/r %t.odd_wait' -e '/^\/\/ @odd_kernel$/r %t.odd_kernel' -e '/^\/\/ @one_path$/r %t.one_path' -e '/^\/\/ @no_op_wait$/r %t.no_op_wait' -e '/@divergent::@divergent/d' %s > %t.counting.mlir
// RUN: apipe-opt %t.counting.mlir --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-counting{strict=true})' | apipe-run - --completion=lazy,eager,random:3 --schedule=forward,reverse | grep -v '^// apipe-run' | grep -v base@ > %t.rt.all
// RUN: diff %t.expected %t.rt.all
// RUN: apipe-opt %t.counting.mlir --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-counting{strict=true},apipe-counting-to-tokens,apipe-tokens-to-counting{strict=true})' | apipe-run - --completion=lazy,eager,random:4 --schedule=forward,random:5 | grep -v '^// apipe-run' | grep -v base@ > %t.rt2.all
// RUN: diff %t.expected %t.rt2.all
// merge-queues:
// RUN: apipe-opt %t.mlir --apipe-merge-queues | apipe-run - --completion=lazy,eager,random:6 --schedule=forward,reverse | grep -v '^// apipe-run' | grep -v base@ > %t.merge.all
// RUN: diff %t.expected %t.merge.all
// select-sync alone, and select-sync's lowering (select-sync.mlir):
// RUN: apipe-opt %t.mlir --apipe-select-sync 2>/dev/null | apipe-run - --completion=lazy,eager,random:7 --schedule=forward,reverse | grep -v '^// apipe-run' | grep -v base@ > %t.select.all
// RUN: diff %t.expected %t.select.all
// RUN: apipe-opt %t.mlir --pass-pipeline='builtin.module(apipe-select-sync,apipe-tokens-to-counting,apipe-merge-queues)' 2>/dev/null > %t.lowered.mlir
// RUN: FileCheck %s --check-prefix=LOWERED < %t.lowered.mlir
// LOWERED-LABEL: gpu.func @divergent
// LOWERED-NOT: mbarrier
// LOWERED: apipe.wait_group 0
// RUN: apipe-run %t.lowered.mlir --completion=lazy,eager,random:8 --schedule=forward,reverse | grep -v '^// apipe-run' | grep -v base@ > %t.lowered.all
// RUN: diff %t.expected %t.lowered.all
//
// @divergent with 2 threads in a block: both copy A[0..4] to buf[0, 0..4].
// RUN: not apipe-run %t.mlir --entry=divergent_two_threads 2>&1 | FileCheck %s --check-prefix=TWO-THREADS
// TWO-THREADS: error: race (WAW) on shared memory byte 0 (byte 0 of the workgroup buffer at {{.*}}): thread ({{0|1}},0,0) of block (0,0,0) writes it, and thread ({{1|0}},0,0) writes it with no gpu.barrier between ('apipe.copy' and 'apipe.copy')

module attributes {gpu.container_module} {
// @odd_wait
// @odd_kernel
// @one_path
// @no_op_wait
// @divergent
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printString(!llvm.ptr)
  func.func private @printNewline()
  llvm.mlir.global internal constant @done_text("done\00") {addr_space = 0 : i32}

  // src[j] = j + 1, 64 elements.
  func.func @input() -> memref<64xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %one = arith.constant 1.0 : f32
    %a = memref.alloc() : memref<64xf32>
    scf.for %j = %c0 to %c64 step %c1 {
      %jj = arith.index_cast %j : index to i32
      %f = arith.sitofp %jj : i32 to f32
      %g = arith.addf %f, %one : f32
      memref.store %g, %a[%j] : memref<64xf32>
    }
    return %a : memref<64xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %true = arith.constant true
    %false = arith.constant false
    %zero = arith.constant 0.0 : f32
    %src = func.call @input() : () -> memref<64xf32>

    gpu.launch_func @odd_wait::@kernel_wait_without_commits blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
    gpu.launch_func @odd_kernel::@kernel blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
    gpu.launch_func @one_path::@kernel_group_on_one_path blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1) args(%true : i1)
    gpu.launch_func @one_path::@kernel_group_on_one_path blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1) args(%false : i1)

    %buf = memref.alloc() : memref<4xf32, 3>
    linalg.fill ins(%zero : f32) outs(%buf : memref<4xf32, 3>)
    gpu.launch_func @no_op_wait::@kernel_no_op_wait blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%src : memref<64xf32>, %buf : memref<4xf32, 3>, %c0 : index)
    %bu = memref.cast %buf : memref<4xf32, 3> to memref<*xf32, 3>
    %bh = memref.memory_space_cast %bu : memref<*xf32, 3> to memref<*xf32>
    func.call @printMemrefF32(%bh) : (memref<*xf32>) -> ()

    gpu.launch_func @divergent::@divergent blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1) args(%src : memref<64xf32>)

    %done = llvm.mlir.addressof @done_text : !llvm.ptr
    func.call @printString(%done) : (!llvm.ptr) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %buf : memref<4xf32, 3>
    memref.dealloc %src : memref<64xf32>
    return
  }

  func.func @divergent_two_threads() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %src = func.call @input() : () -> memref<64xf32>
    gpu.launch_func @divergent::@divergent blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%src : memref<64xf32>)
    memref.dealloc %src : memref<64xf32>
    return
  }
}
