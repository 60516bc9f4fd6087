// `memref.alloca_scope` with `scf` ops inside runs (upstream
// convert-scf-to-cf would split its single block; apipe-run inlines the
// scope between a stack save and restore first), and prints what its
// make-sync version prints in every completion mode.
//
// @main: each of 4 iterations copies tile i (4 x f32) of %A into a
// per-iteration alloca of the scope, waits, and sums it with an scf.for
// (and an scf.if that skips odd elements on odd tiles): sums
// [0+1+2+3, 4+6, 8+9+10+11, 12+14] = [6, 10, 38, 26], total 80.
// @nested: scopes in scopes in an scf.while, results through each level.
// @deep: 100000 iterations, each with a 64 KiB alloca in a scope: every
// iteration's alloca is at the same address (6.4 GB of stack, more than
// the entry's 1 GiB, without the restore).
// @kernel: 2 threads, each with a scope holding a private alloca and an
// scf.for, write their sums.
//
// RUN: apipe-run %s --completion=lazy,eager,random:1,random:2 | FileCheck %s --check-prefix=MAIN
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s --check-prefix=SYNC
// MAIN-COUNT-4: ( 6, 10, 38, 26 )80
// MAIN-NOT: {{.}}
// SYNC: ( 6, 10, 38, 26 )80
// RUN: apipe-run %s --entry=nested | FileCheck %s --check-prefix=NESTED
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=nested | FileCheck %s --check-prefix=NESTED
// NESTED: 27
// RUN: apipe-run %s --entry=deep | FileCheck %s --check-prefix=DEEP
// DEEP: 100000
// RUN: apipe-run %s --entry=kernel --completion=lazy,eager --schedule=forward,reverse | FileCheck %s --check-prefix=KERNEL
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=kernel | FileCheck %s --check-prefix=KERNEL-SYNC
// KERNEL-COUNT-4: [6,  22]
// KERNEL-SYNC: [6,  22]
//
// A copy still pending into stack memory that is released (the end of a
// scope, the return of a function with an alloca) is an error where the
// memory goes, not a write into the stack the next call reuses:
// RUN: not apipe-run %s --entry=pending_scope --completion=eager 2>&1 | FileCheck %s --check-prefix=PENDING-SCOPE
// PENDING-SCOPE: alloca-scope.mlir:[[# @LINE + 190]]:5: error: stack memory is released here (a function with 'memref.alloca' returned, or a 'memref.alloca_scope' ended) while a pending 'apipe.copy' still writes it: no wait completes the copy before
// PENDING-SCOPE-NEXT: alloca-scope.mlir:[[# @LINE + 191]]:7: note: the pending copy
// RUN: not apipe-run %s --entry=pending_return --completion=random:4 2>&1 | FileCheck %s --check-prefix=PENDING-RETURN
// PENDING-RETURN: alloca-scope.mlir:[[# @LINE + 208]]:5: error: stack memory is released here
// PENDING-RETURN-NEXT: alloca-scope.mlir:[[# @LINE + 200]]:5: note: the pending copy

