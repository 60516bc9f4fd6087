// The kernels of test/Analysis/check-hazards-carried.mlir (section 3,
// thread-id bounds) run end to end under apipe-run with the race checker, in
// lazy, eager and random completion and two schedules, and print what their
// apipe-make-sync version prints. A[i] = i (4096 elements). Each line is the
// sum of `out` after one launch (one block):
// - @own_2d (32 x 4 threads, its known_block_size): out[32 ty + tx] =
//   32 ty + tx, sum 0 + ... + 127 = 8128;
// - @halves (64 threads): out[tx] = tx, sum 2016 (it also stores into the
//   upper half of its workgroup buffer, which no thread copies into);
// - @own_2d_unknown, launched 32 x 4: out as @own_2d, sum 8128 (the checker
//   reports it because it cannot see the block size; in this launch no two
//   threads meet);
// - @upper_bound_attr (64 threads, within its `upper_bound 64`): it writes
//   only workgroup memory, so `out` stays 0: it must run race-free;
// - @upper_bound_too_large, launched with 64 threads (its bound 65 allows
//   65): race-free as well, sum 0;
// - @launch (the gpu.launch of the source, 32 x 4 threads): each thread
//   writes back the element it copied, so A is unchanged and the last line is
//   the sum of A, 4095 * 4096 / 2 = 8386560.
//
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /^gpu.module @bounds /) print b; on=0}' %apipe_root/test/Analysis/check-hazards-carried.mlir > %t.bounds
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /^gpu.module @bounds_racy /) print b; on=0}' %apipe_root/test/Analysis/check-hazards-carried.mlir > %t.bounds_racy
// RUN: sed -n '/^func.func @launch(/,/^}/p' %apipe_root/test/Analysis/check-hazards-carried.mlir > %t.launch
// RUN: grep -c 'gpu.func @' %t.bounds %t.bounds_racy | FileCheck %s --check-prefix=EXTRACTED
// EXTRACTED: bounds:2
// EXTRACTED: bounds_racy:4
// RUN: grep -c 'gpu.launch blocks' %t.launch | FileCheck %s --check-prefix=LAUNCH
// LAUNCH: 1
// RUN: sed -e '/^\/\/ @bounds$/r %t.bounds' -e '/^\/\/ @bounds_racy$/r %t.bounds_racy' -e '/^\/\/ @launch$/r %t.launch' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - > %t.sync
// RUN: FileCheck %s < %t.sync
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v '^// apipe-run' > %t.all
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.expected
// RUN: diff %t.expected %t.all
// CHECK: 8128
// CHECK-NEXT: 2016
// CHECK-NEXT: 8128
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 8386560
// CHECK-NOT: {{.}}
//
// The racy twins fail under the race checker in the launches the checker
// warns about: @own_2d_unknown and @own_2d_wide in a 64 x 2 block (thread
// (tx, 0) with tx >= 32 and thread (tx - 32, 1) copy into the same element,
// and each reads the element the other copies), @upper_bound_too_large with
// 65 threads (thread 0 stores into element 64 of the workgroup buffer, which
// thread 64 copies into, with no barrier; in reverse order thread 64's copy
// comes second). Its buffer has room for thread 64's own store (element
// 128), so the race is the kernel's only error.
// RUN: not apipe-run %t.mlir --entry=racy_unknown 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not apipe-run %t.mlir --entry=racy_unknown --schedule=reverse 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}}: thread ({{[0-9]+}},{{[01]}},0) of block (0,0,0) writes it, and thread ({{[0-9]+}},{{[01]}},0) writes it with no gpu.barrier between ('apipe.copy' and 'apipe.copy')
// RUN: not apipe-run %t.mlir --entry=racy_wide 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: not apipe-run %t.mlir --entry=racy_wide --schedule=reverse --completion=eager 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}}: thread ({{[0-9]+}},{{[01]}},0) of block (0,0,0) writes it, and thread ({{[0-9]+}},{{[01]}},0) writes it with no gpu.barrier between ('apipe.copy' and 'apipe.copy')
// RUN: not apipe-run %t.mlir --entry=racy_too_large 2>&1 | FileCheck %s --check-prefix=TOO-LARGE
// RUN: not apipe-run %t.mlir --entry=racy_too_large --schedule=random:3 --completion=eager 2>&1 | FileCheck %s --check-prefix=TOO-LARGE
// TOO-LARGE: error: race (WAW) on shared memory byte 256 {{.*}}: thread (64,0,0) of block (0,0,0) writes it, and thread (0,0,0) writes it with no gpu.barrier between ('apipe.copy' and 'memref.store')
// RUN: not apipe-run %t.mlir --entry=racy_too_large --schedule=reverse 2>&1 | FileCheck %s --check-prefix=TOO-LARGE-REVERSE
// TOO-LARGE-REVERSE: error: race (WAW) on shared memory byte 256 {{.*}}: thread (0,0,0) of block (0,0,0) writes it, and thread (64,0,0) writes it with no gpu.barrier between ('memref.store' and 'apipe.copy')
// TOO-LARGE-REVERSE-NOT: out-of-bounds

