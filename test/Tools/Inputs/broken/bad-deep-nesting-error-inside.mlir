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
  "apipe.wait_group"() {pending = -1 : i64} : () -> ()
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
