//! `scf.for` and `scf.while`: the fixed point over the back edge, widening
//! of carried instances and reads, and the work budget per loop nest.

use super::*;

impl<'c, 'a> Analysis<'c, 'a> {
    /// True if the value `k`, defined inside the op `l` (a loop), is the
    /// same in every iteration of `l`: the result of an op of `arith`,
    /// `index` or `affine.apply` / `min` / `max` (pure, without regions)
    /// whose operands are each defined outside `l` or invariant in `l`.
    /// Such a value keeps its symbol across `l`'s back edge instead of
    /// going stale: the trip-count switch and guards that the pipeliner
    /// emits inside an outer loop's body are computed from the outer
    /// loop's invariants, and a branch taken in one iteration is then
    /// taken in every one (a copy in one case of the switch is not in
    /// flight when the next iteration enters another case).
    pub(super) fn invariant_in(
        &mut self,
        k: usize,
        l: &OperationRef<'c, 'a>,
        depth: usize,
    ) -> bool {
        if let Some(known) = self.invariant.get(&(k, key(l))) {
            return *known;
        }
        // SAFETY: symbol keys are made from live values of the function.
        let value = unsafe { value_of(k) };
        let answer = depth < 32
            && defining_op(value).is_some_and(|op| {
                let name = ops::name(&op);
                let pure = name.starts_with("arith.")
                    || name.starts_with("index.")
                    || matches!(name, "affine.apply" | "affine.min" | "affine.max");
                pure && op.region_count() == 0
                    && (0..op.operand_count()).all(|i| {
                        let operand = op.operand(i).unwrap();
                        let k = crate::access::values::value_key(operand);
                        !defined_inside(k, l) || self.invariant_in(k, l, depth + 1)
                    })
            });
        self.invariant.insert((k, key(l)), answer);
        answer
    }

    /// The back edge of the loop `l`: the state as the next iteration sees
    /// it (`τ -> τ - 1`, values of the body stale).
    pub(super) fn back_edge(
        &mut self,
        l: &OperationRef<'c, 'a>,
        state: &mut State<'c, 'a>,
        iterates: bool,
    ) {
        // The iter_args (`scf.while`: the `before` arguments) name what
        // the body yields.
        let (region, skip) = if ops::is(l, "scf.while") {
            (1, 0)
        } else {
            (0, 1)
        };
        let passed = names::pairs(names::yielded(l, region, 0), names::arguments(l, 0, skip));
        names::pass_on(state, &passed, Some(l));
        let mut map = self.stale_map(l, state);
        let renamed: Vec<(Symbol, Symbol)> = map
            .iter()
            .filter_map(|(s, to)| to.as_symbol().map(|t| (*s, t)))
            .collect();
        let forms = &mut self.cache.forms;
        state.forget_collisions(&renamed, &mut |system, symbols| {
            forms.add_facts_of(system, symbols)
        });
        if iterates {
            let tau = Symbol::Iteration(key(l));
            map.insert(tau, Lin::symbol(tau).offset(-1).unwrap());
        }
        state.map(&|s| map.get(&s).cloned());
        if !iterates && ops::is(l, "scf.for") {
            increasing_variable(l, state);
        }
        state.carried_by(*l);
    }

