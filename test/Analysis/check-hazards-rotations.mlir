// apipe-check-hazards on buffers and slots that rotate in the ways a
// second fresh-user trial wrote them (each correct one was a remark or a
// false alarm, each broken twin a remark or an error): buffers swapped by
// an scf.while and by an outer loop through an inner one, a ring advanced
// by scf.if, and slots from `xori` and `extsi(trunci)` of an unbounded
// counter. Each function was run under apipe-run in lazy, eager and
// random completion against make-sync: the silent ones print the same,
// each twin with an error does not (or reads a copy in flight).
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:

// An scf.while ping-pong: the `before` arguments swap through the `after`
// region (`scf.condition` forwards them); it waits for the group it reads.
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  %out = memref.alloc() : memref<16xf32>
  linalg.fill ins(%z : f32) outs(%out : memref<16xf32>)
  %B0 = memref.alloc() : memref<8xf32>
  %B1 = memref.alloc() : memref<8xf32>
  %B2 = memref.alloc() : memref<8xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%B0 : memref<8xf32>)
  linalg.fill ins(%one : f32) outs(%B1 : memref<8xf32>)
  linalg.fill ins(%one : f32) outs(%B2 : memref<8xf32>)
    %cs1_0 = arith.addi %c0, %c0 : index
    %cd1_0 = arith.addi %c0, %c0 : index
    apipe.copy %A[%cs1_0], %B0[%cd1_0], 4 : memref<256xf32> to memref<8xf32>
    %cs1_4 = arith.addi %c0, %c4 : index
    %cd1_4 = arith.addi %c0, %c4 : index
    apipe.copy %A[%cs1_4], %B0[%cd1_4], 4 : memref<256xf32> to memref<8xf32>
  apipe.commit_group
  %w:3 = scf.while (%i = %c0, %cur = %B0, %nxt = %B1) : (index, memref<8xf32>, memref<8xf32>) -> (index, memref<8xf32>, memref<8xf32>) {
    %cond = arith.cmpi ult, %i, %c8 : index
    scf.condition(%cond) %i, %cur, %nxt : index, memref<8xf32>, memref<8xf32>
  } do {
  ^bb0(%i: index, %cur: memref<8xf32>, %nxt: memref<8xf32>):
    %i1 = arith.addi %i, %c1 : index
    %base = arith.muli %i1, %c8 : index
    %cs2_0 = arith.addi %base, %c0 : index
    %cd2_0 = arith.addi %c0, %c0 : index
    apipe.copy %A[%cs2_0], %nxt[%cd2_0], 4 : memref<256xf32> to memref<8xf32>
    %cs2_4 = arith.addi %base, %c4 : index
    %cd2_4 = arith.addi %c0, %c4 : index
    apipe.copy %A[%cs2_4], %nxt[%cd2_4], 4 : memref<256xf32> to memref<8xf32>
    apipe.commit_group
    apipe.wait_group 1
    scf.for %e3 = %c0 to %c8 step %c1 {
      %x3 = memref.load %cur[%e3] : memref<8xf32>
      %o3 = memref.load %out[%e3] : memref<16xf32>
      %d3 = arith.addf %o3, %o3 : f32
      %s3 = arith.addf %d3, %x3 : f32
      memref.store %s3, %out[%e3] : memref<16xf32>
    }
    scf.yield %i1, %nxt, %cur : index, memref<8xf32>, memref<8xf32>
  }
  apipe.wait_group 0

  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// Its twin waits for one group too few.
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  %out = memref.alloc() : memref<16xf32>
  linalg.fill ins(%z : f32) outs(%out : memref<16xf32>)
  %B0 = memref.alloc() : memref<8xf32>
  %B1 = memref.alloc() : memref<8xf32>
  %B2 = memref.alloc() : memref<8xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%B0 : memref<8xf32>)
  linalg.fill ins(%one : f32) outs(%B1 : memref<8xf32>)
  linalg.fill ins(%one : f32) outs(%B2 : memref<8xf32>)
    %cs4_0 = arith.addi %c0, %c0 : index
    %cd4_0 = arith.addi %c0, %c0 : index
    apipe.copy %A[%cs4_0], %B0[%cd4_0], 4 : memref<256xf32> to memref<8xf32>
    %cs4_4 = arith.addi %c0, %c4 : index
    %cd4_4 = arith.addi %c0, %c4 : index
    apipe.copy %A[%cs4_4], %B0[%cd4_4], 4 : memref<256xf32> to memref<8xf32>
  apipe.commit_group
  %w:3 = scf.while (%i = %c0, %cur = %B0, %nxt = %B1) : (index, memref<8xf32>, memref<8xf32>) -> (index, memref<8xf32>, memref<8xf32>) {
    %cond = arith.cmpi ult, %i, %c8 : index
    scf.condition(%cond) %i, %cur, %nxt : index, memref<8xf32>, memref<8xf32>
  } do {
  ^bb0(%i: index, %cur: memref<8xf32>, %nxt: memref<8xf32>):
    %i1 = arith.addi %i, %c1 : index
    %base = arith.muli %i1, %c8 : index
    %cs5_0 = arith.addi %base, %c0 : index
    %cd5_0 = arith.addi %c0, %c0 : index
    // CHECK-DAG: check-hazards-rotations.mlir:[[# @LINE + 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    apipe.copy %A[%cs5_0], %nxt[%cd5_0], 4 : memref<256xf32> to memref<8xf32>
    %cs5_4 = arith.addi %base, %c4 : index
    %cd5_4 = arith.addi %c0, %c4 : index
    // CHECK-DAG: check-hazards-rotations.mlir:[[# @LINE + 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    apipe.copy %A[%cs5_4], %nxt[%cd5_4], 4 : memref<256xf32> to memref<8xf32>
    apipe.commit_group
    apipe.wait_group 2
    scf.for %e6 = %c0 to %c8 step %c1 {
      // CHECK-DAG: check-hazards-rotations.mlir:[[# @LINE + 1]]:13: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
      %x6 = memref.load %cur[%e6] : memref<8xf32>
      %o6 = memref.load %out[%e6] : memref<16xf32>
      %d6 = arith.addf %o6, %o6 : f32
      %s6 = arith.addf %d6, %x6 : f32
      memref.store %s6, %out[%e6] : memref<16xf32>
    }
    scf.yield %i1, %nxt, %cur : index, memref<8xf32>, memref<8xf32>
  }
  apipe.wait_group 0

  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// A ping-pong inside an outer loop that passes the inner loop's results
