//! The abstract state of the hazard check at a program point: the copies
//! that may be in flight ([`Instance`]), and in a `gpu.func` the reads that
//! no `gpu.barrier` has followed yet ([`Read`]).
//!
//! Every region, count and constraint is a form of the symbols in scope at
//! the point, so an instance from an earlier iteration of a loop is the same
//! copy with `τ_L -> τ_L - 1` applied (see [`State::map`]).

use crate::access::{Constraint, Dim, Lin, Region, Symbol, System};
use melior::ir::{operation::OperationLike, OperationRef};
use rustc_hash::FxHashMap;
use std::collections::BTreeSet;

/// Groups committed on a copy's queue since it was issued (its own group's
/// commit included, so 0 means uncommitted): between `base` and
/// `base + slack` on every path (`slack = None`: no upper bound). `base` may
/// be affine in loop iteration numbers (a copy issued before a loop sees one
/// more group per iteration).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Count {
    pub base: Lin,
    pub slack: Option<u64>,
}

impl Count {
    /// Uncommitted.
    pub fn zero() -> Self {
        Count {
            base: Lin::constant(0),
            slack: Some(0),
        }
    }

    /// True if exactly 0 on every path.
    pub fn is_zero(&self) -> bool {
        self.base.as_constant() == Some(0) && self.slack == Some(0)
    }

    /// The join of two counts, if their bases differ by a constant (the
    /// hull); `None` otherwise (kept apart).
    pub fn join(&self, other: &Count) -> Option<Count> {
        let d = self.base.plus(&other.base, -1)?.as_constant()?;
        let (low, high_self, high_other) = if d <= 0 {
            (&self.base, 0i64, -d)
        } else {
            (&other.base, d, 0i64)
        };
        // Upper ends relative to the lower base.
        let top = |offset: i64, slack: Option<u64>| slack.map(|s| offset as u64 + s);
        let slack = match (top(high_self, self.slack), top(high_other, other.slack)) {
            (Some(a), Some(b)) => Some(a.max(b)),
            _ => None,
        };
        Some(Count {
            base: low.clone(),
            slack,
        })
    }
}

/// What the most recent wait on an instance's queue that left it in flight
/// saw (for diagnostics).
#[derive(Clone, Debug)]
pub(super) struct WaitSeen<'c, 'a> {
    /// The `wait_group` or `wait`.
    pub op: OperationRef<'c, 'a>,
    /// `pending` of a `wait_group`; `None` for a `wait` on tokens.
    pub pending: Option<i64>,
    /// The instance's count there.
    pub groups: Lin,
    /// A `wait` whose token names no group on this path (an `apipe.ready`
    /// token, a commit that has not run) or an unbounded one: it completes
    /// nothing here.
    pub names_no_group: bool,
    /// An `apipe.mbarrier_wait` that may return at once: its slot's
    /// previous group may still be in flight (`mbarrier::Facts::returns_early`).
    pub returns_early: bool,
}

/// How an instance reached the current point, for diagnostics (not part of
/// its identity).
#[derive(Clone, Debug, Default)]
pub(super) struct Trace<'c, 'a> {
    /// The last wait that left it in flight.
    pub wait: Option<WaitSeen<'c, 'a>>,
    /// The last `apipe.mbarrier_wait` that may have returned at once
    /// (`WaitSeen::returns_early`) and left it in flight, kept when a later
    /// wait leaves it in flight too: the reason its group was not complete.
    pub early_wait: Option<OperationRef<'c, 'a>>,
    /// The innermost loop whose back edge it crossed.
    pub carried: Option<OperationRef<'c, 'a>>,
    /// A branch (the op and its region) on which it stayed in flight while
    /// the other branches completed it.
    pub branch: Option<(OperationRef<'c, 'a>, usize)>,
    /// A branch op whose condition may differ between threads, and the
    /// region in which another thread issued this copy while this thread
    /// runs another region ([`super::walk::Analysis`]'s divergent check).
    pub divergent: Option<(OperationRef<'c, 'a>, usize)>,
}

