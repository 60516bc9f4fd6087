//! The hazard classes, one check each, of an access against the state
//! before it: read-after-write ([`Analysis::check_read`]), write-after-read
//! and write-after-write ([`Analysis::check_write`]), and the two missing
//! barriers of a `gpu.func` (the read side inside `check_read`, the write
//! side inside `check_write` and [`Analysis::check_reads_since_barrier`]).
//!
//! Threads: in a `gpu.func` every region is a form of the executing
//! thread's values. A copy still in flight may be any thread's, so its
//! region is compared with every thread-variant value renamed
//! ([`Symbol::OtherThread`]), which includes the same thread. A copy complete
//! for its thread but with no barrier since, and a read with no barrier
//! since, matter only for other threads: the comparison also requires the
//! threads to differ in one dimension (`tid' >= tid + 1` or
//! `tid' <= tid - 1`), each dimension a case of its own, including those
//! the regions do not name (threads `(0, 0)` and `(0, 1)` both write
//! `buf[tx]`); a dimension of size 1 cannot differ
//! ([`Analysis::dimension_may_differ`]).
//!
//! Races between threads: an instance in flight that meets the access only
//! for another thread (the same thread's comparison is disjoint) is a race
//! between threads, reported with thread ids that meet
//! ([`Analysis::thread_witness`]); a copy is also compared with itself run
//! by another thread ([`Analysis::check_same_copy_other_threads`]) and with
//! other threads' writes (workgroup or global) since the last barrier
//! ([`Analysis::check_writes_since_barrier`]). Copies that write equal
//! values in every thread ([`Analysis::same_values_in_every_thread`]) do
//! not race with each other.

use super::{
    report::{self, Facts, HazardKind, Role},
    state::{Instance, State},
    walk::Analysis,
};
use crate::access::{
    disjoint_by_forms, in_bounds, overlap_with,
    region::{bounded_access, may_alias, Root},
    values::op_key,
    Constraint, Lin, Overlap, Region, Symbol, System,
};
use melior::ir::{operation::OperationLike, OperationRef};
use rustc_hash::FxHashMap;

/// Which threads the other side of a comparison may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Threads {
    /// The executing thread only (outside a `gpu.func`).
    Same,
    /// Any thread, this one included.
    Any,
    /// Any other thread.
    Other,
}

/// The questions [`Analysis::meets`] answered for one pair of ops (by
/// key) and threads: the two regions, the other side's conditions, and
/// the answer (its system only when the regions may meet: no caller reads
/// the system of a disjoint answer). Looked up by the ops first, so that a
/// repeated question is compared in place, not copied into a key.
pub(super) type Meetings = FxHashMap<(usize, usize, Threads), Vec<Meeting>>;

/// One answered question of [`Meetings`].
pub(super) struct Meeting {
    mine: Region,
    theirs: Region,
    when: Vec<Constraint>,
    answer: (Overlap, System),
}

impl<'c, 'a> Analysis<'c, 'a> {
    /// How `mine` (an access at `op`) may meet `theirs` (an instance or a
    /// read under `when`, made by the op `their_op`), for `threads`.
    ///
    /// Between threads, each access is in bounds for the thread that made
    /// it ([`in_bounds`]: outside, it is undefined behaviour); `theirs` also
    /// for this thread when `their_op` runs in every thread on the same
    /// path ([`Analysis::runs_in_every_thread`]): this thread made the same
    /// access; and `mine` also for the other thread when `op` does. Only for
    /// ops whose regions are what they touch (`bounded_access`). So
    /// `buf[tid]` copied into a `memref<32xf32>` bounds the thread ids by 32
    /// in a kernel that states no block size, and a read of `buf[tid mod
    /// 32]` is the thread's own element.
    pub(super) fn meets(
        &mut self,
        op: &OperationRef<'c, 'a>,
        mine: &Region,
        theirs: &Region,
        their_op: &OperationRef<'c, 'a>,
        when: &[Constraint],
        threads: Threads,
    ) -> (Overlap, System) {
        if !self.checking {
            return (Overlap::Disjoint, System::new());
        }
        // Each comparison counts against the function's work budget.
        self.work = self.work.saturating_add(1);
        // Buffers that are never the same memory (two workgroup buffers, a
        // fresh allocation and an argument) never meet: decided before the
        // context of the access is built.
        if !may_alias(&mine.root, &theirs.root) {
            return (Overlap::Disjoint, System::new());
        }
        // Another thread's copy of a thread-private buffer is other memory.
        if threads == Threads::Other && crate::access::region::thread_private(&mine.root) {
            return (Overlap::Disjoint, System::new());
        }
        // Regions apart by their forms alone (two versions of a buffer),
        // in a dimension that another thread's renaming leaves as it is.
        if (threads == Threads::Same || !self.is_variant(theirs.root.symbol))
            && disjoint_by_forms(mine, theirs, &mut |s| {
                threads == Threads::Same || !self.is_variant(s)
            })
        {
            return (Overlap::Disjoint, System::new());
        }
        let ops = (op_key(op), op_key(their_op), threads);
        if let Some(asked) = self.meetings.get(&ops).and_then(|asked| {
            asked
                .iter()
                .find(|m| m.mine == *mine && m.theirs == *theirs && m.when == when)
        }) {
            return asked.answer.clone();
        }
        let (verdict, system) = self.meets_uncached(op, mine, theirs, their_op, when, threads);
        let answer = if verdict.may() {
            (verdict, system)
        } else {
            (verdict, System::new())
        };
        self.meetings.entry(ops).or_default().push(Meeting {
            mine: mine.clone(),
            theirs: theirs.clone(),
            when: when.to_vec(),
            answer: answer.clone(),
        });
        answer
    }

