// apipe-check-hazards on loops with two and three async stages, where each
// later async stage copies out of the buffer the previous one filled,
// pipelined by apipe-software-pipeline, with one queue per async stage and
// after apipe-merge-queues (one FIFO: the counts of the stages' groups
// interleave). The output is correct, so the check reports nothing. The
// merged output is printed with its locations (those of the source ops), so
// with every wait one weaker the reads are reported at this file's lines.
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=SILENT
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline --apipe-merge-queues --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=SILENT
// SILENT-NOT: error
// SILENT-NOT: remark
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline --apipe-merge-queues --mlir-print-debuginfo -o %t.mlir
// RUN: perl -pe 's/apipe\.wait_group (\d+) loc/"apipe.wait_group ".($1+1)." loc"/e' %t.mlir > %t.weak.mlir
// RUN: not apipe-opt %t.weak.mlir --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=WEAK
// One queue per async stage: each wait one weaker on its own queue.
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline --mlir-print-debuginfo -o %t.queues.mlir
// RUN: perl -pe 's/apipe\.wait_group (\d+)( queue \d+)? loc/"apipe.wait_group ".($1+1).$2." loc"/e' %t.queues.mlir > %t.queues.weak.mlir
// RUN: not apipe-opt %t.queues.weak.mlir --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=WEAKQ

// The report's loop: stage 0 copies A into %buf, stage 1 copies %buf into
// %buf2 (the second async stage reads what the first one filled), stage 3
// reads %buf2 (ordered before the stage-1 copy). Merged, the kernel commits
// two groups per iteration and waits `pending = 3` before the read and
// `pending = 2` before the stage-1 copy; the prologue's stage-1 copies must
// not be taken for in flight when the kernel's stage-0 copy overwrites the
// version of %buf they read (write-after-read).
// WEAK: check-hazards-merged-queues.mlir:[[# @LINE + 21]]:5: error: 'apipe.copy' op reads (as its source) a buffer region that an async copy may still be writing (read-after-write)
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 19]]:5: note: the async copy still in flight; 2 newer group(s) committed on queue 0 since its group
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 16]]:3: note: `pending = 3` leaves this copy's group in flight: 2 newer group(s) are committed on queue 0 when it waits; `pending <= 2` completes it
// WEAK: check-hazards-merged-queues.mlir:[[# @LINE + 19]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 17]]:5: note: the async copy still in flight; 3 newer group(s) committed on queue 0 since its group
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 13]]:3: note: `pending = 4` leaves this copy's group in flight: 3 newer group(s) are committed on queue 0 when it waits; `pending <= 3` completes it
// WEAK-NOT: write-after
// WEAKQ: check-hazards-merged-queues.mlir:[[# @LINE + 15]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// WEAKQ-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 13]]:5: note: the async copy still in flight; 1 newer group(s) committed on queue 1 since its group
// WEAKQ-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 9]]:3: note: `pending = 2` leaves this copy's group in flight: 1 newer group(s) are committed on queue 1 when it waits; `pending <= 1` completes it
func.func @two_async_static(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<4xf32>
  %buf2 = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64, apipe.order = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64, apipe.order = 1 : i64} : memref<64xf32> to memref<4xf32>
    apipe.copy %buf[%c0], %buf2[%c0], 4 {apipe.stage = 1 : i64, apipe.order = 3 : i64} : memref<4xf32> to memref<4xf32>
    %x = memref.load %buf2[%c2] {apipe.stage = 3 : i64, apipe.order = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 3 : i64, apipe.order = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0, 1>}
  return
}

// -----

// The same with a dynamic trip count (every count from 0 up).
// WEAK: check-hazards-merged-queues.mlir:[[# @LINE + 21]]:5: error: 'apipe.copy' op reads (as its source) a buffer region that an async copy may still be writing (read-after-write)
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 19]]:5: note: the async copy still in flight; 2 newer group(s) committed on queue 0 since its group
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 16]]:3: note: `pending = 3` leaves this copy's group in flight: 2 newer group(s) are committed on queue 0 when it waits; `pending <= 2` completes it
// WEAK: check-hazards-merged-queues.mlir:[[# @LINE + 19]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 17]]:5: note: the async copy still in flight; 3 newer group(s) committed on queue 0 since its group
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 13]]:3: note: `pending = 4` leaves this copy's group in flight: 3 newer group(s) are committed on queue 0 when it waits; `pending <= 3` completes it
// WEAK-NOT: write-after
// WEAKQ: check-hazards-merged-queues.mlir:[[# @LINE + 15]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// WEAKQ-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 13]]:5: note: the async copy still in flight; 1 newer group(s) committed on queue 1 since its group
// WEAKQ-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 9]]:3: note: `pending = 2` leaves this copy's group in flight: 1 newer group(s) are committed on queue 1 when it waits; `pending <= 1` completes it
func.func @two_async_dynamic(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<4xf32>
  %buf2 = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %n step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64, apipe.order = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64, apipe.order = 1 : i64} : memref<64xf32> to memref<4xf32>
    apipe.copy %buf[%c0], %buf2[%c0], 4 {apipe.stage = 1 : i64, apipe.order = 3 : i64} : memref<4xf32> to memref<4xf32>
    %x = memref.load %buf2[%c2] {apipe.stage = 3 : i64, apipe.order = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 3 : i64, apipe.order = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0, 1>}
  return
}

// -----

