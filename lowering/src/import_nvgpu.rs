//! `apipe-import-nvgpu`: upstream `nvgpu` async copies to apipe IR (the
//! import half of the nvgpu interop).
//!
//! Upstream `nvgpu.device_async_wait` takes the token of a group and an
//! optional `numGroups`. Without `numGroups` upstream lowers it to
//! `cp.async.wait_group 0` (wait for everything) because it has no analysis;
//! the op's documented intent is "wait for this group", which is exactly
//! `apipe.wait %t`. So the import produces token form, and
//! `apipe-tokens-to-counting` later computes the exact counts.
//!
//! Algorithm:
//! 1. check every precondition before touching the IR: the token of a copy
//!    is only used by `device_async_create_group`; the token of a group only
//!    by waits and `scf` ops (`scf.yield`, `scf.for` iter_args, ...); a
//!    function argument or result of token type is an error (tokens cannot
//!    cross function boundaries);
//!    a `device_async_create_group` whose token list is not the set of
//!    copies it commits gets a located **warning** (step 1b): PTX
//!    `cp.async.commit_group` (what upstream lowers it to) commits every
//!    copy of the thread issued since the previous group, whatever the list
//!    says, so a token already committed by an earlier group and listed
//!    again (upstream's optimize-shared-memory.mlir does this) names
//!    nothing new, and an unlisted copy issued since the previous group is
//!    in this group anyway. The import keeps that meaning, the one the
//!    hardware runs, and `apipe-to-nvgpu` exports it with the list of the
//!    copies the group really holds;
//! 2. rewrite: `device_async_copy` → `apipe.copy` (`elements = dstElements`,
//!    `srcElements` as the `src_elements` operand, `bypassL1` →
//!    `bypass_l1`, queue 0); `device_async_create_group` →
//!    `apipe.commit_group -> !apipe.token`; every wait → `apipe.wait %t`
//!    (a wait whose token is a placeholder, see 4., directly
//!    `apipe.wait_group {pending = N}`);
//! 3. every remaining value of type `!nvgpu.device.async.token` (scf
//!    results, iter_args) becomes `!apipe.token`; the nvgpu ops are erased;
//! 4. placeholders: `apipe-to-nvgpu` names a group that no value reaches
//!    with `builtin.unrealized_conversion_cast` (no operand); a wait on one
//!    names no group;
//! 5. each wait that had `numGroups = N` is judged on this token form with
//!    the group-distance analysis (`apipe_passes::group_distance`, the one
//!    that `apipe-tokens-to-counting` uses): if on some path fewer than N
//!    groups are committed after the waited group, `cp.async.wait_group N`
//!    does not complete it, and a **warning** says that the count
//!    contradicts the token (a bug in the input). The wait then becomes
//!    `apipe.wait_group {pending = N}`: the input's count is kept;
//! 6. a commit whose token nothing uses loses its result (counting form, so
//!    `apipe-to-nvgpu` output imports back unchanged); placeholders are
//!    erased, or become `apipe.ready` where still used (an iter_arg).

