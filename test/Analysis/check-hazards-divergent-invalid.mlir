// apipe-check-hazards on races between threads that take different regions
// of an scf.if / scf.index_switch whose condition depends on the thread id:
// for one thread the regions are exclusive, but one thread's access in one
// region meets another thread's copy issued in another, in flight at any
// moment (no wait or barrier of one region orders the other's). Each is an
// error at the access (exact line:col) with thread ids, a note at the copy
// and one at the branch op; apipe-run's race checker reports the same pair.
// The correct twins are in check-hazards-divergent.mlir.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-run %s --entry=main_store_else --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-STORE-ELSE
// RUN: not apipe-run %s --entry=main_read_else --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-READ-ELSE
// RUN: not apipe-run %s --entry=main_store_then_2d --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-STORE-THEN-2D
// RUN: not apipe-run %s --entry=main_switch --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-SWITCH

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Thread 0 copies A[0] into buf[0]; thread 1 stores 9.0 there.
    gpu.func @store_else(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %f9 = arith.constant 9.0 : f32
      %tx = gpu.thread_id x
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        apipe.copy %A[%c0], %buf[%c0], 1 : memref<64xf32> to memref<64xf32, 3>
      } else {
        memref.store %f9, %buf[%c0] : memref<64xf32, 3>
// CHECK: :[[# @LINE - 1]]:9: error: 'memref.store' op writes bytes that another thread's async copy may still be writing: the copy may land after this write and erase it (this thread has x = 1, the other x = 0; only the wait of the thread that issued it, then a gpu.barrier, orders the two) (write-after-write between threads)
// CHECK: :[[# @LINE - 4]]:9: note: the other thread's async copy, which may be in flight while this thread runs the other branch
// CHECK: :[[# @LINE - 6]]:7: note: the condition differs between threads: another thread may take the then branch while this one takes the branch of the access; nothing orders the two branches
// RUN-STORE-ELSE: // apipe-run: completion=lazy schedule=forward
// RUN-STORE-ELSE-NEXT: :[[# @LINE - 5]]:9: error: race (WAW) on shared memory byte 0 {{.*}} ('memref.store' and 'apipe.copy')
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%c0] : memref<64xf32, 3>
      memref.store %x, %out[%tx] : memref<64xf32>
      gpu.return
    }
    // Thread 0 copies A[4] into buf[0] and waits; thread 1 reads buf[0].
    gpu.func @read_else(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %f9 = arith.constant 9.0 : f32
      %tx = gpu.thread_id x
      %first = arith.cmpi eq, %tx, %c0 : index
      %r = scf.if %first -> f32 {
        apipe.copy %A[%c4], %buf[%c0], 1 : memref<64xf32> to memref<64xf32, 3>
        apipe.commit_group
        apipe.wait_group 0
        scf.yield %f9 : f32
      } else {
        %v = memref.load %buf[%c0] : memref<64xf32, 3>
// CHECK: :[[# @LINE - 1]]:14: error: 'memref.load' op reads bytes that another thread's async copy may still be writing (this thread has x = 1, the other x = 0; only the wait of the thread that issued it, then a gpu.barrier, orders the two) (read-after-write between threads)
// CHECK: :[[# @LINE - 7]]:9: note: the other thread's async copy, which may be in flight while this thread runs the other branch
// CHECK: :[[# @LINE - 9]]:12: note: the condition differs between threads: another thread may take the then branch while this one takes the branch of the access; nothing orders the two branches
// RUN-READ-ELSE: // apipe-run: completion=lazy schedule=forward
// RUN-READ-ELSE-NEXT: :[[# @LINE - 5]]:14: error: race (RAW) on shared memory byte 0 {{.*}}
        scf.yield %v : f32
      }
      memref.store %r, %out[%tx] : memref<64xf32>
      gpu.return
    }
    // Block 2x2: threads (x, 1) store buf[x] in the then branch, threads
    // (x, 0) copy into it in the else branch.
    gpu.func @store_then_2d(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 2, 2, 1>} {
      %c0 = arith.constant 0 : index
      %f9 = arith.constant 9.0 : f32
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %upper = arith.cmpi ne, %ty, %c0 : index
      scf.if %upper {
        memref.store %f9, %buf[%tx] : memref<64xf32, 3>
// CHECK: :[[# @LINE - 1]]:9: error: 'memref.store' op writes bytes that another thread's async copy may still be writing: the copy may land after this write and erase it (this thread has x = 0, y = 1, the other x = 0, y = 0; {{.*}}) (write-after-write between threads)
// CHECK: :[[# @LINE + 5]]:9: note: the other thread's async copy, which may be in flight while this thread runs the other branch
// CHECK: :[[# @LINE - 4]]:7: note: the condition differs between threads: another thread may take the else branch while this one takes the branch of the access; nothing orders the two branches
// RUN-STORE-THEN-2D: // apipe-run: completion=lazy schedule=forward
// RUN-STORE-THEN-2D-NEXT: :[[# @LINE - 5]]:9: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}}
      } else {
        apipe.copy %A[%tx], %buf[%tx], 1 : memref<64xf32> to memref<64xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tx] : memref<64xf32, 3>
      memref.store %x, %out[%tx] : memref<64xf32>
      gpu.return
    }
    // scf.index_switch on the thread id: thread 1 copies into buf[0],
    // thread 0 (the default) stores there.
    gpu.func @switch(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %f9 = arith.constant 9.0 : f32
      %tx = gpu.thread_id x
      scf.index_switch %tx
      case 1 {
        apipe.copy %A[%c0], %buf[%c0], 1 : memref<64xf32> to memref<64xf32, 3>
        scf.yield
      }
      default {
        memref.store %f9, %buf[%c0] : memref<64xf32, 3>
// CHECK: :[[# @LINE - 1]]:9: error: 'memref.store' op writes bytes that another thread's async copy may still be writing: the copy may land after this write and erase it (this thread has x = 0, the other x = 1; {{.*}}) (write-after-write between threads)
// CHECK: :[[# @LINE - 6]]:9: note: the other thread's async copy, which may be in flight while this thread runs the other branch
// CHECK: :[[# @LINE - 9]]:7: note: the condition differs between threads: another thread may take its case 1 while this one takes the branch of the access; nothing orders the two branches
// RUN-SWITCH: // apipe-run: completion=lazy schedule=forward
// RUN-SWITCH-NEXT: :[[# @LINE - 9]]:9: error: race (WAW) on shared memory byte 0 {{.*}}
        scf.yield
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%c0] : memref<64xf32, 3>
      memref.store %x, %out[%tx] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main_store_else() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@store_else blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main_read_else() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@read_else blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main_store_then_2d() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@store_then_2d blocks in (%c1, %c1, %c1) threads in (%c2, %c2, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main_switch() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@switch blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
}
