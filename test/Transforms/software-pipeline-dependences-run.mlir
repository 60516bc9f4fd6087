// Loops whose memory accesses the dependence test proves disjoint across
// the iterations the schedule reorders are pipelined, and the pipelined
// program (counting and token form) under apipe-run in lazy, eager and
// random completion prints what apipe-make-sync of the input prints.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=random:1 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=random:2 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=random:3 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-run - --completion=random:4 | FileCheck %s
// The pipelined kernel of @tmp_per_iteration:
// RUN: apipe-opt %s --apipe-software-pipeline | FileCheck %s --check-prefix=IR

func.func private @printMemrefF32(memref<*xf32>)

// A synchronous store to tmp[i] in stage 1, read in stage 2: every
// iteration writes its own element. out[i] = 2 * (A[4i + 1] + 1).
// In the kernel, iteration k + 1 stores tmp[k + 1] before iteration k
// loads tmp[k]: reordered, and disjoint.
// IR-LABEL: func.func @tmp_per_iteration
// IR: default {
// IR: scf.for %[[K:.*]] = %c0 to %{{.*}} step %c1 {
// IR: apipe.copy
// IR-NEXT: apipe.commit_group queue 0
// IR-NEXT: apipe.wait_group 1
// IR-NEXT: %[[I1:.*]] = arith.addi %[[K]], %c1 : index
// IR: memref.load %{{.*}}[%c1] : memref<4xf32, strided<[1], offset: ?>>
// IR-NEXT: %[[X1:.*]] = arith.addf
// IR-NEXT: memref.store %[[X1]], %[[TMP:.*]][%[[I1]]] : memref<16xf32>
// IR-NEXT: %[[Y:.*]] = memref.load %[[TMP]][%[[K]]] : memref<16xf32>
// IR-NEXT: %[[Y2:.*]] = arith.addf %[[Y]], %[[Y]] : f32
// IR-NEXT: memref.store %[[Y2]], %arg1[%[[K]]] : memref<16xf32>
// IR-NEXT: }
func.func @tmp_per_iteration(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  %tmp = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %n step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    %x1 = arith.addf %x, %one {apipe.stage = 1 : i64} : f32
    memref.store %x1, %tmp[%i] {apipe.stage = 1 : i64} : memref<16xf32>
    %y = memref.load %tmp[%i] {apipe.stage = 2 : i64} : memref<16xf32>
    %y2 = arith.addf %y, %y {apipe.stage = 2 : i64} : f32
    memref.store %y2, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %tmp : memref<16xf32>
  return
}

