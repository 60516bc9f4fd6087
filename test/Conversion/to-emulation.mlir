// RUN: apipe-opt %s --split-input-file --apipe-to-emulation | FileCheck %s

// Counting form: each op becomes a call with its id (pre-order) and queue;
// the copy passes its element size, count, -1 for "no src_elements", each
// memref after its rank (in host memory, through MLIR's C interface: a
// pointer to the descriptor, so no descriptor is built in the caller's
// frame), and its indices padded to rank 4 with zeros.
// CHECK-LABEL: module
// CHECK-DAG: func.func private @apipe_emu_wait_group(i64, i64, i64)
// CHECK-DAG: func.func private @apipe_emu_commit_group(i64, i64) -> i64
// CHECK-DAG: func.func private @apipe_emu_copy_0(i64, i64, i64, i64, i64, i64, memref<64xf32>, i64, memref<2x4xf32>, index, index, index, index, index, index, index, index) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @counting_form_calls(
// CHECK-SAME: %[[A:[^:]*]]: memref<64xf32>, %[[I:[^:]*]]: index)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<2x4xf32>
// An allocation that returns null stops the program (a located error):
// CHECK-NEXT: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK-NEXT: %[[NULLPTR:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[NULL:.*]] = arith.cmpi eq, %[[PTR]], %[[NULLPTR]] : index
// CHECK-NEXT: %[[ID3:.*]] = arith.constant 3 : i64
// CHECK-NEXT: scf.if %[[NULL]] {
// CHECK-NEXT: func.call @apipe_emu_check_failed(%[[ID3]]) : (i64) -> ()
// CHECK-NEXT: }
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : index
// No src_elements: the count is elements.
// CHECK-DAG: %[[SRC:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[ID0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[Q0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[BYTES:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[ELEMENTS:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[RANK1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[RANK2:.*]] = arith.constant 2 : i64
// CHECK: call @apipe_emu_copy_0(%[[ID0]], %[[Q0]], %[[BYTES]], %[[ELEMENTS]], %[[SRC]], %[[RANK1]], %[[A]], %[[RANK2]], %[[BUF]], %[[I]], %[[ZERO]], %[[ZERO]], %[[ZERO]], %[[C1]], %[[C0]], %[[ZERO]], %[[ZERO]])
// CHECK-NOT: memref.cast
// CHECK-DAG: %[[ID1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[Q1:.*]] = arith.constant 1 : i64
// CHECK: call @apipe_emu_commit_group(%[[ID1]], %[[Q1]]) : (i64, i64) -> i64
// CHECK-DAG: %[[ID2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[PENDING:.*]] = arith.constant 3 : i64
// CHECK: call @apipe_emu_wait_group(%[[ID2]], %{{.*}}, %[[PENDING]]) : (i64, i64, i64) -> ()
// CHECK-NOT: apipe.
// CHECK: return
func.func @counting_form_calls(%A: memref<64xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<2x4xf32, 3>
  apipe.copy %A[%i], %buf[%c1, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
  apipe.commit_group queue 1
  apipe.wait_group 3
  return
}

// -----

// Token form: tokens become i64 group ids, through scf.for iter_args and
// results; `ready` and `wait` become calls; a wait on two tokens waits on
// each.
// CHECK-LABEL: func.func @token_form_calls(
// CHECK: %[[T0:.*]] = call @apipe_emu_ready(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK: %[[LAST:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[PREV:.*]] = %[[T0]]) -> (i64) {
// CHECK: %[[T:.*]] = func.call @apipe_emu_commit_group(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK: func.call @apipe_emu_wait(%{{.*}}, %[[PREV]]) : (i64, i64) -> ()
// CHECK: scf.yield %[[T]] : i64
// CHECK: call @apipe_emu_wait(%{{.*}}, %[[LAST]]) : (i64, i64) -> ()
// CHECK-NEXT: arith.constant 3 : i64
// CHECK-NEXT: call @apipe_emu_wait(%{{.*}}, %[[T0]]) : (i64, i64) -> ()
// CHECK-NOT: apipe.token
func.func @token_form_calls() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t0 = apipe.ready
  %last = scf.for %j = %c0 to %c4 step %c1 iter_args(%prev = %t0) -> (!apipe.token) {
    %t = apipe.commit_group
    apipe.wait %prev
    scf.yield %t : !apipe.token
  }
  apipe.wait %last, %t0
  return
}

// -----

