//! The `gpu.barrier` right after an `apipe.mbarrier_wait` in a kernel: the
//! counting form needed it (a `wait_group` completes the waiting thread's
//! copies only), the mbarrier form does not for read-after-write (the phase
//! completes once every thread's copies landed, and the wait acquires
//! them). It is removed where it provably orders nothing else
//! (docs/mbarrier.md, "Write after read"):
//!
//! 1. a buffer that a plain op writes (any op but `apipe.copy` and the
//!    mbarrier ops whose memory effects write, [`crate::access`]) is
//!    accessed by no other op but plain writes, and no op writes unknown
//!    memory: no read depends on the barrier's ordering of a plain write.
//!    Distinct function arguments are taken as distinct buffers, the
//!    convention of `apipe-check-hazards`, whose errors rest on it too;
//! 2. every path from the barrier reaches another `gpu.barrier` (or the end
//!    of the kernel) before any `apipe.copy` (write-after-read: a read after
//!    it stays ordered before the copies that may overwrite its data), and
//!    before any plain write unless every path into it from a plain write
//!    passes another barrier too (write-after-write between threads). Paths
//!    go through the rest of the block, the back edge of an enclosing
//!    `scf.for` and the code around it; `scf.while` and other ops with
//!    regions that hold a barrier end the proof (the barrier stays).
//!
//! Read-after-write across threads is then the wait's: every copy a thread
//! reads was tracked by an arrival of its thread on a phase that a wait
//! completed. `apipe-check-hazards` checks the result
//! (test/Analysis/check-hazards-mbarrier.mlir) and `apipe-run` runs it with
//! its race checker (test/Emulation).

use crate::access::{AccessCache, AccessKind, RootKind, Symbol};
use apipe_dialect::ops;
use melior::ir::{operation::OperationLike, BlockLike, OperationRef};
use rustc_hash::{FxHashMap, FxHashSet};

/// Removes the `gpu.barrier`s of `kernel` that directly follow an
/// `apipe.mbarrier_wait` and order nothing else (steps 1-2); returns how
/// many.
pub fn drop_after_waits(kernel: OperationRef) -> usize {
    let nested = ops::nested_ops(&kernel);
    let candidates: Vec<OperationRef> = nested
        .iter()
        .copied()
        .filter(|op| ops::is(op, "gpu.barrier") && follows_wait(op))
        .collect();
    let mut cache = AccessCache::new();
    if candidates.is_empty() || !plain_writes_private(&nested, &mut cache) {
        return 0;
    }
    // One scan state for every candidate: each op's accesses and what each
    // op with regions holds do not change when a barrier is erased (an erased barrier is no longer in its block, and no longer
    // among the barriers an op holds).
    let mut scan = Scan {
        kernel,
        origin: kernel,
        cache,
        visited: FxHashSet::default(),
        found: Found::default(),
        holds: FxHashMap::default(),
        erased: FxHashSet::default(),
    };
    let mut dropped = 0;
    for barrier in candidates {
        scan.origin = barrier;
        scan.visited.clear();
        scan.found = Found::default();
        scan.forward(barrier.next_in_block(), barrier);
        let after = scan.found;
        // Copies after it, or plain writes both after and before it with no
        // other barrier between: it stays.
        let keep = after.copy
            || after.unknown
            || after.write && {
                scan.visited.clear();
                scan.found = Found::default();
                scan.backward(&mut ops::preceding(&barrier), barrier);
                scan.found.write || scan.found.unknown
            };
        if !keep {
            scan.erased.insert(key(&barrier));
            crate::rewrite::erase_op(barrier);
            dropped += 1;
        }
    }
    dropped
}

/// True if the op before `op` in its block is an `apipe.mbarrier_wait`.
fn follows_wait(op: &OperationRef) -> bool {
    ops::previous_in_block(op).is_some_and(|p| ops::is(&p, ops::MBARRIER_WAIT))
}

