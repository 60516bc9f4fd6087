//! Removing `!apipe.token` values from a function: commit results, `ready`
//! ops, and the token positions of structured control flow (`scf.for`
//! iter_args, `scf.while` arguments, `scf.if` / `scf.index_switch` /
//! `scf.execute_region` results, and the `scf.yield` / `scf.condition`
//! operands that feed them).
//!
//! Shared by `apipe-make-sync` (all synchronization disappears) and
//! `apipe-tokens-to-counting` (waits become counts, tokens disappear); its
//! op rebuilding ([`rebuild_with_results`], [`append_operands`]) also threads
//! extra loop-carried values through `scf` for `apipe-counting-to-tokens`
//! and `apipe-tokens-to-mbarrier`.
//!
//! Algorithm:
//! 1. [`check_removable`]: every use of a token must be an `apipe.wait`, a
//!    terminator (`scf.yield`, `scf.condition`) or an init operand of
//!    `scf.for` / `scf.while`; token block arguments may only belong to
//!    `scf.for` / `scf.while`; token results only to `scf` region ops.
//!    Anything else (a function argument or result, a call, a store) is a
//!    located error, reported before the IR changes.
//! 2. [`strip_tokens`] (the caller has removed every `apipe.wait` first):
//!    visit ops in post-order, so each terminator and inner loop is rebuilt
//!    before its parent. An op with token operands or results is rebuilt
//!    without them (same name, attributes, and regions moved over), its
//!    regions lose their token block arguments, and uses of the other
//!    results move to the new op. Token results still used by ops visited
//!    later (a sibling loop's init, the parent's terminator) are redirected
//!    to a placeholder `apipe.ready`. Finally commits are rebuilt without a
//!    result and `ready` ops (placeholders included) are erased.
//!
//! Invariant: non-token values, their order, and every op's attributes are
//! unchanged.

use apipe_dialect::{attributes, build, diagnostic, ops};
use melior::ir::{
    operation::{OperationBuilder, OperationLike},
    BlockLike, OperationRef, Region, Type, Value, ValueLike,
};
use mlir_sys::{
    mlirOpOperandGetNextUse, mlirOpOperandGetOwner, mlirOpOperandIsNull, mlirValueGetFirstUse,
    MlirOperation,
};

/// Ops whose token operands may simply be dropped.
const TOKEN_USERS: &[&str] = &[
    "apipe.wait",
    "scf.yield",
    "scf.condition",
    "scf.for",
    "scf.while",
];
/// Ops whose token block arguments may be dropped.
const TOKEN_ARGUMENT_OWNERS: &[&str] = &["scf.for", "scf.while"];
/// Ops whose token results may be dropped (besides commits and `ready`).
const TOKEN_RESULT_OWNERS: &[&str] = &[
    "scf.for",
    "scf.while",
    "scf.if",
    "scf.index_switch",
    "scf.execute_region",
];

/// The ops that use `value`, once per use.
pub fn users<'c, 'a>(value: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    // SAFETY: walks the live use list of a live value.
    unsafe {
        let mut operand = mlirValueGetFirstUse(value.to_raw());
        while !mlirOpOperandIsNull(operand) {
            out.push(OperationRef::from_raw(mlirOpOperandGetOwner(operand)));
            operand = mlirOpOperandGetNextUse(operand);
        }
    }
    out
}

/// Checks that every token value in `root` can be removed (step 1). Emits
/// one located error per offending op and returns `false` if any.
pub fn check_removable<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) -> bool {
    let mut ok = true;
    // The root's own block arguments count too (a function argument).
    for op in ops::self_and_nested_ops(root) {
        let name = ops::name(&op);
        if op.operands().any(ops::is_token) && !TOKEN_USERS.contains(&name) {
            let reason = match name {
                "func.return" | "func.call" | "gpu.return" | "llvm.call" | "llvm.return" => {
                    "tokens cannot cross function boundaries"
                }
                "memref.store" | "llvm.store" => "tokens cannot be stored in memory",
                _ => "tokens may only be used by apipe.wait and structured control flow (scf)",
            };
            diagnostic::error(
                op.location(),
                &format!("'{name}' op uses an !apipe.token value: {reason}"),
            );
            ok = false;
        }
        if !TOKEN_ARGUMENT_OWNERS.contains(&name) {
            ok &= check_block_arguments(&op, name);
        }
        let is_source = ops::is(&op, ops::COMMIT_GROUP) || ops::is(&op, ops::READY);
        if !is_source && op.results().any(ops::is_token) && !TOKEN_RESULT_OWNERS.contains(&name) {
            diagnostic::error(
                op.location(),
                &format!("'{name}' op produces an !apipe.token value that cannot be removed"),
            );
            ok = false;
        }
    }
    ok
}

