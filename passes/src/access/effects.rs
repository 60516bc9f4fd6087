//! The accesses of an op: what it reads and writes, from MLIR's
//! `MemoryEffectOpInterface` ([`apipe_dialect::effects`]), each resolved to
//! a [`Region`] of a root buffer.
//!
//! 1. An op that implements the interface accesses exactly what it
//!    declares: a read or write (a free counts as a write) of a memref value
//!    is an access of that value's whole region, followed through views; an
//!    effect on no value is an access of all memory.
//! 2. Where the op's indices say which elements (`memref.load` / `store`,
//!    `vector.load` / `store` / `maskedload` / `maskedstore` /
//!    `transfer_read` / `transfer_write` with a minor identity map,
//!    `memref.atomic_rmw`, `memref.generic_atomic_rmw`), the declared access
//!    of that value narrows to them; with a constant mask (and, for
//!    `vector.gather` / `scatter` of a rank-1 memref, constant indices), to
//!    the hull of the lanes set, and for `vector.compressstore` /
//!    `expandload` to as many elements as lanes set. Warp-collective reads and writes
//!    (`nvgpu.ldmatrix`, `gpu.subgroup_mma_load_matrix` /
//!    `store_matrix`) narrow to the leading indices only (their tile spans
//!    the other threads' rows and columns) and are marked
//!    [`Access::collective`]; an effect such an op declares on no particular
//!    value (`nvgpu.ldmatrix` has a plain `MemRead`) is its access of those
//!    operands.
//! 3. An op without the interface that is not recursive (a call, an
//!    unregistered op, `llvm.atomicrmw`) reads and writes every memref it
//!    receives ([`Access::assumed`]), and all memory if it receives an
//!    `!llvm.ptr`. A call whose callee has a body accesses what
//!    the callee does with what the call passes, and with the
//!    `memref.global`s it takes ([`call_accesses`]); a callee without a
//!    body (an external function) is assumed to reach no global of the
//!    module.
//! 4. Ops with `HasRecursiveMemoryEffects` (`scf.for`, `scf.if`, ...)
//!    access nothing themselves: their regions' ops are visited on their
//!    own.
//! 5. `apipe.copy` and `apipe.bulk_copy` read `src` and write `dst` ([`copy_regions`]),
//!    asynchronously; the other apipe ops access no memory.

use super::{
    region::{indexed, is_memref, rank, region_of, unknown_origin, whole, Region},
    values::Forms,
    Lin,
};
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{
    attributes,
    effects::{memory_effects, EffectKind},
    ops,
};
use melior::ir::{
    attribute::AttributeLike as _, operation::OperationLike, BlockLike as _, OperationRef, Type,
    TypeLike, Value, ValueLike,
};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Read or write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessKind {
    /// The op reads the region.
    Read,
    /// The op writes the region (a store, a copy's destination, a free).
    Write,
}

/// One access of an op.
#[derive(Clone, Debug)]
pub struct Access<'c, 'a> {
    /// Read or write.
    pub kind: AccessKind,
    /// The elements.
    pub region: Region,
    /// The memref operand accessed (`None` for all memory).
    pub value: Option<Value<'c, 'a>>,
    /// True for a warp-collective op: the elements of the other threads of
    /// its subgroup are accessed too.
    pub collective: bool,
    /// True if assumed (an op without memory-effect information may access
    /// any of the memrefs it receives).
    pub assumed: bool,
    /// True for an `apipe.copy` (its access happens at one moment until its
    /// group completes).
    pub asynchronous: bool,
}

/// Every access of one op.
#[derive(Clone, Debug, Default)]
pub struct OpAccesses<'c, 'a> {
    /// The accesses of particular buffers.
    pub accesses: Vec<Access<'c, 'a>>,
    /// The op may read any memory (an effect on no particular value).
    pub reads_all: bool,
    /// The op may write any memory.
    pub writes_all: bool,
    /// `reads_all` / `writes_all` come (also) from an access through a
    /// pointer or buffer of unknown origin, which may be workgroup memory;
    /// not only from an effect on no value (`gpu.printf`, which writes
    /// memory no other op of the program reads).
    pub through_pointers: bool,
}

impl<'c, 'a> OpAccesses<'c, 'a> {
    /// Adds `access` unless one of the same kind and region is there.
    fn add(&mut self, access: Access<'c, 'a>) {
        if !self
            .accesses
            .iter()
            .any(|a| a.kind == access.kind && a.region == access.region)
        {
            self.accesses.push(access);
        }
    }

    /// Any memory read (`kind` Read) or written, through a pointer or
    /// buffer of unknown origin (`through_pointers`) or not.
    fn all_memory(&mut self, kind: AccessKind, through_pointers: bool) {
        match kind {
            AccessKind::Read => self.reads_all = true,
            AccessKind::Write => self.writes_all = true,
        }
        self.through_pointers |= through_pointers;
    }

    /// True if the op accesses no memory.
    pub fn is_empty(&self) -> bool {
        self.accesses.is_empty() && !self.reads_all && !self.writes_all
    }
}

/// [`accesses`] of each op, computed once, with the [`Forms`] they were
/// computed with: for an analysis that asks for the same ops' accesses in
/// several of its steps (the pipeliner's schedule, legality, dependence and
/// barrier steps ask for each body op's). Valid while the IR it saw is
/// unchanged: keyed by op.
#[derive(Default)]
pub struct AccessCache<'c, 'a> {
    /// The value forms, shared by every op's accesses.
    pub forms: Forms,
    found: FxHashMap<usize, Rc<OpAccesses<'c, 'a>>>,
}

impl<'c: 'a, 'a> AccessCache<'c, 'a> {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the ops' accesses (not the value forms): none of the ops
    /// seen is asked about again.
    pub fn forget_ops(&mut self) {
        self.found.clear();
    }

    /// [`accesses`] of `op`.
    pub fn of(&mut self, op: &OperationRef<'c, 'a>) -> Rc<OpAccesses<'c, 'a>> {
        let forms = &mut self.forms;
        Rc::clone(
            self.found
                .entry(op.to_raw().ptr as usize)
                .or_insert_with(|| Rc::new(accesses(forms, op))),
        )
    }
}

/// The extents of a vector type, outermost first.
fn vector_shape(ty: Type) -> Vec<i64> {
    // SAFETY: `ty` is live; checked to be a shaped type with a rank first.
    unsafe {
        let raw = ty.to_raw();
        if !mlir_sys::mlirTypeIsAVector(raw) {
            return Vec::new();
        }
        (0..mlir_sys::mlirShapedTypeGetRank(raw) as isize)
            .map(|i| mlir_sys::mlirShapedTypeGetDimSize(raw, i))
            .collect()
    }
}

