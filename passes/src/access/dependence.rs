//! The loop-carried dependence test: may two accesses of one `scf.for`
//! body, in iterations `τ` and `τ + d`, touch a common element?
//!
//! Both regions are forms of the body's values, so their iteration-dependent
//! parts are affine in `τ_L` (see [`super::values`]). The access of the
//! later iteration is renamed to that iteration ([`Renaming`]): `τ_L ->
//! τ_L + d`; every value defined inside the body that is not a form of
//! `τ_L` (a load, a call result) becomes a [`Symbol::Stale`] (it may differ
//! between iterations); the iteration number `τ_M` and trip count `T_M` of
//! every loop `M` nested in the body become fresh unknowns (the two
//! accesses may run in any iterations of `M`). The system is the context of
//! the loop body (both iterations within the trip count, the ops around
//! the loop), and, where the ops are given, the path of each op inside the
//! body (nested loop bounds, `scf.if` conditions), the later one renamed
//! alike; the overlap test decides.

use super::{
    affine::{Lin, Symbol},
    constraints::{Constraint, System},
    region::{overlap, Overlap, Region},
    values::{block_argument, defined_inside, defining_op, op_key, value_of, Forms},
};
use apipe_dialect::ops;
use apipe_dialect::ops::Checked as _;
use melior::ir::{operation::OperationLike, BlockLike, BlockRef, OperationRef, RegionLike};

/// The iteration distance `d` between the two accesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IterationDistance {
    /// Exactly `d` iterations (`d >= 0`; 0 is the same iteration, and the
    /// same iterations of the loops nested in the body).
    Exactly(u64),
    /// Any `d >= min` (`min >= 1`).
    AtLeast(u64),
}

/// The first [`Symbol::Fresh`] number given to renamed symbols of nested
/// loops (0 is the distance of [`IterationDistance::AtLeast`]).
const FIRST_INNER: u32 = 1;

/// True if the op with key `key` ([`op_key`]) is nested in `l` (not `l`).
fn op_inside(key: usize, l: &OperationRef) -> bool {
    // SAFETY: iteration and trip symbols are made from live `scf.for` ops of
    // the IR under analysis, which is not changed meanwhile.
    let op = unsafe {
        OperationRef::from_raw(mlir_sys::MlirOperation {
            ptr: key as *mut std::ffi::c_void,
        })
    };
    ops::ancestors(&op).any(|p| p == *l)
}

/// The entry block of `l`'s body.
fn body<'c, 'a>(l: &OperationRef<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    l.region_at(0).and_then(|r| r.first_block())
}

/// A consistent renaming of the symbols of one execution of an access in
/// `l`'s body to those of another execution.
struct Renaming {
    /// `τ_L` and its replacement (`None`: kept).
    tau: Option<(Symbol, Lin)>,
    /// Iteration numbers and trip counts of nested loops, each with its
    /// fresh symbol.
    inner: Vec<(Symbol, Lin)>,
    /// Values to make stale: every value defined in the body (`true`), or
    /// only those defined in nested regions (`false`).
    all_values: bool,
    l: usize,
    body: Option<usize>,
}

impl Renaming {
    /// The renaming for the symbols `symbols` (of the regions and paths to
    /// rename).
    fn new(symbols: &[Symbol], l: &OperationRef, tau: Option<Lin>, all_values: bool) -> Self {
        let inner = symbols
            .iter()
            .filter(|s| {
                matches!(s, Symbol::Iteration(k) | Symbol::Trips(k)
                    if *k != op_key(l) && op_inside(*k, l))
            })
            .enumerate()
            .map(|(n, s)| (*s, Lin::symbol(Symbol::Fresh(FIRST_INNER + n as u32))))
            .collect();
        Renaming {
            tau: tau.map(|t| (Symbol::Iteration(op_key(l)), t)),
            inner,
            all_values,
            l: op_key(l),
            body: body(l).map(|b| b.to_raw().ptr as usize),
        }
    }

    fn map(&self, s: Symbol) -> Option<Lin> {
        if let Some((tau, by)) = &self.tau {
            if s == *tau {
                return Some(by.clone());
            }
        }
        match s {
            Symbol::Iteration(_) | Symbol::Trips(_) => self
                .inner
                .iter()
                .find(|(x, _)| *x == s)
                .map(|(_, f)| f.clone()),
            Symbol::Value(key) if self.renames_value(key) => Some(Lin::symbol(Symbol::Stale(key))),
            _ => None,
        }
    }

    fn renames_value(&self, key: usize) -> bool {
        // SAFETY: `l` is a live op (it was when the renaming was made, and
        // the IR is not changed meanwhile).
        let l = unsafe {
            OperationRef::from_raw(mlir_sys::MlirOperation {
                ptr: self.l as *mut std::ffi::c_void,
            })
        };
        if !defined_inside(key, &l) {
            return false;
        }
        if self.all_values {
            return true;
        }
        // SAFETY: value symbols are made from live values.
        let value = unsafe { value_of(key) };
        let block = match defining_op(value) {
            Some(def) => def.block(),
            None => block_argument(value).map(|(b, _)| b),
        };
        block.map(|b| b.to_raw().ptr as usize) != self.body
    }

    fn region(&self, region: &Region) -> Region {
        region.substitute(&|s| self.map(s))
    }

    fn constraints(&self, constraints: &[Constraint]) -> Vec<Constraint> {
        constraints
            .iter()
            .filter_map(|c| c.substitute(&|s| self.map(s)).flatten())
            .collect()
    }
}

