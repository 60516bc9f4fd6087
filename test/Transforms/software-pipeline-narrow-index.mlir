// Index arithmetic in a narrower integer type that does not wrap keeps its
// exact form (trial 35 made wrapping exact, not unknown): a copy offset
// computed in i32, and a store into the copy's source at an i32 index past
// every copied element, are pipelined from num-stages, and the pipelined
// program under apipe-run in lazy, eager and random completion prints what
// apipe-make-sync of the input prints; apipe-check-hazards is silent on it.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 | apipe-run - --completion=random:1 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 | apipe-run - --completion=random:2 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" | apipe-run - --completion=random:3 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 | apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | count 0

func.func private @printMemrefF32(memref<*xf32>)

// out[i] = A[4i + 1] + A[4i + 3] for i < 15; the loop also stores that sum
// into A[64 + i], past the 60 elements the copies read.
// REMARK: remark: scheduled 3 stages (num_stages = 3)
// REMARK-SAME: versions: memref<4xf32> x 3
func.func @narrow(%A: memref<80xf32>, %out: memref<15xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c15 = arith.constant 15 : index
  %four = arith.constant 4 : i32
  %base = arith.constant 64 : i32
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c15 step %c1 {
    %t = arith.index_cast %i : index to i32
    %o = arith.muli %t, %four : i32
    %off = arith.index_cast %o : i32 to index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<80xf32> to memref<4xf32>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%c1] : memref<4xf32>
    %y = memref.load %buf[%c3] : memref<4xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %out[%i] : memref<15xf32>
    %u = arith.addi %t, %base : i32
    %w = arith.index_castui %u : i32 to index
    memref.store %s, %A[%w] : memref<80xf32>
  }
  memref.dealloc %buf : memref<4xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c80 = arith.constant 80 : index
  %A = memref.alloc() : memref<80xf32>
  %out = memref.alloc() : memref<15xf32>
  scf.for %i = %c0 to %c80 step %c1 {
    %t = arith.index_cast %i : index to i32
    %f = arith.sitofp %t : i32 to f32
    memref.store %f, %A[%i] : memref<80xf32>
  }
  func.call @narrow(%A, %out) : (memref<80xf32>, memref<15xf32>) -> ()
  %o = memref.cast %out : memref<15xf32> to memref<*xf32>
  // CHECK: [4,  12,  20,  28,  36,  44,  52,  60,  68,  76,  84,  92,  100,  108,  116]
  func.call @printMemrefF32(%o) : (memref<*xf32>) -> ()
  %a = memref.cast %A : memref<80xf32> to memref<*xf32>
  // CHECK: [0,  1,  2,  3,
  // CHECK-SAME: 63,  4,  12,  20,  28,  36,  44,  52,  60,  68,  76,  84,  92,  100,  108,  116,  79]
  func.call @printMemrefF32(%a) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<80xf32>
  memref.dealloc %out : memref<15xf32>
  return
}