module attributes {gpu.container_module} {
// @bounds
// @bounds_racy
// @launch
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

  // Prints the sum of `out` (every value is an integer).
  func.func @sum(%out: memref<?xf32>) {
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
    return
  }

  // Prints the sum of `out` and frees it.
  func.func @report(%out: memref<?xf32>) {
    func.call @sum(%out) : (memref<?xf32>) -> ()
    memref.dealloc %out : memref<?xf32>
    return
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c4096 = arith.constant 4096 : index
    %ad = func.call @input(%c4096) : (index) -> memref<?xf32>
    %a = memref.cast %ad : memref<?xf32> to memref<4096xf32>

    %o1d = func.call @zeros(%c128) : (index) -> memref<?xf32>
    %o1 = memref.cast %o1d : memref<?xf32> to memref<128xf32>
    gpu.launch_func @bounds::@own_2d blocks in (%c1, %c1, %c1) threads in (%c32, %c4, %c1) args(%a : memref<4096xf32>, %o1 : memref<128xf32>)
    func.call @report(%o1d) : (memref<?xf32>) -> ()

    %o2d = func.call @zeros(%c64) : (index) -> memref<?xf32>
    %o2 = memref.cast %o2d : memref<?xf32> to memref<64xf32>
    gpu.launch_func @bounds::@halves blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<4096xf32>, %o2 : memref<64xf32>)
    func.call @report(%o2d) : (memref<?xf32>) -> ()

    %o3d = func.call @zeros(%c128) : (index) -> memref<?xf32>
    %o3 = memref.cast %o3d : memref<?xf32> to memref<128xf32>
    gpu.launch_func @bounds_racy::@own_2d_unknown blocks in (%c1, %c1, %c1) threads in (%c32, %c4, %c1) args(%a : memref<4096xf32>, %o3 : memref<128xf32>)
    func.call @report(%o3d) : (memref<?xf32>) -> ()

    %o4d = func.call @zeros(%c64) : (index) -> memref<?xf32>
    %o4 = memref.cast %o4d : memref<?xf32> to memref<64xf32>
    gpu.launch_func @bounds_racy::@upper_bound_attr blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<4096xf32>, %o4 : memref<64xf32>)
    func.call @report(%o4d) : (memref<?xf32>) -> ()

    %o5d = func.call @zeros(%c64) : (index) -> memref<?xf32>
    %o5 = memref.cast %o5d : memref<?xf32> to memref<64xf32>
    gpu.launch_func @bounds_racy::@upper_bound_too_large blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<4096xf32>, %o5 : memref<64xf32>)
    func.call @report(%o5d) : (memref<?xf32>) -> ()

    func.call @launch(%a) : (memref<4096xf32>) -> ()
    func.call @sum(%ad) : (memref<?xf32>) -> ()

    memref.dealloc %ad : memref<?xf32>
    return
  }

  // The racy launches.
  func.func @racy(%which: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c65 = arith.constant 65 : index
    %c128 = arith.constant 128 : index
    %c4096 = arith.constant 4096 : index
    %ad = func.call @input(%c4096) : (index) -> memref<?xf32>
    %a = memref.cast %ad : memref<?xf32> to memref<4096xf32>
    %od = func.call @zeros(%c128) : (index) -> memref<?xf32>
    %o = memref.cast %od : memref<?xf32> to memref<128xf32>
    %o64 = memref.subview %o[0] [64] [1] : memref<128xf32> to memref<64xf32>
    %unknown = arith.cmpi eq, %which, %c0 : index
    %wide = arith.cmpi eq, %which, %c1 : index
    scf.if %unknown {
      gpu.launch_func @bounds_racy::@own_2d_unknown blocks in (%c1, %c1, %c1) threads in (%c64, %c2, %c1) args(%a : memref<4096xf32>, %o : memref<128xf32>)
    } else {
      scf.if %wide {
        gpu.launch_func @bounds_racy::@own_2d_wide blocks in (%c1, %c1, %c1) threads in (%c64, %c2, %c1) args(%a : memref<4096xf32>, %o : memref<128xf32>)
      } else {
        gpu.launch_func @bounds_racy::@upper_bound_too_large blocks in (%c1, %c1, %c1) threads in (%c65, %c1, %c1) args(%a : memref<4096xf32>, %o64 : memref<64xf32>)
      }
    }
    func.call @report(%od) : (memref<?xf32>) -> ()
    memref.dealloc %ad : memref<?xf32>
    return
  }

  func.func @racy_unknown() {
    %c0 = arith.constant 0 : index
    func.call @racy(%c0) : (index) -> ()
    return
  }

  func.func @racy_wide() {
    %c1 = arith.constant 1 : index
    func.call @racy(%c1) : (index) -> ()
    return
  }

  func.func @racy_too_large() {
    %c2 = arith.constant 2 : index
    func.call @racy(%c2) : (index) -> ()
    return
  }
}
