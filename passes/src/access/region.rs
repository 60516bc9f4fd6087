//! Regions of buffers: the elements an access touches, per dimension of the
//! root buffer (followed through view ops), and the overlap test.
//!
//! A [`Region`] is a root buffer ([`Root`]) and, per dimension of the root,
//! a range `[start, start + extent)` whose start is a [`Lin`] form, or any
//! position ([`Dim::Any`]); `dims = None` is the whole buffer. Regions are
//! compared in elements of the root, so two accesses touch a common byte iff
//! their regions share an element. `memref.view` (a typed view of an `i8`
//! buffer at a byte shift) maps its elements to the bytes of the root, and
//! `memref.reinterpret_cast` of a row-major buffer maps through the linear
//! element offset; other views that change the element type, or layouts
//! that are not followed, give the whole buffer.

use super::{
    affine::{Atom, Lin, Signedness, Symbol},
    constraints::{Constraint, Feasibility, System},
    values::{block_argument, defining_op, dense_i64, value_key, Forms},
};
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{attributes, effects, ops};
use melior::ir::{
    attribute::AttributeLike as _,
    attribute::FlatSymbolRefAttribute,
    operation::OperationLike,
    r#type::{MemRefType, ShapedTypeLike},
    Attribute, BlockLike as _, RegionLike as _, Type, TypeLike, Value, ValueLike,
};

use std::rc::Rc;
/// What a root buffer may alias.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RootKind {
    /// A fresh allocation (`memref.alloc`, `memref.alloca`, a `gpu.func`
    /// workgroup or private attribution): aliases no other root.
    Fresh,
    /// A function argument: may alias other arguments, globals and unknown
    /// roots, not fresh buffers; with `noalias` (the argument carries
    /// `llvm.noalias`, LLVM's `noalias` / CUDA's `__restrict__`: no other
    /// pointer the function uses reaches its memory) it aliases no other
    /// root.
    Argument {
        /// The argument carries the `llvm.noalias` attribute.
        noalias: bool,
    },
    /// `memref.get_global @name`: the same global as every other access of
    /// `@name`, and may alias arguments and unknown roots.
    Global(Rc<str>),
    /// One of several buffers, chosen at run time ([`choice`]): an
    /// `arith.select` or `scf.if` of buffers, or an `scf.for` iter_arg that
    /// the loop rotates among its initial buffers (a ping-pong double
    /// buffer swapped by `scf.yield %next, %cur`). The root value is the
    /// chosen one; each [`Alternative`] is the access in one of the
    /// buffers and what holds when that one is chosen.
    Choice(Vec<Alternative>),
    /// Anything else (a call result, a loaded memref, a loop-carried
    /// memref that is not a rotation, the result of an op that is not a
    /// known view): may alias every root.
    Other,
}

/// One buffer a [`RootKind::Choice`] may be.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Alternative {
    /// The access in this buffer (followed through its views; never a
    /// choice itself: nested choices are flattened).
    pub region: Region,
    /// What holds when it is the chosen one: the `arith.select` /
    /// `scf.if` condition ([`Forms::condition`]), or `τ mod L = k` for
    /// the `k`-th buffer of a rotation of `L` (`τ` the loop's iteration).
    pub when: Vec<Constraint>,
}

/// The most buffers a [`RootKind::Choice`] holds; a choice among more is
/// [`RootKind::Other`].
const MAX_ALTERNATIVES: usize = 8;

/// The buffer at the bottom of a chain of views.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Root {
    /// The root value ([`Symbol::Value`]; [`Symbol::Stale`] once carried
    /// past a redefinition: an allocation in an earlier iteration).
    pub symbol: Symbol,
    /// What it may alias.
    pub kind: RootKind,
    /// The memory space: its number (`"3"`, also for
    /// `#gpu.address_space<workgroup>`), or any other attribute printed;
    /// `""` for the default space.
    pub space: Rc<str>,
}

/// One dimension of a region.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// Positions `[start, start + extent)`, `extent >= 1`.
    Range {
        /// The first position.
        start: Lin,
        /// How many positions.
        extent: i64,
    },
    /// Any position (an access through a view that is not followed).
    Any,
}

/// The elements of a root buffer that an access touches.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    /// The buffer.
    pub root: Root,
    /// Per dimension of the root; `None`: every element.
    pub dims: Option<Vec<Dim>>,
}

/// How two regions may meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlap {
    /// No element in common (a proof).
    Disjoint,
    /// An element may be common.
    May {
        /// True if values of the symbols were found for which both touch
        /// a common element (the overlap is real, not an artefact of the
        /// test).
        exact: bool,
        /// True if the roots are different buffers that may alias.
        alias: bool,
    },
}

impl Overlap {
    /// True unless disjoint.
    pub fn may(self) -> bool {
        !matches!(self, Overlap::Disjoint)
    }
}

impl Dim {
    /// `(start, extent)` of both dimensions, if both are ranges.
    pub fn ranges<'x>(a: &'x Dim, b: &'x Dim) -> Option<(&'x Lin, i64, &'x Lin, i64)> {
        match (a, b) {
            (
                Dim::Range {
                    start: sa,
                    extent: ea,
                },
                Dim::Range {
                    start: sb,
                    extent: eb,
                },
            ) => Some((sa, *ea, sb, *eb)),
            _ => None,
        }
    }
}

impl Region {
    /// The region with `map` applied to every form (see
    /// [`Lin::substitute`]); a dimension whose form overflows becomes
    /// [`Dim::Any`]. The root symbol is mapped too when `map` sends it to a
    /// symbol.
    pub fn substitute(&self, map: &dyn Fn(Symbol) -> Option<Lin>) -> Region {
        let mut out = self.clone();
        out.substitute_in_place(map);
        out
    }

    /// [`Region::substitute`] on the region itself (no copy of the forms
    /// `map` leaves alone).
    pub fn substitute_in_place(&mut self, map: &dyn Fn(Symbol) -> Option<Lin>) {
        if let Some(symbol) = map(self.root.symbol).and_then(|l| l.as_symbol()) {
            self.root.symbol = symbol;
        }
        if let RootKind::Choice(alternatives) = &mut self.root.kind {
            for alternative in alternatives {
                alternative.region.substitute_in_place(map);
                // A condition that overflows or whose symbol is replaced by
                // a form is dropped: a weaker choice, never a wrong one.
                alternative.when = alternative
                    .when
                    .iter()
                    .filter_map(|c| c.substitute(map).flatten())
                    .collect();
            }
        }
        if let Some(dims) = &mut self.dims {
            for dim in dims {
                if let Dim::Range { start, .. } = dim {
                    match start.substituted(map) {
                        Some(Some(s)) => *start = s,
                        Some(None) => {}
                        None => *dim = Dim::Any,
                    }
                }
            }
        }
    }

    /// True if the symbol `s` occurs in a dimension (or is the root, or
    /// occurs in an alternative of a choice).
    pub fn mentions(&self, s: Symbol) -> bool {
        self.root.symbol == s
            || self.dims.iter().flatten().any(|d| match d {
                Dim::Range { start, .. } => start.mentions(s),
                Dim::Any => false,
            })
            || self
                .alternatives()
                .iter()
                .any(|a| a.region.mentions(s) || a.when.iter().any(|c| c.mentions(s)))
    }

    /// Every symbol of the dimensions (not the root), and of the
    /// alternatives of a choice (their roots included).
    pub fn symbols(&self, out: &mut Vec<Symbol>) {
        for dim in self.dims.iter().flatten() {
            if let Dim::Range { start, .. } = dim {
                start.symbols(out);
            }
        }
        for alternative in self.alternatives() {
            if !out.contains(&alternative.region.root.symbol) {
                out.push(alternative.region.root.symbol);
            }
            alternative.region.symbols(out);
            for c in &alternative.when {
                c.symbols(out);
            }
        }
    }

    /// The alternatives of a [`RootKind::Choice`] root; empty otherwise.
    pub fn alternatives(&self) -> &[Alternative] {
        match &self.root.kind {
            RootKind::Choice(alternatives) => alternatives,
            _ => &[],
        }
    }

    /// True if the region is every element of its root.
    pub fn is_whole(&self) -> bool {
        self.dims.is_none()
    }
}

/// The constraints that keep `region` inside its root buffer, per
/// dimension of static size `S` whose range `[start, start + extent)` is
/// known: `start >= 0` and `start + extent <= S`. An access outside its
/// buffer is undefined behaviour (MLIR's `memref.load` / `memref.store`,
/// and a copy's source and destination; subviews stay inside their
/// source), so these hold for the thread that makes the access. Empty for
/// a whole-buffer region, an unranked or dynamic root, or a dimension
/// of unknown position.
pub fn in_bounds(region: &Region) -> Vec<Constraint> {
    let (Symbol::Value(k) | Symbol::Stale(k) | Symbol::OtherThread(k)) = region.root.symbol else {
        return Vec::new();
    };
    let Some(dims) = &region.dims else {
        return Vec::new();
    };
    // SAFETY: root symbols are keys of live values (regions are valid
    // while the IR is unchanged, see the module's invariants).
    let ty = unsafe { super::values::value_of(k) }.r#type();
    if MemRefType::try_from(ty).map_or(true, |t| t.rank() != dims.len()) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (d, dim) in dims.iter().enumerate() {
        let (Dim::Range { start, extent }, Some(size)) = (dim, static_size(ty, d)) else {
            continue;
        };
        out.push(Constraint::NonNeg(start.clone()));
        if let Some(room) = start.scaled(-1).and_then(|s| s.offset(size - extent)) {
            out.push(Constraint::NonNeg(room));
        }
    }
    out
}

/// True if the roots may be the same memory.
pub fn may_alias(a: &Root, b: &Root) -> bool {
    if same_buffer(a, b) {
        return true;
    }
    match (&a.kind, &b.kind) {
        (RootKind::Choice(x), _) => return x.iter().any(|x| may_alias(&x.region.root, b)),
        (_, RootKind::Choice(y)) => return y.iter().any(|y| may_alias(a, &y.region.root)),
        _ => {}
    }
    if a.space != b.space {
        return false;
    }
    match (&a.kind, &b.kind) {
        // A buffer of unknown origin may be (based on) any other.
        (RootKind::Other, _) | (_, RootKind::Other) => true,
        (RootKind::Fresh, _) | (_, RootKind::Fresh) => false,
        (RootKind::Argument { noalias: true }, _) | (_, RootKind::Argument { noalias: true }) => {
            false
        }
        (RootKind::Global(x), RootKind::Global(y)) => x == y,
        _ => true,
    }
}

/// True if `root` is of unknown origin ([`RootKind::Other`]), or a choice
/// that may be such a buffer.
pub fn unknown_origin(root: &Root) -> bool {
    match &root.kind {
        RootKind::Other => true,
        RootKind::Choice(alternatives) => {
            alternatives.iter().any(|a| unknown_origin(&a.region.root))
        }
        _ => false,
    }
}