    /// Widening of a loop's header `next` against the previous `header`
    /// (module doc, step 5): constraints and counts that moved are dropped;
    /// an instance or read issued `k` iterations back whose region is new is
    /// summarized as issued in some earlier iteration `σ <= τ - 1` (its
    /// forms in `σ`, so all ages become one summary); any other new one
    /// forgets the iteration (what depends on `τ` becomes unknown); after
    /// [`GIVE_UP_AFTER`] more rounds, regions become whole buffers.
    pub(super) fn widen(
        &mut self,
        l: &OperationRef<'c, 'a>,
        header: &State<'c, 'a>,
        next: &mut State<'c, 'a>,
        give_up: bool,
    ) {
        let summary = Earlier::of(l);
        let tau = summary.tau;
        let instances = std::mem::take(&mut next.instances);
        for mut instance in instances {
            match header.instances.iter().find(|h| h.same_copy(&instance)) {
                Some(old) => {
                    // Keep the constraints of the header that still hold.
                    let mut when = crate::check_hazards::state::hull(&old.when, &instance.when);
                    when.retain(|c| old.when.contains(c));
                    instance.when = when;
                    // Names only shrink from round to round (the fixed
                    // point converges).
                    instance.named_by.retain(|v| old.named_by.contains(v));
                    instance
                        .named_numbers
                        .retain(|v| old.named_numbers.contains(v));
                    if instance.groups != old.groups && !instance.unsynced {
                        instance.groups.slack = None;
                    }
                }
                None => {
                    match summary.issued_in(&instance.when, l) {
                        Some(at) if !instance.groups.base.mentions(tau) => {
                            instance.map(&|s| (s == tau).then(|| at.clone()));
                            instance.constrain(summary.constraint.clone());
                        }
                        _ => {
                            summary.forget_dims(&mut instance.src);
                            summary.forget_dims(&mut instance.dst);
                            instance.when.retain(|c| !c.mentions(tau));
                            if !instance.unsynced && instance.groups.base.mentions(tau) {
                                instance.groups.base = Lin::constant(0);
                            }
                        }
                    }
                    if !instance.unsynced {
                        instance.groups.slack = None;
                    }
                }
            }
            if give_up {
                instance.src.dims = None;
                instance.dst.dims = None;
                instance.when.clear();
                if !instance.unsynced {
                    instance.groups = Count {
                        base: Lin::constant(0),
                        slack: None,
                    };
                }
                instance.closer = None;
            }
            next.add(instance);
        }
        self.widen_reads(l, &summary, header, next, give_up);
    }

    /// The reads part of [`Self::widen`]: a read in `next` that the header
    /// holds keeps the header's constraints that still hold; a new one
    /// issued `k` iterations back becomes the summary "issued in some
    /// iteration `σ <= τ - 1`"; any other forgets the iteration.
    ///
    /// In a loop with no `gpu.barrier` it runs from the first round: no
    /// barrier clears a read there, so the reads of every earlier iteration
    /// are pending at the header, which is exactly the summary (nothing is
    /// lost), and the fixed point is reached in two rounds instead of
    /// [`WIDEN_AFTER`]; loops nested `d` deep otherwise cost
    /// `WIDEN_AFTER^d` passes over the innermost body. In a loop with a
    /// barrier it runs from the second round: a read the header already
    /// holds keeps its constraints, so a loop whose every path clears its
    /// reads is exact as before, and only reads that cross the back edge
    /// again (a path without a barrier, such as the empty case of a
    /// pipelined kernel's `scf.index_switch` under an outer loop) become the
    /// summary at once instead of after [`Analysis::widen_after`] rounds
    /// (which spent the work budget and widened everything).
    pub(super) fn widen_reads(
        &mut self,
        l: &OperationRef<'c, 'a>,
        summary: &Earlier,
        header: &State<'c, 'a>,
        next: &mut State<'c, 'a>,
        give_up: bool,
    ) {
        let tau = summary.tau;
        let reads = std::mem::take(&mut next.reads);
        for mut read in reads {
            match header
                .reads
                .iter()
                .find(|h| h.op == read.op && h.write == read.write && h.region == read.region)
            {
                Some(old) => {
                    let mut when = crate::check_hazards::state::hull(&old.when, &read.when);
                    when.retain(|c| old.when.contains(c));
                    read.when = when;
                }
                None => match summary.issued_in(&read.when, l) {
                    Some(at) => {
                        read.map(&|s| (s == tau).then(|| at.clone()));
                        let mut when = std::mem::take(&mut read.when);
                        when.extend(summary.constraint.clone());
                        read.when = when;
                    }
                    None => {
                        summary.forget_dims(&mut read.region);
                        read.when.retain(|c| !c.mentions(tau));
                    }
                },
            }
            if give_up {
                read.region.dims = None;
                read.when.clear();
            }
            next.add_read(read);
        }
    }

