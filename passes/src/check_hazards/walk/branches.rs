//! `scf.if` and `scf.index_switch`: the join of the branches, and the
//! events of branches that threads may take differently (divergence).

use super::*;

impl<'c, 'a> Analysis<'c, 'a> {
    /// Step 4: `scf.if`, `scf.index_switch`, `scf.execute_region`: each
    /// region from the same state, with its condition attached to what it
    /// leaves; the join.
    pub(super) fn branches(&mut self, op: OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
        let entry = std::mem::take(state);
        let mut outs: Vec<State<'c, 'a>> = Vec::new();
        let divergent = self.gpu
            && !ops::is(&op, "scf.execute_region")
            && op
                .operand(0)
                .is_ok_and(|c| self.is_variant(Symbol::Value(crate::access::values::value_key(c))));
        let mut events = Vec::new();
        // Per region, the instances it leaves in flight: their copy op and
        // count (several instances of one copy op, from different
        // iterations, differ in their counts: a wait in one region may
        // complete the older and leave the newer in flight).
        let mut in_flight: Vec<FxHashSet<(usize, Count)>> = Vec::new();
        for (index, region) in op.regions().enumerate() {
            if divergent {
                self.divergent_events.push(Events::default());
            }
            let mut branch = entry.clone();
            // The else region of the guard `n - x <=u c` of a wait on an
            // old count `x` (mbarrier form): group `x` is complete there.
            if index == 1 {
                let guard = self.mbarrier.as_ref().and_then(|f| f.guard_value(&op));
                self.complete_named(&op, &mut branch, guard);
            }
            if let Some(block) = region.first_block() {
                self.block(block, &mut branch);
            }
            // The results name what this region yields (an absent else
            // region yields nothing).
            let passed = names::pairs(names::yielded(&op, index, 0), names::results(&op));
            names::pass_on(&mut branch, &passed, None);
            // What each region leaves in flight, before its condition drops
            // the instances of paths that cannot reach it (an instance
            // dropped so was not completed there).
            in_flight.push(
                branch
                    .instances
                    .iter()
                    // (One that a thread of an inner branch's other region
                    // waited for counts as completed in this region.)
                    .filter(|x| !x.unsynced && !x.waited_elsewhere)
                    .map(|x| (key(&x.copy), x.groups.clone()))
                    .collect(),
            );
            let mut conditions = System::new();
            self.cache
                .forms
                .add_region_constraints(&op, Some(index), &mut conditions);
            branch.constrain_all(conditions.constraints());
            outs.push(branch);
            if divergent {
                events.push(self.divergent_events.pop().unwrap_or_default());
            }
        }
        if divergent {
            self.divergent(&op, &events);
            if let Some(parent) = self.divergent_events.last_mut() {
                for e in events {
                    parent.copies.extend(e.copies);
                    parent.accesses.extend(e.accesses);
                }
            }
        }
        // The branch on which an instance stays in flight while another
        // completes it decides the path (a note in diagnostics).
        // (Sets of copy ops: a branch op with many instances in flight
        // would otherwise compare every pair, per branch op.)
        let count = outs.len();
        let entered: FxHashSet<(usize, Count)> = entry
            .instances
            .iter()
            .map(|x| (key(&x.copy), x.groups.clone()))
            .collect();
        // Another thread's wait on the phase covers this one (below).
        let covered_by_others = divergent
            && self.mbarrier.is_some()
            && op.operand(0).is_ok_and(|c| computed_from_thread_ids(c, 0));
        // The regions some thread runs (trial 53: a wait under `tid >= 16`
        // in a block of 8 covered the reads of every thread).
        let taken: Vec<bool> = (0..count)
            .map(|k| covered_by_others && threads::some_thread_takes(&op, k))
            .collect();
        for (i, out) in outs.iter_mut().enumerate() {
            for instance in &mut out.instances {
                let copy = (key(&instance.copy), instance.groups.clone());
                let completed_elsewhere =
                    (0..count).any(|k| k != i && !in_flight[k].contains(&copy));
                let completed_by_others =
                    (0..count).any(|k| k != i && taken[k] && !in_flight[k].contains(&copy));
                let was_in_flight = entered.contains(&copy);
                if completed_elsewhere && was_in_flight && !instance.unsynced {
                    instance.trace.branch = Some((op, i));
                    // Completed by another thread's wait on the phase: only
                    // if threads do split between the regions. A condition
                    // only taken to vary (a loop's result, a load) may send
                    // every thread the same way, and then no thread ran the
                    // other region's wait (trial 12, finding 1: the empty
                    // guard `scf.if (n - x <=u c) {}` after a loop).
                    if completed_by_others {
                        instance.waited_elsewhere = true;
                    }
                }
            }
        }
        let mut joined = State::default();
        for out in outs {
            joined = joined.join(out);
        }
        *state = joined;
    }

