// examples/sgemm.mlir through the whole flow, for sm_80 and sm_90, every
// PTX assembled by ptxas. Until apipe-software-pipeline is merged, the
// pipelined kernel is the hand-pipelined counting form
// examples/pipelined/sgemm.mlir; the synchronous reference is
// apipe-make-sync of the annotated input.
//
// RUN: apipe-translate %apipe_root/examples/pipelined/sgemm.mlir --sm=80 -o %t.80.ptx
// RUN: FileCheck %s < %t.80.ptx
// RUN: %ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
// RUN: apipe-translate %apipe_root/examples/pipelined/sgemm.mlir --sm=90 -o %t.90.ptx
// RUN: FileCheck %s < %t.90.ptx
// RUN: %ptxas -arch=sm_90 %t.90.ptx -o %t.90.cubin
// RUN: apipe-opt %apipe_root/examples/sgemm.mlir --apipe-make-sync | apipe-translate --sm=80 -o %t.sync80.ptx
// RUN: FileCheck %s --check-prefix=SYNC < %t.sync80.ptx
// RUN: %ptxas -arch=sm_80 %t.sync80.ptx -o %t.sync80.cubin
// RUN: apipe-opt %apipe_root/examples/sgemm.mlir --apipe-make-sync | apipe-translate --sm=90 -o %t.sync90.ptx
// RUN: %ptxas -arch=sm_90 %t.sync90.ptx -o %t.sync90.cubin
// RUN: apipe-translate %apipe_root/examples/pipelined/sgemm.mlir --sm=90 --to-cubin --resource-usage -o %t.usage.cubin | FileCheck %s --check-prefix=USAGE

// Prologue: K tiles 0 and 1, one group each (A and B copies, 16 bytes, .cg).
// CHECK-LABEL: .entry sgemm(
// CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK-NEXT: cp.async.commit_group;
// CHECK-NEXT: cp.async.cg.shared.global [%rd{{[0-9]+}}+4096], [%rd{{[0-9]+}}+64], 16;
// CHECK-NEXT: cp.async.cg.shared.global [%rd{{[0-9]+}}+4096], [%rd{{[0-9]+}}+131072], 16;
// CHECK-NEXT: cp.async.commit_group;
// Main loop: wait for tile kt (one group left in flight), barrier, issue
// tile kt + 2 under a guard, commit always, then 16 FMAs per k step.
// CHECK: $L__BB0_[[LOOP:[0-9]+]]:
// CHECK-NEXT: cp.async.wait_group 1;
// CHECK-NEXT: bar.sync 0;
// CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK: cp.async.commit_group;
// CHECK-COUNT-16: fma.rn.f32
// CHECK-NOT: cp.async
// CHECK: bra.uni $L__BB0_[[LOOP]];
// Epilogue: the 4x4 micro-tile, 16 stores.
// CHECK-COUNT-16: st.global.b32
// CHECK: ret;

// SYNC-LABEL: .entry sgemm(
// SYNC-NOT: cp.async
// SYNC: bar.sync 0;
// SYNC-COUNT-16: fma.rn.f32
// SYNC-NOT: cp.async
// SYNC: ret;

// USAGE: sgemm: registers {{[0-9]+}}, spill stores 0 bytes, spill loads 0 bytes, shared memory 24576 bytes, stack 0 bytes