// Three async stages (A -> %buf -> %buf2 -> %buf3 at stages 0, 1, 2), the
// read at stage 4, the copies ordered after the read.
// WEAK: check-hazards-merged-queues.mlir:[[# @LINE + 27]]:5: error: 'apipe.copy' op reads (as its source) a buffer region that an async copy may still be writing (read-after-write)
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 25]]:5: note: the async copy still in flight; 3 newer group(s) committed on queue 0 since its group
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 22]]:3: note: `pending = 4` leaves this copy's group in flight: 3 newer group(s) are committed on queue 0 when it waits; `pending <= 3` completes it
// WEAK: check-hazards-merged-queues.mlir:[[# @LINE + 25]]:5: error: 'apipe.copy' op reads (as its source) a buffer region that an async copy may still be writing (read-after-write)
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 23]]:5: note: the async copy still in flight; 3 newer group(s) committed on queue 0 since its group
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 19]]:3: note: `pending = 4` leaves this copy's group in flight: 3 newer group(s) are committed on queue 0 when it waits; `pending <= 3` completes it
// WEAK: check-hazards-merged-queues.mlir:[[# @LINE + 20]]:5: error: 'apipe.copy' op overwrites a buffer region that an earlier async copy may still be reading (its source) (write-after-read)
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 20]]:5: note: the async copy still in flight; 4 newer group(s) committed on queue 0 since its group
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 16]]:3: note: `pending = 4` leaves this copy's group in flight: 3 newer group(s) are committed on queue 0 when it waits; `pending <= 3` completes it
// WEAK: check-hazards-merged-queues.mlir:[[# @LINE + 20]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 18]]:5: note: the async copy still in flight; 3 newer group(s) committed on queue 0 since its group
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 13]]:3: note: `pending = 4` leaves this copy's group in flight: 3 newer group(s) are committed on queue 0 when it waits; `pending <= 3` completes it
// WEAKQ: check-hazards-merged-queues.mlir:[[# @LINE + 17]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// WEAKQ-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 15]]:5: note: the async copy still in flight; 1 newer group(s) committed on queue 2 since its group
// WEAKQ-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 10]]:3: note: `pending = 2` leaves this copy's group in flight: 1 newer group(s) are committed on queue 2 when it waits; `pending <= 1` completes it
func.func @three_async_static(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<4xf32>
  %buf2 = memref.alloc() : memref<4xf32>
  %buf3 = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64, apipe.order = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64, apipe.order = 2 : i64} : memref<64xf32> to memref<4xf32>
    apipe.copy %buf[%c0], %buf2[%c0], 4 {apipe.stage = 1 : i64, apipe.order = 3 : i64} : memref<4xf32> to memref<4xf32>
    apipe.copy %buf2[%c0], %buf3[%c0], 4 {apipe.stage = 2 : i64, apipe.order = 4 : i64} : memref<4xf32> to memref<4xf32>
    %x = memref.load %buf3[%c2] {apipe.stage = 4 : i64, apipe.order = 1 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 4 : i64, apipe.order = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0, 1, 2>}
  return
}

// -----

// The same with a dynamic trip count.
// WEAK: check-hazards-merged-queues.mlir:[[# @LINE + 27]]:5: error: 'apipe.copy' op reads (as its source) a buffer region that an async copy may still be writing (read-after-write)
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 25]]:5: note: the async copy still in flight; 3 newer group(s) committed on queue 0 since its group
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 22]]:3: note: `pending = 4` leaves this copy's group in flight: 3 newer group(s) are committed on queue 0 when it waits; `pending <= 3` completes it
// WEAK: check-hazards-merged-queues.mlir:[[# @LINE + 25]]:5: error: 'apipe.copy' op reads (as its source) a buffer region that an async copy may still be writing (read-after-write)
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 23]]:5: note: the async copy still in flight; 3 newer group(s) committed on queue 0 since its group
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 19]]:3: note: `pending = 4` leaves this copy's group in flight: 3 newer group(s) are committed on queue 0 when it waits; `pending <= 3` completes it
// WEAK: check-hazards-merged-queues.mlir:[[# @LINE + 20]]:5: error: 'apipe.copy' op overwrites a buffer region that an earlier async copy may still be reading (its source) (write-after-read)
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 20]]:5: note: the async copy still in flight; 4 newer group(s) committed on queue 0 since its group
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 16]]:3: note: `pending = 4` leaves this copy's group in flight: 3 newer group(s) are committed on queue 0 when it waits; `pending <= 3` completes it
// WEAK: check-hazards-merged-queues.mlir:[[# @LINE + 20]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 18]]:5: note: the async copy still in flight; 3 newer group(s) committed on queue 0 since its group
// WEAK-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 13]]:3: note: `pending = 4` leaves this copy's group in flight: 3 newer group(s) are committed on queue 0 when it waits; `pending <= 3` completes it
// WEAKQ: check-hazards-merged-queues.mlir:[[# @LINE + 17]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// WEAKQ-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 15]]:5: note: the async copy still in flight; 1 newer group(s) committed on queue 2 since its group
// WEAKQ-NEXT: check-hazards-merged-queues.mlir:[[# @LINE + 10]]:3: note: `pending = 2` leaves this copy's group in flight: 1 newer group(s) are committed on queue 2 when it waits; `pending <= 1` completes it
func.func @three_async_dynamic(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<4xf32>
  %buf2 = memref.alloc() : memref<4xf32>
  %buf3 = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %n step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64, apipe.order = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64, apipe.order = 2 : i64} : memref<64xf32> to memref<4xf32>
    apipe.copy %buf[%c0], %buf2[%c0], 4 {apipe.stage = 1 : i64, apipe.order = 3 : i64} : memref<4xf32> to memref<4xf32>
    apipe.copy %buf2[%c0], %buf3[%c0], 4 {apipe.stage = 2 : i64, apipe.order = 4 : i64} : memref<4xf32> to memref<4xf32>
    %x = memref.load %buf3[%c2] {apipe.stage = 4 : i64, apipe.order = 1 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 4 : i64, apipe.order = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0, 1, 2>}
  return
}