/// True if each thread has its own copy of the buffer of `root`, so two
/// threads never touch the same bytes of it: private memory (address space
/// 5, `#gpu.address_space<private>`: PTX `.local`, a `gpu.func` private
/// attribution), or a `memref.alloca` in GPU code (a thread's own stack
/// frame, as the NVVM lowering allocates it).
pub fn thread_private(root: &Root) -> bool {
    if &*root.space == "5" {
        return true;
    }
    let Symbol::Value(key) = root.symbol else {
        return false;
    };
    // SAFETY: a root's value symbol is the key of a live value of the IR
    // being analysed (`value_key`).
    let value = unsafe {
        Value::from_raw(mlir_sys::MlirValue {
            ptr: key as *const std::ffi::c_void,
        })
    };
    defining_op(value).is_some_and(|op| {
        (ops::is(&op, "memref.alloca") || ops::is(&op, "llvm.alloca")) && ops::in_gpu_code(&op)
    })
}

/// The memref `op` is a view of, if it is a view op: MLIR's
/// `ViewLikeOpInterface`, or one of the view ops of their operand 0 that
/// MLIR 22 may not mark as such.
fn view_operand<'c, 'a>(op: &melior::ir::OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    effects::view_source(op)
        .or_else(|| match ops::name(op) {
            "memref.assume_alignment"
            | "memref.memory_space_cast"
            | "memref.cast"
            | "memref.transpose"
            | "memref.reinterpret_cast"
            | "memref.view" => op.operand_at(0),
            _ => None,
        })
        .filter(|v| is_memref(*v))
}

/// True if the memref `value` is a view of thread-private memory (see
/// [`thread_private`]): its type or that of a buffer it views is in the
/// private space, or its root is a `memref.alloca` in GPU code.
pub fn is_thread_private(value: Value) -> bool {
    for v in viewed(value) {
        if is_memref(v) && memory_space(v.r#type()) == "5" {
            return true;
        }
        if let Some(op) = defining_op(v).filter(|op| ops::is(op, "memref.alloca")) {
            return ops::in_gpu_code(&op);
        }
    }
    false
}

/// True if the memref `value` is a view of a `memref.alloc` that GPU code
/// runs outside workgroup memory: every thread that runs it gets a buffer
/// of its own (device `malloc`), so what a thread loads from it may be
/// what only that thread stored (trial 45: the thread id stored there and
/// loaded back decided a barrier, a deadlock the checker missed).
pub fn is_per_thread_allocation(value: Value) -> bool {
    viewed(value).any(|v| {
        defining_op(v).is_some_and(|op| {
            ops::is(&op, "memref.alloc") && ops::in_gpu_code(&op) && memory_space(v.r#type()) != "3"
        })
    })
}

/// A buffer of global memory, as [`shared_global_buffer`] names it: a
/// `memref.get_global` symbol (every op of one symbol is the same buffer),
/// or the root value of its views (by key).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SharedBuffer {
    /// `memref.get_global @name`.
    Global(Rc<str>),
    /// Any other root: a kernel argument, a function's buffer.
    Value(usize),
}

/// The buffer the memref `value` views, when it is memory that the threads
/// of a block share outside workgroup memory (global memory: a kernel
/// argument, a `memref.get_global`, a function's buffer): `None` for
/// workgroup and private memory, `memref.alloca` and per-thread
/// `memref.alloc` in GPU code ([`is_thread_private`],
/// [`is_per_thread_allocation`]).
pub fn shared_global_buffer(value: Value) -> Option<SharedBuffer> {
    if !is_memref(value) || is_thread_private(value) || is_per_thread_allocation(value) {
        return None;
    }
    let root_value = viewed(value).last()?;
    let root = root_of(root_value);
    if !matches!(&*root.space, "" | "1") {
        return None;
    }
    Some(match root.kind {
        RootKind::Global(name) => SharedBuffer::Global(name),
        _ => SharedBuffer::Value(value_key(root_value)),
    })
}

/// `value`, then each buffer it is a view of ([`view_operand`]), outermost
/// view first.
fn viewed<'c: 'a, 'a>(value: Value<'c, 'a>) -> impl Iterator<Item = Value<'c, 'a>> {
    std::iter::successors(Some(value), |v| {
        defining_op(*v).and_then(|op| view_operand(&op))
    })
}

/// True if the roots are the same buffer (one value, or one global); a
/// choice only if the other is the same choice under the same conditions
/// (the same value in another iteration may be another buffer).
pub fn same_buffer(a: &Root, b: &Root) -> bool {
    if matches!(a.kind, RootKind::Choice(_)) || matches!(b.kind, RootKind::Choice(_)) {
        return a == b;
    }
    a.symbol == b.symbol
        || matches!((&a.kind, &b.kind), (RootKind::Global(x), RootKind::Global(y)) if x == y)
}

/// True if `a` and `b` are provably disjoint from their forms alone, for
/// every value of their symbols: a cheap test that decides most
/// comparisons of a pipelined loop's versions (`buf[(τ + 2) mod 3]` and
/// `buf[τ mod 3]`) before any system is built, and never answers "may"
/// (a `false` decides nothing: [`overlap_with`] then does).
///
/// Both regions must be over the same buffer with ranges in some
/// dimension `[sa, sa + ea)` and `[sb, sb + eb)` whose distance `sa - sb`
/// is a constant `c` outside `(-ea, eb)`, or, for version indices, is
/// `(x + δ) mod V - x mod V + c`: the two remainders of dividends that are
/// provably nonnegative (iteration counts with positive coefficients, or
/// a Euclidean remainder) differ by `δ mod V` or `δ mod V - V`, and both
/// distances lie outside `(-ea, eb)`. Only dimensions whose symbols are
/// all `fixed` (the same values on both sides: not renamed to another
/// thread's) decide.
pub fn disjoint_by_forms(a: &Region, b: &Region, fixed: &mut dyn FnMut(Symbol) -> bool) -> bool {
    if !same_buffer(&a.root, &b.root) {
        return false;
    }
    let (Some(x), Some(y)) = (&a.dims, &b.dims) else {
        return false;
    };
    x.len() == y.len()
        && x.iter().zip(y).any(|(x, y)| {
            let Some((sa, ea, sb, eb)) = Dim::ranges(x, y) else {
                return false;
            };
            sa.plus(sb, -1).is_some_and(|d| {
                distances(&d).is_some_and(|mut ds| ds.all(|d| d >= eb || d <= -ea))
            }) && {
                let mut symbols = Vec::new();
                sa.symbols(&mut symbols);
                sb.symbols(&mut symbols);
                symbols.into_iter().all(&mut *fixed)
            }
        })
}

/// The values a distance form `d` can take, when it is a constant or the
/// difference of two remainders by the same `V` whose dividends differ by
/// a constant (see [`disjoint_by_forms`]); `None` otherwise.
fn distances(d: &Lin) -> Option<impl Iterator<Item = i64>> {
    let c = d.constant_term();
    let terms: Vec<(&Atom, i64)> = d.terms().collect();
    let (r, v) = match terms.as_slice() {
        [] => (0, 0),
        [(Atom::Mod(x1, v1, s1), k1), (Atom::Mod(x2, v2, s2), k2)]
            if v1 == v2 && *k1 == -*k2 && k1.abs() == 1 =>
        {
            if !(nonneg_dividend(x1, *s1) && nonneg_dividend(x2, *s2)) {
                return None;
            }
            // `plus` of the positive remainder minus the negative one.
            let (p, n) = if *k1 == 1 { (x1, x2) } else { (x2, x1) };
            let delta = p.plus(n, -1)?.as_constant()?;
            (delta.rem_euclid(*v1), *v1)
        }
        _ => return None,
    };
    // `p mod V - n mod V` is `r` or `r - V` (`r = δ mod V`); exactly `r`
    // when `r = 0` (equal dividends modulo `V`).
    let first = c.checked_add(r)?;
    let second = if r == 0 { first } else { first.checked_sub(v)? };
    Some([first, second].into_iter())
}

/// True if a remainder of `x` with `sign` is `x`'s Euclidean remainder:
/// always for [`Signedness::Euclidean`], else when `x` is provably
/// nonnegative from its form alone (a nonnegative constant plus iteration
/// counts and trip counts, which are never negative, with positive
/// coefficients).
fn nonneg_dividend(x: &Lin, sign: Signedness) -> bool {
    sign == Signedness::Euclidean
        || (x.constant_term() >= 0
            && x.terms().all(|(atom, k)| {
                k > 0 && matches!(atom, Atom::Sym(Symbol::Iteration(_) | Symbol::Trips(_)))
            }))
}

/// How `a` and `b` may meet where `system` holds (the context of the
/// accesses; the facts of the symbols are added here).
pub fn overlap(a: &Region, b: &Region, system: System, forms: &mut Forms) -> Overlap {
    overlap_with(a, b, system, forms).0
}

/// [`overlap`], with the system it decided: `system`, the facts of its
/// symbols, and the constraints for a common element (to bound other forms
/// where the regions meet, e.g. for diagnostics).
pub fn overlap_with(
    a: &Region,
    b: &Region,
    mut system: System,
    forms: &mut Forms,
) -> (Overlap, System) {
    if !same_buffer(&a.root, &b.root)
        && (!a.alternatives().is_empty() || !b.alternatives().is_empty())
    {
        return overlap_of_choices(a, b, system, forms);
    }
    if !same_buffer(&a.root, &b.root) {
        if !may_alias(&a.root, &b.root) {
            return (Overlap::Disjoint, system);
        }
        forms.add_facts(&mut system);
        let verdict = match system.feasible() {
            Feasibility::Infeasible => Overlap::Disjoint,
            Feasibility::Feasible { .. } => Overlap::May {
                exact: false,
                alias: true,
            },
        };
        return (verdict, system);
    }
    let mut precise = true;
    if let (Some(x), Some(y)) = (&a.dims, &b.dims) {
        if x.len() == y.len() {
            for (x, y) in x.iter().zip(y) {
                let Some((sa, ea, sb, eb)) = Dim::ranges(x, y) else {
                    precise = false;
                    continue;
                };
                let d = sa.plus(sb, -1);
                match d {
                    // Both single elements: the starts are equal.
                    Some(d) if ea == 1 && eb == 1 => system.push(Constraint::Zero(d)),
                    // [sa, sa + ea) meets [sb, sb + eb): -ea < d < eb.
                    Some(d) => {
                        match (
                            d.offset(ea - 1),
                            d.scaled(-1).and_then(|n| n.offset(eb - 1)),
                        ) {
                            (Some(lo), Some(hi)) => {
                                system.push(Constraint::NonNeg(lo));
                                system.push(Constraint::NonNeg(hi));
                            }
                            _ => precise = false,
                        }
                    }
                    None => precise = false,
                }
            }
        } else {
            precise = false;
        }
    }
    forms.add_facts(&mut system);
    let verdict = match system.feasible() {
        Feasibility::Infeasible => Overlap::Disjoint,
        Feasibility::Feasible { exact } => Overlap::May {
            exact: exact && precise,
            alias: false,
        },
    };
    (verdict, system)
}

