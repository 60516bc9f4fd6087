// `memref.dealloc` of anything but a live buffer of `memref.alloc` is a
// located error at the dealloc and exit 1, before `free` runs (never
// glibc's "double free" abort or heap corruption): a second dealloc (twice
// in a row, in a loop, after a branch, through a cast, a view at offset 0
// or an unranked cast, in a kernel thread), a view at another offset, a
// 'memref.alloca', a 'memref.get_global', a 'memref.view' with a byte
// shift. Programs that free correctly run unchanged (@clean).
//
// RUN: not apipe-run %s --entry=twice 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: dealloc-errors.mlir:[[# @LINE + 45]]:3: error: 'memref.dealloc' of a buffer that is already freed (double free)
// TWICE-NEXT: dealloc-errors.mlir:[[# @LINE + 42]]:8: note: the buffer was allocated here
// TWICE-NEXT: dealloc-errors.mlir:[[# @LINE + 42]]:3: note: and freed here
// TWICE-NOT: {{.}}
// RUN: not apipe-run %s --entry=in_loop --completion=eager 2>&1 | FileCheck %s --check-prefix=LOOP
// LOOP: 1
// LOOP-NEXT: 1
// LOOP-NEXT: dealloc-errors.mlir:[[# @LINE + 51]]:5: error: 'memref.dealloc' of a buffer that is already freed (double free)
// LOOP-NEXT: dealloc-errors.mlir:[[# @LINE + 46]]:8: note: the buffer was allocated here
// LOOP-NEXT: dealloc-errors.mlir:[[# @LINE + 49]]:5: note: and freed here
// LOOP-NOT: {{.}}
// RUN: not apipe-run %s --entry=after_branch --completion=random:3 2>&1 | FileCheck %s --check-prefix=BRANCH
// BRANCH: dealloc-errors.mlir:[[# @LINE + 57]]:3: error: 'memref.dealloc' of a buffer that is already freed (double free)
// BRANCH: note: and freed here
// RUN: not apipe-run %s --entry=through_cast 2>&1 | FileCheck %s --check-prefix=CAST
// CAST: dealloc-errors.mlir:[[# @LINE + 62]]:3: error: 'memref.dealloc' of a buffer that is already freed (double free)
// RUN: not apipe-run %s --entry=through_subview 2>&1 | FileCheck %s --check-prefix=SUBVIEW
// SUBVIEW: dealloc-errors.mlir:[[# @LINE + 68]]:3: error: 'memref.dealloc' of a buffer that is already freed (double free)
// RUN: not apipe-run %s --entry=unranked 2>&1 | FileCheck %s --check-prefix=UNRANKED
// UNRANKED: dealloc-errors.mlir:[[# @LINE + 74]]:3: error: 'memref.dealloc' of a buffer that is already freed (double free)
// RUN: not apipe-run %s --entry=inner_view 2>&1 | FileCheck %s --check-prefix=VIEW
// VIEW: dealloc-errors.mlir:[[# @LINE + 79]]:3: error: 'memref.dealloc' of a view at byte offset 8 into a buffer, not of the buffer
// VIEW-NEXT: dealloc-errors.mlir:[[# @LINE + 76]]:8: note: the buffer was allocated here
// RUN: not apipe-run %s --entry=of_alloca 2>&1 | FileCheck %s --check-prefix=ALLOCA
// ALLOCA: dealloc-errors.mlir:[[# @LINE + 82]]:3: error: 'memref.dealloc' of memory that no live 'memref.alloc' returned
// RUN: not apipe-run %s --entry=of_global 2>&1 | FileCheck %s --check-prefix=GLOBAL
// GLOBAL: dealloc-errors.mlir:[[# @LINE + 86]]:3: error: 'memref.dealloc' of memory that no live 'memref.alloc' returned
// RUN: not apipe-run %s --entry=shifted_view 2>&1 | FileCheck %s --check-prefix=SHIFT
// SHIFT: dealloc-errors.mlir:[[# @LINE + 92]]:3: error: 'memref.dealloc' of memory that no live 'memref.alloc' returned
// RUN: not apipe-run %s --entry=in_kernel --schedule=reverse 2>&1 | FileCheck %s --check-prefix=KERNEL
// KERNEL: dealloc-errors.mlir:[[# @LINE + 109]]:7: error: 'memref.dealloc' of a buffer that is already freed (double free) (thread (1,0,0) of block (0,0,0))
// KERNEL-NEXT: note: the buffer was allocated here
// KERNEL-NEXT: note: and freed here
// RUN: apipe-run %s --entry=clean --completion=lazy,eager,random:1 --schedule=forward,random:2 | FileCheck %s --check-prefix=CLEAN
// CLEAN-COUNT-6: 1000
// CLEAN-NOT: error

module attributes {gpu.container_module} {
memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func private @printI64(i64)
func.func private @printNewline()

func.func @twice() {
  %a = memref.alloc() : memref<2x4xf32>
  memref.dealloc %a : memref<2x4xf32>
  memref.dealloc %a : memref<2x4xf32>
  return
}

func.func @in_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i64
  %a = memref.alloc() : memref<4xi64>
  scf.for %i = %c0 to %c2 step %c1 {
    func.call @printI64(%one) : (i64) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %a : memref<4xi64>
  }
  return
}

