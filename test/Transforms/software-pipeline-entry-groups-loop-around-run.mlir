// Groups left in flight by an earlier iteration of a loop around the
// pipelined loop, where the copy sits deeper than the loop's own block:
// after the loop inside the same scf.if (at any depth), in the function
// that holds the loop when a caller calls it in a loop, and in an
// llvm.func entered with its caller's group (docs/semantics.md, rule 5).
// The synchronous loop's wait_group 0 completed those copies before its
// reads, so the pipelined code starts with a commit and a wait (trial 26:
// it started with neither, and every completion mode read a copy in
// flight).
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=random:3 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | FileCheck %s --check-prefix=COUNTING

// CHECK: [25,  39,  53,  67]
// CHECK: [13,  22,  31,  40]
// CHECK: [100,  105,  110,  115]

func.func private @printMemrefF32(memref<*xf32>)

// The copy into %x is two regions below the scf.if that holds the loop.
// COUNTING-LABEL: func.func @nested_leftover
// COUNTING: scf.for
// COUNTING: scf.if
// COUNTING: apipe.commit_group{{$}}
// COUNTING-NEXT: apipe.wait_group 0
// COUNTING: scf.for
func.func @nested_leftover(%A: memref<64xf32> {llvm.noalias}, %X: memref<4xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %f2 = arith.constant 2.0 : f32
  %x = memref.alloc() : memref<4xf32>
  %buf = memref.alloc() : memref<4xf32>
  scf.for %j = %c0 to %c4 step %c1 {
    memref.store %f2, %x[%j] : memref<4xf32>
  }
  scf.for %j = %c0 to %c3 step %c1 {
    scf.if %p {
      scf.for %i = %c0 to %c4 step %c1 {
        %src = arith.muli %i, %c4 : index
        apipe.copy %A[%src], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
        apipe.commit_group
        apipe.wait_group 0
        %v = memref.load %x[%i] : memref<4xf32>
        %w = memref.load %buf[%c1] : memref<4xf32>
        %s = arith.addf %v, %w : f32
        %o = memref.load %out[%i] : memref<4xf32>
        %t = arith.addf %o, %s : f32
        memref.store %t, %out[%i] : memref<4xf32>
      }
      scf.for %k = %c0 to %c1 step %c1 {
        scf.if %p {
          apipe.copy %X[%c0], %x[%c0], 4 : memref<4xf32> to memref<4xf32>
          apipe.commit_group
        }
      }
    }
  }
  apipe.wait_group 0
  memref.dealloc %x : memref<4xf32>
  memref.dealloc %buf : memref<4xf32>
  return
}

// Called in a loop: the copy after its loop (in an scf.if) is in flight at
// the next call.
// COUNTING-LABEL: func.func @leaves_group
// COUNTING: apipe.commit_group{{$}}
// COUNTING-NEXT: apipe.wait_group 0
// COUNTING: scf.for
func.func @leaves_group(%A: memref<64xf32> {llvm.noalias}, %X: memref<4xf32> {llvm.noalias}, %x: memref<4xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %src = arith.muli %i, %c4 : index
    apipe.copy %A[%src], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    apipe.commit_group
    apipe.wait_group 0
    %v = memref.load %x[%i] : memref<4xf32>
    %w = memref.load %buf[%c0] : memref<4xf32>
    %s = arith.addf %v, %w : f32
    %o = memref.load %out[%i] : memref<4xf32>
    %t = arith.addf %o, %s : f32
    memref.store %t, %out[%i] : memref<4xf32>
  }
  memref.dealloc %buf : memref<4xf32>
  scf.if %p {
    apipe.copy %X[%c0], %x[%c0], 4 : memref<4xf32> to memref<4xf32>
    apipe.commit_group
  }
  return
}

// Entered with its caller's group: an llvm.func is called like a func.func.
// COUNTING-LABEL: llvm.func @through_llvm_call
// COUNTING: apipe.commit_group{{$}}
// COUNTING-NEXT: apipe.wait_group 0
// COUNTING: scf.for
memref.global "private" @gA : memref<64xf32> = uninitialized
memref.global "private" @gx : memref<4xf32> = uninitialized
memref.global "private" @gout : memref<4xf32> = uninitialized
llvm.func @through_llvm_call() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %A = memref.get_global @gA : memref<64xf32>
  %x = memref.get_global @gx : memref<4xf32>
  %out = memref.get_global @gout : memref<4xf32>
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %src = arith.muli %i, %c4 : index
    apipe.copy %A[%src], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    apipe.commit_group
    apipe.wait_group 0
    %v = memref.load %x[%i] : memref<4xf32>
    %w = memref.load %buf[%c0] : memref<4xf32>
    %s = arith.addf %v, %w : f32
    memref.store %s, %out[%i] : memref<4xf32>
  }
  memref.dealloc %buf : memref<4xf32>
  llvm.return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c10 = arith.constant 10.0 : f32
  %f3 = arith.constant 3.0 : f32
  %zero = arith.constant 0.0 : f32
  %true = arith.constant true
  %A = memref.get_global @gA : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %X = memref.alloc() : memref<4xf32>
  %x = memref.alloc() : memref<4xf32>
  %o1 = memref.alloc() : memref<4xf32>
  %o2 = memref.alloc() : memref<4xf32>
  %gx = memref.get_global @gx : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %g = arith.addf %f, %c10 : f32
    memref.store %g, %X[%i] : memref<4xf32>
    memref.store %f3, %x[%i] : memref<4xf32>
    memref.store %f3, %gx[%i] : memref<4xf32>
    memref.store %zero, %o1[%i] : memref<4xf32>
    memref.store %zero, %o2[%i] : memref<4xf32>
  }
  func.call @nested_leftover(%A, %X, %o1, %true) : (memref<64xf32>, memref<4xf32>, memref<4xf32>, i1) -> ()
  %o1u = memref.cast %o1 : memref<4xf32> to memref<*xf32>
  func.call @printMemrefF32(%o1u) : (memref<*xf32>) -> ()
  scf.for %j = %c0 to %c2 step %c1 {
    func.call @leaves_group(%A, %X, %x, %o2, %true) : (memref<64xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>, i1) -> ()
  }
  apipe.wait_group 0
  %o2u = memref.cast %o2 : memref<4xf32> to memref<*xf32>
  func.call @printMemrefF32(%o2u) : (memref<*xf32>) -> ()
  %c100 = arith.constant 100.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %g = arith.addf %f, %c100 : f32
    memref.store %g, %X[%i] : memref<4xf32>
  }
  apipe.copy %X[%c0], %gx[%c0], 4 : memref<4xf32> to memref<4xf32>
  apipe.commit_group
  llvm.call @through_llvm_call() : () -> ()
  apipe.wait_group 0
  %gout = memref.get_global @gout : memref<4xf32>
  %ou = memref.cast %gout : memref<4xf32> to memref<*xf32>
  func.call @printMemrefF32(%ou) : (memref<*xf32>) -> ()
  return
}
