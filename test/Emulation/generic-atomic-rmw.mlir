// `memref.generic_atomic_rmw` runs under apipe-run on integer elements (on
// the host, and in a kernel whose 4 blocks x 8 threads all update one
// global counter and one workgroup counter per block, racecheck on; the
// blocks run on several host threads, so the update must be a real
// compare-and-swap). A float element is a located "not supported" error
// (MLIR 22 lowers the op to `llvm.cmpxchg`, which takes integers only),
// never a JIT failure.
//
// RUN: apipe-run %s --entry=host --completion=lazy,eager,random:3 | FileCheck %s --check-prefix=HOST
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=host | FileCheck %s --check-prefix=HOST
// HOST: 5
// HOST-NEXT: 10
// HOST-NOT: error
// RUN: apipe-run %s --entry=kernel --completion=lazy,eager,random:1 --schedule=forward,reverse,random:4 | FileCheck %s --check-prefix=KERNEL
// KERNEL-COUNT-9: ( 32, 8, 8, 8, 8 )
// KERNEL-NOT: error

module attributes {gpu.container_module} {

gpu.module @kernels {
  gpu.func @count(%total: memref<1xi32>, %per_block: memref<4xi32>) workgroup(%local: memref<1xi32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %zero = arith.constant 0 : i32
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %first = arith.cmpi eq, %t, %c0 : index
    scf.if %first {
      memref.store %zero, %local[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %old = memref.generic_atomic_rmw %total[%c0] : memref<1xi32> {
    ^bb0(%v: i32):
      %n = arith.addi %v, %one : i32
      memref.atomic_yield %n : i32
    }
    %lold = memref.generic_atomic_rmw %local[%c0] : memref<1xi32, #gpu.address_space<workgroup>> {
    ^bb0(%v: i32):
      %n = arith.addi %v, %one : i32
      memref.atomic_yield %n : i32
    }
    gpu.barrier
    scf.if %first {
      %x = memref.load %local[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      memref.store %x, %per_block[%b] : memref<4xi32>
    }
    gpu.return
  }
}

func.func @host() {
  %c0 = arith.constant 0 : index
  %five = arith.constant 5 : i32
  %a = memref.alloc() : memref<4xi32>
  memref.store %five, %a[%c0] : memref<4xi32>
  %x = memref.generic_atomic_rmw %a[%c0] : memref<4xi32> {
  ^bb0(%cur: i32):
    %n = arith.addi %cur, %five : i32
    memref.atomic_yield %n : i32
  }
  %y = memref.load %a[%c0] : memref<4xi32>
  vector.print %x : i32
  vector.print %y : i32
  memref.dealloc %a : memref<4xi32>
  return
}

func.func @kernel() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i32
  %total = memref.alloc() : memref<1xi32>
  %per_block = memref.alloc() : memref<4xi32>
  memref.store %zero, %total[%c0] : memref<1xi32>
  gpu.launch_func @kernels::@count blocks in (%c4, %c1, %c1) threads in (%c8, %c1, %c1) args(%total : memref<1xi32>, %per_block : memref<4xi32>)
  %t = memref.load %total[%c0] : memref<1xi32>
  %v = vector.broadcast %t : i32 to vector<1xi32>
  %p = vector.load %per_block[%c0] : memref<4xi32>, vector<4xi32>
  %all = vector.shuffle %v, %p [0, 1, 2, 3, 4] : vector<1xi32>, vector<4xi32>
  vector.print %all : vector<5xi32>
  memref.dealloc %total : memref<1xi32>
  memref.dealloc %per_block : memref<4xi32>
  return
}

}
