// The race checker sees every op with memory effects on shared memory, not
// only memref/vector load and store: vector.transfer_read / transfer_write
// (with a permutation map: exactly the column they touch), memref.copy of
// strided views (exactly the elements), linalg.fill (the whole buffer), and
// memref.atomic_rmw (atomic: no race with another atomic, a race with a
// plain access). Each kernel runs clean with its barrier (%sync = 1) and
// prints what its make-sync version prints; its racy twin (%sync = 0, or
// a plain load among atomics) is a located error naming both ops.
//
// RUN: apipe-run %s --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s --check-prefix=CLEAN
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --schedule=random:3 | FileCheck %s --check-prefix=CLEAN-SYNC
// CLEAN-COUNT-6: [0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3]{{$}}
// CLEAN-NOT: error
// CLEAN-SYNC: [0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3]
// CLEAN-SYNC: [10,  11,  12,  13,  14,  15,  16,  17]
// CLEAN-SYNC: [4]
//
// RUN: not apipe-run %s --entry=racy_transfers 2>&1 | FileCheck %s --check-prefix=TRANSFERS
// TRANSFERS: error: race (WAR) on shared memory byte 4 {{.*}}: thread (1,0,0) of block (0,0,0) writes it, and thread (0,0,0) reads it with no gpu.barrier between ('vector.transfer_write' and 'vector.transfer_read')
// The strided copies of two threads interleave without a race; reading a
// half that the other thread wrote, with no barrier, is one:
// RUN: not apipe-run %s --entry=racy_copies 2>&1 | FileCheck %s --check-prefix=COPIES
// COPIES-NOT: WAW
// COPIES: error: race (WAR) on shared memory byte 4 {{.*}}: thread (1,0,0) of block (0,0,0) writes it, and thread (0,0,0) reads it with no gpu.barrier between ('memref.copy' and 'memref.copy')
// COPIES: error: race (RAW) on shared memory byte 16 {{.*}}: thread (1,0,0) of block (0,0,0) reads it, and thread (0,0,0) writes it with no gpu.barrier between ('memref.copy' and 'memref.copy')
// COPIES-NOT: WAW
// RUN: not apipe-run %s --entry=racy_copies --schedule=reverse 2>&1 | FileCheck %s --check-prefix=COPIES-REVERSE
// COPIES-REVERSE: error: race (WAR) on shared memory byte {{[0-9]+}} {{.*}} with no gpu.barrier between ('memref.copy' and 'memref.copy')
// RUN: not apipe-run %s --entry=racy_fill 2>&1 | FileCheck %s --check-prefix=FILL
// FILL: error: race (WAW) on shared memory byte 4 {{.*}}: thread (1,0,0) of block (0,0,0) writes it, and thread (0,0,0) writes it with no gpu.barrier between ('memref.copy' and 'linalg.fill')
// FILL-NOT: error: race
// RUN: not apipe-run %s --entry=racy_atomics 2>&1 | FileCheck %s --check-prefix=ATOMICS
// ATOMICS: error: race (WAR) on shared memory byte 0 {{.*}}: thread (1,0,0) of block (0,0,0) atomically updates it, and thread (0,0,0) reads it with no gpu.barrier between ('memref.atomic_rmw' and 'memref.load')
// ATOMICS-NOT: error: race
// RUN: apipe-run %s --entry=racy_atomics --no-racecheck | FileCheck %s --check-prefix=NOCHECK
// NOCHECK: [4]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Thread t writes column t of the tile (a transfer_write along
    // dimension 0: the four threads' columns do not overlap), then reads
    // row t: every row is [0, 1, 2, 3] after the barrier; without it,
    // thread 0 reads row 0 before threads 1-3 write their columns.
    gpu.func @columns(%out: memref<4x4xf32>, %sync: index) workgroup(%tile: memref<4x4xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %pad = arith.constant 0.0 : f32
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      %v = vector.broadcast %tf : f32 to vector<4xf32>
      vector.transfer_write %v, %tile[%c0, %t] {permutation_map = affine_map<(d0, d1) -> (d0)>, in_bounds = [true]} : vector<4xf32>, memref<4x4xf32, 3>
      %do = arith.cmpi eq, %sync, %c1 : index
      scf.if %do {
        gpu.barrier
      }
      %r = vector.transfer_read %tile[%t, %c0], %pad {in_bounds = [true]} : memref<4x4xf32, 3>, vector<4xf32>
      vector.transfer_write %r, %out[%t, %c0] {in_bounds = [true]} : vector<4xf32>, memref<4x4xf32>
      gpu.return
    }

    // Thread 0 fills the buffer (linalg.fill); barrier (%sync_fill);
    // thread t copies in[t::2] into buf[t::2] (strided views: the two
    // threads' elements interleave, which is no race); barrier (%sync);
    // thread t copies half t of buf to out.
    gpu.func @copies(%in: memref<8xf32>, %out: memref<8xf32>, %sync_fill: index, %sync: index) workgroup(%buf: memref<8xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.0 : f32
      %t = gpu.thread_id x
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        linalg.fill ins(%zero : f32) outs(%buf : memref<8xf32, 3>)
      }
      %do_fill = arith.cmpi eq, %sync_fill, %c1 : index
      scf.if %do_fill {
        gpu.barrier
      }
      %do = arith.cmpi eq, %sync, %c1 : index
      %src = memref.subview %in[%t] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2], offset: ?>>
      %dst = memref.subview %buf[%t] [4] [2] : memref<8xf32, 3> to memref<4xf32, strided<[2], offset: ?>, 3>
      memref.copy %src, %dst : memref<4xf32, strided<[2], offset: ?>> to memref<4xf32, strided<[2], offset: ?>, 3>
      scf.if %do {
        gpu.barrier
      }
      %o = arith.muli %t, %c4 : index
      %half = memref.subview %buf[%o] [4] [1] : memref<8xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
      %dst2 = memref.subview %out[%o] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %half, %dst2 : memref<4xf32, strided<[1], offset: ?>, 3> to memref<4xf32, strided<[1], offset: ?>>
      gpu.return
    }

    // Every thread adds 1 atomically to acc[0] (no race among atomics);
    // with %plain = 1, thread 0 also loads acc[0] with no barrier before:
    // a race with the other threads' atomics.
    gpu.func @atomics(%out: memref<1xf32>, %plain: index) workgroup(%acc: memref<1xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        memref.store %zero, %acc[%c0] : memref<1xf32, 3>
      }
      gpu.barrier
      %old = memref.atomic_rmw addf %one, %acc[%c0] : (f32, memref<1xf32, 3>) -> f32
      %is_plain = arith.cmpi eq, %plain, %c1 : index
      %peek = arith.andi %first, %is_plain : i1
      scf.if %peek {
        %x = memref.load %acc[%c0] : memref<1xf32, 3>
      }
      gpu.barrier
      scf.if %first {
        %sum = memref.load %acc[%c0] : memref<1xf32, 3>
        memref.store %sum, %out[%c0] : memref<1xf32>
      }
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @launch_columns(%sync: index) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc() : memref<4x4xf32>
    gpu.launch_func @kernels::@columns blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4x4xf32>, %sync : index)
    %flat = memref.collapse_shape %out [[0, 1]] : memref<4x4xf32> into memref<16xf32>
    %u = memref.cast %flat : memref<16xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %out : memref<4x4xf32>
    return
  }

  func.func @launch_copies(%sync_fill: index, %sync: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %in = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %ten = arith.constant 10.0 : f32
      %v = arith.addf %f, %ten : f32
      memref.store %v, %in[%i] : memref<8xf32>
    }
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@copies blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%in : memref<8xf32>, %out : memref<8xf32>, %sync_fill : index, %sync : index)
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %out : memref<8xf32>
    memref.dealloc %in : memref<8xf32>
    return
  }

  func.func @launch_atomics(%plain: index) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc() : memref<1xf32>
    gpu.launch_func @kernels::@atomics blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<1xf32>, %plain : index)
    %u = memref.cast %out : memref<1xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %out : memref<1xf32>
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    func.call @launch_columns(%c1) : (index) -> ()
    func.call @launch_copies(%c1, %c1) : (index, index) -> ()
    func.call @launch_atomics(%c0) : (index) -> ()
    return
  }

  func.func @racy_transfers() {
    %c0 = arith.constant 0 : index
    func.call @launch_columns(%c0) : (index) -> ()
    return
  }

  func.func @racy_copies() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    func.call @launch_copies(%c1, %c0) : (index, index) -> ()
    return
  }

  func.func @racy_fill() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    func.call @launch_copies(%c0, %c1) : (index, index) -> ()
    return
  }

  func.func @racy_atomics() {
    %c1 = arith.constant 1 : index
    func.call @launch_atomics(%c1) : (index) -> ()
    return
  }
}
