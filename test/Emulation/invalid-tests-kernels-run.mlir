// The gpu.func kernels of the error tests of test/Target and test/Dialect
// are valid programs at the apipe level (the errors are about the target,
// the command line or IR around them): they run end to end under apipe-run
// with the race checker, in lazy, eager and random completion and two
// schedules, as they are and after the apipe passes of apipe-translate's
// pipeline (sync=auto: apipe-select-sync, apipe-tokens-to-counting,
// apipe-merge-queues), and print what their apipe-make-sync version prints:
// - Target/translate-invalid.mlir @copy_one (each thread copies 4 floats
//   to its own place and waits), 2 blocks x 128 threads;
// - Target/translate-invalid-ir.mlir @bad_copies (12 bytes to workgroup
//   memory and 16 bytes to global memory %g, which cp.async cannot do; no
//   wait: both copies land when the kernel ends), 1 block x 1 thread: its
//   indices are constant, so more threads of a block would copy to the same
//   workgroup bytes (a race, checked below) and more blocks to the same
//   global bytes (a race too, checked below: two blocks' copies write the
//   same global bytes). With
//   src[j] = j + 1, g = [1, 2, 3, 4, 0, 0, 0, 0];
// - Target/translate-two-gpu-modules.mlir @first::@k and @second::@k
//   (empty), 2 blocks x 32 threads;
// - Dialect/invalid.mlir @k (empty; it sits in a gpu.module whose other
//   op, an apipe.wait_group outside any function, is the error: only the
//   gpu.func is taken), 2 blocks x 32 threads. Beside it, the gpu.launch
//   body of @in_launch in the same file (one group and its wait; the bad
//   wait_group -1 after the launch is dropped), n = 2: 2x2x2 blocks of
//   2x2x2 threads.
// Output: g, then "done".
//
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Target/translate-invalid.mlir | sed -e 's/^gpu.module @kernels/gpu.module @copy_one/' > %t.copy_one
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Target/translate-invalid-ir.mlir | sed -e 's/^gpu.module @kernels/gpu.module @bad_copies/' -e '/CHECK/d' > %t.bad_copies
// RUN: sed -n '/^gpu.module/,$p' %apipe_root/test/Target/translate-two-gpu-modules.mlir | sed -e '/CHECK/d' > %t.two_modules
// RUN: echo 'gpu.module @dialect_invalid {' > %t.dialect
// RUN: awk '/must be inside a function body}}/{seen=1} seen && /^  gpu.func @k\(/{on=1} on{print} on && /^  }/{exit}' %apipe_root/test/Dialect/invalid.mlir >> %t.dialect
// RUN: echo '}' >> %t.dialect
// RUN: sed -n '/^func.func @in_launch(/,/^}/p' %apipe_root/test/Dialect/invalid.mlir | sed -e '/expected-/d' -e '/apipe.wait_group -1/d' >> %t.dialect
// RUN: FileCheck %s --check-prefix=DIALECT < %t.dialect
// DIALECT: gpu.module @dialect_invalid {
// DIALECT-NEXT: gpu.func @k() kernel {
// DIALECT-NEXT: gpu.return
// DIALECT-NEXT: }
// DIALECT-NEXT: }
// DIALECT-NEXT: func.func @in_launch(%n: index) {
// DIALECT-NEXT: gpu.launch
// DIALECT-NEXT: apipe.commit_group
// DIALECT-NEXT: apipe.wait_group 0
// DIALECT-NEXT: gpu.terminator
// DIALECT-NEXT: }
// DIALECT-NEXT: return
// DIALECT-NEXT: }
// RUN: sed -e '/^\/\/ @copy_one$/r %t.copy_one' -e '/^\/\/ @bad_copies$/r %t.bad_copies' -e '/^\/\/ @two_modules$/r %t.two_modules' -e '/^\/\/ @dialect$/r %t.dialect' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - | grep -v base@ > %t.ref
// RUN: FileCheck %s < %t.ref
// CHECK: [1,  2,  3,  4,  0,  0,  0,  0]
// CHECK-NEXT: done
// CHECK-NOT: {{.}}
// RUN: cat %t.ref %t.ref %t.ref %t.ref %t.ref %t.ref > %t.expected
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v '^// apipe-run' | grep -v base@ > %t.all
// RUN: diff %t.expected %t.all
// RUN: apipe-opt %t.mlir --pass-pipeline='builtin.module(apipe-select-sync,apipe-tokens-to-counting,apipe-merge-queues)' | apipe-run - --completion=lazy,eager,random:2 --schedule=forward,random:3 | grep -v '^// apipe-run' | grep -v base@ > %t.auto.all
// RUN: diff %t.expected %t.auto.all
//
// @bad_copies with 2 threads in a block races, as said above:
// RUN: not apipe-run %t.mlir --entry=bad_copies_two_threads 2>&1 | FileCheck %s --check-prefix=TWO-THREADS
// TWO-THREADS: error: race (WAW) on shared memory byte 0 (byte 0 of the workgroup buffer at {{.*}}): thread ({{0|1}},0,0) of block (0,0,0) writes it, and thread ({{1|0}},0,0) writes it with no gpu.barrier between ('apipe.copy' and 'apipe.copy')
// and so does @bad_copies with 2 blocks of 1 thread, on global memory
// (each block's copy writes g[0..4)):
// RUN: not apipe-run %t.mlir --entry=bad_copies_two_blocks 2>&1 | FileCheck %s --check-prefix=TWO-BLOCKS
// TWO-BLOCKS: error: race (WAW) on global memory at address {{.*}}: thread (0,0,0) of block (1,0,0) and thread (0,0,0) of block (0,0,0) write the same bytes, neither atomically (the order of blocks is unspecified)

