//! `apipe-check-hazards`: the static hazard check (DESIGN.md sections 3 and
//! 5; issue 6). It does not change the IR.
//!
//! Under the semantic model of DESIGN.md section 3, an `apipe.copy` reads
//! `src` and writes `dst` at one moment between its issue and the completion
//! of its group; groups of a queue complete in FIFO order; `wait_group` and
//! `wait` complete groups for the waiting thread only. The check reports:
//! - **uncovered read**: a read (`memref.load`, `vector.load`,
//!   `vector.transfer_read`, `memref.copy` source, `apipe.copy` source, a
//!   call's memref arguments, conservatively) of a
//!   region that an async copy writes, while that copy's group may be
//!   incomplete on some path (a missing, misplaced or too weak wait, or a
//!   buffer overwritten by the copy of a later iteration before the read:
//!   early overwrite);
//! - **early overwrite** by an async copy of a region that an earlier async
//!   copy reads (its `src`), while the reading copy's group may be incomplete;
//! - **store over an in-flight copy**: a plain write (`memref.store`,
//!   `vector.store`, `vector.transfer_write`, `memref.copy` target) of a
//!   region that an async copy reads (its `src`: write-after-read) or writes
//!   (its `dst`: write-after-write, the copy may land later and erase the
//!   store), while that copy's group may be incomplete on some path; in a
//!   `gpu.func`, data of other threads' copies needs a `gpu.barrier` after
//!   the wait, as for reads;
//! - **missing barrier** in a `gpu.func`: a read of data that other threads
//!   copied, complete for the copying thread, but with no `gpu.barrier`
//!   between the wait and the read; and a copy into data that other threads
//!   may still be reading, with no `gpu.barrier` after their read. Data is same-thread only when the
//!   indices provably match (their difference is a constant or ranges over
//!   loop induction variables only).
//!
//! Each hazard is a located error at the read (or the overwriting copy) with
//! a note at the copy. A hazard that rests on a conservative answer (two
//! buffers that may alias, index expressions that cannot be compared, a call
//! that is passed the buffer and may read any of it, instances beyond the
//! enumeration limit) is a remark saying so, not an error.
//!
//! Algorithm, per function (`func.func`, `gpu.func`, ...):
//! 1. collect the accesses: each read point with its region, each copy with
//!    its `dst` region (an async write) and its `src` region (an async read);
//!    a region is, per dimension of the root buffer (through
//!    `memref.subview` / `memref.cast`), a linear form over SSA values with
//!    an optional `mod V` (`arith.addi/subi/muli/remui/remsi` of constants,
//!    as the pipeliner's version arithmetic `(j + s) mod V`) and an extent;
//! 2. run the shared group-distance analysis once in its hazard mode
//!    ([`GroupDistance::compute_for_hazards`]) with every read point and copy
//!    as a point: it gives, before each point, the groups committed on a
//!    queue since each copy's most recent execution, the completion frontier
//!    of the waits (every group at distance `F` or more is complete; for
//!    other threads, the frontier at the last `gpu.barrier`), and the groups
//!    per loop iteration. No distance is computed here;
//! 3. for each read point `P` and copy `A` whose regions may overlap, name
//!    the instances of `A` that `P` can see, newest first, `s = 0, 1, ...`:
//!    - `A` and `P` in one `scf.for` (the innermost common one): the
//!      instance `k = k0 + s` iterations back (`k0 = 0` if `A` precedes `P`
//!      in the body, else 1); `A`'s induction variable `iv` becomes
//!      `iv - k * step`;
//!    - `A` in a loop that ended before `P` (an epilogue): the instance of
//!      the last iteration minus `s` (`iv = ub - 1 - s` for step 1, or a
//!      constant for static bounds);
//!    - `P` in a loop that `A` precedes (a prologue copy): `P` in iteration
//!      `t = s` of that loop (`iv = lb + s * step`);
//!    - `A` before a loop with step 1 whose trip count is `n + c` for a
//!      symbol `n` of the index expressions (the pipeliner's dynamic
//!      epilogue), and `P` after it: the point after `s` iterations;
//!
//!    the instance's region is compared with `P`'s, dimension by dimension
//!    (two `mod V` forms whose difference is a constant `d` overlap iff
//!    `d ≡ 0 mod V`; ranges of loop induction variables by intervals); the
//!    first instance that may overlap is the only one to check, since older
//!    instances of one copy on one queue complete no later (FIFO);
//! 4. that instance has at least `D = D0 + s * per_iteration.min` groups
//!    committed after it (`D0`: the analysis's fewest groups since `A`'s most
//!    recent execution at `P`); its group is complete iff `D - 1 >= F.max`
//!    on every path (and `D >= 1`: uncommitted copies are never waited),
//!    or, for the most recent execution, if a wait named the token of the
//!    commit that closed it on every path (a relation the intervals lose when
//!    a branch commits in between);
//!    otherwise report. In a `gpu.func`, data whose indices do not provably
//!    match needs the barrier frontier instead; if only that fails, it is a
//!    missing barrier;
//! 5. async reads: the same for each copy `P` issuing a write against the
//!    `src` regions of the other copies (early overwrite);
//! 6. in a `gpu.func`, each copy against the plain reads of data other
//!    threads may share: if on some path no `gpu.barrier` follows the
//!    read's most recent execution before the copy
//!    ([`GroupDistance::read_since_barrier_at`]), any instance of the read
//!    (named as in step 3) that meets the copy's region is an overwrite
//!    before the barrier;
//! 7. plain stores: the same as steps 3-4 for each store `P` against the
//!    `src` (write-after-read) and `dst` (write-after-write) regions of every
//!    copy.
//!
//! Loops that still carry pipelining annotations (`apipe.stage`,
//! `apipe.async_stages`) are inputs of `apipe-software-pipeline`, which
//! places their synchronization: their accesses are not checked.
//!
//! Preconditions: the IR verifies; the group-distance analysis accepts each
//! function (its errors are reported as they are). Remainders and versions
//! are taken of nonnegative values (indices of in-bounds accesses).
//!
//! Known limits (unchecked, or assumed): instances from an earlier
//! execution of the common loop (an outer iteration) are not enumerated
//! separately; the groups between two points of one iteration are assumed
//! not to depend on whether a copy under `scf.if` ran; a plain store into
//! one buffer while an async copy uses another buffer that may alias it
//! (two function arguments) is not reported; unknown ops other than calls
//! are not treated as reads or writes.
//!
//! Citations: PTX ISA 9.7.9.25.3 (`cp.async`, `cp.async.commit_group`,
//! `cp.async.wait_group`: per-thread completion, a barrier for other
//! threads), RFC 0077 "Asynchronous stage in software pipeline" sections
//! "Inter-stage synchronization" and "Multi-buffering" (versions `iv mod V`),
//! MLIR `memref.subview`, `scf.for`, `gpu.barrier` (MemRefOps.td, SCFOps.td,
//! GPUOps.td).

use crate::{
    group_distance::{self, Distance, GroupDistance, GroupFact},
    options::PassOptions,
    pass::{PassId, RunFn},
    registry::PassInfo,
};
use apipe_dialect::{
    attributes,
    diagnostic::{self, Severity},
    ops, Reported,
};
use melior::{
    ir::{
        attribute::AttributeLike,
        operation::OperationLike,
        r#type::{MemRefType, ShapedTypeLike},
        BlockLike, BlockRef, OperationRef, RegionLike, Type, TypeLike, Value, ValueLike,
    },
    pass::Pass,
};
use std::collections::{BTreeMap, HashMap};

static ID: PassId = PassId::new();

/// The registry entry of `apipe-check-hazards`.
pub static INFO: PassInfo = PassInfo {
    argument: "apipe-check-hazards",
    name: "ApipeCheckHazards",
    summary: "Report reads of async-copied buffers not covered by a wait (RAW), early overwrites (WAR) and missing barriers",
    options: &[],
    run: run as RunFn,
    id: &ID,
    dependent_dialects: Vec::new,
};

/// Creates the `apipe-check-hazards` pass.
pub fn create_check_hazards_pass() -> Pass {
    INFO.create("").expect("no options")
}

fn run(op: OperationRef, _options: &PassOptions) -> Result<(), Reported> {
    check_hazards(&op)
}

