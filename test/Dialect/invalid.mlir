// Every verifier error of the apipe dialect, one case per chunk.
// RUN: apipe-opt %s --split-input-file --verify-diagnostics

func.func @copy_elements_zero(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op attribute 'elements' must be positive, got 0}}
  apipe.copy %A[%i], %buf[%i], 0 : memref<64xf32> to memref<4xf32, 3>
  return
}

// -----

func.func @copy_elements_negative(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op attribute 'elements' must be positive, got -4}}
  apipe.copy %A[%i], %buf[%i], -4 : memref<64xf32> to memref<4xf32, 3>
  return
}

// -----

func.func @copy_elements_i32(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op attribute 'elements' failed to satisfy constraint: 64-bit signless integer attribute}}
  "apipe.copy"(%A, %buf, %i, %i) {elements = 4 : i32} : (memref<64xf32>, memref<4xf32, 3>, index, index) -> ()
  return
}

// -----

func.func @copy_too_few_indices(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op expected 2 indices (1 for memref<64xf32> and 1 for memref<4xf32, 3>), or 3 with src_elements, got 1}}
  "apipe.copy"(%A, %buf, %i) {elements = 4 : i64} : (memref<64xf32>, memref<4xf32, 3>, index) -> ()
  return
}

// -----

func.func @copy_too_many_indices(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op expected 2 indices (1 for memref<64xf32> and 1 for memref<4xf32, 3>), or 3 with src_elements, got 4}}
  "apipe.copy"(%A, %buf, %i, %i, %i, %i) {elements = 4 : i64} : (memref<64xf32>, memref<4xf32, 3>, index, index, index, index) -> ()
  return
}

// -----

func.func @copy_two_dimensional_too_few_indices(%A: memref<32x64xf16>, %buf: memref<2x16x8xf16, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op expected 5 indices (2 for memref<32x64xf16> and 3 for memref<2x16x8xf16, 3>), or 6 with src_elements, got 4}}
  "apipe.copy"(%A, %buf, %i, %i, %i, %i) {elements = 8 : i64} : (memref<32x64xf16>, memref<2x16x8xf16, 3>, index, index, index, index) -> ()
  return
}

// -----

func.func @copy_element_types_differ(%A: memref<64xf16>, %buf: memref<4xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op expected the same element type for src and dst, got f16 and f32}}
  apipe.copy %A[%i], %buf[%i], 4 : memref<64xf16> to memref<4xf32, 3>
  return
}

// -----

func.func @copy_rank_zero_src(%A: memref<f32>, %buf: memref<4xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op expected memrefs of rank >= 1 (it copies along the innermost dimension), got memref<f32> and memref<4xf32, 3>}}
  apipe.copy %A[], %buf[%i], 1 : memref<f32> to memref<4xf32, 3>
  return
}

// -----

func.func @copy_rank_zero_dst(%A: memref<64xf32>, %buf: memref<f32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op expected memrefs of rank >= 1 (it copies along the innermost dimension), got memref<64xf32> and memref<f32, 3>}}
  apipe.copy %A[%i], %buf[], 1 : memref<64xf32> to memref<f32, 3>
  return
}

// -----

func.func @copy_src_elements_above_elements(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c5 = arith.constant 5 : index
  // expected-error @+1 {{'apipe.copy' op src_elements must lie in [0, 4] (the 'elements' attribute), got 5}}
  apipe.copy %A[%i], %buf[%i], 4, %c5 : memref<64xf32> to memref<4xf32, 3>
  return
}

// -----

func.func @copy_src_elements_negative(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %cm1 = arith.constant -1 : index
  // expected-error @+1 {{'apipe.copy' op src_elements must lie in [0, 4] (the 'elements' attribute), got -1}}
  apipe.copy %A[%i], %buf[%i], 4, %cm1 : memref<64xf32> to memref<4xf32, 3>
  return
}

// -----

func.func @copy_elements_exceed_innermost_dst_dimension(%A: memref<64xf32>, %buf: memref<2x4xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op copies 8 elements but the innermost dimension of memref<2x4xf32, 3> has 4}}
  apipe.copy %A[%i], %buf[%i, %i], 8 : memref<64xf32> to memref<2x4xf32, 3>
  return
}

// -----

func.func @copy_elements_exceed_innermost_src_dimension(%A: memref<8x2xf32>, %buf: memref<4xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op reads 4 elements but the innermost dimension of memref<8x2xf32> has 2}}
  apipe.copy %A[%i, %i], %buf[%i], 4 : memref<8x2xf32> to memref<4xf32, 3>
  return
}

// -----

func.func @copy_src_elements_exceed_innermost_src_dimension(%A: memref<8x2xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{'apipe.copy' op reads 3 elements but the innermost dimension of memref<8x2xf32> has 2}}
  apipe.copy %A[%i, %i], %buf[%i], 4, %c3 : memref<8x2xf32> to memref<4xf32, 3>
  return
}

// -----

