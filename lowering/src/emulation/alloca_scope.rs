//! `memref.alloca_scope` inlined between `llvm.intr.stacksave` and
//! `llvm.intr.stackrestore`, before the upstream lowering to the LLVM
//! dialect.
//!
//! Why: `memref.alloca_scope` holds a single block, and upstream
//! `convert-scf-to-cf` runs before `finalize-memref-to-llvm` (which lowers
//! the scope): an `scf` op in the scope becomes several blocks, the scope
//! no longer verifies, and the lowering fails on a valid program. This is
//! the LLVM lowering of the scope (MLIR's `AllocaScopeOpLowering`: save the
//! stack pointer, run the body, restore it) done first, while the body is
//! still one block.
//!
//! Algorithm, for each scope, innermost first:
//! 1. `%sp = llvm.intr.stacksave : !llvm.ptr` before the scope;
//! 2. move every op of its block but the `memref.alloca_scope.return`
//!    before the scope, in order;
//! 3. `llvm.intr.stackrestore %sp` before the scope (after the body);
//! 4. replace each result of the scope by the matching operand of its
//!    `memref.alloca_scope.return`, and erase the scope.
//!
//! Semantics kept: the body runs once, in place; the memory of its
//! `memref.alloca`s is released when it ends (so an alloca in a loop body
//! wrapped in a scope does not grow the stack per iteration). The results
//! do not depend on the scope's allocas (MLIR requires it: a result may not
//! be a memref of the scope's own stack).

use super::Emitter;
use apipe_dialect::ops;
use melior::ir::{
    operation::{OperationBuilder, OperationLike},
    BlockLike, RegionLike, Type, Value, ValueLike,
};
use mlir_sys::{mlirOperationDestroy, mlirOperationMoveBefore, mlirValueReplaceAllUsesOfWith};

/// Inlines every `memref.alloca_scope` nested in `root`.
pub fn inline<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>, emitter: &Emitter<'c, 'a>) {
    let context = emitter.context;
    let pointer = Type::parse(context, "!llvm.ptr").expect("the LLVM pointer type");
    // Post-order: a scope nested in another one is inlined first.
    for scope in ops::nested_ops_post_order(root)
        .into_iter()
        .filter(|op| ops::is(op, "memref.alloca_scope"))
    {
        let location = scope.location();
        let Some(body) = scope.region(0).ok().and_then(|r| r.first_block()) else {
            continue; // an empty region: no body, no results
        };
        // 1.
        let save: Value = emitter
            .before(
                scope,
                OperationBuilder::new("llvm.intr.stacksave", location)
                    .add_results(&[pointer])
                    .build()
                    .expect("valid llvm.intr.stacksave"),
            )
            .result(0)
            .unwrap()
            .into();
        // 2.
        let terminator = body.terminator();
        while let Some(op) = body.first_operation() {
            if terminator.is_some_and(|t| t == op) {
                break;
            }
            // SAFETY: both ops are live; `op` leaves the scope's block.
            unsafe { mlirOperationMoveBefore(op.to_raw(), scope.to_raw()) };
        }
        // 3.
        emitter.before(
            scope,
            OperationBuilder::new("llvm.intr.stackrestore", location)
                .add_operands(&[save])
                .build()
                .expect("valid llvm.intr.stackrestore"),
        );
        // 4.
        if let Some(terminator) = terminator {
            for (result, value) in scope.results().zip(terminator.operands()) {
                // SAFETY: live values of the same type.
                unsafe { mlirValueReplaceAllUsesOfWith(result.to_raw(), value.to_raw()) };
            }
        }
        // SAFETY: the scope's results have no uses left; its body holds only
        // the terminator; no handle to either is used again.
        unsafe { mlirOperationDestroy(scope.to_raw()) }
    }
}
