// A failure of ptxas is a located error at the kernel it names (trial 16,
// finding 4: a pipelined kernel at the 48 KiB static shared-memory limit,
// to which the mbarrier form adds its ring, failed with an error without a
// location). The twin with one float less of workgroup memory assembles.
// RUN: not apipe-translate %s --sm=80 --to-cubin -o %t.cubin 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: sed -e 's/memref<12288xf32, 3>/memref<12284xf32, 3>/' %s | apipe-translate - --sm=80 --to-cubin -o %t.ok.cubin
gpu.module @kernels {
  // CHECK: translate-ptxas-invalid.mlir:[[# @LINE + 3]]:3: error: ptxas failed: Entry function 'full' uses too much shared data (0xc010 bytes, 0xc000 max) (the kernel's workgroup buffers and mbarrier rings exceed the sm's static shared memory
  // CHECK: translate-ptxas-invalid.mlir:[[# @LINE + 2]]:3: note: ptxas reported:
  // CHECK-NEXT: ptxas info
  gpu.func @full(%src: memref<16384xf32>, %out: memref<16384xf32>) workgroup(%buf: memref<12288xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    %ring = memref.alloca() : memref<2xi64, 3>
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      apipe.mbarrier_init %ring, %c32 : memref<2xi64, 3>
    }
    gpu.barrier
    apipe.copy %src[%tid], %buf[%tid], 1 : memref<16384xf32> to memref<12288xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
    %x = memref.load %buf[%tid] : memref<12288xf32, 3>
    memref.store %x, %out[%tid] : memref<16384xf32>
    gpu.return
  }
}