/// The kind of a [`Hazard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HazardKind {
    /// A read of a region an async copy may still be writing (RAW).
    UncoveredRead,
    /// An async copy into a region an earlier async copy may still be
    /// reading (WAR).
    EarlyOverwrite,
    /// A read of data other threads copied, with no `gpu.barrier` after the
    /// wait that completes it.
    MissingBarrier,
    /// An async copy into data that other threads may still be reading, with
    /// no `gpu.barrier` between their read and the copy.
    OverwriteBeforeBarrier,
    /// A plain store into a region an async copy may still be reading (its
    /// `src`; WAR).
    StoreOverSource,
    /// A plain store into a region an async copy may still be writing (its
    /// `dst`): the copy may land later and erase it (WAW).
    StoreOverDestination,
}

/// One hazard found by [`find_hazards`].
#[derive(Clone, Debug)]
pub struct Hazard<'c, 'a> {
    /// What kind of hazard.
    pub kind: HazardKind,
    /// True if the hazard rests on a conservative answer (buffers that may
    /// alias, index expressions that could not be compared): a remark.
    pub conservative: bool,
    /// The read (or the overwriting copy or store).
    pub at: OperationRef<'c, 'a>,
    /// The async copy whose group may be incomplete.
    pub copy: OperationRef<'c, 'a>,
    /// The error (or remark) text.
    pub message: String,
    /// The note at the copy.
    pub note: String,
}

/// Runs the check on every function in `root` and emits each hazard: an
/// error (with a note at the copy), or a remark when conservative. The IR is
/// not changed.
///
/// # Errors
/// `Err(Reported)` if a hazard error was emitted or the group-distance
/// analysis refused a function (its errors are emitted).
pub fn check_hazards<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) -> Result<(), Reported> {
    let hazards = find_hazards(root)?;
    let mut ok = true;
    for hazard in &hazards {
        let severity = if hazard.conservative {
            Severity::Remark
        } else {
            ok = false;
            Severity::Error
        };
        diagnostic::emit(
            hazard.at.location(),
            severity,
            &hazard.message,
            &[(hazard.copy.location(), hazard.note.as_str())],
        );
    }
    if ok {
        Ok(())
    } else {
        Err(Reported)
    }
}

/// The hazards of every function in `root`, in program order of the reads.
///
/// # Errors
/// The group-distance analysis refused a function (errors emitted).
pub fn find_hazards<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
) -> Result<Vec<Hazard<'c, 'a>>, Reported> {
    let mut out = Vec::new();
    let mut ok = true;
    for function in group_distance::functions(root) {
        match check_function(function) {
            Ok(mut hazards) => out.append(&mut hazards),
            Err(Reported) => ok = false,
        }
    }
    if ok {
        Ok(out)
    } else {
        Err(Reported)
    }
}

// ---------------------------------------------------------------------------
// Index expressions: linear forms over SSA values, with an optional `mod V`.

type Key = usize;

fn key(value: Value) -> Key {
    value.to_raw().ptr as usize
}

fn op_key<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Key {
    op.to_raw().ptr as usize
}

/// `constant + sum(coefficient * symbol)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Lin {
    terms: BTreeMap<Key, i64>,
    constant: i64,
}

impl Lin {
    fn constant(c: i64) -> Self {
        Lin {
            terms: BTreeMap::new(),
            constant: c,
        }
    }

    fn symbol(symbol: Key) -> Self {
        Lin {
            terms: BTreeMap::from([(symbol, 1)]),
            constant: 0,
        }
    }

    fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }

    fn plus(&self, other: &Lin, factor: i64) -> Lin {
        let mut out = self.clone();
        out.constant = out
            .constant
            .saturating_add(other.constant.saturating_mul(factor));
        for (symbol, coefficient) in &other.terms {
            let entry = out.terms.entry(*symbol).or_insert(0);
            *entry = entry.saturating_add(coefficient.saturating_mul(factor));
        }
        out.terms.retain(|_, c| *c != 0);
        out
    }

    fn scaled(&self, factor: i64) -> Lin {
        Lin::default().plus(self, factor)
    }

    /// Replaces `symbol` by `by`.
    fn substitute(&self, symbol: Key, by: &Lin) -> Lin {
        let Some(&coefficient) = self.terms.get(&symbol) else {
            return self.clone();
        };
        let mut out = self.clone();
        out.terms.remove(&symbol);
        out.plus(by, coefficient)
    }

    /// The range of values over the symbols' intervals, if each has one.
    fn interval(&self, intervals: &HashMap<Key, (i64, i64)>) -> Option<(i64, i64)> {
        let mut lo = self.constant;
        let mut hi = self.constant;
        for (symbol, coefficient) in &self.terms {
            let (a, b) = intervals.get(symbol)?;
            let (x, y) = (
                a.saturating_mul(*coefficient),
                b.saturating_mul(*coefficient),
            );
            lo = lo.saturating_add(x.min(y));
            hi = hi.saturating_add(x.max(y));
        }
        Some((lo, hi))
    }
}

/// An index: `lin`, or `lin mod modulus`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Term {
    lin: Lin,
    modulus: Option<i64>,
}

impl Term {
    fn constant(c: i64) -> Self {
        Term {
            lin: Lin::constant(c),
            modulus: None,
        }
    }

    fn symbol(value: Value) -> Self {
        Term {
            lin: Lin::symbol(key(value)),
            modulus: None,
        }
    }

    /// Folds `c mod V` to a constant.
    fn normalized(self) -> Self {
        match (self.modulus, self.lin.as_constant()) {
            (Some(modulus), Some(c)) => Term::constant(c.rem_euclid(modulus)),
            _ => self,
        }
    }

    fn substitute(&self, symbol: Key, by: &Lin) -> Term {
        Term {
            lin: self.lin.substitute(symbol, by),
            modulus: self.modulus,
        }
        .normalized()
    }
}

fn defining_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    // SAFETY: `value` is live; the owner of an op result is a live op.
    unsafe {
        if !mlir_sys::mlirValueIsAOpResult(value.to_raw()) {
            return None;
        }
        Some(OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(
            value.to_raw(),
        )))
    }
}

/// Step 1: the term of an index value.
fn term_of(value: Value, depth: usize) -> Term {
    if let Some(c) = group_distance::constant_int(value) {
        return Term::constant(c);
    }
    let Some(op) = defining_op(value).filter(|_| depth < 16) else {
        return Term::symbol(value);
    };
    let operand = |i: usize| term_of(op.operand(i).unwrap(), depth + 1);
    let linear = |t: Term| (t.modulus.is_none()).then_some(t.lin);
    let result = match ops::name(&op).as_str() {
        "arith.addi" | "arith.subi" => {
            let factor = if ops::is(&op, "arith.addi") { 1 } else { -1 };
            match (operand(0), operand(1)) {
                // `x + 0` keeps a `mod` form (a subview offset plus index 0).
                (t, zero) | (zero, t) if factor == 1 && zero == Term::constant(0) => Some(t),
                (a, b) => linear(a).zip(linear(b)).map(|(a, b)| Term {
                    lin: a.plus(&b, factor),
                    modulus: None,
                }),
            }
        }
        "arith.muli" => {
            let (a, b) = (operand(0), operand(1));
            match (a.lin.as_constant(), b.lin.as_constant()) {
                (_, Some(c)) if b.modulus.is_none() => linear(a).map(|a| Term {
                    lin: a.scaled(c),
                    modulus: None,
                }),
                (Some(c), _) if a.modulus.is_none() => linear(b).map(|b| Term {
                    lin: b.scaled(c),
                    modulus: None,
                }),
                _ => None,
            }
        }
        "arith.remui" | "arith.remsi" => {
            let (a, b) = (operand(0), operand(1));
            match b.lin.as_constant() {
                Some(modulus) if modulus > 0 && a.modulus.is_none() && b.modulus.is_none() => Some(
                    Term {
                        lin: a.lin,
                        modulus: Some(modulus),
                    }
                    .normalized(),
                ),
                _ => None,
            }
        }
        "arith.index_cast" | "arith.index_castui" => Some(operand(0)),
        _ => None,
    };
    result.unwrap_or_else(|| Term::symbol(value))
}

// ---------------------------------------------------------------------------
// Regions.

/// One dimension of the root buffer: positions `[term, term + extent)`;
/// `unknown`: any position (an access through a view not followed).
#[derive(Clone, Debug)]
struct Dim {
    term: Term,
    extent: i64,
    unknown: bool,
}

