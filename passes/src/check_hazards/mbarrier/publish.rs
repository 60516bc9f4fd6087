//! Whether a `gpu.barrier` publishes a ring's `apipe.mbarrier_init` to the
//! block's other threads before they use it (docs/mbarrier.md,
//! "Checking": a ring not published).
//!
//! `mbarrier.init` is a plain store (PTX ISA 9.7.13.15.9): a thread sees it
//! only after a barrier that follows it. One thread initialises the ring,
//! so every arrive and wait on the ring must come after a `gpu.barrier`
//! that follows the init on every path.
//!
//! # Algorithm
//! Walk the ops after the init's top-level op (its ancestor in the
//! function's body) in program order; each op gives [`Found`]:
//! - `gpu.barrier`: a barrier, every later op is published.
//! - an op with no region: a use of the ring (an arrive, wait, expect_tx
//!   or bulk copy on it) before a barrier, refused; else nothing, go on.
//! - `scf.for`: its body walked alone. A use there is one; a barrier
//!   there precedes every use of the body in each iteration, but the loop
//!   may run no iteration, so the walk goes on after it, unless its trip
//!   count is a constant of at least 1 (then the loop is a barrier).
//! - `scf.if` / `scf.index_switch`: each region walked; a use in any is
//!   one; a barrier in every region (an `scf.if` with an else) is a
//!   barrier.
//! - `scf.while`: the before region runs at least once, then the after
//!   region: walked in that order as one sequence.
//! - any other op with regions: a use if one is nested in it, else
//!   nothing (a barrier in it is not taken).
//!
//! Invariant: [`Found::Barrier`] only when a barrier runs on every path
//! before anything after it; a use is never taken as published unless a
//! barrier comes before it on every path.

use apipe_dialect::ops;
use melior::ir::{operation::OperationLike, BlockLike, OperationRef, RegionLike, Value};

/// What a walk met first.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Found {
    /// A `gpu.barrier` on every path.
    Barrier,
    /// A use of the ring that no barrier precedes on some path.
    Use,
    /// Neither on every path, and no unpublished use.
    Nothing,
}

/// Walks the ops from `first` on, in its block, for the ring `ring`;
/// `uses` tells whether an op or an op nested in it uses the ring.
pub(super) fn walk<'c, 'a>(
    first: Option<OperationRef<'c, 'a>>,
    ring: Value<'c, 'a>,
    uses: &impl Fn(&OperationRef<'c, 'a>) -> bool,
) -> Found {
    let mut next = first;
    while let Some(op) = next {
        match step(&op, ring, uses) {
            Found::Nothing => {}
            found => return found,
        }
        next = op.next_in_block();
    }
    Found::Nothing
}

/// One op of [`walk`].
fn step<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    ring: Value<'c, 'a>,
    uses: &impl Fn(&OperationRef<'c, 'a>) -> bool,
) -> Found {
    if ops::is(op, "gpu.barrier") {
        return Found::Barrier;
    }
    if op.region_count() == 0 {
        return if uses(op) { Found::Use } else { Found::Nothing };
    }
    let region = |i: usize| {
        op.region(i)
            .ok()
            .and_then(|r| r.first_block())
            .map_or(Found::Nothing, |b| walk(b.first_operation(), ring, uses))
    };
    match ops::name(op) {
        "scf.for" => match region(0) {
            Found::Use => Found::Use,
            Found::Barrier if crate::trip_count::static_trip_count(op).is_some_and(|n| n > 0) => {
                Found::Barrier
            }
            _ => Found::Nothing,
        },
        "scf.while" => match region(0) {
            Found::Nothing => region(1),
            found => found,
        },
        "scf.if" | "scf.index_switch" => {
            let arms: Vec<Found> = (0..op.region_count()).map(region).collect();
            if arms.contains(&Found::Use) {
                Found::Use
            } else if arms.iter().all(|f| *f == Found::Barrier) && has_else(op) {
                Found::Barrier
            } else {
                Found::Nothing
            }
        }
        _ if uses(op) => Found::Use,
        _ => Found::Nothing,
    }
}

/// Whether every path through `op` (an `scf.if` or `scf.index_switch`)
/// enters one of its regions: an `scf.if` with an else region (an
/// `scf.index_switch` always has its default region).
fn has_else<'c, 'a>(op: &OperationRef<'c, 'a>) -> bool {
    !ops::is(op, "scf.if") || op.region(1).ok().is_some_and(|r| r.first_block().is_some())
}
