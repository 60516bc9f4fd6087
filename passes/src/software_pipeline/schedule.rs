//! Scheduling for `apipe-software-pipeline{num-stages=N}` (or
//! `apipe.num_stages = N` on the `scf.for`): picks the stage and the order
//! of each op of a loop written without (or with some) `apipe.stage`
//! annotations, as Triton's `num_stages` and upstream
//! `transform.nvgpu.pipeline_shared_memory_copies` do from a depth.
//!
//! Algorithm ([`assign`]):
//! 1. **Synchronous form.** A loop may already synchronize its copies the
//!    synchronous way, as `apipe-import-nvgpu` makes of upstream
//!    `nvgpu.device_async_copy` / `create_group` / `wait` loops: every
//!    `commit_group` and `wait_group 0` (or `wait` on the token of the last
//!    commit) is an op of the body itself, and every copy is committed and
//!    waited for before the iteration ends ([`synchronous_form`]). Such
//!    commits and waits only say "wait for the copies before use", which the
//!    pipeliner places itself: they are left out of the pipelined body.
//!    Other synchronization in the loop is hand pipelining: the loop is not
//!    scheduled (a located error when `apipe.num_stages` asks for it).
//! 2. **Stage 0**: every op that holds an `apipe.copy`, and the ops that
//!    compute its operands (the backward slice within the body; for an
//!    iter_arg, the op whose result the yield gives for it, and its slice).
//! 3. **Stage N−1**: every op that reads a buffer a copy writes (the
//!    copy's destination as an operand of anything but an async copy), and
//!    every op that uses a result of those, or an iter_arg that they yield
//!    (the forward slice).
//! 4. **The rest** goes in stage N−1 too: after the copies of its
//!    iteration have been issued, and in its original order among the
//!    consumers (so side effects keep their order).
//! 5. Hand annotations win: an op with `apipe.stage` keeps it, and
//!    `apipe.async_stages` / `apipe.order` on the loop are kept when given.
//! 6. **Order** (without `apipe.order`), [`ScheduleOrder`]:
//!    - `Cutlass` (the default), the CUTLASS multistage order within a time
//!      step: the ops of the highest stage first (the consumers of the
//!      oldest tile: wait, barrier, compute), then lower stages, ending with
//!      the copies of the newest tile; original order within a stage. The
//!      copies of time step τ overwrite the version that step τ−1 read,
//!      after step τ's wait and barrier, so one `gpu.barrier` per iteration
//!      covers both the read-after-copy and the copy-after-read hazards.
//!      `N − 2` tiles are in flight during the compute (upstream's
//!      `pipeline_shared_memory_copies` with depth `N − 1` does the same);
//!    - `CopiesFirst`: the waits of the step first, then the ops from the
//!      lowest stage up (wait, barrier, copy tile τ, compute tile τ−N+1):
//!      the same single barrier, with `N − 1` tiles in flight during the
//!      compute (the newest copy overlaps it too).
//! 7. **Memory order checks** (located errors): an op that reads a copy's
//!    destination before the copy in the body (it reads the previous
//!    iteration's data, which the versions do not keep), and a write that
//!    precedes a copy in the body and may alias what the copy reads or
//!    writes, but lands in a later stage (the copy would run first).
//!
//! Preconditions: `loop_op` is an `scf.for`; `num_stages` in
//! `[2, MAX_STAGE + 1]`. The IR is not changed here.

use super::analysis::{body_ops, MAX_STAGE};
use crate::access::{self, AccessCache, AccessKind, OpAccesses};
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{attributes, diagnostic, ops};
use melior::ir::{
    attribute::DenseI64ArrayAttribute, operation::OperationLike, BlockLike, OperationRef,
    RegionLike, ValueLike,
};
use mlir_sys::MlirOperation;
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

/// How a loop asks to be pipelined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Request {
    /// Every op carries `apipe.stage` (or the loop carries
    /// `apipe.async_stages`): the hand annotations are the schedule.
    Annotated,
    /// Schedule with this many stages (from `apipe.num_stages`, else from
    /// the pass option `num-stages`).
    Scheduled(i64),
}

