//! Step 1 of `apipe-software-pipeline`: read the annotations of one `scf.for`,
//! check every precondition, and build the [`Plan`] that the emitter
//! follows. Nothing here changes the IR.
//!
//! The plan holds:
//! - the body ops in original order with their stages, and the **schedule**:
//!   the ops in pipelined body order (`apipe.order`, ties by original order)
//!   with the synchronization items placed among them: a `Wait{s, t}` before
//!   the first op of stage `t` that reads a buffer written by async stage
//!   `s`, and a `Commit(s)` after the last op of async stage `s`; the
//!   barriers among them are placed by [`super::barriers`];
//! - the **carried values**: every body result used by a later stage, and the
//!   token of every async stage that is waited on, with the largest stage
//!   distance to a user (the number of rotating iter_args it needs);
//! - the **buffers** to multi-buffer, each with its own version count
//!   ([`super::multi_buffer`]).

use super::{
    barriers::{self, BarrierMode, BarrierPlan},
    conditional_writes, dependences,
    multi_buffer::{self, Buffer},
    schedule::Assignment,
    SyncForm,
};
use crate::{access, cp_async, tokens_to_mbarrier::divergence::Divergence, trip_count::LoopBounds};
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{attributes, diagnostic, ops};
use melior::ir::{
    attribute::DenseI64ArrayAttribute, operation::OperationLike, BlockLike, OperationRef,
    RegionLike, TypeLike, Value, ValueLike,
};
use mlir_sys::{MlirOperation, MlirType, MlirValue};
use rustc_hash::{FxHashMap, FxHashSet};

/// One entry of the pipelined body order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    /// The body op with this original index.
    Op(usize),
    /// `apipe.commit_group {queue = s}` of async stage `s`.
    Commit(i64),
    /// A wait for the group of async stage `s` of the iteration that stage
    /// `t` works on: `apipe.wait` on its token, or `apipe.wait_group` with
    /// `pending` groups of queue `s` left in flight. Every time step
    /// commits one group per async stage (an empty one when the stage is
    /// inactive), so that group was committed `t - s` steps earlier and
    /// `pending = t - s - 1`, plus one when this step's `Commit(s)` comes
    /// before the wait: the same in the prologue, the kernel and the
    /// epilogue (RFC 0077 "Inter-stage synchronization").
    Wait { s: i64, t: i64, pending: i64 },
}

/// A value that crosses stages: carried through `distance` rotating
/// iter_args of the steady-state loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Carried {
    /// The key of the value in the emitter's table: the address of the
    /// original result, or the async stage number for a token.
    pub key: usize,
    /// The stage that produces it.
    pub stage: i64,
    /// The largest stage distance to a user (>= 1).
    pub distance: i64,
    /// Its type.
    pub ty: MlirType,
}

/// Everything the emitter needs about one loop.
pub(crate) struct Plan {
    pub loop_op: MlirOperation,
    pub body: Vec<MlirOperation>,
    pub stage: Vec<i64>,
    pub max_stage: i64,
    /// The async stages; the copies of async stage `s` go on queue `s`.
    pub async_stages: Vec<i64>,
    pub schedule: Vec<Item>,
    pub carried: Vec<Carried>,
    pub buffers: Vec<Buffer>,
    /// Buffers that async copies write and that keep their type: the
    /// loop's own indexing (slot `iv mod K`) keeps the iterations in
    /// flight apart (`dependences::Accesses::own_slots`).
    pub own_slots: Vec<MlirValue>,
    /// The address of each body result, mapped to its op index.
    pub produced: FxHashMap<usize, usize>,
    /// Views used in a later stage than the one that makes them
    /// ([`rematerializable`]): each user's stage makes its own copy, for
    /// its iteration, instead of carrying the view in an iter_arg.
    pub rematerialized: FxHashSet<usize>,
    pub lower: MlirValue,
    pub upper: MlirValue,
    pub step: MlirValue,
    pub induction: MlirValue,
    /// Body iter_arg key -> key of the value the yield gives for it.
    pub iter_args: FxHashMap<usize, usize>,
    /// The yielded values, one per iter_arg and loop result.
    pub yielded: Vec<MlirValue>,
    /// The initial values of the iter_args.
    pub inits: Vec<MlirValue>,
    /// `!apipe.token`.
    pub token_type: MlirType,
    /// The constant bounds and the signedness of the loop.
    pub bounds: LoopBounds,
    /// The trip count when bounds and step are constants.
    pub trip_count: Option<u64>,
    /// Where the emitter puts `gpu.barrier`s ([`super::barriers`]).
    pub barriers: BarrierPlan,
}

pub(crate) fn key(value: MlirValue) -> usize {
    value.ptr as usize
}

impl Plan {
    /// Brings the values from outside the loop up to date after other
    /// loops were transformed (`replaced`: their results, erased, and what
    /// replaced them): the bounds, step and inits are read again from the
    /// loop's operands, and a buffer that was such a result becomes its
    /// replacement. The loop and its body are live and unchanged (only
    /// innermost loops are transformed, none inside another's body).
    pub(crate) fn refresh(&mut self, replaced: &super::Replaced) {
        if replaced.is_empty() {
            return;
        }
        // SAFETY: the loop is live (see above).
        let loop_op = unsafe { OperationRef::from_raw(self.loop_op) };
        let operands: Vec<MlirValue> = loop_op.operands().map(|v| v.to_raw()).collect();
        if let [lower, upper, step, inits @ ..] = &operands[..] {
            (self.lower, self.upper, self.step) = (*lower, *upper, *step);
            self.inits = inits.to_vec();
        }
        let now = |v: &mut MlirValue| {
            if let Some(&with) = replaced.get(&key(*v)) {
                *v = with;
            }
        };
        self.own_slots.iter_mut().for_each(now);
        for buffer in &mut self.buffers {
            now(&mut buffer.value);
        }
    }
}

