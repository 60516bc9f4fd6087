//! `scf.index_switch` case values that MLIR's lowering cannot keep.
//!
//! `convert-scf-to-cf` (MLIR 22) lowers `scf.index_switch` to a `cf.switch`
//! on the value truncated to `i32`, with each case value truncated too. A
//! case outside the `i32` range then matches another value, silently, or
//! two cases become one and LLVM rejects the module ("Duplicate integer as
//! switch case", which `apipe-run` and `apipe-translate` reported with no
//! location; found by fuzzing). Both tools refuse such a switch before
//! lowering, with a located error.

use apipe_dialect::{diagnostic, ops};
use melior::ir::{attribute::AttributeLike as _, operation::OperationLike, OperationRef};

/// Reports every `scf.index_switch` nested in `root` with a case value
/// outside the `i32` range; true if there is none.
pub fn check<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) -> bool {
    let mut ok = true;
    for op in ops::nested_ops(root) {
        if ops::is(&op, "scf.index_switch") {
            ok &= check_switch(&op);
        }
    }
    ok
}

/// One switch: a located error at the first case outside the `i32` range.
fn check_switch(op: &OperationRef) -> bool {
    let Ok(cases) = op.attribute("cases") else {
        return true;
    };
    // SAFETY: a live attribute, checked to be a dense i64 array first.
    let values: Vec<i64> = unsafe {
        let raw = cases.to_raw();
        if !mlir_sys::mlirAttributeIsADenseI64Array(raw) {
            return true;
        }
        (0..mlir_sys::mlirDenseArrayGetNumElements(raw))
            .map(|i| mlir_sys::mlirDenseI64ArrayGetElement(raw, i))
            .collect()
    };
    match values.iter().find(|v| i32::try_from(**v).is_err()) {
        None => true,
        Some(v) => {
            diagnostic::error(
                op.location(),
                &format!(
                    "'scf.index_switch' case {v} does not fit in 32 bits: MLIR's lowering to cf.switch compares the value as i32, where this case would match another value"
                ),
            );
            false
        }
    }
}
