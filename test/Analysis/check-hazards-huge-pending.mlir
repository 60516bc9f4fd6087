// A wait_group whose pending is i64::MAX (found by CI's fuzz smoke: the
// walk's widening depth, `pending + 1`, overflowed and a debug build
// panicked). The wait completes nothing, so the read after it races with
// the copy: a located error, exit 1, no panic.
//
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

func.func @huge_pending(%A: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<16xf32, 3>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<16xf32> to memref<16xf32, 3>
  apipe.commit_group
  apipe.wait_group 9223372036854775807
  // CHECK: check-hazards-huge-pending.mlir:[[@LINE+1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %v = memref.load %buf[%c0] : memref<16xf32, 3>
  return %v : f32
}
