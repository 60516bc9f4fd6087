//! Where `apipe-software-pipeline` puts `gpu.barrier`s in a `gpu.func`:
//! only where two threads of a block may otherwise touch the same
//! workgroup bytes with no barrier between, one of them writing (the race
//! `apipe-run --racecheck` and `compute-sanitizer --tool racecheck`
//! report), counting the barriers the user already has.
//!
//! Model. The pipelined code for `N` iterations is the sequence of time
//! steps `τ = 0 … N+S−1` (`S` the last stage); each step runs the schedule
//! (the body order with its waits and commits, `L` items) with the ops of
//! the inactive stages left out. A barrier goes in a **gap** `g ∈ [0, L]`
//! of a step (before item `g`; `L` is after the last). Each workgroup
//! access of an op of stage `s` in step `τ` is an **event** on iteration
//! `i = τ − s`, on version `i mod V` of its buffer (`V = 1` when the buffer
//! is not multi-buffered); a synchronous access lasts one item, an async
//! copy lasts from its issue to the first wait for its group (PTX ISA
//! 9.7.9.25.3: a thread's copies are complete, for that thread only, once
//! its `cp.async.wait_group` returns). Two events of one buffer version,
//! one a write, are a **hazard**: a barrier must lie between the end of
//! the first and the start of the second (bar.sync orders the block's
//! shared-memory accesses, PTX ISA 9.7.13.1).
//!
//! Algorithm ([`place`]):
//! 1. collect the events of each body op (what it reads and writes, from
//!    [`crate::access`]: MLIR memory effects, roots through views); the
//!    user's own `gpu.barrier`s of the body are dropped when the loop
//!    writes no global memory (then they only order workgroup accesses,
//!    which this placement covers itself, and the loop's global reads
//!    against global writes outside the loop, which become events on one
//!    buffer standing for all of global memory), else kept and counted;
//!    accesses before and after the loop are events too, unless a barrier
//!    separates them from the loop or nothing can come before (after) it;
//! 2. **kernel**: the hazards of the steady state (every stage active),
//!    as arcs on the circle of the `L` gaps of one step; the fewest gaps
//!    that hit every arc ([`min_circular_cover`]: a point of some optimal
//!    cover can be moved to an arc's end, and from there the greedy cover
//!    by earliest end is optimal): the same barriers in every kernel
//!    iteration;
//! 3. **prologue and epilogue**: for a trip count `N`, the hazards of the
//!    whole sequence are stabbed greedily (by earliest end, at the latest
//!    allowed gap), the kernel steps' barriers being given; steps outside
//!    the kernel get only what they need. For a static `N` this is exact;
//!    for a dynamic one, the prologue and epilogue steps get the union over
//!    `N ∈ [S, S + T]` (beyond `T` the choice no longer changes: every
//!    hazard is within `S + max V` steps and a kernel step holds a barrier).
//!
//! With the CUTLASS order ([`super::schedule`]: consumers of the oldest
//! tile, then the new copies), the wait → barrier → compute → copy step
//! needs one barrier: the copy of step `τ` overwrites the version read in
//! step `τ − 1`, before step `τ`'s barrier.
//!
//! `barriers=conservative` keeps the earlier placement: a barrier after
//! each wait and before the first op of every async stage whose data is
//! read by another stage, in every step where that stage is active.

use super::analysis::{Item, Plan};
use super::multi_buffer::{slot_dimension, Slots};
use crate::access::{self, AccessKind, RootKind, Symbol};
use apipe_dialect::ops;
use melior::ir::{operation::OperationLike, BlockLike, OperationRef};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeSet;

/// How barriers are placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierMode {
    /// No barriers (host code, or `barriers=false`).
    Off,
    /// Only where a hazard needs one (the default in `gpu.func`).
    Minimal,
    /// After each wait and before the first op of each async stage
    /// (`barriers=conservative`).
    Conservative,
}

/// The barriers of a pipelined loop.
#[derive(Clone, Debug)]
pub(crate) enum BarrierPlan {
    /// None.
    None,
    /// `(gap, stage)`: a barrier in the gap whenever `stage` is active,
    /// unless the previous emitted op is a barrier.
    Conservative(Vec<(usize, i64)>),
    /// The minimal placement.
    Minimal(Minimal),
}

/// The minimal placement: gaps per step.
#[derive(Clone, Debug)]
pub(crate) struct Minimal {
    /// The gaps of every kernel iteration.
    pub kernel: Vec<usize>,
    /// Dynamic trip count (`N ≥ S`): prologue step `τ` (`S` entries; empty
    /// for a static trip count, which uses `fixed`).
    pub prologue: Vec<Vec<usize>>,
    /// Dynamic trip count (`N ≥ S`): epilogue step `N − 1 + k`, at `k − 1`
    /// (`S` entries; empty for a static trip count).
    pub epilogue: Vec<Vec<usize>>,
    /// `n` → the gaps of each step: the static trip count (capped at
    /// `horizon`), or for a dynamic one each `n < S`.
    pub fixed: FxHashMap<u64, Vec<Vec<usize>>>,
    /// The user's barriers (body op indices) left out.
    pub dropped: FxHashSet<usize>,
    /// How many of the user's barriers stay in the body (each runs once per
    /// kernel iteration, besides the placed ones in `kernel`).
    pub kept: usize,
    /// The largest `n` simulated (`S + T`); larger trip counts use it.
    pub horizon: u64,
}

