// apipe-make-sync refuses tokens it cannot remove, and zero-fills of types
// without a zero, with a located error before it changes the IR.
// RUN: apipe-opt %s --split-input-file --allow-unregistered-dialect --apipe-make-sync --verify-diagnostics
// RUN: apipe-opt %s --split-input-file --allow-unregistered-dialect --pass-pipeline="builtin.module(func.func(apipe-make-sync))" --verify-diagnostics

func.func @token_returned_from_function() -> !apipe.token {
  %t = apipe.commit_group
  // expected-error @+1 {{'func.return' op uses an !apipe.token value: tokens cannot cross function boundaries}}
  return %t : !apipe.token
}

// -----

// expected-error @+1 {{'func.func' op has an !apipe.token argument: tokens cannot cross function boundaries}}
func.func @token_function_argument_waited_on(%t: !apipe.token) {
  apipe.wait %t
  return
}

// -----

func.func private @takes_token(!apipe.token)

func.func @token_passed_to_call() {
  %t = apipe.commit_group
  // expected-error @+1 {{'func.call' op uses an !apipe.token value: tokens cannot cross function boundaries}}
  func.call @takes_token(%t) : (!apipe.token) -> ()
  return
}

// -----

func.func @token_stored_by_unregistered_op(%m: memref<1xi64>) {
  %t = apipe.commit_group
  // expected-error @+1 {{'test.store_token' op uses an !apipe.token value: tokens may only be used by apipe.wait and structured control flow (scf)}}
  "test.store_token"(%t, %m) : (!apipe.token, memref<1xi64>) -> ()
  return
}

// -----

func.func @token_made_by_unregistered_op() {
  // expected-error @+1 {{'test.make_token' op produces an !apipe.token value that cannot be removed}}
  %t = "test.make_token"() : () -> !apipe.token
  apipe.wait %t
  return
}

// -----

func.func @token_selected(%b: i1) {
  %t = apipe.commit_group
  %r = apipe.ready
  // expected-error @+2 {{'arith.select' op uses an !apipe.token value: tokens may only be used by apipe.wait and structured control flow (scf)}}
  // expected-error @+1 {{'arith.select' op produces an !apipe.token value that cannot be removed}}
  %s = arith.select %b, %t, %r : !apipe.token
  apipe.wait %s
  return
}

// -----

func.func @zero_fill_of_complex(%A: memref<64xcomplex<f32>>, %buf: memref<4xcomplex<f32>, 3>, %i: index, %n: index) {
  // expected-error @+1 {{'apipe.copy' op cannot zero-fill elements of type complex<f32>}}
  apipe.copy %A[%i], %buf[%i], 4, %n : memref<64xcomplex<f32>> to memref<4xcomplex<f32>, 3>
  return
}

// -----

// Every problem of a function is reported, not just the first.
func.func @two_problems(%A: memref<64xcomplex<f32>>, %buf: memref<4xcomplex<f32>, 3>, %i: index, %n: index) -> !apipe.token {
  // expected-error @+1 {{'apipe.copy' op cannot zero-fill elements of type complex<f32>}}
  apipe.copy %A[%i], %buf[%i], 4, %n : memref<64xcomplex<f32>> to memref<4xcomplex<f32>, 3>
  %t = apipe.commit_group
  // expected-error @+1 {{'func.return' op uses an !apipe.token value: tokens cannot cross function boundaries}}
  return %t : !apipe.token
}
