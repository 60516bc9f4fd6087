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
//! since, matter only for other threads: the comparison also requires one
//! thread id to differ (`tid' >= tid + 1` or `tid' <= tid - 1`).

use super::{
    report::{self, Facts, HazardKind, Role},
    state::{Instance, State},
    walk::Analysis,
};
use crate::access::{overlap_with, region::Root, Constraint, Lin, Overlap, Region, Symbol, System};
use melior::ir::OperationRef;

/// Which threads the other side of a comparison may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Threads {
    /// The executing thread only (outside a `gpu.func`).
    Same,
    /// Any thread, this one included.
    Any,
    /// Any other thread.
    Other,
}

impl<'c, 'a> Analysis<'c, 'a> {
    /// How `mine` (an access at `op`) may meet `theirs` (an instance or a
    /// read under `when`), for `threads`.
    pub(super) fn meets(
        &mut self,
        op: &OperationRef<'c, 'a>,
        mine: &Region,
        theirs: &Region,
        when: &[Constraint],
        threads: Threads,
    ) -> (Overlap, System) {
        let mut system = self.context(op);
        if threads == Threads::Same {
            system.extend(when.iter().cloned());
            return overlap_with(mine, theirs, system, &mut self.forms);
        }
        let rename = self.other_thread_renaming(theirs, when);
        let theirs = theirs.substitute(&|s| rename(s));
        system.extend(
            when.iter()
                .filter_map(|c| c.substitute(&|s| rename(s)).flatten()),
        );
        if threads == Threads::Any {
            return overlap_with(mine, &theirs, system, &mut self.forms);
        }
        let mut ids = Vec::new();
        mine.symbols(&mut ids);
        theirs.symbols(&mut ids);
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
        if ids.is_empty() {
            return overlap_with(mine, &theirs, system, &mut self.forms);
        }
        for k in ids {
            let mine_id = Lin::symbol(Symbol::Value(k));
            let other_id = Lin::symbol(Symbol::OtherThread(k));
            for (a, b) in [(&mine_id, &other_id), (&other_id, &mine_id)] {
                let mut distinct = system.clone();
                if let Some(c) = a.offset(1).and_then(|a1| Constraint::le(&a1, b)) {
                    distinct.push(c);
                }
                let (verdict, system) = overlap_with(mine, &theirs, distinct, &mut self.forms);
                if verdict.may() {
                    return (verdict, system);
                }
            }
        }
        (Overlap::Disjoint, system)
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
            Symbol::Iteration(l) | Symbol::Trips(l) if variant.contains(&s) => {
                Some(Lin::symbol(Symbol::Fresh(fresh_id(l, 1))))
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
            age: instance.trace.carried.and_then(|l| {
                age(&instance.when, &l).or_else(|| summary_age(&instance.when, system, &l))
            }),
        }
    }

    fn found(
        &mut self,
        kind: HazardKind,
        role: Role,
        op: &OperationRef<'c, 'a>,
        instance: &Instance<'c, 'a>,
        (verdict, system): (Overlap, System),
    ) {
        let Overlap::May { alias, .. } = verdict else {
            return;
        };
        // A plain write to one buffer while a copy uses another buffer that
        // may alias it (two arguments) is not reported: every kernel writes
        // an output argument while it copies from an input one.
        if alias
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
        let hazard = report::instance_hazard(kind, role, *op, instance, alias, facts);
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
            let verdict = self.meets(op, region, &instance.dst, &instance.when, threads);
            let kind = if instance.unsynced {
                HazardKind::MissingBarrierBeforeRead
            } else {
                HazardKind::ReadAfterWrite
            };
            self.found(kind, role, op, instance, verdict);
        }
    }

    /// A write of `region` at `op`: write-after-read against the sources and
    /// write-after-write against the destinations of the copies in flight;
    /// in a `gpu.func`, a missing barrier against copies complete for their
    /// thread only. `source`: the source of the copy that writes; a copy in
    /// flight with the same source and destination writes the same values,
    /// which is no write-after-write.
    pub(super) fn check_write(
        &mut self,
        op: &OperationRef<'c, 'a>,
        region: &Region,
        role: Role,
        source: Option<&Region>,
        state: &State<'c, 'a>,
    ) {
        for instance in &state.instances {
            if source.is_some_and(|s| *s == instance.src && *region == instance.dst) {
                continue;
            }
            let threads = self.threads_for(instance);
            let (src_kind, dst_kind) = if instance.unsynced {
                (
                    HazardKind::MissingBarrierBeforeWrite,
                    HazardKind::MissingBarrierBeforeWrite,
                )
            } else {
                (HazardKind::WriteAfterRead, HazardKind::WriteAfterWrite)
            };
            let verdict = self.meets(op, region, &instance.dst, &instance.when, threads);
            if verdict.0.may() {
                self.found(dst_kind, role, op, instance, verdict);
                continue;
            }
            let verdict = self.meets(op, region, &instance.src, &instance.when, threads);
            self.found(src_kind, role, op, instance, verdict);
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
        for read in &state.reads {
            let (verdict, system) =
                self.meets(op, region, &read.region, &read.when, Threads::Other);
            if verdict.may() {
                let age = read.carried.and_then(|l| {
                    age(&read.when, &l).or_else(|| summary_age(&read.when, &system, &l))
                });
                let hazard = report::read_hazard(*op, read, age);
                self.record(hazard);
            }
        }
    }

    /// True if other threads may access `root` (not a thread's own
    /// allocation).
    pub(super) fn shared(&self, root: &Root) -> bool {
        use crate::access::RootKind;
        match root.kind {
            RootKind::Fresh => root.space.contains("workgroup") || root.space == "3",
            _ => true,
        }
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