/// Barriers of one emitted step.
pub(crate) enum StepBarriers<'a> {
    /// None.
    None,
    /// In these gaps.
    Gaps(&'a [usize]),
    /// `(gap, stage)` pairs, as [`BarrierPlan::Conservative`].
    Conservative(&'a [(usize, i64)]),
}

impl BarrierPlan {
    /// True if the plan places at least one `gpu.barrier` (in some step,
    /// for some trip count).
    pub fn places_any(&self) -> bool {
        match self {
            BarrierPlan::None => false,
            BarrierPlan::Conservative(c) => !c.is_empty(),
            BarrierPlan::Minimal(m) => {
                !m.kernel.is_empty()
                    || m.prologue.iter().chain(&m.epilogue).any(|g| !g.is_empty())
                    || m.fixed.values().flatten().any(|g| !g.is_empty())
            }
        }
    }

    /// True if the user's barrier `k` (a body op) is left out.
    pub fn drops(&self, k: usize) -> bool {
        matches!(self, BarrierPlan::Minimal(m) if m.dropped.contains(&k))
    }

    /// The barriers of a kernel iteration.
    pub fn kernel(&self) -> StepBarriers<'_> {
        match self {
            BarrierPlan::None => StepBarriers::None,
            BarrierPlan::Conservative(c) => StepBarriers::Conservative(c),
            BarrierPlan::Minimal(m) => StepBarriers::Gaps(&m.kernel),
        }
    }

    /// The barriers of step `tau` of a static trip count `n`.
    pub fn fixed(&self, n: u64, tau: i128) -> StepBarriers<'_> {
        match self {
            BarrierPlan::None => StepBarriers::None,
            BarrierPlan::Conservative(c) => StepBarriers::Conservative(c),
            BarrierPlan::Minimal(m) => {
                let effective = n.min(m.horizon);
                let steps = &m.fixed[&effective];
                // Steps past the prologue are counted from the end.
                let shift = i128::from(n - effective);
                let tau = if tau >= i128::from(m.prologue.len() as u64) {
                    tau - shift
                } else {
                    tau
                };
                StepBarriers::Gaps(&steps[tau as usize])
            }
        }
    }

    /// The barriers of prologue step `tau` of a dynamic trip count.
    pub fn prologue(&self, tau: i64) -> StepBarriers<'_> {
        match self {
            BarrierPlan::None => StepBarriers::None,
            BarrierPlan::Conservative(c) => StepBarriers::Conservative(c),
            BarrierPlan::Minimal(m) => StepBarriers::Gaps(&m.prologue[tau as usize]),
        }
    }

    /// The barriers of epilogue step `N − 1 + k` of a dynamic trip count.
    pub fn epilogue(&self, k: i64) -> StepBarriers<'_> {
        match self {
            BarrierPlan::None => StepBarriers::None,
            BarrierPlan::Conservative(c) => StepBarriers::Conservative(c),
            BarrierPlan::Minimal(m) => StepBarriers::Gaps(&m.epilogue[k as usize - 1]),
        }
    }

    /// The `gpu.barrier`s a kernel iteration runs: the placed ones and the
    /// user's that stay (for the remark).
    pub fn kernel_barrier_count(&self) -> Option<usize> {
        match self {
            BarrierPlan::Minimal(m) => Some(m.kernel.len() + m.kept),
            _ => None,
        }
    }
}

/// Steps 1-3 for `plan` in `mode`.
pub(crate) fn place<'c: 'a, 'a>(
    plan: &Plan,
    mode: BarrierMode,
    cache: &mut access::AccessCache<'c, 'a>,
) -> BarrierPlan {
    match mode {
        BarrierMode::Off => BarrierPlan::None,
        BarrierMode::Conservative => BarrierPlan::Conservative(conservative(plan)),
        BarrierMode::Minimal => {
            let model = Model::of(plan, cache);
            match model.solve_memoized(plan.trip_count) {
                Some(minimal) => BarrierPlan::Minimal(minimal),
                None => {
                    // Not expected: every hazard of a valid schedule can be
                    // separated. Keep the conservative placement then.
                    tracing::debug!("minimal barrier placement failed; conservative placement");
                    BarrierPlan::Conservative(conservative(plan))
                }
            }
        }
    }
}

/// The earlier placement, on the schedule without barriers: before the
/// waits of the first op of each stage that reads async data (that stage
/// overwrites nothing, but the async stage's next copies do: write after
/// read) and after the waits of each op.
fn conservative(plan: &Plan) -> Vec<(usize, i64)> {
    let war_stages: FxHashSet<i64> = plan
        .schedule
        .iter()
        .filter_map(|item| match item {
            Item::Wait { s, .. } => Some(*s),
            _ => None,
        })
        .collect();
    let mut gaps = Vec::new();
    let mut seen_stage: FxHashSet<i64> = FxHashSet::default();
    let mut waits_from = None;
    // The gap right after the last run of waits: every later op of the
    // step may read what they complete, so the barrier there is wanted in
    // every step where any of those ops is active (in an epilogue step the
    // op right after the wait may belong to a stage that is over).
    let mut after_waits = None;
    for (p, item) in plan.schedule.iter().enumerate() {
        match *item {
            Item::Wait { .. } => {
                waits_from.get_or_insert(p);
                after_waits = None;
            }
            Item::Op(k) => {
                let t = plan.stage[k];
                let start = waits_from.unwrap_or(p);
                if war_stages.contains(&t) && seen_stage.insert(t) {
                    gaps.push((start, t));
                }
                seen_stage.insert(t);
                if waits_from.is_some() {
                    after_waits = Some(p);
                }
                if let Some(g) = after_waits {
                    gaps.push((g, t));
                }
                waits_from = None;
            }
            Item::Commit(_) => waits_from = None,
        }
    }
    gaps
}

/// One workgroup access of a schedule item.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Site {
    /// Its position in the schedule.
    position: usize,
    /// Its stage.
    stage: i64,
    /// The buffer (index), or `None`: any buffer.
    buffer: Option<usize>,
    /// It writes (else it reads).
    write: bool,
    /// An async copy: `Some((d, p))`, complete at item `p` of the step `d`
    /// steps later; `None` for a synchronous access.
    completion: Option<(i64, usize)>,
    /// An async copy whose group is never waited for in the loop.
    unwaited: bool,
    /// The versions of its buffer it touches.
    slots: Slots,
}

/// Everything the placement needs about one loop (step 1): steps 2 and 3
/// read nothing else, so loops of equal models get the same placement
/// ([`Model::solve_memoized`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Model {
    /// Items per step.
    len: usize,
    /// The last stage.
    max_stage: i64,
    sites: Vec<Site>,
    /// The versions of each buffer.
    versions: Vec<i64>,
    /// The user's barriers that stay: (position, stage).
    kept: Vec<(usize, i64)>,
    /// The user's barriers left out (body op indices).
    dropped: BTreeSet<usize>,
    /// Buffers accessed before / after the loop with no barrier between.
    before: Vec<usize>,
    after: Vec<usize>,
}

/// A placement found for a model and a trip count (`None`: none found).
type Solved = FxHashMap<(Model, Option<u64>), Option<Minimal>>;

thread_local! {
    /// The placements [`Model::solve_memoized`] found in this pass run.
    static SOLVED: std::cell::RefCell<Solved> = std::cell::RefCell::new(FxHashMap::default());
}

