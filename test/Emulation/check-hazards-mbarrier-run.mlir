// The gpu.func kernels of test/Analysis/check-hazards-mbarrier.mlir,
// check-hazards-mbarrier-bulk.mlir and check-hazards-mbarrier-invalid.mlir
// (mbarrier form: apipe.mbarrier_init / arrive_copies / wait, bulk copies
// with apipe.mbarrier_expect_tx) run end to end under apipe-run with the
// race checker, in lazy, eager and random completion and two schedules,
// and print what their apipe-make-sync version prints. A[i] = i.
// - @kernel (check-hazards-mbarrier), 256 threads: out[t] = A[(t + 1) mod
//   256] (a neighbour's copy, read after the wait, no barrier), sum of
//   out[0..1023] = 0 + 1 + ... + 255 = 32640;
// - @copy_bw (check-hazards-mbarrier-bulk), a smaller launch: 2 blocks of
//   128 threads over the first 8192 of 65536 floats (8 tiles of 512 per
//   block, one elected thread's 2 KiB bulk copy per tile): dst[4096 b +
//   512 t + 4 tid] = that index, the other elements 0; sum = 4096 * 1024
//   + 512 * 28 * 256 + 4 * 8128 * 16 = 8384512;
// - of check-hazards-mbarrier-invalid.mlir, the kernels that are correct
//   at some launch (the hazard checker refuses them: their arrival count,
//   or which threads arrive, is right only for some block sizes):
//   @count_one as 1 thread (count 1), @divergent_arrive as 64 threads
//   (all below 128, so all arrive), @block_dim_x_unknown_yz and
//   @constant_times_unknown as 4 x 1 x 1 threads. They write only shared memory: they must run race-free and
//   deadlock-free (exit 0) and print nothing.
//
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@kernel\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards-mbarrier.mlir > %t.kernel
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@copy_bw\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards-mbarrier-bulk.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @bulk /' > %t.bulk
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@count_one\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards-mbarrier-invalid.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @count_one /' > %t.count_one
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@divergent_arrive\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards-mbarrier-invalid.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @divergent /' > %t.divergent
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@constant_not_block_size\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards-mbarrier-invalid.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @not_block_size /' > %t.not_block_size
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@block_dim_x_of_2d\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards-mbarrier-invalid.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @of_2d /' > %t.of_2d
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@block_dim_x_unknown_yz\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards-mbarrier-invalid.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @unknown_yz /' > %t.unknown_yz
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@block_dim_x_twice\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards-mbarrier-invalid.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @twice /' > %t.twice
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@constant_times_unknown\(/) print b; on=0}' %apipe_root/test/Analysis/check-hazards-mbarrier-invalid.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @times_unknown /' > %t.times_unknown
// RUN: sed -e '/^\/\/ @kernel$/r %t.kernel' -e '/^\/\/ @bulk$/r %t.bulk' -e '/^\/\/ @count_one$/r %t.count_one' -e '/^\/\/ @divergent$/r %t.divergent' -e '/^\/\/ @not_block_size$/r %t.not_block_size' -e '/^\/\/ @of_2d$/r %t.of_2d' -e '/^\/\/ @unknown_yz$/r %t.unknown_yz' -e '/^\/\/ @twice$/r %t.twice' -e '/^\/\/ @times_unknown$/r %t.times_unknown' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - > %t.sync
// RUN: FileCheck %s < %t.sync
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v '^// apipe-run' > %t.all
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.expected
// RUN: diff %t.expected %t.all
// CHECK: 32640
// CHECK-NEXT: 8384512
// CHECK-NOT: {{.}}
//
// The mutants of check-hazards-mbarrier-bulk.mlir (its sed lines, applied
// to the bulk kernel here; the hazard checker refuses each) fail at run
// time in every mode: too few bytes expected (1024 of the 2048 a tile's
// bulk copy completes) or none: the phase never completes (the
// transaction count stays negative); the bulk copy completing on the
// next group's slot: the waited slot keeps 2048 bytes outstanding; a read
// before the wait: the copy is in flight; the WAR barrier removed: the
// next tile's bulk copy overwrites data other threads may still read.
// RUN: sed -e 's/expect_tx %%ring\[%%slot\], 2048/expect_tx %%ring[%%slot], 1024/' %t.mlir > %t.bytes.mlir
// RUN: not apipe-run %t.bytes.mlir --entry=bulk_only --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=BYTES
// (The reverse schedule runs block 1 first.)
// BYTES-COUNT-6: error: deadlock: thread (0,0,0) of block ({{0|1}},0,0) waits at this 'apipe.mbarrier_wait' and no thread of the block can make progress: it waits for phase 0 (parity 0) of the slot, which has 128 of 128 arrivals and -1024 transaction bytes outstanding
// BYTES-NOT: 8384512
// RUN: sed -e '/expect_tx %%ring\[%%slot\], 2048/d' %t.mlir > %t.noexpect.mlir
// RUN: not apipe-run %t.noexpect.mlir --entry=bulk_only --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=NOEXPECT
// NOEXPECT: // apipe-run: completion=lazy schedule=forward
// NOEXPECT-NEXT: error: deadlock: {{.*}} it waits for phase 0 (parity 0) of the slot, which has 128 of 128 arrivals and -2048 transaction bytes outstanding
// NOEXPECT-NOT: 8384512
// RUN: sed -e 's/512, %%ring\[%%slot\] :/512, %%ring[%%slot1] :/' %t.mlir > %t.slot.mlir
// RUN: not apipe-run %t.slot.mlir --entry=bulk_only --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=SLOT
// SLOT-COUNT-6: error: deadlock: thread (0,0,0) of block ({{0|1}},0,0) waits at this 'apipe.mbarrier_wait' and no thread of the block can make progress: it waits for phase 0 (parity 0) of the slot, which has 128 of 128 arrivals and 2048 transaction bytes outstanding
// SLOT-NOT: 8384512
// RUN: sed -e 's/^\( *\)apipe.mbarrier_wait %%ring\[%%ws\], %%parity.*$/\1%%early = memref.load %%buf[%%c0, %%lane] : memref<3x512xf32, 3>\n&/' %t.mlir > %t.early.mlir
// RUN: not apipe-run %t.early.mlir --entry=bulk_only --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY-COUNT-6: error: thread (0,0,0) of block ({{0|1}},0,0) reads shared memory byte {{[0-9]+}} (byte 0 of the workgroup buffer at {{.*}}) that its own asynchronous copy still in flight writes: no wait completes the copy first ('memref.load' and 'apipe.bulk_copy')
// EARLY-NOT: 8384512
// RUN: sed -e '/^ *gpu.barrier  *\/\/ WAR$/d' %t.mlir > %t.war.mlir
// RUN: not apipe-run %t.war.mlir --entry=bulk_only --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=WAR
// WAR-COUNT-6: error: race (WAR) on shared memory byte {{[0-9]+}} (byte {{[0-9]+}} of the workgroup buffer at {{.*}}): thread (0,0,0) of block ({{0|1}},0,0) writes it, and thread (1,0,0) reads it with no gpu.barrier between ('apipe.bulk_copy' and 'memref.load')
// WAR-NOT: 8384512
//
// The broken kernels of check-hazards-mbarrier-invalid.mlir, at the launch
// their mutation is about, fail at run time:
// - @count_one as 4 threads (count 1): under eager completion every
//   arrival lands at issue, 4 phases complete, and the waits for parity 0
//   name phase 4, which never completes (a deadlock, as on hardware when
//   the arrivals beat the waits). Under lazy completion the waits come
//   first and return: the kernel reads nothing, so no value is wrong.
// RUN: not apipe-run %t.mlir --entry=count_one_4 --completion=eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=ONE
// ONE-COUNT-2: error: deadlock: thread ({{[0-3]}},0,0) of block (0,0,0) waits at this 'apipe.mbarrier_wait' and no thread of the block can make progress: it waits for phase 4 (parity 0) of the slot, which has 0 of 1 arrivals
// - @divergent_arrive as 256 threads: threads 128..255 never arrive.
// RUN: not apipe-run %t.mlir --entry=divergent_256 --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=DIVERGENT
// DIVERGENT-COUNT-6: error: deadlock: thread (0,0,0) of block (0,0,0) waits at this 'apipe.mbarrier_wait' and no thread of the block can make progress: it waits for phase 0 (parity 0) of the slot, which has 128 of 256 arrivals
// - @unpublished as 4 threads: no barrier orders thread 0's init of the
//   ring before the other threads' arrives. With the reverse schedule,
//   thread 3 arrives before the init; with the forward schedule thread 0
//   initialises first, and the race checker reports thread 1's arrive (an
//   atomic update of the ring's bytes) against the init (a plain write):
// RUN: not apipe-run %t.mlir --entry=unpublished_4 --schedule=reverse 2>&1 | FileCheck %s --check-prefix=UNPUBLISHED
// UNPUBLISHED: error: 'apipe.mbarrier_arrive_copies' on an mbarrier slot that no 'apipe.mbarrier_init' initialised (thread (3,0,0) of block (0,0,0))
// RUN: not apipe-run %t.mlir --entry=unpublished_4 --schedule=forward --completion=lazy,eager,random:1 2>&1 | FileCheck %s --check-prefix=UNPUBLISHED-FORWARD
// UNPUBLISHED-FORWARD: error: race (WAW) on shared memory byte {{[0-9]+}} (byte 0 of the workgroup buffer at {{.*}}): thread (1,0,0) of block (0,0,0) atomically updates it, and thread (0,0,0) writes it with no gpu.barrier between ('apipe.mbarrier_arrive_copies' and 'apipe.mbarrier_init')
// - @constant_not_block_size as 4 threads (count 2): as @count_one, the
//   arrivals complete phases 0 and 1 under eager completion; the waits
//   then name phase 2.
// RUN: not apipe-run %t.mlir --entry=not_block_size_4 --completion=eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=NOT-BLOCK-SIZE
// NOT-BLOCK-SIZE-COUNT-2: error: deadlock: thread (0,0,0) of block (0,0,0) waits at this 'apipe.mbarrier_wait' and no thread of the block can make progress: it waits for phase 2 (parity 0) of the slot, which has 0 of 2 arrivals
// - @block_dim_x_of_2d as 4 x 2 threads (count 4 for 8 arrivals): thread
//   (x, 1) copies into the bytes of thread (x, 0) (the kernel indexes by
//   thread_id x only): a write-after-write race; without the race checker,
//   eager completion deadlocks as above (the waits name phase 2).
// RUN: not apipe-run %t.mlir --entry=of_2d_4x2 --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=OF-2D
// OF-2D-COUNT-6: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}} ('apipe.copy' and 'apipe.copy')
// RUN: not apipe-run %t.mlir --entry=of_2d_4x2 --no-racecheck --completion=eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=OF-2D-DEADLOCK
// OF-2D-DEADLOCK-COUNT-2: error: deadlock: thread (0,0,0) of block (0,0,0) waits at this 'apipe.mbarrier_wait' and no thread of the block can make progress: it waits for phase 2 (parity 0) of the slot, which has 0 of 4 arrivals
// - @block_dim_x_twice as 4 threads (count 16): phase 0 never completes.
// RUN: not apipe-run %t.mlir --entry=twice_4 --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE-COUNT-6: error: deadlock: thread (0,0,0) of block (0,0,0) waits at this 'apipe.mbarrier_wait' and no thread of the block can make progress: it waits for phase 0 (parity 0) of the slot, which has 4 of 16 arrivals

