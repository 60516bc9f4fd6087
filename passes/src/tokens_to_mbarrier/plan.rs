//! The plan of `apipe-tokens-to-mbarrier` for one function, computed before
//! the IR changes: the ring size K of every queue, which token operands of
//! each wait need a run-time guard, and which commits need an acquire wait.
//! Everything here reads facts of the shared group-distance analysis
//! ([`GroupDistance`]); nothing recounts groups.
//!
//! Vocabulary: group j of queue q is the (j+1)-th group committed on q in
//! the function (its count); it gets slot `j mod K` and phase `j div K` of
//! that slot, whose parity is `(j div K) mod 2`.
//!
//! 1. K_q: the smallest power of two that is at least 2 and greater than
//!    the largest bounded distance (groups committed after the waited
//!    group, [`GroupFact`]) of any token of q at any wait (the token
//!    window), clamped to [`Options::max_slots`] (which need not be a
//!    power of two); or [`Options::slots`] (any K >= 1).
//! 2. Guards: a token needs a run-time guard `count_q - j <= K_q` (wait only
//!    when the group is among the K newest) when on some path it names no
//!    group (`apipe.ready`) or its distance may reach K_q. On such a path
//!    the group is complete already (step 3 waited for it before its slot
//!    was reused), so skipping the wait is exact.
//! 3. Acquires: before the commit of group j arms slot `j mod K`, group
//!    j - K (the slot's previous group, at distance K - 1 at the commit)
//!    must be complete in this thread, so that this thread's arrival counts
//!    on the next phase, never on the previous one (PTX ISA 9.7.13.15.4,
//!    "Phase of the mbarrier object"), and so that no wait on group j - K
//!    can find the slot two phases ahead. The commit waits for it (the
//!    acquire) unless, on every path, group j - K does not exist (the slot
//!    is fresh) or an unguarded wait on a token at exactly that distance
//!    already ran. A forward data flow decides it: per queue, the set of
//!    distances below K whose group, on every path, does not exist or was
//!    waited for (all of [0, K) at the start of the function, where the
//!    ring is new); a commit needs no acquire when K - 1 is in the set and
//!    shifts the set by one, an exact unguarded wait adds its distance,
//!    joins intersect, loops iterate to a fixed point (the sets only
//!    shrink).
//! 4. Preconditions, each a located error: the function is a `gpu.func`
//!    kernel or a host function (not a device function, not a
//!    `gpu.launch` body); it has no `wait_group` (counting form: run
//!    `apipe-counting-to-tokens` first); in a kernel, no commit runs under
//!    control flow that depends on the thread id
//!    ([`divergence`](super::divergence)).

use super::divergence::{divergent_parent, Divergence};
use crate::group_distance::{self, GroupDistance, GroupFact, Options as DistanceOptions};
use apipe_dialect::{attributes, ops};
use melior::ir::{
    operation::OperationLike, BlockLike, BlockRef, Location, OperationRef, RegionLike,
};
use rustc_hash::FxHashMap;
use std::collections::{BTreeMap, BTreeSet};

/// The options of the pass that shape the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Slots per queue; 0 (the default) derives K from the token window
    /// (step 1).
    pub slots: u64,
    /// The largest K step 1 may derive (any K >= 1).
    pub max_slots: u64,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            slots: 0,
            max_slots: 16,
        }
    }
}

/// What kind of function holds the groups (who arrives on the slots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    /// A `gpu.func` kernel: every thread of the block arrives.
    Kernel,
    /// A host function: one thread arrives.
    Host,
}

/// How one token operand of an `apipe.wait` is waited for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenWait {
    /// The operand's position in the wait.
    pub operand: usize,
    /// The queue of its group.
    pub queue: i64,
    /// True if the wait on its slot runs only when `count - j <= K` (step 2).
    pub guarded: bool,
}

/// The plan for one function.
#[derive(Debug)]
pub struct FunctionPlan<'c, 'a> {
    /// The function.
    pub function: OperationRef<'c, 'a>,
    /// Kernel or host.
    pub kind: FunctionKind,
    /// K per queue that has commits (ascending queue).
    pub slots: BTreeMap<i64, u64>,
    /// Per `apipe.wait` (by op), the token operands to wait on; operands
    /// that name no group on any path are left out.
    pub waits: FxHashMap<usize, Vec<TokenWait>>,
    /// The commits (by op) that wait for their slot's previous group first.
    pub acquires: BTreeSet<usize>,
}

/// The key of an op in the maps of [`FunctionPlan`].
pub fn op_key<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> usize {
    op.to_raw().ptr as usize
}