/// A copy that may be in flight.
#[derive(Clone, Debug)]
pub(super) struct Instance<'c, 'a> {
    /// The `apipe.copy`.
    pub copy: OperationRef<'c, 'a>,
    /// Its queue.
    pub queue: i64,
    /// What it reads.
    pub src: Region,
    /// What it writes.
    pub dst: Region,
    /// Groups committed since it was issued.
    pub groups: Count,
    /// The constraints under which it exists and is in flight (its issue
    /// context, path conditions, "fewer than N+1 groups since" after a wait);
    /// kept sorted.
    pub when: Vec<Constraint>,
    /// Complete for the issuing thread, but no `gpu.barrier` since: other
    /// threads may not see it complete (only in a `gpu.func`).
    pub unsynced: bool,
    /// The commit op that closed its group (a `wait` on that op's token
    /// completes it).
    pub closer: Option<usize>,
    /// The values (tokens; counts in the mbarrier form) that name this
    /// copy's group or a newer one of its queue on every path it stands for
    /// ([`super::names`]): a wait on one of them completes it.
    pub named_by: BTreeSet<super::names::Name>,
    /// The group numbers (the n-th arrive on the function's one ring, in
    /// the mbarrier form), each with its ring's key, at or after this
    /// copy's group on every path: a constant count passed on names such a
    /// group ([`super::names`]).
    pub named_numbers: BTreeSet<(usize, i64)>,
    /// In the mbarrier form: a wait on its phase returned in another
    /// thread (another region of a branch on the thread id), which completes
    /// the copies of every thread that arrived on the phase (PTX ISA
    /// 9.7.13.15: a phase completes for the whole CTA). In flight for this
    /// thread until a `gpu.barrier` orders it after that wait; complete
    /// after the barrier.
    pub waited_elsewhere: bool,
    /// An `apipe.mbarrier_arrive_copies` (the mbarrier form) came after
    /// it, which tracks every earlier copy of the thread, committed or
    /// not: then only an `apipe.mbarrier_wait` on the ring's phase
    /// completes it. A counting `wait_group` or a token
    /// `wait` does not (trial 56: a caller's `wait_group 0` was taken to
    /// complete the copies a callee in mbarrier form returned with in
    /// flight): apipe-run retires the copies with the arrival, committed
    /// or not. PTX's `wait_group` would complete a committed group too:
    /// stricter, never a missed hazard (docs/passes.md).
    pub armed: bool,
    /// Diagnostics.
    pub trace: Trace<'c, 'a>,
}

/// A plain read (or, `write`, a plain write) of possibly shared data with
/// no `gpu.barrier` after it yet: another thread's async copy over it is a
/// race until a barrier orders the two.
#[derive(Clone, Debug)]
pub(super) struct Read<'c, 'a> {
    /// The reading (writing) op.
    pub op: OperationRef<'c, 'a>,
    /// True for a write.
    pub write: bool,
    /// What it read (wrote).
    pub region: Region,
    /// The constraints under which it happened.
    pub when: Vec<Constraint>,
    /// The innermost loop whose back edge it crossed.
    pub carried: Option<OperationRef<'c, 'a>>,
}

/// The state at a program point.
#[derive(Clone, Debug, Default)]
pub(super) struct State<'c, 'a> {
    pub instances: Vec<Instance<'c, 'a>>,
    pub reads: Vec<Read<'c, 'a>>,
}

/// `when` in canonical form: each bound tightened over the integers
/// ([`Lin::tightened_nonneg`]: `2t <= 1` is `t <= 0`, so that [`hull`]
/// pairs it with `t <= c`), sorted, without duplicates. Weaker bounds of
/// the same shape stay: the lower bound `τ_L >= k` of the issue context
/// after `k` back edges gives an entry's age ([`super::classes::age`]).
fn sorted(mut when: Vec<Constraint>) -> Vec<Constraint> {
    // In place: most lists are already in canonical form.
    for c in &mut when {
        if let Constraint::NonNeg(x) = c {
            *x = std::mem::take(x).tightened_nonneg();
        }
    }
    if !when.is_sorted() {
        when.sort();
    }
    when.dedup();
    when
}

