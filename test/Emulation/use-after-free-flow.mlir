// A use after free is a located error at the use (notes at the alloc and
// the dealloc), exit 1, before the program touches the freed memory, also
// when the freed buffer reaches the use through `arith.select`, `scf.if` /
// `scf.index_switch` results, `scf.for` iter_args, `cf` block arguments,
// a call (use in the callee, free in the callee, a buffer a callee
// returns), a `gpu.launch_func` argument, or `memref.realloc` (the old
// buffer, and a freed result). Programs that free correctly run unchanged
// in every completion mode and print what their `apipe-make-sync` version
// prints (@clean).
//
// RUN: not apipe-run %s --entry=select 2>&1 | FileCheck %s --check-prefix=SELECT
// SELECT: use-after-free-flow.mlir:[[# @LINE + 64]]:8: error: 'memref.load' uses a buffer that is already freed (use after free)
// SELECT-NEXT: use-after-free-flow.mlir:[[# @LINE + 59]]:8: note: the buffer was allocated here
// SELECT-NEXT: use-after-free-flow.mlir:[[# @LINE + 61]]:3: note: and freed here
// SELECT-NOT: {{.}}
// RUN: not apipe-run %s --entry=if_result --completion=eager 2>&1 | FileCheck %s --check-prefix=IF
// IF: use-after-free-flow.mlir:[[# @LINE + 76]]:3: error: 'memref.store' uses a buffer that is already freed (use after free)
// IF-NEXT: note: the buffer was allocated here
// IF-NEXT: use-after-free-flow.mlir:[[# @LINE + 73]]:3: note: and freed here
// RUN: not apipe-run %s --entry=switch_result --completion=random:2 2>&1 | FileCheck %s --check-prefix=SWITCH
// SWITCH: use-after-free-flow.mlir:[[# @LINE + 88]]:8: error: 'memref.load' uses a buffer that is already freed (use after free)
// RUN: not apipe-run %s --entry=iter_args 2>&1 | FileCheck %s --check-prefix=ITER
// ITER: use-after-free-flow.mlir:[[# @LINE + 98]]:10: error: 'memref.load' uses a buffer that is already freed (use after free)
// ITER-NEXT: use-after-free-flow.mlir:[[# @LINE + 94]]:8: note: the buffer was allocated here
// ITER-NEXT: use-after-free-flow.mlir:[[# @LINE + 97]]:5: note: and freed here
// RUN: not apipe-run %s --entry=after_loop --completion=eager 2>&1 | FileCheck %s --check-prefix=AFTERLOOP
// AFTERLOOP: use-after-free-flow.mlir:[[# @LINE + 109]]:8: error: 'memref.load' uses a buffer that is already freed (use after free)
// RUN: not apipe-run %s --entry=branch_argument 2>&1 | FileCheck %s --check-prefix=BRANCH
// BRANCH: use-after-free-flow.mlir:[[# @LINE + 118]]:8: error: 'memref.load' uses a buffer that is already freed (use after free)
// RUN: not apipe-run %s --entry=use_in_callee 2>&1 | FileCheck %s --check-prefix=CALLEE
// CALLEE: use-after-free-flow.mlir:[[# @LINE + 125]]:3: error: 'memref.store' uses a buffer that is already freed (use after free)
// CALLEE-NEXT: use-after-free-flow.mlir:[[# @LINE + 129]]:8: note: the buffer was allocated here
// CALLEE-NEXT: use-after-free-flow.mlir:[[# @LINE + 122]]:3: note: and freed here
// RUN: not apipe-run %s --entry=free_in_callee --completion=random:7 2>&1 | FileCheck %s --check-prefix=FREECALLEE
// FREECALLEE: use-after-free-flow.mlir:[[# @LINE + 140]]:8: error: 'memref.load' uses a buffer that is already freed (use after free)
// FREECALLEE-NEXT: use-after-free-flow.mlir:[[# @LINE + 137]]:8: note: the buffer was allocated here
// FREECALLEE-NEXT: use-after-free-flow.mlir:[[# @LINE + 130]]:3: note: and freed here
// RUN: not apipe-run %s --entry=returned 2>&1 | FileCheck %s --check-prefix=RETURNED
// RETURNED: use-after-free-flow.mlir:[[# @LINE + 151]]:3: error: 'memref.store' uses a buffer that is already freed (use after free)
// RUN: not apipe-run %s --entry=kernel_argument 2>&1 | FileCheck %s --check-prefix=KERNEL
// KERNEL: use-after-free-flow.mlir:[[# @LINE + 158]]:3: error: 'gpu.launch_func' uses a buffer that is already freed (use after free)
// KERNEL-NEXT: use-after-free-flow.mlir:[[# @LINE + 155]]:8: note: the buffer was allocated here
// KERNEL-NEXT: use-after-free-flow.mlir:[[# @LINE + 155]]:3: note: and freed here
// RUN: not apipe-run %s --entry=realloc_old --completion=eager 2>&1 | FileCheck %s --check-prefix=REALLOCOLD
// REALLOCOLD: use-after-free-flow.mlir:[[# @LINE + 162]]:8: error: 'memref.load' uses a buffer that is already freed (use after free)
// RUN: not apipe-run %s --entry=realloc_result 2>&1 | FileCheck %s --check-prefix=REALLOCNEW
// REALLOCNEW: use-after-free-flow.mlir:[[# @LINE + 172]]:3: error: 'memref.store' uses a buffer that is already freed (use after free)
// RUN: not apipe-run %s --entry=copy_through_argument --completion=random:4 2>&1 | FileCheck %s --check-prefix=COPY
// COPY: use-after-free-flow.mlir:[[# @LINE + 185]]:3: error: 'apipe.copy' uses a buffer that is already freed (use after free)
//
// RUN: apipe-run %s --entry=clean --completion=lazy,eager,random:1,random:2 | FileCheck %s --check-prefix=CLEAN
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=clean | FileCheck %s --check-prefix=CLEAN
// CLEAN: [1,  4,  7,  10,  2,  2,  2,  2]
// CLEAN-NOT: error

