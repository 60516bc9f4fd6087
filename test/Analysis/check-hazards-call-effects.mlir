// What calls do, followed into their callees (trial 40): recursion, fresh
// buffers per call, conditions on low bits, and barriers in helpers.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-effects.mlir:57:3: error: 'func.call' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-effects.mlir:80:3: error: 'memref.store' op writes a buffer region that an async copy may still be writing (its destination)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-effects.mlir:117:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-effects.mlir:119:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-effects.mlir:159:9: error: 'func.call' op may be reached by only some threads of the block (it calls a function that holds a barrier)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-effects.mlir:152:12: error: 'func.call' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-effects.mlir:191:3: error: 'func.call' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-effects.mlir:215:7: error: 'func.call' op may be reached by only some threads of the block (or its callee's barrier, under control flow that the call's thread-dependent operands may decide)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-effects.mlir:234:9: error: 'gpu.barrier' op may be reached by only some threads of the block
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-effects.mlir:242:7: error: 'func.call' op may be reached by only some threads of the block (or its callee's barrier
// CHECK-NOT: {{error|remark}}
// Mutually recursive helpers that write a global: a call of them is an
// access of all memory. A first call while nothing is in flight, then one
// while a copy writes the global (was silent: the second helper's
// summary, made while the first's was in progress, left the global out).
memref.global "private" @G : memref<8xf32> = dense<0.0>
func.func private @even(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %done = arith.cmpi eq, %n, %c0 : index
  scf.if %done {
    %g = memref.get_global @G : memref<8xf32>
    %v = arith.constant 5.0 : f32
    memref.store %v, %g[%c0] : memref<8xf32>
  } else {
    %m = arith.subi %n, %c1 : index
    func.call @odd(%m) : (index) -> ()
  }
  return
}
func.func private @odd(%n: index) {
  %c1 = arith.constant 1 : index
  %m = arith.subi %n, %c1 : index
  func.call @even(%m) : (index) -> ()
  return
}
func.func @mutual(%A: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  func.call @even(%c0) : (index) -> ()
  %g = memref.get_global @G : memref<8xf32>
  apipe.copy %A[%c0], %g[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  func.call @odd(%c3) : (index) -> ()
  apipe.wait_group 0
  return
}

// -----

// A helper that returns a buffer it allocates: each call's is its own.
// The copy fills the first; a store into the second is silent (was a
// false error: the two were one buffer), a store into the first is not.
func.func private @scratch() -> memref<8xf32> {
  %b = memref.alloc() : memref<8xf32>
  return %b : memref<8xf32>
}
func.func @fresh_per_call(%A: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 2.0 : f32
  %x = func.call @scratch() : () -> memref<8xf32>
  %y = func.call @scratch() : () -> memref<8xf32>
  apipe.copy %A[%c0], %x[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %v, %y[%c1] : memref<8xf32>
  memref.store %v, %x[%c1] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// Conditions on the low bit: `trunci` to i1 in a helper, and `extui` of an
// i1 argument compared: each call picks one buffer (both were possible:
// false errors on the calls that pick O).
func.func private @by_bit(%i: index, %m: memref<8xf32>, %n: memref<8xf32>) -> memref<8xf32> {
  %w = arith.index_cast %i : index to i32
  %odd = arith.trunci %w : i32 to i1
  %s = arith.select %odd, %m, %n : memref<8xf32>
  return %s : memref<8xf32>
}
func.func private @by_flag(%c: i1, %m: memref<8xf32>, %n: memref<8xf32>) -> memref<8xf32> {
  %one = arith.constant 1 : i32
  %e = arith.extui %c : i1 to i32
  %set = arith.cmpi eq, %e, %one : i32
  %s = arith.select %set, %m, %n : memref<8xf32>
  return %s : memref<8xf32>
}
func.func @low_bits(%A: memref<8xf32>, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %t = arith.constant true
  %f = arith.constant false
  %v = arith.constant 2.0 : f32
  %p = func.call @by_bit(%c5, %O, %A) : (index, memref<8xf32>, memref<8xf32>) -> memref<8xf32>
  %q = func.call @by_bit(%c2, %O, %A) : (index, memref<8xf32>, memref<8xf32>) -> memref<8xf32>
  %r = func.call @by_flag(%t, %O, %A) : (i1, memref<8xf32>, memref<8xf32>) -> memref<8xf32>
  %s = func.call @by_flag(%f, %O, %A) : (i1, memref<8xf32>, memref<8xf32>) -> memref<8xf32>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %v, %p[%c2] : memref<8xf32>
  memref.store %v, %q[%c2] : memref<8xf32>
  memref.store %v, %r[%c2] : memref<8xf32>
  memref.store %v, %s[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// Barriers in helpers. @sync's barrier comes before any access: after the
// call, each thread may read its neighbour's element (was a false missing
// barrier error). @read_then_sync reads before its barrier: an error. A
// call of @sync that only some threads make is a divergent barrier (was
// silent).
module attributes {gpu.container_module} {
  gpu.module @k {
    func.func @sync() {
      gpu.barrier
      return
    }
    func.func @read_then_sync(%b: memref<64xf32, 3>, %i: index) -> f32 {
      %x = memref.load %b[%i] : memref<64xf32, 3>
      gpu.barrier
      return %x : f32
    }
    gpu.func @kern(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<64xf32> to memref<64xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %n1 = arith.addi %tid, %c1 : index
      %n = arith.remui %n1, %c32 : index
      %y = func.call @read_then_sync(%buf, %n) : (memref<64xf32, 3>, index) -> f32
      func.call @sync() : () -> ()
      %x = memref.load %buf[%n] : memref<64xf32, 3>
      %s = arith.addf %x, %y : f32
      memref.store %s, %out[%tid] : memref<64xf32>
      %lo = arith.cmpi ult, %tid, %c16 : index
      scf.if %lo {
        func.call @sync() : () -> ()
      }
      gpu.return
    }
  }
}

// -----

// A helper that casts the view it gets back to the base of its buffer
// reaches outside the view: any element of the caller's buffer (was the
// view's elements only: a write into a copy's source went unreported,
// trial 41). A helper that fills the view it gets touches only the view.
func.func private @rebase(%v: memref<4xf32, strided<[1], offset: ?>>) {
  %c1 = arith.constant 1 : index
  %x = arith.constant 3.0 : f32
  %base = memref.reinterpret_cast %v to offset: [0], sizes: [2], strides: [1] : memref<4xf32, strided<[1], offset: ?>> to memref<2xf32>
  memref.store %x, %base[%c1] : memref<2xf32>
  return
}
func.func private @fill(%v: memref<4xf32, strided<[1], offset: ?>>) {
  %x = arith.constant 3.0 : f32
  linalg.fill ins(%x : f32) outs(%v : memref<4xf32, strided<[1], offset: ?>>)
  return
}
func.func @escaping_view(%b: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %tail = memref.subview %b[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  %v = memref.cast %tail : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32, strided<[1], offset: ?>>
  apipe.copy %b[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  func.call @fill(%v) : (memref<4xf32, strided<[1], offset: ?>>) -> ()
  func.call @rebase(%v) : (memref<4xf32, strided<[1], offset: ?>>) -> ()
  apipe.wait_group 0
  return
}

// -----

// A helper whose barrier runs as many times as its argument says: a call
// with the thread id makes threads reach different numbers of barriers (was
// silent, trial 41); a call with a constant does not.
module attributes {gpu.container_module} {
  gpu.module @k {
    func.func @sync_times(%n: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 {
        gpu.barrier
      }
      return
    }
    gpu.func @kern() kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      func.call @sync_times(%c2) : (index) -> ()
      func.call @sync_times(%tid) : (index) -> ()
      gpu.return
    }
  }
}

// -----

// The thread id reaches the helper through a buffer of the thread's own: a
// barrier under a condition on what the helper loads from it may be
// skipped by some threads (was silent, trial 42).
module attributes {gpu.container_module} {
  gpu.module @k {
    func.func @sync_if_low(%box: memref<1xindex, 5>) {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %v = memref.load %box[%c0] : memref<1xindex, 5>
      %low = arith.cmpi ult, %v, %c4 : index
      scf.if %low {
        gpu.barrier
      }
      return
    }
    gpu.func @kern() private(%box: memref<1xindex, 5>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      memref.store %tid, %box[%c0] : memref<1xindex, 5>
      func.call @sync_if_low(%box) : (memref<1xindex, 5>) -> ()
      gpu.return
    }
  }
}
