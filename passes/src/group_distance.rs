//! The group-distance analysis: how many groups are committed on a queue
//! between a named group and a program point, over all paths, under the
//! FIFO semantics of groups (per thread and queue, PTX ISA 9.7.9.25.3).
//!
//! The one place that answers "groups committed on queue q after group G and
//! before point P": `apipe-tokens-to-counting` (the `pending` count of a
//! `wait`), `apipe-merge-queues`, the pipeliner's counts and the hazard
//! checker all read it. The answer is a [`Distance`]: the fewest and the most
//! groups over all paths (`max = None`: unbounded).
//!
//! # Public API
//! - [`GroupDistance::compute`] runs once per function (`func.func`,
//!   `gpu.func`, `llvm.func`, any `*.func`, and a `gpu.launch` body: see
//!   [`is_function`], [`functions`]), in token or counting form.
//! - [`GroupDistance::token_fact`]`(wait, token)`: the [`GroupFact`] of a
//!   token operand of an `apipe.wait`, recorded for every wait.
//! - [`forced_commits`]`(root)`: for each `wait_group`, the commit op of
//!   the group it forces complete, where it can be named in straight-line
//!   code (one forward walk; `apipe-to-nvgpu` names its waits with it).
//! - [`max_groups`]`(op, q)`: the most groups `op` can commit on q along
//!   one path (a `wait_group` reaching it is a no-op); [`commit_queues`].
//! - The facts are keyed by op and value: they hold until the IR changes.
//! - [`GroupDistance::compute_with`] with [`Options`] records more:
//!   `points` (ops before which the whole state is kept) and
//!   `track_commits` (each commit op is also followed as "its most recent
//!   execution"), then [`GroupDistance::token_fact_at`]`(point, token)` and
//!   [`GroupDistance::commit_fact_at`]`(point, commit)` answer
//!   point-to-point queries.
//!
//! A [`GroupFact`] says the queue, the [`Distance`] over the paths on which
//! the token names a group, and whether on some path it names none (an
//! `apipe.ready` token, or a commit op that has not run yet). Such a path
//! has nothing to wait for, so any count is correct there.
//!
//! # Algorithm (forward abstract interpretation over structured control flow)
//! The state maps each live entity (a token value; with `track_commits`,
//! each commit op) to a [`GroupFact`].
//! 1. `apipe.commit_group` on q: every distance of queue q grows by one; the
//!    commit's token (and the commit op) start at `[0, 0]`. `apipe.ready`:
//!    a token that names no group.
//! 2. `scf.if` / `scf.index_switch`: each branch from the same state (an
//!    absent `else` is the state itself); the join of the branch states, and
//!    the results are the join of the yielded facts. Join: interval hull of
//!    the distances; an entity missing on one side names no group there.
//! 3. `scf.for`: the header state is the join of the entry path (iter_args
//!    = inits) and the back edge (iter_args = yields), iterated to a fixed
//!    point, widened: a max that moves becomes unbounded at once (the
//!    interval is inexact for good then), a min that still moves from the
//!    fourth round on becomes 0 (rounds counted after the first k, for k
//!    iter_args: a rotating window of k tokens needs k rounds). A ghost entity per queue, reset at the
//!    top of the body, measures the groups of one iteration. Exit: a static
//!    trip count n ≥ 1 gives the back edge (no zero-trip path): the results
//!    are the yielded facts, and an entity from before the loop gets its
//!    entry distance plus n times the per-iteration count; n = 0 gives the
//!    entry state; a dynamic trip count gives the header (0 or more
//!    iterations). A static trip count of at most 4 is instead analyzed
//!    iteration by iteration (exact, like the unrolled loop), within a
//!    budget of visited ops proportional to the function's size. Each token
//!    iter_arg is also followed split by iteration: its init's group in the
//!    first iteration and the yielded group in the later ones (a missing
//!    side of a join means "not this iteration"), so a wait on it gets
//!    both facts ([`GroupDistance::token_fact_by_iteration`]) besides their
//!    join: a window that starts from `apipe.ready` or from prologue commits
//!    at another distance is exact in each.
//! 4. `scf.while`: the same fixed point over before-region → `scf.condition`
//!    → after-region → `scf.yield`; the exit is the state at the condition,
//!    the results its forwarded facts.
//! 5. `scf.execute_region` (one block): its body, results from its yield.
//! 6. Any other op with regions: analyzed as is if it commits nothing
//!    (waits inside see the state before it); if it commits, a located error.
//!    A `func.call` (or other call naming a `callee`) of a function that
//!    commits is a located error: the count would miss its groups. (With
//!    [`Options::function_only`], set when a pass runs on one function under
//!    `func.func`, possibly in parallel with its siblings, other functions
//!    are not read and calls are not checked.)
//! 7. Liveness: a token value leaves the state after the op of its block
//!    that (transitively) holds its last use, so the state stays as small
//!    as the set of live tokens and the analysis is linear in the size of
//!    the function for a bounded nesting depth.
//!
//! Recording: the facts at a wait (or a point) are the join over every
//! visit: the iterations of an unrolled loop, and the rounds of a fixed
//! point (each round's header is below the final one, so the last round
//! decides there).
//!
//! Precondition: the IR verifies. Functions are analyzed independently;
//! groups committed before a function's entry are not known (the function
//! is the unit of synchronization, as in PTX, where `cp.async` groups are
//! per thread and a kernel starts with none).
//!
//! Invariant (soundness): on every path on which the entity names a group,
//! the number of groups committed after it lies in `[min, max]`, so
//! `wait_group {pending = min}` never leaves that group pending; `max =
//! Some(min)` means every such path gives `min` (exact). Checked against a
//! brute-force path enumerator in `passes/tests/conversion_props.rs`.
//!
//! Citations: PTX ISA 9.7.9.25.3.2 / .3 (`cp.async.commit_group`,
//! `cp.async.wait_group N`: all but the N most recent groups complete);
//! RFC 0077 "Asynchronous stage in software pipeline", section "Inter-stage
//! synchronization" (counts derived from the pipeline structure); MLIR
//! `scf.for`, `scf.if`, `scf.while`, `scf.index_switch`,
//! `scf.execute_region` semantics (SCFOps.td).

use apipe_dialect::ops::Checked as _;
use apipe_dialect::{attributes, diagnostic, ops, Reported};
use melior::ir::{
    attribute::{FlatSymbolRefAttribute, StringAttribute},
    operation::OperationLike,
    BlockLike, BlockRef, Location, OperationRef, RegionLike, Value, ValueLike,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::{
    collections::{BTreeMap, BTreeSet, VecDeque},
    rc::Rc,
};

/// Groups committed on a queue after a group, over all paths: at least
/// `min`, at most `max` (`None`: no bound).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Distance {
    /// The fewest groups over all paths.
    pub min: u64,
    /// The most groups over all paths; `None` if unbounded.
    pub max: Option<u64>,
}

impl Distance {
    /// No group: `[0, 0]`.
    pub const ZERO: Distance = Distance {
        min: 0,
        max: Some(0),
    };

    /// True if every path gives the same count.
    pub fn is_exact(&self) -> bool {
        self.max == Some(self.min)
    }

    /// The interval hull of both.
    pub fn join(self, other: Distance) -> Distance {
        Distance {
            min: self.min.min(other.min),
            max: self.max.zip(other.max).map(|(a, b)| a.max(b)),
        }
    }

    /// The sum of both intervals.
    pub fn plus(self, other: Distance) -> Distance {
        Distance {
            min: self.min.saturating_add(other.min),
            max: self.max.zip(other.max).map(|(a, b)| a.saturating_add(b)),
        }
    }

    /// `n` times the interval.
    pub fn times(self, n: u64) -> Distance {
        Distance {
            min: self.min.saturating_mul(n),
            max: self.max.map(|m| m.saturating_mul(n)),
        }
    }
}

impl std::fmt::Display for Distance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.max {
            Some(max) if max == self.min => write!(f, "{max}"),
            Some(max) => write!(f, "{} to {max}", self.min),
            None => write!(f, "{} or more", self.min),
        }
    }
}

/// What the analysis knows of a token (or a commit op) at a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupFact {
    /// The queue of the group.
    pub queue: i64,
    /// Groups committed on `queue` after the group, over the paths on which
    /// there is a group; `None` if there is none on any path.
    pub groups: Option<Distance>,
    /// True if on some path there is no group (an `apipe.ready` token, or a
    /// commit that has not run): nothing to wait for on that path.
    pub may_name_no_group: bool,
}

