// Loops whose buffers the user multi-buffered by hand (IREE's and
// upstream's memref.multi_buffer shape: tiles in slot `iv mod K`) keep their
// buffers when the slots already hold the tiles in flight apart: no versions,
// no subviews, the same shared memory. With too few slots for the order
// (copies first), or slots carried in iter_args, the buffer gets versions as
// before. Every output passes apipe-check-hazards and prints make-sync's
// values under apipe-run (race checker on) in lazy, eager and random
// completion and two thread orders.
//
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 2> %t.err > %t.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: FileCheck %s < %t.mlir
// RUN: apipe-opt %t.mlir --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-make-sync > %t.sync.mlir
// RUN: apipe-run %t.sync.mlir -e main_iree | FileCheck %s --check-prefix=VALUES
// RUN: apipe-run %t.sync.mlir -e main_host | FileCheck %s --check-prefix=HOST
// RUN: apipe-run %t.mlir -e main_iree --completion=lazy,eager,random:1 --schedule=forward,reverse > %t.out
// RUN: apipe-run %t.mlir -e main_step2 --completion=lazy,eager,random:1 --schedule=forward,reverse >> %t.out
// RUN: apipe-run %t.mlir -e main_two_slots --completion=lazy,eager,random:1 --schedule=forward,reverse >> %t.out
// RUN: apipe-run %t.mlir -e main_rotating --completion=lazy,eager,random:1 --schedule=forward,reverse >> %t.out
// RUN: FileCheck %s --check-prefix=VALUES24 < %t.out
// RUN: apipe-run %t.mlir -e main_host --completion=lazy,eager,random:1,random:2 | FileCheck %s --check-prefix=HOST4
// RUN: apipe-run %t.sync.mlir -e main_host_narrow | FileCheck %s --check-prefix=NARROW
// RUN: apipe-run %t.mlir -e main_host_narrow --completion=lazy,eager,random:1,random:2 | FileCheck %s --check-prefix=NARROW4
//
// Copies first: the copy of tile i + 2 is issued before tile i is read, so
// two slots are too few (versions); three are enough.
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 order=copies-first" 2> %t.cf.err > %t.cf.mlir
// RUN: FileCheck %s --check-prefix=COPIES-FIRST < %t.cf.err
// RUN: apipe-opt %t.cf.mlir --apipe-check-hazards -o /dev/null
// RUN: apipe-run %t.cf.mlir -e main_iree --completion=lazy,eager,random:1 --schedule=forward,reverse > %t.cf.out
// RUN: apipe-run %t.cf.mlir -e main_two_slots --completion=lazy,eager,random:1 --schedule=forward,reverse >> %t.cf.out
// RUN: FileCheck %s --check-prefix=VALUES12 < %t.cf.out
//
// Four stages on three slots: the copy of tile i + 3 reuses tile i's slot
// once every thread has read it, which takes a second barrier.
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=4 2> %t.four.err > %t.four.mlir
// RUN: FileCheck %s --check-prefix=FOUR < %t.four.err
// RUN: apipe-opt %t.four.mlir --apipe-check-hazards -o /dev/null
// RUN: apipe-run %t.four.mlir -e main_iree --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s --check-prefix=VALUES6

// out[t] = sum over i < 8 of g[32 i + (t + 1) mod 32], g[k] = k.
// VALUES: {{^}}[904,  912,  920, {{.*}}, 1144,  896]
// VALUES24-COUNT-24: {{^}}[904,  912,  920, {{.*}}, 1144,  896]
// VALUES24-NOT: {{^}}[
// VALUES12-COUNT-12: {{^}}[904,  912,  920, {{.*}}, 1144,  896]
// VALUES12-NOT: {{^}}[
// VALUES6-COUNT-6: {{^}}[904,  912,  920, {{.*}}, 1144,  896]
// VALUES6-NOT: {{^}}[
// The host loop: sum over i < 8 of g[4 i + 1].
// HOST: {{^}}[120]
// HOST4-COUNT-4: {{^}}[120]
// HOST4-NOT: {{^}}[
// The narrow slots: sum over i < 20 of g[4 i + 1].
// NARROW: {{^}}[780]
// NARROW4-COUNT-4: {{^}}[780]
// NARROW4-NOT: {{^}}[

