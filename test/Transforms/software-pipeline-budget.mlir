// The shared-memory budget of scheduled loops in a gpu.func: the kernel's
// workgroup buffers, each padded to 16 bytes, with the multi-buffered ones
// counted per version, must fit max-shared-bytes (default 48 KiB, the
// static limit; with sm=80 / sm=90 the opt-in maximum, 163 / 227 KiB).
// A schedule that does not fit gets fewer stages, with a remark per
// schedule tried; when 2 stages do not fit, a located error and no change.
//
// @big: a 16 KiB tile and a 12-byte flag (16 bytes padded). 4 stages need
// 4 x 16384 + 16 = 65552 bytes, 3 need 49168 (16 over 48 KiB), 2 need 32784.
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4" 2>&1 >/dev/null | FileCheck %s --check-prefix=DEFAULT
// A negative budget is a pass option error, not a budget:
// RUN: not apipe-opt %s --apipe-software-pipeline="num-stages=4 max-shared-bytes=-5" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: for the --max-shared-bytes option: -5 is out of range: expected 0 to 1099511627776
// NEGATIVE-NOT: over the budget
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4" 2>/dev/null | FileCheck %s --check-prefix=DEFAULT-IR
// DEFAULT: software-pipeline-budget.mlir:[[#LOOP:]]:5: remark: 4 stages need 65552 bytes of shared memory, over the budget of 49152 bytes (max-shared-bytes): trying 3 stages
// DEFAULT-NEXT: scf.for
// DEFAULT-NEXT: ^
// DEFAULT-NEXT: software-pipeline-budget.mlir:[[#LOOP]]:5: remark: 3 stages need 49168 bytes of shared memory, over the budget of 49152 bytes (max-shared-bytes): trying 2 stages
// DEFAULT: software-pipeline-budget.mlir:[[#LOOP]]:5: remark: scheduled 2 stages (num_stages = 2): stage 0: 3 ops, stage 1: 2 ops; versions: memref<4096xf32, 3> x 2 (32768 bytes); shared memory: 32784 of 49152 bytes; 1 gpu.barrier per iteration
// DEFAULT-NOT: warning
// DEFAULT-IR: gpu.func @big({{.*}}) workgroup(%{{.*}} : memref<2x4096xf32, 3>, %{{.*}} : memref<3xf32, 3>) kernel
// DEFAULT-IR: apipe.wait_group 0
//
// A budget that holds 4 stages keeps them; above 48 KiB the kernel needs
// dynamic shared memory, which apipe-translate does not emit: a warning.
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4 max-shared-bytes=65552" 2>&1 >/dev/null | FileCheck %s --check-prefix=FITS
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4 sm=80" 2>&1 >/dev/null | FileCheck %s --check-prefix=SM80
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=5 sm=90" 2>/dev/null | FileCheck %s --check-prefix=SM90-IR
// FITS-NOT: trying
// FITS: remark: scheduled 4 stages (num_stages = 4): stage 0: 3 ops, stage 3: 2 ops; versions: memref<4096xf32, 3> x 4 (65536 bytes); shared memory: 65552 of 65552 bytes; 1 gpu.barrier per iteration
// FITS: warning: the kernel needs 65552 bytes of shared memory, more than the 49152 bytes of static shared memory: it must use dynamic shared memory (and cudaFuncSetAttribute), which apipe-translate does not emit, so ptxas will refuse it
// SM80: remark: scheduled 4 stages (num_stages = 4): {{.*}}; shared memory: 65552 of 166912 bytes; 1 gpu.barrier per iteration
// SM90-IR: workgroup(%{{.*}} : memref<5x4096xf32, 3>, %{{.*}} : memref<3xf32, 3>)
//
// An explicit budget below the sm maximum wins; 3 stages fit 49168.
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4 sm=90 max-shared-bytes=49168" 2>&1 >/dev/null | FileCheck %s --check-prefix=THREE
// THREE: remark: 4 stages need 65552 bytes of shared memory, over the budget of 49168 bytes (max-shared-bytes): trying 3 stages
// THREE: remark: scheduled 3 stages (num_stages = 3): {{.*}}; shared memory: 49168 of 49168 bytes
//
// When even 2 stages do not fit: a located error, exit 1, no output.
// RUN: not apipe-opt %s --apipe-software-pipeline="num-stages=4 max-shared-bytes=32783" > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=TOOBIG < %t.err
// RUN: count 0 < %t.out
// TOOBIG: software-pipeline-budget.mlir:[[#@LINE+11]]:5: error: 2 stages (the fewest) need 32784 bytes of shared memory, over the budget of 32783 bytes (max-shared-bytes); tried 4 stages: 65552 bytes, 3 stages: 49168 bytes
gpu.module @kernels {
  gpu.func @big(%A: memref<65536xf32> {llvm.noalias}, %out: memref<65536xf32> {llvm.noalias})
      workgroup(%tile: memref<4096xf32, 3>, %flag: memref<3xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c4096 = arith.constant 4096 : index
    %tid = gpu.thread_id x
    %t4 = arith.muli %tid, %c4 : index
    scf.for %i = %c0 to %c16 step %c1 {
      %base = arith.muli %i, %c4096 : index
      %src = arith.addi %base, %t4 : index
      apipe.copy %A[%src], %tile[%t4], 4 : memref<65536xf32> to memref<4096xf32, 3>
      %x = memref.load %tile[%t4] : memref<4096xf32, 3>
      memref.store %x, %out[%src] : memref<65536xf32>
    }
    gpu.return
  }
}
