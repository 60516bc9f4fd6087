//! Launch-time facts of GPU index values: the block size, where the kernel
//! states it, bounds the thread ids (`0 <= gpu.thread_id d < block_dim d`)
//! and folds `gpu.block_dim` to a constant; the grid size, where stated,
//! bounds the block ids (`0 <= gpu.block_id d < grid_dim d`) the same way.
//!
//! Sources, in order: the op's own `upper_bound` (`gpu.thread_id x
//! upper_bound 64`: the id is below it; `gpu.block_dim x upper_bound 64`
//! bounds only); the enclosing `gpu.func`'s `known_block_size` /
//! `known_grid_size` (or a `func.func`'s discardable `gpu.known_block_size`
//! / `gpu.known_grid_size`); a `gpu.launch` whose block or grid size
//! operands are constants. MLIR: GPUOps.td (`gpu.thread_id`,
//! `gpu.block_id`, `gpu.block_dim`, `gpu.grid_dim`, `gpu.launch`,
//! `known_block_size`, `known_grid_size`).

use super::{block_argument, constant, integer_attribute};
use apipe_dialect::ops;
use apipe_dialect::ops::Checked as _;
use melior::ir::{operation::OperationLike, BlockLike, OperationRef, TypeLike, Value, ValueLike};

/// The dimension (0 for `x`, 1 for `y`, 2 for `z`) of a `gpu.thread_id`,
/// `gpu.block_dim`, ... op (its `#gpu<dim ...>` attribute).
pub(super) fn dimension(op: &OperationRef) -> Option<usize> {
    let text = op.attribute("dimension").ok()?.to_string();
    ["x>", "y>", "z>"]
        .iter()
        .position(|d| text.trim_end().ends_with(d))
}

/// The block size in dimension `d` stated by the function or launch around
/// `op`: `known_block_size` of the innermost function-like op, or the
/// constant block size operand of the innermost `gpu.launch`.
pub(super) fn known_block_size(op: &OperationRef, d: usize) -> Option<i64> {
    known_size(op, Size::Block, d)
}

/// The grid size (blocks) in dimension `d` stated by the function or launch
/// around `op`: `known_grid_size` of the innermost function-like op, or the
/// constant grid size operand of the innermost `gpu.launch`.
pub(super) fn known_grid_size(op: &OperationRef, d: usize) -> Option<i64> {
    known_size(op, Size::Grid, d)
}

/// Which launch size: the grid's (blocks) or a block's (threads).
#[derive(Clone, Copy)]
enum Size {
    Grid = 0,
    Block = 3,
}

fn known_size(op: &OperationRef, size: Size, d: usize) -> Option<i64> {
    let mut current = op.parent_operation();
    while let Some(parent) = current {
        if ops::is(&parent, "gpu.launch") {
            return launch_size(&parent, size as usize + d);
        }
        if ops::is_function(&parent) {
            let name = match size {
                Size::Grid => "known_grid_size",
                Size::Block => "known_block_size",
            };
            let sizes = super::dense_i32(&parent, name)
                .or_else(|| super::dense_i32(&parent, &format!("gpu.{name}")))?;
            return sizes.get(d).map(|s| i64::from(*s)).filter(|s| *s > 0);
        }
        current = parent.parent_operation();
    }
    None
}

/// The constant size operand `n` of a `gpu.launch`: its operands are the
/// async dependencies, then grid x, y, z (`n` = 0-2) and block x, y, z
/// (`n` = 3-5).
fn launch_size(launch: &OperationRef, n: usize) -> Option<i64> {
    let dependencies = launch
        .operands()
        .take_while(|v| !v.r#type().is_index())
        .count();
    constant(launch.operand_at(dependencies + n)?).filter(|s| *s > 0)
}

/// The `upper_bound` attribute of `op`, if any.
fn upper_bound(op: &OperationRef) -> Option<i64> {
    integer_attribute(op.attribute("upper_bound").ok()?).filter(|b| *b > 0)
}

/// The exclusive bound of a `gpu.thread_id`: its `upper_bound`, or the
/// known block size in its dimension.
pub(super) fn thread_id_bound(op: &OperationRef) -> Option<i64> {
    id_bound(op, Size::Block)
}

/// The exclusive bound of a `gpu.block_id`: its `upper_bound`, or the
/// known grid size in its dimension.
pub(super) fn block_id_bound(op: &OperationRef) -> Option<i64> {
    id_bound(op, Size::Grid)
}

/// The exclusive bound of a thread or block id op: the smaller of its
/// `upper_bound` and the known `size` in its dimension.
fn id_bound(op: &OperationRef, size: Size) -> Option<i64> {
    let known = known_size(op, size, dimension(op)?);
    match (upper_bound(op), known) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The value of a `gpu.grid_dim`, where the grid size is known.
pub(super) fn grid_dim(op: &OperationRef) -> Option<i64> {
    known_grid_size(op, dimension(op)?)
}

/// The value of a `gpu.block_dim`, where the block size is known.
pub(super) fn block_dim(op: &OperationRef) -> Option<i64> {
    known_block_size(op, dimension(op)?)
}

/// The launch body argument position of a value: arguments 3-5 of a
/// `gpu.launch` body are the thread ids, 9-11 the block sizes.
fn launch_argument<'c, 'a>(value: Value<'c, 'a>) -> Option<(OperationRef<'c, 'a>, usize)> {
    let (block, n) = block_argument(value)?;
    let launch = block.parent_operation()?;
    (ops::is(&launch, "gpu.launch") && ops::is_entry_block(&block)).then_some((launch, n))
}

/// If `value` is a block id (body arguments 0-2) or a thread id (3-5) of a
/// `gpu.launch` body: `Some` of its exclusive bound (the constant grid or
/// block size), `Some(None)` if unknown.
pub(super) fn launch_id(value: Value) -> Option<Option<i64>> {
    let (launch, n) = launch_argument(value)?;
    (0..6).contains(&n).then(|| launch_size(&launch, n))
}

/// The constant grid size (body arguments 6-8) or block size (9-11) a
/// `gpu.launch` body argument stands for.
pub(super) fn launch_size_argument(value: Value) -> Option<i64> {
    let (launch, n) = launch_argument(value)?;
    (6..12).contains(&n).then(|| launch_size(&launch, n - 6))?
}
