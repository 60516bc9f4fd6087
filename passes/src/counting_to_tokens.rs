//! `apipe-counting-to-tokens`: counting form to token form.
//!
//! `wait_group {queue = q, pending = N}` completes every group of q but the
//! newest N (PTX ISA 9.7.9.25.3.3), that is, by FIFO completion, exactly the
//! (N+1)-th newest group and everything older. So it is `apipe.wait` on the
//! token of that group, or nothing (`apipe.ready`) when fewer than N+1
//! groups exist. The conversion keeps, per queue, a window of the K newest
//! tokens, K = 1 + the largest N on that queue in the function, as SSA
//! values, and threads it through structured control flow. This is always
//! expressible inside a function.
//!
//! Algorithm, per function (`*.func`):
//! 1. check every precondition before touching the IR: no call of a
//!    function that commits or waits (its groups would shift the window;
//!    checked when the pass runs on a module: nested under `func.func`,
//!    sibling functions may be converted in parallel and are not read);
//!    commits only in the function's single block and in `scf.for`,
//!    `scf.if`, `scf.index_switch`, `scf.while` and single-block
//!    `scf.execute_region`; every `pending` < [`MAX_PENDING`], unless the
//!    wait is a no-op: its `pending` reaches the most groups its queue can
//!    have on any path ([`group_distance::max_groups`]);
//! 2. K_q = 1 + the largest `pending` on q among the waits whose count
//!    may find a group of the function; at the function entry, one
//!    `apipe.ready {queue = q}` per queue that has a wait fills its window
//!    (no group of the function yet). What it stands for depends on the
//!    function: a `gpu.func` kernel (or a `gpu.launch` body) starts with an
//!    empty FIFO, so there it is a complete group, and a wait whose count
//!    reaches past every group the function can commit is a no-op that
//!    waits on it; any other function may be entered with its caller's
//!    groups in flight, so there such a wait stays a `wait_group` (it waits
//!    for the caller's groups, PTX `cp.async.wait_group` counts per
//!    thread, not per function);
//! 3. walk the body in order: a commit on q gets a token result (kept if it
//!    has one) and pushes it at the front of window q (dropping the oldest);
//!    a `wait_group` on q with `pending = N` becomes `apipe.wait` on
//!    `window_q[N]`, with the other attributes of the `wait_group`;
//! 4. an `scf` op whose regions commit on a windowed queue carries those
//!    windows: `scf.for` as extra iter_args (init = the window before, yield =
//!    the window at the end of the body, results = the window after the
//!    loop); `scf.if` / `scf.index_switch` / `scf.execute_region` as extra
//!    results, each region yielding its window (an `scf.if` without `else`
//!    gets one that yields the window unchanged); `scf.while` through the
//!    before-region arguments, the `scf.condition` operands, the after-region
//!    arguments and its yield. Regions that commit nothing see the outer
//!    window as is;
//! 5. in a function that may be entered with groups in flight, a wait whose
//!    token may be the entry `ready` on some path (the function committed
//!    fewer than `pending + 1` groups there: it waits for a group of the
//!    caller) becomes its `wait_group` again: an explicit window of "groups
//!    pending at entry" is the count itself, and forms can be mixed;
//! 6. erase the `apipe.ready` ops that no window position reached.
//!
//! Invariant: at every point, `window_q[i]` names the (i+1)-th newest group
//! of q on every path, or is `ready` on the paths with fewer groups of the
//! function; so `apipe-tokens-to-counting` gives back every count (the
//! round trip), only waits that are no-ops on every path of a kernel
//! (`ready`) disappear, and every wait that may complete a group committed
//! before the function was entered is kept as it was.
//! Citations: RFC 0077 section "Inter-stage synchronization"; MLIR
//! `scf.for` iter_args, `scf.if` / `scf.while` results (SCFOps.td).

use crate::{
    group_distance,
    pass::{PassInfo, PassOptions, RunFn},
    rewrite, token_values,
};
use apipe_dialect::{attributes, build, diagnostic, ops, Reported};
use melior::{
    ir::{
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike},
        Block, BlockLike, BlockRef, Identifier, OperationRef, RegionLike, Type, Value, ValueLike,
    },
    pass::Pass,
    Context,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::{BTreeMap, BTreeSet};