/// The function a call op names (its `callee` symbol, looked up in the
/// nearest enclosing module or `gpu.module`), if it has a body there.
pub(crate) fn callee_function<'c: 'a, 'a>(
    op: &OperationRef<'c, 'a>,
) -> Option<OperationRef<'c, 'a>> {
    use melior::ir::BlockLike as _;
    let name = crate::group_distance::callee(op)?;
    let table =
        ops::ancestors(op).find(|p| ops::is(p, "builtin.module") || ops::is(p, "gpu.module"))?;
    ops::blocks_of(&table)
        .into_iter()
        .flat_map(|b| std::iter::successors(b.first_operation(), |o| o.next_in_block()))
        .filter(ops::is_function)
        .find(|f| crate::group_distance::symbol_name(f).as_deref() == Some(name.as_str()))
        .filter(|f| {
            ops::blocks_of(f)
                .first()
                .is_some_and(|b| b.first_operation().is_some())
        })
}

/// How many function summaries ([`function_accesses`]) may be computed
/// inside one another (a chain of calls deeper than this is taken to read
/// and write every memref it receives).
const CALL_DEPTH: u32 = 32;

thread_local! {
    /// The function summaries [`function_accesses`] is computing now.
    static CALL_NESTING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// What a function's ops access, in its own terms (regions of its
/// arguments, globals and own buffers; see [`function_accesses`]).
#[derive(Debug)]
pub(crate) struct FunctionAccesses {
    /// Each access: read or write, the region, the key of the memref
    /// operand accessed, and whether it is assumed ([`Access::assumed`]).
    accesses: Vec<(AccessKind, Region, Option<usize>, bool)>,
    /// Some op may read any memory.
    reads_all: bool,
    /// Some op may write any memory.
    writes_all: bool,
    /// Some op's `reads_all` / `writes_all` come from a pointer or buffer
    /// of unknown origin ([`OpAccesses::through_pointers`]).
    through_pointers: bool,
}

/// The accesses of every op of `function` (with the [`Forms`] of its own
/// values; the calls it makes followed the same way), computed once per
/// function and analysis (in [`Forms`]). `None` for a function whose
/// summary is being computed (a recursive call) or past [`CALL_DEPTH`]
/// summaries computed inside one another.
pub(crate) fn function_accesses(
    forms: &mut Forms,
    function: &OperationRef,
) -> Option<Rc<FunctionAccesses>> {
    let key = super::values::op_key(function);
    if let Some(known) = forms.calls.accesses.get(&key) {
        return known.clone();
    }
    if CALL_NESTING.with(|n| n.get()) >= CALL_DEPTH {
        return None;
    }
    forms.calls.accesses.insert(key, None);
    CALL_NESTING.with(|n| n.set(n.get() + 1));
    // The callee's values get forms of their own; the summaries are
    // shared.
    let mut callee_forms = Forms::new();
    std::mem::swap(&mut callee_forms.calls, &mut forms.calls);
    let mut summary = FunctionAccesses {
        accesses: Vec::new(),
        reads_all: false,
        writes_all: false,
        through_pointers: false,
    };
    for nested in ops::nested_ops(function) {
        let found = accesses(&mut callee_forms, &nested);
        summary.reads_all |= found.reads_all;
        summary.writes_all |= found.writes_all;
        summary.through_pointers |= found.through_pointers;
        summary.accesses.extend(found.accesses.into_iter().map(|a| {
            (
                a.kind,
                a.region,
                a.value.map(super::values::value_key),
                a.assumed,
            )
        }));
    }
    std::mem::swap(&mut callee_forms.calls, &mut forms.calls);
    CALL_NESTING.with(|n| n.set(n.get() - 1));
    let summary = Rc::new(summary);
    forms.calls.accesses.insert(key, Some(Rc::clone(&summary)));
    Some(summary)
}

/// What a call `op` of `function` whose summary is being computed (a
/// recursive call), or past [`CALL_DEPTH`], may access: every memref it
/// receives, whole, read and written (as a call of an external function),
/// each global that a function it may reach (through calls) takes, whole,
/// read and written, and all memory where one of them accesses memory of
/// unknown origin (or all memory). Trial 40: a summary made while a
/// mutually recursive function's was in progress left out the global that
/// function wrote, and a race on it went unreported.
fn recursive_call_accesses<'c: 'a, 'a>(
    forms: &mut Forms,
    op: &OperationRef<'c, 'a>,
    function: &OperationRef<'c, 'a>,
) -> OpAccesses<'c, 'a> {
    let reach = reachable_effects(forms, function);
    let mut out = OpAccesses {
        reads_all: reach.all,
        writes_all: reach.all,
        through_pointers: reach.all,
        ..OpAccesses::default()
    };
    let mut touched: Vec<Value<'c, 'a>> = op.operands().filter(|v| is_memref(*v)).collect();
    // SAFETY: keys of live `memref.get_global` results.
    touched.extend(
        reach
            .globals
            .iter()
            .map(|k| unsafe { super::values::value_of(*k) }),
    );
    for value in touched {
        let region = region_of(forms, value, None);
        for kind in [AccessKind::Read, AccessKind::Write] {
            out.accesses.push(Access {
                kind,
                region: region.clone(),
                value: Some(value),
                collective: false,
                assumed: true,
                asynchronous: false,
            });
        }
    }
    out
}

/// What the functions a call of `function` may reach (itself and, through
/// calls, every function they call) touch besides what they receive: one
/// `memref.get_global` result per global (keys), and `all` where some op
/// of theirs accesses memory of unknown origin or all memory. Computed
/// once per function and analysis.
pub(crate) struct Reach {
    /// One `memref.get_global` result (key) per global taken.
    globals: Vec<usize>,
    /// Some access is of unknown origin, or of all memory.
    all: bool,
}

/// [`Reach`] of `function`.
fn reachable_effects(forms: &mut Forms, function: &OperationRef) -> Rc<Reach> {
    let key = super::values::op_key(function);
    if let Some(known) = forms.calls.reach.get(&key) {
        return Rc::clone(known);
    }
    let mut functions = vec![*function];
    let mut next = 0;
    let mut reach = Reach {
        globals: Vec::new(),
        all: false,
    };
    let mut names: Vec<String> = Vec::new();
    let mut callee_forms = Forms::new();
    std::mem::swap(&mut callee_forms.calls, &mut forms.calls);
    while next < functions.len() && !reach.all {
        let f = functions[next];
        next += 1;
        for nested in ops::nested_ops(&f) {
            if ops::is(&nested, "memref.get_global") {
                let name = nested
                    .attribute("name")
                    .map(|a| a.to_string())
                    .unwrap_or_default();
                if !names.contains(&name) {
                    names.push(name);
                    if let Ok(result) = nested.result(0) {
                        reach.globals.push(super::values::value_key(result.into()));
                    }
                }
                continue;
            }
            if crate::group_distance::is_call(&nested) {
                match callee_function(&nested) {
                    Some(callee) => {
                        if !functions.contains(&callee) {
                            functions.push(callee);
                        }
                    }
                    // An external call touches what it receives: the
                    // reached functions' values, followed below.
                    None => {
                        for value in nested.operands().filter(|v| is_memref(*v)) {
                            reach.all |=
                                unknown_origin(&region_of(&mut callee_forms, value, None).root);
                        }
                    }
                }
                continue;
            }
            let found = accesses(&mut callee_forms, &nested);
            reach.all |= found.reads_all
                || found.writes_all
                || found
                    .accesses
                    .iter()
                    .any(|a| unknown_origin(&a.region.root));
        }
    }
    std::mem::swap(&mut callee_forms.calls, &mut forms.calls);
    let reach = Rc::new(reach);
    forms.calls.reach.insert(key, Rc::clone(&reach));
    reach
}

