// A scheduled kernel whose stages are cut by the shared-memory budget runs
// end to end: num-stages=4 with max-shared-bytes=5000 gives 2 stages (a
// 2 KiB tile: 4 stages need 8192 bytes, 3 need 6144), num-stages=3 with the
// default budget keeps 3. Each thread reads its neighbour's floats, so the
// barriers matter; racecheck is on (the default for kernels), in every
// completion mode and two schedules, and the output is what apipe-make-sync
// of the input prints.
// RUN: apipe-opt %s --apipe-make-sync > %t.sync.mlir
// RUN: apipe-run %t.sync.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse > %t.sync.out
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4 max-shared-bytes=5000" 2> %t.two.err > %t.two.mlir
// RUN: FileCheck %s --check-prefix=TWO < %t.two.err
// TWO: remark: 4 stages need 8192 bytes of shared memory, over the budget of 5000 bytes (max-shared-bytes): trying 3 stages
// TWO: remark: 3 stages need 6144 bytes of shared memory, over the budget of 5000 bytes (max-shared-bytes): trying 2 stages
// TWO: remark: scheduled 2 stages (num_stages = 2): {{.*}}; shared memory: 4096 of 5000 bytes; 2 gpu.barrier per iteration
// RUN: apipe-run %t.two.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse > %t.two.out
// RUN: diff %t.sync.out %t.two.out
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null > %t.three.mlir
// RUN: FileCheck %s --check-prefix=THREE-IR < %t.three.mlir
// THREE-IR: workgroup(%{{.*}} : memref<3x512xf32, 3>)
// RUN: apipe-run %t.three.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse > %t.three.out
// RUN: diff %t.sync.out %t.three.out
// RUN: FileCheck %s < %t.sync.out
// CHECK-COUNT-6: {{^}}0, 5, 3{{$}}
// CHECK-NOT: {{^[0-9-]}}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // dst[t * 512 + 4 * x + k] = src[t * 512 + (4 * x + 4 + k) mod 512]:
    // each of the 128 threads copies 4 floats of tile t and writes back
    // its neighbour's 4 (a barrier after the copy and one after the reads,
    // as a synchronous kernel needs).
    gpu.func @rotate(%src: memref<8192xf32> {llvm.noalias}, %dst: memref<8192xf32> {llvm.noalias})
        workgroup(%buf: memref<512xf32, 3>) kernel {
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
        %tile = arith.muli %t, %c512 : index
        %off = arith.addi %tile, %lane : index
        apipe.copy %src[%off], %buf[%lane], 4 : memref<8192xf32> to memref<512xf32, 3>
        gpu.barrier
        scf.for %k = %c0 to %c4 step %c1 {
          %i = arith.addi %neighbour, %k : index
          %x = memref.load %buf[%i] : memref<512xf32, 3>
          %o = arith.addi %off, %k : index
          memref.store %x, %dst[%o] : memref<8192xf32>
        }
        gpu.barrier
      }
      gpu.return
    }
  }
  func.func private @printI64(i64)
  func.func private @printF32(f32)
  func.func private @printComma()
  func.func private @printNewline()

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %c511 = arith.constant 511 : index
    %c512 = arith.constant 512 : index
    %c1000 = arith.constant 1000 : index
    %n = arith.constant 8192 : index
    %i0 = arith.constant 0 : i64
    %src = memref.alloc() : memref<8192xf32>
    %dst = memref.alloc() : memref<8192xf32>
    scf.for %i = %c0 to %n step %c1 {
      %m = arith.remui %i, %c1000 : index
      %mi = arith.index_cast %m : index to i32
      %mf = arith.sitofp %mi : i32 to f32
      memref.store %mf, %src[%i] : memref<8192xf32>
    }
    gpu.launch_func @kernels::@rotate blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%src : memref<8192xf32>, %dst : memref<8192xf32>)
    // Count the elements that differ from the host reference.
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%n0 = %i0) -> (i64) {
      %t = arith.divui %i, %c512 : index
      %within = arith.remui %i, %c512 : index
      %w4 = arith.addi %within, %c4 : index
      %wrap = arith.remui %w4, %c512 : index
      %base = arith.muli %t, %c512 : index
      %j = arith.addi %base, %wrap : index
      %a = memref.load %src[%j] : memref<8192xf32>
      %b = memref.load %dst[%i] : memref<8192xf32>
      %ne = arith.cmpf une, %a, %b : f32
      %inc = arith.extui %ne : i1 to i64
      %n1 = arith.addi %n0, %inc : i64
      scf.yield %n1 : i64
    }
    func.call @printI64(%bad) : (i64) -> ()
    %x = memref.load %dst[%c1] : memref<8192xf32>
    %y = memref.load %dst[%c511] : memref<8192xf32>
    func.call @printComma() : () -> ()
    func.call @printF32(%x) : (f32) -> ()
    func.call @printComma() : () -> ()
    func.call @printF32(%y) : (f32) -> ()
    func.call @printNewline() : () -> ()
    return
  }
}
