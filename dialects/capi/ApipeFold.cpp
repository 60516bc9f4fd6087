//===- ApipeFold.cpp - C API gap: the constant an integer value folds to --===//
//
// The MLIR C API (LLVM 22) has no entry point to an op's folder
// (`Operation::fold`). Without it, apipe knew a value to be a constant only
// where an `arith.constant` defines it, and read `%n = arith.addi %c8,
// %c0`, `arith.muli %c4, %c4` or `affine.apply #map()[%c2]` as unknown: a
// loop of 16 iterations became one of unknown trip count, a ring's arrival
// count could not be evaluated, and the hazard checker flagged correct
// programs. This asks MLIR's own folders, as `mlir-opt --canonicalize`
// would, without changing the IR.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

/// The ops whose folders are asked: pure ops of `arith` and `index`, and
/// `affine.apply`, without regions. Their folders compute a result from
/// constant operands without touching the IR (an in-place fold, such as
/// `arith.cmpi` moving a constant operand to the right, happens only when
/// some operand is not constant, and folding is only asked when all are).
/// `affine.min` / `affine.max` are left out: their folders canonicalize the
/// map in place.
/// (`isPure` is asked last, once every operand folded: it is the costly
/// test, and most values asked about have an operand that is no constant.)
static bool isFoldable(mlir::Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  llvm::StringRef dialect = op->getName().getDialectNamespace();
  return dialect == "arith" || dialect == "index" ||
         op->getName().getStringRef() == "affine.apply";
}

/// The attribute `value` folds to, or null: a constant op's value, or the
/// fold of a foldable op whose operands all fold (at most `depth` ops
/// deep).
static mlir::Attribute foldToAttribute(mlir::Value value, unsigned depth) {
  mlir::Operation *op = value.getDefiningOp();
  if (!op)
    return {};
  if (op->hasTrait<mlir::OpTrait::ConstantLike>()) {
    mlir::Attribute constant;
    if (mlir::matchPattern(value, mlir::m_Constant(&constant)))
      return constant;
    return {};
  }
  if (depth == 0 || !isFoldable(op))
    return {};
  llvm::SmallVector<mlir::Attribute, 4> operands;
  for (mlir::Value operand : op->getOperands()) {
    mlir::Attribute folded = foldToAttribute(operand, depth - 1);
    if (!folded)
      return {};
    operands.push_back(folded);
  }
  if (!mlir::isPure(op))
    return {};
  llvm::SmallVector<mlir::OpFoldResult, 1> results;
  if (mlir::failed(op->fold(operands, results)) ||
      results.size() != op->getNumResults())
    return {};
  mlir::OpFoldResult result =
      results[llvm::cast<mlir::OpResult>(value).getResultNumber()];
  if (auto attribute = llvm::dyn_cast_if_present<mlir::Attribute>(result))
    return attribute;
  return foldToAttribute(llvm::cast<mlir::Value>(result), depth - 1);
}

extern "C" {

/// True if `value` folds to an integer constant of at most 64 bits (through
/// at most 8 ops); its value (sign-extended, zero-extended for an unsigned
/// type) goes to `*out`.
bool apipeValueFoldToInteger(MlirValue value, int64_t *out) {
  auto integer = llvm::dyn_cast_if_present<mlir::IntegerAttr>(
      foldToAttribute(unwrap(value), 8));
  if (!integer || integer.getValue().getBitWidth() > 64)
    return false;
  *out = integer.getType().isUnsignedInteger()
             ? static_cast<int64_t>(integer.getValue().getZExtValue())
             : integer.getValue().getSExtValue();
  return true;
}

} // extern "C"
