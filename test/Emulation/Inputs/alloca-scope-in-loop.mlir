// The loop of stack-overflow.mlir's @alloca_in_loop with its body in a
// memref.alloca_scope: the stack is released each iteration.
func.func private @printI64(i64)

func.func private @first(%a: memref<1024xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %r = memref.load %a[%c0] : memref<1024xi64>
  return %r : i64
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 10000000 : index
  %z = arith.constant 0 : i64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> i64 {
    %t = memref.alloca_scope -> i64 {
      %a = memref.alloca() : memref<1024xi64>
      %ii = arith.index_cast %i : index to i64
      memref.store %ii, %a[%c0] : memref<1024xi64>
      %r = func.call @first(%a) : (memref<1024xi64>) -> i64
      %u = arith.addi %acc, %r : i64
      memref.alloca_scope.return %u : i64
    }
    scf.yield %t : i64
  }
  func.call @printI64(%s) : (i64) -> ()
  return
}

