// A wait whose parity names the phase the slot completed before its latest
// group armed it (docs/mbarrier.md, "Semantics"): while that group is in
// flight the wait returns at once, so the read after it sees the data from
// before the copy (lazy completion); once the group has landed it blocks on
// the slot's next phase, which no arrive completes (eager completion).
// RUN: apipe-run %s --completion=lazy --no-racecheck | FileCheck %s --check-prefix=STALE
// STALE: [0]
// With the race checker (on by default), that read of the copy's
// destination in flight stops the program, where apipe-check-hazards
// reports it too:
// RUN: not apipe-run %s --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: mbarrier-completed-phase.mlir:41:8: error: the host reads global memory byte 0 of the destination buffer of its own asynchronous copy still in flight, which may not have written it yet: no wait completes the copy first ('memref.load' and 'apipe.copy')
// RUN: not apipe-run %s --completion=eager 2>&1 | FileCheck %s --check-prefix=EAGER
// EAGER: mbarrier-completed-phase.mlir:40:3: error: deadlock: this 'apipe.mbarrier_wait' can never return
// apipe-check-hazards reports it as what it is on hardware: a wait that
// does not wait for the group just armed, and the read-after-write on that
// group's data at the read, naming the copy.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK
// CHECK: mbarrier-completed-phase.mlir:40:3: error: 'apipe.mbarrier_wait' op waits for a phase that has already completed: its parity names the group 3 groups old on its ring of 2 slots, and the slot was armed again since by a group 1 groups old that this wait does not wait for
// CHECK: mbarrier-completed-phase.mlir:41:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK: mbarrier-completed-phase.mlir:38:3: note: the async copy still in flight; 0 newer group(s) closed by arrives on the ring since its group
// CHECK-NOT: error:

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %f = arith.constant 7.0 : f32
  %zero = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<8xf32>
  linalg.fill ins(%f : f32) outs(%A : memref<8xf32>)
  %buf = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<2x4xf32>)
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<8xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %true : memref<2xi64, 3>
  %x = memref.load %buf[%c0, %c0] : memref<2x4xf32>
  %out = memref.alloc() : memref<1xf32>
  memref.store %x, %out[%c0] : memref<1xf32>
  %u = memref.cast %out : memref<1xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