    /// [`Analysis::meets`], computed: first without the kernel's thread-id
    /// bounds ([`Analysis::thread_bounds`]); an overlap found so is tested
    /// again with them, which may only prove it away. (Passing the bounds
    /// at once made some comparisons, exact without them, inexact: more
    /// constraints than the feasibility test follows exactly, and a false
    /// missing barrier.)
    fn meets_uncached(
        &mut self,
        op: &OperationRef<'c, 'a>,
        mine: &Region,
        theirs: &Region,
        their_op: &OperationRef<'c, 'a>,
        when: &[Constraint],
        threads: Threads,
    ) -> (Overlap, System) {
        let first = self.meets_bounded(op, mine, theirs, their_op, when, threads, false);
        if threads == Threads::Same || !first.0.may() || self.thread_bounds().is_empty() {
            return first;
        }
        let second = self.meets_bounded(op, mine, theirs, their_op, when, threads, true);
        if second.0.may() {
            first
        } else {
            second
        }
    }

    /// [`Analysis::meets_uncached`], with the kernel's thread-id bounds if
    /// `bounded`.
    #[allow(clippy::too_many_arguments)]
    fn meets_bounded(
        &mut self,
        op: &OperationRef<'c, 'a>,
        mine: &Region,
        theirs: &Region,
        their_op: &OperationRef<'c, 'a>,
        when: &[Constraint],
        threads: Threads,
        bounded: bool,
    ) -> (Overlap, System) {
        let mut system = self.context(op);
        if threads == Threads::Same {
            system.extend(when.iter().cloned());
            return overlap_with(mine, theirs, system, &mut self.cache.forms);
        }
        // A block of one thread (size 1 in every dimension, stated or the
        // only size launched) has no other thread (trial 15, finding 1).
        if threads == Threads::Other && self.single_thread_block(op) {
            return (Overlap::Disjoint, System::new());
        }
        let rename = self.other_thread_renaming(theirs, when);
        let renamed = theirs.substitute(&|s| rename(s));
        system.extend(
            when.iter()
                .filter_map(|c| c.substitute(&|s| rename(s)).flatten()),
        );
        let (mine_bounded, theirs_bounded) = (bounded_access(op), bounded_access(their_op));
        if mine_bounded {
            system.extend(in_bounds(mine));
        }
        if theirs_bounded {
            system.extend(in_bounds(&renamed));
        }
        if theirs_bounded && self.runs_in_every_thread(their_op) {
            system.extend(in_bounds(theirs));
        }
        if mine_bounded && self.runs_in_every_thread(op) {
            let rename_mine = self.other_thread_renaming(mine, &[]);
            system.extend(in_bounds(&mine.substitute(&|s| rename_mine(s))));
        }
        let theirs = renamed;
        // Thread ids of the regions and of the constraints (a guard
        // `%tid == 0` on both sides makes the threads equal: no race).
        let mut ids = Vec::new();
        mine.symbols(&mut ids);
        theirs.symbols(&mut ids);
        for c in system.constraints() {
            c.symbols(&mut ids);
        }
        let ids: Vec<usize> = ids
            .into_iter()
            .filter_map(|s| match s {
                Symbol::Value(k) | Symbol::OtherThread(k) if self.is_thread_id(k) => Some(k),
                _ => None,
            })
            .fold(Vec::new(), |mut v, k| {
                if !v.contains(&k) {
                    v.push(k)
                }
                v
            });
        // The kernel's thread-id bounds hold for both threads; they matter
        // only where the comparison names a thread id (else it holds for
        // any two threads, and says so).
        if bounded && !ids.is_empty() {
            for c in self.thread_bounds() {
                let other = c.in_other_thread();
                system.extend(std::iter::once(c));
                system.extend(other);
            }
        }
        if threads == Threads::Any {
            return overlap_with(mine, &theirs, system, &mut self.cache.forms);
        }
        if ids.is_empty() {
            return overlap_with(mine, &theirs, system, &mut self.cache.forms);
        }
        // Two distinct threads differ in at least one dimension, not
        // necessarily one whose id the comparison names: threads (0, 0)
        // and (0, 1) both write `buf[tx]`. Each dimension's "differs" case
        // is checked on its own (a disjunction); a dimension whose size is
        // known to be 1 cannot differ. A dimension with no id in the
        // comparison differs through an id of the function of that
        // dimension (its values show in the witness), or unconstrained.
        let mut cases = ids.clone();
        let mut unnamed = false;
        for d in 0..3 {
            if ids.iter().any(|k| self.thread_id_dimension(*k) == Some(d))
                || !self.dimension_may_differ(op, d)
            {
                continue;
            }
            match self.thread_id_of_dimension(op, d) {
                Some(k) if !cases.contains(&k) => cases.push(k),
                Some(_) => {}
                None => unnamed = true,
            }
        }
        // A row-major thread index `ty * bdx + tx` through a block size
        // the kernel does not state: facts that make it exact (below).
        let rows = self.thread_rows(mine, &theirs, &system);
        system.extend(self.block_size_bounds(&ids, &rows));
        // The ids that rows multiply first (then outer dimensions first: z,
        // y, x): the case of `tx` then takes `ty` equal in `ty * bdx + tx`,
        // and that of `ty` takes `tx` equal in `tx * bdy + ty`. Any order is
        // sound; this one makes rows exact.
        let mut ordered: Vec<(bool, Option<usize>, usize)> = cases
            .iter()
            .map(|&k| {
                (
                    !rows.iter().any(|r| r.id == k),
                    self.thread_id_dimension(k),
                    k,
                )
            })
            .collect();
        ordered.sort_by_key(|(later, d, _)| (*later, std::cmp::Reverse(d.map_or(0, |d| d + 1))));
        let cases: Vec<usize> = ordered.into_iter().map(|(_, _, k)| k).collect();
        for (at, &k) in cases.iter().enumerate() {
            let mine_id = Lin::symbol(Symbol::Value(k));
            let other_id = Lin::symbol(Symbol::OtherThread(k));
            // Lexicographic cases: this one may take the ids of the cases
            // before it equal in both threads (a pair that differs in an
            // earlier one is that case's), which a row of an earlier
            // dimension needs (`ty = ty'`, so `ty * bdx = ty' * bdx`).
            let earlier = &cases[..at];
            for (a, b) in [(&mine_id, &other_id), (&other_id, &mine_id)] {
                let mut distinct = system.clone();
                if let Some(c) = a.offset(1).and_then(|a1| Constraint::le(&a1, b)) {
                    distinct.push(c);
                }
                for &e in earlier {
                    distinct.extend(Constraint::eq(
                        &Lin::symbol(Symbol::Value(e)),
                        &Lin::symbol(Symbol::OtherThread(e)),
                    ));
                }
                for row in &rows {
                    let (p, p_other) = (
                        Lin::symbol(Symbol::Value(row.product)),
                        Lin::symbol(Symbol::OtherThread(row.product)),
                    );
                    if row.id == k {
                        // `ty < ty'`: `ty' * B - ty * B >= B` (B >= 1).
                        let (low, high) = if a == &mine_id {
                            (&p, &p_other)
                        } else {
                            (&p_other, &p)
                        };
                        distinct.extend(
                            low.plus(&row.size, 1)
                                .and_then(|l| Constraint::le(&l, high)),
                        );
                    } else if earlier.contains(&row.id) {
                        distinct.extend(Constraint::eq(&p, &p_other));
                    }
                }
                let (verdict, system) =
                    overlap_with(mine, &theirs, distinct, &mut self.cache.forms);
                if verdict.may() {
                    return (verdict, system);
                }
            }
        }
        if unnamed {
            // The threads differ in a dimension the function names no id
            // of: nothing constrains it.
            return overlap_with(mine, &theirs, system, &mut self.cache.forms);
        }
        (Overlap::Disjoint, system)
    }

