// apipe-mbarrier-to-nvvm{sm=90} refuses a bulk copy that breaks a rule of
// cp.async.bulk (PTX ISA 9.7.9.25.4.1), at the op, and changes nothing: a
// positive multiple of 16 bytes below 2^20, global to shared, constant
// offsets aligned to 16 bytes, a contiguous span of a static strided layout.
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(apipe-mbarrier-to-nvvm{sm=90})' --verify-diagnostics

func.func @shared_source(%src: memref<1024xf32, 3>, %buf: memref<512xf32, 3>, %ring: memref<1xi64, 3>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'apipe.bulk_copy' op reads memref<1024xf32, 3>; cp.async.bulk reads global memory}}
  apipe.bulk_copy %src[%c0], %buf[%c0], 4, %ring[%c0] : memref<1024xf32, 3> to memref<512xf32, 3>, memref<1xi64, 3>
  return
}

// -----

func.func @misaligned(%src: memref<1024xf32>, %buf: memref<512xf32, 3>, %ring: memref<1xi64, 3>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'apipe.bulk_copy' op source bit offset 64 is not a multiple of 16 bytes; cp.async.bulk needs 16-byte aligned addresses}}
  apipe.bulk_copy %src[%c2], %buf[%c0], 4, %ring[%c0] : memref<1024xf32> to memref<512xf32, 3>, memref<1xi64, 3>
  return
}

// -----

func.func @dynamic_layout(%src: memref<1024xf32, strided<[?]>>, %buf: memref<512xf32, 3>, %ring: memref<1xi64, 3>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'apipe.bulk_copy' op source memref<1024xf32, strided<[?]>> has no static strided layout with a unit innermost stride; cp.async.bulk copies one contiguous span}}
  apipe.bulk_copy %src[%c0], %buf[%c0], 4, %ring[%c0] : memref<1024xf32, strided<[?]>> to memref<512xf32, 3>, memref<1xi64, 3>
  return
}
