//! The walk over one function: transfer functions of the apipe ops, the
//! accesses, and the structured control flow (module doc, steps 2-5).

use super::{
    classes::fresh_id,
    names,
    report::{Hazard, HazardKind, Role},
    state::{key, Count, Instance, Read, State, WaitSeen},
};
use crate::{
    access::{
        accesses, copy_regions,
        values::{block_argument, constant, defined_inside, defining_op, loop_inside, value_of},
        AccessCache, AccessKind, Constraint, Forms, Lin, Symbol, System,
    },
    group_distance::{self, GroupDistance},
};
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{attributes, ops};
use melior::ir::{
    operation::OperationLike, BlockLike, BlockRef, OperationRef, RegionLike, TypeLike, Value,
    ValueLike,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// Rounds of a loop's fixed point after which carried instances forget
/// their iteration (a summary over all earlier iterations), at the least:
/// a function whose copies stay in flight for more groups gets more
/// ([`Analysis::widen_after`]).
const WIDEN_AFTER: usize = 6;
/// Rounds after widening begins at which carried instances become
/// whole-buffer summaries.
const GIVE_UP_AFTER: usize = 10;
/// The most rounds before widening, whatever the depth (the pipeliner
/// allows 64 stages).
const MOST_BEFORE_WIDENING: usize = 68;

/// The most op visits of loop bodies (and region comparisons) in the fixed
/// points of one outermost loop nest, all its loops together. Past it
/// every loop entered (or still iterating) widens at once and gives up on
/// regions at once, which is sound (only precision drops): a nest of loops
/// with huge counts then costs a few passes per level instead of
/// `(rounds)^depth`. The budget is per nest, not per function, so that a
/// long function of many ordinary loops (the pipeliner's output on 250
/// tile streams) keeps its precision: the cost stays linear in the number
/// of nests.
const WORK_BUDGET: usize = 50_000;

/// The rounds of one loop's fixed point: before widening, and before
/// regions become whole buffers.
#[derive(Clone, Copy, Debug)]
struct Rounds {
    widen: usize,
    give_up: usize,
}

/// The analysis of one function.
pub(crate) struct Analysis<'c, 'a> {
    pub function: OperationRef<'c, 'a>,
    /// True in a `gpu.func` or `gpu.launch` body: threads run it together.
    pub gpu: bool,
    /// Value forms, and each op's accesses computed once: a loop's fixed
    /// point visits the same ops in each round, and the IR does not change
    /// while it is analyzed.
    pub cache: AccessCache<'c, 'a>,
    /// In the mbarrier form: what each `apipe.mbarrier_wait` completes
    /// (every arrive is a commit of one queue; a wait completes its copies
    /// in every thread, so no barrier is needed after it).
    pub mbarrier: Option<super::mbarrier::Facts>,
    /// The copies that the functions walked before this one may return
    /// with in flight ([`Analysis::call`]).
    pub leftovers: std::rc::Rc<Leftovers<'c, 'a>>,
    /// The function (key) each call op (key) calls.
    pub calls: std::rc::Rc<FxHashMap<usize, usize>>,
    /// The waits each function (key) makes on every path
    /// ([`callee_waits`]).
    pub callee_waits: std::rc::Rc<FxHashMap<usize, CalleeWaits<'c, 'a>>>,
    tokens: GroupDistance,
    contexts: FxHashMap<usize, System>,
    /// The kernel's thread-id bounds ([`Analysis::thread_bounds`]), once
    /// computed.
    thread_bounds: Option<Vec<Constraint>>,
    variant: FxHashMap<usize, bool>,
    /// [`Analysis::invariant_in`]'s answers, per (value, loop).
    invariant: FxHashMap<(usize, usize), bool>,
    hazards: Vec<Hazard<'c, 'a>>,
    /// (access, other op) and (access, class) pairs reported: one error
    /// per pair and per class.
    seen: FxHashSet<(usize, usize)>,
    seen_kinds: FxHashSet<(usize, HazardKind)>,
    /// Rounds of a loop's fixed point before carried instances forget
    /// their iteration: a copy issued `k` iterations back is followed
    /// exactly only while `k` is below it, so it exceeds the most groups
    /// the function keeps in flight (the largest `wait_group` count, the
    /// largest mbarrier ring) by 2; [`WIDEN_AFTER`] at the least. A
    /// pipeline of 9 stages (8 groups in flight) was once widened too early
    /// and reported as racing.
    widen_after: usize,
    /// The function's first `gpu.thread_id` of each dimension
    /// ([`Analysis::thread_id_of_dimension`]), found once.
    thread_ids: Option<[Option<usize>; 3]>,
    /// Per dimension, whether the function reads an id of it or is
    /// launched in the module with a size other than 1 there
    /// ([`Analysis::dimension_may_differ`]), found once.
    reads_dimension: Option<[bool; 3]>,
    /// [`launched_block_sizes`] of the module.
    launches: std::rc::Rc<FxHashMap<String, [bool; 3]>>,
    /// [`Analysis::thread_id_dimension`] of each thread id seen.
    dimensions: std::cell::RefCell<FxHashMap<usize, Option<usize>>>,
    /// Per open region of a branch op whose condition may differ between
    /// threads (innermost last): the copies issued and the accesses made
    /// in it, at any depth ([`Analysis::divergent`]).
    divergent_events: Vec<Events<'c, 'a>>,
    /// Op visits of loop bodies so far in the current outermost loop nest
    /// ([`WORK_BUDGET`]).
    pub(super) work: usize,
    /// Loops open around the op being walked (0: outside every loop).
    loop_depth: usize,
    /// The roots the function may write (its ops' write accesses, copy
    /// destinations included), and whether an op may write all memory;
    /// found once ([`Analysis::may_be_written`]).
    written: Option<(Vec<crate::access::Root>, bool)>,
    /// [`Analysis::meets`]'s answers: a loop's fixed point compares the
    /// same accesses with the same instances in each round.
    pub(super) meetings: super::classes::Meetings,
    /// False while a loop's first round runs: its header (the entry state)
    /// is part of every later round's, so every comparison it would make
    /// is made again later, under a header that holds more
    /// ([`Analysis::for_loop`]). [`Analysis::meets`] finds nothing then.
    pub(super) checking: bool,
}

/// The copies issued and the accesses made in a region (at any depth).
#[derive(Default)]
struct Events<'c, 'a> {
    copies: Vec<Instance<'c, 'a>>,
    accesses: Vec<(
        OperationRef<'c, 'a>,
        crate::access::Region,
        AccessKind,
        Role,
    )>,
}

/// True if no op of a loop (`nested`: its nested ops) commits, waits,
/// arrives or is a `gpu.barrier`: what is in flight (or unread behind no
/// barrier) at its entry stays so in every iteration.
fn quiet(nested: &[OperationRef]) -> bool {
    !nested.iter().any(|o| {
        matches!(
            ops::name(o),
            ops::COMMIT_GROUP
                | ops::WAIT_GROUP
                | ops::WAIT
                | ops::MBARRIER_ARRIVE_COPIES
                | ops::MBARRIER_WAIT
                | "gpu.barrier"
        )
    })
}

/// [`Analysis::widen_after`] for `function`.
fn rounds_before_widening(function: &OperationRef) -> usize {
    let mut depth = 0;
    for op in ops::nested_ops(function) {
        if ops::is(&op, ops::WAIT_GROUP) {
            depth = depth.max(
                attributes::integer(&op, "pending")
                    .unwrap_or(0)
                    .max(0)
                    .saturating_add(1),
            );
        } else if ops::is(&op, ops::MBARRIER_INIT) {
            let slots = op.operand_at(0).and_then(ops::ring_slots).unwrap_or(0);
            depth = depth.max(slots);
        }
    }
    (depth.clamp(0, MOST_BEFORE_WIDENING as i64) as usize + 2)
        .clamp(WIDEN_AFTER, MOST_BEFORE_WIDENING)
}

/// The `apipe.wait_group`s a function makes on every path, as
/// `(queue, pending, wait)` with the smallest `pending` per queue: `first`,
/// those in its entry block before its first op that may access memory
/// (they complete groups before any of its accesses), and `all`, every one
/// in its entry block (they complete groups before it returns). Waits in
/// nested regions, or in the functions it calls, are left out (a group
/// taken as still in flight: never a missed hazard).
#[derive(Clone, Debug, Default)]
pub struct CalleeWaits<'c, 'a> {
    /// Before the first access.
    pub first: Vec<(i64, i64, OperationRef<'c, 'a>)>,
    /// Anywhere in the entry block.
    pub all: Vec<(i64, i64, OperationRef<'c, 'a>)>,
}

/// [`CalleeWaits`] of `function`; `None` if it makes none.
pub fn callee_waits<'c: 'a, 'a>(function: &OperationRef<'c, 'a>) -> Option<CalleeWaits<'c, 'a>> {
    let entry = *ops::blocks_of(function).first()?;
    let mut out = CalleeWaits::default();
    let mut accessed = false;
    let mut forms = Forms::new();
    let smallest = |list: &mut Vec<(i64, i64, OperationRef<'c, 'a>)>, q, p, op| match list
        .iter_mut()
        .find(|(queue, _, _)| *queue == q)
    {
        Some(entry) if entry.1 > p => *entry = (q, p, op),
        Some(_) => {}
        None => list.push((q, p, op)),
    };
    let mut next = entry.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if ops::is(&op, ops::WAIT_GROUP) {
            let pending = attributes::integer(&op, attributes::PENDING)
                .unwrap_or(0)
                .max(0);
            let queue = attributes::queue(&op);
            if !accessed {
                smallest(&mut out.first, queue, pending, op);
            }
            smallest(&mut out.all, queue, pending, op);
            continue;
        }
        if !accessed {
            let found = accesses(&mut forms, &op);
            accessed = op.region_count() > 0
                || ops::is_apipe(&op)
                || ops::is(&op, "func.call")
                || found.reads_all
                || found.writes_all
                || !found.accesses.is_empty();
        }
    }
    (!out.all.is_empty()).then_some(out)
}

