//! Step 1 of `apipe-software-pipeline`, last check: the schedule keeps every
//! memory dependence of the original loop.
//!
//! The original loop runs iteration `i` whole before iteration `i + 1`, and
//! its `apipe.copy` ops as if synchronous (what `apipe-make-sync` gives).
//! The pipelined loop runs stage `s` of iteration `i` in time step `i + s`,
//! at the position of its op in the pipelined body order; an async copy's
//! accesses (it reads its `src` and writes its `dst`) last from its issue
//! until the first wait on its group, in the first stage `t` that reads
//! what its stage copied (`Item::Wait`), or to the end of the loop when no
//! stage waits for it.
//!
//! Algorithm ([`check`]):
//! 1. the accesses of every op of the body, nested ops included, from the
//!    shared access module ([`crate::access`]: MLIR memory effects, regions
//!    of root buffers with index forms affine in the induction variable);
//!    an op with an effect on no particular buffer accesses all memory;
//! 2. each access gets its start, a point `(step offset, schedule
//!    position, nested position)` relative to the time step `i`, and its
//!    end: the start, or for an async copy the point of its wait;
//! 3. for every ordered pair `(x, y)` with a write among them and every
//!    iteration distance `d` for which the original loop runs `x` of
//!    iteration `i` before `y` of iteration `i + d` (`d >= 1`, or `d = 0`
//!    when `x` comes first in the body), the order is kept iff
//!    `end(x) < start(y) + d` (lexicographically, `d` added to the step
//!    offset). The distances that break it form a range `[d_min, D]`
//!    (unbounded when `x` is a copy no stage waits for); each one is put to
//!    [`may_depend_at`] (exact for regions affine in the induction variable,
//!    conservative elsewhere). Two async accesses of one body op (copies in
//!    flight together) are compared at any iterations of the loops nested
//!    in it; one copy against itself, across iterations of those loops;
//! 4. buffers that are multi-buffered (`super::multi_buffer`) give
//!    iteration `i` version `i mod V`: accesses of iterations `d` apart
//!    with `d mod V != 0` touch different versions and are not compared.
//!    Before the check, [`sync_versions`] picks the local buffers written
//!    synchronously whose order the schedule breaks and that carry no data
//!    across iterations (every read is covered by an earlier unconditional
//!    write of its iteration, or meets no write of an earlier iteration):
//!    they get versions too;
//! 5. a dependence the schedule would reverse is a located error at the
//!    access of the earlier iteration, naming both ops, the kind
//!    (read-after-write, write-after-read, write-after-write) and the
//!    iteration distance, with a note at the other op. Nothing is changed.
//!
//! Threads (GPU code): the input loop's barriers run the iterations of
//! the threads of a block in step, so an access of one thread is also
//! compared with the other threads' accesses: `y`'s region with every
//! value that may differ between threads renamed ([`Symbol::OtherThread`],
//! the values of `crate::tokens_to_mbarrier::divergence`), which includes
//! the same thread. Thread-private buffers are not compared. The bounds on
//! the thread ids that the body's in-bounds accesses give
//! ([`Accesses::thread_bounds`]) are tried second, to prove an overlap
//! away only.
//!
//! Aliasing ([`crate::access::may_alias`]): two different function
//! arguments, or an argument and a global, may be the same memory (MLIR's
//! and LLVM's default; the caller may pass one buffer twice) unless one of
//! the arguments carries `llvm.noalias` (LLVM `noalias`, CUDA
//! `__restrict__`); a buffer of unknown origin (a call result, a loaded
//! memref) may overlap every other; fresh allocations overlap nothing else.
//! A dependence that rests only on such possible aliasing is refused like
//! any other, with a hint at `llvm.noalias`.
//!
//! Invariant: only reads the IR.

use super::analysis::Item;
use crate::access::{
    self, may_depend_at, may_meet_in_one_iteration, same_buffer, AccessCache, AccessKind,
    Constraint, Dim, Forms, IterationDistance, Lin, Overlap, Region, RootKind, Symbol,
};
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{diagnostic, ops};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};
use rustc_hash::FxHashSet;

/// A point of the pipelined execution relative to time step `i` of
/// iteration `i`: (step offset, schedule position, position of the nested
/// op in its body op). Ordered lexicographically.
type Point = (i64, usize, usize);

/// One access of the body.
#[derive(Clone)]
struct Access<'c, 'a> {
    /// The body op (index) it belongs to.
    k: usize,
    /// Position of the op among the ops nested in body op `k` (pre-order).
    nested: usize,
    op: OperationRef<'c, 'a>,
    kind: AccessKind,
    /// `None`: all memory.
    region: Option<Region>,
    /// In GPU code, the region as another thread of the block sees it: its
    /// thread-variant values renamed ([`Symbol::OtherThread`]); `None`
    /// outside GPU code, or if its buffer is private to each thread
    /// ([`other_thread`]).
    other_thread: Option<Region>,
    /// An async copy's access.
    asynchronous: bool,
    /// A write of every element of its region: not one under a mask
    /// (`vector.maskedstore`, a masked `vector.transfer_write`, ...) nor
    /// one assumed of an op without memory effects ([`definite`]).
    definite: bool,
    /// Where it starts in the pipelined time step of its iteration.
    start: Point,
    /// Where it is done (`None`: not before the loop ends).
    end: Option<Point>,
}

impl Access<'_, '_> {
    /// The region to compare another access with: as another thread sees
    /// it in GPU code (every thread of the block, the same one included),
    /// else the region.
    fn seen_by_other_threads(&self) -> Option<&Region> {
        self.other_thread.as_ref().or(self.region.as_ref())
    }
}

/// What the check needs of the plan.
pub(super) struct Schedule<'s> {
    pub stage: &'s [i64],
    pub async_stages: &'s [i64],
    pub schedule: &'s [Item],
    /// (buffer value key, versions) of each multi-buffered buffer.
    pub versions: &'s [(usize, i64)],
}

