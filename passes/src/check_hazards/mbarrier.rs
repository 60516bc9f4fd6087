//! The mbarrier form in `apipe-check-hazards` (docs/mbarrier.md): which
//! group each `apipe.mbarrier_wait` names, a proof that its phase is reached
//! on every path, and, for the hazard walk ([`super::walk`]), which copies
//! each wait completes.
//!
//! In this form a **group** of a ring is the set of copies a thread issued
//! before one of its `apipe.mbarrier_arrive_copies` on the ring: the n-th
//! arrive on a ring of K slots (n = 0, 1, ...) arms slot `n mod K` for phase
//! `n div K`. A wait on slot s with parity p returns once the phase of s
//! with parity p just before the current one has completed. It names the
//! latest armed phase of s exactly when that phase has parity p, that is
//! when the named group g (the group of slot s whose phase has parity p)
//! is among the K newest groups of the ring: `1 <= n - g <= K` at the wait,
//! n the arrives so far. Otherwise the wait can deadlock: `n - g <= 0`
//! names a phase not armed yet (its own thread's arrive comes later), and
//! `n - g > K` names a phase the slot has passed (the phase bit is out of
//! step: it blocks on a later phase, or returns before its group).
//!
//! # Algorithm (forward abstract interpretation per function, structured
//! control flow)
//! 1. Rings: the `memref<K x i64, 3>` values initialised by
//!    `apipe.mbarrier_init` in the function (once, outside loops and
//!    branches other than the initialising thread's `scf.if`), with the
//!    arrival count of every thread that arrives: the block size
//!    (`gpu.block_dim` x, y and z multiplied, each one whose size the
//!    kernel states in `known_block_size` being that size) in a kernel, 1
//!    in a host function. An arrive, wait, expect or bulk copy on another memref, an
//!    arrive under thread-dependent control flow, and a bulk copy in a
//!    function with several rings are located errors.
//! 2. State per ring: `n` (arrives so far, an interval), `done` (every
//!    group at ring distance `>= done` is complete in this thread), `seen`
//!    (every group at ring distance `>= seen` is complete in some thread:
//!    a region of an `scf.if` / `scf.index_switch` on the thread ids that
//!    some thread of the block runs, `walk::threads::some_thread_takes`,
//!    joins its `done` in; a `gpu.barrier` sets `done = min(done, seen)`,
//!    since the waiting thread saw the phase complete before it), and per
//!    ring distance 1..=K+1 the groups committed on any ring after that
//!    group (an arrive tracks every earlier copy of the thread, on any
//!    ring). State per `index`/`i1` value: its range and, per ring r, `δ_r`
//!    with `value = n_r - δ_r` (a count of arrives taken earlier), plus the
//!    shape that made it (`x & m`, `(x & K) != 0`, `a - b`, `d <=u c`).
//!    An `apipe.mbarrier_arrive_copies` adds 1 to every `δ_r` and to `n_r`.
//!    Values that CUTLASS-style pipeline state makes (an index and a phase
//!    advanced by hand) also get offset masks per ring ([`pipe`]).
//!    Per ring also the residues `n mod 2K` (or `n mod K`) may have
//!    ([`residues`]: a join keeps the residues of both sides; a loop of
//!    constant trip count whose arrives all run once per iteration moves
//!    them by a known amount), so `x & m` and `x mod m` of a count with
//!    exact `δ` are constants when every path agrees on `n mod m`, and the
//!    case splits of step 4 take one count per residue; and per value the
//!    slot of a count plus a constant ([`Val::slot_of`]): `(x mod K + c)
//!    mod K` is the slot of the count `x + c`.
//! 3. An arrive on ring r must hit slot `n_r mod K` (its slot operand is
//!    `x mod K` with `x = n_r`: `x & (K - 1)` for a power of two K,
//!    `arith.remui x, K` for any K; a constant equal to `n_r mod K` on
//!    every path; or a pipeline index at offset 0; a slot `j` ahead,
//!    `(n_r + j) mod K` with one `j` in `[1, min(K, 9))` on every path, is `j`
//!    skipped groups first, whose slots are then out of step ([`Skew`]:
//!    a wait naming a group on one is a located error), and its slot's previous
//!    group must be complete (`done <= K`): else a located error (slot out
//!    of step, slot reused too early: only if `n_r >= K` on some path; the
//!    walk still runs after it, without the guards' completion of step 5,
//!    so the accesses it exposes are reported too). So must an
//!    `apipe.bulk_copy` or `apipe.mbarrier_expect_tx` (its bytes count on
//!    the next group's phase); per ring, `tx` sums the bytes expected minus the bytes bulk
//!    copied since the thread's last arrive, and an arrive needs `tx = 0`
//!    on every path (PTX ISA 9.7.13.15.2: a phase completes when its
//!    arrivals and its transaction count are both done). On an in-order
//!    ring ([`Ring::in_order`]: one thread, no bulk copy) an early reuse is
//!    no error: an arrival counts once every earlier copy of its thread has
//!    landed, so the previous group's counts first; the ring's state marks
//!    it (`reused`) for step 4. (A group with no copy of its own is not
//!    complete at once: its arrival also tracks the copies a caller, or an
//!    earlier call, left in flight.)
//! 4. A wait on `x mod K` with parity `((x div K) & 1) != 0` (`(x & K) !=
//!    0` for a power of two) names group x (`δ_g = δ_x`); with `== 0` group
//!    `x - K` (`δ_g = δ_x + K`); with constant slot and parity, the latest
//!    such group before `n_r`, for every `n_r` of the interval (or each
//!    `n_r mod 2K` may be); with the slot of one count and the parity of another
//!    (both at exact `δ`), the same case split on `n_r`; with a
//!    pipeline (index, phase), the group of the offset both masks share
//!    (`δ_g` in `[1, 2K]`). `1 <= δ_g <= K` on every path, or: `K < δ_g <=
//!    2K` on every path while the slot's latest group (`δ_g - K` back) may
//!    be in flight is a wait for a completed phase (it returns at once on
//!    hardware: a hazard at the wait, and the walk reports the reads of
//!    that group); anything else is a located error (the wait can
//!    deadlock). After an early reuse on an in-order ring (step 3), a wait
//!    whose slot's previous group (`δ_g + K` back) may be in flight
//!    (`done > δ_g + K`) may return at once: it completes nothing
//!    ([`Facts::returns_early`]). Then `done = min(done, max δ_g)`, and
//!    the wait completes every copy with more than `pending` = the most
//!    groups committed after g, over the paths; with in-order rings only,
//!    the groups of the other rings with more than `pending` groups
//!    committed after them are complete too (their arrivals came first and
//!    counted first). For the walk, each arrive also records the values
//!    equal to the ring's count there (`δ = 0`): each names the group it
//!    arms, and a wait on one of them (`x` above) completes every copy
//!    that value names on every path (`super::names`).
//! 5. `scf.if` whose condition is `a - b <=u c` (or `<u`): in the then
//!    region `δ_b - δ_a` lies in `[0, c]` (the guard of a wait on an old
//!    token). With `a` the ring's count and `c >= K`, group `b` is
//!    complete in the else region (the walk completes it there): it was
//!    armed more than `c` arrives ago, and the arrive of group `n - 1`
//!    proved the group K back from it complete (step 3). Branches join as interval hulls; a value that is a constant
//!    on one side gets its `δ_r` from that side's `n_r`.
//! 6. `scf.for` / `scf.while`: an `scf.for` of constant trip count T <= 8
//!    ([`SHORT_LOOP`]) is followed iteration by iteration, each one
//!    checked (a drain loop's pipeline state names another group in each
//!    iteration). Otherwise the header is the join of the entry and the
//!    back edge, iterated to a fixed point (widened after 2 rounds: a bound
//!    that still moves becomes infinite; the values of a window the loop
//!    passes on unchanged from iter_arg to iter_arg ([`carried_window`])
//!    one round later per place; with a constant trip count T, `n_r`
//!    at the header is at most its entry value plus T - 1 times the body's
//!    arrive ops on r, when none is in a nested loop); checks run on the final round
//!    only. Other ops with regions that hold mbarrier ops are errors.
//!    Nested loops multiply their rounds, so the walk's work is bounded
//!    ([`Budget`]): past it, a located error at the loop (refused).
//!    The state keeps only the values a later op may read ([`liveness`]):
//!    the cost of a loop does not grow with the loops before it.
//! 7. By cases ([`cases`]): when an `scf.index_switch`'s selector is
//!    computed from the function's arguments and constants only (the
//!    pipeliner's switch over short dynamic trip counts), steps 2-6 run
//!    once per case, each run taking that case's region at every visit of
//!    the switch (and of the switches with the same selector and cases);
//!    facts and errors are joined over the runs. An outer loop around the
//!    switch then keeps the amount each of its iterations arrives.
//!
//! Invariant (soundness): every interval holds the value on every path,
//! so an accepted wait returns exactly when its group is complete, and a
//! copy counts as complete only when a wait named a group at or after it.
//!
//! Citations: PTX ISA 9.7.13.15 (mbarrier: phases, `mbarrier.init`,
//! `test_wait.parity` / `try_wait.parity`), 9.7.9.25.3
//! (`cp.async.mbarrier.arrive.noinc`: the arrival happens once every
//! earlier `cp.async` of the thread is complete).
//!
//! Layout: this file holds the abstract state of step 2, the rings of
//! step 1 and the dispatch per op; [`values`] the `arith` transfer
//! functions of step 2, [`arrive`] step 3, [`wait`] step 4, [`control`]
//! steps 5 and 6, [`cases`] step 7; [`residues`], [`pipe`], [`liveness`]
//! and [`publish`] the parts of the state and the facts for the walk.