/// Forgets the placements remembered on this thread: each pass run starts
/// with none (and frees them at its end), and a benchmark that repeats a
/// run measures it anew.
pub fn forget_placements() {
    SOLVED.with(|solved| *solved.borrow_mut() = FxHashMap::default());
}

/// One access instance in the simulated sequence.
#[derive(Clone, Copy, Debug)]
struct Event {
    start: i64,
    end: i64,
    write: bool,
    /// `(stage, iteration)` of an async copy: its group.
    group: Option<(i64, i64)>,
}

/// The latest event end of a set of events, and the latest among those
/// of another group than the first's (for [`Model::arcs`]).
#[derive(Default)]
struct Latest {
    first: Option<(i64, Option<(i64, i64)>)>,
    second: Option<i64>,
}

impl Latest {
    fn add(&mut self, end: i64, group: Option<(i64, i64)>) {
        match self.first {
            None => self.first = Some((end, group)),
            Some((e, g)) if group.is_some() && g == group => {
                self.first = Some((e.max(end), g));
            }
            Some((e, _)) if end > e => {
                self.second = Some(e);
                self.first = Some((end, group));
            }
            Some(_) => self.second = Some(self.second.map_or(end, |s| s.max(end))),
        }
    }

    /// The latest end of an event not of `group` (events without a group
    /// are of none).
    fn excluding(&self, group: Option<(i64, i64)>) -> Option<i64> {
        let (e, g) = self.first?;
        if group.is_some() && g == group {
            self.second
        } else {
            Some(e)
        }
    }
}