/// Step 3 for a call whose callee has a body: what the callee (and what it
/// calls, [`function_accesses`]) does with each memref the call passes,
/// read and/or write (the region it touches, mapped to the caller by
/// [`passed_region`]), and with each `memref.global` it takes with
/// `memref.get_global` (the whole global); all memory where the callee
/// accesses all memory. A recursive call (whose callee's summary is being
/// computed), or one past [`CALL_DEPTH`], reads and writes all memory: its
/// callee may touch globals as well as what it receives (trial 40: a
/// summary made while a mutually recursive function's was in progress
/// left out the global that function wrote, and a race on it went
/// unreported). `None` where the callee has no body here.
fn call_accesses<'c: 'a, 'a>(
    forms: &mut Forms,
    op: &OperationRef<'c, 'a>,
) -> Option<OpAccesses<'c, 'a>> {
    let function = callee_function(op)?;
    let Some(summary) = function_accesses(forms, &function) else {
        return Some(recursive_call_accesses(forms, op, &function));
    };
    let (reads_all, writes_all) = (summary.reads_all, summary.writes_all);
    let through_pointers = summary.through_pointers;
    let arguments = ops::entry_arguments(&function);
    let mut out = OpAccesses {
        reads_all,
        writes_all,
        through_pointers,
        ..OpAccesses::default()
    };
    let push = |out: &mut OpAccesses<'c, 'a>, kind, value: Option<Value<'c, 'a>>, region| {
        out.add(Access {
            kind,
            region,
            value,
            collective: false,
            assumed: false,
            asynchronous: false,
        });
    };
    for (kind, access, value, assumed) in &summary.accesses {
        // An access through a choice in the callee (an `arith.select` or
        // `scf.if` of its arguments) may be to each of its buffers, at its
        // positions there (trial 39: it was taken as any memory, a false
        // error).
        let pieces: Vec<&Region> = if access.alternatives().is_empty() {
            vec![access]
        } else {
            access.alternatives().iter().map(|a| &a.region).collect()
        };
        for inner in pieces {
            let root = &inner.root;
            let passed = arguments
                .iter()
                .position(|a| super::Symbol::Value(super::values::value_key(*a)) == root.symbol)
                .and_then(|i| op.operand_at(i));
            match (passed, &root.kind, value) {
                // Every element the callee may reach from an argument it
                // took through a view or a choice, or passed on to a call
                // it does not know: any of the buffer under the view the
                // call passes (a `memref.reinterpret_cast` in the callee
                // reaches outside it; trial 41: a helper that cast the
                // subview it got back to its base read an element in flight
                // unreported).
                (Some(passed), _, _)
                    if inner.dims.is_none()
                        && (*assumed || value.map(super::Symbol::Value) != Some(root.symbol)) =>
                {
                    let region = region_of(forms, passed, None);
                    push(&mut out, *kind, Some(passed), region);
                }
                (Some(value), _, _) => {
                    let region = passed_region(forms, op, 0, &arguments, inner, value);
                    push(&mut out, *kind, Some(value), region);
                }
                // A global the callee takes, through a memref or a pointer
                // made from one.
                (None, super::region::RootKind::Global(_), value) => {
                    // SAFETY: the key of a live value of the callee.
                    let value = value.map(|v| unsafe { super::values::value_of(v) });
                    let region = Region {
                        root: root.clone(),
                        dims: None,
                    };
                    push(&mut out, *kind, value, region);
                }
                // The callee's own buffers are none of the caller's
                // business; a buffer of unknown origin may be any.
                (None, super::region::RootKind::Other | super::region::RootKind::Choice(_), _) => {
                    out.all_memory(*kind, true);
                }
                _ => {}
            }
        }
    }
    Some(out)
}

/// The region in the caller of a callee's access `inner` to its argument
/// that the call `op` passes `value` for: the callee's positions with each
/// index argument replaced by the form of the operand the call passes
/// (`@consume(%buf, %c1)` reading `%b[%i]` reads `%buf[1]`), followed
/// through the caller's views of `value`; the whole of `value` when a
/// position depends on anything else of the callee. The callee's argument
/// `i` is the call's operand `first_argument + i` (1 for a call through a
/// value, whose operand 0 is the callee).
pub(crate) fn passed_region<'c: 'a, 'a>(
    forms: &mut Forms,
    op: &OperationRef<'c, 'a>,
    first_argument: usize,
    arguments: &[Value<'c, 'a>],
    inner: &Region,
    value: Value<'c, 'a>,
) -> Region {
    let mut symbols = Vec::new();
    inner.symbols(&mut symbols);
    let keys: Vec<usize> = arguments
        .iter()
        .map(|a| super::values::value_key(*a))
        .collect();
    let position = |s: &super::Symbol| match s {
        super::Symbol::Value(k) => keys.iter().position(|a| a == k),
        _ => None,
    };
    let mapped: Option<Vec<(super::Symbol, super::Lin)>> = symbols
        .iter()
        .map(|s| {
            let i = position(s)?;
            let operand = op.operand_at(first_argument + i)?;
            (!super::region::is_memref(operand)).then(|| (*s, forms.of(operand)))
        })
        .collect();
    match (mapped, inner.dims.as_ref(), inner.alternatives().is_empty()) {
        (Some(mapped), Some(_), true) => {
            let dims = inner
                .substitute(&|s| mapped.iter().find(|(m, _)| *m == s).map(|(_, l)| l.clone()))
                .dims;
            region_of(forms, value, dims)
        }
        _ => whole(forms, value),
    }
}

/// True if the op's `permutation_map` (absent: identity) is a minor
/// identity.
fn minor_identity(op: &OperationRef) -> bool {
    let Ok(attribute) = op.attribute("permutation_map") else {
        return true;
    };
    // SAFETY: a live attribute, checked to be an affine map.
    unsafe {
        mlir_sys::mlirAttributeIsAAffineMap(attribute.to_raw())
            && mlir_sys::mlirAffineMapIsMinorIdentity(mlir_sys::mlirAffineMapAttrGetValue(
                attribute.to_raw(),
            ))
    }
}

