// The kernels of test/Transforms/software-pipeline-budget.mlir (@big) and
// test/Transforms/software-pipeline-budget-kernels.mlir (@two, and the
// annotated @big) run end to end after apipe-software-pipeline with the
// options of those tests' RUN lines, each in lazy, eager and random
// completion and two schedules with the race checker on, and print what
// apipe-make-sync of their input prints (the inputs' copies are
// synchronous: no commit, no wait). Each kernel is renamed @kernels::@k and
// spliced alone into this driver, which launches it in one block of 8
// threads (a smaller launch: the kernels are written for a 16 KiB tile, 1024
// threads of 4 floats; 8 threads use the first 32 floats of every tile).
// A[i] = i, out zero before the launch.
//
// Thread t of step i stores A[S i + 4 t] to out[S i + 4 t] (its own copy's
// first float), S = 4096 for both @big, 2048 for @two (whose two loops store
// the same values): out[j] = j where j mod S < 32 and j mod 4 = 0, else 0.
// The driver prints out[4096..4132) = [4096, 0, 0, 0, 4100, ..., 4124, 0, 0,
// 0, 0, 0, 0, 0] (tile 1 of @big, tile 2 of @two) and the sum of out:
// - @big: 8 * 4096 * (0 + ... + 15) + 16 * 4 * (0 + ... + 7) = 3932160 +
//   1792 = 3933952;
// - @two: 8 * 2048 * 120 + 1792 = 1967872.
//
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@big\(/) print b; on=0}' %apipe_root/test/Transforms/software-pipeline-budget.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @kernels /' -e 's/gpu.func @big(/gpu.func @k(/' > %t.big.kernel
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@two\(/) print b; on=0}' %apipe_root/test/Transforms/software-pipeline-budget-kernels.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @kernels /' -e 's/gpu.func @two(/gpu.func @k(/' > %t.two.kernel
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@big\(/) print b; on=0}' %apipe_root/test/Transforms/software-pipeline-budget-kernels.mlir | sed -e 's/^gpu.module @[a-z_]* /gpu.module @kernels /' -e 's/gpu.func @big(/gpu.func @k(/' > %t.annotated.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.big.kernel' %s > %t.big.mlir
// RUN: sed -e '/^\/\/ @kernels$/r %t.two.kernel' %s > %t.two.mlir
// RUN: sed -e '/^\/\/ @kernels$/r %t.annotated.kernel' %s > %t.annotated.mlir
//
// software-pipeline-budget.mlir, @big: 2 stages (num-stages=4 over the
// default budget), 4 (max-shared-bytes=65552, and sm=80), 5 (num-stages=5
// sm=90), 3 (sm=90 max-shared-bytes=49168). max-shared-bytes=32783 refuses
// it (no output): the reference, its make-sync input, covers that case.
// RUN: apipe-opt %t.big.mlir --apipe-make-sync | apipe-run - | grep -v base@ > %t.big.sync
// RUN: FileCheck %s --check-prefix=BIG < %t.big.sync
// RUN: cat %t.big.sync %t.big.sync %t.big.sync %t.big.sync %t.big.sync %t.big.sync > %t.big.expected
// RUN: apipe-opt %t.big.mlir --apipe-software-pipeline="num-stages=4" 2>/dev/null > %t.big2.mlir
// RUN: FileCheck %s --check-prefix=TWO-VERSIONS < %t.big2.mlir
// TWO-VERSIONS: gpu.func @k({{.*}}) workgroup(%{{.*}} : memref<2x4096xf32, 3>, %{{.*}} : memref<3xf32, 3>) kernel
// RUN: apipe-run %t.big2.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.big2.out
// RUN: diff %t.big.expected %t.big2.out
// RUN: apipe-opt %t.big.mlir --apipe-software-pipeline="num-stages=4 max-shared-bytes=65552" 2>/dev/null > %t.big4.mlir
// RUN: FileCheck %s --check-prefix=FOUR-VERSIONS < %t.big4.mlir
// FOUR-VERSIONS: workgroup(%{{.*}} : memref<4x4096xf32, 3>, %{{.*}} : memref<3xf32, 3>)
// RUN: apipe-run %t.big4.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.big4.out
// RUN: diff %t.big.expected %t.big4.out
// RUN: apipe-opt %t.big.mlir --apipe-software-pipeline="num-stages=4 sm=80" 2>/dev/null > %t.big4sm80.mlir
// RUN: apipe-run %t.big4sm80.mlir --completion=lazy,eager,random:1 --schedule=forward,random:2 | grep -v -e '^// apipe-run' -e base@ > %t.big4sm80.out
// RUN: diff %t.big.expected %t.big4sm80.out
// RUN: apipe-opt %t.big.mlir --apipe-software-pipeline="num-stages=5 sm=90" 2>/dev/null > %t.big5.mlir
// RUN: FileCheck %s --check-prefix=FIVE-VERSIONS < %t.big5.mlir
// FIVE-VERSIONS: workgroup(%{{.*}} : memref<5x4096xf32, 3>, %{{.*}} : memref<3xf32, 3>)
// RUN: apipe-run %t.big5.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.big5.out
// RUN: diff %t.big.expected %t.big5.out
// RUN: apipe-opt %t.big.mlir --apipe-software-pipeline="num-stages=4 sm=90 max-shared-bytes=49168" 2>/dev/null > %t.big3.mlir
// RUN: FileCheck %s --check-prefix=THREE-VERSIONS < %t.big3.mlir
// THREE-VERSIONS: workgroup(%{{.*}} : memref<3x4096xf32, 3>, %{{.*}} : memref<3xf32, 3>)
// RUN: apipe-run %t.big3.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.big3.out
// RUN: diff %t.big.expected %t.big3.out
// BIG: [4096,  0,  0,  0,  4100,  0,  0,  0,  4104,  0,  0,  0,  4108,  0,  0,  0,  4112,  0,  0,  0,  4116,  0,  0,  0,  4120,  0,  0,  0,  4124,  0,  0,  0,  0,  0,  0,  0]
// BIG-NEXT: 3933952
// BIG-NOT: {{.}}
//
// software-pipeline-budget-kernels.mlir, @two with num-stages=3 (3 versions
// of the first tile, 2 of the second):
// RUN: apipe-opt %t.two.mlir --apipe-make-sync | apipe-run - | grep -v base@ > %t.two.sync
// RUN: FileCheck %s --check-prefix=TWO < %t.two.sync
// RUN: cat %t.two.sync %t.two.sync %t.two.sync %t.two.sync %t.two.sync %t.two.sync > %t.two.expected
// RUN: apipe-opt %t.two.mlir --apipe-software-pipeline="num-stages=3" 2>/dev/null > %t.two3.mlir
// RUN: FileCheck %s --check-prefix=TWO-IR < %t.two3.mlir
// TWO-IR: workgroup(%{{.*}} : memref<3x2048xf32, 3>, %{{.*}} : memref<2x2560xf32, 3>)
// RUN: apipe-run %t.two3.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.two3.out
// RUN: diff %t.two.expected %t.two3.out
// TWO: [4096,  0,  0,  0,  4100,  0,  0,  0,  4104,  0,  0,  0,  4108,  0,  0,  0,  4112,  0,  0,  0,  4116,  0,  0,  0,  4120,  0,  0,  0,  4124,  0,  0,  0,  0,  0,  0,  0]
// TWO-NEXT: 1967872
// TWO-NOT: {{.}}
//
// software-pipeline-budget-kernels.mlir, the annotated @big (stages 0 and
// 3), which num-stages=3 refuses over the default budget; it runs as its
// make-sync input (the reference) and pipelined under a budget that holds
// its 4 versions (max-shared-bytes=65536):
// RUN: not apipe-opt %t.annotated.mlir --apipe-software-pipeline="num-stages=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: error: the annotated schedule needs 65536 bytes of shared memory, over the budget of 49152 bytes (max-shared-bytes); use fewer stages
// RUN: apipe-opt %t.annotated.mlir --apipe-make-sync | apipe-run - | grep -v base@ > %t.annotated.sync
// RUN: FileCheck %s --check-prefix=BIG < %t.annotated.sync
// RUN: cat %t.annotated.sync %t.annotated.sync %t.annotated.sync %t.annotated.sync %t.annotated.sync %t.annotated.sync > %t.annotated.expected
// RUN: apipe-opt %t.annotated.mlir --apipe-software-pipeline="num-stages=3 max-shared-bytes=65536" 2>/dev/null > %t.annotated4.mlir
// RUN: FileCheck %s --check-prefix=ANNOTATED-IR < %t.annotated4.mlir
// ANNOTATED-IR: workgroup(%{{.*}} : memref<4x4096xf32, 3>)
// RUN: apipe-run %t.annotated4.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.annotated4.out
// RUN: diff %t.annotated.expected %t.annotated4.out

module attributes {gpu.container_module} {
// @kernels
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 65536 : index
    %A = memref.alloc() : memref<65536xf32>
    %out = memref.alloc() : memref<65536xf32>
    %z = arith.constant 0.0 : f32
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<65536xf32>
      memref.store %z, %out[%i] : memref<65536xf32>
    }
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<65536xf32>, %out : memref<65536xf32>)
    // out[4096..4132): tile 1 of @big, tile 2 of @two.
    %s0 = arith.constant 0 : i64
    %part = memref.subview %out[4096] [36] [1] : memref<65536xf32> to memref<36xf32, strided<[1], offset: 4096>>
    %u = memref.cast %part : memref<36xf32, strided<[1], offset: 4096>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0) -> (i64) {
      %v = memref.load %out[%i] : memref<65536xf32>
      %vi = arith.fptosi %v : f32 to i64
      %t = arith.addi %s, %vi : i64
      scf.yield %t : i64
    }
    call @printI64(%sum) : (i64) -> ()
    call @printNewline() : () -> ()
    memref.dealloc %A : memref<65536xf32>
    memref.dealloc %out : memref<65536xf32>
    return
  }
}
