//! The walk over one function: transfer functions of the apipe ops, the
//! accesses, and the structured control flow (module doc, steps 2-5).
//!
//! Layout: this file holds the walk's state and the transfer functions of
//! the apipe ops and accesses; [`threads`] what varies between threads,
//! [`branches`] the branches and their divergence, [`loops`] the loops'
//! fixed points and widening.

use super::{
    classes::fresh_id,
    names::{self, Name},
    report::{Hazard, HazardKind, Role},
    state::{key, Count, Instance, Read, State, WaitSeen},
};
use crate::{
    access::{
        accesses, copy_regions,
        values::{block_argument, constant, defined_inside, defining_op, loop_inside, value_of},
        Access, AccessCache, AccessKind, Constraint, Forms, Lin, OpAccesses, Symbol, System,
    },
    group_distance::{self, GroupDistance},
};
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{attributes, ops};
use melior::ir::{
    operation::OperationLike, BlockLike, BlockRef, OperationRef, RegionLike, TypeLike, Value,
    ValueLike,
};
use rustc_hash::{FxHashMap, FxHashSet};
pub(super) mod threads;
use threads::{computed_from_thread_ids, launch_name, only_elects, runs_on_threads};
mod branches;
mod loops;

/// Rounds of a loop's fixed point after which carried instances forget
/// their iteration (a summary over all earlier iterations), at the least:
/// a function whose copies stay in flight for more groups gets more
/// ([`Analysis::widen_after`]).
const WIDEN_AFTER: usize = 6;
/// Rounds after widening begins at which carried instances become
/// whole-buffer summaries.
const GIVE_UP_AFTER: usize = 10;
/// The most rounds before widening, whatever the depth (the pipeliner
/// allows 64 stages).
const MOST_BEFORE_WIDENING: usize = 68;

/// The most op visits of loop bodies (and region comparisons) in the fixed
/// points of one outermost loop nest, all its loops together. Past it
/// every loop entered (or still iterating) widens at once and gives up on
/// regions at once, which is sound (only precision drops): a nest of loops
/// with huge counts then costs a few passes per level instead of
/// `(rounds)^depth`. The budget is per nest, not per function, so that a
/// long function of many ordinary loops (the pipeliner's output on 250
/// tile streams) keeps its precision: the cost stays linear in the number
/// of nests. A loop pipelined with `S` stages keeps about `S` copies in
/// flight for `S` rounds over a body of about `S` ops (`S^3`): 1,000,000
/// covers the 64 stages the pipeliner allows, host and kernel (trial 43: at
/// 50,000 the budget ran out from 39-48 stages on, and the widened fixed
/// point both cost more, 30 s for a 64-stage kernel, and reported false
/// races).
const WORK_BUDGET: usize = 1_000_000;

/// The rounds of one loop's fixed point: before widening, and before
/// regions become whole buffers.
#[derive(Clone, Copy, Debug)]
struct Rounds {
    widen: usize,
    give_up: usize,
}

/// The analysis of one function.
pub(crate) struct Analysis<'c, 'a> {
    pub function: OperationRef<'c, 'a>,
    /// True in a `gpu.func` or `gpu.launch` body: threads run it together.
    pub gpu: bool,
    /// Value forms, and each op's accesses computed once: a loop's fixed
    /// point visits the same ops in each round, and the IR does not change
    /// while it is analyzed.
    pub cache: AccessCache<'c, 'a>,
    /// In the mbarrier form: what each `apipe.mbarrier_wait` completes
    /// (every arrive is a commit of one queue; a wait completes its copies
    /// in every thread, so no barrier is needed after it).
    pub mbarrier: Option<super::mbarrier::Facts>,
    /// The copies that the functions walked before this one may return
    /// with in flight ([`Analysis::call`]).
    pub leftovers: std::rc::Rc<Leftovers<'c, 'a>>,
    /// The function (key) each call op (key) calls.
    pub calls: std::rc::Rc<FxHashMap<usize, usize>>,
    /// The functions (keys) each call through a value (`func.call_indirect`,
    /// an `llvm.call` without `callee`; by key) may call: those whose
    /// address the module takes, of the call's arity.
    pub indirect: std::rc::Rc<FxHashMap<usize, Vec<usize>>>,
    /// The waits each function (key) makes on every path
    /// ([`callee_waits`]).
    pub callee_waits: std::rc::Rc<FxHashMap<usize, CalleeWaits<'c, 'a>>>,
    tokens: GroupDistance,
    contexts: FxHashMap<usize, System>,
    /// The kernel's thread-id bounds ([`Analysis::thread_bounds`]), once
    /// computed.
    thread_bounds: Option<Vec<Constraint>>,
    variant: FxHashMap<usize, bool>,
    /// [`Analysis::invariant_in`]'s answers, per (value, loop).
    invariant: FxHashMap<(usize, usize), bool>,
    hazards: Vec<Hazard<'c, 'a>>,
    /// (access, other op) and (access, class) pairs reported: one error
    /// per pair and per class.
    seen: FxHashSet<(usize, usize)>,
    seen_kinds: FxHashSet<(usize, HazardKind)>,
    /// Rounds of a loop's fixed point before carried instances forget
    /// their iteration: a copy issued `k` iterations back is followed
    /// exactly only while `k` is below it, so it exceeds the most groups
    /// the function keeps in flight (the largest `wait_group` count, the
    /// largest mbarrier ring) by 2; [`WIDEN_AFTER`] at the least. A
    /// pipeline of 9 stages (8 groups in flight) was once widened too early
    /// and reported as racing.
    widen_after: usize,
    /// The function's first `gpu.thread_id` of each dimension
    /// ([`Analysis::thread_id_of_dimension`]), found once.
    thread_ids: Option<[Option<usize>; 3]>,
    /// Per dimension, whether the function reads an id of it or is
    /// launched in the module with a size other than 1 there
    /// ([`Analysis::dimension_may_differ`]), found once.
    reads_dimension: Option<[bool; 3]>,
    /// [`launched_block_sizes`] of the module.
    launches: std::rc::Rc<FxHashMap<String, [bool; 3]>>,
    /// [`Analysis::thread_id_dimension`] of each thread id seen.
    dimensions: std::cell::RefCell<FxHashMap<usize, Option<usize>>>,
    /// Per open region of a branch op whose condition may differ between
    /// threads (innermost last): the copies issued and the accesses made
    /// in it, at any depth ([`Analysis::divergent`]).
    divergent_events: Vec<Events<'c, 'a>>,
    /// Op visits of loop bodies so far in the current outermost loop nest
    /// ([`WORK_BUDGET`]).
    pub(super) work: usize,
    /// Loops open around the op being walked (0: outside every loop).
    loop_depth: usize,
    /// The roots the function may write (its ops' write accesses, copy
    /// destinations included), and whether an op may write all memory;
    /// found once ([`Analysis::may_be_written`]).
    written: Option<(Vec<crate::access::Root>, bool)>,
    /// The roots that other threads may see (not thread-private) among
    /// the function's accesses, found once ([`Analysis::everywhere`]).
    visible_roots: Option<Vec<crate::access::Root>>,
    /// [`Analysis::meets`]'s answers: a loop's fixed point compares the
    /// same accesses with the same instances in each round.
    pub(super) meetings: super::classes::Meetings,
    /// False while a loop's first round runs: its header (the entry state)
    /// is part of every later round's, so every comparison it would make
    /// is made again later, under a header that holds more
    /// ([`Analysis::for_loop`]). [`Analysis::meets`] finds nothing then.
    pub(super) checking: bool,
}

/// The copies issued and the accesses made in a region (at any depth).
#[derive(Default)]
struct Events<'c, 'a> {
    copies: Vec<Instance<'c, 'a>>,
    accesses: Vec<(
        OperationRef<'c, 'a>,
        crate::access::Region,
        AccessKind,
        Role,
    )>,
}

