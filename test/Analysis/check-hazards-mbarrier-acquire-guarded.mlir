// apipe-check-hazards, mbarrier form: acquires under a guard that skips
// them while the ring has fewer than K groups (trial 79: `scf.if (c >=u K)
// { wait for group c - K }` before the arrive on slot c mod K). On the
// path that skips the wait, no group is K back, so the slot's previous
// group is complete there too (there is none): the join of both paths
// proves the slot's reuse. Before, the skipped path's unknown completion
// hid the other path's proof, and every later wait was taken as one that
// may return at once: false read-after-write errors at the reads after the
// loop, and a false write-after-write at the next call of the function.
// The checker is silent; apipe-run prints what make-sync prints in every
// completion mode.
// RUN: apipe-opt %s --apipe-check-hazards -o %t.checked
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: apipe-run %s --completion=lazy,eager,random:1,random:2,random:3 | grep -v -e Unranked -e "apipe-run: completion=" > %t.values
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync5
// RUN: diff %t.sync5 %t.values

// out[r] = A[4r + 1] = 4r + 1, once per function.
// VALUES: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41]
// VALUES-NEXT: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41]
// VALUES-NEXT: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41]
// VALUES-NOT: [

func.func private @printMemrefF32(memref<*xf32>)

// Guard `c >=u K` around an acquire on the same count (`== 0`: the
// phase before c's, group c - K).
func.func @acquire_uge(%A: memref<44xf32> {llvm.noalias}, %buf: memref<11x4xf32> {llvm.noalias}, %out: memref<11xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c11 = arith.constant 11 : index
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  %cnt = scf.for %i = %c0 to %c11 step %c1 iter_args(%c = %c0) -> (index) {
    %sl = arith.andi %c, %c1 : index
    %old = arith.cmpi uge, %c, %c2 : index
    scf.if %old {
      %q = arith.andi %c, %c2 : index
      %p = arith.cmpi eq, %q, %c0 : index
      apipe.mbarrier_wait %ring[%sl], %p : memref<2xi64, 3>
    }
    %src = arith.muli %i, %c4 : index
    apipe.copy %A[%src], %buf[%i, %c0], 4 : memref<44xf32> to memref<11x4xf32>
    apipe.mbarrier_arrive_copies %ring[%sl] : memref<2xi64, 3>
    %cn = arith.addi %c, %c1 : index
    scf.yield %cn : index
  }
  %x = arith.subi %cnt, %c1 : index
  %ws = arith.andi %x, %c1 : index
  %wq = arith.andi %x, %c2 : index
  %wp = arith.cmpi ne, %wq, %c0 : index
  apipe.mbarrier_wait %ring[%ws], %wp : memref<2xi64, 3>
  scf.for %r = %c0 to %c11 step %c1 {
    %v = memref.load %buf[%r, %c1] : memref<11x4xf32>
    memref.store %v, %out[%r] : memref<11xf32>
  }
  return
}

// Guard `c >u K - 1` around an acquire written with the parity of
// `c - K`.
func.func @acquire_ugt(%A: memref<44xf32> {llvm.noalias}, %buf: memref<11x4xf32> {llvm.noalias}, %out: memref<11xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c11 = arith.constant 11 : index
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  %cnt = scf.for %i = %c0 to %c11 step %c1 iter_args(%c = %c0) -> (index) {
    %sl = arith.andi %c, %c1 : index
    %old = arith.cmpi ugt, %c, %c1 : index
    scf.if %old {
      %pv = arith.subi %c, %c2 : index
      %q = arith.andi %pv, %c2 : index
      %p = arith.cmpi ne, %q, %c0 : index
      apipe.mbarrier_wait %ring[%sl], %p : memref<2xi64, 3>
    }
    %src = arith.muli %i, %c4 : index
    apipe.copy %A[%src], %buf[%i, %c0], 4 : memref<44xf32> to memref<11x4xf32>
    apipe.mbarrier_arrive_copies %ring[%sl] : memref<2xi64, 3>
    %cn = arith.addi %c, %c1 : index
    scf.yield %cn : index
  }
  %x = arith.subi %cnt, %c1 : index
  %ws = arith.andi %x, %c1 : index
  %wq = arith.andi %x, %c2 : index
  %wp = arith.cmpi ne, %wq, %c0 : index
  apipe.mbarrier_wait %ring[%ws], %wp : memref<2xi64, 3>
  scf.for %r = %c0 to %c11 step %c1 {
    %v = memref.load %buf[%r, %c1] : memref<11x4xf32>
    memref.store %v, %out[%r] : memref<11xf32>
  }
  return
}

// K = 3 (not a power of two: `arith.remui` / `arith.divui` read a
// negative count as 2^64 + x): the guard `c >u 2` proves `c - 3 >= 0`
// for the acquire on `c - 3`, also once the count is joined over the
// loop's 11 iterations (trial 80: "a count that may be negative").
func.func @acquire_k3(%A: memref<44xf32> {llvm.noalias}, %buf: memref<11x4xf32> {llvm.noalias}, %out: memref<11xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c11 = arith.constant 11 : index
  %ring = memref.alloca() : memref<3xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<3xi64, 3>
  %cnt = scf.for %i = %c0 to %c11 step %c1 iter_args(%c = %c0) -> (index) {
    %old = arith.cmpi ugt, %c, %c2 : index
    scf.if %old {
      %pv = arith.subi %c, %c3 : index
      %ps = arith.remui %pv, %c3 : index
      %pd = arith.divui %pv, %c3 : index
      %pb = arith.andi %pd, %c1 : index
      %p = arith.cmpi ne, %pb, %c0 : index
      apipe.mbarrier_wait %ring[%ps], %p : memref<3xi64, 3>
    }
    %src = arith.muli %i, %c4 : index
    apipe.copy %A[%src], %buf[%i, %c0], 4 : memref<44xf32> to memref<11x4xf32>
    %sl = arith.remui %c, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%sl] : memref<3xi64, 3>
    %cn = arith.addi %c, %c1 : index
    scf.yield %cn : index
  }
  %x = arith.subi %cnt, %c1 : index
  %ws = arith.remui %x, %c3 : index
  %wd = arith.divui %x, %c3 : index
  %wb = arith.andi %wd, %c1 : index
  %wp = arith.cmpi ne, %wb, %c0 : index
  apipe.mbarrier_wait %ring[%ws], %wp : memref<3xi64, 3>
  scf.for %r = %c0 to %c11 step %c1 {
    %v = memref.load %buf[%r, %c1] : memref<11x4xf32>
    memref.store %v, %out[%r] : memref<11xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c44 = arith.constant 44 : index
  %z = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<44xf32>
  %buf = memref.alloc() : memref<11x4xf32>
  %out = memref.alloc() : memref<11xf32>
  scf.for %i = %c0 to %c44 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<44xf32>
  }
  %u = memref.cast %out : memref<11xf32> to memref<*xf32>
  linalg.fill ins(%z : f32) outs(%out : memref<11xf32>)
  func.call @acquire_uge(%A, %buf, %out) : (memref<44xf32>, memref<11x4xf32>, memref<11xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  linalg.fill ins(%z : f32) outs(%out : memref<11xf32>)
  func.call @acquire_ugt(%A, %buf, %out) : (memref<44xf32>, memref<11x4xf32>, memref<11xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  linalg.fill ins(%z : f32) outs(%out : memref<11xf32>)
  func.call @acquire_k3(%A, %buf, %out) : (memref<44xf32>, memref<11x4xf32>, memref<11xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
