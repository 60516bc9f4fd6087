// Functions converted in parallel (nested under func.func, MLIR's thread
// pool): the passes read no sibling function and print no op (melior's
// out-of-range accessors print the module into their error, which raced
// with the sibling conversions and crashed).
// RUN: apipe-opt %s --pass-pipeline='builtin.module(func.func(apipe-counting-to-tokens,apipe-tokens-to-counting{strict=true}))' | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(func.func(apipe-counting-to-tokens),apipe-merge-queues)' | FileCheck %s

// CHECK-COUNT-12: apipe.wait_group 1{{$}}
// CHECK-NOT: apipe.token

func.func @double_buffer_0(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group
    apipe.wait_group 1
  }
  apipe.wait_group 0
  return
}

func.func @double_buffer_1(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group
    apipe.wait_group 1
  }
  apipe.wait_group 0
  return
}

func.func @double_buffer_2(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group
    apipe.wait_group 1
  }
  apipe.wait_group 0
  return
}

func.func @double_buffer_3(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group
    apipe.wait_group 1
  }
  apipe.wait_group 0
  return
}

func.func @double_buffer_4(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group
    apipe.wait_group 1
  }
  apipe.wait_group 0
  return
}

func.func @double_buffer_5(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group
    apipe.wait_group 1
  }
  apipe.wait_group 0
  return
}

func.func @double_buffer_6(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group
    apipe.wait_group 1
  }
  apipe.wait_group 0
  return
}

func.func @double_buffer_7(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group
    apipe.wait_group 1
  }
  apipe.wait_group 0
  return
}

func.func @double_buffer_8(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group
    apipe.wait_group 1
  }
  apipe.wait_group 0
  return
}

func.func @double_buffer_9(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group
    apipe.wait_group 1
  }
  apipe.wait_group 0
  return
}

func.func @double_buffer_10(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group
    apipe.wait_group 1
  }
  apipe.wait_group 0
  return
}

func.func @double_buffer_11(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group
    apipe.wait_group 1
  }
  apipe.wait_group 0
  return
}
