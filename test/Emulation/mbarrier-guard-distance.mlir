// Tokens whose distance at a wait is K - 1 on some path: the guarded wait of
// apipe-tokens-to-mbarrier must still run there (the slot was not reused
// yet, so nothing else completed the group). Here K = 2 and the waited
// group is 1 or 2 groups old, depending on a branch that commits an extra
// empty group.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier | apipe-run - --completion=lazy,eager,random:1,random:7 | FileCheck %s --check-prefixes=CHECK,CHECK-4
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier=slots=2 | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier=slots=4 | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-tokens-to-mbarrier | FileCheck %s --check-prefix=IR

// The guard keeps the group's wait while fewer than K groups follow it.
// IR: %[[AGE:.*]] = arith.subi
// IR-NEXT: %[[RECENT:.*]] = arith.cmpi ule, %[[AGE]], %{{.*}} : index
// IR-NEXT: scf.if %[[RECENT]] {
// IR-NEXT: apipe.mbarrier_wait

// CHECK: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45]
// CHECK-4-COUNT-3: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45]
module {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c12 = arith.constant 12 : index
    %c64 = arith.constant 64 : index
    %A = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      memref.store %f, %A[%i] : memref<64xf32>
    }
    %out = memref.alloc() : memref<12xf32>
    %buf = memref.alloc() : memref<2x4xf32>
    apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    %t0 = apipe.commit_group
    %r = scf.for %i = %c1 to %c12 step %c1 iter_args(%tp = %t0) -> !apipe.token {
      %slot = arith.remui %i, %c2 : index
      %off = arith.muli %i, %c4 : index
      apipe.copy %A[%off], %buf[%slot, %c0], 4 : memref<64xf32> to memref<2x4xf32>
      %tn = apipe.commit_group
      %m = arith.remui %i, %c2 : index
      %p = arith.cmpi eq, %m, %c0 : index
      scf.if %p {
        %e = apipe.commit_group
      }
      apipe.wait %tp
      %im1 = arith.subi %i, %c1 : index
      %ps = arith.remui %im1, %c2 : index
      %x = memref.load %buf[%ps, %c1] : memref<2x4xf32>
      memref.store %x, %out[%im1] : memref<12xf32>
      apipe.wait %tn
      scf.yield %tn : !apipe.token
    }
    %c11 = arith.constant 11 : index
    %x11 = memref.load %buf[%c1, %c1] : memref<2x4xf32>
    memref.store %x11, %out[%c11] : memref<12xf32>
    %u = memref.cast %out : memref<12xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