impl GroupFact {
    /// A group committed just now.
    pub fn fresh(queue: i64) -> Self {
        Self {
            queue,
            groups: Some(Distance::ZERO),
            may_name_no_group: false,
        }
    }

    /// No group on any path (`apipe.ready`).
    pub fn no_group(queue: i64) -> Self {
        Self {
            queue,
            groups: None,
            may_name_no_group: true,
        }
    }

    fn join(self, other: GroupFact) -> GroupFact {
        let groups = match (self.groups, other.groups) {
            (Some(a), Some(b)) => Some(a.join(b)),
            (a, b) => a.or(b),
        };
        // A side with no group has no meaningful queue (`ready`).
        let queue = if self.groups.is_none() {
            other.queue
        } else {
            self.queue
        };
        GroupFact {
            queue,
            groups,
            may_name_no_group: self.may_name_no_group || other.may_name_no_group,
        }
    }
}

/// Extra recording for [`GroupDistance::compute_with`].
#[derive(Clone, Debug, Default)]
pub struct Options<'c, 'a> {
    /// Also follow each commit op (its most recent execution), for
    /// [`GroupDistance::commit_fact_at`].
    pub track_commits: bool,
    /// Ops before which the whole state is kept, for the `*_at` queries.
    pub points: Vec<OperationRef<'c, 'a>>,
    /// Do not read other functions: a call of a function is then refused
    /// ([`unseen_callee`]), since it may commit. Set when the pass runs on
    /// one function, nested under `func.func`: MLIR may then run it on
    /// sibling functions in parallel.
    pub function_only: bool,
    /// The committing functions of the module ([`functions_containing`]
    /// with `[ops::COMMIT_GROUP]`), computed once by a caller that analyzes
    /// many functions; `None`: computed here (unless `function_only`).
    /// Shared (`Rc`): each function's analysis reads the same set.
    pub committing_functions: Option<Rc<FxHashSet<String>>>,
    /// Do not refuse a call through a value ([`unknown_call`]): set by a
    /// caller that uses none of the facts of a function without token
    /// waits (apipe-check-hazards, whose walk follows what the callees
    /// may do itself).
    pub allow_unknown_calls: bool,
}

/// A followed entity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Entity {
    /// A token value (op result or block argument).
    Value(usize),
    /// The most recent execution of a commit op.
    Commit(usize),
    /// Groups since the top of the current iteration of a loop, per queue.
    Ghost(usize, i64),
    /// A token iter_arg of an `scf.for` (the key of the block argument) in
    /// iteration `i < k` of the loop, `k` its number of token iter_args
    /// (at most [`SPLIT_LIMIT`]): iteration 0 holds the init value's group
    /// (step 3, split facts).
    Nth(usize, usize),
    /// The same iter_arg in iterations `k` and later.
    Later(usize),
}

impl Entity {
    /// True for the split facts of an iter_arg, which hold on some visits
    /// only: missing on one side of a join means "not this iteration", not
    /// "no group".
    fn is_split(&self) -> bool {
        matches!(self, Entity::Nth(..) | Entity::Later(_))
    }
}

type State = BTreeMap<Entity, GroupFact>;

/// The result of the analysis on one function.
#[derive(Clone, Debug, Default)]
pub struct GroupDistance {
    operand_facts: FxHashMap<(usize, usize), GroupFact>,
    /// Facts of a wait's token operand that is a token iter_arg of an
    /// `scf.for`: in iterations `0..k`, then in the later ones, each joined
    /// over its visits.
    split_facts: FxHashMap<(usize, usize), Vec<Option<GroupFact>>>,
    snapshots: FxHashMap<usize, State>,
}

fn op_key<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> usize {
    op.to_raw().ptr as usize
}

fn value_key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

pub use apipe_dialect::ops::is_function;

/// The innermost function (see [`is_function`]) around `op`.
pub fn enclosing_function<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    ops::ancestors(&op).find(is_function)
}

/// The ops named `name` that `function` itself holds (not those of a
/// function nested in it), in program order.
pub fn own_ops<'c: 'a, 'a>(
    function: &OperationRef<'c, 'a>,
    name: &str,
) -> Vec<OperationRef<'c, 'a>> {
    ops::nested_ops(function)
        .into_iter()
        .filter(|op| ops::is(op, name) && enclosing_function(*op) == Some(*function))
        .collect()
}

/// True if `function` itself (not a function nested in it) holds an op
/// named `name`.
pub fn has_own_op<'c: 'a, 'a>(function: &OperationRef<'c, 'a>, name: &str) -> bool {
    has_own_op_in(function, &ops::nested_ops(function), name)
}

/// [`has_own_op`], given the ops nested in `function` (`nested`, as
/// [`ops::nested_ops`] gives them).
pub fn has_own_op_in<'c: 'a, 'a>(
    function: &OperationRef<'c, 'a>,
    nested: &[OperationRef<'c, 'a>],
    name: &str,
) -> bool {
    nested
        .iter()
        .any(|op| ops::is(op, name) && enclosing_function(*op) == Some(*function))
}

/// The functions in `root` (itself if it is one), outermost first.
pub fn functions<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    ops::self_and_nested_ops(root)
        .into_iter()
        .filter(is_function)
        .collect()
}

/// The queues of the commits nested in `op`'s regions, not counting those
/// inside nested functions (`gpu.launch`, ...): their groups are their own.
pub fn commit_queues<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> BTreeSet<i64> {
    let mut out = BTreeSet::new();
    for block in ops::blocks_of(op) {
        let mut next = block.first_operation();
        while let Some(inner) = next {
            if ops::is(&inner, ops::COMMIT_GROUP) {
                out.insert(attributes::queue(&inner));
            } else if inner.region_count() > 0 && !is_function(&inner) {
                out.extend(commit_queues(&inner));
            }
            next = inner.next_in_block();
        }
    }
    out
}

/// For each `apipe.wait_group {pending = N}` nested in `root` (counting
/// form, one queue), the commit op whose most recent execution is the
/// (N+1)-th newest group at the wait, when it can be named without leaving
/// straight-line code: the commit is in the wait's block or in a block of
/// an enclosing `scf.if` / `scf.index_switch` / `scf.execute_region`, and
/// no op between them holds a commit in its regions (nor is a loop or
/// function boundary crossed). Waits without such a commit are absent.
/// This is what `apipe-to-nvgpu` names in `nvgpu.device_async_wait`.
///
/// Algorithm: one forward walk per block with the window of the newest
/// commits in scope (at most the largest `pending` + 1 of them): a commit
/// pushes itself; an op whose regions commit empties the window after it;
/// the blocks of `scf.if`, `scf.index_switch`, `scf.execute_region` start
/// from the window before their op, every other region from an empty one.
/// Linear in the size of `root` times that window.
pub fn forced_commits<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
) -> FxHashMap<usize, OperationRef<'c, 'a>> {
    let nested = ops::nested_ops(root);
    let mut committing: FxHashSet<usize> = FxHashSet::default();
    let mut window = 0usize;
    for op in &nested {
        if ops::is(op, ops::COMMIT_GROUP) {
            for ancestor in ops::ancestors(op) {
                if !committing.insert(op_key(&ancestor)) {
                    break;
                }
            }
        } else if ops::is(op, ops::WAIT_GROUP) {
            let pending = attributes::integer(op, attributes::PENDING).unwrap_or(-1);
            if pending >= 0 {
                window = window.max(pending as usize + 1);
            }
        }
    }
    let mut out = FxHashMap::default();
    for block in ops::blocks_of(root) {
        forced_in_block(block, VecDeque::new(), window, &committing, &mut out);
    }
    out
}

fn forced_in_block<'c, 'a>(
    block: BlockRef<'c, 'a>,
    mut newest: VecDeque<OperationRef<'c, 'a>>,
    window: usize,
    committing: &FxHashSet<usize>,
    out: &mut FxHashMap<usize, OperationRef<'c, 'a>>,
) {
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if ops::is(&op, ops::COMMIT_GROUP) {
            newest.push_back(op);
            if newest.len() > window {
                newest.pop_front();
            }
        } else if ops::is(&op, ops::WAIT_GROUP) {
            let pending = attributes::integer(&op, attributes::PENDING).unwrap_or(-1);
            if pending >= 0 && (pending as usize) < newest.len() {
                out.insert(op_key(&op), newest[newest.len() - 1 - pending as usize]);
            }
        } else if op.region_count() > 0 {
            let inherits = matches!(
                ops::name(&op),
                "scf.if" | "scf.index_switch" | "scf.execute_region"
            );
            for inner in ops::blocks_of(&op) {
                let start = if inherits {
                    newest.clone()
                } else {
                    VecDeque::new()
                };
                forced_in_block(inner, start, window, committing, out);
            }
            if committing.contains(&op_key(&op)) {
                newest.clear();
            }
        }
    }
}

