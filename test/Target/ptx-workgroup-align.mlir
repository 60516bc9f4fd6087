// Workgroup buffers that cp.async writes are aligned to the copy size (PTX
// ISA 9.7.9.25.3.1: cp.async addresses are aligned to cp-size); without it
// MLIR gives them their element alignment (.align 2 for f16), and a 16-byte
// copy into a buffer placed after a 6-byte one is misaligned.
//
// RUN: apipe-opt %s --apipe-to-nvgpu | FileCheck %s --check-prefix=MLIR
// RUN: apipe-opt %s --apipe-to-nvgpu=tokens=true | FileCheck %s --check-prefix=MLIR
// RUN: apipe-translate %s --sm=80 -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin

// MLIR: memref.global "private" @sbuf : memref<512xf16, 3> {alignment = 16 : i64}
// MLIR: memref.global "private" @sbuf_big : memref<512xf16, 3> {alignment = 64 : i64}
// Attributions: only the ones a copy writes; the largest copy wins; an
// existing larger alignment and other entries are kept.
// MLIR-LABEL: gpu.func @attributions
// MLIR-SAME: workgroup(%arg2 : memref<3xf16, 3>, %arg3 : memref<512xf16, 3> {llvm.align = 16 : i64}, %arg4 : memref<32xf16, 3> {llvm.align = 8 : i64}, %arg5 : memref<32xf16, 3> {foo, llvm.align = 32 : i64}) kernel {
// PTX-DAG: .shared .align 2 .b8 __wg_attributions_0[6];
// PTX-DAG: .shared .align 16 .b8 __wg_attributions_1[1024];
// PTX-DAG: .shared .align 8 .b8 __wg_attributions_2[64];
// PTX-DAG: .shared .align 32 .b8 __wg_attributions_3[64];
// Globals in address space 3 (also through a subview); a larger alignment
// is kept.
// PTX-DAG: .shared .align 16 .b8 sbuf[1024];
// PTX-DAG: .shared .align 64 .b8 sbuf_big[1024];
gpu.module @k {
  memref.global "private" @sbuf : memref<512xf16, 3>
  memref.global "private" @sbuf_big : memref<512xf16, 3> {alignment = 64 : i64}
  gpu.func @attributions(%src: memref<1024xf16>, %out: memref<1024xf16>) workgroup(%small: memref<3xf16, 3>, %buf: memref<512xf16, 3>, %eight: memref<32xf16, 3>, %big: memref<32xf16, 3>) kernel attributes {workgroup_attrib_attrs = [{}, {llvm.align = 8 : i64}, {}, {foo, llvm.align = 32 : i64}]} {
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c8 : index
    %v = memref.load %src[%tid] : memref<1024xf16>
    memref.store %v, %small[%tid] : memref<3xf16, 3>
    gpu.barrier
    apipe.copy %src[%lane], %buf[%lane], 8 {bypass_l1} : memref<1024xf16> to memref<512xf16, 3>
    apipe.copy %src[%lane], %buf[%lane], 2 : memref<1024xf16> to memref<512xf16, 3>
    apipe.copy %src[%lane], %eight[%lane], 4 : memref<1024xf16> to memref<32xf16, 3>
    apipe.copy %src[%lane], %big[%lane], 8 : memref<1024xf16> to memref<32xf16, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%lane] : memref<512xf16, 3>
    %y = memref.load %small[%c0] : memref<3xf16, 3>
    %e = memref.load %eight[%c0] : memref<32xf16, 3>
    %b = memref.load %big[%c0] : memref<32xf16, 3>
    %z = arith.addf %x, %y : f16
    %z2 = arith.addf %z, %e : f16
    %z3 = arith.addf %z2, %b : f16
    memref.store %z3, %out[%lane] : memref<1024xf16>
    gpu.return
  }
  gpu.func @globals(%src: memref<1024xf16>, %out: memref<1024xf16>) kernel {
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c8 : index
    %g = memref.get_global @sbuf : memref<512xf16, 3>
    %h = memref.get_global @sbuf_big : memref<512xf16, 3>
    %s = memref.subview %g[8] [256] [1] : memref<512xf16, 3> to memref<256xf16, strided<[1], offset: 8>, 3>
    apipe.copy %src[%lane], %s[%lane], 8 {bypass_l1} : memref<1024xf16> to memref<256xf16, strided<[1], offset: 8>, 3>
    apipe.copy %src[%lane], %h[%lane], 8 {bypass_l1} : memref<1024xf16> to memref<512xf16, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %s[%lane] : memref<256xf16, strided<[1], offset: 8>, 3>
    %y = memref.load %h[%lane] : memref<512xf16, 3>
    %z = arith.addf %x, %y : f16
    memref.store %z, %out[%lane] : memref<1024xf16>
    gpu.return
  }
}
