// The host (code outside kernels) accesses the destination of one of its
// own asynchronous copies while the copy is in flight: issued, and no wait
// has completed its group yet. PTX cp.async writes its destination at some
// moment before that wait, so a read may see the old bytes and a write
// may be overwritten by the copy (the emulator shows it with the race
// checker off: lazy and eager differ). With the race checker (on by
// default) apipe-run stops at the access with a located error, a note at
// the copy and the byte offset in the copy's destination buffer, in every
// completion mode and in the counting, token and mbarrier forms; exit 1.
// (Writes into the copy's source: host-racecheck-copy-source.mlir.)
//
// Silent: accesses beside the destination, a read of the copy's source,
// accesses after the wait, and into an older group's destination after
// wait_group 1; the values are those of apipe-make-sync in every mode and
// form:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: apipe-run %s --completion=lazy,eager,random:3 2>&1 | FileCheck %s --check-prefixes=SILENT,SILENT3
// RUN: apipe-opt %s --apipe-counting-to-tokens | apipe-run - --completion=lazy,eager,random:3 2>&1 | FileCheck %s --check-prefixes=SILENT,SILENT3
// RUN: apipe-opt %s --apipe-counting-to-tokens --apipe-tokens-to-mbarrier | apipe-run - --completion=lazy,eager,random:3 2>&1 | FileCheck %s --check-prefixes=SILENT,SILENT3
// SILENT:       [0,  1,  -7,  3,  -1,  5,  -1,  -1,  4,  5,  -7,  7,  1,  0,  -1,  7]
// SILENT3-NEXT: // apipe-run: completion=eager
// SILENT3:      [0,  1,  -7,  3,  -1,  5,  -1,  -1,  4,  5,  -7,  7,  1,  0,  -1,  7]
// SILENT3-NEXT: // apipe-run: completion=random:3
// SILENT3:      [0,  1,  -7,  3,  -1,  5,  -1,  -1,  4,  5,  -7,  7,  1,  0,  -1,  7]
// SILENT-NOT: error
//
// With the race checker off, a read of the destination in flight shows as
// different values in lazy and eager modes:
// RUN: apipe-run %s --entry=load --no-racecheck --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=VALUES
// VALUES: [-1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
//
// Broken, each stopped at its access in every mode (the checks are next
// to the ops below), in the three forms:
// RUN: not apipe-run %s --entry=store --completion=lazy,eager,random:3 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: not apipe-run %s --entry=load --completion=lazy,eager,random:3 2>&1 | FileCheck %s --check-prefix=LOAD
// RUN: not apipe-run %s --entry=vector_load --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=VLOAD
// RUN: not apipe-run %s --entry=memref_copy --completion=eager 2>&1 | FileCheck %s --check-prefix=MCOPY
// RUN: not apipe-run %s --entry=newer_group --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=NEWER
// RUN: apipe-opt %s --apipe-counting-to-tokens | not apipe-run - --entry=store --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=FORMS
// RUN: apipe-opt %s --apipe-counting-to-tokens --apipe-tokens-to-mbarrier | not apipe-run - --entry=store --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=FORMS
// RUN: apipe-opt %s --apipe-counting-to-tokens --apipe-tokens-to-mbarrier | not apipe-run - --entry=load --completion=eager 2>&1 | FileCheck %s --check-prefix=FORMS-LOAD
// FORMS-LOAD: error: the host reads global memory byte 4 of the destination buffer of its own asynchronous copy still in flight, which may not have written it yet: no wait completes the copy first ('memref.load' and 'apipe.copy'){{$}}
// The program stops at the first error: nothing is printed after it.
// STORE-NOT: [
// LOAD-NOT: [
// NEWER-NOT: [

func.func private @printMemrefF32(memref<*xf32>)

// %A[i] = i, %D[i] = -1.
func.func @fill(%A: memref<8xf32>, %D: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %m1 = arith.constant -1.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<8xf32>
  }
  linalg.fill ins(%m1 : f32) outs(%D : memref<16xf32>)
  return
}