/// True if `op` is an `scf.for` that asks for pipelining: it carries
/// `apipe.async_stages`, or an op of its body carries `apipe.stage`.
pub(crate) fn is_annotated<'c: 'a, 'a>(op: &OperationRef<'c, 'a>) -> bool {
    if !ops::is(op, "scf.for") {
        return false;
    }
    if op.has_attribute(attributes::ASYNC_STAGES) {
        return true;
    }
    body_ops(op)
        .iter()
        .any(|o| o.has_attribute(attributes::STAGE))
}

/// The ops of the loop body, terminator excluded.
pub(crate) fn body_ops<'c: 'a, 'a>(op: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    let Some(block) = op.region_at(0).and_then(|r| r.first_block()) else {
        return out;
    };
    let mut next = block.first_operation();
    while let Some(o) = next {
        next = o.next_in_block();
        if next.is_some() {
            out.push(o);
        }
    }
    out
}

fn name_of<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> String {
    op.name().as_string_ref().as_str().unwrap_or("?").to_owned()
}

/// Ops allowed in an async stage besides `apipe.copy`: ops that at most
/// read memory, as MLIR's `MemoryEffectOpInterface` declares it (pure
/// arithmetic, views, thread ids, and reads such as a `memref.load` of an
/// index that a copy uses). Region ops with `HasRecursiveMemoryEffects`
/// (`scf.if`, `scf.for`, ...) pass: their nested ops are checked one by
/// one. Writes, allocations, frees, effects of other kinds and ops without
/// the interface (calls, unregistered ops) are refused.
///
/// A read in an async stage runs earlier in the pipelined loop than in the
/// original one; [`dependences::check`] proves that no write of the loop
/// is reordered against it before the IR changes.
fn at_most_reads<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
    use apipe_dialect::effects::{memory_effects, EffectKind};
    let effects = memory_effects(op);
    effects.recursive
        || effects
            .declared
            .is_some_and(|list| list.iter().all(|e| e.kind == EffectKind::Read))
}

/// The largest `apipe.stage` the pipeliner accepts: the prologue and the
/// epilogue (and, for dynamic trip counts, one schedule per count below the
/// stage count) grow with it.
pub(crate) const MAX_STAGE: i64 = 64;

