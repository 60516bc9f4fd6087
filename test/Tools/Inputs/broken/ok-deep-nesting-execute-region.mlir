func.func @f(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  scf.execute_region {
  "apipe.copy"(%A, %buf, %i, %c0) {elements = 4 : i64} : (memref<64xf32>, memref<4xf32, 3>, index, index) -> ()
  %t = "apipe.commit_group"() : () -> !apipe.token
  "apipe.wait"(%t) : (!apipe.token) -> ()
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  scf.yield
  }
  return
}
