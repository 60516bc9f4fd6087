// The whole flow from the annotated examples: apipe-software-pipeline, then
// apipe-translate (tokens-to-counting and merge-queues run there), PTX for
// sm_80 and sm_90 assembled by ptxas. The example-*.mlir tests lower the
// hand-pipelined counting forms in examples/pipelined/.
//
// RUN: apipe-opt %apipe_root/examples/sgemm.mlir --apipe-software-pipeline | apipe-translate --sm=80 -o %t.sgemm80.ptx
// RUN: FileCheck %s --check-prefix=SGEMM < %t.sgemm80.ptx
// RUN: %ptxas -arch=sm_80 %t.sgemm80.ptx -o %t.sgemm80.cubin
// RUN: apipe-opt %apipe_root/examples/sgemm.mlir --apipe-software-pipeline | apipe-translate --sm=90 -o %t.sgemm90.ptx
// RUN: %ptxas -arch=sm_90 %t.sgemm90.ptx -o %t.sgemm90.cubin
// RUN: apipe-opt %apipe_root/examples/copy_bw.mlir --apipe-software-pipeline | apipe-translate --sm=80 -o %t.copy80.ptx
// RUN: FileCheck %s --check-prefix=COPY < %t.copy80.ptx
// RUN: %ptxas -arch=sm_80 %t.copy80.ptx -o %t.copy80.cubin
// RUN: apipe-opt %apipe_root/examples/copy_bw.mlir --apipe-software-pipeline | apipe-translate --sm=90 -o %t.copy90.ptx
// RUN: %ptxas -arch=sm_90 %t.copy90.ptx -o %t.copy90.cubin
// RUN: apipe-opt %apipe_root/examples/stream_sum.mlir --apipe-software-pipeline | apipe-translate --sm=80 -o %t.sum80.ptx
// RUN: FileCheck %s --check-prefix=SUM < %t.sum80.ptx
// RUN: %ptxas -arch=sm_80 %t.sum80.ptx -o %t.sum80.cubin
// RUN: apipe-opt %apipe_root/examples/stream_sum.mlir --apipe-software-pipeline | apipe-translate --sm=90 -o %t.sum90.ptx
// RUN: %ptxas -arch=sm_90 %t.sum90.ptx -o %t.sum90.cubin

// sgemm, 3 stages: tiles 0 and 1 in the prologue; each iteration commits
// tile i + 2, then waits with 2 groups in flight for tile i.
// SGEMM-LABEL: .entry sgemm(
// SGEMM: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// SGEMM: cp.async.commit_group;
// SGEMM: cp.async.commit_group;
// SGEMM: cp.async.commit_group;
// SGEMM: cp.async.wait_group 2;
// SGEMM: bar.sync 0;
// SGEMM-COUNT-16: fma.rn.f32

// copy_bw, 3 stages: the same counts.
// COPY-LABEL: .entry copy_bw(
// COPY: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// COPY: cp.async.commit_group;
// COPY: cp.async.commit_group;
// COPY: cp.async.commit_group;
// COPY: cp.async.wait_group 2;

// stream_sum, 2 stages: one group in flight, and a barrier after the wait
// before the neighbour's floats are read.
// SUM-LABEL: .entry stream_sum(
// SUM: cp.async.commit_group;
// SUM: cp.async.commit_group;
// SUM: cp.async.wait_group 1;
// SUM-NEXT: bar.sync 0;
// SUM: ld.shared.v4.b32
