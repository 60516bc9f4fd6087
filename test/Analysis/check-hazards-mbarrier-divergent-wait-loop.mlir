// A double buffer on a ring of 2 slots whose wait runs in threads 0-3 only,
// followed by a gpu.barrier (trial 53 B1). Threads 0-3 see group t's phase
// complete before the barrier, so after it every thread may read the tile
// and re-arm the slot for group t + 2. The checker reported the next arrive
// as reusing its slot too early (the slot's previous group was complete in
// "this thread" only for the waiting threads), then a read-after-write and
// a write-after-write: copies of one op from two iterations were one entry
// when deciding what the other region's wait completed. Now a ring keeps
// the groups some thread saw complete (`seen`), which a barrier makes
// complete for all, and each iteration's copy is its own entry.
// The same kernel with no barrier after the wait, with the wait under a
// condition no thread of the block meets (`tid >= 16`), or with the barrier
// before the wait, is still reported, and apipe-run shows each race.
// RUN: apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-run %s --completion=lazy,eager,random:1,random:2 --schedule=forward,reverse | FileCheck %s
// CHECK-COUNT-8: [7,  6,  5,  4,  3,  2,  1,  0,  15,  14,  13,  12,  11,  10,  9,  8,  23,
// A condition of known value (`0 < 8`) runs its then region only: silent.
// RUN: sed -e 's/ult, %%tid, %%c4/ult, %%c0, %%c8/' %s | apipe-opt --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: sed -e '/BARRIER-AFTER-WAIT/d' %s | not apipe-opt --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: sed -e 's/ult, %%tid, %%c4/uge, %%tid, %%c16/' %s | not apipe-opt --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: sed -e 's/ult, %%tid, %%c4/uge, %%tid, %%c16/' %s | not apipe-run - 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: sed -e '/BARRIER-AFTER-WAIT/d' -e 's/BARRIER-BEFORE-WAIT/gpu.barrier/' %s | not apipe-opt --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: sed -e '/BARRIER-AFTER-WAIT/d' -e 's/BARRIER-BEFORE-WAIT/gpu.barrier/' %s | not apipe-run - 2>&1 | FileCheck %s --check-prefix=RACE
// BAD: error:
// RACE: error: race
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%src: memref<64xf32>, %dst: memref<64xf32>)
        workgroup(%buf: memref<2x8xf32, 3>, %ring: memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {
        apipe.mbarrier_init %ring, %c8 : memref<2xi64, 3>
      }
      gpu.barrier
      // prologue: tile 0 -> buf[0], group 0 on slot 0
      apipe.copy %src[%tid], %buf[%c0, %tid], 1 : memref<64xf32> to memref<2x8xf32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      %r:2 = scf.for %t = %c0 to %c8 step %c1 iter_args(%g = %c0, %n = %c1) -> (index, index) {
        %t1 = arith.addi %t, %c1 : index
        %more = arith.cmpi ult, %t1, %c8 : index
        scf.if %more {
          %b1 = arith.muli %t1, %c8 : index
          %o1 = arith.addi %b1, %tid : index
          %v1 = arith.remui %t1, %c2 : index
          apipe.copy %src[%o1], %buf[%v1, %tid], 1 : memref<64xf32> to memref<2x8xf32, 3>
        }
        %ns = arith.andi %n, %c1 : index
        apipe.mbarrier_arrive_copies %ring[%ns] : memref<2xi64, 3>
        %n1 = arith.addi %n, %c1 : index
        %gs = arith.andi %g, %c1 : index
        %gp2 = arith.andi %g, %c2 : index
        %gp = arith.cmpi ne, %gp2, %c0 : index
        %lo = arith.cmpi ult, %tid, %c4 : index
        // BARRIER-BEFORE-WAIT
        scf.if %lo {
          apipe.mbarrier_wait %ring[%gs], %gp : memref<2xi64, 3>
        }
        gpu.barrier // BARRIER-AFTER-WAIT
        %v = arith.remui %t, %c2 : index
        %j = arith.subi %c7, %tid : index
        %x = memref.load %buf[%v, %j] : memref<2x8xf32, 3>
        %b = arith.muli %t, %c8 : index
        %o = arith.addi %b, %tid : index
        memref.store %x, %dst[%o] : memref<64xf32>
        gpu.barrier
        scf.yield %n, %n1 : index, index
      }
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %src = memref.alloc() : memref<64xf32>
    %dst = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %src[%i] : memref<64xf32>
    }
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%src : memref<64xf32>, %dst : memref<64xf32>)
    %u = memref.cast %dst : memref<64xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
