//! Launch-time facts of GPU index values: the block size, where the kernel
//! states it, bounds the thread ids (`0 <= gpu.thread_id d < block_dim d`)
//! and folds `gpu.block_dim` to a constant.
//!
//! Sources, in order: the op's own `upper_bound` (`gpu.thread_id x
//! upper_bound 64`: the id is below it; `gpu.block_dim x upper_bound 64`
//! bounds only); the enclosing `gpu.func`'s `known_block_size` (or a
//! `func.func`'s discardable `gpu.known_block_size`); a `gpu.launch` whose
//! block size operands are constants. MLIR: GPUOps.td (`gpu.thread_id`,
//! `gpu.block_dim`, `gpu.launch`, `known_block_size`).

use super::{block_argument, constant, integer_attribute};
use apipe_dialect::ops;
use apipe_dialect::ops::Checked as _;
use melior::ir::{
    attribute::AttributeLike as _, operation::OperationLike, BlockLike, OperationRef, TypeLike,
    Value, ValueLike,
};

/// The dimension (0 for `x`, 1 for `y`, 2 for `z`) of a `gpu.thread_id`,
/// `gpu.block_dim`, ... op (its `#gpu<dim ...>` attribute).
pub(super) fn dimension(op: &OperationRef) -> Option<usize> {
    let text = op.attribute("dimension").ok()?.to_string();
    ["x>", "y>", "z>"]
        .iter()
        .position(|d| text.trim_end().ends_with(d))
}

/// The elements of a dense i32 array attribute named `name` on `op`.
fn dense_i32(op: &OperationRef, name: &str) -> Option<Vec<i64>> {
    let attribute = op.attribute(name).ok()?;
    // SAFETY: a live attribute; checked to be a dense i32 array first.
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseI32Array(attribute.to_raw()) {
            return None;
        }
        let count = mlir_sys::mlirDenseArrayGetNumElements(attribute.to_raw());
        Some(
            (0..count)
                .map(|i| mlir_sys::mlirDenseI32ArrayGetElement(attribute.to_raw(), i) as i64)
                .collect(),
        )
    }
}

/// The block size in dimension `d` stated by the function or launch around
/// `op`: `known_block_size` of the innermost function-like op, or the
/// constant block size operand of the innermost `gpu.launch`.
pub(super) fn known_block_size(op: &OperationRef, d: usize) -> Option<i64> {
    let mut current = op.parent_operation();
    while let Some(parent) = current {
        if ops::is(&parent, "gpu.launch") {
            return launch_size(&parent, d);
        }
        if ops::is_function(&parent) {
            let sizes = dense_i32(&parent, "known_block_size")
                .or_else(|| dense_i32(&parent, "gpu.known_block_size"))?;
            return sizes.get(d).copied().filter(|s| *s > 0);
        }
        current = parent.parent_operation();
    }
    None
}

/// The constant block size operand `d` of a `gpu.launch`: its operands are
/// the async dependencies, then grid x, y, z and block x, y, z.
fn launch_size(launch: &OperationRef, d: usize) -> Option<i64> {
    let dependencies = launch
        .operands()
        .take_while(|v| !v.r#type().is_index())
        .count();
    constant(launch.operand_at(dependencies + 3 + d)?).filter(|s| *s > 0)
}

/// The `upper_bound` attribute of `op`, if any.
fn upper_bound(op: &OperationRef) -> Option<i64> {
    integer_attribute(op.attribute("upper_bound").ok()?).filter(|b| *b > 0)
}

/// The exclusive bound of a `gpu.thread_id`: its `upper_bound`, or the
/// known block size in its dimension.
pub(super) fn thread_id_bound(op: &OperationRef) -> Option<i64> {
    let d = dimension(op)?;
    let known = known_block_size(op, d);
    match (upper_bound(op), known) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
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

/// If `value` is a thread id of a `gpu.launch` body: `Some` of its
/// exclusive bound (the constant block size), `Some(None)` if unknown.
pub(super) fn launch_thread_id(value: Value) -> Option<Option<i64>> {
    let (launch, n) = launch_argument(value)?;
    (3..6).contains(&n).then(|| launch_size(&launch, n - 3))
}

/// The constant block size a `gpu.launch` body argument stands for.
pub(super) fn launch_block_size(value: Value) -> Option<i64> {
    let (launch, n) = launch_argument(value)?;
    (9..12).contains(&n).then(|| launch_size(&launch, n - 9))?
}
