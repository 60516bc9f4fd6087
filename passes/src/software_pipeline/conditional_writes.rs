//! Conditional writes of a multi-buffered buffer (RFC 0077
//! "Multi-buffering" assumes every iteration writes the buffer it versions).
//!
//! With `V` versions, iteration `i` writes version `i mod V` and its later
//! stages read that version. An iteration that skips a copy leaves in its
//! version the data of iteration `i − V`, where the input loop would read
//! that of the last iteration that wrote: the results differ. So the
//! pipeliner warns exactly when some path through an iteration reads a part
//! of the buffer that some iteration writes but this path does not.
//!
//! Algorithm ([`skipped_write`]):
//! 1. walk the loop body, keeping the guard of each op: the branch of each
//!    enclosing `scf.if` (condition value, then/else) and `scf.index_switch`
//!    (selector value, case or default) inside the body; an op in a nested
//!    `scf.for` whose bounds do not change between iterations runs equally
//!    often in each (no difference between paths); in any other region op
//!    (a loop with bounds of the iteration) an unknown number of times;
//! 2. collect the writes of the buffer (`apipe.copy` into it, and plain
//!    `memref.store` / `vector.store`s of it; one run an
//!    unknown number of times is never counted as certain) and its reads (every other use; a
//!    load, a vector load or a copy out of it reads a known region, any
//!    other use the whole buffer);
//! 3. enumerate the paths: every assignment of the guard values (`scf.if`
//!    conditions true/false, selectors over their cases and "other"), at
//!    most [`MAX_PATHS`]; a value that does not change between iterations
//!    ([`varies`]: defined outside the loop, or computed from such values
//!    by ops with no memory effects) is the same on all the iterations
//!    compared;
//! 4. on each path `P`, each read `r` active on `P` needs every write `w`
//!    before it (in the body's order) that some path `P'` (with the same
//!    loop-invariant values) makes and that may overlap `r` to be made on
//!    `P` too, before `r` (a write after `r` does not give `r` its
//!    iteration's data; writes after the read are the carried reads of
//!    `super::dependences`): the same destination
//!    (same index values and element count), or, for constant indices,
//!    covered by the constant intervals `P` writes. The first write that
//!    fails is the one reported.
//!
//! Regions are compared structurally, so the answer is exact for constant
//! indices and for the same index values on every path; with different
//! dynamic indices the writes may overlap and the warning is kept.

use super::analysis::key;
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{attributes, ops};
use melior::ir::{
    operation::OperationLike,
    r#type::{MemRefType, ShapedTypeLike},
    BlockLike, Location, OperationRef, RegionLike, TypeLike, Value, ValueLike,
};
use std::collections::{BTreeMap, BTreeSet};

/// The most paths enumerated; beyond, the warning is kept (conservative).
const MAX_PATHS: usize = 4096;

/// One condition on a path.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Literal {
    /// `scf.if` branch: the condition value is true / false.
    Is(bool),
    /// `scf.index_switch` case: the selector equals this value.
    Case(i64),
    /// `scf.index_switch` default: the selector is none of these.
    NoneOf(Vec<i64>),
}

/// The conditions (guard value key, literal) under which an op runs; `None`
/// for an op nested in a loop (it may run any number of times).
type Guard = Option<Vec<(usize, Literal)>>;

/// The elements of the buffer an access touches.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Region {
    /// Linear element interval `[lo, hi)` (constant indices).
    Interval(i128, i128),
    /// Index value keys (or constants) and a count: equal regions are
    /// structurally equal.
    Symbolic(Vec<Result<i64, usize>>, i64),
    /// Not known: the whole buffer.
    Unknown,
}

impl Region {
    /// Reads the region `count` elements from `indices` in a buffer of
    /// static `shape` (identity layout).
    fn of(indices: &[Value], count: Option<i64>, shape: &[i64]) -> Self {
        let Some(count) = count.filter(|c| *c > 0) else {
            return Region::Unknown;
        };
        if indices.len() != shape.len() {
            return Region::Unknown;
        }
        let parts: Vec<Result<i64, usize>> = indices
            .iter()
            .map(|v| ops::constant_int(*v).ok_or(key(v.to_raw())))
            .collect();
        if parts.iter().all(|p| p.is_ok()) {
            let mut linear: i128 = 0;
            for (part, size) in parts.iter().zip(shape) {
                linear = linear * i128::from(*size) + i128::from(*part.as_ref().unwrap());
            }
            return Region::Interval(linear, linear + i128::from(count));
        }
        Region::Symbolic(parts, count)
    }

    fn may_overlap(&self, other: &Region) -> bool {
        match (self, other) {
            (Region::Interval(a, b), Region::Interval(c, d)) => a < d && c < b,
            _ => true,
        }
    }
}

