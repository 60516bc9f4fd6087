//===- RustPass.cpp - apipe passes in MLIR's pass registry ----------------===//
//
// One C++ pass class, `RustPass`, stands for every apipe pass: its argument,
// summary, options and dependent dialects come from the Rust declaration
// (`ApipeRustPassInfo`), its body is a Rust function pointer handed over at
// registration. Options are real MLIR `Pass::Option<T>`s, created when the
// pass is constructed, so MLIR parses them (`{a=1 b=true}`), reports bad
// names and values, prints them in `--help`, in pipelines and in IR dumps,
// and copies them when it clones the pass for its thread pool.
//
// Why C++: the MLIR C API has no pass registry, no pass options and no
// textual pipeline parser that can name a pass created from callbacks.
//
//===----------------------------------------------------------------------===//

#include "RustPass.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/Dialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <vector>

using namespace mlir;

namespace {

/// The value type of a choice option: the index of the choice.
enum class ChoiceIndex : int64_t {};

/// An MLIR analysis with no data: its presence in the analysis manager
/// records that the apipe verifier (`apipe_dialect::verifier`) accepted the
/// op when an apipe pass ended. Each apipe pass preserves it; any other
/// pass drops it unless that pass preserves every analysis (which a pass
/// may only do when it changed nothing), so a pipeline of apipe passes
/// verifies each intermediate module once, not twice. Why an analysis: the
/// pass manager's invalidation is the only record MLIR keeps of whether a
/// pass changed the IR.
struct VerifiedByApipe {
  explicit VerifiedByApipe(mlir::Operation *) {}
};

class RustPass : public Pass {
public:
  explicit RustPass(const ApipeRustPassInfo *info)
      : Pass(TypeID::getFromOpaquePointer(info->pass)), info(info) {
    for (intptr_t i = 0; i < info->optionCount; ++i) {
      const ApipeRustOption &decl = info->options[i];
      StringRef name = unwrap(decl.name);
      auto desc = llvm::cl::desc(unwrap(decl.description));
      Declared option;
      switch (decl.kind) {
      case ApipeRustOptionBool:
        option.boolean = std::make_unique<Option<bool>>(*this, name, desc);
        break;
      case ApipeRustOptionInt:
        option.integer = std::make_unique<Option<int64_t>>(*this, name, desc);
        break;
      default:
        option.choice =
            std::make_unique<Option<ChoiceIndex>>(*this, name, desc);
        for (intptr_t c = 0; c < decl.choiceCount; ++c)
          option.choice->getParser().addLiteralOption(
              unwrap(decl.choices[c]), ChoiceIndex(c), "");
        break;
      }
      options.push_back(std::move(option));
    }
  }

  StringRef getName() const override { return unwrap(info->name); }
  StringRef getArgument() const override { return unwrap(info->argument); }
  StringRef getDescription() const override { return unwrap(info->summary); }

  /// apipe passes run on any op (like most upstream transforms), so they
  /// nest under `builtin.module`, `func.func` or `gpu.module`. One that
  /// follows calls refuses, when it runs, an op that does not hold its
  /// functions' symbols (see `runOnOperation`): refusing to schedule it
  /// instead would make `any(...)` skip every function in silence.
  bool canScheduleOn(RegisteredOperationName) const override { return true; }

  void getDependentDialects(DialectRegistry &registry) const override {
    for (intptr_t i = 0; i < info->dependentDialectCount; ++i)
      mlirDialectHandleInsertDialect(info->dependentDialects[i],
                                     wrap(&registry));
  }

  /// MLIR parses the options; then an integer outside its declared bounds
  /// is an option error too, reported the same way (`--help` and the
  /// pipeline parser show it), before any pass runs.
  LogicalResult initializeOptions(
      StringRef text,
      function_ref<LogicalResult(const llvm::Twine &)> errorHandler) override {
    if (failed(Pass::initializeOptions(text, errorHandler)))
      return failure();
    for (intptr_t i = 0; i < info->optionCount; ++i) {
      const ApipeRustOption &decl = info->options[i];
      const Declared &option = options[i];
      if (!option.integer || !option.integer->hasValue())
        continue;
      int64_t value = *option.integer;
      if (value < decl.minimum || value > decl.maximum)
        return errorHandler("for the --" + unwrap(decl.name) +
                            " option: " + llvm::Twine(value) +
                            " is out of range: expected " +
                            llvm::Twine(decl.minimum) + " to " +
                            llvm::Twine(decl.maximum));
    }
    return success();
  }

  /// `clone()` copies the option values after this.
  std::unique_ptr<Pass> clonePass() const override {
    return std::make_unique<RustPass>(info);
  }