module attributes {gpu.container_module} {
// @kernel
// @bulk
// @count_one
// @divergent
// @not_block_size
// @of_2d
// @unknown_yz
// @twice
// @times_unknown
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
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %c65536 = arith.constant 65536 : index
    %ad = func.call @input(%c1024) : (index) -> memref<?xf32>
    %a = memref.cast %ad : memref<?xf32> to memref<1024xf32>

    %o1d = func.call @zeros(%c1024) : (index) -> memref<?xf32>
    %o1 = memref.cast %o1d : memref<?xf32> to memref<1024xf32>
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<1024xf32>, %o1 : memref<1024xf32>)
    func.call @report(%o1d) : (memref<?xf32>) -> ()

    %bd = func.call @input(%c65536) : (index) -> memref<?xf32>
    %b = memref.cast %bd : memref<?xf32> to memref<65536xf32>
    %o2d = func.call @zeros(%c65536) : (index) -> memref<?xf32>
    %o2 = memref.cast %o2d : memref<?xf32> to memref<65536xf32>
    gpu.launch_func @bulk::@copy_bw blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%b : memref<65536xf32>, %o2 : memref<65536xf32>)
    func.call @report(%o2d) : (memref<?xf32>) -> ()
    memref.dealloc %bd : memref<?xf32>

    gpu.launch_func @count_one::@count_one blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<1024xf32>)
    gpu.launch_func @divergent::@divergent_arrive blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<1024xf32>)
    gpu.launch_func @unknown_yz::@block_dim_x_unknown_yz blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<1024xf32>)
    gpu.launch_func @times_unknown::@constant_times_unknown blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<1024xf32>)
    memref.dealloc %ad : memref<?xf32>
    return
  }

  // The bulk kernel alone (its mutants below run this entry).
  func.func @bulk_only() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %c65536 = arith.constant 65536 : index
    %bd = func.call @input(%c65536) : (index) -> memref<?xf32>
    %b = memref.cast %bd : memref<?xf32> to memref<65536xf32>
    %od = func.call @zeros(%c65536) : (index) -> memref<?xf32>
    %o = memref.cast %od : memref<?xf32> to memref<65536xf32>
    gpu.launch_func @bulk::@copy_bw blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%b : memref<65536xf32>, %o : memref<65536xf32>)
    func.call @report(%od) : (memref<?xf32>) -> ()
    memref.dealloc %bd : memref<?xf32>
    return
  }

  // The broken launches, one per entry below.
  func.func @broken(%which: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %ad = func.call @input(%c1024) : (index) -> memref<?xf32>
    %a = memref.cast %ad : memref<?xf32> to memref<1024xf32>
    scf.index_switch %which
    case 0 {
      gpu.launch_func @count_one::@count_one blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<1024xf32>)
      scf.yield
    }
    case 1 {
      gpu.launch_func @divergent::@divergent_arrive blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<1024xf32>)
      scf.yield
    }
    case 2 {
      gpu.launch_func @divergent::@unpublished blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<1024xf32>)
      scf.yield
    }
    case 3 {
      gpu.launch_func @not_block_size::@constant_not_block_size blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<1024xf32>)
      scf.yield
    }
    case 4 {
      gpu.launch_func @of_2d::@block_dim_x_of_2d blocks in (%c1, %c1, %c1) threads in (%c4, %c2, %c1) args(%a : memref<1024xf32>)
      scf.yield
    }
    case 5 {
      gpu.launch_func @twice::@block_dim_x_twice blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<1024xf32>)
      scf.yield
    }
    default {
    }
    memref.dealloc %ad : memref<?xf32>
    return
  }
  func.func @count_one_4() {
    %c = arith.constant 0 : index
    func.call @broken(%c) : (index) -> ()
    return
  }
  func.func @divergent_256() {
    %c = arith.constant 1 : index
    func.call @broken(%c) : (index) -> ()
    return
  }
  func.func @unpublished_4() {
    %c = arith.constant 2 : index
    func.call @broken(%c) : (index) -> ()
    return
  }
  func.func @not_block_size_4() {
    %c = arith.constant 3 : index
    func.call @broken(%c) : (index) -> ()
    return
  }
  func.func @of_2d_4x2() {
    %c = arith.constant 4 : index
    func.call @broken(%c) : (index) -> ()
    return
  }
  func.func @twice_4() {
    %c = arith.constant 5 : index
    func.call @broken(%c) : (index) -> ()
    return
  }
}
