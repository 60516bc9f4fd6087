// RUN: apipe-opt %s --split-input-file --verify-diagnostics --apipe-to-emulation

func.func @rank_five_copy(%a: memref<1x1x1x1x8xf32>, %b: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'apipe.copy' source memref<1x1x1x1x8xf32> has rank 5; emulation handles ranks 1 to 4}}
  apipe.copy %a[%c0, %c0, %c0, %c0, %c0], %b[%c0], 4 : memref<1x1x1x1x8xf32> to memref<8xf32>
  return
}

// -----

func.func @sub_byte_elements(%a: memref<8xi4>, %b: memref<8xi4>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'apipe.copy' element type i4 has no whole number of bytes; emulation cannot copy it}}
  apipe.copy %a[%c0], %b[%c0], 4 : memref<8xi4> to memref<8xi4>
  return
}

// -----

gpu.module @kernels {
  gpu.func @kernel() kernel {
    // expected-error @+1 {{'apipe.commit_group' inside a nested 'gpu.module': apipe-run emulates host functions (func.func), not gpu kernels}}
    apipe.commit_group
    gpu.return
  }
}

// -----

// expected-error @+1 {{symbol names starting with 'apipe_emu_' are reserved for the emulation runtime}}
func.func private @apipe_emu_wait(i64, i64)