/// True if no op of a loop (`nested`: its nested ops) commits, waits,
/// arrives or is a `gpu.barrier`: what is in flight (or unread behind no
/// barrier) at its entry stays so in every iteration.
fn quiet(nested: &[OperationRef]) -> bool {
    !nested.iter().any(|o| {
        matches!(
            ops::name(o),
            ops::COMMIT_GROUP
                | ops::WAIT_GROUP
                | ops::WAIT
                | ops::MBARRIER_ARRIVE_COPIES
                | ops::MBARRIER_WAIT
                | "gpu.barrier"
        )
    })
}

/// [`Analysis::widen_after`] for the function whose nested ops are
/// `nested`.
fn rounds_before_widening(nested: &[OperationRef]) -> usize {
    let mut depth = 0;
    for &op in nested {
        if ops::is(&op, ops::WAIT_GROUP) {
            depth = depth.max(
                attributes::integer(&op, "pending")
                    .unwrap_or(0)
                    .max(0)
                    .saturating_add(1),
            );
        } else if ops::is(&op, ops::MBARRIER_INIT) {
            let slots = op.operand_at(0).and_then(ops::ring_slots).unwrap_or(0);
            depth = depth.max(slots);
        } else if ops::is(&op, "scf.for") || ops::is(&op, "scf.while") {
            // Token form: a loop that carries a window of `k` tokens keeps
            // up to `k` groups in flight, as `pending = k - 1` would
            // (trial 44: with 9 stages and `sync=tokens` the fixed point
            // widened before the window settled, false races).
            let tokens = (0..op.result_count())
                .filter(|&j| op.result(j).is_ok_and(|r| ops::is_token_type(r.r#type())))
                .count();
            depth = depth.max(i64::try_from(tokens).unwrap_or(i64::MAX));
        }
    }
    (depth.clamp(0, MOST_BEFORE_WIDENING as i64) as usize + 2)
        .clamp(WIDEN_AFTER, MOST_BEFORE_WIDENING)
}

/// The `apipe.wait_group`s a function makes on every path: `first`, the
/// commits and waits in its entry block before its first op that may
/// access memory, in order (they act on the caller's groups before any of
/// its accesses), and `all`, the waits of its entry block after that op as
/// `(queue, pending, wait)` with the smallest `pending` per queue (they
/// complete groups before it returns), its own or those of the functions
/// its entry block calls. Waits in nested regions are left out (a group taken as
/// still in flight: never a missed hazard), and so are the commits after
/// the first access (a group counted older would complete sooner).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CalleeWaits<'c, 'a> {
    /// Before the first access, in order.
    pub first: Vec<EntryEvent<'c, 'a>>,
    /// After the first access.
    pub all: Vec<(i64, i64, OperationRef<'c, 'a>)>,
    /// A `gpu.barrier` (or `nvvm.barrier0`) in its entry block before its
    /// first access and after every wait of `first`, its own or a
    /// function's its entry block calls there: the call synchronizes the
    /// block after those waits and before any of its accesses (trial 40: a
    /// barrier in a helper was not counted, a false missing-barrier error).
    /// A barrier after an access, or followed by a wait before the first
    /// access, is not counted (never a missed hazard).
    pub barrier: bool,
    /// `Some((j, b))`: where [`Self::barrier`] is not, an `scf.if` on the
    /// function's `i1` argument `j`, at the same place, whose region for
    /// `b` (`then` for true) starts with a barrier: a call whose operand
    /// `j` folds to `b` synchronizes as [`Self::barrier`] says (trial 41:
    /// `scf.if %c { gpu.barrier }` in a helper called with `%true` was not
    /// counted, a false missing-barrier error). Other operands: no barrier
    /// (never a missed hazard).
    pub barrier_if: Option<(usize, bool)>,
}

/// A commit or a wait of [`CalleeWaits::first`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EntryEvent<'c, 'a> {
    /// An `apipe.commit_group`: it closes the caller's uncommitted copies
    /// into a group, and every group of its queue gets one newer (trial
    /// 56: the entry `commit_group; wait_group 0` of a pipelined function,
    /// rule 12 of docs/pipelining.md, was not counted: a false alarm).
    Commit(OperationRef<'c, 'a>),
    /// An `apipe.wait_group` as `(queue, pending, wait)`.
    Wait(i64, i64, OperationRef<'c, 'a>),
    /// An `apipe.mbarrier_wait` that completes every earlier copy of the
    /// thread, of every queue: the first phase of a slot of a ring the
    /// function made and initialized with an arrival count of 1, after
    /// the one `apipe.mbarrier_arrive_copies` on that slot, which tracks
    /// all the thread's prior copies (docs/mbarrier.md; PTX ISA
    /// 9.7.9.25.3.3, `cp.async.mbarrier.arrive`). What
    /// `apipe-tokens-to-mbarrier` makes of an entry `commit_group;
    /// wait_group 0` (trial 57: the caller's copies were taken as in
    /// flight, a false alarm on the pipeliner's output in the mbarrier
    /// form).
    AllPrior(OperationRef<'c, 'a>),
}

/// Step of [`callee_waits`] for the mbarrier ops of an entry prefix:
/// `rings` holds, per fresh ring (a `memref.alloca` of the function,
/// initialized there with an arrival count of 1; by value key), the slots
/// arrived on since. Returns the event of a wait on the first phase of a
/// slot arrived on exactly once, and `Err(())` for an op that breaks the
/// pattern (it is then an access).
fn entry_mbarrier_step<'c: 'a, 'a>(
    op: &OperationRef<'c, 'a>,
    rings: &mut FxHashMap<usize, Vec<i64>>,
) -> Result<Option<EntryEvent<'c, 'a>>, ()> {
    let value = |i: usize| op.operand(i).map_err(|_| ());
    let evaluated = |v: Value| threads::evaluate(v, [0, 0, 0], 0).ok_or(());
    let ring = key_of_value(value(0)?);
    match ops::name(op) {
        ops::MBARRIER_INIT => {
            let alloca = defining_op(value(0)?).is_some_and(|d| ops::is(&d, "memref.alloca"));
            if !alloca || evaluated(value(1)?)? != 1 || rings.contains_key(&ring) {
                return Err(());
            }
            rings.insert(ring, Vec::new());
            Ok(None)
        }
        ops::MBARRIER_ARRIVE_COPIES => {
            let slot = evaluated(value(1)?)?;
            rings.get_mut(&ring).ok_or(())?.push(slot);
            Ok(None)
        }
        ops::MBARRIER_WAIT => {
            let slot = evaluated(value(1)?)?;
            let arrived = rings.get(&ring).ok_or(())?;
            if evaluated(value(2)?)? != 0 || arrived.iter().filter(|s| **s == slot).count() != 1 {
                return Err(());
            }
            Ok(Some(EntryEvent::AllPrior(*op)))
        }
        _ => Err(()),
    }
}

/// `Some((j, b))` if `op` is an `scf.if` on the `i1` argument `j` of
/// `entry` whose region for `b` starts (before any op that may access
/// memory, wait or call) with a `gpu.barrier` or `nvvm.barrier0`; the
/// `then` region is tried first.
fn barrier_under_argument<'c: 'a, 'a>(
    op: &OperationRef<'c, 'a>,
    entry: &BlockRef<'c, 'a>,
    forms: &mut Forms,
) -> Option<(usize, bool)> {
    if !ops::is(op, "scf.if") {
        return None;
    }
    let condition = op.operand(0).ok()?.to_raw();
    let j = (0..entry.argument_count()).find(|&j| {
        entry
            .argument(j)
            .is_ok_and(|a| a.to_raw().ptr == condition.ptr)
    })?;
    (0..op.region_count()).find_map(|r| {
        let block = op.region_at(r)?.first_block()?;
        let mut next = block.first_operation();
        while let Some(inner) = next {
            next = inner.next_in_block();
            if ops::is(&inner, "gpu.barrier") || ops::is(&inner, "nvvm.barrier0") {
                return Some((j, r == 0));
            }
            let found = accesses(forms, &inner);
            if inner.region_count() > 0
                || ops::is_apipe(&inner)
                || group_distance::is_call(&inner)
                || group_distance::unknown_call(&inner)
                || found.reads_all
                || found.writes_all
                || !found.accesses.is_empty()
            {
                return None;
            }
        }
        None
    })
}

