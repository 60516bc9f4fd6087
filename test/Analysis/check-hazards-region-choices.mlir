// The buffer behind an scf.index_switch or scf.execute_region result is
// one of those its yields give, where they may be given (trial 33):
// - an scf.index_switch yields case v's buffer where the selector is v, the
//   default's where it is none of the cases: with a constant selector only
//   one (silent), with a dynamic one any (an error);
// - an scf.execute_region yields from the blocks its entry reaches; a
//   cf.cond_br on a constant takes one successor (silent);
// - a block argument is what each branch into its block passes (an
//   error: was an unknown buffer, and the race went unreported);
// - an scf.while or scf.for carried buffer that the loop does not just
//   rotate is its initial buffer or what its yield passes, through selects
//   and views made in the loop (a view only whole: it may slide) (an error:
//   was an unknown buffer, or the initial one);
// - a buffer passed around a loop of blocks, or through a cf.switch (an
//   error: the first overflowed the stack);
// - a buffer an scf.for carries through a block argument of an
//   scf.execute_region in its body (an error: was an unknown buffer).
// RUN: head -n 69 %s | apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: error
// CHECK: check-hazards-region-choices.mlir:81:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: error
// CHECK: check-hazards-region-choices.mlir:99:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: error
// CHECK: check-hazards-region-choices.mlir:123:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: error
// CHECK: check-hazards-region-choices.mlir:141:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: error
// CHECK: check-hazards-region-choices.mlir:161:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: error
// CHECK: check-hazards-region-choices.mlir:182:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: error
// CHECK: check-hazards-region-choices.mlir:208:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: error
// CHECK: check-hazards-region-choices.mlir:233:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: error
func.func @switch_constant(%A: memref<8xf32>, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = scf.index_switch %c0 -> memref<8xf32>
  case 1 { scf.yield %A : memref<8xf32> }
  default { scf.yield %O : memref<8xf32> }
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

func.func @branch_constant(%A: memref<8xf32>, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %false = arith.constant false
  %seven = arith.constant 7.0 : f32
  %S = scf.execute_region -> memref<8xf32> {
    cf.cond_br %false, ^a, ^o
  ^a:
    scf.yield %A : memref<8xf32>
  ^o:
    scf.yield %O : memref<8xf32>
  }
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

func.func @switch_dynamic(%A: memref<8xf32>, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}, %k: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = scf.index_switch %k -> memref<8xf32>
  case 1 { scf.yield %A : memref<8xf32> }
  default { scf.yield %O : memref<8xf32> }
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

func.func @block_argument(%A: memref<8xf32>, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}, %c: i1) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = scf.execute_region -> memref<8xf32> {
    cf.cond_br %c, ^join(%A : memref<8xf32>), ^join(%O : memref<8xf32>)
  ^join(%m: memref<8xf32>):
    scf.yield %m : memref<8xf32>
  }
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// An scf.while whose after region yields a buffer of the function: after
// the loop it is that buffer or the initial one (was an unknown buffer).
func.func @while_yields(%A: memref<8xf32>, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S, %k = scf.while (%p = %O, %i = %c0) : (memref<8xf32>, index) -> (memref<8xf32>, index) {
    %go = arith.cmpi ult, %i, %n : index
    scf.condition(%go) %p, %i : memref<8xf32>, index
  } do {
  ^bb0(%q: memref<8xf32>, %j: index):
    %j1 = arith.addi %j, %c1 : index
    scf.yield %A, %j1 : memref<8xf32>, index
  }
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// The same through an scf.for result.
func.func @for_yields(%A: memref<8xf32>, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = scf.for %i = %c0 to %n step %c1 iter_args(%p = %O) -> (memref<8xf32>) {
    scf.yield %A : memref<8xf32>
  }
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// The yield chooses with an arith.select made in the loop (trial 34: was
// taken as the initial buffer).
func.func @for_yields_select(%A: memref<8xf32>, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}, %n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = scf.for %i = %c0 to %n step %c1 iter_args(%p = %O) -> (memref<8xf32>) {
    %q = arith.select %c, %A, %p : memref<8xf32>
    scf.yield %q : memref<8xf32>
  }
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// A view that slides each iteration: only its whole buffer is known.
func.func @for_yields_sliding_view(%A: memref<8xf32>, %D: memref<4xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %seven = arith.constant 7.0 : f32
  %v0 = memref.reinterpret_cast %A to offset: [%c0], sizes: [4], strides: [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
  %V = scf.for %i = %c0 to %n step %c1 iter_args(%v = %v0) -> (memref<4xf32, strided<[1], offset: ?>>) {
    %off = arith.addi %i, %c1 : index
    %w = memref.reinterpret_cast %A to offset: [%off], sizes: [4], strides: [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.yield %w : memref<4xf32, strided<[1], offset: ?>>
  }
  apipe.copy %A[%c4], %D[%c0], 4 : memref<8xf32> to memref<4xf32>
  apipe.commit_group
  memref.store %seven, %V[%c0] : memref<4xf32, strided<[1], offset: ?>>
  apipe.wait_group 0
  return
}

// -----

// A buffer passed around a loop of blocks, and through a cf.switch (trial
// 34: the first overflowed the stack, the second was not followed).
func.func @block_loop(%A: memref<8xf32>, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}, %c: i1, %k: i32) {
  %c0 = arith.constant 0 : index
  %seven = arith.constant 7.0 : f32
  %S = scf.execute_region -> memref<8xf32> {
    cf.br ^h(%O, %A : memref<8xf32>, memref<8xf32>)
  ^h(%x: memref<8xf32>, %y: memref<8xf32>):
    cf.cond_br %c, ^h(%y, %x : memref<8xf32>, memref<8xf32>), ^e
  ^e:
    cf.switch %k : i32, [
      default: ^out(%x : memref<8xf32>),
      1: ^out(%O : memref<8xf32>)
    ]
  ^out(%z: memref<8xf32>):
    scf.yield %z : memref<8xf32>
  }
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c0] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// A buffer an scf.for carries through a block argument of an
// scf.execute_region in its body: what the branch passes (%A), whose
// source an async copy still reads at the store (was an unknown buffer).
func.func @carried_block_argument(%A: memref<8xf32>, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%B = %O) -> memref<8xf32> {
    %S = scf.execute_region -> memref<8xf32> {
      cf.br ^b(%A : memref<8xf32>)
    ^b(%x: memref<8xf32>):
      scf.yield %x : memref<8xf32>
    }
    scf.yield %S : memref<8xf32>
  }
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %r[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}