// In place: stage 2 writes B[4i], which the copy of the same iteration read
// (complete at the wait before the load); later copies read B[4(i + d) ...).
// out[i] = B[4i + 2], then B[4i] = B[4i + 2] + 100.
func.func @in_place(%B: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %hundred = arith.constant 100.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %B[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c2] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
    %y = arith.addf %x, %hundred {apipe.stage = 2 : i64} : f32
    memref.store %y, %B[%off] {apipe.stage = 2 : i64} : memref<64xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// Strided: the copy reads C[8i, 8i + 4), stage 1 stores C[8i + 4], which no
// copy reads. out[i] = C[8i + 3].
func.func @strided_disjoint(%C: memref<128xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c8 {apipe.stage = 0 : i64} : index
    apipe.copy %C[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<128xf32> to memref<4xf32>
    %x = memref.load %buf[%c3] {apipe.stage = 1 : i64} : memref<4xf32>
    %o = arith.addi %off, %c4 {apipe.stage = 1 : i64} : index
    memref.store %x, %C[%o] {apipe.stage = 1 : i64} : memref<128xf32>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// 2-D through subviews: the copy reads row i, columns [0, 4); stage 1
// writes D[i + 1, 6]. out[i] = D[i, 1].
func.func @two_dimensional_disjoint(%D: memref<16x8xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c15 = arith.constant 15 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c15 step %c1 {
    %row = memref.subview %D[%i, 0] [1, 8] [1, 1] {apipe.stage = 0 : i64} : memref<16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    apipe.copy %row[%c0], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<8xf32, strided<[1], offset: ?>> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    %i1 = arith.addi %i, %c1 {apipe.stage = 1 : i64} : index
    %next = memref.subview %D[%i1, 0] [1, 8] [1, 1] {apipe.stage = 1 : i64} : memref<16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    memref.store %x, %next[%c6] {apipe.stage = 1 : i64} : memref<8xf32, strided<[1], offset: ?>>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// Loops nested in stages: stage 0 issues two copies of 2 elements (an
// inner loop; they are in flight together and write disjoint halves),
// stage 1 stores tmp[4i + j] for j in [0, 4), stage 2 reads tmp[4i] and
// tmp[4i + 3] (the store of iteration i + 1, tmp[4i + 4 + j'], never meets
// them). out[i] = A[4i] + A[4i + 3].
func.func @inner_loops(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  %tmp = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %base = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    scf.for %j = %c0 to %c2 step %c1 {
      %j2 = arith.muli %j, %c2 : index
      %src = arith.addi %base, %j2 : index
      apipe.copy %A[%src], %buf[%j2], 2 : memref<64xf32> to memref<4xf32>
    } {apipe.stage = 0 : i64}
    scf.for %j = %c0 to %c4 step %c1 {
      %x = memref.load %buf[%j] : memref<4xf32>
      %t = arith.addi %base, %j : index
      memref.store %x, %tmp[%t] : memref<64xf32>
    } {apipe.stage = 1 : i64}
    %first = memref.load %tmp[%base] {apipe.stage = 2 : i64} : memref<64xf32>
    %b3 = arith.addi %base, %c3 {apipe.stage = 2 : i64} : index
    %last = memref.load %tmp[%b3] {apipe.stage = 2 : i64} : memref<64xf32>
    %sum = arith.addf %first, %last {apipe.stage = 2 : i64} : f32
    memref.store %sum, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// Local buffers written synchronously and read in a later stage get
// versions (RFC 0077 versions every intermediate buffer): each read is
// covered by a store of its own iteration, so version i mod V holds it.
// out[i] = (A[4i + 1] + 1) + A[4i + 3].
// IR-LABEL: func.func @local_versions
// IR-DAG: memref.alloc() : memref<3x4xf32>
// IR-DAG: memref.alloca() : memref<2x1xf32>
// IR-DAG: memref.alloc() : memref<2x4xf32>
// IR: scf.for
// IR: memref.store %{{.*}}, %{{.*}}[%c0] : memref<1xf32, strided<[1], offset: ?>>
// IR: memref.load %{{.*}}[%c0] : memref<1xf32, strided<[1], offset: ?>>
// IR: scf.yield
func.func @local_versions(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  %tmp = memref.alloca() : memref<1xf32>
  %tile = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    %x1 = arith.addf %x, %one {apipe.stage = 1 : i64} : f32
    memref.store %x1, %tmp[%c0] {apipe.stage = 1 : i64} : memref<1xf32>
    %w = memref.load %buf[%c3] {apipe.stage = 1 : i64} : memref<4xf32>
    %v = vector.broadcast %w {apipe.stage = 1 : i64} : f32 to vector<4xf32>
    vector.store %v, %tile[%c0] {apipe.stage = 1 : i64} : memref<4xf32>, vector<4xf32>
    %y = memref.load %tmp[%c0] {apipe.stage = 2 : i64} : memref<1xf32>
    %t = memref.load %tile[%c3] {apipe.stage = 3 : i64} : memref<4xf32>
    %s = arith.addf %y, %t {apipe.stage = 3 : i64} : f32
    memref.store %s, %out[%i] {apipe.stage = 3 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %tile : memref<4xf32>
  return
}

func.func @reset(%out: memref<16xf32> {llvm.noalias}) {
  %m = arith.constant -1.0 : f32
  linalg.fill ins(%m : f32) outs(%out : memref<16xf32>)
  return
}

func.func @iota(%A: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<?xf32>
  }
  return
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %A = memref.alloc() : memref<64xf32>
  %Ad = memref.cast %A : memref<64xf32> to memref<?xf32>
  func.call @iota(%Ad) : (memref<?xf32>) -> ()
  %out = memref.alloc() : memref<16xf32>
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>

  // CHECK: [4,  12,  20,  28,  36,  44,  52,  60,  68,  76,  84,  92,  100,  108,  116,  124]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @tmp_per_iteration(%A, %out, %c16) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // Trip count 2 (below the stage count).
  // CHECK: [4,  12,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @tmp_per_iteration(%A, %out, %c2) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [5,  13,  21,  29,  37,  45,  53,  61,  69,  77,  85,  93,  101,  109,  117,  125]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @local_versions(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [2,  6,  10,  14,  18,  22,  26,  30,  34,  38,  42,  46,  50,  54,  58,  62]
  // CHECK: [102,  1,  2,  3,  106,  5,  6,  7,  110,
  %B = memref.alloc() : memref<64xf32>
  %Bd = memref.cast %B : memref<64xf32> to memref<?xf32>
  func.call @iota(%Bd) : (memref<?xf32>) -> ()
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @in_place(%B, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %ub = memref.cast %B : memref<64xf32> to memref<*xf32>
  func.call @printMemrefF32(%ub) : (memref<*xf32>) -> ()

  // CHECK: [3,  11,  19,  27,  35,  43,  51,  59,  67,  75,  83,  91,  99,  107,  115,  123]
  // CHECK: [0,  1,  2,  3,  3,  5,  6,  7,  8,  9,  10,  11,  11,  13,
  %C = memref.alloc() : memref<128xf32>
  %Cd = memref.cast %C : memref<128xf32> to memref<?xf32>
  func.call @iota(%Cd) : (memref<?xf32>) -> ()
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @strided_disjoint(%C, %out) : (memref<128xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %uc = memref.cast %C : memref<128xf32> to memref<*xf32>
  func.call @printMemrefF32(%uc) : (memref<*xf32>) -> ()

  // CHECK: [3,  11,  19,  27,  35,  43,  51,  59,  67,  75,  83,  91,  99,  107,  115,  123]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @inner_loops(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  9,  17,  25,  33,  41,  49,  57,  65,  73,  81,  89,  97,  105,  113,  -1]
  // CHECK: [0,  1,  2,  3,  4,  5,  6,  7],
  // CHECK-NEXT: [8,  9,  10,  11,  12,  13,  1,  15],
  // CHECK-NEXT: [16,  17,  18,  19,  20,  21,  9,  23],
  %D = memref.alloc() : memref<16x8xf32>
  %Dflat = memref.collapse_shape %D [[0, 1]] : memref<16x8xf32> into memref<128xf32>
  %Dd = memref.cast %Dflat : memref<128xf32> to memref<?xf32>
  func.call @iota(%Dd) : (memref<?xf32>) -> ()
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @two_dimensional_disjoint(%D, %out) : (memref<16x8xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %ud = memref.cast %D : memref<16x8xf32> to memref<*xf32>
  func.call @printMemrefF32(%ud) : (memref<*xf32>) -> ()
  return
}