/// [`sorted`], for the unit tests.
#[cfg(test)]
pub(super) fn tests_sorted(when: Vec<Constraint>) -> Vec<Constraint> {
    sorted(when)
}

/// `x` without its constant term (`None` on overflow).
fn shape(x: &Lin) -> Option<Lin> {
    x.offset(-x.constant_term())
}

/// A sound summary of the disjunction of two constraint sets: the
/// constraints of `a` implied by `b` too, where `x + c1 >= 0` in `a` and
/// `x + c2 >= 0` in `b` (same `x`; the tightest such bound of each side)
/// give `x + max(c1, c2) >= 0` (the hull of two bounds).
pub(super) fn hull(a: &[Constraint], b: &[Constraint]) -> Vec<Constraint> {
    let tightest = |side: &[Constraint], s: &Lin| -> Option<i64> {
        side.iter()
            .filter_map(|d| match d {
                Constraint::NonNeg(y) if shape(y).as_ref() == Some(s) => Some(y.constant_term()),
                _ => None,
            })
            .min()
    };
    let mut out = Vec::new();
    for c in a {
        if b.contains(c) {
            out.push(c.clone());
            continue;
        }
        let Constraint::NonNeg(x) = c else {
            continue;
        };
        let Some(s) = shape(x) else {
            continue;
        };
        let (Some(ka), Some(kb)) = (tightest(a, &s), tightest(b, &s)) else {
            continue;
        };
        if let Some(c) = s.offset(ka.max(kb)) {
            out.push(Constraint::NonNeg(c));
        }
    }
    sorted(out)
}

impl<'c, 'a> Instance<'c, 'a> {
    /// The copy `copy` on `queue` at its issue: no group committed since,
    /// in flight under `when`, named by nothing yet.
    pub fn issued(
        copy: OperationRef<'c, 'a>,
        queue: i64,
        src: Region,
        dst: Region,
        when: Vec<Constraint>,
    ) -> Self {
        Instance {
            copy,
            queue,
            src,
            dst,
            groups: Count::zero(),
            when,
            unsynced: false,
            closer: None,
            named_by: Default::default(),
            named_numbers: Default::default(),
            waited_elsewhere: false,
            armed: false,
            trace: Trace::default(),
        }
    }

    /// True if both are the same copy with the same regions and status (they
    /// may be merged).
    pub fn same_copy(&self, other: &Instance) -> bool {
        // The op pointers (what `OperationRef`'s `==` compares, through the
        // C API).
        self.copy.to_raw().ptr == other.copy.to_raw().ptr
            && (!self.unsynced
                || self.trace.wait.as_ref().map(|w| w.op)
                    == other.trace.wait.as_ref().map(|w| w.op))
            && self.queue == other.queue
            && self.unsynced == other.unsynced
            && self.waited_elsewhere == other.waited_elsewhere
            && self.armed == other.armed
            && self.closer == other.closer
            && self.src == other.src
            && self.dst == other.dst
    }

    /// Identity for the fixed point (the trace aside).
    fn same(&self, other: &Instance) -> bool {
        self.same_copy(other)
            && self.groups == other.groups
            && self.when == other.when
            && self.named_by == other.named_by
            && self.named_numbers == other.named_numbers
    }

