// apipe-software-pipeline{num-stages=3} side by side with upstream
// transform.nvgpu.pipeline_shared_memory_copies {depth = 2, peel_epilogue}
// (both keep two tiles in flight) on kernels that upstream can pipeline:
// flat loop bodies of nvgpu.device_async_copy / device_async_create_group /
// device_async_wait, as upstream's transform-pipeline-shared.mlir and IREE's
// gpu_pipeline.mlir write them (these inputs are written for this suite).
// apipe pipelines after apipe-import-nvgpu; upstream's output is imported
// the same way to check it. docs/pipelining.md ("Compared with upstream")
// tabulates what the CHECK lines below pin.
//
// Upstream: the transform script, output structure per kernel, and what
// apipe-check-hazards and apipe-run say about it.
// RUN: %mlir_opt %s --transform-preload-library=transform-library-paths=%S/Inputs/pipeline-shared-memory-copies.mlir --transform-interpreter > %t.up.mlir
// RUN: FileCheck %s --check-prefix=UP < %t.up.mlir
// RUN: apipe-opt %t.up.mlir --apipe-import-nvgpu > %t.up.imported.mlir
// RUN: not apipe-opt %t.up.imported.mlir --apipe-check-hazards -o /dev/null 2> %t.up.hazards
// RUN: FileCheck %s --check-prefix=UP-HAZARDS < %t.up.hazards
//
// apipe: remarks, output structure, the checker passes it.
// RUN: apipe-opt %s --apipe-import-nvgpu --apipe-software-pipeline=num-stages=3 2> %t.apipe.err > %t.apipe.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t.apipe.err
// RUN: FileCheck %s --check-prefix=APIPE < %t.apipe.mlir
// RUN: apipe-opt %t.apipe.mlir --apipe-check-hazards -o /dev/null
//
// The reference: the input made synchronous.
// RUN: apipe-opt %s --apipe-import-nvgpu --apipe-make-sync > %t.sync.mlir
// RUN: apipe-run %t.sync.mlir -e main_multi_buffered > %t.sync.out
// RUN: apipe-run %t.sync.mlir -e main_single_buffer >> %t.sync.out
// RUN: apipe-run %t.sync.mlir -e main_two_groups >> %t.sync.out
// RUN: apipe-run %t.sync.mlir -e main_wait_all >> %t.sync.out
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync.out
// VALUES-COUNT-4: {{^}}3160, 2506, 2306, {{.*}}, 2922, 2464, {{$}}
//
// apipe's output runs race-free and prints the reference in lazy, eager and
// random completion and two thread orders.
// RUN: apipe-run %t.apipe.mlir -e main_multi_buffered --completion=lazy,eager,random:1 --schedule=forward,reverse > %t.apipe.out
// RUN: apipe-run %t.apipe.mlir -e main_single_buffer --completion=lazy,eager,random:1 --schedule=forward,reverse >> %t.apipe.out
// RUN: apipe-run %t.apipe.mlir -e main_two_groups --completion=lazy,eager,random:1 --schedule=forward,reverse >> %t.apipe.out
// RUN: apipe-run %t.apipe.mlir -e main_wait_all --completion=lazy,eager,random:1 --schedule=forward,reverse >> %t.apipe.out
// RUN: FileCheck %s --check-prefix=RUN24 < %t.apipe.out
// RUN24-COUNT-24: {{^}}3160, 2506, 2306, {{.*}}, 2922, 2464, {{$}}
// RUN24-NOT: {{^[0-9]}}
//
// Upstream's output: three kernels run right; single_buffer races (the
// copies of the next two tiles land in the tile being read).
// RUN: apipe-run %t.up.imported.mlir -e main_multi_buffered --completion=lazy,eager,random:1 --schedule=forward,reverse > %t.up.out
// RUN: apipe-run %t.up.imported.mlir -e main_two_groups --completion=lazy,eager,random:1 --schedule=forward,reverse >> %t.up.out
// RUN: apipe-run %t.up.imported.mlir -e main_wait_all --completion=lazy,eager,random:1 --schedule=forward,reverse >> %t.up.out
// RUN: FileCheck %s --check-prefix=RUN18 < %t.up.out
// RUN18-COUNT-18: {{^}}3160, 2506, 2306, {{.*}}, 2922, 2464, {{$}}
// RUN18-NOT: {{^[0-9]}}
// RUN: not apipe-run %t.up.imported.mlir -e main_single_buffer 2>&1 | FileCheck %s --check-prefix=UP-RACE
// UP-RACE: error: thread (0,0,0) of block (0,0,0) writes shared memory byte 0 {{.*}} that its own asynchronous copy still in flight writes
// Without the race checker, copies that land at issue give wrong sums.
// RUN: apipe-run %t.up.imported.mlir -e main_single_buffer --no-racecheck --completion=eager | FileCheck %s --check-prefix=UP-WRONG
// UP-WRONG: {{^}}3832, 2506, 2530, {{.*}}, 3146, 2912, {{$}}

