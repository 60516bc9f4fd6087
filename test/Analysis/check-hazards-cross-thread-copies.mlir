// The correct twins of check-hazards-cross-thread-copies-invalid.mlir:
// every thread of the block copies into bytes no other thread's copy or
// access touches before a wait and a gpu.barrier order them: disjoint
// per-thread tiles (%buf[%tid * 4], 4 elements), a copy of one thread only
// (scf.if %tid == 0, also in a loop), two rounds of copies into the same
// tiles ordered by wait + gpu.barrier, versions of a double buffer per
// thread, a thread's own store before its copy, a shared source written
// before a barrier, in counting, token and mbarrier form and in a gpu.launch
// body; and every thread copying the same values into the same bytes.
// apipe-check-hazards is silent on them, and apipe-run (race checker on,
// but for the equal values) prints what their synchronous version prints in
// every completion mode and thread order.
// RUN: apipe-opt %s --apipe-check-hazards | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:
// CHECK: gpu.module @kernels
// RUN: apipe-run %s --completion=lazy,eager,random:1 --schedule=forward,reverse > %t.out
// RUN: grep -c "apipe-run: completion=" %t.out | FileCheck %s --check-prefix=MODES
// MODES: {{^}}6{{$}}
// RUN: grep -v -e Unranked -e "apipe-run: completion=" %t.out > %t.values
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync6
// RUN: diff %t.sync6 %t.values
// VALUES: {{^}}[4,  8,  12,  0]
// VALUES-NEXT: {{^}}[4,  5,  6,  7]
// VALUES-NEXT: {{^}}[12,  0,  4,  8]
// VALUES-NEXT: {{^}}[24,  28,  32,  36]
// VALUES-NEXT: {{^}}[28,  32,  36,  24]
// VALUES-NEXT: {{^}}[4,  8,  12,  0]
// VALUES-NEXT: {{^}}[0,  4,  8,  12]
// VALUES-NEXT: {{^}}[10,  7,  8,  9]
// VALUES-NEXT: {{^}}[4,  8,  12,  0]
// VALUES-NEXT: {{^}}[4,  8,  12,  0]
// VALUES-NEXT: {{^}}[4,  8,  12,  0]
// VALUES-NOT: [
// RUN: apipe-run %s --entry=main_same_values --no-racecheck --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e Unranked -e "apipe-run: completion=" > %t.same
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main_same_values --no-racecheck | grep -v Unranked > %t.same.sync
// RUN: FileCheck %s --check-prefix=SAME < %t.same.sync
// SAME: {{^}}[4,  5,  6,  7]
// RUN: cat %t.same.sync %t.same.sync %t.same.sync %t.same.sync %t.same.sync %t.same.sync | diff - %t.same

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Each thread copies its own tile of 4 and reads its neighbour's after the
    // wait and the barrier.
    gpu.func @own_tile(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %own = arith.muli %tid, %c4 : index
      %next = arith.muli %nb, %c4 : index
      apipe.copy %A[%own], %buf[%own], 4 : memref<16xf32> to memref<16xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%next] : memref<16xf32, 3>
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }

    // Thread 0 alone copies the tile every thread reads.
    gpu.func @one_thread(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %own = arith.muli %tid, %c4 : index
      %next = arith.muli %nb, %c4 : index
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.copy %A[%c4], %buf[%c0], 4 : memref<16xf32> to memref<16xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tid] : memref<16xf32, 3>
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }

    // Each thread copies its own tile, then (after wait + barrier) its
    // neighbour's tile: the two rounds meet, ordered.
    gpu.func @ordered_rounds(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %own = arith.muli %tid, %c4 : index
      %next = arith.muli %nb, %c4 : index
      apipe.copy %A[%own], %buf[%own], 4 : memref<16xf32> to memref<16xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      apipe.copy %A[%own], %buf[%next], 4 : memref<16xf32> to memref<16xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%own] : memref<16xf32, 3>
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }

    // In every iteration thread 0 copies a tile that every thread reads;
    // a barrier after the reads orders them before the next copy.
    gpu.func @one_thread_in_loop(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %own = arith.muli %tid, %c4 : index
      %next = arith.muli %nb, %c4 : index
      %z = arith.constant 0.0 : f32
      %x = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) {
        %i4 = arith.muli %i, %c4 : index
        %first = arith.cmpi eq, %tid, %c0 : index
        scf.if %first {
          apipe.copy %A[%i4], %buf[%c0], 4 : memref<16xf32> to memref<16xf32, 3>
        }
        apipe.commit_group
        apipe.wait_group 0
        gpu.barrier
        %v = memref.load %buf[%tid] : memref<16xf32, 3>
        %s = arith.addf %acc, %v : f32
        gpu.barrier
        scf.yield %s : f32
      }
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }

    // A double buffer per thread (version i mod 2 of the thread's element),
    // each read by the neighbour after wait + barrier; the next
    // iteration's barrier orders that read before the version is reused.
    gpu.func @versions(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %own = arith.muli %tid, %c4 : index
      %next = arith.muli %nb, %c4 : index
      %z = arith.constant 0.0 : f32
      %x = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) {
        %v2 = arith.remui %i, %c2 : index
        %v4 = arith.muli %v2, %c4 : index
        %mine = arith.addi %v4, %tid : index
        %theirs = arith.addi %v4, %nb : index
        %i4 = arith.muli %i, %c4 : index
        %at = arith.addi %i4, %tid : index
        apipe.copy %A[%at], %buf[%mine], 1 : memref<16xf32> to memref<16xf32, 3>
        apipe.commit_group
        apipe.wait_group 0
        gpu.barrier
        %v = memref.load %buf[%theirs] : memref<16xf32, 3>
        %s = arith.addf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }

    // A thread's store into its own tile, then its copy over it.
    gpu.func @own_store_then_copy(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %own = arith.muli %tid, %c4 : index
      %next = arith.muli %nb, %c4 : index
      memref.store %f7, %buf[%own] : memref<16xf32, 3>
      apipe.copy %A[%own], %buf[%own], 4 : memref<16xf32> to memref<16xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%next] : memref<16xf32, 3>
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }

    // A copy from shared memory that the neighbour wrote before a barrier.
    gpu.func @shared_source(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %own = arith.muli %tid, %c4 : index
      %next = arith.muli %nb, %c4 : index
      %y = memref.load %A[%own] : memref<16xf32>
      memref.store %y, %buf[%nb] : memref<16xf32, 3>
      gpu.barrier
      apipe.copy %buf[%tid], %buf2[%tid], 1 : memref<16xf32, 3> to memref<16xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf2[%nb] : memref<16xf32, 3>
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }

    // Each thread overwrites its neighbour's element after wait + barrier,
    // then reads its own after another barrier.
    gpu.func @store_after_barrier(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %own = arith.muli %tid, %c4 : index
      %next = arith.muli %nb, %c4 : index
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<16xf32> to memref<16xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %y = memref.load %buf[%tid] : memref<16xf32, 3>
      %y7 = arith.addf %y, %f7 : f32
      gpu.barrier
      memref.store %y7, %buf[%nb] : memref<16xf32, 3>
      gpu.barrier
      %x = memref.load %buf[%tid] : memref<16xf32, 3>
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }

    // Token form: own tiles.
    gpu.func @token_form(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %own = arith.muli %tid, %c4 : index
      %next = arith.muli %nb, %c4 : index
      apipe.copy %A[%own], %buf[%own], 4 : memref<16xf32> to memref<16xf32, 3>
      %t = apipe.commit_group
      apipe.wait %t
      gpu.barrier
      %x = memref.load %buf[%next] : memref<16xf32, 3>
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }

    // mbarrier form: own tiles, read by the neighbour after the phase.
    gpu.func @mbarrier_form(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %ring: memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %own = arith.muli %tid, %c4 : index
      %next = arith.muli %nb, %c4 : index
      %false = arith.constant false
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %c4 : memref<2xi64, 3>
      }
      gpu.barrier
      apipe.copy %A[%own], %buf[%own], 4 : memref<16xf32> to memref<16xf32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
      %x = memref.load %buf[%next] : memref<16xf32, 3>
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }

    // Every thread copies the same tile A[4 .. 8] into buf[0 .. 4] (as the
    // pipeliner emits for a copy that does not depend on the thread): the
    // threads write equal values, so the content does not depend on which
    // lands last, and the checker is silent. apipe-run's race checker
    // reports the pair (write-after-write of equal values), so this one
    // runs with it off.
    gpu.func @same_values(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      apipe.copy %A[%c4], %buf[%c0], 4 : memref<16xf32> to memref<16xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tid] : memref<16xf32, 3>
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @inputs() -> (memref<16xf32>, memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %z = arith.constant 0.0 : f32
    %A = memref.alloc() : memref<16xf32>
    %out = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<16xf32>
    }
    linalg.fill ins(%z : f32) outs(%out : memref<4xf32>)
    return %A, %out : memref<16xf32>, memref<4xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A_own_tile, %out_own_tile = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@own_tile blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A_own_tile : memref<16xf32>, %out_own_tile : memref<4xf32>)
    %u_own_tile = memref.cast %out_own_tile : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u_own_tile) : (memref<*xf32>) -> ()
    %A_one_thread, %out_one_thread = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@one_thread blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A_one_thread : memref<16xf32>, %out_one_thread : memref<4xf32>)
    %u_one_thread = memref.cast %out_one_thread : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u_one_thread) : (memref<*xf32>) -> ()
    %A_ordered_rounds, %out_ordered_rounds = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@ordered_rounds blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A_ordered_rounds : memref<16xf32>, %out_ordered_rounds : memref<4xf32>)
    %u_ordered_rounds = memref.cast %out_ordered_rounds : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u_ordered_rounds) : (memref<*xf32>) -> ()
    %A_one_thread_in_loop, %out_one_thread_in_loop = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@one_thread_in_loop blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A_one_thread_in_loop : memref<16xf32>, %out_one_thread_in_loop : memref<4xf32>)
    %u_one_thread_in_loop = memref.cast %out_one_thread_in_loop : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u_one_thread_in_loop) : (memref<*xf32>) -> ()
    %A_versions, %out_versions = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@versions blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A_versions : memref<16xf32>, %out_versions : memref<4xf32>)
    %u_versions = memref.cast %out_versions : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u_versions) : (memref<*xf32>) -> ()
    %A_own_store_then_copy, %out_own_store_then_copy = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@own_store_then_copy blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A_own_store_then_copy : memref<16xf32>, %out_own_store_then_copy : memref<4xf32>)
    %u_own_store_then_copy = memref.cast %out_own_store_then_copy : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u_own_store_then_copy) : (memref<*xf32>) -> ()
    %A_shared_source, %out_shared_source = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@shared_source blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A_shared_source : memref<16xf32>, %out_shared_source : memref<4xf32>)
    %u_shared_source = memref.cast %out_shared_source : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u_shared_source) : (memref<*xf32>) -> ()
    %A_store_after_barrier, %out_store_after_barrier = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@store_after_barrier blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A_store_after_barrier : memref<16xf32>, %out_store_after_barrier : memref<4xf32>)
    %u_store_after_barrier = memref.cast %out_store_after_barrier : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u_store_after_barrier) : (memref<*xf32>) -> ()
    %A_token_form, %out_token_form = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@token_form blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A_token_form : memref<16xf32>, %out_token_form : memref<4xf32>)
    %u_token_form = memref.cast %out_token_form : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u_token_form) : (memref<*xf32>) -> ()
    %A_mbarrier_form, %out_mbarrier_form = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@mbarrier_form blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A_mbarrier_form : memref<16xf32>, %out_mbarrier_form : memref<4xf32>)
    %u_mbarrier_form = memref.cast %out_mbarrier_form : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u_mbarrier_form) : (memref<*xf32>) -> ()
    // gpu.launch with constant sizes: own tiles.
    %A_l, %out_l = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) workgroup(%buf : memref<16xf32, 3>) {
      %own = arith.muli %tx, %c4 : index
      %t1 = arith.addi %tx, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %next = arith.muli %nb, %c4 : index
      apipe.copy %A_l[%own], %buf[%own], 4 : memref<16xf32> to memref<16xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%next] : memref<16xf32, 3>
      memref.store %x, %out_l[%tx] : memref<4xf32>
      gpu.terminator
    }
    %u_l = memref.cast %out_l : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u_l) : (memref<*xf32>) -> ()
    return
  }

  func.func @main_same_values() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@same_values blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xf32>, %out : memref<4xf32>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
