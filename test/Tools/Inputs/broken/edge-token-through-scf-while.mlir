func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = "apipe.ready"() : () -> !apipe.token
  %res:2 = scf.while (%k = %c0, %t = %r) : (index, !apipe.token) -> (index, !apipe.token) {
    %cond = arith.cmpi slt, %k, %n : index
    scf.condition(%cond) %k, %t : index, !apipe.token
  } do {
  ^bb0(%k2: index, %t2: !apipe.token):
    "apipe.wait"(%t2) : (!apipe.token) -> ()
    %t3 = "apipe.commit_group"() : () -> !apipe.token
    %k3 = arith.addi %k2, %c1 : index
    scf.yield %k3, %t3 : index, !apipe.token
  }
  "apipe.wait"(%res#1) : (!apipe.token) -> ()
  return
}
