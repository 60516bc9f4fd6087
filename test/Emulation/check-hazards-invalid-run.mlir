// The broken kernels of test/Analysis/check-hazards-invalid.mlir that
// test/Emulation/analysis-kernels-run.mlir does not run (that file runs
// @missing_barrier and @overwrite_before_barrier) fail under apipe-run, as
// the hazard checker says they should:
// - @copy_over_unsynced_copy (16 threads, A[i] = i): thread t copies
//   A[4t .. 4t+3] into elements 4t .. 4t+3 of version 0, waits for its own
//   copy only, then copies the next thread's tile into elements
//   4(t+1) .. 4(t+1)+3, which thread t+1's first copy writes too, with no
//   barrier: a WAW race between two async copies (both write the same values,
//   so only the race checker can tell);
// - @neighbour_tile_no_barrier (8 threads): thread t copies A[2t .. 2t+1]
//   into elements 2t .. 2t+1, waits for its own copy and reads element
//   2t + 2, which thread t + 1 copies, with no barrier: a race (RAW, or WAR
//   when the reader runs first). Without the race checker the reads see the
//   workgroup memory before the neighbour's copy (NaN, as apipe-run fills it)
//   where a barrier would give out = [2, 4, ..., 14, -] (the last thread
//   reads element 16, which no thread copies).
//
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@copy_over_unsynced_copy\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards-invalid.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @unsynced /' -e '/expected-/d' > %t.unsynced
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@neighbour_tile_no_barrier\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards-invalid.mlir | sed -e '/expected-/d' > %t.neighbour
// RUN: sed -e '/^\/\/ @unsynced$/r %t.unsynced' -e '/^\/\/ @neighbour$/r %t.neighbour' %s > %t.mlir
// The hazard checker still refuses both, and nothing else, in this driver:
// RUN: not apipe-opt %t.mlir --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=HAZARDS
// HAZARDS: error: 'apipe.copy' op writes data that other threads' async copies may still be reading or writing (as their source or destination), with no gpu.barrier after the wait that completes them (missing barrier)
// HAZARDS: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
// HAZARDS-NOT: error:
//
// RUN: not apipe-run %t.mlir --entry=broken_unsynced 2>&1 | FileCheck %s --check-prefix=UNSYNCED
// RUN: not apipe-run %t.mlir --entry=broken_unsynced --schedule=reverse --completion=eager 2>&1 | FileCheck %s --check-prefix=UNSYNCED
// RUN: not apipe-run %t.mlir --entry=broken_unsynced --schedule=random:2 --completion=random:1 2>&1 | FileCheck %s --check-prefix=UNSYNCED
// UNSYNCED: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}}: thread ({{[0-9]+}},0,0) of block (0,0,0) writes it, and thread ({{[0-9]+}},0,0) writes it with no gpu.barrier between ('apipe.copy' and 'apipe.copy')
// UNSYNCED: error: the kernel has races (see above)
//
// RUN: not apipe-run %t.mlir --entry=broken_neighbour 2>&1 | FileCheck %s --check-prefix=NEIGHBOUR-FWD
// NEIGHBOUR-FWD: error: race (WAR) on shared memory byte 8 {{.*}}: thread (1,0,0) of block (0,0,0) writes it, and thread (0,0,0) reads it with no gpu.barrier between ('apipe.copy' and 'memref.load')
// RUN: not apipe-run %t.mlir --entry=broken_neighbour --schedule=reverse --completion=eager 2>&1 | FileCheck %s --check-prefix=NEIGHBOUR-REV
// NEIGHBOUR-REV: error: race (RAW) on shared memory byte 56 {{.*}}: thread (6,0,0) of block (0,0,0) reads it, and thread (7,0,0) writes it with no gpu.barrier between ('memref.load' and 'apipe.copy')
// RUN: apipe-run %t.mlir --entry=broken_neighbour --no-racecheck --completion=lazy,eager | FileCheck %s --check-prefix=WRONG
// WRONG: completion=lazy
// WRONG-NEXT: {{.*}}data =
// WRONG-NEXT: [{{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan]
// WRONG: completion=eager
// WRONG-NEXT: {{.*}}data =
// WRONG-NEXT: [{{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan]

module attributes {gpu.container_module} {
// @unsynced
// @neighbour
  func.func private @printMemrefF32(memref<*xf32>)

  // A[i] = i, n elements.
  func.func @input(%n: index) -> memref<?xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = memref.alloc(%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %a[%i] : memref<?xf32>
    }
    return %a : memref<?xf32>
  }

  func.func @broken_unsynced() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c4096 = arith.constant 4096 : index
    %ad = func.call @input(%c4096) : (index) -> memref<?xf32>
    %a = memref.cast %ad : memref<?xf32> to memref<4096xf32>
    gpu.launch_func @unsynced::@copy_over_unsynced_copy blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<4096xf32>)
    memref.dealloc %ad : memref<?xf32>
    return
  }

  // Prints out[0 .. 7].
  func.func @broken_neighbour() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c4096 = arith.constant 4096 : index
    %zero = arith.constant 0.0 : f32
    %ad = func.call @input(%c4096) : (index) -> memref<?xf32>
    %a = memref.cast %ad : memref<?xf32> to memref<4096xf32>
    %o = memref.alloc() : memref<128xf32>
    linalg.fill ins(%zero : f32) outs(%o : memref<128xf32>)
    gpu.launch_func @neighbour_tiles::@neighbour_tile_no_barrier blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<4096xf32>, %o : memref<128xf32>)
    %v = memref.subview %o[0] [8] [1] : memref<128xf32> to memref<8xf32>
    %w = memref.alloc() : memref<8xf32>
    memref.copy %v, %w : memref<8xf32> to memref<8xf32>
    %u = memref.cast %w : memref<8xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %w : memref<8xf32>
    memref.dealloc %o : memref<128xf32>
    memref.dealloc %ad : memref<?xf32>
    return
  }
}