struct Access<'c> {
    guard: Guard,
    /// Its place in the body's walk order: on one path, the order its ops
    /// run in within an iteration.
    order: usize,
    region: Region,
    /// Where the write is and its op name (writes only).
    location: Option<(Location<'c>, &'static str)>,
}

/// Step 1-2: the writes and reads of `buffer` in the ops of `block_ops`
/// under `guard`.
fn collect<'c>(
    block_ops: &[OperationRef<'c, '_>],
    buffer: usize,
    shape: &[i64],
    guard: &Guard,
    varies: &dyn Fn(usize) -> bool,
    writes: &mut Vec<Access<'c>>,
    reads: &mut Vec<Access<'c>>,
) {
    for op in block_ops {
        let uses: Vec<usize> = op
            .operands()
            .enumerate()
            .filter(|(_, v)| key(v.to_raw()) == buffer)
            .map(|(i, _)| i)
            .collect();
        let operands: Vec<Value> = op.operands().collect();
        if ops::is(op, ops::COPY) {
            let src_rank = MemRefType::try_from(operands[0].r#type()).map_or(0, |t| t.rank());
            let dst_rank = MemRefType::try_from(operands[1].r#type()).map_or(0, |t| t.rank());
            let elements = attributes::integer(op, attributes::ELEMENTS);
            let indices = &operands[2..];
            if uses.contains(&1) && indices.len() >= src_rank + dst_rank {
                writes.push(Access {
                    guard: guard.clone(),
                    order: writes.len() + reads.len(),
                    region: Region::of(&indices[src_rank..src_rank + dst_rank], elements, shape),
                    location: Some((op.location(), "apipe.copy")),
                });
            }
            if uses.contains(&0) && indices.len() >= src_rank {
                let read = if indices.len() > src_rank + dst_rank {
                    ops::constant_int(*indices.last().unwrap())
                } else {
                    elements
                };
                reads.push(Access {
                    guard: guard.clone(),
                    order: writes.len() + reads.len(),
                    region: Region::of(&indices[..src_rank], read, shape),
                    location: None,
                });
            }
        } else if uses == [1] && matches!(ops::name(op), "memref.store" | "vector.store") {
            // A plain write of the buffer (its value operand is not the
            // buffer): a write like a copy's, which some paths may skip.
            let (name, count) = if ops::is(op, "memref.store") {
                ("memref.store", Some(1))
            } else {
                ("vector.store", vector_elements_of(operands[0]))
            };
            writes.push(Access {
                guard: guard.clone(),
                order: writes.len() + reads.len(),
                region: Region::of(&operands[2..], count, shape),
                location: Some((op.location(), name)),
            });
        } else if !uses.is_empty() {
            let region = match ops::name(op) {
                "memref.load" if uses == [0] => Region::of(&operands[1..], Some(1), shape),
                "vector.load" if uses == [0] => {
                    Region::of(&operands[1..], vector_elements(op), shape)
                }
                _ => Region::Unknown,
            };
            reads.push(Access {
                guard: guard.clone(),
                order: writes.len() + reads.len(),
                region,
                location: None,
            });
        }
        // Nested regions.
        let name = ops::name(op);
        for (index, region) in op.regions().enumerate() {
            let inner_guard: Guard = match (name, guard) {
                (_, None) => None,
                ("scf.if", Some(g)) => {
                    let mut g = g.clone();
                    g.push((key(operands[0].to_raw()), Literal::Is(index == 0)));
                    Some(g)
                }
                ("scf.index_switch", Some(g)) => {
                    let cases = dense_i64(op, "cases");
                    let mut g = g.clone();
                    let literal = if index == 0 {
                        Literal::NoneOf(cases)
                    } else {
                        Literal::Case(cases.get(index - 1).copied().unwrap_or(i64::MIN))
                    };
                    g.push((key(operands[0].to_raw()), literal));
                    Some(g)
                }
                ("scf.execute_region", Some(g)) => Some(g.clone()),
                // A loop whose bounds are the same in every iteration runs
                // its body equally often in each: no path difference.
                ("scf.for", Some(g)) if operands[..3].iter().all(|v| !varies(key(v.to_raw()))) => {
                    Some(g.clone())
                }
                _ => None,
            };
            let mut block = region.first_block();
            while let Some(b) = block {
                let mut inner = Vec::new();
                let mut next = b.first_operation();
                while let Some(o) = next {
                    inner.push(o);
                    next = o.next_in_block();
                }
                collect(&inner, buffer, shape, &inner_guard, varies, writes, reads);
                block = b.next_in_region();
            }
        }
    }
}

/// The element count of the 1-D vector `op` returns (`vector.load`).
fn vector_elements(op: &OperationRef) -> Option<i64> {
    vector_elements_of(op.result_at(0)?.into())
}

/// The element count of the 1-D vector `value` (`vector.store`'s value).
fn vector_elements_of(value: Value) -> Option<i64> {
    let ty = value.r#type().to_raw();
    // SAFETY: a live type; the shaped accessors are called on a vector.
    unsafe {
        (mlir_sys::mlirTypeIsAVector(ty) && mlir_sys::mlirShapedTypeGetRank(ty) == 1)
            .then(|| mlir_sys::mlirShapedTypeGetDimSize(ty, 0))
    }
}

fn dense_i64(op: &OperationRef, name: &str) -> Vec<i64> {
    op.attribute(name)
        .ok()
        .and_then(|a| melior::ir::attribute::DenseI64ArrayAttribute::try_from(a).ok())
        .map(|array| {
            (0..array.len())
                .map(|i| array.element(i).unwrap())
                .collect()
        })
        .unwrap_or_default()
}

/// The value a guard variable takes on one path: a boolean, a selector
/// value, or "none of the cases".
type Assignment = BTreeMap<usize, Option<i64>>;

fn holds(guard: &Guard, assignment: &Assignment) -> bool {
    let Some(guard) = guard else {
        return false;
    };
    guard.iter().all(|(variable, literal)| {
        let value = assignment[variable];
        match literal {
            Literal::Is(b) => value == Some(i64::from(*b)),
            Literal::Case(c) => value == Some(*c),
            Literal::NoneOf(cases) => value.is_none_or(|v| !cases.contains(&v)),
        }
    })
}

/// True if the value with key `v` may differ between two iterations of
/// `loop_op` (the guard values of step 3): a block argument of the loop or
/// of a region inside it (the induction variable, an iter_arg, a nested
/// loop's), or a result of an op inside the loop that has regions, may
/// touch memory (a load reads what earlier iterations stored; MLIR's
/// `MemoryEffectOpInterface`), or has an operand that differs. A value
/// defined outside the loop, or computed inside it from such values alone
/// by ops with no memory effects (`tid < 3`), is the same in every
/// iteration, and so is the result of an `scf.if` / `scf.index_switch`
/// whose condition and yields are. Nested values count too: a condition computed from the
/// induction variable inside an `scf.if` of the body (it was taken to be
/// the same in every iteration, a miscompile: a copy under `i mod 2 == 0`
/// inside `scf.if %p` was multi-buffered). `memo` keeps the answers of one
/// loop.
pub(crate) fn varies(
    loop_op: &OperationRef,
    v: usize,
    memo: &std::cell::RefCell<rustc_hash::FxHashMap<usize, bool>>,
) -> bool {
    if let Some(&known) = memo.borrow().get(&v) {
        return known;
    }
    let inside = |op: &OperationRef| ops::is_inside(op, loop_op);
    // SAFETY: keys come from live values of the loop under analysis.
    let value = unsafe { crate::access::values::value_of(v) };
    // Taken to vary while its operands are followed (a cycle through a
    // region cannot form in SSA; this bounds the depth of odd IR).
    memo.borrow_mut().insert(v, true);
    let answer = if let Some(op) = ops::defining_op(value) {
        let branch = ops::is(&op, "scf.if") || ops::is(&op, "scf.index_switch");
        if branch && inside(&op) {
            // A branch op's result is what the region taken yields at its
            // position: the same in every iteration when the condition and
            // every region's yield there are (trial 89: `scf.if %true ->
            // i1 { cmpi ult, %n, %c5 }` of an argument `%n`).
            // SAFETY: `value` is a result of the live op `op`.
            let j = unsafe { mlir_sys::mlirOpResultGetResultNumber(value.to_raw()) } as usize;
            let condition = op.operand(0).ok().map(|c| key(c.to_raw()));
            let yielded: Vec<Option<usize>> = op
                .regions()
                .map(|r| {
                    r.first_block()
                        .and_then(|b| b.terminator())
                        .and_then(|t| t.operand(j).ok())
                        .map(|y| key(y.to_raw()))
                })
                .collect();
            let answer = condition.is_none_or(|c| varies(loop_op, c, memo))
                || yielded
                    .into_iter()
                    .any(|y| y.is_none_or(|y| varies(loop_op, y, memo)));
            memo.borrow_mut().insert(v, answer);
            return answer;
        }
        inside(&op)
            && (op.region_count() > 0
                || !apipe_dialect::effects::memory_effects(&op)
                    .declared
                    .is_some_and(|effects| effects.is_empty())
                || op
                    .operands()
                    .any(|o| varies(loop_op, key(o.to_raw()), memo)))
    } else {
        crate::access::values::block_argument(value)
            .and_then(|(block, _)| block.parent_operation())
            .is_none_or(|owner| inside(&owner))
    };
    memo.borrow_mut().insert(v, answer);
    answer
}

/// The write into `buffer` (a multi-buffered buffer of static `shape`: an
/// `apipe.copy`, `memref.store` or `vector.store`; its location and op
/// name) that some path through an iteration of the loop with body `body`
/// skips while a read on that path may need its data; `None` if every path writes
/// whatever it reads. `varies(key)` tells whether a guard value may change
/// between iterations.
pub(crate) fn skipped_write<'c>(
    body: &[OperationRef<'c, '_>],
    buffer: usize,
    shape: &[i64],
    varies: &dyn Fn(usize) -> bool,
) -> Option<(Location<'c>, &'static str)> {
    let mut writes = Vec::new();
    let mut reads = Vec::new();
    collect(
        body,
        buffer,
        shape,
        &Some(Vec::new()),
        varies,
        &mut writes,
        &mut reads,
    );
    if writes.is_empty() {
        return None;
    }
    // 3. The guard variables and their values.
    let mut domains: BTreeMap<usize, BTreeSet<Option<i64>>> = BTreeMap::new();
    for access in writes.iter().chain(&reads) {
        for (variable, literal) in access.guard.iter().flatten() {
            let domain = domains.entry(*variable).or_default();
            match literal {
                Literal::Is(_) => {
                    domain.insert(Some(0));
                    domain.insert(Some(1));
                }
                Literal::Case(c) => {
                    domain.insert(Some(*c));
                    domain.insert(None);
                }
                Literal::NoneOf(cases) => {
                    domain.extend(cases.iter().map(|c| Some(*c)));
                    domain.insert(None);
                }
            }
        }
    }
    let path_count = domains
        .values()
        .try_fold(1usize, |n, d| n.checked_mul(d.len()));
    if path_count.is_none_or(|n| n > MAX_PATHS) {
        // Too many paths: keep the warning when some write is conditional.
        return writes
            .iter()
            .find(|w| w.guard.as_ref().is_none_or(|g| !g.is_empty()))
            .and_then(|w| w.location);
    }
    let variables: Vec<usize> = domains.keys().copied().collect();
    let mut paths: Vec<Assignment> = vec![Assignment::new()];
    for variable in &variables {
        paths = paths
            .into_iter()
            .flat_map(|path| {
                domains[variable].iter().map(move |value| {
                    let mut path = path.clone();
                    path.insert(*variable, *value);
                    path
                })
            })
            .collect();
    }
    let invariant_part = |path: &Assignment| -> Vec<(usize, Option<i64>)> {
        path.iter()
            .filter(|(v, _)| !varies(**v))
            .map(|(v, x)| (*v, *x))
            .collect()
    };
    // 4.
    for path in &paths {
        let made_on_path: Vec<&Access> = writes.iter().filter(|w| holds(&w.guard, path)).collect();
        // What this path writes before `read` (trial 43: a store after the
        // read matched a conditional one before it, so the iterations that
        // skip the conditional store read another version's data).
        let covered = |w: &Access, read: &Access| {
            let made: Vec<&&Access> = made_on_path
                .iter()
                .filter(|m| m.order < read.order)
                .collect();
            let read = &read.region;
            if made.iter().any(|m| m.region == w.region) {
                return true;
            }
            let Region::Interval(lo, hi) = w.region else {
                return false;
            };
            // The part of `w` that the read may touch, covered by the
            // constant intervals made on this path.
            let (lo, hi) = match read {
                Region::Interval(a, b) => (lo.max(*a), hi.min(*b)),
                _ => (lo, hi),
            };
            let mut intervals: Vec<(i128, i128)> = made
                .iter()
                .filter_map(|m| match m.region {
                    Region::Interval(a, b) => Some((a, b)),
                    _ => None,
                })
                .collect();
            intervals.sort();
            let mut reached = lo;
            for (a, b) in intervals {
                if a <= reached && b > reached {
                    reached = b;
                }
            }
            reached >= hi
        };
        let same_invariants = invariant_part(path);
        for read in reads
            .iter()
            .filter(|r| r.guard.is_none() || holds(&r.guard, path))
        {
            // The writes before the read (those after it are the carried
            // reads of `super::dependences`).
            for w in writes.iter().filter(|w| w.order < read.order) {
                let made_elsewhere = paths.iter().any(|other| {
                    invariant_part(other) == same_invariants
                        && (w.guard.is_none() || holds(&w.guard, other))
                });
                if made_elsewhere && w.region.may_overlap(&read.region) && !covered(w, read) {
                    return w.location;
                }
            }
        }
    }
    None
}