use crate::to_nvgpu::nvgpu;
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{build, diagnostic, ops, Reported};
use apipe_passes::{
    group_distance::{self, GroupDistance},
    rewrite,
    token_values::users,
    PassInfo, PassOptions, RunFn,
};
use melior::{
    ir::{
        attribute::IntegerAttribute, operation::OperationLike, r#type::MemRefType, BlockLike,
        OperationRef, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use rustc_hash::FxHashSet;
use std::collections::HashMap;

/// The registry entry of `apipe-import-nvgpu`.
pub static INFO: PassInfo = PassInfo {
    argument: "apipe-import-nvgpu",
    name: "ApipeImportNvgpu",
    summary: "Import upstream nvgpu async copies as apipe ops (waits without numGroups become token waits)",
    options: &[],
    run: run as RunFn,
    dependent_dialects: Vec::new,
    reads_only: false,
    follows_calls: false,
};

/// Creates the `apipe-import-nvgpu` pass.
pub fn create_import_nvgpu_pass() -> melior::pass::Pass {
    INFO.create("").expect("no options")
}

fn run(op: OperationRef, _options: &PassOptions) -> Result<(), Reported> {
    import_nvgpu(&op)
}

fn name_of(op: &OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("?").to_owned()
}

fn is_nvgpu_token(value: Value) -> bool {
    use melior::ir::TypeLike;
    use std::sync::atomic::{AtomicUsize, Ordering};
    // The TypeID of `!nvgpu.device.async.token`, once a type printed as it
    // was seen (0 before). A TypeID names a C++ type class for the whole
    // process, and the token type has no parameters: the same TypeID is
    // the same type. The test runs on every operand; printing each nvgpu
    // type cost more than the rest of the import.
    static TOKEN_ID: AtomicUsize = AtomicUsize::new(0);
    let ty = value.r#type();
    let id = ty.id().to_raw().ptr as usize;
    match TOKEN_ID.load(Ordering::Relaxed) {
        0 => {
            // Until a token is seen: the dialect first (printing every
            // type would cost more).
            let token =
                ty.dialect().namespace() == Ok("nvgpu") && ty.to_string() == nvgpu::TOKEN_TYPE;
            if token {
                TOKEN_ID.store(id, Ordering::Relaxed);
            }
            token
        }
        known => known == id,
    }
}

fn is_placeholder(op: &OperationRef) -> bool {
    ops::is(op, "builtin.unrealized_conversion_cast")
        && op.operand_count() == 0
        && op.result_count() == 1
        && is_nvgpu_token(op.result(0).unwrap().into())
}

/// Every block argument of the regions of `op`.
fn block_arguments<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    let mut out = Vec::new();
    for block in ops::blocks_of(op) {
        for i in 0..block.argument_count() {
            out.push(block.argument(i).unwrap().into());
        }
    }
    out
}

/// Step 1.
fn check(all: &[OperationRef]) -> bool {
    let mut ok = true;
    for op in all {
        let name = ops::name_bytes(op);
        let is_function = matches!(name, b"func.func" | b"gpu.func" | b"llvm.func");
        if is_function {
            let name = name_of(op);
            let token_argument = op
                .region_at(0)
                .and_then(|r| r.first_block())
                .is_some_and(|b| {
                    (0..b.argument_count()).any(|i| is_nvgpu_token(b.argument(i).unwrap().into()))
                });
            if token_argument {
                diagnostic::error(
                    op.location(),
                    &format!(
                        "'{name}' op has a {} argument: tokens cannot cross function boundaries",
                        nvgpu::TOKEN_TYPE
                    ),
                );
                ok = false;
            }
        }
        if op.operands().any(is_nvgpu_token) {
            let allowed = ops::is(op, nvgpu::CREATE_GROUP)
                || ops::is(op, nvgpu::WAIT)
                || name.starts_with(b"scf.");
            if !allowed {
                let name = name_of(op);
                diagnostic::error(
                    op.location(),
                    &format!(
                        "'{name}' op uses a {} value: only waits and scf control flow may (tokens cannot cross function boundaries or live in memory)",
                        nvgpu::TOKEN_TYPE
                    ),
                );
                ok = false;
            }
        }
        if ops::is(op, nvgpu::COPY) {
            for user in users(op.result(0).unwrap().into()) {
                if !ops::is(&user, nvgpu::CREATE_GROUP) {
                    diagnostic::emit(
                        user.location(),
                        diagnostic::Severity::Error,
                        &format!(
                            "'{}' op uses the token of a copy; only 'nvgpu.device_async_create_group' may",
                            name_of(&user)
                        ),
                        &[(op.location(), "the copy")],
                    );
                    ok = false;
                }
            }
        }
        if ops::is(op, nvgpu::WAIT) && op.operand_count() != 1 {
            diagnostic::error(
                op.location(),
                "'nvgpu.device_async_wait' op expects one token",
            );
            ok = false;
        }
        // `numGroups` is an `I32Attr` that upstream's verifier does not
        // bound; it becomes `cp.async.wait_group N`, whose N counts groups
        // (PTX ISA, cp.async.wait_group: a non-negative integer).
        if let Some(count) = ops::is(op, nvgpu::WAIT)
            .then(|| num_groups(op))
            .flatten()
            .filter(|&n| n < 0)
        {
            diagnostic::error(
                op.location(),
                &format!(
                    "'nvgpu.device_async_wait' op numGroups = {count} is negative; it is the number of groups left pending (cp.async.wait_group N, N >= 0)"
                ),
            );
            ok = false;
        }
    }
    ok
}

/// The `numGroups` of a `nvgpu.device_async_wait`, if it has one.
fn num_groups(wait: &OperationRef) -> Option<i64> {
    wait.attribute("numGroups")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map(|a| a.value())
}

/// Step 1b: a located warning at each `device_async_create_group` whose
/// token list differs from the copies it commits, as far as one block shows
/// it: the copies issued in its block since the previous group of that
/// block (with no region in between that could commit). A listed copy of
/// the same block issued before that previous group was already committed;
/// a copy issued since then and not listed is committed here anyway.
fn warn_mislisted_groups(all: &[OperationRef]) {
    // The ops with a group nested in them: the ancestors of every group,
    // found once (asking each region op would walk each op once per
    // enclosing op).
    let mut commit_inside: FxHashSet<usize> = FxHashSet::default();
    for op in all.iter().filter(|o| ops::is(*o, nvgpu::CREATE_GROUP)) {
        for ancestor in ops::ancestors(op) {
            if !commit_inside.insert(ancestor.to_raw().ptr as usize) {
                break;
            }
        }
    }
    for op in all.iter().filter(|o| o.region_count() > 0) {
        for block in ops::blocks_of(op) {
            // Copies issued since the previous group of this block; `None`
            // once a region op may have committed them.
            let mut pending: Option<Vec<OperationRef>> = Some(Vec::new());
            let mut committed: Vec<OperationRef> = Vec::new();
            let mut next = block.first_operation();
            while let Some(current) = next {
                next = current.next_in_block();
                if ops::is(&current, nvgpu::COPY) {
                    if let Some(p) = pending.as_mut() {
                        p.push(current);
                    }
                } else if ops::is(&current, nvgpu::CREATE_GROUP) {
                    let listed: Vec<OperationRef> = current
                        .operands()
                        .filter(|v| v.is_operation_result())
                        // SAFETY: an op result's owner is live.
                        .map(|v| unsafe {
                            OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(v.to_raw()))
                        })
                        .collect();
                    let mut notes: Vec<(melior::ir::Location, &str)> = Vec::new();
                    for copy in &listed {
                        if committed.contains(copy) {
                            notes.push((
                                copy.location(),
                                "listed here, already committed by an earlier group",
                            ));
                        }
                    }
                    if let Some(p) = &pending {
                        for copy in p.iter().filter(|c| !listed.contains(c)) {
                            notes.push((copy.location(), "not listed, committed by this group"));
                        }
                    }
                    if !notes.is_empty() {
                        diagnostic::emit(
                            current.location(),
                            diagnostic::Severity::Warning,
                            "'nvgpu.device_async_create_group' op lists other copies than the ones it commits: \
                             cp.async.commit_group commits every copy the thread issued since the previous \
                             group, so this group holds those (the import keeps that meaning)",
                            &notes,
                        );
                    }
                    committed.extend(pending.take().unwrap_or_default());
                    pending = Some(Vec::new());
                } else if commit_inside.contains(&(current.to_raw().ptr as usize)) {
                    pending = None;
                }
            }
        }
    }
}

