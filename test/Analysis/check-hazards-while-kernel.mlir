// A double buffer in a kernel written with scf.while: a prologue copy into
// slot 0, then iteration i copies tile i + 1 into slot (i + 1) mod 2, waits
// for tile i (wait_group 1), and reads it after a barrier. The loop's
// argument %i counts the same in every thread (its start and its step are
// the same everywhere), so the loop is not divergent, and the prologue's
// group is counted through the iterations: apipe-check-hazards is silent.
// It reported a write-after-write and a read-after-write on it before
// (scf.while arguments counted as different per thread).
// RUN: apipe-opt %s --apipe-check-hazards -o /dev/null
// It runs under apipe-run with the race checker and prints what make-sync
// prints: thread t adds its neighbour's element of tiles 0..3, tile i being
// A[8 i .. 8 i + 8), A[j] = j: out[t] = 48 + 4 ((t + 1) mod 8) for t < 8.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-run %s --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s --check-prefix=ALL
// CHECK: [52,  56,  60,  64,  68,  72,  76,  48]
// ALL-COUNT-6: [52,  56,  60,  64,  68,  72,  76,  48]
//
// Broken twins are still reported by both tools: a wait one too weak
// (pending 2 leaves tile i in flight), and no barrier after the wait.
// RUN: sed -e 's/apipe.wait_group 1/apipe.wait_group 2/' %s > %t.weak.mlir
// RUN: not apipe-opt %t.weak.mlir --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=WEAK
// WEAK: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
// RUN: not apipe-run %t.weak.mlir 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: sed -e '/barrier after the wait/d' %s > %t.nobarrier.mlir
// RUN: not apipe-opt %t.nobarrier.mlir --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOBARRIER
// NOBARRIER: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
// RUN: not apipe-run %t.nobarrier.mlir 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: error: {{.*}}race (RAW) on shared memory byte

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%A: memref<64xi32>, %out: memref<8xi32>) workgroup(%buf: memref<2x8xi32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %z = arith.constant 0 : i32
      %t = gpu.thread_id x
      apipe.copy %A[%t], %buf[%c0, %t], 1 : memref<64xi32> to memref<2x8xi32, 3>
      apipe.commit_group
      %nb = arith.addi %t, %c1 : index
      %n = arith.remui %nb, %c8 : index
      %r:2 = scf.while (%i = %c0, %acc = %z) : (index, i32) -> (index, i32) {
        %go = arith.cmpi ult, %i, %c4 : index
        scf.condition(%go) %i, %acc : index, i32
      } do {
      ^bb0(%i: index, %a: i32):
        %i1 = arith.addi %i, %c1 : index
        %s = arith.remui %i1, %c2 : index
        %base = arith.muli %i1, %c8 : index
        %src = arith.addi %base, %t : index
        apipe.copy %A[%src], %buf[%s, %t], 1 : memref<64xi32> to memref<2x8xi32, 3>
        apipe.commit_group
        apipe.wait_group 1
        gpu.barrier // barrier after the wait
        %cs = arith.remui %i, %c2 : index
        %x = memref.load %buf[%cs, %n] : memref<2x8xi32, 3>
        %sum = arith.addi %a, %x : i32
        gpu.barrier
        scf.yield %i1, %sum : index, i32
      }
      apipe.wait_group 0
      memref.store %r#1, %out[%t] : memref<8xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %A = memref.alloc() : memref<64xi32>
    scf.for %j = %c0 to %c64 step %c1 {
      %v = arith.index_cast %j : index to i32
      memref.store %v, %A[%j] : memref<64xi32>
    }
    %out = memref.alloc() : memref<8xi32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<64xi32>, %out : memref<8xi32>)
    %u = memref.cast %out : memref<8xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