/// The largest `pending` the conversion accepts: the window holds
/// `pending + 1` tokens, carried through every loop that commits.
pub const MAX_PENDING: i64 = 1024;

/// The registry entry of `apipe-counting-to-tokens`.
pub static INFO: PassInfo = PassInfo {
    argument: "apipe-counting-to-tokens",
    name: "ApipeCountingToTokens",
    summary: "Replace wait_group counts by waits on the token of the group they complete (windows of tokens through scf)",
    options: &[],
    run: run as RunFn,
    dependent_dialects: Vec::new,
    reads_only: false,
    follows_calls: false,
};

/// Creates the `apipe-counting-to-tokens` pass.
pub fn create_counting_to_tokens_pass() -> Pass {
    INFO.create("").expect("no options")
}

fn run(op: OperationRef, _options: &PassOptions) -> Result<(), Reported> {
    counting_to_tokens(op)
}

/// Region ops whose regions may commit (step 4).
const THREADED: &[&str] = &[
    "scf.for",
    "scf.if",
    "scf.index_switch",
    "scf.while",
    "scf.execute_region",
];

/// Converts every `apipe.wait_group` in `root` (a module, or a function-like
/// op; every function inside is handled) into `apipe.wait` on a token. On
/// failure the IR is unchanged and located errors have been emitted.
///
/// # Errors
/// [`Reported`] after located errors.
pub fn counting_to_tokens(root: OperationRef) -> Result<(), Reported> {
    // 1.
    if !check_all(&root) {
        return Err(Reported);
    }
    // 2.-4.
    for function in group_distance::functions(&root) {
        convert_function(function);
    }
    Ok(())
}

/// Checks the preconditions (step 1) on every function in `root`; emits
/// one located error per problem and returns `false` if any.
pub fn check_all(root: &OperationRef) -> bool {
    let mut ok = true;
    // Nested under `func.func`, MLIR may convert sibling functions in
    // parallel: do not read them (`None`: a call is then refused).
    let synchronizing = (!group_distance::is_function(root)).then(|| {
        group_distance::functions_containing(root, &[ops::COMMIT_GROUP, ops::WAIT_GROUP, ops::WAIT])
    });
    for function in group_distance::functions(root) {
        ok &= check(&function, synchronizing.as_ref());
    }
    ok
}

fn is_single_block_execute_region(op: &OperationRef) -> bool {
    op.region(0).is_ok_and(|r| {
        r.first_block()
            .is_some_and(|b| b.next_in_region().is_none())
    })
}

/// Step 1 for one function.
/// `synchronizing`: the functions that commit or wait (`None` when other
/// functions may not be read: then every call is refused).
fn check(function: &OperationRef, synchronizing: Option<&FxHashSet<String>>) -> bool {
    let mut ok = true;
    let commits = |op: &OperationRef| !group_distance::commit_queues(op).is_empty();
    let blocks = ops::blocks_of(function);
    if blocks.len() > 1
        && ops::nested_ops(function)
            .iter()
            .any(|op| ops::is(op, ops::COMMIT_GROUP) || ops::is(op, ops::WAIT_GROUP))
    {
        diagnostic::error(
            function.location(),
            &format!(
                "'{}' op with several blocks commits or waits: counting-to-tokens follows groups only \
                 through structured control flow (scf)",
                ops::name(function)
            ),
        );
        return false;
    }
    // A function with no apipe op of its own has no window to shift.
    let synchronizes = ops::nested_ops(function).iter().any(ops::is_apipe);
    let mut most_groups = MostGroups::new(function);
    for op in ops::nested_ops(function) {
        if group_distance::enclosing_function(op) != Some(*function) {
            continue; // A nested function is checked on its own.
        }
        let name = ops::name(&op);
        if synchronizes && group_distance::unknown_call(&op) {
            diagnostic::error(op.location(), &group_distance::indirect_call(name));
            ok = false;
        }
        if let Some(callee) = group_distance::callee(&op).filter(|_| synchronizes) {
            let Some(synchronizing) = synchronizing else {
                diagnostic::error(op.location(), &group_distance::unseen_callee(name, &callee));
                ok = false;
                continue;
            };
            if synchronizing.contains(&callee) {
                diagnostic::error(
                    op.location(),
                    &format!(
                        "'{name}' op calls @{callee}, which commits or waits: its groups would \
                         shift the window of tokens of this function"
                    ),
                );
                ok = false;
            }
        }
        if ops::is(&op, ops::WAIT_GROUP) {
            let pending = attributes::integer(&op, attributes::PENDING).unwrap_or(0);
            if pending >= MAX_PENDING && !most_groups.is_no_op(&op) {
                diagnostic::error(
                    op.location(),
                    &format!(
                        "'apipe.wait_group' op has pending = {pending}: counting-to-tokens carries \
                         pending + 1 tokens and supports pending < {MAX_PENDING}"
                    ),
                );
                ok = false;
            }
        }
        let threaded = THREADED.contains(&name)
            && (name != "scf.execute_region" || is_single_block_execute_region(&op));
        if op.region_count() > 0 && !threaded && !group_distance::is_function(&op) && commits(&op) {
            diagnostic::error(
                op.location(),
                &format!(
                    "'{name}' op commits groups inside its regions: the token form \
                     (apipe-counting-to-tokens, which apipe-merge-queues also runs) carries tokens \
                     only through scf.for, scf.if, scf.index_switch, scf.while and scf.execute_region"
                ),
            );
            ok = false;
        }
    }
    ok
}