/// Steps 1-2.
fn collect<'c: 'a, 'a>(
    cache: &mut AccessCache<'c, 'a>,
    nested: &[Vec<OperationRef<'c, 'a>>],
    plan: &Schedule,
) -> Vec<Access<'c, 'a>> {
    let position = |k: usize| {
        plan.schedule
            .iter()
            .position(|item| *item == Item::Op(k))
            .expect("every body op is scheduled")
    };
    // The first wait on each async stage's group: (stage that waits,
    // schedule position).
    let wait_of = |s: i64| {
        plan.schedule
            .iter()
            .enumerate()
            .filter_map(|(i, item)| match item {
                Item::Wait { s: x, t, .. } if *x == s => Some((*t, i, 0)),
                _ => None,
            })
            .min()
    };
    let mut out = Vec::new();
    for (k, inner) in nested.iter().enumerate() {
        let start = (plan.stage[k], position(k), 0);
        let is_async = plan.async_stages.contains(&plan.stage[k]);
        for (n, op) in inner.iter().enumerate() {
            let start = (start.0, start.1, n);
            let accesses = cache.of(op);
            for (all, kind) in [
                (accesses.reads_all, AccessKind::Read),
                (accesses.writes_all, AccessKind::Write),
            ] {
                if all {
                    out.push(Access {
                        k,
                        nested: n,
                        op: *op,
                        kind,
                        region: None,
                        other_thread: None,
                        asynchronous: false,
                        definite: false,
                        start,
                        end: Some(start),
                    });
                }
            }
            for a in &accesses.accesses {
                let asynchronous = a.asynchronous && is_async;
                out.push(Access {
                    k,
                    nested: n,
                    op: *op,
                    kind: a.kind,
                    region: Some(a.region.clone()),
                    other_thread: None,
                    asynchronous,
                    definite: !a.assumed && definite(op),
                    start,
                    end: if asynchronous {
                        wait_of(plan.stage[k])
                    } else {
                        Some(start)
                    },
                });
            }
        }
    }
    out
}

/// False for an op whose writes may leave elements of their region alone
/// (trial 44: a `vector.maskedstore` whose mask holds in iteration 0 only
/// counted as a reset in every iteration, so the reads after it were taken
/// as reading their own iteration's data): a masked store, compress store
/// or scatter, and a `vector.transfer_write` with a mask operand.
fn definite(op: &OperationRef) -> bool {
    match ops::name(op) {
        "vector.maskedstore" | "vector.compressstore" | "vector.scatter" => false,
        "vector.transfer_write" => {
            // Operands: the vector, the memref, one index per dimension,
            // then the mask if there is one.
            op.operand_at(1)
                .and_then(access::region::rank)
                .is_some_and(|r| op.operand_count() == 2 + r)
        }
        _ => true,
    }
}

/// The versions of the buffer both regions are in, if it is multi-buffered.
fn shared_versions(x: &Region, y: &Region, plan: &Schedule) -> Option<i64> {
    let Symbol::Value(key) = x.root.symbol else {
        return None;
    };
    (y.root.symbol == x.root.symbol)
        .then(|| {
            plan.versions
                .iter()
                .find(|(b, _)| *b == key)
                .map(|(_, v)| *v)
        })
        .flatten()
}

/// `region` as another thread of the block sees it: every symbol of a
/// value that may differ between threads (`divergence`: a thread id and
/// what is computed from it, see
/// [`crate::tokens_to_mbarrier::divergence`]) becomes that value in
/// another thread ([`Symbol::OtherThread`], which keeps the value's bounds
/// and none of its relations), which may also be the same thread; the
/// region itself if nothing in it varies (the conditions around its op
/// may: [`overlap_at`] maps them alike). `None` if the buffer is private
/// to each thread (a `memref.alloca` in GPU code: no other thread sees
/// it).
///
/// The threads of a block run the input loop's iterations in step where
/// its barriers order them, and an access of one thread may meet another
/// thread's in a later iteration (a thread stores what its neighbour's
/// copy of the next iteration reads): the schedule must keep those
/// dependences too.
fn other_thread(region: &Region, divergence: &Divergent) -> Option<Region> {
    if let Symbol::Value(root) = region.root.symbol {
        // SAFETY: the root is a live value of the loop's function.
        if access::region::is_thread_private(unsafe { access::values::value_of(root) }) {
            return None;
        }
    }
    Some(region.substitute(&|s| divergence.as_other_thread(s)))
}

/// [`Accesses::thread_bounds`], computed on first use (most comparisons
/// between threads are decided without them).
#[derive(Clone, Copy)]
struct ThreadBounds<'x, 'c, 'a> {
    list: &'x [Access<'c, 'a>],
    cell: &'x std::cell::OnceCell<Vec<Constraint>>,
    /// What varies between threads (GPU code).
    divergent: Option<&'x Divergent<'c, 'a>>,
}

impl<'x> ThreadBounds<'x, '_, '_> {
    fn get(&self) -> &'x [Constraint] {
        self.cell.get_or_init(|| bounds_of_thread_ids(self.list))
    }
}

/// The bounds on thread ids that the in-bounds accesses of the body's own
/// ops give ([`Accesses::thread_bounds`]): each constraint of
/// [`access::region::in_bounds`] that names thread ids and nothing else,
/// and the same for another thread.
fn bounds_of_thread_ids(list: &[Access]) -> Vec<Constraint> {
    let mut bounds = Vec::new();
    for a in list.iter().filter(|a| a.nested == 0) {
        let Some(region) = &a.region else {
            continue;
        };
        for c in access::region::thread_id_bounds(&a.op, region) {
            if !bounds.contains(&c) {
                let other = c.in_other_thread();
                bounds.push(c);
                bounds.extend(other);
            }
        }
    }
    bounds
}

/// Which values of a kernel may differ between threads, for
/// [`other_thread`]: a thread id does, an argument of the function does
/// not; any other value as [`crate::tokens_to_mbarrier::divergence`] finds
/// (a fixed point over the function, computed on first use).
struct Divergent<'c, 'a> {
    function: OperationRef<'c, 'a>,
    analysis: std::cell::OnceCell<crate::tokens_to_mbarrier::divergence::Divergence>,
}

impl<'c, 'a> Divergent<'c, 'a> {
    fn new(function: OperationRef<'c, 'a>) -> Self {
        Divergent {
            function,
            analysis: std::cell::OnceCell::new(),
        }
    }

    /// `s` as another thread sees it: a value that may differ between
    /// threads becomes [`Symbol::OtherThread`]; `None` for the others.
    fn as_other_thread(&self, s: Symbol) -> Option<Lin> {
        match s {
            Symbol::Value(k) | Symbol::Stale(k) if self.is_divergent_key(k) => {
                Some(Lin::symbol(Symbol::OtherThread(k)))
            }
            _ => None,
        }
    }

    /// True if the value with key `k` (a live value of the function) may
    /// differ between the threads of a block.
    fn is_divergent_key(&self, k: usize) -> bool {
        if access::values::is_thread_id(k) {
            return true;
        }
        // SAFETY: keys of symbols come from live values of the function.
        let value = unsafe { access::values::value_of(k) };
        if let Ok(argument) = melior::ir::block::BlockArgument::try_from(value) {
            if melior::ir::BlockLike::parent_operation(&argument.owner()) == Some(self.function)
                && !ops::is(&self.function, "gpu.launch")
            {
                return false;
            }
        }
        self.analysis
            .get_or_init(|| {
                crate::tokens_to_mbarrier::divergence::Divergence::compute(&self.function)
            })
            .is_divergent_key(k)
    }
}

