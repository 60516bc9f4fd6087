// The kernels of test/Transforms/software-pipeline-gpu-legality.mlir
// (@padded_versions, @padded_rows, @no_padding_needed, @workgroup_alloc)
// and of its inputs test/Transforms/Inputs/gpu-legality-misaligned-versions.mlir
// (@k) and Inputs/gpu-legality-workgroup-alloc.mlir (@stream) run end to
// end after apipe-software-pipeline (the option of that test's RUN lines),
// in counting and token form and the token form's mbarrier form, in lazy,
// eager and random completion and two schedules with the race checker on,
// and print what apipe-make-sync of their input prints (the inputs' copies
// are synchronous: no commit, no wait). Each gpu.module (all named @m) is
// renamed after its kernel. A[i] = i (f32 and f16), outputs zero before
// each launch; each line is one launch's 32 outputs:
// - @padded_versions and @k, one thread (every thread copies the same 4
//   floats to tile[0..4), so a wider launch is a write-write race by
//   design): out[0] = sum over t < 16 of A[4 t + 1] = 496;
// - @padded_rows, one thread (same reason), f16 shown as f32:
//   out[t] = A[16 t + 1] = 16 t + 1 for t < 16;
// - @no_padding_needed, one thread: out[t] = A[16 t + 1] = 16 t + 1;
// - @workgroup_alloc, 32 threads (each its own 4 floats of the tile):
//   out[x] = A[128 * 15 + 4 x] = 1920 + 4 x;
// - @stream, 32 threads, 16 tiles: thread x adds the 4 floats its
//   neighbour (x + 1) mod 32 copied: out[x] = 61536 + 256 ((x + 1) mod 32).
//
// @stream's input has no barrier between the neighbour's copy and the read:
// its make-sync form races (checked below), so its reference is make-sync
// of the pipelined kernel, whose barriers the pipeliner placed; the other
// five also print the same in their make-sync input.
//
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@padded_versions\(/) print b; on=0}' %apipe_root/test/Transforms/software-pipeline-gpu-legality.mlir | sed -e 's/^gpu.module @m /gpu.module @versions /' > %t.versions
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@padded_rows\(/) print b; on=0}' %apipe_root/test/Transforms/software-pipeline-gpu-legality.mlir | sed -e 's/^gpu.module @m /gpu.module @rows /' > %t.rows
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@no_padding_needed\(/) print b; on=0}' %apipe_root/test/Transforms/software-pipeline-gpu-legality.mlir | sed -e 's/^gpu.module @m /gpu.module @nopad /' > %t.nopad
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@workgroup_alloc\(/) print b; on=0}' %apipe_root/test/Transforms/software-pipeline-gpu-legality.mlir | sed -e 's/^gpu.module @m /gpu.module @alloc /' > %t.alloc
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@k\(/) print b; on=0}' %apipe_root/test/Transforms/Inputs/gpu-legality-misaligned-versions.mlir | sed -e 's/^gpu.module @m /gpu.module @misaligned /' > %t.misaligned
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@stream\(/) print b; on=0}' %apipe_root/test/Transforms/Inputs/gpu-legality-workgroup-alloc.mlir | sed -e 's/^gpu.module @m /gpu.module @stream /' > %t.stream
// RUN: sed -e '/^\/\/ @versions$/r %t.versions' -e '/^\/\/ @rows$/r %t.rows' -e '/^\/\/ @nopad$/r %t.nopad' -e '/^\/\/ @alloc$/r %t.alloc' -e '/^\/\/ @misaligned$/r %t.misaligned' -e '/^\/\/ @stream$/r %t.stream' %s > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-software-pipeline > %t.pipelined.mlir
// RUN: apipe-opt %t.pipelined.mlir --apipe-make-sync | apipe-run - | grep -v base@ > %t.sync
// RUN: FileCheck %s --check-prefixes=CHECK,STREAM < %t.sync
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - --entry=first_five | grep -v base@ | FileCheck %s
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.expected
// RUN: apipe-run %t.pipelined.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.pipelined.out
// RUN: diff %t.expected %t.pipelined.out
// RUN: apipe-opt %t.mlir --apipe-software-pipeline="sync=tokens" > %t.tokens.mlir
// RUN: apipe-run %t.tokens.mlir --completion=lazy,eager,random:1 --schedule=forward,random:2 | grep -v -e '^// apipe-run' -e base@ > %t.tokens.out
// RUN: diff %t.expected %t.tokens.out
// The mbarrier form runs all six kernels one after the other in one
// program (each leaves the arrival of its last, empty group never waited
// for, in a slot of workgroup memory that the next kernel reuses for
// other data: the slot must die with its block), and one kernel per
// apipe-run, each in every mode:
// RUN: apipe-opt %t.tokens.mlir --apipe-tokens-to-mbarrier > %t.mbarrier.mlir
// RUN: apipe-run %t.mbarrier.mlir --completion=lazy,eager,random:1 --schedule=forward,random:2 | grep -v -e '^// apipe-run' -e base@ > %t.mbarrier.all
// RUN: diff %t.expected %t.mbarrier.all
// RUN: apipe-run %t.mbarrier.mlir --entry=versions_only --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.mb1
// RUN: apipe-run %t.mbarrier.mlir --entry=rows_only --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.mb2
// RUN: apipe-run %t.mbarrier.mlir --entry=nopad_only --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.mb3
// RUN: apipe-run %t.mbarrier.mlir --entry=alloc_only --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.mb4
// RUN: apipe-run %t.mbarrier.mlir --entry=misaligned_only --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.mb5
// RUN: apipe-run %t.mbarrier.mlir --entry=stream_only --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e '^// apipe-run' -e base@ > %t.mb6
// RUN: cat %t.mb1 %t.mb2 %t.mb3 %t.mb4 %t.mb5 %t.mb6 > %t.mbarrier.out
// RUN: sed -n -e '1{p;p;p;p;p;p}' -e '2{p;p;p;p;p;p}' -e '3{p;p;p;p;p;p}' -e '4{p;p;p;p;p;p}' -e '5{p;p;p;p;p;p}' -e '6{p;p;p;p;p;p}' %t.sync > %t.mbarrier.expected
// RUN: diff %t.mbarrier.expected %t.mbarrier.out
//
// @stream's synchronous input races (a thread reads its neighbour's floats
// with no gpu.barrier after the neighbour's copy), and so does its pipelined
// form without the pipeliner's barriers:
// RUN: apipe-opt %t.mlir --apipe-make-sync | not apipe-run - --entry=stream_only 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: apipe-opt %t.mlir --apipe-software-pipeline="barriers=false" | not apipe-run - --entry=stream_only 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: error: race ({{RAW|WAR}}) on shared memory byte