impl Dim {
    fn unknown() -> Self {
        Dim {
            term: Term::constant(0),
            extent: 1,
            unknown: true,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RootKind {
    /// A fresh allocation (`memref.alloc`, `memref.alloca`, a `gpu.func`
    /// workgroup or private attribution): aliases nothing else.
    Fresh,
    /// A function argument: may alias other arguments, not fresh buffers.
    Argument,
    /// Anything else: may alias anything in its memory space.
    Other,
}

#[derive(Clone, Debug)]
struct Region<'c, 'a> {
    root: Value<'c, 'a>,
    kind: RootKind,
    space: String,
    dims: Vec<Dim>,
    /// An assumed access (a call passed the buffer): any overlap is
    /// conservative.
    assumed: bool,
}

impl Region<'_, '_> {
    fn substitute(&self, symbol: Key, by: &Lin) -> Self {
        let mut out = self.clone();
        for dim in &mut out.dims {
            dim.term = dim.term.substitute(symbol, by);
        }
        out
    }
}

fn memref_type<'c>(value: Value<'c, '_>) -> Option<MemRefType<'c>> {
    MemRefType::try_from(value.r#type()).ok()
}

fn memory_space(ty: Type) -> String {
    // SAFETY: `ty` is a live memref type.
    let space = unsafe { mlir_sys::mlirMemRefTypeGetMemorySpace(ty.to_raw()) };
    if space.ptr.is_null() {
        return String::new();
    }
    // SAFETY: a non-null attribute of a live type.
    let attribute = unsafe { melior::ir::Attribute::from_raw(space) };
    let text = attribute.to_string();
    // `0` and no space are the same default space.
    if text == "0" || text == "0 : i64" {
        String::new()
    } else {
        text
    }
}

fn dense_i64(op: &OperationRef, name: &str) -> Option<Vec<i64>> {
    let attribute = op.attribute(name).ok()?;
    // SAFETY: a live attribute; checked to be a dense i64 array first.
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseI64Array(attribute.to_raw()) {
            return None;
        }
        let count = mlir_sys::mlirDenseArrayGetNumElements(attribute.to_raw());
        Some(
            (0..count)
                .map(|i| mlir_sys::mlirDenseI64ArrayGetElement(attribute.to_raw(), i))
                .collect(),
        )
    }
}

/// The number of inputs of a function op's `function_type`.
fn function_input_count(function: &OperationRef) -> Option<usize> {
    let attribute = function.attribute("function_type").ok()?;
    // SAFETY: a live attribute; checked to be a type attribute of a function
    // type first.
    unsafe {
        if !mlir_sys::mlirAttributeIsAType(attribute.to_raw()) {
            return None;
        }
        let ty = mlir_sys::mlirTypeAttrGetValue(attribute.to_raw());
        if !mlir_sys::mlirTypeIsAFunction(ty) {
            return None;
        }
        Some(mlir_sys::mlirFunctionTypeGetNumInputs(ty) as usize)
    }
}

fn root_kind(value: Value) -> RootKind {
    if let Some(op) = defining_op(value) {
        return match ops::name(&op).as_str() {
            "memref.alloc" | "memref.alloca" => RootKind::Fresh,
            _ => RootKind::Other,
        };
    }
    // SAFETY: `value` is a live block argument.
    let (block, number) = unsafe {
        (
            BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(value.to_raw())),
            mlir_sys::mlirBlockArgumentGetArgNumber(value.to_raw()) as usize,
        )
    };
    let Some(parent) = block.parent_operation() else {
        return RootKind::Other;
    };
    let is_entry = parent
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .is_some_and(|b| b == block);
    if !is_entry || !group_distance::is_function(&parent) {
        return RootKind::Other;
    }
    if ops::is(&parent, "gpu.func")
        && function_input_count(&parent).is_some_and(|inputs| number >= inputs)
    {
        RootKind::Fresh
    } else {
        RootKind::Argument
    }
}

/// Step 1: the region of an access of `memref` at `dims` (one per dimension
/// of `memref`), followed up to its root buffer.
fn region_of<'c: 'a, 'a>(mut memref: Value<'c, 'a>, mut dims: Vec<Dim>) -> Region<'c, 'a> {
    while let Some(op) = defining_op(memref) {
        let name = ops::name(&op);
        match name.as_str() {
            "memref.subview" => {
                let source = op.operand(0).unwrap();
                let (Some(offsets), Some(sizes), Some(strides), Some(ty)) = (
                    dense_i64(&op, "static_offsets"),
                    dense_i64(&op, "static_sizes"),
                    dense_i64(&op, "static_strides"),
                    memref_type(source),
                ) else {
                    dims = Vec::new();
                    memref = source;
                    continue;
                };
                let mut dynamic = op.operands().skip(1);
                let mut take = |values: &[i64]| -> Vec<Option<Term>> {
                    values
                        .iter()
                        .map(|&v| {
                            if v == i64::MIN {
                                dynamic.next().map(|d| term_of(d, 0))
                            } else {
                                Some(Term::constant(v))
                            }
                        })
                        .collect()
                };
                let offsets = take(&offsets);
                let _sizes = take(&sizes);
                let strides = take(&strides);
                let dropped = ty.rank().saturating_sub(dims.len());
                let mut to_drop = dropped;
                let mut inner = dims.into_iter();
                let mut out = Vec::new();
                for (i, offset) in offsets.iter().enumerate() {
                    let drop = to_drop > 0 && sizes[i] == 1;
                    let index = if drop {
                        to_drop -= 1;
                        None
                    } else {
                        inner.next()
                    };
                    let stride = strides[i].as_ref().and_then(|s| s.lin.as_constant());
                    out.push(match (offset, index, stride) {
                        (Some(offset), None, _) => Dim {
                            term: offset.clone(),
                            extent: 1,
                            unknown: false,
                        },
                        (Some(offset), Some(index), Some(stride))
                            if stride > 0 && !index.unknown =>
                        {
                            let scaled = if stride == 1 {
                                Some(index.term.clone())
                            } else {
                                (index.term.modulus.is_none()).then(|| Term {
                                    lin: index.term.lin.scaled(stride),
                                    modulus: None,
                                })
                            };
                            let term = match scaled {
                                Some(t) if *offset == Term::constant(0) => Some(t),
                                Some(t) if t == Term::constant(0) => Some(offset.clone()),
                                Some(t) if t.modulus.is_none() && offset.modulus.is_none() => {
                                    Some(Term {
                                        lin: offset.lin.plus(&t.lin, 1),
                                        modulus: None,
                                    })
                                }
                                _ => None,
                            };
                            match term {
                                Some(term) => Dim {
                                    term,
                                    extent: (index.extent - 1).saturating_mul(stride) + 1,
                                    unknown: false,
                                },
                                None => Dim::unknown(),
                            }
                        }
                        _ => Dim::unknown(),
                    });
                }
                dims = out;
                memref = source;
            }
            "memref.cast" | "memref.memory_space_cast" | "memref.assume_alignment" => {
                memref = op.operand(0).unwrap();
            }
            _ => {
                // Another view (reinterpret_cast, expand/collapse_shape,
                // transpose, view, ...): any position of its source.
                let source = (op.operand_count() > 0)
                    .then(|| op.operand(0).ok())
                    .flatten()
                    .filter(|v| memref_type(*v).is_some());
                match source {
                    Some(source) => {
                        dims = Vec::new();
                        memref = source;
                    }
                    None => break,
                }
            }
        }
    }
    let ty = memref_type(memref).expect("a memref root");
    let rank = ty.rank();
    if dims.len() != rank {
        // An access through a view not followed: the whole root buffer.
        dims = whole_dims(ty);
    }
    Region {
        root: memref,
        kind: root_kind(memref),
        space: memory_space(ty.into()),
        dims,
        assumed: false,
    }
}

/// A region over `indices` of `memref`, with `extents` for the innermost
/// dimensions (the rest 1).
fn access_region<'c: 'a, 'a>(
    memref: Value<'c, 'a>,
    indices: &[Value<'c, 'a>],
    extents: &[i64],
) -> Region<'c, 'a> {
    let rank = indices.len();
    let dims = indices
        .iter()
        .enumerate()
        .map(|(i, index)| {
            let from_end = rank - 1 - i;
            let extent = if from_end < extents.len() {
                extents[extents.len() - 1 - from_end]
            } else {
                1
            };
            Dim {
                term: term_of(*index, 0),
                extent: extent.max(1),
                unknown: false,
            }
        })
        .collect();
    region_of(memref, dims)
}

/// The whole of `memref` (static sizes; dynamic: unknown), ranked or not.
fn whole_region<'c: 'a, 'a>(memref: Value<'c, 'a>) -> Region<'c, 'a> {
    let dims = memref_type(memref).map_or_else(Vec::new, whole_dims);
    region_of(memref, dims)
}

