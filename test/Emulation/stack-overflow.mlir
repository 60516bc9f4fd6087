// A program that overflows its stack is a located error and exit 1, never a
// SIGSEGV: the entry's fiber (1 GiB) and each GPU thread's fiber (2 MiB)
// end in a guard page, every JIT-compiled frame probes its pages in order
// (so even one huge frame hits the guard page first), and a fault in the
// guard page returns from the fiber. The run stops there; a later run in
// the same process (several modes) reports it again.
//
// RUN: not apipe-run %s --entry=deep_recursion 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: stack-overflow.mlir:[[# @LINE + 47]]:3: error: the program overflowed the entry's stack of 1 GiB: recursion too deep, or a 'memref.alloca' in a loop (its memory is freed only when the function returns; wrap the loop body in 'memref.alloca_scope')
// DEEP-NOT: {{.}}
// At -O0, LLVM keeps the allocas as written (at -O2 it may remove them).
// RUN: not apipe-run %s --entry=alloca_in_loop -O0 2>&1 | FileCheck %s --check-prefix=LOOP
// LOOP: stack-overflow.mlir:[[# @LINE + 66]]:3: error: the program overflowed the entry's stack of 1 GiB
// RUN: not apipe-run %s --entry=huge_alloca -O0 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: stack-overflow.mlir:[[# @LINE + 83]]:3: error: the program overflowed the entry's stack of 1 GiB
// RUN: not apipe-run %s --entry=deep_recursion --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE-COUNT-2: error: the program overflowed the entry's stack of 1 GiB
//
// The alloca in a loop is fine in an alloca_scope, and a shallow recursion
// runs. (The scope's body must stay free of region ops: the lowering to
// LLVM turns them into blocks before it lowers the scope, which holds one
// block; the bounds checks of its store would add an `scf.if`.)
// RUN: apipe-run %S/Inputs/alloca-scope-in-loop.mlir --no-runtime-verification -O0 | FileCheck %s --check-prefix=SCOPE
// SCOPE: 49999995000000
// RUN: apipe-run %s --entry=shallow_recursion | FileCheck %s --check-prefix=SHALLOW
// SHALLOW: 499500
//
// A GPU thread that recurses too deep: the launch, with the thread.
// RUN: not apipe-run %s --entry=kernel_recursion 2>&1 | FileCheck %s --check-prefix=KERNEL
// KERNEL: stack-overflow.mlir:[[# @LINE + 114]]:5: error: the kernel overflowed a GPU thread's stack of 2 MiB: recursion too deep, or a 'memref.alloca' in a loop (its memory is freed only when the function returns; wrap the loop body in 'memref.alloca_scope') (thread (0,0,0) of block (0,0,0))
// KERNEL-NOT: {{.}}

module attributes {gpu.container_module} {
  func.func private @printI64(i64)

  // Each level keeps a 2 KiB buffer that the next level writes through.
  func.func @recurse(%n: i64, %p: memref<256xi64>) -> i64 {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %i1 = arith.constant 1 : index
    memref.store %n, %p[%i1] : memref<256xi64>
    %z = arith.cmpi eq, %n, %c0 : i64
    %r = scf.if %z -> i64 {
      scf.yield %c0 : i64
    } else {
      %a = memref.alloca() : memref<256xi64>
      %m = arith.subi %n, %c1 : i64
      %s = func.call @recurse(%m, %a) : (i64, memref<256xi64>) -> i64
      %v = memref.load %a[%i1] : memref<256xi64>
      %t = arith.addi %s, %v : i64
      scf.yield %t : i64
    }
    return %r : i64
  }

  func.func @deep_recursion() {
    %n = arith.constant 100000000 : i64
    %a = memref.alloca() : memref<256xi64>
    %r = func.call @recurse(%n, %a) : (i64, memref<256xi64>) -> i64
    func.call @printI64(%r) : (i64) -> ()
    return
  }

  func.func @shallow_recursion() {
    %n = arith.constant 1000 : i64
    %a = memref.alloca() : memref<256xi64>
    %r = func.call @recurse(%n, %a) : (i64, memref<256xi64>) -> i64
    func.call @printI64(%r) : (i64) -> ()
    return
  }

  func.func private @first(%a: memref<1024xi64>) -> i64 {
    %c0 = arith.constant 0 : index
    %r = memref.load %a[%c0] : memref<1024xi64>
    return %r : i64
  }

  // 8 KiB of stack per iteration, 10 million iterations.
  func.func @alloca_in_loop() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 10000000 : index
    %z = arith.constant 0 : i64
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> i64 {
      %a = memref.alloca() : memref<1024xi64>
      %ii = arith.index_cast %i : index to i64
      memref.store %ii, %a[%c0] : memref<1024xi64>
      %r = func.call @first(%a) : (memref<1024xi64>) -> i64
      %t = arith.addi %acc, %r : i64
      scf.yield %t : i64
    }
    func.call @printI64(%s) : (i64) -> ()
    return
  }

  // One frame of 32 GB (LLVM warns that it exceeds its limit): probed page by page, it hits the guard page
  // instead of stepping over it into other memory.
  func.func @huge_alloca() {
    %n = arith.constant 4000000000 : index
    %a = memref.alloca(%n) : memref<?xi64>
    %c0 = arith.constant 0 : index
    %v = arith.constant 7 : i64
    memref.store %v, %a[%c0] : memref<?xi64>
    %s = memref.subview %a[0] [1024] [1] : memref<?xi64> to memref<1024xi64, strided<[1]>>
    %c = memref.cast %s : memref<1024xi64, strided<[1]>> to memref<1024xi64>
    %r = func.call @first(%c) : (memref<1024xi64>) -> i64
    func.call @printI64(%r) : (i64) -> ()
    return
  }

  gpu.module @kernels {
    func.func @count_down(%n: i64, %p: memref<64xi64>) -> i64 {
      %c0 = arith.constant 0 : i64
      %c1 = arith.constant 1 : i64
      %i1 = arith.constant 1 : index
      memref.store %n, %p[%i1] : memref<64xi64>
      %z = arith.cmpi eq, %n, %c0 : i64
      %r = scf.if %z -> i64 {
        scf.yield %c0 : i64
      } else {
        %a = memref.alloca() : memref<64xi64>
        %m = arith.subi %n, %c1 : i64
        %s = func.call @count_down(%m, %a) : (i64, memref<64xi64>) -> i64
        %v = memref.load %a[%i1] : memref<64xi64>
        %t = arith.addi %s, %v : i64
        scf.yield %t : i64
      }
      return %r : i64
    }

    gpu.func @deep(%out: memref<1xi64>) kernel {
      %n = arith.constant 1000000 : i64
      %a = memref.alloca() : memref<64xi64>
      %r = func.call @count_down(%n, %a) : (i64, memref<64xi64>) -> i64
      %c0 = arith.constant 0 : index
      memref.store %r, %out[%c0] : memref<1xi64>
      gpu.return
    }
  }

  func.func @kernel_recursion() {
    %c1 = arith.constant 1 : index
    %out = memref.alloc() : memref<1xi64>
    gpu.launch_func @kernels::@deep blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<1xi64>)
    memref.dealloc %out : memref<1xi64>
    return
  }
}