// What upstream's transform emits (depth 2: stage 0 holds the copies, their
// groups, the barriers before them and their index computations; the rest
// is stage 2; the kernel runs stage 2 first, then stage 0; every wait
// without numGroups gets 1 in the kernel, 1 and 0 in the epilogue).
// UP-LABEL: gpu.func @multi_buffered
// UP-SAME: workgroup(%{{.*}} : memref<3x32xf32, 3>, %{{.*}} : memref<3x32xf32, 3>)
// UP-COUNT-2: nvgpu.device_async_create_group
// UP: scf.for
// UP-NEXT: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// UP-NEXT: gpu.barrier
// UP-NOT: gpu.barrier
// UP: arith.addf
// UP-NEXT: gpu.barrier
// UP-NOT: gpu.barrier
// UP: nvgpu.device_async_create_group
// UP-NEXT: scf.yield
// UP: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// UP: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// UP: gpu.return
//
// One tile buffer: no versions, the copies of tiles i+1 and i+2 write the
// bytes tile i is read from.
// UP-LABEL: gpu.func @single_buffer
// UP-SAME: workgroup(%{{.*}} : memref<32xf32, 3>, %{{.*}} : memref<32xf32, 3>)
// UP: scf.for
// UP-NEXT: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// UP-NEXT: gpu.barrier
// UP-NOT: gpu.barrier
// UP: arith.addf
// UP-NEXT: gpu.barrier
// UP-NOT: gpu.barrier
// UP: nvgpu.device_async_create_group
// UP-NEXT: scf.yield
//
// Two groups per iteration: each wait gets numGroups = 1, not the exact 3
// and 2 (tile i+1's first group is waited for too).
// UP-LABEL: gpu.func @two_groups
// UP: scf.for
// UP-NEXT: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// UP-NEXT: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// UP-NEXT: gpu.barrier
//
// A count in the input is kept: numGroups = 0 waits for the tiles in flight.
// UP-LABEL: gpu.func @wait_all
// UP: scf.for
// UP-NEXT: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// UP: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// UP: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// UP: gpu.return
//
// The checker on upstream's output: single_buffer's races (the copy of tile
// i+1 over the one of tile i, the reads under the copies in flight), and
// nothing else: the other kernels carry the slots of the tiles in flight as
// a window of iter_args (the slot of tile i+1 becomes the slot of tile i),
// which the checker follows to `(i + c) mod 3`, into the epilogue through
// the loop's results. single_buffer's 8: in the prologue, loop and epilogue,
// both tiles' copy (write-after-write) or load (read-after-write, of the
// element another thread copies).
// RUN: grep -c "error:" %t.up.hazards | FileCheck %s --check-prefix=UP-HAZARD-COUNT
// UP-HAZARD-COUNT: {{^}}8{{$}}
// UP-HAZARDS-DAG: up.imported.mlir:[[#]]:[[#]]: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
// UP-HAZARDS-DAG: up.imported.mlir:[[#]]:[[#]]: error: 'memref.load' op reads bytes that another thread's async copy may still be writing (this thread has x = 0, the other x = {{[0-9]+}}; only the wait of the thread that issued it, then a gpu.barrier, orders the two) (read-after-write between threads)

