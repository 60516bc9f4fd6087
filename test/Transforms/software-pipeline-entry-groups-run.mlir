// Copies issued before a loop in the synchronous form, which the loop's own
// waits completed: a `wait_group 0` (or a wait on a commit's token)
// completes every older group of its queue too, so the input's body may
// read them. The pipeliner drops those waits and places its own for the
// loop's copies only, so the emitted code now starts with a commit of the
// queue's copies and a wait for all of it (with sync=tokens, a wait on that
// commit's token), and, in a gpu.func whose loop held a gpu.barrier, a
// gpu.barrier. Before, the pre-loop copies were read while in flight.
// (A function called with its caller's copies in flight:
// software-pipeline-entry-groups-call-run.mlir.)
// Each pipelined program prints what apipe-make-sync of the input prints,
// in lazy, eager and random completion, and passes apipe-check-hazards.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=random:1 --schedule=reverse | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | apipe-run - --completion=random:2 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | apipe-opt --apipe-tokens-to-counting | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-opt --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | apipe-opt --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | FileCheck %s --check-prefix=COUNTING
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | FileCheck %s --check-prefix=TOKENS

// CHECK: [100,  101,  102,  103]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  1,  4,  5,  8,  9,  12,  13]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [100,  101,  102,  103,  17,  21,  25,  29]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [101,  201,  102,  202,  103,  203]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [101,  105,  102,  106,  103,  107]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [101,  102,  103,  104,  105,  106,  107,  100]

