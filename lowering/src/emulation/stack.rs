//! Stack memory in emulation: `memref.alloca_scope` inlined between
//! `llvm.intr.stacksave` and `llvm.intr.stackrestore` ([`inline`]), and a
//! check wherever stack memory is released ([`check_releases`]).
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
//! 5. after the restore, `apipe_emu_stack_release(id, %sp)`: a copy still
//!    pending into or out of the scope's allocas is an error (it would
//!    land in stack memory the next call reuses); and for each
//!    `memref.alloca` of a static shape in the scope's block,
//!    `apipe_emu_scope_release(id, its aligned pointer, its bytes)`: in a
//!    function's entry block LLVM makes such an alloca part of the frame,
//!    above the saved stack pointer, where the first check does not look.
//!
//! [`check_releases`]: after each `func.call` of a function of the module
//! that holds a `memref.alloca`, `apipe_emu_stack_release(id, stack
//! pointer)`: the callee's frame is gone, and a copy still pending into
//! or out of it is an error at the call. A function with allocas that no
//! call of the module reaches (the entry, or a kernel) checks the whole
//! thread stack before each of its returns.
//!
//! Semantics kept: the body runs once, in place; the memory of its
//! `memref.alloca`s is released when it ends (so an alloca in a loop body
//! wrapped in a scope does not grow the stack per iteration). The results
//! do not depend on the scope's allocas (MLIR requires it: a result may not
//! be a memref of the scope's own stack).

use super::Emitter;
use crate::emulation_runtime::{SCOPE_RELEASE_FN, STACK_RELEASE_FN};
use apipe_dialect::ops;
use apipe_dialect::ops::Checked as _;
use apipe_passes::{group_distance, rewrite};
use melior::ir::{
    operation::{OperationBuilder, OperationLike},
    r#type::{MemRefType, ShapedTypeLike},
    BlockLike, OperationRef, RegionLike, Type, Value, ValueLike,
};
use std::collections::HashSet;

/// `ptrtoint %pointer` to `i64`, before `op`.
fn address<'c, 'a>(
    emitter: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    pointer: Value<'c, 'a>,
) -> Value<'c, 'a> {
    emitter
        .before(
            op,
            OperationBuilder::new("llvm.ptrtoint", op.location())
                .add_operands(&[pointer])
                .add_results(&[emitter.i64_type()])
                .build()
                .expect("valid llvm.ptrtoint"),
        )
        .result(0)
        .unwrap()
        .into()
}

