// apipe-check-hazards on 2-D thread blocks beside a trip-count branch
// (a fresh-user trial). The feasibility test of an overlap between two
// threads' copies enumerates the thread ids and offsets when their bounds
// are small; the branch condition of a dynamic trip count, which the
// pipeliner emits (`scf.index_switch` on
// `minui(select(0 < n, ceildivui(n, 1), 0), 1)`), added unbounded
// variables to the same system, so it fell back to elimination over the
// rationals, which cannot prove `16 ty + 4 tx + a` distinct for distinct
// threads: a false write-after-write between threads, on @switched and on
// every pipelined output of @k (2 errors at 2 stages, 11 at 5). Variables
// that share no constraint are now decided apart, each bounded set by
// enumeration.
// RUN: apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v base@ > %t.sync
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=2 -o %t.2.mlir
// RUN: apipe-opt %t.2.mlir --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error:
// RUN: apipe-run %t.2.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse,random:7 | grep -v '^// apipe-run' | grep -v base@ > %t.2.out
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=5 -o %t.5.mlir
// RUN: apipe-opt %t.5.mlir --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error:
// RUN: apipe-run %t.5.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse,random:7 | grep -v '^// apipe-run' | grep -v base@ > %t.5.out
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-software-pipeline{num-stages=3 sync=tokens},apipe-counting-to-tokens,apipe-tokens-to-mbarrier)' -o %t.mb.mlir
// RUN: apipe-opt %t.mb.mlir --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error:
// Each of the 9 (completion, schedule) pairs prints what make-sync prints
// (the six runs of @run).
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.expected
// RUN: diff %t.expected %t.2.out
// RUN: diff %t.expected %t.5.out
// VALUES: {{^}}[9378,  12849,  8617,  13622,  11858,  8005,  11345,  10769,
// VALUES-COUNT-5: {{^}}[{{[0-9]}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%A: memref<1024xf32>, %Bm: memref<1024xf32>, %out: memref<128xf32> {llvm.noalias}, %n: index, %outer: index)
        workgroup(%ta: memref<4x16xf32, 3>, %tb: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 4, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tx4 = arith.muli %tx, %c4 : index
      %ty16 = arith.muli %ty, %c16 : index
      %lin = arith.addi %ty16, %tx4 : index
      %ty4 = arith.muli %ty, %c4 : index
      %tid = arith.addi %ty4, %tx : index
      %ox = arith.subi %c3, %tx : index
      %ox4 = arith.muli %ox, %c4 : index
      %zv = arith.constant dense<0.0> : vector<4xf32>
      %pad = arith.constant 0.0 : f32
      %o = arith.constant 0 : index
        %obase = arith.muli %o, %c64 : index
        %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zv, %cnt = %c0) -> (vector<4xf32>, index) {
          %base = arith.muli %i, %c64 : index
          %b2 = arith.addi %base, %obase : index
          %offa = arith.addi %b2, %lin : index
          apipe.copy %A[%offa], %ta[%ty, %tx4], 4 : memref<1024xf32> to memref<4x16xf32, 3>
          %offb = arith.addi %base, %lin : index
          apipe.copy %Bm[%offb], %tb[%lin], 4 : memref<1024xf32> to memref<64xf32, 3>
          apipe.commit_group
          apipe.wait_group 0
          gpu.barrier
          %va = vector.transfer_read %ta[%ty, %ox4], %pad {in_bounds = [true]} : memref<4x16xf32, 3>, vector<4xf32>
          %rb = arith.subi %c3, %ty : index
          %rb16 = arith.muli %rb, %c16 : index
          %ib = arith.addi %rb16, %tx4 : index
          %vb = vector.load %tb[%ib] : memref<64xf32, 3>, vector<4xf32>
          %m = arith.mulf %va, %vb : vector<4xf32>
          %a2 = arith.addf %acc, %m : vector<4xf32>
          %cn = arith.addi %cnt, %c1 : index
          gpu.barrier
          scf.yield %a2, %cn : vector<4xf32>, index
        }
        %s = vector.reduction <add>, %r#0 : vector<4xf32> into f32
        %cf = arith.index_cast %r#1 : index to i32
        %cff = arith.sitofp %cf : i32 to f32
        %s2 = arith.addf %s, %cff : f32
        %o16 = arith.muli %o, %c16 : index
        %oi = arith.addi %o16, %tid : index
        memref.store %s2, %out[%oi] : memref<128xf32>
      gpu.return
    }
    gpu.func @switched(%src: memref<64xf32>, %out: memref<16xf32> {llvm.noalias}, %n: index)
        workgroup(%b : memref<2x64xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 4, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %tx, %c4 : index
      %1 = arith.muli %ty, %c16 : index
      %2 = arith.addi %1, %0 : index
      %8 = arith.cmpi slt, %c0, %n : index
      %10 = arith.ceildivui %n, %c1 : index
      %11 = arith.select %8, %10, %c0 : index
      %12 = arith.minui %11, %c1 : index
      scf.index_switch %12
      case 0 {
        scf.yield
      }
      default {
        apipe.copy %src[%2], %b[%c0, %2], 4 : memref<64xf32> to memref<2x64xf32, 3>
        scf.yield
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %b[%c0, %1] : memref<2x64xf32, 3>
      %ty4 = arith.muli %ty, %c4 : index
      %t = arith.addi %ty4, %tx : index
      memref.store %x, %out[%t] : memref<16xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @run(%n: index, %outer: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c1024 = arith.constant 1024 : index
    %c128 = arith.constant 128 : index
    %A = memref.alloc() : memref<1024xf32>
    %Bm = memref.alloc() : memref<1024xf32>
    %out = memref.alloc() : memref<128xf32>
    %z = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c128 step %c1 {
      memref.store %z, %out[%i] : memref<128xf32>
    }
    scf.for %i = %c0 to %c1024 step %c1 {
      %v = arith.index_cast %i : index to i32
      %v7 = arith.constant 7 : i32
      %w = arith.remsi %v, %v7 : i32
      %f = arith.sitofp %w : i32 to f32
      %f2 = arith.sitofp %v : i32 to f32
      memref.store %f, %A[%i] : memref<1024xf32>
      memref.store %f2, %Bm[%i] : memref<1024xf32>
    }
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c4, %c1) args(%A : memref<1024xf32>, %Bm : memref<1024xf32>, %out : memref<128xf32>, %n : index, %outer : index)
    %u = memref.cast %out : memref<128xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    call @run(%c5, %c3) : (index, index) -> ()
    call @run(%c1, %c2) : (index, index) -> ()
    call @run(%c2, %c2) : (index, index) -> ()
    call @run(%c0, %c1) : (index, index) -> ()
    call @run(%c3, %c1) : (index, index) -> ()
    call @run(%c8, %c1) : (index, index) -> ()
    return
  }
}