/// `src` and `dst` regions of an `apipe.copy` or `apipe.bulk_copy`: `elements` along the
/// innermost dimension of each, at its indices (the source: a constant
/// `src_elements` below `elements`, when the copy has one).
pub fn copy_regions(forms: &mut Forms, copy: &OperationRef) -> (Region, Region) {
    let src = copy.operand(0).expect("verified apipe.copy");
    let dst = copy.operand(1).expect("verified apipe.copy");
    // `apipe.bulk_copy` has its ring and slot before the indices.
    let first = if ops::is(copy, ops::BULK_COPY) { 4 } else { 2 };
    let indices: Vec<Value> = copy.operands().skip(first).collect();
    let elements = attributes::integer(copy, attributes::ELEMENTS).unwrap_or(1);
    let (src_rank, dst_rank) = (rank(src), rank(dst));
    // A constant `src_elements` below `elements` (PTX `cp.async`'s
    // src-size, ISA 9.7.9.25): only that many source elements are read,
    // the rest of the destination is zero-filled. At least one is kept (a
    // region has no empty extent); a dynamic one may be up to `elements`.
    let src_extent = src_rank
        .zip(dst_rank)
        .filter(|_| !ops::is(copy, ops::BULK_COPY))
        .and_then(|(s, d)| indices.get(s.checked_add(d)?))
        .and_then(|v| super::values::constant(*v))
        .filter(|n| (1..elements).contains(n))
        .unwrap_or(elements);
    let split = |start: usize, count: Option<usize>| -> Option<&[Value]> {
        indices.get(start..start.checked_add(count?)?)
    };
    let src_indices = split(0, src_rank);
    let dst_indices = src_rank.and_then(|s| split(s, dst_rank));
    let region = |forms: &mut Forms, memref, ix: Option<&[Value]>, extent: i64| match ix {
        Some(ix) => indexed(forms, memref, ix, &[extent]),
        None => whole(forms, memref),
    };
    (
        region(forms, src, src_indices, src_extent),
        region(forms, dst, dst_indices, elements),
    )
}

/// A narrowed access of `memref` (operand `at`) with indices starting at
/// operand `first` (one per dimension), and the extents of the innermost
/// dimensions.
fn narrowed(
    forms: &mut Forms,
    op: &OperationRef,
    at: usize,
    first: usize,
    extents: &[i64],
) -> Option<(usize, Region)> {
    let memref = op.operand_at(at)?;
    let r = rank(memref)?;
    let indices: Vec<Value> = op.operands().skip(first).take(r).collect();
    (indices.len() == r).then(|| (at, indexed(forms, memref, &indices, extents)))
}