    /// Applies `map` to every form (regions, count, constraints). A count
    /// that overflows becomes `[0, unbounded]`; a region dimension, any
    /// position; a constraint, dropped.
    pub fn map(&mut self, map: &dyn Fn(Symbol) -> Option<Lin>) {
        self.src.substitute_in_place(map);
        self.dst.substitute_in_place(map);
        match self.groups.base.substitute(map) {
            Some(base) => self.groups.base = base,
            None => {
                self.groups = Count {
                    base: Lin::constant(0),
                    slack: None,
                }
            }
        }
        if let Some(wait) = &mut self.trace.wait {
            if let Some(groups) = wait.groups.substitute(map) {
                wait.groups = groups;
            }
        }
        self.when = map_constraints(std::mem::take(&mut self.when), map);
    }

    /// Adds constraints (kept sorted).
    pub fn constrain(&mut self, cs: impl IntoIterator<Item = Constraint>) {
        let mut when = std::mem::take(&mut self.when);
        when.extend(cs);
        self.when = sorted(when);
    }
}

impl<'c, 'a> Read<'c, 'a> {
    /// Adds the constraints `cs` to [`Read::when`] (kept in canonical
    /// form, as [`Instance::constrain`] keeps an instance's).
    pub fn constrain(&mut self, cs: impl IntoIterator<Item = Constraint>) {
        let mut when = std::mem::take(&mut self.when);
        when.extend(cs);
        self.when = sorted(when);
    }

    fn same(&self, other: &Read) -> bool {
        self.op == other.op
            && self.write == other.write
            && self.region == other.region
            && self.when == other.when
    }

    /// Applies `map` to the region and constraints.
    pub fn map(&mut self, map: &dyn Fn(Symbol) -> Option<Lin>) {
        self.region.substitute_in_place(map);
        self.when = map_constraints(std::mem::take(&mut self.when), map);
    }
}

/// `when` with `map` applied (a constraint that overflows is dropped),
/// sorted again. Bounds `map` leaves alone are kept, not copied.
fn map_constraints(when: Vec<Constraint>, map: &dyn Fn(Symbol) -> Option<Lin>) -> Vec<Constraint> {
    sorted(
        when.into_iter()
            .filter_map(|c| match c {
                Constraint::NonNeg(x) => match x.substituted(map) {
                    Some(Some(y)) => Some(Constraint::NonNeg(y)),
                    Some(None) => Some(Constraint::NonNeg(x)),
                    None => None,
                },
                c => c.substitute(map).flatten(),
            })
            .collect(),
    )
}

/// Above this many pairs of instances, [`State::join`] indexes them by copy
/// op.
const INDEXED_JOIN: usize = 256;

/// The most instances of one copy that [`State::add`] keeps apart because
/// they stand for exclusive paths ([`exclusive`]); beyond it they merge as
/// any others do (a chain of `n` branch ops on different conditions would
/// otherwise keep `2^n`).
const MOST_EXCLUSIVE: usize = 4;

/// True if no execution satisfies both `a` and `b` (sorted `when` lists)
/// by their `i1` outcomes: one holds a condition value true where the
/// other holds it false ([`Constraint::Holds`]), as the two regions of
/// `scf.if %c` do.
fn exclusive(a: &[Constraint], b: &[Constraint]) -> bool {
    a.iter().any(|c| match c {
        Constraint::Holds(s, x) => b.binary_search(&Constraint::Holds(*s, !*x)).is_ok(),
        _ => false,
    })
}

/// True if `when` (sorted) holds one condition value both true and false:
/// the path it stands for is taken by no execution.
fn contradictory(when: &[Constraint]) -> bool {
    when.windows(2).any(|w| match (&w[0], &w[1]) {
        (Constraint::Holds(s, x), Constraint::Holds(t, y)) => s == t && x != y,
        _ => false,
    })
}

impl<'c, 'a> State<'c, 'a> {
    /// Adds `instance`, merged with an instance of the same copy, regions
    /// and status whose count joins with it (constraints intersected).
    pub fn add(&mut self, instance: Instance<'c, 'a>) {
        if let Some(instance) = self.merge_into(0..self.instances.len(), instance) {
            self.instances.push(instance);
        }
    }