    /// The products `(t + d) * (B + e)` of a thread id `t` and a block size
    /// `B` (a `gpu.block_dim`, or a `gpu.launch` body's size argument;
    /// constants `d`, `e >= 0`) that the regions or the constraints of a
    /// comparison name: the row of a row-major thread index `ty * bdx + tx`
    /// (or `(ty + 1) * bdx + tx`, a padded row `ty * (bdx + 1) + tx`, a
    /// column-major `tx * bdy + ty`) in a kernel that states no block size
    /// (the product of two values is not an affine form, so each is a
    /// symbol of its own).
    fn thread_rows(&mut self, mine: &Region, theirs: &Region, system: &System) -> Vec<Row> {
        let mut symbols = Vec::new();
        mine.symbols(&mut symbols);
        theirs.symbols(&mut symbols);
        for c in system.constraints() {
            c.symbols(&mut symbols);
        }
        let mut rows: Vec<Row> = Vec::new();
        for s in symbols {
            let (Symbol::Value(p) | Symbol::OtherThread(p)) = s else {
                continue;
            };
            if rows.iter().any(|r| r.product == p) {
                continue;
            }
            // SAFETY: keys of symbols come from live values of this function.
            let value = unsafe { crate::access::values::value_of(p) };
            let Some(op) = crate::access::values::defining_op(value)
                .filter(|op| apipe_dialect::ops::is(op, "arith.muli"))
            else {
                continue;
            };
            let (Ok(a), Ok(b)) = (op.operand(0), op.operand(1)) else {
                continue;
            };
            for (x, y) in [(a, b), (b, a)] {
                // `x = t + d` of a thread id `t`, `y = B + e` of a block size
                // `B` and a constant `e >= 0`.
                let (fx, fy) = (self.cache.forms.of(x), self.cache.forms.of(y));
                let symbol_plus = |f: &Lin| {
                    Some((
                        f.offset(-f.constant_term())?.as_symbol()?,
                        f.constant_term(),
                    ))
                };
                let (Some((Symbol::Value(t), _)), Some((Symbol::Value(size), e))) =
                    (symbol_plus(&fx), symbol_plus(&fy))
                else {
                    continue;
                };
                // SAFETY: keys of symbols come from live values.
                let size_value = unsafe { crate::access::values::value_of(size) };
                let Some(dimension) = block_size_dimension(size_value) else {
                    continue;
                };
                if e >= 0 && self.is_thread_id(t) {
                    rows.push(Row {
                        product: p,
                        id: t,
                        size: fy,
                        block: Lin::symbol(Symbol::Value(size)),
                        size_dimension: Some(dimension),
                    });
                    break;
                }
            }
        }
        rows
    }

    /// `0 <= t <= B - 1` in both threads, for each thread id `t` of the
    /// comparison (`ids`) and each block size `B` of its dimension that a
    /// row names: what makes `ty * bdx + tx` a different element for
    /// different threads.
    fn block_size_bounds(&mut self, ids: &[usize], rows: &[Row]) -> Vec<Constraint> {
        let mut out = Vec::new();
        for row in rows {
            let Some(e) = row.size_dimension else {
                continue;
            };
            for &k in ids {
                if self.thread_id_dimension(k) != Some(e) {
                    continue;
                }
                for id in [Symbol::Value(k), Symbol::OtherThread(k)] {
                    let id = Lin::symbol(id);
                    out.push(Constraint::NonNeg(id.clone()));
                    out.extend(id.offset(1).and_then(|i1| Constraint::le(&i1, &row.block)));
                }
            }
            out.extend(Constraint::le(&Lin::constant(1), &row.block));
        }
        out
    }