/// The lanes of a constant 1-D vector of integers or `i1`s: an
/// `arith.constant` of dense elements, or for a mask `vector.constant_mask
/// [n]` / `vector.create_mask %n` with `%n` constant (the first `n` lanes
/// set); `None` for anything else.
fn constant_lanes(value: Value) -> Option<Vec<i64>> {
    let shape = vector_shape(value.r#type());
    let [count] = shape.as_slice() else {
        return None;
    };
    let count = *count;
    if !(0..=4096).contains(&count) {
        return None;
    }
    let op = ops::defining_op(value)?;
    let first_set = |n: i64| Some((0..count).map(|j| i64::from(j < n)).collect());
    match ops::name(&op) {
        "vector.constant_mask" => {
            first_set(*super::values::dense_i64(&op, "mask_dim_sizes")?.first()?)
        }
        "vector.create_mask" => first_set(ops::constant_int(op.operand_at(0)?)?),
        "arith.constant" => {
            let attribute = op.attribute("value").ok()?;
            let raw = attribute.to_raw();
            let element = vector_element_bits(value.r#type())?;
            // SAFETY: a live attribute, checked to be dense elements of
            // `count` values of the element type read.
            unsafe {
                use mlir_sys::*;
                if !mlirAttributeIsADenseElements(raw)
                    || mlirElementsAttrGetNumElements(raw) != count
                {
                    return None;
                }
                let splat = mlirDenseElementsAttrIsSplat(raw);
                (0..count as isize)
                    .map(|j| match (element, splat) {
                        (1, true) => Some(i64::from(mlirDenseElementsAttrGetBoolSplatValue(raw))),
                        (1, false) => Some(i64::from(mlirDenseElementsAttrGetBoolValue(raw, j))),
                        (32, true) => Some(i64::from(mlirDenseElementsAttrGetInt32SplatValue(raw))),
                        (32, false) => Some(i64::from(mlirDenseElementsAttrGetInt32Value(raw, j))),
                        (64, true) => Some(mlirDenseElementsAttrGetInt64SplatValue(raw)),
                        (64, false) => Some(mlirDenseElementsAttrGetInt64Value(raw, j)),
                        _ => None,
                    })
                    .collect()
            }
        }
        _ => None,
    }
}

/// The width of a vector type's element when it is a signless integer
/// (`i1`, `i32`, ...) or `index` (64).
fn vector_element_bits(ty: Type) -> Option<u32> {
    // SAFETY: accessors on the type kinds they are defined for.
    unsafe {
        let raw = ty.to_raw();
        if !mlir_sys::mlirTypeIsAVector(raw) {
            return None;
        }
        let element = mlir_sys::mlirShapedTypeGetElementType(raw);
        if mlir_sys::mlirTypeIsAIndex(element) {
            return Some(64);
        }
        mlir_sys::mlirTypeIsAInteger(element).then(|| mlir_sys::mlirIntegerTypeGetWidth(element))
    }
}

/// A masked or indexed 1-D vector access of operand `at` (indices from
/// `first`, one per dimension) whose lanes are constant: lane `j` touches
/// the innermost position `indices[last] + offsets[j]` when `mask[j]` is
/// set (vector dialect: a masked-off lane accesses nothing), so the
/// access is the hull of the set lanes' positions (trial 61: the hull of
/// every lane was a false read-after-write). `offsets` is the lane number
/// for `vector.maskedload` / `maskedstore` (operand `mask_at` the mask),
/// the index vector (operand `index_at`) for `vector.gather` / `scatter`,
/// which only a rank-1 memref keeps on one dimension. `None` (the op's
/// other narrowing, or the whole memref) where a lane is not constant or
/// none is set.
fn constant_lanes_access(
    forms: &mut Forms,
    op: &OperationRef,
    at: usize,
    first: usize,
    index_at: Option<usize>,
) -> Option<(usize, Region)> {
    let memref = op.operand_at(at)?;
    let r = rank(memref)?;
    if r == 0 || (index_at.is_some() && r != 1) {
        return None;
    }
    let indices: Vec<Value> = op.operands().skip(first).take(r).collect();
    if indices.len() != r {
        return None;
    }
    let mask_at = first + r + usize::from(index_at.is_some());
    let mask = constant_lanes(op.operand_at(mask_at)?)?;
    let offsets = match index_at {
        Some(i) => constant_lanes(op.operand_at(i)?)?,
        None => (0..mask.len() as i64).collect(),
    };
    if offsets.len() != mask.len() {
        return None;
    }
    let set: Vec<i64> = offsets
        .iter()
        .zip(&mask)
        .filter(|(_, m)| **m != 0)
        .map(|(o, _)| *o)
        .collect();
    let (low, high) = (*set.iter().min()?, *set.iter().max()?);
    let mut dims = point_dims(forms, &indices);
    if let Some(super::region::Dim::Range { start, extent }) = dims.last_mut() {
        *start = start.plus(&super::affine::Lin::constant(low), 1)?;
        *extent = high.checked_sub(low)?.checked_add(1)?;
    }
    Some((at, super::region::region_of(forms, memref, Some(dims))))
}

/// The collective access of a `gpu.subgroup_mma_load_matrix` /
/// `store_matrix` to operand `at` (indices from `first`). The fragment of
/// R x C elements (`!gpu.mma_matrix<RxC...>`; C x R with `transpose`) lies
/// at the element offsets `base + r * leadDimension + c` (MLIR `gpu` dialect;
/// WMMA `load_matrix_sync`), `base` at the indexed row and column:
/// - where `leadDimension` is the row stride and the column index `c` is
///   provably in `[0, row length - C]` (a constant, or from the facts of
///   its symbols at the op, as `warp * 16` in a known block): the box of R
///   rows from the row index and the columns `[c, c + C)`;
/// - else `ceil((c + (R - 1) * ld + C) / row stride)` rows from the row
///   index (c at its largest in-bounds value when not a constant), any
///   column.
///
/// Rank 2: those rows (past the buffer's end is out of bounds). Rank >= 3:
/// those rows of the plane the leading indices name, where the row index
/// provably keeps them in it; else the whole buffer (trials 85 and 86: a
/// `leadDimension` of twice the row length, or a row index `warp * 8` of a
/// 16-row fragment, reaches the next plane, and was taken to stay in its
/// own). A fragment shape, `leadDimension` or layout it cannot read: the
/// whole buffer.
fn mma_access(
    forms: &mut Forms,
    op: &OperationRef,
    at: usize,
    first: usize,
) -> Option<(usize, Region)> {
    let (memref, indices) = indexed_operand(op, at, first)?;
    let mut dims = point_dims(forms, &indices);
    if mma_fit(forms, op, memref, &indices, &mut dims).is_none() {
        dims.iter_mut().for_each(|d| *d = super::region::Dim::Any);
    }
    Some((at, super::region::region_of(forms, memref, Some(dims))))
}

/// The last two of `dims` for [`mma_access`]'s fragment, where it provably
/// fits (`None` otherwise: `dims` is then left as it was).
fn mma_fit(
    forms: &mut Forms,
    op: &OperationRef,
    memref: Value,
    indices: &[Value],
    dims: &mut [super::region::Dim],
) -> Option<()> {
    use super::region::Dim;
    let r = indices.len();
    let g = mma_geometry(op, memref, r)?;
    let (row, column) = (forms.of(indices[r - 2]), forms.of(indices[r - 1]));
    // `x >= 0` at the op, from the facts of its symbols.
    let mut provable = |x: Option<Lin>| x.is_some_and(|x| forms.nonnegative_at(&x, op));
    let boxed = g.lead == g.row_stride
        && provable(Some(column.clone()))
        && provable(Lin::constant(g.inner - g.cols).plus(&column, -1));
    let (span, columns) = if boxed {
        (
            g.rows,
            Dim::Range {
                start: column,
                extent: g.cols,
            },
        )
    } else {
        let c = super::values::constant(indices[r - 1])
            .filter(|c| *c >= 0)
            .unwrap_or(g.inner - 1);
        let end = (g.rows - 1)
            .checked_mul(g.lead)?
            .checked_add(g.cols)?
            .checked_add(c)?;
        ((end + g.row_stride - 1) / g.row_stride, Dim::Any)
    };
    if r >= 3
        && !(provable(Some(row.clone()))
            && provable(Lin::constant(g.rows_in_plane.checked_sub(span)?).plus(&row, -1)))
    {
        return None;
    }
    dims[r - 2] = Dim::Range {
        start: row,
        extent: span,
    };
    dims[r - 1] = columns;
    Some(())
}

/// What [`mma_geometry`] reads: the fragment's rows and columns as stored
/// (`transpose` swaps them), `leadDimension`, the memref's row stride, and
/// its last two sizes.
struct MmaGeometry {
    rows: i64,
    cols: i64,
    lead: i64,
    row_stride: i64,
    rows_in_plane: i64,
    inner: i64,
}

/// The [`MmaGeometry`] of an mma op on `memref` of rank `r`: `None` unless
/// the fragment shape, `leadDimension`, a unit innermost stride, a static
/// positive row stride and static last two sizes are known.
fn mma_geometry(op: &OperationRef, memref: Value, r: usize) -> Option<MmaGeometry> {
    use melior::ir::r#type::{DimSize, ShapedTypeLike as _};
    if r < 2 {
        return None;
    }
    let ty = melior::ir::r#type::MemRefType::try_from(memref.r#type()).ok()?;
    let (strides, _) = crate::cp_async::static_strides_and_offset(ty)?;
    let (row_stride, inner_stride) = (strides[r - 2], strides[r - 1]);
    let size = |d: usize| match ty.dim_size(d) {
        Ok(DimSize::Static(n)) => i64::try_from(n).ok(),
        _ => None,
    };
    let (rows_in_plane, inner) = (size(r - 2)?, size(r - 1)?);
    if inner_stride != 1 || row_stride <= 0 || rows_in_plane <= 0 || inner <= 0 {
        return None;
    }
    let lead = attributes::integer(op, "leadDimension").filter(|l| *l > 0)?;
    let fragment = if ops::is(op, "gpu.subgroup_mma_store_matrix") {
        op.operand_at(0)?.r#type()
    } else {
        op.result_at(0)?.r#type()
    };
    let (mut rows, mut cols) = mma_fragment_shape(fragment)?;
    if op.has_attribute("transpose") {
        std::mem::swap(&mut rows, &mut cols);
    }
    Some(MmaGeometry {
        rows,
        cols,
        lead,
        row_stride,
        rows_in_plane,
        inner,
    })
}

/// The R x C shape of a `!gpu.mma_matrix<RxCxT, "...">` type (read from its
/// text: the C API has no accessor for it).
fn mma_fragment_shape(ty: Type) -> Option<(i64, i64)> {
    let text = ty.to_string();
    let shape = text.strip_prefix("!gpu.mma_matrix<")?;
    let mut parts = shape.split('x');
    let rows = parts.next()?.trim().parse::<i64>().ok()?;
    let cols = parts.next()?.trim().parse::<i64>().ok()?;
    (rows > 0 && cols > 0).then_some((rows, cols))
}

/// One position per index, `[index, index + 1)` in each dimension.
fn point_dims(forms: &mut Forms, indices: &[Value]) -> Vec<super::region::Dim> {
    indices
        .iter()
        .map(|i| super::region::Dim::Range {
            start: forms.of(*i),
            extent: 1,
        })
        .collect()
}

/// `vector.compressstore` / `expandload` with a constant mask of `n`
/// set lanes: the set lanes access `n` consecutive elements from
/// `base[indices]` along the innermost dimension (vector dialect), not the
/// whole buffer (trial 64: a false write-after-write); a mask that sets no
/// lane, the base element. `None` (the whole memref) for a mask that is
/// not constant.
fn packed_lanes_access(forms: &mut Forms, op: &OperationRef) -> Option<(usize, Region)> {
    let memref = op.operand_at(0)?;
    let r = rank(memref)?;
    let indices: Vec<Value> = op.operands().skip(1).take(r).collect();
    if r == 0 || indices.len() != r {
        return None;
    }
    let set = constant_lanes(op.operand_at(1 + r)?)?
        .iter()
        .filter(|m| **m != 0)
        .count() as i64;
    // No lane set: no access; the base element stands for it (a region
    // has at least one element: conservative).
    let mut dims = point_dims(forms, &indices);
    if let Some(super::region::Dim::Range { extent, .. }) = dims.last_mut() {
        *extent = set.max(1);
    }
    Some((0, super::region::region_of(forms, memref, Some(dims))))
}

/// An access of `kind` through the pointer (or other non-memref value)
/// `pointer`: of the elements of `bytes` bytes at the pointer where its
/// offset from a memref's aligned pointer is known
/// ([`super::region::pointer_element_region`]), else of the whole root
/// buffer it is made from ([`pointer_root`]), else of all memory.
/// `assumed` for an op without memory-effect information.
fn pointer_access<'c: 'a, 'a>(
    forms: &mut Forms,
    out: &mut OpAccesses<'c, 'a>,
    kind: AccessKind,
    pointer: Value<'c, 'a>,
    bytes: Option<i64>,
    assumed: bool,
) {
    let Some(base) = pointer_base(forms, pointer) else {
        out.all_memory(kind, true);
        return;
    };
    let region = match (base.memref, base.offset, bytes) {
        (Some(memref), Some(offset), Some(bytes)) => {
            super::region::pointer_element_region(forms, memref, &offset, bytes)
        }
        // A buffer only pointers reach (an `llvm.alloca`, an
        // `llvm.mlir.addressof`, a kernel's pointer argument): its
        // positions are bytes.
        (None, Some(offset), Some(bytes)) => Some(Region {
            root: base.region.root.clone(),
            dims: Some(vec![super::region::Dim::Range {
                start: offset,
                extent: bytes,
            }]),
        }),
        _ => None,
    }
    .unwrap_or(base.region);
    out.add(Access {
        kind,
        region,
        value: None,
        collective: false,
        assumed,
        asynchronous: false,
    });
}

/// Where a pointer points, as [`pointer_base`] finds it.
struct PointerBase<'c, 'a> {
    /// The whole of the root buffer (no dimensions).
    region: Region,
    /// The memref whose aligned pointer the pointer is made from, if it is.
    memref: Option<Value<'c, 'a>>,
    /// The pointer's distance in bytes from that aligned pointer (or from
    /// the buffer the pointer names), where the arithmetic says it.
    offset: Option<Lin>,
}

/// The buffer a pointer is made from, as the whole of its root: `pointer`
/// followed back through `llvm.getelementptr` (its base), `llvm.bitcast`,
/// `llvm.addrspacecast`, `llvm.inttoptr` / `llvm.ptrtoint`, integer casts
/// (`arith.index_cast` / `index_castui` / `extui` / `extsi` / `trunci`
/// and their LLVM twins), additions
/// (either addend; a subtraction's minuend) to a
/// `memref.extract_aligned_pointer_as_index` of a memref. An address
/// computed from one buffer's pointer stays in that buffer (LangRef,
/// "Pointer Aliasing Rules": an access through a pointer based on one
/// object may only reach that object); or to a buffer the pointer names
/// itself ([`super::region::pointer_value_root`]: an `llvm.alloca`, an
/// `llvm.mlir.addressof`, a kernel's pointer argument). `None` for a
/// pointer of unknown origin (another argument, a load, a call result),
/// or an address computed from two buffers' addresses.
pub fn pointer_root(forms: &mut Forms, pointer: Value) -> Option<Region> {
    pointer_base(forms, pointer).map(|base| base.region)
}

/// [`pointer_root`], with the memref and the byte offset.
fn pointer_base<'c: 'a, 'a>(
    forms: &mut Forms,
    pointer: Value<'c, 'a>,
) -> Option<PointerBase<'c, 'a>> {
    // The chain is as long as the IR's arithmetic; bounded for safety.
    pointer_base_within(forms, pointer, &mut 64)
}

