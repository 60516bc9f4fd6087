// A count carried from a negative sentinel, read as a slot and parity of
// a ring of K = 5 slots (not a power of two) under the guard
// `n + 1 - x <=u 5` (trial 46 F1). `arith.remui`/`divui` read a negative x
// as 2^64 + x, so the wait is exact only if the guard excludes every
// negative x: x starts at the sentinel and is a count (>= 0) after, so the
// checker needs the guard to exclude the sentinel. With -2^40 (what
// apipe-tokens-to-mbarrier gives `apipe.ready`) and with -5 it does
// (n + 1 >= 1); with -4, `1 + 4 <=u 5` lets the sentinel through in the
// first iteration, and the wait is an error.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

func.func @ready_sentinel(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c5 = arith.constant 5 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %sentinel = arith.constant -1099511627776 : index
  %ring = memref.alloca() : memref<5xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<5xi64, 3>
  %buf = memref.alloc() : memref<5xf32>
  %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%x = %sentinel, %n = %c0) -> (index, index) {
    %s = arith.remui %i, %c5 : index
    apipe.copy %A[%i], %buf[%s], 1 : memref<64xf32> to memref<5xf32>
    %ns = arith.remui %n, %c5 : index
    %nq = arith.divui %n, %c5 : index
    %nb = arith.andi %nq, %c1 : index
    %np = arith.cmpi eq, %nb, %c0 : index
    apipe.mbarrier_wait %ring[%ns], %np : memref<5xi64, 3>
    apipe.mbarrier_arrive_copies %ring[%ns] : memref<5xi64, 3>
    %n1 = arith.addi %n, %c1 : index
    %xs = arith.remui %x, %c5 : index
    %xq = arith.divui %x, %c5 : index
    %xb = arith.andi %xq, %c1 : index
    %xp = arith.cmpi ne, %xb, %c0 : index
    %d = arith.subi %n1, %x : index
    %g = arith.cmpi ule, %d, %c5 : index
    scf.if %g {
      apipe.mbarrier_wait %ring[%xs], %xp : memref<5xi64, 3>
    }
    scf.yield %n, %n1 : index, index
  }
  return
}

func.func @sentinel_passes_guard(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c5 = arith.constant 5 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %sentinel = arith.constant -4 : index
  %ring = memref.alloca() : memref<5xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<5xi64, 3>
  %buf = memref.alloc() : memref<5xf32>
  %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%x = %sentinel, %n = %c0) -> (index, index) {
    %s = arith.remui %i, %c5 : index
    apipe.copy %A[%i], %buf[%s], 1 : memref<64xf32> to memref<5xf32>
    %ns = arith.remui %n, %c5 : index
    %nq = arith.divui %n, %c5 : index
    %nb = arith.andi %nq, %c1 : index
    %np = arith.cmpi eq, %nb, %c0 : index
    apipe.mbarrier_wait %ring[%ns], %np : memref<5xi64, 3>
    apipe.mbarrier_arrive_copies %ring[%ns] : memref<5xi64, 3>
    %n1 = arith.addi %n, %c1 : index
    %xs = arith.remui %x, %c5 : index
    %xq = arith.divui %x, %c5 : index
    %xb = arith.andi %xq, %c1 : index
    %xp = arith.cmpi ne, %xb, %c0 : index
    %d = arith.subi %n1, %x : index
    %g = arith.cmpi ule, %d, %c5 : index
    scf.if %g {
      // CHECK: check-hazards-mbarrier-guarded-sentinel.mlir:[[# @LINE + 1]]:7: error: 'apipe.mbarrier_wait' op waits on a slot or parity of a count that may be negative on some path
      apipe.mbarrier_wait %ring[%xs], %xp : memref<5xi64, 3>
    }
    scf.yield %n, %n1 : index, index
  }
  return
}

func.func @sentinel_at_guard(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c5 = arith.constant 5 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %sentinel = arith.constant -5 : index
  %ring = memref.alloca() : memref<5xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<5xi64, 3>
  %buf = memref.alloc() : memref<5xf32>
  %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%x = %sentinel, %n = %c0) -> (index, index) {
    %s = arith.remui %i, %c5 : index
    apipe.copy %A[%i], %buf[%s], 1 : memref<64xf32> to memref<5xf32>
    %ns = arith.remui %n, %c5 : index
    %nq = arith.divui %n, %c5 : index
    %nb = arith.andi %nq, %c1 : index
    %np = arith.cmpi eq, %nb, %c0 : index
    apipe.mbarrier_wait %ring[%ns], %np : memref<5xi64, 3>
    apipe.mbarrier_arrive_copies %ring[%ns] : memref<5xi64, 3>
    %n1 = arith.addi %n, %c1 : index
    %xs = arith.remui %x, %c5 : index
    %xq = arith.divui %x, %c5 : index
    %xb = arith.andi %xq, %c1 : index
    %xp = arith.cmpi ne, %xb, %c0 : index
    %d = arith.subi %n1, %x : index
    %g = arith.cmpi ule, %d, %c5 : index
    scf.if %g {
      apipe.mbarrier_wait %ring[%xs], %xp : memref<5xi64, 3>
    }
    scf.yield %n, %n1 : index, index
  }
  return
}