// CHECK: [496,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK-NEXT: [1,  17,  33,  49,  65,  81,  97,  113,  129,  145,  161,  177,  193,  209,  225,  241,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK-NEXT: [1,  17,  33,  49,  65,  81,  97,  113,  129,  145,  161,  177,  193,  209,  225,  241,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK-NEXT: [1920,  1924,  1928,  1932,  1936,  1940,  1944,  1948,  1952,  1956,  1960,  1964,  1968,  1972,  1976,  1980,  1984,  1988,  1992,  1996,  2000,  2004,  2008,  2012,  2016,  2020,  2024,  2028,  2032,  2036,  2040,  2044]
// CHECK-NEXT: [496,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// STREAM-NEXT: [61792,  62048,  62304,  62560,  62816,  63072,  63328,  63584,  63840,  64096,  64352,  64608,  64864,  65120,  65376,  65632,  65888,  66144,  66400,  66656,  66912,  67168,  67424,  67680,  67936,  68192,  68448,  68704,  68960,  69216,  69472,  61536]
// STREAM-NOT: {{.}}

module attributes {gpu.container_module} {
// @versions
// @rows
// @nopad
// @alloc
// @misaligned
// @stream
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @zeros() -> memref<32xf32> {
    %zero = arith.constant 0.0 : f32
    %out = memref.alloc() : memref<32xf32>
    linalg.fill ins(%zero : f32) outs(%out : memref<32xf32>)
    return %out : memref<32xf32>
  }

  func.func @show(%out: memref<32xf32>) {
    %u = memref.cast %out : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %out : memref<32xf32>
    return
  }

