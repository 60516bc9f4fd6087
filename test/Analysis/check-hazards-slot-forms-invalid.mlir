// The twins of check-hazards-slot-forms.mlir: each waits for one group
// too few (truly broken: under apipe-run's lazy completion each reads a
// copy's destination in flight), and each is an error at its line and
// column.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:

// The twin of: A CUTLASS-style ring of 3 whose slots advance as `inc < 3 ? inc : 0`.
// It waits for one group too few.
func.func @wrap_ult_weak(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<3x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%rd = %c0, %wr = %c2) -> (index, index) {
    %n = arith.addi %j, %c2 : index
    %inr = arith.cmpi ult, %n, %c16 : index
    scf.if %inr {
      %off = arith.muli %n, %c4 : index
      // CHECK: check-hazards-slot-forms-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
      apipe.copy %A[%off], %buf[%wr, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    }
    apipe.commit_group
    apipe.wait_group 3
    // CHECK: check-hazards-slot-forms-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%rd, %c3] : memref<3x4xf32>
    memref.store %x, %out[%j] : memref<16xf32>
    %rd1 = arith.addi %rd, %c1 : index
    %wr1 = arith.addi %wr, %c1 : index
    %rdw = arith.cmpi ult, %rd1, %c3 : index
    %rdn = arith.select %rdw, %rd1, %c0 : index
    %wrw = arith.cmpi ult, %wr1, %c3 : index
    %wrn = arith.select %wrw, %wr1, %c0 : index
    scf.yield %rdn, %wrn : index, index
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<3x4xf32>
  return
}

// -----

// The twin of: The same ring as `inc >= 3 ? 0 : inc`, and as `2 > index ? inc : 0`
// (the constant on the left).
// It waits for one group too few.
func.func @wrap_uge_index_weak(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<3x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%rd = %c0, %wr = %c2) -> (index, index) {
    %n = arith.addi %j, %c2 : index
    %inr = arith.cmpi ult, %n, %c16 : index
    scf.if %inr {
      %off = arith.muli %n, %c4 : index
      // CHECK: check-hazards-slot-forms-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
      apipe.copy %A[%off], %buf[%wr, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    }
    apipe.commit_group
    apipe.wait_group 3
    // CHECK: check-hazards-slot-forms-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%rd, %c3] : memref<3x4xf32>
    memref.store %x, %out[%j] : memref<16xf32>
    %rd1 = arith.addi %rd, %c1 : index
    %wr1 = arith.addi %wr, %c1 : index
    %rdw = arith.cmpi uge, %rd1, %c3 : index
    %rdn = arith.select %rdw, %c0, %rd1 : index
    %wrw = arith.cmpi sgt, %c2, %wr : index
    %wrn = arith.select %wrw, %wr1, %c0 : index
    scf.yield %rdn, %wrn : index, index
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<3x4xf32>
  return
}

// -----

// The twin of: A double buffer whose slot is the low bit, `extui(trunci j to i1)`.
// It waits for one group too few.
func.func @parity_trunci_weak(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c16 step %c1 {
    %n = arith.addi %j, %c1 : index
    %inr = arith.cmpi ult, %n, %c16 : index
    scf.if %inr {
      %off = arith.muli %n, %c4 : index
      %ni = arith.index_cast %n : index to i64
      %nb = arith.trunci %ni : i64 to i1
      %ne = arith.extui %nb : i1 to i64
      %sn = arith.index_cast %ne : i64 to index
      %dst = arith.muli %sn, %c4 : index
      // CHECK: check-hazards-slot-forms-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
      apipe.copy %A[%off], %buf[%dst], 4 : memref<64xf32> to memref<8xf32>
    }
    apipe.commit_group
    apipe.wait_group 2
    %ji = arith.index_cast %j : index to i64
    %jb = arith.trunci %ji : i64 to i1
    %je = arith.extui %jb : i1 to i64
    %sj = arith.index_cast %je : i64 to index
    %base = arith.muli %sj, %c4 : index
    %at = arith.addi %base, %c3 : index
    // CHECK: check-hazards-slot-forms-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%at] : memref<8xf32>
    memref.store %x, %out[%j] : memref<16xf32>
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<8xf32>
  return
}

// -----

// The twin of: Slots `select(n mod 2 != 0, 1, 0)` and `select(j mod 2 == 0, 0, 1)`.
// It waits for one group too few.
func.func @parity_select_weak(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c16 step %c1 {
    %n = arith.addi %j, %c1 : index
    %inr = arith.cmpi ult, %n, %c16 : index
    scf.if %inr {
      %off = arith.muli %n, %c4 : index
      %p = arith.remui %n, %c2 : index
      %odd = arith.cmpi ne, %p, %c0 : index
      %sn = arith.select %odd, %c1, %c0 : index
      %dst = arith.muli %sn, %c4 : index
      // CHECK: check-hazards-slot-forms-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
      apipe.copy %A[%off], %buf[%dst], 4 : memref<64xf32> to memref<8xf32>
    }
    apipe.commit_group
    apipe.wait_group 2
    %q = arith.remui %j, %c2 : index
    %even = arith.cmpi eq, %q, %c0 : index
    %sj = arith.select %even, %c0, %c1 : index
    %base = arith.muli %sj, %c4 : index
    %at = arith.addi %base, %c3 : index
    // CHECK: check-hazards-slot-forms-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%at] : memref<8xf32>
    memref.store %x, %out[%j] : memref<16xf32>
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<8xf32>
  return
}

// -----

// The twin of: Element 3 of the slot read as `(slot * 4) | 3`: the low bits are
// zero, so it is `slot * 4 + 3`.
// It waits for one group too few.
func.func @offset_ori_weak(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c16 step %c1 {
    %n = arith.addi %j, %c1 : index
    %inr = arith.cmpi ult, %n, %c16 : index
    scf.if %inr {
      %off = arith.muli %n, %c4 : index
      %sn = arith.remui %n, %c2 : index
      %dst = arith.muli %sn, %c4 : index
      // CHECK: check-hazards-slot-forms-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
      apipe.copy %A[%off], %buf[%dst], 4 : memref<64xf32> to memref<8xf32>
    }
    apipe.commit_group
    apipe.wait_group 2
    %sj = arith.remui %j, %c2 : index
    %base = arith.muli %sj, %c4 : index
    %at = arith.ori %base, %c3 : index
    // CHECK: check-hazards-slot-forms-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%at] : memref<8xf32>
    memref.store %x, %out[%j] : memref<16xf32>
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<8xf32>
  return
}

// -----

// Comparisons and masks with the extreme index constants (a wrap test
// against 2^63 - 1 or -2^63, an `ori` with 2^63 - 1) fold to nothing: no
// overflow (the debug build panicked), each read in flight is an error.
func.func @extreme_constants(%A: memref<64xf32>, %x: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cmax = arith.constant 9223372036854775807 : index
  %cmin = arith.constant -9223372036854775808 : index
  %i1 = arith.addi %x, %c1 : index
  %w = arith.cmpi ult, %i1, %cmax : index
  %n = arith.select %w, %i1, %c0 : index
  %w2 = arith.cmpi sgt, %cmin, %x : index
  %n2 = arith.select %w2, %i1, %c0 : index
  %o = arith.ori %x, %cmax : index
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  // CHECK: check-hazards-slot-forms-invalid.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %v = memref.load %buf[%n] : memref<8xf32>
  // CHECK: check-hazards-slot-forms-invalid.mlir:[[# @LINE + 1]]:9: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %v2 = memref.load %buf[%n2] : memref<8xf32>
  // CHECK: check-hazards-slot-forms-invalid.mlir:[[# @LINE + 1]]:9: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %v3 = memref.load %buf[%o] : memref<8xf32>
  apipe.wait_group 0
  return
}
