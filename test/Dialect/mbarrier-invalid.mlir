// Every verifier error of the mbarrier form (docs/mbarrier.md), one case per
// chunk.
// RUN: apipe-opt %s --split-input-file --verify-diagnostics

func.func @ring_not_i64(%ring: memref<4xi32, 3>, %n: index) {
  // expected-error @+1 {{'apipe.mbarrier_init' op expects a ring of mbarrier slots, a memref<Kxi64> with a static K >= 1 and the identity layout, got memref<4xi32, 3>}}
  apipe.mbarrier_init %ring, %n : memref<4xi32, 3>
  return
}

// -----

func.func @ring_dynamic(%ring: memref<?xi64, 3>, %s: index) {
  // expected-error @+1 {{'apipe.mbarrier_arrive_copies' op expects a ring of mbarrier slots, a memref<Kxi64> with a static K >= 1 and the identity layout, got memref<?xi64, 3>}}
  apipe.mbarrier_arrive_copies %ring[%s] : memref<?xi64, 3>
  return
}

// -----

func.func @ring_rank_two(%ring: memref<2x2xi64, 3>, %s: index, %p: i1) {
  // expected-error @+1 {{'apipe.mbarrier_wait' op expects a ring of mbarrier slots, a memref<Kxi64> with a static K >= 1 and the identity layout, got memref<2x2xi64, 3>}}
  apipe.mbarrier_wait %ring[%s], %p : memref<2x2xi64, 3>
  return
}

// -----

func.func @ring_strided(%ring: memref<2xi64, strided<[2]>, 3>, %s: index, %p: i1) {
  // expected-error @+1 {{'apipe.mbarrier_wait' op expects a ring of mbarrier slots, a memref<Kxi64> with a static K >= 1 and the identity layout, got memref<2xi64, strided<[2]>, 3>}}
  apipe.mbarrier_wait %ring[%s], %p : memref<2xi64, strided<[2]>, 3>
  return
}

// -----

func.func @ring_in_global_memory(%ring: memref<2xi64>, %s: index) {
  // expected-error @+1 {{'apipe.mbarrier_arrive_copies' op expects the ring of mbarrier slots in workgroup memory (memory space 3 or #gpu.address_space<workgroup>), got memref<2xi64>}}
  apipe.mbarrier_arrive_copies %ring[%s] : memref<2xi64>
  return
}

// -----

func.func @slot_out_of_range(%ring: memref<2xi64, 3>, %p: i1) {
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'apipe.mbarrier_wait' op slot 2 is outside the ring of 2 mbarrier slots}}
  apipe.mbarrier_wait %ring[%c2], %p : memref<2xi64, 3>
  return
}

// -----

func.func @slot_negative(%ring: memref<2xi64, 3>) {
  %c = arith.constant -1 : index
  // expected-error @+1 {{'apipe.mbarrier_arrive_copies' op slot -1 is outside the ring of 2 mbarrier slots}}
  apipe.mbarrier_arrive_copies %ring[%c] : memref<2xi64, 3>
  return
}

// -----

func.func @init_count_zero(%ring: memref<2xi64, 3>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'apipe.mbarrier_init' op arrival count 0 is outside [1, 1048575], the range of an mbarrier's counts}}
  apipe.mbarrier_init %ring, %c0 : memref<2xi64, 3>
  return
}

// -----

func.func @init_count_too_large(%ring: memref<2xi64, 3>) {
  %c = arith.constant 1048576 : index
  // expected-error @+1 {{'apipe.mbarrier_init' op arrival count 1048576 is outside [1, 1048575], the range of an mbarrier's counts}}
  apipe.mbarrier_init %ring, %c : memref<2xi64, 3>
  return
}

// -----

func.func @expect_tx_zero(%ring: memref<2xi64, 3>, %s: index) {
  // expected-error @+1 {{'apipe.mbarrier_expect_tx' op attribute 'bytes' must be positive, got 0}}
  apipe.mbarrier_expect_tx %ring[%s], 0 : memref<2xi64, 3>
  return
}

// -----

