// Slots the user rotated with an offset or a stride, written as
// `affine.apply`: `(i + 1) mod 3` and `(2 i + 1) mod 4`. With more stages
// than slots the buffer gets versions, and the pipelined loop carries the
// slot of each tile in flight in its iter_args. apipe-check-hazards follows
// those iter_args to `(τ + 1) mod 3`, compares them with the version
// `(τ + 3) mod 4` of the copy in flight, and proves the two never meet (it
// used to report a read-after-write here: the solver lost the bounds of
// the iteration once it had solved `(τ + 1) mod 3 = (τ + 4) mod 3` for it).
// Every output runs as make-sync does in lazy, eager and random completion;
// the same output with its wait one group weaker is reported.
//
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4 order=copies-first" 2> %t.err > %t.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: FileCheck %s < %t.mlir
// RUN: apipe-opt %t.mlir --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-make-sync > %t.sync.mlir
// RUN: apipe-run %t.sync.mlir -e main_host | FileCheck %s --check-prefix=HOST
// RUN: apipe-run %t.mlir -e main_host --completion=lazy,eager,random:1,random:2 | FileCheck %s --check-prefix=HOST4
// RUN: apipe-run %t.sync.mlir -e main_strided | FileCheck %s --check-prefix=STRIDED
// RUN: apipe-run %t.mlir -e main_strided --completion=lazy,eager,random:1,random:2 | FileCheck %s --check-prefix=STRIDED4
// RUN: apipe-run %t.sync.mlir -e main_kernel | FileCheck %s --check-prefix=KERNEL
// RUN: apipe-run %t.mlir -e main_kernel --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s --check-prefix=KERNEL6
//
// Five stages, the CUTLASS order:
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=5 > %t.five.mlir
// RUN: apipe-opt %t.five.mlir --apipe-check-hazards -o /dev/null
// RUN: apipe-run %t.five.mlir -e main_host --completion=lazy,eager,random:1,random:2 | FileCheck %s --check-prefix=HOST4
// RUN: apipe-run %t.five.mlir -e main_kernel --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s --check-prefix=KERNEL6
//
// One group weaker: the read of the oldest tile is reported.
// RUN: sed -e 's/apipe.wait_group 2$/apipe.wait_group 3/' %t.mlir > %t.weak.mlir
// RUN: not apipe-opt %t.weak.mlir --apipe-check-hazards -o /dev/null 2> %t.weak.err
// RUN: FileCheck %s --check-prefix=WEAK < %t.weak.err

// REMARK: rotated-slots.mlir:[[#@LINE+39]]:12: remark: scheduled 4 stages (num_stages = 4): stage 0: 4 ops, stage 3: 4 ops; versions: memref<3x32xf32, 3> x 4 (1536 bytes); shared memory: 1536 of 49152 bytes; 1 gpu.barrier per iteration
// REMARK: rotated-slots.mlir:[[#@LINE+61]]:10: remark: scheduled 4 stages (num_stages = 4): stage 0: 3 ops, stage 3: 2 ops; versions: memref<3x4xf32> x 4 (192 bytes); buffers: 192 bytes
// REMARK: rotated-slots.mlir:[[#@LINE+80]]:10: remark: scheduled 4 stages (num_stages = 4): stage 0: 3 ops, stage 3: 2 ops; versions: memref<4x4xf32> x 4 (256 bytes); buffers: 256 bytes
// REMARK-NOT: remark

// The slots of the three tiles in flight ride in iter_args; the read uses
// the oldest.
// CHECK-LABEL: func.func @host
// CHECK: memref.alloc() : memref<4x3x4xf32>
// CHECK: scf.for %{{.*}} iter_args(%[[S2:.*]] = %{{.*}}, %[[S1:.*]] = %{{.*}}, %[[S0:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (index, index, index, f32)
// CHECK-NEXT: apipe.wait_group 2
// CHECK: memref.load %{{.*}}[%[[S0]], %c1]
// CHECK: scf.yield %{{.*}}, %[[S2]], %[[S1]], %{{.*}} : index, index, index, f32

// WEAK: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)