/// Per function (by [`key`]): the function, and the copies it may return
/// with in flight (its final state's instances, in its own forms).
pub type Leftovers<'c, 'a> = FxHashMap<usize, (OperationRef<'c, 'a>, Vec<Instance<'c, 'a>>)>;

impl<'c, 'a> Analysis<'c, 'a> {
    /// Steps 1-2: the group-distance facts of the function's tokens (its
    /// errors are emitted as they are).
    /// `committing`: the module's functions that commit groups
    /// ([`group_distance::functions_containing`]); `launches`: the module's
    /// [`launched_block_sizes`].
    pub fn new(
        function: OperationRef<'c, 'a>,
        committing: &std::rc::Rc<FxHashSet<String>>,
        launches: std::rc::Rc<FxHashMap<String, [bool; 3]>>,
    ) -> Result<Self, apipe_dialect::Reported> {
        let tokens = GroupDistance::compute_with(
            &function,
            &group_distance::Options {
                committing_functions: Some(std::rc::Rc::clone(committing)),
                ..group_distance::Options::default()
            },
        )?;
        Ok(Analysis {
            function,
            gpu: runs_on_threads(&function),
            cache: AccessCache::new(),
            mbarrier: None,
            leftovers: Default::default(),
            calls: Default::default(),
            callee_waits: Default::default(),
            tokens,
            contexts: FxHashMap::default(),
            thread_bounds: None,
            variant: FxHashMap::default(),
            invariant: FxHashMap::default(),
            hazards: Vec::new(),
            seen: FxHashSet::default(),
            seen_kinds: FxHashSet::default(),
            widen_after: rounds_before_widening(&function),
            thread_ids: None,
            reads_dimension: None,
            launches,
            dimensions: Default::default(),
            divergent_events: Vec::new(),
            work: 0,
            loop_depth: 0,
            written: None,
            meetings: FxHashMap::default(),
            checking: true,
        })
    }

    /// Steps 3-5 over the function body; the hazards, in the order found.
    /// The hazards of the function, and the copies that may still be in
    /// flight (or uncommitted) where it returns: its callers take them in
    /// at their calls ([`Analysis::call`]).
    pub fn run(mut self) -> (Vec<Hazard<'c, 'a>>, Vec<Instance<'c, 'a>>) {
        let blocks = ops::blocks_of(&self.function);
        // A function of several blocks has no structured control flow to
        // follow; group_distance already refused it if it commits.
        let mut left = Vec::new();
        if let [entry] = blocks.as_slice() {
            let mut state = State::default();
            self.block(*entry, &mut state);
            // The body's one block ends in the return.
            left = state.instances;
        }
        (self.hazards, left)
    }

    /// A `func.call` (after its own accesses, [`Analysis::plain`]): the
    /// copies its callee may return with in flight are in flight here too.
    /// Each keeps its queue; a region of a callee argument becomes the
    /// whole buffer the call passes for it, a global stays the global, a
    /// buffer of the callee's own stays its own (nothing here aliases it
    /// but what may alias anything). Committed in the callee, it has at
    /// least one group since and at most any number (a `wait_group 0`
    /// completes it, a larger count does not); uncommitted, it joins this
    /// function's next group.
    fn call(&mut self, op: &OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
        let Some((function, left)) = self
            .calls
            .get(&key(op))
            .and_then(|f| self.leftovers.get(f))
            .cloned()
        else {
            return;
        };
        let arguments: Vec<usize> = ops::blocks_of(&function)
            .first()
            .map(|entry| {
                (0..entry.argument_count())
                    .filter_map(|i| ops::argument_at(entry, i))
                    .map(|a| key_of_value(a.into()))
                    .collect()
            })
            .unwrap_or_default();
        let when = self.context(op).constraints().to_vec();
        for instance in left {
            let mut map = |region: &crate::access::Region| -> crate::access::Region {
                let passed = match region.root.symbol {
                    Symbol::Value(k) => arguments
                        .iter()
                        .position(|a| *a == k)
                        .and_then(|i| op.operand_at(i)),
                    _ => None,
                };
                match passed {
                    Some(value) => crate::access::region::whole(&mut self.cache.forms, value),
                    // A choice among the callee's values is any buffer
                    // here.
                    None if !region.alternatives().is_empty() => crate::access::Region {
                        root: crate::access::Root {
                            kind: crate::access::RootKind::Other,
                            ..region.root.clone()
                        },
                        dims: None,
                    },
                    None => crate::access::Region {
                        root: region.root.clone(),
                        dims: None,
                    },
                }
            };
            let (src, dst) = (map(&instance.src), map(&instance.dst));
            let mut taken = Instance::issued(instance.copy, instance.queue, src, dst, when.clone());
            if !instance.groups.is_zero() {
                taken.groups = super::state::Count {
                    base: Lin::constant(1),
                    slack: None,
                };
            }
            taken.unsynced = instance.unsynced;
            state.add(taken);
        }
    }

