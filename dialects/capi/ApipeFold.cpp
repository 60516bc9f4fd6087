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
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

/// The ops whose folders are asked: ops of `arith` and `index` without
/// regions or memory effects (a division is one: its folder declines a zero
/// divisor, as `--canonicalize` does), and `affine.apply`, `affine.min` and
/// `affine.max`. Their folders compute a result from constant operands
/// without touching the IR: an in-place fold (`arith.cmpi` moving a constant
/// operand to the right, `affine.min` simplifying its map) happens only when
/// some operand or map result is not constant, and folding is asked only
/// when every operand is (and, for `affine.min` / `affine.max`, when every
/// result of the map folds: [`mapFolds`]).
static bool isFoldable(mlir::Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  llvm::StringRef name = op->getName().getStringRef();
  llvm::StringRef dialect = op->getName().getDialectNamespace();
  return dialect == "arith" || dialect == "index" || name == "affine.apply" ||
         name == "affine.min" || name == "affine.max";
}

/// True unless `op` is an `affine.min` / `affine.max` whose map does not
/// fold to constants on `operands` (its folder would then rewrite the map in
/// place).
static bool mapFolds(mlir::Operation *op,
                     llvm::ArrayRef<mlir::Attribute> operands) {
  llvm::StringRef name = op->getName().getStringRef();
  if (name != "affine.min" && name != "affine.max")
    return true;
  auto map = op->getAttrOfType<mlir::AffineMapAttr>("map");
  llvm::SmallVector<mlir::Attribute, 4> results;
  return map && mlir::succeeded(map.getValue().constantFold(operands, results));
}

/// The folds of one query: each value asked at most once (a chain that
/// uses a value twice, `%b = %a + %a`, costs one visit per op, not one per
/// path).
using Memo = llvm::DenseMap<mlir::Value, mlir::Attribute>;

/// The attribute `value` folds to, or null: a constant op's value, or the
/// fold of a foldable op whose operands all fold (at most `depth` ops
/// deep).
static mlir::Attribute foldToAttribute(mlir::Value value, unsigned depth,
                                       Memo &memo) {
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
  auto known = memo.find(value);
  if (known != memo.end())
    return known->second;
  memo[value] = {};
  llvm::SmallVector<mlir::Attribute, 4> operands;
  for (mlir::Value operand : op->getOperands()) {
    mlir::Attribute folded = foldToAttribute(operand, depth - 1, memo);
    if (!folded)
      return {};
    operands.push_back(folded);
  }
  // Asked last, once every operand folded: the costly tests.
  if (!mlir::isMemoryEffectFree(op) || !mapFolds(op, operands))
    return {};
  llvm::SmallVector<mlir::OpFoldResult, 1> results;
  if (mlir::failed(op->fold(operands, results)) ||
      results.size() != op->getNumResults())
    return {};
  mlir::OpFoldResult result =
      results[llvm::cast<mlir::OpResult>(value).getResultNumber()];
  mlir::Attribute folded = llvm::dyn_cast_if_present<mlir::Attribute>(result);
  if (!folded)
    folded = foldToAttribute(llvm::cast<mlir::Value>(result), depth - 1, memo);
  memo[value] = folded;
  return folded;
}

extern "C" {

/// True if `value` folds to an integer constant of at most 64 bits (through
/// at most 32 ops); its value (sign-extended, zero-extended for an unsigned
/// type) goes to `*out`.
bool apipeValueFoldToInteger(MlirValue value, int64_t *out) {
  Memo memo;
  auto integer = llvm::dyn_cast_if_present<mlir::IntegerAttr>(
      foldToAttribute(unwrap(value), 32, memo));
  if (!integer || integer.getValue().getBitWidth() > 64)
    return false;
  *out = integer.getType().isUnsignedInteger()
             ? static_cast<int64_t>(integer.getValue().getZExtValue())
             : integer.getValue().getSExtValue();
  return true;
}

} // extern "C"