    /// Merges `instance` into the first of the instances at `candidates`
    /// (ascending indices) that is the same copy and whose count joins
    /// with it; gives it back if none is (`None`: merged).
    ///
    /// Two counts on exclusive paths ([`exclusive`]: a commit under
    /// `scf.if %c`) stay apart while the copy has fewer than
    /// [`MOST_EXCLUSIVE`] such instances, so that a later branch on the
    /// same condition (`scf.if %c { wait_group 1 } else { wait_group 0 }`)
    /// sees each count on its own path. Merged, the count would be a range
    /// and `when` the hull of both paths (nothing): a false alarm on the
    /// path whose wait completes only the count it has.
    fn merge_into(
        &mut self,
        candidates: impl IntoIterator<Item = usize>,
        mut instance: Instance<'c, 'a>,
    ) -> Option<Instance<'c, 'a>> {
        instance.when = sorted(std::mem::take(&mut instance.when));
        let mut apart = 0;
        let mut fallback = None;
        for at in candidates {
            let existing = &self.instances[at];
            if !existing.same_copy(&instance) {
                continue;
            }
            let Some(groups) = existing.groups.join(&instance.groups) else {
                continue;
            };
            if existing.groups != instance.groups && exclusive(&existing.when, &instance.when) {
                apart += 1;
                fallback.get_or_insert((at, groups));
                continue;
            }
            self.absorb(at, groups, &instance);
            return None;
        }
        match fallback {
            Some((at, groups)) if apart >= MOST_EXCLUSIVE => {
                self.absorb(at, groups, &instance);
                None
            }
            _ => Some(instance),
        }
    }

    /// Merges `instance` into the instance at `at`, whose count joined with
    /// its count is `groups`.
    fn absorb(&mut self, at: usize, groups: Count, instance: &Instance<'c, 'a>) {
        let existing = &mut self.instances[at];
        existing.groups = groups;
        existing.when = hull(&existing.when, &instance.when);
        // Named on both paths.
        existing.named_by.retain(|v| instance.named_by.contains(v));
        existing
            .named_numbers
            .retain(|v| instance.named_numbers.contains(v));
        // A wait with a count says more than one whose token names
        // no group on this path.
        let weak = |w: &Option<WaitSeen>| w.as_ref().is_none_or(|w| w.names_no_group);
        if existing.trace.wait.is_none()
            || weak(&existing.trace.wait) && !weak(&instance.trace.wait)
        {
            existing.trace.wait = instance.trace.wait.clone();
        }
        if existing.trace.early_wait.is_none() {
            existing.trace.early_wait = instance.trace.early_wait;
        }
        if existing.trace.carried.is_none() {
            existing.trace.carried = instance.trace.carried;
        }
        if existing.trace.branch.is_none() {
            existing.trace.branch = instance.trace.branch;
        }
    }

    /// Adds `read` (or a write), merged with the same access (constraints
    /// intersected).
    pub fn add_read(&mut self, mut read: Read<'c, 'a>) {
        read.when = sorted(std::mem::take(&mut read.when));
        for existing in &mut self.reads {
            if existing.op == read.op
                && existing.write == read.write
                && existing.region == read.region
            {
                existing.when = hull(&existing.when, &read.when);
                return;
            }
        }
        self.reads.push(read);
    }

    /// The join of two paths' states.
    pub fn join(mut self, other: State<'c, 'a>) -> State<'c, 'a> {
        // As `add` for each; with many instances, indexed by copy op: only
        // instances of the same copy can merge (joining states of many
        // copies in flight compared every pair).
        if (self.instances.len() + other.instances.len()).saturating_mul(other.instances.len())
            <= INDEXED_JOIN
        {
            for instance in other.instances {
                self.add(instance);
            }
            for read in other.reads {
                self.add_read(read);
            }
            return self;
        }
        let mut by_copy: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
        for (at, existing) in self.instances.iter().enumerate() {
            by_copy
                .entry(existing.copy.to_raw().ptr as usize)
                .or_default()
                .push(at);
        }
        for instance in other.instances {
            let copy = instance.copy.to_raw().ptr as usize;
            let candidates = by_copy.get(&copy).cloned().unwrap_or_default();
            if let Some(instance) = self.merge_into(candidates, instance) {
                by_copy.entry(copy).or_default().push(self.instances.len());
                self.instances.push(instance);
            }
        }
        for read in other.reads {
            self.add_read(read);
        }
        self
    }

