// Export then import gives the counting form back with every count
// unchanged (placeholder tokens of the export disappear).
//
// RUN: apipe-opt %s --apipe-to-nvgpu | apipe-opt --apipe-import-nvgpu | FileCheck %s
// RUN: apipe-opt %apipe_root/examples/pipelined/sgemm.mlir --apipe-to-nvgpu | apipe-opt --apipe-import-nvgpu | FileCheck %s --check-prefix=SGEMM

// CHECK-LABEL: func.func @loop_with_three_counts
// CHECK: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: scf.for
// CHECK-NEXT: apipe.copy
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait_group 2{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: apipe.wait_group 0{{$}}
// CHECK-NOT: nvgpu
// CHECK-NOT: unrealized_conversion_cast
func.func @loop_with_three_counts(%a: memref<64xf32>, %b: memref<8xf32, 3>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.copy %a[%i], %b[%c0], 2 : memref<64xf32> to memref<8xf32, 3>
    apipe.commit_group
    apipe.wait_group 2
  }
  apipe.wait_group 1
  apipe.wait_group 0
  return
}

// SGEMM-LABEL: gpu.func @sgemm
// SGEMM-COUNT-2: {{^ *}}apipe.commit_group{{$}}
// SGEMM: scf.for
// SGEMM-NEXT: apipe.wait_group 1{{$}}
// SGEMM-NEXT: gpu.barrier
// SGEMM: {{^ *}}apipe.commit_group{{$}}
// SGEMM-NOT: nvgpu