    /// The renaming of the thread-variant symbols of `region` and `when` to
    /// another thread's.
    fn other_thread_renaming(
        &mut self,
        region: &Region,
        when: &[Constraint],
    ) -> impl Fn(Symbol) -> Option<Lin> {
        let mut symbols = Vec::new();
        region.symbols(&mut symbols);
        for c in when {
            c.symbols(&mut symbols);
        }
        let variant: Vec<Symbol> = symbols
            .into_iter()
            .filter(|s| self.is_variant(*s))
            .collect();
        move |s| match s {
            Symbol::Value(k) if variant.contains(&s) => Some(Lin::symbol(Symbol::OtherThread(k))),
            // The other thread's iteration and trip count of a loop whose
            // bounds depend on the thread: two symbols (one for both made
            // `τ <= T - 1` read `-1 >= 0`, and every instance of a loop
            // bounded by the thread id disjoint from every access: the
            // races of a block-stride copy loop went unreported, trial 48
            // F2).
            Symbol::Iteration(l) if variant.contains(&s) => {
                Some(Lin::symbol(Symbol::Fresh(fresh_id(l, 1))))
            }
            Symbol::Trips(l) if variant.contains(&s) => {
                Some(Lin::symbol(Symbol::Fresh(fresh_id(l, 4))))
            }
            _ => None,
        }
    }

    /// The threads to compare an instance with.
    fn threads_for(&self, instance: &Instance) -> Threads {
        match (self.gpu, instance.unsynced) {
            (false, _) => Threads::Same,
            (true, false) => Threads::Any,
            (true, true) => Threads::Other,
        }
    }

    /// What is known of `instance` where the hazard happens (`system`: the
    /// hazard's constraints).
    fn facts(&self, instance: &Instance, system: &System) -> Facts {
        let lower = |x: &Lin| -> Option<i64> {
            x.as_constant()
                .or_else(|| system.range_of(x).and_then(|(lo, _)| lo))
        };
        Facts {
            groups_now: lower(&instance.groups.base),
            groups_at_wait: instance.trace.wait.as_ref().and_then(|w| lower(&w.groups)),
            age: carried_age(
                &instance.copy,
                instance.trace.carried,
                &instance.when,
                system,
            ),
        }
    }

    /// How `mine` (an access at `op`) meets `theirs`, a region of
    /// `instance`, for `threads`; and whether only another thread's access
    /// meets it (the instance is in flight, the same thread's is disjoint).
    /// For any thread, the one comparison renames every thread-variant
    /// symbol (a loop's iteration too); when it may meet, this thread's
    /// instance (its iterations related exactly) and another thread's are
    /// compared each on its own, and the instance meets `mine` only if one
    /// of them does (trial 47 F1: `scf.for %i = %tid to %n step %bdim`
    /// copying `buf[%i]` was a false write-after-write with the same
    /// thread's previous iteration).
    fn meets_instance(
        &mut self,
        op: &OperationRef<'c, 'a>,
        mine: &Region,
        theirs: &Region,
        instance: &Instance<'c, 'a>,
        threads: Threads,
    ) -> ((Overlap, System), bool) {
        let verdict = self.meets(op, mine, theirs, &instance.copy, &instance.when, threads);
        if !verdict.0.may() || instance.unsynced || threads == Threads::Same {
            return (verdict, false);
        }
        if threads == Threads::Other {
            return (verdict, true);
        }
        let same = self.meets(
            op,
            mine,
            theirs,
            &instance.copy,
            &instance.when,
            Threads::Same,
        );
        if same.0.may() {
            return (same, false);
        }
        let other = self.meets(
            op,
            mine,
            theirs,
            &instance.copy,
            &instance.when,
            Threads::Other,
        );
        let only_other = other.0.may();
        (other, only_other)
    }

    /// Values of the thread ids (this thread's, then the other's) under
    /// `system` that give an overlap, as `x = 1 here, x = 0 there`; `None`
    /// if no ids or no values are found.
    fn thread_witness(&mut self, op: &OperationRef<'c, 'a>, system: &System) -> Option<String> {
        let mut symbols = Vec::new();
        for c in system.constraints() {
            c.symbols(&mut symbols);
        }
        let mut mine = Vec::new();
        let mut other = Vec::new();
        for s in symbols {
            match s {
                Symbol::Value(k) if self.is_thread_id(k) => mine.push((s, k)),
                Symbol::OtherThread(k) if self.is_thread_id(k) => other.push((s, k)),
                _ => {}
            }
        }
        if mine.is_empty() && other.is_empty() {
            return None;
        }
        // x, y, z order, whatever the order of the constraints.
        for ids in [&mut mine, &mut other] {
            ids.sort_by_key(|(_, k)| (thread_dimension(*k), *k));
            ids.dedup_by_key(|(_, k)| *k);
        }
        let mut system = system.clone();
        let mut pick = |s: Symbol| -> Option<i64> {
            let x = Lin::symbol(s);
            let (lo, _) = system.range_of(&x)?;
            let lo = lo.unwrap_or(0);
            let v = (lo..lo + 64).find(|v| {
                let mut at = system.clone();
                at.extend(Constraint::eq(&x, &Lin::constant(*v)));
                at.feasible().may()
            })?;
            system.extend(Constraint::eq(&x, &Lin::constant(v)));
            Some(v)
        };
        let mut values = FxHashMap::default();
        let mut side = |ids: &[(Symbol, usize)], values: &mut FxHashMap<Symbol, i64>| {
            let parts: Option<Vec<String>> = ids
                .iter()
                .map(|(s, k)| {
                    let v = pick(*s)?;
                    values.insert(*s, v);
                    Some(format!("{} = {}", thread_dimension(*k), v))
                })
                .collect();
            Some(parts?.join(", "))
        };
        let here = side(&mine, &mut values)?;
        let there = side(&other, &mut values)?;
        // Where the ids shown agree, the threads differ in another
        // dimension (one whose size is not known to be 1).
        let agree = !mine.is_empty()
            && mine.iter().all(|(s, k)| {
                let theirs = values.get(&Symbol::OtherThread(*k));
                theirs.is_some() && theirs == values.get(s)
            });
        let shown: Vec<String> = mine.iter().map(|(_, k)| thread_dimension(*k)).collect();
        let elsewhere: Vec<&str> = ["x", "y", "z"]
            .into_iter()
            .enumerate()
            .filter(|(d, name)| {
                !shown.iter().any(|s| s == name) && self.dimension_may_differ(op, *d)
            })
            .map(|(_, name)| name)
            .collect();
        let there = if agree && !elsewhere.is_empty() {
            format!("{there} and another {}", elsewhere.join(" or "))
        } else {
            there
        };
        Some(match (here.is_empty(), there.is_empty()) {
            (false, false) => format!("this thread has {here}, the other {there}"),
            (false, true) => format!("this thread has {here}"),
            _ => format!("the other thread has {there}"),
        })
    }