func.func @print(%D: memref<16xf32>) {
  %u = memref.cast %D : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// Silent: D[0 .. 3] <- A[0 .. 3] in flight, then D[5] <- A[5] (beside),
// D[12] <- A[1] (a read of the source in flight), D[13] <- D[13 + 1]
// (reads beside: -1 + 1 = 0); after the wait D[2] <- -7. Then two groups:
// D[8 .. 9] <- A[4 .. 5] (older) and D[10 .. 11] <- A[6 .. 7] (newer);
// after wait_group 1, D[10] is not touched and D[9] is read, D[8] kept,
// D[10] <- -7 after wait_group 0. D[15] <- D[11] at the end.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c11 = arith.constant 11 : index
  %c12 = arith.constant 12 : index
  %c13 = arith.constant 13 : index
  %c14 = arith.constant 14 : index
  %c15 = arith.constant 15 : index
  %m7 = arith.constant -7.0 : f32
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<8xf32>
  %D = memref.alloc() : memref<16xf32>
  call @fill(%A, %D) : (memref<8xf32>, memref<16xf32>) -> ()
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<16xf32>
  apipe.commit_group
  %a5 = memref.load %A[%c5] : memref<8xf32>
  memref.store %a5, %D[%c5] : memref<16xf32>
  %a1 = memref.load %A[%c1] : memref<8xf32>
  memref.store %a1, %D[%c12] : memref<16xf32>
  %d14 = memref.load %D[%c14] : memref<16xf32>
  %d14p = arith.addf %d14, %one : f32
  memref.store %d14p, %D[%c13] : memref<16xf32>
  apipe.wait_group 0
  memref.store %m7, %D[%c2] : memref<16xf32>
  apipe.copy %A[%c4], %D[%c8], 2 : memref<8xf32> to memref<16xf32>
  apipe.commit_group
  apipe.copy %A[%c6], %D[%c10], 2 : memref<8xf32> to memref<16xf32>
  apipe.commit_group
  apipe.wait_group 1
  %d9 = memref.load %D[%c9] : memref<16xf32>
  memref.store %d9, %D[%c9] : memref<16xf32>
  apipe.wait_group 0
  memref.store %m7, %D[%c10] : memref<16xf32>
  %d11 = memref.load %D[%c11] : memref<16xf32>
  memref.store %d11, %D[%c15] : memref<16xf32>
  call @print(%D) : (memref<16xf32>) -> ()
  memref.dealloc %A : memref<8xf32>
  memref.dealloc %D : memref<16xf32>
  return
}

func.func @store() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %m7 = arith.constant -7.0 : f32
  %A = memref.alloc() : memref<8xf32>
  %D = memref.alloc() : memref<16xf32>
  call @fill(%A, %D) : (memref<8xf32>, memref<16xf32>) -> ()
  // STORE: host-racecheck-copy-destination.mlir:[[# @LINE + 6]]:3: error: the host writes global memory byte 8 of the destination buffer of its own asynchronous copy still in flight, which may write it after this access: no wait completes the copy first ('memref.store' and 'apipe.copy'){{$}}
  // STORE-NEXT: host-racecheck-copy-destination.mlir:[[# @LINE + 3]]:3: note: the copy in flight
  // STORE-COUNT-2: host-racecheck-copy-destination.mlir:[[# @LINE + 4]]:3: error: the host writes global memory byte 8 of the destination buffer of its own asynchronous copy still in flight, which may write it after this access: no wait completes the copy first ('memref.store' and 'apipe.copy'){{$}}
  // FORMS-COUNT-2: error: the host writes global memory byte 8 of the destination buffer of its own asynchronous copy still in flight, which may write it after this access: no wait completes the copy first ('memref.store' and 'apipe.copy'){{$}}
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<16xf32>
  apipe.commit_group
  memref.store %m7, %D[%c2] : memref<16xf32>
  apipe.wait_group 0
  call @print(%D) : (memref<16xf32>) -> ()
  return
}

