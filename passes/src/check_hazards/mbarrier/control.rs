//! Steps 5 and 6: `scf.if` guards and branches, `scf.for` and `scf.while`
//! loops iterated to a fixed point within the work budget.

use super::*;

impl<'c: 'a, 'a> Analysis<'c, 'a> {
    /// The values the terminator of `block` yields, read in `state`.
    fn yielded(&self, block: BlockRef<'c, 'a>, state: &State) -> Vec<Val> {
        block
            .terminator()
            .map(|t| t.operands().map(|v| self.get(state, v).clone()).collect())
            .unwrap_or_default()
    }

    /// The values the terminator of `block` yields (read in `state`)
    /// become the results of `op` in `state`.
    fn yield_results(&self, op: &OperationRef<'c, 'a>, block: BlockRef<'c, 'a>, state: &mut State) {
        let yielded = self.yielded(block, state);
        for (j, r) in op.results().enumerate() {
            if let Some(v) = yielded.get(j) {
                state.vals.insert(value_key(r.into()), v.clone());
            }
        }
    }

    /// Step 5: records whether the `scf.if` `op` is the guard `n - x <=u c`
    /// of a ring of `K <= c` slots on this visit (final rounds only;
    /// joined over visits).
    pub(super) fn guard(&mut self, op: &OperationRef<'c, 'a>, state: &State) {
        if self.quiet > 0 {
            return;
        }
        let condition = value_key(op.operand(0).unwrap());
        let guard = match state.val(condition).shape {
            Shape::Le {
                a,
                b: Some(x),
                bound,
            } => state.rings.keys().copied().find_map(|r| {
                let k = self.rings[&r].slots;
                (state.rel(state.val(a), r).as_exact() == Some(0) && bound >= k).then_some((r, x))
            }),
            _ => None,
        };
        let entry = self.facts.guards.entry(op_key(op)).or_insert(guard);
        if *entry != guard {
            *entry = None;
        }
    }

    /// Step 5's refinement: the then region of `scf.if (a - b <=u c)`.
    pub(super) fn refine(&self, state: &mut State, condition: Value) {
        let Shape::Le { a, b, bound } = state.val(value_key(condition)).shape else {
            return;
        };
        self.refine_le(state, a, b, bound);
    }

    /// Step 5's refinement: the then region of `scf.if (a >u c)`. Where
    /// `a = n - δ` (δ exact) is not negative on any path (`n >= δ`),
    /// unsigned is signed: `n >= c + 1 + δ` (trial 80: a guard `c >=u 3`
    /// around a wait on `c - 3` did not prove `c - 3 >= 0` once the count
    /// was joined over iterations).
    pub(super) fn refine_then(&self, state: &mut State, condition: Value) {
        let Shape::Gt { a, bound } = state.val(value_key(condition)).shape else {
            return;
        };
        let va = state.val(a).clone();
        for r in state.rings.keys().copied().collect::<Vec<_>>() {
            let Some(d) = state.rel(&va, r).as_exact() else {
                continue;
            };
            let ring = state.rings.get_mut(&r).unwrap();
            if ring.n.lo < d {
                continue;
            }
            let Some(least) = bound.checked_add(1).and_then(|b| b.checked_add(d)) else {
                continue;
            };
            match ring.n.meet(Itv { lo: least, hi: INF }) {
                Some(n) => ring.n = n,
                None => {
                    state.live = false;
                    return;
                }
            }
        }
    }

    /// Step 5's refinement: the else region of `scf.if (a >u c)`, where
    /// `a <=u c`.
    pub(super) fn refine_else(&self, state: &mut State, condition: Value) {
        let Shape::Gt { a, bound } = state.val(value_key(condition)).shape else {
            return;
        };
        self.refine_le(state, a, None, bound);
    }

    /// `state` where `a - b <=u bound` (`b = None`: `a <=u bound`): each
    /// ring's count `n` and `b`'s distance met with it; not live if none
    /// is left.
    fn refine_le(&self, state: &mut State, a: usize, b: Option<usize>, bound: i64) {
        let va = state.val(a).clone();
        let mut vb = b.map_or_else(|| Val::constant(0), |b| state.val(b).clone());
        for r in state.rings.keys().copied().collect::<Vec<_>>() {
            let (da, db) = (state.rel(&va, r), state.rel(&vb, r));
            if da.lo <= -INF || da.hi >= INF {
                continue;
            }
            // 0 <= a - b = δ_b - δ_a <= bound.
            let Some(m) = db.meet(da.add(Itv { lo: 0, hi: bound })) else {
                state.live = false;
                return;
            };
            vb.rel.insert(r, m);
            // A constant b: n_r = δ_b + b.
            if let Some(c) = vb.range.as_exact() {
                let ring = state.rings.get_mut(&r).unwrap();
                match ring.n.meet(m.shift(c)) {
                    Some(n) => ring.n = n,
                    None => {
                        state.live = false;
                        return;
                    }
                }
            }
        }
        if let Some(b) = b {
            state.vals.insert(b, vb);
        }
    }

    /// `scf.if`, `scf.index_switch`, `scf.execute_region`.
    pub(super) fn branches(&mut self, op: &OperationRef<'c, 'a>, state: &mut State, is_if: bool) {
        let entry = state.clone();
        if is_if {
            self.guard(op, &entry);
        }
        let mut out: Option<State> = None;
        // The groups complete in the threads of a region that some thread
        // runs, when threads may split between the regions by their ids.
        let split = is_if || ops::is(op, "scf.index_switch");
        let by_thread_ids = split
            && op
                .operand(0)
                .is_ok_and(|c| crate::check_hazards::walk::threads::computed_from_thread_ids(c, 0));
        let mut seen: BTreeMap<usize, i64> = BTreeMap::new();
        // An `scf.if` on a condition of known value runs one region only.
        let known = is_if
            .then(|| self.get(&entry, op.operand(0).unwrap()).range.as_exact())
            .flatten();
        let regions: Vec<_> = op.regions().collect();
        let fixed = self
            .split
            .as_ref()
            .is_some_and(|s| s.switches.contains(&op_key(op)));
        for (i, region) in regions.iter().enumerate() {
            // Step 7: this run's case only.
            if fixed && i != self.taken {
                continue;
            }
            if known.is_some_and(|c| (c != 0) != (i == 0)) {
                continue;
            }
            let mut branch = entry.clone();
            if is_if && i == 0 {
                self.refine(&mut branch, op.operand(0).unwrap());
                self.refine_then(&mut branch, op.operand(0).unwrap());
            } else if is_if && i == 1 {
                self.refine_else(&mut branch, op.operand(0).unwrap());
            }
            let Some(block) = region.first_block() else {
                // An absent else: the entry state (refined).
                if branch.live {
                    branch.bound_done_by_count();
                    out = Some(match out {
                        Some(o) => o.join(&branch, false),
                        None => branch,
                    });
                }
                continue;
            };
            self.block(block, &mut branch);
            if !branch.live {
                continue;
            }
            branch.bound_done_by_count();
            if by_thread_ids && crate::check_hazards::walk::threads::some_thread_takes(op, i) {
                for (ring, r) in branch.rings.iter() {
                    let least = seen.entry(*ring).or_insert(INF);
                    *least = (*least).min(r.done).min(r.seen);
                }
            }
            self.yield_results(op, block, &mut branch);
            out = Some(match out {
                Some(o) => o.join(&branch, false),
                None => branch,
            });
        }
        *state = out.unwrap_or(State {
            live: false,
            ..entry
        });
        for (ring, least) in seen {
            if let Some(r) = state.rings.get_mut(&ring) {
                r.seen = r.seen.min(least);
            }
        }
    }

    /// Step 6: `scf.for`.
    pub(super) fn for_loop(&mut self, op: &OperationRef<'c, 'a>, state: &mut State) {
        let Some(body) = op.region_at(0).and_then(|r| r.first_block()) else {
            return;
        };
        // Constant bounds of a signed loop only: an `scf.for unsigned`
        // compares its bounds as unsigned (`-2` to `2` runs no iteration),
        // so it is followed as one of unknown trip count.
        let bounds: Vec<Option<i64>> = (0..3)
            .map(|i| {
                op.operand_at(i)
                    .and_then(ops::constant_int)
                    .filter(|_| !crate::trip_count::is_unsigned(op))
            })
            .collect();
        // The trip count when constant, without overflow.
        let count = match bounds.as_slice() {
            [Some(l), Some(u), Some(s)] => {
                crate::trip_count::trip_count(*l, *u, *s, false).and_then(|t| i64::try_from(t).ok())
            }
            _ => None,
        };
        let trips = count.filter(|t| (1..INF).contains(t));
        let inits: Vec<Val> = op
            .operands()
            .skip(3)
            .map(|v| self.get(state, v).clone())
            .collect();
        // A loop of constant bounds that runs no iteration (a prologue of
        // K - 1 = 0 groups): its results are its inits.
        if count == Some(0) {
            for (r, v) in op.results().zip(inits) {
                state.vals.insert(value_key(r.into()), v);
            }
            return;
        }
        let iv_range = match bounds.as_slice() {
            [Some(l), Some(u), _] if u > l => Itv { lo: *l, hi: u - 1 },
            _ => Itv::TOP,
        };
        let mut entry = state.clone();
        entry.vals.insert(
            value_key(body.argument(0).unwrap().into()),
            Val {
                range: iv_range,
                ..Val::top()
            },
        );
        for (i, v) in inits.iter().enumerate() {
            entry
                .vals
                .insert(value_key(body.argument(i + 1).unwrap().into()), v.clone());
        }
        let back = |this: &mut Self, header: &State| -> State {
            let mut s = header.clone();
            this.block(body, &mut s);
            let yielded = this.yielded(body, &s);
            for (i, v) in yielded.into_iter().enumerate() {
                s.vals
                    .insert(value_key(body.argument(i + 1).unwrap().into()), v);
            }
            s
        };
        // A short loop of constant trip count T: its T iterations one after
        // the other, each checked (exact: a pipeline state that advances
        // in a drain loop names another group in each iteration, which no
        // join of the iterations' states names).
        let mut exit = match trips {
            Some(t) if (1..=SHORT_LOOP).contains(&t) => {
                let outer = self.iteration;
                let mut top = entry.clone();
                for i in 1..t {
                    if self.over_budget(op) {
                        break;
                    }
                    self.iteration = Some((op_key(op), (i - 1) as usize, t as usize));
                    top = back(self, &top);
                }
                self.iteration = Some((op_key(op), (t - 1) as usize, t as usize));
                let mut exit = top;
                self.block(body, &mut exit);
                self.iteration = outer;
                exit
            }
            _ => {
                let mut header = self.fixed_point(op, entry.clone(), back);
                // A constant trip count T bounds the arrives before an
                // iteration: at most T - 1 iterations' worth more than at
                // the entry (each arrive op of the body runs at most once
                // per iteration, unless it is in a nested loop); so it
                // bounds the count and the distance of the oldest group not
                // known complete.
                if let Some(trips) = trips {
                    self.bound_by_iterations(op, &entry, &mut header, trips - 1, false);
                }
                // The final round: checks and facts.
                let mut exit = header;
                self.block(body, &mut exit);
                // The exit follows the last of the T iterations: the
                // arrives of every iteration's body are behind it, those
                // directly in the body once each (an exact count after a
                // loop of unconditional arrives).
                if let Some(trips) = trips {
                    self.bound_by_iterations(op, &entry, &mut exit, trips, true);
                }
                exit
            }
        };
        self.yield_results(op, body, &mut exit);
        // Not known to run: the loop may be skipped.
        if trips.is_none() {
            let mut skipped = state.clone();
            for (j, r) in op.results().enumerate() {
                if let Some(v) = inits.get(j) {
                    skipped.vals.insert(value_key(r.into()), v.clone());
                }
            }
            exit = exit.join(&skipped, false);
        }
        *state = exit;
    }

    /// Bounds each ring's count and `done` in `state`, reached from `entry`
    /// by `iterations` runs of the body of the loop `op` (step 6): the count
    /// at most the entry's plus `iterations` times the body's arrive ops
    /// (and, with `every_iteration`, at least the entry's plus
    /// `iterations` times those directly in the body, which run once per
    /// iteration); `done` at most the entry's plus the same (an arrive
    /// moves it one further, a wait only nearer: widening may have lost
    /// it). Rings with an arrive in a nested loop are left as they are.
    pub(super) fn bound_by_iterations(
        &mut self,
        op: &OperationRef<'c, 'a>,
        entry: &State,
        state: &mut State,
        iterations: i64,
        every_iteration: bool,
    ) {
        let arrives = self.loop_arrives(op);
        for (ring, r) in state.rings.iter_mut() {
            let a = arrives.get(ring).copied().unwrap_or_default();
            let at_entry = &entry.rings[ring];
            // An arrive that skipped slots counts as more than one
            // (`Skew`): the arrive ops no longer bound the count.
            if a.in_inner_loop || !r.skew.is_empty() {
                continue;
            }
            let more = iterations.saturating_mul(a.count as i64);
            // Every arrive runs once per iteration: `n` grew by exactly
            // `more`, so its residue did.
            if every_iteration && a.count == a.every_iteration {
                if let Some(res) = at_entry.residues() {
                    let m = i128::from(res.modulus());
                    let more = (i128::from(iterations) * a.count as i128).rem_euclid(m);
                    r.res = Some(res.shift(more as i64));
                }
            }
            if at_entry.n.hi >= INF {
                continue;
            }
            let least = if every_iteration {
                at_entry
                    .n
                    .lo
                    .saturating_add(iterations.saturating_mul(a.every_iteration as i64))
            } else {
                r.n.lo
            };
            let (lo, hi) = (
                r.n.lo.max(least),
                r.n.hi.min(at_entry.n.hi.saturating_add(more)),
            );
            if lo <= hi {
                r.n = Itv { lo, hi };
            }
            let latest = at_entry.done.saturating_add(more);
            if at_entry.done < INF && latest < r.done {
                r.done = latest;
            }
        }
    }

    /// Per ring key: the arrive ops on it nested in the loop `op`, those
    /// directly in its body, and whether one of them is in a loop nested in
    /// `op`; found once per loop
    /// (a loop nest's fixed points visit an inner loop many times).
    pub(super) fn loop_arrives(&mut self, op: &OperationRef<'c, 'a>) -> LoopArrives {
        if let Some(known) = self.arrives.get(&op_key(op)) {
            return std::rc::Rc::clone(known);
        }
        let mut out: FxHashMap<usize, Arrives> = FxHashMap::default();
        for o in ops::nested_ops(op) {
            if !ops::is(&o, ops::MBARRIER_ARRIVE_COPIES) {
                continue;
            }
            let Some(ring) = ring_operand(&o).map(value_key) else {
                continue;
            };
            let in_inner_loop = ops::ancestors(&o)
                .take_while(|p| p != op)
                .any(|p| matches!(ops::name(&p), "scf.for" | "scf.while"));
            let entry = out.entry(ring).or_default();
            entry.count += 1;
            entry.every_iteration += usize::from(o.parent_operation() == Some(*op));
            entry.in_inner_loop |= in_inner_loop;
        }
        let out = std::rc::Rc::new(out);
        self.arrives.insert(op_key(op), std::rc::Rc::clone(&out));
        out
    }

    /// True once the walk's work passed its budget; the first time, a
    /// located error at the loop `op` (not quieted: the function fails).
    pub(super) fn over_budget(&mut self, op: &OperationRef<'c, 'a>) -> bool {
        if self.budget.work > self.budget.give_up && !self.budget.exhausted {
            self.budget.exhausted = true;
            self.log_error(
                op,
                "is a loop nest too deep for the mbarrier analysis: its fixed points took more than the work budget (each nested loop multiplies the rounds of the loops around it); the function is not checked",
            );
        }
        self.budget.exhausted
    }

    /// The header of a loop: the join of `entry` and `back(header)`,
    /// iterated quietly to a fixed point (step 6).
    pub(super) fn fixed_point(
        &mut self,
        op: &OperationRef<'c, 'a>,
        entry: State,
        back: impl Fn(&mut Self, &State) -> State,
    ) -> State {
        let mut header = entry;
        // A window of values the loop passes on unchanged from iter_arg to
        // iter_arg (the tokens of the last d groups, as group numbers)
        // takes a round per place to fill: widening its values before it
        // fills makes an initial value's bound (a ready token's number) and
        // a real group's look like a bound that moves (trial 11, finding
        // 1). The other values widen as before.
        let (window, copies) = carried_window(op);
        for round in 0..self.max_rounds() + window {
            if self.over_budget(op) {
                return header;
            }
            self.quiet += 1;
            let next = back(self, &header);
            self.quiet -= 1;
            let kept: &[usize] = if round >= WIDEN_AFTER + window {
                &[]
            } else {
                &copies
            };
            let joined = header.join_widening_but(&next, round >= WIDEN_AFTER, kept);
            if joined == header {
                return header;
            }
            header = joined;
        }
        self.error(
            op,
            "is a loop whose mbarrier state did not reach a fixed point",
        );
        header
    }

    /// The rounds a loop's fixed point may take. A group's followers move
    /// one `hist` entry deeper per round, and a pipe mask may lose one of
    /// its 2K bits per round, so a ring of K slots can need up to
    /// 2·min(K, [`HISTORY`]) rounds on top of [`MAX_ROUNDS`] (a correct
    /// loop on a ring of 32 slots was once given up after 24).
    pub(super) fn max_rounds(&self) -> usize {
        let deepest = self
            .rings
            .values()
            .map(|r| r.slots.min(HISTORY))
            .max()
            .unwrap_or(0);
        MAX_ROUNDS + 2 * deepest as usize
    }

    /// Step 6: `scf.while` (before region, `scf.condition`, after region).
    pub(super) fn while_loop(&mut self, op: &OperationRef<'c, 'a>, state: &mut State) {
        let (Some(before), Some(after)) = (
            op.region_at(0).and_then(|r| r.first_block()),
            op.region_at(1).and_then(|r| r.first_block()),
        ) else {
            return;
        };
        let mut entry = state.clone();
        for (i, v) in op.operands().enumerate() {
            let v = self.get(state, v).clone();
            entry
                .vals
                .insert(value_key(before.argument(i).unwrap().into()), v);
        }
        // Runs the before region; forwards the condition's operands to the
        // after region's arguments (and returns them).
        let through_condition = |this: &mut Self, s: &mut State| -> Vec<Val> {
            this.block(before, s);
            let forwarded: Vec<Val> = before
                .terminator()
                .map(|t| {
                    t.operands()
                        .skip(1)
                        .map(|v| this.get(s, v).clone())
                        .collect()
                })
                .unwrap_or_default();
            for (i, v) in forwarded.iter().enumerate() {
                if let Ok(a) = after.argument(i) {
                    s.vals.insert(value_key(a.into()), v.clone());
                }
            }
            forwarded
        };
        let back = |this: &mut Self, header: &State| -> State {
            let mut s = header.clone();
            through_condition(this, &mut s);
            this.block(after, &mut s);
            let yielded = this.yielded(after, &s);
            for (i, v) in yielded.into_iter().enumerate() {
                if let Ok(a) = before.argument(i) {
                    s.vals.insert(value_key(a.into()), v);
                }
            }
            s
        };
        let header = self.fixed_point(op, entry, back);
        let mut exit = header.clone();
        let forwarded = through_condition(self, &mut exit);
        let mut body = exit.clone();
        self.block(after, &mut body);
        for (j, r) in op.results().enumerate() {
            if let Some(v) = forwarded.get(j) {
                exit.vals.insert(value_key(r.into()), v.clone());
            }
        }
        *state = exit;
    }
}

