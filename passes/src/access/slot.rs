//! The ops that advance a **slot index** carried by hand through `scf.for`
//! iter_args, as multi-buffered kernels write it: CUTLASS's
//! `PipelineState {index, phase}` (`++index == K ? 0 : index`, the phase
//! flipped on the wrap), IREE's and upstream MLIR's multi-buffered loops
//! (`(slot + 1) mod K`, `arith.select(wrap, 0, slot + 1)`).
//!
//! This module only **names** each such op by what it does to its operands
//! ([`Step`]), from the op's name, its `arith.cmpi` predicate and which of
//! its operands are constants. Two analyses give the steps their meaning
//! and agree on what an advance is because both ask [`step`]:
//! - the mbarrier check (`check_hazards::mbarrier`) follows, per ring of K
//!   mbarriers, masks of the offsets of a virtual arrive count that each
//!   index or phase value stands for;
//! - the access forms ([`super::values::Forms`]) fold an advanced index to
//!   `(x + 1) mod K` when `0 <= x < K` holds, so that a slot iter_arg
//!   starting at a constant in `[0, K)` is `(init + iv) mod K` (a rotating
//!   version index) and two slots compare symbolically.
//!
//! # The steps
//! | op | step |
//! |---|---|
//! | `arith.addi x, 1` | [`Step::Increment`] |
//! | `arith.cmpi eq/ne, x, c` | [`Step::Compare`] |
//! | `arith.select w, a, b` | [`Step::Select`] (`zero`: which arm is the constant 0) |
//! | `arith.xori x, 1` | [`Step::Flip`] |
//! | `arith.xori a, b` | [`Step::Xor`] |
//! | `arith.remui x, c` | [`Step::Remainder`] |
//!
//! The wrap of an index is `inc == K` or `index == K - 1`; the next index
//! is `select(wrap, 0, inc)` (or `select(!wrap, inc, 0)`, `!wrap` being the
//! `ne` comparison) or `inc mod K` ([`next_index`] recognises the select
//! forms from the values' defining ops).

use super::values::defining_op;
use apipe_dialect::{attributes, ops};
use melior::ir::{operation::OperationLike, OperationRef, Value};

/// What one op does to its operands, as pipeline-state arithmetic (see the
/// module doc). Operand positions index the op's operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `operand[x] + 1`.
    Increment {
        /// The position of the incremented operand.
        x: usize,
    },
    /// `operand[x] == c` (`equal`) or `operand[x] != c`.
    Compare {
        /// The position of the compared operand.
        x: usize,
        /// The constant it is compared with.
        c: i64,
        /// `eq` (true) or `ne` (false).
        equal: bool,
    },
    /// `select(operand[0], operand[1], operand[2])`.
    Select {
        /// The arm (1 or 2) that is the constant 0, if one is.
        zero: Option<usize>,
    },
    /// `operand[x] ^ 1`.
    Flip {
        /// The position of the flipped operand.
        x: usize,
    },
    /// `operand[0] ^ operand[1]`, neither the constant 1.
    Xor,
    /// `operand[0] mod c` (`arith.remui` by a positive constant).
    Remainder {
        /// The divisor.
        c: i64,
    },
}

/// The step `op` makes, given which of its operands are constants
/// (`constants[i]`: the value of operand `i` if it is a known constant, in
/// the caller's own analysis). `None`: not a pipeline-state op.
pub fn step(op: &OperationRef, constants: &[Option<i64>]) -> Option<Step> {
    let constant = |i: usize| constants.get(i).copied().flatten();
    match ops::name(op) {
        "arith.addi" => match (constant(0), constant(1)) {
            (_, Some(1)) => Some(Step::Increment { x: 0 }),
            (Some(1), _) => Some(Step::Increment { x: 1 }),
            _ => None,
        },
        "arith.cmpi" => {
            // arith::CmpIPredicate: eq 0, ne 1.
            let equal = match attributes::integer(op, "predicate")? {
                0 => true,
                1 => false,
                _ => return None,
            };
            match (constant(0), constant(1)) {
                (_, Some(c)) => Some(Step::Compare { x: 0, c, equal }),
                (Some(c), None) => Some(Step::Compare { x: 1, c, equal }),
                _ => None,
            }
        }
        "arith.select" => Some(Step::Select {
            zero: [1, 2].into_iter().find(|i| constant(*i) == Some(0)),
        }),
        "arith.xori" => match (constant(0), constant(1)) {
            (_, Some(1)) => Some(Step::Flip { x: 0 }),
            (Some(1), _) => Some(Step::Flip { x: 1 }),
            _ => Some(Step::Xor),
        },
        "arith.remui" => constant(1)
            .filter(|c| *c > 0)
            .map(|c| Step::Remainder { c }),
        _ => None,
    }
}

/// The next index a select makes from `index + 1`: `select(wrap, 0, inc)`
/// or `select(!wrap, inc, 0)`, the wrap being `inc == K` or
/// `index == K - 1` (`!wrap` the same with `ne`).
#[derive(Clone, Copy, Debug)]
pub struct NextIndex<'c, 'a> {
    /// The incremented value `inc` (the select's nonzero arm).
    pub inc: Value<'c, 'a>,
    /// The value the wrap compares and the constant it compares it with.
    pub compared: Value<'c, 'a>,
    /// The constant of the comparison.
    pub c: i64,
}

impl NextIndex<'_, '_> {
    /// The ring size K if the wrap compares `inc` itself (`inc == K`), or
    /// `index` (`index == K - 1`); which one it is, the caller proves
    /// (`same`: the compared value is `inc`, `previous`: it is `inc - 1`).
    pub fn slots(&self, same: bool, previous: bool) -> Option<i64> {
        if same {
            Some(self.c)
        } else if previous {
            self.c.checked_add(1)
        } else {
            None
        }
        .filter(|k| *k >= 1)
    }
}

/// Recognises `select` (an `arith.select` op) as [`NextIndex`];
/// `constant` is the caller's constant of a value.
pub fn next_index<'c, 'a>(
    select: &OperationRef<'c, 'a>,
    constant: &mut dyn FnMut(Value<'c, 'a>) -> Option<i64>,
) -> Option<NextIndex<'c, 'a>> {
    let operands: Vec<Value<'c, 'a>> = select.operands().collect();
    let constants: Vec<Option<i64>> = operands.iter().map(|v| constant(*v)).collect();
    let Some(Step::Select { zero: Some(zero) }) = step(select, &constants) else {
        return None;
    };
    let inc = operands[3 - zero];
    let wrap = defining_op(operands[0])?;
    if !ops::is(&wrap, "arith.cmpi") {
        return None;
    }
    let wrap_operands: Vec<Value<'c, 'a>> = wrap.operands().collect();
    let wrap_constants: Vec<Option<i64>> = wrap_operands.iter().map(|v| constant(*v)).collect();
    let Some(Step::Compare { x, c, equal }) = step(&wrap, &wrap_constants) else {
        return None;
    };
    // 0 in the then arm needs `eq`, in the else arm `ne`.
    (equal == (zero == 1)).then_some(NextIndex {
        inc,
        compared: wrap_operands[x],
        c,
    })
}
