// apipe-translate --sync=counting on a kernel written in the mbarrier form:
// there is no counting form to convert its mbarrier ops to, so they are
// lowered as they are (apipe-mbarrier-to-nvvm runs in every form). Before,
// they were left for the LLVM translation, which failed on an
// unrealized_conversion_cast without naming a cause (a fresh-user trial's
// finding). The PTX is assembled by ptxas for sm_80 and sm_90.
// RUN: apipe-translate %s --sm=80 --sync=counting -o %t.80.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM80 --input-file=%t.80.ptx
// RUN: %ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
// RUN: apipe-translate %s --sm=90 --sync=counting -o %t.90.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM90 --input-file=%t.90.ptx
// RUN: %ptxas -arch=sm_90 %t.90.ptx -o %t.90.cubin

// CHECK-COUNT-2: mbarrier.init.shared.b64
// CHECK: cp.async.ca.shared.global
// CHECK: cp.async.mbarrier.arrive.noinc.shared.b64
// SM80: mbarrier.test_wait.parity.shared.b64
// SM90: mbarrier.try_wait.parity.shared.b64
// CHECK-NOT: cp.async.wait_group
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @exchange(%A: memref<16xi32>, %out: memref<4xi32>)
        workgroup(%buf: memref<16xi32, 3>, %ring: memref<2xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %n = gpu.block_dim x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %n : memref<2xi64, 3>
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
  }
}
