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

mod calls;
mod carried;
mod views;

pub(crate) use calls::Returned;
use calls::*;
use carried::*;
pub use views::rank;
use views::*;
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