// REMARK: own-slots.mlir:[[#@LINE+48]]:14: remark: scheduled 3 stages (num_stages = 3): stage 0: 5 ops, stage 2: 4 ops; versions: memref<3x32xf32, 3> x 1 (384 bytes, its own slots); shared memory: 384 of 49152 bytes; 1 gpu.barrier per iteration
// REMARK: own-slots.mlir:[[#@LINE+76]]:14: remark: scheduled 3 stages (num_stages = 3): stage 0: 5 ops, stage 2: 4 ops; versions: memref<3x32xf32, 3> x 1 (384 bytes, its own slots); shared memory: 384 of 49152 bytes; 1 gpu.barrier per iteration
// REMARK: own-slots.mlir:[[#@LINE+106]]:14: remark: scheduled 3 stages (num_stages = 3): stage 0: 5 ops, stage 2: 4 ops; versions: memref<2x32xf32, 3> x 1 (256 bytes, its own slots); shared memory: 256 of 49152 bytes; 2 gpu.barrier per iteration
// REMARK: own-slots.mlir:[[#@LINE+136]]:14: remark: scheduled 3 stages (num_stages = 3): {{.*}}; versions: memref<3x32xf32, 3> x 3 (1152 bytes); shared memory: 1152 of 49152 bytes; 1 gpu.barrier per iteration
// REMARK: own-slots.mlir:[[#@LINE+219]]:10: remark: scheduled 3 stages (num_stages = 3): {{.*}}; versions: memref<3x4xf32> x 1 (48 bytes, its own slots); buffers: 0 bytes
// REMARK: own-slots.mlir:[[#@LINE+241]]:10: remark: scheduled 3 stages (num_stages = 3): {{.*}}; versions: memref<3x4xf32> x 3 (144 bytes); buffers: 144 bytes
// REMARK-NOT: remark
// COPIES-FIRST-COUNT-2: versions: memref<3x32xf32, 3> x 1 (384 bytes, its own slots); shared memory: 384 of 49152 bytes; 1 gpu.barrier per iteration
// COPIES-FIRST: versions: memref<2x32xf32, 3> x 3 (768 bytes); shared memory: 768 of 49152 bytes; 1 gpu.barrier per iteration
// FOUR: versions: memref<3x32xf32, 3> x 1 (384 bytes, its own slots); shared memory: 384 of 49152 bytes; 2 gpu.barrier per iteration