/// [`pointer_base`], following at most `budget` more ops.
fn pointer_base_within<'c: 'a, 'a>(
    forms: &mut Forms,
    pointer: Value<'c, 'a>,
    budget: &mut usize,
) -> Option<PointerBase<'c, 'a>> {
    let mut value = pointer;
    // The bytes added on the way so far.
    let mut offset = Some(Lin::constant(0));
    let add = |offset: Option<Lin>, more: Option<Lin>, sign: i64| {
        offset.zip(more).and_then(|(o, m)| o.plus(&m, sign))
    };
    while *budget > 0 {
        *budget -= 1;
        if let Some(root) = super::region::pointer_value_root(value) {
            return Some(PointerBase {
                region: Region { root, dims: None },
                memref: None,
                offset,
            });
        }
        let op = ops::defining_op(value)?;
        value = match ops::name(&op) {
            "memref.extract_aligned_pointer_as_index" => {
                let memref = op.operand_at(0)?;
                return Some(PointerBase {
                    region: Region {
                        root: region_of(forms, memref, None).root,
                        dims: None,
                    },
                    memref: Some(memref),
                    offset,
                });
            }
            // An index or a subtrahend made from a buffer's address
            // (`p[&B - &A]`; trial 68) may lead into any buffer: none.
            "llvm.getelementptr" => {
                if op
                    .operands()
                    .skip(1)
                    .any(|index| mentions_address(index, 0))
                {
                    return None;
                }
                offset = add(offset, element_offset(forms, &op), 1);
                op.operand_at(0)?
            }
            "arith.subi" | "llvm.sub" => {
                let subtrahend = op.operand_at(1)?;
                if mentions_address(subtrahend, 0) {
                    return None;
                }
                offset = add(offset, Some(forms.of(subtrahend)), -1);
                op.operand_at(0)?
            }
            "llvm.bitcast" | "llvm.addrspacecast" | "llvm.inttoptr" | "llvm.ptrtoint"
            | "arith.index_cast" | "arith.index_castui" | "arith.extui" | "arith.extsi"
            | "arith.trunci" | "llvm.zext" | "llvm.sext" | "llvm.trunc" => op.operand_at(0)?,
            // One addend is the address, the other an offset; an address
            // made from two buffers' (`g + (w - g)`) may be either: none.
            "arith.addi" | "llvm.add" => {
                let (a, b) = (op.operand_at(0)?, op.operand_at(1)?);
                let from_a = pointer_base_within(forms, a, budget);
                let from_b = pointer_base_within(forms, b, budget);
                let (mut base, other) = match (from_a, from_b) {
                    (Some(x), Some(y)) => {
                        if !super::region::same_buffer(&x.region.root, &y.region.root) {
                            return None;
                        }
                        // Two addresses of one buffer added: no offset.
                        (PointerBase { offset: None, ..x }, None)
                    }
                    // The other addend an offset, not made from an address
                    // (`&A + (&B - &A)` is in `B`).
                    (Some(x), None) if !mentions_address(b, 0) => (x, Some(b)),
                    (None, Some(y)) if !mentions_address(a, 0) => (y, Some(a)),
                    _ => return None,
                };
                let more = other.map(|v| forms.of(v));
                base.offset = add(add(base.offset, more, 1), offset, 1);
                return Some(base);
            }
            _ => return None,
        };
    }
    None
}