/// The most groups each queue can have in one function
/// ([`group_distance::max_groups`]), found once per queue: a walk of the
/// whole function per wait made the pass quadratic in its waits.
struct MostGroups<'f, 'c, 'a> {
    function: &'f OperationRef<'c, 'a>,
    by_queue: FxHashMap<i64, Option<u64>>,
}

impl<'f, 'c, 'a> MostGroups<'f, 'c, 'a> {
    fn new(function: &'f OperationRef<'c, 'a>) -> Self {
        Self {
            function,
            by_queue: FxHashMap::default(),
        }
    }

    /// True if the `wait_group` `op` can never find its group: its
    /// `pending` reaches the most groups its queue can have in the
    /// function.
    fn is_no_op(&mut self, op: &OperationRef) -> bool {
        let pending = attributes::integer(op, attributes::PENDING).unwrap_or(0) as u64;
        let queue = attributes::queue(op);
        let function = self.function;
        let most = *self
            .by_queue
            .entry(queue)
            .or_insert_with(|| group_distance::max_groups(function, queue));
        most.is_some_and(|most| pending >= most)
    }
}

/// The attributes of an op.
type NamedAttributes<'c> = Vec<(Identifier<'c>, melior::ir::Attribute<'c>)>;

/// Windows of tokens, newest first, per windowed queue.
type Windows<'c, 'a> = BTreeMap<i64, Vec<Value<'c, 'a>>>;

struct Converter<'c> {
    context: &'c Context,
    token: Type<'c>,
    /// K_q per windowed queue.
    sizes: BTreeMap<i64, usize>,
    /// The `apipe.ready` of each queue that has a `wait_group`.
    readies: BTreeMap<i64, mlir_sys::MlirValue>,
    /// The `wait_group`s that can never find their group (in a function
    /// whose FIFO starts empty).
    no_ops: BTreeSet<usize>,
    /// The `wait_group`s left in counting form: in a function that may be
    /// entered with groups in flight, those whose count always reaches past
    /// the function's own commits (they wait for the caller's groups).
    kept: BTreeSet<usize>,
    /// Each converted wait and the attributes of its `wait_group` (to put
    /// it back when its group may be one committed before entry).
    converted: std::cell::RefCell<Vec<(mlir_sys::MlirOperation, NamedAttributes<'c>)>>,
}

