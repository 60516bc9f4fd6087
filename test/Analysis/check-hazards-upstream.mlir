// RUN: apipe-opt %s --split-input-file --apipe-import-nvgpu --apipe-check-hazards --verify-diagnostics
//
// The four-stage loop with its wait lowered by one (`numGroups = 4`: four
// groups may stay in flight, among them the tile being read): the import
// warns that the count contradicts the token, the check reports the read.
// RUN: sed 's/numGroups = 3 : i32/numGroups = 4 : i32/' %s | not apipe-opt - --split-input-file --apipe-import-nvgpu --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=WEAK
// WEAK: warning: 'nvgpu.device_async_wait' op numGroups = 4 leaves the waited group pending: only 3 groups are committed after it, so the count contradicts the token
// WEAK: error: 'nvgpu.ldmatrix' op reads a buffer region that an async copy may still be writing (read-after-write)
// WEAK-NEXT: %m = nvgpu.ldmatrix %smem[%cs, %lrow, %c0]
// WEAK: note: the async copy still in flight; 3 newer group(s) committed on queue 0 since its group
// WEAK: note: `pending = 4` leaves this copy's group in flight: 3 newer group(s) are committed on queue 0 when it waits; `pending <= 3` completes it

// Kernels in the shapes of upstream MLIR's nvgpu tests and IREE's pipelined
// matmuls, written in nvgpu ops and imported with apipe-import-nvgpu: an
// ldmatrix consumer and an mma-load consumer of an async copy, and a
// four-stage pipelined loop (four buffers, three groups in flight,
// `numGroups = 3`). Their reads are found through MLIR's memory effects.

// An ldmatrix consumer: every thread copies 16 bytes of a 32x32 f16 tile,
// waits, meets the others at a barrier, and reads a 16x16 matrix fragment.
func.func @ldmatrix_consumer(%g: memref<128x128xf16>) -> vector<4x2xf16> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %tid = gpu.thread_id x
  %row = arith.divui %tid, %c4 : index
  %q = arith.remui %tid, %c4 : index
  %col = arith.muli %q, %c8 : index
  %s = memref.alloc() : memref<32x32xf16, 3>
  %0 = nvgpu.device_async_copy %g[%row, %col], %s[%row, %col], 8 : memref<128x128xf16> to memref<32x32xf16, 3>
  %1 = nvgpu.device_async_create_group %0
  nvgpu.device_async_wait %1 {numGroups = 0 : i32}
  gpu.barrier
  %lrow = arith.remui %tid, %c16 : index
  %m = nvgpu.ldmatrix %s[%lrow, %c0] {numTiles = 4 : i32, transpose = false} : memref<32x32xf16, 3> -> vector<4x2xf16>
  return %m : vector<4x2xf16>
}

// -----

// An mma-load consumer of the same tile.
func.func @mma_load_consumer(%g: memref<128x128xf16>) -> !gpu.mma_matrix<16x16xf16, "AOp"> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %tid = gpu.thread_id x
  %row = arith.divui %tid, %c4 : index
  %q = arith.remui %tid, %c4 : index
  %col = arith.muli %q, %c8 : index
  %s = memref.alloc() : memref<32x40xf16, 3>
  %0 = nvgpu.device_async_copy %g[%row, %col], %s[%row, %col], 8 : memref<128x128xf16> to memref<32x40xf16, 3>
  %1 = nvgpu.device_async_create_group %0
  nvgpu.device_async_wait %1 {numGroups = 0 : i32}
  gpu.barrier
  %m = gpu.subgroup_mma_load_matrix %s[%c0, %c0] {leadDimension = 40 : index} : memref<32x40xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
  return %m : !gpu.mma_matrix<16x16xf16, "AOp">
}

// -----