/// True if `a` and `b` (ops nested in one body op) are in different
/// regions of one `scf.if` / `scf.index_switch`: never both in one
/// execution of it.
fn exclusive<'c, 'a>(a: &OperationRef<'c, 'a>, b: &OperationRef<'c, 'a>) -> bool {
    fn chain<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<(OperationRef<'c, 'a>, Option<usize>)> {
        let mut out = Vec::new();
        let mut child = *op;
        for parent in ops::ancestors(op) {
            out.push((parent, access::values::region_index(&parent, &child)));
            child = parent;
        }
        out
    }
    let (ca, cb) = (chain(a), chain(b));
    for (pa, ra) in &ca {
        if let Some((_, rb)) = cb.iter().find(|(pb, _)| pb == pa) {
            return ra != rb && (ops::is(pa, "scf.if") || ops::is(pa, "scf.index_switch"));
        }
    }
    false
}

/// The loops between `op` and the pipelined loop `l` (innermost first).
fn inner_loops<'c, 'a>(op: &OperationRef<'c, 'a>, l: &OperationRef) -> Vec<OperationRef<'c, 'a>> {
    ops::ancestors(op)
        .take_while(|p| p != l)
        .filter(|p| {
            [
                "scf.for",
                "scf.while",
                "scf.parallel",
                "scf.forall",
                "affine.for",
                "affine.parallel",
            ]
            .contains(&ops::name(p))
        })
        .collect()
}

/// The verdict for the accesses of one body op that are in flight together
/// (`d = 0`, both async): overlap at any iterations of the nested loops.
fn unordered_overlap(forms: &mut Forms, x: &Access, y: &Access, l: &OperationRef) -> Overlap {
    let (Some(rx), Some(ry)) = (&x.region, y.seen_by_other_threads()) else {
        return MAY;
    };
    if x.op != y.op || x.kind != y.kind {
        if exclusive(&x.op, &y.op) {
            return Overlap::Disjoint;
        }
        return may_meet_in_one_iteration(forms, (rx, Some(&x.op)), (ry, Some(&y.op)), l);
    }
    // One access against itself: other iterations of each nested loop.
    for inner in inner_loops(&x.op, l) {
        if !ops::is(&inner, "scf.for") {
            return MAY;
        }
        let at = (rx, Some(&x.op));
        let verdict = may_depend_at(forms, at, at, &inner, IterationDistance::AtLeast(1));
        if verdict.may() {
            return verdict;
        }
    }
    Overlap::Disjoint
}

/// An overlap the test could not exclude, with no witness.
const MAY: Overlap = Overlap::May {
    exact: false,
    alias: false,
};

/// The verdict for `x` in iteration `i` and `y` in iteration `i + d`.
fn overlap_at(
    forms: &mut Forms,
    x: &Access,
    y: &Access,
    l: &OperationRef,
    distance: IterationDistance,
    thread_bounds: ThreadBounds,
) -> Overlap {
    let (Some(rx), Some(ry)) = (&x.region, y.seen_by_other_threads()) else {
        return MAY;
    };
    // Another thread's access: the conditions around its op are that
    // thread's too.
    let as_other_thread = thread_bounds
        .divergent
        .filter(|_| y.other_thread.is_some())
        .map(|d| move |s: Symbol| d.as_other_thread(s));
    let b_as = as_other_thread
        .as_ref()
        .map(|f| f as &dyn Fn(Symbol) -> Option<Lin>);
    let mut compare = |assumed: &[Constraint]| {
        access::may_depend_assuming(
            forms,
            (rx, Some(&x.op)),
            (ry, Some(&y.op)),
            l,
            distance,
            assumed,
            b_as,
        )
    };
    let verdict = compare(&[]);
    // Between threads, the bounds on the thread ids only ever prove an
    // overlap away: a comparison that was exact without them may not be
    // with them (more constraints than the feasibility test follows
    // exactly), so they are tried second and count only when disjoint.
    if verdict.may()
        && y.other_thread.is_some()
        && !thread_bounds.get().is_empty()
        && compare(thread_bounds.get()) == Overlap::Disjoint
    {
        return Overlap::Disjoint;
    }
    verdict
}

/// What an access does, for a message.
fn verb(a: &Access, may: bool) -> String {
    let what = match (a.kind, ops::is(&a.op, ops::COPY)) {
        (AccessKind::Read, true) => "reads (its source)",
        (AccessKind::Write, true) => "writes (its destination)",
        (AccessKind::Read, false) => "reads",
        (AccessKind::Write, false) => "writes",
    };
    if may {
        format!(
            "may {}",
            what.replacen("reads", "read", 1)
                .replacen("writes", "write", 1)
        )
    } else {
        what.to_owned()
    }
}

/// Step 5: the located error.
fn report(
    x: &Access,
    y: &Access,
    stage: &[i64],
    distance: IterationDistance,
    exact: bool,
    between_threads: bool,
) {
    let kind = match (x.kind, y.kind) {
        (AccessKind::Write, AccessKind::Read) => "read-after-write",
        (AccessKind::Read, AccessKind::Write) => "write-after-read",
        _ => "write-after-write",
    };
    let (when, at) = match distance {
        IterationDistance::Exactly(0) => ("in the same iteration".to_owned(), "0".to_owned()),
        IterationDistance::Exactly(1) => ("1 iteration later".to_owned(), "1".to_owned()),
        IterationDistance::Exactly(d) => (format!("{d} iterations later"), d.to_string()),
        IterationDistance::AtLeast(d) => (
            format!("{d} or more iterations later"),
            format!("{d} or more"),
        ),
    };
    // The threads of a block run the input loop's iterations in step
    // where its barriers order them.
    let when = if between_threads {
        format!("{when} in another thread of the block")
    } else {
        when
    };
    let carried = if distance == IterationDistance::Exactly(0) {
        ""
    } else {
        "loop-carried "
    };
    let done = match (x.asynchronous, x.end) {
        (true, Some((t, _, _))) => {
            format!(" (an async copy accesses memory until the wait on its group in stage {t})")
        }
        (true, None) => {
            " (an async copy that no stage waits for accesses memory until the loop ends)"
                .to_owned()
        }
        _ => String::new(),
    };
    // Different buffers (arguments, globals, buffers of unknown origin)
    // that may be the same memory.
    let aliased = match (&x.region, &y.region) {
        (Some(a), Some(b)) if !same_buffer(&a.root, &b.root) => {
            "; the two buffers are different values that may be the same memory: mark the function argument {llvm.noalias} if it overlaps no other buffer, or"
        }
        _ => ";",
    };
    let message = format!(
        "'{}' op in stage {} {} memory that '{}' op in stage {} {} {when}: the pipelined schedule does not keep this {carried}{kind} dependence (iteration distance {at}){done}{aliased} change the stages (apipe.stage) or the order (apipe.order) so that the second access stays after the first",
        ops::name(&x.op),
        stage[x.k],
        verb(x, !exact),
        ops::name(&y.op),
        stage[y.k],
        verb(y, !exact),
    );
    let note = match distance {
        IterationDistance::Exactly(0) => {
            format!("the '{}' op of the same iteration", ops::name(&y.op))
        }
        IterationDistance::Exactly(d) => {
            format!("the '{}' op of iteration i + {d}", ops::name(&y.op))
        }
        IterationDistance::AtLeast(d) => {
            format!(
                "the '{}' op of iteration i + {d} or later",
                ops::name(&y.op)
            )
        }
    };
    let note = if between_threads {
        format!("{note}, in another thread")
    } else {
        note
    };
    diagnostic::emit(
        x.op.location(),
        diagnostic::Severity::Error,
        &message,
        &[(y.op.location(), &note)],
    );
}

