// apipe-check-hazards on the mbarrier form (docs/mbarrier.md): mutants of
// correct programs (the twins in check-hazards-mbarrier.mlir), each
// reported at the op that is wrong: a wait whose parity is flipped, a
// wait removed, a ring too small for the groups in flight, an arrive
// removed, a wrong arrival count, an arrive that diverges, a ring used
// before the barrier that publishes its initialisation.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s

// The parity of a constant wait flipped: after groups 0 and 1 (slots 0 and
// 1, phase 0), parity 1 of slot 0 names the phase before phase 0, which
// counts as complete: on hardware the wait returns at once while group 0 is
// in flight, so the read of group 0's data races with its copy
// (read-after-write, reported at the read with the copy; and at the wait).
func.func @parity_flipped(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c1, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
  // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 2]]:3: error: 'apipe.mbarrier_wait' op waits for a phase that has already completed: its parity names the group 4 groups old on its ring of 2 slots, and the slot was armed again since by a group 2 groups old that this wait does not wait for, so it returns at once while that group's copies are in flight
  // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 2]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  apipe.mbarrier_wait %ring[%c0], %true : memref<2xi64, 3>
  %x = memref.load %buf[%c0, %c0] : memref<2x4xf32>
  // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE - 8]]:3: note: the async copy still in flight; 1 newer group(s) closed by arrives on the ring since its group
  // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE - 3]]:3: note: this wait's slot and parity name the group 4 groups back on its ring; this copy's group is 2 group(s) back (1 newer group(s) closed by arrives on the ring): wait on its slot and phase
  return %x : f32
}

// -----

// The parity of a loop's wait flipped (`== 0` instead of `!= 0`): it names
// the group before the waited one on the same slot, K groups further back,
// whose phase has completed: the wait returns at once and completes
// nothing new, so the next arrive re-arms a slot whose group may be in
// flight. One thread's arrivals count in order (PTX ISA 9.7.9.25.3), so
// that re-arm is no error in a host function; the copy it lets in flight
// into the same buffer (write-after-write) and the read are.
func.func @loop_parity_flipped(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  %r:2 = scf.for %i = %c0 to %c15 step %c1 iter_args(%prev = %c0, %count = %c1) -> (index, index) {
    %n = arith.addi %i, %c1 : index
    %off = arith.muli %n, %c4 : index
    %v = arith.remui %n, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    %slot = arith.andi %count, %c1 : index
    // CHECK-NOT: reuses its slot too early
    apipe.mbarrier_arrive_copies %ring[%slot] : memref<2xi64, 3>
    %next = arith.addi %count, %c1 : index
    %ps = arith.andi %prev, %c1 : index
    %pb = arith.andi %prev, %c2 : index
    %parity = arith.cmpi eq, %pb, %c0 : index
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.mbarrier_wait' op waits for a phase that has already completed: its parity names the group 4 groups old on its ring of 2 slots
    apipe.mbarrier_wait %ring[%ps], %parity : memref<2xi64, 3>
    %u = arith.remui %i, %c2 : index
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE - 11]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    scf.yield %count, %next : index, index
  }
  return
}

// -----

// A wait removed: the read of group 0's buffer is not covered (the wait on
// group 1 comes after the read).
func.func @wait_removed(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c1, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
  // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %buf[%c0, %c0] : memref<2x4xf32>
  apipe.mbarrier_wait %ring[%c1], %false : memref<2xi64, 3>
  %y = memref.load %buf[%c1, %c0] : memref<2x4xf32>
  %s = arith.addf %x, %y : f32
  return %s : f32
}

// -----

// A wait removed in a loop: the next iteration re-arms the slot of a group
// no wait completed (no error in a host function: one thread's arrivals
// count in order), its copy writes into a buffer whose copy may be in
// flight, and the read races.
func.func @loop_wait_removed(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  %r:2 = scf.for %i = %c0 to %c15 step %c1 iter_args(%prev = %c0, %count = %c1) -> (index, index) {
    %n = arith.addi %i, %c1 : index
    %off = arith.muli %n, %c4 : index
    %v = arith.remui %n, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    %slot = arith.andi %count, %c1 : index
    // CHECK-NOT: reuses its slot too early
    apipe.mbarrier_arrive_copies %ring[%slot] : memref<2xi64, 3>
    %next = arith.addi %count, %c1 : index
    %u = arith.remui %i, %c2 : index
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE - 6]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    scf.yield %count, %next : index, index
  }
  return
}

// -----

