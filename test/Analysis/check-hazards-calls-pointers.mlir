// apipe-check-hazards where an access is not a plain load or store of the
// buffer: a call (what its callee does with the buffers it is passed and
// the globals it takes), a load through a pointer, a copy whose source size
// is smaller than what it writes, and a certain hazard next to one that
// rests on two arguments that may alias. Each racy case is an error at its
// exact line and column; each twin is silent; no other error or remark may
// appear.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:

// Two copies into overlapping elements of %out (4..7 and 6..9), in flight
// together: a write-after-write for certain. The second copy's source may
// alias %out too (no llvm.noalias), which alone would be a remark; the
// certain hazard is the error, not hidden behind the remark.
// CHECK: check-hazards-calls-pointers.mlir:[[# @LINE + 6]]:3: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
func.func @waw_next_to_alias(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  apipe.copy %A[%c4], %out[%c4], 4 : memref<64xf32> to memref<16xf32>
  apipe.copy %A[%c8], %out[%c6], 4 : memref<64xf32> to memref<16xf32>
  apipe.commit_group
  apipe.wait_group 0
  return
}

// -----

// A memref.copy into the destination of a copy in flight, from a buffer
// that may alias it: a write-after-write for certain (the read of %B is
// only a possible hazard).
// CHECK: check-hazards-calls-pointers.mlir:[[# @LINE + 6]]:3: error: 'memref.copy' op writes a buffer region that an async copy may still be writing (its destination): the copy may land after this write and erase it (write-after-write)
func.func @memref_copy_over_destination(%A: memref<64xf32>, %B: memref<16xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  apipe.copy %A[%c4], %out[%c0], 4 : memref<64xf32> to memref<16xf32>
  apipe.commit_group
  memref.copy %B, %out : memref<16xf32> to memref<16xf32>
  apipe.wait_group 0
  return
}

// -----

// A call whose callee reads the global that a copy in flight writes: the
// call reads it (read-after-write), though it passes no buffer.
memref.global "private" @g : memref<8xf32> = dense<0.0>
func.func @read_g() -> f32 {
  %c1 = arith.constant 1 : index
  %g = memref.get_global @g : memref<8xf32>
  %x = memref.load %g[%c1] : memref<8xf32>
  return %x : f32
}
// Through a function that calls it, too.
func.func @read_g_twice() -> f32 {
  %x = func.call @read_g() : () -> f32
  %y = func.call @read_g() : () -> f32
  %z = arith.addf %x, %y : f32
  return %z : f32
}
// CHECK: check-hazards-calls-pointers.mlir:[[# @LINE + 7]]:8: error: 'func.call' op reads a buffer region that an async copy may still be writing (read-after-write)
func.func @call_reads_global(%A: memref<64xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %g = memref.get_global @g : memref<8xf32>
  apipe.copy %A[%c8], %g[%c0], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  %x = func.call @read_g_twice() : () -> f32
  apipe.wait_group 0
  return %x : f32
}
// The twin: the call after the wait.
func.func @call_reads_global_after_wait(%A: memref<64xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %g = memref.get_global @g : memref<8xf32>
  apipe.copy %A[%c8], %g[%c0], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  apipe.wait_group 0
  %x = func.call @read_g_twice() : () -> f32
  return %x : f32
}

// -----

// A call whose callee only reads the buffer it is passed, while a copy in
// flight reads the same buffer (its source): two reads, no hazard. (Taken
// as reading and writing it, the call would be a write-after-read.)
func.func @sum(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %x = memref.load %A[%c0] : memref<64xf32>
  return %x : f32
}
func.func @call_reads_source(%A: memref<64xf32> {llvm.noalias}, %buf: memref<4xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  %x = func.call @sum(%A) : (memref<64xf32>) -> f32
  apipe.wait_group 0
  return %x : f32
}

// -----

// A load through a pointer made from the destination's aligned pointer:
// llvm.load's Read effect is on an !llvm.ptr, which may be any memory.
// CHECK: check-hazards-calls-pointers.mlir:[[# @LINE + 9]]:8: error: 'llvm.load' op reads a buffer region that an async copy may still be writing (read-after-write)
func.func @load_through_pointer(%A: memref<64xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  %p = memref.extract_aligned_pointer_as_index %buf : memref<4xf32> -> index
  %pi = arith.index_cast %p : index to i64
  %ptr = llvm.inttoptr %pi : i64 to !llvm.ptr
  %x = llvm.load %ptr : !llvm.ptr -> f32
  apipe.wait_group 0
  memref.dealloc %buf : memref<4xf32>
  return %x : f32
}

// -----

