// Vector transfers in kernels: `vector.transfer_read` / `transfer_write`,
// which convert-gpu-to-nvvm does not lower, go through
// convert-vector-to-scf and convert-vector-to-llvm (stage 2 of
// apipe-translate). Before, any transfer in a kernel failed with "LLVM
// Translation failed for operation: builtin.unrealized_conversion_cast"
// (a fresh-user trial). An in-bounds read of shared memory is one vector
// load; a read that may run out of bounds is masked per element; the
// write to global memory is one vector store.
// RUN: apipe-translate %s --to-ptx --sm=80 -o %t.sm80.ptx
// RUN: FileCheck %s < %t.sm80.ptx
// RUN: %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
// RUN: apipe-translate %s --to-ptx --sm=90 -o %t.sm90.ptx
// RUN: %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin

// CHECK-LABEL: .entry transfers(
// CHECK: ld.shared.v4.b32
// CHECK-COUNT-4: st.global.b32
// CHECK-LABEL: .entry masked(
// CHECK-COUNT-4: setp.lt.s32
// CHECK-NOT: ld.global.v4
gpu.module @kernels {
  gpu.func @transfers(%a: memref<64xf32>, %o: memref<64xf32>) workgroup(%b: memref<64xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %p = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %x = memref.load %a[%tid] : memref<64xf32>
    memref.store %x, %b[%tid] : memref<64xf32, 3>
    gpu.barrier
    %v = vector.transfer_read %b[%c0], %p {in_bounds = [true]} : memref<64xf32, 3>, vector<4xf32>
    vector.transfer_write %v, %o[%c0] {in_bounds = [true]} : vector<4xf32>, memref<64xf32>
    gpu.return
  }
  gpu.func @masked(%a: memref<?xf32>, %o: memref<64xf32>, %i: index) kernel {
    %c0 = arith.constant 0 : index
    %p = arith.constant 0.0 : f32
    %v = vector.transfer_read %a[%i], %p : memref<?xf32>, vector<4xf32>
    vector.store %v, %o[%c0] : memref<64xf32>, vector<4xf32>
    gpu.return
  }
}
