// apipe-check-hazards: one thread initialises each ring (docs/mbarrier.md).
// An init under a branch on the thread id used to be taken as one
// thread's whatever the condition (trial 12, finding 2: `tid != 0` is
// three threads of four, and apipe-run reports their inits as a
// write-after-write race). Now the branch conditions around the init must
// elect one id in every dimension where threads may differ: `tid == c`,
// a combination of ids that is 0 only where each is (`(tx | ty) == 0`,
// `tx + 2 * ty == 0`), or an `arith.andi` of those.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// CHECK-COUNT-3: error: 'apipe.mbarrier_init' op initialises its ring under conditions that may hold in several threads (concurrent initialisations race)
// CHECK-NOT: error:

// The trial's kernel: `tid != 0`, 4 threads.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%A: memref<16xi32>, %out: memref<4xi32>)
        workgroup(%buf: memref<16xi32, 3>, %ring: memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      %first = arith.cmpi ne, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %c4 : memref<2xi64, 3>
      }
      gpu.barrier
      %lane = arith.muli %tid, %c4 : index
      %nb = arith.addi %tid, %c1 : index
      %nbm = arith.remui %nb, %c4 : index
      %at = arith.muli %nbm, %c4 : index
      apipe.copy %A[%lane], %buf[%lane], 4 : memref<16xi32> to memref<16xi32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      %false = arith.constant false
      apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
      %x = memref.load %buf[%at] : memref<16xi32, 3>
      memref.store %x, %out[%tid] : memref<4xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %A = memref.alloc() : memref<16xi32>
    %out = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c16 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %A[%i] : memref<16xi32>
    }
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xi32>, %out : memref<4xi32>)
    %u = memref.cast %out : memref<4xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}

// -----

// `tid < 2`: two threads.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @below_two(%out: memref<4xi32>) workgroup(%ring: memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %elect = arith.cmpi ult, %tx, %c2 : index
      scf.if %elect {
        apipe.mbarrier_init %ring, %c4 : memref<2xi64, 3>
      }
      gpu.barrier
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
      gpu.return
    }
  }
}

// -----

// `tx == 0` in a 2 x 2 block: a column of two threads.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @column(%out: memref<4xi32>) workgroup(%ring: memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 2, 2, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %elect = arith.cmpi eq, %tx, %c0 : index
      scf.if %elect {
        apipe.mbarrier_init %ring, %c4 : memref<2xi64, 3>
      }
      gpu.barrier
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
      gpu.return
    }
  }
}

// -----

// `(tx | ty) == 0` in a 2 x 2 block: one thread (silent).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ored(%out: memref<4xi32>) workgroup(%ring: memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 2, 2, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %or = arith.ori %tx, %ty : index
      %elect = arith.cmpi eq, %or, %c0 : index
      scf.if %elect {
        apipe.mbarrier_init %ring, %c4 : memref<2xi64, 3>
      }
      gpu.barrier
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
      gpu.return
    }
  }
}

// -----

// `tx == 0 && ty == 1` in a 2 x 2 block: one thread (silent).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @both(%out: memref<4xi32>) workgroup(%ring: memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 2, 2, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %ex = arith.cmpi eq, %tx, %c0 : index
      %ey = arith.cmpi eq, %ty, %c1 : index
      %elect = arith.andi %ex, %ey : i1
      scf.if %elect {
        apipe.mbarrier_init %ring, %c4 : memref<2xi64, 3>
      }
      gpu.barrier
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
      gpu.return
    }
  }
}
