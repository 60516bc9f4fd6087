// apipe-software-pipeline refuses loops it cannot pipeline with a located
// error, before it changes the IR.
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline="sync=tokens" --verify-diagnostics

func.func @op_without_stage(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    // expected-error @+1 {{'memref.load' op in a pipelined loop has no 'apipe.stage'}}
    %x = memref.load %buf[%c1] : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

func.func @negative_stage(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  // expected-error @+1 {{'apipe.async_stages' names stage 0, but no op of the loop body has 'apipe.stage = 0'}}
  scf.for %i = %c0 to %c16 step %c1 {
    // expected-error @+1 {{'apipe.copy' op 'apipe.stage' must be non-negative, got -1}}
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = -1 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

func.func @value_used_before_produced(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 1 : i64} : index
    // expected-error @+1 {{'apipe.copy' op in stage 0 uses a value that stage 1 produces}}
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

func.func @side_effect_in_async_stage(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %f = arith.constant 1.0 : f32
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    // expected-error @+1 {{'memref.store' op may write, allocate or free memory and is in async stage 0; only 'apipe.copy' and ops that at most read memory may be}}
    memref.store %f, %out[%i] {apipe.stage = 0 : i64} : memref<16xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

func.func private @effect(index)

func.func @call_cannot_move(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    // expected-error @+1 {{'func.call' op cannot be moved by the pipeliner: a call may have side effects (calls are refused in every stage; inline the callee first, e.g. run 'inline' before this pass)}}
    func.call @effect(%i) {apipe.stage = 1 : i64} : (index) -> ()
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// An llvm.call too (it may commit or wait, or touch the tiles through a
// global), in an unannotated loop scheduled from num-stages.
llvm.func @side()

func.func @llvm_call_cannot_move(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    apipe.copy %A[%i], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    // expected-error @+1 {{'llvm.call' op cannot be moved by the pipeliner: a call may have side effects (calls are refused in every stage; inline the callee first, e.g. run 'inline' before this pass)}}
    llvm.call @side() : () -> ()
    %x = memref.load %buf[%c1] : memref<4xf32, 3>
    memref.store %x, %out[%i] : memref<16xf32>
  } {apipe.num_stages = 3 : i64}
  return
}

// -----

func.func @async_stage_without_copy(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  // expected-error @+1 {{'apipe.async_stages' names stage 1, which has no 'apipe.copy'}}
  scf.for %i = %c0 to %c16 step %c1 {
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %j = arith.addi %i, %c1 {apipe.stage = 1 : i64} : index
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0, 1>}
  return
}

// -----

func.func @buffer_is_function_argument(%A: memref<64xf32> {llvm.noalias}, %buf: memref<4xf32, 3> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    // expected-error @+1 {{buffer written by an async copy is a function argument and cannot be re-allocated for multi-buffering (2 versions needed)}}
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A workgroup attribution of gpu.launch is named as such (trial 14: the
// message called it a function argument), with the two ways out.
func.func @buffer_is_launch_attribution(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) workgroup(%buf : memref<4xf32, 3>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      // expected-error @+1 {{buffer written by an async copy is a workgroup attribution of 'gpu.launch', which multi-buffering cannot re-allocate (2 versions needed); allocate it with memref.alloc in memory space 3 inside the launch body, or outline the launch (gpu-kernel-outlining) so that it becomes a gpu.func workgroup attribution}}
      apipe.copy %A[%i], %buf[%tx], 1 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
      gpu.barrier {apipe.stage = 1 : i64}
      %x = memref.load %buf[%tx] {apipe.stage = 1 : i64} : memref<4xf32, 3>
      memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
      gpu.barrier {apipe.stage = 1 : i64}
    } {apipe.async_stages = array<i64: 0>}
    gpu.terminator
  }
  return
}

// -----

// Ping-pong buffers rotated through iter_args: the copy's buffer is an
// iter_arg, a different allocation in each iteration. Named as such, not
// as a function argument.
func.func @buffer_is_iter_arg(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %b0 = memref.alloc() : memref<4xf32, 3>
  %b1 = memref.alloc() : memref<4xf32, 3>
  %r:2 = scf.for %i = %c0 to %c16 step %c1 iter_args(%cur = %b0, %next = %b1) -> (memref<4xf32, 3>, memref<4xf32, 3>) {
    // expected-error @+1 {{buffer written by an async copy is a block argument of 'scf.for' (an iter_arg or region argument), which may name another buffer in each iteration: it cannot be multi-buffered (2 versions needed); copy into a buffer allocated before the loop}}
    apipe.copy %A[%i], %cur[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %cur[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
    // expected-error @+2 {{'scf.yield' op operand #0 is not a result of an op of the loop body}}
    // expected-error @+1 {{'scf.yield' op operand #1 is not a result of an op of the loop body}}
    scf.yield %next, %cur : memref<4xf32, 3>, memref<4xf32, 3>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

func.func @read_in_the_copy_stage(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  %local = memref.alloca() : memref<4xf32, 5>
  scf.for %i = %c0 to %c16 step %c1 {
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    // expected-error @+1 {{'apipe.copy' op in stage 0 accesses (reads or writes) a buffer that async stage 0 writes; it must be in a later stage than the copy}}
    apipe.copy %buf[%c0], %local[%c0], 4 {apipe.stage = 0 : i64} : memref<4xf32, 3> to memref<4xf32, 5>
    %x = memref.load %local[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 5>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A store into the copy's destination buffer (elements the copy does not
// write) in a stage before the copy's: refused, and said as a write.
func.func @write_before_the_copy_stage(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %tile = memref.alloc() : memref<8xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    apipe.copy %A[%i], %tile[%c0], 4 {apipe.stage = 1 : i64} : memref<64xf32> to memref<8xf32, 3>
    // expected-error @+1 {{'memref.store' op in stage 0 accesses (reads or writes) a buffer that async stage 1 writes; it must be in a later stage than the copy}}
    memref.store %f, %tile[%c4] {apipe.stage = 0 : i64} : memref<8xf32, 3>
    %x = memref.load %tile[%c0] {apipe.stage = 2 : i64} : memref<8xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 1>}
  return
}

// -----

func.func @iter_arg_read_two_stages_before_its_yield(%A: memref<64xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<4xf32, 3>
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    // expected-error @+1 {{'arith.mulf' op in stage 0 reads an iter_arg that stage 2 yields}}
    %a = arith.mulf %acc, %acc {apipe.stage = 0 : i64} : f32
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32, 3>
    %s = arith.addf %a, %x {apipe.stage = 2 : i64} : f32
    scf.yield %s : f32
  } {apipe.async_stages = array<i64: 0>}
  return %r : f32
}

// -----

func.func @iter_arg_read_before_its_yield_in_the_same_time_step(%A: memref<64xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<4xf32, 3>
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    // expected-error @+1 {{'arith.addf' op in stage 1 reads an iter_arg that the next stage yields in the same time step; it must be ordered (apipe.order) after the op that yields it}}
    %a = arith.addf %acc, %x {apipe.stage = 1 : i64} : f32
    %s = arith.mulf %a, %a {apipe.stage = 2 : i64} : f32
    scf.yield %s : f32
  } {apipe.async_stages = array<i64: 0>}
  return %r : f32
}

// -----

func.func @iter_arg_yields_a_value_from_outside(%A: memref<64xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<4xf32, 3>
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %buf[%c0] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    // expected-error @+1 {{'scf.yield' op operand #0 is not a result of an op of the loop body; the pipeliner carries only values that a stage computes}}
    scf.yield %zero : f32
  } {apipe.async_stages = array<i64: 0>}
  return %r : f32
}

// -----

// Both loops of a nest are annotated: only the inner one is pipelined, and a
// remark says so on the outer one.
func.func @nested_annotated_loops(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  // expected-remark @+1 {{loop not pipelined: a nested loop is annotated too; only the innermost annotated loop is pipelined}}
  scf.for %o = %c0 to %c2 step %c1 {
    scf.for %i = %c0 to %c16 step %c1 {
      apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
      %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
      memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
    } {apipe.async_stages = array<i64: 0>, apipe.stage = 0 : i64}
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

func.func @ordered_before_its_operand(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64, apipe.order = 1 : i64} : index
    // expected-error @+1 {{'apipe.copy' op is ordered (apipe.order) before the op of the same stage that produces its operand}}
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64, apipe.order = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64, apipe.order = 2 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64, apipe.order = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

func.func @missing_order(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64, apipe.order = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    // expected-error @+1 {{'memref.load' op has no 'apipe.order' but other ops of the loop do}}
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64, apipe.order = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

func.func @buffer_used_after_the_loop(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  // expected-error @+1 {{buffer is multi-buffered by the pipelined loop and cannot be used outside it (except by memref.dealloc); give each loop a buffer of its own (one memref.alloc per loop)}}
  %last = memref.load %buf[%c0] : memref<4xf32, 3>
  return %last : f32
}

// -----

func.func @stage_too_large(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    // expected-error @+1 {{'memref.load' op has 'apipe.stage' = 9223372036854775807; the pipeliner supports stages up to 64}}
    %x = memref.load %buf[%c1] {apipe.stage = 9223372036854775807 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

func.func @copy_in_unlisted_stage(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    // expected-error @+1 {{'apipe.copy' op is in stage 0, which 'apipe.async_stages' does not list: it would stay asynchronous with no commit or wait; list stage 0 in 'apipe.async_stages'}}
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  }
  return
}

// -----

func.func @synchronous_write_read_later(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  %prev = memref.alloc() : memref<1xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    // The value of the previous iteration, through memory: no versions.
    // expected-note @+1 {{the 'memref.load' op of iteration i + 1}}
    %p = memref.load %prev[%c0] {apipe.stage = 1 : i64} : memref<1xf32>
    %y = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32, 3>
    // expected-error @+1 {{'memref.store' op in stage 2 writes memory that 'memref.load' op in stage 1 reads 1 iteration later: the pipelined schedule does not keep this loop-carried read-after-write dependence (iteration distance 1); change the stages (apipe.stage) or the order (apipe.order) so that the second access stays after the first}}
    memref.store %y, %prev[%c0] {apipe.stage = 2 : i64} : memref<1xf32>
    %z = arith.addf %p, %y {apipe.stage = 2 : i64} : f32
    memref.store %z, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

func.func @i32_induction_variable(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %n = arith.constant 16 : i32
  %buf = memref.alloc() : memref<4xf32, 3>
  // expected-error @+1 {{the pipeliner needs an 'index' induction variable, got i32}}
  scf.for %i = %z to %n step %one : i32 {
    %j = arith.index_cast %i {apipe.stage = 0 : i64} : i32 to index
    apipe.copy %A[%j], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%j] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A warning, not an error: the copy runs only in some iterations, and the
// reader does not sit under the same condition.
func.func @conditional_copy_into_versions(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    %r = arith.remui %i, %c2 {apipe.stage = 0 : i64} : index
    %even = arith.cmpi eq, %r, %c0 {apipe.stage = 0 : i64} : index
    scf.if %even {
      // expected-error @+1 {{'apipe.copy' op writes its buffer under a condition and the buffer would get 2 versions}}
      apipe.copy %A[%i], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
    } {apipe.stage = 0 : i64}
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A write to the copied buffer through another view (a subview made in the
// loop): refused, the versions would not follow it.
func.func @view_writer(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %f = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    // expected-note @+1 {{the copy}}
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<8xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<8xf32>
    %sv = memref.subview %buf[4] [4] [1] {apipe.stage = 1 : i64} : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
    // expected-error @+1 {{'memref.store' op accesses a buffer that an async copy writes (or one that may alias it) through another value}}
    memref.store %f, %sv[%c0] {apipe.stage = 1 : i64} : memref<4xf32, strided<[1], offset: 4>>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}