/// [`overlap_with`] where `a` or `b` is a choice: the alternatives are
/// compared one by one, each where its condition holds; the regions may
/// meet if some pair may, and the verdict is the most definite one found
/// (a common element of one buffer over one of buffers that may alias,
/// an exact one over a possible one), with its system.
fn overlap_of_choices(
    a: &Region,
    b: &Region,
    system: System,
    forms: &mut Forms,
) -> (Overlap, System) {
    let single = |r: &Region| -> Vec<(Region, Vec<Constraint>)> {
        match &r.root.kind {
            RootKind::Choice(alternatives) => alternatives
                .iter()
                .map(|x| (x.region.clone(), x.when.clone()))
                .collect(),
            _ => vec![(r.clone(), Vec::new())],
        }
    };
    let rank = |o: Overlap| match o {
        Overlap::Disjoint => 0,
        Overlap::May { alias: true, exact } => 1 + u8::from(exact),
        Overlap::May {
            alias: false,
            exact,
        } => 3 + u8::from(exact),
    };
    let mut best: Option<(Overlap, System)> = None;
    for (x, when_x) in single(a) {
        for (y, when_y) in single(b) {
            if !may_alias(&x.root, &y.root) {
                continue;
            }
            let mut case = system.clone();
            case.extend(when_x.iter().cloned());
            case.extend(when_y.iter().cloned());
            let (verdict, case) = overlap_with(&x, &y, case, forms);
            if best.as_ref().is_none_or(|(o, _)| rank(verdict) > rank(*o)) {
                best = Some((verdict, case));
            }
        }
    }
    best.unwrap_or((Overlap::Disjoint, system))
}

