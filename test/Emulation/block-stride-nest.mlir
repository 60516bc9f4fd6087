// A 2-D block-stride copy nest (trial 49 F1): `for r = ty step 2 { for c =
// tx step 4 { copy A[16 r + c] -> tile[r, c] } }` in a 4 x 2 block, the
// tile a 2-D view (`memref.expand_shape`) of a flat workgroup buffer, or
// the flat buffer indexed `16 r + c`. The view linearizes the index, and
// the checker compared two threads' copies on `16 (ty + 2 τr) + tx + 4 τc`
// with propagation and elimination over the reals: a false write-after-
// write between threads. The solver now splits such an equality by
// modulus (`tx = tx'`, then `τc = τc'`, `ty = ty'`, `τr = τr'`). Both
// kernels are silent and run, and so is a nest with a dimension of one
// thread and an inner loop of one trip (trial 54 B1: `for r = ty step 2
// { for c = tx step 16 }` in an 8 x 1 block, `buf[6 r + c]`: the split took
// 16 among its moduli although `τc` is 0); a nest whose inner step (2) is below the
// block's width in x, or whose rows (4 wide) overlap, is still an error.
// RUN: apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-run %s --entry=run_view --completion=lazy,eager --schedule=forward,reverse | FileCheck %s
// RUN: apipe-run %s --entry=run_flat --completion=lazy,eager --schedule=forward,reverse | FileCheck %s
// RUN: apipe-run %s --entry=run_one_trip --completion=lazy,eager --schedule=forward,reverse | FileCheck %s --check-prefix=ONE
// ONE-COUNT-4: [0,  1,  2,  3,  4,  5,  6,  7,  16,  17,  18,  19,  20,  21,  22,  23]
// RUN: sed -e 's/step %%c4 {/step %%c2 {/' %s | not apipe-opt --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=OVERLAP --implicit-check-not=error:
// RUN: sed -e 's/%%row = arith.muli %%r, %%c16/%%row = arith.muli %%r, %%c4/' %s | not apipe-opt --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWS --implicit-check-not=error:
// The transposed tile: out[16 r + c] = A[16 c + r].
// CHECK-COUNT-4: [0,  16,  32,  48,  64,  80,  96,  112,  128,  144,  160,  176,  192,  208,  224,  240,  1,  17,
// OVERLAP-COUNT-2: error: 'apipe.copy' op writes bytes that another thread's async copy may still be writing
// ROWS: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @view(%A: memref<256xf32>, %out: memref<256xf32>) workgroup(%flat: memref<256xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 2, 1>} {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %tile = memref.expand_shape %flat [[0, 1]] output_shape [16, 16] : memref<256xf32, 3> into memref<16x16xf32, 3>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      scf.for %r = %ty to %c16 step %c2 {
        scf.for %c = %tx to %c16 step %c4 {
          %row = arith.muli %r, %c16 : index
          %i = arith.addi %row, %c : index
          apipe.copy %A[%i], %tile[%r, %c], 1 : memref<256xf32> to memref<16x16xf32, 3>
        }
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      scf.for %r = %ty to %c16 step %c2 {
        scf.for %c = %tx to %c16 step %c4 {
          %x = memref.load %tile[%c, %r] : memref<16x16xf32, 3>
          %row = arith.muli %r, %c16 : index
          %i = arith.addi %row, %c : index
          memref.store %x, %out[%i] : memref<256xf32>
        }
      }
      gpu.return
    }

    gpu.func @flat(%A: memref<256xf32>, %out: memref<256xf32>) workgroup(%buf: memref<256xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 2, 1>} {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      scf.for %r = %ty to %c16 step %c2 {
        scf.for %c = %tx to %c16 step %c4 {
          %row = arith.muli %r, %c16 : index
          %i = arith.addi %row, %c : index
          apipe.copy %A[%i], %buf[%i], 1 : memref<256xf32> to memref<256xf32, 3>
        }
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      scf.for %r = %ty to %c16 step %c2 {
        scf.for %c = %tx to %c16 step %c4 {
          %col = arith.muli %c, %c16 : index
          %t = arith.addi %col, %r : index
          %x = memref.load %buf[%t] : memref<256xf32, 3>
          %i = arith.addi %col, %r : index
          %orow = arith.muli %r, %c16 : index
          %o = arith.addi %orow, %c : index
          memref.store %x, %out[%o] : memref<256xf32>
        }
      }
      gpu.return
    }

    gpu.func @one_trip(%A: memref<32xf32>, %out: memref<16xf32>) workgroup(%buf: memref<24xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c6 = arith.constant 6 : index
      %c8 = arith.constant 8 : index
      %c24 = arith.constant 24 : index
      %c32 = arith.constant 32 : index
      %c16 = arith.constant 16 : index
      %c4o = arith.constant 4 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      scf.for %r = %ty to %c4o step %c2 {
        scf.for %c = %tx to %c8 step %c16 {
          %r6 = arith.muli %r, %c6 : index
          %d = arith.addi %r6, %c : index
          %r8 = arith.muli %r, %c8 : index
          %s = arith.addi %r8, %c : index
          apipe.copy %A[%s], %buf[%d], 1 : memref<32xf32> to memref<24xf32, 3>
        }
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %o = arith.ori %tx, %ty : index
      %first = arith.cmpi eq, %o, %c0 : index
      scf.if %first {
        %c12 = arith.constant 12 : index
        scf.for %i = %c0 to %c8 step %c1 {
          %x = memref.load %buf[%i] : memref<24xf32, 3>
          memref.store %x, %out[%i] : memref<16xf32>
          %j = arith.addi %i, %c12 : index
          %y = memref.load %buf[%j] : memref<24xf32, 3>
          %k = arith.addi %i, %c8 : index
          memref.store %y, %out[%k] : memref<16xf32>
        }
      }
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @input() -> (memref<256xf32>, memref<256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %A = memref.alloc() : memref<256xf32>
    %out = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      memref.store %f, %A[%i] : memref<256xf32>
    }
    return %A, %out : memref<256xf32>, memref<256xf32>
  }

  func.func @run_view() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @input() : () -> (memref<256xf32>, memref<256xf32>)
    gpu.launch_func @k::@view blocks in (%c1, %c1, %c1) threads in (%c4, %c2, %c1) args(%A : memref<256xf32>, %out : memref<256xf32>)
    %u = memref.cast %out : memref<256xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @run_flat() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @input() : () -> (memref<256xf32>, memref<256xf32>)
    gpu.launch_func @k::@flat blocks in (%c1, %c1, %c1) threads in (%c4, %c2, %c1) args(%A : memref<256xf32>, %out : memref<256xf32>)
    %u = memref.cast %out : memref<256xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @run_one_trip() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %A = memref.alloc() : memref<32xf32>
    %out = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      memref.store %f, %A[%i] : memref<32xf32>
    }
    gpu.launch_func @k::@one_trip blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<32xf32>, %out : memref<16xf32>)
    %u = memref.cast %out : memref<16xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