use super::names::Name;
use crate::access::slot::{self, Step};
use crate::tokens_to_mbarrier::divergence::{divergent_parent, Divergence};
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{attributes, diagnostic, ops, Reported};
use melior::ir::{
    operation::OperationLike, BlockLike, BlockRef, OperationRef, RegionLike, Value, ValueLike,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;

mod arrive;
mod cases;
mod control;
mod liveness;
mod pipe;
mod publish;
mod residues;
mod ring_map;
mod values;
mod wait;
use liveness::Liveness;
use pipe::Masks;
use residues::Residues;
use ring_map::RingMap;
use values::{divu, remu, slot_base, unsigned_is_floor};
use wait::{enumerate, slot_form};

/// A wait's `pending` in one iteration of a loop followed iteration by
/// iteration: `None` until a visit records it, then that visit's `pending`
/// (joined with the later visits').
type IterationPending = Option<Option<i64>>;

/// What the walk needs from this analysis.
#[derive(Debug, Default)]
pub(crate) struct Facts {
    /// Per `apipe.mbarrier_wait` (op key): the copies it completes are
    /// those with more than `pending` groups committed after them (on any
    /// ring); `None`: none proved.
    pending: FxHashMap<usize, Option<i64>>,
    /// Per wait directly in a loop followed iteration by iteration (step
    /// 6): the loop's key and `pending` by iteration, joined over the
    /// visits as `pending` is (`None` inside: not visited, or none proved).
    by_iteration: FxHashMap<usize, (usize, Vec<IterationPending>)>,
    /// Per wait: the group it names, when every path names it through
    /// one count value or one constant group number (step 4).
    named: FxHashMap<usize, Option<GroupName>>,
    /// Per group name: the arrives that arm it (step 3).
    arms: FxHashMap<GroupName, Vec<usize>>,
    /// Per `scf.if (n - x <=u c)` with `n` the count of a ring of `K <= c`
    /// slots (the guard of a wait on an old count, step 5): the ring and
    /// `x`, when every visit has this form (else `None`).
    guards: FxHashMap<usize, Option<(usize, usize)>>,
    /// Per arrive: the values equal to its ring's count `n` there on every
    /// visit (`δ = 0`): each is the number of the group it arms.
    counts: FxHashMap<usize, Vec<usize>>,
    /// True if an arrive may reuse its slot before the slot's previous
    /// group is complete (reported): groups more than K back are not known
    /// complete.
    reuse_unproved: bool,
    /// Per arrive that reuses its slot too early: its message (the walk
    /// still runs; reported before its hazards).
    reuse: Vec<(usize, String)>,
    /// True if the function initialises one ring.
    single_ring: bool,
    /// Waits that may return at once on some path: their slot's previous
    /// group may still be in flight after an in-order ring re-armed the
    /// slot early (step 4). They complete nothing.
    early: FxHashSet<usize>,
    /// Per wait for a phase that already completed (step 4): its message.
    /// It leaves the newer group in flight, so the walk reports the reads
    /// of that group's data.
    stale: Vec<(usize, String)>,
    /// `arms` by arrive, built once the analysis is done ([`Facts::index`]).
    by_arrive: FxHashMap<usize, Armed>,
    /// Per arrive (op key): its ring.
    arrive_rings: FxHashMap<usize, usize>,
    /// Per arrive: the number of the group it arms, the same on every
    /// visit (`None`: unknown on some visit, or another on another).
    numbers: FxHashMap<usize, Option<i64>>,
}

/// What one arrive arms (`Facts::arms` by arrive).
#[derive(Debug, Default)]
struct Armed {
    /// Group numbers (sorted).
    numbers: Vec<i64>,
    /// Count values, each with the ring whose groups it counts (sorted).
    values: Vec<Name>,
}

/// How a wait or an arrive names its group: the ring and the count value
/// whose group it is (`δ = 0` at the arrive), or the group's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum GroupName {
    Value(usize, usize),
    Number(usize, i64),
}

impl Facts {
    /// Indexes `arms` by arrive and by count value, once every arm is
    /// known: a query per arrive then costs the arrive's own groups, not
    /// every group of the function.
    fn index(&mut self) {
        // Step 3's numbered groups: an arrive arms group n if it arms it on
        // every visit; one that armed two numbers (once per iteration of a
        // loop) arms neither: a wait on the first would complete the
        // copies of the second.
        for (arrive, number) in &self.numbers {
            if let (Some(n), Some(&ring)) = (number, self.arrive_rings.get(arrive)) {
                let arms = self.arms.entry(GroupName::Number(ring, *n)).or_default();
                if !arms.contains(arrive) {
                    arms.push(*arrive);
                }
            }
        }
        for (name, arrives) in &self.arms {
            for arrive in arrives {
                let armed = self.by_arrive.entry(*arrive).or_default();
                match *name {
                    GroupName::Number(_, n) => armed.numbers.push(n),
                    GroupName::Value(ring, value) => armed.values.push(Name { ring, value }),
                }
            }
        }
        for armed in self.by_arrive.values_mut() {
            armed.numbers.sort_unstable();
            armed.values.sort_unstable();
        }
    }

