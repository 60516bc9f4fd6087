// Upstream nvgpu shapes through import, the counting/token round trip
// (strict) and export:
// - a group that re-lists a token already in a group (upstream's
//   optimize-shared-memory.mlir does this): a located warning, and the
//   meaning the hardware runs (cp.async.commit_group commits every copy
//   issued since the previous group) is kept: the export lists the copy the
//   group really holds;
// - `device_async_wait %g {numGroups = 1}` after a single group (upstream's
//   nvgpu-to-nvvm.mlir, roundtrip.mlir): in a function that may be entered
//   with the caller's groups in flight it waits for one of them, and
//   survives every step;
// - an i4 copy of 32 elements is a 16-byte cp.async, as upstream lowers it.
// RUN: apipe-opt %s --split-input-file --apipe-import-nvgpu --verify-diagnostics | FileCheck %s --check-prefix=IMPORT
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(apipe-import-nvgpu,apipe-counting-to-tokens,apipe-tokens-to-counting{strict=true},apipe-to-nvgpu)' 2>/dev/null | FileCheck %s --check-prefix=EXPORT
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(apipe-import-nvgpu,apipe-tokens-to-counting,apipe-to-nvgpu{tokens=true})' 2>/dev/null | FileCheck %s --check-prefix=EXPORT
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(apipe-import-nvgpu,apipe-tokens-to-counting,apipe-merge-queues,apipe-to-nvgpu)' 2>/dev/null | FileCheck %s --check-prefix=EXPORT

// IMPORT-LABEL: func.func @regroup
// IMPORT-SAME: %[[A:[^:]*]]: memref<8xf32, 3>, %[[B:[^:]*]]: memref<8xf32, 3>
// IMPORT: apipe.copy %{{.*}}, %[[A]][
// IMPORT-NEXT: {{^ *}}apipe.commit_group{{$}}
// IMPORT-NEXT: apipe.copy %{{.*}}, %[[B]][
// IMPORT-NEXT: {{^ *}}apipe.commit_group{{$}}
// IMPORT-NEXT: apipe.wait_group 0{{$}}
// EXPORT-LABEL: func.func @regroup
// EXPORT-SAME: %[[A:[^:]*]]: memref<8xf32, 3>, %[[B:[^:]*]]: memref<8xf32, 3>
// EXPORT: %[[T0:.*]] = nvgpu.device_async_copy %{{.*}}, %[[A]][
// EXPORT-NEXT: nvgpu.device_async_create_group %[[T0]]
// EXPORT-NEXT: %[[T1:.*]] = nvgpu.device_async_copy %{{.*}}, %[[B]][
// EXPORT-NEXT: %[[G1:.*]] = nvgpu.device_async_create_group %[[T1]]
// EXPORT: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
func.func @regroup(%g: memref<64xf32>, %a: memref<8xf32, 3>, %b: memref<8xf32, 3>, %i: index) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{listed here, already committed by an earlier group}}
  %0 = nvgpu.device_async_copy %g[%i], %a[%c0], 4 : memref<64xf32> to memref<8xf32, 3>
  %1 = nvgpu.device_async_create_group %0
  // expected-note @+1 {{not listed, committed by this group}}
  %2 = nvgpu.device_async_copy %g[%i], %b[%c0], 4 : memref<64xf32> to memref<8xf32, 3>
  // expected-warning @+1 {{'nvgpu.device_async_create_group' op lists other copies than the ones it commits: cp.async.commit_group commits every copy the thread issued since the previous group, so this group holds those (the import keeps that meaning)}}
  %3 = nvgpu.device_async_create_group %0
  nvgpu.device_async_wait %3 {numGroups = 0 : i32}
  %v = memref.load %b[%c0] : memref<8xf32, 3>
  return %v : f32
}

// -----

// Two copies, one listed: the unlisted one is in the group anyway.
// IMPORT-LABEL: func.func @unlisted_copy
// EXPORT-LABEL: func.func @unlisted_copy
// EXPORT: %[[T0:.*]] = nvgpu.device_async_copy
// EXPORT-NEXT: %[[T1:.*]] = nvgpu.device_async_copy
// EXPORT-NEXT: nvgpu.device_async_create_group %[[T0]], %[[T1]]
func.func @unlisted_copy(%g: memref<64xf32>, %a: memref<8xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %0 = nvgpu.device_async_copy %g[%i], %a[%c0], 4 : memref<64xf32> to memref<8xf32, 3>
  // expected-note @+1 {{not listed, committed by this group}}
  %1 = nvgpu.device_async_copy %g[%i], %a[%c4], 4 : memref<64xf32> to memref<8xf32, 3>
  // expected-warning @+1 {{'nvgpu.device_async_create_group' op lists other copies than the ones it commits}}
  %2 = nvgpu.device_async_create_group %0
  nvgpu.device_async_wait %2 {numGroups = 0 : i32}
  return
}

// -----

// Lists matching the groups: no warning.
// IMPORT-LABEL: func.func @well_listed
func.func @well_listed(%g: memref<64xf32>, %a: memref<8xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %0 = nvgpu.device_async_copy %g[%i], %a[%c0], 4 : memref<64xf32> to memref<8xf32, 3>
  %1 = nvgpu.device_async_copy %g[%i], %a[%c4], 4 : memref<64xf32> to memref<8xf32, 3>
  %2 = nvgpu.device_async_create_group %0, %1
  nvgpu.device_async_wait %2
  return
}

// -----

// IMPORT-LABEL: func.func @async_cp_wait_one
// IMPORT: {{^ *}}apipe.commit_group{{$}}
// IMPORT-NEXT: apipe.wait_group 1{{$}}
// EXPORT-LABEL: func.func @async_cp_wait_one
// EXPORT: nvgpu.device_async_create_group
// EXPORT: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
func.func @async_cp_wait_one(%src: memref<128x128xf32>, %dst: memref<3x16x128xf32, 3>, %i : index) {
  %0 = nvgpu.device_async_copy %src[%i, %i], %dst[%i, %i, %i], 4 : memref<128x128xf32> to memref<3x16x128xf32, 3>
  // expected-note @+1 {{the waited group}}
  %1 = nvgpu.device_async_create_group %0
  // expected-warning @+1 {{numGroups = 1 leaves the waited group pending}}
  nvgpu.device_async_wait %1 { numGroups = 1 : i32 }
  return
}

// -----

// IMPORT-LABEL: func.func @async_cp_i4
// IMPORT: apipe.copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 32 : memref<128x64xi4> to memref<128x128xi4, 3>
// EXPORT-LABEL: func.func @async_cp_i4
// EXPORT: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 32 : memref<128x64xi4> to memref<128x128xi4, 3>
func.func @async_cp_i4(%src: memref<128x64xi4>, %dst: memref<128x128xi4, 3>, %i : index) -> i4 {
  %0 = nvgpu.device_async_copy %src[%i, %i], %dst[%i, %i], 32 : memref<128x64xi4> to memref<128x128xi4, 3>
  %1 = nvgpu.device_async_create_group %0
  nvgpu.device_async_wait %1 {numGroups = 0 : i32}
  %v = memref.load %dst[%i, %i] : memref<128x128xi4, 3>
  return %v : i4
}