/// Step 1: every buffer that a plain op writes is accessed by no other op
/// (and no op writes unknown memory).
fn plain_writes_private<'c: 'a, 'a>(
    nested: &[OperationRef<'c, 'a>],
    cache: &mut AccessCache<'c, 'a>,
) -> bool {
    // (buffer, op) of every access.
    let mut accessed: Vec<(Option<Buffer>, usize, bool)> = Vec::new();
    for op in nested {
        // The ring is used through mbarrier ops only, ordered by their own
        // semantics (and its initialisation by the barrier after it, which
        // follows no wait).
        // Barriers are the ordering itself. An op with regions accesses
        // what it declares itself (a `linalg.fill` writes its output; an
        // `scf.if`, with recursive effects, nothing: its ops are visited
        // on their own).
        if ops::MBARRIER_OPS.iter().any(|name| ops::is(op, name)) || ops::is(op, "gpu.barrier") {
            continue;
        }
        let found = cache.of(op);
        let plain = !ops::is(op, ops::COPY);
        if plain && found.writes_all {
            return false;
        }
        for access in &found.accesses {
            let write = plain && access.kind == AccessKind::Write;
            accessed.push((buffer(&access.region.root), key(op), write));
        }
    }
    // Per buffer (`None`: any buffer), the ops that access it other than
    // by a plain write: at most two distinct ones (enough to find one
    // other than a given op).
    let mut others: FxHashMap<Option<Buffer>, Vec<usize>> = FxHashMap::default();
    for (buffer, op, write) in &accessed {
        if !write {
            let ops = others.entry(buffer.clone()).or_default();
            if ops.len() < 2 && !ops.contains(op) {
                ops.push(*op);
            }
        }
    }
    let other_than = |buffer: Option<Buffer>, op: usize| {
        others
            .get(&buffer)
            .is_some_and(|ops| ops.iter().any(|o| *o != op))
    };
    for (buffer, op, write) in &accessed {
        if !write {
            continue;
        }
        let Some(buffer) = buffer else {
            return false;
        };
        // Other plain writes to it are ordered by step 2.
        if other_than(Some(buffer.clone()), *op) || other_than(None, *op) {
            return false;
        }
    }
    true
}

/// A buffer as step 1 compares them: its root value, or a global's name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Buffer {
    Value(Symbol),
    Global(String),
}

/// `None` for a root that may be any buffer.
fn buffer(root: &crate::access::region::Root) -> Option<Buffer> {
    match &root.kind {
        RootKind::Fresh | RootKind::Argument { .. } => Some(Buffer::Value(root.symbol)),
        RootKind::Global(name) => Some(Buffer::Global(name.to_string())),
        RootKind::Other | RootKind::Choice(_) => None,
    }
}

fn key(op: &OperationRef) -> usize {
    op.to_raw().ptr as usize
}

/// What some path from the barrier meets before another `gpu.barrier`.
#[derive(Clone, Copy, Debug, Default)]
struct Found {
    /// An `apipe.copy` (or a region op that holds one).
    copy: bool,
    /// A plain write (step 1's kind).
    write: bool,
    /// Control flow the walk does not follow (the barrier stays).
    unknown: bool,
}

/// Step 2's walk over the paths from (or, backward, into) `origin`.
struct Scan<'c, 'a> {
    kernel: OperationRef<'c, 'a>,
    origin: OperationRef<'c, 'a>,
    /// Each op's accesses, once.
    cache: AccessCache<'c, 'a>,
    /// The loops whose back edge was followed (a cycle back to them adds
    /// nothing new).
    visited: FxHashSet<usize>,
    found: Found,
    /// Per op with regions: what it holds, once.
    holds: FxHashMap<usize, Holds>,
    /// The barriers erased so far (still listed in `holds`).
    erased: FxHashSet<usize>,
}

/// What the regions of an op hold, for [`Scan::visit`].
struct Holds {
    copy: bool,
    write: bool,
    /// Keys of its `gpu.barrier`s.
    barriers: Vec<usize>,
}

