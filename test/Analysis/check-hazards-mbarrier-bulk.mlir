// apipe-check-hazards on bulk copies (docs/mbarrier.md, "Checking"): an
// apipe.bulk_copy and an apipe.mbarrier_expect_tx act on the slot of the
// ring's next group, whose previous phase is complete; between two
// arrives, the bytes a thread expects on the group are the bytes its bulk
// copies complete there (on every path); a bulk copy is in flight until a
// wait names its group (or a younger one). The correct kernel is silent;
// each mutant is reported at the op that is wrong.
// RUN: apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=OK --allow-empty
// OK-NOT: error
// RUN: sed -e 's/expect_tx %%ring\[%%slot\], 2048/expect_tx %%ring[%%slot], 1024/' %s | not apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// BYTES: <stdin>:58:7: error: 'apipe.mbarrier_arrive_copies' op arrives on a group whose transaction bytes do not balance in this thread: on some path the bytes expected (apipe.mbarrier_expect_tx) minus those its bulk copies complete on the slot are between -1024 and 0, so the phase completes early or never
// RUN: sed -e '/expect_tx %%ring\[%%slot\], 2048/d' %s | not apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOEXPECT
// NOEXPECT: <stdin>:57:7: error: 'apipe.mbarrier_arrive_copies' op arrives on a group whose transaction bytes do not balance in this thread: on some path the bytes expected (apipe.mbarrier_expect_tx) minus those its bulk copies complete on the slot are between -2048 and 0
// RUN: sed -e 's/512, %%ring\[%%slot\] :/512, %%ring[%%slot1] :/' %s | not apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=SLOT
// SLOT: <stdin>:56:9: error: 'apipe.bulk_copy' op completes its bytes on slot 1, but on some path its bytes count on group 0 of its ring, whose slot is 0 (of 3): the slot is out of step with the ring's arrivals
// RUN: sed -e 's/^\( *\)apipe.mbarrier_wait %%ring\[%%ws\], %%parity.*$/\1%%early = memref.load %%buf[%%c0, %%lane] : memref<3x512xf32, 3>\n&/' %s | not apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// EARLY: note: the async copy still in flight
// RUN: sed -e '/^ *gpu.barrier  *\/\/ WAR$/d' %s | not apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=WAR
// WAR: error: 'apipe.bulk_copy' op overwrites data that other threads may still be reading, with no gpu.barrier between their read and this copy (missing barrier)

gpu.module @kernels {
  gpu.func @copy_bw(%src: memref<65536xf32>, %dst: memref<65536xf32>)
      workgroup(%ring: memref<3xi64, 3>, %buf: memref<3x512xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c512 = arith.constant 512 : index
    %c4096 = arith.constant 4096 : index
    %bid = gpu.block_id x
    %tid = gpu.thread_id x
    %bx = gpu.block_dim x
    %by = gpu.block_dim y
    %bz = gpu.block_dim z
    %bxy = arith.muli %bx, %by : index
    %threads = arith.muli %bxy, %bz : index
    %elected = arith.cmpi eq, %tid, %c0 : index
    scf.if %elected {
      apipe.mbarrier_init %ring, %threads : memref<3xi64, 3>
    }
    gpu.barrier
    %lane = arith.muli %tid, %c4 : index
    %block_base = arith.muli %bid, %c4096 : index
    %end = scf.for %t = %c0 to %c8 step %c1 iter_args(%count = %c0) -> (index) {
      %slot = arith.remui %count, %c3 : index
      %count1 = arith.addi %count, %c1 : index
      %slot1 = arith.remui %count1, %c3 : index
      %v = arith.remui %t, %c3 : index
      scf.if %elected {
        %tile = arith.muli %t, %c512 : index
        %off = arith.addi %block_base, %tile : index
        apipe.mbarrier_expect_tx %ring[%slot], 2048 : memref<3xi64, 3>
        apipe.bulk_copy %src[%off], %buf[%v, %c0], 512, %ring[%slot] : memref<65536xf32> to memref<3x512xf32, 3>, memref<3xi64, 3>
      }
      apipe.mbarrier_arrive_copies %ring[%slot] : memref<3xi64, 3>
      %ws = arith.remui %count, %c3 : index
      %phase = arith.divui %count, %c3 : index
      %bit = arith.andi %phase, %c1 : index
      %parity = arith.cmpi ne, %bit, %c0 : index
      apipe.mbarrier_wait %ring[%ws], %parity : memref<3xi64, 3>
      %x = memref.load %buf[%v, %lane] : memref<3x512xf32, 3>
      %tile = arith.muli %t, %c512 : index
      %o0 = arith.addi %block_base, %tile : index
      %o = arith.addi %o0, %lane : index
      memref.store %x, %dst[%o] : memref<65536xf32>
      gpu.barrier  // WAR
      scf.yield %count1 : index
    }
    gpu.return
  }
}
