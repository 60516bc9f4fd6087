// CUDA gives no order between the blocks of a launch; --schedule orders
// them too: forward runs block 0 first, reverse the last block first,
// random:SEED a seeded order. A kernel whose output depends on the order of
// its blocks (block 1 reads what block 0 writes, with nothing between
// them) prints different values between schedules.
// Block 0 writes out[t] = 5 (t < 8); block 1 copies out[t] to out[8 + t].
// RUN: apipe-run %s --schedule=forward,reverse | grep -v base@ | FileCheck %s
// CHECK: // apipe-run: completion=lazy schedule=forward
// CHECK-NEXT: [5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5]
// CHECK-NEXT: // apipe-run: completion=lazy schedule=reverse
// CHECK-NEXT: [5,  5,  5,  5,  5,  5,  5,  5,  0,  0,  0,  0,  0,  0,  0,  0]
// With 8 blocks (blocks 2..7 do nothing), random:2 runs block 0 before
// block 1 and random:3 the other way round:
// RUN: apipe-run %s --entry=eight_blocks --schedule=random:2,random:3 | grep -v base@ | FileCheck %s --check-prefix=RANDOM
// RANDOM: // apipe-run: completion=lazy schedule=random:2
// RANDOM-NEXT: [5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5]
// RANDOM-NEXT: // apipe-run: completion=lazy schedule=random:3
// RANDOM-NEXT: [5,  5,  5,  5,  5,  5,  5,  5,  0,  0,  0,  0,  0,  0,  0,  0]

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @order(%out: memref<16xi32>) kernel {
      %c8 = arith.constant 8 : index
      %five = arith.constant 5 : i32
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %first = arith.cmpi eq, %b, %c0 : index
      %second = arith.cmpi eq, %b, %c1 : index
      scf.if %first {
        memref.store %five, %out[%t] : memref<16xi32>
      }
      scf.if %second {
        %x = memref.load %out[%t] : memref<16xi32>
        %u = arith.addi %t, %c8 : index
        memref.store %x, %out[%u] : memref<16xi32>
      }
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @run(%blocks: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %z = arith.constant 0 : i32
    %out = memref.alloc() : memref<16xi32>
    scf.for %i = %c0 to %c16 step %c1 {
      memref.store %z, %out[%i] : memref<16xi32>
    }
    gpu.launch_func @k::@order blocks in (%blocks, %c1, %c1) threads in (%c8, %c1, %c1) args(%out : memref<16xi32>)
    %u = memref.cast %out : memref<16xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %out : memref<16xi32>
    return
  }
  func.func @main() {
    %c2 = arith.constant 2 : index
    func.call @run(%c2) : (index) -> ()
    return
  }
  func.func @eight_blocks() {
    %c8 = arith.constant 8 : index
    func.call @run(%c8) : (index) -> ()
    return
  }
}
