// A wait in one region of a branch on the thread ids covers the threads of
// the other regions after a gpu.barrier (docs/mbarrier.md) only if some
// thread runs that region (trial 53): a wait under `tid >= 16` in a block
// of 8 completed nothing, yet the reads of every thread were taken as
// covered, and the checker was silent on the race that apipe-run shows.
// The condition is now evaluated in each thread of the block (its stated
// size; thread 0 in a dimension of unknown size).
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-run %s --entry=run_none --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: error: race (RAW) on shared memory
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @some_of_eight(%src: memref<8xf32>, %dst: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>, %ring: memref<1xi64, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %bd = arith.muli %bxy, %bz : index
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {
        apipe.mbarrier_init %ring, %bd : memref<1xi64, 3>
      }
      gpu.barrier
      apipe.copy %src[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
      %cond = arith.cmpi ult, %tid, %c4 : index
      scf.if %cond {
        apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
      }
      gpu.barrier
      %j = arith.subi %c7, %tid : index
      %x = memref.load %buf[%j] : memref<8xf32, 3>
      memref.store %x, %dst[%tid] : memref<8xf32>
      gpu.return
    }
    // Nested: `tid >= 4` inside `tid < 4`, which no thread reaches.
    // CHECK: [[@LINE+30]]:12: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
    gpu.func @nested_none(%src: memref<8xf32>, %dst: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>, %ring: memref<1xi64, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %bd = arith.muli %bxy, %bz : index
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {
        apipe.mbarrier_init %ring, %bd : memref<1xi64, 3>
      }
      gpu.barrier
      apipe.copy %src[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
      %cond = arith.cmpi ult, %tid, %c4 : index
      scf.if %cond {
        %high = arith.cmpi uge, %tid, %c4 : index
        scf.if %high {
          apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
        }
      }
      gpu.barrier
      %j = arith.subi %c7, %tid : index
      %x = memref.load %buf[%j] : memref<8xf32, 3>
      memref.store %x, %dst[%tid] : memref<8xf32>
      gpu.return
    }
    // Nested: `tid < 1` inside `tid < 4`: thread 0 waits.
    gpu.func @nested_some(%src: memref<8xf32>, %dst: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>, %ring: memref<1xi64, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %bd = arith.muli %bxy, %bz : index
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {
        apipe.mbarrier_init %ring, %bd : memref<1xi64, 3>
      }
      gpu.barrier
      apipe.copy %src[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
      %cond = arith.cmpi ult, %tid, %c4 : index
      scf.if %cond {
        %low = arith.cmpi eq, %tid, %c0 : index
        scf.if %low {
          apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
        }
      }
      gpu.barrier
      %j = arith.subi %c7, %tid : index
      %x = memref.load %buf[%j] : memref<8xf32, 3>
      memref.store %x, %dst[%tid] : memref<8xf32>
      gpu.return
    }
    gpu.func @last_of_eight(%src: memref<8xf32>, %dst: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>, %ring: memref<1xi64, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %bd = arith.muli %bxy, %bz : index
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {
        apipe.mbarrier_init %ring, %bd : memref<1xi64, 3>
      }
      gpu.barrier
      apipe.copy %src[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
      %cond = arith.cmpi eq, %tid, %c7 : index
      scf.if %cond {
        apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
      }
      gpu.barrier
      %j = arith.subi %c7, %tid : index
      %x = memref.load %buf[%j] : memref<8xf32, 3>
      memref.store %x, %dst[%tid] : memref<8xf32>
      gpu.return
    }
    // CHECK: :[[@LINE+27]]:12: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
    gpu.func @none_of_eight(%src: memref<8xf32>, %dst: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>, %ring: memref<1xi64, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %bd = arith.muli %bxy, %bz : index
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {
        apipe.mbarrier_init %ring, %bd : memref<1xi64, 3>
      }
      gpu.barrier
      apipe.copy %src[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
      %cond = arith.cmpi uge, %tid, %c16 : index
      scf.if %cond {
        apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
      }
      gpu.barrier
      %j = arith.subi %c7, %tid : index
      %x = memref.load %buf[%j] : memref<8xf32, 3>
      memref.store %x, %dst[%tid] : memref<8xf32>
      gpu.return
    }
    // CHECK: :[[@LINE+27]]:12: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
    gpu.func @just_past(%src: memref<8xf32>, %dst: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>, %ring: memref<1xi64, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %bd = arith.muli %bxy, %bz : index
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {
        apipe.mbarrier_init %ring, %bd : memref<1xi64, 3>
      }
      gpu.barrier
      apipe.copy %src[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
      %cond = arith.cmpi eq, %tid, %c8 : index
      scf.if %cond {
        apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
      }
      gpu.barrier
      %j = arith.subi %c7, %tid : index
      %x = memref.load %buf[%j] : memref<8xf32, 3>
      memref.store %x, %dst[%tid] : memref<8xf32>
      gpu.return
    }
    gpu.func @unstated_low(%src: memref<8xf32>, %dst: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>, %ring: memref<1xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %bd = arith.muli %bxy, %bz : index
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {
        apipe.mbarrier_init %ring, %bd : memref<1xi64, 3>
      }
      gpu.barrier
      apipe.copy %src[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
      %cond = arith.cmpi ult, %tid, %c4 : index
      scf.if %cond {
        apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
      }
      gpu.barrier
      %j = arith.subi %c7, %tid : index
      %x = memref.load %buf[%j] : memref<8xf32, 3>
      memref.store %x, %dst[%tid] : memref<8xf32>
      gpu.return
    }
    // CHECK: :[[@LINE+27]]:12: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
    gpu.func @unstated_high(%src: memref<8xf32>, %dst: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>, %ring: memref<1xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %bd = arith.muli %bxy, %bz : index
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {
        apipe.mbarrier_init %ring, %bd : memref<1xi64, 3>
      }
      gpu.barrier
      apipe.copy %src[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
      %cond = arith.cmpi uge, %tid, %c4 : index
      scf.if %cond {
        apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
      }
      gpu.barrier
      %j = arith.subi %c7, %tid : index
      %x = memref.load %buf[%j] : memref<8xf32, 3>
      memref.store %x, %dst[%tid] : memref<8xf32>
      gpu.return
    }
    gpu.func @switch_case(%src: memref<8xf32>, %dst: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>, %ring: memref<1xi64, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %bd = arith.muli %bxy, %bz : index
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {
        apipe.mbarrier_init %ring, %bd : memref<1xi64, 3>
      }
      gpu.barrier
      apipe.copy %src[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>

      scf.index_switch %tid
      case 3 {
        apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
        scf.yield
      }
      default {
      }
      gpu.barrier
      %j = arith.subi %c7, %tid : index
      %x = memref.load %buf[%j] : memref<8xf32, 3>
      memref.store %x, %dst[%tid] : memref<8xf32>
      gpu.return
    }
    // CHECK: :[[@LINE+31]]:12: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
    gpu.func @switch_past(%src: memref<8xf32>, %dst: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>, %ring: memref<1xi64, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %bd = arith.muli %bxy, %bz : index
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {
        apipe.mbarrier_init %ring, %bd : memref<1xi64, 3>
      }
      gpu.barrier
      apipe.copy %src[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>

      scf.index_switch %tid
      case 9 {
        apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
        scf.yield
      }
      default {
      }
      gpu.barrier
      %j = arith.subi %c7, %tid : index
      %x = memref.load %buf[%j] : memref<8xf32, 3>
      memref.store %x, %dst[%tid] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @run_none() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %src = memref.alloc() : memref<8xf32>
    %dst = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      memref.store %f, %src[%i] : memref<8xf32>
    }
    gpu.launch_func @k::@none_of_eight blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%src : memref<8xf32>, %dst : memref<8xf32>)
    %u = memref.cast %dst : memref<8xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
