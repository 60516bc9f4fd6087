// apipe-check-hazards on the mbarrier form after a prologue written as an
// scf.for of constant trip count (2 groups), followed by a loop that
// arrives before it waits (CUTLASS order) on a ring of 4 slots. The
// prologue's exit is after its last iteration: the ring's count is exactly
// 2 there and the oldest group not known complete is the one before the
// prologue, so the main loop's arrives reuse slots whose groups were waited
// for, and a waited count that starts as the constant 0 names group 0.
// (A fresh-user trial found both reported as "reuses its slot too early"
// and "can deadlock": the fixed point's widening lost them.)
//   @prologue_loop:  the waited count is carried as `count - 2` (correct);
//   @constant_count: it starts as the constant 0 (correct);
//   @no_wait:        the main loop's wait removed (broken: every arrive
//                    reuses a slot too early and the reads race).
// The checker and apipe-run agree, and the correct kernels print what
// make-sync prints in every mode.
//
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: apipe-run %s --entry=main --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=MODES --implicit-check-not=error
// RUN: not apipe-run %s --entry=no_wait --completion=lazy,eager,random:1 2>&1 | FileCheck %s --check-prefix=BROKEN
// SYNC-COUNT-2: ( 66, 72, 78, 60 )
// MODES-COUNT-12: ( 66, 72, 78, 60 )
// BROKEN-COUNT-3: error: the kernel has races (see above)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @prologue_loop(%A: memref<64xi32>, %out: memref<64xi32>, %n: index)
        workgroup(%buf: memref<3x4xi32, 3>, %ring: memref<4xi64, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %cK = arith.constant 4 : index
      %cKm1 = arith.constant 3 : index
      %false = arith.constant false
      %true = arith.constant true
      %m1 = arith.constant -1 : i32
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %threads = arith.muli %bxy, %bz : index
      %first = arith.cmpi eq, %tid, %c0 : index
      %tnext = arith.addi %tid, %c1 : index
      %nb = arith.remui %tnext, %threads : index
      %cS = arith.constant 3 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %threads : memref<4xi64, 3>
      }
      gpu.barrier
      %pc = scf.for %p = %c0 to %c2 step %c1 iter_args(%cnt0 = %c0) -> (index) {
        %pb = arith.muli %p, %c4 : index
        %psrc = arith.addi %pb, %tid : index
        %svp = memref.subview %buf[%p, 0] [1, 4] [1, 1] : memref<3x4xi32, 3> to memref<4xi32, strided<[1], offset: ?>, 3>
        apipe.copy %A[%psrc], %svp[%tid], 1 : memref<64xi32> to memref<4xi32, strided<[1], offset: ?>, 3>
        %pslot = arith.andi %cnt0, %cKm1 : index
        apipe.mbarrier_arrive_copies %ring[%pslot] : memref<4xi64, 3>
        %pn = arith.addi %cnt0, %c1 : index
        scf.yield %pn : index
      }
      %g0 = arith.subi %pc, %c2 : index
      %g10 = arith.subi %pc, %c1 : index
      %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%cnt = %pc, %g = %g0, %g1 = %g10) -> (index, index, index) {
        %ip = arith.addi %i, %c2 : index
        %v = arith.remui %ip, %cS : index
        %vb = arith.muli %v, %c4 : index
        %dst = arith.addi %vb, %tid : index
        %sb = arith.muli %ip, %c4 : index
        %src = arith.addi %sb, %tid : index
        %svw = memref.subview %buf[%v, 0] [1, 4] [1, 1] : memref<3x4xi32, 3> to memref<4xi32, strided<[1], offset: ?>, 3>
        apipe.copy %A[%src], %svw[%tid], 1 : memref<64xi32> to memref<4xi32, strided<[1], offset: ?>, 3>
        %slot = arith.andi %cnt, %cKm1 : index
        apipe.mbarrier_arrive_copies %ring[%slot] : memref<4xi64, 3>
        %ws = arith.andi %g, %cKm1 : index
        %wb = arith.andi %g, %cK : index
        %wp = arith.cmpi ne, %wb, %c0 : index
        apipe.mbarrier_wait %ring[%ws], %wp : memref<4xi64, 3>
        %rv = arith.remui %i, %cS : index
        %rb = arith.muli %rv, %c4 : index
        %ri = arith.addi %rb, %nb : index
        %svr = memref.subview %buf[%rv, 0] [1, 4] [1, 1] : memref<3x4xi32, 3> to memref<4xi32, strided<[1], offset: ?>, 3>
        %x = memref.load %svr[%nb] : memref<4xi32, strided<[1], offset: ?>, 3>
        %o = memref.load %out[%tid] : memref<64xi32>
        %s = arith.addi %x, %o : i32
        memref.store %s, %out[%tid] : memref<64xi32>
        gpu.barrier
        %c = arith.addi %cnt, %c1 : index
        scf.yield %c, %g1, %cnt : index, index, index
      }
      %last = arith.subi %r#0, %c1 : index
      %ls = arith.andi %last, %cKm1 : index
      %lb = arith.andi %last, %cK : index
      %lp = arith.cmpi ne, %lb, %c0 : index
      apipe.mbarrier_wait %ring[%ls], %lp : memref<4xi64, 3>
      gpu.return
    }
    gpu.func @constant_count(%A: memref<64xi32>, %out: memref<64xi32>, %n: index)
        workgroup(%buf: memref<3x4xi32, 3>, %ring: memref<4xi64, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %cK = arith.constant 4 : index
      %cKm1 = arith.constant 3 : index
      %false = arith.constant false
      %true = arith.constant true
      %m1 = arith.constant -1 : i32
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %threads = arith.muli %bxy, %bz : index
      %first = arith.cmpi eq, %tid, %c0 : index
      %tnext = arith.addi %tid, %c1 : index
      %nb = arith.remui %tnext, %threads : index
      %cS = arith.constant 3 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %threads : memref<4xi64, 3>
      }
      gpu.barrier
      %pc = scf.for %p = %c0 to %c2 step %c1 iter_args(%cnt0 = %c0) -> (index) {
        %pb = arith.muli %p, %c4 : index
        %psrc = arith.addi %pb, %tid : index
        %svp = memref.subview %buf[%p, 0] [1, 4] [1, 1] : memref<3x4xi32, 3> to memref<4xi32, strided<[1], offset: ?>, 3>
        apipe.copy %A[%psrc], %svp[%tid], 1 : memref<64xi32> to memref<4xi32, strided<[1], offset: ?>, 3>
        %pslot = arith.andi %cnt0, %cKm1 : index
        apipe.mbarrier_arrive_copies %ring[%pslot] : memref<4xi64, 3>
        %pn = arith.addi %cnt0, %c1 : index
        scf.yield %pn : index
      }
      %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%cnt = %pc, %g = %c0) -> (index, index) {
        %ip = arith.addi %i, %c2 : index
        %v = arith.remui %ip, %cS : index
        %vb = arith.muli %v, %c4 : index
        %dst = arith.addi %vb, %tid : index
        %sb = arith.muli %ip, %c4 : index
        %src = arith.addi %sb, %tid : index
        %svw = memref.subview %buf[%v, 0] [1, 4] [1, 1] : memref<3x4xi32, 3> to memref<4xi32, strided<[1], offset: ?>, 3>
        apipe.copy %A[%src], %svw[%tid], 1 : memref<64xi32> to memref<4xi32, strided<[1], offset: ?>, 3>
        %slot = arith.andi %cnt, %cKm1 : index
        apipe.mbarrier_arrive_copies %ring[%slot] : memref<4xi64, 3>
        %ws = arith.andi %g, %cKm1 : index
        %wb = arith.andi %g, %cK : index
        %wp = arith.cmpi ne, %wb, %c0 : index
        apipe.mbarrier_wait %ring[%ws], %wp : memref<4xi64, 3>
        %rv = arith.remui %i, %cS : index
        %rb = arith.muli %rv, %c4 : index
        %ri = arith.addi %rb, %nb : index
        %svr = memref.subview %buf[%rv, 0] [1, 4] [1, 1] : memref<3x4xi32, 3> to memref<4xi32, strided<[1], offset: ?>, 3>
        %x = memref.load %svr[%nb] : memref<4xi32, strided<[1], offset: ?>, 3>
        %o = memref.load %out[%tid] : memref<64xi32>
        %s = arith.addi %x, %o : i32
        memref.store %s, %out[%tid] : memref<64xi32>
        gpu.barrier
        %c = arith.addi %cnt, %c1 : index
        %gn = arith.addi %g, %c1 : index
        scf.yield %c, %gn : index, index
      }
      %last = arith.subi %r#0, %c1 : index
      %ls = arith.andi %last, %cKm1 : index
      %lb = arith.andi %last, %cK : index
      %lp = arith.cmpi ne, %lb, %c0 : index
      apipe.mbarrier_wait %ring[%ls], %lp : memref<4xi64, 3>
      gpu.return
    }
    gpu.func @no_wait(%A: memref<64xi32>, %out: memref<64xi32>, %n: index)
        workgroup(%buf: memref<3x4xi32, 3>, %ring: memref<4xi64, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %cK = arith.constant 4 : index
      %cKm1 = arith.constant 3 : index
      %false = arith.constant false
      %true = arith.constant true
      %m1 = arith.constant -1 : i32
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %threads = arith.muli %bxy, %bz : index
      %first = arith.cmpi eq, %tid, %c0 : index
      %tnext = arith.addi %tid, %c1 : index
      %nb = arith.remui %tnext, %threads : index
      %cS = arith.constant 3 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %threads : memref<4xi64, 3>
      }
      gpu.barrier
      %pc = scf.for %p = %c0 to %c2 step %c1 iter_args(%cnt0 = %c0) -> (index) {
        %pb = arith.muli %p, %c4 : index
        %psrc = arith.addi %pb, %tid : index
        %svp = memref.subview %buf[%p, 0] [1, 4] [1, 1] : memref<3x4xi32, 3> to memref<4xi32, strided<[1], offset: ?>, 3>
        apipe.copy %A[%psrc], %svp[%tid], 1 : memref<64xi32> to memref<4xi32, strided<[1], offset: ?>, 3>
        %pslot = arith.andi %cnt0, %cKm1 : index
        apipe.mbarrier_arrive_copies %ring[%pslot] : memref<4xi64, 3>
        %pn = arith.addi %cnt0, %c1 : index
        scf.yield %pn : index
      }
      %g0 = arith.subi %pc, %c2 : index
      %g10 = arith.subi %pc, %c1 : index
      %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%cnt = %pc, %g = %g0, %g1 = %g10) -> (index, index, index) {
        %ip = arith.addi %i, %c2 : index
        %v = arith.remui %ip, %cS : index
        %vb = arith.muli %v, %c4 : index
        %dst = arith.addi %vb, %tid : index
        %sb = arith.muli %ip, %c4 : index
        %src = arith.addi %sb, %tid : index
        %svw = memref.subview %buf[%v, 0] [1, 4] [1, 1] : memref<3x4xi32, 3> to memref<4xi32, strided<[1], offset: ?>, 3>
        // CHECK-DAG: check-hazards-mbarrier-prologue-loop-run.mlir:[[# @LINE + 1]]:9: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing
        apipe.copy %A[%src], %svw[%tid], 1 : memref<64xi32> to memref<4xi32, strided<[1], offset: ?>, 3>
        %slot = arith.andi %cnt, %cKm1 : index
        // CHECK-DAG: check-hazards-mbarrier-prologue-loop-run.mlir:[[# @LINE + 1]]:9: error: 'apipe.mbarrier_arrive_copies' op reuses its slot too early: on some path the slot's previous group (4 groups back) may not be complete in this thread
        apipe.mbarrier_arrive_copies %ring[%slot] : memref<4xi64, 3>
        %ws = arith.andi %g, %cKm1 : index
        %wb = arith.andi %g, %cK : index
        %wp = arith.cmpi ne, %wb, %c0 : index
        %rv = arith.remui %i, %cS : index
        %rb = arith.muli %rv, %c4 : index
        %ri = arith.addi %rb, %nb : index
        %svr = memref.subview %buf[%rv, 0] [1, 4] [1, 1] : memref<3x4xi32, 3> to memref<4xi32, strided<[1], offset: ?>, 3>
        // CHECK-DAG: check-hazards-mbarrier-prologue-loop-run.mlir:[[# @LINE + 1]]:14: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
        %x = memref.load %svr[%nb] : memref<4xi32, strided<[1], offset: ?>, 3>
        %o = memref.load %out[%tid] : memref<64xi32>
        %s = arith.addi %x, %o : i32
        memref.store %s, %out[%tid] : memref<64xi32>
        gpu.barrier
        %c = arith.addi %cnt, %c1 : index
        scf.yield %c, %g1, %cnt : index, index, index
      }
      %last = arith.subi %r#0, %c1 : index
      %ls = arith.andi %last, %cKm1 : index
      %lb = arith.andi %last, %cK : index
      %lp = arith.cmpi ne, %lb, %c0 : index
      apipe.mbarrier_wait %ring[%ls], %lp : memref<4xi64, 3>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @launch(%kernel: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c64 = arith.constant 64 : index
    %z = arith.constant 0 : i32
    %A = memref.alloc() : memref<64xi32>
    %out = memref.alloc() : memref<64xi32>
    scf.for %i = %c0 to %c64 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %A[%i] : memref<64xi32>
      memref.store %z, %out[%i] : memref<64xi32>
    }
    scf.index_switch %kernel
    case 0 {
      gpu.launch_func @kernels::@prologue_loop blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<64xi32>, %out : memref<64xi32>, %c6 : index)
      scf.yield
    }
    case 1 {
      gpu.launch_func @kernels::@constant_count blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<64xi32>, %out : memref<64xi32>, %c6 : index)
      scf.yield
    }
    default {
      gpu.launch_func @kernels::@no_wait blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<64xi32>, %out : memref<64xi32>, %c6 : index)
    }
    %v = vector.transfer_read %out[%c0], %z {in_bounds = [true]} : memref<64xi32>, vector<4xi32>
    vector.print %v : vector<4xi32>
    memref.dealloc %A : memref<64xi32>
    memref.dealloc %out : memref<64xi32>
    return
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    func.call @launch(%c0) : (index) -> ()
    func.call @launch(%c1) : (index) -> ()
    return
  }
  func.func @no_wait() {
    %c2 = arith.constant 2 : index
    func.call @launch(%c2) : (index) -> ()
    return
  }
}