// on in the order the inner rotation leaves them (3 iterations).
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  %out = memref.alloc() : memref<16xf32>
  linalg.fill ins(%z : f32) outs(%out : memref<16xf32>)
  %B0 = memref.alloc() : memref<8xf32>
  %B1 = memref.alloc() : memref<8xf32>
  %B2 = memref.alloc() : memref<8xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%B0 : memref<8xf32>)
  linalg.fill ins(%one : f32) outs(%B1 : memref<8xf32>)
  linalg.fill ins(%one : f32) outs(%B2 : memref<8xf32>)
  %B3 = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%B3 : memref<8xf32>)
    %cs13_0 = arith.addi %c0, %c0 : index
    %cd13_0 = arith.addi %c0, %c0 : index
    apipe.copy %A[%cs13_0], %B0[%cd13_0], 4 : memref<256xf32> to memref<8xf32>
    %cs13_4 = arith.addi %c0, %c4 : index
    %cd13_4 = arith.addi %c0, %c4 : index
    apipe.copy %A[%cs13_4], %B0[%cd13_4], 4 : memref<256xf32> to memref<8xf32>
  apipe.commit_group
  %ro:2 = scf.for %o = %c0 to %c4 step %c1 iter_args(%p = %B0, %q = %B1) -> (memref<8xf32>, memref<8xf32>) {
    %ri:2 = scf.for %t = %c0 to %c3 step %c1 iter_args(%cur = %p, %nxt = %q) -> (memref<8xf32>, memref<8xf32>) {
      %o3 = arith.muli %o, %c3 : index
      %g = arith.addi %o3, %t : index
      %g1 = arith.addi %g, %c1 : index
      %base = arith.muli %g1, %c8 : index
    %cs14_0 = arith.addi %base, %c0 : index
    %cd14_0 = arith.addi %c0, %c0 : index
    apipe.copy %A[%cs14_0], %nxt[%cd14_0], 4 : memref<256xf32> to memref<8xf32>
    %cs14_4 = arith.addi %base, %c4 : index
    %cd14_4 = arith.addi %c0, %c4 : index
    apipe.copy %A[%cs14_4], %nxt[%cd14_4], 4 : memref<256xf32> to memref<8xf32>
      apipe.commit_group
      apipe.wait_group 1
    scf.for %e15 = %c0 to %c8 step %c1 {
      %x15 = memref.load %cur[%e15] : memref<8xf32>
      %o15 = memref.load %out[%e15] : memref<16xf32>
      %d15 = arith.addf %o15, %o15 : f32
      %s15 = arith.addf %d15, %x15 : f32
      memref.store %s15, %out[%e15] : memref<16xf32>
    }
      scf.yield %nxt, %cur : memref<8xf32>, memref<8xf32>
    }
    scf.yield %ri#0, %ri#1 : memref<8xf32>, memref<8xf32>
  }
  apipe.wait_group 0

  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// Its twin passes them swapped: the next inner loop copies into the
