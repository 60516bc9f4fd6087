func.func @f() -> index {
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}
