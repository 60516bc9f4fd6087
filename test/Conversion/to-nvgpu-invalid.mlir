// RUN: apipe-opt %s --split-input-file --verify-diagnostics --apipe-to-nvgpu
// RUN: apipe-opt %s --split-input-file --verify-diagnostics --apipe-to-nvgpu=tokens=true

// Token form: apipe-to-nvgpu needs counting form (the GPU pipeline runs
// apipe-tokens-to-counting first).
func.func @token_form(%a: memref<64xf32>, %b: memref<8xf32, 3>, %i: index) {
  apipe.copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, 3>
  // expected-error @+1 {{'apipe.commit_group' op is in token form; apipe-to-nvgpu needs the counting form (run apipe-tokens-to-counting first)}}
  %t = apipe.commit_group
  // expected-error @+1 {{'apipe.wait' op is in token form}}
  apipe.wait %t
  // expected-error @+1 {{'apipe.ready' op is in token form}}
  %r = apipe.ready
  return
}

// -----

// Queues other than 0 need apipe-merge-queues first.
func.func @queue_one(%a: memref<64xf32>, %b: memref<8xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op is on queue 1; cp.async has one queue per thread (run apipe-merge-queues first)}}
  apipe.copy %a[%i], %b[%i], 4 queue 1 : memref<64xf32> to memref<8xf32, 3>
  // expected-error @+1 {{'apipe.commit_group' op is on queue 1}}
  apipe.commit_group queue 1
  // expected-error @+1 {{'apipe.wait_group' op is on queue 1}}
  apipe.wait_group 0 queue 1
  return
}

// -----

func.func @twelve_bytes(%a: memref<64xf32>, %b: memref<8xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op moves 12 bytes; cp.async copies 4, 8 or 16 bytes}}
  apipe.copy %a[%i], %b[%i], 3 : memref<64xf32> to memref<8xf32, 3>
  apipe.commit_group
  return
}

// -----

// Dynamic memrefs escape the static size checks: the byte count of a huge
// `elements` is exact (no i64 overflow, which wrapped 2^62 f32 to 0 bytes
// and 2^62+1 f32 to 4 bytes).
func.func @bytes_overflow_i64(%a: memref<?xf32>, %b: memref<?xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op moves 18446744073709551616 bytes; cp.async copies 4, 8 or 16 bytes}}
  apipe.copy %a[%i], %b[%i], 4611686018427387904 : memref<?xf32> to memref<?xf32, 3>
  // expected-error @+1 {{'apipe.copy' op moves 18446744073709551620 bytes; cp.async copies 4, 8 or 16 bytes}}
  apipe.copy %a[%i], %b[%i], 4611686018427387905 : memref<?xf32> to memref<?xf32, 3>
  apipe.commit_group
  return
}

// -----

func.func @thirty_two_bytes(%a: memref<64xf32>, %b: memref<8xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op moves 32 bytes; cp.async copies 4, 8 or 16 bytes}}
  apipe.copy %a[%i], %b[%i], 8 {bypass_l1} : memref<64xf32> to memref<8xf32, 3>
  return
}

// -----

func.func @two_bytes(%a: memref<64xi8>, %b: memref<8xi8, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op moves 2 bytes; cp.async copies 4, 8 or 16 bytes}}
  apipe.copy %a[%i], %b[%i], 2 : memref<64xi8> to memref<8xi8, 3>
  return
}

// -----

func.func @source_in_shared_memory(%a: memref<64xf32, 3>, %b: memref<8xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op reads memref<64xf32, 3>; cp.async reads global memory}}
  apipe.copy %a[%i], %b[%i], 4 : memref<64xf32, 3> to memref<8xf32, 3>
  return
}

// -----

func.func @destination_in_global_memory(%a: memref<64xf32>, %b: memref<8xf32>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op writes memref<8xf32>; cp.async writes shared (workgroup) memory}}
  apipe.copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32>
  return
}

// -----

func.func @destination_in_private_memory(%a: memref<64xf32, #gpu.address_space<global>>, %b: memref<8xf32, #gpu.address_space<private>>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op writes memref<8xf32, #gpu.address_space<private>>; cp.async writes shared (workgroup) memory}}
  apipe.copy %a[%i], %b[%i], 4 : memref<64xf32, #gpu.address_space<global>> to memref<8xf32, #gpu.address_space<private>>
  return
}

// -----

func.func @strided_source(%a: memref<8x8xf32, strided<[1, 8]>>, %b: memref<8xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op source memref<8x8xf32, strided<[1, 8]>> has no unit innermost stride; cp.async copies contiguous bytes}}
  apipe.copy %a[%i, %i], %b[%i], 4 : memref<8x8xf32, strided<[1, 8]>> to memref<8xf32, 3>
  return
}

// -----

func.func @index_elements(%a: memref<64xindex>, %b: memref<8xindex, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op: cp.async copies whole bytes of integers or floats, not elements of type index}}
  apipe.copy %a[%i], %b[%i], 2 : memref<64xindex> to memref<8xindex, 3>
  return
}

// -----