  // A[i] = i, n elements.
  func.func @input(%n: index) -> memref<?xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = memref.alloc(%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %a[%i] : memref<?xf32>
    }
    return %a : memref<?xf32>
  }

  func.func @versions_only() {
    %c1 = arith.constant 1 : index
    %c4096 = arith.constant 4096 : index
    %ad = func.call @input(%c4096) : (index) -> memref<?xf32>
    %a = memref.cast %ad : memref<?xf32> to memref<4096xf32>
    %o = func.call @zeros() : () -> memref<32xf32>
    gpu.launch_func @versions::@padded_versions blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4096xf32>, %o : memref<32xf32>)
    func.call @show(%o) : (memref<32xf32>) -> ()
    memref.dealloc %ad : memref<?xf32>
    return
  }

  func.func @rows_only() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c4096 = arith.constant 4096 : index
    %h = memref.alloc() : memref<4096xf16>
    scf.for %i = %c0 to %c4096 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %v = arith.sitofp %ii : i32 to f16
      memref.store %v, %h[%i] : memref<4096xf16>
    }
    %zh = arith.constant 0.0 : f16
    %oh = memref.alloc() : memref<32xf16>
    linalg.fill ins(%zh : f16) outs(%oh : memref<32xf16>)
    gpu.launch_func @rows::@padded_rows blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%h : memref<4096xf16>, %oh : memref<32xf16>)
    %o = memref.alloc() : memref<32xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      %v16 = memref.load %oh[%i] : memref<32xf16>
      %v = arith.extf %v16 : f16 to f32
      memref.store %v, %o[%i] : memref<32xf32>
    }
    func.call @show(%o) : (memref<32xf32>) -> ()
    memref.dealloc %oh : memref<32xf16>
    memref.dealloc %h : memref<4096xf16>
    return
  }

  func.func @nopad_only() {
    %c1 = arith.constant 1 : index
    %c4096 = arith.constant 4096 : index
    %ad = func.call @input(%c4096) : (index) -> memref<?xf32>
    %a = memref.cast %ad : memref<?xf32> to memref<4096xf32>
    %o = func.call @zeros() : () -> memref<32xf32>
    gpu.launch_func @nopad::@no_padding_needed blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4096xf32>, %o : memref<32xf32>)
    func.call @show(%o) : (memref<32xf32>) -> ()
    memref.dealloc %ad : memref<?xf32>
    return
  }

  func.func @alloc_only() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c8192 = arith.constant 8192 : index
    %ad = func.call @input(%c8192) : (index) -> memref<?xf32>
    %a = memref.cast %ad : memref<?xf32> to memref<8192xf32>
    %o = func.call @zeros() : () -> memref<32xf32>
    gpu.launch_func @alloc::@workgroup_alloc blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<8192xf32>, %o : memref<32xf32>)
    func.call @show(%o) : (memref<32xf32>) -> ()
    memref.dealloc %ad : memref<?xf32>
    return
  }

  func.func @misaligned_only() {
    %c1 = arith.constant 1 : index
    %c4096 = arith.constant 4096 : index
    %ad = func.call @input(%c4096) : (index) -> memref<?xf32>
    %a = memref.cast %ad : memref<?xf32> to memref<4096xf32>
    %o = func.call @zeros() : () -> memref<32xf32>
    gpu.launch_func @misaligned::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4096xf32>, %o : memref<32xf32>)
    func.call @show(%o) : (memref<32xf32>) -> ()
    memref.dealloc %ad : memref<?xf32>
    return
  }

  func.func @stream_only() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c8192 = arith.constant 8192 : index
    %ad = func.call @input(%c8192) : (index) -> memref<?xf32>
    %a = memref.cast %ad : memref<?xf32> to memref<8192xf32>
    %o = func.call @zeros() : () -> memref<32xf32>
    gpu.launch_func @stream::@stream blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<8192xf32>, %o : memref<32xf32>, %c16 : index)
    func.call @show(%o) : (memref<32xf32>) -> ()
    memref.dealloc %ad : memref<?xf32>
    return
  }

  func.func @first_five() {
    func.call @versions_only() : () -> ()
    func.call @rows_only() : () -> ()
    func.call @nopad_only() : () -> ()
    func.call @alloc_only() : () -> ()
    func.call @misaligned_only() : () -> ()
    return
  }

  func.func @main() {
    func.call @first_five() : () -> ()
    func.call @stream_only() : () -> ()
    return
  }
}
