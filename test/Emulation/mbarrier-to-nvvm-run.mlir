// The gpu.func kernels of the apipe-mbarrier-to-nvvm tests
// (test/Conversion/mbarrier-to-nvvm.mlir, -bulk, -large-ring, -ring-size,
// -invalid) and of test/Target/ptx-mbarrier-sync-counting.mlir run end to
// end under apipe-run: their inputs, in the apipe mbarrier form (the NVVM
// output cannot run), with the race checker, in lazy, eager and random
// completion and two schedules, and print what their apipe-make-sync
// version prints. @one_group copies with nvgpu.device_async_copy, which
// apipe-run does not emulate: the whole program goes through
// apipe-import-nvgpu first (it turns that copy into apipe.copy and leaves
// the mbarrier ops alone).
// - @one_group (mbarrier-to-nvvm), 128 threads, %parity = false: thread t
//   copies src[4t .. 4t+3] into workgroup memory, every thread arrives on
//   slot 1 and waits for its phase 0; it writes only shared memory (no
//   output): it must run race-free and deadlock-free;
// - @rows (mbarrier-to-nvvm-bulk), 32 threads, %k = 4, A[r][c] = 64 r + c:
//   threads 0..15 each expect 64 bytes and bulk-copy row r = t of A from
//   column 4 into the tile; every thread reads tile[t mod 16][0]:
//   out[t] = 64 (t mod 16) + 4, printed for t < 32;
// - @sixteen, @seventeen, @largest (mbarrier-to-nvvm-large-ring: rings of
//   16, 17 and 29055 slots, 232440 bytes, which fits sm_90), one thread
//   each: they only initialise their ring (exit 0, no output);
// - @bulk (mbarrier-to-nvvm-invalid, refused before sm_90), one thread
//   (its ring counts 1 arrival): a 64-byte bulk copy into workgroup memory,
//   arrive, wait (exit 0, no output);
// - @exchange (ptx-mbarrier-sync-counting), 4 threads, A[i] = i (i32):
//   out[t] = A[4 ((t + 1) mod 4)] = [4, 8, 12, 0].
// The kernels of mbarrier-to-nvvm-ring-size.mlir cannot run: @huge (2^40
// slots) and @one_too_many (29057 slots, 232456 bytes) need more workgroup
// memory than a block may have on sm_90 (232448 bytes); apipe-run refuses
// them with that reason (checked below).
//
// RUN: sed -n '/^gpu.module @kernels/,/^}/p' %apipe_root/test/Conversion/mbarrier-to-nvvm.mlir | sed -e 's/^gpu.module @kernels/gpu.module @one_group/' > %t.one_group
// RUN: sed -n '/^gpu.module @kernels/,/^}/p' %apipe_root/test/Conversion/mbarrier-to-nvvm-bulk.mlir | sed -e 's/^gpu.module @kernels/gpu.module @rows/' > %t.rows
// RUN: sed -n '/^gpu.module @kernels/,/^}/p' %apipe_root/test/Conversion/mbarrier-to-nvvm-large-ring.mlir | sed -e 's/^gpu.module @kernels/gpu.module @large_ring/' > %t.large_ring
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@huge\(/) print b; on=0}' %apipe_root/test/Conversion/mbarrier-to-nvvm-ring-size.mlir | sed -e 's/^gpu.module @kernels/gpu.module @huge/' -e '/expected-/d' > %t.ring_size
// RUN: awk 'BEGIN{ORS=""} /^gpu.module/{b=""; on=1} on{b=b $0 "\n"} /^}/{if(on && b ~ /@one_too_many\(/) print b; on=0}' %apipe_root/test/Conversion/mbarrier-to-nvvm-ring-size.mlir | sed -e 's/^gpu.module @kernels/gpu.module @one_too_many/' -e '/expected-/d' >> %t.ring_size
// RUN: sed -n '/^gpu.module @kernels/,/^}/p' %apipe_root/test/Conversion/mbarrier-to-nvvm-invalid.mlir | sed -e 's/^gpu.module @kernels/gpu.module @nvvm_invalid/' -e '/expected-/d' > %t.nvvm_invalid
// RUN: sed -n '/^  gpu.module @kernels/,/^  }/p' %apipe_root/test/Target/ptx-mbarrier-sync-counting.mlir | sed -e 's/^  gpu.module @kernels/gpu.module @sync_counting/' > %t.sync_counting
// RUN: sed -e '/^\/\/ @one_group$/r %t.one_group' -e '/^\/\/ @rows$/r %t.rows' -e '/^\/\/ @large_ring$/r %t.large_ring' -e '/^\/\/ @ring_size$/r %t.ring_size' -e '/^\/\/ @nvvm_invalid$/r %t.nvvm_invalid' -e '/^\/\/ @sync_counting$/r %t.sync_counting' %s | apipe-opt --apipe-import-nvgpu -o %t.mlir
// RUN: apipe-opt %t.mlir --apipe-make-sync | apipe-run - | grep -v base@ > %t.sync
// RUN: FileCheck %s < %t.sync
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v '^// apipe-run' | grep -v base@ > %t.all
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.expected
// RUN: diff %t.expected %t.all
// CHECK: [4,  68,  132,  196,  260,  324,  388,  452,  516,  580,  644,  708,  772,  836,  900,  964,  4,  68,  132,  196,  260,  324,  388,  452,  516,  580,  644,  708,  772,  836,  900,  964]
// CHECK-NEXT: [4,  8,  12,  0]
// CHECK-NOT: {{.}}
//
// The rings of mbarrier-to-nvvm-ring-size.mlir, refused:
// RUN: not apipe-run %t.mlir --entry=huge_ring 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: the kernel needs 8796093022208 bytes of workgroup memory per block: at most 232448
// RUN: not apipe-run %t.mlir --entry=too_many_slots 2>&1 | FileCheck %s --check-prefix=TOO-MANY
// TOO-MANY: error: the kernel needs 232456 bytes of workgroup memory per block: at most 232448
//
// @one_group with %parity = true is broken: parity 1 names the phase
// before phase 0, which counts as complete, so a wait returns at once
// while the phase is open; under eager completion the last thread's
// arrival completes phase 0 before its own wait, which then names phase
// 1, which no thread arrives on (a deadlock, as on hardware).
// RUN: not apipe-run %t.mlir --entry=parity_one --completion=eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=PARITY
// PARITY-COUNT-2: error: deadlock: thread ({{0|127}},0,0) of block (0,0,0) waits at this 'apipe.mbarrier_wait' and no thread of the block can make progress: it waits for phase 1 (parity 1) of the slot, which has 0 of 128 arrivals

