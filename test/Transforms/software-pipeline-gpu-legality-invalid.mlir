// The cp.async rules are located errors at pipelining time in a gpu.func
// (PTX ISA 9.7.9.25.3.1: 4, 8 or 16 bytes, addresses aligned to the size,
// where the offset is a compile-time constant), and workgroup memory that
// cannot become a workgroup attribution is refused; the IR is unchanged.
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline --verify-diagnostics

gpu.module @m {
  gpu.func @twelve_bytes(%A: memref<4096xf32>, %out: memref<32xf32>) workgroup(%tile: memref<12xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %t = %c0 to %c16 step %c1 {
      // expected-error @+1 {{'apipe.copy' op moves 12 bytes; cp.async copies 4, 8 or 16 bytes}}
      apipe.copy %A[%t], %tile[%c0], 3 {apipe.stage = 0 : i64} : memref<4096xf32> to memref<12xf32, 3>
      %x = memref.load %tile[%c1] {apipe.stage = 1 : i64} : memref<12xf32, 3>
      memref.store %x, %out[%t] {apipe.stage = 1 : i64} : memref<32xf32>
    } {apipe.async_stages = array<i64: 0>}
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @misaligned_destination(%A: memref<4096xf32>, %out: memref<32xf32>) workgroup(%tile: memref<12xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    scf.for %t = %c0 to %c16 step %c1 {
      %off = arith.muli %t, %c16 {apipe.stage = 0 : i64} : index
      // expected-error @+1 {{'apipe.copy' op destination byte offset 8 is not a multiple of the 16-byte copy; cp.async needs addresses aligned to the copy size}}
      apipe.copy %A[%off], %tile[%c2], 4 {apipe.stage = 0 : i64} : memref<4096xf32> to memref<12xf32, 3>
      %x = memref.load %tile[%c1] {apipe.stage = 1 : i64} : memref<12xf32, 3>
      memref.store %x, %out[%t] {apipe.stage = 1 : i64} : memref<32xf32>
    } {apipe.async_stages = array<i64: 0>}
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @misaligned_source(%A: memref<4096xf32>, %out: memref<32xf32>) workgroup(%tile: memref<8xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %c16 = arith.constant 16 : index
    scf.for %t = %c0 to %c16 step %c1 {
      // expected-error @+1 {{'apipe.copy' op source byte offset 24 is not a multiple of the 16-byte copy}}
      apipe.copy %A[%c6], %tile[%c0], 4 {apipe.stage = 0 : i64} : memref<4096xf32> to memref<8xf32, 3>
      %x = memref.load %tile[%c1] {apipe.stage = 1 : i64} : memref<8xf32, 3>
      memref.store %x, %out[%t] {apipe.stage = 1 : i64} : memref<32xf32>
    } {apipe.async_stages = array<i64: 0>}
    gpu.return
  }
}

// -----

// Workgroup memory allocated under a condition cannot be one buffer per
// block for the whole kernel.
gpu.module @m {
  gpu.func @workgroup_alloc_in_a_region(%A: memref<4096xf32>, %out: memref<32xf32>, %c: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.if %c {
      // expected-error @+1 {{'memref.alloc' op allocates workgroup memory outside the entry block of a gpu.func kernel: shared memory is one buffer per block, allocated when the kernel starts; declare it as a workgroup attribution of the kernel (gpu.func @k(...) workgroup(%buf : memref<8xf32, 3>) kernel)}}
      %tile = memref.alloc() : memref<8xf32, 3>
      scf.for %t = %c0 to %c16 step %c1 {
        apipe.copy %A[%t], %tile[%c0], 4 {apipe.stage = 0 : i64} : memref<4096xf32> to memref<8xf32, 3>
        %x = memref.load %tile[%c1] {apipe.stage = 1 : i64} : memref<8xf32, 3>
        memref.store %x, %out[%t] {apipe.stage = 1 : i64} : memref<32xf32>
      } {apipe.async_stages = array<i64: 0>}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @workgroup_alloc_dynamic_size(%A: memref<4096xf32>, %out: memref<32xf32>, %n: index) kernel {
    // expected-error @+1 {{'memref.alloc' op allocates workgroup memory of a dynamic size: shared memory is sized when the kernel is compiled}}
    %tile = memref.alloc(%n) : memref<?xf32, 3>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %t = %c0 to %c16 step %c1 {
      apipe.copy %A[%t], %tile[%c0], 4 {apipe.stage = 0 : i64} : memref<4096xf32> to memref<?xf32, 3>
      %x = memref.load %tile[%c1] {apipe.stage = 1 : i64} : memref<?xf32, 3>
      memref.store %x, %out[%t] {apipe.stage = 1 : i64} : memref<32xf32>
    } {apipe.async_stages = array<i64: 0>}
    gpu.return
  }
}
