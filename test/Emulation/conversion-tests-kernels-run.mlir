// The gpu.func kernels of the test/Conversion tests run end to end under
// apipe-run with the race checker, in lazy, eager and random completion and
// two schedules, and print what their apipe-make-sync version prints
// (gpu-pipeline.mlir's kernel, which races with itself, and the kernels of
// to-nvgpu-invalid.mlir are further below):
// - to-emulation.mlir @kernel_barrier (2 blocks x 32 threads) and @m::@k
//   through that test's own host function @launch (n = 2: 2 blocks of 1 x 2
//   threads; thread (0, y) reads workgroup w[y] into private p[y]);
// - to-nvgpu.mlir @workgroup_allocs (a workgroup memref.alloc in a kernel,
//   i = 0), 2 blocks x 1 thread: every thread of a block copies the same
//   bytes of the block's buffer (i is uniform), so with more threads a
//   block races (WAW);
// - to-nvgpu-sync.mlir @two_queues (two queues, token form), 2 blocks x 64
//   threads.
// These kernels write only workgroup (or private) memory: each must run
// race-free and without a run-time error, in every mode; the driver ends
// with a "done" line. Beside them, the host function of
// import-nvgpu-roundtrip.mlir (@loop_with_three_counts, three counts in
// one loop, run with n = 1: each iteration copies into b[0..2] and its
// `wait_group 2` leaves the two previous copies in flight, so with more
// trips the copies race (write-after-write, reported by apipe-run and
// apipe-check-hazards); that file's gpu.func, examples/pipelined/sgemm.mlir's
// @sgemm, runs after the same export and import in gpu-sgemm.mlir) prints
// b[0..8] = [a[0], a[1], 0, ...] with a[i] = i: [0, 1, 0, 0, 0, 0, 0, 0].
//
// The forms that run, besides the file as is: what the apipe passes of
// these tests make of it, before the lowering to nvgpu (which cannot run):
// sync=auto (apipe-select-sync, apipe-tokens-to-counting, apipe-merge-queues:
// gpu-pipeline.mlir, to-nvgpu-sync.mlir), sync=mbarrier
// (apipe-counting-to-tokens, apipe-tokens-to-mbarrier: to-nvgpu-sync.mlir)
// and the export to nvgpu imported back (apipe-to-nvgpu, apipe-import-nvgpu:
// to-nvgpu.mlir, whose workgroup alloc becomes an attribution there, and
// import-nvgpu-roundtrip.mlir).
//
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Conversion/gpu-pipeline.mlir | sed -e 's/^gpu.module @kernels/gpu.module @pipeline/' > %t.pipeline
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@kernel_barrier\(/) print b; on=0}' %apipe_root/test/Conversion/to-emulation.mlir | sed -e 's/^gpu.module @kernels/gpu.module @emulation_barrier/' > %t.emulation_barrier
// RUN: awk '/^  gpu.module @m /{on=1} /^  func.func @launch\(/{on=1} on{print} /^  }/{on=0}' %apipe_root/test/Conversion/to-emulation.mlir > %t.emulation_launch
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@workgroup_allocs\(/) print b; on=0}' %apipe_root/test/Conversion/to-nvgpu.mlir | sed -e 's/^gpu.module @m /gpu.module @nvgpu /' > %t.nvgpu
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Conversion/to-nvgpu-sync.mlir | sed -e 's/^gpu.module @kernels/gpu.module @sync/' > %t.sync_kernel
// RUN: sed -n '/^func.func @loop_with_three_counts(/,/^}/p' %apipe_root/test/Conversion/import-nvgpu-roundtrip.mlir > %t.roundtrip
// RUN: sed -e '/^\/\/ @pipeline$/r %t.pipeline' -e '/^\/\/ @emulation_barrier$/r %t.emulation_barrier' -e '/^\/\/ @emulation_launch$/r %t.emulation_launch' -e '/^\/\/ @nvgpu$/r %t.nvgpu' -e '/^\/\/ @sync$/r %t.sync_kernel' -e '/^\/\/ @roundtrip$/r %t.roundtrip' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - | grep -v base@ > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: cat %t.ref %t.ref %t.ref %t.ref %t.ref %t.ref > %t.expected
// CHECK: [0,  1,  0,  0,  0,  0,  0,  0]
// CHECK-NEXT: done
// CHECK-NOT: {{.}}
// As is:
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v '^// apipe-run' | grep -v base@ > %t.all
// RUN: diff %t.expected %t.all
// sync=auto:
// RUN: apipe-opt %t.mlir --pass-pipeline='builtin.module(apipe-select-sync,apipe-tokens-to-counting,apipe-merge-queues)' > %t.auto.mlir
// RUN: apipe-run %t.auto.mlir --completion=lazy,eager,random:2 --schedule=forward,random:3 | grep -v '^// apipe-run' | grep -v base@ > %t.auto.all
// RUN: diff %t.expected %t.auto.all
// sync=mbarrier (@two_queues gets one ring per queue):
// RUN: apipe-opt %t.mlir --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier)' > %t.mbarrier.mlir
// RUN: FileCheck %s --check-prefix=MBARRIER < %t.mbarrier.mlir
// MBARRIER-LABEL: gpu.func @two_queues
// MBARRIER: apipe.mbarrier_init
// MBARRIER-COUNT-2: apipe.mbarrier_arrive_copies
// RUN: apipe-run %t.mbarrier.mlir --completion=lazy,eager,random:4 --schedule=forward,reverse | grep -v '^// apipe-run' | grep -v base@ > %t.mbarrier.all
// RUN: diff %t.expected %t.mbarrier.all
// Exported to nvgpu and imported back (counting form, one queue first):
// RUN: apipe-opt %t.mlir --pass-pipeline='builtin.module(apipe-tokens-to-counting,apipe-merge-queues,apipe-to-nvgpu,apipe-import-nvgpu)' > %t.nvgpu.mlir
// RUN: FileCheck %s --check-prefix=IMPORTED < %t.nvgpu.mlir
// IMPORTED-LABEL: gpu.func @workgroup_allocs
// IMPORTED-SAME: workgroup(
// IMPORTED-NOT: memref.alloc(
// IMPORTED: gpu.return
// RUN: apipe-run %t.nvgpu.mlir --completion=lazy,eager,random:5 --schedule=forward,reverse | grep -v '^// apipe-run' | grep -v base@ > %t.nvgpu.all
// RUN: diff %t.expected %t.nvgpu.all
//
// gpu-pipeline.mlir @copy_zero_fill (entry @zero_fill: 2 blocks x 32
// threads, valid = 3) races with itself: thread t's second copy (group 2,
// buf[4t..4t+2]) writes bytes that its first copy (group 1, buf[4t..4t+4],
// zero-filled past src_elements 3) writes too, and no wait completes the
// first before the second is issued (the two cp.async are not ordered; the
// test checks the lowering, not the synchronization). The race checker says
// so in every form; without it the kernel runs in every mode (exit 0; it
// writes only workgroup memory; the driver prints "done", as make-sync's).
// RUN: not apipe-run %t.mlir --entry=zero_fill 2>&1 | FileCheck %s --check-prefix=ZERO-FILL
// RUN: not apipe-run %t.auto.mlir --entry=zero_fill --schedule=reverse 2>&1 | FileCheck %s --check-prefix=ZERO-FILL
// ZERO-FILL: error: thread ({{[0-9]+}},0,0) of block ({{[01]}},0,0) writes shared memory byte {{[0-9]+}} (byte {{[0-9]+}} of the workgroup buffer at {{.*}}) that its own asynchronous copy still in flight writes: no wait completes the copy first ('apipe.copy' and 'apipe.copy')
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - --entry=zero_fill > %t.zero_fill.ref
// RUN: FileCheck %s --check-prefix=DONE < %t.zero_fill.ref
// DONE: done
// DONE-NOT: {{.}}
// RUN: cat %t.zero_fill.ref %t.zero_fill.ref %t.zero_fill.ref %t.zero_fill.ref %t.zero_fill.ref %t.zero_fill.ref > %t.zero_fill.expected
// RUN: apipe-run %t.mlir --entry=zero_fill --no-racecheck --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v '^// apipe-run' > %t.zero_fill.all
// RUN: diff %t.zero_fill.expected %t.zero_fill.all
// RUN: apipe-run %t.auto.mlir --entry=zero_fill --no-racecheck --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v '^// apipe-run' > %t.zero_fill.auto
// RUN: diff %t.zero_fill.expected %t.zero_fill.auto
//
// to-nvgpu-invalid.mlir: the kernels that apipe-to-nvgpu refuses are
// programs all the same. @workgroup_alloc_under_condition (a workgroup
// alloc under scf.if: one buffer per block) runs with c = true and false,
// i = 0, 2 blocks x 1 thread (i is uniform: more threads of a block would
// copy the same bytes, a WAW race). @not_a_kernel is a device function, and
// a gpu.func without `kernel` cannot be called (func.call names a
// func.func only): its body runs as a kernel (sed adds `kernel`), 2 blocks
// x 1 thread, i = 0. Both run in their input form, sync=auto and
// sync=mbarrier (not through apipe-to-nvgpu, which refuses them), and
// print only "done".
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@workgroup_alloc_under_condition\(/) print b; on=0}' %apipe_root/test/Conversion/to-nvgpu-invalid.mlir | sed -e 's/^gpu.module @m /gpu.module @under_condition /' -e '/expected-/d' > %t.under_condition
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@not_a_kernel\(/) print b; on=0}' %apipe_root/test/Conversion/to-nvgpu-invalid.mlir | sed -e 's/^gpu.module @m /gpu.module @not_a_kernel /' -e '/expected-/d' -e 's/^\(  gpu.func @not_a_kernel(.*)\) {$/\1 kernel {/' > %t.not_a_kernel
// RUN: FileCheck %s --check-prefix=AS-KERNEL < %t.not_a_kernel
// AS-KERNEL: gpu.func @not_a_kernel(%a: memref<64xf32>, %i: index) kernel {
// RUN: sed -e '/^\/\/ @under_condition$/r %t.under_condition' -e '/^\/\/ @not_a_kernel$/r %t.not_a_kernel' %S/Inputs/conversion-tests-refused-driver.mlir > %t.refused.mlir
// RUN: apipe-opt %t.refused.mlir --apipe-make-sync | apipe-run - > %t.refused.ref
// RUN: FileCheck %s --check-prefix=DONE < %t.refused.ref
// RUN: cat %t.refused.ref %t.refused.ref %t.refused.ref %t.refused.ref %t.refused.ref %t.refused.ref > %t.refused.expected
// RUN: apipe-run %t.refused.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v '^// apipe-run' > %t.refused.all
// RUN: diff %t.refused.expected %t.refused.all
// RUN: apipe-opt %t.refused.mlir --pass-pipeline='builtin.module(apipe-select-sync,apipe-tokens-to-counting,apipe-merge-queues)' | apipe-run - --completion=lazy,eager,random:2 --schedule=forward,reverse | grep -v '^// apipe-run' > %t.refused.auto
// RUN: diff %t.refused.expected %t.refused.auto
// RUN: apipe-opt %t.refused.mlir --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier)' | apipe-run - --completion=lazy,eager,random:3 --schedule=forward,reverse | grep -v '^// apipe-run' > %t.refused.mbarrier
// RUN: diff %t.refused.expected %t.refused.mbarrier
// The same kernels with 2 threads in a block race, as said above:
// RUN: not apipe-run %t.refused.mlir --entry=two_threads 2>&1 | FileCheck %s --check-prefix=TWO-THREADS
// TWO-THREADS: error: race (WAW) on shared memory byte 0 (byte 0 of the workgroup buffer at {{.*}}): thread ({{0|1}},0,0) of block (0,0,0) writes it, and thread ({{1|0}},0,0) writes it with no gpu.barrier between ('apipe.copy' and 'apipe.copy')
// @workgroup_alloca_dynamic cannot be emulated: a workgroup alloca of a
// dynamic size (one buffer per block needs a static shape); apipe-run
// refuses it before running (n = 8, i = 0):
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@workgroup_alloca_dynamic\(/) print b; on=0}' %apipe_root/test/Conversion/to-nvgpu-invalid.mlir | sed -e '/expected-/d' > %t.dynamic
// RUN: sed -e '/^\/\/ @dynamic$/r %t.dynamic' %S/Inputs/conversion-tests-dynamic-driver.mlir > %t.dynamic.mlir
// RUN: not apipe-run %t.dynamic.mlir 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: error: workgroup 'memref.alloca' of memref<?xf32, 3> needs a static shape to be emulated (one buffer per block)

module attributes {gpu.container_module} {
// @pipeline
// @emulation_barrier
// @emulation_launch
// @nvgpu
// @sync
// @roundtrip
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printString(!llvm.ptr)
  func.func private @printNewline()
  llvm.mlir.global internal constant @done_text("done\00") {addr_space = 0 : i32}

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c1024 = arith.constant 1024 : index
    %zero = arith.constant 0.0 : f32
    %s = arith.constant 2.5 : f32
    // src[i] = i (f32), ai[i] = i (i32).
    %src = memref.alloc() : memref<1024xf32>
    %ai = memref.alloc() : memref<64xi32>
    scf.for %i = %c0 to %c1024 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %src[%i] : memref<1024xf32>
    }
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      memref.store %ii, %ai[%i] : memref<64xi32>
    }
    %a64 = memref.subview %src[0] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1]>>
    %a = memref.alloc() : memref<64xf32>
    memref.copy %a64, %a : memref<64xf32, strided<[1]>> to memref<64xf32>
    %a8v = memref.subview %src[0] [8] [1] : memref<1024xf32> to memref<8xf32, strided<[1]>>
    %a8 = memref.alloc() : memref<8xf32>
    memref.copy %a8v, %a8 : memref<8xf32, strided<[1]>> to memref<8xf32>

    gpu.launch_func @emulation_barrier::@kernel_barrier blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
    func.call @launch(%a8, %s, %c2) : (memref<8xf32>, f32, index) -> ()
    gpu.launch_func @nvgpu::@workgroup_allocs blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>, %ai : memref<64xi32>, %c0 : index)
    gpu.launch_func @sync::@two_queues blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%src : memref<1024xf32>)

    // The host function of import-nvgpu-roundtrip.mlir, one trip: b[0..2] = a[0..2].
    %b = memref.alloc() : memref<8xf32, 3>
    linalg.fill ins(%zero : f32) outs(%b : memref<8xf32, 3>)
    func.call @loop_with_three_counts(%a, %b, %c1) : (memref<64xf32>, memref<8xf32, 3>, index) -> ()
    %bu = memref.cast %b : memref<8xf32, 3> to memref<*xf32, 3>
    %bh = memref.memory_space_cast %bu : memref<*xf32, 3> to memref<*xf32>
    func.call @printMemrefF32(%bh) : (memref<*xf32>) -> ()

    %done = llvm.mlir.addressof @done_text : !llvm.ptr
    func.call @printString(%done) : (!llvm.ptr) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %b : memref<8xf32, 3>
    memref.dealloc %a8 : memref<8xf32>
    memref.dealloc %a : memref<64xf32>
    memref.dealloc %ai : memref<64xi32>
    memref.dealloc %src : memref<1024xf32>
    return
  }

  // gpu-pipeline.mlir's kernel, 2 blocks x 32 threads, valid = 3.
  func.func @zero_fill() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c32 = arith.constant 32 : index
    %c1024 = arith.constant 1024 : index
    %src = memref.alloc() : memref<1024xf32>
    scf.for %i = %c0 to %c1024 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %src[%i] : memref<1024xf32>
    }
    gpu.launch_func @pipeline::@copy_zero_fill blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1) args(%src : memref<1024xf32>, %c3 : index)
    %done = llvm.mlir.addressof @done_text : !llvm.ptr
    func.call @printString(%done) : (!llvm.ptr) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %src : memref<1024xf32>
    return
  }
}