// A ring too small: three groups in flight on two slots; group 2 re-arms
// slot 0 before group 0 is complete. In a host function that re-arm is no
// error (group 0's arrival counts first), but the wait for group 2 returns
// at once while group 0's phase is the current one: the read races.
func.func @ring_too_small(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %false = arith.constant false
  %true = arith.constant true
  %buf = memref.alloc() : memref<3x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c2, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  // CHECK-NOT: reuses its slot too early
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %true : memref<2xi64, 3>
  // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %buf[%c2, %c0] : memref<3x4xf32>
  return %x : f32
}

// -----

// The ring size (2) does not match the slot arithmetic (`count & 3`, a
// ring of 4): the arrive is not provably on the next slot.
func.func @ring_smaller_than_masks(%A: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> (index) {
    %v = arith.remui %i, %c4 : index
    apipe.copy %A[%c0], %buf[%v, %c0], 4 : memref<64xf32> to memref<4x4xf32>
    %slot = arith.andi %count, %c3 : index
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.mbarrier_arrive_copies' op arrives on a slot that is not provably the ring's next slot (the number of earlier arrives on it, mod 2): expected `count & 1` of the ring's count
    apipe.mbarrier_arrive_copies %ring[%slot] : memref<2xi64, 3>
    %next = arith.addi %count, %c1 : index
    scf.yield %next : index
  }
  return
}

// -----

// An arrive removed: the next arrive, on slot 1, is taken as a skipped
// group 0 (slot 0 never armed) and group 1; the wait on slot 0 waits for a
// phase no arrive armed (on hardware it never returns).
func.func @arrive_removed(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.copy %A[%c0], %buf[%c1, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
  // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:3: error: 'apipe.mbarrier_wait' op waits on a slot that an earlier arrive skipped: that arrive's slot was ahead of its ring's next one (at {{.*}}check-hazards-mbarrier-invalid.mlir:[[# @LINE - 1]]:3) (the count it was given ran ahead of the ring's arrives), so on some path this slot has completed one phase fewer than its ring's count says and the parity names another phase; the group it names is 2 groups old on its ring of 2 slots
  apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
  %x = memref.load %buf[%c0, %c0] : memref<2x4xf32>
  return %x : f32
}

// -----

// An arrive removed in a loop: the count still grows, the ring's arrivals
// do not, so the wait names a group not armed yet.
func.func @loop_arrive_removed(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  %r:2 = scf.for %i = %c0 to %c15 step %c1 iter_args(%prev = %c0, %count = %c1) -> (index, index) {
    %n = arith.addi %i, %c1 : index
    %off = arith.muli %n, %c4 : index
    %v = arith.remui %n, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    %next = arith.addi %count, %c1 : index
    %ps = arith.andi %prev, %c1 : index
    %pb = arith.andi %prev, %c2 : index
    %parity = arith.cmpi ne, %pb, %c0 : index
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.mbarrier_wait' op can deadlock: on some path the phase it waits for is not armed yet: the group it names is an unknown number of arrive(s) of its ring ahead of the ring's count there (its arrive comes after the wait)
    apipe.mbarrier_wait %ring[%ps], %parity : memref<2xi64, 3>
    %u = arith.remui %i, %c2 : index
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    scf.yield %count, %next : index, index
  }
  return
}

// -----

// A guard that does not bound the distance (`count - x <= 4` on a ring of
// 2): the wait may name a group whose slot was re-armed.
func.func @guard_too_wide(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c1) -> (index) {
    %s = arith.andi %count, %c1 : index
    %b = arith.andi %count, %c2 : index
    %before = arith.cmpi eq, %b, %c0 : index
    apipe.mbarrier_wait %ring[%s], %before : memref<2xi64, 3>
    apipe.mbarrier_arrive_copies %ring[%s] : memref<2xi64, 3>
    %next = arith.addi %count, %c1 : index
    scf.yield %next : index
  }
  %s0 = arith.andi %c0, %c1 : index
  %b0 = arith.andi %c0, %c2 : index
  %p0 = arith.cmpi ne, %b0, %c0 : index
  %age = arith.subi %r, %c0 : index
  %recent = arith.cmpi ule, %age, %c4 : index
  scf.if %recent {
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.mbarrier_wait' op can deadlock: on some path the group it names is between 1 and 4 groups old on its ring of 2 slots
    apipe.mbarrier_wait %ring[%s0], %p0 : memref<2xi64, 3>
  }
  return
}

// -----