/// True if the integer `value` may be computed from an address: a
/// `memref.extract_aligned_pointer_as_index` or `llvm.ptrtoint` among the
/// operands of the `arith` / `index` / LLVM integer ops it is made of (and
/// true past 16 ops deep, or through a block argument of a loop).
fn mentions_address(value: Value, depth: usize) -> bool {
    if depth > 16 {
        return true;
    }
    let Some(op) = ops::defining_op(value) else {
        // A function's argument is no address of the function's buffers;
        // an iter_arg or other block argument may carry one.
        return super::values::block_argument(value).is_none_or(|(block, _)| {
            block
                .parent_operation()
                .is_none_or(|parent| !ops::is_function(&parent) || !ops::is_entry_block(&block))
        });
    };
    let name = ops::name(&op);
    match name {
        "memref.extract_aligned_pointer_as_index" | "llvm.ptrtoint" => true,
        "arith.constant" | "llvm.mlir.constant" => false,
        _ if name.starts_with("arith.")
            || name.starts_with("index.")
            || matches!(
                name,
                "llvm.add" | "llvm.sub" | "llvm.mul" | "llvm.zext" | "llvm.sext" | "llvm.trunc"
            ) =>
        {
            op.operands().any(|v| mentions_address(v, depth + 1))
        }
        // A load, a call, an id: not an address of the function's.
        _ => false,
    }
}

/// The bytes an `llvm.getelementptr` with one index adds to its base:
/// the index times the size of its element type (LangRef,
/// `getelementptr`: its allocation size); `None` for more indices or an
/// element type whose size [`plain_size`] does not give.
fn element_offset(forms: &mut Forms, gep: &OperationRef) -> Option<Lin> {
    // `rawConstantIndices` holds each index, `i32::MIN` for one passed as
    // an operand (after the base).
    let raw = super::values::dense_i32(gep, "rawConstantIndices")?;
    let [index] = raw.as_slice() else {
        return None;
    };
    let index = if *index == i32::MIN {
        forms.of(gep.operand_at(1)?)
    } else {
        Lin::constant(i64::from(*index))
    };
    let element = gep
        .attribute("elem_type")
        .ok()
        .and_then(|a| melior::ir::attribute::TypeAttribute::try_from(a).ok())?
        .value();
    index.scaled(plain_size(element)?)
}

/// The size in bytes of a value of `ty` in memory, for the types whose
/// size and allocation size agree in every data layout apipe targets
/// (LLVM's x86-64 and NVPTX): integers of 8, 16, 32 and 64 bits, `f16`,
/// `bf16`, `f32`, `f64`, and vectors of a power-of-two count of those. Not
/// other integer widths (`i24` takes 3 bytes, 4 in an array), `i1`
/// vectors (packed in bits), `f80`, `index`, pointers or aggregates
/// (their layout is the target's; MLIR's default layout differs: trial
/// 68): `None`, so that an access through such a type is not narrowed.
fn plain_size(ty: Type) -> Option<i64> {
    // SAFETY: accessors on a live type of the kind they are defined for.
    unsafe {
        let raw = ty.to_raw();
        if mlir_sys::mlirTypeIsAVector(raw) {
            if mlir_sys::mlirShapedTypeGetRank(raw) != 1 {
                return None;
            }
            let lanes = mlir_sys::mlirShapedTypeGetDimSize(raw, 0);
            let element = Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw));
            return (lanes > 0 && (lanes as u64).is_power_of_two())
                .then(|| plain_size(element))
                .flatten()
                .and_then(|size| size.checked_mul(lanes));
        }
        if mlir_sys::mlirTypeIsAInteger(raw) {
            let bits = mlir_sys::mlirIntegerTypeGetWidth(raw);
            return matches!(bits, 8 | 16 | 32 | 64).then_some(i64::from(bits / 8));
        }
        if mlir_sys::mlirTypeIsAF16(raw) || mlir_sys::mlirTypeIsABF16(raw) {
            return Some(2);
        }
        if mlir_sys::mlirTypeIsAF32(raw) {
            return Some(4);
        }
        if mlir_sys::mlirTypeIsAF64(raw) {
            return Some(8);
        }
    }
    None
}

/// The bytes an `llvm.load` / `llvm.store` of a scalar or vector moves
/// (`None` for any other op, or a type [`plain_size`] does not give).
fn loaded_or_stored_bytes(op: &OperationRef) -> Option<i64> {
    let ty = match ops::name(op) {
        "llvm.load" => op.result_at(0)?.r#type(),
        "llvm.store" => op.operand_at(0)?.r#type(),
        _ => return None,
    };
    plain_size(ty)
}

