// A kernel loop whose trip count is loaded from memory (A[63] mod 8, the
// same position in every thread, of a buffer the kernel never writes) has
// the same trip count in every thread: the pipeliner's output
// (num-stages=3) is hazard-free, and apipe-check-hazards says so. Before,
// a loaded value counted as different per thread, and the checker reported
// six cross-thread errors on the pipeliner's own output.
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null > %t.pipelined.mlir
// RUN: apipe-opt %t.pipelined.mlir --apipe-check-hazards -o /dev/null
// It runs under apipe-run and prints what make-sync prints: n = 63 mod 8 =
// 7 tiles, thread t sums its neighbour's element of each tile,
// out[t] = 168 + 7 ((t + 1) mod 8) for t < 8, out[i] = i above.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-run %t.pipelined.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s --check-prefix=ALL
// The token form converts to mbarriers (the sync ops write no data: a
// global that no thread writes keeps a uniform load uniform; trial 49 F4,
// where the conversion refused the kernel), silent and right.
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | apipe-opt --apipe-tokens-to-mbarrier=slots=3 -o %t.mb.mlir
// RUN: apipe-opt %t.mb.mlir --apipe-check-hazards -o /dev/null
// RUN: apipe-run %t.mb.mlir --completion=lazy,eager | FileCheck %s --check-prefix=MB
// MB-COUNT-2: [175,  182,  189,  196,  203,  210,  217,  168,  8,  9,
// CHECK: [175,  182,  189,  196,  203,  210,  217,  168,  8,  9,
// ALL-COUNT-6: [175,  182,  189,  196,  203,  210,  217,  168,  8,  9,
//
// A trip count loaded from a buffer the kernel writes (%out) may differ
// between threads (each thread stores its own values there): the loop's
// trip count depends on the thread id, and the pipeliner refuses it (it
// pipelined it, and the checker reported the races of its output).
// RUN: sed -e 's/%nv = memref.load %A\[%c63\]/%nv = memref.load %out[%c63]/' %s | not apipe-opt --apipe-software-pipeline="num-stages=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRITTEN
// WRITTEN: error: 'scf.for' op runs a number of iterations that depends on the thread id
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @kern(%A: memref<64xi32>, %out: memref<64xi32>) workgroup(%buf: memref<8xi32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %z = arith.constant 0 : i32
      %t = gpu.thread_id x
      %c63 = arith.constant 63 : index
      %nv = memref.load %A[%c63] : memref<64xi32>
      %ni = arith.index_cast %nv : i32 to index
      %n = arith.remui %ni, %c8 : index
      %nb = arith.addi %t, %c1 : index
      %nm = arith.remui %nb, %c8 : index
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> i32 {
        %base = arith.muli %i, %c8 : index
        %src = arith.addi %base, %t : index
        apipe.copy %A[%src], %buf[%t], 1 : memref<64xi32> to memref<8xi32, 3>
        apipe.commit_group
        apipe.wait_group 0
        gpu.barrier
        %x = memref.load %buf[%nm] : memref<8xi32, 3>
        %s = arith.addi %acc, %x : i32
        gpu.barrier
        scf.yield %s : i32
      }
      memref.store %r, %out[%t] : memref<64xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c9 = arith.constant 9 : index
    %c64 = arith.constant 64 : index
    %A = memref.alloc() : memref<64xi32>
    %out = memref.alloc() : memref<64xi32>
    scf.for %i = %c0 to %c64 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %A[%i] : memref<64xi32>
      memref.store %v, %out[%i] : memref<64xi32>
    }
    gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<64xi32>, %out : memref<64xi32>)
    %u = memref.cast %out : memref<64xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