    /// Keeps `hazard` unless one of the same pair of ops, or of the same
    /// class at the same op, is already kept. A definite hazard replaces a
    /// conservative one (a remark: the buffers may alias) it would repeat:
    /// a copy whose source may alias a copy in flight (a remark) may also
    /// write that copy's destination for certain (an error), which must
    /// not be hidden behind the remark.
    pub(super) fn record(&mut self, hazard: Hazard<'c, 'a>) {
        let pair = (key(&hazard.at), key(&hazard.other));
        let class = (key(&hazard.at), hazard.kind);
        if !self.seen.contains(&pair) && !self.seen_kinds.contains(&class) {
            self.seen.insert(pair);
            self.seen_kinds.insert(class);
            self.hazards.push(hazard);
            return;
        }
        if hazard.conservative {
            return;
        }
        let repeated = self.hazards.iter().position(|h| {
            h.conservative
                && key(&h.at) == pair.0
                && (key(&h.other) == pair.1 || h.kind == hazard.kind)
        });
        if let Some(k) = repeated {
            self.seen.insert(pair);
            self.seen_kinds.insert(class);
            self.hazards[k] = hazard;
        }
    }

    /// The constraints that hold at `op` (its enclosing control flow).
    pub(super) fn context(&mut self, op: &OperationRef<'c, 'a>) -> System {
        let block = op.block().map_or(0, |b| b.to_raw().ptr as usize);
        if let Some(system) = self.contexts.get(&block) {
            return system.clone();
        }
        let system = self.cache.forms.context(op, Some(&self.function));
        self.contexts.insert(block, system.clone());
        system
    }

    /// True if the value `k` is a thread id (distinct in every thread).
    pub(super) fn is_thread_id(&self, k: usize) -> bool {
        crate::access::values::is_thread_id(k)
    }

    /// The dimension (0 for x, 1 for y, 2 for z) of the thread id `k`
    /// (a `gpu.thread_id`, a `gpu.global_id`, a `gpu.launch` body's
    /// thread id argument).
    pub(super) fn thread_id_dimension(&self, k: usize) -> Option<usize> {
        if !self.is_thread_id(k) {
            return None;
        }
        // Cached: the dimension attribute is read by printing it.
        if let Some(&d) = self.dimensions.borrow().get(&k) {
            return d;
        }
        // SAFETY: keys of symbols come from live values of this function.
        let value = unsafe { value_of(k) };
        let d = match defining_op(value) {
            Some(op) => crate::access::values::gpu_dimension(&op),
            None => block_argument(value).map(|(_, n)| n - 3),
        };
        self.dimensions.borrow_mut().insert(k, d);
        d
    }

    /// A thread id of dimension `d` (0 for x, 1 for y, 2 for z) in scope
    /// at `op`: the thread id argument of the innermost `gpu.launch`
    /// around it, else the function's first `gpu.thread_id` of that
    /// dimension; `None` if the function has none.
    pub(super) fn thread_id_of_dimension(
        &mut self,
        op: &OperationRef<'c, 'a>,
        d: usize,
    ) -> Option<usize> {
        let mut current = op.parent_operation();
        while let Some(parent) = current {
            if ops::is(&parent, "gpu.launch") {
                let block = parent.region_at(0)?.first_block()?;
                return Some(crate::access::values::value_key(
                    ops::argument_at(&block, 3 + d)?.into(),
                ));
            }
            current = parent.parent_operation();
        }
        *self
            .thread_ids
            .get_or_insert_with(|| {
                let mut ids = [None; 3];
                for op in ops::nested_ops(&self.function) {
                    if ops::is(&op, "gpu.thread_id") {
                        if let (Some(d), Ok(result)) =
                            (crate::access::values::gpu_dimension(&op), op.result(0))
                        {
                            ids[d].get_or_insert(crate::access::values::value_key(result.into()));
                        }
                    }
                }
                ids
            })
            .get(d)?
    }

    /// True if the block has one thread: each dimension's size is 1, as
    /// the kernel states (`known_block_size`, a `gpu.launch` of constant
    /// sizes) or as every `gpu.launch_func` of the module launches it (a
    /// kernel the module does not launch is not taken to have one thread).
    pub(super) fn single_thread_block(&mut self, op: &OperationRef<'c, 'a>) -> bool {
        let launched =
            launch_name(&self.function).and_then(|name| self.launches.get(&name).copied());
        (0..3).all(|d| match crate::access::values::known_block_size(op, d) {
            Some(size) => size == 1,
            None => launched.is_some_and(|flags| !flags[d]),
        })
    }

    /// True if two threads of the block running `op` may have different
    /// ids in dimension `d` (0 for x, 1 for y, 2 for z): the size stated
    /// (`known_block_size`, a `gpu.launch` with constant sizes) exceeds 1;
    /// with none stated, a `gpu.launch` body, or a function that uses an
    /// id of that dimension (`gpu.thread_id`, `gpu.global_id` with a use),
    /// or a kernel
    /// that a `gpu.launch_func` of the module launches with a size there
    /// other than the constant 1. A kernel that never reads an id of a
    /// dimension, and is launched in the module only with size 1 there (or
    /// not at all), is assumed to run with size 1 there (README, "Status
    /// and known limits").
    pub(super) fn dimension_may_differ(&mut self, op: &OperationRef<'c, 'a>, d: usize) -> bool {
        if let Some(size) = crate::access::values::known_block_size(op, d) {
            return size > 1;
        }
        let mut current = op.parent_operation();
        while let Some(parent) = current {
            if ops::is(&parent, "gpu.launch") {
                return true;
            }
            current = parent.parent_operation();
        }
        let function = self.function;
        let launches = &self.launches;
        let reads = *self
            .reads_dimension
            .get_or_insert_with(|| dimensions_used(&function, launches));
        reads.get(d).copied().unwrap_or(true)
    }

    /// What the in-bounds rule ([`crate::access::region::in_bounds`]) says
    /// of the thread ids alone, for every thread of a kernel: the
    /// constraints of the accesses (`memref.load`, `memref.store`, an
    /// `apipe.copy`'s source and destination) of the ops directly in the
    /// kernel's body, which every thread runs, that mention thread ids and
    /// nothing else. A copy into `buf[tid]` of a `memref<16xf32, 3>` at the
    /// top of the kernel bounds `tid` by 16 for every comparison between
    /// threads in the kernel, not only for those with that copy (an access
    /// out of bounds is undefined behaviour, so no thread has a larger id).
    pub(super) fn thread_bounds(&mut self) -> Vec<Constraint> {
        if let Some(bounds) = &self.thread_bounds {
            return bounds.clone();
        }
        let mut bounds = Vec::new();
        let body = self.function.region_at(0).and_then(|r| r.first_block());
        let mut next = body.and_then(|b| b.first_operation());
        while let Some(op) = next {
            next = op.next_in_block();
            if !crate::access::region::bounded_access(&op) || !self.runs_in_every_thread(&op) {
                continue;
            }
            let found = self.cache.of(&op);
            for access in &found.accesses {
                for c in crate::access::region::thread_id_bounds(&op, &access.region) {
                    if !bounds.contains(&c) {
                        bounds.push(c);
                    }
                }
            }
        }
        self.thread_bounds = Some(bounds.clone());
        bounds
    }

    /// True if every thread of the block that reaches `op`'s function runs
    /// `op` on the same path: every branch and loop around it (up to the
    /// function) decides on values equal in every thread ([`is_variant`]),
    /// no other op with regions encloses it, and every region on the way
    /// has a single block (a `cf.cond_br` inside an `scf.execute_region`
    /// may branch on the thread id), in a kernel (not a device function).
    ///
    /// [`is_variant`]: Analysis::is_variant
    pub(super) fn runs_in_every_thread(&mut self, op: &OperationRef<'c, 'a>) -> bool {
        // Only a kernel's (or a `gpu.launch` body's) arguments are the same
        // in every thread; a device function's may not be (a helper called
        // with `tid < 16`).
        let kernel = (ops::is(&self.function, "gpu.func")
            && self.function.has_attribute("gpu.kernel"))
            || ops::is(&self.function, "gpu.launch");
        if !kernel {
            return false;
        }
        if !ops::in_single_block_region(op) {
            return false;
        }
        for parent in ops::ancestors(op) {
            if parent == self.function {
                return true;
            }
            if !ops::in_single_block_region(&parent) {
                return false;
            }
            let uniform = match ops::name(&parent) {
                "scf.if" | "scf.index_switch" => parent
                    .operand(0)
                    .is_ok_and(|c| !self.is_variant(Symbol::Value(key_of_value(c)))),
                "scf.for" | "scf.while" => !self.is_variant(Symbol::Trips(key(&parent))),
                "scf.execute_region" => true,
                _ => false,
            };
            if !uniform {
                return false;
            }
        }
        false
    }

