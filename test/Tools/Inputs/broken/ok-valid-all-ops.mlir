func.func @f(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  "apipe.copy"(%A, %buf, %i, %c0) {elements = 4 : i64} : (memref<64xf32>, memref<4xf32, 3>, index, index) -> ()
  "apipe.copy"(%A, %buf, %i, %c0, %i) {elements = 4 : i64, queue = 1 : i64, bypass_l1} : (memref<64xf32>, memref<4xf32, 3>, index, index, index) -> ()
  "apipe.commit_group"() : () -> ()
  %t = "apipe.commit_group"() {queue = 1 : i64} : () -> !apipe.token
  %r = "apipe.ready"() : () -> !apipe.token
  "apipe.wait_group"() {pending = 0 : i64} : () -> ()
  "apipe.wait"(%t, %r) : (!apipe.token, !apipe.token) -> ()
  return
}