// buffer whose copy is still in flight.
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  %out = memref.alloc() : memref<16xf32>
  linalg.fill ins(%z : f32) outs(%out : memref<16xf32>)
  %B0 = memref.alloc() : memref<8xf32>
  %B1 = memref.alloc() : memref<8xf32>
  %B2 = memref.alloc() : memref<8xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%B0 : memref<8xf32>)
  linalg.fill ins(%one : f32) outs(%B1 : memref<8xf32>)
  linalg.fill ins(%one : f32) outs(%B2 : memref<8xf32>)
  %B3 = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%B3 : memref<8xf32>)
    %cs16_0 = arith.addi %c0, %c0 : index
    %cd16_0 = arith.addi %c0, %c0 : index
    apipe.copy %A[%cs16_0], %B0[%cd16_0], 4 : memref<256xf32> to memref<8xf32>
    %cs16_4 = arith.addi %c0, %c4 : index
    %cd16_4 = arith.addi %c0, %c4 : index
    apipe.copy %A[%cs16_4], %B0[%cd16_4], 4 : memref<256xf32> to memref<8xf32>
  apipe.commit_group
  %ro:2 = scf.for %o = %c0 to %c4 step %c1 iter_args(%p = %B0, %q = %B1) -> (memref<8xf32>, memref<8xf32>) {
    %ri:2 = scf.for %t = %c0 to %c3 step %c1 iter_args(%cur = %p, %nxt = %q) -> (memref<8xf32>, memref<8xf32>) {
      %o3 = arith.muli %o, %c3 : index
      %g = arith.addi %o3, %t : index
      %g1 = arith.addi %g, %c1 : index
      %base = arith.muli %g1, %c8 : index
    %cs17_0 = arith.addi %base, %c0 : index
    %cd17_0 = arith.addi %c0, %c0 : index
    // CHECK-DAG: check-hazards-rotations.mlir:[[# @LINE + 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    apipe.copy %A[%cs17_0], %nxt[%cd17_0], 4 : memref<256xf32> to memref<8xf32>
    %cs17_4 = arith.addi %base, %c4 : index
    %cd17_4 = arith.addi %c0, %c4 : index
    // CHECK-DAG: check-hazards-rotations.mlir:[[# @LINE + 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    apipe.copy %A[%cs17_4], %nxt[%cd17_4], 4 : memref<256xf32> to memref<8xf32>
      apipe.commit_group
      apipe.wait_group 1
    scf.for %e18 = %c0 to %c8 step %c1 {
      %x18 = memref.load %cur[%e18] : memref<8xf32>
      %o18 = memref.load %out[%e18] : memref<16xf32>
      %d18 = arith.addf %o18, %o18 : f32
      %s18 = arith.addf %d18, %x18 : f32
      memref.store %s18, %out[%e18] : memref<16xf32>
    }
      scf.yield %nxt, %cur : memref<8xf32>, memref<8xf32>
    }
    scf.yield %ri#1, %ri#0 : memref<8xf32>, memref<8xf32>
  }
  apipe.wait_group 0

  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// A ring of slots advanced by `scf.if` (`if (++i == K) i = 0`).
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  %out = memref.alloc() : memref<16xf32>
  linalg.fill ins(%z : f32) outs(%out : memref<16xf32>)
  %S = memref.alloc() : memref<16xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%S : memref<16xf32>)
    %cs25_0 = arith.addi %c0, %c0 : index
    %cd25_0 = arith.addi %c0, %c0 : index
    apipe.copy %A[%cs25_0], %S[%cd25_0], 4 : memref<256xf32> to memref<16xf32>
    %cs25_4 = arith.addi %c0, %c4 : index
    %cd25_4 = arith.addi %c0, %c4 : index
    apipe.copy %A[%cs25_4], %S[%cd25_4], 4 : memref<256xf32> to memref<16xf32>
  apipe.commit_group
  %p0 = arith.constant 0 : index
  %cr = scf.for %t = %c0 to %c16 step %c1 iter_args(%p = %p0) -> (index) {
    %t1 = arith.addi %t, %c1 : index
    %inr = arith.cmpi ult, %t1, %c16 : index
    %srcb = arith.muli %t1, %c8 : index
    %wi = arith.addi %p, %c1 : index
    %we = arith.cmpi eq, %wi, %c2 : index
    %ws = scf.if %we -> (index) {
      scf.yield %c0 : index
    } else {
      scf.yield %wi : index
    }
    %wb = arith.muli %ws, %c8 : index
    scf.if %inr {
    %cs26_0 = arith.addi %srcb, %c0 : index
    %cd26_0 = arith.addi %wb, %c0 : index
    apipe.copy %A[%cs26_0], %S[%cd26_0], 4 : memref<256xf32> to memref<16xf32>
    %cs26_4 = arith.addi %srcb, %c4 : index
    %cd26_4 = arith.addi %wb, %c4 : index
    apipe.copy %A[%cs26_4], %S[%cd26_4], 4 : memref<256xf32> to memref<16xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %rs = arith.addi %p, %c0 : index
    %rb = arith.muli %rs, %c8 : index
    scf.for %e27 = %c0 to %c8 step %c1 {
      %ea27 = arith.addi %e27, %rb : index
      %x27 = memref.load %S[%ea27] : memref<16xf32>
      %o27 = memref.load %out[%e27] : memref<16xf32>
      %d27 = arith.addf %o27, %o27 : f32
      %s27 = arith.addf %d27, %x27 : f32
      memref.store %s27, %out[%e27] : memref<16xf32>
    }
    %pi = arith.addi %p, %c1 : index
    %pe = arith.cmpi eq, %pi, %c2 : index
    %pn = scf.if %pe -> (index) {
      scf.yield %c0 : index
    } else {
      scf.yield %pi : index
    }
    scf.yield %pn : index
  }
  apipe.wait_group 0

  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// Its twin waits for one group too few.
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  %out = memref.alloc() : memref<16xf32>
  linalg.fill ins(%z : f32) outs(%out : memref<16xf32>)
  %S = memref.alloc() : memref<16xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%S : memref<16xf32>)
    %cs28_0 = arith.addi %c0, %c0 : index
    %cd28_0 = arith.addi %c0, %c0 : index
    apipe.copy %A[%cs28_0], %S[%cd28_0], 4 : memref<256xf32> to memref<16xf32>
    %cs28_4 = arith.addi %c0, %c4 : index
    %cd28_4 = arith.addi %c0, %c4 : index
    apipe.copy %A[%cs28_4], %S[%cd28_4], 4 : memref<256xf32> to memref<16xf32>
  apipe.commit_group
  %p0 = arith.constant 0 : index
  %cr = scf.for %t = %c0 to %c16 step %c1 iter_args(%p = %p0) -> (index) {
    %t1 = arith.addi %t, %c1 : index
    %inr = arith.cmpi ult, %t1, %c16 : index
    %srcb = arith.muli %t1, %c8 : index
    %ws = arith.addi %p, %c0 : index
    %wb = arith.muli %ws, %c8 : index
    scf.if %inr {
    %cs29_0 = arith.addi %srcb, %c0 : index
    %cd29_0 = arith.addi %wb, %c0 : index
    // CHECK-DAG: check-hazards-rotations.mlir:[[# @LINE + 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    apipe.copy %A[%cs29_0], %S[%cd29_0], 4 : memref<256xf32> to memref<16xf32>
    %cs29_4 = arith.addi %srcb, %c4 : index
    %cd29_4 = arith.addi %wb, %c4 : index
    // CHECK-DAG: check-hazards-rotations.mlir:[[# @LINE + 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    apipe.copy %A[%cs29_4], %S[%cd29_4], 4 : memref<256xf32> to memref<16xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %rs = arith.addi %p, %c0 : index
    %rb = arith.muli %rs, %c8 : index
    scf.for %e30 = %c0 to %c8 step %c1 {
      %ea30 = arith.addi %e30, %rb : index
      // CHECK-DAG: check-hazards-rotations.mlir:[[# @LINE + 1]]:14: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
      %x30 = memref.load %S[%ea30] : memref<16xf32>
      %o30 = memref.load %out[%e30] : memref<16xf32>
      %d30 = arith.addf %o30, %o30 : f32
      %s30 = arith.addf %d30, %x30 : f32
      memref.store %s30, %out[%e30] : memref<16xf32>
    }
    %pi = arith.addi %p, %c1 : index
    %pe = arith.cmpi eq, %pi, %c2 : index
    %pn = scf.if %pe -> (index) {
      scf.yield %c0 : index
    } else {
      scf.yield %pi : index
    }
    scf.yield %pn : index
  }
  apipe.wait_group 0

  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// Slots from `j xor 1` of an unbounded counter (`j + 1 - 2 (j mod 2)`).
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  %out = memref.alloc() : memref<16xf32>
  linalg.fill ins(%z : f32) outs(%out : memref<16xf32>)
  %S = memref.alloc() : memref<16xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%S : memref<16xf32>)
  %cj0 = arith.constant 0 : index
    %p0k = arith.constant 1 : index
    %p0r = arith.xori %cj0, %p0k : index
    %p0m = arith.constant 1 : index
    %p0e = arith.muli %p0r, %p0m : index
  apipe.copy %A[%cj0], %S[%p0e], 1 : memref<256xf32> to memref<16xf32>
  apipe.commit_group
  scf.for %t = %c0 to %c16 step %c1 {
    %tw = arith.addi %t, %c1 : index
    %inr = arith.cmpi ult, %tw, %c16 : index
    %wk = arith.constant 1 : index
    %wr = arith.xori %tw, %wk : index
    %wm = arith.constant 1 : index
    %we = arith.muli %wr, %wm : index
    scf.if %inr {
      apipe.copy %A[%tw], %S[%we], 1 : memref<256xf32> to memref<16xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %rk = arith.constant 1 : index
    %rr = arith.xori %t, %rk : index
    %rm = arith.constant 1 : index
    %re = arith.muli %rr, %rm : index
    %x = memref.load %S[%re] : memref<16xf32>
    %o = memref.load %out[%c0] : memref<16xf32>
    %d = arith.addf %o, %o : f32
    %s = arith.addf %d, %x : f32
    memref.store %s, %out[%c0] : memref<16xf32>
  }
  apipe.wait_group 0

  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// Slots from the sign-extended low 2 bits, `extsi(trunci j to i2)`.
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  %out = memref.alloc() : memref<16xf32>
  linalg.fill ins(%z : f32) outs(%out : memref<16xf32>)
  %S = memref.alloc() : memref<16xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%S : memref<16xf32>)
  %cj0 = arith.constant 0 : index
    %p0a = arith.index_cast %cj0 : index to i64
    %p0b = arith.trunci %p0a : i64 to i2
    %p0c = arith.extsi %p0b : i2 to i64
    %p0d = arith.index_cast %p0c : i64 to index
    %p0k = arith.constant 2 : index
    %p0e = arith.addi %p0d, %p0k : index
  apipe.copy %A[%cj0], %S[%p0e], 1 : memref<256xf32> to memref<16xf32>
  apipe.commit_group
  scf.for %t = %c0 to %c16 step %c1 {
    %tw = arith.addi %t, %c1 : index
    %inr = arith.cmpi ult, %tw, %c16 : index
    %wa = arith.index_cast %tw : index to i64
    %wb = arith.trunci %wa : i64 to i2
    %wc = arith.extsi %wb : i2 to i64
    %wd = arith.index_cast %wc : i64 to index
    %wk = arith.constant 2 : index
    %we = arith.addi %wd, %wk : index
    scf.if %inr {
      apipe.copy %A[%tw], %S[%we], 1 : memref<256xf32> to memref<16xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %ra = arith.index_cast %t : index to i64
    %rb = arith.trunci %ra : i64 to i2
    %rc = arith.extsi %rb : i2 to i64
    %rd = arith.index_cast %rc : i64 to index
    %rk = arith.constant 2 : index
    %re = arith.addi %rd, %rk : index
    %x = memref.load %S[%re] : memref<16xf32>
    %o = memref.load %out[%c0] : memref<16xf32>
    %d = arith.addf %o, %o : f32
    %s = arith.addf %d, %x : f32
    memref.store %s, %out[%c0] : memref<16xf32>
    %xe = memref.load %S[%c4] : memref<16xf32>
    %xo = memref.load %out[%c1] : memref<16xf32>
    %xs = arith.addf %xo, %xe : f32
    memref.store %xs, %out[%c1] : memref<16xf32>
  }
  apipe.wait_group 0

  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// Its twin reads the slot of a copy still in flight.
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  %out = memref.alloc() : memref<16xf32>
  linalg.fill ins(%z : f32) outs(%out : memref<16xf32>)
  %S = memref.alloc() : memref<16xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%S : memref<16xf32>)
  %cj0 = arith.constant 0 : index
    %p0a = arith.index_cast %cj0 : index to i64
    %p0b = arith.trunci %p0a : i64 to i2
    %p0c = arith.extsi %p0b : i2 to i64
    %p0d = arith.index_cast %p0c : i64 to index
    %p0k = arith.constant 2 : index
    %p0e = arith.addi %p0d, %p0k : index
  apipe.copy %A[%cj0], %S[%p0e], 1 : memref<256xf32> to memref<16xf32>
  apipe.commit_group
  scf.for %t = %c0 to %c16 step %c1 {
    %tw = arith.addi %t, %c1 : index
    %inr = arith.cmpi ult, %tw, %c16 : index
    %wa = arith.index_cast %tw : index to i64
    %wb = arith.trunci %wa : i64 to i2
    %wc = arith.extsi %wb : i2 to i64
    %wd = arith.index_cast %wc : i64 to index
    %wk = arith.constant 2 : index
    %we = arith.addi %wd, %wk : index
    scf.if %inr {
      apipe.copy %A[%tw], %S[%we], 1 : memref<256xf32> to memref<16xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %ra = arith.index_cast %t : index to i64
    %rb = arith.trunci %ra : i64 to i2
    %rc = arith.extsi %rb : i2 to i64
    %rd = arith.index_cast %rc : i64 to index
    %rk = arith.constant 2 : index
    %re = arith.addi %rd, %rk : index
    %x = memref.load %S[%re] : memref<16xf32>
    %o = memref.load %out[%c0] : memref<16xf32>
    %d = arith.addf %o, %o : f32
    %s = arith.addf %d, %x : f32
    memref.store %s, %out[%c0] : memref<16xf32>
    // CHECK-DAG: check-hazards-rotations.mlir:[[# @LINE + 1]]:11: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %xe = memref.load %S[%c0] : memref<16xf32>
    %xo = memref.load %out[%c1] : memref<16xf32>
    %xs = arith.addf %xo, %xe : f32
    memref.store %xs, %out[%c1] : memref<16xf32>
  }
  apipe.wait_group 0

  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