/// The distances `d` at which the original order `x` (iteration `i`)
/// before `y` (iteration `i + d`) is reversed: `(first, last)`, `last =
/// None` for unbounded; `None` if there is none.
fn reversed_distances(x: &Access, y: &Access) -> Option<(u64, Option<u64>)> {
    let first: u64 = if (x.k, x.nested) < (y.k, y.nested) {
        0
    } else {
        1
    };
    let Some(end) = x.end else {
        return Some((first, None));
    };
    // Kept iff end < (start.0 + d, start.1, start.2).
    let bound = end.0 - y.start.0;
    let last = if (end.1, end.2) >= (y.start.1, y.start.2) {
        bound
    } else {
        bound - 1
    };
    (last >= first as i64).then_some((first, Some(last as u64)))
}

/// True if `x` (iteration `i`) and `y` (iteration `i + δ`) lie in
/// different slots at every distance `δ` at which the schedule reverses
/// them, so that [`first_reversal`] would find no overlap: both rotate
/// through the slots `(a·i + c) mod k` of the slot dimension (`sx`, `sy`:
/// [`super::multi_buffer::slot_dimension`]), two iterations meet in one slot
/// only when `a·δ ≡ 0 (mod k)`, and no reversed distance is such a `δ`.
/// Distance 0 (one slot) between two ops is left to the full test; two
/// async accesses of one op, in flight together at distance 0, to the
/// caller. A cheap proof of what the overlap test proves at each distance;
/// `false` when it does not apply.
fn slots_apart(
    x: &Access,
    y: &Access,
    sx: &super::multi_buffer::Slots,
    sy: &super::multi_buffer::Slots,
) -> bool {
    use super::multi_buffer::Slots;
    let (
        Slots::Rotating { a, c, k },
        Slots::Rotating {
            a: ay,
            c: cy,
            k: ky,
        },
    ) = (sx, sy)
    else {
        return false;
    };
    if (a, c, k) != (ay, cy, ky) || *k <= 0 {
        return false;
    }
    let Some((first, last)) = reversed_distances(x, y) else {
        return true;
    };
    let Some(last) = last else {
        return false;
    };
    if first == 0 && x.k != y.k {
        return false;
    }
    let first = first.max(1);
    last.saturating_sub(first) <= 1024
        && (first..=last).all(|d| (i128::from(*a) * i128::from(d)).rem_euclid(i128::from(*k)) != 0)
}

/// True if the region of `a` depends on iteration numbers and constants
/// only.
fn known(a: &Access) -> bool {
    let Some(region) = &a.region else {
        return false;
    };
    let mut symbols = Vec::new();
    region.symbols(&mut symbols);
    symbols.iter().all(|s| matches!(s, Symbol::Iteration(_)))
}

/// Step 3-4 for one ordered pair: the first distance at which the schedule
/// breaks the order of `x` before `y` on a common element, and whether the
/// overlap has a witness.
fn first_reversal(
    forms: &mut Forms,
    x: &Access,
    y: &Access,
    l: &OperationRef,
    plan: &Schedule,
    thread_bounds: ThreadBounds,
) -> Option<(IterationDistance, bool)> {
    let (first, last) = reversed_distances(x, y)?;
    let versions = match (&x.region, &y.region) {
        (Some(rx), Some(ry)) => shared_versions(rx, ry, plan),
        _ => None,
    };
    let may = |verdict: Overlap, distance| match verdict {
        Overlap::May { exact, .. } => Some((distance, exact)),
        Overlap::Disjoint => None,
    };
    let same = IterationDistance::Exactly(0);
    if x.k == y.k && x.asynchronous && y.asynchronous {
        // Two async accesses of one body op (or one, at other iterations of
        // the loops nested in it) are in flight together.
        if let Some(found) = may(unordered_overlap(forms, x, y, l), same) {
            return Some(found);
        }
    } else if first == 0 && x.k != y.k {
        if let Some(found) = may(overlap_at(forms, x, y, l, same, thread_bounds), same) {
            return Some(found);
        }
    }
    let from = first.max(1);
    match last {
        Some(last) => (from..=last)
            .filter(|d| versions.is_none_or(|v| d % v as u64 == 0))
            .find_map(|d| {
                let distance = IterationDistance::Exactly(d);
                may(
                    overlap_at(forms, x, y, l, distance, thread_bounds),
                    distance,
                )
            }),
        None => {
            let distance = IterationDistance::AtLeast(from);
            overlap_at(forms, x, y, l, distance, thread_bounds)
                .may()
                .then(|| {
                    // Which distance: the first one with a witness, if small.
                    (from..from + 64)
                        .find(|&d| {
                            matches!(
                                overlap_at(
                                    forms,
                                    x,
                                    y,
                                    l,
                                    IterationDistance::Exactly(d),
                                    thread_bounds
                                ),
                                Overlap::May { exact: true, .. }
                            )
                        })
                        .map_or((distance, false), |d| (IterationDistance::Exactly(d), true))
                })
        }
    }
}

