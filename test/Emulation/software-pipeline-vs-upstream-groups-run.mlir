// The kernel of test/Transforms/software-pipeline-vs-upstream-groups.mlir
// (@token_wait: nvgpu.device_async_copy, then nvgpu.device_async_wait on the
// copy's token, no device_async_create_group) cannot run as written:
// apipe-run has no semantics for nvgpu ops, and apipe-import-nvgpu refuses
// this kernel (that test checks it), because cp.async.wait_group waits for
// committed groups only: the wait waits for nothing. Transliterated op for
// op into the apipe ops of the same PTX (apipe.copy, apipe.wait_group 0 with
// no commit), it is the broken kernel that test describes: every thread
// reads its own copy in flight, which the race checker reports in every
// completion mode and schedule. With the group it lacks (an
// apipe.commit_group before the wait) it runs end to end in lazy, eager and
// random completion and two schedules with the race checker on, and prints
// what apipe-make-sync prints. One block of 32 threads (the launch the
// kernel is written for), g[i] = i: thread x stores g[32 j + x] to dst[x]
// in steps j = 0..7, so dst[x] = 224 + x.
//
// RUN: sed -n '/^  gpu.module/,/^  }$/p' %apipe_root/test/Transforms/software-pipeline-vs-upstream-groups.mlir > %t.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.kernel' %s > %t.nvgpu.mlir
// RUN: not apipe-run %t.nvgpu.mlir 2>&1 | FileCheck %s --check-prefix=NVGPU
// NVGPU: error: 'nvgpu.device_async_copy' cannot be emulated by apipe-run
// RUN: sed -e 's/%%t = nvgpu.device_async_copy \(.*\)$/apipe.copy \1/' -e 's/nvgpu.device_async_wait %%t$/apipe.wait_group 0/' %t.nvgpu.mlir > %t.broken.mlir
// RUN: grep -c '^ *apipe.copy %%g\[%%off\], %%buf\[%%off\], 1 : memref<256xf32> to memref<256xf32, 3>$' %t.broken.mlir | FileCheck %s --check-prefix=ONE
// RUN: grep -c '^ *apipe.wait_group 0$' %t.broken.mlir | FileCheck %s --check-prefix=ONE
// ONE: {{^1$}}
// RUN: not apipe-run %t.broken.mlir --completion=lazy 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: not apipe-run %t.broken.mlir --completion=eager --schedule=reverse 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: not apipe-run %t.broken.mlir --completion=random:1 --schedule=random:2 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: error: thread ({{[0-9]+}},0,0) of block (0,0,0) reads shared memory byte {{[0-9]+}} {{.*}} that its own asynchronous copy still in flight writes: no wait completes the copy first ('memref.load' and 'apipe.copy')
// RUN: sed -e 's/^\( *\)apipe.wait_group 0$/\1apipe.commit_group\n\1apipe.wait_group 0/' %t.broken.mlir > %t.fixed.mlir
// RUN: apipe-opt %t.fixed.mlir --apipe-make-sync | apipe-run - | grep -v base@ > %t.sync
// RUN: FileCheck %s < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.expected
// RUN: apipe-run %t.fixed.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.fixed.out
// RUN: diff %t.expected %t.fixed.out
// The fixed kernel's nvgpu form (apipe-to-nvgpu) imports back and prints
// the same:
// RUN: apipe-opt %t.fixed.mlir --pass-pipeline='builtin.module(apipe-to-nvgpu{tokens=true},apipe-import-nvgpu)' | apipe-run - --completion=lazy,eager --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.roundtrip.out
// RUN: cat %t.sync %t.sync %t.sync %t.sync > %t.expected4
// RUN: diff %t.expected4 %t.roundtrip.out

// CHECK: [224,  225,  226,  227,  228,  229,  230,  231,  232,  233,  234,  235,  236,  237,  238,  239,  240,  241,  242,  243,  244,  245,  246,  247,  248,  249,  250,  251,  252,  253,  254,  255]
// CHECK-NOT: {{.}}

module attributes {gpu.container_module} {
// @kernels
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %g = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %g[%i] : memref<256xf32>
    }
    %dst = memref.alloc() : memref<32xf32>
    %z = arith.constant 0.0 : f32
    linalg.fill ins(%z : f32) outs(%dst : memref<32xf32>)
    gpu.launch_func @kernels::@token_wait blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%g : memref<256xf32>, %dst : memref<32xf32>)
    %u = memref.cast %dst : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
