// apipe-check-hazards, mbarrier form with several rings: one count value may
// count the groups of two rings (`%c0` before the first group of each, as
// apipe-tokens-to-mbarrier emits after CSE). Each ring's arrive names its
// copies with the value under its own ring, so a wait on one ring's group
// completes what that ring's arrives named and nothing that an equal count
// of the other ring named. Before, such a value named no group at all: a
// loop with two queues whose queue 0 commits under an scf.if got a false
// read-after-write on queue 1 after tokens-to-mbarrier (trial 72), on the
// host and in a kernel, while every completion mode ran as make-sync.
// Hand-written programs in this form are in
// check-hazards-mbarrier-shared-count-rings.mlir.
// RUN: apipe-opt %s --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier | FileCheck %s --check-prefix=FORM
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier -o %t.mbarrier.mlir
// RUN: apipe-opt %t.mbarrier.mlir --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-select-sync | apipe-opt - --apipe-check-hazards -o /dev/null
// RUN: apipe-run %t.mbarrier.mlir --completion=lazy,eager,random:1,random:2,random:3 | grep -v -e Unranked -e "apipe-run: completion=" > %t.values
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync5
// RUN: diff %t.sync5 %t.values

module attributes {gpu.container_module} {
  // The first arrives of both rings take their slot from the same `%c0`.
  // FORM-LABEL: func.func @conditional_queue_0(
  // FORM: %[[C0:.*]] = arith.constant 0 : index
  // FORM: %[[S1:.*]] = arith.andi %[[C0]], %{{.*}} : index
  // FORM: apipe.mbarrier_arrive_copies %[[R1:.*]][%[[S1]]]
  // FORM: %[[S0:.*]] = arith.andi %[[C0]], %{{.*}} : index
  // FORM: apipe.mbarrier_arrive_copies %[[R0:.*]][%[[S0]]]
  // FORM: scf.for {{.*}} iter_args(%{{.*}} = %[[C0]], %{{.*}} = %[[C0]],
  func.func @conditional_queue_0(%A: memref<16xf32>, %out: memref<4xf32>, %ba: memref<16xf32>, %bb: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    apipe.copy %A[%c0], %bb[%c0], 1 queue 1 : memref<16xf32> to memref<16xf32>
    %u0 = apipe.commit_group queue 1
    apipe.copy %A[%c0], %ba[%c0], 1 : memref<16xf32> to memref<16xf32>
    %r0 = apipe.commit_group
    %res:2 = scf.for %j = %c1 to %c4 step %c1 iter_args(%pt = %r0, %pu = %u0) -> (!apipe.token, !apipe.token) {
      %even = arith.remui %j, %c2 : index
      %ise = arith.cmpi eq, %even, %c0 : index
      %tn = scf.if %ise -> (!apipe.token) {
        apipe.copy %A[%j], %ba[%j], 1 : memref<16xf32> to memref<16xf32>
        %t = apipe.commit_group
        scf.yield %t : !apipe.token
      } else {
        scf.yield %pt : !apipe.token
      }
      apipe.copy %A[%j], %bb[%j], 1 queue 1 : memref<16xf32> to memref<16xf32>
      %un = apipe.commit_group queue 1
      // Queue 1's previous group: the copy of bb[j - 1].
      apipe.wait %pu
      %jm = arith.subi %j, %c1 : index
      %y = memref.load %bb[%jm] : memref<16xf32>
      memref.store %y, %out[%jm] : memref<4xf32>
      scf.yield %tn, %un : !apipe.token, !apipe.token
    }
    apipe.wait %res#0, %res#1
    %y = memref.load %bb[%c3] : memref<16xf32>
    memref.store %y, %out[%c3] : memref<4xf32>
    %x = memref.load %ba[%c2] : memref<16xf32>
    memref.store %x, %out[%c0] : memref<4xf32>
    return
  }

  // The same in a kernel: each thread reads the element another thread
  // copied, behind the barrier after its wait.
  gpu.module @kernels {
    gpu.func @conditional_queue_0_kernel(%A: memref<64xf32>, %out: memref<16xf32>) workgroup(%ba: memref<16xf32, 3>, %bb: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      %t4 = arith.addi %tid, %c4 : index
      apipe.copy %A[%tid], %bb[%tid], 1 queue 1 : memref<64xf32> to memref<16xf32, 3>
      %u0 = apipe.commit_group queue 1
      apipe.copy %A[%t4], %ba[%tid], 1 : memref<64xf32> to memref<16xf32, 3>
      %r0 = apipe.commit_group
      %res:2 = scf.for %j = %c1 to %c4 step %c1 iter_args(%pt = %r0, %pu = %u0) -> (!apipe.token, !apipe.token) {
        %even = arith.remui %j, %c2 : index
        %ise = arith.cmpi eq, %even, %c0 : index
        %jb = arith.muli %j, %c4 : index
        %di = arith.addi %jb, %tid : index
        %si = arith.addi %di, %c4 : index
        %tn = scf.if %ise -> (!apipe.token) {
          apipe.copy %A[%si], %ba[%di], 1 : memref<64xf32> to memref<16xf32, 3>
          %t = apipe.commit_group
          scf.yield %t : !apipe.token
        } else {
          scf.yield %pt : !apipe.token
        }
        apipe.copy %A[%di], %bb[%di], 1 queue 1 : memref<64xf32> to memref<16xf32, 3>
        %un = apipe.commit_group queue 1
        apipe.wait %pu
        gpu.barrier
        %jm = arith.subi %j, %c1 : index
        %pb = arith.muli %jm, %c4 : index
        %ri = arith.subi %c3, %tid : index
        %rj = arith.addi %pb, %ri : index
        %y = memref.load %bb[%rj] : memref<16xf32, 3>
        %oi = arith.addi %pb, %tid : index
        memref.store %y, %out[%oi] : memref<16xf32>
        scf.yield %tn, %un : !apipe.token, !apipe.token
      }
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %one = arith.constant 1.0 : f32
    %A = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      memref.store %f, %A[%i] : memref<64xf32>
    }
    %A16 = memref.subview %A[0] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1]>>
    %A16c = memref.alloc() : memref<16xf32>
    memref.copy %A16, %A16c : memref<16xf32, strided<[1]>> to memref<16xf32>
    %ba = memref.alloc() : memref<16xf32>
    %bb = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      memref.store %one, %ba[%i] : memref<16xf32>
      memref.store %one, %bb[%i] : memref<16xf32>
    }
    %host = memref.alloc() : memref<4xf32>
    func.call @conditional_queue_0(%A16c, %host, %ba, %bb) : (memref<16xf32>, memref<4xf32>, memref<16xf32>, memref<16xf32>) -> ()
    %h = memref.cast %host : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%h) : (memref<*xf32>) -> ()
    %out = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      memref.store %one, %out[%i] : memref<16xf32>
    }
    gpu.launch_func @kernels::@conditional_queue_0_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<64xf32>, %out : memref<16xf32>)
    %k = memref.cast %out : memref<16xf32> to memref<*xf32>
    func.call @printMemrefF32(%k) : (memref<*xf32>) -> ()
    return
  }
}
// The host function's loop reads bb[0..2] (copies of A[0..2]), then bb[3];
// its last store is ba[2] (A[2]) into out[0]. Each thread of the kernel
// reads bb[4(j-1) + 3 - tid] = A[4(j-1) + 3 - tid] into out[4(j-1) + tid].
// VALUES: [2,  1,  2,  3]
// VALUES: [3,  2,  1,  0,  7,  6,  5,  4,  11,  10,  9,  8,  1,  1,  1,  1]