/// The accesses of a loop body under one schedule (steps 1-2), collected
/// once for [`Accesses::own_slots`], [`Accesses::sync_versions`] and
/// [`Accesses::check`]: the versions of `Schedule` are not used here (they
/// are read by each test).
pub(super) struct Accesses<'c, 'a> {
    forms: Forms,
    list: Vec<Access<'c, 'a>>,
    /// The roots [`Self::own_slots`] proved: no pair of their accesses is
    /// reversed without versions, so [`Self::check`] skips those pairs.
    proven: Vec<access::Root>,
    /// In GPU code, bounds on the thread ids of every thread that runs an
    /// iteration, for this thread and another ([`Symbol::OtherThread`]):
    /// those of the in-bounds accesses ([`access::region::bounded_access`])
    /// among the body's own ops, which every such thread runs. A copy into
    /// `buf[tid]` of a `memref<16xf32, 3>` bounds `tid` by 16 (an access
    /// out of bounds is undefined behaviour).
    thread_bounds: std::cell::OnceCell<Vec<Constraint>>,
    /// What varies between threads, in GPU code.
    divergent: Option<Divergent<'c, 'a>>,
}

impl<'c: 'a, 'a> Accesses<'c, 'a> {
    /// Steps 1-2 for the ops nested in each body op.
    pub fn of(
        nested: &[Vec<OperationRef<'c, 'a>>],
        plan: &Schedule,
        cache: &mut AccessCache<'c, 'a>,
    ) -> Self {
        let mut list = collect(cache, nested, plan);
        // GPU code: each access also as the other threads of the block see
        // it (`other_thread`).
        let function = nested
            .first()
            .and_then(|ops| ops.first())
            .filter(|op| ops::in_gpu_code(op))
            .and_then(|op| ops::ancestors(op).find(ops::is_function));
        let thread_bounds = std::cell::OnceCell::new();
        let divergent = function.map(Divergent::new);
        if let Some(divergence) = &divergent {
            for a in &mut list {
                a.other_thread = a.region.as_ref().and_then(|r| other_thread(r, divergence));
            }
        } else {
            // Not GPU code: no bounds between threads.
            let _ = thread_bounds.set(Vec::new());
        }
        Accesses {
            forms: Forms::new(),
            list,
            proven: Vec::new(),
            thread_bounds,
            divergent,
        }
    }

    /// What a test borrows at once: the forms (to extend), the accesses,
    /// their bounds between threads and the roots [`Self::own_slots`]
    /// proved.
    #[allow(clippy::type_complexity)]
    fn parts(
        &mut self,
    ) -> (
        &mut Forms,
        &[Access<'c, 'a>],
        ThreadBounds<'_, 'c, 'a>,
        &[access::Root],
    ) {
        let bounds = ThreadBounds {
            list: &self.list,
            cell: &self.thread_bounds,
            divergent: self.divergent.as_ref(),
        };
        (&mut self.forms, &self.list, bounds, &self.proven)
    }

    /// Steps 3-5: checks every pair; emits the errors; true if none.
    pub fn check(&mut self, l: &OperationRef<'c, 'a>, plan: &Schedule) -> bool {
        let (forms, list, bounds, proven) = self.parts();
        let on_proven = |a: &Access| a.region.as_ref().is_some_and(|r| proven.contains(&r.root));
        let mut reported: FxHashSet<(usize, usize)> = FxHashSet::default();
        let key = |op: &OperationRef| op.to_raw().ptr as usize;
        for x in list.iter() {
            for y in list.iter() {
                if x.kind == AccessKind::Read && y.kind == AccessKind::Read {
                    continue;
                }
                // Buffers that are never the same memory (the test would
                // say so after building the accesses' contexts).
                if let (Some(a), Some(b)) = (&x.region, &y.region) {
                    if !access::may_alias(&a.root, &b.root) {
                        continue;
                    }
                }
                if on_proven(x)
                    && on_proven(y)
                    && x.region.as_ref().map(|r| &r.root) == y.region.as_ref().map(|r| &r.root)
                {
                    continue;
                }
                let pair = (key(&x.op).min(key(&y.op)), key(&x.op).max(key(&y.op)));
                if reported.contains(&pair) {
                    continue;
                }
                if let Some((distance, exact)) = first_reversal(forms, x, y, l, plan, bounds) {
                    // A witness is a certain dependence only where the
                    // regions depend on iteration numbers alone (not on
                    // unknown values).
                    let exact = exact && known(x) && known(y);
                    reported.insert(pair);
                    // Only between threads if the thread's own accesses
                    // keep their order.
                    let between_threads = y.other_thread.is_some() && {
                        let same_thread = Access {
                            other_thread: None,
                            ..y.clone()
                        };
                        let none = std::cell::OnceCell::from(Vec::new());
                        let none = ThreadBounds {
                            list,
                            cell: &none,
                            divergent: None,
                        };
                        first_reversal(forms, x, &same_thread, l, plan, none).is_none()
                    };
                    report(x, y, plan.stage, distance, exact, between_threads);
                }
            }
        }
        reported.is_empty()
    }

    /// A read of the buffer `root` that may read data an earlier iteration
    /// wrote into it ([`carried_read`]; the reads that some path of an
    /// iteration does not write are `super::conditional_writes`' to find),
    /// with that write: `(read op, write op)`. Versions would give the read
    /// another iteration's version. `threads`: the loop is GPU code.
    pub fn carried_read(
        &mut self,
        l: &OperationRef<'c, 'a>,
        root: &access::Root,
        threads: bool,
    ) -> Option<(OperationRef<'c, 'a>, OperationRef<'c, 'a>)> {
        let on: Vec<&Access> = on_root(&self.list, root).collect();
        carried_read(&mut self.forms, l, &on, threads, true).map(|(r, w)| (on[r].op, on[w].op))
    }

    /// The ops that access the buffer `root`.
    pub fn ops_on(&self, root: &access::Root) -> Vec<OperationRef<'c, 'a>> {
        let mut out: Vec<OperationRef<'c, 'a>> = Vec::new();
        for a in on_root(&self.list, root) {
            if !out.contains(&a.op) {
                out.push(a.op);
            }
        }
        out
    }

    /// True if the buffer `root` (a fresh buffer or workgroup attribution
    /// that async copies write) keeps the schedule's order without
    /// versions: its own indexing already puts the iterations in flight
    /// together on different elements, as a loop that was multi-buffered
    /// by hand writes it (IREE's and upstream MLIR's `memref::multiBuffer`
    /// output: slot `iv mod K`). Every pair of its accesses, one a write,
    /// is put to step 3 with `root` not versioned (`plan.versions` must
    /// not name it); an access of all memory is left to [`Self::check`]
    /// (versions do not change its verdict). The buffer must have a slot
    /// dimension ([`super::multi_buffer::slot_dimension`]: one that every
    /// access indexes by `(a * iv + c) mod K` or by constants, the same in
    /// every thread); a buffer without one gets versions even where a
    /// schedule could reuse it.
    ///
    /// `threads`: the loop runs in every thread of a block (GPU code), and
    /// an access of one thread must also stay apart from the other
    /// threads' accesses of the iterations in flight: the accesses are
    /// compared along the slot dimension only, every other dimension being
    /// any position.
    pub fn own_slots(
        &mut self,
        l: &OperationRef<'c, 'a>,
        plan: &Schedule,
        root: &access::Root,
        threads: bool,
    ) -> bool {
        let (forms, list, bounds, _) = self.parts();
        let mut on: Vec<Access> = on_root(list, root).cloned().collect();
        let Symbol::Value(value) = root.symbol else {
            return false;
        };
        let regions: Vec<Option<&Vec<Dim>>> = on
            .iter()
            .map(|a| a.region.as_ref().and_then(|r| r.dims.as_ref()))
            .collect();
        // `value`: the root, a live value of the loop's function.
        let Some((d, _, slots)) =
            super::multi_buffer::slot_dimension(value, &regions, l.to_raw().ptr as usize)
        else {
            return false;
        };
        if threads {
            for a in &mut on {
                // The slot dimension is the same in every thread.
                a.other_thread = None;
                if let Some(dims) = a.region.as_mut().and_then(|r| r.dims.as_mut()) {
                    for (i, dim) in dims.iter_mut().enumerate() {
                        if i != d {
                            *dim = Dim::Any;
                        }
                    }
                }
            }
        }
        let kept = !(0..on.len()).any(|ix| {
            (0..on.len()).any(|iy| {
                let (x, y) = (&on[ix], &on[iy]);
                // Two async accesses of one op are in flight together at
                // distance 0 too (the slot rule covers the others).
                let apart = slots_apart(x, y, &slots[ix], &slots[iy])
                    && !(x.k == y.k
                        && x.asynchronous
                        && y.asynchronous
                        && unordered_overlap(forms, x, y, l).may());
                (x.kind == AccessKind::Write || y.kind == AccessKind::Write)
                    && !apart
                    && first_reversal(forms, x, y, l, plan, bounds).is_some()
            })
        });
        if kept {
            self.proven.push(root.clone());
        }
        kept
    }

    /// Buffers written by synchronous ops that need versions (RFC 0077
    /// "Multi-buffering" versions every intermediate buffer): `(buffer key,
    /// versions)` for each fresh buffer (`memref.alloc` / `alloca`, not in
    /// `plan.versions`) that no async copy accesses, whose order the schedule
    /// would break (a reversed pair on it may overlap), and that carries no
    /// data across iterations (no write of iteration `i` may meet a read of
    /// iteration `i + d`, `d >= 1`: each iteration reads only what it wrote,
    /// so version `i mod V` holds it). `V` is the last stage that accesses
    /// the buffer minus the first stage that writes it, plus one;
    /// `can_expand(key, V)` says whether the buffer can be re-allocated. The
    /// final [`Self::check`] proves the versioned schedule. `threads`: the
    /// loop is GPU code ([`carried_read`] spans threads).
    pub fn sync_versions(
        &mut self,
        l: &OperationRef<'c, 'a>,
        plan: &Schedule,
        threads: bool,
        can_expand: &dyn Fn(usize, i64) -> bool,
    ) -> Vec<(usize, i64)> {
        let (forms, accesses, bounds, _) = self.parts();
        let root_of = |a: &Access| match &a.region {
            Some(Region {
                root:
                    access::Root {
                        symbol: Symbol::Value(key),
                        kind: RootKind::Fresh,
                        ..
                    },
                ..
            }) => Some(*key),
            _ => None,
        };
        let mut keys: Vec<usize> = accesses.iter().filter_map(root_of).collect();
        keys.sort_unstable();
        keys.dedup();
        let mut out = Vec::new();
        for key in keys {
            if plan.versions.iter().any(|(b, _)| *b == key) {
                continue;
            }
            let on: Vec<&Access> = accesses
                .iter()
                .filter(|a| root_of(a) == Some(key))
                .collect();
            if on.iter().any(|a| a.asynchronous) {
                continue;
            }
            let Some(first_write) = on
                .iter()
                .filter(|a| a.kind == AccessKind::Write)
                .map(|a| plan.stage[a.k])
                .min()
            else {
                continue;
            };
            let last = on.iter().map(|a| plan.stage[a.k]).max().unwrap_or(0);
            let versions = last - first_write + 1;
            if versions <= 1 {
                continue;
            }
            let needed = on.iter().any(|x| {
                on.iter().any(|y| {
                    (x.kind == AccessKind::Write || y.kind == AccessKind::Write)
                        && first_reversal(forms, x, y, l, plan, bounds).is_some()
                })
            });
            if !needed {
                continue;
            }
            let carried = carried_read(forms, l, &on, threads, false).is_some();
            if !carried && can_expand(key, versions) {
                out.push((key, versions));
            }
        }
        out
    }
}

