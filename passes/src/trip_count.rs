//! Trip counts of `scf.for` loops: the one place that computes them, for
//! the pipeliner, the group-distance analysis and the hazard checker.
//!
//! # Semantics (MLIR `scf.for`, SCFOps.td)
//! The body runs for `iv = lb, lb + step, lb + 2 step, ...` as long as
//! `lb <= iv < ub`, compared signed, or unsigned when the loop carries
//! `unsigned` (`unsignedCmp`). The sequence is mathematical: an `iv` that
//! would leave the 64-bit range is not an iteration (it would wrap below
//! `lb`). `step` must be positive. So
//!
//! `N = ceil((ub - lb) / step)` when `lb < ub`, else `0`,
//!
//! with `lb` and `ub` read as signed or unsigned 64-bit integers (`index`
//! is 64 bits wide on every target apipe compiles for: nvptx64 and the
//! x86-64 host of `apipe-run`). `N` lies in `[0, 2^64 - 1]`: a `u64`
//! (`lb = i64::MIN, ub = i64::MAX, step = 1` gives `2^64 - 1`).
//!
//! # Algorithm (overflow-free in 64-bit arithmetic)
//! 1. if not `lb < ub` (signed or unsigned compare): `N = 0`;
//! 2. `d = ub - lb` in wrapping 64-bit arithmetic: `0 < ub - lb < 2^64`
//!    mathematically, so `d` read unsigned is exact;
//! 3. `N = (d - 1) / step + 1`, unsigned (MLIR `arith.ceildivui`): `d >= 1`,
//!    so nothing wraps.
//!
//! The pipeliner emits the same steps for dynamic bounds (`arith.cmpi slt`
//! or `ult`, `arith.subi`, `arith.ceildivui`, `arith.select`), so its static
//! and dynamic paths agree; `passes/tests/trip_count_props.rs` checks
//! [`trip_count`] against `i128` arithmetic.
//!
//! Any iteration `i < N` has `iv_i = lb + i * step` in `[lb, ub)`, so
//! `iv_i` computed in wrapping 64-bit arithmetic (`arith.muli`,
//! `arith.addi` without overflow flags) is exact, and so is `i` itself and
//! every `N - k` with `k <= N`: the code the pipeliner emits from `N` never
//! depends on a wrapped value.

use apipe_dialect::ops;
use apipe_dialect::ops::Checked as _;
use melior::ir::operation::OperationLike;

/// The number of iterations of `for iv = lower to upper step step`, with
/// `lower` and `upper` compared as signed (`unsigned = false`) or unsigned
/// 64-bit integers (their bits are the same `i64`s). `None` when `step` is
/// not positive (undefined for `scf.for`; its verifier refuses a constant
/// one).
pub fn trip_count(lower: i64, upper: i64, step: i64, unsigned: bool) -> Option<u64> {
    if step <= 0 {
        return None;
    }
    let runs = if unsigned {
        (lower as u64) < (upper as u64)
    } else {
        lower < upper
    };
    if !runs {
        return Some(0);
    }
    let difference = (upper as u64).wrapping_sub(lower as u64);
    Some((difference - 1) / step as u64 + 1)
}

/// True if the `scf.for` `op` compares its induction variable unsigned
/// (`scf.for unsigned`, the `unsignedCmp` unit attribute).
pub fn is_unsigned<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
    op.has_attribute("unsignedCmp")
}

/// The bounds of an `scf.for`: each operand's constant value if it has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopBounds {
    /// The lower bound, when constant.
    pub lower: Option<i64>,
    /// The upper bound, when constant.
    pub upper: Option<i64>,
    /// The step, when constant.
    pub step: Option<i64>,
    /// `scf.for unsigned`.
    pub unsigned: bool,
}

impl LoopBounds {
    /// Reads the bounds of the `scf.for` `op`; `None` if `op` is not one.
    pub fn of<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<Self> {
        if !ops::is(op, "scf.for") {
            return None;
        }
        Some(Self {
            lower: ops::constant_int(op.operand_at(0)?),
            upper: ops::constant_int(op.operand_at(1)?),
            step: ops::constant_int(op.operand_at(2)?),
            unsigned: is_unsigned(op),
        })
    }

    /// The trip count when all three operands are constants and the step
    /// is positive.
    pub fn trip_count(&self) -> Option<u64> {
        trip_count(self.lower?, self.upper?, self.step?, self.unsigned)
    }

    /// True if the trip count may exceed `i64::MAX` (then a loop over
    /// `[0, N - k)` must compare unsigned): known counts above it, and
    /// dynamic bounds unless the loop is signed with a constant lower bound
    /// `>= 0` (then `ub - lb <= i64::MAX`).
    pub fn may_exceed_i64(&self) -> bool {
        match self.trip_count() {
            Some(n) => n > i64::MAX as u64,
            None => self.unsigned || self.lower.is_none_or(|l| l < 0),
        }
    }
}

/// The static trip count of an `scf.for` (see [`trip_count`]): `None` if it
/// is not an `scf.for`, or a bound or the step is not a constant.
pub fn static_trip_count<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<u64> {
    LoopBounds::of(op)?.trip_count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_cases() {
        assert_eq!(trip_count(0, 0, 1, false), Some(0));
        assert_eq!(trip_count(5, 3, 1, false), Some(0));
        assert_eq!(trip_count(-5, 3, 3, false), Some(3));
        assert_eq!(trip_count(0, 10, 100, false), Some(1));
        assert_eq!(trip_count(0, i64::MAX, 2, false), Some(1 << 62));
        assert_eq!(trip_count(0, i64::MAX, 1, false), Some(i64::MAX as u64));
        assert_eq!(trip_count(i64::MIN, i64::MAX, 1, false), Some(u64::MAX));
        // Unsigned: -1 is 2^64 - 1.
        assert_eq!(trip_count(0, -1, 1, true), Some(u64::MAX));
        assert_eq!(trip_count(0, -1, 1, false), Some(0));
        assert_eq!(trip_count(-10, -4, 2, true), Some(3));
        assert_eq!(trip_count(-4, -10, 2, true), Some(0));
        assert_eq!(trip_count(0, 1, 0, false), None);
        assert_eq!(trip_count(0, 1, -1, true), None);
    }
}