/// The symbol names of the functions in the top-level op above `op` that
/// contain an op named in `names` (e.g. `[ops::COMMIT_GROUP]`).
pub fn functions_containing<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    names: &[&str],
) -> FxHashSet<String> {
    functions_where(op, |name| names.contains(&name))
}

/// The symbol names of the functions in the top-level op above `op` that
/// contain an op whose name passes `contains` (e.g. a name starting with
/// `apipe.`), or that may reach one through calls: a `func.call` or
/// `llvm.call` of such a function (to a fixed point, so that a chain
/// `@h1 -> @g` counts as `@g` does), or an [`unknown_call`].
pub fn functions_where<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    contains: impl Fn(&str) -> bool,
) -> FxHashSet<String> {
    functions_above_where_named(op, &[&contains])
        .pop()
        .unwrap_or_default()
}

/// [`functions_where_named`] over the functions of the top-level op above
/// `op` (each walked once for its nested ops).
pub fn functions_above_where_named<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    tests: &[&dyn Fn(&str) -> bool],
) -> Vec<FxHashSet<String>> {
    // SAFETY: `op` is live.
    let top = ops::outermost(&unsafe { OperationRef::from_raw(op.to_raw()) });
    let functions: Vec<_> = functions(&top)
        .into_iter()
        .map(|f| (f, ops::nested_ops(&f)))
        .collect();
    let pairs: Vec<_> = functions.iter().map(|(f, n)| (*f, n.as_slice())).collect();
    functions_where_named(&pairs, tests)
}

/// [`functions_where`] for several tests of an op's name at once (one set
/// per test, in order), over `functions`: every function of the top-level
/// op, each with its nested ops (as [`functions`] and
/// [`ops::nested_ops`] give them). Each op's name is read once, and its
/// `callee` only if it is a call: the module is not walked again per test.
pub fn functions_where_named<'c: 'a, 'a>(
    functions: &[(OperationRef<'c, 'a>, &[OperationRef<'c, 'a>])],
    tests: &[&dyn Fn(&str) -> bool],
) -> Vec<FxHashSet<String>> {
    let mut out = vec![FxHashSet::default(); tests.len()];
    // Per test: the named functions that do not contain a match
    // themselves, with the callees of their calls.
    let mut callers: Vec<Vec<(String, Vec<String>)>> = vec![Vec::new(); tests.len()];
    for (function, nested) in functions {
        let Some(symbol) = symbol_name(function) else {
            continue;
        };
        let mut found = vec![false; tests.len()];
        let mut callees = Vec::new();
        for o in nested.iter() {
            let name = ops::name(o);
            if matches!(name, "func.call" | "llvm.call" | "func.call_indirect") {
                match callee(o).filter(|_| name != "func.call_indirect") {
                    Some(c) => callees.push(c),
                    // An unknown call ([`unknown_call`]) may reach any.
                    None => found.fill(true),
                }
            }
            for (f, test) in found.iter_mut().zip(tests) {
                *f |= test(name);
            }
        }
        for (i, found) in found.into_iter().enumerate() {
            if found {
                out[i].insert(symbol.clone());
            } else if !callees.is_empty() {
                callers[i].push((symbol.clone(), callees.clone()));
            }
        }
    }
    for (out, callers) in out.iter_mut().zip(&callers) {
        close_over_calls(out, callers);
    }
    out
}

/// Adds to `reaching` each function of `callers` (symbol, callees) that
/// calls one in `reaching`, to a fixed point (a chain `@h1 -> @g` counts as
/// `@g` does).
fn close_over_calls(reaching: &mut FxHashSet<String>, callers: &[(String, Vec<String>)]) {
    loop {
        let before = reaching.len();
        for (symbol, callees) in callers {
            if !reaching.contains(symbol) && callees.iter().any(|c| reaching.contains(c)) {
                reaching.insert(symbol.clone());
            }
        }
        if reaching.len() == before {
            return;
        }
    }
}

/// True if `op` calls a function that no flat symbol names: a
/// `func.call_indirect` (through a value), or a `func.call` / `llvm.call`
/// without a flat `@callee` (a nested symbol reference, or an indirect
/// `llvm.call`). The analyses cannot tell what such a callee does.
pub fn unknown_call<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
    ops::is(op, "func.call_indirect") || (is_call(op) && callee(op).is_none())
}

/// True if `op` is a `func.call` or an `llvm.call` (its `callee`, if any,
/// is a flat symbol: [`callee`]).
pub fn is_call<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
    ops::is(op, "func.call") || ops::is(op, "llvm.call")
}

/// The error for an [`unknown_call`] in a function whose groups an
/// analysis counts: its callee is unknown, so it may commit or wait.
pub fn indirect_call(name: &str) -> String {
    format!(
        "'{name}' op calls a function that no flat symbol names: apipe cannot tell whether the \
         callee commits or waits (call it by name with func.call, or inline it)"
    )
}

/// The error for a call that a pass running on one function (nested under
/// `func.func`, `gpu.func`, ...) cannot follow: it cannot read `@callee` to
/// know whether it commits or waits.
pub fn unseen_callee(name: &str, callee: &str) -> String {
    format!(
        "'{name}' op calls @{callee}, which this pass cannot see: nested under a function it runs \
         on that function alone (MLIR may run it on the others in parallel), so it cannot tell \
         whether @{callee} commits or waits; run the pass on the module"
    )
}

/// The symbol name of `op` (its `sym_name` string), if any.
pub fn symbol_name<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<String> {
    let attribute = op.attribute("sym_name").ok()?;
    Some(
        StringAttribute::try_from(attribute)
            .ok()?
            .value()
            .to_owned(),
    )
}

/// The callee of a call op (its `callee` symbol), if any.
pub fn callee<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<String> {
    symbol_ref(op, "callee")
}

/// The symbol whose address `op` takes (a function called through a
/// value, or an LLVM global): `func.constant`'s `value`,
/// `llvm.mlir.addressof`'s `global_name`; `None` for any other op.
pub fn address_taken<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<String> {
    match ops::name(op) {
        "func.constant" => symbol_ref(op, "value"),
        "llvm.mlir.addressof" => symbol_ref(op, "global_name"),
        _ => None,
    }
}

/// The flat symbol reference in `op`'s attribute `name` (`@callee`,
/// `memref.get_global`'s `name`), if any.
pub fn symbol_ref<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, name: &str) -> Option<String> {
    let attribute = op.attribute(name).ok()?;
    let symbol = FlatSymbolRefAttribute::try_from(attribute).ok()?;
    Some(symbol.value().to_owned())
}

pub use crate::trip_count::static_trip_count;
pub use apipe_dialect::ops::constant_int;

/// The most groups that the regions of `op` (a function, or any op) can
/// commit on `queue` along one path; `None` if unbounded (a loop with a
/// dynamic trip count or an `scf.while` that commits on `queue`, or an op
/// the analysis does not follow). A `wait_group` whose `pending` reaches it
/// can never find its group: it is a no-op.
pub fn max_groups<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, queue: i64) -> Option<u64> {
    let block_max = |block: BlockRef<'c, 'a>| -> Option<u64> {
        let mut total: u64 = 0;
        let mut next = block.first_operation();
        while let Some(inner) = next {
            total = total.checked_add(op_max_groups(&inner, queue)?)?;
            next = inner.next_in_block();
        }
        Some(total)
    };
    let mut most = Some(0);
    for region in op.regions() {
        let value = match region.first_block() {
            None => Some(0),
            Some(block) if block.next_in_region().is_none() => block_max(block),
            Some(_) => {
                if commit_queues(op).contains(&queue) {
                    None
                } else {
                    Some(0)
                }
            }
        };
        most = most.zip(value).map(|(a, b)| a.max(b));
    }
    most
}

/// The fewest and the most groups that one full iteration of the
/// `scf.while` `w` (its `before` region, then its `after` region) commits
/// on `queue`; `None` for the most when it is not bounded.
pub fn while_iteration_groups<'c: 'a, 'a>(
    w: &OperationRef<'c, 'a>,
    queue: i64,
) -> (u64, Option<u64>) {
    let mut least: u64 = 0;
    let mut most = Some(0u64);
    for region in w.regions() {
        let Some(block) = region.first_block() else {
            continue;
        };
        if block.next_in_region().is_some() {
            return (0, None);
        }
        let mut next = block.first_operation();
        while let Some(inner) = next {
            least = least.saturating_add(op_min_groups(&inner, queue));
            most = most
                .zip(op_max_groups(&inner, queue))
                .and_then(|(a, b)| a.checked_add(b));
            next = inner.next_in_block();
        }
    }
    (least, most)
}

