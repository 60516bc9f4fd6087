// RUN: apipe-opt %s --split-input-file --verify-diagnostics --apipe-import-nvgpu

// numGroups = 2 leaves the waited group pending: only one group is
// committed after it. The count contradicts the token: a warning.
func.func @count_contradicts_token(%a: memref<64xf32>, %b: memref<8xf32, 3>, %i: index) {
  %t0 = nvgpu.device_async_copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, 3>
  // expected-note @+1 {{the waited group}}
  %g0 = nvgpu.device_async_create_group %t0
  %t1 = nvgpu.device_async_copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, 3>
  %g1 = nvgpu.device_async_create_group %t1
  // expected-warning @+1 {{'nvgpu.device_async_wait' op numGroups = 2 leaves the waited group pending: only 1 group is committed after it, so the count contradicts the token}}
  nvgpu.device_async_wait %g0 {numGroups = 2 : i32}
  // Consistent: one group after %g0, numGroups = 1 completes it.
  nvgpu.device_async_wait %g0 {numGroups = 1 : i32}
  return
}

// -----

// The same through an enclosing scf.if: zero groups after %g, numGroups = 1.
func.func @count_contradicts_token_in_if(%a: memref<64xf32>, %b: memref<8xf32, 3>, %i: index, %p: i1) {
  %t = nvgpu.device_async_copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, 3>
  // expected-note @+1 {{the waited group}}
  %g = nvgpu.device_async_create_group %t
  scf.if %p {
    // expected-warning @+1 {{numGroups = 1 leaves the waited group pending: only 0 groups are committed after it}}
    nvgpu.device_async_wait %g {numGroups = 1 : i32}
  }
  return
}

// -----

// In a loop: the group-distance analysis follows the tokens through
// iter_args. At the top of the loop only the group of %gb is newer than %ga,
// so numGroups = 2 does not complete %ga's group; the epilogue's
// numGroups = 1 on %r#0 and 0 on %r#1 are right and give no warning.
func.func @loop_count_contradicts_token(%A: memref<1024xf32>, %buf: memref<2x4xf32, 3>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = nvgpu.device_async_copy %A[%c0], %buf[%c0, %c0], 4 : memref<1024xf32> to memref<2x4xf32, 3>
  %g0 = nvgpu.device_async_create_group %t0
  %t1 = nvgpu.device_async_copy %A[%c0], %buf[%c1, %c0], 4 : memref<1024xf32> to memref<2x4xf32, 3>
  %g1 = nvgpu.device_async_create_group %t1
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%ga = %g0, %gb = %g1) -> (!nvgpu.device.async.token, !nvgpu.device.async.token) {
    // expected-warning @+1 {{numGroups = 2 leaves the waited group pending: only 1 group is committed after it, so the count contradicts the token}}
    nvgpu.device_async_wait %ga {numGroups = 2 : i32}
    %t = nvgpu.device_async_copy %A[%i], %buf[%c0, %c0], 4 : memref<1024xf32> to memref<2x4xf32, 3>
    %g = nvgpu.device_async_create_group %t
    scf.yield %gb, %g : !nvgpu.device.async.token, !nvgpu.device.async.token
  }
  nvgpu.device_async_wait %r#0 {numGroups = 1 : i32}
  nvgpu.device_async_wait %r#1 {numGroups = 0 : i32}
  return
}

// -----

// A group committed in one branch only: on the path through the else
// branch no group follows %g, so numGroups = 1 may leave it pending.
func.func @branch_count_contradicts_token(%a: memref<64xf32>, %b: memref<8xf32, 3>, %i: index, %p: i1) {
  %t = nvgpu.device_async_copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, 3>
  // expected-note @+1 {{the waited group}}
  %g = nvgpu.device_async_create_group %t
  scf.if %p {
    %u = nvgpu.device_async_copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, 3>
    %h = nvgpu.device_async_create_group %u
  }
  // expected-warning @+1 {{numGroups = 1 leaves the waited group pending: on some path only 0 groups are committed after it (0 to 1 over all paths), so the count contradicts the token}}
  nvgpu.device_async_wait %g {numGroups = 1 : i32}
  return
}

// -----

// A copy's token may only be grouped.
func.func @copy_token_waited(%a: memref<64xf32>, %b: memref<8xf32, 3>, %i: index) {
  // expected-note @+1 {{the copy}}
  %t = nvgpu.device_async_copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, 3>
  // expected-error @+1 {{'nvgpu.device_async_wait' op uses the token of a copy; only 'nvgpu.device_async_create_group' may}}
  nvgpu.device_async_wait %t
  return
}

// -----

// Tokens cannot cross function boundaries.
// expected-error @+1 {{'func.func' op has a !nvgpu.device.async.token argument: tokens cannot cross function boundaries}}
func.func @token_argument(%g: !nvgpu.device.async.token) {
  nvgpu.device_async_wait %g
  return
}

// -----

func.func private @sink(!nvgpu.device.async.token)

func.func @token_passed_to_call(%a: memref<64xf32>, %b: memref<8xf32, 3>, %i: index) {
  %t = nvgpu.device_async_copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, 3>
  %g = nvgpu.device_async_create_group %t
  // expected-error @+1 {{'func.call' op uses a !nvgpu.device.async.token value: only waits and scf control flow may}}
  func.call @sink(%g) : (!nvgpu.device.async.token) -> ()
  return
}

// -----

// A negative numGroups is an error at the wait, in the user's terms, with
// no warning before it that judges it against its token (trial 67:
// "numGroups = -1 leaves the waited group pending"; trial 88: the error
// named the attribute 'pending' of the apipe op it would become).
func.func @negative_count(%a: memref<64xf32>, %b: memref<8xf32, 3>, %i: index) {
  %t = nvgpu.device_async_copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, 3>
  %g = nvgpu.device_async_create_group %t
  // expected-error @+1 {{'nvgpu.device_async_wait' op numGroups = -1 is negative; it is the number of groups left pending (cp.async.wait_group N, N >= 0)}}
  nvgpu.device_async_wait %g {numGroups = -1 : i32}
  return
}