/// Steps 2-4 for one function.
fn convert_function(function: OperationRef) {
    let mut sizes: BTreeMap<i64, usize> = BTreeMap::new();
    let mut queues = BTreeSet::new();
    let mut no_ops = BTreeSet::new();
    let mut kept = BTreeSet::new();
    let starts_empty = starts_empty(&function);
    let mut most_groups = MostGroups::new(&function);
    for op in ops::nested_ops(&function) {
        if ops::is(&op, ops::WAIT_GROUP) && group_distance::enclosing_function(op) == Some(function)
        {
            if most_groups.is_no_op(&op) {
                if starts_empty {
                    queues.insert(attributes::queue(&op));
                    no_ops.insert(op.to_raw().ptr as usize);
                } else {
                    kept.insert(op.to_raw().ptr as usize);
                }
                continue;
            }
            queues.insert(attributes::queue(&op));
            let pending = attributes::integer(&op, attributes::PENDING).unwrap_or(0) as usize;
            let size = sizes.entry(attributes::queue(&op)).or_default();
            *size = (*size).max(pending + 1);
        }
    }
    let Some(entry) = ops::blocks_of(&function).first().copied() else {
        return;
    };
    let context_ref = function.context();
    // SAFETY: `context_ref` is bound first (a temporary context ref would dangle).
    let context: &Context = unsafe { context_ref.to_ref() };
    let mut converter = Converter {
        context,
        token: Type::parse(context, ops::TOKEN_TYPE).expect("apipe dialect loaded"),
        sizes,
        readies: BTreeMap::new(),
        no_ops,
        kept,
        converted: Default::default(),
    };
    // 2.
    let mut windows = Windows::new();
    for &queue in queues.iter().rev() {
        let ready = build::ready(
            context,
            (queue != 0).then_some(queue),
            converter.token,
            function.location(),
        );
        let ready: Value = entry.insert_operation(0, ready).result(0).unwrap().into();
        converter.readies.insert(queue, ready.to_raw());
        if let Some(&size) = converter.sizes.get(&queue) {
            windows.insert(queue, vec![ready; size]);
        }
    }
    // 3.-4.
    converter.block(entry, &mut windows);
    // 5.
    if !starts_empty {
        converter.keep_waits_on_entry_groups();
    }
    // 6.
    for ready in converter.readies.values() {
        // SAFETY: the `ready` op is live; it is erased only if unused.
        let value: Value = unsafe { Value::from_raw(*ready) };
        if token_values::users(value).is_empty() {
            // SAFETY: an op result's owner is a live op with no other use.
            let owner = unsafe { OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(*ready)) };
            rewrite::erase_op(owner);
        }
    }
}

/// True for a function whose FIFO is empty when it starts: a `gpu.func`
/// kernel and a `gpu.launch` body (each thread starts a kernel with no
/// group). Any other function may be entered with the caller's groups in
/// flight.
pub fn starts_empty(function: &OperationRef) -> bool {
    (ops::is(function, "gpu.func") && function.has_attribute("gpu.kernel"))
        || ops::is(function, "gpu.launch")
}

/// The token values that may carry one of `seeds` (through `scf.for` /
/// `scf.while` iter_args and results, `scf.if` / `scf.index_switch` /
/// `scf.execute_region` results), keyed by address.
fn reached_by(seeds: Vec<mlir_sys::MlirValue>) -> FxHashSet<usize> {
    let mut reached: FxHashSet<usize> = seeds.iter().map(|v| v.ptr as usize).collect();
    let mut work = seeds;
    while let Some(raw) = work.pop() {
        // SAFETY: every value in the work list is live.
        let value: Value = unsafe { Value::from_raw(raw) };
        let mut next: Vec<mlir_sys::MlirValue> = Vec::new();
        let argument = |op: &OperationRef, region: usize, index: usize| {
            let block = op.region(region).unwrap().first_block().unwrap();
            block.argument(index).unwrap().to_raw()
        };
        let result = |op: &OperationRef, index: usize| op.result(index).unwrap().to_raw();
        for user in token_values::users(value) {
            let name = ops::name(&user);
            for (index, operand) in user.operands().enumerate() {
                if operand != value {
                    continue;
                }
                match name {
                    "scf.for" if index >= 3 => {
                        next.push(argument(&user, 0, index - 2));
                        next.push(result(&user, index - 3));
                    }
                    "scf.while" => next.push(argument(&user, 0, index)),
                    "scf.condition" if index >= 1 => {
                        let owner = user.parent_operation().unwrap();
                        next.push(argument(&owner, 1, index - 1));
                        next.push(result(&owner, index - 1));
                    }
                    "scf.yield" => {
                        let owner = user.parent_operation().unwrap();
                        match ops::name(&owner) {
                            "scf.for" => {
                                next.push(argument(&owner, 0, index + 1));
                                next.push(result(&owner, index));
                            }
                            "scf.while" => next.push(argument(&owner, 0, index)),
                            _ => next.push(result(&owner, index)),
                        }
                    }
                    _ => {}
                }
            }
        }
        for value in next {
            if reached.insert(value.ptr as usize) {
                work.push(value);
            }
        }
    }
    reached
}