/// Step 5: the group-distance analysis of the function around each counted
/// wait, computed once per function. Its own diagnostics (a region it cannot
/// follow) are swallowed: then the wait is not judged.
fn judge_counted_waits<'c, 'a>(context: &Context, counted: &[(OperationRef<'c, 'a>, i64)]) {
    let mut analyses: HashMap<usize, Option<GroupDistance>> = HashMap::new();
    for (wait, count) in counted {
        let Some(function) = group_distance::enclosing_function(*wait) else {
            continue;
        };
        let analysis = analyses
            .entry(function.to_raw().ptr as usize)
            .or_insert_with(|| {
                let swallow = context.attach_diagnostic_handler(|_| true);
                let analysis = GroupDistance::compute(&function).ok();
                context.detach_diagnostic_handler(swallow);
                analysis
            });
        let token = wait.operand(0).unwrap();
        let Some(distance) = analysis
            .as_ref()
            .and_then(|a| a.token_fact(wait, token))
            .and_then(|fact| fact.groups)
        else {
            continue;
        };
        // A negative count is refused where the wait is built (trial 67:
        // it was first judged against its token, as a huge count).
        if *count < 0 || distance.min >= *count as u64 {
            continue;
        }
        let committed = if distance.is_exact() {
            let groups = if distance.min == 1 {
                "group is"
            } else {
                "groups are"
            };
            format!("only {distance} {groups} committed after it")
        } else {
            format!(
                "on some path only {} groups are committed after it ({distance} over all paths)",
                distance.min
            )
        };
        let message = format!(
            "'nvgpu.device_async_wait' op numGroups = {count} leaves the waited group pending: {committed}, so the count contradicts the token"
        );
        let notes: Vec<(melior::ir::Location, &str)> = if token.is_operation_result() {
            // SAFETY: an op result's owner is live.
            let group =
                unsafe { OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(token.to_raw())) };
            vec![(group.location(), "the waited group")]
        } else {
            Vec::new()
        };
        diagnostic::emit(
            wait.location(),
            diagnostic::Severity::Warning,
            &message,
            &notes,
        );
    }
}