    /// The arrives that reuse their slot too early and the waits for a
    /// phase that already completed, as hazards at the op (`nested`: the
    /// function's ops).
    pub fn stale_hazards<'c: 'a, 'a>(
        &self,
        nested: &[OperationRef<'c, 'a>],
    ) -> Vec<super::Hazard<'c, 'a>> {
        self.reuse
            .iter()
            .chain(&self.stale)
            .filter_map(|(key, message)| {
                let op = *nested.iter().find(|o| op_key(*o) == *key)?;
                Some(super::Hazard {
                    kind: super::HazardKind::ReadAfterWrite,
                    conservative: false,
                    at: op,
                    other: op,
                    message: format!("'{}' op {message}", ops::name(&op)),
                    notes: Vec::new(),
                })
            })
            .collect()
    }

    /// True if the wait `op` may return at once on some path because its
    /// slot's previous group may still be in flight (step 4).
    pub fn returns_early(&self, op: &OperationRef) -> bool {
        self.early.contains(&op_key(op))
    }

    /// The `pending` of the wait `op` (step 4).
    pub fn pending(&self, op: &OperationRef) -> Option<i64> {
        self.pending.get(&op_key(op)).copied().flatten()
    }

    /// The `pending` of the wait `op` in each iteration of the loop (its
    /// key) that holds it directly, when that loop has a constant trip
    /// count of at most [`SHORT_LOOP`] (step 6: a drain loop's wait
    /// completes one group more in each iteration); `None` in an
    /// iteration where none is proved.
    pub fn pending_by_iteration(&self, op: &OperationRef) -> Option<(usize, Vec<Option<i64>>)> {
        self.by_iteration
            .get(&op_key(op))
            .map(|(l, by)| (*l, by.iter().map(|p| p.flatten()).collect()))
    }

    /// The count value whose group the wait `op` names on every path
    /// (step 4: slot `x mod K`, parity `(x div K) & 1` of one count `x`),
    /// if any: the wait completes that group and the older ones.
    pub fn named_value(&self, op: &OperationRef) -> Option<Name> {
        match self.named.get(&op_key(op)).copied().flatten() {
            Some(GroupName::Value(ring, value)) => Some(Name { ring, value }),
            _ => None,
        }
    }

    /// The count `x` of the guard `scf.if (n - x <=u c)` `op` (step 5),
    /// if every arrive that arms group `x` is on the guard's ring: in its
    /// else region group `x` is complete. There `n - x > c >= K` (a group
    /// armed before, so `x < n`), and the arrive of group `n - 1` proved
    /// the group `K` back from it, `n - 1 - K >= x`, complete (step 3).
    pub fn guard_value(&self, op: &OperationRef) -> Option<Name> {
        if self.reuse_unproved {
            return None;
        }
        let (ring, value) = self.guards.get(&op_key(op)).copied().flatten()?;
        Some(Name { ring, value })
    }

    /// The numbers of the groups the arrive `op` arms (the n-th arrive of
    /// the ring, when `n` is known), if the function has one ring: every
    /// count then counts the arrives of that ring. Each with the ring's
    /// key.
    pub fn armed_numbers(&self, op: &OperationRef) -> Vec<(usize, i64)> {
        let key = op_key(op);
        let (true, Some(&ring)) = (self.single_ring, self.arrive_rings.get(&key)) else {
            return Vec::new();
        };
        self.by_arrive.get(&key).map_or_else(Vec::new, |armed| {
            armed.numbers.iter().map(|n| (ring, *n)).collect()
        })
    }

    /// The count values whose groups the arrive `op` arms (step 3: its slot
    /// is `x mod K` of a count `x` equal to the ring's arrives so far),
    /// each named with the arrive's ring: it names groups of that ring only
    /// (a value equal to the counts of two rings, `%c0` before the first
    /// group of each, names each ring's group under its own ring).
    pub fn armed_values(&self, op: &OperationRef) -> Vec<Name> {
        let key = op_key(op);
        let Some(&ring) = self.arrive_rings.get(&key) else {
            return Vec::new();
        };
        let mut out: Vec<Name> = self
            .by_arrive
            .get(&key)
            .map_or_else(Vec::new, |armed| armed.values.clone());
        out.retain(|name| name.ring == ring);
        out.extend(
            self.counts
                .get(&key)
                .into_iter()
                .flatten()
                .map(|&value| Name { ring, value }),
        );
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The arrives that arm the group the wait `op` names, on every path
    /// (step 4): each of their earlier executions armed that group or an
    /// older one, so the wait completes every copy they closed.
    pub fn closers(&self, op: &OperationRef) -> &[usize] {
        self.named
            .get(&op_key(op))
            .copied()
            .flatten()
            .and_then(|name| self.arms.get(&name))
            .map_or(&[], |v| v.as_slice())
    }
}

/// True if `function` is in the mbarrier form (holds an mbarrier op or a
/// bulk copy).
pub(crate) fn in_mbarrier_form(nested: &[OperationRef]) -> bool {
    nested.iter().any(|op| {
        ops::MBARRIER_OPS.iter().any(|name| ops::is(op, name)) || ops::is(op, ops::BULK_COPY)
    })
}

/// Steps 1-6 on `function`: the facts, or `Err` after emitting the located
/// errors (a wait that can deadlock, an arrive out of step, a form this
/// check does not follow). `dimensions_used`: per dimension, whether the
/// kernel's threads may differ there when no size is stated
/// ([`super::walk::dimensions_used`]); `launched`: the module launches the
/// kernel (`gpu.launch_func`), so that those launches bound the block size
/// an arrival count must equal.
pub(crate) fn analyze<'c: 'a, 'a>(
    function: OperationRef<'c, 'a>,
    dimensions_used: [bool; 3],
    launched: bool,
) -> Result<Facts, Reported> {
    let mut analysis = Analysis {
        function,
        dimensions_used,
        launched,
        rings: BTreeMap::new(),
        facts: Facts::default(),
        quiet: 0,
        failed: FxHashSet::default(),
        soft: FxHashSet::default(),
        visited: FxHashSet::default(),
        iteration: None,
        log: Vec::new(),
        liveness: Liveness::default(),
        budget: Budget::default(),
        arrives: FxHashMap::default(),
        split: None,
        taken: 0,
        folded: FxHashMap::default(),
    };
    let nested = ops::nested_ops(&function);
    analysis.budget.give_up = BASE_WORK.saturating_add(nested.len().saturating_mul(WORK_PER_OP));
    analysis.find_rings();
    analysis.facts.single_ring = analysis.rings.len() == 1;
    if analysis.failed.is_empty() {
        if let [entry] = ops::blocks_of(&function).as_slice() {
            // Step 7: one run per case of a switch on the arguments, else
            // one run (the work budget is shared by the runs).
            analysis.split = cases::split(&function, &nested);
            let runs = analysis.split.as_ref().map_or(1, |s| s.regions);
            for taken in 0..runs {
                analysis.taken = taken;
                let mut state = State::new(&analysis.rings);
                analysis.block(*entry, &mut state);
                if analysis.budget.exhausted {
                    break;
                }
            }
        }
    }
    if analysis.failed.is_empty() {
        analysis.facts.index();
        Ok(analysis.facts)
    } else {
        // The errors in the order found; no walk: the waits for a
        // completed phase are reported here too.
        for (key, message) in analysis.log.iter().chain(&analysis.facts.stale) {
            if let Some(op) = nested.iter().find(|o| op_key(*o) == *key) {
                diagnostic::error(op.location(), &format!("'{}' op {message}", ops::name(op)));
            }
        }
        Err(Reported)
    }
}

/// Infinity for interval bounds (far from overflow when added).
const INF: i64 = i64::MAX / 4;

/// Loops of a constant trip count up to this are followed iteration by
/// iteration, each checked (step 6), rather than by a widening fixed point.
const SHORT_LOOP: i64 = 8;

/// The most groups back per ring whose followers the state records
/// (`RingState::hist`).
const HISTORY: i64 = 64;

/// Rounds of a loop's fixed point before bounds that still move widen.
const WIDEN_AFTER: usize = 2;

/// Work per op of the function after which the analysis gives up with an
/// error ([`Budget`]). A function of pipelined loops takes about 2.3 visits
/// per op, each costing its live values (tens): about 100 per op.
const WORK_PER_OP: usize = 10_000;
/// Work every function may take on top of its per-op budget.
const BASE_WORK: usize = 50_000_000;
/// Rounds after which a loop that did not converge is given up, beyond
/// those its deepest ring needs ([`Analysis::max_rounds`]).
const MAX_ROUNDS: usize = 24;

/// An interval of integers, `[-INF, INF]` at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Itv {
    lo: i64,
    hi: i64,
}

