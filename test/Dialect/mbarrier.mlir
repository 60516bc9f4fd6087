// The ops of the mbarrier form (docs/mbarrier.md) round-trip through
// apipe-opt in custom syntax, twice, and through the generic form.
// RUN: apipe-opt %s | FileCheck %s
// RUN: apipe-opt %s | apipe-opt | FileCheck %s
// RUN: apipe-opt %s --mlir-print-op-generic | apipe-opt | FileCheck %s
// RUN: apipe-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: gpu.func @every_mbarrier_op
// CHECK-SAME: (%[[A:.*]]: memref<2048x2048xf32>) workgroup(%[[AS:.*]] : memref<2x64x16xf32, 3>, %[[RING:.*]] : memref<2xi64, 3>)
// CHECK: apipe.mbarrier_init %[[RING]], %[[N:.*]] : memref<2xi64, 3>{{$}}
// CHECK-NEXT: apipe.mbarrier_expect_tx %[[RING]][%[[S:.*]]], 64 : memref<2xi64, 3>{{$}}
// CHECK-NEXT: apipe.bulk_copy %[[A]][%[[R:.*]], %[[K:.*]]], %[[AS]][%[[S]], %[[R]], %[[K]]], 16, %[[RING]][%[[S]]] : memref<2048x2048xf32> to memref<2x64x16xf32, 3>, memref<2xi64, 3>{{$}}
// CHECK-NEXT: apipe.copy %[[A]][%[[R]], %[[K]]], %[[AS]][%[[S]], %[[R]], %[[K]]], 4 : memref<2048x2048xf32> to memref<2x64x16xf32, 3>{{$}}
// CHECK-NEXT: apipe.mbarrier_arrive_copies %[[RING]][%[[S]]] : memref<2xi64, 3>{{$}}
// CHECK-NEXT: apipe.mbarrier_wait %[[RING]][%[[S]]], %[[P:.*]] {tag = 7 : i64} : memref<2xi64, 3>{{$}}
// CHECK-NEXT: gpu.return

// GENERIC: "apipe.mbarrier_init"(%{{.*}}, %{{.*}}) : (memref<2xi64, 3>, index) -> ()
// GENERIC: "apipe.mbarrier_expect_tx"(%{{.*}}, %{{.*}}) {bytes = 64 : i64} : (memref<2xi64, 3>, index) -> ()
// GENERIC: "apipe.bulk_copy"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {elements = 16 : i64} : (memref<2048x2048xf32>, memref<2x64x16xf32, 3>, memref<2xi64, 3>, index, index, index, index, index, index) -> ()
// GENERIC: "apipe.mbarrier_arrive_copies"(%{{.*}}, %{{.*}}) : (memref<2xi64, 3>, index) -> ()
// GENERIC: "apipe.mbarrier_wait"(%{{.*}}, %{{.*}}, %{{.*}}) {tag = 7 : i64} : (memref<2xi64, 3>, index, i1) -> ()
gpu.module @kernels {
  gpu.func @every_mbarrier_op(%A: memref<2048x2048xf32>)
      workgroup(%As: memref<2x64x16xf32, 3>, %ring: memref<2xi64, 3>) kernel {
    %r = gpu.thread_id x
    %k = arith.constant 0 : index
    %s = arith.constant 1 : index
    %n = arith.constant 256 : index
    %p = arith.constant true
    apipe.mbarrier_init %ring, %n : memref<2xi64, 3>
    apipe.mbarrier_expect_tx %ring[%s], 64 : memref<2xi64, 3>
    apipe.bulk_copy %A[%r, %k], %As[%s, %r, %k], 16, %ring[%s] : memref<2048x2048xf32> to memref<2x64x16xf32, 3>, memref<2xi64, 3>
    apipe.copy %A[%r, %k], %As[%s, %r, %k], 4 : memref<2048x2048xf32> to memref<2x64x16xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%s] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%s], %p {tag = 7 : i64} : memref<2xi64, 3>
    gpu.return
  }
}

// The ring may use #gpu.address_space<workgroup>, and host functions may
// hold one (apipe-run emulates them with one thread).

// CHECK-LABEL: func.func @host_ring
// CHECK: %[[RING:.*]] = memref.alloca() : memref<1xi64, #gpu.address_space<workgroup>>
// CHECK-NEXT: apipe.mbarrier_init %[[RING]], %{{.*}} : memref<1xi64, #gpu.address_space<workgroup>>
// CHECK-NEXT: apipe.mbarrier_arrive_copies %[[RING]][%{{.*}}] : memref<1xi64, #gpu.address_space<workgroup>>
// CHECK-NEXT: apipe.mbarrier_wait %[[RING]][%{{.*}}], %{{.*}} : memref<1xi64, #gpu.address_space<workgroup>>
func.func @host_ring(%slot: index, %parity: i1) {
  %one = arith.constant 1 : index
  %ring = memref.alloca() : memref<1xi64, #gpu.address_space<workgroup>>
  apipe.mbarrier_init %ring, %one : memref<1xi64, #gpu.address_space<workgroup>>
  apipe.mbarrier_arrive_copies %ring[%slot] : memref<1xi64, #gpu.address_space<workgroup>>
  apipe.mbarrier_wait %ring[%slot], %parity : memref<1xi64, #gpu.address_space<workgroup>>
  return
}