/// [`max_groups`] of one op (a commit counts itself; loops multiply).
fn op_max_groups<'c: 'a, 'a>(op: &OperationRef<'c, 'a>, queue: i64) -> Option<u64> {
    let name = ops::name(op);
    match name {
        // In the mbarrier form an arrive ends a group of the thread's copies
        // (`cp.async.mbarrier.arrive.noinc` tracks every earlier copy, PTX
        // ISA 9.7.9.25.3.4), on queue 0 (it has no `queue`): the hazard walk
        // counts arrives as groups. `commit_queues` and the token facts do
        // not (a function that only arrives commits no `cp.async` group).
        ops::COMMIT_GROUP | ops::MBARRIER_ARRIVE_COPIES => {
            Some(u64::from(attributes::queue(op) == queue))
        }
        "scf.for" => {
            let body = max_groups(op, queue)?;
            if body == 0 {
                return Some(0);
            }
            body.checked_mul(static_trip_count(op)?)
        }
        "scf.while" => (max_groups(op, queue)? == 0).then_some(0),
        "scf.if" | "scf.index_switch" | "scf.execute_region" => max_groups(op, queue),
        _ if is_function(op) => Some(0),
        _ if op.region_count() > 0 => (!commit_queues(op).contains(&queue)).then_some(0),
        _ => Some(0),
    }
}

/// The fewest groups that the regions of `op` commit on `queue` along one
/// path (a lower bound: 0 where a path may skip them, such as a loop with a
/// dynamic trip count, an `scf.while` after its first `before` region, or an
/// op the analysis does not follow).
pub fn min_groups<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, queue: i64) -> u64 {
    let block_min = |block: BlockRef<'c, 'a>| -> u64 {
        let mut total: u64 = 0;
        let mut next = block.first_operation();
        while let Some(inner) = next {
            total = total.saturating_add(op_min_groups(&inner, queue));
            next = inner.next_in_block();
        }
        total
    };
    let mut least: Option<u64> = None;
    for region in op.regions() {
        let value = match region.first_block() {
            Some(block) if block.next_in_region().is_none() => block_min(block),
            _ => 0,
        };
        least = Some(least.map_or(value, |l| l.min(value)));
    }
    least.unwrap_or(0)
}

/// [`min_groups`] of one op (a commit counts itself; loops multiply).
fn op_min_groups<'c: 'a, 'a>(op: &OperationRef<'c, 'a>, queue: i64) -> u64 {
    match ops::name(op) {
        ops::COMMIT_GROUP | ops::MBARRIER_ARRIVE_COPIES => {
            u64::from(attributes::queue(op) == queue)
        }
        "scf.for" => static_trip_count(op).map_or(0, |n| min_groups(op, queue).saturating_mul(n)),
        // The `before` region runs at least once.
        "scf.while" => op
            .region_at(0)
            .and_then(|r| r.first_block())
            .map_or(0, |b| {
                let mut total: u64 = 0;
                let mut next = b.first_operation();
                while let Some(inner) = next {
                    total = total.saturating_add(op_min_groups(&inner, queue));
                    next = inner.next_in_block();
                }
                total
            }),
        "scf.if" => {
            // An `scf.if` without `else` may commit nothing.
            let has_else = op.region(1).is_ok_and(|r| r.first_block().is_some());
            if has_else {
                min_groups(op, queue)
            } else {
                0
            }
        }
        "scf.index_switch" | "scf.execute_region" => min_groups(op, queue),
        _ => 0,
    }
}

impl GroupDistance {
    /// Analyzes `function` (a `*.func` op), recording the facts of every
    /// `apipe.wait` operand.
    ///
    /// # Errors
    /// A located error (already emitted) for an op with regions that commits
    /// groups and is not structured control flow the analysis follows, a
    /// call of a committing function, or tokens of two queues meeting in one
    /// value.
    pub fn compute<'c: 'a, 'a>(function: &impl OperationLike<'c, 'a>) -> Result<Self, Reported> {
        Self::compute_with(function, &Options::default())
    }

    /// [`Self::compute`] with extra recording.
    ///
    /// # Errors
    /// As [`Self::compute`].
    pub fn compute_with<'c: 'a, 'a>(
        function: &impl OperationLike<'c, 'a>,
        options: &Options<'c, 'a>,
    ) -> Result<Self, Reported> {
        Self::compute_inner(function, options)
    }

    fn compute_inner<'c: 'a, 'a>(
        function: &impl OperationLike<'c, 'a>,
        options: &Options<'c, 'a>,
    ) -> Result<Self, Reported> {
        let nested = ops::nested_ops(function);
        let has_apipe = nested.iter().any(ops::is_apipe);
        let mut interpreter = Interpreter {
            track_commits: options.track_commits,
            points: options.points.iter().map(op_key).collect(),
            dies_after: liveness(function),
            commit_queues: FxHashMap::default(),
            // A function with no apipe op of its own asks nothing of the
            // analysis: the groups its callees commit shift no count here.
            committing_functions: match (&options.committing_functions, options.function_only) {
                _ if !has_apipe => Rc::default(),
                (_, true) => Rc::default(),
                (Some(names), false) => Rc::clone(names),
                (None, false) => Rc::new(functions_containing(function, &[ops::COMMIT_GROUP])),
            },
            sees_callees: !options.function_only || !has_apipe,
            refuses_unknown_calls: has_apipe && !options.allow_unknown_calls,
            result: GroupDistance::default(),
            errors: Vec::new(),
            reported: FxHashSet::default(),
            while_yields: FxHashMap::default(),
            split_width: FxHashMap::default(),
            loop_exits: FxHashMap::default(),
            yield_splits: Vec::new(),
            unroll_budget: UNROLL_BUDGET_PER_OP * (nested.len() as u64) + UNROLL_BUDGET_BASE,
        };
        let blocks = ops::blocks_of(function);
        let mut state = State::new();
        match blocks.as_slice() {
            [] => {}
            [entry] => {
                interpreter.block(*entry, &mut state);
            }
            [first, ..] => {
                if !interpreter.commit_queues_of(function).is_empty() {
                    interpreter.error(
                        first
                            .first_operation()
                            .map_or(function.location(), |op| op.location()),
                        format!(
                            "'{}' op with several blocks commits groups: apipe follows groups only \
                             through structured control flow (scf)",
                            ops::name(function)
                        ),
                    );
                }
            }
        }
        if interpreter.errors.is_empty() {
            Ok(interpreter.result)
        } else {
            for (location, message) in interpreter.errors {
                diagnostic::error(location, &message);
            }
            Err(Reported)
        }
    }

    /// The fact of `token`, an operand of the `apipe.wait` op `wait` (or of
    /// any token at a point given in [`Options::points`]).
    pub fn token_fact<'c: 'a, 'a>(
        &self,
        wait: &impl OperationLike<'c, 'a>,
        token: Value,
    ) -> Option<GroupFact> {
        self.operand_facts
            .get(&(op_key(wait), value_key(token)))
            .copied()
            .or_else(|| self.token_fact_at(wait, token))
    }

    /// The facts of `token`, an operand of the `apipe.wait` op `wait`, if it
    /// is a token iter_arg of an `scf.for` around the wait, by iteration of
    /// that loop: element `i` for iteration `i` (iteration 0 names the
    /// init value's group), the last element for that iteration and all
    /// later ones; `None` where the wait is not reached in such an
    /// iteration as far as the analysis knows. The loop's number of token
    /// iter_args (at most 4) sets the length minus one, so a rotating window
    /// of `k` tokens started from `apipe.ready` or prologue commits is exact
    /// in each part. [`token_fact`](Self::token_fact) is their join.
    pub fn token_fact_by_iteration<'c: 'a, 'a>(
        &self,
        wait: &impl OperationLike<'c, 'a>,
        token: Value,
    ) -> Option<&[Option<GroupFact>]> {
        self.split_facts
            .get(&(op_key(wait), value_key(token)))
            .map(Vec::as_slice)
    }

    /// The fact of `token` just before `point` (one of [`Options::points`]).
    pub fn token_fact_at<'c: 'a, 'a>(
        &self,
        point: &impl OperationLike<'c, 'a>,
        token: Value,
    ) -> Option<GroupFact> {
        self.snapshots
            .get(&op_key(point))?
            .get(&Entity::Value(value_key(token)))
            .copied()
    }

    /// The fact of the most recent execution of the commit op `commit` just
    /// before `point` (needs [`Options::track_commits`] and `point` in
    /// [`Options::points`]). `None` if the commit cannot have run before.
    pub fn commit_fact_at<'c: 'a, 'a>(
        &self,
        point: &impl OperationLike<'c, 'a>,
        commit: &impl OperationLike<'c, 'a>,
    ) -> Option<GroupFact> {
        self.snapshots
            .get(&op_key(point))?
            .get(&Entity::Commit(op_key(commit)))
            .copied()
    }
}

