// apipe-translate: a wait_group count that does not fit the i32 count of
// PTX cp.async.wait_group is refused at the wait, not cut to its low 32
// bits (trial 75: 2^63 - 1 became `cp.async.wait_group -1;`, 2^32 + 1
// became 1). The largest i32 count is emitted as it is.
// RUN: sed -e 's/PENDING/9223372036854775807/' %s > %t.huge.mlir
// RUN: not apipe-translate %t.huge.mlir --sm=80 --sync=counting 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: sed -e 's/PENDING/4294967297/' %s > %t.wrap.mlir
// RUN: not apipe-translate %t.wrap.mlir --sm=80 --sync=counting 2>&1 | FileCheck %s --check-prefix=WRAP
// A failed run leaves no -o file behind, not even an earlier run's (as
// mlir-translate):
// RUN: echo stale > %t.ptx
// RUN: not apipe-translate %t.wrap.mlir --sm=80 --sync=counting -o %t.ptx
// RUN: not test -e %t.ptx
// RUN: sed -e 's/PENDING/2147483647/' %s > %t.fits.mlir
// RUN: apipe-translate %t.fits.mlir --sm=80 --sync=counting | FileCheck %s --check-prefix=FITS

// HUGE: .huge.mlir:[[# @LINE + 11]]:5: error: 'apipe.wait_group' op pending = 9223372036854775807 does not fit the 32-bit count of 'nvgpu.device_async_wait' (numGroups) and PTX cp.async.wait_group (at most 2147483647)
// WRAP: .wrap.mlir:[[# @LINE + 10]]:5: error: 'apipe.wait_group' op pending = 4294967297 does not fit
// FITS: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 4;
// FITS-NEXT: cp.async.commit_group;
// FITS-NEXT: cp.async.wait_group 2147483647;
// HUGE-NOT: cp.async.wait_group {{-?[0-9]+}};
// WRAP-NOT: cp.async.wait_group {{-?[0-9]+}};
gpu.module @kernels {
  gpu.func @count(%a: memref<64xf32>, %i: index) workgroup(%b: memref<8xf32, 3>) kernel {
    apipe.copy %a[%i], %b[%i], 1 : memref<64xf32> to memref<8xf32, 3>
    apipe.commit_group
    apipe.wait_group PENDING
    gpu.return
  }
}