// A copy with src_elements = 2 reads A[8..9] only (the other 2 elements
// are zero-filled): a store into A[11] while it is in flight is no hazard.
func.func @src_elements_constant(%A: memref<64xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c11 = arith.constant 11 : index
  %f = arith.constant 9.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c8], %buf[%c0], 4, %c2 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  memref.store %f, %A[%c11] : memref<64xf32>
  apipe.wait_group 0
  memref.dealloc %buf : memref<4xf32>
  return
}
// The twin: a store into A[9], which it reads (write-after-read).
// CHECK: check-hazards-calls-pointers.mlir:[[# @LINE + 10]]:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
func.func @src_elements_constant_overlap(%A: memref<64xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %f = arith.constant 9.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c8], %buf[%c0], 4, %c2 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  memref.store %f, %A[%c9] : memref<64xf32>
  apipe.wait_group 0
  memref.dealloc %buf : memref<4xf32>
  return
}
// A dynamic src_elements may be up to 4: A[11] may be read.
// CHECK: check-hazards-calls-pointers.mlir:[[# @LINE + 9]]:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
func.func @src_elements_dynamic(%A: memref<64xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c11 = arith.constant 11 : index
  %f = arith.constant 9.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c8], %buf[%c0], 4, %n : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  memref.store %f, %A[%c11] : memref<64xf32>
  apipe.wait_group 0
  memref.dealloc %buf : memref<4xf32>
  return
}

// -----

// A callee that returns with its copy uncommitted: the copy joins the
// caller's next group, and a read of its destination before the caller's
// wait is a read-after-write (at the callee's copy, the note says).
func.func @issue(%A: memref<64xf32> {llvm.noalias}, %buf: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  apipe.copy %A[%c8], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  return
}
// CHECK: check-hazards-calls-pointers.mlir:[[# @LINE + 6]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK: check-hazards-calls-pointers.mlir:[[# @LINE - 4]]:3: note: the async copy still in flight; 0 newer group(s) committed on queue 0 since its group
func.func @read_before_wait(%A: memref<64xf32> {llvm.noalias}, %buf: memref<4xf32> {llvm.noalias}) -> f32 {
  %c1 = arith.constant 1 : index
  func.call @issue(%A, %buf) : (memref<64xf32>, memref<4xf32>) -> ()
  apipe.commit_group
  %x = memref.load %buf[%c1] : memref<4xf32>
  apipe.wait_group 0
  return %x : f32
}
// The twin: the read after the wait.
func.func @read_after_wait(%A: memref<64xf32> {llvm.noalias}, %buf: memref<4xf32> {llvm.noalias}) -> f32 {
  %c1 = arith.constant 1 : index
  func.call @issue(%A, %buf) : (memref<64xf32>, memref<4xf32>) -> ()
  apipe.commit_group
  apipe.wait_group 0
  %x = memref.load %buf[%c1] : memref<4xf32>
  return %x : f32
}

// -----

// The same through a function with no copy of its own, defined after its
// caller: functions are walked callees first, and the copy @inner leaves
// in flight is in flight after @outer too.
func.func @inner(%A: memref<64xf32> {llvm.noalias}, %buf: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  apipe.copy %A[%c8], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  return
}
// CHECK: check-hazards-calls-pointers.mlir:[[# @LINE + 5]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
func.func @read_through_outer(%A: memref<64xf32> {llvm.noalias}, %buf: memref<4xf32> {llvm.noalias}) -> f32 {
  %c1 = arith.constant 1 : index
  func.call @outer(%A, %buf) : (memref<64xf32>, memref<4xf32>) -> ()
  apipe.commit_group
  %x = memref.load %buf[%c1] : memref<4xf32>
  apipe.wait_group 0
  return %x : f32
}
func.func @outer(%A: memref<64xf32> {llvm.noalias}, %b: memref<4xf32> {llvm.noalias}) {
  func.call @inner(%A, %b) : (memref<64xf32>, memref<4xf32>) -> ()
  return
}

// -----

// A callee that commits and returns with the group in flight, called by a
// function without token waits: the walk takes the copy in at the call
// (it was refused, "apipe counts groups only within a function", until
// trial 58), and the read before the wait races with it.
func.func @issue_and_commit(%A: memref<64xf32> {llvm.noalias}, %buf: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  apipe.copy %A[%c8], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  return
}
// CHECK: check-hazards-calls-pointers.mlir:[[# @LINE + 4]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
func.func @call_committing(%A: memref<64xf32> {llvm.noalias}, %buf: memref<4xf32> {llvm.noalias}) -> f32 {
  %c1 = arith.constant 1 : index
  func.call @issue_and_commit(%A, %buf) : (memref<64xf32>, memref<4xf32>) -> ()
  %x = memref.load %buf[%c1] : memref<4xf32>
  apipe.wait_group 0
  return %x : f32
}

// -----

// In a kernel: a call whose callee stores into the global that every
// thread's copy in flight reads (write-after-read).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @src : memref<32xf32> = dense<1.0>
    func.func @write_src(%i: index) {
      %f = arith.constant 5.0 : f32
      %g = memref.get_global @src : memref<32xf32>
      memref.store %f, %g[%i] : memref<32xf32>
      return
    }
    // CHECK: check-hazards-calls-pointers.mlir:[[# @LINE + 6]]:7: error: 'func.call' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
    gpu.func @k(%out: memref<32xf32>) workgroup(%sb: memref<32xf32, 3>) kernel {
      %tid = gpu.thread_id x
      %g = memref.get_global @src : memref<32xf32>
      apipe.copy %g[%tid], %sb[%tid], 1 : memref<32xf32> to memref<32xf32, 3>
      apipe.commit_group
      func.call @write_src(%tid) : (index) -> ()
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %sb[%tid] : memref<32xf32, 3>
      memref.store %x, %out[%tid] : memref<32xf32>
      gpu.return
    }
  }
}