func.func @copy_reports_every_error(%A: memref<64xf16>, %buf: memref<4xf32, 3>, %i: index) {
  // expected-error @+3 {{'apipe.copy' op attribute 'elements' must be positive, got 0}}
  // expected-error @+2 {{'apipe.copy' op expected the same element type for src and dst, got f16 and f32}}
  // expected-error @+1 {{'apipe.copy' op attribute 'queue' must be non-negative, got -1}}
  apipe.copy %A[%i], %buf[%i], 0 queue -1 : memref<64xf16> to memref<4xf32, 3>
  return
}

// -----

func.func @copy_queue_negative(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op attribute 'queue' must be non-negative, got -1}}
  apipe.copy %A[%i], %buf[%i], 4 queue -1 : memref<64xf32> to memref<4xf32, 3>
  return
}

// -----

func.func @commit_group_queue_negative() {
  // expected-error @+1 {{'apipe.commit_group' op attribute 'queue' must be non-negative, got -1}}
  apipe.commit_group queue -1
  return
}

// -----

func.func @wait_group_queue_negative() {
  // expected-error @+1 {{'apipe.wait_group' op attribute 'queue' must be non-negative, got -2}}
  apipe.wait_group 0 queue -2
  return
}

// -----

func.func @ready_queue_negative() {
  // expected-error @+1 {{'apipe.ready' op attribute 'queue' must be non-negative, got -3}}
  %r = apipe.ready queue -3
  return
}

// -----

func.func @commit_group_queue_i32() {
  // expected-error @+1 {{'apipe.commit_group' op attribute 'queue' failed to satisfy constraint: 64-bit signless integer attribute}}
  "apipe.commit_group"() {queue = 1 : i32} : () -> ()
  return
}

// -----

func.func @commit_group_queue_string() {
  // expected-error @+1 {{'apipe.commit_group' op attribute 'queue' failed to satisfy constraint: 64-bit signless integer attribute}}
  %t = "apipe.commit_group"() {queue = "a"} : () -> !apipe.token
  return
}

// -----

func.func @wait_group_pending_negative() {
  // expected-error @+1 {{'apipe.wait_group' op attribute 'pending' must be non-negative, got -1}}
  apipe.wait_group -1
  return
}

// -----

func.func @wait_group_pending_i32() {
  // expected-error @+1 {{'apipe.wait_group' op attribute 'pending' failed to satisfy constraint: 64-bit signless integer attribute}}
  "apipe.wait_group"() {pending = 1 : i32} : () -> ()
  return
}

// -----

func.func @wait_without_tokens() {
  // expected-error @+1 {{'apipe.wait' op expected at least one !apipe.token operand}}
  "apipe.wait"() : () -> ()
  return
}

// -----

func.func @stage_negative(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %iv = %c0 to %n step %c1 {
    // expected-error @+1 {{'apipe.commit_group' op 'apipe.stage' must be non-negative, got -1}}
    apipe.commit_group {apipe.stage = -1 : i64}
  }
  return
}

// -----

func.func @stage_string(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %iv = %c0 to %n step %c1 {
    // expected-error @+1 {{'apipe.commit_group' op 'apipe.stage' must be an i64 integer, got "zero"}}
    apipe.commit_group {apipe.stage = "zero"}
  }
  return
}

// -----

func.func @stage_i32(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %iv = %c0 to %n step %c1 {
    // expected-error @+1 {{'arith.addi' op 'apipe.stage' must be an i64 integer, got 0 : i32}}
    %x = arith.addi %iv, %iv {apipe.stage = 0 : i32} : index
  }
  return
}

// -----

func.func @stage_outside_any_loop() {
  // expected-error @+1 {{'apipe.commit_group' op 'apipe.stage' annotates ops of an scf.for body, but the parent op is not scf.for}}
  apipe.commit_group {apipe.stage = 0 : i64}
  return
}

// -----

func.func @stage_in_if_inside_loop(%n: index, %b: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %iv = %c0 to %n step %c1 {
    scf.if %b {
      // expected-error @+1 {{'apipe.commit_group' op 'apipe.stage' annotates ops of an scf.for body, but the parent op is not scf.for}}
      apipe.commit_group {apipe.stage = 0 : i64}
    }
  }
  return
}

// -----

func.func @stage_in_while_body(%b: i1) {
  scf.while : () -> () {
    scf.condition(%b)
  } do {
    // expected-error @+1 {{'apipe.commit_group' op 'apipe.stage' annotates ops of an scf.for body, but the parent op is not scf.for}}
    apipe.commit_group {apipe.stage = 0 : i64}
    scf.yield
  }
  return
}

// -----

func.func @order_string(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %iv = %c0 to %n step %c1 {
    // expected-error @+1 {{'apipe.commit_group' op 'apipe.order' must be an i64 integer, got "first"}}
    apipe.commit_group {apipe.stage = 0 : i64, apipe.order = "first"}
  }
  return
}

// -----