// Only the invalid copy is reported; the valid one before it is not.
func.func @first_valid_then_invalid(%a: memref<64xf32>, %b: memref<8xf32, 3>, %i: index) {
  apipe.copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, 3>
  // expected-error @+1 {{'apipe.copy' op moves 20 bytes}}
  apipe.copy %a[%i], %b[%i], 5 : memref<64xf32> to memref<8xf32, 3>
  apipe.commit_group
  return
}


// -----

// A cp.async address must be aligned to the copy size (PTX ISA 9.7.9.25.3.1).
// A byte offset from the memref's start that is known at compile time
// (constant indices, static strides and layout offset) and misaligned is an
// error; anything not static is left alone.
func.func @statically_misaligned(%a: memref<1024xf32>, %b: memref<512xf32, 3>, %m: memref<4x6xf32, 3>, %o: memref<8xf32, strided<[1], offset: 1>, 3>, %d: memref<?x?xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  // expected-error @+2 {{'apipe.copy' op source byte offset 8 is not a multiple of the 16-byte copy; cp.async needs addresses aligned to the copy size}}
  // expected-error @+1 {{'apipe.copy' op destination byte offset 4 is not a multiple of the 16-byte copy; cp.async needs addresses aligned to the copy size}}
  apipe.copy %a[%c2], %b[%c1], 4 {bypass_l1} : memref<1024xf32> to memref<512xf32, 3>
  // Row 1 of a 4x6 f32 buffer starts at byte 24.
  // expected-error @+1 {{'apipe.copy' op destination byte offset 24 is not a multiple of the 16-byte copy}}
  apipe.copy %a[%c4], %m[%c1, %c0], 4 : memref<1024xf32> to memref<4x6xf32, 3>
  // The layout offset counts: element 1 of %o is byte 8 of its buffer.
  // expected-error @+1 {{'apipe.copy' op destination byte offset 8 is not a multiple of the 16-byte copy}}
  apipe.copy %a[%c4], %o[%c1], 4 : memref<1024xf32> to memref<8xf32, strided<[1], offset: 1>, 3>
  // Aligned: byte 8 for an 8-byte copy; byte 16 for a 16-byte copy.
  apipe.copy %a[%c2], %b[%c2], 2 : memref<1024xf32> to memref<512xf32, 3>
  apipe.copy %a[%c4], %o[%c1], 2 : memref<1024xf32> to memref<8xf32, strided<[1], offset: 1>, 3>
  apipe.copy %a[%c4], %b[%c4], 4 : memref<1024xf32> to memref<512xf32, 3>
  // Not static (an index, or a dynamic stride under a nonzero index): no error.
  apipe.copy %a[%c4], %b[%i], 4 : memref<1024xf32> to memref<512xf32, 3>
  apipe.copy %a[%c4], %d[%c1, %c0], 4 : memref<1024xf32> to memref<?x?xf32, 3>
  apipe.commit_group
  return
}

// -----

// Workgroup memory from memref.alloc must become shared memory: only a
// static alloc in a kernel's entry block can be a workgroup attribution.
gpu.module @m {
  gpu.func @workgroup_alloc_under_condition(%a: memref<64xf32>, %c: i1, %i: index) kernel {
    scf.if %c {
      // expected-error @+1 {{'memref.alloc' op allocates workgroup memory outside the entry block of a gpu.func kernel}}
      %b = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
      apipe.copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, #gpu.address_space<workgroup>>
      apipe.commit_group
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @workgroup_alloca_dynamic(%a: memref<64xf32>, %n: index, %i: index) kernel {
    // expected-error @+1 {{'memref.alloca' op allocates workgroup memory of a dynamic size}}
    %b = memref.alloca(%n) : memref<?xf32, 3>
    apipe.copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<?xf32, 3>
    apipe.commit_group
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @not_a_kernel(%a: memref<64xf32>, %i: index) {
    // expected-error @+1 {{'memref.alloc' op allocates workgroup memory outside the entry block of a gpu.func kernel}}
    %b = memref.alloc() : memref<8xf32, 3>
    apipe.copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, 3>
    apipe.commit_group
    gpu.return
  }
}

// -----

// A count above the i32 of numGroups and of PTX cp.async.wait_group: it
// was cut to its low 32 bits (2^32 + 1 became numGroups = 1, 2^31 a
// negative count; trial 75). The largest i32 count still exports.
gpu.module @m {
  gpu.func @huge_count(%a: memref<64xf32>, %b: memref<8xf32, 3>, %i: index) kernel {
    apipe.copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, 3>
    apipe.commit_group
    // expected-error @+1 {{'apipe.wait_group' op pending = 4294967297 does not fit the 32-bit count of 'nvgpu.device_async_wait' (numGroups) and PTX cp.async.wait_group (at most 2147483647); a count above the groups committed before it waits for nothing: remove the wait or lower the count}}
    apipe.wait_group 4294967297
    // expected-error @+1 {{'apipe.wait_group' op pending = 2147483648 does not fit}}
    apipe.wait_group 2147483648
    apipe.wait_group 2147483647
    gpu.return
  }
}
