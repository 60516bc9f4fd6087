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
      group and `apipe.wait` names the groups it waits for;
    * **mbarrier**: groups complete on the slots of a ring of PTX mbarriers
      (`apipe.mbarrier_*`, `apipe.bulk_copy`): a group is the copies a
      thread issued before it arrives on a slot, and a wait names the slot
      and the parity of the phase that completes it (docs/mbarrier.md).

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
    have the same element type. The bytes read and the bytes written must
    not overlap (PTX copies global to shared memory): the order of the
    element copies is unspecified, and `apipe-run` stops at such a copy.

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
    "apipe.copy"(%A, %buf, %off, %c0, %n) {elements = 4 : i64, queue = 1 : i64}
        : (memref<64xf32>, memref<4xf32, 3>, index, index, index) -> ()
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

//===----------------------------------------------------------------------===//
// mbarrier form (docs/mbarrier.md)
//
// Groups complete on barrier slots with phases, as PTX mbarriers (PTX ISA
// 9.7.13.15, "Parallel Synchronization and Communication Instructions:
// mbarrier"). A ring of K slots is a `memref<Kxi64, 3>` in workgroup memory,
// one 64-bit mbarrier object per slot.
//===----------------------------------------------------------------------===//

def Apipe_MbarrierInitOp : Apipe_Op<"mbarrier_init"> {
  let summary = "initialises every slot of a ring of mbarriers";
  let description = [{
    Initialises every slot of the ring `ring` (a `memref<Kxi64, 3>` in
    workgroup memory, one 64-bit mbarrier object per slot): current phase
    0, expected arrival count `count`, pending arrival count `count`,
    transaction count 0, as PTX `mbarrier_init.shared.b64` (PTX ISA
    9.7.13.15.9, "mbarrier_init") does for each slot.

    One thread initialises the ring; a `gpu.barrier` must order the
    initialisation before any other thread uses it (on sm_90 the lowering
    adds `fence.mbarrier_init.release.cluster`, PTX ISA 9.7.13.4, before the
    asynchronous proxy of bulk copies may use the slots).
    `apipe-tokens-to-mbarrier` emits it at the start of the function,
    guarded by "thread 0" in a kernel, followed by a barrier.

    `count` is the number of arrivals that complete a phase: the threads of
    the block (every thread arrives once per group), in [1, 2^20 - 1].

    Example:

    ```mlir
    apipe.mbarrier_init %ring, %threads : memref<4xi64, 3>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "the ring of mbarrier slots", [MemWrite]>:$ring,
                       Index:$count);
  let assemblyFormat = "$ring `,` $count attr-dict `:` type($ring)";
}

def Apipe_MbarrierArriveCopiesOp : Apipe_Op<"mbarrier_arrive_copies",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "arrives on a slot when this thread's earlier copies complete";
  let description = [{
    Makes slot `slot` of `ring` track every `apipe.copy` this thread issued
    before (on any queue): once they have all completed, one arrival is
    counted on the slot's current phase. This is PTX
    `cp.async.mbarrier.arrive.noinc.shared.b64` (PTX ISA 9.7.13.15.15,
    "cp.async.mbarrier.arrive"):
    `.noinc` means the pending count is not raised first, so the
    asynchronous arrival counts as one of the `count` arrivals that
    `apipe.mbarrier_init` expects. It is the mbarrier form of
    `apipe.commit_group`: the copies issued before it form the group that
    the slot's phase completes.

    When the phase completes (every expected arrival counted and the
    transaction count at zero), every copy each arriving thread issued
    before its arrival has landed, and a thread whose
    `apipe.mbarrier_wait` returns on that phase sees their data (release at
    the arrival, acquire at the wait).

    Example:

    ```mlir
    apipe.mbarrier_arrive_copies %ring[%slot] : memref<4xi64, 3>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "the ring of mbarrier slots", [MemRead, MemWrite]>:$ring,
                       Index:$slot);
  let assemblyFormat = "$ring `[` $slot `]` attr-dict `:` type($ring)";
}

def Apipe_MbarrierExpectTxOp : Apipe_Op<"mbarrier_expect_tx",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "expects transaction bytes on a slot's current phase";
  let description = [{
    Raises the transaction count of slot `slot`'s current phase by `bytes`,
    as PTX `mbarrier_expect_tx.relaxed.cta.shared.b64` (PTX ISA
    9.7.13.15.11, sm_90). The phase cannot complete before bulk copies
    (`apipe.bulk_copy`) have completed as many bytes on the slot
    (`complete_tx`). The thread that issues bulk copies expects their bytes
    before it issues them and before it arrives, so the phase cannot
    complete early.

    The `bytes` attribute is the number of bytes, in [1, 2^20 - 1] (the
    range of the transaction count).

    Example:

    ```mlir
    apipe.mbarrier_expect_tx %ring[%slot], 256 : memref<4xi64, 3>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "the ring of mbarrier slots", [MemRead, MemWrite]>:$ring,
                       Index:$slot,
                       I64Attr:$bytes);
  let assemblyFormat = "$ring `[` $slot `]` `,` $bytes attr-dict `:` type($ring)";
}

def Apipe_BulkCopyOp : Apipe_Op<"bulk_copy",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "bulk copy that completes its bytes on an mbarrier slot";
  let description = [{
    Issues an asynchronous bulk copy of `elements` contiguous elements of
    the innermost dimension from `src` (global memory) at the source indices
    to `dst` (workgroup memory) at the destination indices; when it has
    landed, it completes its bytes (`elements` times the element width) on
    the transaction count of slot `slot` of `ring`. This is PTX
    `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes`
    (PTX ISA 9.7.9.25.4.1, "cp.async.bulk", sm_90): both addresses are
    16-byte aligned and it moves a multiple of 16 bytes. It belongs to no
    queue and to no group of `apipe.mbarrier_arrive_copies`: only the
    slot's phase tracks it.

    No pass makes it: it is written by hand (or by a frontend), with an
    `apipe.mbarrier_expect_tx` of its bytes on the same slot before it, and
    `apipe-mbarrier-to-nvvm{sm=90}` lowers both (docs/mbarrier.md, "Bulk
    copies").

    The `elements` attribute is the number of elements copied (> 0). In the
    generic form the source and destination indices are one operand list
    `indices` after `ring` and `slot`: rank(src) source indices, then
    rank(dst) destination indices (as `apipe.copy`, whose custom syntax this
    op follows).

    Example:

    ```mlir
    apipe.bulk_copy %A[%row, %k], %As[%r, %c0], 16, %ring[%slot]
        : memref<2048x2048xf32> to memref<64x16xf32, 3>, memref<4xi64, 3>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "the memref read", [MemRead]>:$src,
                       Arg<AnyMemRef, "the memref written", [MemWrite]>:$dst,
                       Arg<AnyMemRef, "the ring of mbarrier slots", [MemRead, MemWrite]>:$ring,
                       Index:$slot,
                       Variadic<Index>:$indices,
                       I64Attr:$elements);
  // As `apipe.copy`: the format language cannot split `indices` by the
  // ranks of the memref types (dialects/cpp/ApipeBulkCopy.cpp). ODS's
  // `AttrSizedOperandSegments` would, but LLVM 22's mlir-tblgen emits C++
  // that does not compile for it when attributes are not properties.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Apipe_MbarrierWaitOp : Apipe_Op<"mbarrier_wait",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until a slot's phase of parity `parity` is complete";
  let description = [{
    Blocks the thread until the phase of slot `slot` of `ring` whose parity
    is `parity` (0 for even phases, 1 for odd) is complete: the current
    phase or the one just before it. As PTX `mbarrier.test_wait.parity` /
    `mbarrier.try_wait.parity` (PTX ISA 9.7.13.15.16): it returns when the
    slot's current phase has the other parity, i.e. at once if the phase
    just before the current one has parity `parity`, else when the current
    phase completes. A wait whose parity names a phase two or more behind
    the current one waits for a later phase instead (the phase bit is out
    of step); `apipe-tokens-to-mbarrier` never emits one.

    When it returns, the copies that the phase's arrivals tracked (and the
    bulk copies that completed its transaction bytes) are visible to this
    thread: no barrier is needed to read another thread's copies.

    Lowers to an `mbarrier.try_wait.parity` loop on sm_90 and an
    `mbarrier.test_wait.parity` loop on sm_80.

    Example:

    ```mlir
    apipe.mbarrier_wait %ring[%slot], %parity : memref<4xi64, 3>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "the ring of mbarrier slots", [MemRead, MemWrite]>:$ring,
                       Index:$slot,
                       I1:$parity);
  let assemblyFormat = "$ring `[` $slot `]` `,` $parity attr-dict `:` type($ring)";
}
