/*===- RustPass.h - apipe passes in MLIR's pass registry ----------*- C -*-===*\
|*                                                                            *|
|* The bridge between the Rust pass bodies of apipe (passes/src/pass.rs) and *|
|* MLIR's C++ pass registry. The MLIR C API can create a pass from callbacks *|
|* (mlirCreateExternalPass) but cannot register one, give it options, or     *|
|* parse a pipeline that names it; this file adds those, so that MLIR itself *|
|* parses `--pass-pipeline`, pass options, their errors and help text, for   *|
|* apipe-opt, for library users and inside upstream mlir-opt (the plugin).   *|
|*                                                                            *|
|* Internal to apipe: the Rust side mirrors these structs (#[repr(C)]).      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef APIPE_RUST_PASS_H
#define APIPE_RUST_PASS_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The type of a pass option, as `Pass::Option<T>` declares it.
enum ApipeRustOptionKind {
  /// `Option<bool>`: `true`/`false` (also `1`/`0`).
  ApipeRustOptionBool = 0,
  /// `Option<int64_t>`.
  ApipeRustOptionInt = 1,
  /// An enum option: one of `choices`, passed to Rust as its index.
  ApipeRustOptionChoice = 2,
};

/// One declared option. Every string must outlive the process (MLIR's
/// options keep references to them).
typedef struct {
  MlirStringRef name;
  MlirStringRef description;
  int32_t kind; /* ApipeRustOptionKind */
  const MlirStringRef *choices;
  intptr_t choiceCount;
  /* The bounds of an integer option: a value outside them is a pass
     option error (reported when the pipeline is parsed). */
  int64_t minimum;
  int64_t maximum;
} ApipeRustOption;

/// The value of one option when the pass runs: `isSet` is false when the
/// pipeline did not name the option (the Rust side then uses its default);
/// `value` is 0/1 for a bool, the integer, or the index of the choice.
typedef struct {
  bool isSet;
  int64_t value;
} ApipeRustOptionValue;

/// Runs the Rust body of `pass` on `op` with `count` option values (in the
/// declared order); returns false on failure (diagnostics already emitted).
/// `inputVerified`: the apipe verifier accepted `op` at the end of an
/// earlier apipe pass and no pass has changed it since (then the Rust side
/// does not verify the input again). On success the output is verified.
typedef bool (*ApipeRustPassRun)(const void *pass, MlirOperation op,
                                 const ApipeRustOptionValue *values,
                                 intptr_t count, bool inputVerified);

/// One Rust pass. Must outlive the process. `pass` (the address of the Rust
/// pass declaration) also makes the pass's MLIR `TypeID`, so registering the
/// same declaration twice is a no-op.
typedef struct {
  MlirStringRef argument; /* `apipe-make-sync` */
  MlirStringRef name;     /* `ApipeMakeSync` */
  MlirStringRef summary;
  const ApipeRustOption *options;
  intptr_t optionCount;
  const MlirDialectHandle *dependentDialects;
  intptr_t dependentDialectCount;
  ApipeRustPassRun run;
  const void *pass;
  /* The pass follows calls into other functions: it may run only on an op
     with the SymbolTable trait (`builtin.module`, `gpu.module`). */
  bool symbolTableOnly;
} ApipeRustPassInfo;

/// Registers the pass in MLIR's pass registry (`mlir::registerPass`): then
/// textual pipelines and `--<argument>` flags can name it.
MLIR_CAPI_EXPORTED void apipeRegisterRustPass(const ApipeRustPassInfo *info);

/// Creates an instance, its options set from `options` (the inside of
/// `{...}` in a textual pipeline; empty for the defaults) by MLIR's option
/// parser. On a bad option, calls `onError` with MLIR's message and returns
/// a null pass.
MLIR_CAPI_EXPORTED MlirPass apipeCreateRustPass(const ApipeRustPassInfo *info,
                                                MlirStringRef options,
                                                MlirStringCallback onError,
                                                void *userData);

/// Parses an anchored textual pipeline
/// (`builtin.module(func.func(cse),apipe-x{a=1})`) and makes it the passes
/// of `passManager`, as `mlir-opt --pass-pipeline` does: MLIR's grammar and
/// messages (through `onError`).
MLIR_CAPI_EXPORTED MlirLogicalResult
apipeParsePassPipeline(MlirPassManager passManager, MlirStringRef pipeline,
                       MlirStringCallback onError, void *userData);

/// Adds a pass list without anchor (`cse,apipe-x{a=1}`) to `passManager`
/// with implicit nesting (a pass restricted to `func.func` nests itself), as
/// `mlir-opt`'s `--<pass>` flags do.
MLIR_CAPI_EXPORTED MlirLogicalResult
apipeAddPasses(MlirPassManager passManager, MlirStringRef passes,
               MlirStringCallback onError, void *userData);

/// Sets the program name that LLVM's option parser puts before its messages
/// about bad pass options (`apipe-opt: for the --sync option: ...`), as
/// `mlir-opt` gets from its command line. For tools, not for plugins.
MLIR_CAPI_EXPORTED void apipeSetProgramName(MlirStringRef name);

/// Prints every registered pass and pass pipeline with its options to
/// standard output (`llvm::outs()`, flushed), as `mlir-opt --help` lists
/// them (`mlir::printRegisteredPasses`).
MLIR_CAPI_EXPORTED void apipePrintRegisteredPasses(void);

#ifdef __cplusplus
}
#endif

#endif // APIPE_RUST_PASS_H
