// An mbarrier op on a ring that a memref.dealloc freed stops the run with
// a located use-after-free error and notes at the alloc and the dealloc,
// as a load or a copy does (trial 29: init, arrive and wait ran on). The
// arrive and the wait use a slot other than the first (the lookup covers
// every byte of the freed ring). A ring freed after its last use is fine.
// RUN: not apipe-run %s -e init_after_free 2>&1 | FileCheck %s --check-prefix=INIT
// RUN: not apipe-run %s -e arrive_after_free --completion=eager 2>&1 | FileCheck %s --check-prefix=ARRIVE
// RUN: not apipe-run %s -e wait_after_free --completion=random:2 2>&1 | FileCheck %s --check-prefix=WAIT
// RUN: apipe-run %s -e freed_after_use --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=FINE
// INIT: mbarrier-use-after-free.mlir:20:3: error: 'apipe.mbarrier_init' uses an mbarrier ring that is already freed (use after free)
// INIT-NEXT: mbarrier-use-after-free.mlir:18:11: note: the ring was allocated here
// INIT-NEXT: mbarrier-use-after-free.mlir:19:3: note: and freed here
// ARRIVE: mbarrier-use-after-free.mlir:34:3: error: 'apipe.mbarrier_arrive_copies' uses an mbarrier ring that is already freed (use after free)
// WAIT: mbarrier-use-after-free.mlir:50:3: error: 'apipe.mbarrier_wait' uses an mbarrier ring that is already freed (use after free)
// FINE-COUNT-2: 42
func.func @init_after_free() {
  %c1 = arith.constant 1 : index
  %ring = memref.alloc() : memref<4xi64, 3>
  memref.dealloc %ring : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  return
}

func.func @arrive_after_free() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %src = memref.alloc() : memref<8xf32>
  %dst = memref.alloc() : memref<8xf32, 3>
  %ring = memref.alloc() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  memref.dealloc %ring : memref<4xi64, 3>
  apipe.copy %src[%c0], %dst[%c0], 8 : memref<8xf32> to memref<8xf32, 3>
  apipe.mbarrier_arrive_copies %ring[%c2] : memref<4xi64, 3>
  return
}

func.func @wait_after_free() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %false = arith.constant false
  %src = memref.alloc() : memref<8xf32>
  %dst = memref.alloc() : memref<8xf32, 3>
  %ring = memref.alloc() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  apipe.copy %src[%c0], %dst[%c0], 8 : memref<8xf32> to memref<8xf32, 3>
  apipe.mbarrier_arrive_copies %ring[%c3] : memref<4xi64, 3>
  memref.dealloc %ring : memref<4xi64, 3>
  apipe.mbarrier_wait %ring[%c3], %false : memref<4xi64, 3>
  return
}

func.func private @printI64(i64)
func.func @freed_after_use() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %src = memref.alloc() : memref<8xi64>
  %dst = memref.alloc() : memref<8xi64, 3>
  %v = arith.constant 42 : i64
  memref.store %v, %src[%c1] : memref<8xi64>
  %ring = memref.alloc() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %src[%c0], %dst[%c0], 8 : memref<8xi64> to memref<8xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
  apipe.mbarrier_wait %ring[%c1], %false : memref<2xi64, 3>
  memref.dealloc %ring : memref<2xi64, 3>
  %x = memref.load %dst[%c1] : memref<8xi64, 3>
  func.call @printI64(%x) : (i64) -> ()
  return
}