/// The accesses of `list` to the buffer `root`.
fn on_root<'x, 'c, 'a>(
    list: &'x [Access<'c, 'a>],
    root: &'x access::Root,
) -> impl Iterator<Item = &'x Access<'c, 'a>> {
    list.iter()
        .filter(move |a| a.region.as_ref().is_some_and(|r| r.root == *root))
}

/// A read among `on` (the accesses of one buffer) that may read data an
/// earlier iteration wrote, with the write: `(read, write)` indices into
/// `on`. A read covered by an earlier write of its own iteration ([`covers`])
/// that runs whenever it does ([`runs_whenever`]; with `paths_checked`, any
/// write under `scf.if`s only, the paths being left to
/// `super::conditional_writes`) reads that iteration's data; any other read
/// must
/// not meet a write of an earlier iteration (`may_depend_at`, distance `>=
/// 1`). Such a read defeats versions (version `i mod V` holds iteration
/// `i`'s writes only).
///
/// `threads` (GPU code): a read may see another thread's writes, so each
/// index is split into its part that is the same in every thread (loop
/// iterations, trip counts, constants: [`uniform_part`]) and the rest. A
/// read is covered by a write as [`covers_in_block`] says (the tile a block
/// copies together and then reads); a read only taken to be covered
/// ([`Cover::Assumed`]) is still tested against every other write. The
/// carried test compares the uniform dimensions only, every other being
/// any position.
fn carried_read(
    forms: &mut Forms,
    l: &OperationRef,
    on: &[&Access],
    threads: bool,
    paths_checked: bool,
) -> Option<(usize, usize)> {
    let projected: Vec<Option<Region>> = on
        .iter()
        .map(|a| {
            let mut region = a.region.clone()?;
            if let Some(dims) = region.dims.as_mut() {
                for dim in dims.iter_mut() {
                    if matches!(dim, Dim::Range { start, .. } if !uniform_part(start).1) {
                        *dim = Dim::Any;
                    }
                }
            }
            Some(region)
        })
        .collect();
    on.iter()
        .enumerate()
        .filter(|(_, r)| r.kind == AccessKind::Read)
        .find_map(|(ri, r)| {
            // The writes taken to cover `r` ([`Cover::Assumed`]).
            let mut assumed = Vec::new();
            for (wi, w) in on.iter().enumerate() {
                let earlier = w.kind == AccessKind::Write
                    && (w.k, w.nested) < (r.k, r.nested)
                    && (if paths_checked {
                        guards(&w.op, l, true).is_some()
                    } else {
                        runs_whenever(&w.op, &r.op, l)
                    });
                if !earlier {
                    continue;
                }
                let cover = if threads {
                    covers_in_block(forms, w, r, l)
                } else if covers(forms, w, r) {
                    Cover::Exact
                } else {
                    Cover::No
                };
                match cover {
                    Cover::Exact => return None,
                    Cover::Assumed => assumed.push(wi),
                    Cover::No => {}
                }
            }
            on.iter()
                .enumerate()
                .filter(|(wi, w)| w.kind == AccessKind::Write && !assumed.contains(wi))
                .filter(|(_, w)| {
                    // A write of the same elements in every iteration, earlier
                    // than the read, overwrites what an earlier iteration
                    // wrote there before the read (all of them: not a
                    // masked one, trial 45).
                    !((w.k, w.nested) < (r.k, r.nested)
                        && (paths_checked || runs_whenever(&w.op, &r.op, l))
                        && w.definite
                        && same_in_every_iteration(w, l))
                })
                .find(|(wi, w)| {
                    let (rw, rr) = if threads {
                        (&projected[*wi], &projected[ri])
                    } else {
                        (&w.region, &r.region)
                    };
                    let (Some(rw), Some(rr)) = (rw, rr) else {
                        return true;
                    };
                    may_depend_at(
                        forms,
                        (rw, Some(&w.op)),
                        (rr, Some(&r.op)),
                        l,
                        IterationDistance::AtLeast(1),
                    )
                    .may()
                })
                .map(|(wi, _)| (ri, wi))
        })
}