// A kernel whose ring expects one arrival per phase while every thread of
// the block arrives.
gpu.module @kernels {
  gpu.func @count_one(%A: memref<1024xf32>) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.mbarrier_init' op has an arrival count that is not the block size (gpu.block_dim x * y * z, or the size the kernel states in known_block_size): every thread arrives once per group, so a phase with another count never completes or completes early
      apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
    }
    gpu.barrier
    apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
    gpu.return
  }
}

// -----

// An arrive only some threads run, and a ring used before the barrier
// that publishes its initialisation.
gpu.module @kernels {
  gpu.func @divergent_arrive(%A: memref<1024xf32>) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    %bx = gpu.block_dim x
    %by = gpu.block_dim y
    %bz = gpu.block_dim z
    %bxy = arith.muli %bx, %by : index
    %threads = arith.muli %bxy, %bz : index
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      apipe.mbarrier_init %ring, %threads : memref<2xi64, 3>
    }
    gpu.barrier
    %low = arith.cmpi ult, %tid, %c128 : index
    scf.if %low {
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
      // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.mbarrier_arrive_copies' op arrives under control flow that depends on the thread id: every thread of the block must arrive on every group, or its phase never completes
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    }
    apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
    gpu.return
  }
  gpu.func @unpublished(%A: memref<1024xf32>) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    %bx = gpu.block_dim x
    %by = gpu.block_dim y
    %bz = gpu.block_dim z
    %bxy = arith.muli %bx, %by : index
    %threads = arith.muli %bxy, %bz : index
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.mbarrier_init' op initialises its ring in one thread with no gpu.barrier before the ring's first arrive or wait: other threads may use it before it is initialised
      apipe.mbarrier_init %ring, %threads : memref<2xi64, 3>
    }
    apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
    gpu.barrier
    gpu.return
  }
}
// CHECK-NOT: error:

// -----

// A ring of 3 slots (not a power of two) with the parity of its wait
// flipped (`== 0`): it names the group 3 groups before the waited one, whose
// phase completed, so it returns at once and completes nothing new; the next
// iteration's copy then writes into a buffer in flight, and the read races.
func.func @three_slots_parity_flipped(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<3xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<3xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  %s0 = arith.remui %c0, %c3 : index
  apipe.mbarrier_arrive_copies %ring[%s0] : memref<3xi64, 3>
  %r:2 = scf.for %i = %c0 to %c15 step %c1 iter_args(%prev = %c0, %count = %c1) -> (index, index) {
    %n = arith.addi %i, %c1 : index
    %off = arith.muli %n, %c4 : index
    %v = arith.remui %n, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    %slot = arith.remui %count, %c3 : index
    // CHECK-NOT: reuses its slot too early
    apipe.mbarrier_arrive_copies %ring[%slot] : memref<3xi64, 3>
    %next = arith.addi %count, %c1 : index
    %ps = arith.remui %prev, %c3 : index
    %pp = arith.divui %prev, %c3 : index
    %pb = arith.andi %pp, %c1 : index
    %parity = arith.cmpi eq, %pb, %c0 : index
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.mbarrier_wait' op waits for a phase that has already completed: its parity names the group 5 groups old on its ring of 3 slots, and the slot was armed again since by a group 2 groups old that this wait does not wait for
    apipe.mbarrier_wait %ring[%ps], %parity : memref<3xi64, 3>
    %u = arith.remui %i, %c2 : index
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE - 12]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    scf.yield %count, %next : index, index
  }
  return
}

// -----

// A ring of 3 slots whose arrive computes its slot mod 2: not the ring's
// next slot.
func.func @three_slots_wrong_modulus(%A: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %buf = memref.alloc() : memref<4xf32>
  %ring = memref.alloca() : memref<3xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<3xi64, 3>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> (index) {
    apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %slot = arith.remui %count, %c2 : index
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.mbarrier_arrive_copies' op arrives on a slot that is not provably the ring's next slot (the number of earlier arrives on it, mod 3): expected `count mod 3` (`arith.remui`) of the ring's count
    apipe.mbarrier_arrive_copies %ring[%slot] : memref<3xi64, 3>
    %next = arith.addi %count, %c1 : index
    scf.yield %next : index
  }
  return
}

// -----