impl<'c, 'a> Scan<'c, 'a> {
    /// One op on a path; true if it is a barrier (the path ends).
    fn visit(&mut self, op: &OperationRef<'c, 'a>) -> bool {
        if *op == self.origin || ops::is(op, "gpu.barrier") {
            return true;
        }
        if ops::is(op, ops::COPY) {
            self.found.copy = true;
        } else if op.region_count() > 0 {
            let holds = match self.holds.remove(&key(op)) {
                Some(holds) => holds,
                None => {
                    let nested = ops::nested_ops(op);
                    Holds {
                        copy: nested.iter().any(|n| ops::is(n, ops::COPY)),
                        // Its own writes (a `linalg.fill`'s output) and
                        // those of its ops.
                        write: self.writes(op) || nested.iter().any(|n| self.writes(n)),
                        barriers: nested
                            .iter()
                            .filter(|n| ops::is(*n, "gpu.barrier"))
                            .map(key)
                            .collect(),
                    }
                }
            };
            self.found.copy |= holds.copy;
            // The origin is a barrier: among them if the op holds it.
            if holds.barriers.iter().any(|b| !self.erased.contains(b)) {
                self.found.unknown = true;
            }
            self.found.write |= holds.write;
            self.holds.insert(key(op), holds);
        } else if self.writes(op) {
            self.found.write = true;
        }
        false
    }

    /// True for a plain write (step 1): any op but a copy and the mbarrier
    /// ops whose memory effects write. An op with regions by its own
    /// effects only (an op with recursive effects has none of its own).
    fn writes(&mut self, op: &OperationRef<'c, 'a>) -> bool {
        if ops::is(op, ops::COPY)
            || ops::is(op, "gpu.barrier")
            || ops::MBARRIER_OPS.iter().any(|name| ops::is(op, name))
        {
            return false;
        }
        let found = self.cache.of(op);
        found.writes_all || found.accesses.iter().any(|a| a.kind == AccessKind::Write)
    }

    /// The paths forward from `next` (in the block of `from`).
    fn forward(&mut self, mut next: Option<OperationRef<'c, 'a>>, from: OperationRef<'c, 'a>) {
        let Some(block) = from.block() else {
            self.found.unknown = true;
            return;
        };
        while let Some(op) = next {
            if self.visit(&op) {
                return;
            }
            next = op.next_in_block();
        }
        let Some(parent) = block.parent_operation() else {
            self.found.unknown = true;
            return;
        };
        if parent == self.kernel {
            return;
        }
        match ops::name(&parent) {
            "scf.if" | "scf.index_switch" | "scf.execute_region" => {
                self.forward(parent.next_in_block(), parent);
            }
            "scf.for" => {
                // The back edge (once), then the exit.
                if self.visited.insert(key(&parent)) {
                    if let Some(first) = block.first_operation() {
                        self.forward(Some(first), first);
                    }
                }
                self.forward(parent.next_in_block(), parent);
            }
            _ => self.found.unknown = true,
        }
    }

    /// The paths backward into `from` (`previous`: the ops before it in its
    /// block, nearest first).
    fn backward(
        &mut self,
        previous: &mut dyn Iterator<Item = OperationRef<'c, 'a>>,
        from: OperationRef<'c, 'a>,
    ) {
        let Some(block) = from.block() else {
            self.found.unknown = true;
            return;
        };
        for op in previous {
            if self.visit(&op) {
                return;
            }
        }
        let Some(parent) = block.parent_operation() else {
            self.found.unknown = true;
            return;
        };
        if parent == self.kernel {
            return;
        }
        match ops::name(&parent) {
            "scf.if" | "scf.index_switch" | "scf.execute_region" => {
                self.backward(&mut ops::preceding(&parent), parent);
            }
            "scf.for" => {
                // The back edge (once): from the end of the body; then the
                // entry.
                if self.visited.insert(key(&parent)) {
                    if let Some(last) = block.terminator() {
                        let mut from_end = std::iter::once(last).chain(ops::preceding(&last));
                        self.backward(&mut from_end, last);
                    }
                }
                self.backward(&mut ops::preceding(&parent), parent);
            }
            _ => self.found.unknown = true,
        }
    }
}