/// Every position of a memref type (dynamic sizes: unknown).
fn whole_dims(ty: MemRefType) -> Vec<Dim> {
    (0..ty.rank())
        .map(|i| {
            // SAFETY: `ty` is a live memref type; `i` is below its rank.
            let size = unsafe { mlir_sys::mlirShapedTypeGetDimSize(ty.to_raw(), i as isize) };
            if size >= 0 && size != i64::MIN {
                Dim {
                    term: Term::constant(0),
                    extent: size.max(1),
                    unknown: false,
                }
            } else {
                Dim::unknown()
            }
        })
        .collect()
}

/// How two regions may meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Overlap {
    Disjoint,
    /// May overlap. `symbolic`: decided by assuming overlap for index
    /// expressions over values other than loop induction variables (e.g.
    /// thread ids); `alias`: the roots are different buffers that may alias,
    /// or an access is assumed (a call).
    May {
        symbolic: bool,
        alias: bool,
    },
}

fn compare_dims(a: &Dim, b: &Dim, intervals: &HashMap<Key, (i64, i64)>) -> Overlap {
    let symbolic = Overlap::May {
        symbolic: true,
        alias: false,
    };
    let exact = Overlap::May {
        symbolic: false,
        alias: false,
    };
    if a.unknown || b.unknown {
        return symbolic;
    }
    let verdict = |meet: bool| if meet { exact } else { Overlap::Disjoint };
    match (a.term.modulus, b.term.modulus) {
        (Some(va), Some(vb)) if va == vb && a.extent == 1 && b.extent == 1 => {
            let d = a.term.lin.plus(&b.term.lin, -1);
            match d.interval(intervals) {
                Some((lo, hi)) => {
                    // Some multiple of V in [lo, hi]?
                    let first = lo.div_euclid(va) * va;
                    let first = if first < lo { first + va } else { first };
                    verdict(hi.saturating_sub(lo) >= va || first <= hi)
                }
                None => symbolic,
            }
        }
        (None, None) => {
            let d = a.term.lin.plus(&b.term.lin, -1);
            match d.interval(intervals) {
                // a covers [d, d + ea) relative to b's [0, eb).
                Some((lo, hi)) => verdict(lo < b.extent && hi > -a.extent),
                None => symbolic,
            }
        }
        _ => {
            let range = |dim: &Dim| -> Option<(i64, i64)> {
                let (lo, hi) = match dim.term.modulus {
                    Some(modulus) => (0, modulus - 1),
                    None => dim.term.lin.interval(intervals)?,
                };
                Some((lo, hi.saturating_add(dim.extent - 1)))
            };
            match (range(a), range(b)) {
                (Some((alo, ahi)), Some((blo, bhi))) => verdict(alo <= bhi && blo <= ahi),
                _ => symbolic,
            }
        }
    }
}

fn compare_regions(a: &Region, b: &Region, intervals: &HashMap<Key, (i64, i64)>) -> Overlap {
    if key(a.root) != key(b.root) {
        if a.space != b.space {
            return Overlap::Disjoint;
        }
        return match (a.kind, b.kind) {
            (RootKind::Fresh, RootKind::Fresh)
            | (RootKind::Fresh, RootKind::Argument)
            | (RootKind::Argument, RootKind::Fresh) => Overlap::Disjoint,
            _ => Overlap::May {
                symbolic: true,
                alias: true,
            },
        };
    }
    if a.assumed || b.assumed {
        return Overlap::May {
            symbolic: true,
            alias: true,
        };
    }
    let mut symbolic = false;
    for (x, y) in a.dims.iter().zip(&b.dims) {
        match compare_dims(x, y, intervals) {
            Overlap::Disjoint => return Overlap::Disjoint,
            Overlap::May { symbolic: s, .. } => symbolic |= s,
        }
    }
    Overlap::May {
        symbolic,
        alias: false,
    }
}

// ---------------------------------------------------------------------------
// Accesses and the check.

/// A point that reads (or, for an overwriting copy, writes) a region.
struct Access<'c, 'a> {
    op: OperationRef<'c, 'a>,
    region: Region<'c, 'a>,
}

/// The `scf.for` facts used to name instances.
struct LoopInfo<'c, 'a> {
    op: OperationRef<'c, 'a>,
    iv: Key,
    lower: Term,
    upper: Term,
    step: Option<i64>,
    trip_count: Option<u64>,
}

struct Function<'c, 'a> {
    is_gpu: bool,
    analysis: GroupDistance,
    loops: HashMap<Key, LoopInfo<'c, 'a>>,
    intervals: HashMap<Key, (i64, i64)>,
}

fn copy_parts<'c, 'a>(copy: &OperationRef<'c, 'a>) -> (Region<'c, 'a>, Region<'c, 'a>) {
    let src = copy.operand(0).unwrap();
    let dst = copy.operand(1).unwrap();
    let src_rank = memref_type(src).map_or(0, |t| t.rank());
    let dst_rank = memref_type(dst).map_or(0, |t| t.rank());
    let indices: Vec<Value> = copy.operands().skip(2).collect();
    let elements = attributes::integer(copy, attributes::ELEMENTS).unwrap_or(1);
    let src_indices = &indices[..src_rank.min(indices.len())];
    let dst_indices =
        &indices[src_rank.min(indices.len())..(src_rank + dst_rank).min(indices.len())];
    (
        access_region(src, src_indices, &[elements]),
        access_region(dst, dst_indices, &[elements]),
    )
}

/// The read of a non-copy op, if it is one the check knows.
fn read_regions<'c: 'a, 'a>(op: &OperationRef<'c, 'a>) -> Vec<Region<'c, 'a>> {
    if group_distance::callee(op).is_some() {
        // A call may read every buffer it is passed.
        return op
            .operands()
            .filter(|v| is_memref(*v))
            .map(|v| Region {
                assumed: true,
                ..whole_region(v)
            })
            .collect();
    }
    read_region(op).into_iter().collect()
}

/// The plain (synchronous) writes of a non-copy op, if it is one the check
/// knows: `memref.store`, `vector.store`, `vector.transfer_write`, the
/// target of `memref.copy`.
fn write_regions<'c: 'a, 'a>(op: &OperationRef<'c, 'a>) -> Vec<Region<'c, 'a>> {
    let name = ops::name(op);
    if !matches!(
        name.as_str(),
        "memref.store" | "vector.store" | "vector.transfer_write" | "memref.copy"
    ) || op.operand_count() < 2
    {
        return Vec::new();
    }
    let Some(memref) = op.operand(1).ok().filter(|v| memref_type(*v).is_some()) else {
        return Vec::new();
    };
    let rank = memref_type(memref).map_or(0, |t| t.rank());
    let indices: Vec<Value> = op.operands().skip(2).take(rank).collect();
    let region = match name.as_str() {
        "memref.store" if indices.len() == rank => access_region(memref, &indices, &[]),
        "vector.store" if indices.len() == rank => {
            let vector = op.operand(0).unwrap().r#type();
            // SAFETY: a live vector type (shaped).
            let extents: Vec<i64> = unsafe {
                let raw = vector.to_raw();
                (0..mlir_sys::mlirShapedTypeGetRank(raw) as isize)
                    .map(|i| mlir_sys::mlirShapedTypeGetDimSize(raw, i))
                    .collect()
            };
            access_region(memref, &indices, &extents)
        }
        "vector.transfer_write" => region_of(memref, Vec::new()),
        "memref.copy" => whole_region(memref),
        _ => return Vec::new(),
    };
    vec![region]
}

fn is_memref(value: Value) -> bool {
    // SAFETY: `value` is live.
    unsafe {
        let ty = mlir_sys::mlirValueGetType(value.to_raw());
        mlir_sys::mlirTypeIsAMemRef(ty) || mlir_sys::mlirTypeIsAUnrankedMemRef(ty)
    }
}

