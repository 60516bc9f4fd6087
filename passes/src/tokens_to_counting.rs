//! `apipe-tokens-to-counting{strict=false}`: token form to counting form
//! (the reverse of `apipe-counting-to-tokens`).
//!
//! Each `apipe.wait %t…` becomes `apipe.wait_group {queue = q, pending = N}`,
//! N being the fewest groups committed on q after the named group over all
//! paths ([`GroupDistance`]). `wait_group N` completes every group but the
//! newest N (PTX ISA 9.7.9.25.3.3, `cp.async.wait_group`), so the named group
//! is complete on every path where at least N groups follow it: the minimum
//! is always safe, and it is exact (it waits for nothing more) when all
//! paths agree.
//!
//! Algorithm:
//! 1. check every precondition before touching the IR: every token can be
//!    removed ([`token_values::check_removable`]: no token crosses a function
//!    boundary or is stored in memory); the analysis succeeds on every
//!    function ([`GroupDistance::compute`]); every wait operand has a fact;
//! 2. for each wait, group its tokens by queue; per queue, N = the smallest
//!    minimum over the tokens (the newest group: waiting for it completes
//!    the older ones, FIFO). A queue whose tokens name no group on any path
//!    (`apipe.ready`) needs no wait. The count is exact if one token has
//!    the distance `[N, N]` on every path where it names a group; otherwise
//!    emit a remark naming the counts the paths give, or with `strict=true`
//!    an error (and change nothing);
//! 3. insert one `wait_group` per queue (ascending queue) before the wait,
//!    carrying the wait's attributes, and erase the wait;
//! 4. remove every token value ([`token_values::strip_tokens`]): commit
//!    results, iter_args, region results, `apipe.ready` ops;
//! 5. drop an `else` left empty on an `scf.if` without results (MLIR's
//!    `RemoveEmptyElseBranch` canonicalization), so that the round trip
//!    gives back the input's structure too.
//!
//! On a path where a token names no group (it is `ready`, or the init of a
//! window before the first commit) there is nothing to wait for, so any
//! count is correct there; such paths do not make a count inexact.
//!
//! Postcondition: no `!apipe.token` value and no `apipe.wait` is left.
//! Citations: RFC 0077 section "Inter-stage synchronization" (the counting
//! form); the RFC review's token proposal (tvm-rfcs #80 discussion).

use crate::{
    group_distance::{self, Distance, GroupDistance, GroupFact, Options},
    pass::{OptionInfo, OptionKind, PassInfo, PassOptions, RunFn},
    token_values,
};
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{build, diagnostic, ops, Reported};
use melior::{
    ir::{operation::OperationLike, BlockLike, OperationRef, RegionLike},
    pass::Pass,
};
use std::collections::BTreeMap;

/// The registry entry of `apipe-tokens-to-counting`.
pub static INFO: PassInfo = PassInfo {
    argument: "apipe-tokens-to-counting",
    name: "ApipeTokensToCounting",
    summary: "Replace token waits by wait_group counts (the fewest groups over all paths) and remove every token",
    options: &[OptionInfo {
        name: "strict",
        kind: OptionKind::Bool,
        description: "fail on a count that the paths do not agree on, instead of a remark (default false)",
    }],
    run: run as RunFn,
    dependent_dialects: Vec::new,
    reads_only: false,
    follows_calls: false,
};

/// Creates the `apipe-tokens-to-counting` pass with the default options.
pub fn create_tokens_to_counting_pass() -> Pass {
    INFO.create("").expect("no options")
}

fn run(op: OperationRef, options: &PassOptions) -> Result<(), Reported> {
    tokens_to_counting(op, options.bool("strict", false))
}

/// The counts that replace one wait.
struct Plan<'c, 'a> {
    wait: OperationRef<'c, 'a>,
    /// `(queue, pending)`, ascending queue.
    counts: Vec<(i64, u64)>,
}

