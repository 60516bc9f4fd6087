// The kernels of test/Transforms/make-sync-mbarrier.mlir: @exchange runs
// end to end in that test itself (its input in lazy, eager and random
// completion x forward and reverse, against its apipe-make-sync form).
// @producer_only (thread 0 alone copies, arrives on a 1-arrival mbarrier
// and waits; nobody reads the tile), which apipe-make-sync refuses (a wait
// under thread-dependent control flow), runs here in one block of 4 threads
// in lazy, eager and random completion and two schedules with the race
// checker on: no race, no deadlock, no stray arrival error. It writes no
// global memory, so there is no value to compare and no make-sync
// reference: the driver prints A's sum after the launch, unchanged
// (0 + ... + 15 = 120), once per run.
//
// RUN: awk 'BEGIN{ORS=""} /^  gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^  }$/{if(on && b ~ /@producer_only\(/) print b; on=0}' %apipe_root/test/Transforms/make-sync-mbarrier.mlir > %t.kernel
// RUN: grep -c 'gpu.func @producer_only' %t.kernel | FileCheck %s --check-prefix=ONE
// ONE: {{^1$}}
// RUN: sed -e '/^\/\/ @kernels$/r %t.kernel' %s > %t.mlir
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | grep -v '^// apipe-run' | FileCheck %s
// RUN: not apipe-opt %t.mlir --apipe-make-sync -o /dev/null 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: error: 'apipe.mbarrier_wait' op waits under control flow that depends on the thread id

// CHECK: {{^}}120{{$}}
// CHECK-NEXT: {{^}}120{{$}}
// CHECK-NEXT: {{^}}120{{$}}
// CHECK-NEXT: {{^}}120{{$}}
// CHECK-NEXT: {{^}}120{{$}}
// CHECK-NEXT: {{^}}120{{$}}
// CHECK-NOT: {{.}}

module attributes {gpu.container_module} {
// @kernels
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %A = memref.alloc() : memref<16xi32>
    scf.for %i = %c0 to %c16 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %A[%i] : memref<16xi32>
    }
    gpu.launch_func @kernels::@producer_only blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xi32>)
    %z = arith.constant 0 : i64
    %sum = scf.for %i = %c0 to %c16 step %c1 iter_args(%s = %z) -> (i64) {
      %v = memref.load %A[%i] : memref<16xi32>
      %w = arith.extsi %v : i32 to i64
      %t = arith.addi %s, %w : i64
      scf.yield %t : i64
    }
    func.call @printI64(%sum) : (i64) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %A : memref<16xi32>
    return
  }
}