func.func @load() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %A = memref.alloc() : memref<8xf32>
  %D = memref.alloc() : memref<16xf32>
  call @fill(%A, %D) : (memref<8xf32>, memref<16xf32>) -> ()
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<16xf32>
  apipe.commit_group
  // LOAD-COUNT-3: host-racecheck-copy-destination.mlir:[[# @LINE + 1]]:8: error: the host reads global memory byte 4 of the destination buffer of its own asynchronous copy still in flight, which may not have written it yet: no wait completes the copy first ('memref.load' and 'apipe.copy'){{$}}
  %x = memref.load %D[%c1] : memref<16xf32>
  apipe.wait_group 0
  %B = memref.alloc() : memref<16xf32>
  %m1 = arith.constant -1.0 : f32
  linalg.fill ins(%m1 : f32) outs(%B : memref<16xf32>)
  memref.store %x, %B[%c0] : memref<16xf32>
  call @print(%B) : (memref<16xf32>) -> ()
  return
}

func.func @vector_load() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %A = memref.alloc() : memref<8xf32>
  %D = memref.alloc() : memref<16xf32>
  call @fill(%A, %D) : (memref<8xf32>, memref<16xf32>) -> ()
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<16xf32>
  apipe.commit_group
  // VLOAD-COUNT-2: host-racecheck-copy-destination.mlir:[[# @LINE + 1]]:8: error: the host reads global memory byte 8 of the destination buffer of its own asynchronous copy still in flight, which may not have written it yet: no wait completes the copy first ('vector.load' and 'apipe.copy'){{$}}
  %v = vector.load %D[%c2] : memref<16xf32>, vector<4xf32>
  apipe.wait_group 0
  vector.store %v, %D[%c2] : memref<16xf32>, vector<4xf32>
  call @print(%D) : (memref<16xf32>) -> ()
  return
}

func.func @memref_copy() {
  %c0 = arith.constant 0 : index
  %A = memref.alloc() : memref<8xf32>
  %D = memref.alloc() : memref<16xf32>
  %E = memref.alloc() : memref<16xf32>
  call @fill(%A, %D) : (memref<8xf32>, memref<16xf32>) -> ()
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<16xf32>
  apipe.commit_group
  // MCOPY: host-racecheck-copy-destination.mlir:[[# @LINE + 1]]:3: error: the host reads global memory byte 0 of the destination buffer of its own asynchronous copy still in flight, which may not have written it yet: no wait completes the copy first ('memref.copy' and 'apipe.copy'){{$}}
  memref.copy %D, %E : memref<16xf32> to memref<16xf32>
  apipe.wait_group 0
  call @print(%E) : (memref<16xf32>) -> ()
  return
}

// Two groups; wait_group 1 completes the older only: a store into the
// newer copy's destination is still in flight.
func.func @newer_group() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %m7 = arith.constant -7.0 : f32
  %A = memref.alloc() : memref<8xf32>
  %D = memref.alloc() : memref<16xf32>
  call @fill(%A, %D) : (memref<8xf32>, memref<16xf32>) -> ()
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<16xf32>
  apipe.commit_group
  apipe.copy %A[%c4], %D[%c8], 4 : memref<8xf32> to memref<16xf32>
  apipe.commit_group
  apipe.wait_group 1
  memref.store %m7, %D[%c0] : memref<16xf32>
  // NEWER-COUNT-2: host-racecheck-copy-destination.mlir:[[# @LINE + 1]]:3: error: the host writes global memory byte 36 of the destination buffer of its own asynchronous copy still in flight, which may write it after this access: no wait completes the copy first ('memref.store' and 'apipe.copy'){{$}}
  memref.store %m7, %D[%c9] : memref<16xf32>
  apipe.wait_group 0
  call @print(%D) : (memref<16xf32>) -> ()
  return
}