impl Model {
    fn of<'c: 'a, 'a>(plan: &Plan, cache: &mut access::AccessCache<'c, 'a>) -> Self {
        // SAFETY: the loop is live.
        let loop_op = unsafe { OperationRef::from_raw(plan.loop_op) };
        let len = plan.schedule.len();
        let mut model = Model {
            len,
            max_stage: plan.max_stage,
            ..Model::default()
        };
        let mut buffers: Vec<Buffer> = Vec::new();
        // The region dimensions of each site (`None`: the whole buffer).
        let mut site_dims: Vec<Option<Vec<access::Dim>>> = Vec::new();
        let multi: FxHashMap<usize, i64> = plan
            .buffers
            .iter()
            .map(|b| (b.value.ptr as usize, b.versions))
            .collect();
        let index_of = |root: &Buffer, buffers: &mut Vec<Buffer>, versions: &mut Vec<i64>| {
            if let Some(i) = buffers.iter().position(|r| r == root) {
                return i;
            }
            buffers.push(root.clone());
            versions.push(match root {
                Buffer::Value(v) => multi.get(v).copied().unwrap_or(1),
                _ => 1,
            });
            buffers.len() - 1
        };
        // The first wait (in time) for each async stage's group.
        let mut completion: FxHashMap<i64, (i64, usize)> = FxHashMap::default();
        for (p, item) in plan.schedule.iter().enumerate() {
            if let Item::Wait { s, t, .. } = *item {
                let candidate = (t - s, p);
                let e = completion.entry(s).or_insert(candidate);
                *e = (*e).min(candidate);
            }
        }
        let mut writes_global = false;
        let mut user_barriers = Vec::new();
        // `(position, stage, completion, unwaited)` of the global reads.
        let mut global_reads = Vec::new();
        for (p, item) in plan.schedule.iter().enumerate() {
            let Item::Op(k) = *item else { continue };
            let stage = plan.stage[k];
            // SAFETY: body ops are live.
            let op = unsafe { OperationRef::from_raw(plan.body[k]) };
            if ops::is(&op, "gpu.barrier") {
                user_barriers.push((k, p, stage));
                continue;
            }
            for inner in ops::self_and_nested_ops(&op) {
                let is_async_copy =
                    ops::is(&inner, ops::COPY) && plan.async_stages.contains(&stage);
                for access in buffer_accesses(cache, &inner) {
                    if access.space == Space::Global && access.write {
                        writes_global = true;
                    }
                    if access.space == Space::Global && access.read {
                        let (completion, unwaited) = if is_async_copy && access.asynchronous {
                            match completion.get(&stage) {
                                Some(&c) => (Some(c), false),
                                None => (None, true),
                            }
                        } else {
                            (None, false)
                        };
                        global_reads.push((p, stage, completion, unwaited));
                    }
                    if access.space != Space::Workgroup {
                        continue;
                    }
                    let buffer = access
                        .buffer
                        .as_ref()
                        .map(|root| index_of(root, &mut buffers, &mut model.versions));
                    for write in [false, true] {
                        if (write && !access.write) || (!write && !access.read) {
                            continue;
                        }
                        let (completion, unwaited) = if is_async_copy && access.asynchronous {
                            match completion.get(&stage) {
                                Some(&c) => (Some(c), false),
                                None => (None, true),
                            }
                        } else {
                            (None, false)
                        };
                        model.sites.push(Site {
                            position: p,
                            stage,
                            buffer,
                            write,
                            completion,
                            unwaited,
                            slots: Slots::Iteration,
                        });
                        site_dims.push(access.dims.clone());
                    }
                }
            }
        }
        if !writes_global && !user_barriers.is_empty() {
            // The user's barriers go, and with them the order they gave the
            // loop's global reads against other threads' global writes
            // before and after the loop: all of global memory becomes one
            // buffer whose reads are events, so that the prologue and the
            // epilogue keep that order where no barrier outside the loop
            // does.
            let device = index_of(&Buffer::Device, &mut buffers, &mut model.versions);
            for (position, stage, completion, unwaited) in global_reads {
                model.sites.push(Site {
                    position,
                    stage,
                    buffer: Some(device),
                    write: false,
                    completion,
                    unwaited,
                    slots: Slots::Iteration,
                });
                site_dims.push(None);
            }
        }
        // Buffers that keep their own slots: one version per slot.
        for (index, root) in buffers.iter().enumerate() {
            let Buffer::Value(value) = *root else {
                continue;
            };
            if multi.contains_key(&value) {
                continue;
            }
            let on: Vec<usize> = (0..model.sites.len())
                .filter(|&i| model.sites[i].buffer == Some(index))
                .collect();
            let regions: Vec<Option<&Vec<access::Dim>>> =
                on.iter().map(|&i| site_dims[i].as_ref()).collect();
            // `value`: a live buffer value of the loop's function.
            if let Some((_, size, slots)) =
                slot_dimension(value, &regions, plan.loop_op.ptr as usize)
            {
                model.versions[index] = size;
                for (&i, slots) in on.iter().zip(slots) {
                    model.sites[i].slots = slots;
                }
            }
        }
        for (k, p, stage) in user_barriers {
            if writes_global {
                model.kept.push((p, stage));
            } else {
                model.dropped.insert(k);
            }
        }
        // Accesses outside the loop.
        let repeats = ops::ancestors(&loop_op)
            .take_while(|p| !ops::is_function(p))
            .any(|p| {
                !matches!(
                    ops::name(&p),
                    "scf.if" | "scf.index_switch" | "scf.execute_region"
                )
            });
        let (before_covered, after_covered) = neighbours_covered(&loop_op, cache);
        for (i, root) in buffers.iter().enumerate() {
            let outside = repeats
                || match root {
                    Buffer::Value(v) => used_outside(*v, &loop_op),
                    _ => true,
                };
            if outside && !before_covered {
                model.before.push(i);
            }
            if outside && !after_covered {
                model.after.push(i);
            }
        }
        if model.sites.iter().any(|s| s.buffer.is_none()) {
            // An unknown buffer: any buffer used outside, too.
            if !before_covered {
                model.before.push(usize::MAX);
            }
            if !after_covered {
                model.after.push(usize::MAX);
            }
        }
        model
    }

    /// The first flat index of each buffer's versions in [`Self::events`]
    /// (a buffer spans its versions and every fixed or rotating slot its
    /// sites name), then the index of the unknown buffer, then the count.
    fn key_offsets(&self) -> Vec<usize> {
        let mut span: Vec<i64> = self.versions.clone();
        for site in &self.sites {
            if let Some(b) = site.buffer.filter(|&b| b != usize::MAX) {
                let end = match site.slots {
                    Slots::Fixed { start, extent } => start.max(0) + extent,
                    Slots::Rotating { k, .. } => k,
                    Slots::Iteration | Slots::All => 0,
                };
                span[b] = span[b].max(end);
            }
        }
        let mut offsets = Vec::with_capacity(span.len() + 2);
        let mut next = 0;
        for s in span {
            offsets.push(next);
            next += s.max(0) as usize;
        }
        offsets.push(next);
        offsets.push(next + 1);
        offsets
    }

    /// Calls `f` with the flat index (see [`Self::key_offsets`]) of each
    /// buffer version `(buffer, version)` an access of iteration `i`
    /// touches: an unknown buffer touches every version of every buffer
    /// and the unknown buffer's own.
    fn for_each_key(
        &self,
        offsets: &[usize],
        buffer: Option<usize>,
        slots: Slots,
        i: i64,
        mut f: impl FnMut(usize),
    ) {
        let at = |b: usize, v: i64| offsets[b] + v as usize;
        match buffer {
            Some(b) if b != usize::MAX => match slots {
                Slots::Iteration => f(at(b, i.rem_euclid(self.versions[b]))),
                Slots::Rotating { a, c, k } => f(at(b, (a * i + c).rem_euclid(k))),
                Slots::Fixed { start, extent } => (start..start + extent).for_each(|v| f(at(b, v))),
                Slots::All => (0..self.versions[b]).for_each(|v| f(at(b, v))),
            },
            _ => {
                for b in 0..self.versions.len() {
                    (0..self.versions[b]).for_each(|v| f(at(b, v)));
                }
                f(offsets[self.versions.len()]);
            }
        }
    }

    /// The events of the sequence for `n` iterations, per buffer version
    /// (indexed as [`Self::key_offsets`] says), in start order.
    fn events(&self, n: u64) -> Vec<Vec<Event>> {
        let n = n as i64;
        let l = self.len as i64;
        let steps = if n == 0 { 0 } else { n + self.max_stage };
        let offsets = self.key_offsets();
        let mut out: Vec<Vec<Event>> = (0..offsets[offsets.len() - 1])
            .map(|_| Vec::with_capacity(steps.max(0) as usize + 2))
            .collect();
        // Within a step, sites in (position, end) order: each version's
        // events then come in (start, end) order with no sort.
        let end_in_step = |site: &Site| match (site.completion, site.unwaited) {
            (Some((d, p)), _) => d * l + p as i64,
            (None, true) => i64::MAX,
            (None, false) => site.position as i64,
        };
        let mut order: Vec<&Site> = self.sites.iter().collect();
        order.sort_by_key(|site| (site.position, end_in_step(site)));
        let outside = |buffers: &[usize], at: i64, out: &mut Vec<Vec<Event>>| {
            let event = Event {
                start: at,
                end: at,
                write: true,
                group: None,
            };
            for &b in buffers {
                let buffer = (b != usize::MAX).then_some(b);
                self.for_each_key(&offsets, buffer, Slots::All, 0, |k| out[k].push(event));
            }
        };
        if steps > 0 {
            outside(&self.before, -1, &mut out);
        }
        for tau in 0..steps {
            for &site in &order {
                let i = tau - site.stage;
                if i < 0 || i >= n {
                    continue;
                }
                let start = tau * l + site.position as i64;
                let end = match (site.completion, site.unwaited) {
                    (Some((d, p)), _) => (tau + d) * l + p as i64,
                    (None, true) => i64::MAX,
                    (None, false) => start,
                };
                let event = Event {
                    start,
                    end,
                    write: site.write,
                    group: site.completion.map(|_| (site.stage, i)),
                };
                self.for_each_key(&offsets, site.buffer, site.slots, i, |k| out[k].push(event));
            }
        }
        if steps > 0 {
            outside(&self.after, steps * l, &mut out);
        }
        debug_assert!(out
            .iter()
            .all(|events| events.is_sorted_by_key(|e| (e.start, e.end))));
        out
    }

    /// [`Model::unsorted_arcs`], sorted (the tests compare them).
    #[cfg(test)]
    fn arcs(&self, n: u64) -> Option<Vec<(i64, i64)>> {
        let mut arcs = self.unsorted_arcs(n)?;
        sort_arcs(&mut arcs);
        Some(arcs)
    }

    /// The hazards of `n` iterations as arcs `(e1, e2)`: a barrier must be
    /// in a gap `G ∈ [e1 + 1, e2]` (gap `G` is before item `G`). `None` if
    /// two hazardous accesses overlap (no barrier can separate them). In no
    /// particular order, repeated arcs included: the callers keep the arcs
    /// they need before [`sort_arcs`] (sorting all of them was a third of
    /// barrier placement).
    fn unsorted_arcs(&self, n: u64) -> Option<Vec<(i64, i64)>> {
        let mut arcs = Vec::new();
        for events in &self.events(n) {
            // One pass: for each event `b`, the latest end among the earlier
            // events it conflicts with (one of the two writes, not of `b`'s
            // own group, and waited for: a copy never waited for is left to
            // the user); they overlap `b` exactly when that end is not
            // before `b`'s start. The two latest ends of distinct groups are
            // kept, among all earlier events and among the writes.
            let mut all = Latest::default();
            let mut writes = Latest::default();
            for b in events {
                let pool = if b.write { &all } else { &writes };
                if let Some(e1) = pool.excluding(b.group) {
                    if e1 >= b.start {
                        return None;
                    }
                    arcs.push((e1, b.start));
                }
                if b.end != i64::MAX {
                    all.add(b.end, b.group);
                    if b.write {
                        writes.add(b.end, b.group);
                    }
                }
            }
        }
        Some(arcs)
    }

    /// Step 2: the gaps of a kernel iteration.
    fn kernel(&self) -> Option<Vec<usize>> {
        let l = self.len as i64;
        let s = self.max_stage;
        let width = 2 * (s + self.versions.iter().copied().max().unwrap_or(1)) + 4;
        let middle = s + width;
        // The arcs ending in step `middle` come from events that start
        // before its end, all of iterations `< middle + 1`: later
        // iterations change none of them.
        let n = (middle + 1) as u64;
        // Only the arcs that end in the middle iteration count (sorted
        // after the others are dropped: the same arcs in the same order).
        let mut arcs = self.unsorted_arcs(n)?;
        arcs.retain(|&(_, e2)| e2.div_euclid(l) == middle);
        sort_arcs(&mut arcs);
        let kept: BTreeSet<i64> = self.kept.iter().map(|&(p, _)| p as i64).collect();
        let mut circular = Vec::new();
        let mut long = None;
        for (e1, e2) in arcs {
            if e2.div_euclid(l) != middle {
                continue;
            }
            // An arc from before the kernel steps (an access before the
            // loop, or in the prologue) is stabbed in the prologue by step
            // 3 (its last gap is before the first kernel step's).
            if s > 0 && e1 < s * l {
                continue;
            }
            let length = e2 - e1;
            if length >= l {
                long.get_or_insert(e2.rem_euclid(l));
                continue;
            }
            let start = (e1 + 1).rem_euclid(l);
            if (0..length).any(|d| kept.contains(&((start + d).rem_euclid(l)))) {
                continue;
            }
            circular.push((start, length));
        }
        let mut cover = min_circular_cover(l, &circular);
        if cover.is_empty() && kept.is_empty() {
            if let Some(g) = long {
                cover.push(g);
            }
        }
        Some(cover.into_iter().map(|g| g as usize).collect())
    }

    /// Step 3 for `n` iterations: the gaps of each step, the kernel steps
    /// holding `kernel`.
    fn fixed(&self, n: u64, kernel: &[usize]) -> Option<Vec<Vec<usize>>> {
        let l = self.len as i64;
        let s = self.max_stage;
        let n_i = n as i64;
        let steps = if n == 0 { 0 } else { n_i + s };
        let is_kernel = |tau: i64| tau >= s && tau < n_i;
        // The gaps holding a barrier, as flags over `[0, steps·L]` (gap
        // `steps·L` is after the last step).
        let mut points = vec![false; (steps * l + 1).max(1) as usize];
        for tau in 0..steps {
            if is_kernel(tau) {
                for &g in kernel {
                    points[(tau * l + g as i64) as usize] = true;
                }
            }
            for &(p, stage) in &self.kept {
                let i = tau - stage;
                if i >= 0 && i < n_i {
                    points[(tau * l + p as i64) as usize] = true;
                }
            }
        }
        // Whether a barrier lies in gaps `[e1 + 1, e2]` (arcs of events
        // outside the steps reach past the flags, where there are none).
        let stabbed = |points: &[bool], e1: i64, e2: i64| {
            let last = points.len() as i64 - 1;
            let (from, to) = ((e1 + 1).max(0), e2.min(last));
            from <= to && points[from as usize..=to as usize].contains(&true)
        };
        let mut chosen: Vec<Vec<usize>> = vec![Vec::new(); steps as usize];
        // An arc that the kernel's and the kept barriers stab is skipped
        // below whatever the order (points only grow): dropped before the
        // sort, which leaves the others in the same order.
        let mut arcs = self.unsorted_arcs(n)?;
        arcs.retain(|&(e1, e2)| !stabbed(&points, e1, e2));
        sort_arcs(&mut arcs);
        for (e1, e2) in arcs {
            if stabbed(&points, e1, e2) {
                continue;
            }
            // The latest gap in [e1 + 1, e2] outside the kernel steps; gap
            // `τ·L` is also the end (gap `L`) of step `τ − 1`.
            let found = (e1 + 1..=e2).rev().find_map(|g| {
                let (tau, within) = (g.div_euclid(l), g.rem_euclid(l));
                if tau < steps && !is_kernel(tau) {
                    Some((tau, within as usize))
                } else if within == 0 && tau >= 1 && tau - 1 < steps && !is_kernel(tau - 1) {
                    Some((tau - 1, self.len))
                } else {
                    None
                }
            })?;
            points[(found.0 * l + found.1 as i64) as usize] = true;
            chosen[found.0 as usize].push(found.1);
        }
        for gaps in &mut chosen {
            gaps.sort_unstable();
            gaps.dedup();
        }
        Some(chosen)
    }

    /// [`Model::solve`], remembered per model and trip count on this
    /// thread until [`forget_placements`]: the loops of a module often have
    /// the same shape (kernels generated from one template), and steps 2
    /// and 3 simulate every step of the sequence.
    fn solve_memoized(self, trip_count: Option<u64>) -> Option<Minimal> {
        let key = (self, trip_count);
        if let Some(found) = SOLVED.with(|solved| solved.borrow().get(&key).cloned()) {
            return found;
        }
        let solved = key.0.solve(key.1);
        SOLVED.with(|memo| memo.borrow_mut().insert(key, solved.clone()));
        solved
    }

    fn solve(&self, trip_count: Option<u64>) -> Option<Minimal> {
        let s = self.max_stage as u64;
        let kernel = self.kernel()?;
        let width = 2 * (s + self.versions.iter().copied().max().unwrap_or(1) as u64) + 4;
        let horizon = s + width;
        // A static trip count needs its own placement only; a dynamic one
        // the placements of the counts below `S` (the emitted switch) and
        // the union over `N ∈ [S, horizon]` for its prologue and epilogue.
        let counts: Vec<u64> = match trip_count {
            Some(n) => vec![n.min(horizon)],
            None => (0..s).collect(),
        };
        let mut fixed = FxHashMap::default();
        for n in counts {
            fixed.insert(n, self.fixed(n, &kernel)?);
        }
        let mut prologue = vec![BTreeSet::new(); s as usize];
        let mut epilogue = vec![BTreeSet::new(); s as usize];
        for n in (s..=horizon).filter(|_| trip_count.is_none()) {
            let steps = self.fixed(n, &kernel)?;
            for tau in 0..s {
                prologue[tau as usize].extend(steps[tau as usize].iter().copied());
            }
            for k in 1..=s {
                epilogue[k as usize - 1].extend(steps[(n - 1 + k) as usize].iter().copied());
            }
        }
        let collect = |sets: Vec<BTreeSet<usize>>| -> Vec<Vec<usize>> {
            sets.into_iter().map(|g| g.into_iter().collect()).collect()
        };
        Some(Minimal {
            kernel,
            prologue: collect(prologue),
            epilogue: collect(epilogue),
            fixed,
            dropped: self.dropped.iter().copied().collect(),
            kept: self.kept.len(),
            horizon,
        })
    }
}