impl Itv {
    const TOP: Itv = Itv { lo: -INF, hi: INF };

    fn exact(v: i64) -> Itv {
        Itv { lo: v, hi: v }.clamp()
    }

    fn clamp(self) -> Itv {
        Itv {
            lo: self.lo.clamp(-INF, INF),
            hi: self.hi.clamp(-INF, INF),
        }
    }

    fn as_exact(self) -> Option<i64> {
        (self.lo == self.hi && self.lo.abs() < INF).then_some(self.lo)
    }

    fn join(self, o: Itv) -> Itv {
        Itv {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }

    fn add(self, o: Itv) -> Itv {
        let bound = |a: i64, b: i64| {
            if a.abs() >= INF || b.abs() >= INF {
                if a <= -INF || b <= -INF {
                    -INF
                } else {
                    INF
                }
            } else {
                (a + b).clamp(-INF, INF)
            }
        };
        Itv {
            lo: bound(self.lo, o.lo),
            hi: bound(self.hi, o.hi),
        }
    }

    fn neg(self) -> Itv {
        Itv {
            lo: -self.hi,
            hi: -self.lo,
        }
    }

    fn shift(self, k: i64) -> Itv {
        self.add(Itv::exact(k))
    }

    fn meet(self, o: Itv) -> Option<Itv> {
        let r = Itv {
            lo: self.lo.max(o.lo),
            hi: self.hi.min(o.hi),
        };
        (r.lo <= r.hi).then_some(r)
    }

    /// `self` joined with `new`, widened: a bound that moved becomes
    /// infinite.
    fn widen(self, new: Itv) -> Itv {
        Itv {
            lo: if new.lo < self.lo { -INF } else { self.lo },
            hi: if new.hi > self.hi { INF } else { self.hi },
        }
    }

    fn show(self) -> String {
        match (self.lo, self.hi) {
            (l, h) if l == h => format!("{l}"),
            (l, h) if h >= INF => format!("at least {l}"),
            (l, h) if l <= -INF => format!("at most {h}"),
            (l, h) => format!("between {l} and {h}"),
        }
    }
}

/// How a value was made (step 2), for the patterns of steps 3-5. Keys are
/// value keys, read in the state at the use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    None,
    /// `base & mask`.
    And {
        base: usize,
        mask: i64,
    },
    /// `base mod k` (`arith.remui`).
    Rem {
        base: usize,
        k: i64,
    },
    /// `base div k` (`arith.divui`).
    Div {
        base: usize,
        k: i64,
    },
    /// `(base div k) mod 2 != 0` (`set`) or `== 0`: `(base & k) != 0` for
    /// a power of two k, `((base div k) & 1) != 0` for any k.
    Bit {
        base: usize,
        k: i64,
        set: bool,
    },
    /// `a - b`.
    Diff {
        a: usize,
        b: usize,
    },
    /// `a - b <=u bound` (`b = None`: `a <=u bound`).
    Le {
        a: usize,
        b: Option<usize>,
        bound: i64,
    },
    /// `a >u bound` (`arith.cmpi ugt` / `uge` with a constant): its else
    /// region has `a <=u bound`.
    Gt {
        a: usize,
        bound: i64,
    },
}

impl Shape {
    /// The values the shape names (read at the shaped value's use).
    fn keys(self) -> impl Iterator<Item = usize> {
        let (a, b) = match self {
            Shape::None => (None, None),
            Shape::And { base, .. }
            | Shape::Rem { base, .. }
            | Shape::Div { base, .. }
            | Shape::Bit { base, .. } => (Some(base), None),
            Shape::Diff { a, b } => (Some(a), Some(b)),
            Shape::Le { a, b, .. } => (Some(a), b),
            Shape::Gt { a, .. } => (Some(a), None),
        };
        a.into_iter().chain(b)
    }
}

/// The abstraction of one `index` or integer value.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Val {
    range: Itv,
    /// Ring key -> `δ` with `value = n_ring - δ`.
    rel: RingMap<Itv>,
    shape: Shape,
    /// Ring key -> the value's offset masks as pipeline state (`pipe`).
    pipe: RingMap<Masks>,
    /// Ring key -> `(δ, c)`: the value is `((n_ring - δ) mod K) + c` on
    /// every path (`δ` exact): the slot of a count, plus a constant. A
    /// slot moved by `c` (`(x mod K + c) mod K`) is the slot of the count
    /// `x + c`, which may be in the next phase (step 4).
    slot_of: RingMap<(i64, i64)>,
    /// `g > 0`: the value is `>= 0` or `<= -g` on every path (0: nothing
    /// known). A count carried with the `apipe.ready` sentinel (`-2^40`,
    /// docs/mbarrier.md) as its init is one: under the guard
    /// `n - x <=u c` it is then at least `n - c > -g`, hence `>= 0`, and
    /// `arith.remui`/`divui` read it exactly for every K (trial 46 F1).
    gap: i64,
}

/// [`Val::TOP`], to borrow ([`State::val`]).
static TOP_VAL: Val = Val::TOP;

impl Val {
    /// Nothing known.
    const TOP: Val = Val {
        range: Itv::TOP,
        rel: RingMap::EMPTY,
        shape: Shape::None,
        pipe: RingMap::EMPTY,
        slot_of: RingMap::EMPTY,
        gap: 0,
    };

    fn top() -> Val {
        Val::TOP
    }

    fn constant(v: i64) -> Val {
        Val {
            range: Itv::exact(v),
            gap: if v < 0 { v.saturating_neg() } else { 0 },
            ..Val::top()
        }
    }

    /// [`Val::gap`], with a value known `>= 0` counted as `>= 0 or <= -∞`.
    fn gap(&self) -> i64 {
        if self.range.lo >= 0 {
            i64::MAX
        } else {
            self.gap
        }
    }
}

/// The state of one ring.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RingState {
    /// K, the ring's slots.
    slots: i64,
    /// Arrives on the ring so far.
    n: Itv,
    /// Every group at ring distance `>= done` is complete (`INF`: none
    /// known).
    done: i64,
    /// Every group at ring distance `>= seen` is complete in some thread
    /// of the block (`seen <= done`): a wait in a region of a branch on the
    /// thread ids that some thread runs. A `gpu.barrier` makes it complete
    /// in this thread too (`done = min(done, seen)`): the waiting thread
    /// saw the phase complete before the barrier.
    seen: i64,
    /// `hist[d - 1]`: groups committed (on any ring) after the group at
    /// ring distance d, d = 1..=min(K, [`HISTORY`])+1; `[INF, INF]` where
    /// no such group exists. Older groups are unknown: a wait on one is
    /// not proved, so the cap costs precision on very large rings only,
    /// and keeps the state small whatever K is (a fuzzed ring of 2^31
    /// slots once asked for 16 GiB per state).
    hist: Vec<Itv>,
    /// Transaction bytes this thread expected on the ring's next group
    /// (`apipe.mbarrier_expect_tx`) minus those its bulk copies complete
    /// there, since its last arrive (step 3).
    tx: Itv,
    /// On some path an arrive armed a slot of this in-order ring
    /// ([`Ring::in_order`]) while the slot's previous group could be in
    /// flight (no error there, step 3): a wait then proves its group only
    /// if the slot's previous group is complete (step 4).
    reused: bool,
    /// The residues `n mod m` may have on the paths here, `m` being `2K`
    /// or `K` (a loop whose iterations arrive a multiple of K times keeps
    /// the slot of `n`, of 2K its phase too; paths whose counts differ
    /// otherwise keep each one's). Read through [`RingState::residues`],
    /// which derives it from an exact `n`.
    res: Option<Residues>,
    /// The slots an arrive skipped (step 3): their phases are behind the
    /// ring's count.
    skew: Skew,
}

