// The shared-memory budget applies to a loop in a gpu.launch body as to one
// in a gpu.func (gpu-kernel-outlining makes the body a kernel with the same
// workgroup buffers): its workgroup attributions, its workgroup allocs and
// the workgroup memref.globals it reads count. Before, such a loop had no
// budget ("not in a gpu.func"), and 4 stages went past 48 KiB.
//
// The tile: 8192 bytes per version; the attribution %w: 16400 bytes; the
// global @table: 4096 bytes. 4 stages need 4 x 8192 + 20496 = 53264 bytes,
// over 48 KiB; 3 stages need 45072, which fits.
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4" 2>&1 >/dev/null | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4" 2>/dev/null | FileCheck %s --check-prefix=IR
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4" 2>/dev/null | apipe-run - --completion=lazy,eager,random:3 | FileCheck %s --check-prefix=PIPE
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s --check-prefix=SYNC
// CHECK: software-pipeline-budget-launch.mlir:[[#LOOP:]]:12: remark: 4 stages need 53264 bytes of shared memory, over the budget of 49152 bytes (max-shared-bytes): trying 3 stages
// CHECK: software-pipeline-budget-launch.mlir:[[#LOOP]]:12: remark: scheduled 3 stages (num_stages = 3): {{.*}}; shared memory: 45072 of 49152 bytes
// CHECK-NOT: remark
// IR: memref.alloc() : memref<3x2048xf32, 3>
// The maximum of A[i * 2048 + tid] = i * 2048 + tid over i < 8, in every
// completion mode, as the synchronous program prints it.
// PIPE-COUNT-3: [14336,  14337,  14338,  14339,  14340,  14341,  14342,  14343]
// PIPE-NOT: error
// SYNC: [14336,  14337,  14338,  14339,  14340,  14341,  14342,  14343]
module {
  memref.global "private" @table : memref<1024xf32, 3>
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c2048 = arith.constant 2048 : index
    %c16384 = arith.constant 16384 : index
    %A = memref.alloc() : memref<16384xf32>
    scf.for %k = %c0 to %c16384 step %c1 {
      %v = arith.index_cast %k : index to i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %A[%k] : memref<16384xf32>
    }
    %out = memref.alloc() : memref<8xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
        threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1)
        workgroup(%w : memref<4100xf32, 3>) {
      %zero = arith.constant 0.0 : f32
      %tile = memref.alloc() : memref<2048xf32, 3>
      %t = memref.get_global @table : memref<1024xf32, 3>
      memref.store %zero, %t[%tx] : memref<1024xf32, 3>
      memref.store %zero, %w[%tx] : memref<4100xf32, 3>
      %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
        %base = arith.muli %i, %c2048 : index
        %src = arith.addi %base, %tx : index
        apipe.copy %A[%src], %tile[%tx], 1 : memref<16384xf32> to memref<2048xf32, 3>
        apipe.commit_group
        apipe.wait_group 0
        %x = memref.load %tile[%tx] : memref<2048xf32, 3>
        %s = arith.maximumf %acc, %x : f32
        scf.yield %s : f32
      }
      %y = memref.load %w[%tx] : memref<4100xf32, 3>
      %z = arith.addf %r, %y : f32
      memref.store %z, %out[%tx] : memref<8xf32>
      gpu.terminator
    }
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
