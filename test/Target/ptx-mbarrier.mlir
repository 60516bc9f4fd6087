// The mbarrier form through apipe-translate (docs/mbarrier.md), every PTX
// assembled by ptxas for sm_80 and sm_90.
//
// sync=auto (the default): @path_dependent waits on a group that is 0 or 2
// groups old depending on %p, so no count is exact there: it gets the
// mbarrier form. @exact waits with one exact count: it keeps counting form.
// RUN: apipe-translate %s --sm=80 -o %t.80.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM80 < %t.80.ptx
// RUN: %ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
// RUN: apipe-translate %s --sm=90 -o %t.90.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM90 < %t.90.ptx
// RUN: %ptxas -arch=sm_90 %t.90.ptx -o %t.90.cubin
//
// sync=counting forces counting form: the inexact wait takes the minimum
// count (0), which also waits for the younger groups.
// RUN: apipe-translate %s --sm=80 --sync=counting -o %t.counting.ptx
// RUN: FileCheck %s --check-prefix=COUNTING < %t.counting.ptx
// RUN: %ptxas -arch=sm_80 %t.counting.ptx -o %t.counting.cubin
//
// sync=mbarrier forces the mbarrier form on both kernels.
// RUN: apipe-translate %s --sm=80 --sync=mbarrier -o %t.mbarrier.ptx
// RUN: FileCheck %s --check-prefix=MBARRIER < %t.mbarrier.ptx
// RUN: %ptxas -arch=sm_80 %t.mbarrier.ptx -o %t.mbarrier.cubin
// RUN: apipe-translate %s --sm=90 --sync=mbarrier -o %t.mbarrier90.ptx
// RUN: %ptxas -arch=sm_90 %t.mbarrier90.ptx -o %t.mbarrier90.cubin
//
// mbarrier.test_wait.parity needs PTX ISA 7.1: an explicit --ptx=70 is an
// error, and the default for sm_80 is 7.1 once mbarriers remain (7.0 else).
// RUN: not apipe-translate %s --sm=80 --ptx=70 2>&1 | FileCheck %s --check-prefix=PTX70
// PTX70: error: --ptx=70: the mbarrier form needs PTX ISA 7.1 or newer (mbarrier.test_wait.parity); pass --ptx=71 or --sync=counting
// RUN: apipe-translate %s --sm=80 --sync=counting | FileCheck %s --check-prefix=VERSION70
// VERSION70: .version 7.0
// RUN: not apipe-translate %s --sync=tokens 2>&1 | FileCheck %s --check-prefix=BADSYNC
// BADSYNC: --sync=tokens: expected auto, counting or mbarrier
//
// The pipelines.
// RUN: apipe-translate --print-pipeline | FileCheck %s --check-prefix=AUTO-PIPELINE
// AUTO-PIPELINE: builtin.module(apipe-select-sync,apipe-tokens-to-counting,apipe-merge-queues,apipe-to-nvgpu,apipe-mbarrier-to-nvvm{sm=80},gpu.module(
// RUN: apipe-translate --print-pipeline --sync=mbarrier --sm=90 | FileCheck %s --check-prefix=MBARRIER-PIPELINE
// MBARRIER-PIPELINE: builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier,apipe-to-nvgpu,apipe-mbarrier-to-nvvm{sm=90},gpu.module(
// RUN: apipe-translate --print-pipeline --sync=counting | FileCheck %s --check-prefix=COUNTING-PIPELINE
// COUNTING-PIPELINE: builtin.module(apipe-tokens-to-counting,apipe-merge-queues,apipe-to-nvgpu,apipe-mbarrier-to-nvvm{sm=80},gpu.module(

// SM80: .version 7.1
// SM90: .version 7.8

// A ring of 4 slots (the largest distance, 2, plus one, rounded up), set
// up by thread 0 with the block size as the arrival count, then bar.sync;
// one arrival per group; one wait for %t0's slot, phase 0 (parity 0). No
// cp.async commit group or wait_group anywhere.
// CHECK-LABEL: .entry path_dependent(
// CHECK-NOT: cp.async.commit_group
// CHECK-COUNT-4: mbarrier.init.shared.b64
// CHECK: bar.sync 0;
// CHECK: cp.async.cg.shared.global
// CHECK-NEXT: cp.async.mbarrier.arrive.noinc.shared.b64
// CHECK: cp.async.cg.shared.global
// CHECK: cp.async.mbarrier.arrive.noinc.shared.b64
// CHECK: cp.async.cg.shared.global
// CHECK: cp.async.mbarrier.arrive.noinc.shared.b64
// SM80: mbarrier.test_wait.parity.shared.b64 P1, [%r{{[0-9]+}}], {{%r[0-9]+|0}};
// SM80-NEXT: @!P1 bra.uni LAB_WAIT;
// SM90: mbarrier.try_wait.parity.shared.b64 P1, [%r{{[0-9]+}}], {{%r[0-9]+|0}}, 10000000;
// CHECK-NOT: cp.async.wait_group
// CHECK: ret;
//
// CHECK-LABEL: .entry exact(
// CHECK-NOT: mbarrier
// CHECK: cp.async.commit_group;
// CHECK: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 1;
// CHECK-NOT: mbarrier
// CHECK: ret;
//
// COUNTING-LABEL: .entry path_dependent(
// COUNTING-NOT: mbarrier
// COUNTING: cp.async.wait_group 0;
// COUNTING-LABEL: .entry exact(
// COUNTING: cp.async.wait_group 1;
//
// MBARRIER-LABEL: .entry path_dependent(
// MBARRIER: mbarrier.test_wait.parity.shared.b64
// MBARRIER-LABEL: .entry exact(
// MBARRIER-COUNT-2: mbarrier.init.shared.b64
// MBARRIER: cp.async.mbarrier.arrive.noinc.shared.b64
// MBARRIER: cp.async.mbarrier.arrive.noinc.shared.b64
// MBARRIER: mbarrier.test_wait.parity.shared.b64
// MBARRIER-NOT: cp.async.wait_group
// MBARRIER-NOT: cp.async.commit_group
gpu.module @kernels {
  gpu.func @path_dependent(%src: memref<1024xf32>, %p: i1) workgroup(%buf: memref<3x512xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    apipe.copy %src[%lane], %buf[%c0, %lane], 4 {bypass_l1} : memref<1024xf32> to memref<3x512xf32, 3>
    %t0 = apipe.commit_group
    scf.if %p {
      apipe.copy %src[%lane], %buf[%c1, %lane], 4 {bypass_l1} : memref<1024xf32> to memref<3x512xf32, 3>
      %u = apipe.commit_group
      apipe.copy %src[%lane], %buf[%c2, %lane], 4 {bypass_l1} : memref<1024xf32> to memref<3x512xf32, 3>
      %v = apipe.commit_group
    }
    apipe.wait %t0
    gpu.return
  }

  gpu.func @exact(%src: memref<1024xf32>) workgroup(%buf: memref<2x512xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    apipe.copy %src[%lane], %buf[%c0, %lane], 4 {bypass_l1} : memref<1024xf32> to memref<2x512xf32, 3>
    %t0 = apipe.commit_group
    apipe.copy %src[%lane], %buf[%c1, %lane], 4 {bypass_l1} : memref<1024xf32> to memref<2x512xf32, 3>
    %t1 = apipe.commit_group
    apipe.wait %t0
    gpu.return
  }
}
