// A kernel whose copies take their tile from an index table in global
// memory (tile t copies tile order[t]), written without stage annotations:
// num-stages puts the table load in stage 0 with the copy. The pipelined
// kernel runs end to end with racecheck on (the default for kernels), in
// every completion mode and two schedules, prints what apipe-make-sync of
// the input prints, and passes apipe-check-hazards.
// RUN: apipe-opt %s --apipe-make-sync > %t.sync.mlir
// RUN: apipe-run %t.sync.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse > %t.sync.out
// RUN: FileCheck %s < %t.sync.out
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2> %t.three.err > %t.three.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t.three.err
// RUN: FileCheck %s --check-prefix=IR < %t.three.mlir
// RUN: apipe-opt %t.three.mlir --apipe-check-hazards -o /dev/null
// RUN: apipe-run %t.three.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse > %t.three.out
// RUN: diff %t.sync.out %t.three.out
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4 sync=tokens" 2>/dev/null > %t.four.mlir
// RUN: apipe-run %t.four.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse > %t.four.out
// RUN: diff %t.sync.out %t.four.out
// CHECK-COUNT-6: {{^}}0{{$}}
// CHECK-NOT: {{^[0-9-]}}
// REMARK: remark: scheduled 3 stages (num_stages = 3): stage 0: 4 ops, stage 2: 3 ops; versions: memref<512xf32, 3> x 3 (6144 bytes)
// The prologue loads order[0] and order[1] before the loop:
// IR: memref.load %arg2[%c0{{.*}}] : memref<16xindex>
// IR: apipe.copy
// IR: memref.load %arg2[%c1{{.*}}] : memref<16xindex>
// IR: apipe.copy
// IR: scf.for

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // dst[t * 512 + 4 * x + k] = src[order[t] * 512 + (4 * x + 4 + k) mod 512].
    gpu.func @gather_tiles(%src: memref<8192xf32> {llvm.noalias}, %dst: memref<8192xf32> {llvm.noalias}, %order: memref<16xindex> {llvm.noalias})
        workgroup(%buf: memref<512xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c512 = arith.constant 512 : index
      %tid = gpu.thread_id x
      %lane = arith.muli %tid, %c4 : index
      %next = arith.addi %lane, %c4 : index
      %neighbour = arith.remui %next, %c512 : index
      scf.for %t = %c0 to %c16 step %c1 {
        %which = memref.load %order[%t] : memref<16xindex>
        %tile = arith.muli %which, %c512 : index
        %off = arith.addi %tile, %lane : index
        apipe.copy %src[%off], %buf[%lane], 4 : memref<8192xf32> to memref<512xf32, 3>
        gpu.barrier
        scf.for %k = %c0 to %c4 step %c1 {
          %i = arith.addi %neighbour, %k : index
          %x = memref.load %buf[%i] : memref<512xf32, 3>
          %t512 = arith.muli %t, %c512 : index
          %o0 = arith.addi %t512, %lane : index
          %o = arith.addi %o0, %k : index
          memref.store %x, %dst[%o] : memref<8192xf32>
        }
        gpu.barrier
      }
      gpu.return
    }
  }
  func.func private @printI64(i64)
  func.func private @printNewline()

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %c1000 = arith.constant 1000 : index
    %n = arith.constant 8192 : index
    %i0 = arith.constant 0 : i64
    %src = memref.alloc() : memref<8192xf32>
    %dst = memref.alloc() : memref<8192xf32>
    %order = memref.alloc() : memref<16xindex>
    scf.for %i = %c0 to %n step %c1 {
      %m = arith.remui %i, %c1000 : index
      %mi = arith.index_cast %m : index to i32
      %mf = arith.sitofp %mi : i32 to f32
      memref.store %mf, %src[%i] : memref<8192xf32>
    }
    // order[t] = 5t mod 16, a permutation.
    scf.for %t = %c0 to %c16 step %c1 {
      %p = arith.muli %t, %c5 : index
      %q = arith.remui %p, %c16 : index
      memref.store %q, %order[%t] : memref<16xindex>
    }
    gpu.launch_func @kernels::@gather_tiles blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%src : memref<8192xf32>, %dst : memref<8192xf32>, %order : memref<16xindex>)
    // Count the elements that differ from the host reference.
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%n0 = %i0) -> (i64) {
      %t = arith.divui %i, %c512 : index
      %within = arith.remui %i, %c512 : index
      %w4 = arith.addi %within, %c4 : index
      %wrap = arith.remui %w4, %c512 : index
      %which = memref.load %order[%t] : memref<16xindex>
      %base = arith.muli %which, %c512 : index
      %j = arith.addi %base, %wrap : index
      %a = memref.load %src[%j] : memref<8192xf32>
      %b = memref.load %dst[%i] : memref<8192xf32>
      %ne = arith.cmpf une, %a, %b : f32
      %inc = arith.extui %ne : i1 to i64
      %n1 = arith.addi %n0, %inc : i64
      scf.yield %n1 : i64
    }
    func.call @printI64(%bad) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  }
}
