// examples/stream_sum.mlir through the whole flow, for sm_80 and sm_90,
// every PTX assembled by ptxas. Until apipe-software-pipeline is merged, the
// pipelined kernel is the hand-pipelined counting form
// examples/pipelined/stream_sum.mlir (double buffering); the synchronous
// reference is apipe-make-sync of the annotated input.
//
// RUN: apipe-translate %apipe_root/examples/pipelined/stream_sum.mlir --sm=80 -o %t.80.ptx
// RUN: FileCheck %s < %t.80.ptx
// RUN: %ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
// RUN: apipe-translate %apipe_root/examples/pipelined/stream_sum.mlir --sm=90 -o %t.90.ptx
// RUN: FileCheck %s < %t.90.ptx
// RUN: %ptxas -arch=sm_90 %t.90.ptx -o %t.90.cubin
// RUN: apipe-opt %apipe_root/examples/stream_sum.mlir --apipe-make-sync | apipe-translate --sm=80 -o %t.sync80.ptx
// RUN: FileCheck %s --check-prefix=SYNC < %t.sync80.ptx
// RUN: %ptxas -arch=sm_80 %t.sync80.ptx -o %t.sync80.cubin
// RUN: apipe-opt %apipe_root/examples/stream_sum.mlir --apipe-make-sync | apipe-translate --sm=90 -o %t.sync90.ptx
// RUN: %ptxas -arch=sm_90 %t.sync90.ptx -o %t.sync90.cubin
// RUN: apipe-translate %apipe_root/examples/pipelined/stream_sum.mlir --sm=90 --to-cubin --resource-usage -o %t.usage.cubin | FileCheck %s --check-prefix=USAGE

// Each wait is followed by a barrier before the neighbour's floats are
// read, and a second barrier follows the read.
// CHECK-LABEL: .entry stream_sum(
// CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK-NEXT: cp.async.commit_group;
// CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK-NEXT: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 1;
// CHECK-NEXT: bar.sync 0;
// CHECK: ld.shared.v4.b32
// CHECK: bar.sync 0;
// CHECK: ret;

// SYNC-LABEL: .entry stream_sum(
// SYNC-NOT: cp.async
// SYNC: bar.sync 0;
// SYNC: ld.shared.v4.b32
// SYNC: bar.sync 0;
// SYNC: ret;

// USAGE: stream_sum: registers {{[0-9]+}}, spill stores 0 bytes, spill loads 0 bytes, shared memory 1024 bytes, stack 0 bytes
