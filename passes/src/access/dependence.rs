//! The loop-carried dependence test: may two accesses of one `scf.for`
//! body, in iterations `τ` and `τ + d`, touch a common element?
//!
//! Both regions are forms of the body's values, so their iteration-dependent
//! parts are affine in `τ_L` (see [`super::values`]). The access of the
//! later iteration gets `τ_L -> τ_L + d`, and every value defined inside the
//! body that is not a form of `τ_L` (a load, a call result) becomes a
//! [`Symbol::Stale`] on that side: it may differ between iterations. The
//! system is then the context of the loop body (both iterations within the
//! trip count, the ops around the loop) and the overlap test decides.

use super::{
    affine::{Lin, Symbol},
    constraints::Constraint,
    region::{overlap, Overlap, Region},
    values::{defined_inside, op_key, Forms},
};
use melior::ir::{operation::OperationLike, OperationRef};

/// The iteration distance `d` between the two accesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IterationDistance {
    /// Exactly `d` iterations (`d >= 0`; 0 is the same iteration).
    Exactly(u64),
    /// Any `d >= min` (`min >= 1`).
    AtLeast(u64),
}

/// The region `region` (of an access in `l`'s body) as it is `d` iterations
/// later: `τ_L -> τ_L + d`, values defined in the body stale (`d` may be the
/// form of a fresh unknown).
pub fn in_later_iteration(region: &Region, l: &OperationRef, d: &Lin) -> Region {
    let tau = Symbol::Iteration(op_key(l));
    let shifted = Lin::symbol(tau).plus(d, 1);
    region.substitute(&|s| match s {
        s if s == tau => shifted.clone(),
        Symbol::Value(key) if defined_inside(key, l) => Some(Lin::symbol(Symbol::Stale(key))),
        _ => None,
    })
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
    let tau = Lin::symbol(Symbol::Iteration(op_key(l)));
    let body = l
        .region(0)
        .ok()
        .and_then(|r| melior::ir::RegionLike::first_block(&r))
        .and_then(|b| melior::ir::BlockLike::first_operation(&b));
    // The context of the loop body (iteration τ in range, and everything
    // around the loop).
    let mut system = match body {
        Some(first) => forms.context(&first, None),
        None => return Overlap::Disjoint,
    };
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
    let later = if distance == IterationDistance::Exactly(0) {
        b.clone()
    } else {
        in_later_iteration(b, l, &d)
    };
    overlap(a, &later, system, forms)
}