    pub(super) fn found(
        &mut self,
        kind: HazardKind,
        role: Role,
        op: &OperationRef<'c, 'a>,
        instance: &Instance<'c, 'a>,
        ((verdict, system), between): ((Overlap, System), bool),
        unknown: bool,
    ) {
        let Overlap::May { alias, .. } = verdict else {
            return;
        };
        // A plain write to one buffer while a copy uses another buffer that
        // may alias it (two arguments) is not reported: every kernel writes
        // an output argument while it copies from an input one. A write
        // through a buffer of unknown origin (`unknown`: an unregistered
        // op's result, a call result the callee does not return from its
        // arguments) is, as a possible hazard, as a read through one is.
        if alias
            && !unknown
            && matches!(
                role,
                Role::Plain(crate::access::AccessKind::Write)
                    | Role::Assumed(crate::access::AccessKind::Write)
            )
        {
            return;
        }
        tracing::debug!(
            ?kind,
            at = %op,
            region = ?instance.dst,
            groups = ?instance.groups,
            when = ?instance.when,
            "hazard"
        );
        let facts = self.facts(instance, &system);
        let threads = between.then(|| {
            self.thread_witness(op, &system)
                .unwrap_or_else(|| "any two threads".to_owned())
        });
        let kind = if between {
            kind.between_threads()
        } else {
            kind
        };
        let hazard = report::instance_hazard(kind, role, *op, instance, alias, facts, threads);
        self.record(hazard);
    }

    /// A read of `region` at `op`: read-after-write against every copy in
    /// flight; in a `gpu.func`, a missing barrier against copies complete
    /// for their thread only.
    pub(super) fn check_read(
        &mut self,
        op: &OperationRef<'c, 'a>,
        region: &Region,
        role: Role,
        state: &State<'c, 'a>,
    ) {
        for instance in &state.instances {
            let threads = self.threads_for(instance);
            let verdict = self.meets_instance(op, region, &instance.dst, instance, threads);
            let kind = if instance.unsynced {
                HazardKind::MissingBarrierBeforeRead
            } else {
                HazardKind::ReadAfterWrite
            };
            self.found(kind, role, op, instance, verdict, false);
        }
    }

    /// A write of `region` at `op`: write-after-read against the sources and
    /// write-after-write against the destinations of the copies in flight;
    /// in a `gpu.func`, a missing barrier against copies complete for their
    /// thread only. `source`: the source of the copy that writes; a copy in
    /// flight with the same source and destination writes the same values,
    /// which is no write-after-write. With `own`, a write only the thread's
    /// own copies may meet: the release of its stack memory (`memref.alloca`
    /// in a `gpu.func` is private to the thread; comparing it with any
    /// thread's copy renamed the copy's buffer to the other thread's, and a
    /// copy out of an alloca chosen by `scf.execute_region` or `arith.select`
    /// in flight at `gpu.return` went unreported, trial 31).
    pub(super) fn check_write(
        &mut self,
        op: &OperationRef<'c, 'a>,
        region: &Region,
        role: Role,
        source: Option<&Region>,
        state: &State<'c, 'a>,
        own: bool,
    ) {
        for instance in &state.instances {
            if own && instance.unsynced {
                // Another thread's copy.
                continue;
            }
            // The same values into the same bytes, by the same thread: no
            // hazard. Another thread's copy of them is still a race (its
            // regions differ where they depend on the thread id, and two
            // copies in flight into the same bytes race in any case).
            let same_values = source.is_some_and(|s| *s == instance.src && *region == instance.dst);
            let threads = if own {
                Threads::Same
            } else {
                self.threads_for(instance)
            };
            let threads = match (threads, same_values) {
                (Threads::Same, true) => continue,
                (Threads::Any, true) if self.same_values_in_every_thread(&instance.src, region) => {
                    continue
                }
                (Threads::Any, true) => Threads::Other,
                (threads, _) => threads,
            };
            let (src_kind, dst_kind) = if instance.unsynced {
                (
                    HazardKind::MissingBarrierBeforeWrite,
                    HazardKind::MissingBarrierBeforeWrite,
                )
            } else {
                (HazardKind::WriteAfterRead, HazardKind::WriteAfterWrite)
            };
            let unknown = crate::access::region::unknown_origin(&region.root);
            let verdict = self.meets_instance(op, region, &instance.dst, instance, threads);
            if verdict.0 .0.may() {
                self.found(dst_kind, role, op, instance, verdict, unknown);
                continue;
            }
            let verdict = self.meets_instance(op, region, &instance.src, instance, threads);
            self.found(src_kind, role, op, instance, verdict, unknown);
        }
    }

