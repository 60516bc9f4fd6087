// The correct kernels of test/Analysis/check-hazards.mlir, which
// apipe-check-hazards accepts, run end to end under apipe-run with the race
// checker (no race either), in lazy, eager and random completion and two
// schedules, and print what their apipe-make-sync version prints. A[i] = i.
// Each line is the sum of `out` after one kernel:
// - same_thread_no_barrier (128 threads): out[t] = t, sum 8128;
// - one_barrier_double_buffer (32 threads, 16 tiles): out[t] = 15360 +
//   16 * 4 ((t + 1) mod 32), sum 523264;
// - one_barrier_triple_buffer (32 threads): out[t] = 15360 + 16 t, sum
//   499456;
// - own_tile_no_barrier (32 threads): out[t] = 4t, sum 1984;
// - own_tile_2d_no_barrier (64 threads): out[t] = 2t + 1, sum 4096;
// - own_tile_double_buffer_no_barrier (32 threads): out[t] = 15360 + 64 t,
//   sum 523264.
//
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@same_thread_no_barrier\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @same_thread /' > %t.same_thread
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@one_barrier_double_buffer\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @double /' > %t.double
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@one_barrier_triple_buffer\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @triple /' > %t.triple
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@own_tile_no_barrier\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards.mlir > %t.own_tiles
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@missing_barrier\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards-invalid.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @missing /' -e '/expected-/d' > %t.missing
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@overwrite_before_barrier\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards-invalid.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @overwrite /' -e '/expected-/d' > %t.overwrite
// RUN: sed -e '/^\/\/ @same_thread$/r %t.same_thread' -e '/^\/\/ @double$/r %t.double' -e '/^\/\/ @triple$/r %t.triple' -e '/^\/\/ @own_tiles$/r %t.own_tiles' -e '/^\/\/ @missing$/r %t.missing' -e '/^\/\/ @overwrite$/r %t.overwrite' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - > %t.sync
// RUN: FileCheck %s < %t.sync
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1 --schedule=forward,random:2 | grep -v '^// apipe-run' > %t.all
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.expected
// RUN: diff %t.expected %t.all
// The hazard checker still accepts the correct kernels with their driver
// (host code around them), and refuses the broken twins below:
// RUN: sed -e '/^\/\/ @same_thread$/r %t.same_thread' -e '/^\/\/ @double$/r %t.double' -e '/^\/\/ @triple$/r %t.triple' -e '/^\/\/ @own_tiles$/r %t.own_tiles' -e '/^  \/\/ Broken twins/,$d' %s > %t.good.mlir
// RUN: echo "}" >> %t.good.mlir
// RUN: apipe-opt %t.good.mlir --apipe-check-hazards -o /dev/null
// RUN: not apipe-opt %t.mlir --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=HAZARDS
// HAZARDS: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
// HAZARDS: error: 'apipe.copy' op overwrites data that other threads may still be reading, with no gpu.barrier between their read and this copy (missing barrier)
// CHECK: 8128
// CHECK-NEXT: 523264
// CHECK-NEXT: 499456
// CHECK-NEXT: 1984
// CHECK-NEXT: 4096
// CHECK-NEXT: 523264
// CHECK-NOT: {{.}}
//
// Their broken twins of check-hazards-invalid.mlir (a barrier missing after
// the wait, or before the next copy), which the hazard checker refuses,
// fail under the race checker too, naming the ops:
// RUN: not apipe-run %t.mlir --entry=broken_missing 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: race ({{RAW|WAR}}) on shared memory byte {{.*}} with no gpu.barrier between ('{{memref.load|apipe.copy}}' and '{{apipe.copy|memref.load}}')
// RUN: not apipe-run %t.mlir --entry=broken_overwrite --schedule=reverse 2>&1 | FileCheck %s --check-prefix=OVERWRITE
// OVERWRITE: error: race (WAR) on shared memory byte {{.*}} with no gpu.barrier between ('apipe.copy' and 'memref.load')

module attributes {gpu.container_module} {
// @same_thread
// @double
// @triple
// @own_tiles
// @missing
// @overwrite
  func.func private @printI64(i64)
  func.func private @printNewline()

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

  // n zeros.
  func.func @zeros(%n: index) -> memref<?xf32> {
    %zero = arith.constant 0.0 : f32
    %out = memref.alloc(%n) : memref<?xf32>
    linalg.fill ins(%zero : f32) outs(%out : memref<?xf32>)
    return %out : memref<?xf32>
  }

