// The other small kernels of test/Target run end to end under apipe-run
// with the race checker, in lazy, eager and random completion and two
// schedules, and print what their apipe-make-sync version prints:
// ptx-workgroup-align (@attributions, @globals: attributions with
// alignments, workgroup globals, a view of one), ptx-token-form
// (@tokens_two_queues: token waits across two queues), ptx-mbarrier
// (@exact, @path_dependent with both branch directions), translate-llvmir
// (@copy_commit_wait) and translate-sm-versions (@one_copy). The last four
// write only shared memory: they must run race-free and without a run-time
// error (exit 0), and print nothing.
//
// @attributions and @globals run as one thread: with more, their reads of
// another thread's copy after wait_group 0 have no barrier (a race on a GPU:
// the Target tests check the PTX's alignment, not the synchronization).
// f16 src[i] = i mod 32 + 1: @globals writes out[0] = 2 src[0] = 2,
// @attributions out[0] = 4 src[0] = 4. @attributions races even as one
// thread: two of its copies in one group write the same bytes (in PTX,
// the copies of a group complete in no particular order); the race checker
// says so, and without it the kernel prints its make-sync output.
//
//
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Target/ptx-workgroup-align.mlir | sed -e 's/^gpu.module @k /gpu.module @align /' > %t.align
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Target/ptx-token-form.mlir | sed -e 's/^gpu.module @kernels/gpu.module @token_form/' > %t.token_form
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Target/ptx-mbarrier.mlir | sed -e 's/^gpu.module @kernels/gpu.module @mbarrier/' > %t.mbarrier
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Target/translate-llvmir.mlir | sed -e 's/^gpu.module @kernels/gpu.module @llvmir/' > %t.llvmir
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Target/translate-sm-versions.mlir | sed -e 's/^gpu.module @kernels/gpu.module @sm_versions/' > %t.sm_versions
// RUN: sed -e '/^\/\/ @align$/r %t.align' -e '/^\/\/ @token_form$/r %t.token_form' -e '/^\/\/ @mbarrier$/r %t.mbarrier' -e '/^\/\/ @llvmir$/r %t.llvmir' -e '/^\/\/ @sm_versions$/r %t.sm_versions' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - | grep -v base@ > %t.sync
// RUN: FileCheck %s < %t.sync
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v '^// apipe-run' | grep -v base@ > %t.all
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.expected
// RUN: diff %t.expected %t.all
// CHECK: [2,  0,  0,  0,  0,  0,  0,  0]
// CHECK-NEXT: done
// CHECK-NOT: {{.}}
//
// RUN: not apipe-run %t.mlir --entry=attributions 2>&1 | FileCheck %s --check-prefix=ATTR-RACE
// ATTR-RACE: error: thread (0,0,0) of block (0,0,0) writes shared memory byte 16 (byte 0 of the workgroup buffer at {{.*}}) that its own asynchronous copy still in flight writes: no wait completes the copy first ('apipe.copy' and 'apipe.copy')
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - --entry=attributions | grep -v base@ > %t.attr.sync
// RUN: FileCheck %s --check-prefix=ATTR < %t.attr.sync
// ATTR: [4,  0,  0,  0,  0,  0,  0,  0]
// RUN: apipe-run %t.mlir --entry=attributions --no-racecheck --completion=lazy,eager,random:1 | grep -v '^// apipe-run' | grep -v base@ > %t.attr.all
// RUN: cat %t.attr.sync %t.attr.sync %t.attr.sync > %t.attr.expected
// RUN: diff %t.attr.expected %t.attr.all

module attributes {gpu.container_module} {
// @align
// @token_form
// @mbarrier
// @llvmir
// @sm_versions
  // Prints out[0..8] (f16) as f32.
  func.func @print8(%out: memref<1024xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %w = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %h = memref.load %out[%i] : memref<1024xf16>
      %f = arith.extf %h : f16 to f32
      memref.store %f, %w[%i] : memref<8xf32>
    }
    %u = memref.cast %w : memref<8xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %w : memref<8xf32>
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printString(!llvm.ptr)
  func.func private @printNewline()

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant 1024 : index
    %src16 = memref.alloc() : memref<1024xf16>
    %src = memref.alloc() : memref<1024xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %src[%i] : memref<1024xf32>
      %small = arith.remui %i, %c32 : index
      %small1 = arith.addi %small, %c1 : index
      %si = arith.index_cast %small1 : index to i32
      %h = arith.sitofp %si : i32 to f16
      memref.store %h, %src16[%i] : memref<1024xf16>
    }
    %zero = arith.constant 0.0 : f16
    %out2 = memref.alloc() : memref<1024xf16>
    linalg.fill ins(%zero : f16) outs(%out2 : memref<1024xf16>)
    gpu.launch_func @align::@globals blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%src16 : memref<1024xf16>, %out2 : memref<1024xf16>)
    func.call @print8(%out2) : (memref<1024xf16>) -> ()

    %true = arith.constant true
    %false = arith.constant false
    gpu.launch_func @token_form::@tokens_two_queues blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%src : memref<1024xf32>)
    gpu.launch_func @mbarrier::@exact blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%src : memref<1024xf32>)
    gpu.launch_func @mbarrier::@path_dependent blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%src : memref<1024xf32>, %true : i1)
    gpu.launch_func @mbarrier::@path_dependent blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%src : memref<1024xf32>, %false : i1)
    gpu.launch_func @llvmir::@copy_commit_wait blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%src : memref<1024xf32>)
    gpu.launch_func @sm_versions::@one_copy blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%src : memref<1024xf32>)
    %done = llvm.mlir.addressof @done : !llvm.ptr
    func.call @printString(%done) : (!llvm.ptr) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %out2 : memref<1024xf16>
    memref.dealloc %src : memref<1024xf32>
    memref.dealloc %src16 : memref<1024xf16>
    return
  }
  // @attributions, one thread: src[i] = i mod 32 + 1, out[0] = 4 src[0].
  func.func @attributions() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant 1024 : index
    %src16 = memref.alloc() : memref<1024xf16>
    scf.for %i = %c0 to %n step %c1 {
      %small = arith.remui %i, %c32 : index
      %small1 = arith.addi %small, %c1 : index
      %si = arith.index_cast %small1 : index to i32
      %h = arith.sitofp %si : i32 to f16
      memref.store %h, %src16[%i] : memref<1024xf16>
    }
    %zero = arith.constant 0.0 : f16
    %out = memref.alloc() : memref<1024xf16>
    linalg.fill ins(%zero : f16) outs(%out : memref<1024xf16>)
    gpu.launch_func @align::@attributions blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%src16 : memref<1024xf16>, %out : memref<1024xf16>)
    func.call @print8(%out) : (memref<1024xf16>) -> ()
    memref.dealloc %out : memref<1024xf16>
    memref.dealloc %src16 : memref<1024xf16>
    return
  }

  llvm.mlir.global internal constant @done("done\00") {addr_space = 0 : i32}
}