/// The length of the longest chain of a loop's carried values that the
/// loop passes on unchanged: the `scf.yield` of an `scf.for` gives iter_arg
/// `k` the value of iter_arg `i` (a window `(t1, t2, t) -> (t0, t1, t2)`
/// has length 2), and an `scf.while` gives its before argument `k` the
/// after argument that `scf.condition` made of before argument `i`. A
/// chain that closes on itself counts each value once. Also gives the
/// keys of the carried values that are such copies (the block arguments
/// of the header).
pub(super) fn carried_window(op: &OperationRef) -> (usize, Vec<usize>) {
    let block = |region: usize| op.region(region).ok().and_then(|r| r.first_block());
    let argument_of = |value: Value, block: &melior::ir::BlockRef| -> Option<usize> {
        (0..block.argument_count())
            .find(|&i| ops::argument_at(block, i).is_some_and(|a| Value::from(a) == value))
    };
    // Per carried value, the carried value of the iteration before that it
    // copies; the header's block, and the place of carried value 0 among
    // its arguments.
    let (copies, header, skip): (Vec<Option<usize>>, _, _) = match ops::name(op) {
        "scf.for" => {
            let Some(body) = block(0) else {
                return (0, Vec::new());
            };
            let Some(terminator) = body.terminator() else {
                return (0, Vec::new());
            };
            let copies = terminator
                .operands()
                .map(|v| argument_of(v, &body).and_then(|i| i.checked_sub(1)))
                .collect();
            (copies, body, 1)
        }
        "scf.while" => {
            let (Some(before), Some(after)) = (block(0), block(1)) else {
                return (0, Vec::new());
            };
            let (Some(condition), Some(terminator)) = (before.terminator(), after.terminator())
            else {
                return (0, Vec::new());
            };
            let passed: Vec<Value> = condition.operands().skip(1).collect();
            let copies = terminator
                .operands()
                .map(|v| {
                    let j = argument_of(v, &after)?;
                    argument_of(*passed.get(j)?, &before)
                })
                .collect();
            (copies, before, 0)
        }
        _ => return (0, Vec::new()),
    };
    let keys = (0..copies.len())
        .filter(|&k| copies[k].is_some())
        .filter_map(|k| ops::argument_at(&header, k + skip))
        .map(|a| value_key(a.into()))
        .collect();
    let length = (0..copies.len())
        .map(|k| {
            let mut length = 0;
            let mut at = k;
            while let Some(Some(from)) = copies.get(at) {
                if length >= copies.len() {
                    break;
                }
                length += 1;
                at = *from;
            }
            length
        })
        .max()
        .unwrap_or(0);
    (length, keys)
}
