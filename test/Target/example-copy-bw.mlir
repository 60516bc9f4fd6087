// examples/copy_bw.mlir through the whole flow, for sm_80 and sm_90, every
// PTX assembled by ptxas. Until apipe-software-pipeline is merged, the
// pipelined kernel is the hand-pipelined counting form
// examples/pipelined/copy_bw.mlir (3 stages); the synchronous reference is
// apipe-make-sync of the annotated input.
//
// RUN: apipe-translate %apipe_root/examples/pipelined/copy_bw.mlir --sm=80 -o %t.80.ptx
// RUN: FileCheck %s < %t.80.ptx
// RUN: %ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
// RUN: apipe-translate %apipe_root/examples/pipelined/copy_bw.mlir --sm=90 -o %t.90.ptx
// RUN: FileCheck %s < %t.90.ptx
// RUN: %ptxas -arch=sm_90 %t.90.ptx -o %t.90.cubin
// RUN: apipe-opt %apipe_root/examples/copy_bw.mlir --apipe-make-sync | apipe-translate --sm=80 -o %t.sync80.ptx
// RUN: FileCheck %s --check-prefix=SYNC < %t.sync80.ptx
// RUN: %ptxas -arch=sm_80 %t.sync80.ptx -o %t.sync80.cubin
// RUN: apipe-opt %apipe_root/examples/copy_bw.mlir --apipe-make-sync | apipe-translate --sm=90 -o %t.sync90.ptx
// RUN: %ptxas -arch=sm_90 %t.sync90.ptx -o %t.sync90.cubin
// RUN: apipe-translate %apipe_root/examples/pipelined/copy_bw.mlir --sm=80 --to-cubin --resource-usage -o %t.usage.cubin | FileCheck %s --check-prefix=USAGE

// Prologue: tiles 0 and 1 (2048 bytes apart); steady state: commit (tile
// t + 2 or an empty group), wait with 2 groups in flight, no barrier (each
// thread reads what it copied), 16 bytes back out.
// CHECK-LABEL: .entry copy_bw(
// CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK-NEXT: cp.async.commit_group;
// CHECK-NEXT: cp.async.cg.shared.global [%rd{{[0-9]+}}+2048], [%rd{{[0-9]+}}+2048], 16;
// CHECK-NEXT: cp.async.commit_group;
// CHECK: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 2;
// CHECK: ld.shared.v4.b32
// CHECK-NOT: bar.sync
// CHECK: ret;

// SYNC-LABEL: .entry copy_bw(
// SYNC-NOT: cp.async
// SYNC: ret;

// USAGE: copy_bw: registers {{[0-9]+}}, spill stores 0 bytes, spill loads 0 bytes, shared memory 6144 bytes, stack 0 bytes
