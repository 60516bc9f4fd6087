//! The analysis by cases of a switch on the function's arguments (step 7
//! of `super`).
//!
//! The pipeliner guards a loop of dynamic trip count with an
//! `scf.index_switch` on `min(trip count, stages - 1)`: one case per short
//! count, its own prologue and epilogue each, and the pipelined loop in the
//! default. Around that switch, an outer loop takes the same case on every
//! iteration (the trip count is a function argument), so the ring's count
//! grows by the same amount per iteration. A join over the cases loses
//! that: the count at the top of the outer loop may then be any mix of the
//! cases' amounts, and a wait whose slot and parity come from different
//! counts is not decided. So when the function has such a switch, the
//! analysis runs once per case, each run taking that case's region at the
//! switch on every visit, and the facts and errors of the runs are joined
//! (each is joined over visits already).
//!
//! The selector must be computed by `arith` and `index` ops (no regions,
//! no memory) from the function's own arguments and constants: then every
//! execution of the function takes one case at every visit of the switch,
//! the case of its arguments, and the runs together cover every
//! execution. Switches whose selectors are the same expression of the
//! same arguments, with the same case values, take the same case in one
//! run. One group of switches is split (the first in op order), with at
//! most [`MOST`] cases besides the default.
//!
//! Invariant (soundness): an execution follows the paths of the run of its
//! case, so what holds on every run holds on every execution.

use apipe_dialect::ops;
use melior::ir::{operation::OperationLike, BlockLike, OperationRef, Value, ValueLike};
use rustc_hash::FxHashSet;

/// The most case values of a split switch (its default apart).
const MOST: usize = 8;

/// How deep a selector's expression may be.
const DEPTH: usize = 16;

/// The switches one run fixes, and the region each takes in it.
#[derive(Clone, Debug)]
pub(super) struct Split {
    /// Op keys of the `scf.index_switch` ops.
    pub(super) switches: FxHashSet<usize>,
    /// Their regions (the default first, as `scf.index_switch` has them).
    pub(super) regions: usize,
}

/// The switches of `function` (whose ops are `nested`) to split on, if any.
pub(super) fn split<'c: 'a, 'a>(
    function: &OperationRef<'c, 'a>,
    nested: &[OperationRef<'c, 'a>],
) -> Option<Split> {
    let entry = ops::blocks_of(function).first().copied()?;
    // (selector and cases, switches, regions), in op order.
    let mut groups: Vec<(String, FxHashSet<usize>, usize)> = Vec::new();
    for op in nested {
        let op = *op;
        if !ops::is(&op, "scf.index_switch") {
            continue;
        }
        let regions = op.region_count();
        if !(2..=MOST + 1).contains(&regions) {
            continue;
        }
        let Some(selector) = op
            .operand(0)
            .ok()
            .and_then(|v| expression(v, &entry.to_raw(), 0))
        else {
            continue;
        };
        let cases = op
            .attribute("cases")
            .map(|a| a.to_string())
            .unwrap_or_default();
        let key = format!("{selector} {cases}");
        match groups.iter_mut().find(|g| g.0 == key) {
            Some(group) => {
                group.1.insert(super::op_key(&op));
            }
            None => groups.push((key, [super::op_key(&op)].into_iter().collect(), regions)),
        }
    }
    let (_, switches, regions) = groups.into_iter().next()?;
    Some(Split { switches, regions })
}

/// `value` as an expression of the arguments of the block `entry` (the
/// function's) by `arith` and `index` ops, spelled so that two values
/// with the same spelling are equal; `None` if it is not one.
fn expression(value: Value, entry: &mlir_sys::MlirBlock, depth: usize) -> Option<String> {
    if depth > DEPTH {
        return None;
    }
    let Some(op) = ops::defining_op(value) else {
        let argument = melior::ir::block::BlockArgument::try_from(value).ok()?;
        return (argument.owner().to_raw().ptr == entry.ptr)
            .then(|| format!("%arg{}:{}", argument.argument_number(), value.r#type()));
    };
    let name = ops::name(&op);
    if op.region_count() > 0 || !(name.starts_with("arith.") || name.starts_with("index.")) {
        return None;
    }
    let attributes: Vec<String> = op
        .attributes()
        .map(|(k, v)| format!("{}={v}", k.as_string_ref().as_str().unwrap_or("")))
        .collect();
    let operands: Vec<String> = op
        .operands()
        .map(|v| expression(v, entry, depth + 1))
        .collect::<Option<_>>()?;
    let result = (0..op.result_count())
        .position(|i| {
            op.result(i)
                .is_ok_and(|r| r.to_raw().ptr == value.to_raw().ptr)
        })
        .unwrap_or(0);
    // The result's type too: `arith.trunci %n` to i1 and to i8 differ.
    Some(format!(
        "{name}#{result}:{}[{}]({})",
        value.r#type(),
        attributes.join(","),
        operands.join(",")
    ))
}
