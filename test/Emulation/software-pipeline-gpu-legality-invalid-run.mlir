// The kernels of test/Transforms/software-pipeline-gpu-legality-invalid.mlir,
// which apipe-software-pipeline refuses (cp.async size and alignment rules,
// workgroup memref.alloc it cannot turn into an attribution), are valid
// apipe programs: each gpu.module (all named @m) is renamed after its kernel,
// its expected-error lines dropped, and every kernel runs end to end in one
// block of one thread (every thread copies to the same bytes of the tile, so
// a wider launch would be a write-write race by design). Their copies are
// synchronous (no commit, no wait): the reference is apipe-make-sync of the
// input, and the form under test commits and waits for each copy at once
// (an `apipe.commit_group` and `apipe.wait_group 0` after it), which runs
// in lazy, eager and random completion and two schedules with the race
// checker on and prints the same. A[i] = i; each line is one launch's 32
// outputs (out[t] for t < 16, out zero before the launch):
// - @twelve_bytes: 3 floats A[t..t+3) to tile[0..3), out[t] = tile[1] = t + 1;
// - @misaligned_destination: 4 floats to tile[2..6), out[t] = tile[1], which
//   nothing writes: the emulator's fill of fresh workgroup memory (NaN),
//   the same in every form;
// - @misaligned_source: A[6..10) to tile[0..4), out[t] = A[7] = 7;
// - @workgroup_alloc_in_a_region (%c = true): out[t] = A[t + 1] = t + 1;
// - @workgroup_alloc_dynamic_size (%n = 8): apipe-run refuses a workgroup
//   alloc of dynamic size (checked below), so its alloc becomes a static
//   memref<8xf32, 3> cast to memref<?xf32, 3> (the rest of the kernel
//   unchanged): out[t] = A[t + 1] = t + 1.
//
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@twelve_bytes\(/) print b; on=0}' %apipe_root/test/Transforms/software-pipeline-gpu-legality-invalid.mlir | sed -e 's/^gpu.module @m /gpu.module @twelve_bytes /' -e '/expected-/d' > %t.k1
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@misaligned_destination\(/) print b; on=0}' %apipe_root/test/Transforms/software-pipeline-gpu-legality-invalid.mlir | sed -e 's/^gpu.module @m /gpu.module @misaligned_destination /' -e '/expected-/d' > %t.k2
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@misaligned_source\(/) print b; on=0}' %apipe_root/test/Transforms/software-pipeline-gpu-legality-invalid.mlir | sed -e 's/^gpu.module @m /gpu.module @misaligned_source /' -e '/expected-/d' > %t.k3
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@workgroup_alloc_in_a_region\(/) print b; on=0}' %apipe_root/test/Transforms/software-pipeline-gpu-legality-invalid.mlir | sed -e 's/^gpu.module @m /gpu.module @workgroup_alloc_in_a_region /' -e '/expected-/d' > %t.k4
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@workgroup_alloc_dynamic_size\(/) print b; on=0}' %apipe_root/test/Transforms/software-pipeline-gpu-legality-invalid.mlir | sed -e 's/^gpu.module @m /gpu.module @workgroup_alloc_dynamic_size /' -e '/expected-/d' > %t.k5
// RUN: sed -e 's/^\( *\)%%tile = memref.alloc(%%n) : memref<?xf32, 3>$/\1%%tile8 = memref.alloc() : memref<8xf32, 3>\n\1%%tile = memref.cast %%tile8 : memref<8xf32, 3> to memref<?xf32, 3>/' %t.k5 > %t.k5static
// RUN: grep -c '^ *%%tile8 = memref.alloc() : memref<8xf32, 3>$' %t.k5static | FileCheck %s --check-prefix=ONE
// ONE: {{^1$}}
// RUN: cat %t.k1 %t.k2 %t.k3 %t.k4 %t.k5static > %t.kernels
// RUN: sed -e '/^\/\/ @kernels$/r %t.kernels' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - | grep -v base@ > %t.sync
// RUN: FileCheck %s < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.expected
// RUN: sed -e '/^ *apipe.copy /a\      apipe.commit_group\n      apipe.wait_group 0' %t.mlir > %t.committed.mlir
// RUN: grep -c '^ *apipe.wait_group 0$' %t.committed.mlir | FileCheck %s --check-prefix=FIVE
// FIVE: {{^5$}}
// RUN: apipe-run %t.committed.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.committed.out
// RUN: diff %t.expected %t.committed.out
//
// Without the waits, each thread reads its own copy in flight:
// RUN: sed -e '/^ *apipe.copy /a\      apipe.commit_group' %t.mlir > %t.nowait.mlir
// RUN: not apipe-run %t.nowait.mlir 2>&1 | FileCheck %s --check-prefix=NOWAIT
// NOWAIT: error: thread (0,0,0) of block (0,0,0) reads shared memory byte 4 {{.*}} that its own asynchronous copy still in flight writes: no wait completes the copy first ('memref.load' and 'apipe.copy')
//
// The dynamic-size alloc as written is refused by apipe-run, with its
// location:
// RUN: cat %t.k5 > %t.dynamic.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.dynamic.kernel' -e '/@twelve_bytes::\|@misaligned_destination::\|@misaligned_source::\|@workgroup_alloc_in_a_region::/d' %s | apipe-opt --apipe-make-sync | not apipe-run - 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: error: workgroup 'memref.alloc' of memref<?xf32, 3> needs a static shape to be emulated (one buffer per block)

// CHECK: [1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK-NEXT: [-nan,  -nan,  -nan,  -nan,  -nan,  -nan,  -nan,  -nan,  -nan,  -nan,  -nan,  -nan,  -nan,  -nan,  -nan,  -nan,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK-NEXT: [7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK-NEXT: [1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK-NEXT: [1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK-NOT: {{.}}

module attributes {gpu.container_module} {
// @kernels
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @zeros() -> memref<32xf32> {
    %zero = arith.constant 0.0 : f32
    %out = memref.alloc() : memref<32xf32>
    linalg.fill ins(%zero : f32) outs(%out : memref<32xf32>)
    return %out : memref<32xf32>
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 4096 : index
    %true = arith.constant true
    %A = memref.alloc() : memref<4096xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<4096xf32>
    }
    %o1 = func.call @zeros() : () -> memref<32xf32>
    gpu.launch_func @twelve_bytes::@twelve_bytes blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<4096xf32>, %o1 : memref<32xf32>)
    %u1 = memref.cast %o1 : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    %o2 = func.call @zeros() : () -> memref<32xf32>
    gpu.launch_func @misaligned_destination::@misaligned_destination blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<4096xf32>, %o2 : memref<32xf32>)
    %u2 = memref.cast %o2 : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    %o3 = func.call @zeros() : () -> memref<32xf32>
    gpu.launch_func @misaligned_source::@misaligned_source blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<4096xf32>, %o3 : memref<32xf32>)
    %u3 = memref.cast %o3 : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
    %o4 = func.call @zeros() : () -> memref<32xf32>
    gpu.launch_func @workgroup_alloc_in_a_region::@workgroup_alloc_in_a_region blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<4096xf32>, %o4 : memref<32xf32>, %true : i1)
    %u4 = memref.cast %o4 : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
    %o5 = func.call @zeros() : () -> memref<32xf32>
    gpu.launch_func @workgroup_alloc_dynamic_size::@workgroup_alloc_dynamic_size blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<4096xf32>, %o5 : memref<32xf32>, %c8 : index)
    %u5 = memref.cast %o5 : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u5) : (memref<*xf32>) -> ()
    return
  }
}