/// The slots whose phases are out of step with a ring's count (step 3):
/// an arrive on slot `(n + j) mod K` of a ring whose count is `n` (its
/// count value ran `j` ahead of the ring's arrives, after an arrive was
/// removed or skipped) is taken as `j` arrives that arm nothing, then
/// group `n + j`. The count then matches the arrives again, but the `j`
/// skipped slots completed one phase fewer than the count says, so a wait
/// on one of them names another phase than its parity does: it is not
/// proved (step 4). Kept as the ring distances of the skipped groups mod
/// K (a slot `(n - d) mod K` is skipped if `d ≡ p` for one of them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Skew {
    /// Sorted, at most [`Skew::MAX`]; `all` past that.
    distances: Vec<i64>,
    all: bool,
    /// The op key of an arrive that skipped slots, for the message (the
    /// smallest key seen, so that the order of joins does not change it).
    by: Option<usize>,
}

impl Skew {
    const MAX: usize = 8;

    fn is_empty(&self) -> bool {
        !self.all && self.distances.is_empty()
    }

    /// One arrive on the ring: every distance grows by one.
    fn shift(&mut self, k: i64) {
        for d in &mut self.distances {
            *d = (*d + 1).rem_euclid(k.max(1));
        }
        self.distances.sort_unstable();
    }

    fn insert(&mut self, d: i64) {
        if self.all {
            return;
        }
        if !self.distances.contains(&d) {
            self.distances.push(d);
            self.distances.sort_unstable();
        }
        if self.distances.len() > Self::MAX {
            self.distances.clear();
            self.all = true;
        }
    }

    fn union(&self, other: &Skew) -> Skew {
        let mut out = self.clone();
        out.by = match (self.by, other.by) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        out.all |= other.all;
        for d in &other.distances {
            out.insert(*d);
        }
        if out.all {
            out.distances.clear();
        }
        out
    }

    /// True if the slot of the group at a ring distance in `d` may be a
    /// skipped one.
    fn hits(&self, d: Itv, k: i64) -> bool {
        if self.is_empty() {
            return false;
        }
        if self.all || d.hi - d.lo >= k || d.lo <= -INF || d.hi >= INF {
            return true;
        }
        // The first x >= d.lo with x ≡ p (mod K), for each p.
        self.distances
            .iter()
            .any(|p| d.lo + (p - d.lo).rem_euclid(k) <= d.hi)
    }
}

impl RingState {
    /// The residues `n mod m` may have, `m` = 2K (or K) (`RingState::res`).
    fn residues(&self) -> Option<Residues> {
        match self.n.as_exact() {
            Some(n) if self.slots > 0 && self.slots < INF / 2 => Residues::one(2 * self.slots, n),
            _ => self.res,
        }
    }

    /// `(m, n mod m)` with `m` = 2K (or K) when every path agrees on it.
    fn residue(&self) -> Option<(i64, i64)> {
        self.residues()?.single(self.slots)
    }

    /// Every value `n` may have when there are few ([`enumerate`]), less
    /// those its residues rule out.
    fn counts(&self) -> Option<Vec<i64>> {
        let mut ns = enumerate(self.n, self.slots)?;
        if let Some(res) = self.residues() {
            ns.retain(|n| res.contains(*n));
        }
        Some(ns)
    }

    /// A count for each residue `n mod m` may have, with `m` a multiple of
    /// 2K, each at least `least` (for a case split that depends on `n mod
    /// 2K` only); `None` if `n mod 2K` is not that well known.
    fn representatives(&self, least: i64) -> Option<Vec<i64>> {
        let res = self.residues()?;
        let m = res.modulus();
        if m % (2 * self.slots) != 0 {
            return None;
        }
        let base = (least.max(0) / m + 1).checked_mul(m)?;
        res.iter().map(|x| base.checked_add(x)).collect()
    }

    /// `x mod m` of a count `x = n - δ` (exact `δ`), where `m` divides the
    /// modulus the ring's `n` is known to (`None` otherwise).
    fn count_mod(&self, delta: Itv, m: i64) -> Option<i64> {
        let d = delta.as_exact()?;
        let (modulus, r) = self.residue()?;
        (m > 0 && modulus % m == 0).then(|| (r - d).rem_euclid(m))
    }
}

/// The abstract state at a point.
#[derive(Clone, Debug, PartialEq, Eq)]
struct State {
    /// False on a path that cannot run (a guard that never holds).
    live: bool,
    vals: FxHashMap<usize, Val>,
    rings: RingMap<RingState>,
}

/// A ring of the function (step 1).
#[derive(Clone, Copy, Debug)]
struct Ring {
    slots: i64,
    /// One thread arrives on it (a host function: arrival count 1) and no
    /// bulk copy or `apipe.mbarrier_expect_tx` uses it: its arrivals count
    /// in the order of its arrives, one phase each (step 3).
    in_order: bool,
}

impl State {
    fn new(rings: &BTreeMap<usize, Ring>) -> State {
        State {
            live: true,
            vals: FxHashMap::default(),
            rings: rings
                .iter()
                .map(|(k, r)| {
                    (
                        *k,
                        RingState {
                            n: Itv::exact(0),
                            done: 1,
                            seen: 1,
                            slots: r.slots,
                            hist: vec![Itv::exact(INF); r.slots.min(HISTORY) as usize + 1],
                            tx: Itv::exact(0),
                            reused: false,
                            res: None,
                            skew: Skew::default(),
                        },
                    )
                })
                .collect(),
        }
    }

    /// The value of `key`: recorded, else [`Val::TOP`] (borrowed: the
    /// transfer functions read their operands' values without copying
    /// them).
    fn val(&self, key: usize) -> &Val {
        self.vals.get(&key).unwrap_or(&TOP_VAL)
    }

    /// `δ_ring` of `v`: recorded, or from its range and the ring's count
    /// (`n - value`). For a constant both hold on every path, so their
    /// meet does: a constant's recorded `δ` that a loop's join widened is
    /// exact again once the count is (after a loop of constant trip
    /// count).
    fn rel(&self, v: &Val, ring: usize) -> Itv {
        let derived = match self.rings.get(&ring) {
            Some(r) if v.range != Itv::TOP => r.n.add(v.range.neg()),
            _ => Itv::TOP,
        };
        match v.rel.get(&ring) {
            Some(d) if v.range.as_exact().is_some() => d.meet(derived).unwrap_or(*d),
            Some(d) => *d,
            None => derived,
        }
    }

    /// The slots of `ring`.
    fn slots(&self, ring: usize) -> i64 {
        self.rings.get(&ring).map_or(0, |r| r.slots)
    }

    /// The pipeline-state masks of `v` on `ring` (`pipe`): recorded, or
    /// those of its constant value at the ring's arrive counts.
    fn masks(&self, v: &Val, ring: usize) -> Masks {
        let recorded = v.pipe.get(&ring).copied().unwrap_or_default();
        let k = self.slots(ring);
        let derived = match (v.range.as_exact(), self.rings.get(&ring)) {
            (Some(c), Some(r)) if pipe::supported(k) => r
                .counts()
                .map(|ns| pipe::of_constant(c, &ns, k))
                .unwrap_or_default(),
            _ => Masks::default(),
        };
        // Both hold on every path: so does their union.
        recorded.union(&derived)
    }

    /// Per ring with pipeline masks, `f(ring, K)`; empty results dropped.
    fn pipe_map(&self, f: impl Fn(usize, i64) -> Masks) -> RingMap<Masks> {
        self.rings
            .keys()
            .filter(|r| pipe::supported(self.slots(**r)))
            .map(|r| (*r, f(*r, self.slots(*r))))
            .filter(|(_, m)| !m.is_empty())
            .collect()
    }

