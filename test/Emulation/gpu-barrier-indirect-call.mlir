// A `gpu.barrier` in a function that a kernel calls through a value
// (`func.constant` + `func.call_indirect`, `llvm.mlir.addressof` +
// `llvm.call`) synchronizes the block like one called directly (trial
// 57). The kernel module's functions are renamed for the emulation; only
// call and global references followed the new name, so a `func.constant`
// or an `llvm.mlir.addressof` kept naming the host copy of the function,
// whose barrier did nothing: a deadlock went unreported, and a correct
// kernel was reported racing. References now follow through MLIR's
// SymbolTable::replaceAllSymbolUses.
// RUN: apipe-run %s --entry=store_barrier_load --schedule=forward,reverse | FileCheck %s --check-prefix=OK
// OK-COUNT-2: [5,  5]
// RUN: not apipe-run %s --entry=divergent_indirect 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: not apipe-run %s --entry=divergent_llvm 2>&1 | FileCheck %s --check-prefix=DEADLOCK-LLVM
// DEADLOCK: gpu-barrier-indirect-call.mlir:[[# @LINE + 35]]:7: error: deadlock: thread (1,0,0) of block (0,0,0) waits at this 'gpu.barrier', but thread (0,0,0) of the block has returned and never reaches it
// DEADLOCK-LLVM: gpu-barrier-indirect-call.mlir:[[# @LINE + 53]]:7: error: deadlock: thread (1,0,0) of block (0,0,0) waits at this 'gpu.barrier', but thread (0,0,0) of the block has returned and never reaches it
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @bar() {
    gpu.barrier
    return
  }
  func.func @store_barrier_load() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %out = memref.alloc() : memref<2xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
      %sh = memref.alloc() : memref<1xf32, 3>
      %f = arith.constant 5.0 : f32
      %is0 = arith.cmpi eq, %tx, %c0 : index
      scf.if %is0 {
        memref.store %f, %sh[%c0] : memref<1xf32, 3>
      }
      %fp = func.constant @bar : () -> ()
      func.call_indirect %fp() : () -> ()
      %v = memref.load %sh[%c0] : memref<1xf32, 3>
      memref.store %v, %out[%tx] : memref<2xf32>
      gpu.terminator
    }
    %u = memref.cast %out : memref<2xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  // Thread t reaches t barriers.
  func.func @barriers(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      gpu.barrier
    }
    return
  }
  func.func @divergent_indirect() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %fp = func.constant @barriers : (index) -> ()
      func.call_indirect %fp(%tx) : (index) -> ()
      gpu.terminator
    }
    return
  }
  llvm.func @llvm_barriers(%n: i64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %nn = arith.index_cast %n : i64 to index
    scf.for %i = %c0 to %nn step %c1 {
      gpu.barrier
    }
    llvm.return
  }
  func.func @divergent_llvm() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %t = arith.index_cast %tx : index to i64
      %fp = llvm.mlir.addressof @llvm_barriers : !llvm.ptr
      llvm.call %fp(%t) : !llvm.ptr, (i64) -> ()
      gpu.terminator
    }
    return
  }
}
