// apipe-software-pipeline inside gpu.func: the workgroup attribution is
// retyped to 2 versions. Barriers default to true there: a gpu.barrier
// wherever two threads could otherwise touch the same bytes of a version
// (MIN). In the original order (copy, then the read of the tile before) that
// is two per iteration: one before the copy into the version the previous
// step read (write after read), one between the wait and the read (read
// after the copy); none in the prologue (nothing read shared memory yet).
// barriers=conservative keeps the earlier placement (CHECK, COUNT): a
// barrier after each wait and before the first op of the async stage, in
// every step.
// RUN: apipe-opt %s --apipe-software-pipeline | FileCheck %s --check-prefix=MIN
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens barriers=conservative" | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens barriers=false" | FileCheck %s --check-prefix=NOBAR
// RUN: apipe-opt %s --apipe-software-pipeline="barriers=conservative" | FileCheck %s --check-prefix=COUNT

// MIN-LABEL: gpu.func @stream_in_gpu_func
// MIN-NOT: gpu.barrier
// MIN: apipe.copy
// MIN-NEXT: apipe.commit_group queue 0
// MIN-NOT: gpu.barrier
// MIN: scf.for
// MIN-NOT: apipe.copy
// MIN: gpu.barrier
// MIN-NEXT: arith.remui
// MIN-NEXT: memref.subview
// MIN-NEXT: apipe.copy
// MIN-NEXT: apipe.commit_group queue 0
// MIN-NEXT: apipe.wait_group 1
// MIN-NEXT: gpu.barrier
// MIN-NEXT: arith.remui
// MIN-NEXT: memref.subview
// MIN-NEXT: memref.load
// MIN-NOT: gpu.barrier
// MIN: scf.yield
// MIN-NEXT: }
// MIN-NEXT: apipe.commit_group queue 0
// MIN-NEXT: apipe.wait_group 1
// MIN-NEXT: gpu.barrier
// MIN-NEXT: memref.subview
// MIN-NEXT: memref.load
// MIN-NOT: gpu.barrier
// MIN: gpu.return

// COUNT-LABEL: gpu.func @stream_in_gpu_func
// COUNT: scf.for
// COUNT-NEXT: gpu.barrier
// COUNT: apipe.copy
// COUNT-NEXT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: apipe.wait_group 1{{$}}
// COUNT-NEXT: gpu.barrier
// COUNT: {{^ *}}apipe.commit_group queue 0{{$}}
// COUNT-NEXT: apipe.wait_group 1{{$}}
// COUNT-NEXT: gpu.barrier
// COUNT-NOT: apipe.token

// CHECK-LABEL: gpu.func @stream_in_gpu_func
// CHECK-SAME: workgroup(%[[BUF:.*]] : memref<2x128xf32, 3>)
// CHECK: gpu.barrier
// CHECK-NEXT: arith.muli
// CHECK-NEXT: arith.addi
// CHECK-NEXT: memref.subview %[[BUF]]
// CHECK-NEXT: apipe.copy
// CHECK-NEXT: %[[T0:.*]] = apipe.commit_group
// CHECK-NEXT: %[[K:.*]]:2 = scf.for {{.*}} iter_args(%[[BASE:.*]] = %{{.*}}, %[[D1:.*]] = %[[T0]]) -> (index, !apipe.token) {
// CHECK-NEXT:   gpu.barrier
// CHECK:        apipe.copy
// CHECK-NEXT:   %[[T:.*]] = apipe.commit_group
// CHECK-NEXT:   apipe.wait %[[D1]]
// CHECK-NEXT:   gpu.barrier
// CHECK-NEXT:   arith.remui
// CHECK-NEXT:   memref.subview %[[BUF]]
// CHECK-NEXT:   memref.load
// CHECK-NEXT:   arith.addi %[[BASE]]
// CHECK-NEXT:   memref.store
// CHECK-NEXT:   scf.yield %{{.*}}, %[[T]] : index, !apipe.token
// CHECK:      apipe.commit_group
// CHECK-NEXT: apipe.wait %[[K]]#1
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.subview %[[BUF]]
// CHECK-NEXT: memref.load
// CHECK-NEXT: arith.addi %[[K]]#0
// CHECK-NEXT: memref.store
// CHECK-NEXT: gpu.return

// NOBAR-LABEL: gpu.func @stream_in_gpu_func
// NOBAR-NOT: gpu.barrier
// NOBAR: gpu.return
gpu.module @kernels {
  gpu.func @stream_in_gpu_func(%A: memref<4096xf32> {llvm.noalias}, %out: memref<4096xf32> {llvm.noalias})
      workgroup(%buf: memref<128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    scf.for %j = %c0 to %c8 step %c1 {
      %base = arith.muli %j, %c128 {apipe.stage = 0 : i64} : index
      %src = arith.addi %base, %lane {apipe.stage = 0 : i64} : index
      apipe.copy %A[%src], %buf[%lane], 4 {apipe.stage = 0 : i64} : memref<4096xf32> to memref<128xf32, 3>
      %x = memref.load %buf[%tid] {apipe.stage = 1 : i64} : memref<128xf32, 3>
      %o = arith.addi %base, %tid {apipe.stage = 1 : i64} : index
      memref.store %x, %out[%o] {apipe.stage = 1 : i64} : memref<4096xf32>
    } {apipe.async_stages = array<i64: 0>}
    gpu.return
  }
}