/// Applies the pass to the ops nested in `root`. On failure the IR is
/// unchanged and located errors have been emitted.
pub fn import_nvgpu<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) -> Result<(), Reported> {
    let all = ops::self_and_nested_ops(root);
    // 1.
    if !check(&all) {
        return Err(Reported);
    }
    warn_mislisted_groups(&all);
    let context_ref = root.context();
    // SAFETY: bound first (a temporary context ref would dangle).
    let context: &Context = unsafe { context_ref.to_ref() };
    let token_type = Type::parse(context, ops::TOKEN_TYPE).expect("apipe is registered");
    // 2.
    let mut erase_list = Vec::new();
    let mut commits = Vec::new();
    let mut counted = Vec::new();
    for op in &all {
        let block = match op.block() {
            Some(block) => block,
            None => continue,
        };
        if ops::is(op, nvgpu::COPY) {
            block.insert_operation_before(*op, build_copy(context, op));
            erase_list.push(*op);
        } else if ops::is(op, nvgpu::CREATE_GROUP) {
            let commit = build::commit_group(context, None, Some(token_type), op.location());
            let commit = block.insert_operation_before(*op, commit);
            commits.push(commit);
            rewrite::replace_all_uses_with(
                op.result(0).unwrap().into(),
                commit.result(0).unwrap().into(),
            );
            erase_list.push(*op);
        } else if ops::is(op, nvgpu::WAIT) {
            let count = num_groups(op);
            let token = op.operand(0).unwrap();
            // SAFETY: an op result's owner is live.
            let placeholder = token.is_operation_result()
                && is_placeholder(&unsafe {
                    OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(token.to_raw()))
                });
            let new = match count {
                // Judged in step 5 on token form, then counted.
                Some(_) if !placeholder => build::wait(context, &[token], op.location()),
                Some(count) => build::wait_group(context, count, None, op.location()),
                None => build::wait(context, &[token], op.location()),
            };
            let new = block.insert_operation_before(*op, new);
            if let (Some(count), false) = (count, placeholder) {
                counted.push((new, count));
            }
            erase_list.push(*op);
        }
    }
    // 3. Waits were pushed after their tokens' producers: erase in reverse.
    // The ops of `all` left after it are the ones the retyping and the
    // placeholders (steps 3 and 4 of the module doc) visit: the ops built
    // here have apipe types already.
    let erased: FxHashSet<usize> = erase_list
        .iter()
        .map(|op| op.to_raw().ptr as usize)
        .collect();
    for op in erase_list.into_iter().rev() {
        rewrite::erase_op(op);
    }
    let left: Vec<OperationRef> = all
        .into_iter()
        .filter(|op| !erased.contains(&(op.to_raw().ptr as usize)))
        .collect();
    for op in &left {
        for result in op.results() {
            if is_nvgpu_token(result.into()) {
                result.set_type(token_type);
            }
        }
        for argument in block_arguments(op) {
            if is_nvgpu_token(argument) {
                argument.set_type(token_type);
            }
        }
    }
    // 5.
    judge_counted_waits(context, &counted);
    for (wait, count) in counted {
        let new = build::wait_group(context, count, None, wait.location());
        wait.block().unwrap().insert_operation_before(wait, new);
        rewrite::erase_op(wait);
    }
    // 6. A group whose token nothing uses (every wait on it had numGroups) is
    // committed in counting form.
    for commit in commits {
        if users(commit.result(0).unwrap().into()).is_empty() {
            let plain = build::commit_group(context, None, None, commit.location());
            commit
                .block()
                .unwrap()
                .insert_operation_before(commit, plain);
            rewrite::erase_op(commit);
        }
    }
    // Placeholders (step 4 of the module doc; the root is no cast).
    for &op in left.iter().skip(1) {
        let placeholder = ops::is(&op, "builtin.unrealized_conversion_cast")
            && op.operand_count() == 0
            && op.result_count() == 1
            && (is_placeholder(&op) || ops::is_token_type(op.result(0).unwrap().r#type()));
        if !placeholder {
            continue;
        }
        if !users(op.result(0).unwrap().into()).is_empty() {
            // Still used (an iter_arg, a wait without numGroups): it names
            // no group, which is `apipe.ready`.
            let ready = build::ready(context, None, token_type, op.location());
            let ready = op.block().unwrap().insert_operation_before(op, ready);
            rewrite::replace_all_uses_with(
                op.result(0).unwrap().into(),
                ready.result(0).unwrap().into(),
            );
        }
        rewrite::erase_op(op);
    }
    Ok(())
}

/// Step 3 for one copy: `nvgpu.device_async_copy %src[...], %dst[...], n`
/// (operands dst, dstIndices, src, srcIndices, srcElements).
fn build_copy<'c>(context: &'c Context, op: &OperationRef<'c, '_>) -> melior::ir::Operation<'c> {
    use melior::ir::r#type::ShapedTypeLike;
    let operands: Vec<Value> = op.operands().collect();
    let dst = operands[0];
    let dst_rank = MemRefType::try_from(dst.r#type()).unwrap().rank();
    let src = operands[1 + dst_rank];
    let src_rank = MemRefType::try_from(src.r#type()).unwrap().rank();
    let dst_indices = &operands[1..1 + dst_rank];
    let src_indices = &operands[2 + dst_rank..2 + dst_rank + src_rank];
    let src_elements = &operands[2 + dst_rank + src_rank..];
    let mut indices = src_indices.to_vec();
    indices.extend_from_slice(dst_indices);
    indices.extend_from_slice(src_elements);
    let elements = op
        .attribute("dstElements")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map_or(1, |a| a.value());
    build::copy(
        context,
        src,
        dst,
        &indices,
        elements,
        None,
        op.has_attribute("bypassL1"),
        op.location(),
    )
}
