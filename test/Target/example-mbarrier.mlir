// The examples in the mbarrier form (docs/mbarrier.md): pipelined in token
// form, then apipe-translate --sync=mbarrier, PTX for sm_80 and sm_90
// assembled by ptxas. sgemm's counts are exact, so sync=auto keeps
// counting form for it (no mbarrier in the PTX).
//
// RUN: apipe-opt %apipe_root/examples/sgemm.mlir --apipe-software-pipeline="sync=tokens" > %t.sgemm.mlir
// RUN: apipe-translate %t.sgemm.mlir --sm=80 --sync=mbarrier -o %t.sgemm80.ptx
// RUN: FileCheck %s --check-prefixes=SGEMM,SGEMM80 < %t.sgemm80.ptx
// RUN: %ptxas -arch=sm_80 %t.sgemm80.ptx -o %t.sgemm80.cubin
// RUN: apipe-translate %t.sgemm.mlir --sm=90 --sync=mbarrier -o %t.sgemm90.ptx
// RUN: FileCheck %s --check-prefixes=SGEMM,SGEMM90 < %t.sgemm90.ptx
// RUN: %ptxas -arch=sm_90 %t.sgemm90.ptx -o %t.sgemm90.cubin
// RUN: apipe-translate %t.sgemm.mlir --sm=80 | FileCheck %s --check-prefix=AUTO
// RUN: apipe-opt %apipe_root/examples/copy_bw.mlir --apipe-software-pipeline="sync=tokens" > %t.copy.mlir
// RUN: apipe-translate %t.copy.mlir --sm=80 --sync=mbarrier -o %t.copy80.ptx
// RUN: %ptxas -arch=sm_80 %t.copy80.ptx -o %t.copy80.cubin
// RUN: apipe-translate %t.copy.mlir --sm=90 --sync=mbarrier -o %t.copy90.ptx
// RUN: %ptxas -arch=sm_90 %t.copy90.ptx -o %t.copy90.cubin
// RUN: apipe-opt %apipe_root/examples/stream_sum.mlir --apipe-software-pipeline="sync=tokens" > %t.sum.mlir
// RUN: apipe-translate %t.sum.mlir --sm=80 --sync=mbarrier -o %t.sum80.ptx
// RUN: %ptxas -arch=sm_80 %t.sum80.ptx -o %t.sum80.cubin
// RUN: apipe-translate %t.sum.mlir --sm=90 --sync=mbarrier -o %t.sum90.ptx
// RUN: %ptxas -arch=sm_90 %t.sum90.ptx -o %t.sum90.cubin
// The counting-form examples (examples/pipelined/) through --sync=mbarrier.
// RUN: apipe-translate %apipe_root/examples/pipelined/sgemm.mlir --sm=80 --sync=mbarrier -o %t.hand80.ptx
// RUN: %ptxas -arch=sm_80 %t.hand80.ptx -o %t.hand80.cubin
// RUN: apipe-translate %apipe_root/examples/pipelined/sgemm.mlir --sm=90 --sync=mbarrier -o %t.hand90.ptx
// RUN: %ptxas -arch=sm_90 %t.hand90.ptx -o %t.hand90.cubin

// sgemm, 3 stages, each wait one group behind the newest: a ring of 2
// slots (the largest distance at a wait, 1, plus one), initialised by
// thread 0, then bar.sync; no commit group and no wait_group anywhere.
// SGEMM-LABEL: .entry sgemm(
// SGEMM-NOT: cp.async.commit_group
// SGEMM-COUNT-2: mbarrier.init.shared.b64
// SGEMM-NOT: mbarrier.init.shared.b64
// SGEMM: bar.sync 0;
// SGEMM: cp.async.mbarrier.arrive.noinc.shared.b64
// SGEMM80: mbarrier.test_wait.parity.shared.b64
// SGEMM90: mbarrier.try_wait.parity.shared.b64
// SGEMM-NOT: cp.async.wait_group
// SGEMM-NOT: cp.async.commit_group
// AUTO-NOT: mbarrier
// AUTO: cp.async.wait_group
// AUTO-NOT: mbarrier
