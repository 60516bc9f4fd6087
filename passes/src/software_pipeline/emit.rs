//! Step 3 of the algorithm (`super`): emission of the prologue, the kernel (static or
//! dynamic trip count, with the guard `scf.index_switch` over short trip
//! counts) and the epilogue from the plan, one op per (stage, iteration),
//! with the waits, commits and barriers of the schedule.

use super::*;

impl<'c> Emitter<'c, '_> {
    /// The value `raw` (made by this emitter or taken from the plan's
    /// loop), borrowed no longer than the emitter: the IR it belongs to
    /// outlives the emitter.
    pub(super) fn value(&self, raw: MlirValue) -> Value<'c, '_> {
        // SAFETY: every raw value the emitter holds is live while it runs
        // (the input loop is erased only after emission).
        unsafe { Value::from_raw(raw) }
    }

    pub(super) fn insert(&mut self, op: melior::ir::Operation<'c>) -> MlirOperation {
        // SAFETY: the point is live while the emitter runs.
        unsafe {
            match self.point {
                Point::Before(before) => insert_before(before, op),
                Point::End(block) => BlockRef::from_raw(block).append_operation(op).to_raw(),
            }
        }
    }

    /// Step 3, before the emitted code: the groups in flight at the loop
    /// entry that the input loop's own waits completed. A loop in the
    /// synchronous form (`wait_group 0`, or waits on its commits' tokens)
    /// completes, at its first wait on a queue, every older group of that
    /// queue too, so its body may read copies issued before the loop. The
    /// pipeliner drops those waits and waits only for the loop's own
    /// copies, and not before the first reader: a read of an earlier copy
    /// would go unwaited. So for each queue the input waited on
    /// ([`schedule::waited_queues`]) that may hold groups or uncommitted
    /// copies at the entry ([`may_enter_in_flight`]), the emitted code
    /// starts with a commit of those copies and a wait for all of it:
    /// `apipe.commit_group` and `apipe.wait_group 0` (counting form), or
    /// `%t = apipe.commit_group` and `apipe.wait %t` (token form; an
    /// (empty) group completes after every older group of its queue); in a
    /// `gpu.func` whose loop body holds a `gpu.barrier`, a `gpu.barrier`
    /// follows, as after [`Emitter::drain`]'s waits.
    pub(super) fn settle(&mut self, issuing: &mut Issuing) {
        let plan = self.plan;
        // SAFETY: the loop is live.
        let loop_op = unsafe { OperationRef::from_raw(plan.loop_op) };
        // Most loops start with nothing in flight on any queue: asked
        // first, before the loop's synchronous form is read again.
        if !may_enter_in_flight(&loop_op, None, issuing) {
            return;
        }
        self.point = Point::Before(plan.loop_op);
        let mut settled = false;
        for q in schedule::waited_queues(&loop_op) {
            if !may_enter_in_flight(&loop_op, Some(q), issuing) {
                continue;
            }
            self.complete_queue(q, true);
            settled = true;
        }
        if settled && self.body_has_barrier() {
            self.barrier();
        }
    }

    /// True if the input loop's body holds a `gpu.barrier` (at any depth):
    /// the loop runs in uniform control flow, and its barrier ordered the
    /// copies its waits completed before the other threads' later reads.
    pub(super) fn body_has_barrier(&self) -> bool {
        self.plan.body.iter().any(|&op| {
            // SAFETY: body ops are live until the loop is erased.
            ops::self_and_nested_ops(&unsafe { OperationRef::from_raw(op) })
                .iter()
                .any(|o| ops::is(o, "gpu.barrier"))
        })
    }

    /// A `gpu.barrier` at the insertion point.
    pub(super) fn barrier(&mut self) {
        let op = OperationBuilder::new("gpu.barrier", self.location)
            .build()
            .expect("valid gpu.barrier");
        self.insert(op);
    }

    /// Completes every group of `queue` at the insertion point: a commit
    /// first when `commit` (it closes uncommitted copies into a group) or
    /// in the token form (whose wait names a group), then the wait.
    pub(super) fn complete_queue(&mut self, queue: i64, commit: bool) {
        let q = (queue != 0).then_some(queue);
        match self.sync {
            SyncForm::Counting => {
                if commit {
                    self.insert(build::commit_group(self.context, q, None, self.location));
                }
                self.insert(build::wait_group(self.context, 0, q, self.location));
            }
            SyncForm::Tokens => {
                // SAFETY: a type of this context.
                let token = unsafe { Type::from_raw(self.plan.token_type) };
                let raw = self.insert(build::commit_group(
                    self.context,
                    q,
                    Some(token),
                    self.location,
                ));
                // SAFETY: one result.
                let token = unsafe { mlir_sys::mlirOperationGetResult(raw, 0) };
                self.insert(build::wait(
                    self.context,
                    &[self.value(token)],
                    self.location,
                ));
            }
        }
    }

    /// Step 3, after the emitted code: the groups of each async stage
    /// that no op of the loop reads complete before the ops after the
    /// loop, as the input's own waits completed them (the schedule waits
    /// only before readers, so nothing else would ever wait for them).
    /// A stage with a reader needs nothing: its last iteration's group is
    /// waited for before that reader, in the epilogue, and each wait also
    /// completes every older group of its queue (docs/semantics.md).
    ///
    /// Counting form: `apipe.wait_group 0` on the stage's queue. Token
    /// form: an empty group, `%t = apipe.commit_group`, and `apipe.wait
    /// %t` (an empty group completes once every older group of its queue
    /// has). In a `gpu.func` whose loop body holds a `gpu.barrier`, the
    /// input's barrier after its waits ordered these copies before the
    /// other threads' later reads: a `gpu.barrier` follows the waits,
    /// unless the op after the loop (`next`) is one.
    pub(super) fn drain(&mut self, next: Option<MlirOperation>) {
        let plan = self.plan;
        let unread: Vec<i64> = plan
            .async_stages
            .iter()
            .copied()
            .filter(|&s| {
                !plan
                    .schedule
                    .iter()
                    .any(|item| matches!(*item, Item::Wait { s: w, .. } if w == s))
            })
            .collect();
        if unread.is_empty() {
            return;
        }
        self.point = Point::Before(plan.loop_op);
        for &s in &unread {
            self.complete_queue(s, false);
        }
        let barrier_next = next.is_some_and(|op| {
            // SAFETY: the op after the loop is kept: live.
            ops::is(&unsafe { OperationRef::from_raw(op) }, "gpu.barrier")
        });
        if self.body_has_barrier() && !barrier_next {
            self.barrier();
        }
    }

    pub(super) fn index_type(&self) -> Type<'c> {
        Type::index(self.context)
    }

    pub(super) fn constant(&mut self, v: i64) -> MlirValue {
        if let Some(&c) = self.constants.get(&v) {
            return c;
        }
        let op = OperationBuilder::new("arith.constant", self.location)
            .add_attributes(&[(
                Identifier::new(self.context, "value"),
                IntegerAttribute::new(self.index_type(), v).into(),
            )])
            .add_results(&[self.index_type()])
            .build()
            .expect("valid constant");
        let anchor = if !self.constants.contains_key(&0) {
            self.plan.loop_op
        } else {
            self.anchor
        };
        // SAFETY: the anchor is live.
        let raw = unsafe { insert_before(anchor, op) };
        // SAFETY: just built with one result.
        let result = unsafe { mlir_sys::mlirOperationGetResult(raw, 0) };
        self.constants.insert(v, result);
        result
    }

    /// The index constant with the low 64 bits of `v`: iteration numbers
    /// and induction values up to `2^64 - 1` (unsigned loops) have the
    /// same bits as the `i64` the attribute holds.
    pub(super) fn wide_constant(&mut self, v: i128) -> MlirValue {
        self.constant(v as i64)
    }

    /// `arith.cmpi` with `predicate` (`slt`, `ult`).
    pub(super) fn compare(&mut self, predicate: &str, lhs: MlirValue, rhs: MlirValue) -> MlirValue {
        let op = melior::dialect::arith::cmpi(
            self.context,
            match predicate {
                "ult" => melior::dialect::arith::CmpiPredicate::Ult,
                _ => melior::dialect::arith::CmpiPredicate::Slt,
            },
            self.value(lhs),
            self.value(rhs),
            self.location,
        );
        let raw = self.insert(op);
        // SAFETY: one result.
        unsafe { mlir_sys::mlirOperationGetResult(raw, 0) }
    }

    /// `arith.select %condition, %then, %otherwise` on index values.
    pub(super) fn select(
        &mut self,
        condition: MlirValue,
        then: MlirValue,
        otherwise: MlirValue,
    ) -> MlirValue {
        let op = melior::dialect::arith::select(
            self.value(condition),
            self.value(then),
            self.value(otherwise),
            self.location,
        );
        let raw = self.insert(op);
        // SAFETY: one result.
        unsafe { mlir_sys::mlirOperationGetResult(raw, 0) }
    }

    pub(super) fn arith(&mut self, name: &str, lhs: MlirValue, rhs: MlirValue) -> MlirValue {
        let op = OperationBuilder::new(name, self.location)
            .add_operands(&[self.value(lhs), self.value(rhs)])
            .add_results(&[self.index_type()])
            .build()
            .expect("valid arith op");
        let raw = self.insert(op);
        // SAFETY: one result.
        unsafe { mlir_sys::mlirOperationGetResult(raw, 0) }
    }

    /// The 0-based iteration number as an index value.
    pub(super) fn iteration_index(&mut self, it: Iteration) -> MlirValue {
        if let Some(&v) = self.part.index.get(&it) {
            return v;
        }
        let v = match it {
            Iteration::Absolute(i) => self.wide_constant(i),
            Iteration::FromEnd(m) => {
                let c = self.constant(m);
                self.arith("arith.subi", self.trip.unwrap(), c)
            }
            Iteration::Kernel(0) => self.kernel_counter.unwrap(),
            Iteration::Kernel(o) => {
                let c = self.constant(o);
                self.arith("arith.addi", self.kernel_counter.unwrap(), c)
            }
        };
        self.part.index.insert(it, v);
        v
    }

    /// The induction variable `lb + it * step` of iteration `it`.
    pub(super) fn induction(&mut self, it: Iteration) -> MlirValue {
        if let Some(&v) = self.part.induction.get(&it) {
            return v;
        }
        let bounds = self.plan.bounds;
        let v = match (it, bounds.lower, bounds.step) {
            // `lb + i * step` lies in [lb, ub): its low 64 bits are exact
            // whether the loop reads them signed or unsigned.
            (Iteration::Absolute(i), Some(l), Some(s)) => {
                self.wide_constant(i128::from(l).wrapping_add(i.wrapping_mul(i128::from(s))))
            }
            _ => {
                let i = self.iteration_index(it);
                let scaled = if bounds.step == Some(1) {
                    i
                } else {
                    self.arith("arith.muli", i, self.plan.step)
                };
                if bounds.lower == Some(0) {
                    scaled
                } else {
                    self.arith("arith.addi", self.plan.lower, scaled)
                }
            }
        };
        self.part.induction.insert(it, v);
        v
    }

    /// The buffer version `it mod versions`.
    pub(super) fn version(&mut self, it: Iteration, versions: i64) -> MlirValue {
        if let Some(&v) = self.part.version.get(&(it, versions)) {
            return v;
        }
        let v = match it {
            Iteration::Absolute(i) => self.wide_constant(i.rem_euclid(i128::from(versions))),
            _ => {
                let i = self.iteration_index(it);
                let c = self.constant(versions);
                self.arith("arith.remui", i, c)
            }
        };
        self.part.version.insert((it, versions), v);
        v
    }

    /// Iteration −1 of each yielded value is the iter_arg's initial value,
    /// so iteration 0 reads the init like any other iteration reads the
    /// previous yield.
    pub(super) fn seed_inits(&mut self) {
        for (&v, &init) in self.plan.yielded.iter().zip(&self.plan.inits) {
            self.table.insert((key(v), Iteration::Absolute(-1)), init);
        }
    }

    /// The yielded values of iteration `it` (the loop results when `it` is
    /// the last iteration).
    pub(super) fn last_values(&self, it: Iteration) -> Vec<MlirValue> {
        self.plan
            .yielded
            .iter()
            .map(|&v| self.lookup(key(v), it))
            .collect()
    }

    pub(super) fn lookup(&self, key: usize, it: Iteration) -> MlirValue {
        *self
            .table
            .get(&(key, it))
            .unwrap_or_else(|| panic!("no value for {key:#x} at {it:?}"))
    }

    /// Emits one time step (or the kernel body): `active(s)` is the
    /// iteration stage `s` works on, `None` when the stage is inactive;
    /// `barriers` says where the step's `gpu.barrier`s go.
    pub(super) fn emit_part(
        &mut self,
        active: &dyn Fn(i64) -> Option<Iteration>,
        barriers: StepBarriers,
    ) {
        self.part = PartCache::default();
        let plan = self.plan;
        let mut last_barrier = false;
        for (gap, item) in plan.schedule.iter().map(Some).chain([None]).enumerate() {
            self.emit_barriers(gap, active, &barriers, &mut last_barrier);
            let Some(item) = item else { break };
            match *item {
                Item::Op(k) => {
                    if let Some(it) = active(plan.stage[k]).filter(|_| !plan.barriers.drops(k)) {
                        // SAFETY: the original op is live.
                        let is_barrier = ops::is(
                            &unsafe { OperationRef::from_raw(plan.body[k]) },
                            "gpu.barrier",
                        );
                        // A user's barrier right after a placed one (or
                        // another) adds nothing: never two in a row.
                        if !(is_barrier && last_barrier) {
                            self.emit_op(k, it);
                        }
                        last_barrier = is_barrier;
                    }
                }
                Item::Commit(s) => {
                    // The carried token's type, parsed once by the analysis.
                    let token = (self.sync == SyncForm::Tokens)
                        // SAFETY: a type of this context.
                        .then(|| unsafe { Type::from_raw(plan.token_type) });
                    let raw = self.insert(build::commit_group(
                        self.context,
                        Some(s),
                        token,
                        self.location,
                    ));
                    if let (SyncForm::Tokens, Some(it)) = (self.sync, active(s)) {
                        // SAFETY: one result.
                        let token = unsafe { mlir_sys::mlirOperationGetResult(raw, 0) };
                        self.table.insert((s as usize, it), token);
                    }
                    last_barrier = false;
                }
                Item::Wait { s, t, pending } => {
                    if let Some(it) = active(t) {
                        let op = match self.sync {
                            SyncForm::Tokens => {
                                let token = self.lookup(s as usize, it);
                                build::wait(self.context, &[self.value(token)], self.location)
                            }
                            SyncForm::Counting => build::wait_group(
                                self.context,
                                pending,
                                (s != 0).then_some(s),
                                self.location,
                            ),
                        };
                        self.insert(op);
                        last_barrier = false;
                    }
                }
            }
        }
    }

    /// Remaps the operands of the clone `clone` (and of the ops nested in
    /// it) for iteration `it`: the induction variable, body results (of
    /// iteration `it`, or made again where [`Plan::rematerialized`] says
    /// so), iter_args and versioned buffers. `k`: the body op it clones;
    /// `None` for a view made again ([`Self::rematerialize`]), whose body
    /// operands are all made again too. The insertion point is before
    /// `clone`.
    fn remap(&mut self, clone: MlirOperation, k: Option<usize>, it: Iteration) {
        let plan = self.plan;
        // SAFETY: live op.
        let clone_ref = unsafe { OperationRef::from_raw(clone) };
        for inner in ops::self_and_nested_ops(&clone_ref) {
            for (i, operand) in inner.operands().enumerate() {
                let raw = operand.to_raw();
                let replacement = if raw.ptr == plan.induction.ptr {
                    Some(self.induction(it))
                } else if let Some(&p) = plan.produced.get(&key(raw)) {
                    let again = match k {
                        None => true,
                        Some(k) => {
                            plan.rematerialized.contains(&key(raw)) && plan.stage[p] < plan.stage[k]
                        }
                    };
                    Some(if again {
                        self.rematerialize(key(raw), it)
                    } else {
                        self.lookup(key(raw), it)
                    })
                } else if let Some(&v) = plan.iter_args.get(&key(raw)) {
                    Some(self.lookup(v, it.previous()))
                } else if let Some(&(b, expanded)) = self.expanded.get(&key(raw)) {
                    let buffer = &plan.buffers[b];
                    let version = self.version(it, buffer.versions);
                    let view = multi_buffer::subview(
                        self.context,
                        buffer,
                        expanded,
                        version,
                        self.location,
                    );
                    let view = self.insert(view);
                    // SAFETY: one result.
                    Some(unsafe { mlir_sys::mlirOperationGetResult(view, 0) })
                } else {
                    None
                };
                if let Some(r) = replacement {
                    // SAFETY: `inner` and `r` are live; no other handle
                    // changes `inner` meanwhile.
                    let (mut inner, r) = unsafe {
                        (
                            melior::ir::operation::OperationRefMut::from_raw(inner.to_raw()),
                            Value::from_raw(r),
                        )
                    };
                    inner.set_operand(i, r);
                }
            }
            let async_stage = k.filter(|&k| plan.async_stages.contains(&plan.stage[k]));
            if let Some(k) = async_stage.filter(|_| ops::is(&inner, ops::COPY)) {
                // Copies of async stage s go on queue s (RFC 0077).
                let queue =
                    IntegerAttribute::new(IntegerType::new(self.context, 64).into(), plan.stage[k]);
                // SAFETY: a live op.
                unsafe {
                    mlir_sys::mlirOperationSetAttributeByName(
                        inner.to_raw(),
                        melior::StringRef::new(attributes::QUEUE).to_raw(),
                        queue.to_raw(),
                    )
                };
            }
        }
    }

    /// The body value `v` made again at the insertion point for iteration
    /// `it` ([`super::analysis::rematerializable`]): a clone of its op,
    /// with every body operand made again too, so that it depends only on
    /// the induction variable of `it` and values from outside the loop.
    /// The table is not changed (the clone serves this use only).
    fn rematerialize(&mut self, v: usize, it: Iteration) -> MlirValue {
        let p = self.plan.produced[&v];
        // SAFETY: the original op is live.
        let original = unsafe { OperationRef::from_raw(self.plan.body[p]) };
        let index = original
            .results()
            .position(|r| key(r.to_raw()) == v)
            .unwrap_or_default();
        let clone = self.clone_remapped(p, None, it);
        // SAFETY: the clone has the original's results.
        unsafe { mlir_sys::mlirOperationGetResult(clone, index as isize) }
    }

    /// Clones body op `p` at the insertion point for iteration `it`, its
    /// operands remapped ([`Self::remap`], `k` as there).
    fn clone_remapped(&mut self, p: usize, k: Option<usize>, it: Iteration) -> MlirOperation {
        // SAFETY: the original op is live.
        let original = unsafe { OperationRef::from_raw(self.plan.body[p]) };
        let clone = self.insert(rewrite::detached_clone(original));
        let saved = self.point;
        self.point = Point::Before(clone);
        self.remap(clone, k, it);
        self.point = saved;
        clone
    }

    /// The barriers of gap `gap` (before schedule item `gap`) of a step;
    /// never two in a row.
    pub(super) fn emit_barriers(
        &mut self,
        gap: usize,
        active: &dyn Fn(i64) -> Option<Iteration>,
        barriers: &StepBarriers,
        last_barrier: &mut bool,
    ) {
        let wanted = match barriers {
            StepBarriers::None => false,
            StepBarriers::Gaps(gaps) => gaps.contains(&gap),
            StepBarriers::Conservative(pairs) => pairs
                .iter()
                .any(|&(g, stage)| g == gap && active(stage).is_some()),
        };
        if wanted && !*last_barrier {
            self.barrier();
            *last_barrier = true;
        }
    }

    /// Clones body op `k` for iteration `it` and remaps its operands (and
    /// those of the ops nested in it).
    pub(super) fn emit_op(&mut self, k: usize, it: Iteration) {
        let plan = self.plan;
        let clone = self.clone_remapped(k, Some(k), it);
        // SAFETY: the original is live.
        let original = unsafe { OperationRef::from_raw(plan.body[k]) };
        for (j, r) in original.results().enumerate() {
            // SAFETY: the clone has the same results.
            let new = unsafe { mlir_sys::mlirOperationGetResult(clone, j as isize) };
            self.table.insert((key(r.to_raw()), it), new);
        }
    }

    /// A static trip count `n` (up to `2^64 - 1`: time steps are `i128`).
    pub(super) fn emit_static(&mut self, count: u64) {
        let plan = self.plan;
        let s_max = i128::from(plan.max_stage);
        let n = i128::from(count);
        if n <= 0 {
            return;
        }
        let range = move |tau: i128| {
            move |s: i64| {
                let i = tau - i128::from(s);
                (i >= 0 && i < n).then_some(Iteration::Absolute(i))
            }
        };
        for tau in 0..s_max.min(n + s_max) {
            self.emit_part(&range(tau), plan.barriers.fixed(count, tau));
        }
        if n > s_max {
            let upper = self.wide_constant(n - s_max);
            // A kernel of more than i64::MAX iterations counts unsigned.
            let unsigned = n - s_max > i128::from(i64::MAX);
            self.emit_kernel(upper, unsigned, &|m| Iteration::Absolute(n - i128::from(m)));
        }
        for tau in n.max(s_max)..n + s_max {
            self.emit_part(&range(tau), plan.barriers.fixed(count, tau));
        }
    }

    /// A dynamic trip count: `scf.index_switch` on `min(N, S)`; returns the
    /// loop results (the switch results).
    pub(super) fn emit_dynamic(&mut self) -> Vec<MlirValue> {
        let s_max = self.plan.max_stage;
        // The trip count as `trip_count::trip_count` defines it, in 64-bit
        // arithmetic that never wraps: `lb < ub ? ceildivui(ub - lb, step)
        // : 0`, compared as the loop compares.
        let bounds = self.plan.bounds;
        let runs = self.compare(
            if bounds.unsigned { "ult" } else { "slt" },
            self.plan.lower,
            self.plan.upper,
        );
        let diff = self.arith("arith.subi", self.plan.upper, self.plan.lower);
        let step = if bounds.step.is_some() {
            self.plan.step
        } else {
            // A zero step is undefined for `scf.for`; keep the division
            // defined (no trap) for it.
            let one = self.constant(1);
            self.arith("arith.maxui", self.plan.step, one)
        };
        let count = self.arith("arith.ceildivui", diff, step);
        let zero = self.constant(0);
        let trip = self.select(runs, count, zero);
        let cap = self.constant(s_max);
        let selector = self.arith("arith.minui", trip, cap);
        let regions: Vec<Region> = (0..=s_max)
            .map(|_| {
                let region = Region::new();
                let block = Block::new(&[]);
                block.append_operation(melior::dialect::scf::r#yield(&[], self.location));
                region.append_block(block);
                region
            })
            .collect();
        let cases: Vec<i64> = (0..s_max).collect();
        let result_types: Vec<Type> = self
            .plan
            .yielded
            .iter()
            .map(|&v| self.value(v).r#type())
            .collect();
        let switch = melior::dialect::scf::index_switch(
            self.context,
            self.value(selector),
            &result_types,
            DenseI64ArrayAttribute::new(self.context, &cases),
            regions,
            self.location,
        );
        let switch = self.insert(switch);
        // SAFETY: live op.
        let switch = unsafe { OperationRef::from_raw(switch) };
        let yield_of = |r: usize| {
            switch
                .region(r)
                .unwrap()
                .first_block()
                .unwrap()
                .terminator()
                .unwrap()
                .to_raw()
        };
        // Region 0 is the default (N >= S); regions 1.. are cases 0..S-1.
        // Each region yields the values of its last iteration.
        let finish = |emitter: &mut Self, r: usize, it: Iteration| {
            let old = yield_of(r);
            let raw = emitter.last_values(it);
            let values: Vec<Value> = raw.into_iter().map(|v| emitter.value(v)).collect();
            let new = melior::dialect::scf::r#yield(&values, emitter.location);
            // SAFETY: the old yield is live; it has no results.
            unsafe {
                insert_before(old, new);
                rewrite::erase_op(OperationRef::from_raw(old));
            }
        };
        for c in 0..s_max {
            self.point = Point::Before(yield_of(c as usize + 1));
            self.table.clear();
            self.seed_inits();
            self.emit_static(c as u64);
            finish(self, c as usize + 1, Iteration::Absolute(i128::from(c) - 1));
        }
        self.point = Point::Before(yield_of(0));
        self.table.clear();
        self.seed_inits();
        self.trip = Some(trip);
        let plan = self.plan;
        for tau in 0..s_max {
            self.emit_part(
                &move |s: i64| (tau >= s).then_some(Iteration::Absolute(i128::from(tau - s))),
                plan.barriers.prologue(tau),
            );
        }
        let c = self.constant(s_max);
        let upper = self.arith("arith.subi", trip, c);
        self.emit_kernel(upper, bounds.may_exceed_i64(), &Iteration::FromEnd);
        for k in 1..=s_max {
            self.emit_part(
                &move |s: i64| (s >= k).then_some(Iteration::FromEnd(s - k + 1)),
                plan.barriers.epilogue(k),
            );
        }
        finish(self, 0, Iteration::FromEnd(1));
        (0..self.plan.yielded.len())
            // SAFETY: the switch has one result per yielded value.
            .map(|j| unsafe { mlir_sys::mlirOperationGetResult(switch.to_raw(), j as isize) })
            .collect()
    }

    /// The steady-state loop `scf.for %t = 0 to upper step 1` with rotating
    /// iter_args (`scf.for unsigned` when `upper` may exceed `i64::MAX`);
    /// `after(m)` names iteration `N − m` after the loop.
    pub(super) fn emit_kernel(
        &mut self,
        upper: MlirValue,
        unsigned: bool,
        after: &dyn Fn(i64) -> Iteration,
    ) {
        let plan = self.plan;
        let s_max = plan.max_stage;
        let index = self.index_type();
        let mut inits = Vec::new();
        let mut types = vec![(index, self.location)];
        for c in &plan.carried {
            for d in 1..=c.distance {
                inits
                    .push(self.lookup(c.key, Iteration::Absolute(i128::from(s_max - d - c.stage))));
                // SAFETY: a type of this context.
                types.push((unsafe { Type::from_raw(c.ty) }, self.location));
            }
        }
        let region = Region::new();
        let block = region.append_block(Block::new(&types));
        let block_raw = block.to_raw();
        self.kernel_counter = Some(block.argument(0).unwrap().to_raw());
        let mut argument = 1;
        for c in &plan.carried {
            for d in 1..=c.distance {
                let a = block.argument(argument).unwrap().to_raw();
                self.table
                    .insert((c.key, Iteration::Kernel(s_max - d - c.stage)), a);
                argument += 1;
            }
        }
        let saved = self.point;
        self.point = Point::End(block_raw);
        self.emit_part(
            &move |s: i64| Some(Iteration::Kernel(s_max - s)),
            plan.barriers.kernel(),
        );
        let mut yielded = Vec::new();
        let mut argument = 1;
        for c in &plan.carried {
            for d in 1..=c.distance {
                yielded.push(self.value(if d == 1 {
                    self.lookup(c.key, Iteration::Kernel(s_max - c.stage))
                } else {
                    block.argument(argument - 1).unwrap().to_raw()
                }));
                argument += 1;
            }
        }
        let terminator = melior::dialect::scf::r#yield(&yielded, self.location);
        // SAFETY: the block is live (owned by `region`).
        unsafe { BlockRef::from_raw(block_raw) }.append_operation(terminator);
        self.point = saved;
        self.kernel_counter = None;
        let zero = self.constant(0);
        let one = self.constant(1);
        let mut operands = vec![self.value(zero), self.value(upper), self.value(one)];
        operands.extend(inits.iter().map(|&v| self.value(v)));
        let result_types: Vec<Type> = types[1..].iter().map(|(t, _)| *t).collect();
        let mut builder = OperationBuilder::new("scf.for", self.location)
            .add_operands(&operands)
            .add_results(&result_types)
            .add_regions([region]);
        if unsigned {
            builder = builder.add_attributes(&[(
                Identifier::new(self.context, "unsignedCmp"),
                melior::ir::attribute::Attribute::unit(self.context),
            )]);
        }
        let op = builder.build().expect("valid scf.for");
        let raw = self.insert(op);
        let mut result = 0;
        for c in &plan.carried {
            for d in 1..=c.distance {
                // SAFETY: the loop has one result per iter_arg.
                let r = unsafe { mlir_sys::mlirOperationGetResult(raw, result) };
                self.table.insert((c.key, after(d + c.stage)), r);
                result += 1;
            }
        }
    }
}