    /// The join (step 5); `widen` applies step 6's widening against `self`.
    /// Bounds each ring's `done` by its count: no group is `n + 1` or more
    /// back, so every such group is complete (there is none). Before a
    /// join of branches, so that a branch where fewer than K groups were
    /// armed (the else of `scf.if (c >=u K)` around an acquire) does not
    /// hide the other branch's proof that the slot's previous group is
    /// complete.
    fn bound_done_by_count(&mut self) {
        for (_, r) in self.rings.iter_mut() {
            if r.n.hi < INF {
                r.done = r.done.min(r.n.hi.max(0) + 1);
                r.seen = r.seen.min(r.done);
            }
        }
    }

    fn join(&self, other: &State, widen: bool) -> State {
        self.join_widening_but(other, widen, &[])
    }

    /// [`State::join`], with the values of the keys `kept` joined without
    /// widening.
    fn join_widening_but(&self, other: &State, widen: bool, kept: &[usize]) -> State {
        if !other.live {
            return self.clone();
        }
        if !self.live {
            return other.clone();
        }
        let join = |a: Itv, b: Itv| a.join(b);
        let widened = |a: Itv, b: Itv| if widen { a.widen(a.join(b)) } else { a.join(b) };
        let mut vals = FxHashMap::default();
        for (k, a) in &self.vals {
            let Some(b) = other.vals.get(k) else { continue };
            let merge: &dyn Fn(Itv, Itv) -> Itv = if kept.contains(k) { &join } else { &widened };
            let mut rel = RingMap::new();
            for r in self.rings.keys() {
                let d = merge(self.rel(a, *r), other.rel(b, *r));
                if d != Itv::TOP {
                    rel.insert(*r, d);
                }
            }
            // Masks under-approximate: a bit stays where both sides have it.
            let pipe = self.pipe_map(|r, _| self.masks(a, r).meet(&other.masks(b, r)));
            vals.insert(
                *k,
                Val {
                    range: merge(a.range, b.range),
                    rel,
                    shape: if a.shape == b.shape {
                        a.shape
                    } else {
                        Shape::None
                    },
                    pipe,
                    slot_of: a
                        .slot_of
                        .iter()
                        .filter(|(r, x)| b.slot_of.get(r) == Some(x))
                        .map(|(r, x)| (*r, *x))
                        .collect(),
                    // Widening drops a gap that would shrink (termination).
                    gap: match (a.gap(), b.gap()) {
                        (ga, gb) if gb < ga && widen && !kept.contains(k) => 0,
                        (ga, gb) => ga.min(gb),
                    },
                },
            );
        }
        let rings = self
            .rings
            .iter()
            .map(|(k, a)| {
                let b = &other.rings[k];
                let done = if widen && b.done > a.done {
                    INF
                } else {
                    a.done.max(b.done)
                };
                let seen = if widen && b.seen > a.seen {
                    INF
                } else {
                    a.seen.max(b.seen)
                };
                (
                    *k,
                    RingState {
                        slots: a.slots,
                        n: widened(a.n, b.n),
                        done,
                        seen,
                        hist: a
                            .hist
                            .iter()
                            .zip(&b.hist)
                            .map(|(x, y)| widened(*x, *y))
                            .collect(),
                        tx: widened(a.tx, b.tx),
                        reused: a.reused || b.reused,
                        res: {
                            let joined = Residues::join(a.residues(), b.residues(), a.slots);
                            if widen {
                                Residues::widen(a.residues(), joined)
                            } else {
                                joined
                            }
                        },
                        skew: a.skew.union(&b.skew),
                    },
                )
            })
            .collect();
        State {
            live: true,
            vals,
            rings,
        }
    }

    /// Step 2: one arrive on `ring`.
    fn arrive(&mut self, ring: usize) {
        // A constant without recorded masks gets them from the new n:
        // the same offsets, rotated.
        let k = self.slots(ring);
        for v in self.vals.values_mut() {
            if let Some(d) = v.rel.get_mut(&ring) {
                *d = d.shift(1);
            }
            if let Some((d, _)) = v.slot_of.get_mut(&ring) {
                *d = d.saturating_add(1);
            }
            if let Some(m) = v.pipe.get_mut(&ring) {
                *m = m.rotate(k, 1);
            }
        }
        for (k, r) in self.rings.iter_mut() {
            for h in r.hist.iter_mut() {
                if h.lo < INF {
                    *h = h.shift(1);
                }
            }
            if *k == ring {
                r.skew.shift(r.slots);
                r.res = r.residues().map(|res| res.shift(1));
                r.n = r.n.shift(1);
                r.done = if r.done >= INF { INF } else { r.done + 1 };
                r.seen = if r.seen >= INF { INF } else { r.seen + 1 };
                r.hist.pop();
                r.hist.insert(0, Itv::exact(0));
            }
        }
    }
}

struct Analysis<'c, 'a> {
    function: OperationRef<'c, 'a>,
    rings: BTreeMap<usize, Ring>,
    facts: Facts,
    /// Above 0 inside a fixed-point round that is not the final one: no
    /// errors, no facts.
    quiet: usize,
    /// Ops with an error emitted (one each).
    failed: FxHashSet<usize>,
    /// Ops with an error emitted after which the walk still runs.
    soft: FxHashSet<usize>,
    /// The errors found (op key, message), emitted in this order if the
    /// analysis fails.
    log: Vec<(usize, String)>,
    /// Waits recorded at least once (their facts are joined over visits).
    visited: FxHashSet<usize>,
    /// The innermost loop followed iteration by iteration (step 6) being
    /// walked: its key, the iteration and the trip count.
    iteration: Option<(usize, usize, usize)>,
    /// Which values a state still needs ([`liveness`]).
    liveness: Liveness,
    /// Per dimension, whether threads may differ there when the kernel
    /// states no size ([`super::walk::dimensions_used`]).
    dimensions_used: [bool; 3],
    /// The module launches the kernel ([`analyze`]).
    launched: bool,
    /// Op visits so far and their limits.
    budget: Budget,
    /// [`Analysis::loop_arrives`], by loop.
    arrives: FxHashMap<usize, LoopArrives>,
    /// The switches this analysis runs by cases (step 7, [`cases`]).
    split: Option<cases::Split>,
    /// The region those switches take in this run.
    taken: usize,
    /// The constant the result of each op of [`ops::may_fold`] folds to
    /// ([`ops::constant_int`]), by op, asked once: loops visit
    /// their ops in every round, and the IR does not change meanwhile.
    folded: FxHashMap<usize, Option<i64>>,
}

/// Per ring key: the arrive ops on it nested in a loop, and whether one of
/// them is in a loop nested in it ([`Analysis::loop_arrives`]).
type LoopArrives = std::rc::Rc<FxHashMap<usize, Arrives>>;

/// The arrive ops on one ring nested in a loop ([`LoopArrives`]).
#[derive(Clone, Copy, Debug, Default)]
struct Arrives {
    /// All of them.
    count: usize,
    /// Those directly in the loop's body: each runs once per iteration.
    every_iteration: usize,
    /// Whether one is in a loop nested in it.
    in_inner_loop: bool,
}

/// The work of the walk: nested loops multiply their fixed points' rounds
/// (a nest of depth d walks its innermost body about `rounds^d` times,
/// and a deep nest keeps every induction variable live), so the work (op
/// visits, each costing 1 plus the values live at it) is bounded. Past
/// `give_up`, the analysis stops with a located error at the loop it was
/// in: refused, never a hang. A nest of 10 loops around an arrive and a
/// wait (about 10^6 visits) is checked; 12 (about 10^7) is refused.
#[derive(Debug, Default)]
struct Budget {
    work: usize,
    give_up: usize,
    /// True once given up (the walk then stops).
    exhausted: bool,
}

fn op_key<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> usize {
    crate::access::values::op_key(op)
}

fn value_key(value: Value) -> usize {
    crate::access::values::value_key(value)
}

