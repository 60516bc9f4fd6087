// apipe-check-hazards on the mbarrier form (docs/mbarrier.md) reports
// nothing on correct programs: every output of apipe-tokens-to-mbarrier in
// the test suite whose token form checks clean, the examples, and the
// correct twins of check-hazards-mbarrier-invalid.mlir below; the IR is
// left unchanged.
// RUN: apipe-opt %s --split-input-file --apipe-check-hazards | FileCheck %s
//
// Pipeliner outputs (multi-buffered loops, static and dynamic trip counts,
// prologue/epilogue, iter_args, kernels with barriers):
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline.mlir --split-input-file --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-run.mlir --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-gpu.mlir --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-trip-counts.mlir --split-input-file --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-iter-args.mlir --split-input-file --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-iter-args-run.mlir --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-barriers-global.mlir --split-input-file --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-gpu-legality.mlir --split-input-file --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/examples/software_pipeline_input.mlir --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/examples/sgemm.mlir --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
//
// The examples and conversion tests, through token form:
// RUN: apipe-opt %apipe_root/examples/double_buffer_tokens.mlir --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/examples/double_buffer_counting.mlir --apipe-counting-to-tokens --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/examples/pipelined/copy_bw.mlir --apipe-counting-to-tokens --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/examples/pipelined/stream_sum.mlir --apipe-counting-to-tokens --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Emulation/conversions-run.mlir --apipe-counting-to-tokens --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Emulation/fuzz-regressions.mlir --split-input-file --apipe-counting-to-tokens --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/conversion-odd-shapes.mlir --split-input-file --apipe-counting-to-tokens --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/conversion-parallel.mlir --split-input-file --apipe-counting-to-tokens --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Target/ptx-token-form.mlir --split-input-file --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Target/ptx-mbarrier.mlir --split-input-file --apipe-tokens-to-mbarrier --apipe-check-hazards -o /dev/null
//
// Every K the pass accepts: not a power of two (slot `count mod K` with
// `arith.remui`, parity `((count div K) & 1) != 0`), K = 1 (constant slot
// 0), and a derived K capped by a max-slots that is not a power of two:
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline.mlir --split-input-file --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier=slots=3 --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline.mlir --split-input-file --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier=slots=1 --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-gpu.mlir --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier=slots=5 --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-trip-counts.mlir --split-input-file --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier=max-slots=3 --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/examples/sgemm.mlir --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier=slots=3 --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/examples/double_buffer_tokens.mlir --apipe-tokens-to-mbarrier=slots=1 --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/examples/double_buffer_tokens.mlir --apipe-tokens-to-mbarrier=slots=3 --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Emulation/conversions-run.mlir --apipe-counting-to-tokens --apipe-tokens-to-mbarrier=slots=3 --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Emulation/conversions-run.mlir --apipe-counting-to-tokens --apipe-tokens-to-mbarrier=slots=1 --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Emulation/fuzz-regressions.mlir --split-input-file --apipe-counting-to-tokens --apipe-tokens-to-mbarrier=slots=3 --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Emulation/fuzz-regressions.mlir --split-input-file --apipe-counting-to-tokens --apipe-tokens-to-mbarrier=max-slots=3 --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Target/ptx-mbarrier.mlir --split-input-file --apipe-tokens-to-mbarrier=slots=6 --apipe-check-hazards -o /dev/null
//
// A loop whose waited group is 1 or 2 groups old depending on a branch:
// the walk follows which token (count) names which copy's group per path,
// so token form and the raw mbarrier form check clean.
// RUN: apipe-opt %apipe_root/test/Emulation/mbarrier-guard-distance.mlir --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Emulation/mbarrier-guard-distance.mlir --apipe-tokens-to-mbarrier=slots=2 --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %apipe_root/test/Emulation/mbarrier-guard-distance.mlir --apipe-tokens-to-mbarrier=slots=4 --apipe-check-hazards -o /dev/null
// Canonicalized, the first group's count is the constant 0 (its arrive's
// slot `%c0`): the group's number, followed as a name too.
// RUN: apipe-opt %apipe_root/test/Emulation/mbarrier-guard-distance.mlir --apipe-tokens-to-mbarrier=slots=4 --canonicalize --apipe-check-hazards -o /dev/null
//
// apipe-tokens-to-mbarrier's own tests, raw and canonicalized (constant
// slots and parities): silent but for the one write-after-write that the
// token form has too (a kernel whose loop copies into the buffer version
// the prologue's copy may still be writing).
// RUN: not apipe-opt %apipe_root/test/Transforms/tokens-to-mbarrier.mlir --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOKENS
// RUN: apipe-opt %apipe_root/test/Transforms/tokens-to-mbarrier.mlir --split-input-file --apipe-tokens-to-mbarrier | not apipe-opt - --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOKENS
// RUN: apipe-opt %apipe_root/test/Transforms/tokens-to-mbarrier.mlir --split-input-file --apipe-tokens-to-mbarrier --canonicalize | not apipe-opt - --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOKENS
// TOKENS: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
// TOKENS-NOT: error:
//
// In a kernel, the wait covers read-after-write across threads: the
// barrier after each wait, which apipe-tokens-to-mbarrier removes, is not
// missed; with every barrier removed, the copy over data other threads
// may still read (write-after-read) and the uninitialised ring are.
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-gpu.mlir --apipe-software-pipeline="sync=tokens" --apipe-tokens-to-mbarrier -o %t.gpu.mlir
// RUN: FileCheck %s --check-prefix=DROPPED < %t.gpu.mlir
// The loop keeps the barrier before its copies (write-after-read) and
// loses the one after its wait; the epilogue keeps its barrier after the
// wait (its store and the last iteration's store to the output are
// ordered by nothing else).
// DROPPED: scf.for
// DROPPED: gpu.barrier
// DROPPED: apipe.copy
// DROPPED: apipe.mbarrier_wait
// DROPPED-NOT: gpu.barrier
// DROPPED: scf.yield
// DROPPED: apipe.mbarrier_wait
// DROPPED-NEXT: gpu.barrier
// RUN: apipe-opt %t.gpu.mlir --apipe-check-hazards -o /dev/null
// RUN: grep -v gpu.barrier %t.gpu.mlir | not apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOBAR
// NOBAR: error: 'apipe.mbarrier_init' op initialises its ring in one thread with no gpu.barrier before the ring's first arrive or wait
// NOBAR-NOT: error:
// RUN: sed -e '/gpu.barrier/{x;s/^/x/;/^x\{2\}$/{x;d};x}' %t.gpu.mlir | not apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=WAR
// WAR: error: 'apipe.copy' op overwrites data that other threads may still be reading, with no gpu.barrier between their read and this copy (missing barrier)
// WAR-NOT: error:

