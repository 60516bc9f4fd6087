// Loops whose copies no op of the loop reads: the ops after the loop read
// them. The schedule waits only before readers, so the pipeliner completes
// those groups after the emitted code (`wait_group 0` on the stage's queue;
// with sync=tokens an empty group and a wait on it), and in a gpu.func
// whose loop held a gpu.barrier, a gpu.barrier follows. Before, the waits
// were dropped and the reads after the loop saw copies in flight.
// Each pipelined program prints what apipe-make-sync of the input prints,
// in lazy, eager and random completion, and passes apipe-check-hazards.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=random:1 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=random:2 --schedule=reverse | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | apipe-run - --completion=random:3 | FileCheck %s
// The token form's drain (an empty group and its wait) through the
// mbarrier conversion:
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | apipe-opt --apipe-tokens-to-mbarrier | apipe-run - --completion=random:4 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | apipe-opt --apipe-tokens-to-mbarrier | apipe-opt --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-opt --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | apipe-opt --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | FileCheck %s --check-prefix=COUNTING
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | FileCheck %s --check-prefix=TOKENS

// CHECK: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  1,  2,  3,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  -1,  -1,  -1,  -1]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [-1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [3,  4,  5,  6,  9,  10,  11,  12,  15,  16,  17,  18,  -1,  -1,  -1,  -1]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  3,  6,  9,  12,  15,  18,  21]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  3,  6,  9,  12,  15,  18,  21]