// apipe: one group per stage and iteration, wait_group 1 (exact: one group
// committed after the waited one), one gpu.barrier per iteration (the
// user's barriers replaced). The tiles the input multi-buffered by hand
// (slot i mod 3) keep their type and their slots: the slots already keep
// the two tiles in flight apart from the one being read, in every thread,
// so no versions are added (shared memory stays 768 bytes, as upstream's).
// The single tile buffer gets three versions.
// REMARK: vs-upstream.mlir:[[#@LINE+61]]:12: remark: scheduled 3 stages (num_stages = 3): stage 0: 5 ops, stage 2: 6 ops; versions: memref<3x32xf32, 3> x 1 (384 bytes, its own slots), memref<3x32xf32, 3> x 1 (384 bytes, its own slots); shared memory: 768 of 49152 bytes; 1 gpu.barrier per iteration
// REMARK: remark: scheduled 3 stages (num_stages = 3): stage 0: 4 ops, stage 2: 6 ops; versions: memref<32xf32, 3> x 3 (384 bytes), memref<32xf32, 3> x 3 (384 bytes); shared memory: 768 of 49152 bytes; 1 gpu.barrier per iteration
// REMARK: remark: scheduled 3 stages (num_stages = 3): stage 0: 5 ops, stage 2: 6 ops; versions: memref<3x32xf32, 3> x 1 (384 bytes, its own slots), memref<3x32xf32, 3> x 1 (384 bytes, its own slots); shared memory: 768 of 49152 bytes; 1 gpu.barrier per iteration
// REMARK: remark: scheduled 3 stages (num_stages = 3): stage 0: 5 ops, stage 2: 6 ops; versions: memref<3x32xf32, 3> x 1 (384 bytes, its own slots), memref<3x32xf32, 3> x 1 (384 bytes, its own slots); shared memory: 768 of 49152 bytes; 1 gpu.barrier per iteration
// REMARK-NOT: remark
//
// APIPE-LABEL: gpu.func @multi_buffered
// APIPE-SAME: workgroup(%{{.*}} : memref<3x32xf32, 3>, %{{.*}} : memref<3x32xf32, 3>)
// APIPE-NOT: memref.subview
// APIPE-COUNT-2: apipe.commit_group queue 0
// APIPE: scf.for
// APIPE-NEXT: apipe.wait_group 1
// APIPE-NEXT: gpu.barrier
// APIPE-NOT: gpu.barrier
// APIPE: apipe.commit_group queue 0
// APIPE-NEXT: scf.yield
// APIPE: apipe.wait_group 1
// APIPE: apipe.commit_group queue 0
// APIPE-NEXT: apipe.wait_group 1
// APIPE: gpu.return
// APIPE-LABEL: gpu.func @single_buffer
// APIPE-SAME: workgroup(%{{.*}} : memref<3x32xf32, 3>, %{{.*}} : memref<3x32xf32, 3>)
// APIPE: scf.for
// APIPE-NEXT: apipe.wait_group 1
// APIPE-NEXT: gpu.barrier
// APIPE-NOT: gpu.barrier
// APIPE: apipe.commit_group queue 0
// APIPE-NEXT: scf.yield
// APIPE-LABEL: gpu.func @two_groups
// APIPE: scf.for
// APIPE-NEXT: apipe.wait_group 1
// APIPE-NEXT: gpu.barrier
// APIPE-NOT: gpu.barrier
// APIPE: apipe.commit_group queue 0
// APIPE-NEXT: scf.yield
// APIPE-LABEL: gpu.func @wait_all
// APIPE: scf.for
// APIPE-NEXT: apipe.wait_group 1
// APIPE-NEXT: gpu.barrier
// APIPE-NOT: gpu.barrier
// APIPE: apipe.commit_group queue 0
// APIPE-NEXT: scf.yield

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // IREE's shape: tiles the user multi-buffered (slot i mod 3); a
    // barrier before the copies, one group, its wait, a barrier, the reads.
    gpu.func @multi_buffered(%ga: memref<256xf32>, %gb: memref<256xf32>, %dst: memref<32xf32>)
        workgroup(%a: memref<3x32xf32, 3>, %b: memref<3x32xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c31 = arith.constant 31 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %n1 = arith.addi %tid, %c1 : index
      %right = arith.remui %n1, %c32 : index
      %n31 = arith.addi %tid, %c31 : index
      %left = arith.remui %n31, %c32 : index
      %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
        gpu.barrier
        %slot = arith.remui %i, %c3 : index
        %base = arith.muli %i, %c32 : index
        %off = arith.addi %base, %tid : index
        %ta = nvgpu.device_async_copy %ga[%off], %a[%slot, %tid], 1 : memref<256xf32> to memref<3x32xf32, 3>
        %tb = nvgpu.device_async_copy %gb[%off], %b[%slot, %tid], 1 : memref<256xf32> to memref<3x32xf32, 3>
        %g = nvgpu.device_async_create_group %ta, %tb
        nvgpu.device_async_wait %g
        gpu.barrier
        %x = memref.load %a[%slot, %right] : memref<3x32xf32, 3>
        %y = memref.load %b[%slot, %left] : memref<3x32xf32, 3>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %r, %dst[%tid] : memref<32xf32>
      gpu.return
    }

    // One tile buffer, as written before multi-buffering: synchronous code
    // needs a barrier after the reads before the next copy overwrites it.
    gpu.func @single_buffer(%ga: memref<256xf32>, %gb: memref<256xf32>, %dst: memref<32xf32>)
        workgroup(%a: memref<32xf32, 3>, %b: memref<32xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c31 = arith.constant 31 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %n1 = arith.addi %tid, %c1 : index
      %right = arith.remui %n1, %c32 : index
      %n31 = arith.addi %tid, %c31 : index
      %left = arith.remui %n31, %c32 : index
      %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
        %base = arith.muli %i, %c32 : index
        %off = arith.addi %base, %tid : index
        %ta = nvgpu.device_async_copy %ga[%off], %a[%tid], 1 : memref<256xf32> to memref<32xf32, 3>
        %tb = nvgpu.device_async_copy %gb[%off], %b[%tid], 1 : memref<256xf32> to memref<32xf32, 3>
        %g = nvgpu.device_async_create_group %ta, %tb
        nvgpu.device_async_wait %g
        gpu.barrier
        %x = memref.load %a[%right] : memref<32xf32, 3>
        %y = memref.load %b[%left] : memref<32xf32, 3>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        gpu.barrier
        scf.yield %s : f32
      }
      memref.store %r, %dst[%tid] : memref<32xf32>
      gpu.return
    }

    // One group per copy and a wait on each (multi-buffered as above).
    gpu.func @two_groups(%ga: memref<256xf32>, %gb: memref<256xf32>, %dst: memref<32xf32>)
        workgroup(%a: memref<3x32xf32, 3>, %b: memref<3x32xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c31 = arith.constant 31 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %n1 = arith.addi %tid, %c1 : index
      %right = arith.remui %n1, %c32 : index
      %n31 = arith.addi %tid, %c31 : index
      %left = arith.remui %n31, %c32 : index
      %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
        gpu.barrier
        %slot = arith.remui %i, %c3 : index
        %base = arith.muli %i, %c32 : index
        %off = arith.addi %base, %tid : index
        %ta = nvgpu.device_async_copy %ga[%off], %a[%slot, %tid], 1 : memref<256xf32> to memref<3x32xf32, 3>
        %ga_group = nvgpu.device_async_create_group %ta
        %tb = nvgpu.device_async_copy %gb[%off], %b[%slot, %tid], 1 : memref<256xf32> to memref<3x32xf32, 3>
        %gb_group = nvgpu.device_async_create_group %tb
        nvgpu.device_async_wait %ga_group
        nvgpu.device_async_wait %gb_group
        gpu.barrier
        %x = memref.load %a[%slot, %right] : memref<3x32xf32, 3>
        %y = memref.load %b[%slot, %left] : memref<3x32xf32, 3>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %r, %dst[%tid] : memref<32xf32>
      gpu.return
    }

    // The wait written with numGroups = 0 (upstream keeps a count it finds).
    gpu.func @wait_all(%ga: memref<256xf32>, %gb: memref<256xf32>, %dst: memref<32xf32>)
        workgroup(%a: memref<3x32xf32, 3>, %b: memref<3x32xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c31 = arith.constant 31 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %n1 = arith.addi %tid, %c1 : index
      %right = arith.remui %n1, %c32 : index
      %n31 = arith.addi %tid, %c31 : index
      %left = arith.remui %n31, %c32 : index
      %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
        gpu.barrier
        %slot = arith.remui %i, %c3 : index
        %base = arith.muli %i, %c32 : index
        %off = arith.addi %base, %tid : index
        %ta = nvgpu.device_async_copy %ga[%off], %a[%slot, %tid], 1 : memref<256xf32> to memref<3x32xf32, 3>
        %tb = nvgpu.device_async_copy %gb[%off], %b[%slot, %tid], 1 : memref<256xf32> to memref<3x32xf32, 3>
        %g = nvgpu.device_async_create_group %ta, %tb
        nvgpu.device_async_wait %g {numGroups = 0 : i32}
        gpu.barrier
        %x = memref.load %a[%slot, %right] : memref<3x32xf32, 3>
        %y = memref.load %b[%slot, %left] : memref<3x32xf32, 3>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %r, %dst[%tid] : memref<32xf32>
      gpu.return
    }
  }

  func.func private @printF32(f32)
  func.func private @printComma()
  func.func private @printNewline()

  // ga[i] = i, gb[i] = i mod 7.
  func.func @fill(%ga: memref<256xf32>, %gb: memref<256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c7 = arith.constant 7 : i32
    scf.for %i = %c0 to %c256 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %m = arith.remui %ii, %c7 : i32
      %g = arith.sitofp %m : i32 to f32
      memref.store %f, %ga[%i] : memref<256xf32>
      memref.store %g, %gb[%i] : memref<256xf32>
    }
    return
  }

  func.func @print(%dst: memref<32xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    scf.for %i = %c0 to %c32 step %c1 {
      %v = memref.load %dst[%i] : memref<32xf32>
      func.call @printF32(%v) : (f32) -> ()
      func.call @printComma() : () -> ()
    }
    func.call @printNewline() : () -> ()
    return
  }

  func.func @main_multi_buffered() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %ga = memref.alloc() : memref<256xf32>
    %gb = memref.alloc() : memref<256xf32>
    %dst = memref.alloc() : memref<32xf32>
    func.call @fill(%ga, %gb) : (memref<256xf32>, memref<256xf32>) -> ()
    gpu.launch_func @kernels::@multi_buffered blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%ga : memref<256xf32>, %gb : memref<256xf32>, %dst : memref<32xf32>)
    func.call @print(%dst) : (memref<32xf32>) -> ()
    memref.dealloc %ga : memref<256xf32>
    memref.dealloc %gb : memref<256xf32>
    memref.dealloc %dst : memref<32xf32>
    return
  }

  func.func @main_single_buffer() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %ga = memref.alloc() : memref<256xf32>
    %gb = memref.alloc() : memref<256xf32>
    %dst = memref.alloc() : memref<32xf32>
    func.call @fill(%ga, %gb) : (memref<256xf32>, memref<256xf32>) -> ()
    gpu.launch_func @kernels::@single_buffer blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%ga : memref<256xf32>, %gb : memref<256xf32>, %dst : memref<32xf32>)
    func.call @print(%dst) : (memref<32xf32>) -> ()
    memref.dealloc %ga : memref<256xf32>
    memref.dealloc %gb : memref<256xf32>
    memref.dealloc %dst : memref<32xf32>
    return
  }

  func.func @main_two_groups() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %ga = memref.alloc() : memref<256xf32>
    %gb = memref.alloc() : memref<256xf32>
    %dst = memref.alloc() : memref<32xf32>
    func.call @fill(%ga, %gb) : (memref<256xf32>, memref<256xf32>) -> ()
    gpu.launch_func @kernels::@two_groups blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%ga : memref<256xf32>, %gb : memref<256xf32>, %dst : memref<32xf32>)
    func.call @print(%dst) : (memref<32xf32>) -> ()
    memref.dealloc %ga : memref<256xf32>
    memref.dealloc %gb : memref<256xf32>
    memref.dealloc %dst : memref<32xf32>
    return
  }

  func.func @main_wait_all() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %ga = memref.alloc() : memref<256xf32>
    %gb = memref.alloc() : memref<256xf32>
    %dst = memref.alloc() : memref<32xf32>
    func.call @fill(%ga, %gb) : (memref<256xf32>, memref<256xf32>) -> ()
    gpu.launch_func @kernels::@wait_all blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%ga : memref<256xf32>, %gb : memref<256xf32>, %dst : memref<32xf32>)
    func.call @print(%dst) : (memref<32xf32>) -> ()
    memref.dealloc %ga : memref<256xf32>
    memref.dealloc %gb : memref<256xf32>
    memref.dealloc %dst : memref<32xf32>
    return
  }
}
