// apipe-check-hazards accepts an mbarrier arrival count proved equal to the
// block size where the kernel states it (`known_block_size`): a constant
// (4 for [4, 1, 1]), `gpu.block_dim x` alone when y = z = 1, a product of
// dimensions of known size, or (no size stated) of the three dimensions.
// Their broken twins (a count of another size, a dimension missing or
// counted twice) are reported in check-hazards-mbarrier-invalid.mlir.
// RUN: apipe-opt %s --apipe-check-hazards | FileCheck %s --implicit-check-not=error:
// Every thread reads its neighbour's copy after the wait (its own in the
// last kernel): the values of the synchronous program in every completion
// mode.
// RUN: apipe-run %s --completion=lazy,eager,random:1,random:2,random:3 | grep -v -e Unranked -e "apipe-run: completion=" > %t.values
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync5
// RUN: diff %t.sync5 %t.values
// VALUES: {{^}}[4,  8,  12,  0]
// VALUES-NEXT: {{^}}[4,  8,  12,  0]
// VALUES-NEXT: {{^}}[4,  8,  12,  0]
// VALUES-NEXT: {{^}}[0,  4,  8,  12]
// VALUES-NEXT: {{^}}[12,  8,  4,  0]
// VALUES-NOT: [

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // The constant block size.
    // CHECK-LABEL: gpu.func @constant_count
    gpu.func @constant_count(%A: memref<16xi32>, %out: memref<4xi32>)
        workgroup(%buf: memref<16xi32, 3>, %ring: memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %c4 : memref<2xi64, 3>
      }
      gpu.barrier
      %lane = arith.muli %tid, %c4 : index
      %next = arith.addi %tid, %c1 : index
      %nb = arith.remui %next, %c4 : index
      %at = arith.muli %nb, %c4 : index
      apipe.copy %A[%lane], %buf[%lane], 4 : memref<16xi32> to memref<16xi32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
      %x = memref.load %buf[%at] : memref<16xi32, 3>
      memref.store %x, %out[%tid] : memref<4xi32>
      gpu.return
    }

    // `gpu.block_dim x` with y = z = 1.
    // CHECK-LABEL: gpu.func @block_dim_x
    gpu.func @block_dim_x(%A: memref<16xi32>, %out: memref<4xi32>)
        workgroup(%buf: memref<16xi32, 3>, %ring: memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bd = gpu.block_dim x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %bd : memref<2xi64, 3>
      }
      gpu.barrier
      %lane = arith.muli %tid, %c4 : index
      %next = arith.addi %tid, %c1 : index
      %nb = arith.remui %next, %c4 : index
      %at = arith.muli %nb, %c4 : index
      apipe.copy %A[%lane], %buf[%lane], 4 : memref<16xi32> to memref<16xi32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
      %x = memref.load %buf[%at] : memref<16xi32, 3>
      memref.store %x, %out[%tid] : memref<4xi32>
      gpu.return
    }

    // A 2 x 2 block: `gpu.block_dim x * gpu.block_dim y` (both known).
    // CHECK-LABEL: gpu.func @block_dim_xy
    gpu.func @block_dim_xy(%A: memref<16xi32>, %out: memref<4xi32>)
        workgroup(%buf: memref<16xi32, 3>, %ring: memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 2, 2, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %ty2 = arith.muli %ty, %c2 : index
      %tid = arith.addi %tx, %ty2 : index
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %count = arith.muli %bx, %by : index
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %count : memref<2xi64, 3>
      }
      gpu.barrier
      %lane = arith.muli %tid, %c4 : index
      %next = arith.addi %tid, %c1 : index
      %nb = arith.remui %next, %c4 : index
      %at = arith.muli %nb, %c4 : index
      apipe.copy %A[%lane], %buf[%lane], 4 : memref<16xi32> to memref<16xi32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
      %x = memref.load %buf[%at] : memref<16xi32, 3>
      memref.store %x, %out[%tid] : memref<4xi32>
      gpu.return
    }

    // No size stated: the product of the three dimensions, in any order.
    // CHECK-LABEL: gpu.func @unknown_size
    gpu.func @unknown_size(%A: memref<16xi32>, %out: memref<4xi32>)
        workgroup(%buf: memref<16xi32, 3>, %ring: memref<2xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %zx = arith.muli %bz, %bx : index
      %count = arith.muli %by, %zx : index
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %count : memref<2xi64, 3>
      }
      gpu.barrier
      %lane = arith.muli %tid, %c4 : index
      apipe.copy %A[%lane], %buf[%lane], 4 : memref<16xi32> to memref<16xi32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
      %x = memref.load %buf[%lane] : memref<16xi32, 3>
      memref.store %x, %out[%tid] : memref<4xi32>
      gpu.return
    }

    // No size stated, `gpu.block_dim x` alone: the kernel never reads a y
    // or z id and the module launches it only with size 1 there, so it is
    // taken to run with size 1 there (README, "Status and known limits")
    // and x is the block size (trial 65: reported as a wrong count).
    // CHECK-LABEL: gpu.func @launched_x_only
    gpu.func @launched_x_only(%A: memref<16xi32>, %out: memref<4xi32>)
        workgroup(%buf: memref<16xi32, 3>, %ring: memref<2xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %bx : memref<2xi64, 3>
      }
      gpu.barrier
      %lane = arith.muli %tid, %c4 : index
      apipe.copy %A[%lane], %buf[%lane], 4 : memref<16xi32> to memref<16xi32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
      %back = arith.subi %c3, %tid : index
      %at = arith.muli %back, %c4 : index
      %x = memref.load %buf[%at] : memref<16xi32, 3>
      memref.store %x, %out[%tid] : memref<4xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %A = memref.alloc() : memref<16xi32>
    %out = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c16 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %A[%i] : memref<16xi32>
    }
    %u = memref.cast %out : memref<4xi32> to memref<*xi32>
    gpu.launch_func @kernels::@constant_count blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xi32>, %out : memref<4xi32>)
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.launch_func @kernels::@block_dim_x blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xi32>, %out : memref<4xi32>)
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.launch_func @kernels::@block_dim_xy blocks in (%c1, %c1, %c1) threads in (%c2, %c2, %c1) args(%A : memref<16xi32>, %out : memref<4xi32>)
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.launch_func @kernels::@unknown_size blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xi32>, %out : memref<4xi32>)
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.launch_func @kernels::@launched_x_only blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xi32>, %out : memref<4xi32>)
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