fn read_region<'c: 'a, 'a>(op: &OperationRef<'c, 'a>) -> Option<Region<'c, 'a>> {
    let name = ops::name(op);
    if !matches!(
        name.as_str(),
        "memref.load" | "vector.load" | "vector.transfer_read" | "memref.copy"
    ) || op.operand_count() == 0
    {
        // (An out-of-range `operand` prints the whole op into its error.)
        return None;
    }
    let memref = op.operand(0).ok().filter(|v| memref_type(*v).is_some())?;
    let rank = memref_type(memref)?.rank();
    let indices: Vec<Value> = op.operands().skip(1).take(rank).collect();
    match name.as_str() {
        "memref.load" if indices.len() == rank => Some(access_region(memref, &indices, &[])),
        "vector.load" if indices.len() == rank => {
            let vector = op.result(0).ok()?.r#type();
            // SAFETY: a live vector type (shaped).
            let extents: Vec<i64> = unsafe {
                let raw = vector.to_raw();
                (0..mlir_sys::mlirShapedTypeGetRank(raw) as isize)
                    .map(|i| mlir_sys::mlirShapedTypeGetDimSize(raw, i))
                    .collect()
            };
            Some(access_region(memref, &indices, &extents))
        }
        "vector.transfer_read" => Some(region_of(memref, Vec::new())),
        "memref.copy" => Some(whole_region(memref)),
        _ => None,
    }
}

/// The `scf.for` / `scf.while` ops around `op` inside `function`, innermost
/// first.
fn loops_around<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    function: &OperationRef<'c, 'a>,
) -> Vec<OperationRef<'c, 'a>> {
    ops::ancestors(op)
        .take_while(|parent| parent != function)
        .filter(|parent| ops::is(parent, "scf.for") || ops::is(parent, "scf.while"))
        .collect()
}

/// True if `a` runs before `b` within one iteration of their innermost
/// common region (false if they sit in different branches).
fn precedes<'c: 'a, 'a>(a: &OperationRef<'c, 'a>, b: &OperationRef<'c, 'a>) -> bool {
    let chain = |op: &OperationRef<'c, 'a>| -> Vec<OperationRef<'c, 'a>> {
        std::iter::once(*op).chain(ops::ancestors(op)).collect()
    };
    let chain_a = chain(a);
    for x in chain(b) {
        if let Some(y) = chain_a
            .iter()
            .find(|y| y.block().is_some() && y.block() == x.block())
        {
            return *y != x && y.is_before_in_block(x);
        }
    }
    false
}

/// The analysis's fact, or none known.
fn complete(groups_after: u64, frontier: Option<GroupFact>) -> bool {
    let Some(frontier) = frontier else {
        return false;
    };
    match frontier.groups {
        Some(Distance { max: Some(max), .. }) if !frontier.may_name_no_group => {
            groups_after >= max.saturating_add(1)
        }
        _ => false,
    }
}

fn describe_frontier(frontier: Option<GroupFact>, queue: i64) -> String {
    match frontier {
        Some(GroupFact {
            groups: Some(Distance { max: Some(max), .. }),
            may_name_no_group: false,
            ..
        }) => format!("the waits complete only the groups committed {max} or more groups earlier"),
        _ => format!("on some path no wait completes any group of queue {queue}"),
    }
}

/// How the instances of a copy are named relative to a point (step 3).
enum Instances {
    /// `k = first + s` iterations back in the common loop.
    Back { iv: Key, step: i64, first: u64 },
    /// The last iteration minus `s` of a loop that ended.
    FromLast { iv: Key, last: Lin, step: i64 },
    /// The point in iteration `s` of its loop.
    PointAt { iv: Key, lower: Lin, step: i64 },
    /// The copy precedes a loop that precedes the point, and the loop's trip
    /// count is `symbol + offset`: the point after `s` iterations of it.
    Across { symbol: Key, offset: i64 },
    /// The most recent instance only.
    Latest,
}

/// The most instances enumerated per pair (beyond: assumed to overlap).
const INSTANCE_LIMIT: u64 = 256;

impl<'c, 'a> Function<'c, 'a> {
    /// Steps 3 and 4 for one point and one copy. `point_region` is what the
    /// point accesses, `copy_region` what the copy's instances access.
    fn check_pair(
        &self,
        function: &OperationRef<'c, 'a>,
        point: &Access<'c, 'a>,
        copy: OperationRef<'c, 'a>,
        copy_region: &Region<'c, 'a>,
        kind: HazardKind,
    ) -> Option<Hazard<'c, 'a>> {
        if let Overlap::Disjoint = self.may_overlap_at_all(copy_region, &point.region) {
            return None;
        }
        let fact = self.analysis.copy_fact_at(&point.op, &copy)?;
        let since = fact.groups?;
        let queue = attributes::queue(&copy);
        let complete_now = self.analysis.complete_fact_at(&point.op, queue);
        let synced_now = self.analysis.synced_fact_at(&point.op, queue);
        let point_loops = loops_around(&point.op, function);
        let copy_loops = loops_around(&copy, function);
        let common = point_loops.iter().find(|l| copy_loops.contains(l)).copied();
        let copy_only = copy_loops
            .iter()
            .take_while(|l| Some(**l) != common)
            .last()
            .copied();
        let point_only = point_loops
            .iter()
            .take_while(|l| Some(**l) != common)
            .last()
            .copied();
        let info = |l: Option<OperationRef<'c, 'a>>| {
            l.and_then(|l| self.loops.get(&op_key(&l)))
                .filter(|info| info.step.is_some_and(|s| s > 0))
        };
        let (instances, per_loop, bound) = if let Some(info) = info(common) {
            let first = u64::from(!precedes(&copy, &point.op));
            (
                Instances::Back {
                    iv: info.iv,
                    step: info.step.unwrap(),
                    first,
                },
                Some(info.op),
                info.trip_count.map(|n| n.saturating_sub(first)),
            )
        } else if let Some(info) = info(copy_only).filter(|i| last_iv(i).is_some()) {
            (
                Instances::FromLast {
                    iv: info.iv,
                    last: last_iv(info).unwrap(),
                    step: info.step.unwrap(),
                },
                Some(info.op),
                info.trip_count,
            )
        } else if let Some(info) = info(point_only).filter(|i| i.lower.modulus.is_none()) {
            (
                Instances::PointAt {
                    iv: info.iv,
                    lower: info.lower.lin.clone(),
                    step: info.step.unwrap(),
                },
                Some(info.op),
                info.trip_count,
            )
        } else if let Some((info, symbol, offset)) =
            self.loop_between(function, &copy, &point.op, copy_region, &point.region)
        {
            (Instances::Across { symbol, offset }, Some(info.op), None)
        } else {
            (Instances::Latest, None, Some(1))
        };
        let per = per_loop.map_or(Distance::ZERO, |l| {
            self.analysis.groups_per_iteration(&l, queue)
        });
        let limit = bound.unwrap_or(INSTANCE_LIMIT).min(INSTANCE_LIMIT);
        for s in 0..limit {
            let (a, b) = match &instances {
                Instances::Back { iv, step, first } => {
                    let shift = ((first + s) as i64).saturating_mul(*step);
                    let by = Lin::symbol(*iv).plus(&Lin::constant(shift), -1);
                    (copy_region.substitute(*iv, &by), point.region.clone())
                }
                Instances::FromLast { iv, last, step } => {
                    let by = last.plus(&Lin::constant((s as i64).saturating_mul(*step)), -1);
                    (copy_region.substitute(*iv, &by), point.region.clone())
                }
                Instances::PointAt { iv, lower, step } => {
                    let by = lower.plus(&Lin::constant((s as i64).saturating_mul(*step)), 1);
                    (copy_region.clone(), point.region.substitute(*iv, &by))
                }
                Instances::Across { symbol, offset } => {
                    // The loop between ran `s` times: `symbol = s - offset`.
                    let by = Lin::constant((s as i64).saturating_sub(*offset));
                    (
                        copy_region.substitute(*symbol, &by),
                        point.region.substitute(*symbol, &by),
                    )
                }
                Instances::Latest => (copy_region.clone(), point.region.clone()),
            };
            let Overlap::May { symbolic, alias } = compare_regions(&a, &b, &self.intervals) else {
                continue;
            };
            let other_threads = self.is_gpu && symbolic && !alias;
            // An instance k >= 1 iterations back (or the point in iteration
            // t >= 1) is seen only in the loop's later iterations; the point
            // in iteration 0 only in the first.
            let iterations = match &instances {
                Instances::Back { first, .. } if first + s >= 1 => per_loop.map(|l| (l, false)),
                Instances::PointAt { .. } => per_loop.map(|l| (l, s == 0)),
                _ => None,
            };
            let since = match (iterations, &instances) {
                (Some((l, true)), Instances::PointAt { .. }) => self
                    .analysis
                    .copy_fact_in_iterations(&point.op, &l, &copy, true)
                    .flatten()
                    .and_then(|f| f.groups)
                    .unwrap_or(since),
                _ => since,
            };
            let groups_after = since.min.saturating_add(s.saturating_mul(per.min));
            let frontier_of = |synced: bool| {
                iterations
                    .and_then(|(l, first)| {
                        self.analysis
                            .frontier_in_iterations(&point.op, &l, queue, synced, first)
                    })
                    .unwrap_or(if synced { synced_now } else { complete_now })
            };
            let complete_now = frontier_of(false);
            let frontier = if other_threads {
                frontier_of(true)
            } else {
                complete_now
            };
            // The most recent execution, covered by a wait on its token.
            let most_recent = s == 0
                || matches!(
                    instances,
                    Instances::PointAt { .. } | Instances::Across { .. }
                );
            let covered =
                !other_threads && most_recent && self.analysis.copy_covered_at(&point.op, &copy);
            if covered || complete(groups_after, frontier) {
                return None;
            }
            let conservative = alias || (symbolic && !self.is_gpu);
            let stores = matches!(
                kind,
                HazardKind::StoreOverSource | HazardKind::StoreOverDestination
            );
            let kind = if !stores && other_threads && complete(groups_after, complete_now) {
                HazardKind::MissingBarrier
            } else {
                kind
            };
            return Some(self.hazard(
                kind,
                conservative,
                alias,
                point,
                copy,
                queue,
                groups_after,
                frontier,
                describe_instance(&instances, s),
            ));
        }
        // Instances beyond the enumeration (more than INSTANCE_LIMIT, or an
        // unknown count): the shifted variable ranges freely, and at least
        // `limit` more iterations' groups separate them.
        if bound.is_some_and(|b| b <= limit) {
            return None;
        }
        let free = Lin::symbol(usize::MAX);
        let (a, b) = match &instances {
            Instances::Back { iv, .. } | Instances::FromLast { iv, .. } => {
                (copy_region.substitute(*iv, &free), point.region.clone())
            }
            Instances::PointAt { iv, .. } => {
                (copy_region.clone(), point.region.substitute(*iv, &free))
            }
            Instances::Across { symbol, .. } => (
                copy_region.substitute(*symbol, &free),
                point.region.substitute(*symbol, &free),
            ),
            Instances::Latest => return None,
        };
        let Overlap::May { symbolic, alias } = compare_regions(&a, &b, &self.intervals) else {
            return None;
        };
        let groups_after = since.min.saturating_add(limit.saturating_mul(per.min));
        let other_threads = self.is_gpu && symbolic && !alias;
        let frontier = if other_threads {
            synced_now
        } else {
            complete_now
        };
        if complete(groups_after, frontier) {
            return None;
        }
        Some(self.hazard(
            kind,
            true,
            alias,
            point,
            copy,
            queue,
            groups_after,
            frontier,
            format!("beyond the {limit} newest instances: "),
        ))
    }

