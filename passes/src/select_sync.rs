//! `apipe-select-sync`: the `sync=auto` choice of the GPU lowering
//! (docs/mbarrier.md, "Choosing the form"), per function: counting form
//! where every count is exact, the mbarrier form where a count would not be.
//!
//! A count is exact when, on every path, it forces exactly the waited group
//! (and the older ones of its queue) complete, and no younger group. Counting
//! form costs nothing beyond the copies (no barrier objects, no shared
//! memory), so it is kept wherever it is exact; the mbarrier form names each
//! group by slot and phase, so it is exact on every path.
//!
//! Algorithm, per function that waits on tokens (a counting-form function
//! is exact by definition: its counts are the program; it is left as it is):
//! 1. the shared group-distance analysis of the function, and for each
//!    `apipe.wait` the counts of [`tokens_to_counting::wait_counts`]: the
//!    function is *inexact* if some count is not exact on every path, or if
//!    it commits on more than one queue (the hardware has one `cp.async`
//!    queue per thread: once `apipe-merge-queues` interleaves them, a wait
//!    for one queue's group also waits for the younger groups of the
//!    others);
//! 2. an inexact function is planned for `apipe-tokens-to-mbarrier`
//!    ([`tokens_to_mbarrier::plan::plan_function`]). Where the plan refuses
//!    (a commit under thread-dependent control flow, a device function that
//!    commits, ...), the function keeps counting form, which is safe (a
//!    minimum count), and a remark at the function says why;
//! 3. after every function is planned (nothing changed so far), each planned
//!    function is rewritten to the mbarrier form. Functions left in token
//!    form are converted by `apipe-tokens-to-counting` after this pass.
//!
//! Postcondition: every function is in counting or token form, with every
//! count exact, or in the mbarrier form.

use crate::{
    group_distance::{self, GroupDistance, Options as DistanceOptions},
    pass::{OptionInfo, OptionKind, PassInfo, PassOptions, RunFn},
    token_values,
    tokens_to_counting::wait_counts,
    tokens_to_mbarrier::{self, plan, rewrite},
};
use apipe_dialect::{diagnostic, ops, Reported};
use melior::{
    ir::{operation::OperationLike, OperationRef},
    pass::Pass,
};

/// The registry entry of `apipe-select-sync`.
pub static INFO: PassInfo = PassInfo {
    argument: "apipe-select-sync",
    name: "ApipeSelectSync",
    summary: "sync=auto: convert each token-form function whose counts would not be exact to the mbarrier form",
    options: &[OptionInfo {
        name: "remarks",
        kind: OptionKind::Bool,
        description: "emit a remark at each function with the form chosen (default false)",
    }],
    run: run as RunFn,
    dependent_dialects: crate::pass::sync_rewrite_dialects,
    reads_only: false,
    follows_calls: false,
};

/// Creates the `apipe-select-sync` pass.
pub fn create_select_sync_pass() -> Pass {
    INFO.create("").expect("no options")
}

fn run(op: OperationRef, options: &PassOptions) -> Result<(), Reported> {
    select_sync(op, options.bool("remarks", false)).map(|_| ())
}

/// Why a function is inexact in counting form (step 1), or `None` when
/// every count is exact (or nothing in it waits on a token).
///
/// # Errors
/// [`Reported`] when the analysis refused the function (errors emitted).
pub fn inexact_reason<'c: 'a, 'a>(
    function: OperationRef<'c, 'a>,
    options: &DistanceOptions<'c, 'a>,
) -> Result<Option<String>, Reported> {
    let own_waits = group_distance::own_ops(&function, ops::WAIT);
    if own_waits.is_empty() {
        return Ok(None); // Nothing waits: no count to be inexact.
    }
    let queues = group_distance::commit_queues(&function);
    if queues.len() > 1 {
        return Ok(Some(format!(
            "it commits on {} queues, which cp.async merges into one",
            queues.len()
        )));
    }
    let analysis = GroupDistance::compute_with(&function, options)?;
    for wait in own_waits {
        let Ok(counts) = wait_counts(&analysis, wait) else {
            // tokens-to-counting reports the token it cannot follow.
            continue;
        };
        if let Some(count) = counts.iter().find(|c| !c.exact) {
            return Ok(Some(format!(
                "the paths commit {} groups after the group of a wait on queue {}",
                count.range, count.queue
            )));
        }
    }
    Ok(None)
}

/// Steps 1-3 on every function in `root`; returns the number of functions
/// converted to the mbarrier form. On failure the IR is unchanged and
/// located errors have been emitted.
///
/// # Errors
/// [`Reported`] after located errors.
pub fn select_sync(root: OperationRef, remarks: bool) -> Result<usize, Reported> {
    let function_only = group_distance::is_function(&root);
    let committing_functions = (!function_only).then(|| {
        // A callee that waits matters too: its `wait_group` completes no
        // mbarrier group once converted (trial 25).
        std::rc::Rc::new(group_distance::functions_containing(
            &root,
            &[ops::COMMIT_GROUP, ops::WAIT_GROUP, ops::WAIT],
        ))
    });
    let waited = tokens_to_mbarrier::waited_after_return(&root);
    let mut plans = Vec::new();
    let mut ok = true;
    for function in group_distance::functions(&root) {
        if !group_distance::has_own_op(&function, ops::WAIT) {
            // Nothing to make exact: what it commits, a caller's or a
            // callee's wait completes (trial 57: no remark said so).
            if remarks && group_distance::has_own_op(&function, ops::COMMIT_GROUP) {
                diagnostic::remark(
                    function.location(),
                    "sync=auto: counting form (no apipe.wait on a token: no count to make exact)",
                );
            }
            continue;
        }
        let distance_options = DistanceOptions {
            function_only,
            committing_functions: committing_functions.clone(),
            ..DistanceOptions::default()
        };
        // 1.
        let reason = match inexact_reason(function, &distance_options) {
            Ok(Some(reason)) => reason,
            Ok(None) => {
                if remarks {
                    diagnostic::remark(
                        function.location(),
                        "sync=auto: counting form (every count is exact)",
                    );
                }
                continue;
            }
            Err(Reported) => {
                ok = false;
                continue;
            }
        };
        // 2.
        match plan::plan_function(
            function,
            &distance_options,
            tokens_to_mbarrier::Options::default(),
            waited(&function),
        ) {
            Ok(Some(plan)) => {
                if remarks {
                    diagnostic::remark(
                        function.location(),
                        &format!("sync=auto: mbarrier form ({reason})"),
                    );
                }
                plans.push(plan);
            }
            Ok(None) => {}
            Err(refusals) => {
                let why = refusals
                    .first()
                    .map(|r| r.message.as_str())
                    .unwrap_or("refused");
                diagnostic::remark(
                    function.location(),
                    &format!(
                        "sync=auto: counting form kept with inexact counts ({reason}); the \
                         mbarrier form is refused here: {why}"
                    ),
                );
            }
        }
    }
    if !ok {
        return Err(Reported);
    }
    if plans.is_empty() {
        return Ok(0);
    }
    if !token_values::check_removable(&root) {
        return Err(Reported);
    }
    // 3.
    for plan in &plans {
        rewrite::rewrite(plan);
    }
    Ok(plans.len())
}
