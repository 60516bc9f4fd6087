//! Which token values name a copy's group (or a newer one) on every path:
//! [`Instance::named_by`], followed through the values that carry tokens
//! (module doc, step 3).
//!
//! A token's group distance may depend on the path (an optional commit
//! under `scf.if` between the commit and the wait) or the token may name no
//! group on some path (`apipe.ready` yielded by the other branch), while on
//! every path on which a given copy is in flight the token names exactly
//! that copy's group or a newer one. The distance facts of the
//! group-distance analysis join over paths and lose this; the walk follows
//! it per instance instead:
//!
//! 1. A commit (`%t = apipe.commit_group`) adds `%t` to every instance of
//!    its queue in flight (it closes the uncommitted ones, and its group is
//!    newer than the committed ones). In the mbarrier form an arrive adds
//!    the count value whose group it arms ([`super::mbarrier::Facts`]): a
//!    wait on that count's slot and parity completes that group; and with
//!    one ring, the group's number when it is known (a constant count
//!    passed on names it too: [`Instance::named_numbers`]).
//! 2. Values that carry tokens pass them on: the results of `scf.if`,
//!    `scf.index_switch` and `scf.execute_region` from each region's
//!    yield, a loop's iter_args from its inits and from the back edge's
//!    yield, its results from the last yield (or the inits when it runs no
//!    iteration), `scf.while`'s arguments and results from `scf.condition`
//!    and the `after` region's yield. A value is named anew each time its
//!    op runs: the old name is dropped first, and the values defined in a
//!    loop are dropped at its back edge (SSA: they are defined again before
//!    any use in the next iteration).
//! 3. Joins keep the values named on both sides ([`super::state::State::add`]
//!    intersects), so a name holds on every path the instance stands for.
//! 4. A wait on a value in an instance's set completes it, whatever the
//!    distance facts say; the others are left to the distance facts.
//!
//! Invariant: `v` in `named_by` implies that on every path the instance
//! stands for, `v` holds a token (a count, in the mbarrier form) of the
//! instance's group or of a newer group of its queue, so waiting on it
//! completes the instance (FIFO completion; PTX ISA 9.7.9.25.3 for
//! `cp.async.wait_group`, 9.7.13.15 for mbarrier phases). Nothing else
//! adds a name, so following names can only complete what a wait really
//! completes.

use super::state::State;
use crate::access::values::{constant, defined_inside, value_key};
use apipe_dialect::ops::Checked as _;
use melior::ir::{operation::OperationLike, BlockLike, OperationRef, RegionLike, Value};

/// A value that names groups ([`Instance::named_by`]): the ring whose
/// groups it counts (the ring's value key in the mbarrier form; [`TOKENS`]
/// for a token of the counting and token forms) and the value's key. Two
/// rings' counts may be one value (`%c0` counts the first group of each):
/// the ring keeps them apart, so a wait on one ring's group completes what
/// that ring's arrives named, never what an equal count of another ring
/// named (trial 72).
///
/// [`Instance::named_by`]: super::state::Instance::named_by
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Name {
    /// The ring's key, or [`TOKENS`].
    pub ring: usize,
    /// The value's key ([`value_key`]).
    pub value: usize,
}

/// The ring of a token's [`Name`] (no value key is 0).
pub(crate) const TOKENS: usize = 0;

impl Name {
    /// The name of the token value `value`.
    pub(crate) fn token(value: usize) -> Self {
        Name {
            ring: TOKENS,
            value,
        }
    }
}

/// Step 1: the value `name` names a group at or after every copy of
/// `queue` in flight in `state`.
pub(super) fn name_all(state: &mut State, queue: i64, name: Name) {
    for instance in &mut state.instances {
        if !instance.unsynced && instance.queue == queue {
            instance.named_by.insert(name);
        }
    }
}

/// Step 1, mbarrier form with one ring (`ring`): the group number `n` is
/// at or after every copy in flight in `state`.
pub(super) fn name_number(state: &mut State, ring: usize, n: i64) {
    for instance in &mut state.instances {
        if !instance.unsynced {
            instance.named_numbers.insert((ring, n));
        }
    }
}

/// A value passed on: its key, and its value if it is a constant.
#[derive(Clone, Copy, Debug)]
pub(super) struct Passed {
    from: usize,
    constant: Option<i64>,
    to: usize,
}

/// Step 2: each pair passes the name of `from` (or of its constant value)
/// to `to` (a yield to a result, an init to an iter_arg); first every `to`
/// and, with `scope`, every value defined in `scope` loses its old name.
pub(super) fn pass_on(state: &mut State, pairs: &[Passed], scope: Option<&OperationRef>) {
    for instance in &mut state.instances {
        if instance.named_by.is_empty() && instance.named_numbers.is_empty() {
            continue;
        }
        let old = std::mem::take(&mut instance.named_by);
        instance.named_by = old
            .iter()
            .copied()
            .filter(|v| {
                !pairs.iter().any(|p| p.to == v.value)
                    && scope.is_none_or(|s| !defined_inside(v.value, s))
            })
            .collect();
        for p in pairs {
            // The name keeps its ring: a count passed on counts the same
            // ring's groups.
            let rings = old
                .iter()
                .filter(|v| v.value == p.from)
                .map(|v| v.ring)
                .chain(
                    instance
                        .named_numbers
                        .iter()
                        .filter(|(_, n)| Some(*n) == p.constant)
                        .map(|(ring, _)| *ring),
                );
            instance
                .named_by
                .extend(rings.map(|ring| Name { ring, value: p.to }));
        }
    }
}

/// The pairs of `from` values passed to `to` values, by position.
pub(super) fn pairs<'c, 'a>(
    from: impl IntoIterator<Item = Value<'c, 'a>>,
    to: impl IntoIterator<Item = Value<'c, 'a>>,
) -> Vec<Passed> {
    from.into_iter()
        .zip(to)
        .map(|(f, t)| Passed {
            from: value_key(f),
            constant: constant(f),
            to: value_key(t),
        })
        .collect()
}

/// The operands of the terminator of `op`'s region `region` (its yield or
/// `scf.condition`), `skip` of them dropped from the front.
pub(super) fn yielded<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    region: usize,
    skip: usize,
) -> Vec<Value<'c, 'a>> {
    op.region_at(region)
        .and_then(|r| r.first_block())
        .and_then(|b| b.terminator())
        .map(|t| t.operands().skip(skip).collect())
        .unwrap_or_default()
}

/// The arguments of the entry block of `op`'s region `region`, `skip` of
/// them dropped from the front.
pub(super) fn arguments<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    region: usize,
    skip: usize,
) -> Vec<Value<'c, 'a>> {
    op.region_at(region)
        .and_then(|r| r.first_block())
        .map(|b| {
            (skip..b.argument_count())
                .filter_map(|i| apipe_dialect::ops::argument_at(&b, i).map(Into::into))
                .collect()
        })
        .unwrap_or_default()
}

/// The results of `op`.
pub(super) fn results<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    op.results().map(Into::into).collect()
}
