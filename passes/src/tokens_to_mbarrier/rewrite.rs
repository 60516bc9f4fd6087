//! The IR rewrite of `apipe-tokens-to-mbarrier` for one function, after its
//! [`FunctionPlan`] is made (steps 3-6 of the pass doc).

use super::plan::{FunctionKind, FunctionPlan};
use crate::{group_distance, rewrite, token_values, workgroup_memory};
use apipe_dialect::{attributes, build, ops};
use melior::{
    dialect::{arith, memref, scf},
    ir::{
        attribute::{Attribute, IntegerAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::{IntegerType, MemRefType},
        Block, BlockLike, BlockRef, Identifier, Location, Operation, OperationRef, Region,
        RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use std::collections::{BTreeMap, BTreeSet};

/// The count that a token naming no group (`apipe.ready`) becomes: so far
/// below every count that `count - j` is never below K, and the guard skips
/// its wait (2^40 groups are never committed).
pub const READY_COUNT: i64 = -(1 << 40);

/// Rewrites `plan.function` into the mbarrier form.
pub fn rewrite(plan: &FunctionPlan) {
    let function = plan.function;
    let Some(entry) = ops::blocks_of(&function).first().copied() else {
        return;
    };
    let context_ref = function.context();
    // SAFETY: `context_ref` is bound first (a temporary's `to_ref` would dangle).
    let context: &Context = unsafe { context_ref.to_ref() };
    let location = function.location();
    let index = Type::index(context);
    // 3. Tokens become counts (index values), in place.
    retype_tokens(&function, index);
    // 4. Rings and their initialisation, at the start of the function.
    let mut prologue = Prologue {
        entry,
        at: 0,
        location,
    };
    let ring_type = |slots: u64| -> Type {
        let space = IntegerAttribute::new(IntegerType::new(context, 64).into(), 3).into();
        MemRefType::new(
            IntegerType::new(context, 64).into(),
            &[slots as i64],
            None,
            Some(space),
        )
        .into()
    };
    let mut rings = BTreeMap::new();
    for (&queue, &slots) in &plan.slots {
        let ring: Value = match plan.kind {
            FunctionKind::Kernel => workgroup_memory::add_workgroup_attribution(
                &function,
                ring_type(slots),
                Some(8),
                location,
            ),
            FunctionKind::Host => prologue
                .push(memref::alloca(
                    context,
                    MemRefType::try_from(ring_type(slots)).unwrap(),
                    &[],
                    &[],
                    None,
                    location,
                ))
                .result(0)
                .unwrap()
                .into(),
        };
        rings.insert(queue, ring);
    }
    let mut emitter = Emitter {
        context,
        index,
        plan,
        rings,
        constants: BTreeMap::new(),
        entry,
    };
    let zero = emitter.constant_at(&mut prologue, 0);
    if !plan.slots.is_empty() {
        match plan.kind {
            FunctionKind::Host => {
                let one = emitter.constant_at(&mut prologue, 1);
                for ring in emitter.rings.values() {
                    prologue.push(emitter.init(*ring, one));
                }
            }
            FunctionKind::Kernel => emitter.kernel_init(&mut prologue),
        }
    }
    // 5. Commits, waits and `ready` ops, in program order.
    let mut counters: Counters = plan.slots.keys().map(|&q| (q, zero)).collect();
    emitter.block(entry, &mut counters);
}

type Counters<'c, 'a> = BTreeMap<i64, Value<'c, 'a>>;

/// Inserts ops one after the other at the start of the entry block.
struct Prologue<'c, 'a> {
    entry: BlockRef<'c, 'a>,
    at: usize,
    location: Location<'c>,
}

impl<'c, 'a> Prologue<'c, 'a> {
    fn push(&mut self, op: impl Into<Operation<'c>>) -> OperationRef<'c, 'a> {
        let op = self.entry.insert_operation(self.at, op.into());
        self.at += 1;
        op
    }
}

struct Emitter<'p, 'c, 'a> {
    context: &'c Context,
    index: Type<'c>,
    plan: &'p FunctionPlan<'c, 'a>,
    rings: BTreeMap<i64, Value<'c, 'a>>,
    /// Index constants made in the prologue, by value.
    constants: BTreeMap<i64, Value<'c, 'a>>,
    entry: BlockRef<'c, 'a>,
}

/// Step 3: retypes every `!apipe.token` value of `function` (op results
/// and block arguments, e.g. iter_args) to `index` in place.
fn retype_tokens<'c: 'a, 'a>(function: &OperationRef<'c, 'a>, index: Type<'c>) {
    for op in ops::nested_ops(function) {
        if group_distance::enclosing_function(op) != Some(*function) {
            continue;
        }
        for result in op.results() {
            if ops::is_token(result) {
                result.set_type(index);
            }
        }
        for block in ops::blocks_of(&op) {
            for i in 0..block.argument_count() {
                let argument = block.argument(i).unwrap();
                if ops::is_token(argument) {
                    argument.set_type(index);
                }
            }
        }
    }
}

impl<'c, 'a> Emitter<'_, 'c, 'a> {
    fn index_attribute(&self, value: i64) -> Attribute<'c> {
        IntegerAttribute::new(self.index, value).into()
    }

    /// An index constant in the prologue (one per value).
    fn constant_at(&mut self, prologue: &mut Prologue<'c, 'a>, value: i64) -> Value<'c, 'a> {
        if let Some(v) = self.constants.get(&value) {
            return *v;
        }
        let v: Value = prologue
            .push(arith::constant(
                self.context,
                self.index_attribute(value),
                prologue.location,
            ))
            .result(0)
            .unwrap()
            .into();
        self.constants.insert(value, v);
        v
    }

    /// An index constant usable anywhere in the function: made at the
    /// start of the entry block the first time.
    fn constant(&mut self, value: i64) -> Value<'c, 'a> {
        if let Some(v) = self.constants.get(&value) {
            return *v;
        }
        let op = arith::constant(
            self.context,
            self.index_attribute(value),
            self.plan.function.location(),
        );
        let v: Value = self.entry.insert_operation(0, op).result(0).unwrap().into();
        self.constants.insert(value, v);
        v
    }

    fn init(&self, ring: Value<'c, 'a>, count: Value<'c, 'a>) -> Operation<'c> {
        build::mbarrier_init(self.context, ring, count, self.plan.function.location())
    }

    /// Step 4, in a kernel: thread (0, 0, 0) initialises every ring with
    /// the block size as the arrival count, then a `gpu.barrier` orders
    /// the initialisation before every other thread's first use.
    fn kernel_init(&mut self, prologue: &mut Prologue<'c, 'a>) {
        let location = prologue.location;
        let zero = self.constant_at(prologue, 0);
        let dimension = |name: &str, d: &str| -> Operation<'c> {
            OperationBuilder::new(name, location)
                .add_attributes(&[(
                    Identifier::new(self.context, "dimension"),
                    Attribute::parse(self.context, &format!("#gpu<dim {d}>")).unwrap(),
                )])
                .add_results(&[self.index])
                .build()
                .expect("gpu id op")
        };
        let mut ids = Vec::new();
        let mut sizes = Vec::new();
        for d in ["x", "y", "z"] {
            ids.push(
                prologue
                    .push(dimension("gpu.thread_id", d))
                    .result(0)
                    .unwrap()
                    .into(),
            );
            sizes.push(
                prologue
                    .push(dimension("gpu.block_dim", d))
                    .result(0)
                    .unwrap()
                    .into(),
            );
        }
        let fold = |prologue: &mut Prologue<'c, 'a>,
                    values: &[Value<'c, 'a>],
                    op: fn(Value<'c, 'a>, Value<'c, 'a>, Location<'c>) -> Operation<'c>|
         -> Value<'c, 'a> {
            let mut acc = values[0];
            for v in &values[1..] {
                acc = prologue
                    .push(op(acc, *v, location))
                    .result(0)
                    .unwrap()
                    .into();
            }
            acc
        };
        let any_id = fold(prologue, &ids, |a, b, l| arith::ori(a, b, l));
        let threads = fold(prologue, &sizes, |a, b, l| arith::muli(a, b, l));
        let first: Value = prologue
            .push(arith::cmpi(
                self.context,
                arith::CmpiPredicate::Eq,
                any_id,
                zero,
                location,
            ))
            .result(0)
            .unwrap()
            .into();
        let then_block = Block::new(&[]);
        for ring in self.rings.values() {
            then_block.append_operation(self.init(*ring, threads));
        }
        then_block.append_operation(scf::r#yield(&[], location));
        let then_region = Region::new();
        then_region.append_block(then_block);
        prologue.push(scf::r#if(first, &[], then_region, Region::new(), location));
        prologue.push(
            OperationBuilder::new("gpu.barrier", location)
                .build()
                .expect("gpu.barrier"),
        );
    }

    fn block(&mut self, block: BlockRef<'c, 'a>, counters: &mut Counters<'c, 'a>) {
        let mut list = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            list.push(op);
            next = op.next_in_block();
        }
        for op in list {
            self.op(op, counters);
        }
    }

    fn insert_before(
        &self,
        anchor: OperationRef<'c, 'a>,
        op: impl Into<Operation<'c>>,
    ) -> Value<'c, 'a> {
        anchor
            .block()
            .unwrap()
            .insert_operation_before(anchor, op.into())
            .result(0)
            .map(Into::into)
            .unwrap_or_else(|_| unreachable!("an op with a result"))
    }

    fn insert_op_before(&self, anchor: OperationRef<'c, 'a>, op: impl Into<Operation<'c>>) {
        anchor
            .block()
            .unwrap()
            .insert_operation_before(anchor, op.into());
    }

    /// The slot of count `count` in a ring of `slots` (a power of two or
    /// not: `count mod K` as `count & (K - 1)` when K is a power of two).
    fn slot_of(
        &mut self,
        anchor: OperationRef<'c, 'a>,
        count: Value<'c, 'a>,
        slots: u64,
    ) -> Value<'c, 'a> {
        let location = anchor.location();
        if slots == 1 {
            return self.constant(0);
        }
        if slots.is_power_of_two() {
            let mask = self.constant(slots as i64 - 1);
            self.insert_before(anchor, arith::andi(count, mask, location))
        } else {
            let k = self.constant(slots as i64);
            self.insert_before(anchor, arith::remui(count, k, location))
        }
    }

    /// The parity of the phase of count `count`: `(count div K) mod 2`,
    /// as `(count & K) != 0` for a power of two; `odd = false` gives the
    /// other parity (the previous phase of the slot).
    fn parity_of(
        &mut self,
        anchor: OperationRef<'c, 'a>,
        count: Value<'c, 'a>,
        slots: u64,
        odd: bool,
    ) -> Value<'c, 'a> {
        let location = anchor.location();
        let zero = self.constant(0);
        let bit = if slots.is_power_of_two() {
            let k = self.constant(slots as i64);
            self.insert_before(anchor, arith::andi(count, k, location))
        } else {
            let k = self.constant(slots as i64);
            let one = self.constant(1);
            let phase = self.insert_before(anchor, arith::divui(count, k, location));
            self.insert_before(anchor, arith::andi(phase, one, location))
        };
        let predicate = if odd {
            arith::CmpiPredicate::Ne
        } else {
            arith::CmpiPredicate::Eq
        };
        self.insert_before(
            anchor,
            arith::cmpi(self.context, predicate, bit, zero, location),
        )
    }

    fn wait_op(
        &self,
        ring: Value<'c, 'a>,
        slot: Value<'c, 'a>,
        parity: Value<'c, 'a>,
        location: Location<'c>,
        attributes: &[(Identifier<'c>, Attribute<'c>)],
    ) -> Operation<'c> {
        build::with_discardable_attributes(
            build::mbarrier_wait(self.context, ring, slot, parity, location),
            attributes,
        )
    }

    fn op(&mut self, op: OperationRef<'c, 'a>, counters: &mut Counters<'c, 'a>) {
        let name = ops::name(&op);
        match name {
            ops::COMMIT_GROUP => self.commit(op, counters),
            ops::WAIT => self.wait(op, counters),
            ops::READY => {
                let ready = self.constant(READY_COUNT);
                if op.result_count() == 1 {
                    rewrite::replace_all_uses_with(op.result(0).unwrap().into(), ready);
                }
                rewrite::erase_op(op);
            }
            _ if op.region_count() == 0 || group_distance::is_function(&op) => {}
            _ => {
                let queues: BTreeSet<i64> = group_distance::commit_queues(&op)
                    .into_iter()
                    .filter(|q| counters.contains_key(q))
                    .collect();
                if queues.is_empty() {
                    for block in ops::blocks_of(&op) {
                        self.block(block, &mut counters.clone());
                    }
                    return;
                }
                match name {
                    "scf.for" => self.for_loop(op, counters, &queues),
                    "scf.while" => self.while_loop(op, counters, &queues),
                    _ => self.branches(op, counters, &queues),
                }
            }
        }
    }

    /// Step 5, a commit of group `count` on q: acquire (when planned),
    /// arrive on slot `count mod K`, the token becomes `count`, the counter
    /// moves on.
    fn commit(&mut self, op: OperationRef<'c, 'a>, counters: &mut Counters<'c, 'a>) {
        let queue = attributes::queue(&op);
        let location = op.location();
        let count = counters[&queue];
        let slots = self.plan.slots[&queue];
        let ring = self.rings[&queue];
        let slot = self.slot_of(op, count, slots);
        if self.plan.acquires(&op) {
            let previous = self.parity_of(op, count, slots, false);
            let wait = self.wait_op(ring, slot, previous, location, &[]);
            self.insert_op_before(op, wait);
        }
        self.insert_op_before(
            op,
            build::mbarrier_arrive_copies(self.context, ring, slot, location),
        );
        if op.result_count() == 1 {
            rewrite::replace_all_uses_with(op.result(0).unwrap().into(), count);
        }
        let one = self.constant(1);
        let next = self.insert_before(op, arith::addi(count, one, location));
        counters.insert(queue, next);
        rewrite::erase_op(op);
    }

    /// Step 5, a wait: per planned token `j`, a wait on slot `j mod K` for
    /// the parity of its phase, guarded by `count - j <= K` (the group is among the K newest:
    /// `count - 1 - j` groups were committed after it) when planned.
    fn wait(&mut self, op: OperationRef<'c, 'a>, counters: &Counters<'c, 'a>) {
        let location = op.location();
        let kept: Vec<_> = op.attributes().collect();
        let mut seen = BTreeSet::new();
        for token_wait in self.plan.token_waits(&op).to_vec() {
            let token = op.operand(token_wait.operand).unwrap();
            if !seen.insert((token_wait.queue, token.to_raw().ptr as usize)) {
                continue;
            }
            let slots = self.plan.slots[&token_wait.queue];
            let ring = self.rings[&token_wait.queue];
            let slot = self.slot_of(op, token, slots);
            let parity = self.parity_of(op, token, slots, true);
            let wait = self.wait_op(ring, slot, parity, location, &kept);
            if token_wait.guarded {
                let count = counters[&token_wait.queue];
                let distance = self.insert_before(op, arith::subi(count, token, location));
                let k = self.constant(slots as i64);
                let recent = self.insert_before(
                    op,
                    arith::cmpi(
                        self.context,
                        arith::CmpiPredicate::Ule,
                        distance,
                        k,
                        location,
                    ),
                );
                let then_block = Block::new(&[]);
                then_block.append_operation(wait);
                then_block.append_operation(scf::r#yield(&[], location));
                let then_region = Region::new();
                then_region.append_block(then_block);
                self.insert_op_before(
                    op,
                    scf::r#if(recent, &[], then_region, Region::new(), location),
                );
            } else {
                self.insert_op_before(op, wait);
            }
        }
        rewrite::erase_op(op);
    }

    fn flatten(counters: &Counters<'c, 'a>, queues: &BTreeSet<i64>) -> Vec<Value<'c, 'a>> {
        queues.iter().map(|q| counters[q]).collect()
    }

    fn unflatten(
        counters: &mut Counters<'c, 'a>,
        queues: &BTreeSet<i64>,
        values: &[Value<'c, 'a>],
    ) {
        for (queue, value) in queues.iter().zip(values) {
            counters.insert(*queue, *value);
        }
    }

    fn add_arguments(&self, block: BlockRef<'c, 'a>, count: usize) -> Vec<Value<'c, 'a>> {
        let location = block.parent_operation().unwrap().location();
        (0..count)
            .map(|_| block.add_argument(self.index, location))
            .collect()
    }

    /// `scf.for`: the counters of the queues its body commits on become
    /// iter_args (init: before the loop; yield: at the end of the body;
    /// results: after the loop).
    fn for_loop(
        &mut self,
        op: OperationRef<'c, 'a>,
        counters: &mut Counters<'c, 'a>,
        queues: &BTreeSet<i64>,
    ) {
        let inits = Self::flatten(counters, queues);
        let body = op.region(0).unwrap().first_block().unwrap();
        let arguments = self.add_arguments(body, inits.len());
        let mut inner = counters.clone();
        Self::unflatten(&mut inner, queues, &arguments);
        self.block(body, &mut inner);
        token_values::append_operands(body.terminator().unwrap(), &Self::flatten(&inner, queues));
        let new = token_values::rebuild_with_results(op, &inits, self.index, inits.len());
        Self::unflatten(
            counters,
            queues,
            &token_values::tail_results(new, inits.len()),
        );
    }

    /// `scf.while`: through the before-region arguments, the
    /// `scf.condition` operands, the after-region arguments and its yield.
    fn while_loop(
        &mut self,
        op: OperationRef<'c, 'a>,
        counters: &mut Counters<'c, 'a>,
        queues: &BTreeSet<i64>,
    ) {
        let inits = Self::flatten(counters, queues);
        let count = inits.len();
        let before = op.region(0).unwrap().first_block().unwrap();
        let after = op.region(1).unwrap().first_block().unwrap();
        let before_arguments = self.add_arguments(before, count);
        let mut inner = counters.clone();
        Self::unflatten(&mut inner, queues, &before_arguments);
        self.block(before, &mut inner);
        token_values::append_operands(before.terminator().unwrap(), &Self::flatten(&inner, queues));
        let after_arguments = self.add_arguments(after, count);
        let mut inner = counters.clone();
        Self::unflatten(&mut inner, queues, &after_arguments);
        self.block(after, &mut inner);
        token_values::append_operands(after.terminator().unwrap(), &Self::flatten(&inner, queues));
        let new = token_values::rebuild_with_results(op, &inits, self.index, count);
        Self::unflatten(counters, queues, &token_values::tail_results(new, count));
    }

    /// `scf.if` / `scf.index_switch` / `scf.execute_region`: as extra
    /// results, each region yielding its counters (an `scf.if` without
    /// `else` gets one that yields them unchanged).
    fn branches(
        &mut self,
        op: OperationRef<'c, 'a>,
        counters: &mut Counters<'c, 'a>,
        queues: &BTreeSet<i64>,
    ) {
        let outer = Self::flatten(counters, queues);
        for region in op.regions() {
            match region.first_block() {
                Some(block) => {
                    let mut inner = counters.clone();
                    self.block(block, &mut inner);
                    token_values::append_operands(
                        block.terminator().unwrap(),
                        &Self::flatten(&inner, queues),
                    );
                }
                None => {
                    let block = Block::new(&[]);
                    block.append_operation(scf::r#yield(&outer, op.location()));
                    region.append_block(block);
                }
            }
        }
        let new = token_values::rebuild_with_results(op, &[], self.index, outer.len());
        Self::unflatten(
            counters,
            queues,
            &token_values::tail_results(new, outer.len()),
        );
    }
}
