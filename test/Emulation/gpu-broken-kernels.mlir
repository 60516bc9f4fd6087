// Deliberately broken versions of the hand-pipelined example kernels fail
// under apipe-run: the race checker reports them (exit 1), and without it
// they print wrong values where the correct kernels print 0 mismatches
// (test/Emulation/gpu-sgemm.mlir, gpu-stream-sum.mlir).
//
// sgemm without its one barrier per iteration: the copies of tile kt + 2
// overwrite the version other threads still read (WAR), and threads read
// tiles other threads copied without a barrier (RAW).
// RUN: sed -e 's/arith.constant 128 : index/arith.constant 8 : index/' -e 's/2048/128/g' -e '/gpu.barrier/d' %apipe_root/examples/pipelined/sgemm.mlir > %t.nobarrier.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.nobarrier.kernel' %S/gpu-sgemm.mlir > %t.nobarrier.mlir
// RUN: not apipe-run %t.nobarrier.mlir 2>&1 | FileCheck %s --check-prefix=NOBARRIER
// NOBARRIER: error: race ({{RAW|WAR|WAW}}) on shared memory byte
// NOBARRIER: error: the kernel has races (see above)
// RUN: apipe-run %t.nobarrier.mlir --no-racecheck --schedule=reverse | FileCheck %s --check-prefix=WRONG
// WRONG: {{^[1-9][0-9]*, }}
//
// sgemm with a wait one too weak (pending = 2 leaves tile kt in flight).
// RUN: sed -e 's/arith.constant 128 : index/arith.constant 8 : index/' -e 's/2048/128/g' -e 's/apipe.wait_group 1$/apipe.wait_group 2/' %apipe_root/examples/pipelined/sgemm.mlir > %t.weak.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.weak.kernel' %S/gpu-sgemm.mlir > %t.weak.mlir
// RUN: not apipe-run %t.weak.mlir 2>&1 | FileCheck %s --check-prefix=WEAK
// WEAK: error: thread (0,0,0) of block (0,0,0) reads shared memory byte 0 {{.*}} that its own asynchronous copy still in flight writes: no wait completes the copy first
// RUN: apipe-run %t.weak.mlir --no-racecheck --completion=lazy | FileCheck %s --check-prefix=WRONG
//
// stream_sum without its second barrier: the next copy overwrites the
// version the neighbour still reads (WAR).
// RUN: sed -e 's/1048576/16384/g' -e 's/8192/128/g' %apipe_root/examples/pipelined/stream_sum.mlir | awk '/gpu.barrier/ { n++; if (n == 2) next } { print }' > %t.war.kernel
// RUN: sed -e '/^\/\/ @kernels$/r %t.war.kernel' %S/gpu-stream-sum.mlir > %t.war.mlir
// RUN: not apipe-run %t.war.mlir 2>&1 | FileCheck %s --check-prefix=WAR
// WAR: error: race (WAR) on shared memory byte
// RUN: apipe-run %t.war.mlir --no-racecheck --completion=eager --schedule=reverse | FileCheck %s --check-prefix=WRONG
