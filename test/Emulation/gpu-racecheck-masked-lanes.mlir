// The kernel race checker counts only the enabled lanes of masked and
// indexed vector ops (vector dialect: a masked-off lane accesses no
// memory), in shared memory, in a copy's global source and in the
// cross-block log of global writes; an enabled lane is reported at the
// byte it touches. Each case runs with %hit = false (the masked-off
// lanes cover the other access, the enabled ones miss it: clean, the
// values of apipe-make-sync) and %hit = true (an enabled lane reaches it:
// a located error at that byte, in every completion mode and order).
//
// @shared (1 block, 2 threads; thread 0 stores 1.0 into buf[0 .. 3] with
// vector.store, thread 1 accesses buf in the same epoch):
//   mode 0 vector.maskedload at buf[2], 4 lanes: hit [t,f,f,f] (RAW,
//          byte 8), miss [f,f,t,t] (buf[4 .. 5]);
//   mode 1 vector.gather at buf[0] of [5, 2]: hit [t,t] (RAW, byte 8),
//          miss [t,f];
//   mode 2 vector.expandload of 2 lanes at buf[2] (hit, byte 8) or
//          buf[4] (miss);
//   mode 3 vector.scatter at buf[0] to [6, 3]: hit [t,t] (WAW, byte 12),
//          miss [t,f];
//   mode 4 vector.transfer_read with a mask at buf[2]: hit [t,t,f,f]
//          (byte 8), miss [f,f,t,t].
// @source (1 block, 4 threads; thread t copies src[t] into buf[t], then
// thread 1 does vector.maskedstore at src[0] of 4 lanes before the wait):
//   hit [f,f,t,f] (src[2], thread 2's copy's source, byte 8), miss all
//   lanes off.
// @blocks (2 blocks of 1 thread; block b does vector.maskedstore at
// out[0] of 4 lanes): block 0 [t,t,f,f], block 1 hit [f,t,t,t] (WAW on
// byte 4 of out), miss [f,f,t,t].
//
// RUN: apipe-opt %s --apipe-make-sync > %t.sync.mlir
// RUN: apipe-run %t.sync.mlir --entry=misses --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v base@ > %t.sync.out
// RUN: apipe-run %s --entry=misses --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | grep -v base@ > %t.out
// RUN: diff %t.sync.out %t.out
// RUN: FileCheck %s --check-prefix=MISS < %t.out
// MISS: [1,  1,  1,  1,  3,  3,  3,  3,  0,  0,  3,  3,  0,  0,  0,  0]
// MISS-NEXT: [1,  1,  1,  1,  3,  3,  3,  3,  3,  0,  0,  0,  0,  0,  0,  0]
// MISS-NEXT: [1,  1,  1,  1,  3,  3,  3,  3,  3,  3,  0,  0,  0,  0,  0,  0]
// MISS-NEXT: [1,  1,  1,  1,  3,  3,  2,  3,  0,  0,  0,  0,  0,  0,  0,  0]
// MISS-NEXT: [1,  1,  1,  1,  3,  3,  3,  3,  0,  0,  3,  3,  0,  0,  0,  0]
// MISS-NEXT: [5,  5,  5,  5,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// MISS-NEXT: [1,  1,  2,  2,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// MISS-NOT: error
// RUN: not apipe-run %s --entry=hit_maskedload --completion=lazy,eager,random:1 --schedule=forward 2>&1 | FileCheck %s --check-prefix=HIT0
// RUN: not apipe-run %s --entry=hit_maskedload --completion=lazy,eager,random:1 --schedule=reverse 2>&1 | FileCheck %s --check-prefix=REV0
// RUN: not apipe-run %s --entry=hit_gather --completion=lazy,eager,random:1 --schedule=forward 2>&1 | FileCheck %s --check-prefix=HIT1
// RUN: not apipe-run %s --entry=hit_gather --completion=lazy,eager,random:1 --schedule=reverse 2>&1 | FileCheck %s --check-prefix=REV1
// RUN: not apipe-run %s --entry=hit_expandload --completion=lazy,eager,random:1 --schedule=forward 2>&1 | FileCheck %s --check-prefix=HIT2
// RUN: not apipe-run %s --entry=hit_expandload --completion=lazy,eager,random:1 --schedule=reverse 2>&1 | FileCheck %s --check-prefix=REV2
// RUN: not apipe-run %s --entry=hit_scatter --completion=lazy,eager,random:1 --schedule=forward 2>&1 | FileCheck %s --check-prefix=HIT3
// RUN: not apipe-run %s --entry=hit_scatter --completion=lazy,eager,random:1 --schedule=reverse 2>&1 | FileCheck %s --check-prefix=REV3
// RUN: not apipe-run %s --entry=hit_transfer_read --completion=lazy,eager,random:1 --schedule=forward 2>&1 | FileCheck %s --check-prefix=HIT4
// RUN: not apipe-run %s --entry=hit_transfer_read --completion=lazy,eager,random:1 --schedule=reverse 2>&1 | FileCheck %s --check-prefix=REV4
// RUN: not apipe-run %s --entry=hit_source --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=HIT5
// RUN: not apipe-run %s --entry=hit_blocks --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=HIT6
// (Under the forward order thread 0's store comes first and the race is
// found at thread 1's op; under the reverse order at thread 0's store.)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @shared(%out: memref<16xf32>, %mode: index, %hit: i1)
        workgroup(%buf: memref<8xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %one = arith.constant dense<1.0> : vector<4xf32>
      %three = arith.constant 3.0 : f32
      %pass4 = arith.constant dense<0.0> : vector<4xf32>
      %pass2 = arith.constant dense<0.0> : vector<2xf32>
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        scf.for %i = %c0 to %c8 step %c1 {
          memref.store %three, %buf[%i] : memref<8xf32, 3>
        }
      }
      gpu.barrier
      scf.if %first {
        // REV0-COUNT-3: gpu-racecheck-masked-lanes.mlir:[[# @LINE + 5]]:9: error: race (WAR) on shared memory byte 8 (byte 8 of the workgroup buffer at {{.*}}): thread (0,0,0) of block (0,0,0) writes it, and thread (1,0,0) reads it with no gpu.barrier between ('vector.store' and 'vector.maskedload')
        // REV1-COUNT-3: gpu-racecheck-masked-lanes.mlir:[[# @LINE + 4]]:9: error: race (WAR) on shared memory byte 8 (byte 8 of the workgroup buffer at {{.*}}): thread (0,0,0) of block (0,0,0) writes it, and thread (1,0,0) reads it with no gpu.barrier between ('vector.store' and 'vector.gather')
        // REV2-COUNT-3: gpu-racecheck-masked-lanes.mlir:[[# @LINE + 3]]:9: error: race (WAR) on shared memory byte 8 (byte 8 of the workgroup buffer at {{.*}}): thread (0,0,0) of block (0,0,0) writes it, and thread (1,0,0) reads it with no gpu.barrier between ('vector.store' and 'vector.expandload')
        // REV3-COUNT-3: gpu-racecheck-masked-lanes.mlir:[[# @LINE + 2]]:9: error: race (WAW) on shared memory byte 12 (byte 12 of the workgroup buffer at {{.*}}): thread (0,0,0) of block (0,0,0) writes it, and thread (1,0,0) writes it with no gpu.barrier between ('vector.store' and 'vector.scatter')
        // REV4-COUNT-3: gpu-racecheck-masked-lanes.mlir:[[# @LINE + 1]]:9: error: race (WAR) on shared memory byte 8 (byte 8 of the workgroup buffer at {{.*}}): thread (0,0,0) of block (0,0,0) writes it, and thread (1,0,0) reads it with no gpu.barrier between ('vector.store' and 'vector.transfer_read')
        vector.store %one, %buf[%c0] : memref<8xf32, 3>, vector<4xf32>
      } else {
        scf.index_switch %mode
        case 0 {
          %h = arith.constant dense<[true, false, false, false]> : vector<4xi1>
          %m = arith.constant dense<[false, false, true, true]> : vector<4xi1>
          %mask = arith.select %hit, %h, %m : vector<4xi1>
          // HIT0-COUNT-3: gpu-racecheck-masked-lanes.mlir:[[# @LINE + 1]]:16: error: race (RAW) on shared memory byte 8 (byte 8 of the workgroup buffer at {{.*}}): thread (1,0,0) of block (0,0,0) reads it, and thread (0,0,0) writes it with no gpu.barrier between ('vector.maskedload' and 'vector.store')
          %v = vector.maskedload %buf[%c2], %mask, %pass4 : memref<8xf32, 3>, vector<4xi1>, vector<4xf32> into vector<4xf32>
          vector.store %v, %out[%c8] : memref<16xf32>, vector<4xf32>
          scf.yield
        }
        case 1 {
          %idx = arith.constant dense<[5, 2]> : vector<2xindex>
          %h = arith.constant dense<[true, true]> : vector<2xi1>
          %m = arith.constant dense<[true, false]> : vector<2xi1>
          %mask = arith.select %hit, %h, %m : vector<2xi1>
          // HIT1-COUNT-3: gpu-racecheck-masked-lanes.mlir:[[# @LINE + 1]]:16: error: race (RAW) on shared memory byte 8 (byte 8 of the workgroup buffer at {{.*}}): thread (1,0,0) of block (0,0,0) reads it, and thread (0,0,0) writes it with no gpu.barrier between ('vector.gather' and 'vector.store')
          %v = vector.gather %buf[%c0][%idx], %mask, %pass2 : memref<8xf32, 3>, vector<2xindex>, vector<2xi1>, vector<2xf32> into vector<2xf32>
          vector.store %v, %out[%c8] : memref<16xf32>, vector<2xf32>
          scf.yield
        }
        case 2 {
          %at = arith.select %hit, %c2, %c4 : index
          %mask = arith.constant dense<[false, true, true, false]> : vector<4xi1>
          // HIT2-COUNT-3: gpu-racecheck-masked-lanes.mlir:[[# @LINE + 1]]:16: error: race (RAW) on shared memory byte 8 (byte 8 of the workgroup buffer at {{.*}}): thread (1,0,0) of block (0,0,0) reads it, and thread (0,0,0) writes it with no gpu.barrier between ('vector.expandload' and 'vector.store')
          %v = vector.expandload %buf[%at], %mask, %pass4 : memref<8xf32, 3>, vector<4xi1>, vector<4xf32> into vector<4xf32>
          %w = vector.extract_strided_slice %v {offsets = [1], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
          vector.store %w, %out[%c8] : memref<16xf32>, vector<2xf32>
          scf.yield
        }
        case 3 {
          %idx = arith.constant dense<[6, 3]> : vector<2xi32>
          %h = arith.constant dense<[true, true]> : vector<2xi1>
          %m = arith.constant dense<[true, false]> : vector<2xi1>
          %mask = arith.select %hit, %h, %m : vector<2xi1>
          %two = arith.constant dense<2.0> : vector<2xf32>
          // HIT3-COUNT-3: gpu-racecheck-masked-lanes.mlir:[[# @LINE + 1]]:11: error: race (WAW) on shared memory byte 12 (byte 12 of the workgroup buffer at {{.*}}): thread (1,0,0) of block (0,0,0) writes it, and thread (0,0,0) writes it with no gpu.barrier between ('vector.scatter' and 'vector.store')
          vector.scatter %buf[%c0][%idx], %mask, %two : memref<8xf32, 3>, vector<2xi32>, vector<2xi1>, vector<2xf32>
          scf.yield
        }
        default {
          %h = arith.constant dense<[true, true, false, false]> : vector<4xi1>
          %m = arith.constant dense<[false, false, true, true]> : vector<4xi1>
          %mask = arith.select %hit, %h, %m : vector<4xi1>
          %pad = arith.constant 0.0 : f32
          // HIT4-COUNT-3: gpu-racecheck-masked-lanes.mlir:[[# @LINE + 1]]:16: error: race (RAW) on shared memory byte 8 (byte 8 of the workgroup buffer at {{.*}}): thread (1,0,0) of block (0,0,0) reads it, and thread (0,0,0) writes it with no gpu.barrier between ('vector.transfer_read' and 'vector.store')
          %v = vector.transfer_read %buf[%c2], %pad, %mask {in_bounds = [true]} : memref<8xf32, 3>, vector<4xf32>
          vector.store %v, %out[%c8] : memref<16xf32>, vector<4xf32>
        }
      }
      gpu.barrier
      scf.if %first {
        %v = vector.load %buf[%c0] : memref<8xf32, 3>, vector<8xf32>
        vector.store %v, %out[%c0] : memref<16xf32>, vector<8xf32>
      }
      gpu.return
    }

    gpu.func @source(%src: memref<8xf32>, %out: memref<16xf32>, %hit: i1)
        workgroup(%buf: memref<8xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      apipe.copy %src[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      %second = arith.cmpi eq, %tid, %c1 : index
      scf.if %second {
        %h = arith.constant dense<[false, false, true, false]> : vector<4xi1>
        %m = arith.constant dense<false> : vector<4xi1>
        %mask = arith.select %hit, %h, %m : vector<4xi1>
        %two = arith.constant dense<2.0> : vector<4xf32>
        // HIT5-COUNT-6: gpu-racecheck-masked-lanes.mlir:[[# @LINE + 1]]:9: error: race ({{RAW|WAR}}) on global memory byte 8 of an asynchronous copy's source buffer: thread (1,0,0) of block (0,0,0) writes it, and the copy of thread (2,0,0), {{issued after it|completed by a wait}}, reads it with no gpu.barrier between ('vector.maskedstore' and 'apipe.copy')
        vector.maskedstore %src[%c0], %mask, %two : memref<8xf32>, vector<4xi1>, vector<4xf32>
      }
      apipe.wait_group 0
      gpu.barrier
      %v = memref.load %buf[%tid] : memref<8xf32, 3>
      memref.store %v, %out[%tid] : memref<16xf32>
      gpu.return
    }

    gpu.func @blocks(%out: memref<16xf32>, %hit: i1) kernel {
      %c0 = arith.constant 0 : index
      %bid = gpu.block_id x
      %first = arith.cmpi eq, %bid, %c0 : index
      %b0 = arith.constant dense<[true, true, false, false]> : vector<4xi1>
      %h = arith.constant dense<[false, true, true, true]> : vector<4xi1>
      %m = arith.constant dense<[false, false, true, true]> : vector<4xi1>
      %b1 = arith.select %hit, %h, %m : vector<4xi1>
      %mask = arith.select %first, %b0, %b1 : vector<4xi1>
      %one = arith.constant dense<1.0> : vector<4xf32>
      %two = arith.constant dense<2.0> : vector<4xf32>
      %v = arith.select %first, %one, %two : vector<4xf32>
      // HIT6-COUNT-6: gpu-racecheck-masked-lanes.mlir:[[# @LINE + 1]]:7: error: race (WAW) on global memory at address {{0x[0-9a-f]+}}: thread (0,0,0) of block (1,0,0) and thread (0,0,0) of block (0,0,0) write the same bytes, neither atomically (the order of blocks is unspecified)
      vector.maskedstore %out[%c0], %mask, %v : memref<16xf32>, vector<4xi1>, vector<4xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  // kernel: 0 @shared (with %mode), 1 @source, 2 @blocks.
  func.func @run(%kernel: index, %mode: index, %hit: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %five = arith.constant 5.0 : f32
    %zero = arith.constant 0.0 : f32
    %src = memref.alloc() : memref<8xf32>
    %out = memref.alloc() : memref<16xf32>
    linalg.fill ins(%five : f32) outs(%src : memref<8xf32>)
    linalg.fill ins(%zero : f32) outs(%out : memref<16xf32>)
    scf.index_switch %kernel
    case 0 {
      gpu.launch_func @kernels::@shared blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%out : memref<16xf32>, %mode : index, %hit : i1)
      scf.yield
    }
    case 1 {
      gpu.launch_func @kernels::@source blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%src : memref<8xf32>, %out : memref<16xf32>, %hit : i1)
      scf.yield
    }
    default {
      gpu.launch_func @kernels::@blocks blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<16xf32>, %hit : i1)
    }
    %u = memref.cast %out : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %src : memref<8xf32>
    memref.dealloc %out : memref<16xf32>
    return
  }

  func.func @misses() {
    %f = arith.constant false
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    scf.for %m = %c0 to %c4 step %c1 {
      func.call @run(%c0, %m, %f) : (index, index, i1) -> ()
    }
    func.call @run(%c0, %c4, %f) : (index, index, i1) -> ()
    func.call @run(%c1, %c0, %f) : (index, index, i1) -> ()
    func.call @run(%c2, %c0, %f) : (index, index, i1) -> ()
    return
  }
  func.func @hit_maskedload() {
    %t = arith.constant true
    %k = arith.constant 0 : index
    %m = arith.constant 0 : index
    func.call @run(%k, %m, %t) : (index, index, i1) -> ()
    return
  }
  func.func @hit_gather() {
    %t = arith.constant true
    %k = arith.constant 0 : index
    %m = arith.constant 1 : index
    func.call @run(%k, %m, %t) : (index, index, i1) -> ()
    return
  }
  func.func @hit_expandload() {
    %t = arith.constant true
    %k = arith.constant 0 : index
    %m = arith.constant 2 : index
    func.call @run(%k, %m, %t) : (index, index, i1) -> ()
    return
  }
  func.func @hit_scatter() {
    %t = arith.constant true
    %k = arith.constant 0 : index
    %m = arith.constant 3 : index
    func.call @run(%k, %m, %t) : (index, index, i1) -> ()
    return
  }
  func.func @hit_transfer_read() {
    %t = arith.constant true
    %k = arith.constant 0 : index
    %m = arith.constant 4 : index
    func.call @run(%k, %m, %t) : (index, index, i1) -> ()
    return
  }
  func.func @hit_source() {
    %t = arith.constant true
    %k = arith.constant 1 : index
    %m = arith.constant 0 : index
    func.call @run(%k, %m, %t) : (index, index, i1) -> ()
    return
  }
  func.func @hit_blocks() {
    %t = arith.constant true
    %k = arith.constant 2 : index
    %m = arith.constant 0 : index
    func.call @run(%k, %m, %t) : (index, index, i1) -> ()
    return
  }
}
