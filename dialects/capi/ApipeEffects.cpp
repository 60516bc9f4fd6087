//===- ApipeEffects.cpp - C API gaps for memory effects and views ---------===//
//
// The MLIR C API (LLVM 22) cannot ask an op what memory it reads and writes
// (`MemoryEffectOpInterface`), whether its effects are those of its regions
// (`HasRecursiveMemoryEffects`), or which buffer a view op is a view of
// (`ViewLikeOpInterface`). The hazard checker and the pipeliner's dependence
// test need all three to learn an op's accesses from MLIR instead of from
// lists of op names. These entry points only forward the interface answers;
// the interpretation (views to root buffers, index regions) is in Rust.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

extern "C" {

/// One memory effect of an op, as the C side sees it.
typedef struct {
  /// 0 read, 1 write, 2 allocate, 3 free, 4 any other effect.
  int kind;
  /// The value the effect is on (an operand or a result); null if the effect
  /// is on no particular value.
  MlirValue value;
  /// True if the effect is on `DefaultResource` (memory in general); false
  /// for a dialect-specific resource (e.g. the alloca scope).
  bool defaultResource;
} ApipeMemoryEffect;

/// `status` bit: the op implements `MemoryEffectOpInterface` (its effects
/// were listed).
static const int kHasInterface = 1;
/// `status` bit: the op has `HasRecursiveMemoryEffects` (its regions' ops
/// add their effects to its own).
static const int kRecursive = 2;

/// Lists the memory effects of `op` into `out` (at most `capacity` entries)
/// and returns how many there are (call again with a larger buffer if that
/// is more than `capacity`). `*status` receives the bits above.
intptr_t apipeOperationGetMemoryEffects(MlirOperation op,
                                        ApipeMemoryEffect *out,
                                        intptr_t capacity, int *status) {
  mlir::Operation *operation = unwrap(op);
  *status = 0;
  if (operation->hasTrait<mlir::OpTrait::HasRecursiveMemoryEffects>())
    *status |= kRecursive;
  auto interface = llvm::dyn_cast<mlir::MemoryEffectOpInterface>(operation);
  if (!interface)
    return 0;
  *status |= kHasInterface;
  llvm::SmallVector<mlir::MemoryEffects::EffectInstance, 4> effects;
  interface.getEffects(effects);
  intptr_t count = 0;
  for (const mlir::MemoryEffects::EffectInstance &effect : effects) {
    if (count < capacity) {
      mlir::MemoryEffects::Effect *kind = effect.getEffect();
      out[count].kind = llvm::isa<mlir::MemoryEffects::Read>(kind)       ? 0
                        : llvm::isa<mlir::MemoryEffects::Write>(kind)    ? 1
                        : llvm::isa<mlir::MemoryEffects::Allocate>(kind) ? 2
                        : llvm::isa<mlir::MemoryEffects::Free>(kind)     ? 3
                                                                          : 4;
      out[count].value = wrap(effect.getValue());
      out[count].defaultResource =
          effect.getResource() == mlir::SideEffects::DefaultResource::get();
    }
    ++count;
  }
  return count;
}

/// The buffer `op` is a view of (`ViewLikeOpInterface::getViewSource`), or a
/// null value if `op` is not a view op.
MlirValue apipeViewLikeOpGetViewSource(MlirOperation op) {
  auto view = llvm::dyn_cast<mlir::ViewLikeOpInterface>(unwrap(op));
  if (!view)
    return wrap(mlir::Value());
  return wrap(view.getViewSource());
}

} // extern "C"