// A four-stage pipelined loop: three tiles in flight, four buffers; tile
// k + 3 goes into buffer (k + 3) mod 4 after a barrier (every thread has
// read tile k - 1 from that buffer), the wait leaves the three newest groups
// in flight (`numGroups = 3`: tile k is complete), a barrier makes it
// visible, ldmatrix reads buffer k mod 4.
#mod4 = affine_map<(d0) -> (d0 mod 4)>
func.func @four_stage_pipeline(%A: memref<1024x64xf16>) -> vector<4x2xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c29 = arith.constant 29 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  %zero = arith.constant dense<0.0> : vector<4x2xf16>
  %tid = gpu.thread_id x
  %row = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %col = arith.muli %q, %c8 : index
  %lrow = arith.remui %tid, %c16 : index
  %smem = memref.alloc() : memref<4x32x64xf16, 3>
  %r1 = arith.addi %row, %c32 : index
  %r2 = arith.addi %row, %c64 : index
  %t0 = nvgpu.device_async_copy %A[%row, %col], %smem[%c0, %row, %col], 8 : memref<1024x64xf16> to memref<4x32x64xf16, 3>
  %g0 = nvgpu.device_async_create_group %t0
  %t1 = nvgpu.device_async_copy %A[%r1, %col], %smem[%c1, %row, %col], 8 : memref<1024x64xf16> to memref<4x32x64xf16, 3>
  %g1 = nvgpu.device_async_create_group %t1
  %t2 = nvgpu.device_async_copy %A[%r2, %col], %smem[%c2, %row, %col], 8 : memref<1024x64xf16> to memref<4x32x64xf16, 3>
  %g2 = nvgpu.device_async_create_group %t2
  %res:4 = scf.for %k = %c0 to %c29 step %c1 iter_args(%acc = %zero, %ga = %g0, %gb = %g1, %gc = %g2) -> (vector<4x2xf16>, !nvgpu.device.async.token, !nvgpu.device.async.token, !nvgpu.device.async.token) {
    gpu.barrier
    %nk = arith.addi %k, %c3 : index
    %ns = affine.apply #mod4(%nk)
    %base = arith.muli %nk, %c32 : index
    %grow = arith.addi %base, %row : index
    %t = nvgpu.device_async_copy %A[%grow, %col], %smem[%ns, %row, %col], 8 : memref<1024x64xf16> to memref<4x32x64xf16, 3>
    %g = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %ga {numGroups = 3 : i32}
    gpu.barrier
    %cs = affine.apply #mod4(%k)
    %m = nvgpu.ldmatrix %smem[%cs, %lrow, %c0] {numTiles = 4 : i32, transpose = false} : memref<4x32x64xf16, 3> -> vector<4x2xf16>
    %acc2 = arith.addf %acc, %m : vector<4x2xf16>
    scf.yield %acc2, %gb, %gc, %g : vector<4x2xf16>, !nvgpu.device.async.token, !nvgpu.device.async.token, !nvgpu.device.async.token
  }
  nvgpu.device_async_wait %res#1 {numGroups = 0 : i32}
  gpu.barrier
  %m29 = nvgpu.ldmatrix %smem[%c1, %lrow, %c0] {numTiles = 4 : i32, transpose = false} : memref<4x32x64xf16, 3> -> vector<4x2xf16>
  %s = arith.addf %res#0, %m29 : vector<4x2xf16>
  return %s : vector<4x2xf16>
}

// -----

// The ldmatrix consumer reading before the wait (read-after-write), and the
// mma-load consumer without the barrier after the wait (the fragment spans
// other threads' rows).
func.func @ldmatrix_before_wait(%g: memref<128x128xf16>) -> vector<4x2xf16> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %tid = gpu.thread_id x
  %row = arith.divui %tid, %c4 : index
  %q = arith.remui %tid, %c4 : index
  %col = arith.muli %q, %c8 : index
  %s = memref.alloc() : memref<32x32xf16, 3>
  // expected-note @+2 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
  %0 = nvgpu.device_async_copy %g[%row, %col], %s[%row, %col], 8 : memref<128x128xf16> to memref<32x32xf16, 3>
  %1 = nvgpu.device_async_create_group %0
  %lrow = arith.remui %tid, %c16 : index
  // expected-error @+1 {{'nvgpu.ldmatrix' op reads a buffer region that an async copy may still be writing (read-after-write)}}
  %m = nvgpu.ldmatrix %s[%lrow, %c0] {numTiles = 4 : i32, transpose = false} : memref<32x32xf16, 3> -> vector<4x2xf16>
  nvgpu.device_async_wait %1 {numGroups = 0 : i32}
  return %m : vector<4x2xf16>
}