impl<'c: 'a, 'a> Analysis<'c, 'a> {
    fn error(&mut self, op: &OperationRef<'c, 'a>, message: &str) {
        if self.quiet == 0 {
            self.log_error(op, message);
        }
    }

    /// [`Analysis::error`] even inside a quiet round: the function fails.
    fn log_error(&mut self, op: &OperationRef<'c, 'a>, message: &str) {
        if self.failed.insert(op_key(op)) {
            self.log.push((op_key(op), message.to_owned()));
        }
    }

    /// An error after which the walk still runs and names the accesses the
    /// defect exposes (an arrive that reuses its slot too early): a hazard
    /// at `op` in [`Facts::stale_hazards`], or, if the analysis fails, an
    /// error in the order found.
    fn error_then_walk(&mut self, op: &OperationRef<'c, 'a>, message: &str) {
        if self.quiet > 0 || self.failed.contains(&op_key(op)) || !self.soft.insert(op_key(op)) {
            return;
        }
        self.log.push((op_key(op), message.to_owned()));
        self.facts.reuse.push((op_key(op), message.to_owned()));
    }

    /// A hazard at a wait (a completed phase), reported with the walk's:
    /// the walk still runs and names the accesses the defect exposes.
    fn soft_error(&mut self, op: &OperationRef<'c, 'a>, message: &str) {
        if self.quiet > 0 || self.failed.contains(&op_key(op)) || !self.soft.insert(op_key(op)) {
            return;
        }
        self.facts.stale.push((op_key(op), message.to_owned()));
    }

    /// Step 1.
    fn find_rings(&mut self) {
        let nested = ops::nested_ops(&self.function);
        let kernel = ops::is(&self.function, "gpu.func")
            || ops::is(&self.function, "gpu.launch")
            || nested.iter().any(|op| {
                matches!(
                    ops::name(op),
                    "gpu.thread_id" | "gpu.barrier" | "gpu.block_dim"
                )
            });
        let divergence = kernel.then(|| Divergence::compute(&self.function));
        let mut refused = FxHashSet::default();
        for op in &nested {
            let name = ops::name(op);
            if name != ops::MBARRIER_INIT {
                continue;
            }
            let ring = op.operand(0).unwrap();
            let key = value_key(ring);
            // A refused init: its uses are not reported again.
            refused.insert(key);
            if self.rings.contains_key(&key) {
                self.error(op, "initialises a ring that is already initialised in this function: every arrive and wait on it would count on a new phase 0");
                continue;
            }
            if ops::ancestors(op)
                .take_while(|p| *p != self.function)
                .any(|p| matches!(ops::name(&p), "scf.for" | "scf.while"))
            {
                self.error(op, "initialises its ring inside a loop: each iteration would reset its phases; initialise it once, before the loop");
                continue;
            }
            let Some(slots) = ops::ring_slots(ring).filter(|n| *n > 0) else {
                self.error(op, "initialises a ring of no static size");
                continue;
            };
            // A kernel the module does not launch may be launched with any
            // size elsewhere: every dimension stated or counted.
            let used = if self.launched {
                self.dimensions_used
            } else {
                [true; 3]
            };
            if let Err(message) = arrival_count(op.operand(1).unwrap(), kernel, op, used) {
                self.error(op, &message);
                continue;
            }
            if kernel {
                if let Err(message) = self.published(op, divergence.as_ref().unwrap()) {
                    self.error(op, &message);
                    continue;
                }
            }
            refused.remove(&key);
            self.rings.insert(
                key,
                Ring {
                    slots,
                    in_order: !kernel,
                },
            );
        }
        for op in &nested {
            let name = ops::name(op);
            let Some(ring) = ring_operand(op) else {
                continue;
            };
            let ring = value_key(ring);
            if refused.contains(&ring) {
                continue;
            }
            if !self.rings.contains_key(&ring) {
                self.error(op, "uses a ring that no 'apipe.mbarrier_init' of this function initialises: its phases are unknown");
                continue;
            }
            if matches!(name, ops::BULK_COPY | ops::MBARRIER_EXPECT_TX) {
                self.rings.get_mut(&ring).unwrap().in_order = false;
            }
            if name == ops::BULK_COPY && self.rings.len() > 1 {
                self.error(op, "is a bulk copy in a function with several rings: apipe-check-hazards follows bulk copies with one ring per function (its hazard walk counts every arrive as the commit of one queue)");
                continue;
            }
            if name == ops::MBARRIER_ARRIVE_COPIES
                && divergence
                    .as_ref()
                    .is_some_and(|d| divergent_parent(d, op, &self.function).is_some())
            {
                self.error(op, "arrives under control flow that depends on the thread id: every thread of the block must arrive on every group, or its phase never completes");
            }
        }
    }

    /// Step 1, in a kernel: one thread initialises the ring (the init is
    /// under branches that elect one thread id, [`publish::elects_one_thread`])
    /// and a `gpu.barrier` after it, in
    /// the function's body, comes before every arrive and wait on the ring
    /// on every path ([`publish`]).
    fn published(
        &self,
        init: &OperationRef<'c, 'a>,
        divergence: &Divergence,
    ) -> Result<(), String> {
        if divergent_parent(divergence, init, &self.function).is_none() {
            return Err("initialises its ring in every thread of the block (concurrent initialisations race); initialise it in one thread, then gpu.barrier".into());
        }
        let in_launch = ops::ancestors(init).any(|p| ops::is(&p, "gpu.launch"));
        let may_differ = |d: usize| match crate::access::values::known_block_size(init, d) {
            Some(size) => size > 1,
            None => in_launch || self.dimensions_used[d],
        };
        if !publish::elects_one_thread(init, &self.function, may_differ) {
            return Err("initialises its ring under conditions that may hold in several threads (concurrent initialisations race): initialise it in one thread, under `tid == c` in every dimension whose size may exceed 1 (or `(tid_x | tid_y | tid_z) == 0`), then gpu.barrier".into());
        }
        let ring = init.operand(0).unwrap();
        let top = ops::ancestors(init)
            .chain(std::iter::once(*init))
            .find(|p| p.parent_operation() == Some(self.function))
            .unwrap_or(*init);
        let uses = |op: &OperationRef<'c, 'a>| {
            ops::self_and_nested_ops(op)
                .iter()
                .any(|o| ring_operand(o).is_some_and(|r| r == ring))
        };
        let published = match publish::walk(top.next_in_block(), ring, &uses) {
            publish::Found::Barrier => true,
            publish::Found::Use => false,
            // Every use after the init's top-level op is published; none
            // may be in that op or before it.
            publish::Found::Nothing => !uses(&top) && !ops::preceding(&top).any(|op| uses(&op)),
        };
        if published {
            Ok(())
        } else {
            Err("initialises its ring in one thread with no gpu.barrier before the ring's first arrive or wait: other threads may use it before it is initialised".into())
        }
    }

    /// Walks `block`'s ops; after each op but the terminator (whose
    /// operands the caller reads), drops the values no later op reads.
    fn block(&mut self, block: BlockRef<'c, 'a>, state: &mut State) {
        self.liveness.enter(block);
        let mut next = block.first_operation();
        let mut position = 0;
        while let Some(op) = next {
            if !state.live || self.budget.exhausted {
                break;
            }
            self.budget.work = self.budget.work.saturating_add(1 + state.vals.len());
            self.op(op, state);
            next = op.next_in_block();
            if next.is_some() {
                self.liveness.finished(position);
                self.liveness.sweep(state, position, op.region_count() > 0);
            }
            position += 1;
        }
        self.liveness.leave();
    }

    fn set(&self, state: &mut State, value: Value, v: Val) {
        state.vals.insert(value_key(value), v);
    }

    fn get<'s>(&self, state: &'s State, value: Value) -> &'s Val {
        state.val(value_key(value))
    }

    fn op(&mut self, op: OperationRef<'c, 'a>, state: &mut State) {
        let name = ops::name(&op);
        // A value that folds to a constant is that constant: an
        // `arith.constant`, or an `arith` / `index` / `affine` op of
        // constants (`ops::constant_int`: `arith.index_cast %c4_i32`,
        // `arith.subi %c11, %c7`), whatever the op's own transfer function.
        if ops::may_fold(name.as_bytes()) && op.result_count() == 1 {
            let result: Value = op.result(0).unwrap().into();
            let folded = *self
                .folded
                .entry(op_key(&op))
                .or_insert_with(|| ops::constant_int(result));
            if let Some(v) = folded {
                let v = if is_i1(result) { (v != 0) as i64 } else { v };
                self.set(state, result, Val::constant(v));
                return;
            }
        }
        match name {
            "arith.addi" | "arith.subi" | "arith.andi" | "arith.cmpi" | "arith.select"
            | "arith.xori" | "arith.remui" | "arith.divui" => {
                let mut v = self.arith(&op, name, state);
                v.pipe = self.pipe(&op, state);
                self.set(state, op.result(0).unwrap().into(), v);
            }
            ops::MBARRIER_ARRIVE_COPIES => self.arrive(&op, state),
            ops::BULK_COPY | ops::MBARRIER_EXPECT_TX => self.transaction(&op, state),
            ops::MBARRIER_WAIT => self.wait(&op, state),
            // What some thread saw complete before the barrier is complete
            // for every thread after it.
            "gpu.barrier" => {
                for (_, r) in state.rings.iter_mut() {
                    r.done = r.done.min(r.seen);
                }
            }
            "scf.if" => self.branches(&op, state, true),
            "scf.index_switch" | "scf.execute_region" => self.branches(&op, state, false),
            "scf.for" => self.for_loop(&op, state),
            "scf.while" => self.while_loop(&op, state),
            _ => {
                if op.region_count() > 0
                    && ops::nested_ops(&op)
                        .iter()
                        .any(|o| ring_operand(o).is_some())
                {
                    self.error(&op, "holds mbarrier arrives or waits in regions apipe-check-hazards does not follow (structured control flow of scf only)");
                }
                for r in op.results() {
                    state.vals.remove(&value_key(r.into()));
                }
            }
        }
    }

    /// Step 3: `op` arms the group `name` (final rounds only).
    fn arm(&mut self, name: GroupName, op: &OperationRef<'c, 'a>) {
        if self.quiet > 0 {
            return;
        }
        let arms = self.facts.arms.entry(name).or_default();
        if !arms.contains(&op_key(op)) {
            arms.push(op_key(op));
        }
    }

    /// Step 4: the wait `op` names `name` on this visit (`None`: not one
    /// name); joined over visits.
    fn name(&mut self, op: &OperationRef<'c, 'a>, name: Option<GroupName>) {
        if self.quiet > 0 {
            return;
        }
        let entry = self.facts.named.entry(op_key(op)).or_insert(name);
        if *entry != name {
            *entry = None;
        }
    }

    fn unproved(&mut self, op: &OperationRef<'c, 'a>) {
        self.record(op, None);
    }

    fn record(&mut self, op: &OperationRef<'c, 'a>, pending: Option<i64>) {
        if self.quiet > 0 {
            return;
        }
        let key = op_key(op);
        let joined = if self.visited.insert(key) {
            pending
        } else {
            match (self.facts.pending.get(&key).copied().flatten(), pending) {
                (Some(a), Some(b)) => Some(a.max(b)),
                _ => None,
            }
        };
        self.facts.pending.insert(key, joined);
        // Directly in a loop followed iteration by iteration: this
        // iteration's `pending` too.
        let Some((l, i, trips)) = self.iteration else {
            return;
        };
        let direct = ops::ancestors(op)
            .find(|p| matches!(ops::name(p), "scf.for" | "scf.while"))
            .is_some_and(|p| op_key(&p) == l);
        if !direct {
            return;
        }
        let entry = self
            .facts
            .by_iteration
            .entry(key)
            .or_insert_with(|| (l, vec![None; trips]));
        if let Some(slot) = entry.1.get_mut(i) {
            *slot = Some(match (*slot, pending) {
                (None, p) => p,
                (Some(Some(a)), Some(b)) => Some(a.max(b)),
                _ => None,
            });
        }
    }
}

