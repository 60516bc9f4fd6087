// A loop with copies of its own whose commits and waits are not the
// synchronous form (nested in a memref.alloca_scope; already pipelined by
// hand with wait_group 1) is not scheduled by num-stages: a remark says so
// and the loop stays as it is (trial 27: it was skipped in silence).
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>&1 >/dev/null | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | FileCheck %s --check-prefix=IR
// CHECK: software-pipeline-num-stages-not-synchronous.mlir:23:3: remark: loop not pipelined by num-stages: its copies are not in the synchronous form
// CHECK: software-pipeline-num-stages-not-synchronous.mlir:43:3: remark: loop not pipelined by num-stages: its copies are not in the synchronous form
// CHECK-NOT: remark
// IR-LABEL: func.func @in_scope
// IR: scf.for
// IR-NEXT: memref.alloca_scope
// IR-LABEL: func.func @by_hand
// IR: scf.for
// IR: apipe.wait_group 1
// IR-NOT: apipe.commit_group
// IR: return
func.func @in_scope(%A: memref<64xf32>, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.alloca_scope -> f32 {
      %t = memref.alloca() : memref<4xf32>
      apipe.copy %A[%i], %t[%c0], 4 : memref<64xf32> to memref<4xf32>
      apipe.commit_group
      apipe.wait_group 0
      %v = memref.load %t[%c1] : memref<4xf32>
      memref.alloca_scope.return %v : f32
    }
    memref.store %x, %out[%i] : memref<16xf32>
  }
  return
}
func.func @by_hand(%A: memref<64xf32>, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %t = memref.alloc() : memref<2x4xf32>
  apipe.copy %A[%c0], %t[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.commit_group
  scf.for %i = %c0 to %c15 step %c1 {
    %n = arith.addi %i, %c1 : index
    %ns = arith.remui %n, %c1 : index
    apipe.copy %A[%n], %t[%ns, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    apipe.commit_group
    apipe.wait_group 1
    %v = memref.load %t[%c0, %c1] : memref<2x4xf32>
    memref.store %v, %out[%i] : memref<16xf32>
  }
  apipe.wait_group 0
  memref.dealloc %t : memref<2x4xf32>
  return
}