module attributes {gpu.container_module} {
// @copy_one
// @bad_copies
// @two_modules
// @dialect
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printString(!llvm.ptr)
  func.func private @printNewline()
  llvm.mlir.global internal constant @done_text("done\00") {addr_space = 0 : i32}

  // src[j] = j + 1, 1024 elements.
  func.func @input() -> memref<1024xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %one = arith.constant 1.0 : f32
    %a = memref.alloc() : memref<1024xf32>
    scf.for %j = %c0 to %c1024 step %c1 {
      %jj = arith.index_cast %j : index to i32
      %f = arith.sitofp %jj : i32 to f32
      %g = arith.addf %f, %one : f32
      memref.store %g, %a[%j] : memref<1024xf32>
    }
    return %a : memref<1024xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %src = func.call @input() : () -> memref<1024xf32>

    gpu.launch_func @copy_one::@copy_one blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%src : memref<1024xf32>)

    %g = memref.alloc() : memref<512xf32>
    linalg.fill ins(%zero : f32) outs(%g : memref<512xf32>)
    gpu.launch_func @bad_copies::@bad_copies blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%src : memref<1024xf32>, %g : memref<512xf32>)
    %g8 = memref.subview %g[0] [8] [1] : memref<512xf32> to memref<8xf32, strided<[1]>>
    %gu = memref.cast %g8 : memref<8xf32, strided<[1]>> to memref<*xf32>
    func.call @printMemrefF32(%gu) : (memref<*xf32>) -> ()

    gpu.launch_func @first::@k blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
    gpu.launch_func @second::@k blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
    gpu.launch_func @dialect_invalid::@k blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
    func.call @in_launch(%c2) : (index) -> ()

    %done = llvm.mlir.addressof @done_text : !llvm.ptr
    func.call @printString(%done) : (!llvm.ptr) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %g : memref<512xf32>
    memref.dealloc %src : memref<1024xf32>
    return
  }

  func.func @bad_copies_two_blocks() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %src = func.call @input() : () -> memref<1024xf32>
    %g = memref.alloc() : memref<512xf32>
    gpu.launch_func @bad_copies::@bad_copies blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1) args(%src : memref<1024xf32>, %g : memref<512xf32>)
    memref.dealloc %g : memref<512xf32>
    memref.dealloc %src : memref<1024xf32>
    return
  }

  func.func @bad_copies_two_threads() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %src = func.call @input() : () -> memref<1024xf32>
    %g = memref.alloc() : memref<512xf32>
    gpu.launch_func @bad_copies::@bad_copies blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%src : memref<1024xf32>, %g : memref<512xf32>)
    memref.dealloc %g : memref<512xf32>
    memref.dealloc %src : memref<1024xf32>
    return
  }
}
