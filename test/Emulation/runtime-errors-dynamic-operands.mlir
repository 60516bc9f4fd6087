// Dynamic operands that the verifier checks when they are constants are
// checked at run time: apipe-run stops at the op with a located error.
// - An mbarrier slot outside its ring (trial 16, findings 1 and 2): a slot
//   of 2^40 made apipe-run fault (signal 11, no message), on the host and
//   in a kernel; slot 2 of a 2-slot ring that is a subview of a larger
//   buffer silently used the buffer's slot 2. Also on a wait and an
//   expect_tx, and for a negative slot.
// - A negative src_elements (trial 16, finding 3) was taken as "absent":
//   all elements were copied.
// In-range dynamic slots and src_elements run, and print what they copied.
//
// RUN: not apipe-run %s --entry=huge_slot 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not apipe-run %s --entry=subview_ring 2>&1 | FileCheck %s --check-prefix=SUBVIEW
// RUN: not apipe-run %s --entry=negative_wait 2>&1 | FileCheck %s --check-prefix=WAIT
// RUN: not apipe-run %s --entry=expect_tx_slot 2>&1 | FileCheck %s --check-prefix=TX
// RUN: not apipe-run %s --entry=kernel_slot 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not apipe-run %s --entry=negative_src_elements 2>&1 | FileCheck %s --check-prefix=SRC
// RUN: apipe-run %s --entry=in_range --completion=lazy,eager,random:1 | FileCheck %s --check-prefix=OK
// OK-COUNT-3: ( 7, 7, 0, 0 )

module attributes {gpu.container_module} {
func.func @huge_slot() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ring = memref.alloca() : memref<2xi64, 3>
  %big = arith.constant 1099511627776 : index
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  %x = arith.addi %big, %c0 : index
  // HUGE: runtime-errors-dynamic-operands.mlir:[[# @LINE + 1]]:3: error: 'apipe.mbarrier_arrive_copies' on a slot outside its ring of 2 slots
  apipe.mbarrier_arrive_copies %ring[%x] : memref<2xi64, 3>
  return
}

func.func @subview_ring() {
  %c1 = arith.constant 1 : index
  %big = memref.alloca() : memref<8xi64, 3>
  %ring = memref.subview %big[0] [2] [1] : memref<8xi64, 3> to memref<2xi64, 3>
  apipe.mbarrier_init %big, %c1 : memref<8xi64, 3>
  %s = arith.addi %c1, %c1 : index
  // SUBVIEW: runtime-errors-dynamic-operands.mlir:[[# @LINE + 1]]:3: error: 'apipe.mbarrier_arrive_copies' on a slot outside its ring of 2 slots
  apipe.mbarrier_arrive_copies %ring[%s] : memref<2xi64, 3>
  return
}

func.func @negative_wait() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %ring = memref.alloca() : memref<1xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  %s = arith.subi %c0, %c1 : index
  // WAIT: runtime-errors-dynamic-operands.mlir:[[# @LINE + 1]]:3: error: 'apipe.mbarrier_wait' on a slot outside its ring of 1 slot
  apipe.mbarrier_wait %ring[%s], %false : memref<1xi64, 3>
  return
}

func.func @expect_tx_slot() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %ring = memref.alloca() : memref<3xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<3xi64, 3>
  %s = arith.addi %c3, %c1 : index
  // TX: runtime-errors-dynamic-operands.mlir:[[# @LINE + 1]]:3: error: 'apipe.mbarrier_expect_tx' on a slot outside its ring of 3 slots
  apipe.mbarrier_expect_tx %ring[%s], 16 : memref<3xi64, 3>
  return
}

  gpu.module @kernels {
    gpu.func @k(%s: index) workgroup(%ring: memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c1 = arith.constant 1 : index
      apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
      gpu.barrier
      // KERNEL: runtime-errors-dynamic-operands.mlir:[[# @LINE + 1]]:7: error: 'apipe.mbarrier_arrive_copies' on a slot outside its ring of 2 slots (thread (0,0,0) of block (0,0,0))
      apipe.mbarrier_arrive_copies %ring[%s] : memref<2xi64, 3>
      gpu.return
    }
  }
  func.func @kernel_slot() {
    %c1 = arith.constant 1 : index
    %big = arith.constant 1099511627776 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%big : index)
    return
  }

func.func @negative_src_elements() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<64xf32>
  %buf = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%A : memref<64xf32>)
  %m3 = arith.constant -3 : index
  %n = arith.addi %m3, %c0 : index
  // SRC: runtime-errors-dynamic-operands.mlir:[[# @LINE + 1]]:3: error: 'apipe.copy' src_elements = -3 is negative
  apipe.copy %A[%c0], %buf[%c0], 4, %n : memref<64xf32> to memref<4xf32>
  %t = apipe.commit_group
  apipe.wait %t
  return
}

// A dynamic slot 1 of 2 and src_elements 2 of 4 (zero-fill of the rest).
func.func @in_range() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %seven = arith.constant 7 : i32
  %A = memref.alloc() : memref<8xi32>
  linalg.fill ins(%seven : i32) outs(%A : memref<8xi32>)
  %buf = memref.alloc() : memref<4xi32, 3>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  %s = arith.addi %c0, %c1 : index
  %n = arith.addi %s, %c1 : index
  apipe.copy %A[%c0], %buf[%c0], 4, %n : memref<8xi32> to memref<4xi32, 3>
  apipe.mbarrier_arrive_copies %ring[%s] : memref<2xi64, 3>
  apipe.mbarrier_wait %ring[%s], %false : memref<2xi64, 3>
  %v = vector.load %buf[%c0] : memref<4xi32, 3>, vector<4xi32>
  vector.print %v : vector<4xi32>
  memref.dealloc %buf : memref<4xi32, 3>
  memref.dealloc %A : memref<8xi32>
  return
}
}