impl FunctionPlan<'_, '_> {
    /// The token waits of `wait` (an `apipe.wait` of the function).
    pub fn token_waits<'c: 'a, 'a>(&self, wait: &impl OperationLike<'c, 'a>) -> &[TokenWait] {
        self.waits
            .get(&op_key(wait))
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// True if `commit` waits for its slot's previous group first.
    pub fn acquires<'c: 'a, 'a>(&self, commit: &impl OperationLike<'c, 'a>) -> bool {
        self.acquires.contains(&op_key(commit))
    }
}

/// A located error that refuses a function, with an optional note.
#[derive(Debug)]
pub struct Refusal<'c> {
    /// Where.
    pub location: Location<'c>,
    /// What.
    pub message: String,
    /// A note at another op.
    pub note: Option<(Location<'c>, String)>,
}

impl<'c> Refusal<'c> {
    fn at(location: Location<'c>, message: String) -> Self {
        Self {
            location,
            message,
            note: None,
        }
    }

    /// Emits it.
    pub fn emit(&self) {
        let notes: Vec<(Location, &str)> =
            self.note.iter().map(|(l, m)| (*l, m.as_str())).collect();
        apipe_dialect::diagnostic::emit(
            self.location,
            apipe_dialect::diagnostic::Severity::Error,
            &self.message,
            &notes,
        );
    }
}

/// The function's kind, or the located error that refuses it.
fn kind_of<'c>(function: &OperationRef<'c, '_>) -> Result<FunctionKind, (Location<'c>, String)> {
    let name = ops::name(function);
    let in_gpu_module = ops::ancestors(function).any(|p| ops::is(&p, "gpu.module"));
    match name {
        "gpu.func" if function.has_attribute("gpu.kernel") => Ok(FunctionKind::Kernel),
        "gpu.launch" => Err((
            function.location(),
            "'gpu.launch' body commits groups: apipe-tokens-to-mbarrier places the ring of \
             mbarrier slots in a kernel's workgroup attributions; outline the launch into a \
             gpu.func kernel first (gpu-kernel-outlining)"
                .into(),
        )),
        _ if name == "gpu.func" || in_gpu_module => Err((
            function.location(),
            format!(
                "'{name}' op is a device function that commits groups: the mbarrier form needs \
                 the groups of a whole kernel (every thread of the block arrives on each slot); \
                 inline it into its kernel first"
            ),
        )),
        _ => Ok(FunctionKind::Host),
    }
}

