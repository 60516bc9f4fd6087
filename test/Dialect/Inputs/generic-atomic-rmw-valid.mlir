// One index per dimension: accepted (see ../upstream-verifier-gaps.mlir).
func.func @ok(%a: memref<3x4xi32>, %i: index, %j: index) -> i32 {
  %x = memref.generic_atomic_rmw %a[%i, %j] : memref<3x4xi32> {
  ^bb0(%cur: i32):
    memref.atomic_yield %cur : i32
  }
  return %x : i32
}