  // Prints the sum of `out` (every value is an integer) and frees it.
  func.func @report(%out: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %n = memref.dim %out, %c0 : memref<?xf32>
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (f32) {
      %v = memref.load %out[%i] : memref<?xf32>
      %t = arith.addf %s, %v : f32
      scf.yield %t : f32
    }
    %r = arith.fptosi %sum : f32 to i64
    func.call @printI64(%r) : (i64) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %out : memref<?xf32>
    return
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c4096 = arith.constant 4096 : index
    %c8192 = arith.constant 8192 : index
    %a4d = func.call @input(%c4096) : (index) -> memref<?xf32>
    %a4 = memref.cast %a4d : memref<?xf32> to memref<4096xf32>
    %a8d = func.call @input(%c8192) : (index) -> memref<?xf32>
    %a8 = memref.cast %a8d : memref<?xf32> to memref<8192xf32>

    %o1d = func.call @zeros(%c128) : (index) -> memref<?xf32>
    %o1 = memref.cast %o1d : memref<?xf32> to memref<128xf32>
    gpu.launch_func @same_thread::@same_thread_no_barrier blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%a4 : memref<4096xf32>, %o1 : memref<128xf32>)
    func.call @report(%o1d) : (memref<?xf32>) -> ()

    %o2d = func.call @zeros(%c32) : (index) -> memref<?xf32>
    %o2 = memref.cast %o2d : memref<?xf32> to memref<32xf32>
    gpu.launch_func @double::@one_barrier_double_buffer blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a8 : memref<8192xf32>, %o2 : memref<32xf32>)
    func.call @report(%o2d) : (memref<?xf32>) -> ()

    %o3d = func.call @zeros(%c32) : (index) -> memref<?xf32>
    %o3 = memref.cast %o3d : memref<?xf32> to memref<32xf32>
    gpu.launch_func @triple::@one_barrier_triple_buffer blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a8 : memref<8192xf32>, %o3 : memref<32xf32>)
    func.call @report(%o3d) : (memref<?xf32>) -> ()

    %o4d = func.call @zeros(%c128) : (index) -> memref<?xf32>
    %o4 = memref.cast %o4d : memref<?xf32> to memref<128xf32>
    gpu.launch_func @own_tiles::@own_tile_no_barrier blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a4 : memref<4096xf32>, %o4 : memref<128xf32>)
    func.call @report(%o4d) : (memref<?xf32>) -> ()

    %o5d = func.call @zeros(%c128) : (index) -> memref<?xf32>
    %o5 = memref.cast %o5d : memref<?xf32> to memref<128xf32>
    gpu.launch_func @own_tiles::@own_tile_2d_no_barrier blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a4 : memref<4096xf32>, %o5 : memref<128xf32>)
    func.call @report(%o5d) : (memref<?xf32>) -> ()

    %o6d = func.call @zeros(%c32) : (index) -> memref<?xf32>
    %o6 = memref.cast %o6d : memref<?xf32> to memref<32xf32>
    gpu.launch_func @own_tiles::@own_tile_double_buffer_no_barrier blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a8 : memref<8192xf32>, %o6 : memref<32xf32>)
    func.call @report(%o6d) : (memref<?xf32>) -> ()

    memref.dealloc %a4d : memref<?xf32>
    memref.dealloc %a8d : memref<?xf32>
    return
  }

  // Broken twins: launches of @missing and @overwrite.
  func.func @launch_broken(%which: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c4096 = arith.constant 4096 : index
    %ad = func.call @input(%c4096) : (index) -> memref<?xf32>
    %a = memref.cast %ad : memref<?xf32> to memref<4096xf32>
    %od = func.call @zeros(%c128) : (index) -> memref<?xf32>
    %o = memref.cast %od : memref<?xf32> to memref<128xf32>
    %missing = arith.cmpi eq, %which, %c0 : index
    scf.if %missing {
      gpu.launch_func @missing::@missing_barrier blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<4096xf32>, %o : memref<128xf32>)
    } else {
      gpu.launch_func @overwrite::@overwrite_before_barrier blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<4096xf32>, %o : memref<128xf32>)
    }
    func.call @report(%od) : (memref<?xf32>) -> ()
    memref.dealloc %ad : memref<?xf32>
    return
  }

  func.func @broken_missing() {
    %c0 = arith.constant 0 : index
    func.call @launch_broken(%c0) : (index) -> ()
    return
  }

  func.func @broken_overwrite() {
    %c1 = arith.constant 1 : index
    func.call @launch_broken(%c1) : (index) -> ()
    return
  }
}
