// apipe-check-hazards on thread guards built from several conditions: only
// thread 0 (of block 0) copies, waits and reads its own copy, behind
// `tx == 0 andi bx == 0`, `t0 andi t0`, or the negation `(tx != 0) xori
// true`; no other thread touches the buffer, so no barrier is needed. A
// kernel that declares `gpu.thread_id y` but never uses it states nothing
// about y. Silent, and apipe-run agrees. The broken twins (an `ori` is no
// conjunction) are in check-hazards-guards-invalid.mlir.
// RUN: apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error: --implicit-check-not=remark:
// RUN: apipe-run %s --entry=main_andi_block --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU --implicit-check-not=error:
// RUN: apipe-run %s --entry=main_andi_self --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU --implicit-check-not=error:
// RUN: apipe-run %s --entry=main_xori_not --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU --implicit-check-not=error:
// EMU-COUNT-2: // apipe-run: completion=lazy

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @andi_block(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %t0 = arith.cmpi eq, %tx, %c0 : index
      %b0 = arith.cmpi eq, %bx, %c0 : index
      %p = arith.andi %t0, %b0 : i1
      scf.if %p {
        apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<64xf32, 3>
        apipe.commit_group
        apipe.wait_group 0
        %x = memref.load %buf[%c2] : memref<64xf32, 3>
        memref.store %x, %out[%c0] : memref<64xf32>
      }
      gpu.return
    }
    gpu.func @andi_self(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %tx = gpu.thread_id x
      %t0 = arith.cmpi eq, %tx, %c0 : index
      %p = arith.andi %t0, %t0 : i1
      scf.if %p {
        apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<64xf32, 3>
        apipe.commit_group
        apipe.wait_group 0
        %x = memref.load %buf[%c2] : memref<64xf32, 3>
        memref.store %x, %out[%c0] : memref<64xf32>
      }
      gpu.return
    }
    gpu.func @xori_not(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %true = arith.constant true
      %tx = gpu.thread_id x
      %others = arith.cmpi ne, %tx, %c0 : index
      %p = arith.xori %others, %true : i1
      scf.if %p {
        apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<64xf32, 3>
        apipe.commit_group
        apipe.wait_group 0
        %x = memref.load %buf[%c2] : memref<64xf32, 3>
        memref.store %x, %out[%c0] : memref<64xf32>
      }
      gpu.return
    }
  }
  func.func @main_andi_block() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@andi_block blocks in (%c2, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main_andi_self() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@andi_self blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main_xori_not() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@xori_not blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
}