// A wait for the phase that already completed, read before the right wait:
// on hardware the first wait returns at once while the group just armed is
// in flight, so the read races with its copy (read-after-write, at the read,
// naming the copy); the wait after the read completes the group in time for
// the next iteration's arrive.
func.func @read_before_right_wait(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%count = %c0) -> (index) {
    %off = arith.muli %i, %c4 : index
    %v = arith.remui %i, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    %slot = arith.andi %count, %c1 : index
    apipe.mbarrier_arrive_copies %ring[%slot] : memref<2xi64, 3>
    %pb = arith.andi %count, %c2 : index
    %stale = arith.cmpi eq, %pb, %c0 : index
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.mbarrier_wait' op waits for a phase that has already completed: its parity names the group 3 groups old on its ring of 2 slots, and the slot was armed again since by a group 1 groups old that this wait does not wait for, so it returns at once while that group's copies are in flight
    apipe.mbarrier_wait %ring[%slot], %stale : memref<2xi64, 3>
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%v, %c1] : memref<2x4xf32>
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE - 9]]:5: note: the async copy still in flight; 0 newer group(s) closed by arrives on the ring since its group
    %parity = arith.cmpi ne, %pb, %c0 : index
    apipe.mbarrier_wait %ring[%slot], %parity : memref<2xi64, 3>
    memref.store %x, %out[%i] : memref<16xf32>
    %next = arith.addi %count, %c1 : index
    scf.yield %next : index
  }
  return
}

// -----

// A constant count other than the stated block size (2 of 4 threads).
gpu.module @kernels {
  gpu.func @constant_not_block_size(%A: memref<1024xf32>) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.mbarrier_init' op has an arrival count that is not the block size (gpu.block_dim x * y * z, or the size the kernel states in known_block_size): every thread arrives once per group, so a phase with another count never completes or completes early
      apipe.mbarrier_init %ring, %c2 : memref<2xi64, 3>
    }
    gpu.barrier
    apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
    gpu.return
  }
}

// -----

// `gpu.block_dim x` in a 4 x 2 block: y is not 1, so half the threads' arrivals
// complete each phase.
gpu.module @kernels {
  gpu.func @block_dim_x_of_2d(%A: memref<1024xf32>) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 4, 2, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    %bx = gpu.block_dim x
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.mbarrier_init' op has an arrival count that is not the block size (gpu.block_dim x * y * z, or the size the kernel states in known_block_size): every thread arrives once per group, so a phase with another count never completes or completes early
      apipe.mbarrier_init %ring, %bx : memref<2xi64, 3>
    }
    gpu.barrier
    apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
    gpu.return
  }
}

// -----

// `gpu.block_dim x` where the kernel states no block size: y and z may be
// above 1.
gpu.module @kernels {
  gpu.func @block_dim_x_unknown_yz(%A: memref<1024xf32>) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    %bx = gpu.block_dim x
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.mbarrier_init' op has an arrival count that is not the block size (gpu.block_dim x * y * z, or the size the kernel states in known_block_size): every thread arrives once per group, so a phase with another count never completes or completes early
      apipe.mbarrier_init %ring, %bx : memref<2xi64, 3>
    }
    gpu.barrier
    apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
    gpu.return
  }
}

// -----

// `gpu.block_dim x` counted twice (16 for a block of 4).
gpu.module @kernels {
  gpu.func @block_dim_x_twice(%A: memref<1024xf32>) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    %bx = gpu.block_dim x
    %bxx = arith.muli %bx, %bx : index
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.mbarrier_init' op has an arrival count that is not the block size (gpu.block_dim x * y * z, or the size the kernel states in known_block_size): every thread arrives once per group, so a phase with another count never completes or completes early
      apipe.mbarrier_init %ring, %bxx : memref<2xi64, 3>
    }
    gpu.barrier
    apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
    gpu.return
  }
}

// -----

// No size stated: `4 * gpu.block_dim y * gpu.block_dim z` assumes x = 4.
gpu.module @kernels {
  gpu.func @constant_times_unknown(%A: memref<1024xf32>) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    %by = gpu.block_dim y
    %bz = gpu.block_dim z
    %c4 = arith.constant 4 : index
    %yz = arith.muli %by, %bz : index
    %c4y = arith.muli %c4, %yz : index
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.mbarrier_init' op has an arrival count that is not the block size (gpu.block_dim x * y * z, or the size the kernel states in known_block_size): every thread arrives once per group, so a phase with another count never completes or completes early
      apipe.mbarrier_init %ring, %c4y : memref<2xi64, 3>
    }
    gpu.barrier
    apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
    gpu.return
  }
}

// -----

