// Workgroup memory in its three forms (an attribution, a workgroup
// memref.alloc, a workgroup memref.global) is one buffer per block; a
// private attribution is one buffer per thread. Thread t of block b writes
// 10 b + t to each shared buffer, waits at the barrier, and reads its
// neighbour's (t + 1 mod 4) values back through a private buffer.
//
// RUN: apipe-run %s --completion=lazy,eager --schedule=forward,reverse,random:2 | FileCheck %s
// CHECK-COUNT-6: [1,  2,  3,  0,  3,  6,  9,  0,  11,  12,  13,  10,  33,  36,  39,  30]
// RUN: apipe-run %s --jobs=2 | FileCheck %s --check-prefix=JOBS
// JOBS: [1,  2,  3,  0,  3,  6,  9,  0,  11,  12,  13,  10,  33,  36,  39,  30]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @tile : memref<4xf32, 3>
    gpu.func @neighbours(%out: memref<16xf32>) workgroup(%w: memref<4xf32, 3>) private(%p: memref<2xf32, 5>) kernel {
      %a = memref.alloc() : memref<4xf32, 3>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %ten = arith.constant 10 : index
      %three = arith.constant 3.0 : f32
      %g = memref.get_global @tile : memref<4xf32, 3>
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %b10 = arith.muli %b, %ten : index
      %v = arith.addi %b10, %t : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %w[%t] : memref<4xf32, 3>
      %v3 = arith.mulf %vf, %three : f32
      memref.store %v3, %a[%t] : memref<4xf32, 3>
      memref.store %v3, %g[%t] : memref<4xf32, 3>
      gpu.barrier
      %t1 = arith.addi %t, %c1 : index
      %n = arith.remui %t1, %c4 : index
      %x = memref.load %w[%n] : memref<4xf32, 3>
      %y = memref.load %a[%n] : memref<4xf32, 3>
      %z = memref.load %g[%n] : memref<4xf32, 3>
      %same = arith.cmpf oeq, %y, %z : f32
      %yz = arith.select %same, %y, %three : f32
      memref.store %x, %p[%c0] : memref<2xf32, 5>
      memref.store %yz, %p[%c1] : memref<2xf32, 5>
      %px = memref.load %p[%c0] : memref<2xf32, 5>
      %py = memref.load %p[%c1] : memref<2xf32, 5>
      %b8 = arith.muli %b, %c8 : index
      %o = arith.addi %b8, %t : index
      memref.store %px, %out[%o] : memref<16xf32>
      %o2 = arith.addi %o, %c4 : index
      memref.store %py, %out[%o2] : memref<16xf32>
      memref.dealloc %a : memref<4xf32, 3>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc() : memref<16xf32>
    gpu.launch_func @kernels::@neighbours blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<16xf32>)
    %u = memref.cast %out : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
