// apipe-check-hazards with a multi-buffered workgroup tile laid out flat:
// version v of a 4-element tile at `4 * v + tid` of one memref<64xi32, 3>
// (not a subview per version), in a kernel of 4 threads
// (known_block_size). Each iteration waits for the copy 2 iterations back
// (wait_group 1), reads its neighbour's element of version `i mod 3`, and
// copies into version `(i + 2) mod 3`. Versions `i mod 3` and
// `(i + 1) mod 3` differ by 1 or -2: 4-element tiles apart, whatever the
// thread ids in [0, 4). (A fresh-user trial found this reported as a
// read-after-write and a write-after-write: the solver related the two
// remainders only through their unbounded quotients.)
//   @flat:      as above (correct);
//   @in_flight: reads version `(i + 1) mod 3`, the one the previous
//               iteration's copy still writes (broken).
// The checker and apipe-run agree; the correct kernel prints what make-sync
// prints in every mode.
//
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: apipe-run %s --entry=main --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=MODES --implicit-check-not=error
// RUN: not apipe-run %s --entry=in_flight --completion=lazy,random:1 2>&1 | FileCheck %s --check-prefix=BROKEN
// SYNC: ( 66, 72, 78, 60 )
// MODES-COUNT-6: ( 66, 72, 78, 60 )
// BROKEN-COUNT-2: error: race (RAW) on shared memory byte

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @flat(%A: memref<64xi32>, %out: memref<64xi32>, %n: index)
        workgroup(%buf: memref<64xi32, 3>, %ring: memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %cK = arith.constant 2 : index
      %cKm1 = arith.constant 1 : index
      %false = arith.constant false
      %true = arith.constant true
      %m1 = arith.constant -1 : i32
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %threads = arith.muli %bxy, %bz : index
      %first = arith.cmpi eq, %tid, %c0 : index
      %tnext = arith.addi %tid, %c1 : index
      %nb = arith.remui %tnext, %threads : index
      %cS = arith.constant 3 : index
      %s1 = arith.addi %tid, %c4 : index
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<64xi32> to memref<64xi32, 3>
      apipe.commit_group
      apipe.copy %A[%s1], %buf[%s1], 1 : memref<64xi32> to memref<64xi32, 3>
      apipe.commit_group
      %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%cnt = %c2, %g = %c0, %g1 = %c1) -> (index, index, index) {
              apipe.wait_group 1
        gpu.barrier
        %rv = arith.remui %i, %cS : index
        %rb = arith.muli %rv, %c4 : index
        %ri = arith.addi %rb, %nb : index
        %x = memref.load %buf[%ri] : memref<64xi32, 3>
        %o = memref.load %out[%tid] : memref<64xi32>
        %s = arith.addi %x, %o : i32
        memref.store %s, %out[%tid] : memref<64xi32>
        gpu.barrier
        %ip = arith.addi %i, %c2 : index
        %v = arith.remui %ip, %cS : index
        %vb = arith.muli %v, %c4 : index
        %dst = arith.addi %vb, %tid : index
        %sb = arith.muli %ip, %c4 : index
        %src = arith.addi %sb, %tid : index
        apipe.copy %A[%src], %buf[%dst], 1 : memref<64xi32> to memref<64xi32, 3>
        apipe.commit_group
        %c = arith.addi %cnt, %c1 : index
        scf.yield %c, %g1, %cnt : index, index, index
      }
      apipe.wait_group 0
      gpu.return
    }
    gpu.func @in_flight(%A: memref<64xi32>, %out: memref<64xi32>, %n: index)
        workgroup(%buf: memref<64xi32, 3>, %ring: memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %cK = arith.constant 2 : index
      %cKm1 = arith.constant 1 : index
      %false = arith.constant false
      %true = arith.constant true
      %m1 = arith.constant -1 : i32
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %threads = arith.muli %bxy, %bz : index
      %first = arith.cmpi eq, %tid, %c0 : index
      %tnext = arith.addi %tid, %c1 : index
      %nb = arith.remui %tnext, %threads : index
      %cS = arith.constant 3 : index
      %s1 = arith.addi %tid, %c4 : index
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<64xi32> to memref<64xi32, 3>
      apipe.commit_group
      apipe.copy %A[%s1], %buf[%s1], 1 : memref<64xi32> to memref<64xi32, 3>
      apipe.commit_group
      %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%cnt = %c2, %g = %c0, %g1 = %c1) -> (index, index, index) {
              apipe.wait_group 1
        gpu.barrier
        %in = arith.addi %i, %c1 : index
        %rv = arith.remui %in, %cS : index
        %rb = arith.muli %rv, %c4 : index
        %ri = arith.addi %rb, %nb : index
        // CHECK: check-hazards-flat-versions-run.mlir:[[# @LINE + 1]]:14: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
        %x = memref.load %buf[%ri] : memref<64xi32, 3>
        %o = memref.load %out[%tid] : memref<64xi32>
        %s = arith.addi %x, %o : i32
        memref.store %s, %out[%tid] : memref<64xi32>
        gpu.barrier
        %ip = arith.addi %i, %c2 : index
        %v = arith.remui %ip, %cS : index
        %vb = arith.muli %v, %c4 : index
        %dst = arith.addi %vb, %tid : index
        %sb = arith.muli %ip, %c4 : index
        %src = arith.addi %sb, %tid : index
        apipe.copy %A[%src], %buf[%dst], 1 : memref<64xi32> to memref<64xi32, 3>
        apipe.commit_group
        %c = arith.addi %cnt, %c1 : index
        scf.yield %c, %g1, %cnt : index, index, index
      }
      apipe.wait_group 0
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @launch(%kernel: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c64 = arith.constant 64 : index
    %z = arith.constant 0 : i32
    %A = memref.alloc() : memref<64xi32>
    %out = memref.alloc() : memref<64xi32>
    scf.for %i = %c0 to %c64 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %A[%i] : memref<64xi32>
      memref.store %z, %out[%i] : memref<64xi32>
    }
    %flat = arith.cmpi eq, %kernel, %c0 : index
    scf.if %flat {
      gpu.launch_func @kernels::@flat blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<64xi32>, %out : memref<64xi32>, %c6 : index)
    } else {
      gpu.launch_func @kernels::@in_flight blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<64xi32>, %out : memref<64xi32>, %c6 : index)
    }
    %v = vector.transfer_read %out[%c0], %z {in_bounds = [true]} : memref<64xi32>, vector<4xi32>
    vector.print %v : vector<4xi32>
    memref.dealloc %A : memref<64xi32>
    memref.dealloc %out : memref<64xi32>
    return
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    func.call @launch(%c0) : (index) -> ()
    return
  }
  func.func @in_flight() {
    %c1 = arith.constant 1 : index
    func.call @launch(%c1) : (index) -> ()
    return
  }
}