    /// A copy into `region` at `op` (in a `gpu.func`) against the reads of
    /// other threads with no barrier since.
    pub(super) fn check_reads_since_barrier(
        &mut self,
        op: &OperationRef<'c, 'a>,
        region: &Region,
        state: &State<'c, 'a>,
    ) {
        for read in state.reads.iter().filter(|r| !r.write) {
            let (verdict, system) = self.meets(
                op,
                region,
                &read.region,
                &read.op,
                &read.when,
                Threads::Other,
            );
            if verdict.may() {
                let age = carried_age(&read.op, read.carried, &read.when, &system);
                let hazard = report::read_hazard(*op, read, age);
                self.record(hazard);
            }
        }
    }

    /// A copy at `op` from `src` into `dst` (in a `gpu.func`) against the
    /// plain writes of other threads into workgroup memory with no barrier
    /// since: its destination (write-after-write) and its source
    /// (read-after-write), both races between threads.
    pub(super) fn check_writes_since_barrier(
        &mut self,
        op: &OperationRef<'c, 'a>,
        src: &Region,
        dst: &Region,
        state: &State<'c, 'a>,
    ) {
        for write in state.reads.iter().filter(|r| r.write) {
            for (region, role) in [(dst, Role::CopyDestination), (src, Role::CopySource)] {
                let (verdict, system) = self.meets(
                    op,
                    region,
                    &write.region,
                    &write.op,
                    &write.when,
                    Threads::Other,
                );
                // Two buffers that may alias are no proof of a race (a
                // kernel writes one argument while it copies another).
                if !matches!(verdict, Overlap::May { alias: false, .. }) {
                    continue;
                }
                let age = carried_age(&write.op, write.carried, &write.when, &system);
                let threads = self
                    .thread_witness(op, &system)
                    .unwrap_or_else(|| "any two threads".to_owned());
                let hazard = report::write_hazard(*op, role, write, age, threads);
                self.record(hazard);
                break;
            }
        }
    }

    /// A plain access of workgroup memory at `op` (in a `gpu.func`) against
    /// the plain accesses of other threads to workgroup memory with no
    /// barrier since: a read of bytes another thread wrote
    /// (read-after-write), a write of bytes another thread read
    /// (write-after-read) or wrote (write-after-write), each a race between
    /// threads that only a `gpu.barrier` between them orders (the shared
    /// scratch buffer of a pipelined loop, its barrier removed). Global
    /// memory is not compared (two blocks' threads are not ordered by a
    /// barrier either; `apipe-run` compares them).
    pub(super) fn check_plain_since_barrier(
        &mut self,
        op: &OperationRef<'c, 'a>,
        region: &Region,
        write: bool,
        state: &State<'c, 'a>,
    ) {
        if !workgroup(&region.root) {
            return;
        }
        for other in state.reads.iter().filter(|r| r.write || write) {
            if !workgroup(&other.region.root) {
                continue;
            }
            // Atomic updates are atomic with respect to each other (PTX
            // `atom` on shared memory, every thread of the CTA).
            if atomic(op) && atomic(&other.op) {
                continue;
            }
            let (verdict, system) = self.meets(
                op,
                region,
                &other.region,
                &other.op,
                &other.when,
                Threads::Other,
            );
            if !matches!(verdict, Overlap::May { alias: false, .. }) {
                continue;
            }
            let age = carried_age(&other.op, other.carried, &other.when, &system);
            // A witness only where both sides' elements are known (any
            // two threads meet in a whole buffer).
            let threads = if region.dims.is_none() || other.region.dims.is_none() {
                None
            } else {
                self.thread_witness(op, &system)
            }
            .unwrap_or_else(|| "any two threads".to_owned());
            let hazard = report::plain_race_hazard(*op, write, other, age, threads);
            self.record(hazard);
            break;
        }
    }

    /// A copy at `op` from `src` into `dst` (in a `gpu.func`) against the
    /// same copy issued by another thread at the same point: every thread
    /// runs it, and copies of different threads in flight are never
    /// ordered (a wait completes the waiting thread's copies only, and a
    /// barrier orders only what is complete). Their destinations must be
    /// disjoint (else write-after-write), and this one's source disjoint
    /// from theirs (else read-after-write).
    pub(super) fn check_same_copy_other_threads(
        &mut self,
        op: &OperationRef<'c, 'a>,
        src: &Region,
        dst: &Region,
        when: &[Constraint],
    ) {
        let benign = self.same_values_in_every_thread(src, dst);
        for (mine, role, kind) in [
            (dst, Role::CopyDestination, HazardKind::WriteAfterWrite),
            (src, Role::CopySource, HazardKind::ReadAfterWrite),
        ] {
            if benign && matches!(role, Role::CopyDestination) {
                continue;
            }
            let (verdict, system) = self.meets(op, mine, dst, op, when, Threads::Other);
            let Overlap::May { alias, .. } = verdict else {
                continue;
            };
            if alias {
                continue;
            }
            let threads = self
                .thread_witness(op, &system)
                .unwrap_or_else(|| "any two threads".to_owned());
            let hazard = report::same_copy_hazard(*op, kind.between_threads(), role, threads);
            self.record(hazard);
            return;
        }
    }