/// The memref type of `value`, if ranked.
pub fn memref_type<'c>(value: Value<'c, '_>) -> Option<MemRefType<'c>> {
    MemRefType::try_from(value.r#type()).ok()
}

/// True if `value` is a memref, ranked or not.
pub fn is_memref(value: Value) -> bool {
    // SAFETY: `value` is live.
    unsafe {
        let ty = mlir_sys::mlirValueGetType(value.to_raw());
        mlir_sys::mlirTypeIsAMemRef(ty) || mlir_sys::mlirTypeIsAUnrankedMemRef(ty)
    }
}

/// The memory space of a memref type, as [`Root::space`] spells it: the
/// number of an integer or GPU dialect space
/// ([`attributes::memory_space_number`]: `3` and
/// `#gpu.address_space<workgroup>` are the same space), `""` for the
/// default space, any other attribute printed.
fn memory_space(ty: Type) -> String {
    // SAFETY: `ty` is a live memref type (ranked or unranked).
    let space = unsafe {
        if mlir_sys::mlirTypeIsAMemRef(ty.to_raw()) {
            mlir_sys::mlirMemRefTypeGetMemorySpace(ty.to_raw())
        } else if mlir_sys::mlirTypeIsAUnrankedMemRef(ty.to_raw()) {
            mlir_sys::mlirUnrankedMemrefGetMemorySpace(ty.to_raw())
        } else {
            return String::new();
        }
    };
    // SAFETY: a null attribute is no space; otherwise a live attribute of
    // a live type.
    let space = (!space.ptr.is_null()).then(|| unsafe { Attribute::from_raw(space) });
    match attributes::memory_space_number(space) {
        Some(0) => String::new(),
        Some(n) => n.to_string(),
        None => space.map(|a| a.to_string()).unwrap_or_default(),
    }
}

/// The number of inputs of a function op's `function_type`.
fn function_input_count(function: &melior::ir::OperationRef) -> Option<usize> {
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

/// True if argument `number` of `function` carries `llvm.noalias` (in its
/// `arg_attrs`, as `func.func` and `gpu.func` keep them).
fn argument_is_noalias(function: &melior::ir::OperationRef, number: usize) -> bool {
    let Ok(attributes) = function.attribute("arg_attrs") else {
        return false;
    };
    // SAFETY: a live attribute; checked to be an array of dictionaries, and
    // the index below its size, before each access.
    unsafe {
        let raw = attributes.to_raw();
        if !mlir_sys::mlirAttributeIsAArray(raw)
            || number as isize >= mlir_sys::mlirArrayAttrGetNumElements(raw)
        {
            return false;
        }
        let dictionary = mlir_sys::mlirArrayAttrGetElement(raw, number as isize);
        if !mlir_sys::mlirAttributeIsADictionary(dictionary) {
            return false;
        }
        let name = mlir_sys::MlirStringRef {
            data: c"llvm.noalias".as_ptr(),
            length: "llvm.noalias".len(),
        };
        !mlir_sys::mlirDictionaryAttrGetElementByName(dictionary, name)
            .ptr
            .is_null()
    }
}

/// The root of an `!llvm.ptr` that is a buffer of its own, not made from
/// another value:
/// - an `llvm.alloca`: a fresh buffer (in GPU code, the thread's own:
///   [`thread_private`]);
/// - an `llvm.mlir.addressof`: the global it names, the same buffer as a
///   `memref.get_global` of that name, in the pointer's address space;
/// - an argument of a kernel (a `gpu.func` with `gpu.kernel`) in the
///   generic or global address space (0 or 1): global memory the launch
///   passes, which may alias the kernel's other arguments but is never
///   workgroup memory (the host that launches the kernel has no address
///   in it; CUDA Programming Guide, "Shared memory": its lifetime is the
///   block's).
///
/// `None` for any other value (a pointer of unknown origin).
pub fn pointer_value_root(value: Value) -> Option<Root> {
    // SAFETY: a live value's type, checked to be a pointer first.
    let space = unsafe {
        let ty = value.r#type().to_raw();
        if !mlir_sys::mlirTypeIsALLVMPointerType(ty) {
            return None;
        }
        mlir_sys::mlirLLVMPointerTypeGetAddressSpace(ty)
    };
    let space: Rc<str> = if space == 0 {
        "".into()
    } else {
        space.to_string().into()
    };
    let symbol = Symbol::Value(value_key(value));
    if let Some(op) = defining_op(value) {
        let kind = match ops::name(&op) {
            "llvm.alloca" => RootKind::Fresh,
            "llvm.mlir.addressof" => RootKind::Global(
                op.attribute("global_name")
                    .ok()
                    .and_then(|a| FlatSymbolRefAttribute::try_from(a).ok())?
                    .value()
                    .into(),
            ),
            _ => return None,
        };
        return Some(Root {
            symbol,
            kind,
            space,
        });
    }
    let (block, number) = block_argument(value)?;
    let parent = block.parent_operation()?;
    (ops::is(&parent, "gpu.func")
        && parent.has_attribute("gpu.kernel")
        && ops::is_entry_block(&block)
        && function_input_count(&parent).is_some_and(|inputs| number < inputs)
        && matches!(&*space, "" | "1"))
    .then(|| Root {
        symbol,
        kind: RootKind::Argument {
            noalias: argument_is_noalias(&parent, number),
        },
        space: "".into(),
    })
}

/// The elements of `memref` that `bytes` bytes at `offset` bytes from its
/// aligned pointer cover, where `memref` is a root buffer (no view of
/// another) of rank 1 with the identity layout: `[offset / E, ...)` for
/// elements of `E` bytes, when `offset` is a multiple of `E` for every
/// value of its symbols (an access through a pointer made from the
/// buffer's address, [`super::effects::accesses`]). `None` otherwise.
pub fn pointer_element_region(
    forms: &mut Forms,
    memref: Value,
    offset: &Lin,
    bytes: i64,
) -> Option<Region> {
    let root = region_of(forms, memref, None).root;
    if root.symbol != Symbol::Value(value_key(memref)) || row_major_strides(memref.r#type())? != [1]
    {
        return None;
    }
    // A memref's elements are laid out by the LLVM lowering as an array
    // of them: whole bytes each for the element types of its buffers.
    let element = MemRefType::try_from(memref.r#type()).ok()?.element();
    let bits = i64::from(crate::cp_async::bit_width(element)?);
    if bits % 8 != 0 || !(bits as u64 / 8).is_power_of_two() {
        return None;
    }
    let size = bits / 8;
    let start = offset.exact_quotient(size)?;
    Some(Region {
        root,
        dims: Some(vec![Dim::Range {
            start,
            extent: (bytes.max(1) + size - 1) / size,
        }]),
    })
}

/// The root description of a value that is not a view.
fn root_of(value: Value) -> Root {
    let symbol = Symbol::Value(value_key(value));
    let space = memory_space(value.r#type());
    let kind = if let Some(op) = defining_op(value) {
        match ops::name(&op) {
            "memref.alloc" | "memref.alloca" => RootKind::Fresh,
            "memref.get_global" => op
                .attribute("name")
                .ok()
                .and_then(|a| FlatSymbolRefAttribute::try_from(a).ok())
                .map_or(RootKind::Other, |s| RootKind::Global(s.value().into())),
            _ => RootKind::Other,
        }
    } else if let Some((block, number)) = block_argument(value) {
        match block.parent_operation() {
            Some(parent) if ops::is_function(&parent) && ops::is_entry_block(&block) => {
                // A `gpu.func`'s arguments past its inputs are its workgroup
                // and private attributions.
                if ops::is(&parent, "gpu.func")
                    && function_input_count(&parent).is_some_and(|inputs| number >= inputs)
                {
                    RootKind::Fresh
                } else {
                    RootKind::Argument {
                        noalias: argument_is_noalias(&parent, number),
                    }
                }
            }
            _ => RootKind::Other,
        }
    } else {
        RootKind::Other
    };
    Root {
        symbol,
        kind,
        space: space.into(),
    }
}

/// The static size of dimension `i` of a shaped type, if static.
fn static_size(ty: Type, i: usize) -> Option<i64> {
    // SAFETY: `ty` is a live shaped type; `i` is below its rank (checked).
    unsafe {
        let raw = ty.to_raw();
        if !mlir_sys::mlirShapedTypeHasRank(raw) || i as i64 >= mlir_sys::mlirShapedTypeGetRank(raw)
        {
            return None;
        }
        let size = mlir_sys::mlirShapedTypeGetDimSize(raw, i as isize);
        (size >= 0 && !mlir_sys::mlirShapedTypeIsDynamicSize(size)).then_some(size)
    }
}

/// The rank of a memref value (`None` if unranked).
pub fn rank(value: Value) -> Option<usize> {
    memref_type(value).map(|t| t.rank())
}

/// The groups of a `reassociation` attribute (array of arrays of integers).
fn reassociation(op: &melior::ir::OperationRef) -> Option<Vec<Vec<usize>>> {
    let attribute = op.attribute("reassociation").ok()?;
    // SAFETY: a live attribute; each element checked to be an array of
    // integers first.
    unsafe {
        let raw = attribute.to_raw();
        if !mlir_sys::mlirAttributeIsAArray(raw) {
            return None;
        }
        let mut out = Vec::new();
        for i in 0..mlir_sys::mlirArrayAttrGetNumElements(raw) {
            let group = mlir_sys::mlirArrayAttrGetElement(raw, i);
            if !mlir_sys::mlirAttributeIsAArray(group) {
                return None;
            }
            let mut dims = Vec::new();
            for j in 0..mlir_sys::mlirArrayAttrGetNumElements(group) {
                let element = mlir_sys::mlirArrayAttrGetElement(group, j);
                if !mlir_sys::mlirAttributeIsAInteger(element) {
                    return None;
                }
                dims.push(mlir_sys::mlirIntegerAttrGetValueInt(element) as usize);
            }
            out.push(dims);
        }
        Some(out)
    }
}

/// The permutation of a `memref.transpose` (result dim i is source dim
/// `perm[i]`).
fn permutation(op: &melior::ir::OperationRef) -> Option<Vec<usize>> {
    let attribute = op.attribute("permutation").ok()?;
    // SAFETY: a live attribute, checked to be a permutation map.
    unsafe {
        if !mlir_sys::mlirAttributeIsAAffineMap(attribute.to_raw()) {
            return None;
        }
        let map = mlir_sys::mlirAffineMapAttrGetValue(attribute.to_raw());
        if !mlir_sys::mlirAffineMapIsPermutation(map) {
            return None;
        }
        (0..mlir_sys::mlirAffineMapGetNumResults(map))
            .map(|i| {
                let expr = mlir_sys::mlirAffineMapGetResult(map, i);
                mlir_sys::mlirAffineExprIsADim(expr)
                    .then(|| mlir_sys::mlirAffineDimExprGetPosition(expr) as usize)
            })
            .collect()
    }
}

/// One step up a view: the region of `memref`'s source for `dims` of
/// `memref`, or `None` if `memref` is not a view.
fn through_view<'c: 'a, 'a>(
    forms: &mut Forms,
    memref: Value<'c, 'a>,
    dims: Option<Vec<Dim>>,
) -> Option<(Value<'c, 'a>, Option<Vec<Dim>>)> {
    let op = defining_op(memref)?;
    let source = view_operand(&op)?;
    let name = ops::name(&op);
    let dims = match (name, dims) {
        (_, None) => None,
        ("memref.cast" | "memref.memory_space_cast" | "memref.assume_alignment", dims) => {
            // Same layout; a cast to or from an unranked memref keeps the
            // ranked side's dimensions only when both are ranked.
            dims.filter(|d| rank(source) == Some(d.len()))
        }
        ("memref.subview", Some(dims)) => subview(forms, &op, source, dims),
        ("memref.expand_shape", Some(dims)) => expand_shape(&op, memref, dims),
        ("memref.collapse_shape", Some(dims)) => collapse_shape(&op, source, dims),
        ("memref.view", Some(dims)) => view(forms, &op, memref, source, dims),
        ("memref.reinterpret_cast", Some(dims)) => reinterpret_cast(forms, &op, source, dims),
        ("memref.transpose", Some(dims)) => permutation(&op).and_then(|perm| {
            let mut out = vec![Dim::Any; dims.len()];
            for (i, p) in perm.iter().enumerate() {
                *out.get_mut(*p)? = dims.get(i)?.clone();
            }
            Some(out)
        }),
        _ => None,
    };
    Some((source, dims))
}

/// `memref.subview`: source position = offset + stride * position.
fn subview(
    forms: &mut Forms,
    op: &melior::ir::OperationRef,
    source: Value,
    dims: Vec<Dim>,
) -> Option<Vec<Dim>> {
    let offsets = dense_i64(op, "static_offsets")?;
    let sizes = dense_i64(op, "static_sizes")?;
    let strides = dense_i64(op, "static_strides")?;
    let source_rank = rank(source)?;
    if offsets.len() != source_rank || sizes.len() != source_rank || strides.len() != source_rank {
        return None;
    }
    let mut dynamic = op.operands().skip(1);
    let mut take = |values: &[i64]| -> Vec<Option<Lin>> {
        values
            .iter()
            .map(|&v| {
                if v == i64::MIN {
                    dynamic.next().map(|d| forms.of(d))
                } else {
                    Some(Lin::constant(v))
                }
            })
            .collect()
    };
    let offsets = take(&offsets);
    let _sizes = take(&sizes);
    let strides = take(&strides);
    // Rank reduction drops unit dimensions (static size 1), first ones first;
    // which ones does not matter: a kept unit dimension is indexed at 0.
    let mut to_drop = source_rank.checked_sub(dims.len())?;
    let mut inner = dims.into_iter();
    let mut out = Vec::with_capacity(source_rank);
    for i in 0..source_rank {
        let dropped = to_drop > 0 && sizes[i] == 1;
        let position = if dropped {
            to_drop -= 1;
            None
        } else {
            Some(inner.next()?)
        };
        let stride = strides[i].as_ref().and_then(|s| s.as_constant());
        out.push(match (&offsets[i], position, stride) {
            (Some(offset), None, _) => Dim::Range {
                start: offset.clone(),
                extent: 1,
            },
            (Some(offset), Some(Dim::Range { start, extent }), Some(stride)) if stride > 0 => {
                let start = start.scaled(stride).and_then(|s| s.plus(offset, 1));
                let extent = (extent - 1)
                    .checked_mul(stride)
                    .and_then(|e| e.checked_add(1));
                match (start, extent) {
                    (Some(start), Some(extent)) => Dim::Range { start, extent },
                    _ => Dim::Any,
                }
            }
            _ => Dim::Any,
        });
    }
    Some(out)
}

/// The strides of a memref type whose layout is row-major from offset 0
/// (the identity layout, or strides equal to it), with every size past the
/// first static; `None` otherwise.
fn row_major_strides(ty: Type) -> Option<Vec<i64>> {
    let memref = MemRefType::try_from(ty).ok()?;
    let rank = memref.rank();
    let mut strides = vec![0i64; rank.max(1)];
    let mut offset = 0i64;
    // SAFETY: `memref` is live; `strides` has room for `rank` entries.
    let result = unsafe {
        mlir_sys::mlirMemRefTypeGetStridesAndOffset(
            memref.to_raw(),
            strides.as_mut_ptr(),
            &mut offset,
        )
    };
    if result.value == 0 || offset != 0 {
        return None;
    }
    strides.truncate(rank);
    let mut expected = 1i64;
    for i in (0..rank).rev() {
        if strides[i] != expected {
            return None;
        }
        if i > 0 {
            expected = expected.checked_mul(static_size(ty, i)?)?;
        }
    }
    Some(strides)
}

/// The linear range `(start, extent)` of `dims` in a layout of `strides`:
/// exact when at most the innermost dimension with an extent above 1 is
/// ranged, the smallest enclosing range otherwise.
fn linearize(dims: &[Dim], strides: &[i64]) -> Option<(Lin, i64)> {
    if dims.len() != strides.len() {
        return None;
    }
    let mut start = Lin::constant(0);
    let mut last = 0i64;
    for (dim, &stride) in dims.iter().zip(strides) {
        let Dim::Range { start: s, extent } = dim else {
            return None;
        };
        start = start.plus(s, stride)?;
        last = last.checked_add((extent - 1).checked_mul(stride)?)?;
    }
    Some((start, last.checked_add(1)?))
}

/// The positions in a row-major buffer of type `ty` (static sizes past the
/// first) of the linear range `(start, extent)`: itself in one dimension;
/// in several, one element is delinearized (`(x div inner) mod size`, as
/// `collapse_shape`) and a longer range is any position.
fn delinearize(start: Lin, extent: i64, ty: Type) -> Option<Vec<Dim>> {
    let rank = MemRefType::try_from(ty).ok()?.rank();
    if rank == 1 {
        return Some(vec![Dim::Range { start, extent }]);
    }
    if extent != 1 {
        return Some(vec![Dim::Any; rank]);
    }
    let mut out = Vec::with_capacity(rank);
    let mut inner = 1i64;
    for d in (0..rank).rev() {
        let position = Lin::div(start.clone(), inner, Signedness::Euclidean);
        let position = if d > 0 {
            let size = static_size(ty, d)?;
            inner = inner.checked_mul(size)?;
            Lin::modulo(position, size, Signedness::Euclidean)
        } else {
            position
        };
        out.push(Dim::Range {
            start: position,
            extent: 1,
        });
    }
    out.reverse();
    Some(out)
}

/// `memref.view %bytes[%shift][sizes]`: a row-major view of the 1-D `i8`
/// buffer `source` from byte `%shift` (MLIR's `memref.view`); element `L`
/// (linear) of the view is bytes `shift + L * size .. + size` of the source.
fn view(
    forms: &mut Forms,
    op: &melior::ir::OperationRef,
    result: Value,
    source: Value,
    dims: Vec<Dim>,
) -> Option<Vec<Dim>> {
    if row_major_strides(source.r#type())?.len() != 1 {
        return None;
    }
    let strides = row_major_strides(result.r#type())?;
    let element = MemRefType::try_from(result.r#type()).ok()?.element();
    let bits = i64::from(crate::cp_async::bit_width(element)?);
    if bits % 8 != 0 {
        return None;
    }
    let size = bits / 8;
    let (start, extent) = linearize(&dims, &strides)?;
    let shift = forms.of(op.operand_at(1)?);
    Some(vec![Dim::Range {
        start: start.scaled(size)?.plus(&shift, 1)?,
        extent: extent.checked_mul(size)?,
    }])
}

/// `memref.reinterpret_cast %source to offset: [o], sizes: [...], strides:
/// [...]` (MLIR's `memref.reinterpret_cast`): position `p` of the result is
/// element `o + sum(stride * p)` from the source's base pointer, which is
/// its position 0 only when the source is row-major from offset 0 (else
/// the whole buffer); the linear range is then delinearized in the source.
fn reinterpret_cast(
    forms: &mut Forms,
    op: &melior::ir::OperationRef,
    source: Value,
    dims: Vec<Dim>,
) -> Option<Vec<Dim>> {
    row_major_strides(source.r#type())?;
    let offsets = dense_i64(op, "static_offsets")?;
    let sizes = dense_i64(op, "static_sizes")?;
    let strides = dense_i64(op, "static_strides")?;
    if offsets.len() != 1 {
        return None;
    }
    // Dynamic values follow the source in the order offsets, sizes,
    // strides. The sizes bound the positions but do not move them (a
    // dynamic size is no reason for the whole buffer; trial 61: a false
    // read-after-write); a dynamic stride is followed where it folds to a
    // constant.
    let mut dynamic = op.operands().skip(1);
    let offset = if offsets[0] == i64::MIN {
        forms.of(dynamic.next()?)
    } else {
        Lin::constant(offsets[0])
    };
    for _ in sizes.iter().filter(|&&s| s == i64::MIN) {
        dynamic.next()?;
    }
    let strides = strides
        .iter()
        .map(|&s| match s {
            i64::MIN => forms.of(dynamic.next()?).as_constant(),
            s => Some(s),
        })
        .collect::<Option<Vec<i64>>>()?;
    if strides.iter().any(|&s| s <= 0) {
        return None;
    }
    let (start, extent) = linearize(&dims, &strides)?;
    delinearize(start.plus(&offset, 1)?, extent, source.r#type())
}

/// `memref.expand_shape`: each source dimension is the linearization of its
/// group of result dimensions.
fn expand_shape(op: &melior::ir::OperationRef, result: Value, dims: Vec<Dim>) -> Option<Vec<Dim>> {
    let groups = reassociation(op)?;
    let ty = result.r#type();
    let mut out = Vec::with_capacity(groups.len());
    for group in groups {
        let mut start = Lin::constant(0);
        let mut last = 0i64;
        let mut stride = 1i64;
        let mut any = false;
        for &d in group.iter().rev() {
            match dims.get(d)? {
                Dim::Range { start: s, extent } => {
                    start = start.plus(s, stride)?;
                    last = last.checked_add((extent - 1).checked_mul(stride)?)?;
                }
                Dim::Any => any = true,
            }
            match static_size(ty, d) {
                Some(size) => stride = stride.checked_mul(size)?,
                None if d != group[0] => any = true,
                None => {}
            }
        }
        out.push(if any {
            Dim::Any
        } else {
            Dim::Range {
                start,
                extent: last.checked_add(1)?,
            }
        });
    }
    Some(out)
}

/// `memref.collapse_shape`: a single position of a collapsed dimension is
/// `(x div inner) mod size` in each source dimension of its group; a range
/// `[x, x + e)` that stays in one row of the group's innermost dimension
/// (of static size `S`: `x = S q + r` for every value of its symbols, with
/// a constant `r` and `r + e <= S`) is the row `q`, delinearized over the
/// outer dimensions, and `[r, r + e)` in the innermost (trial 67: a copy of
/// one row through a collapsed view was any position, a false
/// read-after-write with the next row). Any other range is any position.
fn collapse_shape(
    op: &melior::ir::OperationRef,
    source: Value,
    dims: Vec<Dim>,
) -> Option<Vec<Dim>> {
    let groups = reassociation(op)?;
    let ty = source.r#type();
    let mut out = vec![Dim::Any; rank(source)?];
    for (r, group) in groups.iter().enumerate() {
        let Dim::Range { start, extent } = dims.get(r)? else {
            continue;
        };
        if *extent == 1 {
            for (d, position) in single_positions(ty, group, start).unwrap_or_default() {
                out[d] = Dim::Range {
                    start: position,
                    extent: 1,
                };
            }
            continue;
        }
        let Some((&innermost, outer)) = group.split_last() else {
            continue;
        };
        if outer.is_empty() {
            out[innermost] = dims[r].clone();
            continue;
        }
        let Some((row, column)) =
            static_size(ty, innermost).and_then(|size| one_row(start, *extent, size))
        else {
            continue;
        };
        let Some(rows) = single_positions(ty, outer, &row) else {
            continue;
        };
        for (d, position) in rows {
            out[d] = Dim::Range {
                start: position,
                extent: 1,
            };
        }
        out[innermost] = Dim::Range {
            start: Lin::constant(column),
            extent: *extent,
        };
    }
    Some(out)
}

/// The position in each dimension of `group` (of `ty`, outermost first)
/// of the linear position `start` of the collapsed dimension: `(start div
/// inner) mod size`; `None` where a size past the first is not static.
fn single_positions(ty: Type, group: &[usize], start: &Lin) -> Option<Vec<(usize, Lin)>> {
    let mut inner = 1i64;
    let mut positions = Vec::new();
    for (j, &d) in group.iter().enumerate().rev() {
        let position = Lin::div(start.clone(), inner, Signedness::Euclidean);
        let size = static_size(ty, d);
        let position = match size {
            Some(size) if j > 0 => Lin::modulo(position, size, Signedness::Euclidean),
            _ => position,
        };
        positions.push((d, position));
        match size {
            Some(size) => inner = inner.checked_mul(size)?,
            None if j > 0 => return None,
            None => {}
        }
    }
    Some(positions)
}

/// `(q, r)` with `start = size * q + r` for every value of `start`'s
/// symbols, `r` constant in `[0, size)`, when `[start, start + extent)`
/// stays in one row of `size` (`r + extent <= size`); `None` otherwise.
fn one_row(start: &Lin, extent: i64, size: i64) -> Option<(Lin, i64)> {
    if size <= 0 {
        return None;
    }
    let column = start.constant_term().rem_euclid(size);
    if column.checked_add(extent)? > size {
        return None;
    }
    let row = start.offset(-column)?.exact_quotient(size)?;
    Some((row, column))
}

/// The region of an access to `memref` at `dims` (one per dimension of
/// `memref`; `None`: every element), followed through views to its root.
pub fn region_of<'c: 'a, 'a>(
    forms: &mut Forms,
    mut memref: Value<'c, 'a>,
    mut dims: Option<Vec<Dim>>,
) -> Region {
    let mut steps = 0;
    while let Some((source, next)) = through_view(forms, memref, dims.clone()) {
        memref = source;
        dims = next;
        steps += 1;
        if steps > 64 {
            dims = None;
            break;
        }
    }
    if dims.as_ref().is_some_and(|d| rank(memref) != Some(d.len())) {
        dims = None;
    }
    let mut root = root_of(memref);
    if root.kind == RootKind::Other {
        match choice(forms, memref, &dims) {
            Some(Chosen::One(region)) => return region,
            Some(Chosen::Among(alternatives)) => root.kind = RootKind::Choice(alternatives),
            None => {}
        }
    }
    Region { root, dims }
}

/// The rotation through the loop-carried value `n` of the loop `l` (an
/// `scf.for` iter_arg, `n >= 1` its body argument; an `scf.while`
/// `before` argument, `n >= 0`): `x_0 = n`, `x_{j+1}` the carried value
/// that `x_j` becomes in the next iteration ([`next_carried`]), until
/// `x_{L-1}` becomes `x_0`; `None` if some `x_j` becomes anything else (or
/// the cycle does not come back to `x_0`, or is longer than
/// [`MAX_ALTERNATIVES`]).
fn rotation(forms: &mut Forms, l: &melior::ir::OperationRef, n: usize) -> Option<Vec<usize>> {
    let mut cycle = vec![n];
    loop {
        let m = next_carried(forms, l, cycle[cycle.len() - 1])?;
        if m == n {
            return Some(cycle);
        }
        if cycle.contains(&m) || cycle.len() >= MAX_ALTERNATIVES {
            return None;
        }
        cycle.push(m);
    }
}

/// The carried value of `l` (see [`rotation`]) that carried value `x`
/// becomes in the next iteration: for an `scf.for`, the iter_arg its yield
/// passes, directly or as the result of an inner `scf.for` of a constant
/// trip count that rotates it (a ping-pong inside another loop); for an
/// `scf.while`, the `before` argument that the `after` region's yield
/// passes through its own argument (`scf.condition` forwards `before`
/// arguments to `after` arguments).
fn next_carried(forms: &mut Forms, l: &melior::ir::OperationRef, x: usize) -> Option<usize> {
    if ops::is(l, "scf.while") {
        let before = l.region_at(0)?.first_block()?;
        let after = l.region_at(1)?.first_block()?;
        let (b, m) = block_argument(after.terminator()?.operand_at(x)?)?;
        if b != after {
            return None;
        }
        let (b, k) = block_argument(before.terminator()?.operand_at(m + 1)?)?;
        return (b == before).then_some(k);
    }
    let body = l.region_at(0)?.first_block()?;
    let yielded = body.terminator()?.operand_at(x.checked_sub(1)?)?;
    carried_source(forms, l, &body, yielded, 0)
}

/// The iter_arg of `l` (body `body`) that `value` is: the argument itself,
/// or the result `r` of an inner `scf.for` of a constant trip count `T`
/// whose rotation through `r` starts from that iter_arg after `T`
/// iterations.
fn carried_source(
    forms: &mut Forms,
    l: &melior::ir::OperationRef,
    body: &melior::ir::BlockRef,
    value: Value,
    depth: usize,
) -> Option<usize> {
    if let Some((b, m)) = block_argument(value) {
        return (b == *body && m >= 1 && b.parent_operation().as_ref() == Some(l)).then_some(m);
    }
    let inner = defining_op(value)?;
    if depth >= 4 || !ops::is(&inner, "scf.for") {
        return None;
    }
    // SAFETY: `value` is a live result of `inner`.
    let r = unsafe { mlir_sys::mlirOpResultGetResultNumber(value.to_raw()) } as usize;
    let trips = forms.trips(&inner).count.as_constant()?.max(0);
    let cycle = rotation(forms, &inner, r + 1)?;
    let start = cycle[usize::try_from(trips).ok()? % cycle.len()];
    carried_source(forms, l, body, inner.operand_at(3 + start - 1)?, depth + 1)
}

/// The buffers the carried value `n` of the loop `l` (see [`rotation`])
/// is after `count` iterations: the `k`-th buffer of the rotation's `L`
/// initial buffers where `count mod L = k` (and `when`); `Err` with the
/// region in the initial buffer when `L = 1` (carried unchanged).
#[allow(clippy::type_complexity)]
fn rotated<'c: 'a, 'a>(
    forms: &mut Forms,
    l: &melior::ir::OperationRef<'c, 'a>,
    n: usize,
    count: Lin,
    when: &[Constraint],
    dims: &Option<Vec<Dim>>,
) -> Option<Result<Vec<(Value<'c, 'a>, Vec<Constraint>)>, Region>> {
    let cycle = rotation(forms, l, n)?;
    // An `scf.for`'s carried value `j` starts as its operand `3 + j - 1`
    // (after the bounds and step), an `scf.while`'s as operand `j`.
    let first = if ops::is(l, "scf.for") { 2 } else { 0 };
    let init = |j: usize| l.operand_at(first + j);
    if cycle.len() == 1 {
        return Some(Err(region_of(forms, init(n)?, dims.clone())));
    }
    let slot = Lin::modulo(count, cycle.len() as i64, Signedness::Euclidean);
    let mut out = Vec::with_capacity(cycle.len());
    for (k, &j) in cycle.iter().enumerate() {
        let mut chosen = when.to_vec();
        chosen.push(Constraint::Zero(slot.offset(-(k as i64))?));
        out.push((init(j)?, chosen));
    }
    Some(Ok(out))
}

/// What [`choice`] found.
enum Chosen {
    /// Always the same buffer (an iter_arg the loop yields unchanged).
    One(Region),
    /// One of these.
    Among(Vec<Alternative>),
}

/// The buffers `memref` (a root that is not a view) may be, with `dims` of
/// it in each:
/// - `arith.select %c, %x, %y` of memrefs: `%x` where `%c` holds, `%y`
///   where it does not ([`Forms::condition`]);
/// - result `r` of an `scf.if %c`: operand `r` of the `then` yield where
///   `%c` holds, of the `else` yield where it does not;
/// - result `r` of an `scf.index_switch`: operand `r` of each region's
///   yield, where the selector picks that region;
/// - result `r` of an `scf.execute_region`: operand `r` of each
///   `scf.yield` of a block its entry reaches ([`reachable_blocks`]), under
///   no condition; an argument of one of its other blocks (or of a
///   function's): what each branch into that block passes, followed around
///   loops of blocks;
/// - result `r` of an `scf.while`: what its `scf.condition` forwards as
///   operand `r + 1` (a `before` argument is a choice itself);
/// - iter_arg `x_0` of an `scf.for` (or `before` argument of an
///   `scf.while`; an `after` argument is what `scf.condition` forwards)
///   whose yield rotates them ([`rotation`]), `x_0 ←
///   x_1 ← … ← x_{L-1} ← x_0` (each `x_j` yields `x_{j+1}`, indices mod `L`;
///   `scf.yield %next, %cur` is `L = 2`): in iteration `τ` (from 0) it is
///   the initial buffer of `x_{τ mod L}`, which is the `k`-th alternative
///   where `τ mod L = k` (by induction on `τ`: `x_0` in iteration `τ + 1`
///   is `x_1` in iteration `τ`). `L = 1` (yielded unchanged) is its
///   initial buffer;
/// - result `r` of such an `scf.for`: the same after `T` iterations (`T`
///   the trip count, [`Forms::trips`]), the initial buffer of
///   `x_{T mod L}`, or of `x_0` where the loop does not run.
/// - a carried value that such a loop does not just rotate: any buffer
///   [`carried_values`] finds, under no condition;
///
/// Alternatives that are choices are flattened (their conditions joined);
/// `None` (an unknown buffer) for anything else, or past
/// [`MAX_ALTERNATIVES`] buffers.
fn choice(forms: &mut Forms, memref: Value, dims: &Option<Vec<Dim>>) -> Option<Chosen> {
    // Choices nest (a choice among choices, through views): a cycle of
    // them (a value passed around a control-flow loop, or through a view
    // of itself) must end, as an unknown buffer (trial 34: a stack
    // overflow).
    if CHOICE_DEPTH.with(|d| d.get()) >= MAX_CHOICE_DEPTH {
        return None;
    }
    CHOICE_DEPTH.with(|d| d.set(d.get() + 1));
    let chosen = choice_at_depth(forms, memref, dims);
    CHOICE_DEPTH.with(|d| d.set(d.get() - 1));
    chosen
}

thread_local! {
    /// How deep [`choice`]s nest now.
    static CHOICE_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How deep [`choice`]s may nest.
const MAX_CHOICE_DEPTH: usize = 16;

/// [`choice`], one level.
fn choice_at_depth(forms: &mut Forms, memref: Value, dims: &Option<Vec<Dim>>) -> Option<Chosen> {
    let mut options: Vec<(Value, Vec<Constraint>)> = Vec::new();
    if let Some(op) = defining_op(memref) {
        // SAFETY: `memref` is a live result of `op`.
        let r = unsafe { mlir_sys::mlirOpResultGetResultNumber(memref.to_raw()) } as usize;
        if ops::is(&op, "scf.for") {
            // The iter_arg after the last iteration.
            let trips = forms.trips(&op);
            match rotated(forms, &op, r + 1, trips.count, &trips.when_run, dims) {
                Some(Err(one)) => return Some(Chosen::One(one)),
                Some(Ok(rotated)) => options = rotated,
                None => {
                    let values = carried_values(forms, &op, r + 1)?;
                    return among_carried(forms, values, dims, &op, true);
                }
            }
            // A loop that does not run returns the initial buffer (under
            // no condition where skipping it is not expressible).
            options.push((
                op.operand_at(3 + r)?,
                trips.when_skipped.unwrap_or_default(),
            ));
        } else if ops::is(&op, "scf.while") {
            // Result `r` is what `scf.condition` forwards as its operand
            // `r + 1` when the loop ends (trial 31: a buffer passed through
            // an `scf.while` was an unknown buffer).
            let forwarded = super::values::region_yield(&op, 0, r + 1)?;
            return Some(Chosen::One(region_of(forms, forwarded, dims.clone())));
        } else if ops::is(&op, "scf.index_switch") {
            // Operand `r` of each region's yield, where that region runs
            // (the selector is its case; for the default region, region 0,
            // none of them): the conditions the analysis gives the ops of
            // that region ([`Forms::add_region_constraints`]).
            for i in 0..op.region_count() {
                let mut system = System::new();
                forms.add_region_constraints(&op, Some(i), &mut system);
                let yielded = super::values::region_yield(&op, i, r)?;
                options.push((yielded, system.constraints().to_vec()));
            }
        } else if ops::is(&op, "scf.execute_region") {
            // Operand `r` of each `scf.yield` of a block the region's entry
            // reaches (a `cf.cond_br` on a constant takes one successor),
            // under no condition.
            for block in reachable_blocks(forms, &op)? {
                let terminator = block.terminator()?;
                if ops::is(&terminator, "scf.yield") {
                    options.push((terminator.operand_at(r)?, Vec::new()));
                }
            }
            if options.is_empty() {
                return None;
            }
        } else if crate::group_distance::is_call(&op) {
            return call_result(forms, &op, r, dims);
        } else {
            let condition = op.operand_at(0)?;
            let (then, otherwise) = match ops::name(&op) {
                "arith.select" if op.operand_count() == 3 => (op.operand_at(1)?, op.operand_at(2)?),
                "scf.if" => (
                    super::values::region_yield(&op, 0, r)?,
                    super::values::region_yield(&op, 1, r)?,
                ),
                _ => return None,
            };
            options.push((then, forms.condition(condition, true)));
            options.push((otherwise, forms.condition(condition, false)));
        }
    } else {
        let (block, n) = block_argument(memref)?;
        let l = block.parent_operation()?;
        if !ops::is_entry_block(&block)
            && (ops::is(&l, "scf.execute_region") || ops::is_function(&l))
        {
            // A block argument of a region's control flow (an
            // `scf.execute_region`'s, or a function's: trial 38, a callee
            // that returns a block argument gave a buffer of unknown
            // origin).
            options = passed_into(forms, &l, block, n)?
                .into_iter()
                .map(|v| (v, Vec::new()))
                .collect();
            if options.is_empty() {
                return None;
            }
            return among(forms, options, dims);
        }
        let is_while = ops::is(&l, "scf.while");
        if !ops::is_entry_block(&block) || !(is_while || ops::is(&l, "scf.for") && n >= 1) {
            return None;
        }
        if is_while && block.parent_region() == l.region_at(1) {
            // An `after` argument is what `scf.condition` forwards.
            let forwarded = super::values::region_yield(&l, 0, n + 1)?;
            return Some(Chosen::One(region_of(forms, forwarded, dims.clone())));
        }
        let tau = Lin::symbol(Symbol::Iteration(super::values::op_key(&l)));
        match rotated(forms, &l, n, tau, &[], dims) {
            Some(Err(one)) => return Some(Chosen::One(one)),
            Some(Ok(rotated)) => options = rotated,
            None => {
                let values = carried_values(forms, &l, n)?;
                return among_carried(forms, values, dims, &l, false);
            }
        }
    }
    among(forms, options, dims)
}

/// What a function's result may be, in terms of its arguments (one entry
/// of [`returned_by`]).
#[derive(Clone, Debug)]
pub(crate) struct Returned {
    /// The buffer.
    target: Target,
    /// The elements an access at the caller's dims touches in it, in the
    /// callee's terms, with the caller's starts as [`placeholder`]s.
    dims: Option<Vec<Dim>>,
    /// Where it is the one returned (the callee's condition, in its terms).
    when: Vec<Constraint>,
}

/// The buffer of a [`Returned`].
#[derive(Clone, Debug)]
enum Target {
    /// The function's argument `k`.
    Argument(usize),
    /// A global, or an allocation made in the function.
    Root(Root),
}

/// The symbol that stands, in a [`Returned`]'s dims, for the start of the
/// caller's dimension `d`; replaced at each call ([`call_result`]). Fresh
/// symbols from the top of the range, which nothing else in a region uses.
fn placeholder(d: usize) -> Symbol {
    Symbol::Fresh(u32::MAX - 1 - d as u32)
}

/// The shape of the caller's dims a summary is made for: the extent of
/// each dimension (`None`: any position), or `None` for the whole buffer.
type DimsShape = Option<Vec<Option<i64>>>;

/// What result `r` of the function `callee` may be, over all its returns,
/// for an access of the shape `shape` into it: each return's region in the
/// callee ([`region_of`], which follows the callee's views, selects,
/// branches, block arguments and calls) at placeholder starts, its choices
/// flattened with their conditions. `None` where some return may be a
/// buffer of unknown origin, past [`MAX_ALTERNATIVES`], past
/// [`MAX_SUMMARY_NESTING`] functions being summarised at once, or for a
/// function whose summary is being computed (a recursive call).
///
/// Computed once per function result, shape and analysis, in [`Forms`]:
/// trial 38 found that following each call anew took time exponential in
/// the depth of a chain of helpers (8 levels of 8 calls each ran past
/// 60 s).
fn returned_by(
    forms: &mut Forms,
    callee: &melior::ir::OperationRef,
    r: usize,
    shape: DimsShape,
) -> Option<Rc<[Returned]>> {
    thread_local! {
        /// The summaries being computed now.
        static NESTING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }
    let key = (super::values::op_key(callee), r, shape);
    if let Some(known) = forms.calls.returns.get(&key) {
        return known.clone();
    }
    if NESTING.with(|n| n.get()) >= MAX_SUMMARY_NESTING {
        return None;
    }
    // Marks the summary as being computed; a recursive call finds `None`.
    forms.calls.returns.insert(key.clone(), None);
    NESTING.with(|n| n.set(n.get() + 1));
    // A summary does not depend on where it is asked for: the depth of
    // the choices around the call does not count inside the callee.
    let outer = CHOICE_DEPTH.with(|d| d.replace(0));
    let summary = summarise_returns(forms, callee, r, &key.2).map(Rc::from);
    CHOICE_DEPTH.with(|d| d.set(outer));
    NESTING.with(|n| n.set(n.get() - 1));
    forms.calls.returns.insert(key, summary.clone());
    summary
}

/// How many function summaries ([`returned_by`]) may be computed inside
/// one another (a chain of helpers deeper than this gives a buffer of
/// unknown origin).
const MAX_SUMMARY_NESTING: usize = 32;

/// [`returned_by`], computed.
fn summarise_returns(
    forms: &mut Forms,
    callee: &melior::ir::OperationRef,
    r: usize,
    shape: &DimsShape,
) -> Option<Vec<Returned>> {
    let entry = callee.region_at(0)?.first_block()?;
    let arguments: Vec<usize> = (0..entry.argument_count())
        .map(|i| entry.argument(i).map(|a| value_key(a.into())))
        .collect::<Result<_, _>>()
        .ok()?;
    let dims: Option<Vec<Dim>> = shape.as_ref().map(|extents| {
        extents
            .iter()
            .enumerate()
            .map(|(d, extent)| match extent {
                Some(extent) => Dim::Range {
                    start: Lin::symbol(placeholder(d)),
                    extent: *extent,
                },
                None => Dim::Any,
            })
            .collect()
    });
    let mut out: Vec<Returned> = Vec::new();
    for block in ops::blocks_of(callee) {
        let terminator = block.terminator()?;
        // A terminator that passes control on within the callee returns
        // nothing.
        // SAFETY: a live op.
        if unsafe { mlir_sys::mlirOperationGetNumSuccessors(terminator.to_raw()) } != 0 {
            continue;
        }
        let returned = terminator.operand_at(r)?;
        for alternative in flatten(region_of(forms, returned, dims.clone())) {
            let Region { root, dims } = alternative.region;
            let target = match root.kind {
                RootKind::Argument { .. } => {
                    let Symbol::Value(key) = root.symbol else {
                        return None;
                    };
                    Target::Argument(arguments.iter().position(|a| *a == key)?)
                }
                RootKind::Global(_) | RootKind::Fresh => Target::Root(root),
                RootKind::Other | RootKind::Choice(_) => return None,
            };
            out.push(Returned {
                target,
                dims,
                when: alternative.when,
            });
        }
        if out.len() > MAX_ALTERNATIVES {
            return None;
        }
    }
    Some(out)
}

/// Result `r` of the call `call`, where its callee has a body here: what
/// each of the callee's returns gives ([`returned_by`], for an access of
/// the shape of `dims`), mapped to the caller ([`Mapping`]): the callee's
/// argument `k` is the call's operand `k` at the mapped dims (followed
/// through the caller's views), a returned global or an allocation made
/// in the callee is itself; each under the callee's condition for it,
/// mapped. Several are a choice among them. `None` (an unknown buffer)
/// where [`returned_by`] knows nothing. Trials 36 and 37: a call result
/// was always of unknown origin, and a write through one while a copy read
/// the buffer it returns went unreported (then, for nested calls, selects
/// and globals, only remarked); trials 38 and 39: a view or a choice a
/// callee returns was its whole buffer, and a choice's conditions were
/// dropped (false errors).
fn call_result<'c, 'a>(
    forms: &mut Forms,
    call: &melior::ir::OperationRef<'c, 'a>,
    r: usize,
    dims: &Option<Vec<Dim>>,
) -> Option<Chosen> {
    let callee = super::effects::callee_function(call)?;
    let shape: DimsShape = dims.as_ref().map(|dims| {
        dims.iter()
            .map(|dim| match dim {
                Dim::Range { extent, .. } => Some(*extent),
                Dim::Any => None,
            })
            .collect()
    });
    let summary = returned_by(forms, &callee, r, shape)?;
    let mapping = Mapping::new(forms, &callee, call, dims, &summary)?;
    let mut regions: Vec<(Region, Vec<Constraint>)> = Vec::new();
    for returned in summary.iter() {
        let mapped = returned.dims.as_ref().map(|d| mapping.dims(d));
        let when = mapping.conditions(forms, &returned.when);
        let region = match &returned.target {
            Target::Argument(k) => region_of(forms, call.operand_at(*k)?, mapped),
            // An allocation the callee makes is a new buffer at each call
            // (trial 40: two calls' buffers were one, a false error): the
            // call's result, whole (its type may be a view of it).
            Target::Root(root) if root.kind == RootKind::Fresh => Region {
                root: Root {
                    symbol: Symbol::Value(value_key(call.result(r).ok()?.into())),
                    kind: RootKind::Fresh,
                    space: root.space.clone(),
                },
                dims: None,
            },
            Target::Root(root) => Region {
                root: root.clone(),
                dims: mapped,
            },
        };
        regions.push((region, when));
    }
    if regions.len() <= 1 {
        return regions.pop().map(|(region, _)| Chosen::One(region));
    }
    // Several: a choice among them (a choice among choices flattened, the
    // conditions joined).
    let mut alternatives: Vec<Alternative> = Vec::new();
    for (region, when) in regions {
        for mut alternative in flatten(region) {
            alternative.when.splice(0..0, when.iter().cloned());
            if !alternatives.contains(&alternative) {
                alternatives.push(alternative);
            }
        }
    }
    (alternatives.len() <= MAX_ALTERNATIVES).then_some(Chosen::Among(alternatives))
}

/// The map from a callee's terms to its caller's at one call: each
/// [`placeholder`] to the start of the caller's dimension, each integer or
/// `index` argument of the callee to the form of the call's operand (a
/// narrow integer's form is congruent to its value, and the callee reads
/// it exactly only through a modulo, so the operand's form serves), each
/// `i1` argument's truth to the operand's ([`Forms::condition`]).
struct Mapping<'c, 'a> {
    /// Symbol to form.
    by: Vec<(Symbol, Lin)>,
    /// `i1` argument to the call's operand.
    truth: Vec<(Symbol, Value<'c, 'a>)>,
}

impl<'c, 'a> Mapping<'c, 'a> {
    /// The mapping at `call` for the symbols that `returned` names.
    fn new(
        forms: &mut Forms,
        callee: &melior::ir::OperationRef,
        call: &melior::ir::OperationRef<'c, 'a>,
        dims: &Option<Vec<Dim>>,
        returned: &[Returned],
    ) -> Option<Self> {
        let entry = callee.region_at(0)?.first_block()?;
        let mut named = Vec::new();
        for r in returned {
            for dim in r.dims.iter().flatten() {
                if let Dim::Range { start, .. } = dim {
                    start.symbols(&mut named);
                }
            }
            for c in &r.when {
                c.symbols(&mut named);
            }
        }
        let mut by = Vec::new();
        for (d, dim) in dims.iter().flatten().enumerate() {
            if let Dim::Range { start, .. } = dim {
                by.push((placeholder(d), start.clone()));
            }
        }
        let mut truth = Vec::new();
        for j in 0..entry.argument_count() {
            let argument: Value = entry.argument(j).ok()?.into();
            let symbol = Symbol::Value(value_key(argument));
            if !named.contains(&symbol) {
                continue;
            }
            match super::values::width(argument.r#type()).filter(|w| *w <= 64) {
                Some(1) => {
                    // Its truth, and its form (`extui %c` compared, trial
                    // 40).
                    let operand = call.operand_at(j)?;
                    truth.push((symbol, operand));
                    by.push((symbol, forms.of(operand)));
                }
                Some(_) => by.push((symbol, forms.of(call.operand_at(j)?))),
                None => {}
            }
        }
        Some(Mapping { by, truth })
    }

    /// The form `s` maps to.
    fn get(&self, s: Symbol) -> Option<Lin> {
        self.by
            .iter()
            .find(|(t, _)| *t == s)
            .map(|(_, l)| l.clone())
    }

    /// True if every symbol of `symbols` is mapped.
    fn covers(&self, symbols: &[Symbol]) -> bool {
        symbols.iter().all(|s| self.by.iter().any(|(t, _)| t == s))
    }

    /// `dims` in the caller's terms; a dimension whose start names
    /// anything unmapped (a value computed in the callee) is any position.
    fn dims(&self, dims: &[Dim]) -> Vec<Dim> {
        dims.iter()
            .map(|dim| match dim {
                Dim::Range { start, extent } => {
                    let mut symbols = Vec::new();
                    start.symbols(&mut symbols);
                    if !self.covers(&symbols) {
                        return Dim::Any;
                    }
                    match start.substitute(&|s| self.get(s)) {
                        Some(start) => Dim::Range {
                            start,
                            extent: *extent,
                        },
                        None => Dim::Any,
                    }
                }
                Dim::Any => Dim::Any,
            })
            .collect()
    }

    /// The conditions `when` in the caller's terms; one that names
    /// anything unmapped is dropped (a weaker choice, never a wrong one).
    fn conditions(&self, forms: &mut Forms, when: &[Constraint]) -> Vec<Constraint> {
        let mut out = Vec::new();
        for c in when {
            if let Constraint::Holds(symbol, holds) = c {
                if let Some((_, operand)) = self.truth.iter().find(|(t, _)| t == symbol) {
                    out.extend(forms.condition(*operand, *holds));
                }
                continue;
            }
            let mut symbols = Vec::new();
            c.symbols(&mut symbols);
            if !self.covers(&symbols) {
                continue;
            }
            if let Some(Some(mapped)) = c.substitute(&|s| self.get(s)) {
                out.push(mapped);
            }
        }
        out
    }
}

/// The alternatives `region` is: each of a choice's, under its condition
/// (whole where `region` is), or `region` itself under none.
fn flatten(region: Region) -> Vec<Alternative> {
    match region.root.kind {
        RootKind::Choice(inner) => inner
            .into_iter()
            .map(|mut a| {
                if region.dims.is_none() {
                    a.region.dims = None;
                }
                a
            })
            .collect(),
        _ => vec![Alternative {
            region,
            when: Vec::new(),
        }],
    }
}

/// The buffers carried value `n` of the loop `l` may be in any iteration
/// (its numbering as [`rotation`]'s), where the loop does not just rotate
/// its initial buffers: the initial value, and what the yield passes for
/// it, each under no condition (trial 33: an `scf.while` whose `after`
/// region yields a buffer of the function was an unknown buffer, and a race
/// on it went unreported). A yielded value is followed through the loop's
/// own arguments, and, where the loop body makes it, through
/// `arith.select`, `scf.if`, `scf.index_switch` and `scf.execute_region`
/// results (any operand they may give), the arguments of an
/// `scf.execute_region`'s blocks (what its branches pass, [`passed_into`])
/// and views (to their source, whole: a view made in the loop may move
/// each iteration; trial 34: a yielded `arith.select` or a sliding
/// `memref.subview` was taken as the initial buffer). Each value comes
/// with `true` where only its whole buffer is known. `None` for anything
/// else the body makes, or past [`MAX_ALTERNATIVES`].
fn carried_values<'c, 'a>(
    forms: &mut Forms,
    l: &melior::ir::OperationRef<'c, 'a>,
    n: usize,
) -> Option<Vec<(Value<'c, 'a>, bool)>> {
    let is_while = ops::is(l, "scf.while");
    let before = l.region_at(0)?.first_block()?;
    let after = if is_while {
        Some(l.region_at(1)?.first_block()?)
    } else {
        None
    };
    // An `scf.for`'s carried value `j` starts as operand `2 + j`, its yield
    // passes operand `j - 1`; an `scf.while`'s as operand `j`, its `after`
    // yield passes operand `j`.
    let init = |j: usize| l.operand_at(if is_while { j } else { 2 + j });
    let yielded = |j: usize| match after {
        Some(after) => after.terminator()?.operand_at(j),
        None => before.terminator()?.operand_at(j.checked_sub(1)?),
    };
    // Carried values to visit, and values of the body to follow, each with
    // whether only the whole buffer is known.
    let mut carried = vec![(n, false)];
    let mut seen = carried.clone();
    let mut values: Vec<(Value, bool)> = Vec::new();
    let mut steps = 0;
    while let Some((j, whole)) = carried.pop() {
        values.push((init(j)?, whole));
        let mut pending = vec![(yielded(j)?, whole)];
        while let Some((mut v, whole)) = pending.pop() {
            steps += 1;
            if steps > 4 * MAX_ALTERNATIVES || values.len() > MAX_ALTERNATIVES {
                return None;
            }
            // An `after` argument is what `scf.condition` forwards.
            if let Some((_, m)) = block_argument(v).filter(|(b, _)| Some(*b) == after) {
                v = before.terminator()?.operand_at(m + 1)?;
            }
            if let Some((_, m)) = block_argument(v).filter(|(b, _)| *b == before) {
                if !is_while && m == 0 {
                    return None;
                }
                if !seen.contains(&(m, whole)) {
                    seen.push((m, whole));
                    carried.push((m, whole));
                }
                continue;
            }
            if !super::values::defined_inside(value_key(v), l) {
                values.push((v, whole));
                continue;
            }
            // A block argument of an `scf.execute_region`'s control flow
            // in the body: what its branches pass (was an unknown buffer,
            // and a write through it went unreported).
            if let Some((b, m)) = block_argument(v) {
                let region_op = b.parent_operation()?;
                if ops::is_entry_block(&b) || !ops::is(&region_op, "scf.execute_region") {
                    return None;
                }
                pending.extend(
                    passed_into(forms, &region_op, b, m)?
                        .into_iter()
                        .map(|p| (p, whole)),
                );
                continue;
            }
            let op = defining_op(v)?;
            // SAFETY: `v` is a live result of `op`.
            let r = unsafe { mlir_sys::mlirOpResultGetResultNumber(v.to_raw()) } as usize;
            match ops::name(&op) {
                "arith.select" => {
                    pending.push((op.operand_at(1)?, whole));
                    pending.push((op.operand_at(2)?, whole));
                }
                "scf.if" | "scf.index_switch" | "scf.execute_region" => {
                    // Every yield (a block argument of an
                    // `scf.execute_region`'s control flow yielded is what
                    // its branches pass, above).
                    for block in ops::blocks_of(&op) {
                        let terminator = block.terminator()?;
                        if ops::is(&terminator, "scf.yield") {
                            pending.push((terminator.operand_at(r)?, whole));
                        }
                    }
                }
                // A buffer allocated in the body (by the loop, or by a
                // helper it calls): one of an earlier iteration (trial 41:
                // a loop that carried its last tile's allocation was of
                // unknown origin, a remark on a real race).
                "memref.alloc" | "memref.alloca" => values.push((v, true)),
                _ if crate::group_distance::is_call(&op)
                    && region_of(forms, v, None).root.kind == RootKind::Fresh =>
                {
                    values.push((v, true))
                }
                _ => {
                    let source = view_operand(&op)?;
                    pending.push((source, true));
                }
            }
        }
    }
    Some(values)
}

/// The choice among the buffers [`carried_values`] found for the loop `l`,
/// at `dims` (the whole buffer for those known only whole), under no
/// condition. A buffer allocated in `l`'s body is the allocation of an
/// earlier iteration (its root [`Symbol::Stale`]); for `l`'s result
/// (`after`), also that of its last iteration.
fn among_carried(
    forms: &mut Forms,
    values: Vec<(Value, bool)>,
    dims: &Option<Vec<Dim>>,
    l: &melior::ir::OperationRef,
    after: bool,
) -> Option<Chosen> {
    let mut alternatives = Vec::new();
    for (value, whole) in values {
        let region = region_of(forms, value, if whole { None } else { dims.clone() });
        let regions = match region.root.symbol {
            Symbol::Value(k) if super::values::defined_inside(k, l) => {
                let mut stale = region.clone();
                stale.root.symbol = Symbol::Stale(k);
                if after {
                    vec![region, stale]
                } else {
                    vec![stale]
                }
            }
            _ => vec![region],
        };
        for region in regions {
            // Under no condition: the loop's choices are not followed.
            alternatives.extend(flatten(region).into_iter().map(|mut a| {
                a.when.clear();
                a
            }));
        }
        if alternatives.len() > MAX_ALTERNATIVES {
            return None;
        }
    }
    Some(Chosen::Among(alternatives))
}

/// The choice among `options` (a buffer and where it is the one), each
/// at `dims`; choices among them flattened.
fn among(
    forms: &mut Forms,
    options: Vec<(Value, Vec<Constraint>)>,
    dims: &Option<Vec<Dim>>,
) -> Option<Chosen> {
    let mut alternatives = Vec::new();
    for (value, when) in options {
        for mut alternative in flatten(region_of(forms, value, dims.clone())) {
            alternative.when.splice(0..0, when.iter().cloned());
            alternatives.push(alternative);
        }
        if alternatives.len() > MAX_ALTERNATIVES {
            return None;
        }
    }
    Some(Chosen::Among(alternatives))
}

/// The values the branches of `l`'s control flow (an
/// `scf.execute_region` or a function) pass into argument `n` of `block` (one of its
/// non-entry blocks): what each branch into the block from a block the
/// entry reaches passes, followed through the arguments of the region's
/// other reached blocks (a loop of blocks passes a buffer around). `None`
/// where some reached block ends in a branch [`branch_targets`] does not
/// follow, or past [`MAX_ALTERNATIVES`] values.
fn passed_into<'c, 'a>(
    forms: &mut Forms,
    l: &melior::ir::OperationRef<'c, 'a>,
    block: melior::ir::BlockRef<'c, 'a>,
    n: usize,
) -> Option<Vec<Value<'c, 'a>>> {
    let reached = reachable_blocks(forms, l)?;
    let mut edges = Vec::new();
    for from in &reached {
        edges.extend(branch_targets(forms, &from.terminator()?)?);
    }
    let mut values = Vec::new();
    let mut work = vec![(block, n)];
    let mut seen = work.clone();
    while let Some((b, m)) = work.pop() {
        for (target, operands) in &edges {
            if *target != b {
                continue;
            }
            let v = operands.get(m).copied()?;
            // (A function's entry block arguments are its arguments.)
            match block_argument(v) {
                Some((vb, vm)) if reached.contains(&vb) && !ops::is_entry_block(&vb) => {
                    if !seen.contains(&(vb, vm)) {
                        seen.push((vb, vm));
                        work.push((vb, vm));
                    }
                }
                _ => values.push(v),
            }
        }
        if values.len() > MAX_ALTERNATIVES {
            return None;
        }
    }
    Some(values)
}

/// The blocks of `op`'s first region that its entry block reaches through
/// the branches [`branch_targets`] follows; `None` if some reached block
/// ends in another branch.
fn reachable_blocks<'c, 'a>(
    forms: &mut Forms,
    op: &melior::ir::OperationRef<'c, 'a>,
) -> Option<Vec<melior::ir::BlockRef<'c, 'a>>> {
    let entry = op.region_at(0)?.first_block()?;
    let mut reached = vec![entry];
    let mut next = 0;
    while next < reached.len() {
        let terminator = reached[next].terminator()?;
        next += 1;
        for (target, _) in branch_targets(forms, &terminator)? {
            if !reached.contains(&target) {
                reached.push(target);
            }
        }
    }
    Some(reached)
}

/// The blocks `terminator` may branch to, each with the operands it
/// passes: none for a terminator that leaves the region (`scf.yield`);
/// `cf.br`'s one, `cf.cond_br`'s two (one on a constant condition),
/// `cf.switch`'s every one; `None` for any other op with successors.
fn branch_targets<'c, 'a>(
    forms: &mut Forms,
    terminator: &melior::ir::OperationRef<'c, 'a>,
) -> Option<Vec<(melior::ir::BlockRef<'c, 'a>, Vec<Value<'c, 'a>>)>> {
    let operands: Vec<Value> = terminator.operands().collect();
    match ops::name(terminator) {
        "cf.br" => Some(vec![(terminator.successor(0).ok()?, operands)]),
        "cf.cond_br" => {
            let (on_true, on_false) =
                (terminator.successor(0).ok()?, terminator.successor(1).ok()?);
            // Operands: the condition, then the true successor's
            // arguments, then the false successor's.
            let split = 1 + on_true.argument_count();
            let (true_operands, false_operands) = (
                operands.get(1..split)?.to_vec(),
                operands.get(split..)?.to_vec(),
            );
            let mut targets = Vec::new();
            let taken = forms.folded(operands[0]);
            if taken != Some(false) {
                targets.push((on_true, true_operands));
            }
            if taken != Some(true) {
                targets.push((on_false, false_operands));
            }
            Some(targets)
        }
        "cf.switch" => {
            // Operands: the flag, then each successor's arguments in order
            // (the default first), every case taken.
            // SAFETY: a live op.
            let count = unsafe { mlir_sys::mlirOperationGetNumSuccessors(terminator.to_raw()) };
            let mut at = 1;
            let mut targets = Vec::new();
            for i in 0..count as usize {
                let target = terminator.successor(i).ok()?;
                let next = at + target.argument_count();
                targets.push((target, operands.get(at..next)?.to_vec()));
                at = next;
            }
            Some(targets)
        }
        // SAFETY: a live op.
        _ if unsafe { mlir_sys::mlirOperationGetNumSuccessors(terminator.to_raw()) } == 0 => {
            Some(Vec::new())
        }
        _ => None,
    }
}

/// The region of `memref` at `indices` (one per dimension), with `extents`
/// for the innermost dimensions (the others 1).
pub fn indexed(forms: &mut Forms, memref: Value, indices: &[Value], extents: &[i64]) -> Region {
    if rank(memref) != Some(indices.len()) {
        return region_of(forms, memref, None);
    }
    let count = indices.len();
    let dims = indices
        .iter()
        .enumerate()
        .map(|(i, index)| {
            let from_end = count - 1 - i;
            let extent = if from_end < extents.len() {
                extents[extents.len() - 1 - from_end]
            } else {
                1
            };
            if extent < 1 {
                return Dim::Any;
            }
            Dim::Range {
                start: forms.of(*index),
                extent,
            }
        })
        .collect();
    region_of(forms, memref, Some(dims))
}

/// Every element of `memref`: of a view with a static shape (a
/// `memref.copy` or `linalg.fill` of a subview, a tile the pipeliner
/// versioned), the elements of its root that the view covers (per
/// dimension `[0, size)`, mapped through the views as an indexed access
/// is); of anything else, the whole root.
pub fn whole(forms: &mut Forms, memref: Value) -> Region {
    let dims = defining_op(memref)
        .filter(|_| through_view(forms, memref, None).is_some())
        .and_then(|_| {
            let ty = memref_type(memref)?;
            (1..=ty.rank())
                .map(|d| {
                    Some(Dim::Range {
                        start: Lin::constant(0),
                        extent: static_size(memref.r#type(), d - 1).filter(|s| *s > 0)?,
                    })
                })
                .collect::<Option<Vec<_>>>()
                .filter(|dims| !dims.is_empty())
        });
    region_of(forms, memref, dims)
}

/// True if `op`'s regions are exactly the elements it touches, each of which
/// must be in bounds ([`in_bounds`]): `memref.load` and `memref.store`
/// (MLIR: out of bounds is undefined behaviour), and `apipe.copy` without
/// `src_elements` (docs/dialect.md; `cp.async` out of bounds is undefined,
/// PTX ISA 9.7.9.25). Not `vector.transfer_read` / `transfer_write` (out of
/// bounds lanes are padded or masked), masked vector ops, or a copy with
/// `src_elements` (its source region is sized by `elements`, which may run
/// past the buffer): their regions may be larger than what they touch.
pub fn bounded_access(op: &melior::ir::OperationRef) -> bool {
    match apipe_dialect::ops::name(op) {
        "memref.load" | "memref.store" => true,
        apipe_dialect::ops::COPY => {
            let ranks = op
                .operand_at(0)
                .and_then(rank)
                .zip(op.operand_at(1).and_then(rank));
            ranks.is_some_and(|(src, dst)| op.operand_count() == 2 + src + dst)
        }
        _ => false,
    }
}

/// The bounds on thread ids that `region` (an access of `op`) staying
/// inside its buffer gives: if `op` is a [`bounded_access`], each
/// constraint of [`in_bounds`] that names thread ids
/// ([`super::values::is_thread_id`]) and nothing else. They hold for every
/// thread that makes the access (a copy into `buf[tid]` of a
/// `memref<16xf32, 3>` bounds `tid` by 16).
pub fn thread_id_bounds(op: &melior::ir::OperationRef, region: &Region) -> Vec<Constraint> {
    if !bounded_access(op) {
        return Vec::new();
    }
    in_bounds(region)
        .into_iter()
        .filter(|c| {
            let mut symbols = Vec::new();
            c.symbols(&mut symbols);
            !symbols.is_empty()
                && symbols
                    .iter()
                    .all(|s| matches!(s, Symbol::Value(k) if super::values::is_thread_id(*k)))
        })
        .collect()
}
