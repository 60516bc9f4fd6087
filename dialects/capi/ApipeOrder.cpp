//===- ApipeOrder.cpp - C API gap: the op before an op in its block -------===//
//
// The MLIR C API (LLVM 22) walks a block forwards only
// (`mlirOperationGetNextInBlock`). Passes that look at the ops just before
// an op (is a barrier right after a wait, is there a barrier between a loop
// and the accesses before it) had to walk its block from the start for each
// op they asked about: quadratic in a block of many loops. This forwards
// `Operation::getPrevNode`.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/Operation.h"

extern "C" {

/// The op before `op` in its block, or a null op if `op` is the first (or
/// in no block).
MlirOperation apipeOperationGetPrevInBlock(MlirOperation op) {
  mlir::Operation *operation = unwrap(op);
  if (!operation->getBlock())
    return wrap(static_cast<mlir::Operation *>(nullptr));
  return wrap(operation->getPrevNode());
}

} // extern "C"