/// Reports each token block argument of `op`'s regions (an op that may not
/// carry tokens): at the argument, saying whether it is a function argument
/// (entry block of a `*.func`) or a block argument (unstructured control
/// flow, other region ops).
fn check_block_arguments<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, name: &str) -> bool {
    let mut ok = true;
    for block in ops::blocks_of(op) {
        for index in 0..block.argument_count() {
            let argument: Value = block.argument(index).unwrap().into();
            if !ops::is_token(argument) {
                continue;
            }
            let message = if ops::is_entry_block(&block) && name.ends_with(".func") {
                format!("'{name}' op has an !apipe.token argument: tokens cannot cross function boundaries")
            } else {
                format!(
                    "!apipe.token block argument of a block in '{name}': only scf.for and scf.while \
                     may carry tokens in block arguments"
                )
            };
            diagnostic::error(argument.location(), &message);
            ok = false;
        }
    }
    ok
}

/// Removes every token value from `root` (step 2). Precondition:
/// [`check_removable`] passed and no `apipe.wait` is left.
pub fn strip_tokens<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) {
    let post_order: Vec<MlirOperation> = ops::nested_ops_post_order(root)
        .iter()
        .map(|op| op.to_raw())
        .collect();
    for raw in post_order {
        // SAFETY: ops in the list are live: only ops visited earlier (nested
        // ones, or earlier siblings) have been replaced.
        let op = unsafe { OperationRef::from_raw(raw) };
        if ops::is_apipe(&op) {
            continue;
        }
        let has_tokens = op.operands().any(ops::is_token) || op.results().any(ops::is_token);
        let has_token_arguments = TOKEN_ARGUMENT_OWNERS.contains(&ops::name(&op));
        if has_tokens || has_token_arguments {
            rebuild_without_tokens(op);
        }
    }
    for op in ops::nested_ops(root) {
        if ops::is(&op, ops::COMMIT_GROUP) && op.result_count() == 1 {
            let attributes: Vec<_> = op.attributes().collect();
            let context = op.context();
            // SAFETY: `context` is bound first (a temporary context ref would dangle).
            let context = unsafe { context.to_ref() };
            let replacement = build::with_discardable_attributes(
                build::commit_group(
                    context,
                    attributes::integer(&op, attributes::QUEUE),
                    None,
                    op.location(),
                ),
                &attributes,
            );
            op.block().unwrap().insert_operation_before(op, replacement);
            erase_if_unused(op);
        } else if ops::is(&op, ops::READY) {
            erase_if_unused(op);
        }
    }
}