    /// True if every thread that runs a copy from `src` into `dst` writes
    /// the same values into the bytes they share: both regions are the
    /// same in every thread, or, dimension by dimension, the source starts
    /// at the same distance from the destination in every thread (equal
    /// extents). Two threads copying `A[off .. off + 4]` into `tile[0 .. 4]`
    /// (a tile every thread loads, as the pipeliner emits for a copy that
    /// does not depend on the thread) write equal bytes: no hazard, the
    /// content is the same whichever lands last. `A[tid]` into `buf[0]` is
    /// a race.
    pub(super) fn same_values_in_every_thread(&mut self, src: &Region, dst: &Region) -> bool {
        use crate::access::Dim;
        let mut symbols = Vec::new();
        src.symbols(&mut symbols);
        dst.symbols(&mut symbols);
        // An unfollowed view may be anywhere in each thread.
        let followed = |r: &Region| {
            r.dims
                .as_ref()
                .is_some_and(|dims| dims.iter().all(|d| matches!(d, Dim::Range { .. })))
        };
        if !followed(src) || !followed(dst) {
            return false;
        }
        // The same buffers in every thread: a source (or destination)
        // chosen per thread (`arith.select` or `scf.if` of two views on
        // the thread id) is not, whatever the offsets (trial 9, finding 5).
        if !self.same_root_in_every_thread(&src.root) || !self.same_root_in_every_thread(&dst.root)
        {
            return false;
        }
        let mut invariant = |x: &[Symbol]| !x.iter().any(|s| self.is_variant(*s));
        if invariant(&symbols) {
            return true;
        }
        let (Some(a), Some(b)) = (&src.dims, &dst.dims) else {
            return false;
        };
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| match (x, y) {
                (
                    Dim::Range {
                        start: s1,
                        extent: e1,
                    },
                    Dim::Range {
                        start: s2,
                        extent: e2,
                    },
                ) => {
                    e1 == e2
                        && s1.plus(s2, -1).is_some_and(|d| {
                            let mut symbols = Vec::new();
                            d.symbols(&mut symbols);
                            invariant(&symbols)
                        })
                }
                _ => false,
            })
    }

    /// True if `root` is the same buffer in every thread: an allocation,
    /// an argument or a global; a choice whose conditions and buffers are;
    /// another root (a loaded memref, a call result) if its value does not
    /// depend on the thread.
    fn same_root_in_every_thread(&mut self, root: &Root) -> bool {
        use crate::access::RootKind;
        match &root.kind {
            RootKind::Fresh | RootKind::Argument { .. } | RootKind::Global(_) => true,
            RootKind::Choice(alternatives) => alternatives.iter().all(|a| {
                let mut symbols = Vec::new();
                for c in &a.when {
                    c.symbols(&mut symbols);
                }
                !symbols.iter().any(|s| self.is_variant(*s))
                    && self.same_root_in_every_thread(&a.region.root)
            }),
            RootKind::Other => !self.is_variant(root.symbol),
        }
    }

    /// True if other threads may access `root` (not a thread's own
    /// allocation).
    pub(super) fn shared(&self, root: &Root) -> bool {
        use crate::access::RootKind;
        match &root.kind {
            RootKind::Fresh => workgroup(root),
            RootKind::Choice(alternatives) => {
                alternatives.iter().any(|a| self.shared(&a.region.root))
            }
            _ => true,
        }
    }
}

/// True if `region` is exactly what the `llvm.load` / `llvm.store` /
/// `llvm.atomicrmw` / `llvm.cmpxchg` `op` touches: its elements at the pointer's offset from a buffer's address
/// ([`crate::access::region::pointer_element_region`]), not the whole
/// buffer.
pub(super) fn exact_pointer_access(op: &OperationRef, region: &Region) -> bool {
    matches!(
        apipe_dialect::ops::name(op),
        "llvm.load" | "llvm.store" | "llvm.atomicrmw" | "llvm.cmpxchg"
    ) && region.dims.as_ref().is_some_and(|dims| {
        dims.iter()
            .all(|d| matches!(d, crate::access::region::Dim::Range { .. }))
    })
}

/// True if `op` frees the workgroup buffer of `region`: the block's
/// workgroup memory lives as long as the block (a `memref.dealloc` of it
/// does nothing; apipe-run erases it), so the free is no access between
/// threads (every thread of bufferized code frees the buffer it shares).
pub(super) fn frees_workgroup(op: &OperationRef, region: &Region) -> bool {
    apipe_dialect::ops::is(op, "memref.dealloc") && workgroup(&region.root)
}

/// True if `root` is workgroup (shared) memory.
/// A product `(t + d) * (B + e)` of a thread id and a block size
/// ([`Analysis::thread_rows`]).
struct Row {
    /// The `arith.muli` result (key).
    product: usize,
    /// The thread id `t` (key).
    id: usize,
    /// The factor `B + e` (`e >= 0`).
    size: Lin,
    /// The block size `B`.
    block: Lin,
    /// The dimension `B` is the size of.
    size_dimension: Option<usize>,
}

/// The dimension (0, 1, 2) whose block size `value` is: a `gpu.block_dim`,
/// or the size argument of a `gpu.launch` body (its arguments 9 to 11).
fn block_size_dimension(value: melior::ir::Value) -> Option<usize> {
    use crate::access::values::{block_argument, defining_op, gpu_dimension};
    use melior::ir::BlockLike as _;
    if let Some(op) = defining_op(value) {
        return apipe_dialect::ops::is(&op, "gpu.block_dim")
            .then(|| gpu_dimension(&op))
            .flatten();
    }
    let (block, n) = block_argument(value)?;
    let launch = block.parent_operation()?;
    (apipe_dialect::ops::is(&launch, "gpu.launch") && (9..12).contains(&n)).then(|| n - 9)
}

