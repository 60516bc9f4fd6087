//! Ops directly in a module's body must be module-level ops, before
//! `apipe-run` or `apipe-translate` lowers anything.
//!
//! The body of a `builtin.module` or `gpu.module` takes any op as far as
//! MLIR's verifier goes. But an op there that is not a symbol (an
//! `arith.constant`, a `func.call`, a `memref.alloc`, ...) has no function
//! to run in: the LLVM translation makes it a parentless instruction
//! (LLVM: "Global is referenced by parentless instruction!", with no
//! location, and the JIT or the translation fails) or drops it. So
//! [`check`] reports each such op with a located error. Allowed: ops with a
//! `sym_name` (functions, globals, nested `gpu.module`s), unnamed
//! `builtin.module`s, and LLVM's module-level ops without a name.

use apipe_dialect::ops::Checked as _;
use apipe_dialect::{diagnostic, ops};
use melior::ir::{
    operation::{OperationLike, OperationRef},
    BlockLike, RegionLike,
};

/// Module-level ops that need no `sym_name`.
const UNNAMED_MODULE_OPS: [&str; 5] = [
    "builtin.module",
    "llvm.module_flags",
    "llvm.linker_options",
    "llvm.mlir.global_ctors",
    "llvm.mlir.global_dtors",
];

/// Whether `op` belongs directly in a module's body.
fn module_level(op: &OperationRef) -> bool {
    op.attribute("sym_name").is_ok() || UNNAMED_MODULE_OPS.contains(&ops::name(op))
}

/// A located error at every op under `root` (itself a module, or holding
/// modules) that sits directly in the body of a `builtin.module` or
/// `gpu.module` and is not a module-level op. Returns whether there was
/// none.
pub fn check<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) -> bool {
    let mut ok = true;
    for op in ops::self_and_nested_ops(root) {
        let name = ops::name(&op);
        if name != "builtin.module" && name != "gpu.module" {
            continue;
        }
        let Some(body) = op.region_at(0).and_then(|r| r.first_block()) else {
            continue;
        };
        let mut next = body.first_operation();
        while let Some(inner) = next {
            if !module_level(&inner) {
                diagnostic::error(
                    inner.location(),
                    &format!(
                        "'{}' op must be inside a function body: an op directly in a '{name}' \
                         has no function to run in",
                        ops::name(&inner)
                    ),
                );
                ok = false;
            }
            next = inner.next_in_block();
        }
    }
    ok
}