/// Inlines every `memref.alloca_scope` nested in `root`.
pub fn inline<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>, emitter: &mut Emitter<'c, 'a>) {
    let context = emitter.context;
    let pointer = Type::parse(context, "!llvm.ptr").expect("the LLVM pointer type");
    // Post-order: a scope nested in another one is inlined first.
    for scope in ops::nested_ops_post_order(root)
        .into_iter()
        .filter(|op| ops::is(op, "memref.alloca_scope"))
    {
        let location = scope.location();
        let Some(body) = scope.region_at(0).and_then(|r| r.first_block()) else {
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
        // The allocas of a static shape the scope releases (step 5).
        let allocas: Vec<(Value, i64)> =
            std::iter::successors(body.first_operation(), |o| o.next_in_block())
                .filter(|o| ops::is(o, "memref.alloca"))
                .filter_map(|o| {
                    let memref: Value = o.result(0).ok()?.into();
                    Some((memref, static_bytes(memref.r#type())?))
                })
                .collect();
        // 2.
        let terminator = body.terminator();
        while let Some(op) = body.first_operation() {
            if terminator.is_some_and(|t| t == op) {
                break;
            }
            // Both ops are live; `op` leaves the scope's block.
            rewrite::move_op_before(op, scope);
        }
        // 3.
        emitter.before(
            scope,
            OperationBuilder::new("llvm.intr.stackrestore", location)
                .add_operands(&[save])
                .build()
                .expect("valid llvm.intr.stackrestore"),
        );
        // 5. (before the scope op, so after the restore)
        let id = emitter.id(location, "");
        emitter.name(id, "memref.alloca_scope");
        let id = emitter.constant(scope, emitter.i64_type(), id);
        let sp = address(emitter, scope, save);
        emitter.call(scope, STACK_RELEASE_FN, &[id, sp], &[]);
        for (memref, bytes) in allocas {
            let pointer = super::checks::aligned_pointer(emitter, scope, memref);
            let pointer = emitter.to_i64(scope, pointer);
            let bytes = emitter.constant(scope, emitter.i64_type(), bytes);
            emitter.call(scope, SCOPE_RELEASE_FN, &[id, pointer, bytes], &[]);
        }
        // 4.
        if let Some(terminator) = terminator {
            for (result, value) in scope.results().zip(terminator.operands()) {
                // Live values of the same type.
                rewrite::replace_all_uses_with(result.into(), value);
            }
        }
        // The scope's results have no uses left; its body holds only the
        // terminator; no handle to either is used again.
        rewrite::erase_op(scope);
    }
}

/// The bytes of a memref type of a static shape and a whole number of
/// bytes per element; `None` otherwise.
fn static_bytes(ty: Type) -> Option<i64> {
    let memref = MemRefType::try_from(ty).ok()?;
    let element = super::element_bytes(memref.element())?;
    (0..memref.rank()).try_fold(element, |total, d| match memref.dim_size(d).ok()? {
        melior::ir::r#type::DimSize::Static(n) => total.checked_mul(n as i64),
        _ => None,
    })
}

/// After each `func.call` of a function of `root` that holds a
/// `memref.alloca`: `apipe_emu_stack_release(id, stack pointer)`.
pub fn check_releases<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
    emitter: &mut Emitter<'c, 'a>,
) {
    let pointer = Type::parse(emitter.context, "!llvm.ptr").expect("the LLVM pointer type");
    let nested = ops::nested_ops(root);
    let functions: Vec<OperationRef> = nested
        .iter()
        .copied()
        .filter(|op| ops::is(op, "func.func"))
        .filter(|f| {
            ops::nested_ops(f)
                .iter()
                .any(|o| ops::is(o, "memref.alloca"))
        })
        .collect();
    // Not inlined: the frame of an inlined callee would live as long as
    // its caller's, and the check would miss the program's own error.
    let no_inline = melior::ir::Attribute::parse(emitter.context, "[\"noinline\"]")
        .expect("a passthrough list");
    for function in &functions {
        // SAFETY: a handle to a live op; setting an attribute does not move it.
        let mut function =
            unsafe { melior::ir::operation::OperationRefMut::from_raw(function.to_raw()) };
        melior::ir::operation::OperationMutLike::set_attribute(
            &mut function,
            "passthrough",
            no_inline,
        );
    }
    let with_allocas: HashSet<String> = functions
        .iter()
        .filter_map(|f| {
            melior::ir::attribute::StringAttribute::try_from(f.attribute("sym_name").ok()?)
                .ok()
                .map(|s| s.value().to_owned())
        })
        .collect();
    for call in nested.iter().filter(|op| ops::is(*op, "func.call")) {
        let callee = call
            .attribute("callee")
            .ok()
            .and_then(|a| melior::ir::attribute::FlatSymbolRefAttribute::try_from(a).ok())
            .map(|s| s.value().to_owned());
        if !callee.is_some_and(|c| with_allocas.contains(&c)) {
            continue;
        }
        let Some(next) = call.next_in_block() else {
            continue;
        };
        let location = call.location();
        let id = emitter.id(location, "");
        emitter.name(id, "func.call");
        let sp: Value = emitter
            .before(
                next,
                OperationBuilder::new("llvm.intr.stacksave", location)
                    .add_results(&[pointer])
                    .build()
                    .expect("valid llvm.intr.stacksave"),
            )
            .result(0)
            .unwrap()
            .into();
        let sp = address(emitter, next, sp);
        let id = emitter.constant(next, emitter.i64_type(), id);
        emitter.call(next, STACK_RELEASE_FN, &[id, sp], &[]);
    }
    // A function no call of the module reaches (the entry `apipe-run`
    // runs, or a kernel, lowered to a host function the runtime runs once
    // per thread) releases its whole thread stack at its return: no caller
    // of the module checks its frame (trial 34: `main` returned with a copy
    // still pending into its own alloca, and the run went on; trial 31:
    // the same at a kernel's `gpu.return`). A function whose address is
    // taken may be called through a value, from frames that are still
    // live: it counts as called.
    let called: HashSet<String> = nested
        .iter()
        .filter_map(|op| {
            if group_distance::is_call(op) {
                group_distance::callee(op)
            } else {
                group_distance::address_taken(op)
            }
        })
        .collect();
    for function in &functions {
        let name = melior::ir::attribute::StringAttribute::try_from(
            function.attribute("sym_name").ok().unwrap_or(no_inline),
        )
        .map(|s| s.value().to_owned());
        if name.as_ref().map_or(true, |n| called.contains(n)) {
            continue;
        }
        let returns: Vec<OperationRef> = ops::blocks_of(function)
            .into_iter()
            .filter_map(|b| b.terminator())
            .filter(|t| ops::is(t, "func.return"))
            .collect();
        for ret in returns {
            let id = emitter.id(ret.location(), "");
            emitter.name(id, "func.return");
            let id = emitter.constant(ret, emitter.i64_type(), id);
            let all = emitter.constant(ret, emitter.i64_type(), i64::MAX);
            emitter.call(ret, STACK_RELEASE_FN, &[id, all], &[]);
        }
    }
}