/// True if `w` writes the same elements in every iteration of `l`: its
/// region mentions neither the iteration of `l` nor a value computed in
/// the loop, and the ops between it and `l` are `scf.if`,
/// `scf.index_switch` and `scf.for` loops whose bounds are computed before
/// `l`.
fn same_in_every_iteration(w: &Access, l: &OperationRef) -> bool {
    let Some(region) = &w.region else {
        return false;
    };
    let mut symbols = Vec::new();
    region.symbols(&mut symbols);
    let lp = l.to_raw().ptr as usize;
    if symbols.iter().any(|s| match s {
        Symbol::Iteration(x) | Symbol::Trips(x) => *x == lp,
        Symbol::Value(k) => access::values::defined_inside(*k, l),
        Symbol::Stale(_) | Symbol::OtherThread(_) | Symbol::Fresh(_) | Symbol::Counter(_) => true,
    }) {
        return false;
    }
    if region
        .dims
        .as_ref()
        .is_some_and(|d| d.iter().any(|d| matches!(d, Dim::Any)))
    {
        return false;
    }
    for parent in ops::ancestors(&w.op) {
        if parent == *l {
            return true;
        }
        let invariant_bounds = ops::is(&parent, "scf.for")
            && parent
                .operands()
                .take(3)
                .all(|v| !access::values::defined_inside(v.to_raw().ptr as usize, l));
        if !(invariant_bounds || ops::is(&parent, "scf.if") || ops::is(&parent, "scf.index_switch"))
        {
            return false;
        }
    }
    false
}

/// `index` split into the part that is the same in every thread of a
/// block (the constant and the atoms over loop iterations and trip counts
/// only) and whether that is all of it.
fn uniform_part(index: &Lin) -> (Lin, bool) {
    let mut part = Lin::constant(index.constant_term());
    let mut whole = true;
    for (atom, c) in index.terms() {
        let term = Lin::atom(atom.clone());
        let mut symbols = Vec::new();
        term.symbols(&mut symbols);
        if symbols
            .iter()
            .all(|s| matches!(s, Symbol::Iteration(_) | Symbol::Trips(_)))
        {
            match part.plus(&term, c) {
                Some(sum) => part = sum,
                None => whole = false,
            }
        } else {
            whole = false;
        }
    }
    (part, whole)
}

/// [`covers`] across the threads of a block (see [`carried_read`]): the
/// write's region is the whole buffer, or in every dimension
/// - where the write's index depends on the thread, the uniform part of
///   the read's index differs from the write's by something that does not
///   depend on the iteration of `l` (the block's threads together write
///   the tile along that dimension; the read picks any position of it);
/// - where it does not, the read's index is uniform too and its range
///   lies within the write's by a constant difference.
///
/// Where no index of either depends on the thread, [`covers`] decides.
fn covers_in_block(forms: &mut Forms, w: &Access, r: &Access, l: &OperationRef) -> Cover {
    let exact = |b: bool| if b { Cover::Exact } else { Cover::No };
    if !w.definite {
        return Cover::No;
    }
    let (dw, dr) = match dimensions_to_compare(w, r) {
        Ok(dims) => dims,
        Err(answer) => return exact(answer),
    };
    let same_in_every_thread = |dims: &[Dim]| {
        dims.iter()
            .all(|d| matches!(d, Dim::Range { start, .. } if uniform_part(start).1))
    };
    if same_in_every_thread(dw) && same_in_every_thread(dr) {
        // No index depends on the thread: the test of one thread is exact.
        return exact(covers(forms, w, r));
    }
    let iteration = Symbol::Iteration(l.to_raw().ptr as usize);
    let mut assumed = false;
    let all = dw.iter().zip(dr).all(|(a, b)| {
        let Some((sw, ew, sr, er)) = Dim::ranges(a, b) else {
            return false;
        };
        let ((uw, whole_w), (ur, whole_r)) = (uniform_part(sw), uniform_part(sr));
        if whole_w {
            // `[sr, sr + er)` within `[sw, sw + ew)`.
            whole_r
                && ur.plus(&uw, -1).is_some_and(|d| match d.as_constant() {
                    Some(d) => d >= 0 && d + er <= ew,
                    None => d == Lin::constant(0) && ew >= er,
                })
        } else {
            let Some(shift) = ur.plus(&uw, -1).filter(|d| !d.mentions(iteration)) else {
                return false;
            };
            // The thread-dependent parts (trial 43: a read of `buf[tid +
            // 8]` was taken as covered by the copy into `buf[tid]` of a
            // block of 8 threads, which writes `buf[0..8)` only).
            let (Some(rest_w), Some(rest_r)) = (sw.plus(&uw, -1), sr.plus(&ur, -1)) else {
                return false;
            };
            if rest_r == rest_w {
                // Each thread reads within what it writes itself.
                return shift.as_constant().is_some_and(|d| d >= 0 && d + er <= ew);
            }
            match block_union(&rest_w, l).zip(bounds(&rest_r)) {
                // The block's threads write `[uw, uw + B - 1 + ew)`; the
                // read is within it.
                Some((threads, (lo, hi))) => shift
                    .as_constant()
                    .is_some_and(|d| d + lo >= 0 && d + hi + er <= threads - 1 + ew),
                // Otherwise the read is taken to pick a position of the
                // tile the block writes (a block size the kernel does not
                // state, an index of unknown bounds: docs/pipelining.md).
                None => {
                    assumed = true;
                    true
                }
            }
        }
    });
    match (all, assumed) {
        (false, _) => Cover::No,
        (true, false) => Cover::Exact,
        (true, true) => Cover::Assumed,
    }
}

