// RUN: apipe-opt %s --split-input-file --apipe-to-nvgpu | FileCheck %s

// Each copy becomes nvgpu.device_async_copy (operands dst first, as nvgpu
// prints them src first), each commit a create_group over the copies of its
// group, each wait a device_async_wait with numGroups = pending on the token
// of the group it forces complete.

// CHECK-LABEL: func.func @two_groups_wait_one
// CHECK-SAME: (%[[SRC:.*]]: memref<64xf32>, %[[DST:.*]]: memref<2x8xf32, 3>, %[[I:.*]]: index, %[[N:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[T0:.*]] = nvgpu.device_async_copy %[[SRC]][%[[I]]], %[[DST]][%[[C0]], %[[C0]]], 4 {bypassL1} : memref<64xf32> to memref<2x8xf32, 3>
// CHECK-NEXT: %[[G0:.*]] = nvgpu.device_async_create_group %[[T0]]
// CHECK-NEXT: %[[T1:.*]] = nvgpu.device_async_copy %[[SRC]][%[[I]]], %[[DST]][%[[C1]], %[[C0]]], 2, %[[N]] : memref<64xf32> to memref<2x8xf32, 3>
// CHECK-NEXT: %[[G1:.*]] = nvgpu.device_async_create_group %[[T1]]
// CHECK-NEXT: nvgpu.device_async_wait %[[G0]] {numGroups = 1 : i32}
// CHECK-NEXT: return
// CHECK-NOT: apipe.
func.func @two_groups_wait_one(%src: memref<64xf32>, %dst: memref<2x8xf32, 3>, %i: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.copy %src[%i], %dst[%c0, %c0], 4 {bypass_l1} : memref<64xf32> to memref<2x8xf32, 3>
  apipe.commit_group
  apipe.copy %src[%i], %dst[%c1, %c0], 2, %n : memref<64xf32> to memref<2x8xf32, 3>
  apipe.commit_group
  apipe.wait_group 1
  return
}

// -----

// bypass_l1 only survives on 16-byte copies: PTX .cg exists for 16 bytes only.

// CHECK-LABEL: func.func @bypass_dropped_below_sixteen_bytes
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], 2 : memref<64xf32> to memref<8xf32, 3>
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], 8 {bypassL1} : memref<64xf16> to memref<8xf16, 3>
func.func @bypass_dropped_below_sixteen_bytes(%a: memref<64xf32>, %b: memref<8xf32, 3>, %h: memref<64xf16>, %hb: memref<8xf16, 3>, %i: index) {
  apipe.copy %a[%i], %b[%i], 2 {bypass_l1} : memref<64xf32> to memref<8xf32, 3>
  apipe.copy %h[%i], %hb[%i], 8 {bypass_l1} : memref<64xf16> to memref<8xf16, 3>
  apipe.commit_group
  apipe.wait_group 0
  return
}

// -----

// A wait in a loop forces a group of an earlier iteration: no value names
// it, so the wait gets a placeholder token (dropped by the lowering). A copy
// inside an scf.if still belongs to the commit after it (a placeholder
// stands in for its token).

// CHECK-LABEL: func.func @loop_wait_placeholder
// CHECK: scf.for
// CHECK: scf.if
// CHECK-NEXT: nvgpu.device_async_copy
// CHECK-NEXT: }
// CHECK-NEXT: %[[P:.*]] = builtin.unrealized_conversion_cast to !nvgpu.device.async.token
// CHECK-NEXT: %{{.*}} = nvgpu.device_async_create_group %[[P]]
// CHECK-NEXT: %[[W:.*]] = builtin.unrealized_conversion_cast to !nvgpu.device.async.token
// CHECK-NEXT: nvgpu.device_async_wait %[[W]] {numGroups = 1 : i32}
func.func @loop_wait_placeholder(%a: memref<64xf32>, %b: memref<8xf32, 3>, %n: index, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.if %p {
      apipe.copy %a[%i], %b[%c0], 1 : memref<64xf32> to memref<8xf32, 3>
    }
    apipe.commit_group
    apipe.wait_group 1
  }
  return
}

// -----

// The forced group is found through an enclosing scf.if: two groups before
// the if, a wait with pending = 1 inside it names the first.

// CHECK-LABEL: func.func @wait_inside_if_names_outer_group
// CHECK: %[[G0:.*]] = nvgpu.device_async_create_group
// CHECK: %[[G1:.*]] = nvgpu.device_async_create_group
// CHECK: scf.if
// CHECK-NEXT: nvgpu.device_async_wait %[[G0]] {numGroups = 1 : i32}
func.func @wait_inside_if_names_outer_group(%a: memref<64xf32>, %b: memref<8xf32, 3>, %p: i1) {
  %c0 = arith.constant 0 : index
  apipe.copy %a[%c0], %b[%c0], 4 : memref<64xf32> to memref<8xf32, 3>
  apipe.commit_group
  apipe.copy %a[%c0], %b[%c0], 4 : memref<64xf32> to memref<8xf32, 3>
  apipe.commit_group
  scf.if %p {
    apipe.wait_group 1
  }
  return
}

// -----

// A workgroup memref.alloc in a kernel becomes a workgroup attribution (one
// buffer per block, as the alloc means; upstream would lower the alloc to a
// per-thread malloc): its alignment (raised to the 16-byte copy) becomes
// llvm.align, every use moves to it, the alloc and its dealloc are gone;
// a second one keeps its order. An alloc in another memory space stays.
// CHECK-LABEL: gpu.func @workgroup_allocs
// CHECK-SAME: workgroup(%[[B:.*]] : memref<8xf32, #gpu.address_space<workgroup>> {llvm.align = 64 : i64}, %[[C:.*]] : memref<4xi32, 3> {llvm.align = 16 : i64})
// CHECK-NEXT: %[[P:.*]] = memref.alloca() : memref<4xf32>
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %[[B]][%{{.*}}], 4
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %[[C]][%{{.*}}], 4
// CHECK: memref.load %[[P]]
// CHECK-NOT: memref.alloc(
// CHECK-NOT: memref.dealloc
// CHECK: gpu.return
gpu.module @m {
  gpu.func @workgroup_allocs(%a: memref<64xf32>, %ai: memref<64xi32>, %i: index) kernel {
    %b = memref.alloc() {alignment = 64 : i64} : memref<8xf32, #gpu.address_space<workgroup>>
    %c = memref.alloca() : memref<4xi32, 3>
    %p = memref.alloca() : memref<4xf32>
    apipe.copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, #gpu.address_space<workgroup>>
    apipe.copy %ai[%i], %c[%i], 4 : memref<64xi32> to memref<4xi32, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %p[%i] : memref<4xf32>
    memref.dealloc %b : memref<8xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
