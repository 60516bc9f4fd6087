/*===- apipe-c/Passes.h - apipe passes in the MLIR C API ----------*- C -*-===*\
|*                                                                            *|
|* Registers the apipe passes in MLIR's pass registry and creates them with  *|
|* their options. Once registered, textual pipelines name them like any     *|
|* upstream pass (mlirParsePassPipeline, mlirOpPassManagerAddPipeline):     *|
|*                                                                            *|
|*   builtin.module(func.func(apipe-software-pipeline{sync=tokens}),        *|
|*                  apipe-tokens-to-counting{strict=true},apipe-merge-queues) *|
|*                                                                            *|
|* docs/passes.md lists the passes and their options.                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef APIPE_C_PASSES_H
#define APIPE_C_PASSES_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every apipe pass (transforms and lowering) in MLIR's pass
/// registry, with its options. Idempotent.
MLIR_CAPI_EXPORTED void apipeRegisterPasses(void);

/// Creates the apipe pass `argument` (e.g. `apipe-tokens-to-counting`) with
/// `options` in MLIR's syntax (the inside of `{...}`, e.g. `strict=true`;
/// empty for the defaults), parsed by MLIR. Returns a null pass and calls
/// `onError` (if not null) with MLIR's message for an unknown pass or a bad
/// option. The caller owns the pass until it adds it to a pass manager
/// (mlirPassManagerAddOwnedPass / mlirOpPassManagerAddOwnedPass).
MLIR_CAPI_EXPORTED MlirPass apipeCreatePass(MlirStringRef argument,
                                            MlirStringRef options,
                                            MlirStringCallback onError,
                                            void *userData);

#ifdef __cplusplus
}
#endif

#endif // APIPE_C_PASSES_H