module attributes {gpu.container_module} {
  func.func private @printI64(i64)
  func.func private @printF32(f32)
  func.func private @printNewline()
  func.func private @printComma()
  func.func private @printOpen()
  func.func private @printClose()
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %A = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<16xf32>
    }
    %sums = memref.alloc() : memref<4xf32>
    %total = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
      %s = memref.alloca_scope -> (f32) {
        %tile = memref.alloca() : memref<4xf32>
        %base = arith.muli %i, %c4 : index
        apipe.copy %A[%base], %tile[%c0], 4 : memref<16xf32> to memref<4xf32>
        apipe.commit_group
        apipe.wait_group 0
        %odd = arith.remui %i, %c2 : index
        %sum = scf.for %j = %c0 to %c4 step %c1 iter_args(%t = %zero) -> (f32) {
          %jodd = arith.remui %j, %c2 : index
          %skip = arith.andi %odd, %jodd : index
          %keep = arith.cmpi eq, %skip, %c0 : index
          %n = scf.if %keep -> (f32) {
            %v = memref.load %tile[%j] : memref<4xf32>
            %u = arith.addf %t, %v : f32
            scf.yield %u : f32
          } else {
            scf.yield %t : f32
          }
          scf.yield %n : f32
        }
        memref.store %sum, %sums[%i] : memref<4xf32>
        memref.alloca_scope.return %sum : f32
      }
      %a = arith.addf %acc, %s : f32
      scf.yield %a : f32
    }
    func.call @printOpen() : () -> ()
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %sums[%i] : memref<4xf32>
      func.call @printF32(%v) : (f32) -> ()
      %l = arith.addi %i, %c1 : index
      %more = arith.cmpi ult, %l, %c4 : index
      scf.if %more {
        func.call @printComma() : () -> ()
      }
    }
    func.call @printClose() : () -> ()
    func.call @printF32(%total) : (f32) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %sums : memref<4xf32>
    memref.dealloc %A : memref<16xf32>
    return
  }

  // 3 rounds k of a while loop; each round: an outer scope (alloca of 2)
  // holds an inner scope (alloca of 3) whose scf.for sums j (k + 1) for
  // j < 3, plus 3 k from the outer alloca: 3 + (6 + 3) + (9 + 6) = 27.
  func.func @nested() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r:2 = scf.while (%k = %c0, %acc = %c0) : (index, index) -> (index, index) {
      %go = arith.cmpi ult, %k, %c3 : index
      scf.condition(%go) %k, %acc : index, index
    } do {
    ^bb0(%k: index, %acc: index):
      %outer = memref.alloca_scope -> (index) {
        %o = memref.alloca() : memref<2xindex>
        memref.store %k, %o[%c0] : memref<2xindex>
        %inner = memref.alloca_scope -> (index) {
          %a = memref.alloca() : memref<3xindex>
          %s = scf.for %j = %c0 to %c3 step %c1 iter_args(%t = %c0) -> (index) {
            %k1 = arith.addi %k, %c1 : index
            %v = arith.muli %j, %k1 : index
            memref.store %v, %a[%j] : memref<3xindex>
            %w = memref.load %a[%j] : memref<3xindex>
            %u = arith.addi %t, %w : index
            scf.yield %u : index
          }
          memref.alloca_scope.return %s : index
        }
        %kk = memref.load %o[%c0] : memref<2xindex>
        %k3 = arith.muli %kk, %c3 : index
        %sum = arith.addi %inner, %k3 : index
        memref.alloca_scope.return %sum : index
      }
      %next = arith.addi %k, %c1 : index
      %acc2 = arith.addi %acc, %outer : index
      scf.yield %next, %acc2 : index, index
    }
    %x = arith.index_cast %r#1 : index to i64
    func.call @printI64(%x) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  }

  // Counts the iterations whose alloca starts where iteration 0's did:
  // all of them when the scope restores the stack.
  func.func @deep() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %none = arith.constant -1 : index
    %n = arith.constant 100000 : index
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%first = %none, %same = %c0) -> (index, index) {
      %s:2 = memref.alloca_scope -> (index, index) {
        %big = memref.alloca() : memref<16384xf32>
        scf.for %j = %c0 to %c4 step %c1 {
          %f = arith.constant 1.0 : f32
          memref.store %f, %big[%j] : memref<16384xf32>
        }
        %p = memref.extract_aligned_pointer_as_index %big : memref<16384xf32> -> index
        %is_first = arith.cmpi eq, %first, %none : index
        %f0 = arith.select %is_first, %p, %first : index
        %eq = arith.cmpi eq, %p, %f0 : index
        %one = arith.index_cast %eq : i1 to index
        %one_u = arith.andi %one, %c1 : index
        %s1 = arith.addi %same, %one_u : index
        memref.alloca_scope.return %f0, %s1 : index, index
      }
      scf.yield %s#0, %s#1 : index, index
    }
    %x = arith.index_cast %r#1 : index to i64
    func.call @printI64(%x) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  }

  gpu.module @kernels {
    // Thread t sums 4 t + [0, 1, 2, 3] through a private alloca in a scope.
    gpu.func @sums(%out: memref<2xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.0 : f32
      %t = gpu.thread_id x
      %s = memref.alloca_scope -> (f32) {
        %p = memref.alloca() : memref<4xf32>
        %sum = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
          %t4 = arith.muli %t, %c4 : index
          %v = arith.addi %t4, %j : index
          %vi = arith.index_cast %v : index to i32
          %vf = arith.sitofp %vi : i32 to f32
          memref.store %vf, %p[%j] : memref<4xf32>
          %w = memref.load %p[%j] : memref<4xf32>
          %u = arith.addf %acc, %w : f32
          scf.yield %u : f32
        }
        memref.alloca_scope.return %sum : f32
      }
      memref.store %s, %out[%t] : memref<2xf32>
      gpu.return
    }
  }

  func.func @kernel() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %out = memref.alloc() : memref<2xf32>
    gpu.launch_func @kernels::@sums blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%out : memref<2xf32>)
    %u = memref.cast %out : memref<2xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %out : memref<2xf32>
    return
  }

  // The scope ends with its copy in flight (no wait in the scope).
  func.func @pending_scope() {
    %c0 = arith.constant 0 : index
    %A = memref.alloc() : memref<16xf32>
    memref.alloca_scope {
      %tile = memref.alloca() : memref<4xf32>
      apipe.copy %A[%c0], %tile[%c0], 4 : memref<16xf32> to memref<4xf32>
      apipe.commit_group
    }
    apipe.wait_group 0
    memref.dealloc %A : memref<16xf32>
    return
  }

  // The callee returns with its copy into its own alloca in flight.
  func.func @issue_into_frame(%A: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %tile = memref.alloca() : memref<4xf32>
    apipe.copy %A[%c0], %tile[%c0], 4 : memref<16xf32> to memref<4xf32>
    apipe.commit_group
    return
  }

  func.func @pending_return() {
    %A = memref.alloc() : memref<16xf32>
    func.call @issue_into_frame(%A) : (memref<16xf32>) -> ()
    apipe.wait_group 0
    memref.dealloc %A : memref<16xf32>
    return
  }
}