/// True if the buffer with value address `value` has a use outside
/// `loop_op` other than `memref.dealloc` (a view's users count).
fn used_outside(value: usize, loop_op: &OperationRef) -> bool {
    let raw = mlir_sys::MlirValue {
        ptr: value as *const std::ffi::c_void,
    };
    // SAFETY: a live value of the function.
    let value = unsafe { melior::ir::Value::from_raw(raw) };
    let mut work = vec![value];
    while let Some(v) = work.pop() {
        for user in crate::token_values::users(v) {
            let inside = std::iter::once(user)
                .chain(ops::ancestors(&user))
                .any(|p| p.to_raw().ptr == loop_op.to_raw().ptr);
            if inside || ops::is(&user, "memref.dealloc") {
                continue;
            }
            if [
                "memref.subview",
                "memref.cast",
                "memref.reinterpret_cast",
                "memref.expand_shape",
                "memref.collapse_shape",
                "memref.view",
                "memref.transpose",
                "memref.memory_space_cast",
            ]
            .contains(&ops::name(&user))
            {
                work.extend(user.results().map(melior::ir::Value::from));
                continue;
            }
            return true;
        }
    }
    false
}

/// Whether a barrier (or nothing that runs) separates `loop_op` from the
/// accesses before it and after it in its block: scanning outwards over
/// ops with no workgroup access, a `gpu.barrier` covers; the start (end)
/// of a function's entry block means nothing comes before (after).
fn neighbours_covered<'c: 'a, 'a>(
    loop_op: &OperationRef<'c, 'a>,
    cache: &mut access::AccessCache<'c, 'a>,
) -> (bool, bool) {
    let block = loop_op.block();
    let at_function_entry = block.as_ref().is_some_and(|b| {
        b.parent_operation().is_some_and(|p| ops::is_function(&p)) && ops::is_entry_block(b)
    });
    let mut quiet = |op: &OperationRef<'c, 'a>| {
        ops::self_and_nested_ops(op).iter().all(|o| {
            let name = ops::name(o);
            cache.of(o).is_empty()
                && name != "gpu.barrier"
                && ![ops::COMMIT_GROUP, ops::WAIT_GROUP, ops::WAIT].contains(&name)
        })
    };
    let mut scan = |ops: &mut dyn Iterator<Item = OperationRef<'c, 'a>>| {
        for op in ops {
            if ops::is(&op, "gpu.barrier") {
                return Some(true);
            }
            if !quiet(&op) {
                return Some(false);
            }
        }
        None
    };
    if block.is_none() {
        return (false, false);
    }
    let before = scan(&mut ops::preceding(loop_op)).unwrap_or(at_function_entry);
    let after = scan(&mut std::iter::successors(loop_op.next_in_block(), |op| {
        op.next_in_block()
    }))
    .unwrap_or(at_function_entry);
    (before, after)
}

