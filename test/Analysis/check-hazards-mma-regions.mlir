// apipe-check-hazards on gpu.subgroup_mma_load_matrix in upstream form
// (after apipe-import-nvgpu), with the fragment placed from its
// leadDimension (trials 85, 86): a 16x16 fragment at [r, c] of a memref
// whose row stride is the leadDimension reads rows [r, r + 16) and columns
// [c, c + 16) where c provably keeps it in its rows; with a leadDimension
// of twice the row length it spans twice the rows; in a buffer of planes,
// a fragment not provably in its plane is taken to read the whole buffer.
// RUN: apipe-opt %s --split-input-file --apipe-import-nvgpu --apipe-check-hazards --verify-diagnostics -o /dev/null

// A 16x32 tile in two column slots: the fragment of slot 0 (columns 0-15)
// is read while slot 1's copy is in flight. No hazard (it was taken to read
// the whole 2-D buffer, a false read-after-write).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%A: memref<16x64xf16>, %out: memref<16x16xf16>)
        workgroup(%buf: memref<16x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %row = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%tid)
      %col = affine.apply affine_map<(d0) -> ((d0 mod 2) * 8)>(%tid)
      %col1 = affine.apply affine_map<(d0) -> ((d0 mod 2) * 8 + 16)>(%tid)
      %t0 = nvgpu.device_async_copy %A[%row, %col], %buf[%row, %col], 8 : memref<16x64xf16> to memref<16x32xf16, #gpu.address_space<workgroup>>
      %g0 = nvgpu.device_async_create_group %t0
      %t1 = nvgpu.device_async_copy %A[%row, %col1], %buf[%row, %col1], 8 : memref<16x64xf16> to memref<16x32xf16, #gpu.address_space<workgroup>>
      %g1 = nvgpu.device_async_create_group %t1
      nvgpu.device_async_wait %g0 {numGroups = 1 : i32}
      gpu.barrier
      %m = gpu.subgroup_mma_load_matrix %buf[%c0, %c0] {leadDimension = 32 : index} : memref<16x32xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %m, %out[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      nvgpu.device_async_wait %g1 {numGroups = 0 : i32}
      gpu.return
    }
  }
}

// -----

// A 32x16 tile in two row slots: the fragment of rows 16-31 is read while
// the copy into rows 0-15 is in flight. No hazard.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%A: memref<32x32xf16>, %out: memref<16x16xf16>)
        workgroup(%buf: memref<32x16xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %row = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%tid)
      %col = affine.apply affine_map<(d0) -> ((d0 mod 2) * 8)>(%tid)
      %row1 = affine.apply affine_map<(d0) -> (d0 floordiv 2 + 16)>(%tid)
      %t0 = nvgpu.device_async_copy %A[%row, %col], %buf[%row1, %col], 8 : memref<32x32xf16> to memref<32x16xf16, #gpu.address_space<workgroup>>
      %g0 = nvgpu.device_async_create_group %t0
      %t1 = nvgpu.device_async_copy %A[%row1, %col], %buf[%row, %col], 8 : memref<32x32xf16> to memref<32x16xf16, #gpu.address_space<workgroup>>
      %g1 = nvgpu.device_async_create_group %t1
      nvgpu.device_async_wait %g0 {numGroups = 1 : i32}
      gpu.barrier
      %m = gpu.subgroup_mma_load_matrix %buf[%c16, %c0] {leadDimension = 16 : index} : memref<32x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %m, %out[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      nvgpu.device_async_wait %g1 {numGroups = 0 : i32}
      gpu.return
    }
  }
}

// -----