// The correct twins of check-hazards-mbarrier-invalid.mlir.
// CHECK-LABEL: func.func @constant_slots
// CHECK: apipe.mbarrier_wait %{{.*}}[%{{.*}}], %false
func.func @constant_slots(%A: memref<64xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c1, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
  %x = memref.load %buf[%c0, %c0] : memref<2x4xf32>
  apipe.mbarrier_wait %ring[%c1], %false : memref<2xi64, 3>
  %y = memref.load %buf[%c1, %c0] : memref<2x4xf32>
  %s = arith.addf %x, %y : f32
  return %s : f32
}

// -----

// A ring of 2 reused: group 2 re-arms slot 0 after group 0's wait, and the
// wait on it names phase 1 (parity 1).
// CHECK-LABEL: func.func @slot_reused_after_wait
func.func @slot_reused_after_wait(%A: memref<64xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %false = arith.constant false
  %true = arith.constant true
  %buf = memref.alloc() : memref<3x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c2, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %true : memref<2xi64, 3>
  %x = memref.load %buf[%c2, %c0] : memref<3x4xf32>
  return %x : f32
}

// -----

// The loop of apipe-tokens-to-mbarrier: the count and the previous group's
// count carried as iter_args; the wait names the previous group (2 groups
// old on a ring of 2).
// CHECK-LABEL: func.func @loop
func.func @loop(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  %r:2 = scf.for %i = %c0 to %c15 step %c1 iter_args(%prev = %c0, %count = %c1) -> (index, index) {
    %n = arith.addi %i, %c1 : index
    %off = arith.muli %n, %c4 : index
    %v = arith.remui %n, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    %slot = arith.andi %count, %c1 : index
    apipe.mbarrier_arrive_copies %ring[%slot] : memref<2xi64, 3>
    %next = arith.addi %count, %c1 : index
    %ps = arith.andi %prev, %c1 : index
    %pb = arith.andi %prev, %c2 : index
    %parity = arith.cmpi ne, %pb, %c0 : index
    apipe.mbarrier_wait %ring[%ps], %parity : memref<2xi64, 3>
    %u = arith.remui %i, %c2 : index
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    scf.yield %count, %next : index, index
  }
  return
}

