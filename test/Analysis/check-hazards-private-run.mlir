// Thread-private buffers in a kernel: a memref.alloca (a thread's own stack
// frame, PTX .local) and memory in #gpu.address_space<private>. Each thread
// copies into its own; another thread's copy is other memory, so the
// checker reports no write-after-write between threads (it did), and
// apipe-run agrees. The same-thread hazard stays: reading the private
// buffer before the wait (@broken) is reported.
// RUN: apipe-opt %s --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-run %s --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU --implicit-check-not=error:
// EMU-COUNT-4: [101,  102,  103,  104,  105,  106,  107,  108]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%A: memref<64xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      %p = memref.alloca() : memref<1xf32>
      %q = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
      apipe.copy %A[%tid], %p[%c0], 1 : memref<64xf32> to memref<1xf32>
      %t1 = arith.addi %tid, %c1 : index
      apipe.copy %A[%t1], %q[%c0], 1 : memref<64xf32> to memref<1xf32, #gpu.address_space<private>>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %p[%c0] : memref<1xf32>
      %y = memref.load %q[%c0] : memref<1xf32, #gpu.address_space<private>>
      %s = arith.addf %x, %y : f32
      %r = arith.subf %s, %x : f32
      %u = arith.addf %r, %one : f32
      %v = arith.subf %u, %one : f32
      memref.store %v, %out[%tid] : memref<8xf32>
      gpu.return
    }
    gpu.func @broken(%A: memref<64xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %p = memref.alloca() : memref<1xf32>
      // expected-note @+2 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
      // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
      apipe.copy %A[%tid], %p[%c0], 1 : memref<64xf32> to memref<1xf32>
      apipe.commit_group
      // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)}}
      %x = memref.load %p[%c0] : memref<1xf32>
      apipe.wait_group 0
      memref.store %x, %out[%tid] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c100 = arith.constant 100.0 : f32
    %A = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      %g = arith.addf %f, %c100 : f32
      memref.store %g, %A[%i] : memref<64xf32>
    }
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<64xf32>, %out : memref<8xf32>)
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func @main_broken() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@broken blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<64xf32>, %out : memref<8xf32>)
    return
  }
}
