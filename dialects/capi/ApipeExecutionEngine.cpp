//===- ApipeExecutionEngine.cpp - C API gap: the JIT's code generation level -===//
//
// `mlirExecutionEngineCreate` (LLVM 22) takes one `optLevel` for the LLVM
// IR passes and for code generation, but code generation ignores it:
// `mlir::ExecutionEngine::create` compiles with the `TargetMachine` it is
// handed, which the C API makes at the host's default level (-O2), and the
// option `jitCodeGenOptLevel` only reaches a `JITTargetMachineBuilder` that
// is then not used. So `-O0` still ran -O2 instruction selection and the
// greedy register allocator. This entry point does what the C API does,
// with the `TargetMachine` made at a code generation level of its own.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/ExecutionEngine.h"
#include "mlir/CAPI/ExecutionEngine.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/TargetSelect.h"

extern "C" {

/// `mlirExecutionEngineCreate` (LLVM IR passes at `optLevel`) whose code
/// generation runs at `codegenLevel` (0-3, `llvm::CodeGenOptLevel`). Null
/// when the host target or the engine cannot be created.
MlirExecutionEngine apipeExecutionEngineCreate(MlirModule op, int optLevel,
                                               int codegenLevel, int numPaths,
                                               const MlirStringRef *sharedLibPaths) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmParser();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  mlir::MLIRContext &context = *unwrap(op)->getContext();
  mlir::registerBuiltinDialectTranslation(context);
  mlir::registerLLVMDialectTranslation(context);

  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    llvm::consumeError(builder.takeError());
    return MlirExecutionEngine{nullptr};
  }
  auto level = static_cast<llvm::CodeGenOptLevel>(codegenLevel);
  builder->setCodeGenOptLevel(level);
  auto machine = builder->createTargetMachine();
  if (!machine) {
    llvm::consumeError(machine.takeError());
    return MlirExecutionEngine{nullptr};
  }

  llvm::SmallVector<llvm::StringRef> paths;
  for (int i = 0; i < numPaths; ++i)
    paths.push_back(unwrap(sharedLibPaths[i]));
  // `options.transformer` refers to it: it must live through `create`.
  auto transformer = mlir::makeOptimizingTransformer(
      optLevel, /*sizeLevel=*/0, /*targetMachine=*/machine->get());
  mlir::ExecutionEngineOptions options;
  options.transformer = transformer;
  options.jitCodeGenOptLevel = level;
  options.sharedLibPaths = paths;
  auto engine =
      mlir::ExecutionEngine::create(unwrap(op), options, std::move(*machine));
  if (!engine) {
    llvm::consumeError(engine.takeError());
    return MlirExecutionEngine{nullptr};
  }
  return wrap(engine->release());
}

} // extern "C"