module attributes {gpu.container_module} {
// @one_group
// @rows
// @large_ring
// @ring_size
// @nvvm_invalid
// @sync_counting
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %false = arith.constant false
    %true = arith.constant true
    %zero = arith.constant 0.0 : f32

    // src[i] = i (f32, 1024).
    %src = memref.alloc() : memref<1024xf32>
    scf.for %i = %c0 to %c1024 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %src[%i] : memref<1024xf32>
    }
    gpu.launch_func @one_group::@one_group blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%src : memref<1024xf32>, %false : i1)

    // A[r, c] = 64 r + c.
    %A = memref.alloc() : memref<64x64xf32>
    scf.for %r = %c0 to %c64 step %c1 {
      scf.for %c = %c0 to %c64 step %c1 {
        %r64 = arith.muli %r, %c64 : index
        %v = arith.addi %r64, %c : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        memref.store %vf, %A[%r, %c] : memref<64x64xf32>
      }
    }
    %out = memref.alloc() : memref<256xf32>
    linalg.fill ins(%zero : f32) outs(%out : memref<256xf32>)
    gpu.launch_func @rows::@rows blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : memref<64x64xf32>, %out : memref<256xf32>, %c4 : index)
    %o32 = memref.subview %out[0] [32] [1] : memref<256xf32> to memref<32xf32, strided<[1]>>
    %ou = memref.cast %o32 : memref<32xf32, strided<[1]>> to memref<*xf32>
    func.call @printMemrefF32(%ou) : (memref<*xf32>) -> ()

    gpu.launch_func @large_ring::@sixteen blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @large_ring::@seventeen blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @large_ring::@largest blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @nvvm_invalid::@bulk blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%src : memref<1024xf32>)

    // A16[i] = i (i32).
    %a16 = memref.alloc() : memref<16xi32>
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      memref.store %ii, %a16[%i] : memref<16xi32>
    }
    %o4 = memref.alloc() : memref<4xi32>
    gpu.launch_func @sync_counting::@exchange blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a16 : memref<16xi32>, %o4 : memref<4xi32>)
    %o4u = memref.cast %o4 : memref<4xi32> to memref<*xi32>
    func.call @printMemrefI32(%o4u) : (memref<*xi32>) -> ()
    memref.dealloc %o4 : memref<4xi32>
    memref.dealloc %a16 : memref<16xi32>
    memref.dealloc %out : memref<256xf32>
    memref.dealloc %A : memref<64x64xf32>
    memref.dealloc %src : memref<1024xf32>
    return
  }
  func.func @huge_ring() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @huge::@huge blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  func.func @too_many_slots() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @one_too_many::@one_too_many blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  func.func @parity_one() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %true = arith.constant true
    %src = memref.alloc() : memref<1024xf32>
    scf.for %i = %c0 to %c1024 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %src[%i] : memref<1024xf32>
    }
    gpu.launch_func @one_group::@one_group blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%src : memref<1024xf32>, %true : i1)
    memref.dealloc %src : memref<1024xf32>
    return
  }
}
