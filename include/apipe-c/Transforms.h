/*===- apipe-c/Transforms.h - apipe transforms on an op -----------*- C -*-===*\
|*                                                                            *|
|* The conversions between counting form (commit_group / wait_group N) and  *|
|* token form (%t = commit_group, wait %t), and the semantic verifier, run  *|
|* directly on an op (no pass manager). Each refuses with located MLIR      *|
|* diagnostics (through the context's diagnostic handlers) and leaves the   *|
|* IR unchanged when a precondition fails. docs/semantics.md has the model. *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef APIPE_C_TRANSFORMS_H
#define APIPE_C_TRANSFORMS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// `apipe-counting-to-tokens` on the ops nested in `op`: every `wait_group`
/// becomes a `wait` on the token of the group it completes.
MLIR_CAPI_EXPORTED MlirLogicalResult apipeCountingToTokens(MlirOperation op);

/// `apipe-tokens-to-counting` on the ops nested in `op`: every `wait %t`
/// becomes `wait_group N`, N the fewest groups committed after the named one
/// over all paths. With `strict`, a count the paths disagree on is an error
/// instead of a remark.
MLIR_CAPI_EXPORTED MlirLogicalResult apipeTokensToCounting(MlirOperation op,
                                                          bool strict);

/// The apipe semantic verifier on `op` and the ops nested in it (what the
/// ODS verifier does not check: positive `elements`, zero-fill bounds,
/// pipelining annotations). Emits one located error per problem.
MLIR_CAPI_EXPORTED MlirLogicalResult apipeVerify(MlirOperation op);

#ifdef __cplusplus
}
#endif

#endif // APIPE_C_TRANSFORMS_H
