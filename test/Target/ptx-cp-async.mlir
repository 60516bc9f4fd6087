// Every cp.async variant, through the whole flow (apipe-to-nvgpu, upstream
// lowering, LLVM NVPTX through inkwell), assembled by ptxas.
//
// RUN: apipe-translate %s --to-ptx --sm=80 -o %t.sm80.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM80 < %t.sm80.ptx
// RUN: %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
// RUN: apipe-translate %s --to-ptx --sm=90 -o %t.sm90.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM90 < %t.sm90.ptx
// RUN: %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin

// SM80: .version 7.0
// SM80: .target sm_80
// SM90: .version 7.8
// SM90: .target sm_90

gpu.module @kernels {
  // 16 bytes with bypass_l1: .cg.
  // CHECK-LABEL: .entry cg_sixteen_bytes(
  // CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
  // CHECK-NEXT: cp.async.commit_group;
  // CHECK-NEXT: cp.async.wait_group 0;
  // CHECK: ret;
  gpu.func @cg_sixteen_bytes(%src: memref<1024xf32>, %out: memref<1024xf32>) workgroup(%buf: memref<512xf32, 3>) kernel {
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    apipe.copy %src[%lane], %buf[%lane], 4 {bypass_l1} : memref<1024xf32> to memref<512xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%lane] : memref<512xf32, 3>
    memref.store %x, %out[%lane] : memref<1024xf32>
    gpu.return
  }

  // 16 bytes without bypass_l1: .ca.
  // CHECK-LABEL: .entry ca_sixteen_bytes(
  // CHECK: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
  // CHECK-NEXT: cp.async.commit_group;
  gpu.func @ca_sixteen_bytes(%src: memref<1024xf32>, %out: memref<1024xf32>) workgroup(%buf: memref<512xf32, 3>) kernel {
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    apipe.copy %src[%lane], %buf[%lane], 4 : memref<1024xf32> to memref<512xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%lane] : memref<512xf32, 3>
    memref.store %x, %out[%lane] : memref<1024xf32>
    gpu.return
  }

  // 8 bytes (bypass_l1 is a hint .cg cannot honour below 16 bytes): .ca.
  // CHECK-LABEL: .entry ca_eight_bytes(
  // CHECK: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 8;
  // CHECK-NEXT: cp.async.commit_group;
  gpu.func @ca_eight_bytes(%src: memref<1024xf32>, %out: memref<1024xf32>) workgroup(%buf: memref<512xf32, 3>) kernel {
    %c2 = arith.constant 2 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c2 : index
    apipe.copy %src[%lane], %buf[%lane], 2 {bypass_l1} : memref<1024xf32> to memref<512xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%lane] : memref<512xf32, 3>
    memref.store %x, %out[%lane] : memref<1024xf32>
    gpu.return
  }

  // 4 bytes of i8: .ca.
  // CHECK-LABEL: .entry ca_four_bytes_of_i8(
  // CHECK: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 4;
  // CHECK-NEXT: cp.async.commit_group;
  gpu.func @ca_four_bytes_of_i8(%src: memref<1024xi8>, %out: memref<1024xi8>) workgroup(%buf: memref<512xi8, 3>) kernel {
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    apipe.copy %src[%lane], %buf[%lane], 4 : memref<1024xi8> to memref<512xi8, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%lane] : memref<512xi8, 3>
    memref.store %x, %out[%lane] : memref<1024xi8>
    gpu.return
  }

  // Zero-fill: src_elements (the third kernel argument, after two memref
  // descriptors of 5 parameters) is the src-size operand in bytes: × 4.
  // CHECK-LABEL: .entry zero_fill_dynamic(
  // CHECK: ld.param.b32 %[[N:r[0-9]+]], [zero_fill_dynamic_param_10];
  // CHECK-NEXT: shl.b32 %[[B:r[0-9]+]], %[[N]], 2;
  // CHECK-NEXT: and.b32 %[[SIZE:r[0-9]+]], %[[B]], 536870908;
  // CHECK-NEXT: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %[[SIZE]];
  // CHECK-NEXT: cp.async.commit_group;
  gpu.func @zero_fill_dynamic(%src: memref<1024xf32>, %out: memref<1024xf32>, %valid: index) workgroup(%buf: memref<512xf32, 3>) kernel {
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    apipe.copy %src[%lane], %buf[%lane], 4, %valid {bypass_l1} : memref<1024xf32> to memref<512xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%lane] : memref<512xf32, 3>
    memref.store %x, %out[%lane] : memref<1024xf32>
    gpu.return
  }

  // A constant src_elements folds into an immediate src-size: 3 of 4 floats
  // are read (12 bytes), the last 4 bytes are zero-filled.
  // CHECK-LABEL: .entry zero_fill_constant(
  // CHECK: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, 12;
  gpu.func @zero_fill_constant(%src: memref<1024xf32>, %out: memref<1024xf32>) workgroup(%buf: memref<512xf32, 3>) kernel {
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    apipe.copy %src[%lane], %buf[%lane], 4, %c3 : memref<1024xf32> to memref<512xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%lane] : memref<512xf32, 3>
    memref.store %x, %out[%lane] : memref<1024xf32>
    gpu.return
  }

  // Three groups, waits with exact counts 2, 1, 0, each followed by a
  // barrier (gpu.barrier: bar.sync 0) before other threads' data is read.
  // CHECK-LABEL: .entry three_groups_exact_waits(
  // CHECK: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 4;
  // CHECK-NEXT: cp.async.commit_group;
  // CHECK-NEXT: cp.async.ca.shared.global [%rd{{[0-9]+}}+128], [%rd{{[0-9]+}}+128], 4;
  // CHECK-NEXT: cp.async.commit_group;
  // CHECK-NEXT: cp.async.ca.shared.global [%rd{{[0-9]+}}+256], [%rd{{[0-9]+}}+256], 4;
  // CHECK-NEXT: cp.async.commit_group;
  // CHECK-NEXT: cp.async.wait_group 2;
  // CHECK-NEXT: bar.sync 0;
  // CHECK: cp.async.wait_group 1;
  // CHECK-NEXT: bar.sync 0;
  // CHECK: cp.async.wait_group 0;
  // CHECK-NEXT: bar.sync 0;
  // CHECK-NOT: cp.async
  // CHECK: ret;
  gpu.func @three_groups_exact_waits(%src: memref<1024xf32>, %out: memref<1024xf32>) workgroup(%buf: memref<3x32xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c31 = arith.constant 31 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %s1 = arith.addi %tid, %c32 : index
    %s2 = arith.addi %tid, %c64 : index
    apipe.copy %src[%tid], %buf[%c0, %tid], 1 : memref<1024xf32> to memref<3x32xf32, 3>
    apipe.commit_group
    apipe.copy %src[%s1], %buf[%c1, %tid], 1 : memref<1024xf32> to memref<3x32xf32, 3>
    apipe.commit_group
    apipe.copy %src[%s2], %buf[%c2, %tid], 1 : memref<1024xf32> to memref<3x32xf32, 3>
    apipe.commit_group
    %other = arith.subi %c31, %tid : index
    apipe.wait_group 2
    gpu.barrier
    %x0 = memref.load %buf[%c0, %other] : memref<3x32xf32, 3>
    apipe.wait_group 1
    gpu.barrier
    %x1 = memref.load %buf[%c1, %other] : memref<3x32xf32, 3>
    apipe.wait_group 0
    gpu.barrier
    %x2 = memref.load %buf[%c2, %other] : memref<3x32xf32, 3>
    %y = arith.addf %x0, %x1 : f32
    %z = arith.addf %y, %x2 : f32
    memref.store %z, %out[%tid] : memref<1024xf32>
    gpu.return
  }
}
