// Loops of other kinds around the pipelined loop (scf.parallel, which runs
// its iterations one after another on the host, and affine.for around a
// call of the loop's function) repeat what follows the loop: the copy
// they leave in flight is in flight at the next entry, so the pipelined
// code starts with a commit and a wait (trial 28: only scf.for and
// scf.while counted as loops around). And num-stages says why it leaves
// a loop of another kind with copies of its own.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2 sync=tokens" 2>/dev/null | apipe-run - --completion=random:5 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// CHECK: [15,  24,  33,  42]
// CHECK: [48,  68,  88,  108]
// REMARK-DAG: software-pipeline-entry-groups-other-loops-run.mlir:24:3: remark: loop not pipelined by num-stages: apipe-software-pipeline pipelines scf.for loops, not 'scf.parallel'
// REMARK-DAG: software-pipeline-entry-groups-other-loops-run.mlir:25:5: remark: scheduled 3 stages
// REMARK-DAG: software-pipeline-entry-groups-other-loops-run.mlir:49:10: remark: loop not pipelined by num-stages: apipe-software-pipeline pipelines scf.for loops, not 'scf.while'
func.func private @printMemrefF32(memref<*xf32>)
func.func @in_parallel(%A: memref<64xf32> {llvm.noalias}, %X: memref<4xf32> {llvm.noalias}, %x: memref<4xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.parallel (%j) = (%c0) to (%c2) step (%c1) {
    scf.for %i = %c0 to %c4 step %c1 {
      %src = arith.muli %i, %c4 : index
      apipe.copy %A[%src], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
      apipe.commit_group
      apipe.wait_group 0
      %v = memref.load %x[%i] : memref<4xf32>
      %w = memref.load %buf[%c2] : memref<4xf32>
      %s = arith.addf %v, %w : f32
      %o = memref.load %out[%i] : memref<4xf32>
      %t = arith.addf %o, %s : f32
      memref.store %t, %out[%i] : memref<4xf32>
    }
    apipe.copy %X[%c0], %x[%c0], 4 : memref<4xf32> to memref<4xf32>
    apipe.commit_group
    scf.reduce
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<4xf32>
  return
}
func.func @fill_by_while(%A: memref<64xf32> {llvm.noalias}, %t: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %end = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi slt, %i, %c4 : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%i: index):
    apipe.copy %A[%i], %t[%c0], 4 : memref<64xf32> to memref<4xf32>
    apipe.commit_group
    apipe.wait_group 0
    %n = arith.addi %i, %c1 : index
    scf.yield %n : index
  }
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %ten = arith.constant 10.0 : f32
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %X = memref.alloc() : memref<4xf32>
  %x = memref.alloc() : memref<4xf32>
  %o1 = memref.alloc() : memref<4xf32>
  %o2 = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %g = arith.addf %f, %ten : f32
    memref.store %g, %X[%i] : memref<4xf32>
    memref.store %one, %x[%i] : memref<4xf32>
    memref.store %zero, %o1[%i] : memref<4xf32>
    memref.store %zero, %o2[%i] : memref<4xf32>
  }
  func.call @in_parallel(%A, %X, %x, %o1) : (memref<64xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
  %u1 = memref.cast %o1 : memref<4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  affine.for %j = 0 to 2 {
    func.call @in_parallel(%A, %X, %x, %o2) : (memref<64xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
  }
  %u2 = memref.cast %o2 : memref<4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %t = memref.alloc() : memref<4xf32>
  func.call @fill_by_while(%A, %t) : (memref<64xf32>, memref<4xf32>) -> ()
  return
}