// The IREE shape: the buffer keeps its type, the loop its slot arithmetic.
// CHECK-LABEL: gpu.func @iree
// CHECK-SAME: workgroup(%[[T:.*]] : memref<3x32xf32, 3>)
// CHECK-NOT: memref.subview
// CHECK-COUNT-2: apipe.commit_group queue 0
// CHECK: scf.for
// CHECK-NEXT: apipe.wait_group 1
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.load %[[T]][
// CHECK-NOT: gpu.barrier
// CHECK: arith.remui
// CHECK: apipe.copy %{{.*}}, %[[T]][
// CHECK-NEXT: apipe.commit_group queue 0
// CHECK-NEXT: scf.yield
// CHECK-LABEL: gpu.func @step2
// CHECK-NOT: memref.subview
// CHECK-LABEL: gpu.func @rotating
// CHECK-SAME: workgroup(%{{.*}} : memref<3x3x32xf32, 3>)
// CHECK-LABEL: func.func @host
// CHECK: memref.alloc() : memref<3x4xf32>
// CHECK-NOT: memref.subview
// CHECK: return

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @iree(%g: memref<256xf32>, %dst: memref<32xf32>) workgroup(%t: memref<3x32xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %n = arith.addi %tid, %c1 : index
      %nb = arith.remui %n, %c32 : index
      %r:1 = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
        %tile = arith.addi %i, %c0 : index
        %slot = arith.remui %i, %c3 : index
        gpu.barrier
        %base = arith.muli %tile, %c32 : index
        %off = arith.addi %base, %tid : index
        apipe.copy %g[%off], %t[%slot, %tid], 1 : memref<256xf32> to memref<3x32xf32, 3>
        gpu.barrier
        %x = memref.load %t[%slot, %nb] : memref<3x32xf32, 3>
        %s = arith.addf %acc, %x : f32
        scf.yield %s : f32
      }
      memref.store %r#0, %dst[%tid] : memref<32xf32>
      gpu.return
    }

    // Step 2: slot i mod 3 visits 0, 2, 1, 0, ...
    gpu.func @step2(%g: memref<256xf32>, %dst: memref<32xf32>) workgroup(%t: memref<3x32xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %n = arith.addi %tid, %c1 : index
      %nb = arith.remui %n, %c32 : index
      %r:1 = scf.for %i = %c0 to %c16 step %c2 iter_args(%acc = %zero) -> (f32) {
        %tile = arith.divui %i, %c2 : index
        %slot = arith.remui %i, %c3 : index
        gpu.barrier
        %base = arith.muli %tile, %c32 : index
        %off = arith.addi %base, %tid : index
        apipe.copy %g[%off], %t[%slot, %tid], 1 : memref<256xf32> to memref<3x32xf32, 3>
        gpu.barrier
        %x = memref.load %t[%slot, %nb] : memref<3x32xf32, 3>
        %s = arith.addf %acc, %x : f32
        scf.yield %s : f32
      }
      memref.store %r#0, %dst[%tid] : memref<32xf32>
      gpu.return
    }

    // Two slots are enough for three stages when each tile is read before
    // the next copy into its slot is issued (the default order); another
    // thread's read of the slot takes a second barrier before that copy.
    gpu.func @two_slots(%g: memref<256xf32>, %dst: memref<32xf32>) workgroup(%t: memref<2x32xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %n = arith.addi %tid, %c1 : index
      %nb = arith.remui %n, %c32 : index
      %r:1 = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
        %tile = arith.addi %i, %c0 : index
        %slot = arith.remui %i, %c2 : index
        gpu.barrier
        %base = arith.muli %tile, %c32 : index
        %off = arith.addi %base, %tid : index
        apipe.copy %g[%off], %t[%slot, %tid], 1 : memref<256xf32> to memref<2x32xf32, 3>
        gpu.barrier
        %x = memref.load %t[%slot, %nb] : memref<2x32xf32, 3>
        %s = arith.addf %acc, %x : f32
        scf.yield %s : f32
      }
      memref.store %r#0, %dst[%tid] : memref<32xf32>
      gpu.return
    }

    // The slot carried in an iter_arg (CUTLASS's PipelineState index):
    // versions, as the pipelined loop's window of slots would start at
    // values the checker does not fold.
    gpu.func @rotating(%g: memref<256xf32>, %dst: memref<32xf32>) workgroup(%t: memref<3x32xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %n = arith.addi %tid, %c1 : index
      %nb = arith.remui %n, %c32 : index
      %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero, %slot = %c0) -> (f32, index) {
        %tile = arith.addi %i, %c0 : index
        gpu.barrier
        %base = arith.muli %tile, %c32 : index
        %off = arith.addi %base, %tid : index
        apipe.copy %g[%off], %t[%slot, %tid], 1 : memref<256xf32> to memref<3x32xf32, 3>
        gpu.barrier
        %x = memref.load %t[%slot, %nb] : memref<3x32xf32, 3>
        %s = arith.addf %acc, %x : f32
        %inc = arith.addi %slot, %c1 : index
        %wrap = arith.cmpi eq, %inc, %c3 : index
        %next = arith.select %wrap, %c0, %inc : index
        scf.yield %s, %next : f32, index
      }
      memref.store %r#0, %dst[%tid] : memref<32xf32>
      gpu.return
    }
  }

  func.func @main_iree() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %g = memref.alloc() : memref<256xf32>
    %dst = memref.alloc() : memref<32xf32>
    func.call @fill(%g) : (memref<256xf32>) -> ()
    gpu.launch_func @kernels::@iree blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%g : memref<256xf32>, %dst : memref<32xf32>)
    %u = memref.cast %dst : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %g : memref<256xf32>
    memref.dealloc %dst : memref<32xf32>
    return
  }

  func.func @main_step2() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %g = memref.alloc() : memref<256xf32>
    %dst = memref.alloc() : memref<32xf32>
    func.call @fill(%g) : (memref<256xf32>) -> ()
    gpu.launch_func @kernels::@step2 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%g : memref<256xf32>, %dst : memref<32xf32>)
    %u = memref.cast %dst : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %g : memref<256xf32>
    memref.dealloc %dst : memref<32xf32>
    return
  }

  func.func @main_two_slots() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %g = memref.alloc() : memref<256xf32>
    %dst = memref.alloc() : memref<32xf32>
    func.call @fill(%g) : (memref<256xf32>) -> ()
    gpu.launch_func @kernels::@two_slots blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%g : memref<256xf32>, %dst : memref<32xf32>)
    %u = memref.cast %dst : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %g : memref<256xf32>
    memref.dealloc %dst : memref<32xf32>
    return
  }

  func.func @main_rotating() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %g = memref.alloc() : memref<256xf32>
    %dst = memref.alloc() : memref<32xf32>
    func.call @fill(%g) : (memref<256xf32>) -> ()
    gpu.launch_func @kernels::@rotating blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%g : memref<256xf32>, %dst : memref<32xf32>)
    %u = memref.cast %dst : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %g : memref<256xf32>
    memref.dealloc %dst : memref<32xf32>
    return
  }

  // The same on the host: 4-float tiles in slots i mod 3 of a local buffer.
  func.func @host(%g: memref<256xf32>, %out: memref<1xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %t = memref.alloc() : memref<3x4xf32>
    %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
      %slot = arith.remui %i, %c3 : index
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

  // A slot index computed in i4 wraps at 16 (tiles 15 and 16 share slot
  // 0): not i mod 3, so the buffer gets versions.
  func.func @host_narrow(%g: memref<256xf32>, %out: memref<1xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c20 = arith.constant 20 : index
    %c3i = arith.constant 3 : i4
    %zero = arith.constant 0.0 : f32
    %t = memref.alloc() : memref<3x4xf32>
    %r = scf.for %i = %c0 to %c20 step %c1 iter_args(%acc = %zero) -> (f32) {
      %i4 = arith.index_cast %i : index to i4
      %s4 = arith.remui %i4, %c3i : i4
      %slot = arith.index_castui %s4 : i4 to index
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

  func.func @main_host_narrow() {
    %g = memref.alloc() : memref<256xf32>
    %out = memref.alloc() : memref<1xf32>
    func.call @fill(%g) : (memref<256xf32>) -> ()
    func.call @host_narrow(%g, %out) : (memref<256xf32>, memref<1xf32>) -> ()
    %u = memref.cast %out : memref<1xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %g : memref<256xf32>
    memref.dealloc %out : memref<1xf32>
    return
  }

  func.func @main_host() {
    %c0 = arith.constant 0 : index
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