/// The ring operand of an mbarrier op or a bulk copy, `None` for other
/// ops (`apipe.mbarrier_init` included).
fn ring_operand<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    match ops::name(op) {
        ops::MBARRIER_ARRIVE_COPIES | ops::MBARRIER_WAIT | ops::MBARRIER_EXPECT_TX => {
            op.operand_at(0)
        }
        ops::BULK_COPY => op.operand_at(2),
        _ => None,
    }
}

fn is_i1(value: Value) -> bool {
    attributes::integer_width(value.r#type()) == Some(1)
}

/// Step 1: the arrival count `count` of the ring initialised by `init` is
/// the number of threads that arrive per group: the block size in a kernel
/// (`kernel`), 1 in a host function. The count is a product of constants
/// and `gpu.block_dim`s; each `gpu.block_dim` whose size the kernel states
/// (`known_block_size`, a `gpu.launch` with constant sizes)
/// is that size, and so is 1 for a dimension the kernel is taken to run
/// with size 1 (`used[d]` false: it never reads an id of it and the module
/// launches it, only with size 1 there; README, "Status and known limits";
/// trial 65). It equals the block size `x * y * z` for
/// every launch if the dimensions of unknown size occur in it once each
/// and the constants multiply to the product of the known sizes (PTX ISA
/// 9.7.13.15.9 `mbarrier.init`: the expected arrival count of each phase).
fn arrival_count(
    count: Value,
    kernel: bool,
    init: &OperationRef,
    used: [bool; 3],
) -> Result<(), String> {
    const CANNOT: &str = "has an arrival count apipe-check-hazards cannot evaluate (a constant, or a product of constants and gpu.block_dim x, y and z)";
    // The dimensions of unknown size in the count, and its constant factor.
    let mut unknown: Vec<usize> = Vec::new();
    let mut constant = 1i64;
    let mut stack = vec![count];
    while let Some(v) = stack.pop() {
        if let Some(c) = ops::constant_int(v) {
            constant = constant.saturating_mul(c);
            continue;
        }
        let Some(def) = crate::access::values::defining_op(v) else {
            return Err(CANNOT.into());
        };
        match ops::name(&def) {
            "arith.muli" | "index.mul" => {
                stack.push(def.operand(0).unwrap());
                stack.push(def.operand(1).unwrap());
            }
            "arith.index_cast" | "arith.index_castui" => stack.push(def.operand(0).unwrap()),
            "gpu.block_dim" => match crate::access::values::block_dim_size(&def) {
                Some(size) => constant = constant.saturating_mul(size),
                None => {
                    let d = crate::access::values::gpu_dimension(&def)
                        .ok_or_else(|| CANNOT.to_owned())?;
                    if used[d] {
                        unknown.push(d);
                    }
                }
            },
            _ => return Err(CANNOT.into()),
        }
    }
    let ok = if kernel {
        // The block size: the known sizes times the unknown dimensions.
        let mut known = 1i64;
        let mut expected_unknown = Vec::new();
        for (d, used) in used.into_iter().enumerate() {
            match crate::access::values::known_block_size(init, d) {
                Some(size) => known = known.saturating_mul(size),
                None if used => expected_unknown.push(d),
                None => {}
            }
        }
        unknown.sort_unstable();
        unknown == expected_unknown && constant == known
    } else {
        unknown.is_empty() && constant == 1
    };
    if ok {
        Ok(())
    } else if kernel {
        Err("has an arrival count that is not the block size (gpu.block_dim x * y * z, or the size the kernel states in known_block_size): every thread arrives once per group, so a phase with another count never completes or completes early".into())
    } else {
        Err(format!("has arrival count {constant} in a host function, where one thread arrives per group: a phase with another count never completes or completes early"))
    }
}