/// True if `value` is an `!llvm.ptr` (of any address space).
fn is_llvm_pointer(value: Value) -> bool {
    // SAFETY: a live value's type.
    unsafe { mlir_sys::mlirTypeIsALLVMPointerType(value.r#type().to_raw()) }
}

/// The memref operand `at` of `op` and its indices, one per dimension from
/// operand `first`; `None` if there are fewer.
fn indexed_operand<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    at: usize,
    first: usize,
) -> Option<(Value<'c, 'a>, Vec<Value<'c, 'a>>)> {
    let memref = op.operand_at(at)?;
    let r = rank(memref)?;
    let indices: Vec<Value> = op.operands().skip(first).take(r).collect();
    (indices.len() == r).then_some((memref, indices))
}

/// A collective access of operand `at` (indices from `first`): the leading
/// indices, every position of the last two dimensions.
fn collective(
    forms: &mut Forms,
    op: &OperationRef,
    at: usize,
    first: usize,
) -> Option<(usize, Region)> {
    let (memref, indices) = indexed_operand(op, at, first)?;
    let mut dims = point_dims(forms, &indices);
    for d in dims.iter_mut().rev().take(2) {
        *d = super::region::Dim::Any;
    }
    Some((at, super::region::region_of(forms, memref, Some(dims))))
}

/// Step 2: the narrowed regions of the ops whose indices are known, as
/// (operand position, region); and whether the op is collective.
fn narrowing(forms: &mut Forms, op: &OperationRef) -> (Vec<(usize, Region)>, bool) {
    let name = ops::name(op);
    let result_shape = || {
        op.result_at(0)
            .map(|r| vector_shape(r.r#type()))
            .unwrap_or_default()
    };
    let operand_shape = |i: usize| {
        op.operand_at(i)
            .map(|v| vector_shape(v.r#type()))
            .unwrap_or_default()
    };
    let rank_of = |at: usize| op.operand_at(at).and_then(rank).unwrap_or(0);
    let found = match name {
        "vector.maskedload" | "vector.maskedstore" => constant_lanes_access(forms, op, 0, 1, None)
            .or_else(|| {
                let shape = if name == "vector.maskedload" {
                    result_shape()
                } else {
                    operand_shape(op.operand_count().saturating_sub(1))
                };
                narrowed(forms, op, 0, 1, &shape)
            }),
        "vector.gather" | "vector.scatter" => {
            constant_lanes_access(forms, op, 0, 1, Some(1 + rank_of(0)))
        }
        "vector.compressstore" | "vector.expandload" => packed_lanes_access(forms, op),
        "memref.load" | "memref.generic_atomic_rmw" => narrowed(forms, op, 0, 1, &[]),
        "memref.store" | "memref.atomic_rmw" => narrowed(forms, op, 1, 2, &[]),
        "vector.load" => narrowed(forms, op, 0, 1, &result_shape()),
        "vector.store" => narrowed(forms, op, 1, 2, &operand_shape(0)),
        "vector.transfer_read" if minor_identity(op) => narrowed(forms, op, 0, 1, &result_shape()),
        "vector.transfer_write" if minor_identity(op) => {
            narrowed(forms, op, 1, 2, &operand_shape(0))
        }
        "nvgpu.ldmatrix" => return (collective(forms, op, 0, 1).into_iter().collect(), true),
        "gpu.subgroup_mma_load_matrix" => {
            return (mma_access(forms, op, 0, 1).into_iter().collect(), true)
        }
        "gpu.subgroup_mma_store_matrix" => {
            return (mma_access(forms, op, 1, 2).into_iter().collect(), true)
        }
        _ => None,
    };
    (found.into_iter().collect(), false)
}

/// The accesses of `op` (module doc, steps 1-5).
pub fn accesses<'c: 'a, 'a>(forms: &mut Forms, op: &OperationRef<'c, 'a>) -> OpAccesses<'c, 'a> {
    let mut out = OpAccesses::default();
    // 5.
    if ops::is_apipe(op) {
        if ops::is(op, ops::COPY) || ops::is(op, ops::BULK_COPY) {
            let (src, dst) = copy_regions(forms, op);
            for (kind, region, at) in [(AccessKind::Read, src, 0), (AccessKind::Write, dst, 1)] {
                out.accesses.push(Access {
                    kind,
                    region,
                    value: op.operand_at(at),
                    collective: false,
                    assumed: false,
                    asynchronous: true,
                });
            }
        }
        return out;
    }
    let declared = memory_effects(op);
    let Some(effects) = declared.declared else {
        // 4. / 3.
        if declared.recursive {
            return out;
        }
        if let Some(found) = call_accesses(forms, op) {
            return found;
        }
        for value in op.operands().filter(|v| is_memref(*v)) {
            for kind in [AccessKind::Read, AccessKind::Write] {
                out.accesses.push(Access {
                    kind,
                    region: whole(forms, value),
                    value: Some(value),
                    collective: false,
                    assumed: true,
                    asynchronous: false,
                });
            }
        }
        // A pointer it receives (`llvm.atomicrmw`, `llvm.cmpxchg`,
        // `llvm.intr.masked.store` declare no effects; trial 62: their
        // writes into a copy's destination in flight were silent) may
        // point into the buffer it is made from, else anywhere: all
        // memory, as an effect on a pointer is.
        // An atomic update (LangRef `atomicrmw`, `cmpxchg`) reads and
        // writes one value of its operand's type at its pointer: known, not
        // assumed (trial 70: a disjoint one was the whole buffer).
        let atomic = matches!(ops::name(op), "llvm.atomicrmw" | "llvm.cmpxchg");
        let bytes = atomic
            .then(|| op.operand_at(1).and_then(|v| plain_size(v.r#type())))
            .flatten();
        for pointer in op.operands().filter(|v| is_llvm_pointer(*v)) {
            for kind in [AccessKind::Read, AccessKind::Write] {
                pointer_access(forms, &mut out, kind, pointer, bytes, !atomic);
            }
        }
        return out;
    };
    // 1.-2.
    let (narrow, collective) = narrowing(forms, op);
    for effect in effects {
        if !effect.default_resource {
            continue;
        }
        let kind = match effect.kind {
            EffectKind::Read => AccessKind::Read,
            EffectKind::Write | EffectKind::Free | EffectKind::Other => AccessKind::Write,
            EffectKind::Allocate => continue,
        };
        let Some(value) = effect.value else {
            // An effect on any memory by an op whose indexed operands are
            // known (`nvgpu.ldmatrix` declares a plain `MemRead`): those.
            if !narrow.is_empty() {
                for (at, region) in &narrow {
                    let value = op.operand_at(*at);
                    if out
                        .accesses
                        .iter()
                        .any(|a| a.kind == kind && a.value == value)
                    {
                        continue;
                    }
                    out.accesses.push(Access {
                        kind,
                        region: region.clone(),
                        value,
                        collective,
                        assumed: false,
                        asynchronous: false,
                    });
                }
                continue;
            }
            // Any memory, which may be a buffer or pointer the op receives.
            let received = op.operands().any(|v| is_memref(v) || is_llvm_pointer(v));
            out.all_memory(kind, received);
            continue;
        };
        // An effect on a value that is no memref (an `!llvm.ptr`, perhaps
        // made from a memref's aligned pointer): that buffer's, else any
        // memory.
        if !is_memref(value) {
            pointer_access(
                forms,
                &mut out,
                kind,
                value,
                loaded_or_stored_bytes(op),
                false,
            );
            continue;
        }
        let position = op.operands().position(|v| v == value);
        let region = narrow
            .iter()
            .find(|(at, _)| Some(*at) == position)
            .map(|(_, r)| r.clone())
            .unwrap_or_else(|| whole(forms, value));
        let access = Access {
            kind,
            region,
            value: Some(value),
            collective,
            assumed: false,
            asynchronous: false,
        };
        // One access per (kind, value).
        if !out
            .accesses
            .iter()
            .any(|a| a.kind == kind && a.value == Some(value))
        {
            out.accesses.push(access);
        }
    }
    out
}
