// apipe-check-hazards, mbarrier form: a branch on a condition that is only
// taken to vary between threads does not split them (trial 12, finding 1).
// Below is apipe-tokens-to-mbarrier's output for a correct 4-thread kernel,
// with the wait after the loop deleted and its empty guard
// `scf.if (count - x <=u 2) {}` left. The guard's else region proves the
// group complete (it is older than the ring). Because the condition is made
// of the loop's results, taken to vary, the walk credited the then region's
// thread with "another thread's wait". A gpu.barrier then "ordered" it, and
// the read of a neighbour's copy went unreported. But every thread takes
// the then region here (count - x = 1): apipe-run reports a RAW race, and
// lazy completion prints [-1, -1, -1, -1] where make-sync prints
// [36, 40, 44, 32]. Only a condition computed from thread ids now splits
// the threads. The twin with the wait in the guard stays silent, and so
// does an elected waiter (`tid == 0`) with a barrier
// (check-hazards-mbarrier.mlir).
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
// RUN: sed -e 's|^      scf.if %recent {$|      scf.if %recent { apipe.mbarrier_wait %ring[%lps], %lpp : memref<2xi64, 3>|' -e 's|^      %recent = arith.cmpi ule, %age, %c2 : index$|      %recent = arith.cmpi ule, %age, %c2 : index\n      %lps = arith.andi %w#0, %c1 : index\n      %lpb = arith.andi %w#0, %c2 : index\n      %lpp = arith.cmpi ne, %lpb, %c0 : index|' %s > %t.waited.mlir
// RUN: apipe-opt %t.waited.mlir --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=WAITED --allow-empty
// WAITED-NOT: error
// RUN: apipe-opt %t.waited.mlir --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: apipe-run %t.waited.mlir --completion=lazy,eager,random:1 | grep -v -e Unranked -e "apipe-run: completion=" > %t.all
// RUN: cat %t.sync %t.sync %t.sync > %t.expected
// RUN: diff %t.expected %t.all
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%A: memref<256xi32>, %out: memref<4xi32>, %n: index)
        workgroup(%buf: memref<3x16xi32, 3>, %ring: memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %ready = arith.constant -1099511627776 : index
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %c4 : memref<2xi64, 3>
      }
      gpu.barrier
      %lane = arith.muli %tid, %c4 : index
      %nb = arith.addi %tid, %c1 : index
      %nbm = arith.remui %nb, %c4 : index
      %at = arith.muli %nbm, %c4 : index
      %w:2 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %ready, %cnt = %c0) -> (index, index) {
        %v = arith.remui %i, %c3 : index
        %base = arith.muli %i, %c16 : index
        %src = arith.addi %base, %lane : index
        apipe.copy %A[%src], %buf[%v, %lane], 4 : memref<256xi32> to memref<3x16xi32, 3>
        %slot = arith.andi %cnt, %c1 : index
        %bit = arith.andi %cnt, %c2 : index
        %before = arith.cmpi eq, %bit, %c0 : index
        apipe.mbarrier_wait %ring[%slot], %before : memref<2xi64, 3>
        apipe.mbarrier_arrive_copies %ring[%slot] : memref<2xi64, 3>
        %next = arith.addi %cnt, %c1 : index
        %ps = arith.andi %p, %c1 : index
        %pb = arith.andi %p, %c2 : index
        %pp = arith.cmpi ne, %pb, %c0 : index
        %age = arith.subi %next, %p : index
        %recent = arith.cmpi ule, %age, %c2 : index
        scf.if %recent {
          apipe.mbarrier_wait %ring[%ps], %pp : memref<2xi64, 3>
        }
        gpu.barrier
        scf.yield %cnt, %next : index, index
      }
      %age = arith.subi %w#1, %w#0 : index
      %recent = arith.cmpi ule, %age, %c2 : index
      scf.if %recent {
      }
      gpu.barrier
      %nm1 = arith.subi %n, %c1 : index
      %lv = arith.remui %nm1, %c3 : index
      %x = memref.load %buf[%lv, %at] : memref<3x16xi32, 3>
      memref.store %x, %out[%tid] : memref<4xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 3 : index
    %A = memref.alloc() : memref<256xi32>
    %out = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c256 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %A[%i] : memref<256xi32>
    }
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<256xi32>, %out : memref<4xi32>, %n : index)
    %u = memref.cast %out : memref<4xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
