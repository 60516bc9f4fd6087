// `llvm.call` is followed like `func.call` (trial 26): the waits an
// llvm.func makes in its entry block complete the caller's groups (before,
// a false alarm), and the copies it returns with in flight are in flight
// at the caller (before, a missed read-after-write). In GPU code a call of
// an llvm.func with apipe ops is refused as a func.call is (before, the
// kernel passed unchecked).
// RUN: head -n 49 %s | apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: head -n 49 %s | apipe-run - --completion=lazy | FileCheck %s
// RUN: head -n 49 %s | apipe-run - --completion=eager | FileCheck %s
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=BROKEN

// CHECK: [0,  0,  0,  7,  0]
// BROKEN-NOT: error
// BROKEN: check-hazards-llvm-call.mlir:66:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// BROKEN-NOT: error
// BROKEN: check-hazards-llvm-call.mlir:87:7: error: 'llvm.call' op in GPU code calls @issue, which has async copies, commits or waits
// BROKEN-NOT: error
// BROKEN: check-hazards-llvm-call.mlir:113:7: error: 'llvm.call' op in GPU code calls a function through a value, which may be one that has async copies, commits or waits
// BROKEN-NOT: error
llvm.func @drain() {
  apipe.wait_group 0
  llvm.return
}
func.func @k(%A: memref<5xf32> {llvm.noalias}, %buf: memref<5xf32> {llvm.noalias}, %o: memref<5xf32> {llvm.noalias}) {
  %c3 = arith.constant 3 : index
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %buf[%c0], 5 : memref<5xf32> to memref<5xf32>
  apipe.commit_group
  llvm.call @drain() : () -> ()
  %x = memref.load %buf[%c3] : memref<5xf32>
  memref.store %x, %o[%c3] : memref<5xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c3 = arith.constant 3 : index
  %f7 = arith.constant 7.0 : f32
  %A = memref.alloc() : memref<5xf32>
  %o = memref.alloc() : memref<5xf32>
  %buf = memref.alloc() : memref<5xf32>
  linalg.fill ins(%f7 : f32) outs(%A : memref<5xf32>)
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%o : memref<5xf32>)
  func.call @k(%A, %buf, %o) : (memref<5xf32>, memref<5xf32>, memref<5xf32>) -> ()
  %u = memref.cast %o : memref<5xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

memref.global "private" @tile : memref<4xf32> = uninitialized
llvm.func @leave(%i: i64) {
  %c0 = arith.constant 0 : index
  %src = memref.alloc() : memref<4xf32>
  %t = memref.get_global @tile : memref<4xf32>
  apipe.copy %src[%c0], %t[%c0], 4 : memref<4xf32> to memref<4xf32>
  apipe.commit_group
  llvm.return
}
func.func @reads_too_early(%o: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %i = arith.constant 0 : i64
  %t = memref.get_global @tile : memref<4xf32>
  llvm.call @leave(%i) : (i64) -> ()
  %v = memref.load %t[%c1] : memref<4xf32>
  memref.store %v, %o[%c1] : memref<4xf32>
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @g : memref<8xf32> = uninitialized
    llvm.func @issue() {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %g = memref.get_global @g : memref<8xf32>
      apipe.copy %g[%c0], %g[%c4], 4 : memref<8xf32> to memref<8xf32>
      apipe.commit_group
      llvm.return
    }
    gpu.func @kernel(%out: memref<8xf32>) kernel {
      %c5 = arith.constant 5 : index
      %g = memref.get_global @g : memref<8xf32>
      llvm.call @issue() : () -> ()
      %v = memref.load %g[%c5] : memref<8xf32>
      memref.store %v, %out[%c5] : memref<8xf32>
      gpu.return
    }
  }
}

// -----

// The same call through a value (trial 28: not refused).
module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @g : memref<8xf32> = uninitialized
    llvm.func @issue() {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %g = memref.get_global @g : memref<8xf32>
      apipe.copy %g[%c0], %g[%c4], 4 : memref<8xf32> to memref<8xf32>
      apipe.commit_group
      llvm.return
    }
    gpu.func @kernel(%out: memref<8xf32>) kernel {
      %c5 = arith.constant 5 : index
      %g = memref.get_global @g : memref<8xf32>
      %p = llvm.mlir.addressof @issue : !llvm.ptr
      llvm.call %p() : !llvm.ptr, () -> ()
      %v = memref.load %g[%c5] : memref<8xf32>
      memref.store %v, %out[%c5] : memref<8xf32>
      gpu.return
    }
  }
}