  void runOnOperation() override {
    // Under `func.func` (or `any`), MLIR runs a pass on sibling functions
    // in parallel, and a pass must not read its siblings: a pass that
    // follows calls needs the op that holds the functions.
    if (info->symbolTableOnly &&
        !getOperation()->hasTrait<OpTrait::SymbolTable>()) {
      // At the op's location, without the op printed under it.
      mlir::emitError(getOperation()->getLoc())
          << "'" << getArgument()
          << "' follows calls into other functions: run it on an op that "
             "holds them (builtin.module, gpu.module), not on '"
          << getOperation()->getName()
          << "' (MLIR may run a nested pass on sibling functions in "
             "parallel, and a pass must not read them)";
      return signalPassFailure();
    }
    std::vector<ApipeRustOptionValue> values;
    values.reserve(options.size());
    for (const Declared &option : options) {
      if (option.boolean)
        values.push_back({option.boolean->hasValue(), *option.boolean});
      else if (option.integer)
        values.push_back({option.integer->hasValue(), *option.integer});
      else
        values.push_back({option.choice->hasValue(),
                          static_cast<int64_t>(ChoiceIndex(*option.choice))});
    }
    bool verified = getCachedAnalysis<VerifiedByApipe>().has_value();
    if (!info->run(info->pass, wrap(getOperation()), values.data(),
                   static_cast<intptr_t>(values.size()), verified))
      return signalPassFailure();
    // The Rust side verified its output (or changed nothing): the next apipe
    // pass need not verify it again, unless a pass between changes the IR.
    (void)getAnalysis<VerifiedByApipe>();
    markAnalysesPreserved<VerifiedByApipe>();
  }

private:
  /// One declared option; exactly one member is set.
  struct Declared {
    std::unique_ptr<Option<bool>> boolean;
    std::unique_ptr<Option<int64_t>> integer;
    std::unique_ptr<Option<ChoiceIndex>> choice;
  };

  const ApipeRustPassInfo *info;
  std::vector<Declared> options;
};

/// Forwards MLIR's error text to a C callback.
struct ErrorForwarder {
  MlirStringCallback callback;
  void *userData;
  LogicalResult operator()(const llvm::Twine &message) const {
    std::string text = message.str();
    if (callback)
      callback(mlirStringRefCreate(text.data(), text.size()), userData);
    return failure();
  }
};

/// LLVM's option parser reports a bad value (an unknown choice, an integer
/// that does not parse) on stderr and gives MLIR's handler an empty message
/// (mlir-opt then prints an empty "error: "): `message`, or what failed.
std::string withReason(const std::string &message) {
  if (!message.empty() && message.front() != '\n')
    return message;
  return "invalid pass option value (the line above names the option and "
         "the value)" +
         message;
}

/// Sets the options of a fresh pass, or reports MLIR's message followed by
/// the line `addToPipeline` would add (LLVM's option parser prints its own
/// message about a bad value to stderr and gives the handler none).
MlirPass initialized(std::unique_ptr<Pass> pass, MlirStringRef options,
                     ErrorForwarder onError) {
  std::string message;
  auto collect = [&](const llvm::Twine &text) {
    message = text.str();
    return failure();
  };
  if (succeeded(pass->initializeOptions(unwrap(options), collect)))
    return wrap(pass.release());
  (void)onError(withReason(message) + "\nfailed to add `" + pass->getArgument() +
                "` with options `" + unwrap(options) + "`");
  return MlirPass{nullptr};
}

} // namespace

extern "C" {

void apipeRegisterRustPass(const ApipeRustPassInfo *info) {
  registerPass([info] { return std::make_unique<RustPass>(info); });
}

MlirPass apipeCreateRustPass(const ApipeRustPassInfo *info,
                             MlirStringRef options, MlirStringCallback onError,
                             void *userData) {
  return initialized(std::make_unique<RustPass>(info), options,
                     {onError, userData});
}

MlirLogicalResult apipeParsePassPipeline(MlirPassManager passManager,
                                         MlirStringRef pipeline,
                                         MlirStringCallback onError,
                                         void *userData) {
  std::string errors;
  llvm::raw_string_ostream os(errors);
  FailureOr<OpPassManager> parsed = parsePassPipeline(unwrap(pipeline), os);
  if (failed(parsed)) {
    errors = withReason(errors);
    if (onError)
      onError(mlirStringRefCreate(errors.data(), errors.size()), userData);
    return mlirLogicalResultFailure();
  }
  // As `mlir-opt --pass-pipeline`: the parsed pipeline replaces the passes
  // (an anchor that does not fit the input fails when it runs, located).
  static_cast<OpPassManager &>(*unwrap(passManager)) = std::move(*parsed);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult apipeAddPasses(MlirPassManager passManager,
                                 MlirStringRef passes,
                                 MlirStringCallback onError, void *userData) {
  PassManager *pm = unwrap(passManager);
  pm->setNesting(OpPassManager::Nesting::Implicit);
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (succeeded(parsePassPipeline(unwrap(passes), *pm, os)))
    return mlirLogicalResultSuccess();
  errors = withReason(errors);
  if (onError)
    onError(mlirStringRefCreate(errors.data(), errors.size()), userData);
  return mlirLogicalResultFailure();
}

void apipeSetProgramName(MlirStringRef name) {
  // LLVM's option parser prefixes its messages (`<name>: for the --sync
  // option: ...`) with the program name that `ParseCommandLineOptions` sets
  // from argv[0]; the string must outlive the process.
  static std::string stored;
  stored = unwrap(name).str();
  const char *argv[] = {stored.c_str()};
  llvm::cl::ParseCommandLineOptions(1, argv);
}

void apipePrintRegisteredPasses(void) {
  printRegisteredPasses();
  llvm::outs().flush();
}

} // extern "C"