    /// True if the symbol may differ between threads.
    pub(super) fn is_variant(&mut self, s: Symbol) -> bool {
        match s {
            Symbol::Value(k) | Symbol::Stale(k) => self.value_variant(k, 0),
            Symbol::Iteration(l) | Symbol::Trips(l) => {
                // SAFETY: loop keys come from live ops of this function.
                let l = unsafe { OperationRef::from_raw(mlir_sys::MlirOperation { ptr: l as _ }) };
                // An `scf.while` runs as long as its condition holds.
                if ops::is(&l, "scf.while") {
                    let condition = l
                        .region_at(0)
                        .and_then(|r| r.first_block())
                        .and_then(|b| b.terminator())
                        .and_then(|c| c.operand_at(0));
                    return condition.is_none_or(|c| self.value_variant(key_of_value(c), 0));
                }
                (0..l.operand_count().min(3))
                    .any(|i| self.value_variant(key_of_value(l.operand(i).unwrap()), 0))
            }
            _ => false,
        }
    }

    /// True if the memory that the load `op` reads may be written by the
    /// function: by an op that writes all memory, or by a write access to
    /// the same buffer or to a buffer of unknown origin. Two different
    /// arguments (or an argument and a global) are taken to be distinct
    /// here, as for the hazards the checker reports as errors.
    fn may_be_written(&mut self, op: &OperationRef<'c, 'a>) -> bool {
        use crate::access::{region::RootKind, same_buffer};
        if self.written.is_none() {
            let mut roots = Vec::new();
            let mut all = false;
            for o in ops::nested_ops(&self.function) {
                let found = self.cache.of(&o);
                all |= found.writes_all;
                roots.extend(
                    found
                        .accesses
                        .iter()
                        .filter(|a| a.kind == AccessKind::Write)
                        .map(|a| a.region.root.clone()),
                );
            }
            self.written = Some((roots, all));
        }
        let read = self.cache.of(op);
        let Some((roots, all)) = &self.written else {
            return true;
        };
        *all || read.reads_all
            || read.accesses.iter().any(|a| {
                roots.iter().any(|w| {
                    same_buffer(w, &a.region.root)
                        || matches!(w.kind, RootKind::Other | RootKind::Choice(_))
                        || matches!(a.region.root.kind, RootKind::Other | RootKind::Choice(_))
                })
            })
    }

    /// [`Analysis::value_variant`] of argument `n` (key `k`) of `block`, a
    /// region of the `scf.while` `w`. An `after` argument is the
    /// `scf.condition` operand it receives. A `before` argument is variant
    /// if its initial value or the value the `after` region yields for it
    /// is: the cycle through the loop is first taken as invariant, and the
    /// answers found under that assumption are dropped when the argument
    /// turns out variant (a least fixed point).
    fn while_argument_variant(
        &mut self,
        w: &OperationRef<'c, 'a>,
        block: BlockRef<'c, 'a>,
        n: usize,
        k: usize,
        depth: usize,
    ) -> bool {
        let region = |i: usize| w.region_at(i).and_then(|r| r.first_block());
        let terminator_operand = |b: Option<BlockRef<'c, 'a>>, i: usize| {
            b.and_then(|b| b.terminator())
                .and_then(|t| t.operand_at(i))
                .map(key_of_value)
        };
        if region(1) == Some(block) {
            return terminator_operand(region(0), n + 1)
                .is_none_or(|v| self.value_variant(v, depth + 1));
        }
        let known: FxHashSet<usize> = self.variant.keys().copied().collect();
        self.variant.insert(k, false);
        let variant = w
            .operand(n)
            .is_ok_and(|v| self.value_variant(key_of_value(v), depth + 1))
            || terminator_operand(region(1), n).is_none_or(|v| self.value_variant(v, depth + 1));
        if variant {
            self.variant.retain(|key, v| known.contains(key) || *v);
        }
        variant
    }

    fn value_variant(&mut self, k: usize, depth: usize) -> bool {
        if let Some(v) = self.variant.get(&k) {
            return *v;
        }
        if depth > 32 {
            return true;
        }
        // SAFETY: keys come from live values of this function.
        let value = unsafe { value_of(k) };
        let variant = if constant(value).is_some() {
            false
        } else if let Some(op) = defining_op(value) {
            let name = ops::name(&op);
            match name {
                "gpu.thread_id" | "gpu.lane_id" | "gpu.global_id" | "gpu.subgroup_id" => true,
                "gpu.block_id"
                | "gpu.block_dim"
                | "gpu.grid_dim"
                | "gpu.subgroup_size"
                | "gpu.num_subgroups"
                | "gpu.cluster_id"
                | "gpu.cluster_dim"
                | "gpu.cluster_block_id"
                | "gpu.cluster_dim_blocks" => false,
                // A load at the same position in every thread, of memory
                // that nothing in the function writes, reads the same value
                // in every thread (a trip count or a bound read from a
                // table).
                "memref.load" | "vector.load" | "affine.load" => {
                    let indices: Vec<usize> = op.operands().skip(1).map(key_of_value).collect();
                    indices
                        .into_iter()
                        .any(|o| self.value_variant(o, depth + 1))
                        || self.may_be_written(&op)
                }
                _ if name.starts_with("arith.")
                    || name.starts_with("index.")
                    || name == "affine.apply" =>
                {
                    let operands: Vec<usize> = op.operands().map(key_of_value).collect();
                    operands
                        .into_iter()
                        .any(|o| self.value_variant(o, depth + 1))
                }
                _ => true,
            }
        } else if let Some((block, n)) = block_argument(value) {
            match block.parent_operation() {
                Some(p) if ops::is_function(&p) && ops::is_entry_block(&block) => {
                    ops::is(&p, "gpu.launch") && (3..6).contains(&n)
                }
                Some(p) if ops::is(&p, "scf.for") && n == 0 => (0..3).any(|i| {
                    p.operand(i)
                        .is_ok_and(|v| self.value_variant(key_of_value(v), depth + 1))
                }),
                Some(p) if ops::is(&p, "scf.while") => {
                    self.while_argument_variant(&p, block, n, k, depth)
                }
                _ => true,
            }
        } else {
            true
        };
        self.variant.insert(k, variant);
        variant
    }

    fn block(&mut self, block: BlockRef<'c, 'a>, state: &mut State<'c, 'a>) {
        let mut next = block.first_operation();
        while let Some(op) = next {
            self.op(op, state);
            next = op.next_in_block();
        }
    }

