//===- ApipeParser.cpp - Parsing that survives upstream's error cleanup ---===//
//
// Why this exists: MLIR 22's parser frees half-built IR on a parse error in
// an order that can write to freed memory. A forward reference resolved by
// a definition inside a region of an op whose parse then fails (e.g.
// `%1 = arith.addi %0, %0` then `scf.index_switch %1 case 0 { %0 = ... }`
// without `default`): the op's regions are destroyed first, then the
// enclosing block drops the references of the user of `%0` into the freed
// op (Operation::dropAllReferences <- Block::~Block). The heap is corrupted
// and the process aborts later (`mlir-opt` too). `mlirModuleCreateParse`
// always runs that cleanup, and the C API has no way around it.
//
// What it does: it parses with a diagnostic handler that, at the parser's
// first error, keeps the diagnostic and throws out of the parser. The
// unwinding skips the parser's cleanup (MLIR is built without exceptions,
// so its frames have no landing pads), which leaks the half-built IR
// instead of destroying it. The kept diagnostic is then emitted again, so
// the caller's handlers see it as usual. A tool exits soon after a failed
// parse, so the leak is bounded by one input.
//
// After such a failure the context's diagnostic engine stays locked by the
// calling thread (its mutex is recursive and the unwound frame held it):
// the caller may still emit diagnostics on this thread, but must not run
// passes on the context (other threads would block); `apipeParseModule`
// reports this through `*poisoned`.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <memory>

namespace {
/// Thrown by the handler at the parser's first error.
struct ParseFailed {};
} // namespace

extern "C" {

/// Parses `source` (named `sourceName` in locations) into a `builtin.module`
/// (top-level ops are wrapped in one, as `mlir-opt` does) and verifies it.
/// Returns a null module on failure, after emitting the diagnostics to the
/// context's handlers. `*poisoned` is set when the parse stopped at an error
/// (see the file comment: no passes on this context afterwards).
MlirModule apipeParseModule(MlirContext context, MlirStringRef source,
                            MlirStringRef sourceName, bool *poisoned) {
  mlir::MLIRContext *ctx = unwrap(context);
  *poisoned = false;
  std::unique_ptr<mlir::Diagnostic> first;
  mlir::DiagnosticEngine &engine = ctx->getDiagEngine();
  mlir::DiagnosticEngine::HandlerID id =
      engine.registerHandler([&](mlir::Diagnostic &diag) -> mlir::LogicalResult {
        if (diag.getSeverity() != mlir::DiagnosticSeverity::Error)
          return mlir::failure(); // warnings and remarks go on to the caller
        first = std::make_unique<mlir::Diagnostic>(std::move(diag));
        throw ParseFailed{};
      });
  // Owned here only on success: a failed parse leaks it with its contents.
  auto *block = new mlir::Block();
  mlir::LocationAttr fileLoc;
  bool parsed = false;
  try {
    parsed = mlir::succeeded(mlir::parseSourceString(
        unwrap(source), block, mlir::ParserConfig(ctx, /*verifyAfterParse=*/false),
        unwrap(sourceName), &fileLoc));
  } catch (ParseFailed &) {
    *poisoned = true;
  }
  engine.eraseHandler(id);
  if (first)
    engine.emit(std::move(*first));
  if (!parsed)
    return MlirModule{nullptr};
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::detail::constructContainerOpForParserIfNecessary<mlir::ModuleOp>(
          block, ctx, fileLoc);
  delete block;
  // Complete IR: destroying it after a failed verification is safe.
  if (!module || mlir::failed(mlir::verify(*module)))
    return MlirModule{nullptr};
  return wrap(module.release());
}

} // extern "C"