impl<'c> Converter<'c> {
    /// Step 5 (a function that may be entered with groups in flight): a
    /// converted wait whose token may be the window's initial `ready` (on
    /// some path fewer than `pending + 1` groups were committed in the
    /// function, so it waits for a group of the caller) becomes its
    /// `wait_group` again.
    fn keep_waits_on_entry_groups(&self) {
        let reached = reached_by(self.readies.values().copied().collect());
        for (wait, original) in self.converted.borrow().iter() {
            // SAFETY: the converted waits are live until erased here.
            let wait = unsafe { OperationRef::from_raw(*wait) };
            let token = wait.operand(0).unwrap();
            if !reached.contains(&(token.to_raw().ptr as usize)) {
                continue;
            }
            let integer = |name: &str| {
                original
                    .iter()
                    .find(|(n, _)| n.as_string_ref().as_str() == Ok(name))
                    .and_then(|(_, a)| IntegerAttribute::try_from(*a).ok())
                    .map(|a| a.value())
            };
            let wait_group = build::with_discardable_attributes(
                build::wait_group(
                    self.context,
                    integer(attributes::PENDING).unwrap_or(0),
                    integer(attributes::QUEUE),
                    wait.location(),
                ),
                original,
            );
            wait.block()
                .unwrap()
                .insert_operation_before(wait, wait_group);
            rewrite::erase_op(wait);
        }
    }

    /// The windowed queues that `op`'s regions commit on.
    fn threaded_queues(&self, op: &OperationRef) -> BTreeSet<i64> {
        group_distance::commit_queues(op)
            .into_iter()
            .filter(|queue| self.sizes.contains_key(queue))
            .collect()
    }