/// Builds the plan for `loop_op`, or emits every located error it finds.
/// `assigned`: the stages and order picked by [`super::schedule`]; `None`
/// reads the annotations. `barriers`: `None` is `Minimal` inside
/// `gpu.func`, `Off` elsewhere.
pub(crate) fn analyze<'c: 'a, 'a>(
    loop_op: OperationRef<'c, 'a>,
    barriers: Option<BarrierMode>,
    sync: SyncForm,
    assigned: Option<&Assignment>,
    cache: &mut access::AccessCache<'c, 'a>,
) -> Result<Plan, ()> {
    let mut ok = true;
    let loop_location = loop_op.location();
    let error = |ok: &mut bool, location, message: &str| {
        diagnostic::error(location, message);
        *ok = false;
    };
    let body = match assigned {
        // SAFETY: the assignment's ops are live body ops of `loop_op`.
        Some(a) => a
            .ops
            .iter()
            .map(|&o| unsafe { OperationRef::from_raw(o) })
            .collect(),
        None => body_ops(&loop_op),
    };
    let block = loop_op.region(0).unwrap().first_block().unwrap();
    let induction = block.argument(0).unwrap().to_raw();
    let terminator = block.terminator().unwrap();
    // SAFETY: a live block argument.
    if !unsafe { mlir_sys::mlirTypeIsAIndex(mlir_sys::mlirValueGetType(induction)) } {
        error(
            &mut ok,
            loop_location,
            &format!(
                "the pipeliner needs an 'index' induction variable, got {}",
                block.argument(0).unwrap().r#type()
            ),
        );
    }

    // Stages and orders.
    let mut stage = Vec::with_capacity(body.len());
    let mut order = Vec::with_capacity(body.len());
    for (k, op) in body.iter().enumerate() {
        let given = match assigned {
            Some(a) => Some(a.stage[k]),
            None => attributes::integer(op, attributes::STAGE),
        };
        match given {
            None => error(
                &mut ok,
                op.location(),
                &format!(
                    "'{}' op in a pipelined loop has no 'apipe.stage' (annotate every op, or give the loop 'apipe.num_stages' to schedule the rest)",
                    name_of(op)
                ),
            ),
            Some(s) if s < 0 => error(
                &mut ok,
                op.location(),
                &format!(
                    "'{}' op has a negative 'apipe.stage' ({s}); stages are >= 0",
                    name_of(op)
                ),
            ),
            Some(s) if s > MAX_STAGE => error(
                &mut ok,
                op.location(),
                &format!(
                    "'{}' op has 'apipe.stage' = {s}; the pipeliner supports stages up to {MAX_STAGE} (the prologue and epilogue grow with the stage count)",
                    name_of(op)
                ),
            ),
            Some(_) => {}
        }
        stage.push(given.unwrap_or(0).clamp(0, MAX_STAGE));
        order.push(match assigned {
            Some(a) => a.order[k],
            None => attributes::integer(op, attributes::ORDER),
        });
    }
    let ordered = order.iter().filter(|o| o.is_some()).count();
    if ordered != 0 && ordered != body.len() {
        let op = body[order.iter().position(|o| o.is_none()).unwrap()];
        error(
            &mut ok,
            op.location(),
            &format!(
                "'{}' op has no 'apipe.order' but other ops of the loop do",
                name_of(&op)
            ),
        );
    }
    if !ok {
        // Stages are needed by every later check.
        return Err(());
    }
    let max_stage = stage.iter().copied().max().unwrap_or(0);

    // Async stages.
    let mut async_stages: Vec<i64> = assigned.map(|a| a.async_stages.clone()).unwrap_or_default();
    if let (None, Ok(attr)) = (assigned, loop_op.attribute(attributes::ASYNC_STAGES)) {
        match DenseI64ArrayAttribute::try_from(attr) {
            Ok(array) => {
                for i in 0..array.len() {
                    let s = array.element(i).unwrap();
                    if !async_stages.contains(&s) {
                        async_stages.push(s);
                    }
                }
            }
            Err(_) => error(
                &mut ok,
                loop_location,
                "'apipe.async_stages' must be an array<i64: ...>",
            ),
        }
    }

    // Per op: the nested ops (self included), copies, and checks.
    let nested: Vec<Vec<OperationRef>> = body.iter().map(ops::self_and_nested_ops).collect();
    let mut copies_of_stage: FxHashMap<i64, usize> = FxHashMap::default();
    for (k, _) in body.iter().enumerate() {
        let is_async = async_stages.contains(&stage[k]);
        for inner in &nested[k] {
            let name = name_of(inner);
            if name == ops::COPY {
                if is_async {
                    *copies_of_stage.entry(stage[k]).or_default() += 1;
                } else {
                    error(
                        &mut ok,
                        inner.location(),
                        &format!(
                            "'{name}' op is in stage {}, which 'apipe.async_stages' does not list: it would stay asynchronous with no commit or wait; list stage {} in 'apipe.async_stages'",
                            stage[k], stage[k]
                        ),
                    );
                }
            } else if crate::group_distance::is_call(inner)
                || crate::group_distance::unknown_call(inner)
            {
                error(
                    &mut ok,
                    inner.location(),
                    &format!("'{name}' op cannot be moved by the pipeliner: a call may have side effects (calls are refused in every stage; inline the callee first, e.g. run 'inline' before this pass)"),
                );
            } else if [ops::COMMIT_GROUP, ops::WAIT_GROUP, ops::WAIT, ops::READY]
                .contains(&name.as_str())
            {
                error(
                    &mut ok,
                    inner.location(),
                    &format!("'{name}' op in a loop to pipeline: the pipeliner places all synchronization itself"),
                );
            } else if is_async && !at_most_reads(inner) {
                error(
                    &mut ok,
                    inner.location(),
                    &format!(
                        "'{name}' op may write, allocate or free memory and is in async stage {}; only 'apipe.copy' and ops that at most read memory may be",
                        stage[k]
                    ),
                );
            }
        }
    }
    // In a `gpu.func` the async copies become PTX `cp.async`: its size and
    // alignment rules are checked here, where the kernel can still change.
    if in_gpu_func(&loop_op) {
        for (k, _) in body.iter().enumerate() {
            if !async_stages.contains(&stage[k]) {
                continue;
            }
            for inner in nested[k].iter().filter(|o| ops::is(*o, ops::COPY)) {
                for message in cp_async::check_copy(inner, cp_async::Rules::SizeAndAlignment) {
                    error(&mut ok, inner.location(), &message);
                }
            }
        }
    }
    for &s in &async_stages {
        if !copies_of_stage.contains_key(&s) {
            error(
                &mut ok,
                loop_location,
                &format!("'apipe.async_stages' names stage {s}, which has no 'apipe.copy'"),
            );
        }
    }

    // The pipelined body order: `apipe.order`, ties by original order.
    let mut by_order: Vec<usize> = (0..body.len()).collect();
    by_order.sort_by_key(|&k| (order[k].unwrap_or(0), k));
    let mut position = vec![0; body.len()];
    for (i, &k) in by_order.iter().enumerate() {
        position[k] = i;
    }

    // SSA values crossing stages.
    let mut produced: FxHashMap<usize, usize> = FxHashMap::default();
    for (k, op) in body.iter().enumerate() {
        for r in op.results() {
            produced.insert(key(r.to_raw()), k);
        }
    }
    let mut distance: FxHashMap<usize, i64> = FxHashMap::default();

    // Loop-carried values: iter_arg `j` of iteration `i` is the value that
    // the yield gives in iteration `i − 1`.
    let mut iter_args: FxHashMap<usize, usize> = FxHashMap::default();
    let mut results_of_yield = Vec::new();
    for (j, y) in terminator.operands().enumerate() {
        let arg = block.argument(j + 1).unwrap().to_raw();
        match produced.get(&key(y.to_raw())) {
            Some(_) if results_of_yield.iter().any(|v: &MlirValue| key(*v) == key(y.to_raw())) => error(
                &mut ok,
                terminator.location(),
                &format!(
                    "'scf.yield' op operand #{j} is yielded for two iter_args; yield each value once"
                ),
            ),
            Some(&p) => {
                iter_args.insert(key(arg), key(y.to_raw()));
                results_of_yield.push(y.to_raw());
                // The loop result is the value of the last iteration: when it
                // is made in stage 0 the kernel must hand it out.
                if stage[p] == 0 {
                    let d = distance.entry(key(y.to_raw())).or_default();
                    *d = (*d).max(1);
                }
            }
            None => error(
                &mut ok,
                terminator.location(),
                &format!(
                    "'scf.yield' op operand #{j} is not a result of an op of the loop body; the pipeliner carries only values that a stage computes"
                ),
            ),
        }
    }
    for (k, _) in body.iter().enumerate() {
        for inner in &nested[k] {
            let mut read = FxHashSet::default();
            for operand in inner.operands() {
                let Some(&v) = iter_args.get(&key(operand.to_raw())) else {
                    continue;
                };
                if !read.insert(v) {
                    continue;
                }
                let p = produced[&v];
                let (r, q) = (stage[k], stage[p]);
                if q > r + 1 {
                    error(
                        &mut ok,
                        inner.location(),
                        &format!(
                            "'{}' op in stage {r} reads an iter_arg that stage {q} yields (at {}); the previous iteration's value is ready only for stages >= {}",
                            name_of(inner),
                            body[p].location(),
                            q - 1
                        ),
                    );
                } else if q == r + 1 && position[p] > position[k] {
                    error(
                        &mut ok,
                        inner.location(),
                        &format!(
                            "'{}' op in stage {r} reads an iter_arg that the next stage yields in the same time step; it must be ordered (apipe.order) after the op that yields it (at {})",
                            name_of(inner),
                            apipe_dialect::location::describe(body[p].location())
                        ),
                    );
                } else if r + 1 - q > 0 {
                    let d = distance.entry(v).or_default();
                    *d = (*d).max(r + 1 - q);
                }
            }
        }
    }
    // Views that cross stages are made again in each user's stage (not
    // carried: no distance).
    let yielded_keys: FxHashSet<usize> = results_of_yield.iter().map(|v| key(*v)).collect();
    let mut rematerialized: FxHashSet<usize> = FxHashSet::default();
    let mut remade = FxHashMap::default();
    for (k, _) in body.iter().enumerate() {
        for inner in &nested[k] {
            for operand in inner.operands() {
                let Some(&p) = produced.get(&key(operand.to_raw())) else {
                    continue;
                };
                if stage[p] > stage[k] {
                    error(
                        &mut ok,
                        inner.location(),
                        &format!(
                            "'{}' op in stage {} uses a value that stage {} produces (at {}); a value must be produced in the same or an earlier stage",
                            name_of(inner),
                            stage[k],
                            stage[p],
                            apipe_dialect::location::describe(body[p].location())
                        ),
                    );
                } else if stage[p] == stage[k] && position[p] > position[k] {
                    error(
                        &mut ok,
                        inner.location(),
                        &format!(
                            "'{}' op is ordered (apipe.order) before the op of the same stage that produces its operand (at {})",
                            name_of(inner),
                            apipe_dialect::location::describe(body[p].location())
                        ),
                    );
                } else if stage[p] < stage[k] {
                    let v = key(operand.to_raw());
                    if operand.r#type().is_mem_ref()
                        && !yielded_keys.contains(&v)
                        && rematerializable(v, &produced, &body, &mut remade)
                    {
                        rematerialized.insert(v);
                        continue;
                    }
                    let d = distance.entry(key(operand.to_raw())).or_default();
                    *d = (*d).max(stage[k] - stage[p]);
                }
            }
        }
    }

    // Buffers written by async copies, the reads of them, and versions.
    let accesses: Vec<FxHashSet<usize>> = (0..body.len())
        .map(|k| {
            let is_async = async_stages.contains(&stage[k]);
            let mut set = FxHashSet::default();
            for inner in &nested[k] {
                for (i, operand) in inner.operands().enumerate() {
                    if is_async && i == 1 && ops::is(inner, ops::COPY) {
                        continue;
                    }
                    set.insert(key(operand.to_raw()));
                }
            }
            set
        })
        .collect();
    // (buffer, writer stage, value, location of the first writer)
    let mut written_by: Vec<(usize, i64, MlirValue, melior::ir::Location)> = Vec::new();
    for (k, _) in body.iter().enumerate() {
        if !async_stages.contains(&stage[k]) {
            continue;
        }
        for inner in nested[k].iter().filter(|o| ops::is(*o, ops::COPY)) {
            let dst = inner.operand(1).unwrap().to_raw();
            if !written_by
                .iter()
                .any(|(b, s, _, _)| *b == key(dst) && *s == stage[k])
            {
                written_by.push((key(dst), stage[k], dst, inner.location()));
            }
        }
    }
    // A buffer is tracked by the value its copies write: an access of the
    // same buffer (or one that may alias it) through another value, such
    // as a view made before the loop, would escape the waits and the
    // multi-buffering. Refused (MLIR memory effects, roots through views).
    {
        let tracked: FxHashSet<usize> = written_by.iter().map(|(b, _, _, _)| *b).collect();
        let mut roots: Vec<(access::Root, melior::ir::Location)> = Vec::new();
        for &(_, _, value, location) in &written_by {
            // SAFETY: `value` is a live operand of a body op.
            let value = unsafe { Value::from_raw(value) };
            roots.push((
                access::region::whole(&mut cache.forms, value).root,
                location,
            ));
        }
        for ops_of in &nested {
            for inner in ops_of {
                let found = cache.of(inner);
                for a in &found.accesses {
                    let through = a.value.map(|v| key(v.to_raw()));
                    if through.is_some_and(|v| tracked.contains(&v)) {
                        continue;
                    }
                    if let Some((_, at)) = roots
                        .iter()
                        .find(|(root, _)| access::may_alias(root, &a.region.root))
                    {
                        diagnostic::emit(
                            inner.location(),
                            diagnostic::Severity::Error,
                            &format!(
                                "'{}' op accesses a buffer that an async copy writes (or one that may alias it) through another value; the pipeliner tracks a buffer by the value the copy writes (its waits and versions follow that value's uses): access it through that value",
                                name_of(inner)
                            ),
                            &[(*at, "the copy")],
                        );
                        ok = false;
                    }
                }
            }
        }
    }
    // The first reader, in body order, of each (async stage, reader stage).
    let mut first_reader: FxHashMap<(i64, i64), usize> = FxHashMap::default();
    for &k in &by_order {
        for &(b, s, _, _) in &written_by {
            if !accesses[k].contains(&b) {
                continue;
            }
            let t = stage[k];
            if t <= s {
                error(
                    &mut ok,
                    body[k].location(),
                    &format!(
                        "'{}' op in stage {t} accesses (reads or writes) a buffer that async stage {s} writes; it must be in a later stage than the copy",
                        name_of(&body[k])
                    ),
                );
                continue;
            }
            first_reader.entry((s, t)).or_insert(k);
        }
    }
    // Versions: V = last stage that still reads the data - writer stage + 1;
    // an async copy reads until the wait on its own group, in the stage of
    // the last reader of what it writes.
    let last_wait_of_copy = |k: usize| -> i64 {
        let mut last = stage[k];
        for inner in nested[k].iter().filter(|o| ops::is(*o, ops::COPY)) {
            let dst = key(inner.operand(1).unwrap().to_raw());
            for (j, acc) in accesses.iter().enumerate() {
                if acc.contains(&dst) {
                    last = last.max(stage[j]);
                }
            }
        }
        last
    };
    // (buffer, value, location of its first writer, versions, shape)
    let mut wanted: Vec<(usize, MlirValue, melior::ir::Location, i64, Vec<i64>)> = Vec::new();
    let mut seen: FxHashSet<usize> = FxHashSet::default();
    for &(b, _, value, location) in &written_by {
        if !seen.insert(b) {
            continue;
        }
        let writer = written_by
            .iter()
            .filter(|(x, _, _, _)| *x == b)
            .map(|(_, s, _, _)| *s)
            .min()
            .unwrap();
        let mut last = writer;
        for (k, acc) in accesses.iter().enumerate() {
            if !acc.contains(&b) {
                continue;
            }
            let reads_async = async_stages.contains(&stage[k])
                && nested[k]
                    .iter()
                    .any(|o| ops::is(o, ops::COPY) && key(o.operand(0).unwrap().to_raw()) == b);
            last = last.max(if reads_async {
                last_wait_of_copy(k)
            } else {
                stage[k]
            });
        }
        let versions = last - writer + 1;
        // Dynamic sizes as -1 (`conditional_writes`).
        let shape: Vec<i64> = multi_buffer::static_shape(
            // SAFETY: `value` is a live operand of a body op.
            unsafe { Value::from_raw(value) }.r#type(),
        )
        .into_iter()
        .map(|size| size.unwrap_or(-1))
        .collect();
        if versions > 1 {
            wanted.push((b, value, location, versions, shape));
        }
    }

    // The schedule (the barriers are placed once the plan is complete). The
    // waits go before the first reader, or all first (`early_waits`).
    let mut schedule = Vec::new();
    let early_waits = assigned.is_some_and(|a| a.early_waits);
    if early_waits {
        let mut pairs: Vec<(i64, i64)> = first_reader.keys().copied().collect();
        pairs.sort();
        schedule.extend(
            pairs
                .into_iter()
                .map(|(s, t)| Item::Wait { s, t, pending: 0 }),
        );
    }
    let last_of_stage = |s: i64| by_order.iter().rposition(|&k| stage[k] == s);
    for (position, &k) in by_order.iter().enumerate() {
        let t = stage[k];
        let mut pairs: Vec<(i64, i64)> = first_reader
            .iter()
            .filter(|(_, &r)| r == k && !early_waits)
            .map(|(&pair, _)| pair)
            .collect();
        pairs.sort();
        // Before the user's barriers of the same stage that lead up to the
        // reader (`wait; barrier; read`, as synchronous code writes
        // `copy; barrier; read`), across the ops without memory effects
        // and regions between them (the read's index arithmetic): the
        // barrier then also orders the other threads' copies before the
        // read, and none has to be added (with `barriers=false`, none
        // would be). No commit lies between, so the counts do not change;
        // an op that touches no memory is not reordered with the wait.
        let mut at = schedule.len();
        let mut scan = at;
        while let Some(&Item::Op(j)) = scan.checked_sub(1).map(|i| &schedule[i]) {
            if pairs.is_empty() || stage[j] != t {
                break;
            }
            if ops::is(&body[j], "gpu.barrier") {
                at = scan - 1;
            } else if !touches_no_memory(&body[j]) {
                break;
            }
            scan -= 1;
        }
        for (s, t) in pairs {
            schedule.insert(at, Item::Wait { s, t, pending: 0 });
            at += 1;
        }
        schedule.push(Item::Op(k));
        if async_stages.contains(&t) && last_of_stage(t) == Some(position) {
            schedule.push(Item::Commit(t));
        }
    }

    // The count of each wait (see `Item::Wait`).
    let commit_position: FxHashMap<i64, usize> = schedule
        .iter()
        .enumerate()
        .filter_map(|(i, item)| match item {
            Item::Commit(s) => Some((*s, i)),
            _ => None,
        })
        .collect();
    for (i, item) in schedule.iter_mut().enumerate() {
        if let Item::Wait { s, t, pending } = item {
            *pending = *t - *s - 1 + i64::from(commit_position[s] < i);
        }
    }

    // Versions of the buffers async copies write (RFC 0077
    // "Multi-buffering"), unless the loop's own indexing already keeps the
    // iterations in flight together apart (a loop multi-buffered by hand,
    // slot `iv mod K`): then the buffer keeps its type and its slots
    // (`dependences::Accesses::own_slots` proves it on the schedule).
    let unversioned = dependences::Schedule {
        stage: &stage,
        async_stages: &async_stages,
        schedule: &schedule,
        versions: &[],
    };
    let mut memory = ok.then(|| dependences::Accesses::of(&nested, &unversioned, cache));
    // Every path through an iteration must write what it reads of the
    // buffer (`conditional_writes`); a value defined outside the loop is
    // the same in every iteration.
    let memo = std::cell::RefCell::new(FxHashMap::default());
    let varies = |v: usize| conditional_writes::varies(&loop_op, v, &memo);
    let body_block_arguments: FxHashSet<usize> = iter_args.keys().copied().collect();
    let mut buffers = Vec::new();
    let mut own_slots = Vec::new();
    // The roots of the buffers async copies write that get versions.
    let mut versioned: Vec<(access::Root, i64)> = Vec::new();
    for (b, value, location, versions, shape) in wanted {
        if let Some(memory) = memory.as_mut() {
            // SAFETY: `value` is a live operand of a body op.
            let root =
                access::region::whole(&mut cache.forms, unsafe { Value::from_raw(value) }).root;
            // Slots are kept only where their indices are plain index
            // arithmetic (`plain_index`); other buffers get versions.
            let plain = memory.ops_on(&root).iter().all(|op| {
                op.operands()
                    .filter(|v| v.r#type().is_index() || v.r#type().is_mem_ref())
                    .all(|v| plain_index(v, &body_block_arguments, &mut FxHashSet::default()))
            });
            // The copy may write the buffer itself or a view of it that the
            // body makes (`memref.subview %buf[%t mod K, 0]`, as
            // `memref::multiBuffer` and IREE write it); the slots are then
            // the root's, and the root must be a buffer of its own.
            let is_root = root.symbol == access::Symbol::Value(b);
            if (is_root || root.kind == access::RootKind::Fresh)
                && plain
                && memory.own_slots(&loop_op, &unversioned, &root, ops::in_gpu_code(&loop_op))
            {
                // The remark names the root buffer (the view's is a slot).
                let named = match root.symbol {
                    access::Symbol::Value(r) => MlirValue { ptr: r as _ },
                    _ => value,
                };
                if !own_slots.iter().any(|v: &MlirValue| key(*v) == key(named)) {
                    own_slots.push(named);
                }
                continue;
            }
            if !is_root && root.kind == access::RootKind::Fresh {
                // A view cannot get versions; say why the slots failed
                // (trial 89: the advice to use slots was given to a loop
                // that had them, too few).
                error(
                    &mut ok,
                    location,
                    &format!(
                        "'apipe.copy' op writes a view of a buffer, and this schedule keeps {versions} of its tiles in flight, which the buffer's own slots do not keep apart (a view cannot get versions): every access must index the slots by `(a * iv + c) mod K` of the induction variable with a constant K, in plain index arithmetic (not an iter_arg or a load), and K must be large enough for the stages; use more slots or fewer stages (num-stages), or copy into the buffer itself (it then gets versions)"
                    ),
                );
                continue;
            }
            versioned.push((root, versions));
        }
        let skipped = conditional_writes::skipped_write(&body, b, &shape, &varies);
        if let Some((at, name)) = skipped {
            // Refused, not warned: the pipelined loop would read another
            // iteration's data where the input loop reads the last write.
            let what = if name == ops::COPY { "copy" } else { "store" };
            error(
                &mut ok,
                at,
                &format!(
                    "'{name}' op writes its buffer under a condition and the buffer would get {versions} versions: an iteration that skips the {what} would read the data of {versions} iterations earlier, not the previous iteration's (multi-buffering needs every iteration to write the buffer); write the buffer on every path, or copy into a buffer read only in the same iteration"
                ),
            );
        }
        {
            // SAFETY: `value` is a live operand of a body op.
            let value = unsafe { Value::from_raw(value) };
            // Each version starts aligned to the largest copy into it.
            let align = body
                .iter()
                .enumerate()
                .filter(|(k, _)| async_stages.contains(&stage[*k]))
                .flat_map(|(k, _)| nested[k].iter())
                .filter(|o| ops::is(*o, ops::COPY) && key(o.operand(1).unwrap().to_raw()) == b)
                .map(cp_async::required_alignment)
                .max()
                .unwrap_or(1);
            match multi_buffer::check(value, &loop_op, versions, align, location) {
                Ok(buffer) => buffers.push(buffer),
                Err(()) => ok = false,
            }
        }
    }

    // Memory dependences: the schedule must keep every one of the
    // original loop (`dependences`). Local buffers written synchronously
    // get versions first where the schedule needs them.
    if let Some(memory) = memory.as_mut().filter(|_| ok) {
        let versions: Vec<(usize, i64)> = buffers
            .iter()
            .map(|b: &Buffer| (key(b.value), b.versions))
            .collect();
        let describe = |b: usize, v: i64| {
            // SAFETY: `b` is the key of a live buffer value of the body.
            let value = unsafe { Value::from_raw(MlirValue { ptr: b as _ }) };
            multi_buffer::describe(value, &loop_op, v, 1, loop_location)
        };
        let sync = memory.sync_versions(
            &loop_op,
            &dependences::Schedule {
                stage: &stage,
                async_stages: &async_stages,
                schedule: &schedule,
                versions: &versions,
            },
            ops::in_gpu_code(&loop_op),
            &|b, v| describe(b, v).is_ok(),
        );
        for (b, v) in sync {
            if let Ok(buffer) = describe(b, v) {
                buffers.push(buffer);
            }
        }
        let versions: Vec<(usize, i64)> = buffers
            .iter()
            .map(|b: &Buffer| (key(b.value), b.versions))
            .collect();
        ok = memory.check(
            &loop_op,
            &dependences::Schedule {
                stage: &stage,
                async_stages: &async_stages,
                schedule: &schedule,
                versions: &versions,
            },
        );
        // Each version holds its own iteration's data only: a read of what
        // an earlier iteration wrote would read another version.
        let checked = ok;
        for (root, versions) in versioned.iter().filter(|_| checked) {
            if let Some((read, write)) =
                memory.carried_read(&loop_op, root, ops::in_gpu_code(&loop_op))
            {
                diagnostic::emit(
                    read.location(),
                    diagnostic::Severity::Error,
                    &format!(
                        "'{}' op may read data that an earlier iteration wrote into the buffer, which needs {versions} versions for this schedule (multi-buffering gives each iteration its own version): read only what the same iteration copied, or give the buffer slots of its own that keep the tiles in flight apart",
                        name_of(&read)
                    ),
                    &[(write.location(), "the write of an earlier iteration")],
                );
                ok = false;
            }
        }
    }

    // Carried values: body results, then tokens (token form only).
    let mut carried = Vec::new();
    for (k, op) in body.iter().enumerate() {
        for r in op.results() {
            if let Some(&d) = distance.get(&key(r.to_raw())) {
                carried.push(Carried {
                    key: key(r.to_raw()),
                    stage: stage[k],
                    distance: d,
                    ty: r.r#type().to_raw(),
                });
            }
        }
    }
    let token_type = multi_buffer::parse_type(&loop_op, ops::TOKEN_TYPE);
    let mut token_stages: Vec<i64> = async_stages.clone();
    token_stages.sort();
    for s in token_stages
        .into_iter()
        .filter(|_| sync == SyncForm::Tokens)
    {
        let d = first_reader
            .keys()
            .filter(|(x, _)| *x == s)
            .map(|(_, t)| t - s)
            .max();
        if let Some(d) = d {
            carried.push(Carried {
                key: s as usize,
                stage: s,
                distance: d,
                ty: token_type,
            });
        }
    }

    if !ok {
        return Err(());
    }
    let lower: Value = loop_op.operand(0).unwrap();
    let upper: Value = loop_op.operand(1).unwrap();
    let step: Value = loop_op.operand(2).unwrap();
    let bounds = LoopBounds::of(&loop_op).expect("an scf.for");
    if let Some(s) = bounds.step.filter(|&s| s <= 0) {
        diagnostic::error(
            loop_location,
            &format!(
                "'scf.for' op has a non-positive step ({s}); the pipeliner needs a positive step"
            ),
        );
        return Err(());
    }
    let trip_count = bounds.trip_count();
    // GPU code, a `gpu.func` or a `gpu.launch` body (which
    // `gpu-kernel-outlining` makes a `gpu.func`), gets the minimal
    // placement; host code none.
    let mode = barriers.unwrap_or(if ops::in_gpu_code(&loop_op) {
        BarrierMode::Minimal
    } else {
        BarrierMode::Off
    });
    let mut plan = Plan {
        loop_op: loop_op.to_raw(),
        body: body.iter().map(|o| o.to_raw()).collect(),
        stage,
        max_stage,
        async_stages,
        schedule,
        carried,
        buffers,
        own_slots,
        produced,
        rematerialized,
        lower: lower.to_raw(),
        upper: upper.to_raw(),
        step: step.to_raw(),
        induction,
        iter_args,
        yielded: results_of_yield,
        inits: loop_op.operands().skip(3).map(|v| v.to_raw()).collect(),
        token_type,
        bounds,
        trip_count,
        barriers: BarrierPlan::None,
    };
    // The function's divergence, computed at most once for both tests.
    let divergence = std::cell::OnceCell::new();
    refuse_divergent_own_barriers(&loop_op, &divergence)?;
    plan.barriers = barriers::place(&plan, mode, cache);
    if plan.barriers.places_any() {
        refuse_divergent_barriers(&loop_op, &divergence)?;
    }
    Ok(plan)
}

/// True if no thread of a block can skip or repeat the loop `loop_op` of
/// `function` differently from another: it lies directly in the function
/// body (of one block: no branch decides whether a thread reaches it) and
/// its bounds and step are constants or function arguments (not the thread
/// ids of a `gpu.launch` body). Then the
/// divergence analysis of the whole function (a fixed point) is skipped.
fn uniform_loop(loop_op: &OperationRef, function: &OperationRef) -> bool {
    let direct =
        loop_op.parent_operation() == Some(*function) && ops::in_single_block_region(loop_op);
    direct
        && (0..3).all(|i| {
            loop_op.operand_at(i).is_some_and(|v| {
                ops::constant_int(v).is_some()
                    || melior::ir::block::BlockArgument::try_from(v).is_ok_and(|a| {
                        a.owner().parent_operation() == Some(*function)
                            // Not a `gpu.launch` body's thread id (its
                            // arguments 3-5, MLIR GPUOps.td).
                            && !(ops::is(function, "gpu.launch")
                                && (3..6).contains(&a.argument_number()))
                    })
            })
        })
}

/// The input's own `gpu.barrier`s in the loop `loop_op` must be reached by
/// every thread of the block too (PTX ISA 9.7.13.1, as
/// [`refuse_divergent_barriers`] says): one under control flow that depends
/// on the thread id, in the loop or around it, deadlocks the input, and the
/// pipelined loop, which keeps it, alike (trial 82: `scf.if (tid == 0) {
/// gpu.barrier }` in the body was pipelined as it was). Refused at each
/// such barrier, with a note at the op in the loop whose control flow
/// diverges; where the loop itself diverges (its trip count, or control
/// flow around it), as [`refuse_divergent_barriers`] says it. A loop
/// of uniform bounds directly in the function body whose barriers all lie
/// directly in its body has none (no divergence analysis).
fn refuse_divergent_own_barriers(
    loop_op: &OperationRef,
    divergence: &std::cell::OnceCell<Divergence>,
) -> Result<(), ()> {
    let barriers: Vec<OperationRef> = ops::nested_ops(loop_op)
        .into_iter()
        .filter(|o| ops::is(o, "gpu.barrier"))
        .collect();
    let Some(function) = ops::ancestors(loop_op).find(ops::is_function) else {
        return Ok(());
    };
    if barriers.is_empty()
        || (uniform_loop(loop_op, &function)
            && barriers
                .iter()
                .all(|b| b.parent_operation().as_ref() == Some(loop_op)))
    {
        return Ok(());
    }
    let computed = divergence.get_or_init(|| Divergence::compute(&function));
    let mut ok = true;
    // A barrier that diverges with the loop itself (its trip count, or
    // control flow around it): said of the loop, as for the barriers the
    // pipeliner places.
    let mut with_the_loop = false;
    for barrier in &barriers {
        let Some(parent) =
            crate::tokens_to_mbarrier::divergence::divergent_parent(computed, barrier, &function)
        else {
            continue;
        };
        if parent == *loop_op || !ops::is_inside(&parent, loop_op) {
            with_the_loop = true;
            continue;
        }
        diagnostic::emit(
            barrier.location(),
            diagnostic::Severity::Error,
            "'gpu.barrier' op may be reached by only some threads of the block: it is under \
             control flow that depends on the thread id, and every thread of the block must \
             reach a barrier (the loop deadlocks, and so would its pipelined form, which keeps \
             it); make the condition the same in every thread, or move the barrier out of it",
            &[(
                parent.location(),
                &format!(
                    "the '{}' whose control flow depends on the thread id",
                    ops::name(&parent)
                ),
            )],
        );
        ok = false;
    }
    if !ok {
        return Err(());
    }
    if with_the_loop {
        return refuse_divergent_barriers(loop_op, divergence);
    }
    Ok(())
}

/// A `gpu.barrier` must be reached by every thread of the block (PTX ISA
/// 9.7.13.1, `bar.sync`: in conditional code only if the condition is the
/// same in every thread; MLIR `gpu.barrier`): the barriers the pipeliner
/// would place in a loop under control flow that depends on the thread id
/// would deadlock the threads that do not run it. Refused, with a note at
/// the op whose control flow diverges (the input's own barriers, if any,
/// are then outside that region).
/// `divergence`: the function's, if already computed.
fn refuse_divergent_barriers(
    loop_op: &OperationRef,
    divergence: &std::cell::OnceCell<Divergence>,
) -> Result<(), ()> {
    let Some(function) = ops::ancestors(loop_op).find(ops::is_function) else {
        return Ok(());
    };
    if uniform_loop(loop_op, &function) {
        return Ok(());
    }
    let divergence = divergence.get_or_init(|| Divergence::compute(&function));
    // The loop itself when its bounds or step differ between threads (its
    // trip count does), else the op around it whose control flow does.
    let own = (0..3).any(|i| {
        loop_op
            .operand_at(i)
            .is_some_and(|v| divergence.is_divergent(v))
    });
    let parent = if own {
        *loop_op
    } else {
        let Some(parent) =
            crate::tokens_to_mbarrier::divergence::divergent_parent(divergence, loop_op, &function)
        else {
            return Ok(());
        };
        parent
    };
    diagnostic::emit(
        loop_op.location(),
        diagnostic::Severity::Error,
        &format!(
            "'scf.for' op {}, and its pipelined form needs gpu.barriers, which every thread of \
             the block must reach; {}, or pipeline with barriers=false and place the barriers \
             yourself",
            if own {
                "runs a number of iterations that depends on the thread id"
            } else {
                "runs under control flow that depends on the thread id"
            },
            if own {
                "give every thread the same bounds"
            } else {
                "move the condition into the loop body"
            }
        ),
        &[(
            parent.location(),
            &if own {
                "its bounds or step depend on the thread id (so does its trip count)".to_owned()
            } else {
                format!(
                    "the '{}' whose control flow depends on the thread id",
                    ops::name(&parent)
                )
            },
        )],
    );
    Err(())
}

/// True if the index or memref value `value` is computed from index and
/// memref values only, none of them one of the loop's iter_args
/// (`iter_args`: their keys). A slot index that passes through another
/// integer type may wrap there (`index_cast` to `i4`), which the access
/// forms assume it does not; one carried in iter_args rotates through a
/// window of values that the pipelined loop computes in its prologue. A
/// value that folds to a constant ([`ops::constant_int`]: `arith.index_cast
/// %c3_i32`) is plain whatever types it was computed in: the folders give
/// its exact value (trial 84: such a slot count cost a loop its own slots).
fn plain_index(value: Value, iter_args: &FxHashSet<usize>, seen: &mut FxHashSet<usize>) -> bool {
    if !seen.insert(key(value.to_raw())) {
        return true;
    }
    if iter_args.contains(&key(value.to_raw())) {
        return false;
    }
    if ops::constant_int(value).is_some() {
        return true;
    }
    access::values::defining_op(value).is_none_or(|op| {
        op.operands().all(|v| {
            let ty = v.r#type();
            (ty.is_index() || ty.is_mem_ref()) && plain_index(v, iter_args, seen)
        })
    })
}

/// True if the body value with key `v` can be made again wherever it is
/// used, for the user's iteration: a result of a body op (`produced`) with
/// no regions and no memory effects (MLIR's `MemoryEffectOpInterface`:
/// `memref.subview`, `affine.apply`, `arith`), whose operands are the
/// induction variable, values from outside the loop, or such results
/// themselves (not iter_args, which hold another iteration's value). A
/// view made so in the consumer's stage names the consumer's own slot
/// (`%buf[(%t - 2) mod 3]`), which a carried view would hide from the
/// checker and the dependence test. `memo`: answers so far.
pub(crate) fn rematerializable(
    v: usize,
    produced: &FxHashMap<usize, usize>,
    body: &[OperationRef],
    memo: &mut FxHashMap<usize, bool>,
) -> bool {
    if let Some(&known) = memo.get(&v) {
        return known;
    }
    let Some(&p) = produced.get(&v) else {
        return false;
    };
    memo.insert(v, false);
    let op = &body[p];
    let loop_op = op.parent_operation();
    let answer = touches_no_memory(op)
        && op.operands().all(|o| {
            let ok = key(o.to_raw());
            if produced.contains_key(&ok) {
                return rematerializable(ok, produced, body, memo);
            }
            // The induction variable (argument 0 of the body), or a value
            // from outside the loop; not an iter_arg.
            match access::values::block_argument(o) {
                Some((block, n)) => block.parent_operation() != loop_op || n == 0,
                None => true,
            }
        });
    memo.insert(v, answer);
    answer
}

/// True if `op` is nested in a `gpu.func`.
pub(crate) fn in_gpu_func(op: &OperationRef) -> bool {
    ops::ancestors(op).any(|p| ops::is(&p, "gpu.func"))
}

/// True if `op` has no regions and declares no memory effects (MLIR
/// `MemoryEffectOpInterface` with an empty list: `arith`, `index`,
/// `memref.subview`, ...): moving a wait across it changes nothing.
fn touches_no_memory(op: &OperationRef) -> bool {
    op.region_count() == 0
        && apipe_dialect::effects::memory_effects(op)
            .declared
            .is_some_and(|effects| effects.is_empty())
}