func.func @expect_tx_too_large(%ring: memref<2xi64, 3>, %s: index) {
  // expected-error @+1 {{'apipe.mbarrier_expect_tx' op attribute 'bytes' must be at most 1048575 (the range of an mbarrier's transaction count), got 1048576}}
  apipe.mbarrier_expect_tx %ring[%s], 1048576 : memref<2xi64, 3>
  return
}

// -----

func.func @wait_parity_not_i1(%ring: memref<2xi64, 3>, %s: index, %p: i32) {
  // expected-error @+1 {{'apipe.mbarrier_wait' op operand #2 must be 1-bit signless integer, but got 'i32'}}
  "apipe.mbarrier_wait"(%ring, %s, %p) : (memref<2xi64, 3>, index, i32) -> ()
  return
}

// -----

func.func @bulk_copy_not_multiple_of_16_bytes(%A: memref<64xf32>, %buf: memref<64xf32, 3>, %ring: memref<2xi64, 3>, %i: index, %s: index) {
  // expected-error @+1 {{'apipe.bulk_copy' op moves 12 bytes: a bulk copy moves a positive multiple of 16 bytes, at most 1048575 bytes}}
  apipe.bulk_copy %A[%i], %buf[%i], 3, %ring[%s] : memref<64xf32> to memref<64xf32, 3>, memref<2xi64, 3>
  return
}

// -----

func.func @bulk_copy_elements_zero(%A: memref<64xf32>, %buf: memref<64xf32, 3>, %ring: memref<2xi64, 3>, %i: index, %s: index) {
  // expected-error @+1 {{'apipe.bulk_copy' op attribute 'elements' must be positive, got 0}}
  apipe.bulk_copy %A[%i], %buf[%i], 0, %ring[%s] : memref<64xf32> to memref<64xf32, 3>, memref<2xi64, 3>
  return
}

// -----

func.func @bulk_copy_too_long_for_dst(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %ring: memref<2xi64, 3>, %i: index, %s: index) {
  // expected-error @+1 {{'apipe.bulk_copy' op copies 8 elements but the innermost dimension of memref<4xf32, 3> has 4}}
  apipe.bulk_copy %A[%i], %buf[%i], 8, %ring[%s] : memref<64xf32> to memref<4xf32, 3>, memref<2xi64, 3>
  return
}

// -----

func.func @bulk_copy_element_types(%A: memref<64xf32>, %buf: memref<64xi32, 3>, %ring: memref<2xi64, 3>, %i: index, %s: index) {
  // expected-error @+1 {{'apipe.bulk_copy' op expected the same element type for src and dst, got f32 and i32}}
  apipe.bulk_copy %A[%i], %buf[%i], 4, %ring[%s] : memref<64xf32> to memref<64xi32, 3>, memref<2xi64, 3>
  return
}

// -----

func.func @bulk_copy_index_count(%A: memref<64xf32>, %buf: memref<64xf32, 3>, %ring: memref<2xi64, 3>, %i: index, %s: index) {
  // expected-error @+1 {{'apipe.bulk_copy' op expected 2 indices (1 for memref<64xf32> and 1 for memref<64xf32, 3>), got 3}}
  "apipe.bulk_copy"(%A, %buf, %ring, %s, %i, %i, %i) {elements = 4 : i64} : (memref<64xf32>, memref<64xf32, 3>, memref<2xi64, 3>, index, index, index, index) -> ()
  return
}

// -----

func.func @bulk_copy_custom_index_count(%A: memref<64xf32>, %buf: memref<64xf32, 3>, %ring: memref<2xi64, 3>, %i: index, %s: index) {
  // expected-error @+1 {{expected 1 source indices for memref<64xf32>, got 2}}
  apipe.bulk_copy %A[%i, %i], %buf[%i], 4, %ring[%s] : memref<64xf32> to memref<64xf32, 3>, memref<2xi64, 3>
  return
}

// -----

func.func @bulk_copy_ring_slot(%A: memref<64xf32>, %buf: memref<64xf32, 3>, %ring: memref<2xi64, 3>, %i: index) {
  %c5 = arith.constant 5 : index
  // expected-error @+1 {{'apipe.bulk_copy' op slot 5 is outside the ring of 2 mbarrier slots}}
  apipe.bulk_copy %A[%i], %buf[%i], 4, %ring[%c5] : memref<64xf32> to memref<64xf32, 3>, memref<2xi64, 3>
  return
}