    fn flatten<'a>(windows: &Windows<'c, 'a>, queues: &BTreeSet<i64>) -> Vec<Value<'c, 'a>> {
        queues.iter().flat_map(|q| windows[q].clone()).collect()
    }

    fn unflatten<'a>(
        &self,
        windows: &mut Windows<'c, 'a>,
        queues: &BTreeSet<i64>,
        values: &[Value<'c, 'a>],
    ) {
        let mut at = 0;
        for queue in queues {
            let size = self.sizes[queue];
            windows.insert(*queue, values[at..at + size].to_vec());
            at += size;
        }
    }

    fn block<'a>(&self, block: BlockRef<'c, 'a>, windows: &mut Windows<'c, 'a>) {
        let mut list = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            list.push(op);
            next = op.next_in_block();
        }
        for op in list {
            self.op(op, windows);
        }
    }

    fn op<'a>(&self, op: OperationRef<'c, 'a>, windows: &mut Windows<'c, 'a>) {
        let name = ops::name(&op);
        match name {
            ops::COMMIT_GROUP => {
                let queue = attributes::queue(&op);
                // Count first: melior prints the module into the error of an
                // out-of-range `result(0)` (racing with sibling functions).
                let token: Value = match op.result_count() {
                    1 => op.result(0).expect("checked").into(),
                    _ => {
                        let attributes: Vec<_> = op.attributes().collect();
                        let commit = build::with_discardable_attributes(
                            build::commit_group(
                                self.context,
                                attributes::integer(&op, attributes::QUEUE),
                                Some(self.token),
                                op.location(),
                            ),
                            &attributes,
                        );
                        let commit = op.block().unwrap().insert_operation_before(op, commit);
                        rewrite::erase_op(op);
                        commit.result(0).unwrap().into()
                    }
                };
                if let Some(window) = windows.get_mut(&queue) {
                    window.insert(0, token);
                    window.pop();
                }
            }
            ops::WAIT_GROUP if self.kept.contains(&(op.to_raw().ptr as usize)) => {}
            ops::WAIT_GROUP => {
                let queue = attributes::queue(&op);
                let pending = attributes::integer(&op, attributes::PENDING).unwrap_or(0) as usize;
                let token = if self.no_ops.contains(&(op.to_raw().ptr as usize)) {
                    // SAFETY: the `ready` op lives as long as the function.
                    unsafe { Value::from_raw(self.readies[&queue]) }
                } else {
                    windows[&queue][pending]
                };
                let attributes: Vec<_> = op.attributes().collect();
                let wait = build::with_discardable_attributes(
                    build::wait(self.context, &[token], op.location()),
                    &attributes,
                );
                let wait = op.block().unwrap().insert_operation_before(op, wait);
                self.converted
                    .borrow_mut()
                    .push((wait.to_raw(), op.attributes().collect()));
                rewrite::erase_op(op);
            }
            _ if op.region_count() == 0 || group_distance::is_function(&op) => {}
            _ => {
                let queues = self.threaded_queues(&op);
                if queues.is_empty() {
                    for block in ops::blocks_of(&op) {
                        self.block(block, &mut windows.clone());
                    }
                    return;
                }
                match name {
                    "scf.for" => self.for_loop(op, windows, &queues),
                    "scf.while" => self.while_loop(op, windows, &queues),
                    _ => self.branches(op, windows, &queues),
                }
            }
        }
    }

    fn add_arguments<'a>(&self, block: BlockRef<'c, 'a>, count: usize) -> Vec<Value<'c, 'a>> {
        (0..count)
            .map(|_| block.add_argument(self.token, block.parent_operation().unwrap().location()))
            .collect()
    }

    fn for_loop<'a>(
        &self,
        op: OperationRef<'c, 'a>,
        windows: &mut Windows<'c, 'a>,
        queues: &BTreeSet<i64>,
    ) {
        let inits = Self::flatten(windows, queues);
        let body = op.region(0).unwrap().first_block().unwrap();
        let arguments = self.add_arguments(body, inits.len());
        let mut inner = windows.clone();
        self.unflatten(&mut inner, queues, &arguments);
        self.block(body, &mut inner);
        token_values::append_operands(body.terminator().unwrap(), &Self::flatten(&inner, queues));
        let new = token_values::rebuild_with_results(op, &inits, self.token, inits.len());
        let results = token_values::tail_results(new, inits.len());
        self.unflatten(windows, queues, &results);
    }

    fn while_loop<'a>(
        &self,
        op: OperationRef<'c, 'a>,
        windows: &mut Windows<'c, 'a>,
        queues: &BTreeSet<i64>,
    ) {
        let inits = Self::flatten(windows, queues);
        let count = inits.len();
        let before = op.region(0).unwrap().first_block().unwrap();
        let after = op.region(1).unwrap().first_block().unwrap();
        let before_arguments = self.add_arguments(before, count);
        let mut inner = windows.clone();
        self.unflatten(&mut inner, queues, &before_arguments);
        self.block(before, &mut inner);
        token_values::append_operands(before.terminator().unwrap(), &Self::flatten(&inner, queues));
        let after_arguments = self.add_arguments(after, count);
        let mut inner = windows.clone();
        self.unflatten(&mut inner, queues, &after_arguments);
        self.block(after, &mut inner);
        token_values::append_operands(after.terminator().unwrap(), &Self::flatten(&inner, queues));
        let new = token_values::rebuild_with_results(op, &inits, self.token, count);
        let results = token_values::tail_results(new, count);
        self.unflatten(windows, queues, &results);
    }

    fn branches<'a>(
        &self,
        op: OperationRef<'c, 'a>,
        windows: &mut Windows<'c, 'a>,
        queues: &BTreeSet<i64>,
    ) {
        let outer = Self::flatten(windows, queues);
        for region in op.regions() {
            match region.first_block() {
                Some(block) => {
                    let mut inner = windows.clone();
                    self.block(block, &mut inner);
                    token_values::append_operands(
                        block.terminator().unwrap(),
                        &Self::flatten(&inner, queues),
                    );
                }
                None => {
                    // `scf.if` without `else`: yield the window unchanged.
                    let block = Block::new(&[]);
                    block.append_operation(
                        OperationBuilder::new("scf.yield", op.location())
                            .add_operands(&outer)
                            .build()
                            .expect("scf.yield"),
                    );
                    region.append_block(block);
                }
            }
        }
        let new = token_values::rebuild_with_results(op, &[], self.token, outer.len());
        let results = token_values::tail_results(new, outer.len());
        self.unflatten(windows, queues, &results);
    }
}