    /// The rounds of the fixed point of the loop `l` ([`Rounds`]): a loop
    /// that issues no copy and closes no group (no `apipe.copy`,
    /// `apipe.commit_group`, `apipe.mbarrier_arrive_copies` inside) carries
    /// no new instance from iteration to iteration, so [`WIDEN_AFTER`]
    /// rounds; one with a static trip count `T` has no iteration `T` steps
    /// back, so at most `T + 2` ([`WIDEN_AFTER`] at the least); otherwise
    /// the function's [`Analysis::widen_after`]. Past [`WORK_BUDGET`]: none.
    pub(super) fn rounds(
        &self,
        l: &OperationRef<'c, 'a>,
        nested: &[OperationRef<'c, 'a>],
    ) -> Rounds {
        if self.work > WORK_BUDGET {
            return Rounds {
                widen: 0,
                give_up: 0,
            };
        }
        let issues = nested.iter().any(|o| {
            matches!(
                ops::name(o),
                ops::COPY | ops::COMMIT_GROUP | ops::MBARRIER_ARRIVE_COPIES
            )
        });
        let mut widen = if issues {
            self.widen_after
        } else {
            WIDEN_AFTER
        };
        if let Some(trips) = crate::trip_count::static_trip_count(l) {
            let trips = usize::try_from(trips).unwrap_or(usize::MAX);
            widen = widen.min(trips.saturating_add(2).max(WIDEN_AFTER));
        }
        Rounds {
            widen,
            give_up: widen + GIVE_UP_AFTER,
        }
    }

    /// Counts one pass over a loop body (its ops times the instances and
    /// reads live at its header) against
    /// [`WORK_BUDGET`]; past it, `rounds` widens and gives up from `round`
    /// on.
    pub(super) fn spend(&mut self, ops: usize, round: usize, rounds: &mut Rounds) {
        self.work = self.work.saturating_add(ops.max(1));
        if self.work > WORK_BUDGET {
            rounds.widen = rounds.widen.min(round);
            rounds.give_up = rounds.give_up.min(round);
        }
    }

    /// Step 5: `scf.for`.
    pub(super) fn for_loop(&mut self, l: OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
        // A loop still annotated for apipe-software-pipeline: the pipeliner
        // places its synchronization; not checked.
        let nested = ops::nested_ops(&l);
        if l.has_attribute(attributes::ASYNC_STAGES)
            || nested.iter().any(|o| o.has_attribute(attributes::STAGE))
        {
            return;
        }
        let Some(body) = l.region_at(0).and_then(|r| r.first_block()) else {
            return;
        };
        let static_count = crate::trip_count::static_trip_count(&l);
        if static_count == Some(0) {
            return;
        }
        let tau = Symbol::Iteration(key(&l));
        let iterates = crate::access::values::loop_step(&l).is_some();
        let has_barrier = nested.iter().any(|o| ops::is(o, "gpu.barrier"));
        // No op in the loop completes, commits or synchronizes anything:
        // what is in flight (or unread behind no barrier) at its entry
        // stays so in every iteration.
        let quiet = quiet(&nested);
        // Copies from before the loop see the groups of every iteration.
        let mut entry = state.clone();
        for instance in &mut entry.instances {
            if instance.unsynced {
                continue;
            }
            let least = group_distance::min_groups(&l, instance.queue);
            let most = group_distance::max_groups(&l, instance.queue);
            if least == 0 && most == Some(0) {
                continue;
            }
            if iterates {
                if let Some(base) = instance.groups.base.plus(&Lin::symbol(tau), least as i64) {
                    instance.groups.base = base;
                }
            }
            if !iterates || most != Some(least) {
                instance.groups.slack = None;
            }
        }
        // The entry edge reaches the first iteration only. In a quiet loop
        // what enters is in every iteration's header (the fixed point would
        // grow `τ <= 0` by one per round until widened): no bound.
        if iterates && !quiet {
            entry.constrain_all(&[Constraint::NonNeg(Lin::symbol(tau).scaled(-1).unwrap())]);
        }
        let inits: Vec<Value> = l.operands().skip(3).collect();
        let passed = names::pairs(inits.iter().copied(), names::arguments(&l, 0, 1));
        names::pass_on(&mut entry, &passed, Some(&l));
        let mut header = entry.clone();
        let mut round = 0;
        let mut rounds = self.rounds(&l, &nested);
        // The first round runs unchecked (see `checking`); if it is also
        // the last, the body is walked once more, checked. (Leaving the
        // second round unchecked too saved 3% but changed which instance a
        // hazard is first found with: a copy two iterations back instead of
        // the previous iteration's, a less helpful note.)
        let checking = self.checking;
        let end = loop {
            self.checking = checking && round > 0;
            let mut current = header.clone();
            self.block(body, &mut current);
            // A round costs its op visits times the copies in flight (each
            // access is compared with each). Reads since the last barrier
            // are not counted here: they cost a comparison only when a copy
            // is issued, and each comparison is counted where it is made
            // ([`Analysis::meets`]). Counting them here made a kernel whose
            // missing barrier let 24 reads cross an outer loop's back edge
            // (then cleared by the next barrier) spend 143,000 and widen
            // into false races.
            let live = 1 + header.instances.len();
            self.spend(nested.len().saturating_mul(live), round, &mut rounds);
            let mut back = current.clone();
            self.back_edge(&l, &mut back, iterates);
            let mut next = entry.clone().join(back);
            if round >= rounds.widen {
                self.widen(&l, &header, &mut next, round >= rounds.give_up);
            } else if iterates && self.gpu && (!has_barrier || round >= 1) {
                self.widen_reads(&l, &Earlier::of(&l), &header, &mut next, false);
            }
            if next.same(&header) || round > rounds.give_up + 2 {
                if checking && !self.checking {
                    self.checking = true;
                    current = header;
                    self.block(body, &mut current);
                }
                break current;
            }
            header = next;
            round += 1;
        };
        self.checking = checking;
        // The exit: after the last iteration (τ = T - 1), or (a dynamic
        // trip count) without any.
        let trips = self.cache.forms.trips(&l);
        let mut run = end;
        let passed = names::pairs(names::yielded(&l, 0, 0), names::results(&l));
        names::pass_on(&mut run, &passed, None);
        if iterates {
            if let Some(last) = trips.count.offset(-1) {
                run.map(&|s| (s == tau).then(|| last.clone()));
            }
        }
        let exit = if static_count.is_some() {
            run
        } else {
            run.constrain_all(&trips.when_run);
            let mut skipped = std::mem::take(state);
            let passed = names::pairs(inits.iter().copied(), names::results(&l));
            names::pass_on(&mut skipped, &passed, None);
            if let Some(c) = &trips.when_skipped {
                skipped.constrain_all(c);
            }
            run.join(skipped)
        };
        *state = exit;
        self.prune(&l, state);
    }