// Each copy is arrived on but never waited for: its read races. Five
// iterations on a ring of eight slots arm no slot twice, so no arrive
// reuses its slot (the arrives before an iteration are bounded by the
// constant trip count).
func.func @arrived_not_waited(%A: memref<64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %buf = memref.alloc() : memref<8x4xf32>
  %ring = memref.alloca() : memref<8xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<8xi64, 3>
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%cnt = %c0) -> (index) {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%i, %c0], 4 : memref<64xf32> to memref<8x4xf32>
    %s = arith.andi %cnt, %c7 : index
    apipe.mbarrier_arrive_copies %ring[%s] : memref<8xi64, 3>
    // CHECK-NOT: reuses its slot too early
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%i, %c1] : memref<8x4xf32>
    memref.store %x, %out[%i] : memref<8xf32>
    %n = arith.addi %cnt, %c1 : index
    scf.yield %n : index
  }
  return
}

// -----

// The same for ten iterations: the ninth arrive re-arms slot 0 while its
// group may be in flight (no error in a host function: group 0's arrival
// counts first), the ninth copy writes into the buffer of group 0's, and
// the read races.
func.func @arrived_not_waited_wraps(%A: memref<64xf32>, %out: memref<10xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %c7 = arith.constant 7 : index
  %buf = memref.alloc() : memref<8x4xf32>
  %ring = memref.alloca() : memref<8xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<8xi64, 3>
  %r = scf.for %i = %c0 to %c10 step %c1 iter_args(%cnt = %c0) -> (index) {
    %off = arith.muli %i, %c4 : index
    %v = arith.remui %i, %c8 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<8x4xf32>
    %s = arith.andi %cnt, %c7 : index
    // CHECK-NOT: reuses its slot too early
    apipe.mbarrier_arrive_copies %ring[%s] : memref<8xi64, 3>
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 2]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE - 5]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing
    %x = memref.load %buf[%v, %c1] : memref<8x4xf32>
    memref.store %x, %out[%i] : memref<10xf32>
    %n = arith.addi %cnt, %c1 : index
    scf.yield %n : index
  }
  return
}

// -----

// apipe-tokens-to-mbarrier=slots=2 of a double-buffered loop with its
// steady-state wait removed: the arrive re-arms a slot whose group no wait
// completed (no error in a host function), and the read of the slot races
// with its copy, as does the next copy into it.
func.func @steady_wait_removed(%arg0: memref<1024xf32>, %arg1: memref<2x4xf32, 3>, %arg2: memref<1xf32>) {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %cst = arith.constant 0.000000e+00 : f32
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %arg0[%c0], %arg1[%c0, %c0], 4 : memref<1024xf32> to memref<2x4xf32, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  %r:3 = scf.for %i = %c0 to %c256 step %c1 iter_args(%acc = %cst, %old = %c0, %cnt = %c1) -> (f32, index, index) {
    %i1 = arith.addi %i, %c1 : index
    %more = arith.cmpi ult, %i1, %c256 : index
    scf.if %more {
      %off = arith.muli %i1, %c4 : index
      %v = arith.remui %i1, %c2 : index
      apipe.copy %arg0[%off], %arg1[%v, %c0], 4 : memref<1024xf32> to memref<2x4xf32, 3>
    }
    %s = arith.andi %cnt, %c1 : index
    // CHECK-NOT: reuses its slot too early
    apipe.mbarrier_arrive_copies %ring[%s] : memref<2xi64, 3>
    %next = arith.addi %cnt, %c1 : index
    %u = arith.remui %i, %c2 : index
    %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %acc) -> (f32) {
      // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE - 8]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing
      // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
      %x = memref.load %arg1[%u, %k] : memref<2x4xf32, 3>
      %y = arith.addf %a, %x : f32
      scf.yield %y : f32
    }
    scf.yield %sum, %cnt, %next : f32, index, index
  }
  memref.store %r#0, %arg2[%c0] : memref<1xf32>
  return
}

// -----

// `gpu.block_dim x` alone as the count, no size stated, and the module
// launches the kernel with 2 threads in y: the block has 4 threads, the
// count says 2.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @launched_with_y(%A: memref<16xi32>) workgroup(%buf: memref<16xi32, 3>, %ring: memref<2xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        // CHECK: check-hazards-mbarrier-invalid.mlir:[[# @LINE + 1]]:9: error: 'apipe.mbarrier_init' op has an arrival count that is not the block size
        apipe.mbarrier_init %ring, %bx : memref<2xi64, 3>
      }
      gpu.barrier
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<16xi32> to memref<16xi32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
      gpu.return
    }
  }
  func.func @main(%A: memref<16xi32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch_func @kernels::@launched_with_y blocks in (%c1, %c1, %c1) threads in (%c2, %c2, %c1) args(%A : memref<16xi32>)
    return
  }
}