/// How a write covers a read across the threads of a block
/// ([`covers_in_block`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cover {
    /// Every position the read may take is written first.
    Exact,
    /// Taken to be so: the read picks a position of the tile the block's
    /// threads write together, which the indices do not show. The write's
    /// own earlier iterations are then not a carried dependence of the
    /// read; every other write still is (trial 44: a counter `buf[8]`
    /// that one thread stores, beside a copy into `buf[tid]` in a kernel of
    /// unstated block size, was lost to versions).
    Assumed,
    /// Not shown.
    No,
}

/// The number of threads `B` along the dimension of the thread id `x` is
/// (`x` being exactly one block thread id), where the kernel states its
/// block size: the write `uw + x` of every thread covers `[uw, uw + B)`.
fn block_union(x: &Lin, l: &OperationRef) -> Option<i64> {
    let Symbol::Value(k) = x.as_symbol()? else {
        return None;
    };
    // SAFETY: symbol keys are made from live values of the function.
    let value = unsafe { access::values::value_of(k) };
    let d = access::values::block_thread_id_dimension(value)?;
    access::values::known_block_size(l, d)
}

/// Constant bounds `[lo, hi]` of `x`: a constant, or `x mod V` (with a
/// constant added) in `[0, V - 1]` (`remsi`: `[-(V - 1), V - 1]`).
fn bounds(x: &Lin) -> Option<(i64, i64)> {
    if let Some(c) = x.as_constant() {
        return Some((c, c));
    }
    let mut terms = x.terms();
    let (atom, 1) = terms.next()? else {
        return None;
    };
    if terms.next().is_some() {
        return None;
    }
    let c = x.plus(&Lin::atom(atom.clone()), -1)?.as_constant()?;
    match atom {
        // `remsi` keeps the dividend's sign: `(-V, V)`.
        access::affine::Atom::Mod(_, v, access::affine::Signedness::Signed) => {
            Some((c.checked_sub(v - 1)?, c.checked_add(v - 1)?))
        }
        access::affine::Atom::Mod(_, v, _) => Some((c, c.checked_add(v - 1)?)),
        _ => None,
    }
}

/// The dimensions of the regions of `w` and `r` for [`covers`] and
/// [`covers_in_block`], or the answer without them: `Err(false)` for
/// different roots, a whole-buffer read, or different ranks; `Err(true)`
/// for a whole-buffer write.
fn dimensions_to_compare<'x>(w: &'x Access, r: &'x Access) -> Result<(&'x [Dim], &'x [Dim]), bool> {
    let (Some(rw), Some(rr)) = (&w.region, &r.region) else {
        return Err(false);
    };
    if rw.root != rr.root {
        return Err(false);
    }
    let Some(dw) = &rw.dims else {
        return Err(true);
    };
    match &rr.dims {
        Some(dr) if dr.len() == dw.len() => Ok((dw, dr)),
        _ => Err(false),
    }
}

/// `(condition value, branch)` of each `scf.if` / `scf.index_switch`
/// (selector value, case region) between `op` and the loop `l` whose
/// condition is computed in the loop body; `None` if another op
/// lies between and `strict`.
fn guards(op: &OperationRef, l: &OperationRef, strict: bool) -> Option<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    let mut child = *op;
    for parent in ops::ancestors(op) {
        if parent == *l {
            return Some(out);
        }
        if !ops::is(&parent, "scf.if") && !ops::is(&parent, "scf.index_switch") {
            if strict {
                return None;
            }
            child = parent;
            continue;
        }
        let condition = parent.operand_at(0)?.to_raw().ptr as usize;
        // A condition that does not change between iterations: when it
        // is false, no iteration runs `op`.
        if access::values::defined_inside(condition, l) {
            out.push((condition, access::values::region_index(&parent, &child)?));
        }
        child = parent;
    }
    None
}

/// True if `w` runs whenever `r` runs in an iteration of `l`: every
/// ancestor of `w` in the body is an `scf.if`, and each whose condition is
/// computed in the body has `r` under the same condition value and branch
/// too. (A condition defined outside the loop is the same in every
/// iteration: when it is false, no iteration runs `w`, and a buffer that
/// gets versions holds no data from before the loop, `multi_buffer`.)
fn runs_whenever(w: &OperationRef, r: &OperationRef, l: &OperationRef) -> bool {
    let (Some(gw), Some(gr)) = (guards(w, l, true), guards(r, l, false)) else {
        return false;
    };
    gw.iter().all(|g| gr.contains(g))
}

/// True if the region of `w` holds every element of the region of `r` in
/// every iteration (same root; per dimension `sw <= sr` and `sr + er <= sw
/// + ew` wherever `r` runs, by its context).
fn covers(forms: &mut Forms, w: &Access, r: &Access) -> bool {
    if !w.definite {
        return false;
    }
    let (dw, dr) = match dimensions_to_compare(w, r) {
        Ok(dims) => dims,
        Err(answer) => return answer,
    };
    let context = forms.context(&r.op, None);
    dw.iter().zip(dr).all(|(a, b)| {
        let Some((sw, ew, sr, er)) = Dim::ranges(a, b) else {
            return false;
        };
        // Infeasible: sr < sw (sw - sr - 1 >= 0), and sr + er > sw + ew.
        let below = sw.plus(sr, -1).and_then(|x| x.offset(-1));
        let above = sr.plus(sw, -1).and_then(|x| x.offset(er - ew - 1));
        [below, above].into_iter().all(|violation| {
            let Some(violation) = violation else {
                return false;
            };
            let mut system = context.clone();
            system.push(Constraint::NonNeg(violation));
            forms.add_facts(&mut system);
            !system.feasible().may()
        })
    })
}