module attributes {gpu.container_module} {

func.func private @printMemrefF32(memref<*xf32>)

gpu.module @kernels {
  gpu.func @fill(%out: memref<4xf32>) kernel {
    %t = gpu.thread_id x
    %f = arith.constant 1.0 : f32
    memref.store %f, %out[%t] : memref<4xf32>
    gpu.return
  }
}

func.func @select() {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %x = memref.alloc() : memref<4xf32>
  %y = memref.alloc() : memref<4xf32>
  %b = arith.select %true, %x, %y : memref<4xf32>
  memref.dealloc %x : memref<4xf32>
  %v = memref.load %b[%c0] : memref<4xf32>
  vector.print %v : f32
  return
}

func.func @if_result() {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %true = arith.constant true
  %x = memref.alloc() : memref<4xf32>
  %b = scf.if %true -> memref<4xf32> {
    scf.yield %x : memref<4xf32>
  } else {
    %y = memref.alloc() : memref<4xf32>
    scf.yield %y : memref<4xf32>
  }
  memref.dealloc %x : memref<4xf32>
  memref.store %f, %b[%c0] : memref<4xf32>
  return
}

func.func @switch_result() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<4xf32>
  %b = scf.index_switch %c1 -> memref<4xf32>
  case 1 {
    scf.yield %x : memref<4xf32>
  }
  default {
    scf.yield %x : memref<4xf32>
  }
  memref.dealloc %b : memref<4xf32>
  %v = memref.load %x[%c0] : memref<4xf32>
  vector.print %v : f32
  return
}

func.func @iter_args() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %x = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%b = %x) -> memref<4xf32> {
    // The second iteration loads the buffer the first one freed.
    %v = memref.load %b[%c0] : memref<4xf32>
    memref.dealloc %b : memref<4xf32>
    scf.yield %b : memref<4xf32>
  }
  return
}

func.func @after_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c1 step %c1 iter_args(%b = %x) -> memref<4xf32> {
    memref.dealloc %b : memref<4xf32>
    scf.yield %b : memref<4xf32>
  }
  %v = memref.load %x[%c0] : memref<4xf32>
  vector.print %v : f32
  return
}

func.func @branch_argument() {
  %c0 = arith.constant 0 : index
  %x = memref.alloc() : memref<4xf32>
  memref.dealloc %x : memref<4xf32>
  cf.br ^next(%x : memref<4xf32>)
^next(%b: memref<4xf32>):
  %v = memref.load %b[%c0] : memref<4xf32>
  vector.print %v : f32
  return
}

