// The pipeliner in a gpu.func: every version of a multi-buffered buffer
// starts aligned to the largest copy into it (the version stride is padded),
// and the cp.async size and alignment rules (4, 8 or 16 bytes, addresses
// aligned to the size; PTX ISA 9.7.9.25.3.1) are located errors at
// pipelining time. Workgroup memory allocated with memref.alloc in a kernel
// becomes a workgroup attribution (shared memory), never a per-thread
// malloc. The PTX of each case is assembled by ptxas.
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline | FileCheck %s
// RUN: apipe-opt %S/Inputs/gpu-legality-misaligned-versions.mlir --apipe-software-pipeline | apipe-translate - --sm=80 -o %t.06.ptx
// RUN: FileCheck %s --check-prefix=PTX06 < %t.06.ptx
// RUN: %ptxas -arch=sm_80 %t.06.ptx -o %t.06.cubin
// RUN: apipe-opt %S/Inputs/gpu-legality-workgroup-alloc.mlir --apipe-software-pipeline | apipe-translate - --sm=80 -o %t.10.ptx
// RUN: FileCheck %s --check-prefix=PTX10 < %t.10.ptx
// RUN: %ptxas -arch=sm_80 %t.10.ptx -o %t.10.cubin
// RUN: apipe-translate %S/Inputs/gpu-legality-workgroup-alloc.mlir --sm=90 -o %t.10u.ptx
// RUN: FileCheck %s --check-prefix=PTX10U < %t.10u.ptx
// RUN: %ptxas -arch=sm_90 %t.10u.ptx -o %t.10u.cubin

// A 24-byte buffer written by 16-byte copies: versions of 8 floats (32
// bytes), so the second version starts at byte 32, not 24 (a report: the
// PTX had `cp.async [__wg_k_0+24], ..., 16`).
// PTX06: .shared .align 16 .b8 __wg_k_0[96];
// PTX06: cp.async.ca.shared.global [__wg_k_0], [%rd{{[0-9]+}}], 16;
// PTX06: cp.async.ca.shared.global [__wg_k_0+32], [%rd{{[0-9]+}}+16], 16;
// PTX06-NOT: __wg_k_0+24
// PTX10: .shared .align 16 .b8 __wg_stream_0[1536];
// PTX10-NOT: malloc
// PTX10-NOT: cvta.to.shared
// Not pipelined, the alloc becomes an attribution in apipe-translate.
// PTX10U: .shared .align 16 .b8 __wg_stream_0[512];
// PTX10U-NOT: malloc
// PTX10U-NOT: cvta.to.shared

// CHECK-LABEL: gpu.func @padded_versions
// CHECK-SAME: workgroup(%[[T:.*]] : memref<3x8xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.subview %[[T]][%{{.*}}, 0] [1, 6] [1, 1] : memref<3x8xf32, #gpu.address_space<workgroup>> to memref<6xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @padded_versions(%A: memref<4096xf32> {llvm.noalias}, %out: memref<32xf32> {llvm.noalias}) workgroup(%tile: memref<6xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %s = scf.for %t = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
      %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
      apipe.copy %A[%off], %tile[%c0], 4 {apipe.stage = 0 : i64} : memref<4096xf32> to memref<6xf32, #gpu.address_space<workgroup>>
      %x = memref.load %tile[%c1] {apipe.stage = 2 : i64} : memref<6xf32, #gpu.address_space<workgroup>>
      %a2 = arith.addf %acc, %x {apipe.stage = 2 : i64} : f32
      scf.yield %a2 : f32
    } {apipe.async_stages = array<i64: 0>}
    memref.store %s, %out[%tid] : memref<32xf32>
    gpu.return
  }
}
}

// -----

// f16 rows of 5 (10 bytes) under 4-byte copies: 2 rows per version (20
// bytes, a multiple of 4) instead of 1.
// CHECK-LABEL: gpu.func @padded_rows
// CHECK-SAME: workgroup(%[[T:.*]] : memref<2x2x5xf16, 3>)
// CHECK: memref.subview %[[T]][%{{.*}}, 0, 0] [1, 1, 5] [1, 1, 1] : memref<2x2x5xf16, 3> to memref<1x5xf16, strided<[5, 1], offset: ?>, 3>
gpu.module @m {
  gpu.func @padded_rows(%A: memref<4096xf16> {llvm.noalias}, %out: memref<32xf16> {llvm.noalias}) workgroup(%tile: memref<1x5xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %t = %c0 to %c16 step %c1 {
      %off = arith.muli %t, %c16 {apipe.stage = 0 : i64} : index
      apipe.copy %A[%off], %tile[%c0, %c0], 2 {apipe.stage = 0 : i64} : memref<4096xf16> to memref<1x5xf16, 3>
      %x = memref.load %tile[%c0, %c1] {apipe.stage = 1 : i64} : memref<1x5xf16, 3>
      memref.store %x, %out[%t] {apipe.stage = 1 : i64} : memref<32xf16>
    } {apipe.async_stages = array<i64: 0>}
    gpu.return
  }
}

// -----

// A version (48 bytes) that is already a multiple of the copy size (8) is
// not padded.
// CHECK-LABEL: gpu.func @no_padding_needed
// CHECK-SAME: workgroup(%{{.*}} : memref<2x2x6xf32, 3>)
gpu.module @m {
  gpu.func @no_padding_needed(%A: memref<4096xf32> {llvm.noalias}, %out: memref<32xf32> {llvm.noalias}) workgroup(%tile: memref<2x6xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %t = %c0 to %c16 step %c1 {
      %off = arith.muli %t, %c16 {apipe.stage = 0 : i64} : index
      apipe.copy %A[%off], %tile[%c1, %c0], 2 {apipe.stage = 0 : i64} : memref<4096xf32> to memref<2x6xf32, 3>
      %x = memref.load %tile[%c1, %c1] {apipe.stage = 1 : i64} : memref<2x6xf32, 3>
      memref.store %x, %out[%t] {apipe.stage = 1 : i64} : memref<32xf32>
    } {apipe.async_stages = array<i64: 0>}
    gpu.return
  }
}

// -----

// A workgroup memref.alloc in the kernel's entry block, multi-buffered:
// the expanded buffer is a workgroup attribution, the alloc is gone.
// CHECK-LABEL: gpu.func @workgroup_alloc
// CHECK-SAME: workgroup(%{{.*}} : memref<2x128xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK: gpu.return
gpu.module @m {
  gpu.func @workgroup_alloc(%A: memref<8192xf32> {llvm.noalias}, %out: memref<32xf32> {llvm.noalias}) kernel {
    %tile = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %tid = gpu.thread_id x
    %my = arith.muli %tid, %c4 : index
    scf.for %t = %c0 to %c16 step %c1 {
      %base = arith.muli %t, %c128 {apipe.stage = 0 : i64} : index
      %src = arith.addi %base, %my {apipe.stage = 0 : i64} : index
      apipe.copy %A[%src], %tile[%my], 4 {apipe.stage = 0 : i64} : memref<8192xf32> to memref<128xf32, #gpu.address_space<workgroup>>
      %x = memref.load %tile[%my] {apipe.stage = 1 : i64} : memref<128xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%tid] {apipe.stage = 1 : i64} : memref<32xf32>
    } {apipe.async_stages = array<i64: 0>}
    memref.dealloc %tile : memref<128xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