    fn op(&mut self, op: OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
        let name = ops::name(&op);
        match name {
            // A bulk copy is tracked by its slot's phase, which the
            // thread's next arrive completes (one ring per function,
            // checked by `mbarrier`): the commit of one queue, as a copy.
            ops::COPY | ops::BULK_COPY => self.copy(op, state),
            ops::COMMIT_GROUP => {
                commit(&op, state);
                // A counting-form commit has no result.
                if let Some(token) = op.result_at(0) {
                    names::name_all(state, attributes::queue(&op), key_of_value(token.into()));
                }
            }
            ops::WAIT_GROUP => {
                let pending = attributes::integer(&op, attributes::PENDING)
                    .unwrap_or(0)
                    .max(0);
                self.complete(
                    &op,
                    state,
                    attributes::queue(&op),
                    Some(pending),
                    None,
                    None,
                );
            }
            ops::WAIT => self.wait_tokens(&op, state),
            ops::READY | ops::MBARRIER_INIT => {}
            ops::MBARRIER_ARRIVE_COPIES => {
                commit(&op, state);
                let (armed, numbers) = self
                    .mbarrier
                    .as_ref()
                    .map(|f| (f.armed_values(&op), f.armed_numbers(&op)))
                    .unwrap_or_default();
                for value in armed {
                    names::name_all(state, 0, value);
                }
                for n in numbers {
                    names::name_number(state, n);
                }
            }
            ops::MBARRIER_WAIT => {
                let (pending, closers, named) = self
                    .mbarrier
                    .as_ref()
                    .map(|f| (f.pending(&op), f.closers(&op).to_vec(), f.named_value(&op)))
                    .unwrap_or_default();
                self.complete(&op, state, 0, pending, closers.first().copied(), named);
                for closer in closers.iter().skip(1) {
                    self.complete(&op, state, 0, None, Some(*closer), None);
                }
            }
            "gpu.barrier" => {
                state
                    .instances
                    .retain(|i| !i.unsynced && !i.waited_elsewhere);
                state.reads.clear();
            }
            "scf.for" | "scf.while" => {
                // Each outermost loop nest gets its own work budget.
                if self.loop_depth == 0 {
                    self.work = 0;
                }
                self.loop_depth += 1;
                if name == "scf.for" {
                    self.for_loop(op, state);
                } else {
                    self.while_loop(op, state);
                }
                self.loop_depth -= 1;
                if self.loop_depth == 0 {
                    self.forget_loop_nest();
                }
            }
            "scf.if" | "scf.index_switch" | "scf.execute_region" => self.branches(op, state),
            "func.call" => {
                // The callee's waits complete this function's groups: those
                // before its accesses first, the others after them.
                let waits = self
                    .calls
                    .get(&key(&op))
                    .and_then(|f| self.callee_waits.get(f))
                    .cloned();
                for (queue, pending, wait) in waits.iter().flat_map(|w| w.first.iter()) {
                    self.complete(wait, state, *queue, Some(*pending), None, None);
                }
                self.plain(&op, state);
                for (queue, pending, wait) in waits.iter().flat_map(|w| w.all.iter()) {
                    self.complete(wait, state, *queue, Some(*pending), None, None);
                }
                self.call(&op, state);
            }
            _ if ops::is_function(&op) => {}
            _ => {
                self.plain(&op, state);
                if op.region_count() > 0 {
                    // Unknown control flow: its regions once, or not at all.
                    let entry = state.clone();
                    for block in ops::blocks_of(&op) {
                        let mut inner = entry.clone();
                        self.block(block, &mut inner);
                        let joined = std::mem::take(state).join(inner);
                        *state = joined;
                    }
                }
            }
        }
    }

    /// Drops what an outermost loop nest's fixed point remembered: every op
    /// outside loops is walked once, so no later question repeats one of
    /// the nest's, and a function of many loop nests keeps the memory of
    /// one (its time stays linear in its ops).
    fn forget_loop_nest(&mut self) {
        self.meetings.clear();
        self.cache.forget_ops();
        self.contexts.clear();
    }

    /// Step 3: an `apipe.copy` reads its source and writes its destination
    /// (checked against the state), then is in flight, uncommitted.
    fn copy(&mut self, op: OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
        // Its accesses (computed once) are its source read, then its
        // destination write.
        let (src, dst) = match self.cache.of(&op).accesses.as_slice() {
            [s, d] if s.kind == AccessKind::Read && d.kind == AccessKind::Write => {
                (s.region.clone(), d.region.clone())
            }
            _ => copy_regions(&mut self.cache.forms, &op),
        };
        self.check_read(&op, &src, Role::CopySource, state);
        self.check_write(&op, &dst, Role::CopyDestination, Some(&src), state);
        let when = self.context(&op).constraints().to_vec();
        if self.gpu {
            self.check_reads_since_barrier(&op, &dst, state);
            self.check_writes_since_barrier(&op, &src, &dst, state);
            self.check_same_copy_other_threads(&op, &src, &dst, &when);
        }
        if let Some(events) = self.divergent_events.last_mut() {
            for (region, kind, role) in [
                (&src, AccessKind::Read, Role::CopySource),
                (&dst, AccessKind::Write, Role::CopyDestination),
            ] {
                if !events
                    .accesses
                    .iter()
                    .any(|(o, r, _, _)| *o == op && r == region)
                {
                    events.accesses.push((op, region.clone(), kind, role));
                }
            }
            if !events
                .copies
                .iter()
                .any(|i| i.copy == op && i.dst == dst && i.src == src)
            {
                events.copies.push(Instance::issued(
                    op,
                    attributes::queue(&op),
                    src.clone(),
                    dst.clone(),
                    when.clone(),
                ));
            }
        }
        // An arrive tracks every earlier copy of the thread: one queue.
        let queue = if self.mbarrier.is_some() {
            0
        } else {
            attributes::queue(&op)
        };
        state.add(Instance::issued(op, queue, src, dst, when));
    }

    /// Step 3: any other op, through its memory effects.
    fn plain(&mut self, op: &OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
        let found = self.cache.of(op);
        if found.is_empty() {
            return;
        }
        for access in &found.accesses {
            let role = if access.assumed {
                Role::Assumed(access.kind)
            } else {
                Role::Plain(access.kind)
            };
            if let Some(events) = self.divergent_events.last_mut() {
                if !events
                    .accesses
                    .iter()
                    .any(|(o, r, _, _)| o == op && *r == access.region)
                {
                    events
                        .accesses
                        .push((*op, access.region.clone(), access.kind, role));
                }
            }
            match access.kind {
                AccessKind::Read => self.check_read(op, &access.region, role, state),
                AccessKind::Write => self.check_write(op, &access.region, role, None, state),
            }
        }
        // Effects on no particular value: every buffer.
        if found.reads_all || found.writes_all {
            let instances = state.instances.clone();
            for instance in &instances {
                let single = State {
                    instances: vec![instance.clone()],
                    reads: Vec::new(),
                };
                if found.reads_all {
                    let role = Role::Plain(AccessKind::Read);
                    self.check_read(op, &instance.dst.clone(), role, &single);
                }
                if found.writes_all {
                    let role = Role::Plain(AccessKind::Write);
                    self.check_write(op, &instance.src.clone(), role, None, &single);
                }
            }
        }
        if self.gpu {
            // Only accesses whose elements are known (an op indexed per
            // element: not one without memory-effect information, a
            // warp-collective op, or an op on a whole buffer, such as an
            // upstream async copy the checker does not follow).
            let when = self.context(op).constraints().to_vec();
            let followed: Vec<_> = found
                .accesses
                .iter()
                .filter(|a| {
                    !a.assumed && !a.collective && !a.asynchronous && a.region.dims.is_some()
                })
                .collect();
            // Every thread runs this op too, at the same time: its own
            // accesses in another thread (two threads' stores to one
            // element, a `memref.copy` whose source another thread's run
            // writes). Atomic updates do not race with each other. Only
            // exact regions are compared (a hull, as of a masked load or a
            // strided view, meets itself in another thread where the
            // elements interleave).
            let exact: Vec<bool> = followed
                .iter()
                .map(|a| super::classes::exact_region(op, a.value))
                .collect();
            let own = State {
                instances: Vec::new(),
                reads: if super::classes::atomic(op) {
                    Vec::new()
                } else {
                    followed
                        .iter()
                        .zip(&exact)
                        .filter(|(_, exact)| **exact)
                        .map(|(a, _)| Read {
                            op: *op,
                            write: a.kind == AccessKind::Write,
                            region: a.region.clone(),
                            when: when.clone(),
                            carried: None,
                        })
                        .collect()
                },
            };
            for (access, exact) in followed.iter().zip(&exact) {
                let write = access.kind == AccessKind::Write;
                self.check_plain_since_barrier(op, &access.region, write, state);
                if *exact {
                    self.check_plain_since_barrier(op, &access.region, write, &own);
                }
            }
            for access in &found.accesses {
                // Writes of memory other threads see (workgroup or global,
                // not thread-private): another thread's copy over them, or
                // reading them as its source, with no barrier since, is
                // the race (the copy may read before or after the write).
                let kept = match access.kind {
                    AccessKind::Read => self.shared(&access.region.root),
                    AccessKind::Write => {
                        !crate::access::region::thread_private(&access.region.root)
                    }
                };
                if kept {
                    state.add_read(Read {
                        op: *op,
                        write: access.kind == AccessKind::Write,
                        region: access.region.clone(),
                        when: when.clone(),
                        carried: None,
                    });
                }
            }
        }
    }