/// True for an atomic read-modify-write (`memref.atomic_rmw`,
/// `memref.generic_atomic_rmw`, `llvm.atomicrmw`, `llvm.cmpxchg`): it races with other threads' plain
/// accesses, never with their atomic ones (as `apipe-run --racecheck`).
pub(super) fn atomic(op: &OperationRef) -> bool {
    matches!(
        apipe_dialect::ops::name(op),
        "memref.atomic_rmw" | "memref.generic_atomic_rmw" | "llvm.atomicrmw" | "llvm.cmpxchg"
    )
}

/// True if the region of an access of `op` to `value` is exactly the
/// elements it touches, not a hull of them: an op that touches every
/// element of its region (`memref.load` / `store`, `vector.load` / `store`,
/// the atomic updates, `memref.copy`, `linalg.fill`), on a view chain of
/// unit-stride `memref.subview`s and `memref.cast`s from its buffer. A
/// masked, gathered or scattered vector access, a `transfer_read` /
/// `transfer_write` (masked or padded lanes), or a strided view (`buf[t::2]`)
/// has a region that is a hull of what it touches: two threads' hulls may
/// meet where their elements interleave.
pub(super) fn exact_region(op: &OperationRef, value: Option<melior::ir::Value>) -> bool {
    use crate::access::values::{defining_op, dense_i64};
    let dense_op = matches!(
        apipe_dialect::ops::name(op),
        "memref.load"
            | "memref.store"
            | "vector.load"
            | "vector.store"
            | "memref.atomic_rmw"
            | "memref.generic_atomic_rmw"
            | "memref.copy"
            | "linalg.fill"
    );
    let Some(mut value) = value.filter(|_| dense_op) else {
        return false;
    };
    // The chain is as long as the IR's views; bounded for safety.
    for _ in 0..256 {
        let Some(def) = defining_op(value) else {
            // A block argument: a function argument or a workgroup
            // attribution, the buffer itself.
            return true;
        };
        match apipe_dialect::ops::name(&def) {
            "memref.subview" => {
                if !dense_i64(&def, "static_strides").is_some_and(|s| s.iter().all(|x| *x == 1)) {
                    return false;
                }
            }
            "memref.cast" => {}
            "memref.alloc" | "memref.alloca" | "memref.get_global" => return true,
            _ => return false,
        }
        let Ok(source) = def.operand(0) else {
            return false;
        };
        value = source;
    }
    false
}

pub(super) fn workgroup(root: &Root) -> bool {
    &*root.space == "3"
}

/// The dimension of the thread id `k` (`x`, `y` or `z`), for messages.
fn thread_dimension(k: usize) -> String {
    use crate::access::values::{block_argument, defining_op, value_of};
    // SAFETY: keys of symbols come from live values of this function.
    let value = unsafe { value_of(k) };
    if let Some(op) = defining_op(value) {
        let text = op
            .attribute("dimension")
            .map(|a| a.to_string())
            .unwrap_or_default();
        for d in ["x", "y", "z"] {
            if text.contains(&format!(" {d}>")) || text.ends_with(&format!("{d}>")) {
                return d.to_owned();
            }
        }
        return "id".to_owned();
    }
    match block_argument(value) {
        Some((_, n)) if (3..6).contains(&n) => ["x", "y", "z"][n - 3].to_owned(),
        _ => "id".to_owned(),
    }
}

/// Iterations of the loop `l` since an access issued in its body: `k` of
/// its constraint `τ_L - k >= 0` (its issue iteration exists), the newest if
/// several.
pub(super) fn age(when: &[Constraint], l: &OperationRef) -> Option<i64> {
    let tau = Lin::symbol(Symbol::Iteration(super::state::key(l)));
    when.iter()
        .filter_map(|c| match c {
            Constraint::NonNeg(x) if x.offset(-x.constant_term()).as_ref() == Some(&tau) => {
                Some(-x.constant_term())
            }
            _ => None,
        })
        .filter(|k| *k >= 0)
        .min()
}

/// Iterations of the loop `carried` (which carries an access by `op` under
/// `when` across its back edge) since the access, where the hazard's
/// constraints `system` hold: [`age`], else [`summary_age`]. `None` when
/// `op` is outside the loop: an access made before the loop was issued in
/// no iteration of it (a copy before the loop, still unsynced in every
/// iteration, is no copy "earlier in this iteration").
fn carried_age(
    op: &OperationRef,
    carried: Option<OperationRef>,
    when: &[Constraint],
    system: &System,
) -> Option<i64> {
    let l = carried.filter(|l| apipe_dialect::ops::is_inside(op, l))?;
    age(when, &l).or_else(|| summary_age(when, system, &l))
}

/// Iterations of the loop `l` since an access summarized as issued in
/// some earlier iteration `σ <= τ_L - 1` (the widening of the walk): the
/// least `τ_L - σ` in `1..=16` under the hazard's constraints `system`
/// (`None`: larger, or not a summary).
pub(super) fn summary_age(when: &[Constraint], system: &System, l: &OperationRef) -> Option<i64> {
    let key = super::state::key(l);
    let sigma = Symbol::Fresh(fresh_id(key, 3));
    if !when.iter().any(|c| c.mentions(sigma)) {
        return None;
    }
    let distance = Lin::symbol(Symbol::Iteration(key)).plus(&Lin::symbol(sigma), -1)?;
    (1..=16).find(|k| {
        let mut at = system.clone();
        at.extend(Constraint::eq(&distance, &Lin::constant(*k)));
        at.feasible().may()
    })
}

/// A fresh symbol id for loop `l` and purpose `what`, stable across runs of
/// the analysis (summaries must compare equal between fixed-point rounds).
pub(super) fn fresh_id(l: usize, what: u32) -> u32 {
    ((l >> 3) as u32).wrapping_mul(0x9e37_79b9) ^ what.wrapping_mul(0x85eb_ca6b) | 0x8000_0000
}
