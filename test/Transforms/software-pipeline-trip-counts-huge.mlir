// apipe-software-pipeline on loops whose trip counts exceed i64::MAX: the
// kernel compares unsigned (split out of software-pipeline-trip-counts.mlir).
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline="sync=tokens" | FileCheck %s
// Known false alarm: apipe-check-hazards on the output. The variable of an
// `scf.for unsigned` whose bounds are not both nonnegative may pass 2^63,
// where it is negative as an `index`, so the analysis takes it as unknown
// (trial 36: it was read as lb + step * k past 2^63, and a store indexed by
// a signed shift of it was taken to miss a copy), and the kernel's slots
// (k mod 2) may then be the same one. Loops this long do not end in
// practice (no emulator run either); the CHECKs above give the kernel's
// exact bounds.
// RUN: not apipe-opt %s --split-input-file --apipe-software-pipeline="sync=tokens" --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=FA
// FA: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing

// The whole index range [i64::MIN, i64::MAX): N = 2^64 - 1, more than
// i64::MAX, so the kernel (2^64 - 2 iterations, the constant -2) compares
// unsigned; the last iteration has iv = i64::MAX - 1.
// CHECK-LABEL: func.func @whole_index_range
// CHECK-DAG: %[[KN:.*]] = arith.constant -2 : index
// CHECK-DAG: %[[LAST:.*]] = arith.constant 9223372036854775806 : index
// CHECK: scf.for unsigned %{{.*}} = %{{.*}} to %[[KN]] step
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[LAST]]]
// CHECK-NEXT: return
func.func @whole_index_range(%A: memref<64xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %min = arith.constant -9223372036854775808 : index
  %max = arith.constant 9223372036854775807 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %min to %max step %c1 {
    apipe.copy %A[%c0], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<4xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}


// -----

// Unsigned [0, -1) = [0, 2^64 - 1): the kernel runs 2^64 - 2 iterations,
// unsigned; a signed reading would delete the loop.
// CHECK-LABEL: func.func @unsigned_upper_bound_negative_as_signed
// CHECK-DAG: %[[KN:.*]] = arith.constant -2 : index
// CHECK: scf.for unsigned %{{.*}} = %{{.*}} to %[[KN]] step
func.func @unsigned_upper_bound_negative_as_signed(%A: memref<64xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m1 = arith.constant -1 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for unsigned %i = %c0 to %m1 step %c1 {
    apipe.copy %A[%c0], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    memref.store %x, %out[%c0] {apipe.stage = 1 : i64} : memref<4xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}
