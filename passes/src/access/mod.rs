//! Memory accesses and their symbolic comparison: the one place that says
//! what an op reads and writes, which elements, and whether two accesses may
//! touch a common element. The hazard checker (`apipe-check-hazards`) and
//! the pipeliner's dependence test both ask it.
//!
//! # Pieces
//! - [`effects`]: the accesses of an op, from MLIR's
//!   `MemoryEffectOpInterface` (through `apipe_dialect::effects`), narrowed
//!   to the indexed elements where the op's indices say which;
//! - [`region`]: a [`Region`] is a root buffer (followed through
//!   `memref.subview`, `cast`, `expand_shape`, `collapse_shape`,
//!   `transpose`, and any `ViewLikeOpInterface` op) and, per dimension of
//!   the root, a range `[start, start + extent)` with a symbolic start;
//!   [`overlap`] compares two regions; [`may_alias`] compares roots;
//! - [`values`]: the symbolic form ([`Lin`]) of an SSA index value, the
//!   facts of its defining op, and the constraints of a program point
//!   (loop bounds, `scf.if` conditions, `scf.index_switch` cases);
//! - [`affine`]: forms affine in symbols, with `x mod V` and `x div V` for
//!   constants `V` (the version arithmetic `(iv + s) mod V` of
//!   multi-buffering is one form);
//! - [`constraints`]: systems of constraints and the feasibility test;
//! - [`dependence`]: "may access `a` in iteration `τ` and access `b` in
//!   iteration `τ + d` of loop `L` touch a common element?"
//!   ([`may_depend`]), for `d` exact or `d >= k`.
//!
//! # Algorithm of the overlap test
//! 1. Roots: two different roots overlap only if they may alias ([`RootKind`]:
//!    fresh allocations alias nothing else; arguments, globals and unknown
//!    roots of one memory space may alias each other, except an argument
//!    marked `llvm.noalias`, which aliases no other argument or global).
//! 2. Same root: per dimension, `[sa, sa + ea)` meets `[sb, sb + eb)` iff
//!    `-ea < sa - sb < eb` (`sa = sb` for single elements); these
//!    constraints join the context of the accesses (the constraints of the
//!    structured control flow around them, an access's own path conditions)
//!    and the facts of every symbol;
//! 3. the system's feasibility (see [`constraints`]: remainders become
//!    `x = V*q + r`, equalities are eliminated with a GCD test, bounds
//!    propagate, small ranges are enumerated) decides: infeasible means
//!    disjoint.
//!
//! # Invariants
//! - Soundness: [`Overlap::Disjoint`] is a proof that no values of the
//!   symbols allowed by the system make the regions share an element.
//!   Where the algebra cannot follow (a view it does not know, an index it
//!   cannot fold, an overflow), the region widens ([`Dim::Any`], a fresh
//!   symbol), never narrows.
//! - [`Overlap::May`] with `exact = true` comes with a witness: values for
//!   which both regions share an element.
//! - Forms hold pointers of SSA values: a [`Forms`] cache, and every form,
//!   region and system built from it, is valid while the IR is unchanged.
//!
//! # Assumptions
//! Integer casts (`index_cast`, `extsi`, `extui`) keep their value (indices
//! fit in both types); accesses are in bounds (a region is not clipped to
//! the buffer).
//!
//! Citations: MLIR `SideEffectInterfaces.td` (`MemoryEffectOpInterface`,
//! `HasRecursiveMemoryEffects`), `ViewLikeInterface.td`, `MemRefOps.td`
//! (`subview`, `expand_shape`, `collapse_shape`, `transpose`); the GCD test
//! and bound propagation of classic dependence analysis (Banerjee; Pugh's
//! Omega test uses the same equality elimination).

pub mod affine;
pub mod constraints;
pub mod dependence;
pub mod effects;
pub mod region;
pub mod slot;
pub mod values;

pub use affine::{Atom, Lin, Signedness, Symbol};
pub use constraints::{Constraint, Feasibility, System};
pub use dependence::{
    may_depend, may_depend_assuming, may_depend_at, may_meet_in_one_iteration, IterationDistance,
};
pub use effects::{accesses, copy_regions, Access, AccessCache, AccessKind, OpAccesses};
pub use region::{
    disjoint_by_forms, in_bounds, may_alias, overlap, overlap_with, same_buffer, Alternative, Dim,
    Overlap, Region, Root, RootKind,
};
pub use values::Forms;

#[cfg(test)]
mod tests;
