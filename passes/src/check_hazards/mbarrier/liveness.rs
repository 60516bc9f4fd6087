//! Which values the mbarrier analysis still needs at a point of its walk,
//! so that its state holds the values that can still be read and not every
//! value seen so far.
//!
//! Without it a function of n pipelined loops carried the values of every
//! earlier loop through each later loop's fixed point (cloned, joined and
//! shifted at every arrive): quadratic in n (500 loops in one kernel took
//! 66 times as long as 50).
//!
//! # Rule
//! A value is **statically live** at a point of the walk when its block is
//! being walked and its last user in that block (the op of the block that
//! holds the use, at any depth) is not finished yet. A block argument is
//! live while its block is walked. A value whose block is not being walked
//! (the results of ops inside a finished loop or branch, its arguments) is
//! dead. Values the analysis never saw defined are kept.
//!
//! A dead value stays while a kept value's [`super::Shape`] names it: a
//! wait or guard reads the value a shape names at its use (`x & m` reads
//! `x`), so those are kept transitively.
//!
//! # Invariant
//! Dropping a value is dropping a fact no later op reads: every read of a
//! value is at a use (statically live up to it) or through a shape of a
//! kept value. So the analysis's results (facts and errors) are those of
//! the state that keeps every value.

use super::State;
use apipe_dialect::ops;
use melior::ir::{operation::OperationLike, BlockLike, BlockRef};
use rustc_hash::{FxHashMap, FxHashSet};

/// A block's position marker: a block argument is live while its block is
/// walked.
const WHOLE_BLOCK: usize = usize::MAX;

/// Static liveness along the walk (see the module doc).
#[derive(Debug, Default)]
pub(super) struct Liveness {
    /// Value key -> (key of its block, position in the block of its last
    /// user, or of its own op when unused; [`WHOLE_BLOCK`] for a block
    /// argument).
    last_use: FxHashMap<usize, (usize, usize)>,
    /// Blocks whose values are in `last_use`.
    seen: FxHashSet<usize>,
    /// The blocks being walked, outermost first (block keys).
    active: Vec<usize>,
    /// Per block being walked: the position of its first op not finished.
    unfinished: FxHashMap<usize, usize>,
    /// Per block seen, per position: the values of the block whose last
    /// user is the op at that position (those that die when it finishes).
    dying: FxHashMap<usize, Vec<Vec<usize>>>,
    /// The dead values the last sweep kept because a kept value's shape
    /// names them.
    retained: Vec<usize>,
}

fn block_key(block: &BlockRef) -> usize {
    block.to_raw().ptr as usize
}

impl Liveness {
    /// Starts walking `block` (at its first op); computes its values' last
    /// uses the first time.
    pub(super) fn enter(&mut self, block: BlockRef) {
        let b = block_key(&block);
        self.active.push(b);
        self.unfinished.insert(b, 0);
        if !self.seen.insert(b) {
            return;
        }
        for argument in (0..block.argument_count()).filter_map(|i| ops::argument_at(&block, i)) {
            self.last_use
                .insert(super::value_key(argument.into()), (b, WHOLE_BLOCK));
        }
        let block_ops: Vec<_> =
            std::iter::successors(block.first_operation(), |op| op.next_in_block()).collect();
        // One entry per result, most ops have one: grown once, not by
        // doubling (the function's block holds most of its values).
        self.last_use.reserve(block_ops.len());
        for (i, op) in block_ops.iter().enumerate() {
            for result in op.results() {
                self.last_use
                    .insert(super::value_key(result.into()), (b, i));
            }
        }
        for (i, op) in block_ops.iter().enumerate() {
            for user in ops::self_and_nested_ops(op) {
                for operand in user.operands() {
                    if let Some(entry) = self.last_use.get_mut(&super::value_key(operand)) {
                        if entry.0 == b && entry.1 != WHOLE_BLOCK {
                            entry.1 = entry.1.max(i);
                        }
                    }
                }
            }
        }
        let mut dying = vec![Vec::new(); block_ops.len()];
        for op in &block_ops {
            for result in op.results() {
                let key = super::value_key(result.into());
                if let Some(&(_, last)) = self.last_use.get(&key) {
                    dying[last].push(key);
                }
            }
        }
        self.dying.insert(b, dying);
    }

    /// The op at `position` of the innermost walked block is finished.
    pub(super) fn finished(&mut self, position: usize) {
        if let Some(top) = self.active.last() {
            self.unfinished.insert(*top, position + 1);
        }
    }

    /// Stops walking the innermost block.
    pub(super) fn leave(&mut self) {
        if let Some(top) = self.active.pop() {
            self.unfinished.remove(&top);
        }
    }

    /// Whether the value of `key` may still be read (statically).
    fn is_live(&self, key: usize) -> bool {
        let Some(&(block, last)) = self.last_use.get(&key) else {
            return true;
        };
        self.unfinished
            .get(&block)
            .is_some_and(|unfinished| last == WHOLE_BLOCK || last >= *unfinished)
    }

    /// Drops from `state` the values no later op reads (the module's rule),
    /// after the op at `position` of the innermost walked block.
    ///
    /// Once per op, so in two ways with one result. After the first op of
    /// a walk of the block, or an op with regions (whose values all die
    /// with it, and whose walk brought in states from elsewhere), every
    /// value of `state` is tested. After any other op, only the values
    /// that die with it and those the last sweep kept dead can be dead:
    /// the previous sweep, after the op before, left no other dead value,
    /// and an op without regions sets only its own results.
    pub(super) fn sweep(&mut self, state: &mut State, position: usize, has_regions: bool) {
        let Some(dying) = self
            .active
            .last()
            .and_then(|b| self.dying.get(b))
            .and_then(|d| d.get(position))
            .filter(|_| position > 0 && !has_regions)
        else {
            self.sweep_all(state);
            return;
        };
        let dead: Vec<usize> = dying
            .iter()
            .chain(&self.retained)
            .copied()
            .filter(|k| state.vals.contains_key(k))
            .collect();
        self.retained = remove_unnamed(state, dead);
    }

    /// [`Liveness::sweep`] testing every value of `state`.
    fn sweep_all(&mut self, state: &mut State) {
        let dead: Vec<usize> = state
            .vals
            .keys()
            .copied()
            .filter(|k| !self.is_live(*k))
            .collect();
        self.retained = remove_unnamed(state, dead);
    }
}

/// Removes the `dead` values of `state` that no kept value's shape names
/// (at any depth); gives back those it kept.
fn remove_unnamed(state: &mut State, mut dead: Vec<usize>) -> Vec<usize> {
    if dead.is_empty() {
        return dead;
    }
    // Few values die at once: a linear search beats a hash set.
    let mut work: Vec<usize> = state
        .vals
        .iter()
        .filter(|(k, v)| v.shape != super::Shape::None && !dead.contains(k))
        .flat_map(|(_, v)| v.shape.keys())
        .collect();
    let mut named = FxHashSet::default();
    while let Some(k) = work.pop() {
        if named.insert(k) {
            if let Some(v) = state.vals.get(&k) {
                work.extend(v.shape.keys());
            }
        }
    }
    dead.retain(|k| {
        let keep = named.contains(k);
        if !keep {
            state.vals.remove(k);
        }
        keep
    });
    dead
}