/// [`CalleeWaits`] of `function`; `None` if it makes none. A `func.call`
/// or `llvm.call` in its entry block (resolved by `calls`, call op key to function key)
/// of a function in `known` makes that function's waits there too (trial
/// 25: a wait behind a chain of calls was left out, a false alarm); the
/// caller passes the functions callees first.
pub fn callee_waits<'c: 'a, 'a>(
    function: &OperationRef<'c, 'a>,
    calls: &FxHashMap<usize, usize>,
    known: &FxHashMap<usize, CalleeWaits<'c, 'a>>,
) -> Option<CalleeWaits<'c, 'a>> {
    let entry = *ops::blocks_of(function).first()?;
    let mut out = CalleeWaits::default();
    let mut accessed = false;
    let mut forms = Forms::new();
    let mut rings: FxHashMap<usize, Vec<i64>> = FxHashMap::default();
    let smallest = |list: &mut Vec<(i64, i64, OperationRef<'c, 'a>)>, q, p, op| match list
        .iter_mut()
        .find(|(queue, _, _)| *queue == q)
    {
        Some(entry) if entry.1 > p => *entry = (q, p, op),
        Some(_) => {}
        None => list.push((q, p, op)),
    };
    let mut next = entry.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if ops::is(&op, "gpu.barrier") || ops::is(&op, "nvvm.barrier0") {
            out.barrier |= !accessed;
            continue;
        }
        if !accessed && !out.barrier && out.barrier_if.is_none() {
            out.barrier_if = barrier_under_argument(&op, &entry, &mut forms);
        }
        if !accessed && ops::is(&op, ops::COMMIT_GROUP) {
            out.first.push(EntryEvent::Commit(op));
            continue;
        }
        if !accessed
            && (ops::is(&op, ops::MBARRIER_INIT)
                || ops::is(&op, ops::MBARRIER_ARRIVE_COPIES)
                || ops::is(&op, ops::MBARRIER_WAIT))
        {
            if let Ok(event) = entry_mbarrier_step(&op, &mut rings) {
                if let Some(event) = event {
                    out.first.push(event);
                    out.barrier = false;
                    out.barrier_if = None;
                }
                continue;
            }
        }
        // A token wait on groups committed earlier in this prefix: a
        // `wait_group` that leaves the groups committed after the newest
        // of them (trial 57: `%t = commit_group; wait %t` at a callee's
        // entry completed the caller's older groups too, FIFO, but was not
        // counted, a false alarm).
        if !accessed && ops::is(&op, ops::WAIT) {
            let waits: Option<Vec<EntryEvent>> = op
                .operands()
                .map(|token| {
                    let commit = defining_op(token)?;
                    let at = out
                        .first
                        .iter()
                        .position(|e| *e == EntryEvent::Commit(commit))?;
                    let queue = attributes::queue(&commit);
                    let newer = out.first[at + 1..]
                        .iter()
                        .filter(
                            |e| matches!(e, EntryEvent::Commit(c) if attributes::queue(c) == queue),
                        )
                        .count();
                    Some(EntryEvent::Wait(queue, newer as i64, op))
                })
                .collect();
            if let Some(waits) = waits {
                out.first.extend(waits);
                out.barrier = false;
                out.barrier_if = None;
                continue;
            }
        }
        if ops::is(&op, ops::WAIT_GROUP) {
            let pending = attributes::integer(&op, attributes::PENDING)
                .unwrap_or(0)
                .max(0);
            let queue = attributes::queue(&op);
            if !accessed {
                out.first.push(EntryEvent::Wait(queue, pending, op));
                // The caller applies `first` before the barrier: a wait
                // after it would be ordered wrongly (the copies it
                // completes are not behind the barrier).
                out.barrier = false;
                out.barrier_if = None;
            } else {
                // After the first access: applied after the call's
                // accesses. A wait of the prefix is not (trial 59: `wait_group
                // 0; commit_group` completed the caller's copy once the
                // commit had closed it, though the wait ran before).
                smallest(&mut out.all, queue, pending, op);
            }
            continue;
        }
        if let Some(waits) = calls.get(&key(&op)).and_then(|f| known.get(f)) {
            if !accessed {
                // Its barrier follows its own first waits.
                out.barrier = waits.barrier || out.barrier && waits.first.is_empty();
                if !waits.first.is_empty() {
                    out.barrier_if = None;
                }
            }
            for &(queue, pending, wait) in &waits.all {
                smallest(&mut out.all, queue, pending, wait);
            }
            if !accessed {
                out.first.extend(waits.first.iter().copied());
            } else {
                // Its prefix's waits, after this function's first access:
                // applied after the call, without its commits (fewer
                // groups counted: never a missed hazard).
                for event in &waits.first {
                    if let EntryEvent::Wait(queue, pending, wait) = *event {
                        smallest(&mut out.all, queue, pending, wait);
                    }
                }
            }
        }
        if !accessed {
            let found = accesses(&mut forms, &op);
            accessed = op.region_count() > 0
                || ops::is_apipe(&op)
                || group_distance::is_call(&op)
                || found.reads_all
                || found.writes_all
                || !found.accesses.is_empty();
        }
    }
    if out.barrier {
        out.barrier_if = None;
    }
    (!out.first.is_empty() || !out.all.is_empty() || out.barrier || out.barrier_if.is_some())
        .then_some(out)
}

/// A `gpu.barrier`: the other threads' copies that their waits completed,
/// and the reads and writes of every thread before it, are ordered before
/// what follows.
fn barrier(state: &mut State) {
    state
        .instances
        .retain(|i| !i.unsynced && !i.waited_elsewhere);
    state.reads.clear();
}

/// Per function (by [`key`]): the function, and the copies it may return
/// with in flight (its final state's instances, in its own forms).
pub type Leftovers<'c, 'a> = FxHashMap<usize, (OperationRef<'c, 'a>, Vec<Instance<'c, 'a>>)>;