    /// `wait_group {pending}` (`pending = Some`) or a wait on a token whose
    /// group has at least `pending` newer groups, or (`closer`) the token of
    /// a commit op, or (`named`) a value that names the group
    /// ([`names`]): completes the instances of `queue` whose count is
    /// above `pending`, closed by `closer` or named by `named` (step 3); an
    /// instance whose count depends on the iteration stays in flight under
    /// `count <= pending`.
    fn complete(
        &mut self,
        op: &OperationRef<'c, 'a>,
        state: &mut State<'c, 'a>,
        queue: i64,
        pending: Option<i64>,
        closer: Option<usize>,
        named: Option<usize>,
    ) {
        let instances = std::mem::take(&mut state.instances);
        let context = self.context(op);
        for mut instance in instances {
            if instance.unsynced || instance.queue != queue {
                state.add(instance);
                continue;
            }
            if closer.is_some() && instance.closer == closer
                || named.is_some_and(|v| instance.named_by.contains(&v))
            {
                self.completed(op, instance, state);
                continue;
            }
            let Some(pending) = pending else {
                let early = self.mbarrier.as_ref().is_some_and(|f| f.returns_early(op));
                if early {
                    instance.trace.early_wait = Some(*op);
                }
                instance.trace.wait = Some(WaitSeen {
                    op: *op,
                    pending: None,
                    groups: instance.groups.base.clone(),
                    names_no_group: true,
                    returns_early: early,
                });
                state.add(instance);
                continue;
            };
            let base = instance.groups.base.clone();
            let seen = WaitSeen {
                op: *op,
                pending: if closer.is_none() {
                    Some(pending)
                } else {
                    None
                },
                groups: base.clone(),
                names_no_group: false,
                returns_early: false,
            };
            if let Some(c) = base.as_constant() {
                if c > pending {
                    self.completed(op, instance, state);
                } else {
                    instance.trace.wait = Some(seen);
                    state.add(instance);
                }
                continue;
            }
            // count <= pending: in flight; count >= pending + 1: complete.
            let in_flight = Constraint::le(&base, &Lin::constant(pending));
            let done = base.offset(-pending - 1).map(Constraint::NonNeg);
            let (Some(in_flight), Some(done)) = (in_flight, done) else {
                state.add(instance);
                continue;
            };
            let feasible = |this: &mut Self, c: &Constraint, instance: &Instance| {
                let mut system = context.clone();
                system.extend(instance.when.iter().cloned());
                system.push(c.clone());
                this.cache.forms.add_facts(&mut system);
                system.feasible().may()
            };
            if self.gpu && feasible(self, &done, &instance) {
                let mut finished = instance.clone();
                finished.constrain([done]);
                self.completed(op, finished, state);
            }
            if feasible(self, &in_flight, &instance) {
                instance.constrain([in_flight]);
                instance.trace.wait = Some(seen);
                state.add(instance);
            }
        }
    }

    /// An instance completed by the wait `op`: gone, or (in a `gpu.func`)
    /// unsynced until the next barrier.
    fn completed(
        &mut self,
        op: &OperationRef<'c, 'a>,
        mut instance: Instance<'c, 'a>,
        state: &mut State<'c, 'a>,
    ) {
        if !self.gpu || self.mbarrier.is_some() {
            return;
        }
        instance.unsynced = true;
        instance.groups = Count::zero();
        instance.closer = None;
        instance.named_by.clear();
        instance.named_numbers.clear();
        instance.trace.wait = Some(WaitSeen {
            op: *op,
            pending: None,
            groups: Lin::constant(0),
            names_no_group: false,
            returns_early: false,
        });
        state.add(instance);
    }

    /// `apipe.wait %t...`: each token's group (group-distance facts) and
    /// the copies its commit op closed.
    ///
    /// A token iter_arg of an `scf.for` with a constant step names the
    /// init's group in the first iteration and the previous iteration's
    /// yield in the later ones: the state splits on `τ_L = 0`, ..., `τ_L =
    /// k - 1`, `τ_L >= k` (the group-distance analysis's split facts) and
    /// each part completes with its own fact.
    fn wait_tokens(&mut self, op: &OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
        let operands: Vec<Value> = op.operands().collect();
        for token in operands {
            let closer = defining_op(token)
                .filter(|d| ops::is(d, ops::COMMIT_GROUP))
                .map(|d| key(&d));
            let named = Some(key_of_value(token));
            if let Some((l, facts)) = self.iteration_split(op, token) {
                let tau = Lin::symbol(Symbol::Iteration(key(&l)));
                let last = facts.len() as i64 - 1;
                let instances = std::mem::take(&mut state.instances);
                let context = self.context(op);
                let mut out = Vec::new();
                for (i, fact) in (0i64..).zip(facts) {
                    // τ = i, or τ >= i for the last part.
                    let mut guard = vec![Constraint::NonNeg(tau.offset(-i).unwrap())];
                    if i < last {
                        guard.push(Constraint::NonNeg(
                            tau.scaled(-1).unwrap().offset(i).unwrap(),
                        ));
                    }
                    let mut part = State::default();
                    for instance in &instances {
                        let mut system = context.clone();
                        system.extend(instance.when.iter().cloned());
                        system.extend(guard.iter().cloned());
                        self.cache.forms.add_facts(&mut system);
                        if system.feasible().may() {
                            let mut instance = instance.clone();
                            instance.constrain(guard.iter().cloned());
                            part.instances.push(instance);
                        }
                    }
                    // No fact: not reached in such an iteration as far as
                    // the analysis knows; nothing is completed.
                    if let Some(fact) = fact {
                        let pending = pending_of(&fact);
                        self.complete(op, &mut part, fact.queue, pending, closer, named);
                    } else {
                        self.complete_named(op, &mut part, named);
                    }
                    out.extend(part.instances);
                }
                for instance in out {
                    state.add(instance);
                }
                continue;
            }
            let Some(fact) = self.tokens.token_fact(op, token) else {
                self.complete_named(op, state, named);
                continue;
            };
            self.complete(op, state, fact.queue, pending_of(&fact), closer, named);
        }
    }

    /// A wait on `named` with no distance fact: completes the instances
    /// it names ([`names`]), leaves the others as they are.
    fn complete_named(
        &mut self,
        op: &OperationRef<'c, 'a>,
        state: &mut State<'c, 'a>,
        named: Option<usize>,
    ) {
        let Some(v) = named else {
            return;
        };
        let instances = std::mem::take(&mut state.instances);
        for instance in instances {
            if !instance.unsynced && instance.named_by.contains(&v) {
                self.completed(op, instance, state);
            } else {
                state.add(instance);
            }
        }
    }