/// Computes the plan of `function` (steps 1-4); `None` if it commits
/// nothing. Located errors are returned, not emitted.
/// `waited_after_return`: a `wait_group` may run after the function
/// returns ([`super::waited_after_return`]); a host function that may
/// return with a group in flight is then refused, since that wait would
/// complete the group in counting form and no wait can in the mbarrier
/// form (its ring is the function's own).
///
/// # Errors
/// The located errors of step 4, or of the group-distance analysis
/// (already emitted, as `Err(vec![])`).
pub fn plan_function<'c, 'a>(
    function: OperationRef<'c, 'a>,
    distance_options: &DistanceOptions<'c, 'a>,
    options: Options,
    waited_after_return: bool,
) -> Result<Option<FunctionPlan<'c, 'a>>, Vec<Refusal<'c>>> {
    let own = |op: &OperationRef<'c, 'a>| group_distance::enclosing_function(*op) == Some(function);
    let nested: Vec<OperationRef> = ops::nested_ops(&function).into_iter().filter(own).collect();
    let commits: Vec<OperationRef> = nested
        .iter()
        .copied()
        .filter(|op| ops::is(op, ops::COMMIT_GROUP))
        .collect();
    let waits: Vec<OperationRef> = nested
        .iter()
        .copied()
        .filter(|op| ops::is(op, ops::WAIT))
        .collect();
    if commits.is_empty() && waits.is_empty() {
        return Ok(None);
    }
    // 4. Preconditions.
    let mut errors = Vec::new();
    let kind = match kind_of(&function) {
        Ok(kind) => kind,
        Err((location, message)) => return Err(vec![Refusal::at(location, message)]),
    };
    for op in nested.iter().filter(|op| ops::is(*op, ops::WAIT_GROUP)) {
        errors.push(Refusal::at(
            op.location(),
            "'apipe.wait_group' op is in counting form; apipe-tokens-to-mbarrier converts token \
             form (run apipe-counting-to-tokens first; a wait_group it keeps waits for groups \
             committed before the function's entry, which no slot of this function names)"
                .to_owned(),
        ));
    }
    if kind == FunctionKind::Kernel {
        let divergence = Divergence::compute(&function);
        for commit in &commits {
            if let Some(parent) = divergent_parent(&divergence, commit, &function) {
                errors.push(Refusal {
                    location: commit.location(),
                    message: "'apipe.commit_group' op runs under control flow that depends on \
                              the thread id: every thread of the block must arrive on each \
                              group's mbarrier slot (the arrival count is the block size)"
                        .into(),
                    note: Some((
                        parent.location(),
                        format!(
                            "the '{}' whose control flow depends on the thread id",
                            ops::name(&parent)
                        ),
                    )),
                });
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let Ok(analysis) = GroupDistance::compute_with(&function, distance_options) else {
        return Err(Vec::new());
    };
    // 1. K per queue.
    let mut window: BTreeMap<i64, u64> =
        commits.iter().map(|c| (attributes::queue(c), 0)).collect();
    let mut facts: FxHashMap<usize, Vec<(usize, GroupFact)>> = FxHashMap::default();
    for wait in &waits {
        let mut list = Vec::new();
        for (index, token) in wait.operands().enumerate() {
            let Some(fact) = analysis.token_fact(wait, token) else {
                errors.push(Refusal::at(
                    wait.location(),
                    format!(
                        "'apipe.wait' op cannot follow token operand {index} to the commit of its group"
                    ),
                ));
                continue;
            };
            if let Some(max) = fact.groups.and_then(|d| d.max) {
                let entry = window.entry(fact.queue).or_default();
                *entry = (*entry).max(max);
            }
            list.push((index, fact));
        }
        facts.insert(op_key(wait), list);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let slots: BTreeMap<i64, u64> = window
        .iter()
        .map(|(&queue, &max)| {
            let k = if options.slots > 0 {
                options.slots
            } else {
                max.saturating_add(1)
                    .max(2)
                    .checked_next_power_of_two()
                    .unwrap_or(u64::MAX)
                    .min(options.max_slots.max(1))
            };
            (queue, k)
        })
        .collect();
    // 2. Guards.
    let mut plan_waits = FxHashMap::default();
    for wait in &waits {
        let mut list = Vec::new();
        for (operand, fact) in &facts[&op_key(wait)] {
            let Some(groups) = fact.groups else {
                continue; // names no group on any path
            };
            let k = slots.get(&fact.queue).copied().unwrap_or(1);
            let guarded = fact.may_name_no_group || groups.max.is_none_or(|max| max >= k);
            list.push(TokenWait {
                operand: *operand,
                queue: fact.queue,
                guarded,
            });
        }
        plan_waits.insert(op_key(wait), list);
    }
    // 3. Acquires.
    let acquires = {
        let mut flow = AcquireFlow {
            slots: &slots,
            facts: &facts,
            acquires: BTreeSet::new(),
            function,
        };
        let mut state = Waited {
            waited: slots
                .iter()
                .map(|(&queue, &k)| (queue, (0..k).collect()))
                .collect(),
        };
        if let Some(entry) = ops::blocks_of(&function).first().copied() {
            flow.block(entry, &mut state);
            // A host function's ring is its own stack memory: a group
            // still in flight at the return could be completed by no wait
            // after it. In counting form a caller's (or a later callee's)
            // `wait_group` completes it (trial 56: the pass converted such
            // a function, and the caller read the copy's data unwaited).
            // A kernel ends its threads: nothing after it waits.
            if kind == FunctionKind::Host && waited_after_return {
                errors.extend(in_flight_at_return(
                    &function, entry, &slots, &state, &commits,
                ));
            }
        }
        flow.acquires
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Some(FunctionPlan {
        function,
        kind,
        slots,
        waits: plan_waits,
        acquires,
    }))
}

/// The refusal of a host function that may return with a group of some
/// queue in flight (`state` after its entry block: a distance below K_q
/// that is not waited on some path; distances K_q and more were acquired).
fn in_flight_at_return<'c, 'a>(
    function: &OperationRef<'c, 'a>,
    entry: BlockRef<'c, 'a>,
    slots: &BTreeMap<i64, u64>,
    state: &Waited,
    commits: &[OperationRef<'c, 'a>],
) -> Option<Refusal<'c>> {
    let (&queue, _) = slots.iter().find(|(queue, &k)| {
        state
            .waited
            .get(queue)
            .is_none_or(|set| (0..k).any(|d| !set.contains(&d)))
    })?;
    let at = entry
        .terminator()
        .map_or_else(|| function.location(), |t| t.location());
    Some(Refusal {
        location: at,
        message: format!(
            "'{}' op may return with a group of queue {queue} in flight: in the mbarrier form \
             each group is a slot of this function's own ring, which no wait after the return \
             can name (wait for its token before the return, or keep the function in counting \
             form, where the caller's wait_group completes it)",
            entry
                .terminator()
                .map_or("func.return".to_owned(), |t| ops::name(&t).to_owned())
        ),
        note: commits
            .iter()
            .find(|c| attributes::queue(*c) == queue)
            .map(|c| (c.location(), "a commit of that queue".to_owned())),
    })
}

/// Step 3's state: per queue, the distances below K whose group, on every
/// path, either does not exist (fewer groups were committed: the slot is
/// fresh) or was waited for by this thread. At the start of the function
/// no group exists, so every distance is in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Waited {
    waited: BTreeMap<i64, BTreeSet<u64>>,
}

impl Waited {
    fn join(&self, other: &Waited) -> Waited {
        let mut waited = BTreeMap::new();
        for (queue, set) in &self.waited {
            let theirs = other.waited.get(queue).cloned().unwrap_or_default();
            waited.insert(*queue, set.intersection(&theirs).copied().collect());
        }
        Waited { waited }
    }
}

struct AcquireFlow<'p, 'c, 'a> {
    slots: &'p BTreeMap<i64, u64>,
    facts: &'p FxHashMap<usize, Vec<(usize, GroupFact)>>,
    acquires: BTreeSet<usize>,
    function: OperationRef<'c, 'a>,
}

