// An op directly in a module's body that is not a module-level op (a
// symbol, a nested module) has no function to run in. MLIR's verifier
// accepts it, but the LLVM translation made it a parentless instruction:
// apipe-run failed with an unlocated "the JIT could not compile the lowered
// module" (a fuzzed input) and apipe-translate with "cannot translate the
// lowered gpu.module", or dropped the op. Both refuse it with a located
// error before lowering. apipe-opt, which runs no code, keeps it.
//
// RUN: not apipe-run %s 2>&1 | FileCheck %s --check-prefixes=CHECK,HOST --implicit-check-not=error
// RUN: not apipe-translate %s --sm=80 -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,HOST --implicit-check-not=error
// RUN: apipe-opt %s -o /dev/null

module attributes {gpu.container_module} {
  func.func private @printNewline()
  func.func @main() {
    return
  }
  // HOST: module-scope-ops.mlir:[[@LINE+1]]:3: error: 'func.call' op must be inside a function body: an op directly in a 'builtin.module' has no function to run in
  func.call @printNewline() : () -> ()
  gpu.module @kernels {
    // CHECK: module-scope-ops.mlir:[[@LINE+1]]:10: error: 'arith.constant' op must be inside a function body: an op directly in a 'gpu.module' has no function to run in
    %c = arith.constant 1 : index
    gpu.func @k(%p: memref<4xf32>) kernel {
      gpu.return
    }
    func.func private @g()
    // CHECK: module-scope-ops.mlir:[[@LINE+1]]:5: error: 'func.call' op must be inside a function body: an op directly in a 'gpu.module' has no function to run in
    func.call @g() : () -> ()
  }
}