/// Converts every `apipe.wait` in `root` (a module, or a function-like op;
/// every function inside is handled) to `apipe.wait_group` and removes every
/// token value. With `strict`, a count that the paths do not agree on is an
/// error. On failure the IR is unchanged and located errors have been
/// emitted.
///
/// # Errors
/// [`Reported`] after located errors.
pub fn tokens_to_counting(root: OperationRef, strict: bool) -> Result<(), Reported> {
    convert(root, strict, ops::WAIT)
}

/// [`tokens_to_counting`], naming the waits `op_name` in diagnostics
/// (`apipe-merge-queues` converts `wait_group`s through tokens).
pub(crate) fn convert(root: OperationRef, strict: bool, op_name: &str) -> Result<(), Reported> {
    // 1. Preconditions (and 2., which only reads).
    if !token_values::check_removable(&root) {
        return Err(Reported);
    }
    let mut ok = true;
    for wait in ops::self_and_nested_ops(&root) {
        if ops::is(&wait, ops::WAIT) && group_distance::enclosing_function(wait).is_none() {
            diagnostic::error(
                wait.location(),
                "'apipe.wait' op outside a function: groups are counted per function",
            );
            ok = false;
        }
    }
    let mut plans = Vec::new();
    let mut remarks = Vec::new();
    // Nested under `func.func`, sibling functions may be converted in
    // parallel: do not read them.
    let function_only = group_distance::is_function(&root);
    let committing_functions = (!function_only).then(|| {
        std::rc::Rc::new(group_distance::functions_containing(
            &root,
            &[ops::COMMIT_GROUP],
        ))
    });
    for function in group_distance::functions(&root) {
        let options = Options {
            function_only,
            committing_functions: committing_functions.clone(),
            ..Options::default()
        };
        let Ok(analysis) = GroupDistance::compute_with(&function, &options) else {
            ok = false;
            continue;
        };
        for wait in ops::nested_ops(&function) {
            if !ops::is(&wait, ops::WAIT)
                || group_distance::enclosing_function(wait) != Some(function)
            {
                continue;
            }
            match plan(&analysis, wait, strict, op_name, &mut remarks) {
                Some(plan) => plans.push(plan),
                None => ok = false,
            }
        }
    }
    if !ok {
        return Err(Reported);
    }
    for (location, message) in remarks {
        diagnostic::remark(location, &message);
    }
    // 3.
    for plan in plans {
        let context = plan.wait.context();
        // SAFETY: `context` is bound first (a temporary context ref would dangle).
        let context = unsafe { context.to_ref() };
        let kept: Vec<_> = plan.wait.attributes().collect();
        for (queue, pending) in &plan.counts {
            let wait_group = build::with_discardable_attributes(
                build::wait_group(
                    context,
                    *pending as i64,
                    (*queue != 0).then_some(*queue),
                    plan.wait.location(),
                ),
                &kept,
            );
            plan.wait
                .block()
                .unwrap()
                .insert_operation_before(plan.wait, wait_group);
        }
        crate::rewrite::erase_op(plan.wait);
    }
    // 4.
    token_values::strip_tokens(&root);
    // 5.
    for op in ops::nested_ops(&root) {
        drop_empty_else(op);
    }
    Ok(())
}

/// Step 5: erases the `else` block of an `scf.if` without results when only
/// an `scf.yield` is left in it (as upstream's `scf.if` canonicalization
/// `RemoveEmptyElseBranch` does); counting-to-tokens adds such an `else` to
/// carry a window.
fn drop_empty_else(op: OperationRef) {
    if !ops::is(&op, "scf.if") || op.result_count() != 0 {
        return;
    }
    let Some(block) = op.region_at(1).and_then(|r| r.first_block()) else {
        return;
    };
    let only_yield = block
        .first_operation()
        .is_some_and(|first| first.next_in_block().is_none() && first.operand_count() == 0);
    if only_yield {
        // The block is unused: its only op is the yield.
        crate::rewrite::erase_block(block);
    }
}

