// apipe.copy of sub-byte elements (i4) on the host: each element takes a
// byte in memory (LLVM's layout of a memref<8xi4> on the host), and the
// copy moves the 8 elements; the values read back after the wait, sign
// extended, are 2 i in i4 (wrapping): what make-sync prints.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-run %s --completion=lazy,eager,random:1 | FileCheck %s --check-prefix=ALL
// CHECK: [0,  2,  4,  6,  -8,  -6,  -4,  -2]
// ALL-COUNT-3: [0,  2,  4,  6,  -8,  -6,  -4,  -2]
func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %src = memref.alloc() : memref<8xi4>
  %dst = memref.alloc() : memref<8xi4>
  %out = memref.alloc() : memref<8xi32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = arith.index_cast %i : index to i4
    %w = arith.addi %v, %v : i4
    memref.store %w, %src[%i] : memref<8xi4>
  }
  apipe.copy %src[%c0], %dst[%c0], 8 : memref<8xi4> to memref<8xi4>
  apipe.commit_group
  apipe.wait_group 0
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %dst[%i] : memref<8xi4>
    %e = arith.extsi %v : i4 to i32
    memref.store %e, %out[%i] : memref<8xi32>
  }
  %u = memref.cast %out : memref<8xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
