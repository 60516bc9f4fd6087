// apipe-check-hazards: copies of every thread into the same workgroup
// bytes write equal values (no race) only if their source is the same
// buffer in every thread. A source chosen per thread (an `arith.select` or
// an `scf.if` of two views on a condition of the thread id) is not, even
// at the same offset: threads 0-3 copy A[0..4) and threads 4-7 A[512..516)
// into buf[0..4), and which lands last decides the contents. Before, the
// offsets alone were compared and the checker was silent (trial 9,
// finding 5). The same choice on a uniform condition stays silent.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-run %s --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// (apipe-run stops at the first kernel with a race.)

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @select_source(%A: memref<1024xf32>, %out: memref<8xf32> {llvm.noalias})
        workgroup(%buf: memref<4xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c512 = arith.constant 512 : index
      %tid = gpu.thread_id x
      %lt = arith.cmpi ult, %tid, %c4 : index
      %sa = memref.subview %A[%c0] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1], offset: ?>>
      %sb = memref.subview %A[%c512] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1], offset: ?>>
      %src = arith.select %lt, %sa, %sb : memref<512xf32, strided<[1], offset: ?>>
      apipe.copy %src[%c0], %buf[%c0], 4 : memref<512xf32, strided<[1], offset: ?>> to memref<4xf32, 3>
// CHECK: :[[@LINE-1]]:7: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing: {{.*}} (write-after-write between threads)
// RACE: :[[@LINE-2]]:7: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}}('apipe.copy' and 'apipe.copy')
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%c1] : memref<4xf32, 3>
      memref.store %x, %out[%tid] : memref<8xf32>
      gpu.return
    }
// RACE: error: the kernel has races

    gpu.func @if_source(%A: memref<1024xf32>, %out: memref<8xf32> {llvm.noalias})
        workgroup(%buf: memref<4xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c512 = arith.constant 512 : index
      %tid = gpu.thread_id x
      %lt = arith.cmpi ult, %tid, %c4 : index
      %sa = memref.subview %A[%c0] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1], offset: ?>>
      %sb = memref.subview %A[%c512] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1], offset: ?>>
      %src = scf.if %lt -> memref<512xf32, strided<[1], offset: ?>> {
        scf.yield %sa : memref<512xf32, strided<[1], offset: ?>>
      } else {
        scf.yield %sb : memref<512xf32, strided<[1], offset: ?>>
      }
      apipe.copy %src[%c0], %buf[%c0], 4 : memref<512xf32, strided<[1], offset: ?>> to memref<4xf32, 3>
// CHECK: :[[@LINE-1]]:7: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing: {{.*}} (write-after-write between threads)
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%c1] : memref<4xf32, 3>
      memref.store %x, %out[%tid] : memref<8xf32>
      gpu.return
    }

    // The choice on an argument: the same source in every thread.
    gpu.func @uniform_choice(%A: memref<1024xf32>, %out: memref<8xf32> {llvm.noalias}, %first: i1)
        workgroup(%buf: memref<4xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c512 = arith.constant 512 : index
      %tid = gpu.thread_id x
      %sa = memref.subview %A[%c0] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1], offset: ?>>
      %sb = memref.subview %A[%c512] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1], offset: ?>>
      %src = arith.select %first, %sa, %sb : memref<512xf32, strided<[1], offset: ?>>
      apipe.copy %src[%c0], %buf[%c0], 4 : memref<512xf32, strided<[1], offset: ?>> to memref<4xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%c1] : memref<4xf32, 3>
      memref.store %x, %out[%tid] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c1024 = arith.constant 1024 : index
    %true = arith.constant true
    %A = memref.alloc() : memref<1024xf32>
    %out = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c1024 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      memref.store %f, %A[%i] : memref<1024xf32>
    }
    gpu.launch_func @k::@select_source blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<1024xf32>, %out : memref<8xf32>)
    gpu.launch_func @k::@if_source blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<1024xf32>, %out : memref<8xf32>)
    gpu.launch_func @k::@uniform_choice blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<1024xf32>, %out : memref<8xf32>, %true : i1)
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