func.func @mma_load_without_barrier(%g: memref<128x128xf16>) -> !gpu.mma_matrix<16x16xf16, "AOp"> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %tid = gpu.thread_id x
  %row = arith.divui %tid, %c4 : index
  %q = arith.remui %tid, %c4 : index
  %col = arith.muli %q, %c8 : index
  %s = memref.alloc() : memref<32x40xf16, 3>
  // expected-note @+1 {{the async copy, issued by every thread: other threads' copies may not have landed}}
  %0 = nvgpu.device_async_copy %g[%row, %col], %s[%row, %col], 8 : memref<128x128xf16> to memref<32x40xf16, 3>
  %1 = nvgpu.device_async_create_group %0
  // expected-note @+1 {{this wait completes the copy for the waiting thread only; no gpu.barrier follows it on some path to the access}}
  nvgpu.device_async_wait %1 {numGroups = 0 : i32}
  // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)}}
  %m = gpu.subgroup_mma_load_matrix %s[%c0, %c0] {leadDimension = 40 : index} : memref<32x40xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
  return %m : !gpu.mma_matrix<16x16xf16, "AOp">
}

// -----

// The four-stage loop without the barrier before the copy: a fast thread
// issues tile k + 3 into the buffer a slow thread still reads tile k - 1
// from.
#mod4 = affine_map<(d0) -> (d0 mod 4)>
func.func @four_stage_copy_before_barrier(%A: memref<1024x64xf16>) -> vector<4x2xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c29 = arith.constant 29 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.0> : vector<4x2xf16>
  %tid = gpu.thread_id x
  %row = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %col = arith.muli %q, %c8 : index
  %lrow = arith.remui %tid, %c16 : index
  %smem = memref.alloc() : memref<4x32x64xf16, 3>
  %r1 = arith.addi %row, %c32 : index
  %r2 = arith.addi %row, %c64 : index
  %t0 = nvgpu.device_async_copy %A[%row, %col], %smem[%c0, %row, %col], 8 : memref<1024x64xf16> to memref<4x32x64xf16, 3>
  %g0 = nvgpu.device_async_create_group %t0
  %t1 = nvgpu.device_async_copy %A[%r1, %col], %smem[%c1, %row, %col], 8 : memref<1024x64xf16> to memref<4x32x64xf16, 3>
  %g1 = nvgpu.device_async_create_group %t1
  %t2 = nvgpu.device_async_copy %A[%r2, %col], %smem[%c2, %row, %col], 8 : memref<1024x64xf16> to memref<4x32x64xf16, 3>
  %g2 = nvgpu.device_async_create_group %t2
  // expected-note @+1 {{the read is carried into the next iteration of this loop with no gpu.barrier after it}}
  %res:4 = scf.for %k = %c0 to %c29 step %c1 iter_args(%acc = %zero, %ga = %g0, %gb = %g1, %gc = %g2) -> (vector<4x2xf16>, !nvgpu.device.async.token, !nvgpu.device.async.token, !nvgpu.device.async.token) {
    %nk = arith.addi %k, %c3 : index
    %ns = affine.apply #mod4(%nk)
    %base = arith.muli %nk, %c32 : index
    %grow = arith.addi %base, %row : index
    // expected-error @+1 {{'apipe.copy' op overwrites data that other threads may still be reading, with no gpu.barrier between their read and this copy (missing barrier)}}
    %t = nvgpu.device_async_copy %A[%grow, %col], %smem[%ns, %row, %col], 8 : memref<1024x64xf16> to memref<4x32x64xf16, 3>
    %g = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %ga {numGroups = 3 : i32}
    gpu.barrier
    %cs = affine.apply #mod4(%k)
    // expected-note @+1 {{the read of other threads' data in the previous iteration: no gpu.barrier follows it before the copy on some path}}
    %m = nvgpu.ldmatrix %smem[%cs, %lrow, %c0] {numTiles = 4 : i32, transpose = false} : memref<4x32x64xf16, 3> -> vector<4x2xf16>
    %acc2 = arith.addf %acc, %m : vector<4x2xf16>
    scf.yield %acc2, %gb, %gc, %g : vector<4x2xf16>, !nvgpu.device.async.token, !nvgpu.device.async.token, !nvgpu.device.async.token
  }
  nvgpu.device_async_wait %res#1 {numGroups = 0 : i32}
  gpu.barrier
  %m29 = nvgpu.ldmatrix %smem[%c1, %lrow, %c0] {numTiles = 4 : i32, transpose = false} : memref<4x32x64xf16, 3> -> vector<4x2xf16>
  %s = arith.addf %res#0, %m29 : vector<4x2xf16>
  return %s : vector<4x2xf16>
}
