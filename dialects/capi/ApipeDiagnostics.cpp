//===- ApipeDiagnostics.cpp - C API gaps for diagnostics ------------------===//
//
// The MLIR C API (LLVM 22) can emit errors (`mlirEmitError`) but not
// warnings, remarks, or diagnostics with attached notes. apipe passes need
// all of them (docs/passes.md: "a remark that names the counts", "a
// located error with a note at the copy"). This file adds one entry point
// over `mlir::emitError` / `emitWarning` / `emitRemark` so they flow through the context's diagnostic
// engine like any upstream diagnostic.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

extern "C" {

/// Emits one diagnostic of `severity` at `location` with `noteCount` notes,
/// note `i` at `noteLocations[i]` with text `noteMessages[i]`.
void apipeEmitDiagnostic(MlirLocation location, MlirDiagnosticSeverity severity,
                         MlirStringRef message, intptr_t noteCount,
                         const MlirLocation *noteLocations,
                         const MlirStringRef *noteMessages) {
  mlir::Location loc = unwrap(location);
  llvm::StringRef text = unwrap(message);
  mlir::InFlightDiagnostic diag =
      severity == MlirDiagnosticWarning  ? mlir::emitWarning(loc, text)
      : severity == MlirDiagnosticRemark ? mlir::emitRemark(loc, text)
                                         : mlir::emitError(loc, text);
  for (intptr_t i = 0; i < noteCount; ++i)
    diag.attachNote(unwrap(noteLocations[i])) << unwrap(noteMessages[i]);
}

/// Sets whether diagnostics on an op carry a "see current operation" note
/// with the op printed (`MLIRContext::printOpOnDiagnostic`). `mlir-opt`
/// turns it off under `--verify-diagnostics`.
void apipeContextSetPrintOpOnDiagnostic(MlirContext context, bool enable) {
  unwrap(context)->printOpOnDiagnostic(enable);
}

} // extern "C"