/// The count that replaces a wait on one queue (step 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueCount {
    /// The queue.
    pub queue: i64,
    /// The `pending` count: the fewest groups after the newest waited group.
    pub pending: u64,
    /// True if every path on which a waited token names a group gives
    /// `pending`.
    pub exact: bool,
    /// The counts the paths give (`min` = `pending`).
    pub range: Distance,
}

/// Step 2 for one `apipe.wait`: one [`QueueCount`] per queue of its tokens
/// that name a group on some path (ascending queue). `Err(index)` names an
/// operand that the analysis could not follow.
///
/// # Errors
/// The index of a token operand without a fact.
pub fn wait_counts(analysis: &GroupDistance, wait: OperationRef) -> Result<Vec<QueueCount>, usize> {
    let mut by_queue: BTreeMap<i64, Vec<GroupFact>> = BTreeMap::new();
    for (index, token) in wait.operands().enumerate() {
        let fact = analysis.token_fact(&wait, token).ok_or(index)?;
        by_queue.entry(fact.queue).or_default().push(fact);
    }
    let mut counts = Vec::new();
    for (queue, facts) in by_queue {
        let real: Vec<&GroupFact> = facts.iter().filter(|f| f.groups.is_some()).collect();
        let Some(pending) = real.iter().filter_map(|f| f.groups).map(|d| d.min).min() else {
            continue; // Only `ready` tokens: nothing to wait for.
        };
        // Exact: a token gives `pending` on every path, and on each path it
        // names no group, no other token names one either.
        let exact_token =
            |f: &&&GroupFact| f.groups.is_some_and(|d| d.is_exact() && d.min == pending);
        let exact = real
            .iter()
            .filter(exact_token)
            .any(|f| !f.may_name_no_group || real.len() == 1);
        // On each path the count is the smallest over the tokens.
        let range = Distance {
            min: pending,
            max: real
                .iter()
                .filter_map(|f| f.groups)
                .map(|d| d.max.unwrap_or(u64::MAX))
                .min()
                .filter(|&m| m != u64::MAX),
        };
        counts.push(QueueCount {
            queue,
            pending,
            exact,
            range,
        });
    }
    Ok(counts)
}

/// Step 2 for one wait, with its diagnostics; `None` after a located error.
fn plan<'c, 'a>(
    analysis: &GroupDistance,
    wait: OperationRef<'c, 'a>,
    strict: bool,
    op_name: &str,
    remarks: &mut Vec<(melior::ir::Location<'c>, String)>,
) -> Option<Plan<'c, 'a>> {
    let counts = match wait_counts(analysis, wait) {
        Ok(counts) => counts,
        Err(index) => {
            diagnostic::error(
                wait.location(),
                &format!(
                    "'apipe.wait' op cannot follow token operand {index} to the commit of its group"
                ),
            );
            return None;
        }
    };
    for count in &counts {
        if count.exact {
            continue;
        }
        let (queue, range, pending) = (count.queue, count.range, count.pending);
        if strict {
            // One distance on every path, but on some path a token names
            // no group: "0 groups ..., so no count is exact" read as a
            // contradiction (trial 29).
            let why = if range.is_exact() {
                format!(
                    "the token that gives {range} groups after its group may name no group on some path (an `apipe.ready` token), and the other tokens do not give {pending} on every path, so the count is not known where it names none"
                )
            } else {
                format!("the paths commit {range} groups after the waited group")
            };
            diagnostic::error(
                wait.location(),
                &format!(
                    "'{op_name}' op on queue {queue}: {why}, so no count is exact (strict=true)"
                ),
            );
            return None;
        }
        remarks.push((
            wait.location(),
            format!(
                "'{op_name}' op on queue {queue}: the paths commit {range} groups after the \
                 waited group; using the minimum, pending = {pending}"
            ),
        ));
    }
    Some(Plan {
        wait,
        counts: counts.iter().map(|c| (c.queue, c.pending)).collect(),
    })
}
