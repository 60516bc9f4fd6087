// RUN: apipe-opt %s --split-input-file --verify-diagnostics --apipe-to-emulation

func.func @rank_five_copy(%a: memref<1x1x1x1x8xf32>, %b: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'apipe.copy' source memref<1x1x1x1x8xf32> has rank 5; emulation handles ranks 1 to 4}}
  apipe.copy %a[%c0, %c0, %c0, %c0, %c0], %b[%c0], 4 : memref<1x1x1x1x8xf32> to memref<8xf32>
  return
}

// -----

// A vector of 3 x i1 is packed in 3 bits (an i4 element takes a byte of its
// own, and is copied: test/Emulation/sub-byte-copies.mlir).
func.func @sub_byte_elements(%a: memref<8xvector<3xi1>>, %b: memref<8xvector<3xi1>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'apipe.copy' element type vector<3xi1> has no whole number of bytes; emulation cannot copy it}}
  apipe.copy %a[%c0], %b[%c0], 4 : memref<8xvector<3xi1>> to memref<8xvector<3xi1>>
  return
}

// -----

// Kernels run, but ops with no CPU semantics are located errors naming them.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matrix_ops(%m: memref<16x16xf16, 3>, %v: f32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      // expected-error @+1 {{'nvgpu.ldmatrix' cannot be emulated by apipe-run: it has no CPU semantics here}}
      %r = nvgpu.ldmatrix %m[%c0, %c0] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, 3> -> vector<4x2xf16>
      // expected-error @+1 {{'gpu.shuffle' cannot be emulated by apipe-run (supported in kernels: gpu.return, gpu.thread_id, gpu.block_id, gpu.block_dim, gpu.grid_dim, gpu.global_id, gpu.barrier)}}
      %s, %ok = gpu.shuffle xor %v, %c1, %c32 : f32
      gpu.return
    }
    gpu.func @dynamic_workgroup(%n: index) kernel {
      // expected-error @+1 {{workgroup 'memref.alloc' of memref<?xf32, 3> needs a static shape to be emulated (one buffer per block)}}
      %b = memref.alloc(%n) : memref<?xf32, 3>
      gpu.return
    }
    // expected-error @+1 {{'gpu.func' needs 1048576 bytes of private memory per thread (allocas and private attributions): at most 524288 (CUDA's local memory per thread)}}
    gpu.func @huge_private() private(%p: memref<131072xf32, 5>) kernel {
      %a = memref.alloca() : memref<131072xf32>
      gpu.return
    }
    func.func @device_workgroup() {
      // expected-error @+1 {{workgroup 'memref.alloca' outside a kernel cannot be emulated}}
      %b = memref.alloca() : memref<4xf32, 3>
      return
    }
  }
  func.func @launches(%m: memref<16x16xf16, 3>, %v: vector<4xf32>) {
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f32
    // expected-error @+1 {{an asynchronous 'gpu.launch_func' cannot be emulated: launch synchronously}}
    %t = gpu.launch_func async @kernels::@matrix_ops blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16x16xf16, 3>, %f : f32)
    // expected-error @+1 {{'gpu.wait' cannot be emulated by apipe-run (host code may use gpu.launch_func, gpu.host_register)}}
    gpu.wait [%t]
    return
  }
}

// -----

module {
  module {
    func.func @nested() {
      // expected-error @+1 {{'apipe.commit_group' inside a nested 'builtin.module': apipe-run emulates the root module and its gpu.modules}}
      apipe.commit_group
      return
    }
  }
}

// -----

// expected-error @+1 {{symbol names starting with 'apipe_emu_' are reserved for the emulation runtime}}
func.func private @apipe_emu_wait(i64, i64)

