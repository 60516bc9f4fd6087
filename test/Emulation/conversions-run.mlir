// End to end, every conversion pass: each converted program runs under
// apipe-run in lazy, eager and random completion and prints what
// apipe-make-sync of the input prints. Lazy lands each copy at the last
// moment its waits allow (a wait lost or weakened by a conversion shows as
// stale data), eager at issue. The programs, in counting form: a
// double-buffered loop, two queues with different distances, and a commit
// under a condition. (A helper that waits for its caller's group:
// conversions-entry-groups-run.mlir.)
//
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-run %s --completion=lazy | FileCheck %s
// counting-to-tokens (token form runs as is):
// RUN: apipe-opt %s --apipe-counting-to-tokens | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-counting-to-tokens | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-counting-to-tokens | apipe-run - --completion=random:1 | FileCheck %s
// tokens-to-counting after it (the round trip), strict:
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-counting{strict=true})' | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-counting{strict=true})' | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-counting{strict=true})' | apipe-run - --completion=random:2 | FileCheck %s
// tokens-to-mbarrier after it (the mbarrier form, docs/mbarrier.md):
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier)' | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier)' | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier)' | apipe-run - --completion=random:5 | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier{slots=4})' | apipe-run - --completion=lazy | FileCheck %s
// Any K, a power of two or not (slot `count mod K` by `arith.remui`):
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier{slots=3})' | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier{slots=3})' | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier{slots=3})' | apipe-run - --completion=random:7 | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier{slots=1})' | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier{slots=1})' | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier{slots=1})' | apipe-run - --completion=random:8 | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier{max-slots=3})' | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier{max-slots=3})' | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier{max-slots=3})' | apipe-run - --completion=random:9 | FileCheck %s
// sync=auto's apipe passes (apipe-select-sync: @two_queues takes the
// mbarrier form, the others counting form; then merge-queues over both):
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-select-sync,apipe-tokens-to-counting,apipe-merge-queues)' | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-select-sync,apipe-tokens-to-counting,apipe-merge-queues)' | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-select-sync,apipe-tokens-to-counting,apipe-merge-queues)' | apipe-run - --completion=random:6 | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-select-sync,apipe-tokens-to-counting,apipe-merge-queues)' | FileCheck %s --check-prefix=AUTO
// AUTO-LABEL: func.func @double_buffer
// AUTO-NOT: mbarrier
// AUTO-LABEL: func.func @two_queues
// AUTO: apipe.mbarrier_init
// AUTO-NOT: apipe.wait_group
// AUTO-LABEL: func.func @commit_under_condition
// AUTO-NOT: mbarrier
// merge-queues:
// RUN: apipe-opt %s --apipe-merge-queues | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-merge-queues | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-merge-queues | apipe-run - --completion=random:3 | FileCheck %s
// export to nvgpu and import back (one queue first):
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-merge-queues,apipe-to-nvgpu,apipe-import-nvgpu)' | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-merge-queues,apipe-to-nvgpu,apipe-import-nvgpu)' | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-merge-queues,apipe-to-nvgpu{tokens=true},apipe-import-nvgpu,apipe-tokens-to-counting)' | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-merge-queues,apipe-to-nvgpu{tokens=true},apipe-import-nvgpu,apipe-tokens-to-counting)' | apipe-run - --completion=random:4 | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

// out[i] = A[4i + 1] through a double buffer: tile i + 1 is in flight while
// tile i is read.
func.func @double_buffer(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %buf = memref.alloc() : memref<2x4xf32, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
  apipe.commit_group
  scf.for %i = %c0 to %c15 step %c1 {
    %n = arith.addi %i, %c1 : index
    %off = arith.muli %n, %c4 : index
    %v = arith.remui %n, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
    apipe.commit_group
    apipe.wait_group 1
    %u = arith.remui %i, %c2 : index
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32, 3>
    memref.store %x, %out[%i] : memref<16xf32>
  }
  apipe.wait_group 0
  %y = memref.load %buf[%c1, %c1] : memref<2x4xf32, 3>
  memref.store %y, %out[%c15] : memref<16xf32>
  memref.dealloc %buf : memref<2x4xf32, 3>
  return
}

// Queue 0 carries tiles two iterations ahead, queue 1 one iteration ahead:
// out[i] = A[4i + 2] + A[4i + 3].
func.func @two_queues(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %p = memref.alloc() : memref<3x4xf32, 3>
  %q = memref.alloc() : memref<2x4xf32, 3>
  apipe.copy %A[%c0], %p[%c0, %c0], 4 : memref<64xf32> to memref<3x4xf32, 3>
  apipe.commit_group
  apipe.copy %A[%c4], %p[%c1, %c0], 4 : memref<64xf32> to memref<3x4xf32, 3>
  apipe.commit_group
  apipe.copy %A[%c0], %q[%c0, %c0], 4 queue 1 : memref<64xf32> to memref<2x4xf32, 3>
  apipe.commit_group queue 1
  scf.for %i = %c0 to %c16 step %c1 {
    %i2 = arith.addi %i, %c2 : index
    %off2 = arith.muli %i2, %c4 : index
    %v2 = arith.remui %i2, %c3 : index
    %in2 = arith.cmpi ult, %i2, %c16 : index
    scf.if %in2 {
      apipe.copy %A[%off2], %p[%v2, %c0], 4 : memref<64xf32> to memref<3x4xf32, 3>
    }
    apipe.commit_group
    %i1 = arith.addi %i, %c1 : index
    %off1 = arith.muli %i1, %c4 : index
    %v1 = arith.remui %i1, %c2 : index
    %in1 = arith.cmpi ult, %i1, %c16 : index
    scf.if %in1 {
      apipe.copy %A[%off1], %q[%v1, %c0], 4 queue 1 : memref<64xf32> to memref<2x4xf32, 3>
    }
    apipe.commit_group queue 1
    apipe.wait_group 2
    apipe.wait_group 1 queue 1
    %u = arith.remui %i, %c3 : index
    %w = arith.remui %i, %c2 : index
    %x = memref.load %p[%u, %c2] : memref<3x4xf32, 3>
    %y = memref.load %q[%w, %c3] : memref<2x4xf32, 3>
    %s = arith.addf %x, %y : f32
    memref.store %s, %out[%i] : memref<16xf32>
  }
  apipe.wait_group 0
  apipe.wait_group 0 queue 1
  return
}

// Only even iterations copy (and commit); the wait completes the newest
// group either way: out[i] = A[4i] for even i, -1 (untouched) for odd i.
func.func @commit_under_condition(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    %r = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %r, %c0 : index
    scf.if %even {
      %off = arith.muli %i, %c4 : index
      apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%c0] : memref<4xf32, 3>
      memref.store %x, %out[%i] : memref<16xf32>
    }
  }
  return
}

func.func @reset(%out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %m1 = arith.constant -1.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>

  // CHECK: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @double_buffer(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [5,  13,  21,  29,  37,  45,  53,  61,  69,  77,  85,  93,  101,  109,  117,  125]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @two_queues(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [0,  -1,  8,  -1,  16,  -1,  24,  -1,  32,  -1,  40,  -1,  48,  -1,  56,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @commit_under_condition(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  return
}