    /// Step 6 (`gpu.func`): the copy `writer` against a plain read `read` of
    /// data that other threads may share (indices that do not provably
    /// match): the read's most recent execution must be followed by a
    /// `gpu.barrier` on every path to the copy, unless no instance of the
    /// read overlaps the copy's region (version arithmetic as in step 3).
    fn check_overwrite_barrier(
        &self,
        function: &OperationRef<'c, 'a>,
        writer: &Access<'c, 'a>,
        read: &Access<'c, 'a>,
    ) -> Option<Hazard<'c, 'a>> {
        if !self.is_gpu || !self.analysis.read_since_barrier_at(&writer.op, &read.op) {
            return None;
        }
        let read_loops = loops_around(&read.op, function);
        let writer_loops = loops_around(&writer.op, function);
        let common = read_loops
            .iter()
            .find(|l| writer_loops.contains(l))
            .copied();
        let info = common
            .and_then(|l| self.loops.get(&op_key(&l)))
            .filter(|info| info.step.is_some_and(|s| s > 0));
        let first = u64::from(!precedes(&read.op, &writer.op));
        let (count, shift): (u64, Option<(Key, i64)>) = match info {
            Some(info) => (
                info.trip_count
                    .map_or(INSTANCE_LIMIT, |n| n.saturating_sub(first))
                    .min(INSTANCE_LIMIT),
                Some((info.iv, info.step.unwrap())),
            ),
            None => (1, None),
        };
        for s in 0..count {
            let region = match shift {
                Some((iv, step)) => {
                    let by = Lin::symbol(iv).plus(
                        &Lin::constant(((first + s) as i64).saturating_mul(step)),
                        -1,
                    );
                    read.region.substitute(iv, &by)
                }
                None => read.region.clone(),
            };
            if let Overlap::May {
                symbolic: true,
                alias: false,
            } = compare_regions(&region, &writer.region, &self.intervals)
            {
                let name = ops::name(&writer.op);
                return Some(Hazard {
                    kind: HazardKind::OverwriteBeforeBarrier,
                    conservative: false,
                    at: writer.op,
                    copy: read.op,
                    message: format!(
                        "'{name}' op overwrites data that other threads may still be reading, \
                         with no gpu.barrier between their read and this copy"
                    ),
                    note: format!(
                        "the read of other threads' data ({}no gpu.barrier follows it on some \
                         path to the copy)",
                        match (shift, first + s) {
                            (Some(_), 0) => "earlier in this iteration: ".to_owned(),
                            (Some(_), k) => format!("{k} iteration(s) earlier: "),
                            (None, _) => String::new(),
                        }
                    ),
                });
            }
        }
        None
    }

    /// A loop with step 1 (not around `copy` or `point`) that runs after
    /// `copy` and before `point`, whose trip count `ub - lb` is
    /// `symbol + offset` for a symbol of the regions' index expressions.
    fn loop_between(
        &self,
        function: &OperationRef<'c, 'a>,
        copy: &OperationRef<'c, 'a>,
        point: &OperationRef<'c, 'a>,
        copy_region: &Region,
        point_region: &Region,
    ) -> Option<(&LoopInfo<'c, 'a>, Key, i64)> {
        let uses = |region: &Region, symbol: Key| {
            region
                .dims
                .iter()
                .any(|d| d.term.lin.terms.contains_key(&symbol))
        };
        self.loops.values().find_map(|info| {
            if info.step != Some(1) || info.lower.modulus.is_some() || info.upper.modulus.is_some()
            {
                return None;
            }
            let trip = info.upper.lin.plus(&info.lower.lin, -1);
            let (&symbol, &coefficient) = trip.terms.iter().next()?;
            if trip.terms.len() != 1
                || coefficient != 1
                || !(uses(copy_region, symbol) || uses(point_region, symbol))
                || is_around(&info.op, copy)
                || is_around(&info.op, point)
                || !precedes(copy, &info.op)
                || !precedes(&info.op, point)
                || !is_around(function, &info.op)
                || symbol_lower_bound(symbol, &info.op).is_none_or(|lb| lb + trip.constant < 0)
            {
                // The trip count is `symbol + offset` only where that is
                // provably nonnegative.
                return None;
            }
            Some((info, symbol, trip.constant))
        })
    }