/// The constraints of the path of `op` inside `l`'s body: the loops and
/// branches between them (nothing for an op of the body itself).
fn path(forms: &mut Forms, op: Option<&OperationRef>, l: &OperationRef) -> Vec<Constraint> {
    match op {
        Some(op) if op.parent_operation().as_ref() != Some(l) => {
            forms.context(op, Some(l)).constraints().to_vec()
        }
        _ => Vec::new(),
    }
}

/// Every symbol of `region` (root included) and of `constraints`.
fn symbols_of(region: &Region, constraints: &[Constraint]) -> Vec<Symbol> {
    let mut out = vec![region.root.symbol];
    region.symbols(&mut out);
    for c in constraints {
        c.symbols(&mut out);
    }
    out
}

/// The region `region` (of an access in `l`'s body) as it is `d` iterations
/// later (`d` may be the form of a fresh unknown): see the module doc.
pub fn in_later_iteration(region: &Region, l: &OperationRef, d: &Lin) -> Region {
    let tau = Lin::symbol(Symbol::Iteration(op_key(l))).plus(d, 1);
    let renaming = Renaming::new(&symbols_of(region, &[]), l, tau.clone(), true);
    match tau {
        Some(_) => renaming.region(region),
        // `τ_L + d` overflows: nothing is known of the later iteration.
        None => Region {
            dims: None,
            ..renaming.region(region)
        },
    }
}

/// The context of `l`'s body, or `None` for an empty body.
fn body_context(forms: &mut Forms, l: &OperationRef) -> Option<System> {
    let first = body(l)?.first_operation()?;
    Some(forms.context(&first, None))
}

/// May `a` in iteration `τ` and `b` in iteration `τ + d` of the `scf.for`
/// `l` (both accesses of ops in its body, regions from the same [`Forms`])
/// touch a common element? Exact where the regions are affine in the
/// induction variable (with remainders by constants) and the bounds are
/// known; conservative (an overlap) elsewhere.
pub fn may_depend(
    forms: &mut Forms,
    a: &Region,
    b: &Region,
    l: &OperationRef,
    distance: IterationDistance,
) -> Overlap {
    may_depend_at(forms, (a, None), (b, None), l, distance)
}

/// [`may_depend`] with the ops of the accesses (`None`: unknown), whose
/// paths inside the body (nested loop bounds, branch conditions) join the
/// system.
pub fn may_depend_at(
    forms: &mut Forms,
    a: (&Region, Option<&OperationRef>),
    b: (&Region, Option<&OperationRef>),
    l: &OperationRef,
    distance: IterationDistance,
) -> Overlap {
    may_depend_assuming(forms, a, b, l, distance, &[], None)
}

/// [`may_depend_at`] with the facts `assumed` added to the system (facts
/// of the values both executions see, such as bounds on thread ids), and
/// `b`'s path (the conditions of the branches and loops around its op)
/// mapped by `b_as` when `b` is another execution's (another thread's
/// values; a constraint that overflows is dropped).
pub fn may_depend_assuming(
    forms: &mut Forms,
    (a, a_op): (&Region, Option<&OperationRef>),
    (b, b_op): (&Region, Option<&OperationRef>),
    l: &OperationRef,
    distance: IterationDistance,
    assumed: &[Constraint],
    b_as: Option<&dyn Fn(Symbol) -> Option<Lin>>,
) -> Overlap {
    let tau = Lin::symbol(Symbol::Iteration(op_key(l)));
    let Some(mut system) = body_context(forms, l) else {
        return Overlap::Disjoint;
    };
    system.extend(assumed.iter().cloned());
    let d = match distance {
        IterationDistance::Exactly(d) => Lin::constant(d as i64),
        IterationDistance::AtLeast(min) => {
            let d = Lin::symbol(Symbol::Fresh(0));
            system.push(Constraint::NonNeg(d.offset(-(min as i64)).unwrap()));
            d
        }
    };
    // Iteration τ + d runs too: τ + d <= T - 1.
    let trips = forms.trips(l);
    if let Some(last) = trips
        .count
        .plus(&tau, -1)
        .and_then(|x| x.plus(&d, -1))
        .and_then(|x| x.offset(-1))
    {
        system.push(Constraint::NonNeg(last));
    }
    system.extend(path(forms, a_op, l));
    let mut b_path = path(forms, b_op, l);
    if let Some(map) = b_as {
        b_path = b_path
            .iter()
            .filter_map(|c| c.substitute(map).flatten())
            .collect();
    }
    if distance == IterationDistance::Exactly(0) {
        system.extend(b_path);
        return overlap(a, b, system, forms);
    }
    let Some(later) = tau.plus(&d, 1) else {
        return Overlap::May {
            exact: false,
            alias: false,
        };
    };
    let renaming = Renaming::new(&symbols_of(b, &b_path), l, Some(later), true);
    system.extend(renaming.constraints(&b_path));
    overlap(a, &renaming.region(b), system, forms)
}

/// May `a` and `b` (accesses of ops in `l`'s body, regions from the same
/// [`Forms`]) touch a common element in one iteration of `l`, with `b` at
/// any iterations of the loops nested in the body (values defined in
/// nested regions stale; `a` and `b` may be one access)? For two accesses
/// that are not ordered within the iteration (two async copies in flight
/// together).
pub fn may_meet_in_one_iteration(
    forms: &mut Forms,
    (a, a_op): (&Region, Option<&OperationRef>),
    (b, b_op): (&Region, Option<&OperationRef>),
    l: &OperationRef,
) -> Overlap {
    let Some(mut system) = body_context(forms, l) else {
        return Overlap::Disjoint;
    };
    system.extend(path(forms, a_op, l));
    let b_path = path(forms, b_op, l);
    let renaming = Renaming::new(&symbols_of(b, &b_path), l, None, false);
    system.extend(renaming.constraints(&b_path));
    overlap(a, &renaming.region(b), system, forms)
}