// out[t] = sum over i < 8 of g[32 i + (t + 1) mod 32], g[k] = k.
// KERNEL: {{^}}[904,  912,  920, {{.*}}, 1144,  896]
// KERNEL6-COUNT-6: {{^}}[904,  912,  920, {{.*}}, 1144,  896]
// KERNEL6-NOT: {{^}}[
// Sum over i < 12 of g[4 i + 1].
// HOST: {{^}}[276]
// HOST4-COUNT-4: {{^}}[276]
// HOST4-NOT: {{^}}[
// STRIDED: {{^}}[276]
// STRIDED4-COUNT-4: {{^}}[276]
// STRIDED4-NOT: {{^}}[

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%g: memref<256xf32>, %dst: memref<32xf32>) workgroup(%t: memref<3x32xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %n = arith.addi %tid, %c1 : index
      %nb = arith.remui %n, %c32 : index
      %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
        %slot = affine.apply affine_map<(d0) -> ((d0 + 1) mod 3)>(%i)
        gpu.barrier
        %base = arith.muli %i, %c32 : index
        %off = arith.addi %base, %tid : index
        apipe.copy %g[%off], %t[%slot, %tid], 1 : memref<256xf32> to memref<3x32xf32, 3>
        gpu.barrier
        %x = memref.load %t[%slot, %nb] : memref<3x32xf32, 3>
        %s = arith.addf %acc, %x : f32
        scf.yield %s : f32
      }
      memref.store %r, %dst[%tid] : memref<32xf32>
      gpu.return
    }
  }

  func.func @host(%g: memref<256xf32>, %out: memref<1xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c12 = arith.constant 12 : index
    %zero = arith.constant 0.0 : f32
    %t = memref.alloc() : memref<3x4xf32>
    %r = scf.for %i = %c0 to %c12 step %c1 iter_args(%acc = %zero) -> (f32) {
      %slot = affine.apply affine_map<(d0) -> ((d0 + 1) mod 3)>(%i)
      %off = arith.muli %i, %c4 : index
      apipe.copy %g[%off], %t[%slot, %c0], 4 : memref<256xf32> to memref<3x4xf32>
      %x = memref.load %t[%slot, %c1] : memref<3x4xf32>
      %s = arith.addf %acc, %x : f32
      scf.yield %s : f32
    }
    memref.dealloc %t : memref<3x4xf32>
    memref.store %r, %out[%c0] : memref<1xf32>
    return
  }

  func.func @strided(%g: memref<256xf32>, %out: memref<1xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c12 = arith.constant 12 : index
    %zero = arith.constant 0.0 : f32
    %t = memref.alloc() : memref<4x4xf32>
    %r = scf.for %i = %c0 to %c12 step %c1 iter_args(%acc = %zero) -> (f32) {
      %slot = affine.apply affine_map<(d0) -> ((d0 * 2 + 1) mod 4)>(%i)
      %off = arith.muli %i, %c4 : index
      apipe.copy %g[%off], %t[%slot, %c0], 4 : memref<256xf32> to memref<4x4xf32>
      %x = memref.load %t[%slot, %c1] : memref<4x4xf32>
      %s = arith.addf %acc, %x : f32
      scf.yield %s : f32
    }
    memref.dealloc %t : memref<4x4xf32>
    memref.store %r, %out[%c0] : memref<1xf32>
    return
  }

  func.func @main_kernel() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %g = memref.alloc() : memref<256xf32>
    %dst = memref.alloc() : memref<32xf32>
    func.call @fill(%g) : (memref<256xf32>) -> ()
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%g : memref<256xf32>, %dst : memref<32xf32>)
    %u = memref.cast %dst : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %g : memref<256xf32>
    memref.dealloc %dst : memref<32xf32>
    return
  }

  func.func @main_host() {
    %g = memref.alloc() : memref<256xf32>
    %out = memref.alloc() : memref<1xf32>
    func.call @fill(%g) : (memref<256xf32>) -> ()
    func.call @host(%g, %out) : (memref<256xf32>, memref<1xf32>) -> ()
    %u = memref.cast %out : memref<1xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %g : memref<256xf32>
    memref.dealloc %out : memref<1xf32>
    return
  }

  func.func @main_strided() {
    %g = memref.alloc() : memref<256xf32>
    %out = memref.alloc() : memref<1xf32>
    func.call @fill(%g) : (memref<256xf32>) -> ()
    func.call @strided(%g, %out) : (memref<256xf32>, memref<1xf32>) -> ()
    %u = memref.cast %out : memref<1xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %g : memref<256xf32>
    memref.dealloc %out : memref<1xf32>
    return
  }

  func.func @fill(%g: memref<256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    scf.for %k = %c0 to %c256 step %c1 {
      %kk = arith.index_cast %k : index to i64
      %f = arith.sitofp %kk : i64 to f32
      memref.store %f, %g[%k] : memref<256xf32>
    }
    return
  }

  func.func private @printMemrefF32(memref<*xf32>)
}