/// Inserts, before `op`, an op of the same name, location and attributes
/// with `operands` and `result_types`, and moves `op`'s regions (bodies and
/// block arguments as they are) into it; returns the new op. `op` is left in
/// place with empty regions: the caller redirects its uses and erases it.
/// Used to add or remove iter_args, results and operands of `scf` ops, which
/// MLIR's C API cannot change in place.
///
/// # Panics
/// If `op` is not in a block, or MLIR's builder fails (it does not for an
/// op that verified, with the same attributes).
pub fn rebuild<'c, 'a>(
    op: OperationRef<'c, 'a>,
    operands: &[Value<'c, 'a>],
    result_types: &[Type<'c>],
) -> OperationRef<'c, 'a> {
    let attributes: Vec<_> = op.attributes().collect();
    let regions: Vec<Region> = op
        .regions()
        .map(|old| {
            let region = Region::new();
            crate::rewrite::take_body(&region, &old);
            region
        })
        .collect();
    let replacement = OperationBuilder::new(ops::name(&op), op.location())
        .add_operands(operands)
        .add_results(result_types)
        .add_attributes(&attributes)
        .add_regions_vec(regions)
        .build()
        .expect("rebuilt scf op");
    op.block()
        .expect("op in a block")
        .insert_operation_before(op, replacement)
}

/// Replaces `op` by the same op with `operands` appended and `count` more
/// results of type `ty` (regions move over, uses of the old results move to
/// the new op's first results); returns the new op. Used to thread extra
/// loop-carried values (token windows, mbarrier counters) through `scf`.
///
/// # Panics
/// As [`rebuild`].
pub fn rebuild_with_results<'c, 'a>(
    op: OperationRef<'c, 'a>,
    operands: &[Value<'c, 'a>],
    ty: Type<'c>,
    count: usize,
) -> OperationRef<'c, 'a> {
    let all_operands: Vec<Value> = op.operands().chain(operands.iter().copied()).collect();
    let mut result_types: Vec<Type> = op.results().map(|r| r.r#type()).collect();
    result_types.extend(std::iter::repeat_n(ty, count));
    let new = rebuild(op, &all_operands, &result_types);
    for (index, result) in op.results().enumerate() {
        let with = new.result(index).unwrap();
        crate::rewrite::replace_all_uses_with(result.into(), with.into());
    }
    crate::rewrite::erase_op(op);
    new
}

/// The last `count` results of `op`.
pub fn tail_results<'c, 'a>(op: OperationRef<'c, 'a>, count: usize) -> Vec<Value<'c, 'a>> {
    let total = op.result_count();
    (total - count..total)
        .map(|i| op.result(i).unwrap().into())
        .collect()
}

/// Replaces the terminator `op` by the same op with `extra` operands
/// appended.
pub fn append_operands<'c, 'a>(op: OperationRef<'c, 'a>, extra: &[Value<'c, 'a>]) {
    let operands: Vec<Value> = op.operands().chain(extra.iter().copied()).collect();
    let attributes: Vec<_> = op.attributes().collect();
    let replacement = OperationBuilder::new(ops::name(&op), op.location())
        .add_operands(&operands)
        .add_attributes(&attributes)
        .build()
        .expect("terminator");
    op.block().unwrap().insert_operation_before(op, replacement);
    crate::rewrite::erase_op(op);
}

/// Replaces `op` by the same op without token operands, results and block
/// arguments.
fn rebuild_without_tokens(op: OperationRef) {
    let operands: Vec<Value> = op.operands().filter(|v| !ops::is_token(*v)).collect();
    let result_types: Vec<_> = op
        .results()
        .filter(|r| !ops::is_token(*r))
        .map(|r| r.r#type())
        .collect();
    let new = rebuild(op, &operands, &result_types);
    for block in ops::blocks_of(&new) {
        for index in (0..block.argument_count()).rev() {
            if ops::is_token(block.argument(index).unwrap()) {
                // SAFETY: no handle to the argument is kept; its uses
                // (waits, terminators, inner inits) are already gone.
                unsafe { block.erase_argument(index) };
            }
        }
    }
    let mut kept = 0;
    for result in op.results() {
        let with: Value = if ops::is_token(result) {
            // Later ops (terminators, loop inits) still use it; they drop
            // the operand when their turn comes, and the placeholder
            // `ready` is erased at the end.
            if users(result.into()).is_empty() {
                continue;
            }
            let context = op.context();
            // SAFETY: `context` is bound first (a temporary context ref would dangle).
            let context = unsafe { context.to_ref() };
            let placeholder = build::ready(context, None, result.r#type(), op.location());
            new.block()
                .unwrap()
                .insert_operation_before(new, placeholder)
                .result(0)
                .unwrap()
                .into()
        } else {
            kept += 1;
            new.result(kept - 1).unwrap().into()
        };
        crate::rewrite::replace_all_uses_with(result.into(), with);
    }
    erase_if_unused(op);
}

/// Erases `op` if none of its results has a use left.
pub fn erase_if_unused(op: OperationRef) {
    if op.results().all(|r| users(r.into()).is_empty()) {
        crate::rewrite::erase_op(op);
    } else {
        diagnostic::error(
            op.location(),
            "internal error: op still has uses after token removal",
        );
    }
}