module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)

  // A committed group before the loop; the loop's copies are read after
  // it, its loads read the earlier copy (the drain class as well).
  // COUNTING-LABEL: func.func @committed_before
  // COUNTING: apipe.copy
  // COUNTING-NEXT: apipe.commit_group{{$}}
  // COUNTING-NEXT: apipe.commit_group{{$}}
  // COUNTING-NEXT: apipe.wait_group 0
  // COUNTING: scf.for
  // COUNTING: apipe.wait_group 0
  // COUNTING-NEXT: memref.copy
  // TOKENS-LABEL: func.func @committed_before
  // TOKENS: apipe.commit_group{{$}}
  // TOKENS-NEXT: %[[T:.*]] = apipe.commit_group{{$}}
  // TOKENS-NEXT: apipe.wait %[[T]]
  func.func @committed_before(%A: memref<64xf32> {llvm.noalias}, %X: memref<4xf32> {llvm.noalias}, %seen: memref<4xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %x = memref.alloc() : memref<4xf32>
    %buf = memref.alloc() : memref<8xf32>
    apipe.copy %X[%c0], %x[%c0], 4 : memref<4xf32> to memref<4xf32>
    apipe.commit_group
    scf.for %i = %c0 to %c4 step %c1 {
      %off = arith.muli %i, %c2 : index
      %src = arith.muli %i, %c4 : index
      apipe.copy %A[%src], %buf[%off], 2 : memref<64xf32> to memref<8xf32>
      apipe.commit_group
      apipe.wait_group 0
      %v = memref.load %x[%i] : memref<4xf32>
      memref.store %v, %seen[%i] : memref<4xf32>
    }
    memref.copy %buf, %out : memref<8xf32> to memref<8xf32>
    memref.dealloc %x : memref<4xf32>
    memref.dealloc %buf : memref<8xf32>
    return
  }

  // An uncommitted copy before the loop: the loop's first commit took it
  // into its group. Its tile is read before the loop's own tile.
  // COUNTING-LABEL: func.func @uncommitted_before
  // COUNTING: apipe.copy
  // COUNTING-NEXT: apipe.commit_group{{$}}
  // COUNTING-NEXT: apipe.wait_group 0
  func.func @uncommitted_before(%A: memref<64xf32> {llvm.noalias}, %X: memref<4xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %x = memref.alloc() : memref<4xf32>
    %buf = memref.alloc() : memref<4xf32>
    apipe.copy %X[%c0], %x[%c0], 4 : memref<4xf32> to memref<4xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %src = arith.muli %i, %c4 : index
      apipe.copy %A[%src], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
      apipe.commit_group
      apipe.wait_group 0
      %j = arith.remui %i, %c4 : index
      %v = memref.load %x[%j] : memref<4xf32>
      %w = memref.load %buf[%c1] : memref<4xf32>
      %k = arith.cmpi ult, %i, %c4 : index
      %r = arith.select %k, %v, %w : f32
      memref.store %r, %out[%i] : memref<8xf32>
    }
    memref.dealloc %x : memref<4xf32>
    memref.dealloc %buf : memref<4xf32>
    return
  }

  // Copies of an outer loop's body after the inner loop, read by the
  // inner loop of the next outer iteration (an earlier iteration's group).
  // COUNTING-LABEL: func.func @outer_iteration
  // COUNTING: apipe.wait_group 0
  // COUNTING-NEXT: scf.for
  // COUNTING: apipe.commit_group{{$}}
  // COUNTING-NEXT: apipe.wait_group 0
  func.func @outer_iteration(%A: memref<64xf32> {llvm.noalias}, %X: memref<4xf32> {llvm.noalias}, %out: memref<6xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %x = memref.alloc() : memref<4xf32>
    %buf = memref.alloc() : memref<4xf32>
    %cst = arith.constant 100.0 : f32
    apipe.copy %X[%c0], %x[%c0], 4 : memref<4xf32> to memref<4xf32>
    apipe.commit_group
    apipe.wait_group 0
    scf.for %o = %c0 to %c3 step %c1 {
      scf.for %i = %c0 to %c2 step %c1 {
        %src = arith.muli %i, %c4 : index
        apipe.copy %A[%src], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
        apipe.commit_group
        apipe.wait_group 0
        %v = memref.load %x[%c1] : memref<4xf32>
        %w = memref.load %buf[%c1] : memref<4xf32>
        %ii = arith.index_cast %i : index to i64
        %fi = arith.sitofp %ii : i64 to f32
        %m = arith.mulf %fi, %cst : f32
        %s = arith.addf %v, %m : f32
        %at = arith.muli %o, %c2 : index
        %k = arith.addi %at, %i : index
        memref.store %s, %out[%k] : memref<6xf32>
      }
      // The next outer iteration reads x[1] = X[o + 2]: a copy in flight
      // at the inner loop's entry.
      %next = arith.addi %o, %c2 : index
      %oo = arith.remui %next, %c4 : index
      apipe.copy %X[%oo], %x[%c1], 1 : memref<4xf32> to memref<4xf32>
      apipe.commit_group
    }
    apipe.wait_group 0
    memref.dealloc %x : memref<4xf32>
    memref.dealloc %buf : memref<4xf32>
    return
  }

  // An scf.while whose before region copies x[0] = X[k]; the loop of its
  // after region, in the synchronous form, reads it.
  // COUNTING-LABEL: func.func @while_before_region
  // COUNTING: } do {
  // COUNTING: apipe.commit_group{{$}}
  // COUNTING-NEXT: apipe.wait_group 0
  func.func @while_before_region(%A: memref<64xf32> {llvm.noalias}, %X: memref<4xf32> {llvm.noalias}, %out: memref<6xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %x = memref.alloc() : memref<4xf32>
    %buf = memref.alloc() : memref<4xf32>
    %r = scf.while (%k = %c0) : (index) -> index {
      %more = arith.cmpi ult, %k, %c3 : index
      scf.if %more {
        apipe.copy %X[%k], %x[%c0], 1 : memref<4xf32> to memref<4xf32>
        apipe.commit_group
      }
      scf.condition(%more) %k : index
    } do {
    ^bb0(%k: index):
      scf.for %i = %c0 to %c2 step %c1 {
        %src = arith.muli %i, %c4 : index
        apipe.copy %A[%src], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
        apipe.commit_group
        apipe.wait_group 0
        %v = memref.load %x[%c0] : memref<4xf32>
        %w = memref.load %buf[%c1] : memref<4xf32>
        %s = arith.addf %v, %w : f32
        %at = arith.muli %k, %c2 : index
        %j = arith.addi %at, %i : index
        memref.store %s, %out[%j] : memref<6xf32>
      }
      %next = arith.addi %k, %c1 : index
      scf.yield %next : index
    }
    memref.dealloc %x : memref<4xf32>
    memref.dealloc %buf : memref<4xf32>
    return
  }

  // A kernel of 8 threads: each thread copies its element of x before the
  // loop; the loop's wait and barrier order every thread's copy before the
  // reads of the neighbour's element.
  // COUNTING-LABEL: gpu.func @kernel
  // COUNTING: apipe.copy
  // COUNTING-NEXT: apipe.commit_group{{$}}
  // COUNTING: apipe.commit_group{{$}}
  // COUNTING-NEXT: apipe.wait_group 0
  // COUNTING-NEXT: gpu.barrier
  gpu.module @kernels {
    gpu.func @kernel(%A: memref<64xf32> {llvm.noalias}, %X: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) workgroup(%x: memref<8xf32, 3>, %buf: memref<32xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      apipe.copy %X[%tid], %x[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c8 : index
      scf.for %i = %c0 to %c4 step %c1 {
        %base = arith.muli %i, %c8 : index
        %d = arith.addi %base, %tid : index
        apipe.copy %A[%d], %buf[%d], 1 : memref<64xf32> to memref<32xf32, 3>
        apipe.commit_group
        apipe.wait_group 0
        gpu.barrier
        %v = memref.load %x[%nb] : memref<8xf32, 3>
        memref.store %v, %out[%tid] : memref<8xf32>
      }
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c100 = arith.constant 100.0 : f32
    %A = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      memref.store %f, %A[%i] : memref<64xf32>
    }
    %X = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      %g = arith.addf %f, %c100 : f32
      memref.store %g, %X[%i] : memref<8xf32>
    }
    %X4 = memref.subview %X[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
    %X4c = memref.alloc() : memref<4xf32>
    memref.copy %X4, %X4c : memref<4xf32, strided<[1]>> to memref<4xf32>
    %seen = memref.alloc() : memref<4xf32>
    %out = memref.alloc() : memref<8xf32>
    %su = memref.cast %seen : memref<4xf32> to memref<*xf32>
    %ou = memref.cast %out : memref<8xf32> to memref<*xf32>
    func.call @committed_before(%A, %X4c, %seen, %out) : (memref<64xf32>, memref<4xf32>, memref<4xf32>, memref<8xf32>) -> ()
    func.call @printMemrefF32(%su) : (memref<*xf32>) -> ()
    func.call @printMemrefF32(%ou) : (memref<*xf32>) -> ()
    func.call @uncommitted_before(%A, %X4c, %out) : (memref<64xf32>, memref<4xf32>, memref<8xf32>) -> ()
    func.call @printMemrefF32(%ou) : (memref<*xf32>) -> ()
    %o6 = memref.alloc() : memref<6xf32>
    %o6u = memref.cast %o6 : memref<6xf32> to memref<*xf32>
    func.call @outer_iteration(%A, %X4c, %o6) : (memref<64xf32>, memref<4xf32>, memref<6xf32>) -> ()
    func.call @printMemrefF32(%o6u) : (memref<*xf32>) -> ()
    func.call @while_before_region(%A, %X4c, %o6) : (memref<64xf32>, memref<4xf32>, memref<6xf32>) -> ()
    func.call @printMemrefF32(%o6u) : (memref<*xf32>) -> ()
    %k = memref.alloc() : memref<8xf32>
    %ku = memref.cast %k : memref<8xf32> to memref<*xf32>
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<64xf32>, %X : memref<8xf32>, %k : memref<8xf32>)
    func.call @printMemrefF32(%ku) : (memref<*xf32>) -> ()
    return
  }
}
