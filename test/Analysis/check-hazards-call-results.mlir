// A memref a call returns is what the callee's returns give, mapped to the
// caller: an argument is the call's (the same region, mapped through the
// callee's views), through the callee's selects and nested calls; a
// global or an allocation of the callee is itself. An access through it
// meets the copies of that buffer (was a buffer of unknown origin: a write
// through it while a copy read the argument was silent, a read got a
// remark; trials 36 and 37). A write through a buffer of still unknown
// origin (an unregistered op's result, a recursive helper) is a possible
// hazard, a remark, as a read through one is (it was silent).
// RUN: head -n 53 %s | apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: not apipe-opt %s --split-input-file --allow-unregistered-dialect --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:68:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:107:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:108:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:133:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:148:3: remark: possible hazard (the buffers may alias): 'memref.store' op writes a buffer region that an async copy may still be
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:171:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:191:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:220:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:250:3: remark: possible hazard (the buffers may alias): 'memref.store' op writes a buffer region that an async copy may still be
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:274:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:305:12: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:347:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:349:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
func.func private @same(%m: memref<8xf32>) -> memref<8xf32> {
  return %m : memref<8xf32>
}
func.func @disjoint(%A: memref<8xf32> {llvm.noalias}, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = func.call @same(%O) : (memref<8xf32>) -> memref<8xf32>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// The callee returns its argument: the store writes A[2] while the copy
// reads A[0..3].
func.func private @same(%m: memref<8xf32>) -> memref<8xf32> {
  return %m : memref<8xf32>
}
func.func @returned_argument(%A: memref<8xf32>, %D: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = func.call @same(%A) : (memref<8xf32>) -> memref<8xf32>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// The callee returns a view of its argument: the access is mapped through
// it, the callee's index arguments replaced by the call's operands. T[0]
// is D[4], which the copy into D[0, 4) does not touch (was taken as any
// element of D: a false error, trial 38); U[2] with U = D[1 ..] is D[3]:
// an error; a view at an offset the callee loads is any element of D.
func.func private @tail(%m: memref<8xf32>) -> memref<4xf32, strided<[1], offset: 4>> {
  %v = memref.subview %m[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  return %v : memref<4xf32, strided<[1], offset: 4>>
}
func.func private @tail_at(%m: memref<8xf32>, %o: index) -> memref<4xf32, strided<[1], offset: ?>> {
  %v = memref.subview %m[%o] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
  return %v : memref<4xf32, strided<[1], offset: ?>>
}
func.func private @tail_loaded(%m: memref<8xf32>, %p: memref<1xindex>) -> memref<4xf32, strided<[1], offset: ?>> {
  %c0 = arith.constant 0 : index
  %o = memref.load %p[%c0] : memref<1xindex>
  %v = memref.subview %m[%o] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
  return %v : memref<4xf32, strided<[1], offset: ?>>
}
func.func @returned_view(%A: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}, %P: memref<1xindex> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %T = func.call @tail(%D) : (memref<8xf32>) -> memref<4xf32, strided<[1], offset: 4>>
  %U = func.call @tail_at(%D, %c1) : (memref<8xf32>, index) -> memref<4xf32, strided<[1], offset: ?>>
  %W = func.call @tail_at(%D, %c4) : (memref<8xf32>, index) -> memref<4xf32, strided<[1], offset: ?>>
  %L = func.call @tail_loaded(%D, %P) : (memref<8xf32>, memref<1xindex>) -> memref<4xf32, strided<[1], offset: ?>>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  %x = memref.load %T[%c0] : memref<4xf32, strided<[1], offset: 4>>
  %w = memref.load %W[%c2] : memref<4xf32, strided<[1], offset: ?>>
  %u = memref.load %U[%c2] : memref<4xf32, strided<[1], offset: ?>>
  %l = memref.load %L[%c0] : memref<4xf32, strided<[1], offset: ?>>
  apipe.wait_group 0
  %s = arith.addf %x, %w : f32
  %t = arith.addf %u, %l : f32
  %r = arith.addf %s, %t : f32
  return %r : f32
}

// -----

// Two returns, each an argument: either buffer.
func.func private @either(%c: i1, %m: memref<8xf32>, %n: memref<8xf32>) -> memref<8xf32> {
  cf.cond_br %c, ^first, ^second
^first:
  return %m : memref<8xf32>
^second:
  return %n : memref<8xf32>
}
func.func @returned_either(%A: memref<8xf32> {llvm.noalias}, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}, %c: i1) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = func.call @either(%c, %O, %A) : (i1, memref<8xf32>, memref<8xf32>) -> memref<8xf32>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// A buffer an unregistered op makes from A: of unknown origin.
func.func @unknown_origin(%A: memref<8xf32>, %D: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = "test.opaque"(%A) : (memref<8xf32>) -> memref<8xf32>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// A helper that returns what another helper returns (a view of its
// argument): S[0] is A[2] (was a remark, trial 37).
func.func private @inner(%m: memref<8xf32>) -> memref<4xf32, strided<[1], offset: 2>> {
  %v = memref.subview %m[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  return %v : memref<4xf32, strided<[1], offset: 2>>
}
func.func private @outer(%m: memref<8xf32>) -> memref<4xf32, strided<[1], offset: 2>> {
  %v = func.call @inner(%m) : (memref<8xf32>) -> memref<4xf32, strided<[1], offset: 2>>
  return %v : memref<4xf32, strided<[1], offset: 2>>
}
func.func @nested_helpers(%A: memref<8xf32>, %D: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %seven = arith.constant 7.0 : f32
  %S = func.call @outer(%A) : (memref<8xf32>) -> memref<4xf32, strided<[1], offset: 2>>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c0] : memref<4xf32, strided<[1], offset: 2>>
  apipe.wait_group 0
  return
}

// -----

// A helper that returns an arith.select of its arguments: either (was a
// remark, trial 37).
func.func private @pick(%c: i1, %m: memref<8xf32>, %n: memref<8xf32>) -> memref<8xf32> {
  %s = arith.select %c, %m, %n : memref<8xf32>
  return %s : memref<8xf32>
}
func.func @helper_select(%A: memref<8xf32>, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}, %c: i1) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = func.call @pick(%c, %O, %A) : (i1, memref<8xf32>, memref<8xf32>) -> memref<8xf32>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// A helper that returns a global a copy reads (was a remark, trial 37),
// and one that returns a buffer it allocates, which no copy touches
// (silent; was a remark).
memref.global "private" @g : memref<8xf32> = dense<1.0>
func.func private @global_buffer() -> memref<8xf32> {
  %g = memref.get_global @g : memref<8xf32>
  return %g : memref<8xf32>
}
func.func private @fresh() -> memref<8xf32> {
  %b = memref.alloc() : memref<8xf32>
  return %b : memref<8xf32>
}
func.func @helper_global(%D: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %g = memref.get_global @g : memref<8xf32>
  %F = func.call @fresh() : () -> memref<8xf32>
  %S = func.call @global_buffer() : () -> memref<8xf32>
  apipe.copy %g[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %F[%c2] : memref<8xf32>
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// A recursive helper: the recursive call's result is of unknown origin
// (a possible hazard, a remark).
func.func private @rec(%m: memref<8xf32>, %n: memref<8xf32>, %k: index) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %done = arith.cmpi eq, %k, %c0 : index
  %r = scf.if %done -> memref<8xf32> {
    scf.yield %m : memref<8xf32>
  } else {
    %k1 = arith.subi %k, %c1 : index
    %v = func.call @rec(%n, %m, %k1) : (memref<8xf32>, memref<8xf32>, index) -> memref<8xf32>
    scf.yield %v : memref<8xf32>
  }
  return %r : memref<8xf32>
}
func.func @recursive_helper(%A: memref<8xf32>, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = func.call @rec(%O, %A, %c1) : (memref<8xf32>, memref<8xf32>, index) -> memref<8xf32>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// A helper that returns an argument of one of its other blocks: what the
// branches into that block pass (was of unknown origin: a remark that
// named the copy's destination, trial 38). Here either of its arguments.
func.func private @blocks(%c: i1, %m: memref<8xf32>, %n: memref<8xf32>) -> memref<8xf32> {
  cf.cond_br %c, ^join(%m : memref<8xf32>), ^swap(%n, %m : memref<8xf32>, memref<8xf32>)
^swap(%x: memref<8xf32>, %y: memref<8xf32>):
  cf.br ^join(%x : memref<8xf32>)
^join(%r: memref<8xf32>):
  return %r : memref<8xf32>
}
func.func @returned_block_argument(%A: memref<8xf32>, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}, %c: i1) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = func.call @blocks(%c, %O, %A) : (i1, memref<8xf32>, memref<8xf32>) -> memref<8xf32>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// In a kernel, each thread reads its own element through a helper's view
// at the thread id it passes: no barrier is needed (was the whole buffer:
// a false "missing barrier" error, trial 38); its neighbour's element
// needs one.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @element(%m: memref<64xf32, 3>, %i: index) -> memref<2xf32, strided<[1], offset: ?>, 3> {
      %v = memref.subview %m[%i] [2] [1] : memref<64xf32, 3> to memref<2xf32, strided<[1], offset: ?>, 3>
      return %v : memref<2xf32, strided<[1], offset: ?>, 3>
    }
    gpu.func @own(%in: memref<64xf32>, %out: memref<64xf32>) workgroup(%sb: memref<64xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %t2 = arith.muli %tid, %c2 : index
      apipe.copy %in[%t2], %sb[%t2], 2 : memref<64xf32> to memref<64xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %e = func.call @element(%sb, %t2) : (memref<64xf32, 3>, index) -> memref<2xf32, strided<[1], offset: ?>, 3>
      %x = memref.load %e[%c1] : memref<2xf32, strided<[1], offset: ?>, 3>
      memref.store %x, %out[%t2] : memref<64xf32>
      %n = arith.addi %t2, %c2 : index
      %f = func.call @element(%sb, %n) : (memref<64xf32, 3>, index) -> memref<2xf32, strided<[1], offset: ?>, 3>
      %y = memref.load %f[%c0] : memref<2xf32, strided<[1], offset: ?>, 3>
      memref.store %y, %out[%n] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

// The condition of a helper's choice, mapped to the call: a constant `i1`
// argument, or an index argument whose parity the helper tests, picks one
// buffer (both were possible: two false errors of four).
func.func private @pick_by(%c: i1, %m: memref<8xf32>, %n: memref<8xf32>) -> memref<8xf32> {
  %s = arith.select %c, %m, %n : memref<8xf32>
  return %s : memref<8xf32>
}
func.func private @parity(%i: index, %m: memref<8xf32>, %n: memref<8xf32>) -> memref<8xf32> {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %r = arith.remui %i, %c2 : index
  %z = arith.cmpi eq, %r, %c0 : index
  %s = scf.if %z -> memref<8xf32> {
    scf.yield %m : memref<8xf32>
  } else {
    scf.yield %n : memref<8xf32>
  }
  return %s : memref<8xf32>
}
func.func @constant_conditions(%A: memref<8xf32>, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = arith.constant true
  %f = arith.constant false
  %seven = arith.constant 7.0 : f32
  %S = func.call @pick_by(%t, %O, %A) : (i1, memref<8xf32>, memref<8xf32>) -> memref<8xf32>
  %T = func.call @pick_by(%f, %O, %A) : (i1, memref<8xf32>, memref<8xf32>) -> memref<8xf32>
  %U = func.call @parity(%c2, %O, %A) : (index, memref<8xf32>, memref<8xf32>) -> memref<8xf32>
  %V = func.call @parity(%c1, %O, %A) : (index, memref<8xf32>, memref<8xf32>) -> memref<8xf32>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  memref.store %seven, %T[%c2] : memref<8xf32>
  memref.store %seven, %U[%c2] : memref<8xf32>
  memref.store %seven, %V[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}