    /// Step 5: `scf.while`: `before`, then (the condition holds) `after` and
    /// the back edge; the exit is the state after `before`.
    pub(super) fn while_loop(&mut self, w: OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
        let before = w.region_at(0).and_then(|r| r.first_block());
        let after = w.region_at(1).and_then(|r| r.first_block());
        let (Some(before), Some(after)) = (before, after) else {
            return;
        };
        let tau = Symbol::Iteration(key(&w));
        // Copies from before the loop see the groups of every iteration:
        // at the start of iteration τ, τ full iterations (`before`, then
        // `after`) have committed theirs (as for `scf.for`).
        let mut entry = state.clone();
        for instance in &mut entry.instances {
            if instance.unsynced {
                continue;
            }
            let (least, most) = group_distance::while_iteration_groups(&w, instance.queue);
            if least == 0 && most == Some(0) {
                continue;
            }
            if let Some(base) = instance.groups.base.plus(&Lin::symbol(tau), least as i64) {
                instance.groups.base = base;
            }
            if most != Some(least) {
                instance.groups.slack = None;
            }
        }
        // Iterations are numbered by the back edges taken (`τ_W`, the
        // `before` arguments' recurrences are forms in it): the entry
        // reaches iteration 0 only, unless nothing in the loop commits,
        // waits or synchronizes (see `for_loop`).
        let quiet = quiet(&ops::nested_ops(&w));
        if !quiet {
            entry.constrain_all(&[Constraint::NonNeg(Lin::symbol(tau).scaled(-1).unwrap())]);
        }
        let passed = names::pairs(w.operands(), names::arguments(&w, 0, 0));
        names::pass_on(&mut entry, &passed, Some(&w));
        // `scf.condition` passes its operands after the first to the
        // `after` arguments and to the results.
        let to_after = names::pairs(names::yielded(&w, 0, 1), names::arguments(&w, 1, 0));
        let to_results = names::pairs(names::yielded(&w, 0, 1), names::results(&w));
        let mut header = entry.clone();
        let mut round = 0;
        let nested = ops::nested_ops(&w);
        let mut rounds = self.rounds(&w, &nested);
        let exit = loop {
            let mut current = header.clone();
            // As in `for_loop`: copies in flight, not reads.
            let live = 1 + header.instances.len();
            self.spend(nested.len().saturating_mul(live), round, &mut rounds);
            self.block(before, &mut current);
            let mut at_condition = current.clone();
            names::pass_on(&mut at_condition, &to_results, None);
            names::pass_on(&mut current, &to_after, None);
            self.block(after, &mut current);
            self.back_edge(&w, &mut current, true);
            let mut next = entry.clone().join(current);
            if round >= rounds.widen {
                self.widen(&w, &header, &mut next, round >= rounds.give_up);
            }
            if next.same(&header) || round > rounds.give_up + 2 {
                break at_condition;
            }
            header = next;
            round += 1;
        };
        // The exit: the condition is false there (with the iterations'
        // "condition held" constraints, this pins the exit iteration where
        // the `before` arguments are forms of it); the exit iteration itself
        // is the loop's trip count `T_W` (renamed at an enclosing loop's
        // back edge like an `scf.for`'s, see `stale_map`).
        let mut exit = exit;
        if let Some(condition) = before.terminator().and_then(|c| c.operand_at(0)) {
            let fails = self.cache.forms.condition(condition, false);
            exit.constrain_all(&fails);
        }
        let last = Lin::symbol(Symbol::Trips(key(&w)));
        exit.map(&|s| (s == tau).then(|| last.clone()));
        *state = exit;
    }