/// The stages and order the pipeliner follows for one loop.
pub(crate) struct Assignment {
    /// The body ops that are pipelined, in original order (the synchronous
    /// form's commits and waits left out).
    pub ops: Vec<MlirOperation>,
    /// The stage of each op of `ops`.
    pub stage: Vec<i64>,
    /// The `apipe.order` of each op of `ops` (all `Some`, or all `None`).
    pub order: Vec<Option<i64>>,
    /// The async stages.
    pub async_stages: Vec<i64>,
    /// The waits go first in the step ([`ScheduleOrder::CopiesFirst`]).
    pub early_waits: bool,
}

/// The order of the ops of a time step that the scheduler picks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScheduleOrder {
    /// Highest stage first: wait, barrier, compute, then the new copies.
    #[default]
    Cutlass,
    /// Waits first, then the lowest stage first: wait, barrier, the new
    /// copies, then compute.
    CopiesFirst,
}

/// The `num_stages` attribute of `loop_op`, if any.
pub(crate) fn num_stages_attribute(loop_op: &OperationRef) -> Option<i64> {
    attributes::integer(loop_op, attributes::NUM_STAGES)
}

/// True if some op of the body of `loop_op` holds an `apipe.copy` outside
/// any loop nested in the body.
pub(crate) fn has_own_copies(loop_op: &OperationRef) -> bool {
    body_ops(loop_op).iter().any(|op| {
        ops::self_and_nested_ops(op).iter().any(|o| {
            ops::is(o, ops::COPY)
                && !ops::ancestors(o)
                    .take_while(|p| p.to_raw().ptr != loop_op.to_raw().ptr)
                    .any(|p| is_loop(&p))
        })
    })
}

/// True if `op` is a loop: `scf.for`, `scf.while`, `scf.parallel`,
/// `scf.forall`, `affine.for` or `affine.parallel`.
pub(crate) fn is_loop(op: &OperationRef) -> bool {
    matches!(
        ops::name(op),
        "scf.for" | "scf.while" | "scf.parallel" | "scf.forall" | "affine.for" | "affine.parallel"
    )
}

/// How `loop_op` asks to be pipelined, if it does: `option` is the pass's
/// `num-stages`. A loop with no annotation and no `apipe.num_stages` is
/// scheduled by the option only when it has copies of its own and no
/// synchronization other than the synchronous form (step 1).
pub(crate) fn request(loop_op: &OperationRef, option: Option<i64>) -> Option<Request> {
    if !ops::is(loop_op, "scf.for") {
        return None;
    }
    let body = body_ops(loop_op);
    let stages = body
        .iter()
        .filter(|o| o.has_attribute(attributes::STAGE))
        .count();
    let fully_annotated = !body.is_empty() && stages == body.len();
    if let Some(n) = num_stages_attribute(loop_op) {
        if stages == 0 && !has_own_copies(loop_op) {
            // Nothing to make asynchronous: the pass warns and leaves it.
            return None;
        }
        return Some(if fully_annotated {
            Request::Annotated
        } else {
            Request::Scheduled(n)
        });
    }
    if loop_op.has_attribute(attributes::ASYNC_STAGES) || stages > 0 {
        return Some(match option {
            Some(n) if !fully_annotated => Request::Scheduled(n),
            _ => Request::Annotated,
        });
    }
    let n = option?;
    (has_own_copies(loop_op) && synchronous_form(loop_op).is_some())
        .then_some(Request::Scheduled(n))
}