/// Sorts hazard arcs by end, then start, without repeats (the order the
/// greedy placements take them in).
fn sort_arcs(arcs: &mut Vec<(i64, i64)>) {
    arcs.sort_unstable_by_key(|&(e1, e2)| (e2, e1));
    arcs.dedup();
}

/// The fewest points of the circle `0..l` that hit every arc
/// `(start, length)` (the points `start, start+1, …, start+length−1`
/// mod `l`, `1 ≤ length < l`). Some optimal cover holds the last point of
/// some arc; from there the greedy by earliest end is optimal, so every
/// arc's last point is tried as the first point.
pub(crate) fn min_circular_cover(l: i64, arcs: &[(i64, i64)]) -> Vec<i64> {
    let mut best: Option<Vec<i64>> = None;
    let mut ends: Vec<i64> = arcs
        .iter()
        .map(|&(s, n)| (s + n - 1).rem_euclid(l))
        .collect();
    ends.sort_unstable();
    ends.dedup();
    for &first in &ends {
        let mut points = vec![first];
        // The arcs not hit by `first`, in coordinates relative to it
        // (`first` at 0): each lies within (0, l).
        let mut rest: Vec<(i64, i64)> = arcs
            .iter()
            .filter_map(|&(s, n)| {
                let from = (s - first).rem_euclid(l);
                let to = from + n - 1;
                (to < l && from != 0).then_some((from, to))
            })
            .collect();
        rest.sort_by_key(|&(from, to)| (to, from));
        let mut last: Option<i64> = None;
        for (from, to) in rest {
            if last.is_some_and(|p| p >= from) {
                continue;
            }
            last = Some(to);
            points.push((to + first).rem_euclid(l));
        }
        if best.as_ref().is_none_or(|b| points.len() < b.len()) {
            best = Some(points);
        }
    }
    let mut best = best.unwrap_or_default();
    best.sort_unstable();
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift64*).
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % n.max(1)
        }
    }

    /// The naive reference: every pair of events of one buffer version, one
    /// a write (not of one group), has a barrier strictly between the end
    /// of the first and the start of the second.
    fn covered(model: &Model, n: u64, barriers: &BTreeSet<i64>) -> bool {
        for events in &model.events(n) {
            for (j, b) in events.iter().enumerate() {
                for a in &events[..j] {
                    if !(a.write || b.write) || (a.group.is_some() && a.group == b.group) {
                        continue;
                    }
                    if a.end == i64::MAX {
                        continue;
                    }
                    if barriers.range(a.end + 1..=b.start).next().is_none() {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The barriers the emitter puts in the sequence of `n` iterations
    /// (global gaps), for a static (`Some`) or dynamic (`None`) count.
    fn emitted(model: &Model, plan: &Minimal, n: u64, fixed_count: bool) -> BTreeSet<i64> {
        let l = model.len as i64;
        let s = model.max_stage;
        let n_i = n as i64;
        let steps = if n == 0 { 0 } else { n_i + s };
        let mut out = BTreeSet::new();
        for tau in 0..steps {
            let gaps: Vec<usize> = if tau >= s && tau < n_i {
                plan.kernel.clone()
            } else if fixed_count || n_i < s {
                let effective = n.min(plan.horizon);
                let shift = n_i - effective as i64;
                let t = if tau >= s { tau - shift } else { tau };
                plan.fixed[&effective][t as usize].clone()
            } else if tau < s {
                plan.prologue[tau as usize].clone()
            } else {
                plan.epilogue[(tau - n_i) as usize].clone()
            };
            out.extend(gaps.iter().map(|&g| tau * l + g as i64));
            for &(p, stage) in &model.kept {
                if tau - stage >= 0 && tau - stage < n_i {
                    out.insert(tau * l + p as i64);
                }
            }
        }
        out
    }

    fn random_model(rng: &mut Rng) -> Model {
        let len = 2 + rng.below(6) as usize;
        let max_stage = 1 + rng.below(3) as i64;
        let buffers = 1 + rng.below(2) as usize;
        let versions: Vec<i64> = (0..buffers).map(|_| 1 + rng.below(3) as i64).collect();
        let mut sites = Vec::new();
        for _ in 0..1 + rng.below(5) {
            let position = rng.below(len as u64) as usize;
            let stage = rng.below(max_stage as u64 + 1) as i64;
            let buffer = if rng.below(8) == 0 {
                None
            } else {
                Some(rng.below(buffers as u64) as usize)
            };
            let completion = if rng.below(2) == 0 {
                let d = rng.below(3) as i64;
                let p = rng.below(len as u64) as usize;
                (d > 0 || p > position).then_some((d, p))
            } else {
                None
            };
            sites.push(Site {
                position,
                stage,
                buffer,
                write: completion.is_some() || rng.below(2) == 0,
                completion,
                unwaited: false,
                slots: Slots::Iteration,
            });
        }
        let kept = if rng.below(4) == 0 {
            vec![(
                rng.below(len as u64) as usize,
                rng.below(max_stage as u64 + 1) as i64,
            )]
        } else {
            vec![]
        };
        let before = if rng.below(3) == 0 { vec![0] } else { vec![] };
        let after = if rng.below(3) == 0 { vec![0] } else { vec![] };
        Model {
            len,
            max_stage,
            sites,
            versions,
            kept,
            dropped: BTreeSet::new(),
            before,
            after,
        }
    }

    /// The hazard arcs by their definition: every earlier event that
    /// conflicts with `b` (one of the two writes, other group, waited).
    fn arcs_pairwise(model: &Model, n: u64) -> Option<Vec<(i64, i64)>> {
        let mut arcs = Vec::new();
        for events in &model.events(n) {
            for (j, b) in events.iter().enumerate() {
                let mut latest: Option<i64> = None;
                for a in &events[..j] {
                    if !(a.write || b.write)
                        || (a.group.is_some() && a.group == b.group)
                        || a.end == i64::MAX
                    {
                        continue;
                    }
                    if a.end >= b.start {
                        return None;
                    }
                    latest = Some(latest.map_or(a.end, |l| l.max(a.end)));
                }
                if let Some(e1) = latest {
                    arcs.push((e1, b.start));
                }
            }
        }
        arcs.sort_by_key(|&(e1, e2)| (e2, e1));
        arcs.dedup();
        Some(arcs)
    }

    /// The one-pass arcs are the pairwise ones, on random schedules.
    #[test]
    fn arcs_are_the_pairwise_hazards() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..3000 {
            let model = random_model(&mut rng);
            for n in 0..model.max_stage as u64 + 8 {
                assert_eq!(model.arcs(n), arcs_pairwise(&model, n), "n={n}: {model:?}");
            }
        }
    }

    /// Every hazard of every trip count is covered by what the emitter
    /// puts, for static and dynamic counts, on random schedules; and the
    /// kernel's barriers are the fewest (against all subsets of gaps).
    #[test]
    fn placement_covers_every_hazard_and_the_kernel_is_minimal() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut checked = 0;
        for _ in 0..3000 {
            let model = random_model(&mut rng);
            let s = model.max_stage as u64;
            // Schedules with overlapping hazards are not valid plans.
            if (0..s + 8).any(|n| model.arcs(n).is_none()) {
                continue;
            }
            let dynamic = model.solve(None).expect("a valid schedule is solvable");
            for n in 0..dynamic.horizon + 6 {
                let barriers = emitted(&model, &dynamic, n, false);
                assert!(
                    covered(&model, n, &barriers),
                    "dynamic n={n}: {model:?} {dynamic:?}"
                );
                let fixed = model.solve(Some(n)).unwrap();
                let barriers = emitted(&model, &fixed, n, true);
                assert!(
                    covered(&model, n, &barriers),
                    "static n={n}: {model:?} {fixed:?}"
                );
            }
            // Minimality of the kernel: no smaller set of gaps covers a
            // long steady state (with the kept barriers).
            let n = s + 3 * dynamic.horizon;
            let l = model.len as i64;
            let steady = |gaps: &[usize]| {
                let plan = Minimal {
                    kernel: gaps.to_vec(),
                    prologue: vec![(0..=model.len).collect(); s as usize],
                    epilogue: vec![(0..=model.len).collect(); s as usize],
                    fixed: FxHashMap::default(),
                    dropped: FxHashSet::default(),
                    kept: 0,
                    horizon: u64::MAX,
                };
                let all = emitted(&model, &plan, n, false);
                covered(&model, n, &all)
            };
            assert!(steady(&dynamic.kernel));
            for mask in 0u32..1 << l {
                let gaps: Vec<usize> = (0..model.len).filter(|g| mask >> g & 1 == 1).collect();
                if gaps.len() < dynamic.kernel.len() {
                    assert!(
                        !steady(&gaps),
                        "{gaps:?} beats {:?}: {model:?}",
                        dynamic.kernel
                    );
                }
            }
            checked += 1;
        }
        assert!(checked > 500, "only {checked} valid random schedules");
    }

    #[test]
    fn circular_cover_is_minimal() {
        let mut rng = Rng(12345);
        for _ in 0..2000 {
            let l = 2 + rng.below(8) as i64;
            let arcs: Vec<(i64, i64)> = (0..1 + rng.below(5))
                .map(|_| {
                    (
                        rng.below(l as u64) as i64,
                        1 + rng.below(l as u64 - 1) as i64,
                    )
                })
                .collect();
            let cover = min_circular_cover(l, &arcs);
            let hits = |points: &[i64], &(s, n): &(i64, i64)| {
                (0..n).any(|d| points.contains(&((s + d) % l)))
            };
            assert!(arcs.iter().all(|a| hits(&cover, a)));
            for mask in 0u32..1 << l {
                let points: Vec<i64> = (0..l).filter(|p| mask >> p & 1 == 1).collect();
                if points.len() < cover.len() {
                    assert!(!arcs.iter().all(|a| hits(&points, a)));
                }
            }
        }
    }

    /// The double buffer of the CUTLASS order (wait, read version j % 2,
    /// copy into version (j + 1) % 2): one barrier per iteration, between
    /// the wait and the read, and none in the prologue.
    #[test]
    fn cutlass_double_buffer_needs_one_barrier() {
        // Items: 0 wait, 1 read (stage 1), 2 copy (stage 0), 3 commit.
        let model = Model {
            len: 4,
            max_stage: 1,
            sites: vec![
                Site {
                    position: 1,
                    stage: 1,
                    buffer: Some(0),
                    write: false,
                    completion: None,
                    unwaited: false,
                    slots: Slots::Iteration,
                },
                Site {
                    position: 2,
                    stage: 0,
                    buffer: Some(0),
                    write: true,
                    completion: Some((1, 0)),
                    unwaited: false,
                    slots: Slots::Iteration,
                },
            ],
            versions: vec![2],
            ..Model::default()
        };
        let plan = model.solve(None).unwrap();
        assert_eq!(plan.kernel, vec![1]);
        assert_eq!(plan.prologue, vec![Vec::<usize>::new()]);
        assert_eq!(plan.epilogue, vec![vec![1]]);
    }
}

/// A workgroup buffer the placement tells apart from the others.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Buffer {
    /// A fresh allocation or attribution, by the address of its root value.
    Value(usize),
    /// A `memref.global`, by symbol.
    Global(String),
    /// All of global (device) memory, as one buffer.
    Device,
}

/// The memory space class of an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Space {
    /// Shared by the threads of a block (address space 3).
    Workgroup,
    /// One copy per thread (address space 5, or an alloc with no memory
    /// space in GPU code: a `gpu.func` or a `gpu.launch` body).
    Private,
    /// Device memory, and any other space.
    Global,
}