/// For each op, the token values that die after it: the op of the value's
/// block that holds (transitively) the value's last use (step 7).
fn liveness<'c: 'a, 'a>(function: &impl OperationLike<'c, 'a>) -> FxHashMap<usize, Vec<Entity>> {
    let mut out: FxHashMap<usize, Vec<Entity>> = FxHashMap::default();
    let mut add =
        |value: Value<'c, 'a>, block: BlockRef<'c, 'a>, default: Option<OperationRef<'c, 'a>>| {
            let mut last = default;
            for user in crate::token_values::users(value) {
                let mut anchor = user;
                while anchor.block() != Some(block) {
                    match anchor.parent_operation() {
                        Some(parent) => anchor = parent,
                        None => break,
                    }
                }
                if anchor.block() != Some(block) {
                    continue;
                }
                if last.is_none_or(|l| l.is_before_in_block(anchor)) {
                    last = Some(anchor);
                }
            }
            if let Some(last) = last {
                out.entry(op_key(&last))
                    .or_default()
                    .push(Entity::Value(value_key(value)));
            }
        };
    for op in ops::self_and_nested_ops(function) {
        if let Some(block) = op.block() {
            for result in op.results() {
                if ops::is_token(result) {
                    add(result.into(), block, Some(op));
                }
            }
        }
        for block in ops::blocks_of(&op) {
            for index in 0..block.argument_count() {
                let argument: Value = block.argument(index).unwrap().into();
                if ops::is_token(argument) {
                    add(argument, block, None);
                }
            }
        }
    }
    out
}

/// The most iterations of a loop whose token iter_args are followed one by
/// one (step 3, split facts); later ones are joined.
const SPLIT_LIMIT: usize = 4;

fn join_options(a: Option<GroupFact>, b: Option<GroupFact>) -> Option<GroupFact> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.join(b)),
        (a, b) => a.or(b),
    }
}

/// Removes the split facts of the iter_arg `k`.
fn remove_split(state: &mut State, k: usize) {
    for i in 0..SPLIT_LIMIT {
        state.remove(&Entity::Nth(k, i));
    }
    state.remove(&Entity::Later(k));
}

/// Static trip counts up to this are analyzed iteration by iteration
/// (step 3).
const UNROLL_LIMIT: u64 = 4;
/// Unrolling visits at most this many ops per op of the function, plus
/// [`UNROLL_BUDGET_BASE`]; beyond, loops take the fixed point, so nests of
/// small static loops stay linear.
const UNROLL_BUDGET_PER_OP: u64 = 8;
/// See [`UNROLL_BUDGET_PER_OP`].
const UNROLL_BUDGET_BASE: u64 = 4096;
/// Rounds after which a moving min is widened to 0 (step 3), counted after
/// as many rounds as the loop has iter_args (a rotating window of k tokens
/// settles in k rounds).
const WIDEN_AFTER: usize = 3;
/// Rounds after which everything still moving becomes unknown.
const GIVE_UP_AFTER: usize = 16;
/// The most rounds that [`WIDEN_AFTER`] and [`GIVE_UP_AFTER`] wait for a
/// rotating window of iter_args to settle. A window of `k` tokens settles
/// in `k` rounds and each round costs `O(k)`, so an unbounded wait costs
/// `O(k^2)` (a `wait_group 1023` round trip took 8 s). Longer windows are
/// widened after this many rounds: their facts become less exact (sound,
/// and a conversion that needs them exact refuses), never wrong.
const SETTLE_ROUNDS_LIMIT: usize = 64;

/// The round number that [`widen`] sees in a loop with `arguments`
/// iter_args: rounds are counted after the window has had time to settle.
fn widen_round(round: usize, arguments: usize) -> usize {
    round.saturating_sub(arguments.min(SETTLE_ROUNDS_LIMIT))
}

struct Interpreter<'c> {
    track_commits: bool,
    points: FxHashSet<usize>,
    dies_after: FxHashMap<usize, Vec<Entity>>,
    commit_queues: FxHashMap<usize, BTreeSet<i64>>,
    committing_functions: Rc<FxHashSet<String>>,
    /// False when the pass runs on this function alone and it has apipe
    /// ops: every call is then refused ([`unseen_callee`]).
    sees_callees: bool,
    /// The function has apipe ops (and [`Options::allow_unknown_calls`]
    /// is unset): a call of an unknown function (`func.call_indirect`) is
    /// refused ([`indirect_call`]).
    refuses_unknown_calls: bool,
    result: GroupDistance,
    errors: Vec<(Location<'c>, String)>,
    reported: FxHashSet<(usize, String)>,
    while_yields: FxHashMap<usize, Vec<Option<GroupFact>>>,
    /// Ops that unrolled loop bodies may still visit (step 3).
    unroll_budget: u64,
    /// The split width of each token iter_arg of an `scf.for` (step 3).
    split_width: FxHashMap<usize, usize>,
    /// Per `scf.for` (key): the states it was entered with and left
    /// ([`Self::for_loop`]).
    loop_exits: FxHashMap<usize, Vec<(State, State)>>,
    /// The split facts of the operands of the terminator of the block run
    /// last: iterations `0..SPLIT_LIMIT`, then later ones.
    yield_splits: Vec<(usize, Vec<Option<GroupFact>>)>,
}

fn join_states(a: &State, b: &State) -> State {
    let mut out = a.clone();
    for (entity, fact) in out.iter_mut() {
        if !b.contains_key(entity) && !entity.is_split() {
            *fact = fact.join(GroupFact::no_group(fact.queue));
        }
    }
    for (entity, fact) in b {
        out.entry(*entity)
            .and_modify(|mine| *mine = mine.join(*fact))
            .or_insert_with(|| {
                if entity.is_split() {
                    *fact
                } else {
                    fact.join(GroupFact::no_group(fact.queue))
                }
            });
    }
    out
}

/// Two visits of one point: the facts of either (an entity seen on one
/// visit only keeps its fact; unlike [`join_states`], visits are not
/// paths that meet).
fn join_visits(a: &State, b: &State) -> State {
    let mut out = a.clone();
    for (entity, fact) in b {
        out.entry(*entity)
            .and_modify(|mine| *mine = mine.join(*fact))
            .or_insert(*fact);
    }
    out
}

/// Widens `next` against `previous` (step 3) in round `round`: a max that
/// moves becomes unbounded at once (once the max moved, the interval is
/// inexact for good, since mins only fall and maxes only rise, so only the
/// printed range is lost); a min that still moves after [`WIDEN_AFTER`]
/// rounds becomes 0; after [`GIVE_UP_AFTER`] rounds, everything that moves
/// becomes `[0, unbounded]`.
fn widen(previous: &State, next: &mut State, round: usize) {
    let give_up = round >= GIVE_UP_AFTER;
    for (entity, fact) in next.iter_mut() {
        let (Some(old), Some(new)) = (
            previous.get(entity).and_then(|f| f.groups),
            fact.groups.as_mut(),
        ) else {
            continue;
        };
        if give_up || new.max != old.max {
            new.max = None;
        }
        if (give_up || round >= WIDEN_AFTER) && new.min != old.min {
            new.min = 0;
        }
    }
}

