// With barriers=false the pipeliner places no gpu.barrier: the user's own
// barriers must still order the copies. Its wait goes before the user's
// barrier that leads up to the first read of the tile, also across the
// read's index arithmetic (ops with no memory effects) between them: the
// wait used to land after the barrier and the index ops, so the other
// threads read the tile with no barrier after its wait (apipe-run's race
// checker and apipe-check-hazards reported the race; the input was
// correct).
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2 barriers=false" 2>/dev/null | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2 barriers=false" 2>/dev/null | apipe-opt --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s --check-prefix=EMU
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2 barriers=false" 2>/dev/null | apipe-run - --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU-ALL --implicit-check-not=error:

// CHECK-LABEL: gpu.func @k
// CHECK: apipe.copy
// CHECK-NEXT: apipe.commit_group queue 0
// CHECK-NEXT: scf.for
// CHECK-NEXT: apipe.wait_group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.subi
// CHECK-NOT: gpu.barrier
// CHECK: memref.load
// CHECK-NEXT: arith.addi
// CHECK-NEXT: memref.store
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: apipe.copy
// CHECK-NEXT: apipe.commit_group queue 0
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 0
// CHECK-NEXT: gpu.barrier

// EMU: [3,  2,  1,  0,  7,  6,  5,  4,  11,  10,  9,  8,  15,  14,  13,  12,  19,  18,  17,  16,  23,  22,  21,  20,  27,  26,  25,  24,  31,  30,  29,  28]
// EMU-ALL-COUNT-6: [3,  2,  1,  0,  7,  6,  5,  4,  11,  10,  9,  8,  15,  14,  13,  12,  19,  18,  17,  16,  23,  22,  21,  20,  27,  26,  25,  24,  31,  30,  29,  28]

// Thread t stores tile element 3 - t of tile i: another thread's copy.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%A: memref<64xf32>, %out: memref<32xf32>) workgroup(%buf: memref<4xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %tx = gpu.thread_id x
      scf.for %i = %c0 to %c8 step %c1 {
        %base = arith.muli %i, %c4 : index
        %src = arith.addi %base, %tx : index
        apipe.copy %A[%src], %buf[%tx], 1 : memref<64xf32> to memref<4xf32, 3>
        apipe.commit_group
        apipe.wait_group 0
        gpu.barrier
        %r = arith.subi %c4, %c1 : index
        %o = arith.subi %r, %tx : index
        %x = memref.load %buf[%o] : memref<4xf32, 3>
        %dst = arith.addi %base, %tx : index
        memref.store %x, %out[%dst] : memref<32xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<32xf32>
    scf.for %j = %c0 to %c64 step %c1 {
      %ji = arith.index_cast %j : index to i64
      %jf = arith.sitofp %ji : i64 to f32
      memref.store %jf, %A[%j] : memref<64xf32>
    }
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<64xf32>, %out : memref<32xf32>)
    %u = memref.cast %out : memref<32xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