/// One access of an op as the placement sees it.
struct BufferAccess {
    /// The buffer; `None` when it may be any buffer of its space.
    buffer: Option<Buffer>,
    space: Space,
    read: bool,
    write: bool,
    /// An `apipe.copy`: from its issue until its group completes.
    asynchronous: bool,
    /// The region's dimensions (`None`: the whole buffer).
    dims: Option<Vec<access::Dim>>,
}

/// The accesses of `op` itself ([`access::accesses`]: MLIR memory effects,
/// roots followed through views). A root that may alias others (a function
/// argument, a loaded or carried memref) is any buffer of its space; an
/// effect on all memory is a read or write of any workgroup buffer and of
/// global memory.
fn buffer_accesses<'c: 'a, 'a>(
    cache: &mut access::AccessCache<'c, 'a>,
    op: &OperationRef<'c, 'a>,
) -> Vec<BufferAccess> {
    let found = cache.of(op);
    // An allocation with no memory space that GPU code makes is each
    // thread's own (`access::region`'s rule for the divergence analysis);
    // one a `gpu.launch` captures from the host is global memory (trial
    // 90: taken as private, the loop counted as writing no global memory
    // and lost the user's barriers, a miscompile).
    let own = |root: &access::Root| match root.symbol {
        Symbol::Value(v) => {
            // SAFETY: root keys are live values of the function.
            let value = unsafe { access::values::value_of(v) };
            access::region::is_thread_private(value)
                || access::region::is_per_thread_allocation(value)
        }
        _ => false,
    };
    let mut out: Vec<BufferAccess> = found
        .accesses
        .iter()
        .map(|a| {
            let root = &a.region.root;
            let space = match &*root.space {
                "3" => Space::Workgroup,
                "5" => Space::Private,
                "" if root.kind == RootKind::Fresh && own(root) => Space::Private,
                _ => Space::Global,
            };
            let buffer = match (&root.kind, root.symbol) {
                (RootKind::Fresh, Symbol::Value(v)) => Some(Buffer::Value(v)),
                (RootKind::Global(name), _) => Some(Buffer::Global(name.to_string())),
                _ => None,
            };
            BufferAccess {
                buffer,
                space,
                read: a.kind == AccessKind::Read,
                write: a.kind == AccessKind::Write,
                asynchronous: a.asynchronous,
                dims: a.region.dims.clone(),
            }
        })
        .collect();
    for space in [Space::Workgroup, Space::Global] {
        if found.reads_all || found.writes_all {
            out.push(BufferAccess {
                buffer: None,
                space,
                read: found.reads_all,
                write: found.writes_all,
                asynchronous: false,
                dims: None,
            });
        }
    }
    out
}
