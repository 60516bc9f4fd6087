// A fuzzed input: a forward reference resolved inside a case region, then
// a parse error (no default region). See ../opt-parse-error-cleanup.mlir.
func.func @f() {
  %1 = arith.addi %0, %0 : index
  scf.index_switch %1
  case 0 {
    %0 = arith.subi %1, %1 : index
  }
  return
}
