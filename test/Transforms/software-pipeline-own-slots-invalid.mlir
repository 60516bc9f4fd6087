// RUN: apipe-opt %s --split-input-file --verify-diagnostics --apipe-software-pipeline="num-stages=3 order=copies-first" -o /dev/null
// RUN: apipe-opt %s --split-input-file --verify-diagnostics --apipe-software-pipeline=num-stages=4 -o /dev/null

// Loops that read what an earlier iteration copied, where the schedule
// needs versions: each version holds its own iteration's data only, so
// they are refused. (With the default order and 3 stages the first two
// keep their own slots and pipeline: software-pipeline-own-slots.mlir.)

// Tile i goes into slot (i + 1) mod 3; the loop reads slot i mod 3 (the
// previous tile).
func.func @previous_slot(%g: memref<64xf32>, %out: memref<1xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<3x4xf32>
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
    %i1 = arith.addi %i, %c1 : index
    %ws = arith.remui %i1, %c3 : index
    %rs = arith.remui %i, %c3 : index
    %off = arith.muli %i, %c4 : index
    // expected-note @+1 {{the write of an earlier iteration}}
    apipe.copy %g[%off], %t[%ws, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    // expected-error @+1 {{'memref.load' op may read data that an earlier iteration wrote into the buffer, which needs}}
    %x = memref.load %t[%rs, %c1] : memref<3x4xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  memref.dealloc %t : memref<3x4xf32>
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

// -----

// The same in a flat buffer (no slot dimension).
func.func @previous_tile_flat(%g: memref<64xf32>, %out: memref<1xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<12xf32>
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
    %i1 = arith.addi %i, %c1 : index
    %ws = arith.remui %i1, %c3 : index
    %rs = arith.remui %i, %c3 : index
    %off = arith.muli %i, %c4 : index
    %wo = arith.muli %ws, %c4 : index
    %ro = arith.muli %rs, %c4 : index
    // expected-note @+1 {{the write of an earlier iteration}}
    apipe.copy %g[%off], %t[%wo], 4 : memref<64xf32> to memref<12xf32>
    // expected-error @+1 {{'memref.load' op may read data that an earlier iteration wrote into the buffer}}
    %x = memref.load %t[%ro] : memref<12xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  memref.dealloc %t : memref<12xf32>
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

// -----

// A kernel: each thread reads its neighbour's element of the previous tile.
// One thread's copy and read never meet; another thread's copy of the
// previous iteration does.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @previous_slot_kernel(%g: memref<256xf32>, %dst: memref<32xf32>) workgroup(%t: memref<3x32xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %n = arith.addi %tid, %c1 : index
      %nb = arith.remui %n, %c32 : index
      %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
        %i1 = arith.addi %i, %c1 : index
        %ws = arith.remui %i1, %c3 : index
        %rs = arith.remui %i, %c3 : index
        gpu.barrier
        %base = arith.muli %i, %c32 : index
        %off = arith.addi %base, %tid : index
        // expected-note @+1 {{the write of an earlier iteration}}
        apipe.copy %g[%off], %t[%ws, %tid], 1 : memref<256xf32> to memref<3x32xf32, 3>
        gpu.barrier
        // expected-error @+1 {{'memref.load' op may read data that an earlier iteration wrote into the buffer}}
        %x = memref.load %t[%rs, %nb] : memref<3x32xf32, 3>
        %s = arith.addf %acc, %x : f32
        scf.yield %s : f32
      }
      memref.store %r, %dst[%tid] : memref<32xf32>
      gpu.return
    }
  }
}

// -----

// A slot picked by an outer loop: the inner (pipelined) loop reads slot
// j mod 3 of the tiles it copies into slot i mod 3.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @outer_slot(%g: memref<1024xf32>, %dst: memref<32xf32>) workgroup(%t: memref<3x32xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %n = arith.addi %tid, %c1 : index
      %nb = arith.remui %n, %c32 : index
      %r = scf.for %j = %c0 to %c3 step %c1 iter_args(%acc0 = %zero) -> (f32) {
        %j8 = arith.muli %j, %c8 : index
        %sj = arith.remui %j, %c3 : index
        %r2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %acc0) -> (f32) {
          %sl = arith.remui %i, %c3 : index
          %tl = arith.addi %i, %j8 : index
          gpu.barrier
          %base = arith.muli %tl, %c32 : index
          %off = arith.addi %base, %tid : index
          // expected-note @+1 {{the write of an earlier iteration}}
          apipe.copy %g[%off], %t[%sl, %tid], 1 : memref<1024xf32> to memref<3x32xf32, 3>
          gpu.barrier
          %x = memref.load %t[%sl, %nb] : memref<3x32xf32, 3>
          // expected-error @+1 {{'memref.load' op may read data that an earlier iteration wrote into the buffer}}
          %y = memref.load %t[%sj, %nb] : memref<3x32xf32, 3>
          %s0 = arith.addf %acc, %x : f32
          %s = arith.addf %s0, %y : f32
          scf.yield %s : f32
        }
        scf.yield %r2 : f32
      }
      memref.store %r, %dst[%tid] : memref<32xf32>
      gpu.return
    }
  }
}
