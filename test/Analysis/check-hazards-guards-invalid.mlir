// apipe-check-hazards on a guard that is no thread guard: `tx == 0 ori
// bx == 0` holds for every thread of block 0, so the threads' copies of
// buf[0..4] are all in flight and each thread reads buf[2] after its own
// wait with no gpu.barrier. The read is an error (exact line:col) with notes
// at the copy and the wait. The two threads' copies write equal values,
// which the checker does not report (README); apipe-run reports them first.
// The correct twins are in check-hazards-guards.mlir.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-run %s --entry=main_ori_block --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ori_block(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %t0 = arith.cmpi eq, %tx, %c0 : index
      %b0 = arith.cmpi eq, %bx, %c0 : index
      %p = arith.ori %t0, %b0 : i1
      scf.if %p {
        apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<64xf32, 3>
// EMU: // apipe-run: completion=lazy schedule=forward
// EMU-NEXT: :[[# @LINE - 2]]:9: error: race (WAW) on shared memory byte 0 {{.*}} ('apipe.copy' and 'apipe.copy')
        apipe.commit_group
        apipe.wait_group 0
        %x = memref.load %buf[%c2] : memref<64xf32, 3>
// CHECK: :[[# @LINE - 1]]:14: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
// CHECK: :[[# @LINE - 7]]:9: note: the async copy, issued by every thread: other threads' copies may not have landed
// CHECK: :[[# @LINE - 4]]:9: note: this wait completes the copy for the waiting thread only; no gpu.barrier follows it on some path to the access
        memref.store %x, %out[%tx] : memref<64xf32>
      }
      gpu.return
    }
  }
  func.func @main_ori_block() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@ori_block blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
}
