// A pipelined kernel (5 stages, no stage annotations, a dynamic trip count)
// under an outer loop of 2 iterations: the pipeliner's small trip counts get
// an `scf.index_switch` of prologues and epilogues, and the empty case 0
// passes on what the others leave. Inputs/switch-prologue-kernel.mlir is the
// pipeliner's output with the barrier at the end of case 1 removed (a
// mutant of the differential test): that barrier is redundant, since each
// case of the next outer iteration begins with one, and apipe-run's race
// checker passes it. The reads left after case 1 crossed the outer back
// edge through case 0; the outer fixed point took 7 rounds to summarise
// them, spent the checker's work budget, widened everything and reported 39
// false read-after-write errors. Now the reads that cross a back edge again
// are summarised from the second round, and reads no longer count against
// the budget in the rounds' cost.
// RUN: apipe-opt %S/Inputs/switch-prologue-kernel.mlir --apipe-check-hazards -o /dev/null
//
// Its racy twin: the barrier between the kernel loop's wait and its reads
// (line 590 of the input) removed; each thread reads elements that other
// threads copied.
// RUN: sed '590d' %S/Inputs/switch-prologue-kernel.mlir | not apipe-opt --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// CHECK: <stdin>:592:18: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