    /// Drops what cannot exist after `op` (its constraints are infeasible
    /// there).
    pub(super) fn prune(&mut self, op: &OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
        let context = self.context(op);
        let instances = std::mem::take(&mut state.instances);
        for instance in instances {
            let mut system = context.clone();
            system.extend(instance.when.iter().cloned());
            self.cache.forms.add_facts(&mut system);
            if system.feasible().may() {
                state.instances.push(instance);
            }
        }
    }
}

/// What widening the loop `l` needs: its iteration `τ`, a fresh `σ` for
/// "some earlier iteration", and the constraint `σ <= τ - 1`.
pub(super) struct Earlier {
    tau: Symbol,
    sigma: Lin,
    constraint: Option<Constraint>,
}

impl Earlier {
    fn of(l: &OperationRef) -> Self {
        let tau = Symbol::Iteration(key(l));
        let sigma = Lin::symbol(Symbol::Fresh(fresh_id(key(l), 3)));
        let constraint = Lin::symbol(tau)
            .offset(-1)
            .and_then(|t1| Constraint::le(&sigma, &t1));
        Earlier {
            tau,
            sigma,
            constraint,
        }
    }

    /// `τ -> σ + k` for an entry issued `k >= 1` iterations back (its
    /// constraints `when` say so), else `None`.
    fn issued_in(&self, when: &[Constraint], l: &OperationRef) -> Option<Lin> {
        let k = crate::check_hazards::classes::age(when, l).filter(|k| *k >= 1)?;
        self.sigma.offset(k)
    }

    /// Makes every dimension of `region` whose start depends on `τ` any.
    fn forget_dims(&self, region: &mut crate::access::Region) {
        for dim in region.dims.iter_mut().flatten() {
            if let crate::access::Dim::Range { start, .. } = dim {
                if start.mentions(self.tau) {
                    *dim = crate::access::Dim::Any;
                }
            }
        }
    }
}

/// Across the back edge of an `scf.for` `l` of non-constant step, whose
/// variable `iv` is a symbol of its own: the step is positive (MLIR
/// `scf.for`), so the variable of every earlier iteration, `Stale(iv)`
/// after the back edge, is below the next one: `iv >= Stale(iv) + 1` for
/// each instance and read that names it. Without it a copy into `buf[iv]`
/// met its own previous iteration's (a false write-after-write on a
/// block-stride loop, `step = gpu.block_dim x`). An instance from two or
/// more iterations back carries the same symbol, and the fact holds for
/// it too.
fn increasing_variable<'c, 'a>(l: &OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
    let Some(iv) = names::arguments(l, 0, 0).first().map(|v| key_of_value(*v)) else {
        return;
    };
    let (now, before) = (Symbol::Value(iv), Symbol::Stale(iv));
    let Some(fact) = Lin::symbol(before)
        .offset(1)
        .and_then(|b| Constraint::le(&b, &Lin::symbol(now)))
    else {
        return;
    };
    for instance in &mut state.instances {
        if instance.src.mentions(before)
            || instance.dst.mentions(before)
            || instance.when.iter().any(|c| c.mentions(before))
        {
            instance.constrain(std::iter::once(fact.clone()));
        }
    }
    for read in &mut state.reads {
        if read.region.mentions(before) || read.when.iter().any(|c| c.mentions(before)) {
            read.constrain(std::iter::once(fact.clone()));
        }
    }
}