/// Step 1: the commits and waits of `loop_op` when they are its synchronous
/// form (`Some(vec![])` when it has none: its copies then mean synchronous
/// copies, as the pipeliner's input always does), else `None`.
///
/// The form, per queue `q`: every `commit_group` / `wait_group` / `wait`
/// is an op of the body itself; every `wait_group` has `pending = 0`;
/// every `wait` waits on the tokens of commits of the body before it (a
/// wait for one group completes the older ones of its queue too, as
/// `nvgpu.device_async_wait` on each of several `create_group`s per
/// iteration does); no token is used otherwise; and after the last copy
/// of queue `q` in the body come a commit and then a wait for the last
/// commit of `q`. So every copy of an iteration is complete before the
/// iteration ends: the waits only say "wait for the copies before use",
/// and the loop means what its `apipe-make-sync` form means.
pub(crate) fn synchronous_form(loop_op: &OperationRef) -> Option<Vec<MlirOperation>> {
    let body = body_ops(loop_op);
    let mut sync = Vec::new();
    let sync_names = [ops::COMMIT_GROUP, ops::WAIT_GROUP, ops::WAIT, ops::READY];
    for op in &body {
        for inner in ops::nested_ops(op) {
            if sync_names.contains(&ops::name(&inner)) {
                return None;
            }
        }
    }
    if !body.iter().any(|op| sync_names.contains(&ops::name(op))) {
        // No synchronization: the copies mean what synchronous copies mean.
        return Some(sync);
    }
    // Per queue: copies since its last commit, its commits in body order,
    // and how many of them a wait has completed (groups complete in commit
    // order: a wait for a group completes every older one, PTX ISA
    // 9.7.9.25.3).
    #[derive(Default)]
    struct Queue {
        uncommitted: bool,
        commits: Vec<MlirOperation>,
        waited: usize,
    }
    let mut queues: FxHashMap<i64, Queue> = FxHashMap::default();
    let mut tokens: FxHashSet<usize> = FxHashSet::default();
    for op in &body {
        let name = ops::name(op);
        if name == ops::READY {
            return None;
        }
        if name == ops::COMMIT_GROUP {
            let queue = queues.entry(attributes::queue(op)).or_default();
            queue.uncommitted = false;
            queue.commits.push(op.to_raw());
            if op.result_count() > 0 {
                tokens.insert(op.result(0).unwrap().to_raw().ptr as usize);
            }
            sync.push(op.to_raw());
            continue;
        }
        if name == ops::WAIT_GROUP {
            if attributes::integer(op, attributes::PENDING) != Some(0) {
                return None;
            }
            let queue = queues.entry(attributes::queue(op)).or_default();
            queue.waited = queue.commits.len();
            sync.push(op.to_raw());
            continue;
        }
        if name == ops::WAIT {
            for token in op.operands() {
                let owner = ops::defining_op(token)?;
                // A commit of this iteration, before the wait.
                let queue = queues.get_mut(&attributes::queue(&owner))?;
                let k = queue
                    .commits
                    .iter()
                    .position(|c| c.ptr == owner.to_raw().ptr)?;
                queue.waited = queue.waited.max(k + 1);
            }
            sync.push(op.to_raw());
            continue;
        }
        for inner in ops::self_and_nested_ops(op) {
            if ops::is(&inner, ops::COPY) {
                queues
                    .entry(attributes::queue(&inner))
                    .or_default()
                    .uncommitted = true;
            }
            // A token used by anything but a wait of the body.
            if inner
                .operands()
                .any(|v| tokens.contains(&(v.to_raw().ptr as usize)))
            {
                return None;
            }
        }
    }
    let terminator = loop_op.region_at(0)?.first_block()?.terminator()?;
    if terminator
        .operands()
        .any(|v| tokens.contains(&(v.to_raw().ptr as usize)))
    {
        return None;
    }
    queues
        .values()
        .all(|q| !q.uncommitted && q.waited == q.commits.len())
        .then_some(sync)
}

