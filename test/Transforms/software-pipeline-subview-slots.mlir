// A loop multi-buffered by hand through views, as memref.multi_buffer and
// IREE write it: each iteration copies into and reads from
// `memref.subview %buf[%t mod 3, 0]` of a workgroup buffer of 3 slots
// (trial 88: refused, "needs 3 versions, but it is defined by
// 'memref.subview'"). The pipeliner keeps the root's slots and makes the
// view again in each stage that uses it, for that stage's iteration (a
// view carried in an iter_arg would hide its slot from the checker). The
// output is silent under the checker and prints what apipe-make-sync of
// the input prints, in lazy, eager and random completion and both thread
// orders, with 2, 3 and 4 stages and in token form.
// RUN: sed '/^\/\/ -----/q' %s | apipe-opt --apipe-import-nvgpu --apipe-make-sync | apipe-run - | FileCheck %s --check-prefix=VALUES
// RUN: sed '/^\/\/ -----/q' %s | apipe-opt --apipe-import-nvgpu --apipe-software-pipeline="num-stages=3" 2>/dev/null | FileCheck %s
// RUN: sed '/^\/\/ -----/q' %s | apipe-opt --apipe-import-nvgpu --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-opt --apipe-check-hazards | apipe-run - --completion=lazy,eager,random:2 --schedule=forward,reverse | FileCheck %s --check-prefix=VALUES
// RUN: sed '/^\/\/ -----/q' %s | apipe-opt --apipe-import-nvgpu --apipe-software-pipeline="num-stages=2" 2>/dev/null | apipe-opt --apipe-check-hazards | apipe-run - --completion=random:3 | FileCheck %s --check-prefix=VALUES
// RUN: sed '/^\/\/ -----/q' %s | apipe-opt --apipe-import-nvgpu --apipe-software-pipeline="num-stages=4" 2>/dev/null | apipe-opt --apipe-check-hazards | apipe-run - --completion=eager --schedule=reverse | FileCheck %s --check-prefix=VALUES
// RUN: sed '/^\/\/ -----/q' %s | apipe-opt --apipe-import-nvgpu --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | apipe-opt --apipe-check-hazards | apipe-run - --completion=random:4 | FileCheck %s --check-prefix=VALUES
// RUN: sed '/^\/\/ -----/q' %s | apipe-opt --apipe-import-nvgpu --apipe-software-pipeline="num-stages=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: not apipe-opt %s --split-input-file --apipe-import-nvgpu --apipe-software-pipeline="num-stages=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SINGLE
// RUN: sed '/^\/\/ -----/q' %s | apipe-opt --apipe-import-nvgpu | not apipe-opt --apipe-software-pipeline="num-stages=5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FEW
// Five stages keep 5 tiles in flight, which 3 slots cannot hold apart
// (trial 89: the error advised slots to a loop that had them):
// FEW: error: 'apipe.copy' op writes a view of a buffer, and this schedule keeps 5 of its tiles in flight, which the buffer's own slots do not keep apart (a view cannot get versions): every access must index the slots by `(a * iv + c) mod K` of the induction variable with a constant K, in plain index arithmetic (not an iter_arg or a load), and K must be large enough for the stages; use more slots or fewer stages (num-stages), or copy into the buffer itself (it then gets versions)
// REMARK: remark: scheduled 3 stages (num_stages = 3): stage 0: 5 ops, stage 2: 5 ops; versions: memref<3x128xf32, 3> x 1 (1536 bytes, its own slots); shared memory: 1536 of 49152 bytes; 1 gpu.barrier per iteration
// VALUES: [14512,  14640,  14768,  14896,  15024,  15152,  15280,  15408,  15536,  15664,  15792,  15920,  16048,  16176,  16304,  16432,  16560,  16688,  16816,  16944,  17072,  17200,  17328,  17456,  17584,  17712,  17840,  17968,  18096,  18224,  18352,  14384]
// The kernel reads slot `iv mod 3` through a view it makes itself, then
// copies into slot `(iv + 2) mod 3` through another:
// CHECK: #[[MOD:.+]] = affine_map<(d0) -> (d0 mod 3)>
// CHECK: scf.for %[[IV:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{[^)]+}}) -> (f32) {
// CHECK-NEXT: apipe.wait_group 1
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[S:.+]] = affine.apply #[[MOD]](%[[IV]])
// CHECK-NEXT: %[[V:.+]] = memref.subview %{{.+}}[%[[S]], 0] [1, 128] [1, 1]
// CHECK-NEXT: vector.transfer_read %[[V]]
// CHECK: %[[NEXT:.+]] = arith.addi %[[IV]], %c2
// CHECK-NEXT: %[[S2:.+]] = affine.apply #[[MOD]](%[[NEXT]])
// CHECK-NEXT: %[[V2:.+]] = memref.subview %{{.+}}[%[[S2]], 0] [1, 128] [1, 1]
// CHECK: apipe.copy %{{.+}}, %[[V2]][%{{.+}}], 4 queue 0
// CHECK-NEXT: apipe.commit_group queue 0
// CHECK-NEXT: scf.yield %{{.+}} : f32
// A view of a one-slot buffer still needs versions, which only the
// buffer itself can get:
// SINGLE: error: 'apipe.copy' op writes a view of a buffer, and this schedule keeps 3 of its tiles in flight, which the buffer's own slots do not keep apart (a view cannot get versions): {{.*}}, or copy into the buffer itself (it then gets versions)
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @kern(%A: memref<1024xf32> {llvm.noalias}, %out: memref<32xf32> {llvm.noalias}) workgroup(%buf: memref<3x128xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cS = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %pad = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    %t1 = arith.addi %tid, %c1 : index
    %nbt = arith.remui %t1, %c32 : index
    %nb = arith.muli %nbt, %c4 : index
    %sum = scf.for %t = %c0 to %c8 step %c1 iter_args(%acc = %pad) -> (f32) {
      %sl = affine.apply affine_map<(d0) -> (d0 mod 3)>(%t)
      %v = memref.subview %buf[%sl, 0] [1, 128] [1, 1] : memref<3x128xf32, 3> to memref<128xf32, strided<[1], offset: ?>, 3>
      %tb = arith.muli %t, %c128 : index
      %a = arith.addi %tb, %lane : index
      gpu.barrier
      %cp = nvgpu.device_async_copy %A[%a], %v[%lane], 4 {bypassL1} : memref<1024xf32> to memref<128xf32, strided<[1], offset: ?>, 3>
      %g = nvgpu.device_async_create_group %cp
      nvgpu.device_async_wait %g
      gpu.barrier
      %x = vector.transfer_read %v[%nb], %pad {in_bounds = [true]} : memref<128xf32, strided<[1], offset: ?>, 3>, vector<4xf32>
      %r = vector.reduction <add>, %x : vector<4xf32> into f32
      %acc2 = arith.addf %acc, %r : f32
      scf.yield %acc2 : f32
    }
    memref.store %sum, %out[%tid] : memref<32xf32>
    gpu.return
  }
}
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c1024 = arith.constant 1024 : index
  %A = memref.alloc() : memref<1024xf32>
  %out = memref.alloc() : memref<32xf32>
  scf.for %i = %c0 to %c1024 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<1024xf32>
  }
  gpu.launch_func @kernels::@kern blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : memref<1024xf32>, %out : memref<32xf32>)
  %u = memref.cast %out : memref<32xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
}
// -----
gpu.module @kernels {
  gpu.func @kern(%A: memref<1024xf32> {llvm.noalias}, %out: memref<32xf32> {llvm.noalias}) workgroup(%buf: memref<128xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cS = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %pad = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    %t1 = arith.addi %tid, %c1 : index
    %nbt = arith.remui %t1, %c32 : index
    %nb = arith.muli %nbt, %c4 : index
    %sum = scf.for %t = %c0 to %c8 step %c1 iter_args(%acc = %pad) -> (f32) {
      %v = memref.subview %buf[0] [128] [1] : memref<128xf32, 3> to memref<128xf32, strided<[1]>, 3>
      %tb = arith.muli %t, %c128 : index
      %a = arith.addi %tb, %lane : index
      gpu.barrier
      %cp = nvgpu.device_async_copy %A[%a], %v[%lane], 4 {bypassL1} : memref<1024xf32> to memref<128xf32, strided<[1]>, 3>
      %g = nvgpu.device_async_create_group %cp
      nvgpu.device_async_wait %g
      gpu.barrier
      %x = vector.transfer_read %v[%nb], %pad {in_bounds = [true]} : memref<128xf32, strided<[1]>, 3>, vector<4xf32>
      %r = vector.reduction <add>, %x : vector<4xf32> into f32
      %acc2 = arith.addf %acc, %r : f32
      scf.yield %acc2 : f32
    }
    memref.store %sum, %out[%tid] : memref<32xf32>
    gpu.return
  }
}