    /// The loop `L` whose token iter_arg `token` is, with the facts of
    /// `token` at the wait `op` by iteration of `L`
    /// ([`GroupDistance::token_fact_by_iteration`]), if `L` has a constant
    /// positive step (its iterations are `τ_L`).
    fn iteration_split(
        &self,
        op: &OperationRef<'c, 'a>,
        token: Value<'c, 'a>,
    ) -> Option<(OperationRef<'c, 'a>, Vec<Option<group_distance::GroupFact>>)> {
        let (block, n) = block_argument(token)?;
        let l = block.parent_operation()?;
        if n == 0 || !ops::is(&l, "scf.for") {
            return None;
        }
        l.operand_at(2).and_then(constant).filter(|s| *s > 0)?;
        let facts = self.tokens.token_fact_by_iteration(op, token)?;
        Some((l, facts.to_vec()))
    }

    /// Step 4: `scf.if`, `scf.index_switch`, `scf.execute_region`: each
    /// region from the same state, with its condition attached to what it
    /// leaves; the join.
    fn branches(&mut self, op: OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
        let entry = std::mem::take(state);
        let mut outs: Vec<State<'c, 'a>> = Vec::new();
        let divergent = self.gpu
            && !ops::is(&op, "scf.execute_region")
            && op
                .operand(0)
                .is_ok_and(|c| self.is_variant(Symbol::Value(crate::access::values::value_key(c))));
        let mut events = Vec::new();
        let mut in_flight: Vec<FxHashSet<usize>> = Vec::new();
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
                    .filter(|x| !x.unsynced)
                    .map(|x| key(&x.copy))
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
        let entered: FxHashSet<usize> = entry.instances.iter().map(|x| key(&x.copy)).collect();
        // Another thread's wait on the phase covers this one (below).
        let covered_by_others = divergent
            && self.mbarrier.is_some()
            && op.operand(0).is_ok_and(|c| computed_from_thread_ids(c, 0));
        for (i, out) in outs.iter_mut().enumerate() {
            for instance in &mut out.instances {
                let copy = key(&instance.copy);
                let completed_elsewhere =
                    (0..count).any(|k| k != i && !in_flight[k].contains(&copy));
                let was_in_flight = entered.contains(&copy);
                if completed_elsewhere && was_in_flight && !instance.unsynced {
                    instance.trace.branch = Some((op, i));
                    // Completed by another thread's wait on the phase: only
                    // if threads do split between the regions. A condition
                    // only taken to vary (a loop's result, a load) may send
                    // every thread the same way, and then no thread ran the
                    // other region's wait (trial 12, finding 1: the empty
                    // guard `scf.if (n - x <=u c) {}` after a loop).
                    if covered_by_others {
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
    fn divergent(&mut self, op: &OperationRef<'c, 'a>, events: &[Events<'c, 'a>]) {
        use super::classes::Threads;
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
                                self.found(*kind, *role, at, &instance, (verdict, true));
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
    fn divergent_plain(&mut self, mine: &Events<'c, 'a>, theirs: &Events<'c, 'a>, first: bool) {
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

    /// True if `region` is a plain access of `at` whose elements the
    /// checker follows exactly: not assumed, warp-collective or
    /// asynchronous, with known dimensions (as [`Analysis::plain`]
    /// compares), and [`super::classes::exact_region`].
    fn followed_plain(
        &mut self,
        at: &OperationRef<'c, 'a>,
        region: &crate::access::Region,
        role: &Role,
    ) -> bool {
        matches!(role, Role::Plain(_))
            && region.dims.is_some()
            && self.cache.of(at).accesses.iter().any(|a| {
                a.region == *region
                    && !a.collective
                    && !a.asynchronous
                    && !a.assumed
                    && super::classes::exact_region(at, a.value)
            })
    }

    /// The symbols of `state` defined inside `op`, mapped to their stale
    /// versions (a back edge of `op`, or leaving it).
    fn stale_map(
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
    fn invariant_in(&mut self, k: usize, l: &OperationRef<'c, 'a>, depth: usize) -> bool {
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
    fn back_edge(&mut self, l: &OperationRef<'c, 'a>, state: &mut State<'c, 'a>, iterates: bool) {
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
        state.carried_by(*l);
    }

    /// Widening of a loop's header `next` against the previous `header`
    /// (module doc, step 5): constraints and counts that moved are dropped;
    /// an instance or read issued `k` iterations back whose region is new is
    /// summarized as issued in some earlier iteration `σ <= τ - 1` (its
    /// forms in `σ`, so all ages become one summary); any other new one
    /// forgets the iteration (what depends on `τ` becomes unknown); after
    /// [`GIVE_UP_AFTER`] more rounds, regions become whole buffers.
    fn widen(
        &mut self,
        l: &OperationRef<'c, 'a>,
        header: &State<'c, 'a>,
        next: &mut State<'c, 'a>,
        give_up: bool,
    ) {
        let tau = Symbol::Iteration(key(l));
        let sigma = Lin::symbol(Symbol::Fresh(fresh_id(key(l), 3)));
        let earlier = Lin::symbol(tau)
            .offset(-1)
            .and_then(|t1| Constraint::le(&sigma, &t1));
        // τ -> σ + k for an entry issued k iterations back.
        let issued_in = |when: &[Constraint]| -> Option<Lin> {
            let k = super::classes::age(when, l).filter(|k| *k >= 1)?;
            sigma.offset(k)
        };
        let forget_dims = |region: &mut crate::access::Region| {
            if let Some(dims) = &mut region.dims {
                for dim in dims {
                    if let crate::access::Dim::Range { start, .. } = dim {
                        if start.mentions(tau) {
                            *dim = crate::access::Dim::Any;
                        }
                    }
                }
            }
        };
        let instances = std::mem::take(&mut next.instances);
        for mut instance in instances {
            match header.instances.iter().find(|h| h.same_copy(&instance)) {
                Some(old) => {
                    // Keep the constraints of the header that still hold.
                    let mut when = super::state::hull(&old.when, &instance.when);
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
                    match issued_in(&instance.when) {
                        Some(at) if !instance.groups.base.mentions(tau) => {
                            instance.map(&|s| (s == tau).then(|| at.clone()));
                            instance.constrain(earlier.clone());
                        }
                        _ => {
                            forget_dims(&mut instance.src);
                            forget_dims(&mut instance.dst);
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
        self.widen_reads(l, header, next, give_up);
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
    fn widen_reads(
        &mut self,
        l: &OperationRef<'c, 'a>,
        header: &State<'c, 'a>,
        next: &mut State<'c, 'a>,
        give_up: bool,
    ) {
        let tau = Symbol::Iteration(key(l));
        let sigma = Lin::symbol(Symbol::Fresh(fresh_id(key(l), 3)));
        let earlier = Lin::symbol(tau)
            .offset(-1)
            .and_then(|t1| Constraint::le(&sigma, &t1));
        let issued_in = |when: &[Constraint]| -> Option<Lin> {
            let k = super::classes::age(when, l).filter(|k| *k >= 1)?;
            sigma.offset(k)
        };
        let forget_dims = |region: &mut crate::access::Region| {
            if let Some(dims) = &mut region.dims {
                for dim in dims {
                    if let crate::access::Dim::Range { start, .. } = dim {
                        if start.mentions(tau) {
                            *dim = crate::access::Dim::Any;
                        }
                    }
                }
            }
        };
        let reads = std::mem::take(&mut next.reads);
        for mut read in reads {
            match header
                .reads
                .iter()
                .find(|h| h.op == read.op && h.write == read.write && h.region == read.region)
            {
                Some(old) => {
                    let mut when = super::state::hull(&old.when, &read.when);
                    when.retain(|c| old.when.contains(c));
                    read.when = when;
                }
                None => match issued_in(&read.when) {
                    Some(at) => {
                        read.map(&|s| (s == tau).then(|| at.clone()));
                        let mut when = std::mem::take(&mut read.when);
                        when.extend(earlier.clone());
                        read.when = when;
                    }
                    None => {
                        forget_dims(&mut read.region);
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
    fn rounds(&self, l: &OperationRef<'c, 'a>, nested: &[OperationRef<'c, 'a>]) -> Rounds {
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
    fn spend(&mut self, ops: usize, round: usize, rounds: &mut Rounds) {
        self.work = self.work.saturating_add(ops.max(1));
        if self.work > WORK_BUDGET {
            rounds.widen = rounds.widen.min(round);
            rounds.give_up = rounds.give_up.min(round);
        }
    }

    /// Step 5: `scf.for`.
    fn for_loop(&mut self, l: OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
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
        let iterates = l.operand_at(2).and_then(constant).is_some_and(|s| s > 0);
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
                self.widen_reads(&l, &header, &mut next, false);
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
    fn while_loop(&mut self, w: OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
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
    fn prune(&mut self, op: &OperationRef<'c, 'a>, state: &mut State<'c, 'a>) {
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

/// Per dimension, whether `function` reads a thread id of it (other than
/// to elect thread (0, 0, 0)) or a `gpu.launch_func` of the module
/// (`launches`, [`launched_block_sizes`]) launches it with a size there
/// other than the constant 1 ([`Analysis::dimension_may_differ`] without a
/// stated size).
pub(super) fn dimensions_used<'c: 'a, 'a>(
    function: &OperationRef<'c, 'a>,
    launches: &FxHashMap<String, [bool; 3]>,
) -> [bool; 3] {
    let mut reads = [false; 3];
    for op in ops::nested_ops(function) {
        if matches!(ops::name(&op), "gpu.thread_id" | "gpu.global_id") {
            // An id with no use, or used only to elect thread
            // (0, 0, 0), says nothing of the data.
            let read = op.result(0).is_ok_and(|r| {
                !crate::token_values::users(r.into()).is_empty() && !only_elects(r.into(), 0)
            });
            if let (Some(d), true) = (crate::access::values::gpu_dimension(&op), read) {
                reads[d] = true;
            }
        }
    }
    let launched = launch_name(function)
        .and_then(|name| launches.get(&name).copied())
        .unwrap_or_default();
    for (d, launched) in launched.into_iter().enumerate() {
        reads[d] |= launched;
    }
    reads
}

/// True if `value` is computed by `arith` / `index` ops from thread ids
/// and constants alone, with at least one thread id (`gpu.thread_id`, a
/// `gpu.launch` body's id argument): a branch on it is one the threads of
/// a block split on by their ids, not one only taken to vary (a loop's
/// result, a load, an argument).
fn computed_from_thread_ids(value: Value, depth: usize) -> bool {
    if depth > 16 {
        return false;
    }
    if crate::access::values::block_thread_id_dimension(value).is_some() {
        return true;
    }
    let Some(op) = defining_op(value) else {
        return false;
    };
    let name = ops::name(&op);
    if !(name.starts_with("arith.") || name.starts_with("index.")) {
        return false;
    }
    let operands: Vec<Value> = op.operands().collect();
    !operands.is_empty()
        && operands
            .iter()
            .all(|v| constant(*v).is_some() || computed_from_thread_ids(*v, depth + 1))
        && operands.iter().any(|v| constant(*v).is_none())
}

/// True if `value` (a thread id) is used only to elect thread
/// `(0, 0, 0)`: through `arith.ori` with other ids into `arith.cmpi` with
/// the constant 0, as `apipe-tokens-to-mbarrier` emits for the thread that
/// initializes the barriers. Such a read says nothing about how the
/// kernel's data depends on that dimension.
/// A plain `%tid_y == 0` is no election (a guard on the dimension itself).
fn only_elects(value: Value, depth: usize) -> bool {
    let users = crate::token_values::users(value);
    depth < 8
        && !users.is_empty()
        && users.iter().all(|user| match ops::name(user) {
            "arith.ori" => user
                .result(0)
                .is_ok_and(|r| only_elects(r.into(), depth + 1)),
            "arith.cmpi" => depth > 0 && user.operands().any(|v| constant(v) == Some(0)),
            _ => false,
        })
}

/// Per kernel (`@module::@kernel`, as `gpu.launch_func` names it) and
/// dimension, whether some `gpu.launch_func` under `root` launches it with a
/// block size there other than the constant 1. One walk of the module, for
/// every function ([`Analysis::dimension_may_differ`]).
pub(super) fn launched_block_sizes<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
) -> FxHashMap<String, [bool; 3]> {
    let mut out: FxHashMap<String, [bool; 3]> = FxHashMap::default();
    for launch in ops::self_and_nested_ops(root) {
        if !ops::is(&launch, "gpu.launch_func") {
            continue;
        }
        let Ok(kernel) = launch.attribute("kernel").map(|a| a.to_string()) else {
            continue;
        };
        // Operands: the async dependencies, then grid x, y, z and block
        // x, y, z.
        let dependencies = launch
            .operands()
            .take_while(|v| !v.r#type().is_index())
            .count();
        let flags = out.entry(kernel).or_default();
        for (d, flag) in flags.iter_mut().enumerate() {
            let size = launch.operand_at(dependencies + 3 + d).and_then(constant);
            *flag |= size != Some(1);
        }
    }
    out
}

/// The name `gpu.launch_func` gives the `gpu.func` `function`
/// (`@module::@kernel`), if it is one.
fn launch_name(function: &OperationRef) -> Option<String> {
    if !ops::is(function, "gpu.func") {
        return None;
    }
    let (kernel, module) = (
        group_distance::symbol_name(function)?,
        function
            .parent_operation()
            .and_then(|m| group_distance::symbol_name(&m))?,
    );
    Some(format!("@{module}::@{kernel}"))
}

/// True if threads run `function` together: a `gpu.func`, a `gpu.launch`
/// body, or a function that uses thread ids or barriers (a kernel written as
/// `func.func`, as IREE and upstream tests do).
fn runs_on_threads(function: &OperationRef) -> bool {
    ops::is(function, "gpu.func")
        || ops::is(function, "gpu.launch")
        || ops::nested_ops(function).iter().any(|op| {
            matches!(
                ops::name(op),
                "gpu.barrier" | "gpu.thread_id" | "gpu.lane_id" | "nvvm.barrier0"
            )
        })
}

/// The `pending` equivalent of waiting on a token with `fact`: every group
/// at distance `max` or more is complete on every path where the token
/// names a group; `None` (nothing completes) if on some path it names none.
fn pending_of(fact: &group_distance::GroupFact) -> Option<i64> {
    match fact.groups {
        Some(d) if !fact.may_name_no_group => d.max.map(|m| m as i64),
        _ => None,
    }
}

/// `apipe.commit_group`: the uncommitted instances of its queue are closed
/// by it; every instance of the queue sees one more group.
fn commit(op: &OperationRef, state: &mut State) {
    let queue = attributes::queue(op);
    for instance in &mut state.instances {
        if instance.unsynced || instance.queue != queue {
            continue;
        }
        if instance.groups.is_zero() {
            instance.closer = Some(key(op));
        } else if instance.groups.base.as_constant() == Some(0) {
            // Committed on some paths only: which commit closed it is
            // unknown.
            instance.closer = None;
        }
        if let Some(base) = instance.groups.base.offset(1) {
            instance.groups.base = base;
        }
    }
}

fn key_of_value(value: Value) -> usize {
    crate::access::values::value_key(value)
}
