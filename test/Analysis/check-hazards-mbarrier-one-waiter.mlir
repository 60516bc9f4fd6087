// One thread waits on the mbarrier phase, then a gpu.barrier, then every
// thread reads the tile the others copied. The phase completes when every
// thread has arrived and every arrived copy has landed, for the whole block
// (PTX ISA 9.7.13.15), and the barrier orders the readers after the one
// wait: correct, and apipe-check-hazards is silent (it reported a
// read-after-write before: the copies of the threads that do not wait
// stayed in flight for them).
// RUN: apipe-opt %s --apipe-check-hazards -o /dev/null
// It runs under apipe-run with the race checker in every completion mode
// and two schedules: out[t] = A[4 ((t + 1) mod 8)] = 4 ((t + 1) mod 8),
// A[j] = j.
// RUN: apipe-run %s --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s
// CHECK-COUNT-6: [4,  8,  12,  16,  20,  24,  28,  0,  0,
//
// Broken twins: a read before the barrier (the thread's own bytes, which
// the one wait may not have completed yet), and no barrier after the wait.
// RUN: sed -e 's/%x = memref.load %buf\[%no\]/%x = memref.load %buf[%o]/' -e '/after the one wait/d' %s > %t.own.mlir
// RUN: not apipe-opt %t.own.mlir --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=OWN
// OWN: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// RUN: not apipe-run %t.own.mlir 2>&1 | FileCheck %s --check-prefix=RUN-OWN
// RUN-OWN: error: thread (1,0,0) of block (0,0,0) reads shared memory byte 16 {{.*}} that its own asynchronous copy still in flight writes
// RUN: sed -e '/after the one wait/d' %s > %t.nobarrier.mlir
// RUN: not apipe-opt %t.nobarrier.mlir --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOBARRIER
// NOBARRIER: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
// RUN: not apipe-run %t.nobarrier.mlir 2>&1 | FileCheck %s --check-prefix=RUN-RACE
// RUN-RACE: error: {{.*}}race (RAW) on shared memory byte
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @kern(%A: memref<64xi32>, %out: memref<64xi32>) workgroup(%buf: memref<32xi32, 3>, %ring: memref<1xi64, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %false = arith.constant false
      %t = gpu.thread_id x
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %c8 : memref<1xi64, 3>
      }
      gpu.barrier
      %o = arith.muli %t, %c4 : index
      %n = arith.addi %t, %c1 : index
      %nm = arith.remui %n, %c8 : index
      %no = arith.muli %nm, %c4 : index
      apipe.copy %A[%o], %buf[%o], 4 : memref<64xi32> to memref<32xi32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
      scf.if %first {
        apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
      }
      gpu.barrier // after the one wait
      %x = memref.load %buf[%no] : memref<32xi32, 3>
      memref.store %x, %out[%t] : memref<64xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %bx = arith.constant 1 : index
    %tx = arith.constant 8 : index
    %ty = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %A = memref.alloc() : memref<64xi32>
    %out = memref.alloc() : memref<64xi32>
    scf.for %i = %c0 to %c64 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %A[%i] : memref<64xi32>
      memref.store %z, %out[%i] : memref<64xi32>
    }
    gpu.launch_func @k::@kern blocks in (%bx, %c1, %c1) threads in (%tx, %ty, %c1) args(%A : memref<64xi32>, %out : memref<64xi32>)
    %u = memref.cast %out : memref<64xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