/// After [`GIVE_UP_AFTER`] rounds (step 3): the facts of a loop's token
/// iter_args (`arguments`) become unknown at once, "a group of the queue,
/// any number of groups after it, or no group", so that a long rotating
/// window stops moving one slot per round (`k` rounds of `O(k)` each).
/// Sound: the unknown fact holds for every token of the queue. Done only
/// when every group the iter_args may name is on one queue (the loop
/// commits on no other, `queues`, and every fact names it): a ready token's
/// fact has no queue to give to the group it may hold later. Otherwise the
/// facts keep moving until they settle.
fn forget_window(state: &mut State, arguments: &[Value], queues: &BTreeSet<i64>) {
    let entities: Vec<Entity> = arguments
        .iter()
        .filter(|a| ops::is_token(**a))
        .flat_map(|a| {
            let k = value_key(*a);
            [Entity::Value(k), Entity::Later(k)]
                .into_iter()
                .chain((0..SPLIT_LIMIT).map(move |i| Entity::Nth(k, i)))
        })
        .collect();
    let named = entities
        .iter()
        .filter_map(|e| state.get(e))
        .filter(|f| f.groups.is_some())
        .map(|f| f.queue);
    let all: BTreeSet<i64> = queues.iter().copied().chain(named).collect();
    let (Some(&queue), 1) = (all.first(), all.len()) else {
        return;
    };
    for entity in &entities {
        if let Some(fact) = state.get_mut(entity) {
            *fact = GroupFact {
                queue,
                groups: Some(Distance { min: 0, max: None }),
                may_name_no_group: true,
            };
        }
    }
}

impl<'c> Interpreter<'c> {
    fn error(&mut self, location: Location<'c>, message: String) {
        let key = (location.to_raw().ptr as usize, message.clone());
        if self.reported.insert(key) {
            self.errors.push((location, message));
        }
    }

    fn commit_queues_of<'a>(&mut self, op: &impl OperationLike<'c, 'a>) -> BTreeSet<i64>
    where
        'c: 'a,
    {
        let key = op_key(op);
        if let Some(queues) = self.commit_queues.get(&key) {
            return queues.clone();
        }
        let queues = commit_queues(op);
        self.commit_queues.insert(key, queues.clone());
        queues
    }

