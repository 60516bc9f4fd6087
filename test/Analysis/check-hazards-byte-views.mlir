// Typed views of one byte buffer (memref.view, as a shared-memory pool is
// carved up) and memref.reinterpret_cast are compared by the bytes they
// touch, not as the whole buffer: accesses to disjoint parts are not
// hazards; overlapping ones still are.
// RUN: apipe-opt %s --split-input-file --apipe-check-hazards --verify-diagnostics -o /dev/null
// The kernel at the end runs under apipe-run with the race checker, in
// every completion mode and two schedules, and prints what its make-sync
// version prints: out[t] = A[4 ((t + 1) mod 32)] + 2, A[i] = i.
// RUN: sed -n '/^gpu.module @pool/,$p' %s > %t.pool
// RUN: sed -e '/^\/\/ @pool-driver$/r %t.pool' %S/Inputs/pool-driver.mlir > %t.run.mlir
// RUN: apipe-opt %t.run.mlir --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-run %t.run.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s --check-prefix=ALL
// CHECK: [6,  10,  14,  18,  22,  26,  30,  34,  38,  42,  46,  50,  54,  58,  62,  66,  70,  74,  78,  82,  86,  90,  94,  98,  102,  106,  110,  114,  118,  122,  126,  2]
// ALL-COUNT-6: [6,  10,  14,  18,  22,  26,  30,  34,  38,  42,  46,  50,  54,  58,  62,  66,  70,  74,  78,  82,  86,  90,  94,  98,  102,  106,  110,  114,  118,  122,  126,  2]

// Bytes 0..32 (8 floats of %v1) in flight; %v2 starts at byte 32.
func.func @view_disjoint(%A: memref<64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %raw = memref.alloc() : memref<64xi8>
  %v1 = memref.view %raw[%c0][] : memref<64xi8> to memref<8xf32>
  %v2 = memref.view %raw[%c32][] : memref<64xi8> to memref<8xf32>
  apipe.copy %A[%c0], %v1[%c0], 8 : memref<64xf32> to memref<8xf32>
  %t = apipe.commit_group
  %x = memref.load %v2[%c0] : memref<8xf32>
  memref.store %x, %out[%c0] : memref<8xf32>
  apipe.wait %t
  return
}

// -----

// %v2 starts at byte 16: its element 0 is element 4 of %v1, in flight.
func.func @view_overlap(%A: memref<64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %raw = memref.alloc() : memref<64xi8>
  %v1 = memref.view %raw[%c0][] : memref<64xi8> to memref<8xf32>
  %v2 = memref.view %raw[%c16][] : memref<64xi8> to memref<12xf32>
  // expected-note @+2 {{the async copy still in flight}}
  // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
  apipe.copy %A[%c0], %v1[%c0], 8 : memref<64xf32> to memref<8xf32>
  %t = apipe.commit_group
  // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)}}
  %x = memref.load %v2[%c0] : memref<12xf32>
  memref.store %x, %out[%c0] : memref<8xf32>
  apipe.wait %t
  return
}

// -----

// A 2-D view: row 1 (bytes 32..64) in flight; rows 0 and 3 and a view at
// byte 128 are not.
func.func @view_rows(%A: memref<64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c128 = arith.constant 128 : index
  %raw = memref.alloc() : memref<256xi8>
  %rows = memref.view %raw[%c0][] : memref<256xi8> to memref<4x8xf32>
  %tail = memref.view %raw[%c128][] : memref<256xi8> to memref<32xf32>
  // expected-note @+2 {{the async copy still in flight}}
  // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
  apipe.copy %A[%c0], %rows[%c1, %c0], 8 : memref<64xf32> to memref<4x8xf32>
  %t = apipe.commit_group
  %x = memref.load %rows[%c0, %c3] : memref<4x8xf32>
  %y = memref.load %rows[%c3, %c0] : memref<4x8xf32>
  %z = memref.load %tail[%c0] : memref<32xf32>
  // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)}}
  %w = memref.load %rows[%c1, %c3] : memref<4x8xf32>
  memref.store %x, %out[%c0] : memref<8xf32>
  memref.store %y, %out[%c1] : memref<8xf32>
  memref.store %z, %out[%c3] : memref<8xf32>
  memref.store %w, %out[%c3] : memref<8xf32>
  apipe.wait %t
  return
}

// -----

// reinterpret_cast of a row-major 4x4 buffer: offset 8 is element (2, 0),
// not in row 1 (in flight); offset 5 is (1, 1), in it.
func.func @reinterpret(%A: memref<64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<4x4xf32>
  %r8 = memref.reinterpret_cast %buf to offset: [8], sizes: [2], strides: [1] : memref<4x4xf32> to memref<2xf32, strided<[1], offset: 8>>
  %r5 = memref.reinterpret_cast %buf to offset: [5], sizes: [2], strides: [1] : memref<4x4xf32> to memref<2xf32, strided<[1], offset: 5>>
  // expected-note @+2 {{the async copy still in flight}}
  // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
  apipe.copy %A[%c0], %buf[%c1, %c0], 4 : memref<64xf32> to memref<4x4xf32>
  %t = apipe.commit_group
  %x = memref.load %r8[%c0] : memref<2xf32, strided<[1], offset: 8>>
  // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)}}
  %y = memref.load %r5[%c0] : memref<2xf32, strided<[1], offset: 5>>
  memref.store %x, %out[%c0] : memref<8xf32>
  memref.store %y, %out[%c1] : memref<8xf32>
  apipe.wait %t
  return
}

// -----

// A kernel's shared-memory pool, carved into a copied tile (bytes 0..512)
// and a scratch row (bytes 512..1024) that each thread writes and reads
// while the copies are in flight: no hazard. After wait and barrier, each
// thread reads its neighbour's copied floats.
gpu.module @pool {
  gpu.func @pool(%A: memref<4096xf32>, %out: memref<128xf32>) workgroup(%raw: memref<1024xi8, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c512 = arith.constant 512 : index
    %tid = gpu.thread_id x
    %tile = memref.view %raw[%c0][] : memref<1024xi8, 3> to memref<128xf32, 3>
    %scratch = memref.view %raw[%c512][] : memref<1024xi8, 3> to memref<128xf32, 3>
    %off = arith.muli %tid, %c4 : index
    apipe.copy %A[%off], %tile[%off], 4 : memref<4096xf32> to memref<128xf32, 3>
    apipe.commit_group
    %f = arith.constant 2.0 : f32
    memref.store %f, %scratch[%tid] : memref<128xf32, 3>
    %s = memref.load %scratch[%tid] : memref<128xf32, 3>
    apipe.wait_group 0
    gpu.barrier
    %n = arith.addi %tid, %c1 : index
    %nb = arith.remui %n, %c32 : index
    %noff = arith.muli %nb, %c4 : index
    %x = memref.load %tile[%noff] : memref<128xf32, 3>
    %y = arith.addf %x, %s : f32
    memref.store %y, %out[%tid] : memref<128xf32>
    gpu.return
  }
}