func.func @store_one(%a: memref<4xf32>, %alias: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.dealloc %a : memref<4xf32>
  memref.store %f, %alias[%c0] : memref<4xf32>
  return
}

func.func @use_in_callee() {
  %x = memref.alloc() : memref<4xf32>
  call @store_one(%x, %x) : (memref<4xf32>, memref<4xf32>) -> ()
  return
}

func.func @release(%a: memref<4xf32>) {
  memref.dealloc %a : memref<4xf32>
  return
}

func.func @free_in_callee() {
  %c0 = arith.constant 0 : index
  %x = memref.alloc() : memref<4xf32>
  call @release(%x) : (memref<4xf32>) -> ()
  %v = memref.load %x[%c0] : memref<4xf32>
  vector.print %v : f32
  return
}

func.func @identity(%a: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}

func.func @returned() {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %x = memref.alloc() : memref<4xf32>
  %y = call @identity(%x) : (memref<4xf32>) -> memref<4xf32>
  memref.dealloc %x : memref<4xf32>
  memref.store %f, %y[%c0] : memref<4xf32>
  return
}

func.func @kernel_argument() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x = memref.alloc() : memref<4xf32>
  memref.dealloc %x : memref<4xf32>
  gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>)
  return
}

func.func @realloc_old() {
  %c0 = arith.constant 0 : index
  %x = memref.alloc() : memref<4xf32>
  %y = memref.realloc %x : memref<4xf32> to memref<8xf32>
  %v = memref.load %x[%c0] : memref<4xf32>
  vector.print %v : f32
  memref.dealloc %y : memref<8xf32>
  return
}

func.func @realloc_result() {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %x = memref.alloc() : memref<4xf32>
  %y = memref.realloc %x : memref<4xf32> to memref<8xf32>
  memref.dealloc %y : memref<8xf32>
  memref.store %f, %y[%c0] : memref<8xf32>
  return
}

func.func @copy_from(%src: memref<4xf32>, %dst: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  apipe.copy %src[%c0], %dst[%c0], 4 : memref<4xf32> to memref<4xf32>
  apipe.commit_group
  apipe.wait_group 0
  return
}

func.func @copy_after_free(%a: memref<4xf32>, %alias: memref<4xf32>, %dst: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  memref.dealloc %a : memref<4xf32>
  apipe.copy %alias[%c0], %dst[%c0], 4 : memref<4xf32> to memref<4xf32>
  apipe.commit_group
  apipe.wait_group 0
  return
}

func.func @copy_through_argument() {
  %x = memref.alloc() : memref<4xf32>
  %y = memref.alloc() : memref<4xf32>
  call @copy_after_free(%x, %x, %y) : (memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
  return
}

// new[i] = acc[i] + s[i], through an asynchronous copy of acc into new.
func.func @add_into(%acc: memref<4xf32>, %s: memref<4xf32>, %new: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  apipe.copy %acc[%c0], %new[%c0], 4 : memref<4xf32> to memref<4xf32>
  apipe.commit_group
  apipe.wait_group 0
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %new[%i] : memref<4xf32>
    %y = memref.load %s[%i] : memref<4xf32>
    %z = arith.addf %x, %y : f32
    memref.store %z, %new[%i] : memref<4xf32>
  }
  return
}

// Every buffer flows through a kernel launch, `arith.select`, iter_args, a
// callee and `memref.realloc`, and is freed after its last use.
func.func @clean() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2.0 : f32
  %true = arith.constant true
  %a = memref.alloc() : memref<4xf32>
  gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
  %s = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.index_cast %i : index to i32
    %x = arith.sitofp %v : i32 to f32
    memref.store %x, %s[%i] : memref<4xf32>
  }
  %sel = arith.select %true, %a, %s : memref<4xf32>
  %r = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %sel) -> memref<4xf32> {
    %new = memref.alloc() : memref<4xf32>
    func.call @add_into(%acc, %s, %new) : (memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
    memref.dealloc %acc : memref<4xf32>
    scf.yield %new : memref<4xf32>
  }
  %g = memref.realloc %r : memref<4xf32> to memref<8xf32>
  scf.for %i = %c4 to %c8 step %c1 {
    memref.store %two, %g[%i] : memref<8xf32>
  }
  %u = memref.cast %g : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %g : memref<8xf32>
  memref.dealloc %s : memref<4xf32>
  return
}

}
