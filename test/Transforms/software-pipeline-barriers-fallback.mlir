// A kernel whose loop copies a tile read in the loop (buf, by the
// neighbouring thread) and a buffer read only after it (keep, not
// versioned: each iteration fills its own 16 elements). The minimal
// barrier placement cannot separate the keep copies of consecutive
// iterations, both in flight, at the granularity of the buffer, and falls
// back to the conservative placement, beside the user's barriers. A
// placed barrier and the user's barrier right after it used to give
// `gpu.barrier; gpu.barrier` twice per iteration (trial 8, finding 3):
// never two in a row now. The output passes apipe-check-hazards (the copy
// into buf[tid] at the top of the kernel bounds the thread ids by 16, so
// the keep copies of two threads never meet: trial 8, finding 2) and runs
// as make-sync does.
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-opt --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s --check-prefix=EMU
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU-ALL --implicit-check-not=error:

// CHECK-LABEL: gpu.func @kern
// CHECK: scf.for
// CHECK-NEXT: apipe.wait_group 1
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: arith.remui
// CHECK-NEXT: memref.subview
// CHECK-NEXT: memref.load
// CHECK-NEXT: arith.addf
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: arith.addi
// CHECK-NOT: gpu.barrier
// CHECK: apipe.copy
// CHECK-NEXT: apipe.copy
// CHECK-NEXT: apipe.commit_group queue 0
// CHECK-NEXT: scf.yield

// EMU: [172,  180,  188,  196,  204,  212,  220,  228,  236,  244,  252,  260,  268,  212,  220,  228,  -1,
// EMU-ALL-COUNT-6: [172,  180,  188,  196,  204,  212,  220,  228,  236,  244,  252,  260,  268,  212,  220,  228,  -1,

module attributes {gpu.container_module} {
func.func private @printMemrefF32(memref<*xf32>)
gpu.module @k {
  gpu.func @kern(%A: memref<1024xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) workgroup(%buf: memref<16xf32, 3>, %keep: memref<64xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    // Per iteration: buf[tid] (read by thread tid + 3 mod 16) and keep[16 i + tid].
    %r1 = arith.addi %tid, %c3 : index
    %nb = arith.remui %r1, %c16 : index
    %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
      %base = arith.muli %i, %c16 : index
      %off = arith.addi %base, %tid : index
      %o2 = arith.addi %off, %c64 : index
      apipe.copy %A[%off], %buf[%tid], 1 : memref<1024xf32> to memref<16xf32, 3>
      apipe.copy %A[%o2], %keep[%off], 1 : memref<1024xf32> to memref<64xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%nb] : memref<16xf32, 3>
      %a2 = arith.addf %acc, %x : f32
      gpu.barrier
      scf.yield %a2 : f32
    }
    %t4 = arith.muli %tid, %c4 : index
    %k = memref.load %keep[%t4] : memref<64xf32, 3>
    %s2 = arith.addf %s, %k : f32
    memref.store %s2, %out[%tid] : memref<64xf32>

    gpu.return
  }
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %nt = arith.constant 16 : index
  %A = memref.alloc() : memref<1024xf32>
  %out = memref.alloc() : memref<64xf32>
  %m1 = arith.constant -1.0 : f32
  scf.for %i = %c0 to %c1024 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<1024xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %m1, %out[%i] : memref<64xf32>
  }
  gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) args(%A : memref<1024xf32>, %out : memref<64xf32>)
  %u = memref.cast %out : memref<64xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
}
