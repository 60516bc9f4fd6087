//! `apipe-merge-queues`: every queue onto queue 0, with every count
//! recomputed over the merged FIFO order.
//!
//! Hardware `cp.async` has one queue per thread (PTX ISA 9.7.9.25.3.2-3:
//! `commit_group` and `wait_group` name no queue), while the pipeliner puts
//! the copies of async stage s on queue s (RFC 0077's convention). Merging
//! interleaves the groups of all queues into one FIFO, so a count that was
//! right on its own queue is wrong on the merged one: it must be recomputed.
//!
//! Algorithm:
//! 0. if the root is in counting form (no `apipe.wait`) with every apipe op
//!    already on queue 0, there is nothing to merge: the IR is left as it
//!    is (so counting form on one queue, the common input of
//!    `apipe-translate`, never needs the preconditions below, e.g. a helper
//!    function that waits);
//! 1. check every precondition before touching the IR: those of
//!    `apipe-counting-to-tokens` and `apipe-tokens-to-counting` (existing
//!    tokens removable, commits only in structured control flow, no call of
//!    a committing function);
//! 2. [`counting_to_tokens()`]: each `wait_group` names the group it completes
//!    (exactly, on its own queue);
//! 3. move every `apipe.copy`, `apipe.commit_group` and `apipe.ready` to
//!    queue 0 (drop the `queue` attribute). A copy that was committed later
//!    on its own queue may now join an earlier group of queue 0: it completes
//!    no later than before, so every wait still covers it. A `wait_group`
//!    that step 2 kept (in a function that may be entered with groups in
//!    flight, it may wait for a group of the caller) moves to queue 0 with
//!    its count: at least as many groups follow its group on the merged
//!    queue, so it still completes it (perhaps waiting longer than needed);
//! 4. [`tokens_to_counting`] (not strict): each wait becomes `wait_group`
//!    on queue 0 with the groups of every queue counted; a count the paths do
//!    not agree on (queues committed at different rates under a branch) takes
//!    the minimum, with a remark;
//! 5. of two adjacent `wait_group`s (now on one queue), keep the smaller
//!    count: it completes every group the other one does (FIFO).
//!
//! Postcondition: every apipe op is on queue 0, and each wait completes at
//! least the groups (and copies) it completed before.

use crate::{
    counting_to_tokens::{self, counting_to_tokens},
    pass::{PassInfo, PassOptions, RunFn},
    token_values, tokens_to_counting,
};
use apipe_dialect::{attributes, ops, Reported};
use melior::{
    ir::{
        operation::{OperationLike, OperationMutLike, OperationRefMut},
        BlockLike, BlockRef, OperationRef,
    },
    pass::Pass,
};

/// The registry entry of `apipe-merge-queues`.
pub static INFO: PassInfo = PassInfo {
    argument: "apipe-merge-queues",
    name: "ApipeMergeQueues",
    summary:
        "Map every queue onto queue 0 (hardware cp.async has one queue), recomputing every count",
    options: &[],
    run: run as RunFn,
    dependent_dialects: Vec::new,
    reads_only: false,
    follows_calls: false,
};

/// Creates the `apipe-merge-queues` pass.
pub fn create_merge_queues_pass() -> Pass {
    INFO.create("").expect("no options")
}

fn run(op: OperationRef, _options: &PassOptions) -> Result<(), Reported> {
    merge_queues(op)
}

/// Moves every apipe op in `root` (a module or a function-like op) to queue
/// 0 and recomputes every count. On failure the IR is unchanged and located
/// errors have been emitted.
///
/// # Errors
/// [`Reported`] after located errors.
pub fn merge_queues(root: OperationRef) -> Result<(), Reported> {
    // 0.
    let merged = ops::nested_ops(&root)
        .iter()
        .all(|op| !ops::is_apipe(op) || (!ops::is(op, ops::WAIT) && attributes::queue(op) == 0));
    if merged {
        return Ok(());
    }
    // 1.
    if !token_values::check_removable(&root) || !counting_to_tokens::check_all(&root) {
        return Err(Reported);
    }
    // 2.
    counting_to_tokens(root)?;
    // 3.
    for op in ops::nested_ops(&root) {
        let on_queue = ops::is(&op, ops::COPY)
            || ops::is(&op, ops::COMMIT_GROUP)
            || ops::is(&op, ops::READY)
            || ops::is(&op, ops::WAIT_GROUP);
        if on_queue && op.has_attribute(attributes::QUEUE) {
            // SAFETY: a live op; removing an attribute does not move it.
            let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
            let _ = op.remove_attribute(attributes::QUEUE);
        }
    }
    // 4.
    tokens_to_counting::convert(root, false, ops::WAIT_GROUP)?;
    // 5.
    for op in ops::self_and_nested_ops(&root) {
        for block in ops::blocks_of(&op) {
            merge_adjacent_waits(block);
        }
    }
    Ok(())
}

/// Step 5 in one block.
fn merge_adjacent_waits(block: BlockRef) {
    let pending = |op: &OperationRef| attributes::integer(op, attributes::PENDING).unwrap_or(0);
    let mut current = block.first_operation();
    while let Some(op) = current {
        let next = op.next_in_block();
        let Some(second) = next.filter(|n| {
            ops::is(&op, ops::WAIT_GROUP)
                && ops::is(n, ops::WAIT_GROUP)
                && attributes::queue(&op) == attributes::queue(n)
        }) else {
            current = next;
            continue;
        };
        // Keep the smaller count: it completes everything the other does.
        let (keep, erase) = if pending(&second) < pending(&op) {
            (second, op)
        } else {
            (op, second)
        };
        crate::rewrite::erase_op(erase);
        current = Some(keep);
    }
}