    /// Races between threads that take different regions of the branch op
    /// `op`, whose condition may differ between threads: one region runs
    /// for some threads while another runs for others, so one thread's
    /// accesses in region `i` meet another thread's copies issued in region
    /// `j`, in flight at any moment of region `i` (no wait or barrier of one
    /// region orders the other's). For a single thread the regions are
    /// exclusive, which the join of the branches already follows.
    pub(super) fn divergent(&mut self, op: &OperationRef<'c, 'a>, events: &[Events<'c, 'a>]) {
        use crate::check_hazards::classes::Threads;
        for (i, mine) in events.iter().enumerate() {
            for (j, theirs) in events.iter().enumerate() {
                if i == j {
                    continue;
                }
                self.divergent_plain(mine, theirs, i < j);
                for copy in &theirs.copies {
                    let mut instance = copy.clone();
                    instance.trace.divergent = Some((*op, j));
                    for (at, region, kind, role) in &mine.accesses {
                        let sides: &[(&crate::access::Region, HazardKind)] = match kind {
                            AccessKind::Read => &[(&instance.dst, HazardKind::ReadAfterWrite)],
                            AccessKind::Write => &[
                                (&instance.dst, HazardKind::WriteAfterWrite),
                                (&instance.src, HazardKind::WriteAfterRead),
                            ],
                        };
                        for (theirs, kind) in sides {
                            let verdict = self.meets(
                                at,
                                region,
                                theirs,
                                &instance.copy,
                                &instance.when,
                                Threads::Other,
                            );
                            if verdict.0.may() {
                                self.found(
                                    *kind,
                                    *role,
                                    at,
                                    &instance,
                                    (verdict, true),
                                    crate::access::region::unknown_origin(&region.root),
                                );
                                break;
                            }
                        }
                    }
                }
            }
        }
    }

    /// Plain accesses of workgroup memory in two regions of a branch op
    /// that threads may split between (`mine`, `theirs`): the threads of
    /// each region run at the same time as the others', with no barrier
    /// between them. A read in `mine` is compared with the writes in
    /// `theirs` (read-after-write, at the read); a write with the writes
    /// (write-after-write, once per pair of regions: `first`). A write
    /// against a read is the read's pair from the other side.
    pub(super) fn divergent_plain(
        &mut self,
        mine: &Events<'c, 'a>,
        theirs: &Events<'c, 'a>,
        first: bool,
    ) {
        let mut writes = Vec::new();
        for (at, region, kind, role) in &theirs.accesses {
            if *kind == AccessKind::Write && self.followed_plain(at, region, role) {
                writes.push(Read {
                    op: *at,
                    write: true,
                    region: region.clone(),
                    when: self.context(at).constraints().to_vec(),
                    carried: None,
                });
            }
        }
        if writes.is_empty() {
            return;
        }
        let writes = State {
            instances: Vec::new(),
            reads: writes,
        };
        for (at, region, kind, role) in &mine.accesses {
            let write = *kind == AccessKind::Write;
            if (write && !first) || !self.followed_plain(at, region, role) {
                continue;
            }
            self.check_plain_since_barrier(at, region, write, &writes);
        }
    }

    /// True if `region` is a plain access of `at` that other threads'
    /// accesses are compared with (as [`Analysis::plain`] compares them):
    /// not warp-collective (which reads the other threads' elements by
    /// design) or asynchronous; also one whose elements are not known (a
    /// hull, a whole buffer, an op without memory-effect information, all
    /// memory: trial 66, a thread's `linalg.fill` of a workgroup buffer in
    /// one arm of a branch on the thread id, read by the threads of the
    /// other arm, was silent). The two sides are different ops, so a hull
    /// does not meet itself here.
    pub(super) fn followed_plain(
        &mut self,
        at: &OperationRef<'c, 'a>,
        region: &crate::access::Region,
        role: &Role,
    ) -> bool {
        matches!(role, Role::Plain(_) | Role::Assumed(_))
            && !crate::check_hazards::classes::frees_workgroup(at, region)
            && !self
                .cache
                .of(at)
                .accesses
                .iter()
                .any(|a| a.region == *region && (a.collective || a.asynchronous))
    }

    /// The symbols of `state` defined inside `op`, mapped to their stale
    /// versions (a back edge of `op`, or leaving it).
    pub(super) fn stale_map(
        &mut self,
        op: &OperationRef<'c, 'a>,
        state: &State<'c, 'a>,
    ) -> FxHashMap<Symbol, Lin> {
        let mut symbols = Vec::new();
        for i in &state.instances {
            i.src.symbols(&mut symbols);
            i.dst.symbols(&mut symbols);
            symbols.push(i.src.root.symbol);
            symbols.push(i.dst.root.symbol);
            i.groups.base.symbols(&mut symbols);
            for c in &i.when {
                c.symbols(&mut symbols);
            }
        }
        for r in &state.reads {
            r.region.symbols(&mut symbols);
            symbols.push(r.region.root.symbol);
            for c in &r.when {
                c.symbols(&mut symbols);
            }
        }
        let mut map = FxHashMap::default();
        for s in symbols {
            match s {
                Symbol::Value(k) if defined_inside(k, op) && !self.invariant_in(k, op, 0) => {
                    map.insert(s, Lin::symbol(Symbol::Stale(k)));
                }
                // An inner loop's trip count and iteration: unknown, and
                // not the same symbol (`τ <= T - 1` must stay feasible).
                Symbol::Trips(l) if l != key(op) && loop_inside(l, op) => {
                    map.insert(s, Lin::symbol(Symbol::Counter(fresh_id(l, 2))));
                }
                Symbol::Iteration(l) if l != key(op) && loop_inside(l, op) => {
                    map.insert(s, Lin::symbol(Symbol::Counter(fresh_id(l, 5))));
                }
                _ => {}
            }
        }
        map
    }
}