// One copy declaration per pair of memref types; a zero-filling copy passes
// src_elements as i64; a dealloc becomes the runtime call, which checks it
// against pending copies first and frees the buffer itself.
// CHECK-LABEL: func.func @copy_declarations_and_dealloc(
// CHECK-SAME: %[[N:[^:]*]]: index)
// CHECK: call @apipe_emu_copy_0(
// CHECK: %[[COUNT:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: call @apipe_emu_copy_1(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[COUNT]], %{{.*}}) : (i64, i64, i64, i64, i64, i64, memref<8xi8>, i64, memref<8xi8>
// CHECK: call @apipe_emu_copy_0(
// CHECK: call @apipe_emu_dealloc_0(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, memref<8xf32>) -> ()
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @copy_declarations_and_dealloc(%a: memref<8xf32>, %b: memref<8xi8>, %n: index) {
  %c0 = arith.constant 0 : index
  %fa = memref.alloc() : memref<8xf32>
  apipe.copy %a[%c0], %fa[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.copy %b[%c0], %b[%c0], 4, %n : memref<8xi8> to memref<8xi8>
  apipe.copy %a[%c0], %fa[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.dealloc %fa : memref<8xf32>
  return
}

// -----

// One host thread is emulated: barriers in host functions go away. A kernel
// becomes a host function with hidden arguments (its workgroup memory and 12
// ids), in which a barrier is a runtime call (its fiber waits for the block).
// CHECK-LABEL: func.func @host_barrier_is_erased(
// CHECK: call @apipe_emu_wait_group(
// CHECK-NEXT: return
// CHECK-LABEL: func.func @apipe_emu_k0_kernels_kernel_barrier(
// CHECK-SAME: memref<0xi8>, %{{[^:]*}}: index, %{{[^:]*}}: index{{.*}}memref<65xi64>
// CHECK: call @apipe_emu_barrier(
// CHECK-NEXT: return
// CHECK-NOT: gpu.
func.func @host_barrier_is_erased() {
  apipe.wait_group 0
  gpu.barrier
  return
}
gpu.module @kernels {
  gpu.func @kernel_barrier() kernel {
    gpu.barrier
    gpu.return
  }
}

// -----

// Memory spaces become host memory everywhere: values, signatures, globals.
// CHECK-LABEL: memref.global "private" @shared_tile : memref<4xf32> = uninitialized
// CHECK-LABEL: func.func @memory_spaces_become_host(
// CHECK-SAME: %{{.*}}: memref<4xf32>) -> memref<4xf32>
// CHECK: %[[G:.*]] = memref.get_global @shared_tile : memref<4xf32>
// CHECK: return %[[G]] : memref<4xf32>
memref.global "private" @shared_tile : memref<4xf32, 3> = uninitialized
func.func @memory_spaces_become_host(%a: memref<4xf32, 3>) -> memref<4xf32, 3> {
  %g = memref.get_global @shared_tile : memref<4xf32, 3>
  return %g : memref<4xf32, 3>
}

// -----

// A kernel becomes a public host function: its arguments, then its
// workgroup memory (memref<16xi8>: one 4xf32 attribution), 12 ids
// (thread, block, block size, grid size; x y z each) and the race
// checker's read cache (memref<65xi64>); the attribution is a
// view of that memory, the private attribution an alloca, gpu.thread_id y
// the second id; with an alloca (the private attribution), the return
// releases the thread's whole stack (apipe_emu_stack_release with the
// largest stack pointer). A launch passes each argument in 8-byte slots (a memref as
// pointer, pointer, offset, size, stride; an f32 by its bits), then the
// launch id, the kernel number and the grid and block sizes.
// CHECK-LABEL: func.func @apipe_emu_k0_m_k(
// CHECK-SAME: %{{[^:]*}}: memref<8xf32>, %{{[^:]*}}: f32, %[[SHARED:[^:]*]]: memref<16xi8>, %{{[^:]*}}: index, %[[TY:[^:]*]]: index, %{{[^:]*}}: index, {{.*}}: index, %{{[^:]*}}: memref<65xi64>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[VIEW:.*]] = memref.view %[[SHARED]][%[[C0]]][] : memref<16xi8> to memref<4xf32>
// CHECK: %[[PRIVATE:.*]] = memref.alloca() : memref<2xf32>
// CHECK: %[[X:.*]] = memref.load %[[VIEW]][%[[TY]]] : memref<4xf32>
// CHECK: memref.store %[[X]], %[[PRIVATE]][%[[TY]]] : memref<2xf32>
// CHECK-NEXT: %[[ID:.*]] = arith.constant {{[0-9]+}} : i64
// CHECK-NEXT: %[[ALL:.*]] = arith.constant 9223372036854775807 : i64
// CHECK-NEXT: call @apipe_emu_stack_release(%[[ID]], %[[ALL]]) : (i64, i64) -> ()
// CHECK-NEXT: return
// CHECK-LABEL: func.func @launch(
// CHECK-SAME: %[[A:[^:]*]]: memref<8xf32>, %[[S:[^:]*]]: f32, %[[N:[^:]*]]: index)
// CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %{{.*}}, %[[OFF:.*]], %[[SIZE:.*]], %[[STRIDE:.*]] = memref.extract_strided_metadata %[[A]]
// CHECK: %[[P64:.*]] = arith.index_cast %[[P]] : index to i64
// CHECK: call @apipe_emu_launch_argument(%[[P64]])
// CHECK-NEXT: call @apipe_emu_launch_argument(%[[P64]])
// CHECK-NEXT: call @apipe_emu_launch_argument(
// CHECK-NEXT: call @apipe_emu_launch_argument(
// CHECK-NEXT: call @apipe_emu_launch_argument(
// CHECK: %[[BITS:.*]] = arith.bitcast %[[S]] : f32 to i32
// CHECK: %[[SLOT:.*]] = arith.extui %[[BITS]] : i32 to i64
// CHECK: call @apipe_emu_launch_argument(%[[SLOT]])
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: call @apipe_emu_launch(%{{.*}}, %{{.*}}, %[[N64]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, i64, i64, i64) -> ()
// CHECK-NOT: gpu.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<8xf32>, %s: f32) workgroup(%w: memref<4xf32, 3>) private(%p: memref<2xf32, 5>) kernel {
      %t = gpu.thread_id y
      %x = memref.load %w[%t] : memref<4xf32, 3>
      memref.store %x, %p[%t] : memref<2xf32, 5>
      gpu.return
    }
  }
  func.func @launch(%a: memref<8xf32>, %s: f32, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@k blocks in (%n, %c1, %c1) threads in (%c1, %n, %c1) args(%a : memref<8xf32>, %s : f32)
    return
  }
}