    /// Runs `block` on `state`; returns the facts of its terminator's
    /// operands (read before the values used only there leave the state).
    fn block<'a>(&mut self, block: BlockRef<'c, 'a>, state: &mut State) -> Vec<Option<GroupFact>> {
        let mut next = block.first_operation();
        let mut yields = Vec::new();
        while let Some(op) = next {
            self.op(op, state);
            next = op.next_in_block();
            if next.is_none() {
                yields = op
                    .operands()
                    .map(|v| {
                        if ops::is_token(v) {
                            Self::fact(state, v)
                        } else {
                            None
                        }
                    })
                    .collect();
                // The split facts of the yielded tokens, for the back edge
                // of a loop (step 3).
                self.yield_splits = op
                    .operands()
                    .map(|v| {
                        let k = value_key(v);
                        let facts = (0..SPLIT_LIMIT)
                            .map(|i| state.get(&Entity::Nth(k, i)).copied())
                            .chain([state.get(&Entity::Later(k)).copied()])
                            .collect();
                        (k, facts)
                    })
                    .collect();
            }
            if let Some(dead) = self.dies_after.get(&op_key(&op)) {
                for entity in dead {
                    state.remove(entity);
                    if let Entity::Value(k) = entity {
                        remove_split(state, *k);
                    }
                }
            }
        }
        yields
    }

    fn fact(state: &State, value: Value) -> Option<GroupFact> {
        state.get(&Entity::Value(value_key(value))).copied()
    }

    /// Binds the token values among `values` to `facts` (same positions).
    fn bind<'a>(
        &mut self,
        state: &mut State,
        values: &[Value<'c, 'a>],
        facts: &[Option<GroupFact>],
    ) {
        for (value, fact) in values.iter().zip(facts) {
            if !ops::is_token(*value) {
                continue;
            }
            let key = Entity::Value(value_key(*value));
            match fact {
                Some(fact) => {
                    state.insert(key, *fact);
                }
                None => {
                    state.remove(&key);
                }
            }
        }
    }

    /// Joins per-position facts, reporting queues that meet at `location`.
    fn join_facts(
        &mut self,
        location: Location<'c>,
        sides: &[Vec<Option<GroupFact>>],
        count: usize,
    ) -> Vec<Option<GroupFact>> {
        (0..count)
            .map(|index| {
                let mut out: Option<GroupFact> = None;
                for side in sides {
                    let Some(fact) = side.get(index).copied().flatten() else {
                        continue;
                    };
                    out = Some(match out {
                        None => fact,
                        Some(mine) => {
                            if mine.queue != fact.queue
                                && mine.groups.is_some()
                                && fact.groups.is_some()
                            {
                                self.error(
                                    location,
                                    format!(
                                        "!apipe.token values of queues {} and {} meet in result {index}: \
                                         a token names a group of one queue",
                                        mine.queue, fact.queue
                                    ),
                                );
                            }
                            mine.join(fact)
                        }
                    });
                }
                out
            })
            .collect()
    }

    fn op<'a>(&mut self, op: OperationRef<'c, 'a>, state: &mut State) {
        let key = op_key(&op);
        if self.points.contains(&key) {
            // Every visit is recorded joined (see "Recording" in the doc).
            let joined = match self.result.snapshots.get(&key) {
                Some(previous) => join_visits(previous, state),
                None => state.clone(),
            };
            self.result.snapshots.insert(key, joined);
        }
        let name = ops::name(&op);

        match name {
            ops::COMMIT_GROUP => {
                let queue = attributes::queue(&op);
                for fact in state.values_mut() {
                    if fact.queue == queue {
                        if let Some(groups) = fact.groups.as_mut() {
                            *groups = groups.plus(Distance {
                                min: 1,
                                max: Some(1),
                            });
                        }
                    }
                }
                // Check the count first: melior prints the whole module into
                // the error of an out-of-range `result(0)`, which races with
                // passes on sibling functions.
                if op.result_count() == 1 {
                    let result = op.result(0).expect("checked");
                    state.insert(
                        Entity::Value(value_key(result.into())),
                        GroupFact::fresh(queue),
                    );
                }
                if self.track_commits {
                    state.insert(Entity::Commit(key), GroupFact::fresh(queue));
                }
            }
            ops::READY => {
                let result = op.result(0).expect("verified apipe.ready");
                state.insert(
                    Entity::Value(value_key(result.into())),
                    GroupFact::no_group(attributes::queue(&op)),
                );
            }
            ops::WAIT => {
                for operand in op.operands() {
                    if let Some(fact) = Self::fact(state, operand) {
                        self.result
                            .operand_facts
                            .entry((key, value_key(operand)))
                            .and_modify(|previous| *previous = previous.join(fact))
                            .or_insert(fact);
                    }
                    let k = value_key(operand);
                    if let Some(&n) = self.split_width.get(&k) {
                        let facts: Vec<Option<GroupFact>> = (0..n)
                            .map(|i| state.get(&Entity::Nth(k, i)).copied())
                            .chain([state.get(&Entity::Later(k)).copied()])
                            .collect();
                        let recorded = self
                            .result
                            .split_facts
                            .entry((key, k))
                            .or_insert_with(|| vec![None; n + 1]);
                        for (old, new) in recorded.iter_mut().zip(facts) {
                            *old = join_options(*old, new);
                        }
                    }
                }
            }
            // Analyzed on its own (a kernel body, a nested function).
            _ if is_function(&op) => {}
            "scf.for" => self.for_loop(op, state),
            "scf.while" => self.while_loop(op, state),
            "scf.if" | "scf.index_switch" => self.branches(op, state),
            "scf.execute_region"
                if op.region(0).is_ok_and(|r| {
                    r.first_block()
                        .is_some_and(|b| b.next_in_region().is_none())
                }) =>
            {
                self.branches(op, state)
            }
            _ => {
                if let Some(callee) = callee(&op) {
                    if self.committing_functions.contains(&callee) {
                        self.error(
                            op.location(),
                            format!(
                                "'{name}' op calls @{callee}, which commits or waits (itself or \
                                 through the functions it calls): apipe counts groups only within a \
                                 function"
                            ),
                        );
                    } else if !self.sees_callees {
                        self.error(op.location(), unseen_callee(name, &callee));
                    }
                } else if unknown_call(&op) && self.refuses_unknown_calls {
                    self.error(op.location(), indirect_call(name));
                }
                if op.region_count() > 0 {
                    if !self.commit_queues_of(&op).is_empty() {
                        self.error(
                            op.location(),
                            format!(
                                "'{name}' op commits groups inside its regions: apipe follows groups \
                                 only through scf.for, scf.if, scf.index_switch, scf.while and \
                                 scf.execute_region"
                            ),
                        );
                    }
                    for block in ops::blocks_of(&op) {
                        let _ = self.block(block, &mut state.clone());
                    }
                }
            }
        }
    }

    /// Step 2 (and 5): alternatives from the same state.
    fn branches<'a>(&mut self, op: OperationRef<'c, 'a>, state: &mut State) {
        let mut states = Vec::new();
        let mut yields = Vec::new();
        for region in op.regions() {
            let Some(block) = region.first_block() else {
                // `scf.if` without `else`: the state itself (no results).
                states.push(state.clone());
                continue;
            };
            let mut branch = state.clone();
            yields.push(self.block(block, &mut branch));
            states.push(branch);
        }
        let mut joined = match states.split_first() {
            Some((first, rest)) => rest
                .iter()
                .fold(first.clone(), |acc, s| join_states(&acc, s)),
            None => state.clone(),
        };
        let results: Vec<Value> = op.results().map(Into::into).collect();
        let facts = self.join_facts(op.location(), &yields, results.len());
        self.bind(&mut joined, &results, &facts);
        *state = joined;
    }

    /// Step 3.
    /// `scf.for`: from a state the loop was entered with before, the state
    /// it left then. The walk depends on nothing else, and what it records
    /// (snapshots, wait facts) is joined, so a second walk from the same
    /// state adds nothing: without this, each loop of a nest of depth `d`
    /// with small static trip counts was walked `2^d` times or more.
    fn for_loop<'a>(&mut self, op: OperationRef<'c, 'a>, state: &mut State) {
        let key = op_key(&op);
        if let Some((_, exit)) = self
            .loop_exits
            .get(&key)
            .and_then(|seen| seen.iter().find(|(entry, _)| entry == state))
        {
            *state = exit.clone();
            return;
        }
        let entered = state.clone();
        self.for_loop_walk(op, state);
        self.loop_exits
            .entry(key)
            .or_default()
            .push((entered, state.clone()));
    }

    fn for_loop_walk<'a>(&mut self, op: OperationRef<'c, 'a>, state: &mut State) {
        let key = op_key(&op);
        let body = op
            .region_at(0)
            .and_then(|r| r.first_block())
            .expect("verified scf.for");
        let inits: Vec<Value> = op.operands().skip(3).collect();
        let arguments: Vec<Value> = (1..body.argument_count())
            .map(|i| body.argument(i).unwrap().into())
            .collect();
        let results: Vec<Value> = op.results().map(Into::into).collect();
        let init_facts: Vec<Option<GroupFact>> = inits
            .iter()
            .map(|v| {
                if ops::is_token(*v) {
                    Self::fact(state, *v)
                } else {
                    None
                }
            })
            .collect();
        let mut entry = state.clone();
        self.bind(&mut entry, &arguments, &init_facts);
        let width = arguments
            .iter()
            .filter(|a| ops::is_token(**a))
            .count()
            .min(SPLIT_LIMIT);
        for argument in &arguments {
            if ops::is_token(*argument) {
                self.split_width.insert(value_key(*argument), width);
            }
        }
        for (argument, fact) in arguments.iter().zip(&init_facts) {
            if let Some(fact) = fact.filter(|_| width > 0) {
                entry.insert(Entity::Nth(value_key(*argument), 0), fact);
            }
        }
        let trip_count = static_trip_count(&op);
        if trip_count == Some(0) {
            // Never runs: analyze the body for its waits, keep the state.
            let _ = self.block(body, &mut entry.clone());
            self.bind(state, &results, &init_facts);
            return;
        }
        let unroll_cost = trip_count.map_or(u64::MAX, |n| {
            n.saturating_mul(ops::nested_ops(&op).len() as u64 + 1)
        });
        if let Some(trip_count) =
            trip_count.filter(|&n| n <= UNROLL_LIMIT && unroll_cost <= self.unroll_budget)
        {
            self.unroll_budget -= unroll_cost;
            // A small static trip count: iteration by iteration, exact.
            let mut current = entry;
            let mut yields = Vec::new();
            for _ in 0..trip_count {
                yields = self.block(body, &mut current);
                self.bind_split(&mut current, &arguments, &yields, width);
                self.bind(&mut current, &arguments, &yields);
            }
            self.join_facts(op.location(), &[init_facts, yields.clone()], yields.len());
            for argument in &arguments {
                current.remove(&Entity::Value(value_key(*argument)));
                remove_split(&mut current, value_key(*argument));
            }
            self.bind(&mut current, &results, &yields);
            *state = current;
            return;
        }
        let queues = self.commit_queues_of(&op);
        let mut header = entry.clone();
        let mut round: usize = 0;
        let (yields, per_iteration) = loop {
            let mut current = header.clone();
            for &queue in &queues {
                current.insert(Entity::Ghost(key, queue), GroupFact::fresh(queue));
            }
            let yields = self.block(body, &mut current);
            let mut per_iteration = BTreeMap::new();
            for &queue in &queues {
                if let Some(fact) = current.remove(&Entity::Ghost(key, queue)) {
                    per_iteration.insert(queue, fact.groups);
                }
            }
            // Reports an iter_arg whose init and yield name different queues.
            self.join_facts(
                op.location(),
                &[init_facts.clone(), yields.clone()],
                yields.len(),
            );
            self.bind_split(&mut current, &arguments, &yields, width);
            self.bind(&mut current, &arguments, &yields);
            let mut next = join_states(&entry, &current);
            // A window of k rotating iter_args needs k rounds before its
            // deepest slot settles: the thresholds start after them.
            widen(&header, &mut next, widen_round(round, arguments.len()));
            if widen_round(round, arguments.len()) >= GIVE_UP_AFTER {
                forget_window(&mut next, &arguments, &queues);
            }
            if next == header {
                break (yields, per_iteration);
            }
            header = next;
            round += 1;
        };
        let mut exit = match trip_count {
            Some(n) => {
                // The back edge after the last iteration: no zero-trip path.
                let mut exit = header.clone();
                for (entity, fact) in exit.iter_mut() {
                    let Some(before) = state.get(entity) else {
                        continue;
                    };
                    let per = per_iteration.get(&before.queue).copied();
                    *fact = match (before.groups, per) {
                        (Some(groups), Some(Some(per))) => GroupFact {
                            groups: Some(groups.plus(per.times(n))),
                            ..*before
                        },
                        (_, None) => *before,
                        _ => *fact,
                    };
                }
                // Commit ops inside the body have run at least once.
                for (entity, fact) in exit.iter_mut() {
                    if let Entity::Commit(_) = entity {
                        if !state.contains_key(entity) && fact.groups.is_some() {
                            fact.may_name_no_group = false;
                        }
                    }
                }
                self.bind(&mut exit, &results, &yields);
                exit
            }
            None => {
                let facts: Vec<Option<GroupFact>> = arguments
                    .iter()
                    .map(|v| {
                        if ops::is_token(*v) {
                            Self::fact(&header, *v)
                        } else {
                            None
                        }
                    })
                    .collect();
                let mut exit = header.clone();
                self.bind(&mut exit, &results, &facts);
                exit
            }
        };
        for argument in &arguments {
            exit.remove(&Entity::Value(value_key(*argument)));
            remove_split(&mut exit, value_key(*argument));
        }
        *state = exit;
    }

    /// The back edge of the split facts of a loop's token iter_args (step
    /// 3), on the state at the end of an iteration (`yields`: the facts of
    /// its `scf.yield` operands, [`Self::yield_splits`] their split facts,
    /// `width`: the loop's split width): iteration `i + 1` of an iter_arg
    /// holds what its yield held in iteration `i`: the split fact of an
    /// iter_arg of the loop yielded as is (a rotating window), else the
    /// yielded value's fact.
    fn bind_split<'a>(
        &self,
        state: &mut State,
        arguments: &[Value<'c, 'a>],
        yields: &[Option<GroupFact>],
        width: usize,
    ) {
        if width == 0 {
            return;
        }
        let mut next: Vec<(usize, Vec<Option<GroupFact>>)> = Vec::new();
        for (index, argument) in arguments.iter().enumerate() {
            if !ops::is_token(*argument) {
                continue;
            }
            // An iter_arg of this loop yielded as is: its split facts.
            let split = self
                .yield_splits
                .get(index)
                .filter(|(k, _)| arguments.iter().any(|a| value_key(*a) == *k))
                .map(|(_, f)| f);
            let mut facts = vec![None];
            if let Some(split) = split {
                facts.extend(split[..width - 1].iter().copied());
                let rest = split[width - 1..]
                    .iter()
                    .fold(None, |acc, f| join_options(acc, *f));
                facts.push(rest);
            } else {
                let fact = yields.get(index).copied().flatten();
                facts.extend(std::iter::repeat_n(fact, width));
            }
            next.push((value_key(*argument), facts));
        }
        for (k, facts) in next {
            remove_split(state, k);
            for (i, fact) in facts.into_iter().enumerate() {
                let Some(fact) = fact else {
                    continue;
                };
                let entity = if i < width {
                    Entity::Nth(k, i)
                } else {
                    Entity::Later(k)
                };
                state.insert(entity, fact);
            }
        }
    }

    /// Step 4.
    fn while_loop<'a>(&mut self, op: OperationRef<'c, 'a>, state: &mut State) {
        let before = op.region_at(0).and_then(|r| r.first_block());
        let after = op.region_at(1).and_then(|r| r.first_block());
        let (Some(before), Some(after)) = (before, after) else {
            return;
        };
        let inits: Vec<Value> = op.operands().collect();
        let before_arguments: Vec<Value> = (0..before.argument_count())
            .map(|i| before.argument(i).unwrap().into())
            .collect();
        let after_arguments: Vec<Value> = (0..after.argument_count())
            .map(|i| after.argument(i).unwrap().into())
            .collect();
        let results: Vec<Value> = op.results().map(Into::into).collect();
        let init_facts: Vec<Option<GroupFact>> = inits
            .iter()
            .map(|v| {
                if ops::is_token(*v) {
                    Self::fact(state, *v)
                } else {
                    None
                }
            })
            .collect();
        let mut entry = state.clone();
        self.bind(&mut entry, &before_arguments, &init_facts);
        let mut header = entry.clone();
        let mut round: usize = 0;
        let (at_condition, forwarded) = loop {
            let mut current = header.clone();
            let forwarded: Vec<Option<GroupFact>> = self
                .block(before, &mut current)
                .into_iter()
                .skip(1)
                .collect();
            let mut body = current.clone();
            self.bind(&mut body, &after_arguments, &forwarded);
            let yields = self.block(after, &mut body);
            self.while_yields.insert(op_key(&op), yields.clone());
            for argument in &after_arguments {
                body.remove(&Entity::Value(value_key(*argument)));
            }
            self.bind(&mut body, &before_arguments, &yields);
            let mut next = join_states(&entry, &body);
            widen(
                &header,
                &mut next,
                widen_round(round, before_arguments.len()),
            );
            if widen_round(round, before_arguments.len()) >= GIVE_UP_AFTER {
                let queues = self.commit_queues_of(&op);
                forget_window(&mut next, &before_arguments, &queues);
            }
            if next == header {
                break (current, forwarded);
            }
            header = next;
            round += 1;
        };
        let yields = self.while_yields.remove(&op_key(&op)).unwrap_or_default();
        self.join_facts(op.location(), &[init_facts, yields.clone()], yields.len());
        let mut exit = at_condition;
        for argument in &before_arguments {
            exit.remove(&Entity::Value(value_key(*argument)));
        }
        self.bind(&mut exit, &results, &forwarded);
        *state = exit;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::Module;

    #[test]
    fn distance_arithmetic_and_display() {
        let a = Distance {
            min: 1,
            max: Some(2),
        };
        let unbounded = Distance { min: 3, max: None };
        assert_eq!(
            a.join(Distance::ZERO),
            Distance {
                min: 0,
                max: Some(2)
            }
        );
        assert_eq!(a.join(unbounded), Distance { min: 1, max: None });
        assert_eq!(
            a.plus(a),
            Distance {
                min: 2,
                max: Some(4)
            }
        );
        assert_eq!(
            a.times(3),
            Distance {
                min: 3,
                max: Some(6)
            }
        );
        assert!(!a.is_exact() && Distance::ZERO.is_exact());
        assert_eq!(
            [
                a.to_string(),
                unbounded.to_string(),
                Distance::ZERO.to_string()
            ],
            ["1 to 2", "3 or more", "0"]
        );
    }

    /// Commit ops followed to a point, in
    /// counting form.
    #[test]
    fn commit_facts_at_a_point_in_counting_form() {
        let context = apipe_dialect::create_context().unwrap();
        let module = Module::parse(
            &context,
            r#"
            func.func @f(%c: i1, %n: index) {
              %c0 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c3 = arith.constant 3 : index
              "apipe.commit_group"() : () -> ()
              scf.if %c {
                "apipe.commit_group"() : () -> ()
              }
              scf.for %i = %c0 to %c3 step %c1 {
                "apipe.commit_group"() {queue = 1 : i64} : () -> ()
              }
              "apipe.wait_group"() {pending = 0 : i64} : () -> ()
              return
            }
            "#,
        )
        .unwrap();
        let function = module.body().first_operation().unwrap();
        let all = ops::nested_ops(&function);
        let commits: Vec<_> = all
            .iter()
            .filter(|op| ops::is(*op, ops::COMMIT_GROUP))
            .copied()
            .collect();
        let point = *all.iter().find(|op| ops::is(*op, ops::WAIT_GROUP)).unwrap();
        let analysis = GroupDistance::compute_with(
            &function,
            &Options {
                track_commits: true,
                points: vec![point],
                ..Options::default()
            },
        )
        .unwrap();
        // The first commit: 0 or 1 groups after it (the if may commit).
        assert_eq!(
            analysis.commit_fact_at(&point, &commits[0]),
            Some(GroupFact {
                queue: 0,
                groups: Some(Distance {
                    min: 0,
                    max: Some(1)
                }),
                may_name_no_group: false,
            })
        );
        // The commit in the branch may not have run.
        assert_eq!(
            analysis.commit_fact_at(&point, &commits[1]),
            Some(GroupFact {
                queue: 0,
                groups: Some(Distance::ZERO),
                may_name_no_group: true,
            })
        );
        // The loop (3 iterations) has run: its last group is the newest.
        assert_eq!(
            analysis.commit_fact_at(&point, &commits[2]),
            Some(GroupFact::fresh(1))
        );
        // No state is kept at other ops.
        assert_eq!(analysis.commit_fact_at(&commits[2], &commits[0]), None);
    }

    /// A rotating window of two token iter_args from `apipe.ready`: the
    /// wait on the older one names no group in iterations 0 and 1, and the
    /// group two commits back from iteration 2 on; the join alone says
    /// only "maybe no group".
    #[test]
    fn token_facts_by_iteration() {
        let context = apipe_dialect::create_context().unwrap();
        let module = Module::parse(
            &context,
            r#"
            func.func @f() {
              %c0 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c9 = arith.constant 9 : index
              %r = "apipe.ready"() : () -> !apipe.token
              %w:2 = scf.for %i = %c0 to %c9 step %c1 iter_args(%a = %r, %b = %r) -> (!apipe.token, !apipe.token) {
                %t = "apipe.commit_group"() : () -> !apipe.token
                "apipe.wait"(%b) : (!apipe.token) -> ()
                scf.yield %t, %a : !apipe.token, !apipe.token
              }
              return
            }
            "#,
        )
        .unwrap();
        let function = module.body().first_operation().unwrap();
        let all = ops::nested_ops(&function);
        let wait = *all.iter().find(|op| ops::is(*op, ops::WAIT)).unwrap();
        let token = wait.operand(0).unwrap();
        let analysis = GroupDistance::compute(&function).unwrap();
        let none = GroupFact::no_group(0);
        let two_back = GroupFact {
            queue: 0,
            groups: Some(Distance {
                min: 2,
                max: Some(2),
            }),
            may_name_no_group: false,
        };
        assert_eq!(
            analysis.token_fact_by_iteration(&wait, token),
            Some(&[Some(none), Some(none), Some(two_back)][..])
        );
        assert!(analysis.token_fact(&wait, token).unwrap().may_name_no_group);
    }

    /// The token form: the fact of any token at a chosen point.
    #[test]
    fn token_fact_at_a_point() {
        let context = apipe_dialect::create_context().unwrap();
        let module = Module::parse(
            &context,
            r#"
            func.func @f() {
              %t = "apipe.commit_group"() : () -> !apipe.token
              "apipe.commit_group"() : () -> ()
              %c0 = arith.constant 0 : index
              "apipe.wait"(%t) : (!apipe.token) -> ()
              return
            }
            "#,
        )
        .unwrap();
        let function = module.body().first_operation().unwrap();
        let all = ops::nested_ops(&function);
        let token: Value = all[0].result(0).unwrap().into();
        let point = all[2];
        let analysis = GroupDistance::compute_with(
            &function,
            &Options {
                points: vec![point],
                ..Options::default()
            },
        )
        .unwrap();
        let expected = GroupFact {
            queue: 0,
            groups: Some(Distance {
                min: 1,
                max: Some(1),
            }),
            may_name_no_group: false,
        };
        assert_eq!(analysis.token_fact_at(&point, token), Some(expected));
        assert_eq!(analysis.token_fact(&all[3], token), Some(expected));
    }
}
