// apipe-check-hazards on multi-buffered loops that carry their slot index
// through scf.for iter_args (CUTLASS's pipeline state, IREE's and upstream
// MLIR's multi-buffered loops): a slot advanced with `(slot + 1) mod K`
// (`arith.remui`) or `select(slot + 1 == K, 0, slot + 1)` from a constant
// init in [0, K) is `(init + iv) mod K`, and a window of slots passed along
// the iter_args is the slot it was one iteration earlier, so the slot of a
// read and the slot of a copy in flight compare exactly. These correct
// programs are silent and left unchanged; their broken twins (one wait
// weaker, a slot not advanced, too few slots for the copies in flight) are
// reported at exact locations in check-hazards-slots-invalid.mlir.
// RUN: apipe-opt %s --apipe-check-hazards | FileCheck %s --implicit-check-not=error:
// They print the values of the synchronous program in every completion mode:
// RUN: apipe-run %s --entry=main --completion=lazy,eager,random:1,random:2,random:3 > %t.out
// RUN: grep -c "apipe-run: completion=" %t.out | FileCheck %s --check-prefix=MODES
// RUN: grep -v -e Unranked -e "apipe-run: completion=" %t.out > %t.values
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync5
// RUN: diff %t.sync5 %t.values
// MODES: {{^}}5{{$}}
// VALUES: {{^}}[3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  -1]
// VALUES-NEXT: {{^}}[3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  -1,  -1]
// VALUES-NEXT: {{^}}[3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  -1,  -1,  -1]
// VALUES-NEXT: {{^}}[3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  -1,  -1]
// VALUES-NEXT: {{^}}[3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  -1,  -1]
// VALUES-NEXT: {{^}}[3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// VALUES-NEXT: {{^}}{{\[\[}}3,   7,   11,   15,   19,   23,   27,   31,   35,   39,   43,   47,   51,   55,   -1,   -1],
// VALUES-NEXT: {{^}} [67,   71,   75,   79,   83,   87,   91,   95,   99,   103,   107,   111,   115,   119,   -1,   -1],
// VALUES-NEXT: {{^}} [131,   135,   139,   143,   147,   151,   155,   159,   163,   167,   171,   175,   179,   183,   -1,   -1]]

