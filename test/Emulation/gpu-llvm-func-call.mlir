// A kernel that calls an llvm.func of its gpu.module (trial 28: the
// emulator left the llvm.func in the module it erases, and the run
// panicked or crashed with a segfault). The llvm.func issues the copy;
// the kernel waits and reads it; a second one only waits.
// RUN: apipe-run %s --completion=lazy,eager,random:3 | FileCheck %s
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s --check-prefix=SYNC
// CHECK-COUNT-3: [0,  0,  0,  0,  0,  3,  0,  0]
// SYNC: [0,  0,  0,  0,  0,  3,  0,  0]
module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @g : memref<8xf32> = uninitialized
    llvm.func @issue() {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %g = memref.get_global @g : memref<8xf32>
      %src = memref.get_global @g : memref<8xf32>
      apipe.copy %src[%c0], %g[%c4], 4 : memref<8xf32> to memref<8xf32>
      apipe.commit_group
      llvm.return
    }
    llvm.func @drain() {
      apipe.wait_group 0
      llvm.return
    }
    gpu.func @kernel(%out: memref<8xf32>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %f3 = arith.constant 3.0 : f32
      %g = memref.get_global @g : memref<8xf32>
      scf.for %i = %c0 to %c4 step %c1 {
        memref.store %f3, %g[%i] : memref<8xf32>
      }
      llvm.call @issue() : () -> ()
      llvm.call @drain() : () -> ()
      %v = memref.load %g[%c5] : memref<8xf32>
      memref.store %v, %out[%c5] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %out = memref.alloc() : memref<8xf32>
    linalg.fill ins(%zero : f32) outs(%out : memref<8xf32>)
    gpu.launch_func @m::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<8xf32>)
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