func.func @after_branch() {
  %true = arith.constant true
  %a = memref.alloc() : memref<8xf32>
  scf.if %true {
    memref.dealloc %a : memref<8xf32>
  }
  memref.dealloc %a : memref<8xf32>
  return
}

func.func @through_cast() {
  %a = memref.alloc() : memref<8xf32>
  %d = memref.cast %a : memref<8xf32> to memref<?xf32>
  memref.dealloc %a : memref<8xf32>
  memref.dealloc %d : memref<?xf32>
  return
}

func.func @through_subview() {
  %a = memref.alloc() : memref<8xf32>
  %s = memref.subview %a[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  memref.dealloc %s : memref<4xf32, strided<[1]>>
  memref.dealloc %a : memref<8xf32>
  return
}

func.func @unranked() {
  %a = memref.alloc() : memref<2x3xi32>
  %u = memref.cast %a : memref<2x3xi32> to memref<*xi32>
  memref.dealloc %u : memref<*xi32>
  memref.dealloc %u : memref<*xi32>
  return
}

func.func @inner_view() {
  %a = memref.alloc() : memref<8xf32>
  %s = memref.subview %a[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  memref.dealloc %s : memref<4xf32, strided<[1], offset: 2>>
  return
}

func.func @of_alloca() {
  %a = memref.alloca() : memref<8xf32>
  memref.dealloc %a : memref<8xf32>
  return
}

func.func @of_global() {
  %g = memref.get_global @table : memref<4xf32>
  memref.dealloc %g : memref<4xf32>
  return
}

func.func @shifted_view() {
  %c16 = arith.constant 16 : index
  %a = memref.alloc() : memref<64xi8>
  %v = memref.view %a[%c16][] : memref<64xi8> to memref<4xf32>
  memref.dealloc %v : memref<4xf32>
  return
}

  gpu.module @kernels {
    // Thread 1 frees its private buffer twice; the workgroup buffer's
    // deallocs (through a cast too) do nothing.
    gpu.func @double(%out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %w = memref.alloc() : memref<4xf32, 3>
      %wc = memref.cast %w : memref<4xf32, 3> to memref<?xf32, 3>
      memref.dealloc %wc : memref<?xf32, 3>
      memref.dealloc %w : memref<4xf32, 3>
      %t = gpu.thread_id x
      %p = memref.alloc() : memref<2xf32>
      memref.dealloc %p : memref<2xf32>
      %second = arith.cmpi eq, %t, %c1 : index
      scf.if %second {
      memref.dealloc %p : memref<2xf32>
      }
      gpu.return
    }
  }

func.func @in_kernel() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %out = memref.alloc() : memref<4xf32>
  gpu.launch_func @kernels::@double blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4xf32>)
  memref.dealloc %out : memref<4xf32>
  return
}

// Correct frees: 1000 allocs and deallocs (malloc hands addresses back),
// a cast, an unranked cast, a view at offset 0, aligned and vector
// buffers, rank 5, i1 elements, a callee that frees its argument, and a
// kernel that frees per-thread and workgroup buffers.
func.func @free_argument(%m: memref<?xf32>) {
  memref.dealloc %m : memref<?xf32>
  return
}

func.func @clean() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c1000 = arith.constant 1000 : index
  %count = scf.for %i = %c0 to %c1000 step %c1 iter_args(%n = %c0) -> (index) {
    %a = memref.alloc(%i) : memref<?xf32>
    %b = memref.alloc() {alignment = 64 : i64} : memref<3xvector<4xf32>>
    %c = memref.alloc() : memref<1x2x1x2x1xi1>
    %d = memref.alloc() : memref<6xi8>
    %e = memref.alloc() : memref<5xf32>
    %f = memref.alloc() : memref<2x2xf32>
    memref.dealloc %a : memref<?xf32>
    memref.dealloc %b : memref<3xvector<4xf32>>
    memref.dealloc %c : memref<1x2x1x2x1xi1>
    %dc = memref.cast %d : memref<6xi8> to memref<*xi8>
    memref.dealloc %dc : memref<*xi8>
    %ec = memref.cast %e : memref<5xf32> to memref<?xf32>
    func.call @free_argument(%ec) : (memref<?xf32>) -> ()
    %fs = memref.subview %f[0, 0] [1, 2] [1, 1] : memref<2x2xf32> to memref<2xf32, strided<[1]>>
    memref.dealloc %fs : memref<2xf32, strided<[1]>>
    %n1 = arith.addi %n, %c1 : index
    scf.yield %n1 : index
  }
  %out = memref.alloc() : memref<4xf32>
  gpu.launch_func @kernels::@double blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<4xf32>)
  memref.dealloc %out : memref<4xf32>
  %r = arith.index_cast %count : index to i64
  func.call @printI64(%r) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}
}