/// Rounds after which a loop's state is taken as is (it only shrinks, so
/// the fixed point comes within K + 1 rounds per queue; this bounds it).
const MAX_ROUNDS: usize = 64;

impl<'c, 'a> AcquireFlow<'_, 'c, 'a> {
    fn block(&mut self, block: BlockRef<'c, 'a>, state: &mut Waited) {
        let mut next = block.first_operation();
        while let Some(op) = next {
            self.op(op, state);
            next = op.next_in_block();
        }
    }

    fn op(&mut self, op: OperationRef<'c, 'a>, state: &mut Waited) {
        let name = ops::name(&op);
        match name {
            ops::COMMIT_GROUP => {
                let queue = attributes::queue(&op);
                let k = self.slots.get(&queue).copied().unwrap_or(1);
                let set = state.waited.entry(queue).or_default();
                if !set.contains(&(k - 1)) {
                    self.acquires.insert(op_key(&op));
                }
                // The new group (distance 0) exists and is not waited for.
                *set = set.iter().map(|d| d + 1).filter(|d| *d < k).collect();
            }
            ops::WAIT => {
                for (_, fact) in self.facts.get(&op_key(&op)).into_iter().flatten() {
                    let k = self.slots.get(&fact.queue).copied().unwrap_or(1);
                    let exact = fact
                        .groups
                        .filter(|d| d.is_exact() && d.min < k && !fact.may_name_no_group);
                    if let Some(distance) = exact {
                        state
                            .waited
                            .entry(fact.queue)
                            .or_default()
                            .insert(distance.min);
                    }
                }
            }
            _ if op.region_count() == 0 || group_distance::is_function(&op) => {}
            "scf.for" | "scf.while" => self.repeat(op, state),
            "scf.if" | "scf.index_switch" | "scf.execute_region" => {
                let mut joined: Option<Waited> = None;
                let mut regions = 0;
                for region in op.regions() {
                    let Some(block) = region.first_block() else {
                        continue;
                    };
                    regions += 1;
                    let mut inner = state.clone();
                    self.block(block, &mut inner);
                    joined = Some(match joined {
                        None => inner,
                        Some(j) => j.join(&inner),
                    });
                }
                // An `scf.if` without `else` also falls through.
                let falls_through = ops::is(&op, "scf.if") && regions < 2;
                *state = match joined {
                    Some(j) if falls_through => j.join(state),
                    Some(j) => j,
                    None => state.clone(),
                };
            }
            _ => {
                // Another op with regions (it commits nothing: the
                // group-distance analysis refused it otherwise); waits
                // inside may or may not run, so they add nothing.
                let _ = self.function;
            }
        }
    }

    /// An `scf.for` or `scf.while`: its regions run zero or more times
    /// (`scf.while`'s before-region at least once); the header state is the
    /// join of the entry and the back edge, iterated to a fixed point.
    fn repeat(&mut self, op: OperationRef<'c, 'a>, state: &mut Waited) {
        let blocks: Vec<BlockRef> = ops::blocks_of(&op);
        let entry = state.clone();
        let mut header = entry.clone();
        let mut exit = entry.clone();
        for _ in 0..MAX_ROUNDS {
            let mut current = header.clone();
            let mut after_first = None;
            for (index, block) in blocks.iter().enumerate() {
                self.block(*block, &mut current);
                if index == 0 {
                    after_first = Some(current.clone());
                }
            }
            // `scf.while` exits after its before-region; `scf.for` at the
            // header (zero or more iterations).
            exit = if ops::is(&op, "scf.while") {
                after_first.unwrap_or_else(|| current.clone())
            } else {
                header.join(&current)
            };
            let next = entry.join(&current);
            if next == header {
                break;
            }
            header = next;
        }
        *state = exit;
    }
}