    /// Attaches `cs` to every instance and read (they hold on this path).
    /// If one of `cs` [`Constraint::is_false`] (a region whose condition
    /// folds to the other outcome, a loop that always runs taken as
    /// skipped), no execution takes the path: the state becomes empty, the
    /// bottom of [`State::join`]. (Keeping the instances, with the false
    /// constraint in `when`, let a loop's widening drop the constraint
    /// later and bring a copy that never runs back to life: a false alarm
    /// on the pipeliner's guard `scf.if (k mod 3 != 1)` of a copy in the
    /// trip-count switch of a nested loop.)
    pub fn constrain_all(&mut self, cs: &[Constraint]) {
        if cs.iter().any(Constraint::is_false) {
            self.instances.clear();
            self.reads.clear();
            return;
        }
        for instance in &mut self.instances {
            instance.constrain(cs.iter().cloned());
        }
        for read in &mut self.reads {
            read.constrain(cs.iter().cloned());
        }
        // The instances and reads of a path on which a condition both holds
        // and fails (kept apart by `merge_into`) are gone.
        self.instances.retain(|x| !contradictory(&x.when));
        self.reads.retain(|r| !contradictory(&r.when));
    }

    /// Makes room for a loop's back edge that renames each symbol `new` of
    /// the pairs `(new, old)` of `renamed` to the symbol `old`: a value
    /// `Value(k)` defined in the loop to `Stale(k)`, an inner loop's
    /// `Trips` or `Iteration` to its `Counter` (`Walk::stale_map`).
    /// Where an instance or read holds both `new` (this iteration's) and
    /// `old` (an earlier iteration's, after an earlier back edge), the two
    /// would become one symbol, and constraints of two iterations would be
    /// taken to constrain one value (`Holds(c, true)` of the iteration that
    /// issued a copy and `Holds(c, false)` of the next, or an inner loop's
    /// 2 trips in one iteration and 1 in the next, would make its path
    /// infeasible: a missed hazard). The constraints of `when` that mention
    /// the one not in the regions are dropped (both, if the regions hold
    /// both): a weaker path, never a missed one.
    pub fn forget_collisions(&mut self, renamed: &[(Symbol, Symbol)], facts: Facts) {
        for x in &mut self.instances {
            let [src, dst] = [&mut x.src, &mut x.dst];
            separate(
                renamed,
                &mut [src, dst],
                Some((&mut x.groups, &mut *facts)),
                &mut x.when,
            );
        }
        for r in &mut self.reads {
            separate(renamed, &mut [&mut r.region], None, &mut r.when);
        }
    }

    /// Applies `map` to every form (see [`Instance::map`]), merging what
    /// becomes equal.
    pub fn map(&mut self, map: &dyn Fn(Symbol) -> Option<Lin>) {
        let instances = std::mem::take(&mut self.instances);
        for mut instance in instances {
            instance.map(map);
            self.add(instance);
        }
        let reads = std::mem::take(&mut self.reads);
        for mut read in reads {
            read.map(map);
            self.add_read(read);
        }
    }

    /// True if both hold the same instances and reads (traces aside).
    pub fn same(&self, other: &State) -> bool {
        self.instances.len() == other.instances.len()
            && self.reads.len() == other.reads.len()
            && self
                .instances
                .iter()
                .all(|i| other.instances.iter().any(|j| i.same(j)))
            && self
                .reads
                .iter()
                .all(|r| other.reads.iter().any(|s| r.same(s)))
    }

