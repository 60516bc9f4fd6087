// Embedding apipe from C through its C API (include/apipe-c): a compiler
// that links libApipePlugin.so (and libMLIR-C.so / libMLIR.so) registers the
// dialect and the passes, parses a module, runs apipe passes in its own
// PassManager, created with their options, and calls the counting <-> token
// conversions directly.
// RUN: %clang %s -std=c11 -Wall -Werror -I%apipe_root/include -I%llvm_prefix/include -L%plugin_dir -L%plugin_dir/lib -lApipePlugin -lMLIR-C -Wl,-rpath,%plugin_dir -Wl,-rpath,%plugin_dir/lib -o %t
// RUN: %t 2>&1 | FileCheck %s

#include "apipe-c/Dialect.h"
#include "apipe-c/Passes.h"
#include "apipe-c/Transforms.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <stdlib.h>

static void print(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static void printModule(const char *title, MlirModule module) {
  printf("// %s\n", title);
  mlirOperationPrint(mlirModuleGetOperation(module), print, NULL);
  printf("\n");
}

/// apipeCreatePass; MLIR's message on stdout when it refuses.
static MlirPass createPass(const char *argument, const char *options) {
  MlirPass pass = apipeCreatePass(mlirStringRefCreateFromCString(argument),
                                  mlirStringRefCreateFromCString(options),
                                  print, NULL);
  if (!pass.ptr)
    printf("\n");
  return pass;
}

// A two-stage loop: the copy of iteration i overlaps the use of i - 1.
static const char *input =
    "func.func @two_stages(%A: memref<64xf32>, %out: memref<16xf32> {llvm.noalias}) {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %c4 = arith.constant 4 : index\n"
    "  %c16 = arith.constant 16 : index\n"
    "  %buf = memref.alloc() : memref<4xf32, 3>\n"
    "  scf.for %i = %c0 to %c16 step %c1 {\n"
    "    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index\n"
    "    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64}"
    " : memref<64xf32> to memref<4xf32, 3>\n"
    "    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64}"
    " : memref<4xf32, 3>\n"
    "    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<16xf32>\n"
    "  } {apipe.async_stages = array<i64: 0>}\n"
    "  return\n"
    "}\n";

int main(void) {
  // Unbuffered: MLIR's messages on stderr and ours interleave in order.
  setvbuf(stdout, NULL, _IONBF, 0);

  // 1. A context with every upstream dialect and apipe; every pass.
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__apipe__(), registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllPasses();
  apipeRegisterPasses();

  // 2. Parse and verify (MLIR's verifier, then apipe's semantic one).
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(input));
  if (mlirModuleIsNull(module) ||
      !mlirOperationVerify(mlirModuleGetOperation(module)) ||
      mlirLogicalResultIsFailure(apipeVerify(mlirModuleGetOperation(module))))
    return 1;

  // 3. Its own pass manager: apipe passes created with their options, and an
  //    upstream pass from a textual pipeline.
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      context, mlirStringRefCreateFromCString("builtin.module"));
  MlirOpPassManager top = mlirPassManagerGetAsOpPassManager(pm);
  MlirOpPassManager func = mlirOpPassManagerGetNestedUnder(
      top, mlirStringRefCreateFromCString("func.func"));
  mlirOpPassManagerAddOwnedPass(
      func, createPass("apipe-software-pipeline", "sync=tokens"));
  mlirOpPassManagerAddPipeline(top, mlirStringRefCreateFromCString("cse"),
                               print, NULL);
  if (mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))))
    return 1;
  printModule("pipelined, token form", module);

  // 4. The conversion to counting form, called directly.
  if (mlirLogicalResultIsFailure(
          apipeTokensToCounting(mlirModuleGetOperation(module), true)))
    return 1;
  printModule("counting form", module);

  // 5. Bad pass names and options: MLIR's messages, a null pass.
  MlirPass bad = createPass("apipe-tokens-to-counting", "strict=maybe");
  printf("bad option: %s\n", bad.ptr ? "created" : "null pass");
  bad = createPass("apipe-no-such-pass", "");
  printf("bad pass: %s\n", bad.ptr ? "created" : "null pass");

  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return 0;
}

// CHECK-LABEL: // pipelined, token form
// CHECK: func.func @two_stages
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<2x4xf32, 3>
// CHECK: apipe.copy
// CHECK-NEXT: %[[T0:.*]] = apipe.commit_group queue 0{{$}}
// CHECK-NEXT: %[[LAST:.*]] = scf.for {{.*}} iter_args(%[[PREV:.*]] = %[[T0]]) -> (!apipe.token) {
// CHECK: apipe.copy
// CHECK-NEXT: %[[T:.*]] = apipe.commit_group queue 0{{$}}
// CHECK-NEXT: apipe.wait %[[PREV]]{{$}}
// CHECK: scf.yield %[[T]] : !apipe.token
// CHECK: apipe.wait %[[LAST]]{{$}}
// CHECK-NOT: apipe.wait_group

// CHECK-LABEL: // counting form
// CHECK: scf.for
// CHECK: apipe.copy
// CHECK-NEXT: {{^ *}}apipe.commit_group queue 0{{$}}
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK: }
// CHECK-NEXT: {{^ *}}apipe.commit_group queue 0{{$}}
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NOT: !apipe.token
// CHECK-NOT: apipe.wait %

// CHECK: for the --strict option: 'maybe' is invalid value for boolean argument! Try 0 or 1
// CHECK-NEXT: invalid options for pass 'apipe-tokens-to-counting':
// CHECK-NEXT: failed to add `apipe-tokens-to-counting` with options `strict=maybe`
// CHECK: bad option: null pass
// CHECK: 'apipe-no-such-pass' does not refer to a registered apipe pass
// CHECK: bad pass: null pass