    /// A quick test over all instances: the regions with every loop
    /// variable free.
    fn may_overlap_at_all(&self, a: &Region, b: &Region) -> Overlap {
        if key(a.root) != key(b.root) {
            return compare_regions(a, b, &self.intervals);
        }
        Overlap::May {
            symbolic: false,
            alias: false,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn hazard(
        &self,
        kind: HazardKind,
        conservative: bool,
        alias: bool,
        point: &Access<'c, 'a>,
        copy: OperationRef<'c, 'a>,
        queue: i64,
        groups_after: u64,
        frontier: Option<GroupFact>,
        instance: String,
    ) -> Hazard<'c, 'a> {
        let name = ops::name(&point.op);
        let mut message = match kind {
            HazardKind::UncoveredRead => format!(
                "'{name}' op reads a buffer region that an async copy may still be writing: no \
                 wait completes the copy's group on every path from the copy to this read"
            ),
            HazardKind::EarlyOverwrite => format!(
                "'{name}' op overwrites a buffer region that an earlier async copy may still be \
                 reading (early overwrite): no wait completes the reading copy's group before \
                 this copy is issued"
            ),
            HazardKind::MissingBarrier => format!(
                "'{name}' op reads data that other threads copied asynchronously, with no \
                 gpu.barrier between the wait that completes it and this read"
            ),
            HazardKind::OverwriteBeforeBarrier => format!(
                "'{name}' op overwrites data that other threads may still be reading, with no \
                 gpu.barrier between their read and this copy"
            ),
            HazardKind::StoreOverSource => format!(
                "'{name}' op writes a buffer region that an async copy may still be reading \
                 (its source; write-after-read): no wait completes the copy's group on every \
                 path from the copy to this store"
            ),
            HazardKind::StoreOverDestination => format!(
                "'{name}' op writes a buffer region that an async copy may still be writing \
                 (its destination; write-after-write: the copy may land later and erase this \
                 store): no wait completes the copy's group on every path from the copy to \
                 this store"
            ),
        };
        if conservative {
            let why = if point.region.assumed {
                "a callee may read any part of the buffers it is passed"
            } else if alias {
                "the buffers may alias"
            } else {
                "the index expressions could not be compared"
            };
            message = format!("possible hazard (checked conservatively: {why}): {message}");
        }
        let role = match kind {
            HazardKind::EarlyOverwrite => {
                "the copy that reads the region, whose group is not complete"
            }
            HazardKind::MissingBarrier => {
                "the copy, issued by every thread, whose data other threads read"
            }
            HazardKind::UncoveredRead => "the copy whose group is not complete",
            HazardKind::OverwriteBeforeBarrier => "the read",
            HazardKind::StoreOverSource => {
                "the copy that reads the region, whose group is not complete"
            }
            HazardKind::StoreOverDestination => {
                "the copy that writes the region, whose group is not complete"
            }
        };
        let groups = if groups_after == 0 {
            "not committed yet".to_owned()
        } else {
            format!("at least {groups_after} group(s) committed on queue {queue} after it")
        };
        let frontier = if kind == HazardKind::MissingBarrier {
            "the waits complete it for the copying thread, but no gpu.barrier follows them \
             before this read"
                .to_owned()
        } else {
            describe_frontier(frontier, queue)
        };
        let note = format!("{role} ({instance}{groups}; {frontier})");
        Hazard {
            kind,
            conservative,
            at: point.op,
            copy,
            message,
            note,
        }
    }
}

fn describe_instance(instances: &Instances, s: u64) -> String {
    match instances {
        Instances::Back { first, .. } => match first + s {
            0 => "issued earlier in this iteration: ".to_owned(),
            k => format!("issued {k} iteration(s) earlier: "),
        },
        Instances::FromLast { .. } => match s {
            0 => "in the last iteration of its loop: ".to_owned(),
            s => format!("{s} iteration(s) before the last of its loop: "),
        },
        Instances::PointAt { .. } => format!("seen from iteration {s} of the loop: "),
        Instances::Across { .. } => format!("across {s} iteration(s) of the loop between: "),
        Instances::Latest => String::new(),
    }
}

/// A lower bound of the value `symbol` at `op`: 0 for `arith.maxsi(x, 0)`,
/// and `c` inside the `default` region of an `scf.index_switch` on
/// `arith.minsi(symbol, c)` whose cases cover `0..c` (the pipeliner's switch
/// on `min(n, stages)` for dynamic trip counts).
fn symbol_lower_bound(symbol: Key, op: &OperationRef) -> Option<i64> {
    // SAFETY: `symbol` is the key of a live value of the function.
    let value = unsafe {
        Value::from_raw(mlir_sys::MlirValue {
            ptr: symbol as *const std::ffi::c_void,
        })
    };
    let is_zero = |v: Value| group_distance::constant_int(v) == Some(0);
    let nonnegative = defining_op(value).is_some_and(|d| {
        ((ops::is(&d, "arith.maxsi") || ops::is(&d, "arith.maxui"))
            && (0..2).any(|i| d.operand(i).is_ok_and(is_zero)))
            // The pipeliner's trip count `lb < ub ? ceildivui(ub - lb, step)
            // : 0` (see `trip_count`).
            || (ops::is(&d, "arith.select")
                && d.operand(2).is_ok_and(is_zero)
                && d.operand(1)
                    .ok()
                    .and_then(defining_op)
                    .is_some_and(|q| ops::is(&q, "arith.ceildivui")))
    });
    if !nonnegative {
        return None;
    }
    let mut bound = 0;
    let mut child = *op;
    while let Some(parent) = child.parent_operation() {
        let in_default = parent.region(0).is_ok_and(|default| {
            child
                .block()
                .and_then(|b| b.parent_region())
                .is_some_and(|r| r.to_raw().ptr == default.to_raw().ptr)
        });
        if ops::is(&parent, "scf.index_switch") && in_default {
            let min = parent
                .operand(0)
                .ok()
                .and_then(defining_op)
                .filter(|d| ops::is(d, "arith.minsi") || ops::is(d, "arith.minui"));
            if let (Some(min), Some(cases)) = (min, dense_i64(&parent, "cases")) {
                let (a, b) = (min.operand(0).unwrap(), min.operand(1).unwrap());
                let limit = if key(a) == symbol {
                    group_distance::constant_int(b)
                } else if key(b) == symbol {
                    group_distance::constant_int(a)
                } else {
                    None
                };
                if let Some(limit) = limit.filter(|&c| (0..c).all(|v| cases.contains(&v))) {
                    bound = bound.max(limit);
                }
            }
        }
        child = parent;
    }
    Some(bound)
}

/// True if `ancestor` is strictly around `op`.
fn is_around(ancestor: &OperationRef, op: &OperationRef) -> bool {
    ops::ancestors(op).any(|parent| parent == *ancestor)
}

/// The induction variable's value in the last iteration of a loop, if
/// expressible: a constant for static bounds, `ub - 1` for step 1.
fn last_iv(info: &LoopInfo) -> Option<Lin> {
    let step = info.step?;
    if let (Some(lower), Some(n)) = (info.lower.lin.as_constant(), info.trip_count) {
        if n == 0 || info.lower.modulus.is_some() {
            return None;
        }
        return Some(Lin::constant(lower + (n as i64 - 1) * step));
    }
    (step == 1 && info.upper.modulus.is_none()).then(|| info.upper.lin.plus(&Lin::constant(1), -1))
}

/// Steps 1-5 for one function.
fn check_function<'c: 'a, 'a>(
    function: OperationRef<'c, 'a>,
) -> Result<Vec<Hazard<'c, 'a>>, Reported> {
    // 1. Accesses, loops (nested functions are checked on their own).
    let mut reads: Vec<Access> = Vec::new();
    let mut writes: Vec<Access> = Vec::new();
    let mut copies: Vec<(OperationRef, Region, Region)> = Vec::new();
    let mut loops = HashMap::new();
    let mut intervals = HashMap::new();
    for op in ops::nested_ops(&function) {
        let skip = op.has_attribute(attributes::STAGE)
            || ops::ancestors(&op).take_while(|p| *p != function).any(|p| {
                group_distance::is_function(&p)
                    || p.has_attribute(attributes::ASYNC_STAGES)
                    || p.has_attribute(attributes::STAGE)
            });
        if skip {
            continue;
        }
        if ops::is(&op, ops::COPY) {
            let (src, dst) = copy_parts(&op);
            reads.push(Access {
                op,
                region: src.clone(),
            });
            copies.push((op, src, dst));
        } else if ops::is(&op, "scf.for") {
            let body = op.region(0).ok().and_then(|r| r.first_block());
            let Some(iv) = body.and_then(|b| b.argument(0).ok()) else {
                continue;
            };
            let iv = key(iv.into());
            let lower = term_of(op.operand(0).unwrap(), 0);
            let upper = term_of(op.operand(1).unwrap(), 0);
            let step = group_distance::constant_int(op.operand(2).unwrap());
            if let (Some(lo), Some(hi), Some(step)) =
                (lower.lin.as_constant(), upper.lin.as_constant(), step)
            {
                if step > 0 && hi > lo && lower.modulus.is_none() && upper.modulus.is_none() {
                    intervals.insert(iv, (lo, hi - 1));
                }
            }
            loops.insert(
                op_key(&op),
                LoopInfo {
                    op,
                    iv,
                    lower,
                    upper,
                    step,
                    trip_count: group_distance::static_trip_count(&op),
                },
            );
        } else {
            for region in read_regions(&op) {
                reads.push(Access { op, region });
            }
            for region in write_regions(&op) {
                writes.push(Access { op, region });
            }
        }
    }
    if copies.is_empty() {
        return Ok(Vec::new());
    }
    // 2. The shared analysis, once.
    let points: Vec<OperationRef> = reads.iter().chain(&writes).map(|r| r.op).collect();
    let analysis = GroupDistance::compute_for_hazards(&function, points)?;
    let context = Function {
        is_gpu: ops::is(&function, "gpu.func"),
        analysis,
        loops,
        intervals,
    };
    // 3.-4. Reads against the copies' writes; 5. writes against the copies'
    // reads.
    let mut out = Vec::new();
    for read in &reads {
        for (copy, _, dst) in &copies {
            if *copy == read.op {
                continue;
            }
            if let Some(hazard) =
                context.check_pair(&function, read, *copy, dst, HazardKind::UncoveredRead)
            {
                out.push(hazard);
                break;
            }
        }
    }
    for (writer, _, dst) in &copies {
        let point = Access {
            op: *writer,
            region: dst.clone(),
        };
        // 6. Plain reads of other threads before this copy (gpu.func).
        for read in reads.iter().filter(|r| !ops::is(&r.op, ops::COPY)) {
            if let Some(hazard) = context.check_overwrite_barrier(&function, &point, read) {
                out.push(hazard);
                break;
            }
        }
        for (reader, src, _) in &copies {
            if reader == writer {
                continue;
            }
            if let Some(hazard) =
                context.check_pair(&function, &point, *reader, src, HazardKind::EarlyOverwrite)
            {
                out.push(hazard);
                break;
            }
        }
    }
    // 7. Plain stores against the copies' reads (WAR) and writes (WAW): the
    // same check as step 3-4. A hazard that rests only on two different
    // buffers that may alias (an output argument stored while an input
    // argument is copied) is not reported.
    for write in &writes {
        let found = copies.iter().find_map(|(copy, src, dst)| {
            [
                (src, HazardKind::StoreOverSource),
                (dst, HazardKind::StoreOverDestination),
            ]
            .into_iter()
            .find_map(|(region, kind)| {
                context
                    .check_pair(&function, write, *copy, region, kind)
                    .filter(|h| !h.conservative || key(region.root) == key(write.region.root))
            })
        });
        out.extend(found);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::Module;

    /// A multi-buffered loop: `versions` versions, the consumer `distance`
    /// iterations after the producer (the prologue issues tiles
    /// `0..distance`), waiting with `pending`.
    fn multi_buffered(versions: i64, distance: i64, pending: i64) -> String {
        let ty = format!("memref<{versions}x4xf32>");
        let mut text = format!(
            "func.func @f(%A: memref<64xf32>, %out: memref<16xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cD = arith.constant {distance} : index
  %cV = arith.constant {versions} : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : {ty}
"
        );
        for p in 0..distance {
            text += &format!(
                "  %s{p} = arith.constant {} : index
  %v{p} = arith.constant {} : index
  \"apipe.copy\"(%A, %buf, %s{p}, %v{p}, %c0) {{elements = 4 : i64}} : (memref<64xf32>, {ty}, index, index, index) -> ()
  \"apipe.commit_group\"() : () -> ()
",
                4 * p,
                p % versions
            );
        }
        text += &format!(
            "  scf.for %j = %c0 to %c8 step %c1 {{
    %next = arith.addi %j, %cD : index
    %src = arith.muli %next, %c4 : index
    %vn = arith.remui %next, %cV : index
    \"apipe.copy\"(%A, %buf, %src, %vn, %c0) {{elements = 4 : i64}} : (memref<64xf32>, {ty}, index, index, index) -> ()
    \"apipe.commit_group\"() : () -> ()
    \"apipe.wait_group\"() {{pending = {pending} : i64}} : () -> ()
    %v = arith.remui %j, %cV : index
    %x = memref.load %buf[%v, %c1] : {ty}
    memref.store %x, %out[%j] : memref<16xf32>
  }}
  \"apipe.wait_group\"() {{pending = 0 : i64}} : () -> ()
  return
}}
"
        );
        text
    }

    /// The naive reference: runs the same program on the semantics of
    /// DESIGN.md section 3 and says whether some read meets a copy of its
    /// version whose group is not complete.
    fn reference_has_hazard(versions: i64, distance: i64, pending: i64) -> bool {
        let mut complete: Vec<bool> = Vec::new();
        let mut copies: Vec<(i64, usize)> = Vec::new();
        let mut issue = |version: i64, complete: &mut Vec<bool>| {
            copies.push((version, complete.len()));
            complete.push(false);
            copies.clone()
        };
        for p in 0..distance {
            issue(p % versions, &mut complete);
        }
        for j in 0..8 {
            let copies = issue((j + distance) % versions, &mut complete);
            let groups = complete.len();
            for done in complete
                .iter_mut()
                .take(groups.saturating_sub(pending as usize))
            {
                *done = true;
            }
            let read = j % versions;
            if copies.iter().any(|(v, g)| *v == read && !complete[*g]) {
                return true;
            }
        }
        false
    }

    #[test]
    fn multi_buffered_loops_match_the_naive_reference() {
        let context = apipe_dialect::create_context().unwrap();
        let mut hazard_count = 0;
        for distance in 1..=3 {
            for versions in 1..=4 {
                for pending in 0..=3 {
                    let module =
                        Module::parse(&context, &multi_buffered(versions, distance, pending))
                            .unwrap();
                    let before = module.as_operation().to_string();
                    let found = find_hazards(&module.as_operation()).unwrap();
                    assert_eq!(module.as_operation().to_string(), before, "IR unchanged");
                    let expected = reference_has_hazard(versions, distance, pending);
                    assert_eq!(
                        !found.is_empty(),
                        expected,
                        "versions {versions}, distance {distance}, pending {pending}"
                    );
                    assert!(found
                        .iter()
                        .all(|h| h.kind == HazardKind::UncoveredRead && !h.conservative));
                    hazard_count += usize::from(expected);
                }
            }
        }
        // Both outcomes occur (the sweep is not vacuous).
        assert!(hazard_count > 0 && hazard_count < 48);
    }

    #[test]
    fn linear_forms_substitute_and_bound() {
        let iv = 7;
        let term = Term {
            lin: Lin::symbol(iv).plus(&Lin::constant(2), 1),
            modulus: Some(3),
        };
        // (iv + 2) mod 3 at iv = 13 - 1 is 14 mod 3 = 2.
        assert_eq!(term.substitute(iv, &Lin::constant(12)), Term::constant(2));
        let shifted = term.substitute(iv, &Lin::symbol(iv).plus(&Lin::constant(2), -1));
        assert_eq!(shifted.lin.constant, 0);
        let intervals = HashMap::from([(iv, (0, 3))]);
        assert_eq!(
            Lin::symbol(iv)
                .scaled(2)
                .plus(&Lin::constant(1), 1)
                .interval(&intervals),
            Some((1, 7))
        );
        assert_eq!(Lin::symbol(9).interval(&intervals), None);
    }

    #[test]
    fn versions_overlap_only_when_congruent() {
        let iv = 1;
        let dim = |shift: i64| Dim {
            term: Term {
                lin: Lin::symbol(iv).plus(&Lin::constant(shift), 1),
                modulus: Some(3),
            },
            extent: 1,
            unknown: false,
        };
        let none = HashMap::new();
        assert_eq!(
            compare_dims(&dim(2), &dim(2), &none),
            Overlap::May {
                symbolic: false,
                alias: false
            }
        );
        assert_eq!(compare_dims(&dim(2), &dim(0), &none), Overlap::Disjoint);
        assert_eq!(
            compare_dims(&dim(5), &dim(2), &none),
            Overlap::May {
                symbolic: false,
                alias: false
            }
        );
        // Unknown values: overlap assumed, marked symbolic.
        let other = Dim {
            term: Term {
                lin: Lin::symbol(99),
                modulus: None,
            },
            extent: 1,
            unknown: false,
        };
        assert_eq!(
            compare_dims(
                &other,
                &Dim {
                    term: Term::constant(0),
                    extent: 4,
                    unknown: false
                },
                &none
            ),
            Overlap::May {
                symbolic: true,
                alias: false
            }
        );
    }

    #[test]
    fn ranges_meet_by_extent() {
        let none = HashMap::new();
        let at = |c: i64, extent: i64| Dim {
            term: Term::constant(c),
            extent,
            unknown: false,
        };
        assert_eq!(compare_dims(&at(0, 4), &at(4, 4), &none), Overlap::Disjoint);
        assert_eq!(
            compare_dims(&at(0, 4), &at(3, 1), &none),
            Overlap::May {
                symbolic: false,
                alias: false
            }
        );
        assert_eq!(compare_dims(&at(5, 1), &at(0, 4), &none), Overlap::Disjoint);
    }
}