    /// Records that everything crossed the back edge of `l`.
    pub fn carried_by(&mut self, l: OperationRef<'c, 'a>) {
        for instance in &mut self.instances {
            instance.trace.carried = Some(l);
        }
        for read in &mut self.reads {
            read.carried = Some(l);
        }
    }
}

/// Adds the facts of the given symbols to a system (`Forms::add_facts_of`).
type Facts<'f> = &'f mut dyn FnMut(&mut System, Vec<Symbol>);

/// [`State::forget_collisions`] for one instance (its regions and count) or
/// read (its region).
fn separate(
    renamed: &[(Symbol, Symbol)],
    regions: &mut [&mut Region],
    mut count: Option<(&mut Count, Facts)>,
    when: &mut Vec<Constraint>,
) {
    for &(v, s) in renamed {
        let in_regions =
            |x: Symbol, regions: &[&mut Region], count: &Option<(&mut Count, Facts)>| {
                regions.iter().any(|r| r.mentions(x))
                    || count.as_ref().is_some_and(|(c, _)| c.base.mentions(x))
            };
        let region_v = in_regions(v, regions, &count);
        let region_s = in_regions(s, regions, &count);
        let has = |x: Symbol, when: &[Constraint]| when.iter().any(|c| c.mentions(x));
        if !(region_v || has(v, when)) || !(region_s || has(s, when)) {
            continue;
        }
        if region_v && region_s {
            if let Some((count, facts)) = count.as_mut() {
                if count.base.mentions(v) && count.base.mentions(s) {
                    **count = count_apart(count, v, s, when, &mut **facts);
                }
            }
            for region in regions.iter_mut() {
                for dim in region.dims.iter_mut().flatten() {
                    if let Dim::Range { start, .. } = dim {
                        if start.mentions(v) && start.mentions(s) {
                            *dim = Dim::Any;
                        }
                    }
                }
            }
        }
        if region_s {
            when.retain(|c| !c.mentions(v));
        }
        if region_v || !region_s {
            when.retain(|c| !c.mentions(s));
        }
    }
}

/// `count` without the terms that name `v` or `s`: those become their
/// bounds where `when` and the facts of their symbols hold (the lower one
/// into the base, the width into the slack); without a lower bound, the
/// least count, or `[0, unbounded]`.
fn count_apart(count: &Count, v: Symbol, s: Symbol, when: &[Constraint], facts: Facts) -> Count {
    let unknown = Count {
        base: Lin::constant(0),
        slack: None,
    };
    let mut rest = Lin::constant(count.base.constant_term());
    let mut part = Lin::constant(0);
    for (atom, c) in count.base.terms() {
        let term = Lin::atom(atom.clone());
        let side = if term.mentions(v) || term.mentions(s) {
            &mut part
        } else {
            &mut rest
        };
        match side.plus(&term, c) {
            Some(sum) => *side = sum,
            None => return unknown,
        }
    }
    let mut system = System::new();
    system.extend(when.iter().cloned());
    let mut symbols = Vec::new();
    count.base.symbols(&mut symbols);
    for c in when {
        c.symbols(&mut symbols);
    }
    // (Among them: trip counts, iterations and the `Counter` an earlier
    // back edge renamed one to are nonnegative.)
    facts(&mut system, symbols);
    let Some((Some(lo), hi)) = system.range_of(&part) else {
        // Without a lower bound of the part, the least count (a committed
        // copy stays committed).
        return match system.range_of(&count.base) {
            Some((Some(lo), _)) if lo > 0 => Count {
                base: Lin::constant(lo),
                slack: None,
            },
            _ => unknown,
        };
    };
    let Some(base) = rest.offset(lo) else {
        return unknown;
    };
    let width = hi.and_then(|hi| u64::try_from(hi.checked_sub(lo)?).ok());
    let slack = count.slack.zip(width).and_then(|(a, b)| a.checked_add(b));
    Count { base, slack }
}

/// The key of an op.
pub(super) fn key<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> usize {
    op.to_raw().ptr as usize
}