impl<'c, 'a> Analysis<'c, 'a> {
    /// Steps 1-2: the group-distance facts of the function's tokens (its
    /// errors are emitted as they are).
    /// `committing`: the module's functions that commit groups
    /// ([`group_distance::functions_containing`]); `launches`: the module's
    /// [`launched_block_sizes`]; `nested`: the ops nested in `function`, in
    /// pre-order ([`ops::nested_ops`]).
    pub fn new(
        function: OperationRef<'c, 'a>,
        nested: &[OperationRef<'c, 'a>],
        committing: &std::rc::Rc<FxHashSet<String>>,
        launches: std::rc::Rc<FxHashMap<String, [bool; 3]>>,
    ) -> Result<Self, apipe_dialect::Reported> {
        // The token facts matter only to token waits. A function without
        // one may call a function that commits or waits (trial 58: the
        // pipeliner's entry `commit_group; wait_group 0` in a function
        // called by one with copies of its own was refused): the walk
        // follows the callee's entry commits and waits, its waits before
        // it returns, and the copies it returns with in flight; its other
        // commits are not counted, which only keeps groups in flight
        // longer (never a missed hazard).
        let waits_on_tokens = group_distance::has_own_op_in(&function, nested, ops::WAIT);
        let committing = if waits_on_tokens {
            std::rc::Rc::clone(committing)
        } else {
            Default::default()
        };
        let tokens = GroupDistance::compute_with(
            &function,
            &group_distance::Options {
                committing_functions: Some(committing),
                // The same for a call through a value: the walk takes in
                // the copies of every function it may call.
                allow_unknown_calls: !waits_on_tokens,
                ..group_distance::Options::default()
            },
        )?;
        Ok(Analysis {
            function,
            gpu: runs_on_threads(&function, nested),
            cache: AccessCache::new(),
            mbarrier: None,
            leftovers: Default::default(),
            calls: Default::default(),
            indirect: Default::default(),
            callee_waits: Default::default(),
            tokens,
            contexts: FxHashMap::default(),
            thread_bounds: None,
            variant: FxHashMap::default(),
            invariant: FxHashMap::default(),
            hazards: Vec::new(),
            seen: FxHashSet::default(),
            seen_kinds: FxHashSet::default(),
            widen_after: rounds_before_widening(nested),
            thread_ids: None,
            reads_dimension: None,
            launches,
            dimensions: Default::default(),
            divergent_events: Vec::new(),
            work: 0,
            loop_depth: 0,
            written: None,
            visible_roots: None,
            meetings: FxHashMap::default(),
            checking: true,
        })
    }

    /// Steps 3-5 over the function body; the hazards, in the order found.
    /// The hazards of the function, and the copies that may still be in
    /// flight (or uncommitted) where it returns: its callers take them in
    /// at their calls ([`Analysis::call`]).
    pub fn run(mut self) -> (Vec<Hazard<'c, 'a>>, Vec<Instance<'c, 'a>>) {
        let blocks = ops::blocks_of(&self.function);
        // A function of several blocks has no structured control flow to
        // follow; group_distance already refused it if it commits.
        let mut left = Vec::new();
        if let [entry] = blocks.as_slice() {
            let mut state = State::default();
            self.block(*entry, &mut state);
            // The body's one block ends in the return.
            left = state.instances;
        }
        (self.hazards, left)
    }

    /// A `func.call` or `llvm.call` (after its own accesses,
    /// [`Analysis::plain`]): the copies its callee may return with in
    /// flight are in flight here too.
    /// Each keeps its queue; a region of a callee argument becomes the
    /// whole buffer the call passes for it, a global stays the global, a
    /// buffer of the callee's own stays its own (nothing here aliases it
    /// but what may alias anything). Committed in the callee, it has at
    /// least one group since and at most any number (a `wait_group 0`
    /// completes it, a larger count does not); uncommitted, it joins this
    /// function's next group.
    fn call(&mut self, op: &OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
        // A call by name has one callee, whose arguments are the call's
        // operands; a call through a value (trial 61: the copies of a
        // function called through `func.constant` + `func.call_indirect`
        // were not seen) may call any function whose address is taken,
        // with the operands after the callee value.
        let callees: Vec<(usize, usize)> = match self.calls.get(&key(op)) {
            Some(f) => vec![(*f, 0)],
            None => self
                .indirect
                .get(&key(op))
                .map(|fs| fs.iter().map(|f| (*f, 1)).collect())
                .unwrap_or_default(),
        };
        for (callee, first_argument) in callees {
            let Some((function, left)) = self.leftovers.get(&callee).cloned() else {
                continue;
            };
            self.take_leftovers(op, function, &left, first_argument, state);
        }
    }

    /// [`Analysis::call`] of one callee, `function`, which may return with
    /// the copies `left` in flight; its argument `i` is the call's operand
    /// `first_argument + i`. A buffer the callee allocates and returns
    /// (trial 61: reads of it after the call were not checked) is the
    /// whole buffer of the call's result that returns it.
    fn take_leftovers(
        &mut self,
        op: &OperationRef<'c, 'a>,
        function: OperationRef<'c, 'a>,
        left: &[Instance<'c, 'a>],
        first_argument: usize,
        state: &mut State<'c, 'a>,
    ) {
        let argument_values = ops::entry_arguments(&function);
        let arguments: Vec<usize> = argument_values.iter().map(|a| key_of_value(*a)).collect();
        let returned = self.returned_roots(&function);
        let when = self.context(op).constraints().to_vec();
        for instance in left {
            let mut map = |region: &crate::access::Region| -> Vec<crate::access::Region> {
                let passed = match region.root.symbol {
                    Symbol::Value(k) => arguments
                        .iter()
                        .position(|a| *a == k)
                        .and_then(|i| op.operand_at(first_argument + i)),
                    _ => None,
                };
                let roots: Vec<usize> = match (&region.root.symbol, region.alternatives()) {
                    (_, [_, ..]) => region
                        .alternatives()
                        .iter()
                        .filter_map(|a| match a.region.root.symbol {
                            Symbol::Value(k) => Some(k),
                            _ => None,
                        })
                        .collect(),
                    (Symbol::Value(k), []) => vec![*k],
                    _ => Vec::new(),
                };
                let mut out: Vec<crate::access::Region> = returned
                    .iter()
                    .filter(|(root, _)| roots.contains(root))
                    .filter_map(|(_, j)| op.result_at(*j))
                    .map(|r| crate::access::region::whole(&mut self.cache.forms, r.into()))
                    .collect();
                out.push(match passed {
                    // At the positions the call's index operands give
                    // (trial 58: a helper copying one element by index,
                    // called twice, was a false write-after-write with the
                    // whole buffer); the whole buffer where a position
                    // depends on anything else of the callee.
                    Some(value) => crate::access::effects::passed_region(
                        &mut self.cache.forms,
                        op,
                        first_argument,
                        &argument_values,
                        region,
                        value,
                    ),
                    // A choice among the callee's values is any buffer
                    // here.
                    None if !region.alternatives().is_empty() => crate::access::Region {
                        root: crate::access::Root {
                            kind: crate::access::RootKind::Other,
                            ..region.root.clone()
                        },
                        dims: None,
                    },
                    None => crate::access::Region {
                        root: region.root.clone(),
                        dims: None,
                    },
                });
                out
            };
            let (sources, destinations) = (map(&instance.src), map(&instance.dst));
            for src in &sources {
                for dst in &destinations {
                    let mut taken = Instance::issued(
                        instance.copy,
                        instance.queue,
                        src.clone(),
                        dst.clone(),
                        when.clone(),
                    );
                    if !instance.groups.is_zero() {
                        taken.groups = super::state::Count {
                            base: Lin::constant(1),
                            slack: None,
                        };
                    }
                    taken.unsynced = instance.unsynced;
                    taken.armed = instance.armed;
                    state.add(taken);
                }
            }
        }
    }

