//! IR surgery shared by every pass and conversion (the passes here and
//! the conversions of `apipe-lowering`, `apipe-run`'s included): erasing
//! ops and blocks, replacing the uses of a value, cloning and moving an
//! op, and moving a region's body. Each goes through MLIR's `IRRewriter` (melior's [`IrRewriter`]),
//! the way an upstream rewrite pattern changes IR, so that no pass calls
//! the C API's `mlirOperationDestroy`, `mlirValueReplaceAllUsesOfWith` or
//! `mlirBlockDestroy` itself.
//!
//! A rewriter here is made per call from the IR it changes
//! (`IRRewriter(op)`): the passes run outside a pattern driver, so there
//! are no listeners to notify and nothing is gained by threading one
//! rewriter through them.
//!
//! Invariants the callers keep (MLIR's own, as for `RewriterBase`):
//! an op is erased only when its results have no uses left, and no handle
//! to an erased op, block or value is used again.

use melior::{
    ir::{BlockLike, BlockRef, Operation, OperationRef, RegionLike, TypeLike, Value, ValueLike},
    IrRewriter,
};

/// Erases `op` and its regions (`RewriterBase::eraseOp`).
///
/// The op's results must have no uses left.
pub fn erase_op(op: OperationRef) {
    let rewriter = IrRewriter::from_op(op);
    rewriter.as_rewriter_base().erase_op(op);
}

/// Erases `block` and its ops (`RewriterBase::eraseBlock`).
///
/// The block's arguments and its ops' results must have no uses outside
/// it, and no branch may target it.
pub fn erase_block(block: BlockRef) {
    let Some(anchor) = block.parent_operation() else {
        // A detached block has no context to reach a rewriter through;
        // every block this crate erases is in a region.
        unreachable!("erase_block on a block outside any region");
    };
    let rewriter = IrRewriter::from_op(anchor);
    rewriter.as_rewriter_base().erase_block(block);
}

/// Replaces every use of `from` by `to`
/// (`RewriterBase::replaceAllUsesWith`).
///
/// Both values must be live and of the same type.
pub fn replace_all_uses_with(from: Value, to: Value) {
    let context = from.r#type().context();
    // SAFETY: the context outlives the rewriter made here.
    let rewriter = IrRewriter::new(unsafe { context.to_ref() });
    rewriter.as_rewriter_base().replace_all_uses_with(from, to);
}

/// A deep copy of `op`, detached from any block (`Operation::clone`):
/// conversions run on it and commit their result with [`take_body`] only
/// once every step succeeded.
pub fn detached_clone<'c>(op: OperationRef<'c, '_>) -> Operation<'c> {
    // SAFETY: `op` is live; the reference is used only to clone it.
    unsafe { op.to_ref() }.clone()
}

/// A deep copy of `op` inserted right before `before`
/// (`RewriterBase::clone` at that insertion point).
pub fn clone_before<'c, 'a>(
    op: OperationRef<'c, 'a>,
    before: OperationRef<'c, 'a>,
) -> OperationRef<'c, 'a> {
    let rewriter = IrRewriter::from_op(before);
    let base = rewriter.as_rewriter_base();
    base.set_insertion_point_before(before);
    base.clone_op(op)
}

/// Moves the blocks of `from` into `into`, whose own blocks are erased
/// first (`Region::takeBody`).
///
/// The C API's `mlirRegionTakeBody` is the one raw call left: melior's
/// rewriter can inline a region only before an existing block, and `into`
/// is often a fresh, empty region.
pub fn take_body<'c: 'a, 'a>(into: &impl RegionLike<'c, 'a>, from: &impl RegionLike<'c, 'a>) {
    // SAFETY: both regions are live; `from` is left empty.
    unsafe { mlir_sys::mlirRegionTakeBody(into.to_raw(), from.to_raw()) }
}

/// Moves `op` right before `before`, which may be in another block
/// (`RewriterBase::moveOpBefore`).
pub fn move_op_before(op: OperationRef, before: OperationRef) {
    let rewriter = IrRewriter::from_op(before);
    rewriter.as_rewriter_base().move_op_before(op, before);
}
