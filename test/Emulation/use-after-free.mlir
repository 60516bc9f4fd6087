// A use of a buffer after its `memref.dealloc` (use after free) is a
// located error at the use, with notes at the alloc and at the dealloc,
// and the program stops there (before it reads or writes freed memory):
// a load, a store through a subview in the loop iteration after the free,
// a call that receives an unranked cast, an `apipe.copy` out of the freed
// buffer, `vector.load`, `linalg.fill` and `memref.copy` through a
// reinterpret_cast. Programs that free after their last use run
// unchanged in every completion mode (@clean).
//
// RUN: not apipe-run %s --entry=load_after 2>&1 | FileCheck %s --check-prefix=LOAD
// LOAD: use-after-free.mlir:[[# @LINE + 30]]:8: error: 'memref.load' uses a buffer that is already freed (use after free)
// LOAD-NEXT: use-after-free.mlir:[[# @LINE + 27]]:8: note: the buffer was allocated here
// LOAD-NEXT: use-after-free.mlir:[[# @LINE + 27]]:3: note: and freed here
// LOAD-NOT: {{.}}
// RUN: not apipe-run %s --entry=store_view --completion=eager 2>&1 | FileCheck %s --check-prefix=VIEW
// VIEW: use-after-free.mlir:[[# @LINE + 38]]:5: error: 'memref.store' uses a buffer that is already freed (use after free)
// VIEW-NEXT: use-after-free.mlir:[[# @LINE + 34]]:8: note: the buffer was allocated here
// VIEW-NEXT: use-after-free.mlir:[[# @LINE + 37]]:5: note: and freed here
// RUN: not apipe-run %s --entry=print_after 2>&1 | FileCheck %s --check-prefix=CALL
// CALL: use-after-free.mlir:[[# @LINE + 44]]:3: error: 'func.call' uses a buffer that is already freed (use after free)
// RUN: not apipe-run %s --entry=copy_from_freed --completion=random:3 2>&1 | FileCheck %s --check-prefix=COPY
// COPY: use-after-free.mlir:[[# @LINE + 51]]:3: error: 'apipe.copy' uses a buffer that is already freed (use after free)
// COPY-NEXT: note: the buffer was allocated here
// COPY-NEXT: use-after-free.mlir:[[# @LINE + 48]]:3: note: and freed here
// RUN: not apipe-run %s --entry=vector_load 2>&1 | FileCheck %s --check-prefix=VECTOR
// VECTOR: use-after-free.mlir:[[# @LINE + 58]]:8: error: 'vector.load' uses a buffer that is already freed (use after free)
// RUN: not apipe-run %s --entry=fill_after 2>&1 | FileCheck %s --check-prefix=FILL
// FILL: use-after-free.mlir:[[# @LINE + 65]]:3: error: 'linalg.fill' uses a buffer that is already freed (use after free)
// RUN: not apipe-run %s --entry=copy_reinterpreted 2>&1 | FileCheck %s --check-prefix=MEMCOPY
// MEMCOPY: use-after-free.mlir:[[# @LINE + 72]]:3: error: 'memref.copy' uses a buffer that is already freed (use after free)
// RUN: apipe-run %s --entry=clean --completion=lazy,eager,random:1 | FileCheck %s --check-prefix=CLEAN
// CLEAN-COUNT-3: 202
// CLEAN-NOT: error

func.func private @printMemrefF32(memref<*xf32>)

func.func @load_after() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  %x = memref.load %a[%c0] : memref<4xf32>
  vector.print %x : f32
  return
}

func.func @store_view() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %f = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32>
  %v = memref.subview %a[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  scf.for %i = %c0 to %c2 step %c1 {
    memref.store %f, %v[%i] : memref<4xf32, strided<[1], offset: 4>>
    memref.dealloc %a : memref<8xf32>
  }
  return
}

func.func @print_after() {
  %a = memref.alloc() : memref<4xf32>
  %u = memref.cast %a : memref<4xf32> to memref<*xf32>
  memref.dealloc %a : memref<4xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @copy_from_freed() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  apipe.copy %a[%c0], %b[%c0], 4 : memref<4xf32> to memref<4xf32>
  apipe.commit_group
  apipe.wait_group 0
  memref.dealloc %b : memref<4xf32>
  return
}

func.func @vector_load() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<2x4xf32>
  memref.dealloc %a : memref<2x4xf32>
  %x = vector.load %a[%c0, %c0] : memref<2x4xf32>, vector<4xf32>
  vector.print %x : vector<4xf32>
  return
}

func.func @fill_after() {
  %f = arith.constant 3.0 : f32
  %a = memref.alloc() : memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  linalg.fill ins(%f : f32) outs(%a : memref<16xf32>)
  return
}

func.func @copy_reinterpreted() {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<4x4xf32>
  %r = memref.reinterpret_cast %a to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<16xf32> to memref<4x4xf32>
  memref.dealloc %a : memref<16xf32>
  memref.copy %r, %b : memref<4x4xf32> to memref<4x4xf32>
  memref.dealloc %b : memref<4x4xf32>
  return
}

func.func @clean() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %f = arith.constant 2.0 : f32
  %sum = scf.for %i = %c0 to %c100 step %c1 iter_args(%s = %f) -> (f32) {
    %a = memref.alloc() : memref<4xf32>
    %b = memref.alloc() : memref<4xf32>
    memref.store %f, %a[%c0] : memref<4xf32>
    apipe.copy %a[%c0], %b[%c0], 4 : memref<4xf32> to memref<4xf32>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %b[%c0] : memref<4xf32>
    memref.dealloc %a : memref<4xf32>
    memref.dealloc %b : memref<4xf32>
    %n = arith.addf %s, %x : f32
    scf.yield %n : f32
  }
  vector.print %sum : f32
  return
}