    /// The buffers `function` returns: (key of the root value, or of each
    /// buffer of a choice, that a result is a view of; the result's
    /// position), over every `func.return` / `llvm.return` of its blocks.
    fn returned_roots(&mut self, function: &OperationRef<'c, 'a>) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for block in ops::blocks_of(function) {
            let Some(last) = block.terminator() else {
                continue;
            };
            if !(ops::is(&last, "func.return") || ops::is(&last, "llvm.return")) {
                continue;
            }
            for j in 0..last.operand_count() {
                let Some(value) = last.operand_at(j) else {
                    continue;
                };
                if crate::access::region::memref_type(value).is_none() {
                    continue;
                }
                let region = crate::access::region::whole(&mut self.cache.forms, value);
                if let Symbol::Value(k) = region.root.symbol {
                    out.push((k, j));
                }
                for alternative in region.alternatives() {
                    if let Symbol::Value(k) = alternative.region.root.symbol {
                        out.push((k, j));
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Keeps `hazard` unless one of the same pair of ops, or of the same
    /// class at the same op, is already kept. A definite hazard replaces a
    /// conservative one (a remark: the buffers may alias) it would repeat:
    /// a copy whose source may alias a copy in flight (a remark) may also
    /// write that copy's destination for certain (an error), which must
    /// not be hidden behind the remark.
    pub(super) fn record(&mut self, hazard: Hazard<'c, 'a>) {
        let pair = (key(&hazard.at), key(&hazard.other));
        let class = (key(&hazard.at), hazard.kind);
        if !self.seen.contains(&pair) && !self.seen_kinds.contains(&class) {
            self.seen.insert(pair);
            self.seen_kinds.insert(class);
            self.hazards.push(hazard);
            return;
        }
        if hazard.conservative {
            return;
        }
        let repeated = self.hazards.iter().position(|h| {
            h.conservative
                && key(&h.at) == pair.0
                && (key(&h.other) == pair.1 || h.kind == hazard.kind)
        });
        if let Some(k) = repeated {
            self.seen.insert(pair);
            self.seen_kinds.insert(class);
            self.hazards[k] = hazard;
        }
    }

    /// The constraints that hold at `op` (its enclosing control flow).
    pub(super) fn context(&mut self, op: &OperationRef<'c, 'a>) -> System {
        let block = op.block().map_or(0, |b| b.to_raw().ptr as usize);
        if let Some(system) = self.contexts.get(&block) {
            return system.clone();
        }
        let system = self.cache.forms.context(op, Some(&self.function));
        self.contexts.insert(block, system.clone());
        system
    }

    fn block(&mut self, block: BlockRef<'c, 'a>, state: &mut State<'c, 'a>) {
        let mut next = block.first_operation();
        while let Some(op) = next {
            self.op(op, state);
            next = op.next_in_block();
        }
    }

    fn op(&mut self, op: OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
        let name = ops::name(&op);
        match name {
            // A bulk copy is tracked by its slot's phase, which the
            // thread's next arrive completes (one ring per function,
            // checked by `mbarrier`): the commit of one queue, as a copy.
            ops::COPY | ops::BULK_COPY => self.copy(op, state),
            ops::COMMIT_GROUP => {
                commit(&op, state);
                // A counting-form commit has no result.
                if let Some(token) = op.result_at(0) {
                    names::name_all(
                        state,
                        attributes::queue(&op),
                        Name::token(key_of_value(token.into())),
                    );
                }
            }
            ops::WAIT_GROUP => {
                let pending = attributes::integer(&op, attributes::PENDING)
                    .unwrap_or(0)
                    .max(0);
                self.complete(
                    &op,
                    state,
                    attributes::queue(&op),
                    Some(pending),
                    None,
                    None,
                );
            }
            ops::WAIT => self.wait_tokens(&op, state),
            ops::READY | ops::MBARRIER_INIT => {}
            ops::MBARRIER_ARRIVE_COPIES => {
                commit(&op, state);
                let (armed, numbers) = self
                    .mbarrier
                    .as_ref()
                    .map(|f| (f.armed_values(&op), f.armed_numbers(&op)))
                    .unwrap_or_default();
                for value in armed {
                    names::name_all(state, 0, value);
                }
                for (ring, n) in numbers {
                    names::name_number(state, ring, n);
                }
            }
            ops::MBARRIER_WAIT => {
                let (pending, closers, named) = self
                    .mbarrier
                    .as_ref()
                    .map(|f| (f.pending(&op), f.closers(&op).to_vec(), f.named_value(&op)))
                    .unwrap_or_default();
                // In a short loop followed iteration by iteration (a drain
                // loop): each iteration's own `pending`.
                let by_iteration = self
                    .mbarrier
                    .as_ref()
                    .and_then(|f| f.pending_by_iteration(&op))
                    .and_then(|(l, by)| {
                        let l = ops::ancestors(&op).find(|p| key(p) == l)?;
                        crate::access::values::loop_step(&l)?;
                        Some((l, by))
                    });
                let complete = |this: &mut Self, pending, state: &mut State<'c, 'a>| {
                    this.complete(&op, state, 0, pending, closers.first().copied(), named);
                    for closer in closers.iter().skip(1) {
                        this.complete(&op, state, 0, None, Some(*closer), None);
                    }
                };
                match by_iteration {
                    Some((l, by)) => {
                        self.split_by_iteration(&op, state, &l, by.len(), |this, i, part| {
                            complete(this, by[i], part)
                        })
                    }
                    None => complete(self, pending, state),
                }
            }
            "gpu.barrier" => barrier(state),
            "scf.for" | "scf.while" => {
                // Each outermost loop nest gets its own work budget.
                if self.loop_depth == 0 {
                    self.work = 0;
                }
                self.loop_depth += 1;
                if name == "scf.for" {
                    self.for_loop(op, state);
                } else {
                    self.while_loop(op, state);
                }
                self.loop_depth -= 1;
                if self.loop_depth == 0 {
                    self.forget_loop_nest();
                }
            }
            "scf.if" | "scf.index_switch" | "scf.execute_region" => self.branches(op, state),
            // `llvm.call` as `func.call` (trial 26: the copies an
            // `llvm.func` returned with in flight were not seen).
            "func.call" | "llvm.call" | "func.call_indirect" => {
                // The callee's waits complete this function's groups: those
                // before its accesses first, the others after them.
                let waits = self
                    .calls
                    .get(&key(&op))
                    .and_then(|f| self.callee_waits.get(f))
                    .cloned();
                for event in waits.iter().flat_map(|w| w.first.iter()) {
                    match *event {
                        // In a loop, the group counts of the fixed point
                        // follow the loop's own commits only: a callee's
                        // commit there is left out (fewer groups counted:
                        // never a missed hazard; trial 59 saw a false
                        // error where it was counted).
                        EntryEvent::Commit(_) if self.loop_depth > 0 => {}
                        EntryEvent::Commit(c) => commit(&c, state),
                        EntryEvent::Wait(queue, pending, wait) => {
                            self.complete(&wait, state, queue, Some(pending), None, None)
                        }
                        // In a host caller (one thread): every copy in
                        // flight completes. In GPU code the thread's copies
                        // would also need a barrier for the others: not
                        // followed (a conservative error).
                        EntryEvent::AllPrior(_) if !self.gpu => {
                            state.instances.retain(|i| i.unsynced);
                        }
                        EntryEvent::AllPrior(_) => {}
                    }
                }
                let decided = waits
                    .as_ref()
                    .and_then(|w| w.barrier_if)
                    .is_some_and(|(j, b)| {
                        op.operand(j)
                            .is_ok_and(|v| self.cache.forms.folded(v) == Some(b))
                    });
                if (waits.as_ref().is_some_and(|w| w.barrier) || decided) && self.gpu {
                    barrier(state);
                }
                self.plain(&op, state);
                for (queue, pending, wait) in waits.iter().flat_map(|w| w.all.iter()) {
                    self.complete(wait, state, *queue, Some(*pending), None, None);
                }
                self.call(&op, state);
            }
            _ if ops::is_function(&op) => {}
            // A function's return, or the end of a `gpu.launch` body (its
            // thread ends: trial 33, an alloca of an inline launch body was
            // not released).
            "func.return" | "gpu.return" | "llvm.return" | "gpu.terminator"
                if op.parent_operation() == Some(self.function) =>
            {
                self.plain(&op, state);
                self.release_stack(&op, &self.function.clone(), state);
            }
            _ => {
                self.plain(&op, state);
                if op.region_count() > 0 {
                    // Unknown control flow: its regions once, or not at all.
                    let entry = state.clone();
                    for block in ops::blocks_of(&op) {
                        let mut inner = entry.clone();
                        self.block(block, &mut inner);
                        let joined = std::mem::take(state).join(inner);
                        *state = joined;
                    }
                    if ops::is(&op, "memref.alloca_scope") {
                        self.release_stack(&op, &op, state);
                    }
                }
            }
        }
    }

    /// The stack memory of `scope` (the function, or a
    /// `memref.alloca_scope`) is released at `at` (its return, or the
    /// scope op's end): an async copy still in flight, or not committed,
    /// whose source or destination is a `memref.alloca` whose allocation
    /// scope is `scope` reads or writes freed memory. Checked as a write of
    /// the whole buffer at `at`, as a `memref.dealloc` is (trial 26: a
    /// function returned with a copy out of its own `memref.alloca`
    /// uncommitted, and the checker was silent).
    fn release_stack(
        &mut self,
        at: &OperationRef<'c, 'a>,
        scope: &OperationRef<'c, 'a>,
        state: &mut State<'c, 'a>,
    ) {
        let mut released: Vec<usize> = Vec::new();
        for instance in &state.instances {
            // A choice of buffers (`arith.select`, `scf.if` results): each
            // one it may be (trial 28: an alloca chosen so went unseen).
            let roots = [&instance.src, &instance.dst]
                .into_iter()
                .flat_map(|region| {
                    std::iter::once(region).chain(region.alternatives().iter().map(|a| &a.region))
                });
            for region in roots {
                let Symbol::Value(k) = region.root.symbol else {
                    continue;
                };
                // SAFETY: symbol keys are made from live values of the
                // function (or of a callee, whose allocas are not of
                // `scope`).
                let value = unsafe { value_of(k) };
                let of_scope = defining_op(value).is_some_and(|def| {
                    ops::is(&def, "memref.alloca")
                        && ops::ancestors(&def)
                            .find(|p| ops::is_function(p) || ops::is(p, "memref.alloca_scope"))
                            .is_some_and(|p| p == *scope)
                }) || private_attribution(value, scope);
                if of_scope && !released.contains(&k) {
                    released.push(k);
                }
            }
        }
        for k in released {
            // SAFETY: as above.
            let value = unsafe { value_of(k) };
            let region = crate::access::region::whole(&mut self.cache.forms, value);
            let before = self.hazards.len();
            self.check_write(
                at,
                &region,
                Role::Plain(AccessKind::Write),
                None,
                state,
                true,
            );
            let alloca = defining_op(value).map(|d| d.location());
            for hazard in &mut self.hazards[before..] {
                hazard.message = hazard.message.replacen(
                    "writes a buffer region",
                    "releases the stack memory of a buffer region",
                    1,
                );
                if let Some(location) = alloca {
                    hazard.notes.push((
                        location,
                        "the 'memref.alloca' whose memory is released there".into(),
                    ));
                }
            }
        }
    }

    /// Drops what an outermost loop nest's fixed point remembered: every op
    /// outside loops is walked once, so no later question repeats one of
    /// the nest's, and a function of many loop nests keeps the memory of
    /// one (its time stays linear in its ops).
    fn forget_loop_nest(&mut self) {
        self.meetings.clear();
        self.cache.forget_ops();
        self.contexts.clear();
    }

    /// Step 3: an `apipe.copy` reads its source and writes its destination
    /// (checked against the state), then is in flight, uncommitted.
    fn copy(&mut self, op: OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
        // Its accesses (computed once) are its source read, then its
        // destination write.
        let (src, dst) = match self.cache.of(&op).accesses.as_slice() {
            [s, d] if s.kind == AccessKind::Read && d.kind == AccessKind::Write => {
                (s.region.clone(), d.region.clone())
            }
            _ => copy_regions(&mut self.cache.forms, &op),
        };
        self.check_read(&op, &src, Role::CopySource, state);
        self.check_write(&op, &dst, Role::CopyDestination, Some(&src), state, false);
        let when = self.context(&op).constraints().to_vec();
        if self.gpu {
            self.check_reads_since_barrier(&op, &dst, state);
            self.check_writes_since_barrier(&op, &src, &dst, state);
            self.check_same_copy_other_threads(&op, &src, &dst, &when);
        }
        if let Some(events) = self.divergent_events.last_mut() {
            for (region, kind, role) in [
                (&src, AccessKind::Read, Role::CopySource),
                (&dst, AccessKind::Write, Role::CopyDestination),
            ] {
                if !events
                    .accesses
                    .iter()
                    .any(|(o, r, _, _)| *o == op && r == region)
                {
                    events.accesses.push((op, region.clone(), kind, role));
                }
            }
            if !events
                .copies
                .iter()
                .any(|i| i.copy == op && i.dst == dst && i.src == src)
            {
                events.copies.push(Instance::issued(
                    op,
                    attributes::queue(&op),
                    src.clone(),
                    dst.clone(),
                    when.clone(),
                ));
            }
        }
        // An arrive tracks every earlier copy of the thread: one queue.
        let queue = if self.mbarrier.is_some() {
            0
        } else {
            attributes::queue(&op)
        };
        state.add(Instance::issued(op, queue, src, dst, when));
    }

    /// Step 3: any other op, through its memory effects.
    fn plain(&mut self, op: &OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
        let found = self.cache.of(op);
        if found.is_empty() {
            return;
        }
        // In a kernel, an access of all memory is one of every buffer other
        // threads see ([`Analysis::everywhere`]).
        let everywhere = if self.gpu {
            self.everywhere(&found)
        } else {
            Vec::new()
        };
        // Each access of all memory, as one of every buffer, is also
        // checked against the other threads' copies (trial 69: as the
        // copy's own region, which another thread's copy never meets, a
        // read of another thread's copied element with no barrier after the
        // wait was silent).
        for access in found.accesses.iter().chain(&everywhere) {
            let role = if access.assumed {
                Role::Assumed(access.kind)
            } else {
                Role::Plain(access.kind)
            };
            if let Some(events) = self.divergent_events.last_mut() {
                // Per kind: an op that reads and writes a region (an
                // atomic update) is a write in the other arm's eyes too.
                if !events
                    .accesses
                    .iter()
                    .any(|(o, r, k, _)| o == op && *r == access.region && *k == access.kind)
                {
                    events
                        .accesses
                        .push((*op, access.region.clone(), access.kind, role));
                }
            }
            match access.kind {
                AccessKind::Read => self.check_read(op, &access.region, role, state),
                AccessKind::Write => self.check_write(op, &access.region, role, None, state, false),
            }
        }
        // Effects on no particular value: every buffer.
        if found.reads_all || found.writes_all {
            let instances = state.instances.clone();
            for instance in &instances {
                let single = State {
                    instances: vec![instance.clone()],
                    reads: Vec::new(),
                };
                if found.reads_all {
                    let role = Role::Plain(AccessKind::Read);
                    self.check_read(op, &instance.dst.clone(), role, &single);
                }
                if found.writes_all {
                    let role = Role::Plain(AccessKind::Write);
                    self.check_write(op, &instance.src.clone(), role, None, &single, false);
                }
            }
        }
        if self.gpu {
            // Every plain access but a warp-collective op's (which reads the
            // other threads' elements by design): also one whose elements
            // are not known (a whole buffer, an op without memory-effect
            // information, a pointer into a buffer), and an access of all
            // memory as one of every buffer other threads see (trial 64: a
            // thread's `llvm.store` into workgroup memory, or a
            // `memref.copy` into a whole workgroup buffer, that another
            // thread then read with no barrier between, was silent).
            let when = self.context(op).constraints().to_vec();
            let all: Vec<&Access> = found.accesses.iter().chain(&everywhere).collect();
            let followed: Vec<&Access> = all
                .iter()
                .copied()
                .filter(|a| {
                    !a.collective
                        && !a.asynchronous
                        && !super::classes::frees_workgroup(op, &a.region)
                })
                .collect();
            // Every thread runs this op too, at the same time: its own
            // accesses in another thread (two threads' stores to one
            // element, a `memref.copy` whose source another thread's run
            // writes). Atomic updates do not race with each other. Only
            // exact regions are compared (a hull, as of a masked load or a
            // strided view, meets itself in another thread where the
            // elements interleave).
            // The same op in another thread: compared where the region is
            // exact, and for a write through a pointer whose elements are
            // not known (all memory, the whole buffer: trial 69, every
            // thread's store through a masked address into one element was
            // silent); a hull of an indexed op is not (its elements
            // interleave with the other threads').
            let against_itself: Vec<bool> = followed
                .iter()
                .map(|a| {
                    super::classes::exact_region(op, a.value)
                        || super::classes::exact_pointer_access(op, &a.region)
                        || (a.value.is_none() && a.kind == AccessKind::Write)
                })
                .collect();
            let own = State {
                instances: Vec::new(),
                reads: if super::classes::atomic(op) {
                    Vec::new()
                } else {
                    followed
                        .iter()
                        .zip(&against_itself)
                        .filter(|(_, compared)| **compared)
                        .map(|(a, _)| Read {
                            op: *op,
                            write: a.kind == AccessKind::Write,
                            region: a.region.clone(),
                            when: when.clone(),
                            carried: None,
                        })
                        .collect()
                },
            };
            for (access, compared) in followed.iter().zip(&against_itself) {
                let write = access.kind == AccessKind::Write;
                self.check_plain_since_barrier(op, &access.region, write, state);
                if *compared {
                    self.check_plain_since_barrier(op, &access.region, write, &own);
                }
            }
            for access in all {
                if super::classes::frees_workgroup(op, &access.region) {
                    continue;
                }
                // Writes of memory other threads see (workgroup or global,
                // not thread-private): another thread's copy over them, or
                // reading them as its source, with no barrier since, is
                // the race (the copy may read before or after the write).
                let kept = match access.kind {
                    AccessKind::Read => self.shared(&access.region.root),
                    AccessKind::Write => {
                        !crate::access::region::thread_private(&access.region.root)
                    }
                };
                if kept {
                    state.add_read(Read {
                        op: *op,
                        write: access.kind == AccessKind::Write,
                        region: access.region.clone(),
                        when: when.clone(),
                        carried: None,
                    });
                }
            }
        }
    }

    /// `wait_group {pending}` (`pending = Some`) or a wait on a token whose
    /// group has at least `pending` newer groups, or (`closer`) the token of
    /// a commit op, or (`named`) a value that names the group
    /// ([`names`]): completes the instances of `queue` whose count is
    /// above `pending`, closed by `closer` or named by `named` (step 3); an
    /// instance whose count depends on the iteration stays in flight under
    /// `count <= pending`.
    fn complete(
        &mut self,
        op: &OperationRef<'c, 'a>,
        state: &mut State<'c, 'a>,
        queue: i64,
        pending: Option<i64>,
        closer: Option<usize>,
        named: Option<Name>,
    ) {
        let instances = std::mem::take(&mut state.instances);
        let context = self.context(op);
        let mbarrier_wait = ops::is(op, ops::MBARRIER_WAIT);
        for mut instance in instances {
            if instance.unsynced || instance.queue != queue || instance.armed && !mbarrier_wait {
                state.add(instance);
                continue;
            }
            if closer.is_some() && instance.closer == closer
                || named.is_some_and(|v| instance.named_by.contains(&v))
            {
                self.completed(op, instance, state);
                continue;
            }
            let Some(pending) = pending else {
                let early = self.mbarrier.as_ref().is_some_and(|f| f.returns_early(op));
                if early {
                    instance.trace.early_wait = Some(*op);
                }
                instance.trace.wait = Some(WaitSeen {
                    op: *op,
                    pending: None,
                    groups: instance.groups.base.clone(),
                    names_no_group: true,
                    returns_early: early,
                });
                state.add(instance);
                continue;
            };
            let base = instance.groups.base.clone();
            let seen = WaitSeen {
                op: *op,
                pending: if closer.is_none() {
                    Some(pending)
                } else {
                    None
                },
                groups: base.clone(),
                names_no_group: false,
                returns_early: false,
            };
            if let Some(c) = base.as_constant() {
                if c > pending {
                    self.completed(op, instance, state);
                } else {
                    instance.trace.wait = Some(seen);
                    state.add(instance);
                }
                continue;
            }
            // count <= pending: in flight; count >= pending + 1: complete.
            let in_flight = Constraint::le(&base, &Lin::constant(pending));
            let done = base.offset(-pending - 1).map(Constraint::NonNeg);
            let (Some(in_flight), Some(done)) = (in_flight, done) else {
                state.add(instance);
                continue;
            };
            let feasible = |this: &mut Self, c: &Constraint, instance: &Instance| {
                let mut system = context.clone();
                system.extend(instance.when.iter().cloned());
                system.push(c.clone());
                this.cache.forms.add_facts(&mut system);
                system.feasible().may()
            };
            if self.gpu && feasible(self, &done, &instance) {
                let mut finished = instance.clone();
                finished.constrain([done]);
                self.completed(op, finished, state);
            }
            if feasible(self, &in_flight, &instance) {
                instance.constrain([in_flight]);
                instance.trace.wait = Some(seen);
                state.add(instance);
            }
        }
    }

    /// An instance completed by the wait `op`: gone, or (in a `gpu.func`)
    /// unsynced until the next barrier.
    fn completed(
        &mut self,
        op: &OperationRef<'c, 'a>,
        mut instance: Instance<'c, 'a>,
        state: &mut State<'c, 'a>,
    ) {
        if !self.gpu || self.mbarrier.is_some() {
            return;
        }
        instance.unsynced = true;
        instance.groups = Count::zero();
        instance.closer = None;
        instance.named_by.clear();
        instance.named_numbers.clear();
        instance.trace.wait = Some(WaitSeen {
            op: *op,
            pending: None,
            groups: Lin::constant(0),
            names_no_group: false,
            returns_early: false,
        });
        state.add(instance);
    }

    /// `apipe.wait %t...`: each token's group (group-distance facts) and
    /// the copies its commit op closed.
    ///
    /// A token iter_arg of an `scf.for` with a constant step names the
    /// init's group in the first iteration and the previous iteration's
    /// yield in the later ones: the state splits on `τ_L = 0`, ..., `τ_L =
    /// k - 1`, `τ_L >= k` (the group-distance analysis's split facts) and
    /// each part completes with its own fact.
    fn wait_tokens(&mut self, op: &OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
        let operands: Vec<Value> = op.operands().collect();
        for token in operands {
            let closer = defining_op(token)
                .filter(|d| ops::is(d, ops::COMMIT_GROUP))
                .map(|d| key(&d));
            let named = Some(Name::token(key_of_value(token)));
            if let Some((l, facts)) = self.iteration_split(op, token) {
                self.split_by_iteration(op, state, &l, facts.len(), |this, i, part| {
                    // No fact: not reached in such an iteration as far as
                    // the analysis knows; nothing is completed.
                    match &facts[i] {
                        Some(fact) => {
                            let pending = pending_of(fact);
                            this.complete(op, part, fact.queue, pending, closer, named);
                        }
                        None => this.complete_named(op, part, named),
                    }
                });
                continue;
            }
            let Some(fact) = self.tokens.token_fact(op, token) else {
                self.complete_named(op, state, named);
                continue;
            };
            self.complete(op, state, fact.queue, pending_of(&fact), closer, named);
        }
    }

    /// The instances of `state` split by the iteration `τ_L` of the loop
    /// `l` (its iterations are `τ_L`: a constant positive step): `τ_L = 0`,
    /// ..., `τ_L = parts - 2`, `τ_L >= parts - 1`, each part (the instances
    /// that may be in it, constrained to it) completed by `each(i)` at the
    /// wait `op`, then joined again.
    fn split_by_iteration(
        &mut self,
        op: &OperationRef<'c, 'a>,
        state: &mut State<'c, 'a>,
        l: &OperationRef<'c, 'a>,
        parts: usize,
        mut each: impl FnMut(&mut Self, usize, &mut State<'c, 'a>),
    ) {
        let tau = Lin::symbol(Symbol::Iteration(key(l)));
        let last = parts as i64 - 1;
        let instances = std::mem::take(&mut state.instances);
        let context = self.context(op);
        let mut out = Vec::new();
        for i in 0..=last {
            // τ = i, or τ >= i for the last part.
            let mut guard = vec![Constraint::NonNeg(tau.offset(-i).unwrap())];
            if i < last {
                guard.push(Constraint::NonNeg(
                    tau.scaled(-1).unwrap().offset(i).unwrap(),
                ));
            }
            let mut part = State::default();
            for instance in &instances {
                let mut system = context.clone();
                system.extend(instance.when.iter().cloned());
                system.extend(guard.iter().cloned());
                self.cache.forms.add_facts(&mut system);
                if system.feasible().may() {
                    let mut instance = instance.clone();
                    instance.constrain(guard.iter().cloned());
                    part.instances.push(instance);
                }
            }
            each(self, i as usize, &mut part);
            out.extend(part.instances);
        }
        for instance in out {
            state.add(instance);
        }
    }

    /// A wait on `named` with no distance fact: completes the instances
    /// it names ([`names`]), leaves the others as they are.
    fn complete_named(
        &mut self,
        op: &OperationRef<'c, 'a>,
        state: &mut State<'c, 'a>,
        named: Option<Name>,
    ) {
        let Some(v) = named else {
            return;
        };
        let instances = std::mem::take(&mut state.instances);
        for instance in instances {
            if !instance.unsynced && instance.named_by.contains(&v) {
                self.completed(op, instance, state);
            } else {
                state.add(instance);
            }
        }
    }

    /// The loop `L` whose token iter_arg `token` is, with the facts of
    /// `token` at the wait `op` by iteration of `L`
    /// ([`GroupDistance::token_fact_by_iteration`]), if `L` has a constant
    /// positive step (its iterations are `τ_L`).
    fn iteration_split(
        &self,
        op: &OperationRef<'c, 'a>,
        token: Value<'c, 'a>,
    ) -> Option<(OperationRef<'c, 'a>, Vec<Option<group_distance::GroupFact>>)> {
        let (block, n) = block_argument(token)?;
        let l = block.parent_operation()?;
        if n == 0 || !ops::is(&l, "scf.for") {
            return None;
        }
        crate::access::values::loop_step(&l)?;
        let facts = self.tokens.token_fact_by_iteration(op, token)?;
        Some((l, facts.to_vec()))
    }
}

/// Per dimension, whether `function` reads a thread id of it (other than
/// to elect thread (0, 0, 0)) or a `gpu.launch_func` of the module
/// (`launches`, [`launched_block_sizes`]) launches it with a size there
/// other than the constant 1 ([`Analysis::dimension_may_differ`] without a
/// stated size).
pub(super) fn dimensions_used<'c: 'a, 'a>(
    function: &OperationRef<'c, 'a>,
    launches: &FxHashMap<String, [bool; 3]>,
) -> [bool; 3] {
    let mut reads = [false; 3];
    for op in ops::nested_ops(function) {
        if matches!(ops::name(&op), "gpu.thread_id" | "gpu.global_id") {
            // An id with no use, or used only to elect thread
            // (0, 0, 0), says nothing of the data.
            let read = op.result(0).is_ok_and(|r| {
                !crate::token_values::users(r.into()).is_empty() && !only_elects(r.into(), 0)
            });
            if let (Some(d), true) = (crate::access::values::gpu_dimension(&op), read) {
                reads[d] = true;
            }
        }
    }
    let launched = launch_name(function)
        .and_then(|name| launches.get(&name).copied())
        .unwrap_or_default();
    for (d, launched) in launched.into_iter().enumerate() {
        reads[d] |= launched;
    }
    reads
}

/// Per kernel (`@module::@kernel`, as `gpu.launch_func` names it) and
/// dimension, whether some op of `launches` (the module's
/// `gpu.launch_func`s; any other op is skipped) launches it with a block
/// size there other than the constant 1. Once for the module, for every
/// function ([`Analysis::dimension_may_differ`]).
pub(super) fn launched_block_sizes<'c: 'a, 'a: 'l, 'l>(
    launches: impl Iterator<Item = &'l OperationRef<'c, 'a>>,
) -> FxHashMap<String, [bool; 3]> {
    let mut out: FxHashMap<String, [bool; 3]> = FxHashMap::default();
    for launch in launches {
        if !ops::is(launch, "gpu.launch_func") {
            continue;
        }
        let Ok(kernel) = launch.attribute("kernel").map(|a| a.to_string()) else {
            continue;
        };
        // Operands: the async dependencies, then grid x, y, z and block
        // x, y, z.
        let dependencies = launch
            .operands()
            .take_while(|v| !v.r#type().is_index())
            .count();
        let flags = out.entry(kernel).or_default();
        for (d, flag) in flags.iter_mut().enumerate() {
            let size = launch.operand_at(dependencies + 3 + d).and_then(constant);
            *flag |= size != Some(1);
        }
    }
    out
}

/// The `pending` equivalent of waiting on a token with `fact`: every group
/// at distance `max` or more is complete on every path where the token
/// names a group; `None` (nothing completes) if on some path it names none.
fn pending_of(fact: &group_distance::GroupFact) -> Option<i64> {
    match fact.groups {
        Some(d) if !fact.may_name_no_group => d.max.map(|m| m as i64),
        _ => None,
    }
}

/// `apipe.commit_group`: the uncommitted instances of its queue are closed
/// by it; every instance of the queue sees one more group.
fn commit(op: &OperationRef, state: &mut State) {
    let queue = attributes::queue(op);
    let arrive = ops::is(op, ops::MBARRIER_ARRIVE_COPIES);
    for instance in &mut state.instances {
        // An arrive tracks every earlier copy of the thread, of every
        // queue, committed or not; apipe-run retires them with it, so that
        // a `wait_group` after it completes none of them (trial 58: a copy
        // committed before the arrive was taken as completed by a
        // `wait_group 0` after it, and apipe-run reported its read).
        if arrive && !instance.unsynced {
            instance.armed = true;
        }
        if instance.unsynced || instance.queue != queue {
            continue;
        }
        if instance.groups.is_zero() {
            instance.closer = Some(key(op));
        } else if instance.groups.base.as_constant() == Some(0) {
            // Committed on some paths only: which commit closed it is
            // unknown.
            instance.closer = None;
        }
        if let Some(base) = instance.groups.base.offset(1) {
            instance.groups.base = base;
        }
    }
}

fn key_of_value(value: Value) -> usize {
    crate::access::values::value_key(value)
}

/// True if `value` is a private attribution of `scope` (a `gpu.func` or
/// `gpu.launch` argument of its entry block in private memory, space 5 or
/// `#gpu.address_space<private>`): the thread's own memory, released at
/// the return like a `memref.alloca` (trial 33: a copy into one still in
/// flight at `gpu.return` went unreported).
fn private_attribution(value: melior::ir::Value, scope: &OperationRef) -> bool {
    let Some((block, _)) = crate::access::values::block_argument(value) else {
        return false;
    };
    (ops::is(scope, "gpu.func") || ops::is(scope, "gpu.launch"))
        && block.parent_operation().as_ref() == Some(scope)
        && ops::is_entry_block(&block)
        && melior::ir::r#type::MemRefType::try_from(value.r#type()).is_ok_and(|t| {
            apipe_dialect::attributes::memory_space_number(t.memory_space()) == Some(5)
        })
}