module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)

  // The input's own synchronous form: copy, commit, wait 0.
  // COUNTING-LABEL: func.func @sync_form
  // COUNTING: scf.for
  // COUNTING-NEXT: arith.muli
  // COUNTING-NEXT: apipe.copy
  // COUNTING-NEXT: apipe.commit_group queue 0
  // COUNTING-NEXT: }
  // COUNTING-NEXT: apipe.wait_group 0
  // COUNTING-NEXT: memref.copy
  // TOKENS-LABEL: func.func @sync_form
  // TOKENS: scf.for
  // TOKENS: }
  // TOKENS-NEXT: %[[T:.*]] = apipe.commit_group
  // TOKENS-NEXT: apipe.wait %[[T]]
  // TOKENS-NEXT: memref.copy
  func.func @sync_form(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %buf = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %off = arith.muli %i, %c4 : index
      apipe.copy %A[%off], %buf[%off], 4 : memref<64xf32> to memref<16xf32>
      apipe.commit_group
      apipe.wait_group 0
    }
    memref.copy %buf, %out : memref<16xf32> to memref<16xf32>
    memref.dealloc %buf : memref<16xf32>
    return
  }

  // No synchronization in the input at all; a dynamic trip count (the
  // scf.index_switch of the schedule): the wait follows the switch.
  // COUNTING-LABEL: func.func @dynamic_no_sync
  // COUNTING: scf.index_switch
  // COUNTING: apipe.wait_group 0
  // COUNTING-NEXT: memref.copy
  func.func @dynamic_no_sync(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %m1 = arith.constant -1.0 : f32
    %buf = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      memref.store %m1, %buf[%i] : memref<16xf32>
    }
    scf.for %i = %c0 to %n step %c1 {
      %off = arith.muli %i, %c4 : index
      apipe.copy %A[%off], %buf[%off], 4 : memref<64xf32> to memref<16xf32>
    }
    memref.copy %buf, %out : memref<16xf32> to memref<16xf32>
    memref.dealloc %buf : memref<16xf32>
    return
  }

  // Annotated by hand: async stage 0 copies, stage 1 stores the iteration
  // number (it reads no copy).
  // COUNTING-LABEL: func.func @annotated
  // COUNTING: scf.for
  // COUNTING: }
  // COUNTING: memref.store
  // COUNTING-NEXT: apipe.wait_group 0
  // COUNTING-NEXT: memref.copy
  func.func @annotated(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %log: memref<4xindex>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %buf = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %off = arith.muli %i, %c4 {apipe.stage = 0} : index
      apipe.copy %A[%off], %buf[%off], 4 {apipe.stage = 0} : memref<64xf32> to memref<16xf32>
      memref.store %i, %log[%i] {apipe.stage = 1} : memref<4xindex>
    } {apipe.async_stages = array<i64: 0>}
    memref.copy %buf, %out : memref<16xf32> to memref<16xf32>
    memref.dealloc %buf : memref<16xf32>
    return
  }

  // The copies in an inner loop, read in the outer loop's body after it:
  // the inner loop's groups complete before the read, in every outer
  // iteration.
  // COUNTING-LABEL: func.func @inner_loop
  // COUNTING: scf.for
  // COUNTING: scf.for
  // COUNTING: apipe.commit_group queue 0
  // COUNTING-NEXT: }
  // COUNTING-NEXT: apipe.wait_group 0
  // COUNTING-NEXT: scf.for
  // COUNTING-NEXT: memref.load
  func.func @inner_loop(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %buf = memref.alloc() : memref<4xf32>
    scf.for %o = %c0 to %c3 step %c1 {
      %row = arith.muli %o, %c6 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %src = arith.addi %row, %j : index
        apipe.copy %A[%src], %buf[%j], 1 : memref<64xf32> to memref<4xf32>
        apipe.commit_group
        apipe.wait_group 0
      }
      scf.for %j = %c0 to %c4 step %c1 {
        %x = memref.load %buf[%j] : memref<4xf32>
        %at = arith.muli %o, %c4 : index
        %k = arith.addi %at, %j : index
        %c3f = arith.constant 3.0 : f32
        %y = arith.addf %x, %c3f : f32
        memref.store %y, %out[%k] : memref<16xf32>
      }
    }
    memref.dealloc %buf : memref<4xf32>
    return
  }

  // A kernel of 8 threads: each iteration, thread t copies element 8i + t;
  // the loop's barrier after its wait ordered the copies before the reads
  // of other threads after the loop (no barrier there): the wait after
  // the loop is followed by a barrier.
  // COUNTING-LABEL: gpu.func @kernel
  // COUNTING: scf.for
  // COUNTING: apipe.commit_group queue 0
  // COUNTING-NEXT: }
  // COUNTING-NEXT: apipe.commit_group queue 0
  // COUNTING-NEXT: apipe.commit_group queue 0
  // COUNTING-NEXT: apipe.wait_group 0
  // COUNTING-NEXT: gpu.barrier
  // COUNTING-NEXT: arith.muli
  // COUNTING-NEXT: memref.load
  gpu.module @kernels {
    gpu.func @kernel(%A: memref<64xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) workgroup(%buf: memref<32xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      scf.for %i = %c0 to %c4 step %c1 {
        %base = arith.muli %i, %c8 : index
        %d = arith.addi %base, %tid : index
        apipe.copy %A[%d], %buf[%d], 1 : memref<64xf32> to memref<32xf32, 3>
        apipe.commit_group
        apipe.wait_group 0
        gpu.barrier
      }
      %r = arith.muli %tid, %c3 : index
      %x = memref.load %buf[%r] : memref<32xf32, 3>
      memref.store %x, %out[%tid] : memref<8xf32>
      gpu.return
    }

    // The same with the loop's barrier under a uniform condition (the
    // last iteration only): it still orders the copies before the reads
    // after the loop, so the wait after the loop gets its barrier too.
    // COUNTING-LABEL: gpu.func @kernel_guarded_barrier
    // COUNTING: apipe.wait_group 0
    // COUNTING-NEXT: gpu.barrier
    // COUNTING-NEXT: arith.muli
    gpu.func @kernel_guarded_barrier(%A: memref<64xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) workgroup(%buf: memref<32xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      scf.for %i = %c0 to %c4 step %c1 {
        %base = arith.muli %i, %c8 : index
        %d = arith.addi %base, %tid : index
        apipe.copy %A[%d], %buf[%d], 1 : memref<64xf32> to memref<32xf32, 3>
        apipe.commit_group
        apipe.wait_group 0
        %last = arith.cmpi eq, %i, %c3 : index
        scf.if %last {
          gpu.barrier
        }
      }
      %r = arith.muli %tid, %c3 : index
      %x = memref.load %buf[%r] : memref<32xf32, 3>
      memref.store %x, %out[%tid] : memref<8xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %m1 = arith.constant -1.0 : f32
    %A = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      memref.store %f, %A[%i] : memref<64xf32>
    }
    %out = memref.alloc() : memref<16xf32>
    %u = memref.cast %out : memref<16xf32> to memref<*xf32>
    %log = memref.alloc() : memref<4xindex>
    func.call @sync_form(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    func.call @dynamic_no_sync(%A, %out, %c4) : (memref<64xf32>, memref<16xf32>, index) -> ()
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    // Trip counts 1 and 3 of the dynamic schedule (cases of the switch).
    func.call @dynamic_no_sync(%A, %out, %c1) : (memref<64xf32>, memref<16xf32>, index) -> ()
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    func.call @dynamic_no_sync(%A, %out, %c3) : (memref<64xf32>, memref<16xf32>, index) -> ()
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    func.call @annotated(%A, %out, %log) : (memref<64xf32>, memref<16xf32>, memref<4xindex>) -> ()
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    // Trip count 0: nothing copied, nothing to wait for.
    func.call @dynamic_no_sync(%A, %out, %c0) : (memref<64xf32>, memref<16xf32>, index) -> ()
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %m1, %out[%i] : memref<16xf32>
    }
    %last = arith.constant 12 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %last to %c16 step %c1 {
      memref.store %m1, %out[%i] : memref<16xf32>
    }
    func.call @inner_loop(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %k = memref.alloc() : memref<8xf32>
    %ku = memref.cast %k : memref<8xf32> to memref<*xf32>
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<64xf32>, %k : memref<8xf32>)
    func.call @printMemrefF32(%ku) : (memref<*xf32>) -> ()
    gpu.launch_func @kernels::@kernel_guarded_barrier blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<64xf32>, %k : memref<8xf32>)
    func.call @printMemrefF32(%ku) : (memref<*xf32>) -> ()
    return
  }
}
