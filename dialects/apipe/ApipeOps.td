//===- ApipeOps.td - the apipe dialect ---------------------*- tablegen -*-===//
//
// The one source of truth for the apipe dialect. From this file:
//  * `mlir-tblgen` generates the C++ dialect, type and op classes (custom
//    assembly, ODS verifiers, memory effects), compiled by `dialects/build.rs`;
//  * melior's `dialect!` macro generates the Rust op builders and accessors;
//  * `dialects/build.rs` generates the IRDL module checked in as
//    `apipe.irdl.mlir`, for `mlir-opt --irdl-file=...` users;
//  * `mlir-tblgen -gen-dialect-doc -gen-op-doc` generates `docs/dialect.md`.
//
// Semantics (docs/semantics.md): per thread, each queue `q` holds the copies
// issued and not yet committed, and a FIFO list of committed groups. Groups
// of one queue complete in FIFO order.
//
//===----------------------------------------------------------------------===//

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Apipe_Dialect : Dialect {
  let name = "apipe";
  let cppNamespace = "::mlir::apipe";
  let summary = "Asynchronous stages in software pipelines";
  let description = [{
    The `apipe` dialect expresses asynchronous copies (global to shared memory
    on GPUs) and the synchronization that makes them correct, in two forms:

    * **counting**: `apipe.commit_group` (no result) and
      `apipe.wait_group N`, as PTX `cp.async.commit_group` /
      `cp.async.wait_group N` (PTX ISA 9.7.9.25.3) and TVM RFC 0077;
    * **tokens**: `apipe.commit_group` returns an `!apipe.token` naming its
      group and `apipe.wait` names the groups it waits for.

    Per thread, each queue `q` (an integer, default 0) holds the copies issued
    on `q` and not yet committed, and a FIFO list of committed groups. Groups
    of one queue complete in FIFO order; within a group, order is unspecified.

    It sits above `nvgpu.device_async_*` in the lowering chain; it is
    lowered to `nvgpu`/`nvvm` for PTX and to runtime calls for CPU emulation.

    Memory effects: `apipe.copy` reads its source and writes its destination;
    `apipe.commit_group`, `apipe.wait_group` and `apipe.wait` read and write
    the default resource, so upstream passes (`canonicalize`, `cse`,
    `loop-invariant-code-motion`) neither move memory accesses across them
    nor drop them; `apipe.ready` has no memory effect.
  }];
  let useDefaultTypePrinterParser = 1;
  // Inherent attributes stay in the attribute dictionary (not properties), so
  // the generic form prints and parses exactly as it always has
  // (`{elements = 4 : i64}`), and IRDL users read it too.
  let usePropertiesForAttributes = 0;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Apipe_TokenType : TypeDef<Apipe_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "token naming a committed group";
  let description = [{
    A value of type `!apipe.token` names the group committed by the
    `apipe.commit_group` that produced it (or an already complete group, for
    `apipe.ready`). Tokens travel through `scf.for` iter_args and `scf.if`
    results like any SSA value. Waiting on a token also completes every older
    group of the same queue (groups complete in FIFO order).

    Example:

    ```mlir
    %t = apipe.commit_group
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

class Apipe_Op<string mnemonic, list<Trait> traits = []>
    : Op<Apipe_Dialect, mnemonic, traits>;

def Apipe_CopyOp : Apipe_Op<"copy"> {
  let summary = "asynchronous copy of contiguous elements into a queue";
  let description = [{
    Issues an asynchronous copy of `elements` contiguous elements of the
    innermost dimension from `src` at the source indices to `dst` at the
    destination indices. The copy joins the uncommitted copies of its queue;
    its read of `src` and its write of `dst` may happen at any moment until
    the group that commits it completes.

    This is the dialect-level form of PTX `cp.async` (PTX ISA 9.7.9.25.3.1)
    and of upstream `nvgpu.device_async_copy`; `apipe-to-nvgpu` lowers it.

    The `elements` attribute is the number of elements written to `dst`; it
    must be greater than zero. The `queue` attribute selects the queue
    (absent means 0; the software pipeliner uses queue `s` for async stage
    `s`, as TVM RFC 0077 does). The `bypass_l1` unit attribute asks for the
    `.cg` cache operator (16-byte copies only). When the optional index
    `src_elements` follows `elements`, only that many elements are read and
    the rest of the `elements` are zero-filled (PTX `src-size`). src and dst
    have the same element type.

    In the generic form the source indices, the destination indices and
    `src_elements` are one operand list `indices`: rank(src) source indices,
    then rank(dst) destination indices, then optionally `src_elements`.

    Example:

    ```mlir
    apipe.copy %A[%i, %k], %buf[%r, %c], 4 {bypass_l1}
        : memref<2048x2048xf32> to memref<64x16xf32, 3>
    apipe.copy %A[%off], %buf[%c0], 4, %n queue 1
        : memref<64xf32> to memref<4xf32, 3>
    // The same copy in generic form:
    apipe.copy %A[%off], %buf[%c0], 4, %n queue 1 : memref<64xf32> to memref<4xf32, 3>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "the memref read", [MemRead]>:$src,
                       Arg<AnyMemRef, "the memref written", [MemWrite]>:$dst,
                       Variadic<Index>:$indices,
                       I64Attr:$elements,
                       OptionalAttr<I64Attr>:$queue,
                       UnitAttr:$bypass_l1);
  // The assembly format language cannot split the one `indices` list by the
  // ranks of the memref types that follow it, and one list keeps the generic
  // form (and the Rust builders) unchanged; so parser and printer are C++
  // (dialects/cpp/ApipeDialect.cpp).
  let hasCustomAssemblyFormat = 1;
  // The index count must fit the ranks for the custom form to print; the
  // other semantic checks live in the Rust verifier.
  let hasVerifier = 1;
}

def Apipe_CommitGroupOp : Apipe_Op<"commit_group",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "commits the uncommitted copies of a queue as one group";
  let description = [{
    Moves every uncommitted copy of the queue into a new group at the tail of
    the queue's FIFO. An empty group is legal: it completes as soon as every
    older group of the queue has. In token form the op returns an
    `!apipe.token` naming the new group; in counting form it has no result.

    Counting form lowers to PTX `cp.async.commit_group` (PTX ISA
    9.7.9.25.3.2) and `nvgpu.device_async_create_group`.

    The `queue` attribute selects the queue (absent means 0).

    Example:

    ```mlir
    apipe.commit_group
    %t = apipe.commit_group queue 1
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$queue);
  let results = (outs Optional<Apipe_TokenType>:$token);
  // The token result has no type in the syntax: the number of result names
  // the parser saw (`%t = ` or none) decides it (custom<TokenResult>).
  let assemblyFormat = [{
    (`queue` $queue^)? attr-dict `` custom<TokenResult>(type($token))
  }];
}

def Apipe_WaitGroupOp : Apipe_Op<"wait_group",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until all but the newest `pending` groups complete";
  let description = [{
    Blocks the thread until every committed group of the queue except the
    newest `pending` ones is complete. Uncommitted copies are not waited for.
    With fewer than `pending + 1` groups it has no effect. Waits are per
    thread: a barrier is still needed before other threads read the data.

    Lowers to PTX `cp.async.wait_group N` (PTX ISA 9.7.9.25.3.3) and
    `nvgpu.device_async_wait {numGroups = N}`.

    The `pending` attribute (N) is the number of newest groups allowed to stay
    in flight; it must be non-negative. The `queue` attribute selects the
    queue (absent means 0).

    Example:

    ```mlir
    apipe.wait_group 1
    apipe.wait_group 0 queue 2
    ```
  }];
  let arguments = (ins I64Attr:$pending, OptionalAttr<I64Attr>:$queue);
  let assemblyFormat = "$pending (`queue` $queue^)? attr-dict";
}

def Apipe_WaitOp : Apipe_Op<"wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until each named group is complete";
  let description = [{
    Blocks the thread until the group named by each token operand is complete
    (and so every older group of the same queue). Token form of
    `apipe.wait_group`; `apipe-tokens-to-counting` turns it into one
    `wait_group` per queue with the exact FIFO distance.

    It takes at least one operand, all of type `!apipe.token`.

    Example:

    ```mlir
    apipe.wait %t0, %t1
    ```
  }];
  let arguments = (ins Variadic<Apipe_TokenType>:$tokens);
  let assemblyFormat = "$tokens attr-dict";
}

def Apipe_ReadyOp : Apipe_Op<"ready", [Pure]> {
  let summary = "a token naming an already complete group";
  let description = [{
    Returns a token for a group that is already complete, such as the initial
    value of a token window carried through `scf.for` iter_args before the
    first commit. Waiting on it has no effect, so the op has no memory effect
    (two of them may be merged, an unused one dropped, one hoisted out of a
    loop).

    The `queue` attribute selects the queue (absent means 0).

    Example:

    ```mlir
    %t = apipe.ready
    %u = apipe.ready queue 1
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$queue);
  let results = (outs Apipe_TokenType:$token);
  let assemblyFormat = "(`queue` $queue^)? attr-dict";
}