// leadDimension 32 on memref<2x16x16xf16>: fragment row i starts at element
// 32 i, so rows 8-15 of the fragment lie in plane 1, whose copy is in
// flight: reported (it was taken to read plane 0 only, a missed hazard).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%A: memref<32x32xf16>, %out: memref<16x16xf16>)
        workgroup(%buf: memref<2x16x16xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %row = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%tid)
      %col = affine.apply affine_map<(d0) -> ((d0 mod 2) * 8)>(%tid)
      %row1 = affine.apply affine_map<(d0) -> (d0 floordiv 2 + 16)>(%tid)
      %t0 = nvgpu.device_async_copy %A[%row, %col], %buf[%c0, %row, %col], 8 : memref<32x32xf16> to memref<2x16x16xf16, #gpu.address_space<workgroup>>
      %g0 = nvgpu.device_async_create_group %t0
      // expected-note @+1 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
      %t1 = nvgpu.device_async_copy %A[%row1, %col], %buf[%c1, %row, %col], 8 : memref<32x32xf16> to memref<2x16x16xf16, #gpu.address_space<workgroup>>
      %g1 = nvgpu.device_async_create_group %t1
      // expected-note @+1 {{`pending = 1` leaves this copy's group in flight}}
      nvgpu.device_async_wait %g0 {numGroups = 1 : i32}
      gpu.barrier
      // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op reads a buffer region that an async copy may still be writing (read-after-write)}}
      %m = gpu.subgroup_mma_load_matrix %buf[%c0, %c0, %c0] {leadDimension = 32 : index} : memref<2x16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %m, %out[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      nvgpu.device_async_wait %g1 {numGroups = 0 : i32}
      gpu.return
    }
  }
}

// -----

// A row index computed from the thread id, `(tid floordiv 32) * 8 + 8` (8 in
// a block of 32): the 16-row fragment from row 8 of plane 0 reaches rows
// 0-7 of plane 1, whose copy is in flight (trial 86: it was taken to stay
// in its plane). Reported.
module attributes {gpu.container_module} {
gpu.module @k {
gpu.func @kern(%g: memref<64x64xf16>) workgroup(%s: memref<2x16x32xf16, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %tid = gpu.thread_id x
  %w = arith.divui %tid, %c16 : index
  %r4 = affine.apply affine_map<(t) -> (t floordiv 4)>(%tid)
  %cc = affine.apply affine_map<(t) -> ((t mod 4) * 8)>(%tid)
  %warp = affine.apply affine_map<(t) -> (t floordiv 32)>(%tid)
  // expected-note @+2 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
  %t = nvgpu.device_async_copy %g[%c0, %c0], %s[%c1, %r4, %cc], 8 : memref<64x64xf16> to memref<2x16x32xf16, #gpu.address_space<workgroup>>
  %grp = nvgpu.device_async_create_group %t
  %r = affine.apply affine_map<(t) -> ((t floordiv 32) * 8 + 8)>(%tid)
  // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op reads a buffer region that an async copy may still be writing (read-after-write)}}
  %f = gpu.subgroup_mma_load_matrix %s[%c0, %r, %c0] {leadDimension = 32 : index} : memref<2x16x32xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  nvgpu.device_async_wait %grp {numGroups = 0 : i32}
  gpu.barrier
  gpu.return
}
}
}

// -----

// A column index `warp * 16` (warp 0 or 1 in a block of 64) on a 32x32
// tile whose rows 16-31 are being copied: the fragment provably lies in
// rows 0-15, columns [16 warp, 16 warp + 16). No hazard (trial 86: the
// computed column made it every row the leadDimension could reach).
module attributes {gpu.container_module} {
gpu.module @k {
gpu.func @kern(%g: memref<64x64xf16>) workgroup(%s: memref<32x32xf16, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %tid = gpu.thread_id x
  %w = arith.divui %tid, %c16 : index
  %r4 = affine.apply affine_map<(t) -> (t floordiv 4)>(%tid)
  %cc = affine.apply affine_map<(t) -> ((t mod 4) * 8)>(%tid)
  %warp = affine.apply affine_map<(t) -> (t floordiv 32)>(%tid)
  %rr = affine.apply affine_map<(t) -> (t floordiv 4 + 16)>(%tid)
  %t = nvgpu.device_async_copy %g[%c0, %c0], %s[%rr, %cc], 8 : memref<64x64xf16> to memref<32x32xf16, #gpu.address_space<workgroup>>
  %grp = nvgpu.device_async_create_group %t
  %cw = affine.apply affine_map<(w) -> (w * 16)>(%warp)
  %f = gpu.subgroup_mma_load_matrix %s[%c0, %cw] {leadDimension = 32 : index} : memref<32x32xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  nvgpu.device_async_wait %grp {numGroups = 0 : i32}
  gpu.barrier
  gpu.return
}
}
}