func.func @async_stages_names_stage_without_ops(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op 'apipe.async_stages' names stage 2, but no op of the loop body has 'apipe.stage = 2'}}
  scf.for %iv = %c0 to %n step %c1 {
    apipe.commit_group {apipe.stage = 0 : i64}
  } {apipe.async_stages = array<i64: 0, 2>}
  return
}

// -----

func.func @async_stages_array_attribute(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op 'apipe.async_stages' must be an array<i64: ...>, got [0]}}
  scf.for %iv = %c0 to %n step %c1 {
    apipe.commit_group {apipe.stage = 0 : i64}
  } {apipe.async_stages = [0]}
  return
}

// -----

func.func @async_stages_array_of_i32(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op 'apipe.async_stages' must be an array<i64: ...>, got array<i32: 0>}}
  scf.for %iv = %c0 to %n step %c1 {
    apipe.commit_group {apipe.stage = 0 : i64}
  } {apipe.async_stages = array<i32: 0>}
  return
}

// -----

func.func @async_stages_on_scf_if(%b: i1) {
  // expected-error @+1 {{'scf.if' op 'apipe.async_stages' annotates an scf.for, not this op}}
  scf.if %b {
    apipe.commit_group
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// expected-error @+1 {{'func.func' op 'apipe.async_stages' annotates an scf.for, not this op}}
func.func @async_stages_on_func() attributes {apipe.async_stages = array<i64: 0>} {
  return
}

// -----

func.func @wait_group_without_pending() {
  // expected-error @+1 {{'apipe.wait_group' op requires attribute 'pending'}}
  "apipe.wait_group"() : () -> ()
  return
}

// -----

func.func @wait_on_index(%i: index) {
  // expected-error @+1 {{'apipe.wait' op operand #0 must be variadic of token naming a committed group, but got 'index'}}
  "apipe.wait"(%i) : (index) -> ()
  return
}

// -----

func.func @commit_group_index_result() {
  // expected-error @+1 {{'apipe.commit_group' op result #0 must be token naming a committed group, but got 'index'}}
  %x = "apipe.commit_group"() : () -> index
  return
}

// -----

func.func @unknown_apipe_op() {
  // expected-error @+1 {{unregistered operation 'apipe.frobnicate' found in dialect ('apipe') that does not allow unknown operations}}
  "apipe.frobnicate"() : () -> ()
  return
}

// -----

func.func @bypass_l1_not_unit(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  // expected-error @+1 {{'apipe.copy' op attribute 'bypass_l1' failed to satisfy constraint: unit attribute}}
  apipe.copy %A[%i], %buf[%i], 4 {bypass_l1 = 7 : i64} : memref<64xf32> to memref<4xf32, 3>
  return
}

// -----

func.func @stage_on_terminator(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group {apipe.stage = 0 : i64}
    // expected-error @+1 {{'scf.yield' op 'apipe.stage' annotates the ops of an scf.for body, not its terminator}}
    scf.yield {apipe.stage = 0 : i64}
  }
  return
}

// -----

// expected-error @+1 {{'builtin.module' op 'apipe.async_stages' annotates an scf.for, not this op}}
module attributes {apipe.async_stages = array<i64: 0>} {
}

// -----

// An apipe op directly in a gpu.module body, outside any function (a fuzzed
// input once crashed apipe-translate in LLVM with this).
gpu.module @kernels {
  // expected-error @+1 {{'apipe.commit_group' op must be inside a function body (func.func, gpu.func, llvm.func or a gpu.launch body): groups and waits belong to a running thread}}
  apipe.commit_group
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{'apipe.wait_group' op must be inside a function body}}
  apipe.wait_group 0
  gpu.func @k() kernel {
    gpu.return
  }
}

// -----

// expected-error @+1 {{'apipe.ready' op must be inside a function body}}
%t = apipe.ready

// -----

// A gpu.launch body is a function body (each thread's kernel): no error
// there; only the bad count after it is one.
func.func @in_launch(%n: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    apipe.commit_group
    apipe.wait_group 0
    gpu.terminator
  }
  // expected-error @+1 {{'apipe.wait_group' op attribute 'pending' must be non-negative, got -1}}
  apipe.wait_group -1
  return
}

// -----

// The custom form's counts are integers: `true` / `false`, which
// OpAsmParser::parseInteger reads as -1 / 0, are refused as the declarative
// formats of the other ops refuse them (`queue false` was queue 0; trial
// 75).
func.func @boolean_queue(%A: memref<64xf32>, %b: memref<4xf32, 3>, %i: index) {
  // expected-error @+1 {{custom op 'apipe.copy' expected an integer for 'queue', got a boolean}}
  apipe.copy %A[%i], %b[%i], 4 queue false : memref<64xf32> to memref<4xf32, 3>
  return
}

// -----

func.func @boolean_elements(%A: memref<64xf32>, %b: memref<4xf32, 3>, %i: index) {
  // expected-error @+1 {{custom op 'apipe.copy' expected an integer for 'elements', got a boolean}}
  apipe.copy %A[%i], %b[%i], true : memref<64xf32> to memref<4xf32, 3>
  return
}
