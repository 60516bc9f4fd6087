// apipe-tokens-to-mbarrier keeps the gpu.barrier after a wait that orders
// a plain write by an op with regions: here a `linalg.fill` (which declares
// its write of the output through MLIR's memory effects) into a subview of
// a workgroup buffer that the neighbouring thread reads after the wait.
// Before, ops with regions were judged only by the ops inside them (a
// `linalg.yield`), the write was not seen, the barrier was removed and
// apipe-run reported a read-after-write race between threads (trial 9,
// finding 3). Ops with recursive effects (`scf.if`, `scf.for`) still
// access nothing themselves.
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier | FileCheck %s
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s --check-prefix=EMU
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier | apipe-run - --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU-ALL --implicit-check-not=error:

// CHECK-LABEL: gpu.func @f
// CHECK: scf.for
// CHECK: linalg.fill
// CHECK: apipe.mbarrier_wait
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.load

// EMU: [29560,  28744,  24856,  20968,  19768,  21256,  24088,  27304,  0,
// EMU-ALL-COUNT-6: [29560,  28744,  24856,  20968,  19768,  21256,  24088,  27304,  0,

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%A: memref<1024xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}, %n: index, %cnt: memref<4xi32>)
        workgroup(%buf: memref<64xf32, 3>, %buf2: memref<64xf32, 3>, %s: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %cn = arith.constant 8 : index
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c8 : index
      %zero = arith.constant 0.0 : f32
      %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> f32 {
        gpu.barrier
        %base = arith.muli %i, %c8 : index
        %off = arith.addi %base, %tid : index
        apipe.copy %A[%off], %buf[%tid], 1 : memref<1024xf32> to memref<64xf32, 3>
        %tk = apipe.commit_group
        %v = arith.addf %acc, %acc : f32
        %sv = memref.subview %s[%tid] [1] [1] : memref<64xf32, 3> to memref<1xf32, strided<[1], offset: ?>, 3>
        linalg.fill ins(%v : f32) outs(%sv : memref<1xf32, strided<[1], offset: ?>, 3>)
        apipe.wait %tk
        gpu.barrier
        %x = memref.load %buf[%nb] : memref<64xf32, 3>
        %y = memref.load %s[%nb] : memref<64xf32, 3>
        %a1 = arith.addf %acc, %x : f32
        %a2 = arith.addf %a1, %y : f32
        scf.yield %a2 : f32
      }
      memref.store %r, %out[%tid] : memref<256xf32>

      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %cnt_threads = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %n = arith.constant 8 : index
    %A = memref.alloc() : memref<1024xf32>
    %out = memref.alloc() : memref<256xf32>
    %cnt = memref.alloc() : memref<4xi32>
    %zi = arith.constant 0 : i32
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %zi, %cnt[%i] : memref<4xi32>
    }
    scf.for %i = %c0 to %c1024 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      memref.store %f, %A[%i] : memref<1024xf32>
    }
    %z = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c256 step %c1 {
      memref.store %z, %out[%i] : memref<256xf32>
    }
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%cnt_threads, %c1, %c1) args(%A : memref<1024xf32>, %out : memref<256xf32>, %n : index, %cnt : memref<4xi32>)
    %u = memref.cast %out : memref<256xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
