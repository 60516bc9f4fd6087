//===- ApipeDataLayout.cpp - C API gap: the size of a type in memory ------===//
//
// The MLIR C API (LLVM 22) has no data-layout query. The shared-memory
// budget of `apipe-software-pipeline` counts workgroup `llvm.mlir.global`s
// (`addr_space = 3`) of LLVM types (`!llvm.array<N x T>`, structs), whose
// size with padding is what MLIR's `DataLayout` says. This forwards
// `DataLayout::closest(scope).getTypeSize(type)` for the types that have a
// layout (builtin integers, floats, index, vectors, and types with
// `DataLayoutTypeInterface`, which the LLVM dialect's types implement);
// `getTypeSize` aborts on any other type, so those are refused first.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

extern "C" {

/// The size in bytes of `type` in memory under the data layout closest to
/// `scope` (MLIR's default layout for a null `scope`); -1 if `type` has no
/// data layout.
int64_t apipeTypeSizeInBytes(MlirType type, MlirOperation scope) {
  mlir::Type t = unwrap(type);
  auto hasLayout = [](mlir::Type t) {
    if (llvm::isa<mlir::IntegerType, mlir::FloatType, mlir::IndexType,
                  mlir::DataLayoutTypeInterface>(t))
      return true;
    auto vector = llvm::dyn_cast<mlir::VectorType>(t);
    return vector && !vector.isScalable() &&
           llvm::isa<mlir::IntegerType, mlir::FloatType, mlir::IndexType>(
               vector.getElementType());
  };
  if (!hasLayout(t))
    return -1;
  mlir::DataLayout layout = mlirOperationIsNull(scope)
                                ? mlir::DataLayout()
                                : mlir::DataLayout::closest(unwrap(scope));
  llvm::TypeSize size = layout.getTypeSize(t);
  if (size.isScalable())
    return -1;
  return static_cast<int64_t>(size.getFixedValue());
}

} // extern "C"
