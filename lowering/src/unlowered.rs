//! The ops a lowering pipeline left outside the LLVM dialects, each
//! reported at its own location before MLIR's translation to LLVM IR (or the
//! JIT) sees them.
//!
//! MLIR's translation stops at the first op it cannot translate, and that op
//! is usually a `builtin.unrealized_conversion_cast` that the conversion
//! left at a function's arguments for the real culprit (an n-D
//! `vector.load`, which `convert-vector-to-llvm` does not lower): the
//! message then points at the function and names the cast, and the tools
//! add an error with no location. Reporting every op outside `llvm` and
//! `nvvm` first names the op the user wrote, where it is.

use apipe_dialect::{diagnostic, ops, Reported};
use melior::ir::{operation::OperationLike, OperationRef, TypeLike, ValueLike};

/// The most unlowered ops reported (the rest are usually the same cause).
const MOST_REPORTED: usize = 10;

/// Emits a located error at each op nested in `root` that is not in the
/// `llvm` or `nvvm` dialect (modules aside); the casts that conversions
/// leave between types are reported only when no other op is left.
///
/// # Errors
/// [`Reported`] if any such op is left.
pub fn refuse_unlowered(root: &OperationRef) -> Result<(), Reported> {
    let left: Vec<OperationRef> = ops::nested_ops(root)
        .into_iter()
        .filter(|op| {
            let name = ops::name(op);
            !(name.starts_with("llvm.")
                || name.starts_with("nvvm.")
                || matches!(name, "builtin.module" | "gpu.module"))
        })
        .collect();
    if left.is_empty() {
        return Ok(());
    }
    let real: Vec<&OperationRef> = left
        .iter()
        .filter(|op| !ops::is(*op, "builtin.unrealized_conversion_cast"))
        .collect();
    if real.is_empty() {
        diagnostic::error(
            left[0].location(),
            "a 'builtin.unrealized_conversion_cast' is left after lowering to the LLVM \
             dialect: a value's type was not converted (an op that produces or uses it was \
             not lowered)",
        );
        return Err(Reported);
    }
    for op in real.iter().take(MOST_REPORTED) {
        let name = ops::name(*op);
        diagnostic::error(op.location(), &format!("'{name}' op {}", reason(op)));
    }
    Err(Reported)
}

/// Why `op` was not lowered, as far as known: `convert-vector-to-llvm`
/// lowers memory ops of 1-D vectors only.
fn reason(op: &OperationRef) -> String {
    let name = ops::name(op);
    let rank = (0..op.result_count())
        .filter_map(|i| op.result(i).ok())
        .map(|r| r.r#type())
        .chain(
            (0..op.operand_count())
                .filter_map(|i| op.operand(i).ok())
                .map(|v| v.r#type()),
        )
        .filter(|t| t.is_vector())
        // SAFETY: `t` is a live vector type (a shaped type with a rank).
        .map(|t| unsafe { mlir_sys::mlirShapedTypeGetRank(t.to_raw()) })
        .max();
    match rank {
        Some(rank) if name.starts_with("vector.") && rank > 1 => format!(
            "on a {rank}-D vector (the op written here, or what the lowering made of it, as a \
             vector.maskedload becomes vector.load) is not lowered to the LLVM dialect: \
             convert-vector-to-llvm lowers memory ops of 1-D vectors only (use \
             vector.transfer_read / transfer_write, or 1-D vectors)"
        ),
        _ => "is not lowered to the LLVM dialect by apipe's pipeline".to_owned(),
    }
}