// K = 2, the read and write slots advanced with `arith.remui`, the slot
// used in load and copy indices.
// CHECK-LABEL: func.func @k2_remui
func.func @k2_remui(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 2 : index
  %cKm1 = arith.constant 1 : index
  %cD = arith.constant 1 : index
  %cW = arith.constant 1 : index
  %cN = arith.constant 15 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %p0 = arith.constant 0 : index
  %ps0 = arith.constant 0 : index
  apipe.copy %A[%ps0], %buf[%p0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %cN step %c1 iter_args(%rs = %c0, %ws = %cW) -> (index, index) {
    %jn = arith.addi %j, %cD : index
    %src = arith.muli %jn, %c4 : index
    apipe.copy %A[%src], %buf[%ws, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    apipe.commit_group
    apipe.wait_group 1
    %x = memref.load %buf[%rs, %c3] : memref<2x4xf32>
    memref.store %x, %out[%j] : memref<16xf32>
    %r1 = arith.addi %rs, %c1 : index
    %rn = arith.remui %r1, %cK : index
    %w1 = arith.addi %ws, %c1 : index
    %wn = arith.remui %w1, %cK : index
    scf.yield %rn, %wn : index, index
  }
  apipe.wait_group 0
  return
}

// K = 3, slots advanced with `select(slot + 1 == K, 0, slot + 1)`, used in
// subview offsets.
// CHECK-LABEL: func.func @k3_select_subview
func.func @k3_select_subview(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 3 : index
  %cKm1 = arith.constant 2 : index
  %cD = arith.constant 2 : index
  %cW = arith.constant 2 : index
  %cN = arith.constant 14 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %p0 = arith.constant 0 : index
  %ps0 = arith.constant 0 : index
  apipe.copy %A[%ps0], %buf[%p0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %p1 = arith.constant 1 : index
  %ps1 = arith.constant 4 : index
  apipe.copy %A[%ps1], %buf[%p1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %cN step %c1 iter_args(%rs = %c0, %ws = %cW) -> (index, index) {
    %jn = arith.addi %j, %cD : index
    %src = arith.muli %jn, %c4 : index
    %dst = memref.subview %buf[%ws, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.copy %A[%src], %dst[%c0], 4 : memref<64xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.commit_group
    apipe.wait_group 2
    %tile = memref.subview %buf[%rs, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    %x = memref.load %tile[%c3] : memref<4xf32, strided<[1], offset: ?>>
    memref.store %x, %out[%j] : memref<16xf32>
    %r1 = arith.addi %rs, %c1 : index
    %rw = arith.cmpi eq, %r1, %cK : index
    %rn = arith.select %rw, %c0, %r1 : index
    %w1 = arith.addi %ws, %c1 : index
    %ww = arith.cmpi eq, %w1, %cK : index
    %wn = arith.select %ww, %c0, %w1 : index
    scf.yield %rn, %wn : index, index
  }
  apipe.wait_group 0
  return
}

// K = 4, the wrap tested on the slot itself: `select(slot == K - 1, 0,
// slot + 1)`.
// CHECK-LABEL: func.func @k4_select_index
func.func @k4_select_index(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 4 : index
  %cKm1 = arith.constant 3 : index
  %cD = arith.constant 3 : index
  %cW = arith.constant 3 : index
  %cN = arith.constant 13 : index
  %buf = memref.alloc() : memref<4x4xf32>
  %p0 = arith.constant 0 : index
  %ps0 = arith.constant 0 : index
  apipe.copy %A[%ps0], %buf[%p0, %c0], 4 : memref<64xf32> to memref<4x4xf32>
  apipe.commit_group
  %p1 = arith.constant 1 : index
  %ps1 = arith.constant 4 : index
  apipe.copy %A[%ps1], %buf[%p1, %c0], 4 : memref<64xf32> to memref<4x4xf32>
  apipe.commit_group
  %p2 = arith.constant 2 : index
  %ps2 = arith.constant 8 : index
  apipe.copy %A[%ps2], %buf[%p2, %c0], 4 : memref<64xf32> to memref<4x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %cN step %c1 iter_args(%rs = %c0, %ws = %cW) -> (index, index) {
    %jn = arith.addi %j, %cD : index
    %src = arith.muli %jn, %c4 : index
    apipe.copy %A[%src], %buf[%ws, %c0], 4 : memref<64xf32> to memref<4x4xf32>
    apipe.commit_group
    apipe.wait_group 3
    %x = memref.load %buf[%rs, %c3] : memref<4x4xf32>
    memref.store %x, %out[%j] : memref<16xf32>
    %r1 = arith.addi %rs, %c1 : index
    %rw = arith.cmpi eq, %rs, %cKm1 : index
    %rn = arith.select %rw, %c0, %r1 : index
    %w1 = arith.addi %ws, %c1 : index
    %ww = arith.cmpi eq, %ws, %cKm1 : index
    %wn = arith.select %ww, %c0, %w1 : index
    scf.yield %rn, %wn : index, index
  }
  apipe.wait_group 0
  return
}

// K = 3, `arith.remui`, subview offsets.
// CHECK-LABEL: func.func @k3_remui_subview
func.func @k3_remui_subview(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 3 : index
  %cKm1 = arith.constant 2 : index
  %cD = arith.constant 2 : index
  %cW = arith.constant 2 : index
  %cN = arith.constant 14 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %p0 = arith.constant 0 : index
  %ps0 = arith.constant 0 : index
  apipe.copy %A[%ps0], %buf[%p0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %p1 = arith.constant 1 : index
  %ps1 = arith.constant 4 : index
  apipe.copy %A[%ps1], %buf[%p1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %cN step %c1 iter_args(%rs = %c0, %ws = %cW) -> (index, index) {
    %jn = arith.addi %j, %cD : index
    %src = arith.muli %jn, %c4 : index
    %dst = memref.subview %buf[%ws, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.copy %A[%src], %dst[%c0], 4 : memref<64xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.commit_group
    apipe.wait_group 2
    %tile = memref.subview %buf[%rs, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    %x = memref.load %tile[%c3] : memref<4xf32, strided<[1], offset: ?>>
    memref.store %x, %out[%j] : memref<16xf32>
    %r1 = arith.addi %rs, %c1 : index
    %rn = arith.remui %r1, %cK : index
    %w1 = arith.addi %ws, %c1 : index
    %wn = arith.remui %w1, %cK : index
    scf.yield %rn, %wn : index, index
  }
  apipe.wait_group 0
  return
}

// K = 3, the read slot advanced with `select(slot + 1 != K, slot + 1, 0)`.
// CHECK-LABEL: func.func @k3_select_ne
func.func @k3_select_ne(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 3 : index
  %cKm1 = arith.constant 2 : index
  %cD = arith.constant 2 : index
  %cW = arith.constant 2 : index
  %cN = arith.constant 14 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %p0 = arith.constant 0 : index
  %ps0 = arith.constant 0 : index
  apipe.copy %A[%ps0], %buf[%p0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %p1 = arith.constant 1 : index
  %ps1 = arith.constant 4 : index
  apipe.copy %A[%ps1], %buf[%p1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %cN step %c1 iter_args(%rs = %c0, %ws = %cW) -> (index, index) {
    %jn = arith.addi %j, %cD : index
    %src = arith.muli %jn, %c4 : index
    apipe.copy %A[%src], %buf[%ws, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    apipe.commit_group
    apipe.wait_group 2
    %x = memref.load %buf[%rs, %c3] : memref<3x4xf32>
    memref.store %x, %out[%j] : memref<16xf32>
    %r1 = arith.addi %rs, %c1 : index
    %rw = arith.cmpi ne, %r1, %cK : index
    %rn = arith.select %rw, %r1, %c0 : index
    %w1 = arith.addi %ws, %c1 : index
    %ww = arith.cmpi eq, %w1, %cK : index
    %wn = arith.select %ww, %c0, %w1 : index
    scf.yield %rn, %wn : index, index
  }
  apipe.wait_group 0
  return
}

// A window of two slots passed along the iter_args, as upstream MLIR's
// pipeliner carries the versions of the tiles in flight: the slot of tile
// j + 1 moves to the slot of tile j, the new one is advanced with a select;
// the epilogue reads the slots the loop returns.
// CHECK-LABEL: func.func @window_k3
func.func @window_k3(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c14 = arith.constant 14 : index
  %c15 = arith.constant 15 : index
  %buf = memref.alloc() : memref<3x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %c14 step %c1 iter_args(%s0 = %c0, %s1 = %c1) -> (index, index) {
    %n1 = arith.addi %s1, %c1 : index
    %wrap = arith.cmpi eq, %n1, %c3 : index
    %s2 = arith.select %wrap, %c0, %n1 : index
    %jn = arith.addi %j, %c2 : index
    %src = arith.muli %jn, %c4 : index
    apipe.copy %A[%src], %buf[%s2, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    apipe.commit_group
    apipe.wait_group 2
    %x = memref.load %buf[%s0, %c3] : memref<3x4xf32>
    memref.store %x, %out[%j] : memref<16xf32>
    scf.yield %s1, %s2 : index, index
  }
  apipe.wait_group 1
  %y = memref.load %buf[%r#0, %c3] : memref<3x4xf32>
  memref.store %y, %out[%c14] : memref<16xf32>
  apipe.wait_group 0
  %z = memref.load %buf[%r#1, %c3] : memref<3x4xf32>
  memref.store %z, %out[%c15] : memref<16xf32>
  return
}

// An outer loop over 3 rows; the inner loop's slots restart at 0 and K - 1
// in each row (the read slot with the `ne` select, the write slot with the
// wrap tested on the slot).
// CHECK-LABEL: func.func @nested_k3
func.func @nested_k3(%A: memref<3x64xf32>, %out: memref<3x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 3 : index
  %cKm1 = arith.constant 2 : index
  %cN = arith.constant 14 : index
  %buf = memref.alloc() : memref<3x4xf32>
  scf.for %row = %c0 to %c3 step %c1 {
    %p0 = arith.constant 0 : index
    %ps0 = arith.constant 0 : index
    apipe.copy %A[%row, %ps0], %buf[%p0, %c0], 4 : memref<3x64xf32> to memref<3x4xf32>
    apipe.commit_group
    %p1 = arith.constant 1 : index
    %ps1 = arith.constant 4 : index
    apipe.copy %A[%row, %ps1], %buf[%p1, %c0], 4 : memref<3x64xf32> to memref<3x4xf32>
    apipe.commit_group
    %r:2 = scf.for %j = %c0 to %cN step %c1 iter_args(%rs = %c0, %ws = %cKm1) -> (index, index) {
      %jn = arith.addi %j, %cKm1 : index
      %src = arith.muli %jn, %c4 : index
      apipe.copy %A[%row, %src], %buf[%ws, %c0], 4 : memref<3x64xf32> to memref<3x4xf32>
      apipe.commit_group
      apipe.wait_group 2
      %x = memref.load %buf[%rs, %c3] : memref<3x4xf32>
      memref.store %x, %out[%row, %j] : memref<3x16xf32>
      %r1 = arith.addi %rs, %c1 : index
      %rw = arith.cmpi ne, %r1, %cK : index
      %rn = arith.select %rw, %r1, %c0 : index
      %w1 = arith.addi %ws, %c1 : index
      %ww = arith.cmpi eq, %ws, %cKm1 : index
      %wn = arith.select %ww, %c0, %w1 : index
      scf.yield %rn, %wn : index, index
    }
    apipe.wait_group 0
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// CHECK-LABEL: func.func @main
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %none = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<3x64xf32>
  scf.for %r = %c0 to %c3 step %c1 {
    scf.for %i = %c0 to %c64 step %c1 {
      %rr = arith.muli %r, %c64 : index
      %k = arith.addi %rr, %i : index
      %j = arith.index_cast %k : index to i32
      %f = arith.sitofp %j : i32 to f32
      memref.store %f, %A[%r, %i] : memref<3x64xf32>
    }
  }
  %row = memref.subview %A[0, 0] [1, 64] [1, 1] : memref<3x64xf32> to memref<64xf32, strided<[1]>>
  %A0 = memref.alloc() : memref<64xf32>
  memref.copy %row, %A0 : memref<64xf32, strided<[1]>> to memref<64xf32>
  %out = memref.alloc() : memref<16xf32>
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %none, %out[%i] : memref<16xf32>
  }
  func.call @k2_remui(%A0, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %none, %out[%i] : memref<16xf32>
  }
  func.call @k3_select_subview(%A0, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %none, %out[%i] : memref<16xf32>
  }
  func.call @k4_select_index(%A0, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %none, %out[%i] : memref<16xf32>
  }
  func.call @k3_remui_subview(%A0, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %none, %out[%i] : memref<16xf32>
  }
  func.call @k3_select_ne(%A0, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %none, %out[%i] : memref<16xf32>
  }
  func.call @window_k3(%A0, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %out3 = memref.alloc() : memref<3x16xf32>
  scf.for %r = %c0 to %c3 step %c1 {
    scf.for %i = %c0 to %c16 step %c1 {
      memref.store %none, %out3[%r, %i] : memref<3x16xf32>
    }
  }
  func.call @nested_k3(%A, %out3) : (memref<3x64xf32>, memref<3x16xf32>) -> ()
  %u3 = memref.cast %out3 : memref<3x16xf32> to memref<*xf32>
  func.call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  return
}
