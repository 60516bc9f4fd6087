// The whole flow from the examples as users write them (no annotations):
// apipe-software-pipeline with num-stages (3 for sgemm and copy_bw, 2 for
// stream_sum), then apipe-translate, PTX for sm_80 and sm_90 assembled by
// ptxas. The main loop of each has one bar.sync per iteration (the CUTLASS
// order: wait, barrier, compute, copy into the version the previous
// iteration read); barriers=conservative, the earlier placement, has 2
// (sgemm and stream_sum: their own 2, each right after a placed one, which
// is not emitted twice in a row; it had 4). The
// example-*.mlir tests lower the hand-pipelined counting forms in
// examples/pipelined/.
//
// RUN: apipe-opt %apipe_root/examples/sgemm.mlir --apipe-software-pipeline="num-stages=3" | apipe-translate --sm=80 -o %t.sgemm80.ptx
// RUN: FileCheck %s --check-prefix=SGEMM < %t.sgemm80.ptx
// RUN: %ptxas -arch=sm_80 %t.sgemm80.ptx -o %t.sgemm80.cubin
// RUN: apipe-opt %apipe_root/examples/sgemm.mlir --apipe-software-pipeline="num-stages=3" | apipe-translate --sm=90 -o %t.sgemm90.ptx
// RUN: %ptxas -arch=sm_90 %t.sgemm90.ptx -o %t.sgemm90.cubin
// RUN: apipe-opt %apipe_root/examples/copy_bw.mlir --apipe-software-pipeline="num-stages=3" | apipe-translate --sm=80 -o %t.copy80.ptx
// RUN: FileCheck %s --check-prefix=COPY < %t.copy80.ptx
// RUN: %ptxas -arch=sm_80 %t.copy80.ptx -o %t.copy80.cubin
// RUN: apipe-opt %apipe_root/examples/copy_bw.mlir --apipe-software-pipeline="num-stages=3" | apipe-translate --sm=90 -o %t.copy90.ptx
// RUN: %ptxas -arch=sm_90 %t.copy90.ptx -o %t.copy90.cubin
// RUN: apipe-opt %apipe_root/examples/stream_sum.mlir --apipe-software-pipeline="num-stages=2" | apipe-translate --sm=80 -o %t.sum80.ptx
// RUN: FileCheck %s --check-prefix=SUM < %t.sum80.ptx
// RUN: %ptxas -arch=sm_80 %t.sum80.ptx -o %t.sum80.cubin
// RUN: apipe-opt %apipe_root/examples/stream_sum.mlir --apipe-software-pipeline="num-stages=2" | apipe-translate --sm=90 -o %t.sum90.ptx
// RUN: %ptxas -arch=sm_90 %t.sum90.ptx -o %t.sum90.cubin
//
// bar.sync per main-loop iteration (the loop may be unrolled: per
// cp.async.wait_group), the new placement and the conservative one:
// RUN: python3 %S/Inputs/main_loop_barriers.py %t.sgemm80.ptx %t.sgemm90.ptx %t.copy80.ptx %t.copy90.ptx %t.sum80.ptx %t.sum90.ptx | FileCheck %s --check-prefix=BARS
// BARS-COUNT-6: : main loop: {{[0-9]+}} bar.sync, {{[0-9]+}} wait_group: 1 per iteration;
// RUN: apipe-opt %apipe_root/examples/sgemm.mlir --apipe-software-pipeline="num-stages=3 barriers=conservative" | apipe-translate --sm=80 -o %t.sgemm.old.ptx
// RUN: apipe-opt %apipe_root/examples/copy_bw.mlir --apipe-software-pipeline="num-stages=3 barriers=conservative" | apipe-translate --sm=80 -o %t.copy.old.ptx
// RUN: apipe-opt %apipe_root/examples/stream_sum.mlir --apipe-software-pipeline="num-stages=2 barriers=conservative" | apipe-translate --sm=80 -o %t.sum.old.ptx
// RUN: python3 %S/Inputs/main_loop_barriers.py %t.sgemm.old.ptx %t.copy.old.ptx %t.sum.old.ptx | FileCheck %s --check-prefix=OLD
// OLD: sgemm.old.ptx: main loop: {{[0-9]+}} bar.sync, {{[0-9]+}} wait_group: 2 per iteration;
// OLD: copy.old.ptx: main loop: {{[0-9]+}} bar.sync, {{[0-9]+}} wait_group: 2 per iteration;
// OLD: sum.old.ptx: main loop: {{[0-9]+}} bar.sync, {{[0-9]+}} wait_group: 2 per iteration;

// sgemm, 3 stages: tiles 0 and 1 in the prologue (no barrier: nothing has
// read shared memory yet); each iteration waits for tile k with one group
// in flight, synchronizes once, computes (16 FMAs per k step), then copies
// tile k + 2.
// SGEMM-LABEL: .entry sgemm(
// SGEMM-NOT: bar.sync
// SGEMM: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// SGEMM-NOT: bar.sync
// SGEMM: cp.async.commit_group;
// SGEMM-NOT: bar.sync
// SGEMM: cp.async.commit_group;
// SGEMM-NOT: bar.sync
// SGEMM: $L__BB0_[[LOOP:[0-9]+]]:
// SGEMM-NOT: bar.sync
// SGEMM: cp.async.wait_group 1;
// SGEMM-NEXT: bar.sync 0;
// SGEMM-NOT: bar.sync
// SGEMM-COUNT-16: fma.rn.f32
// SGEMM-NOT: bar.sync
// SGEMM: cp.async.cg.shared.global
// SGEMM-NOT: bar.sync
// SGEMM: cp.async.commit_group;
// SGEMM-NOT: bar.sync
// SGEMM: bra{{.*}} $L__BB0_[[LOOP]];

// copy_bw, 3 stages: two groups in flight, one barrier after each wait.
// COPY-LABEL: .entry copy_bw(
// COPY-NOT: bar.sync
// COPY: cp.async.commit_group;
// COPY-NOT: bar.sync
// COPY: cp.async.commit_group;
// COPY-NOT: bar.sync
// COPY: cp.async.wait_group 1;
// COPY-NEXT: bar.sync 0;
// COPY-NOT: bar.sync
// COPY: cp.async.cg.shared.global

// stream_sum, 2 stages: one group, waited for before the neighbour's floats
// are read, then one barrier.
// SUM-LABEL: .entry stream_sum(
// SUM-NOT: bar.sync
// SUM: cp.async.commit_group;
// SUM-NOT: bar.sync
// SUM: cp.async.wait_group 0;
// SUM-NEXT: bar.sync 0;
// SUM-NOT: bar.sync
// SUM: ld.shared.v4.b32
// SUM-NOT: bar.sync
// SUM: cp.async.commit_group;