// -----

// A guarded wait on a group that may be many groups old: run only while
// `count - x <= 2`.
// CHECK-LABEL: func.func @guarded
func.func @guarded(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c1) -> (index) {
    %s = arith.andi %count, %c1 : index
    %b = arith.andi %count, %c2 : index
    %before = arith.cmpi eq, %b, %c0 : index
    apipe.mbarrier_wait %ring[%s], %before : memref<2xi64, 3>
    apipe.mbarrier_arrive_copies %ring[%s] : memref<2xi64, 3>
    %next = arith.addi %count, %c1 : index
    scf.yield %next : index
  }
  %s0 = arith.andi %c0, %c1 : index
  %b0 = arith.andi %c0, %c2 : index
  %p0 = arith.cmpi ne, %b0, %c0 : index
  %age = arith.subi %r, %c0 : index
  %recent = arith.cmpi ule, %age, %c2 : index
  scf.if %recent {
    apipe.mbarrier_wait %ring[%s0], %p0 : memref<2xi64, 3>
  }
  return
}

// -----

// A kernel: thread 0 initialises the ring with the block size, a barrier
// publishes it; each thread reads its neighbour's copy after the wait, with
// no barrier (the phase completes only once every thread has arrived).
// CHECK-LABEL: gpu.func @kernel
gpu.module @kernels {
  gpu.func @kernel(%A: memref<1024xf32> {llvm.noalias}, %out: memref<1024xf32> {llvm.noalias}) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    %bx = gpu.block_dim x
    %by = gpu.block_dim y
    %bz = gpu.block_dim z
    %bxy = arith.muli %bx, %by : index
    %threads = arith.muli %bxy, %bz : index
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      apipe.mbarrier_init %ring, %threads : memref<2xi64, 3>
    }
    gpu.barrier
    apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
    %next = arith.addi %tid, %c1 : index
    %other = arith.remui %next, %c256 : index
    %x = memref.load %buf[%other] : memref<256xf32, 3>
    memref.store %x, %out[%tid] : memref<1024xf32>
    gpu.return
  }
}

// -----

// A ring of 3 slots (not a power of two), as apipe-tokens-to-mbarrier
// writes it: slot `count mod 3`, parity `((count div 3) & 1) != 0`.
// CHECK-LABEL: func.func @loop_three_slots
// CHECK: arith.remui %{{.*}}, %c3
func.func @loop_three_slots(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<3xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<3xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  %s0 = arith.remui %c0, %c3 : index
  apipe.mbarrier_arrive_copies %ring[%s0] : memref<3xi64, 3>
  %r:2 = scf.for %i = %c0 to %c15 step %c1 iter_args(%prev = %c0, %count = %c1) -> (index, index) {
    %n = arith.addi %i, %c1 : index
    %off = arith.muli %n, %c4 : index
    %v = arith.remui %n, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    %slot = arith.remui %count, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%slot] : memref<3xi64, 3>
    %next = arith.addi %count, %c1 : index
    %ps = arith.remui %prev, %c3 : index
    %pp = arith.divui %prev, %c3 : index
    %pb = arith.andi %pp, %c1 : index
    %parity = arith.cmpi ne, %pb, %c0 : index
    apipe.mbarrier_wait %ring[%ps], %parity : memref<3xi64, 3>
    %u = arith.remui %i, %c2 : index
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    scf.yield %count, %next : index, index
  }
  return
}

// -----

// A ring of 1 slot: every group arms slot 0 (a constant), the parity is
// `(count & 1) != 0`; each wait completes the group before the next arrive.
// CHECK-LABEL: func.func @loop_one_slot
func.func @loop_one_slot(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  %ring = memref.alloca() : memref<1xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%count = %c0) -> (index) {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
    %pb = arith.andi %count, %c1 : index
    %parity = arith.cmpi ne, %pb, %c0 : index
    apipe.mbarrier_wait %ring[%c0], %parity : memref<1xi64, 3>
    %x = memref.load %buf[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    %next = arith.addi %count, %c1 : index
    scf.yield %next : index
  }
  return
}
