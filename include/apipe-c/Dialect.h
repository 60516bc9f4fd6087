/*===- apipe-c/Dialect.h - the apipe dialect in the MLIR C API ----*- C -*-===*\
|*                                                                            *|
|* Registers the apipe dialect (asynchronous copies, commit groups, waits    *|
|* and tokens) through the MLIR C API's dialect handles, as the upstream     *|
|* mlir-c/Dialect headers do for theirs.                                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef APIPE_C_DIALECT_H
#define APIPE_C_DIALECT_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// `mlirGetDialectHandle__apipe__()`: the handle of the apipe dialect, for
/// `mlirDialectHandleInsertDialect` (into a registry),
/// `mlirDialectHandleRegisterDialect` and `mlirDialectHandleLoadDialect`
/// (into a context).
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Apipe, apipe);

#ifdef __cplusplus
}
#endif

#endif // APIPE_C_DIALECT_H