/// The queues whose groups the synchronous-form waits of `loop_op` complete
/// (a `wait_group` on the queue, or a `wait` on the token of one of its
/// commits), sorted; empty when the loop has no synchronous form or no
/// wait. Each such wait also completes every older group of its queue
/// (PTX ISA 9.7.9.25.3), those committed before the loop included, which
/// the pipeliner's own waits, placed for the loop's copies alone, do not
/// replace before the loop's first reader ([`super::Emitter::settle`]).
pub(crate) fn waited_queues(loop_op: &OperationRef) -> Vec<i64> {
    let mut out = Vec::new();
    for raw in synchronous_form(loop_op).unwrap_or_default() {
        // SAFETY: an op of the live loop body.
        let op = unsafe { OperationRef::from_raw(raw) };
        if ops::is(&op, ops::WAIT_GROUP) {
            out.push(attributes::queue(&op));
        } else if ops::is(&op, ops::WAIT) {
            out.extend(
                op.operands()
                    .filter_map(ops::defining_op)
                    .map(|commit| attributes::queue(&commit)),
            );
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// True if op `a` (with its accesses) may write memory that op `b`, a copy
/// of the same iteration of `loop_op`, reads or writes (step 5).
fn writes_into_copy<'c: 'a, 'a>(
    forms: &mut access::Forms,
    loop_op: &OperationRef<'c, 'a>,
    (a, a_op): (&Rc<OpAccesses<'c, 'a>>, &OperationRef<'c, 'a>),
    (b, b_op): (&Rc<OpAccesses<'c, 'a>>, &OperationRef<'c, 'a>),
) -> bool {
    let b_any = b.reads_all || b.writes_all || !b.accesses.is_empty();
    if a.writes_all && b_any {
        return true;
    }
    a.accesses
        .iter()
        .filter(|x| x.kind == AccessKind::Write)
        .any(|x| {
            b.reads_all
                || b.writes_all
                || b.accesses.iter().any(|y| {
                    access::may_alias(&x.region.root, &y.region.root)
                        && access::may_depend_at(
                            forms,
                            (&x.region, Some(a_op)),
                            (&y.region, Some(b_op)),
                            loop_op,
                            access::IterationDistance::Exactly(0),
                        )
                        .may()
                })
        })
}

/// The stage and order of every op of `loop_op` for `num_stages` stages
/// (steps 1-7). Emits located errors and returns `Err` when the loop cannot
/// be scheduled.
pub(crate) fn assign<'c: 'a, 'a>(
    loop_op: &OperationRef<'c, 'a>,
    num_stages: i64,
    order_kind: ScheduleOrder,
    cache: &mut AccessCache<'c, 'a>,
) -> Result<Assignment, ()> {
    let location = loop_op.location();
    if !(2..=MAX_STAGE + 1).contains(&num_stages) {
        diagnostic::error(
            location,
            &format!(
                "the pipeliner schedules 2 to {} stages, got num_stages = {num_stages}",
                MAX_STAGE + 1
            ),
        );
        return Err(());
    }
    let last = num_stages - 1;
    // 1. The synchronous form's commits and waits are left out.
    let dropped: FxHashSet<usize> = synchronous_form(loop_op)
        .unwrap_or_default()
        .iter()
        .map(|o| o.ptr as usize)
        .collect();
    let body: Vec<OperationRef> = body_ops(loop_op)
        .into_iter()
        .filter(|o| !dropped.contains(&(o.to_raw().ptr as usize)))
        .collect();
    let block = loop_op.region(0).unwrap().first_block().unwrap();
    let terminator = block.terminator().unwrap();
    let nested: Vec<Vec<OperationRef>> = body.iter().map(ops::self_and_nested_ops).collect();
    let mut producer: FxHashMap<usize, usize> = FxHashMap::default();
    for (k, op) in body.iter().enumerate() {
        for r in op.results() {
            producer.insert(r.to_raw().ptr as usize, k);
        }
    }
    // iter_arg -> the body op whose result the yield gives for it.
    let mut yielded_by: FxHashMap<usize, usize> = FxHashMap::default();
    for (j, y) in terminator.operands().enumerate() {
        if let (Ok(arg), Some(&p)) = (
            block.argument(j + 1),
            producer.get(&(y.to_raw().ptr as usize)),
        ) {
            yielded_by.insert(arg.to_raw().ptr as usize, p);
        }
    }
    // The operands of each body op and the ops nested in it.
    let operands: Vec<Vec<usize>> = nested
        .iter()
        .map(|ops| {
            ops.iter()
                .flat_map(|o| {
                    o.operands()
                        .map(|v| v.to_raw().ptr as usize)
                        .collect::<Vec<_>>()
                })
                .collect()
        })
        .collect();
    let operands_of = |k: usize| -> &[usize] { &operands[k] };

    // 2. Stage 0: the copies and their backward slice.
    let copies: Vec<usize> = (0..body.len())
        .filter(|&k| nested[k].iter().any(|o| ops::is(o, ops::COPY)))
        .collect();
    let mut producers: FxHashSet<usize> = copies.iter().copied().collect();
    let mut work = copies.clone();
    while let Some(k) = work.pop() {
        for &v in operands_of(k) {
            for p in [producer.get(&v), yielded_by.get(&v)].into_iter().flatten() {
                if producers.insert(*p) {
                    work.push(*p);
                }
            }
        }
    }
    // 3. Stage N-1: the readers of the copies' destinations, forward.
    let destinations: FxHashSet<usize> = copies
        .iter()
        .flat_map(|&k| nested[k].iter().filter(|o| ops::is(*o, ops::COPY)))
        .map(|c| c.operand(1).unwrap().to_raw().ptr as usize)
        .collect();
    let reads_destination = |k: usize| {
        nested[k].iter().any(|o| {
            o.operands().enumerate().any(|(i, v)| {
                destinations.contains(&(v.to_raw().ptr as usize))
                    && !(ops::is(o, ops::COPY) && i == 1)
            })
        })
    };
    let mut consumers: FxHashSet<usize> = (0..body.len())
        .filter(|&k| !producers.contains(&k) && reads_destination(k))
        .collect();
    let mut work: Vec<usize> = consumers.iter().copied().collect();
    while let Some(k) = work.pop() {
        let mut made: FxHashSet<usize> =
            body[k].results().map(|r| r.to_raw().ptr as usize).collect();
        // The iter_args that this op yields.
        made.extend(
            yielded_by
                .iter()
                .filter(|(_, &p)| p == k)
                .map(|(&arg, _)| arg),
        );
        for j in 0..body.len() {
            if !producers.contains(&j)
                && !consumers.contains(&j)
                && operands_of(j).iter().any(|v| made.contains(v))
            {
                consumers.insert(j);
                work.push(j);
            }
        }
    }

    // 4-5. Stages: hand annotations win, stage 0 for the producers, N-1
    // for everything else.
    let stage: Vec<i64> =
        (0..body.len())
            .map(|k| {
                attributes::integer(&body[k], attributes::STAGE)
                    .unwrap_or(if producers.contains(&k) { 0 } else { last })
            })
            .collect();

    // 7. Memory order: a read of a copy's destination before the copy, and
    // a write before a copy that ends up in a later stage.
    let mut ok = true;
    // A producer that reads a copy's destination: a copy's operands depend
    // on copied data (a recurrence through an iter_arg, trial 56), so no
    // copy can be issued a stage ahead of that read. Said in the user's
    // terms (the stages are the schedule's, not theirs).
    for k in (0..body.len()).filter(|&k| {
        stage[k] == 0
            && attributes::integer(&body[k], attributes::STAGE).is_none()
            && !copies.contains(&k)
            && reads_destination(k)
            // A view of a destination (a subview another copy writes
            // through) reads nothing.
            && !body[k]
                .results()
                .any(|r| crate::access::region::is_memref(r.into()))
    }) {
        let copy = copies
            .iter()
            .flat_map(|&c| nested[c].iter().filter(|o| ops::is(*o, ops::COPY)))
            .find(|c| {
                let dst = c.operand(1).unwrap().to_raw().ptr as usize;
                nested[k]
                    .iter()
                    .any(|o| o.operands().any(|v| v.to_raw().ptr as usize == dst))
            });
        diagnostic::emit(
            body[k].location(),
            diagnostic::Severity::Error,
            &format!(
                "'{}' op reads the destination of an async copy, and the operands of the loop's \
                 copies depend on what it reads (through the iter_args, or in the same \
                 iteration): no copy can be issued ahead of this read, so the loop cannot be \
                 pipelined; compute the copies' addresses from data that no copy of the loop \
                 writes",
                ops::name(&body[k])
            ),
            &copy
                .iter()
                .map(|c| (c.location(), "the copy whose destination it reads"))
                .collect::<Vec<_>>(),
        );
        ok = false;
    }
    for &c in &copies {
        let copy = nested[c].iter().find(|o| ops::is(*o, ops::COPY)).unwrap();
        let written: FxHashSet<usize> = nested[c]
            .iter()
            .filter(|o| ops::is(*o, ops::COPY))
            .map(|o| o.operand(1).unwrap().to_raw().ptr as usize)
            .collect();
        for k in (0..c).filter(|&k| stage[k] > stage[c]) {
            let reads = nested[k].iter().any(|o| {
                o.operands().enumerate().any(|(i, v)| {
                    // Its buffer operand as the destination of a copy or a
                    // plain store is a write (the next check's case).
                    written.contains(&(v.to_raw().ptr as usize))
                        && !(i == 1
                            && (ops::is(o, ops::COPY)
                                || ops::is(o, "memref.store")
                                || ops::is(o, "vector.store")))
                })
            });
            if reads {
                // A view made before the copy (a subview or cast that a
                // store then writes through) reads nothing itself: said so
                // (trial 74: "'memref.subview' op reads a buffer").
                let view = apipe_dialect::effects::view_source(&body[k]).is_some();
                let message = if view {
                    format!(
                        "'{}' op makes a view of a buffer before the copy of the same iteration writes it; the pipeliner keeps one value per copied buffer and rewrites its accesses to the iteration's version, which a view made before the copy does not follow; make the view after the copy, or access the buffer itself",
                        ops::name(&body[k])
                    )
                } else {
                    format!(
                        "'{}' op reads a buffer before the copy of the same iteration writes it (it reads the previous iteration's data, which multi-buffering does not keep: each iteration's copy gets a version of its own, so no schedule, automatic or annotated, keeps this read); move it after the copy, or carry the previous iteration's value in an iter_arg",
                        ops::name(&body[k])
                    )
                };
                diagnostic::emit(
                    body[k].location(),
                    diagnostic::Severity::Error,
                    &message,
                    &[(copy.location(), "the copy")],
                );
                ok = false;
            }
        }
    }
    let accesses: Vec<Vec<Rc<OpAccesses>>> = nested
        .iter()
        .map(|ops| ops.iter().map(|o| cache.of(o)).collect())
        .collect();
    for &c in &copies {
        for w in 0..c {
            if stage[w] <= stage[c] {
                continue;
            }
            // The same iteration's write and copy: their regions compared
            // at distance 0 (a store into the destination's other elements
            // is no conflict; trial 73). Other iterations are the
            // dependence test's (`super::dependences`), which compares
            // every pair at every distance under the schedule.
            let conflict = accesses[w].iter().zip(&nested[w]).any(|write| {
                accesses[c]
                    .iter()
                    .zip(&nested[c])
                    .any(|copy| writes_into_copy(&mut cache.forms, loop_op, write, copy))
            });
            if conflict {
                let copy = nested[c].iter().find(|o| ops::is(*o, ops::COPY)).unwrap();
                diagnostic::emit(
                    body[w].location(),
                    diagnostic::Severity::Error,
                    &format!(
                        "'{}' op writes memory that a later copy of the same iteration may access, but the schedule puts it in stage {} and the copy in stage {}: the copy would run first; move it after the copy, or annotate the loop by hand",
                        ops::name(&body[w]),
                        stage[w],
                        stage[c]
                    ),
                    &[(copy.location(), "the copy")],
                );
                ok = false;
            }
        }
    }
    if !ok {
        return Err(());
    }

    // 6. Order.
    let given: Vec<Option<i64>> = body
        .iter()
        .map(|o| attributes::integer(o, attributes::ORDER))
        .collect();
    let max_stage = stage.iter().copied().max().unwrap_or(0);
    let hand_ordered = given.iter().any(Option::is_some);
    let order = if hand_ordered {
        given
    } else {
        match order_kind {
            ScheduleOrder::Cutlass => stage.iter().map(|s| Some(max_stage - s)).collect(),
            ScheduleOrder::CopiesFirst => stage.iter().map(|&s| Some(s)).collect(),
        }
    };

    let async_stages = match loop_op
        .attribute(attributes::ASYNC_STAGES)
        .ok()
        .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok())
    {
        Some(array) => (0..array.len())
            .map(|i| array.element(i).unwrap())
            .collect(),
        None => {
            let mut s: Vec<i64> = copies.iter().map(|&k| stage[k]).collect();
            s.sort_unstable();
            s.dedup();
            s
        }
    };
    Ok(Assignment {
        ops: body.iter().map(|o| o.to_raw()).collect(),
        stage,
        order,
        async_stages,
        early_waits: !hand_ordered && order_kind == ScheduleOrder::CopiesFirst,
    })
}
