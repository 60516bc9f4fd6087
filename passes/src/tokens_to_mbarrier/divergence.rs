//! Which values of a kernel may differ between the threads of a block
//! (divergence), for `apipe-tokens-to-mbarrier`: every thread of the block
//! arrives on each group's mbarrier slot (the arrival count is the block
//! size), so every commit must run in every thread.
//!
//! Algorithm (a forward fixed point over the function's SSA values):
//! 1. sources: the results of `gpu.thread_id`, `gpu.lane_id`,
//!    `gpu.global_id` and `nvvm.read.ptx.sreg.tid.*` / `laneid`;
//! 2. an op with a divergent operand has divergent results; an `scf.for`
//!    whose bounds or step diverge has a divergent induction variable and
//!    divergent results, and so has an `scf.if` / `scf.index_switch` whose
//!    condition diverges; an iter_arg (and the loop result at its
//!    position) diverges when its init or its yielded value does; a result
//!    of `scf.if` / `scf.index_switch` / `scf.execute_region` when a yield
//!    feeds it a divergent value; an `scf.while` argument or result when
//!    an init, a `scf.condition` or an `scf.yield` operand at its position
//!    does, and every result when the condition does;
//! 3. repeat until nothing changes (values only ever become divergent).
//!
//! The results of atomics (`memref.atomic_rmw`,
//! `memref.generic_atomic_rmw`, `llvm.atomicrmw`, `llvm.cmpxchg`: each
//! thread gets the value before its own update) and of `gpu.shuffle` are
//! sources, and so is what an op reads from thread-private memory (a
//! `memref.alloca` in GPU code or the private address space: each thread
//! reads its own copy, whatever it stored there), or from a `memref.alloc`
//! that GPU code runs outside workgroup memory (each thread allocates its
//! own buffer).
//!
//! `gpu.subgroup_id` and the warp id are sources too (they differ between
//! the warps of a block), and so are the thread ids of a `gpu.launch` body
//! (its block arguments 3-5, `%tx`, `%ty`, `%tz`), except along a
//! dimension the kernel states to be of size 1; the results of a `func.call` diverge (the callee
//! may return its own thread id); a `gpu.all_reduce` is uniform (every
//! thread of the block gets the same value).
//!
//! Other loads are treated like any op: a load of workgroup memory from a
//! uniform address is uniform. This is the usual assumption of GPU
//! divergence analyses (LLVM's `UniformityAnalysis`): a thread-dependent
//! value stored to workgroup memory and loaded back at a uniform address
//! is a race the race checker reports. The race checker does not compare
//! plain accesses to global memory between threads, so global memory is
//! followed here (trial 45 F1: every thread stored its id into one
//! element of a kernel argument, loaded it back and branched around a
//! `gpu.barrier`): an op that writes a global buffer (MLIR's memory
//! effects; a view of it, or a `memref.get_global` of the same symbol)
//! with a thread-dependent operand (the value or an index), atomically, or
//! under control flow that depends on the thread ([`divergent_parent`]),
//! a buffer of the thread's own, or values its body uses, or a call that
//! receives it or whose callee names it (the callee may read its own
//! thread id), makes every load of that buffer
//! thread-dependent (wherever it is: the analysis does not follow order);
//! an op that writes any memory with such an operand, every load of global
//! memory.

use crate::access::region::{shared_global_buffer, SharedBuffer};
use apipe_dialect::ops;
use apipe_dialect::ops::Checked as _;
use melior::ir::{operation::OperationLike, BlockLike, OperationRef, RegionLike, Value, ValueLike};
use rustc_hash::FxHashSet;

/// Op names whose results differ per thread (the [`ATOMICS`] too).
const SOURCES: &[&str] = &[
    "gpu.shuffle",
    "gpu.thread_id",
    "gpu.lane_id",
    "gpu.global_id",
    "nvvm.read.ptx.sreg.tid.x",
    "nvvm.read.ptx.sreg.tid.y",
    "nvvm.read.ptx.sreg.tid.z",
    "nvvm.read.ptx.sreg.laneid",
    "gpu.subgroup_id",
    "nvvm.read.ptx.sreg.warpid",
];

/// Atomic updates: each thread gets (and leaves) a value that depends on
/// the other threads' updates.
const ATOMICS: &[&str] = &[
    "memref.atomic_rmw",
    "memref.generic_atomic_rmw",
    "llvm.atomicrmw",
    "llvm.cmpxchg",
];

/// The divergent values of one function.
pub struct Divergence {
    values: FxHashSet<usize>,
    /// The global buffers a thread-dependent write reached
    /// ([`crate::access::region::shared_global_buffer`]).
    written: FxHashSet<SharedBuffer>,
    /// A thread-dependent write of any memory.
    written_all: bool,
}

fn key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

impl Divergence {
    /// Computes the divergent values of `function` (steps 1-3).
    pub fn compute<'c: 'a, 'a>(function: &impl OperationLike<'c, 'a>) -> Self {
        let mut this = Self {
            values: FxHashSet::default(),
            written: FxHashSet::default(),
            written_all: false,
        };
        if ops::is(function, "gpu.launch") {
            this.launch_thread_ids(function);
        }
        let nested = ops::nested_ops(function);
        loop {
            let before = (this.values.len(), this.written.len(), this.written_all);
            for op in &nested {
                this.visit(op);
            }
            if (this.values.len(), this.written.len(), this.written_all) == before {
                return this;
            }
        }
    }

    /// True if `value` may differ between the threads of a block.
    pub fn is_divergent(&self, value: Value) -> bool {
        self.values.contains(&key(value))
    }

    /// [`Self::is_divergent`] of the value whose `MlirValue` pointer is
    /// `key` (the key of `crate::access::Symbol::Value`).
    pub fn is_divergent_key(&self, key: usize) -> bool {
        self.values.contains(&key)
    }

    fn mark(&mut self, value: Value) {
        self.values.insert(key(value));
    }

    /// Marks the thread ids of the `gpu.launch` `launch` (arguments 3-5 of
    /// its body: MLIR GPUOps.td, `gpu.launch`).
    fn launch_thread_ids<'c: 'a, 'a>(&mut self, launch: &impl OperationLike<'c, 'a>) {
        if let Some(body) = launch.region_at(0).and_then(|r| r.first_block()) {
            for index in 3..6 {
                // The id along a dimension of constant size 1 is 0.
                if let Some(id) = ops::argument_at(&body, index)
                    .filter(|id| !crate::access::values::is_unit_thread_id((*id).into()))
                {
                    self.mark(id.into());
                }
            }
        }
    }

    fn any<'c, 'a>(&self, values: impl IntoIterator<Item = Value<'c, 'a>>) -> bool {
        values.into_iter().any(|v| self.is_divergent(v))
    }

    /// Global memory (module doc): records what `op` writes with a
    /// thread-dependent operand, under control flow that depends on the
    /// thread, or atomically, and marks the results of an op that reads a
    /// global buffer such a write reached.
    fn global_memory(&mut self, op: &OperationRef) {
        use apipe_dialect::effects::{memory_effects, EffectKind};
        // The synchronization ops of the dialect touch no data (their
        // effects on the default resource only order them); its copies do.
        if ops::is_apipe(op) && !ops::is(op, ops::COPY) && !ops::is(op, ops::BULK_COPY) {
            return;
        }
        // Whether a write by `op` may store something else in each thread:
        // a thread-dependent operand (the value or an index), an atomic
        // update (each thread sees the others' in its own order), or a
        // write that only some threads make (trial 49: `if tid == 0 {
        // G[0] = 1 }`, then every thread loads G[0]).
        // An operand counts with the values the op's body uses from
        // outside it (`linalg.generic` yielding the thread id, trial 51
        // F2) and with a buffer of the thread's own it reads (a
        // `memref.copy` out of an alloca that holds the thread id, trial 51
        // F1).
        let thread_dependent = |this: &Self| {
            let own = |v: Value| {
                crate::access::region::is_thread_private(v)
                    || crate::access::region::is_per_thread_allocation(v)
            };
            op.operands().any(|v| this.is_divergent(v) || own(v))
                || ops::nested_ops(op)
                    .iter()
                    .any(|inner| this.any(inner.operands()))
                || ATOMICS.contains(&ops::name(op))
                || ops::ancestors(op)
                    .find(ops::is_function)
                    .is_some_and(|f| divergent_parent(this, op, &f).is_some())
        };
        let declared = memory_effects(op);
        // Loops and branches declare no effects of their own: those of
        // their ops. (`linalg.fill` is recursive too, and declares its
        // write of the output.)
        if declared.recursive && declared.declared.is_none() {
            return;
        }
        let Some(effects) = declared.declared else {
            // Calls and ops of unknown effects: they may write every
            // buffer they receive, with values or under branches of their
            // own that depend on the thread (a callee may read its thread
            // id: trial 50 F2), whatever their operands.
            let call = matches!(
                ops::name(op),
                "func.call" | "func.call_indirect" | "llvm.call"
            );
            // A callee may also write globals of its own (trial 51 F3).
            if call {
                match callee_globals(op) {
                    Some(globals) => self.written.extend(globals),
                    None => self.written_all = true,
                }
            }
            if op.operands().any(|v| shared_global_buffer(v).is_some())
                && (call || thread_dependent(self))
            {
                for v in op.operands() {
                    self.written.extend(shared_global_buffer(v));
                }
            }
            return;
        };
        let mut reads = false;
        // The global buffers it writes (`None`: any memory).
        let mut writes: Vec<Option<SharedBuffer>> = Vec::new();
        for effect in effects.iter().filter(|e| e.default_resource) {
            match (effect.kind, effect.value) {
                (EffectKind::Read, Some(v)) => {
                    reads |= shared_global_buffer(v)
                        .is_some_and(|b| self.written_all || self.written.contains(&b));
                }
                (EffectKind::Read, None) => {
                    reads |= self.written_all || !self.written.is_empty();
                }
                (EffectKind::Write | EffectKind::Other, Some(v)) => {
                    writes.extend(shared_global_buffer(v).map(Some));
                }
                (EffectKind::Write | EffectKind::Other, None) => writes.push(None),
                _ => {}
            }
        }
        if !writes.is_empty() && thread_dependent(self) {
            for w in writes {
                match w {
                    Some(buffer) => {
                        self.written.insert(buffer);
                    }
                    None => self.written_all = true,
                }
            }
        }
        if reads {
            for result in op.results() {
                self.mark(result.into());
            }
        }
    }

    fn visit(&mut self, op: &OperationRef) {
        let name = ops::name(op);
        // Ops with regions too: `linalg.fill` and `linalg.copy` have a body
        // (trial 50 F1); loops and branches have the effects of the ops
        // inside them (`recursive`), which are visited on their own.
        if !ops::is_function(op) {
            self.global_memory(op);
        }
        if SOURCES.contains(&name) || ATOMICS.contains(&name) {
            // A thread id along a dimension of size 1 (`known_block_size`,
            // a `gpu.launch` with a constant size) is 0 in every thread
            // (trial 90: a bound `tz * 8 + 8` in a launch of z size 1 was
            // refused as thread-dependent).
            let one = op
                .result_at(0)
                .is_some_and(|r| crate::access::values::is_unit_thread_id(r.into()));
            if !one {
                for result in op.results() {
                    self.mark(result.into());
                }
            }
            return;
        }
        match name {
            // The same value in every thread of the block, whatever each
            // thread gives it.
            "gpu.all_reduce" => {}
            // A function may return a thread-dependent value (its own
            // `gpu.thread_id`) from uniform arguments: taken as divergent.
            "func.call" | "func.call_indirect" | "llvm.call" => {
                for result in op.results() {
                    self.mark(result.into());
                }
            }
            "scf.for" => self.for_loop(op),
            "scf.while" => self.while_loop(op),
            "gpu.launch" => self.launch_thread_ids(op),
            // Unstructured control flow: a successor's arguments merge the
            // values of the branches that reach it; a divergent operand
            // (the condition, or a value passed on) makes every argument
            // of every successor divergent (threads may arrive from
            // different branches).
            "cf.br" | "cf.cond_br" | "cf.switch" => {
                if self.any(op.operands()) {
                    for successor in op.successors() {
                        for index in 0..successor.argument_count() {
                            if let Some(argument) = ops::argument_at(&successor, index) {
                                self.mark(argument.into());
                            }
                        }
                    }
                }
            }
            "scf.if" | "scf.index_switch" | "scf.execute_region" => {
                let condition_diverges = op.operand_count() > 0 && self.any(op.operands());
                for region in op.regions() {
                    let Some(block) = region.first_block() else {
                        continue;
                    };
                    let Some(terminator) = block.terminator() else {
                        continue;
                    };
                    for (index, value) in terminator.operands().enumerate() {
                        if condition_diverges || self.is_divergent(value) {
                            if let Some(result) = op.result_at(index) {
                                self.mark(result.into());
                            }
                        }
                    }
                }
                if condition_diverges {
                    for result in op.results() {
                        self.mark(result.into());
                    }
                }
            }
            _ if op.region_count() == 0 => {
                if self.any(op.operands())
                    || op.operands().any(|v| {
                        crate::access::region::is_thread_private(v)
                            || crate::access::region::is_per_thread_allocation(v)
                    })
                {
                    for result in op.results() {
                        self.mark(result.into());
                    }
                }
            }
            // Other region ops (functions, launches): their results, if any,
            // diverge with their operands.
            _ => {
                if self.any(op.operands()) {
                    for result in op.results() {
                        self.mark(result.into());
                    }
                }
            }
        }
    }

    fn for_loop(&mut self, op: &OperationRef) {
        let Some(body) = op.region_at(0).and_then(|r| r.first_block()) else {
            return;
        };
        let bounds_diverge = (0..3).any(|i| op.operand(i).is_ok_and(|v| self.is_divergent(v)));
        if bounds_diverge {
            if let Ok(iv) = body.argument(0) {
                self.mark(iv.into());
            }
        }
        let yields: Vec<Value> = body
            .terminator()
            .map(|t| t.operands().collect())
            .unwrap_or_default();
        for index in 0..op.result_count() {
            let init = op.operand_at(3 + index);
            let yielded = yields.get(index).copied();
            let diverges = bounds_diverge
                || init.is_some_and(|v| self.is_divergent(v))
                || yielded.is_some_and(|v| self.is_divergent(v));
            if diverges {
                if let Ok(argument) = body.argument(1 + index) {
                    self.mark(argument.into());
                }
                self.mark(op.result(index).unwrap().into());
            }
        }
    }

    fn while_loop(&mut self, op: &OperationRef) {
        let (Some(before), Some(after)) = (
            op.region_at(0).and_then(|r| r.first_block()),
            op.region_at(1).and_then(|r| r.first_block()),
        ) else {
            return;
        };
        let condition: Vec<Value> = before
            .terminator()
            .map(|t| t.operands().collect())
            .unwrap_or_default();
        let yields: Vec<Value> = after
            .terminator()
            .map(|t| t.operands().collect())
            .unwrap_or_default();
        let condition_diverges = condition.first().is_some_and(|c| self.is_divergent(*c));
        for index in 0..before.argument_count() {
            let diverges = op.operand(index).is_ok_and(|v| self.is_divergent(v))
                || yields.get(index).is_some_and(|v| self.is_divergent(*v));
            if diverges {
                self.mark(before.argument(index).unwrap().into());
            }
        }
        for index in 0..after.argument_count() {
            let diverges = condition_diverges
                || condition
                    .get(1 + index)
                    .is_some_and(|v| self.is_divergent(*v));
            if diverges {
                self.mark(after.argument(index).unwrap().into());
                if let Some(result) = op.result_at(index) {
                    self.mark(result.into());
                }
            }
        }
    }
}

/// The globals (`memref.get_global` symbols) that the function a call
/// `op` names, and the functions it calls, may write: every one they name.
/// `None` if a callee has no body in the module (external, indirect): it
/// may write any memory.
fn callee_globals(op: &OperationRef) -> Option<Vec<SharedBuffer>> {
    let mut globals = Vec::new();
    let mut seen = Vec::new();
    let mut calls = vec![*op];
    while let Some(call) = calls.pop() {
        let callee = crate::access::effects::callee_function(&call)?;
        if seen.contains(&callee) {
            continue;
        }
        seen.push(callee);
        for inner in ops::nested_ops(&callee) {
            match ops::name(&inner) {
                "memref.get_global" => globals.extend(
                    inner
                        .result(0)
                        .ok()
                        .and_then(|r| shared_global_buffer(r.into())),
                ),
                "func.call" | "func.call_indirect" | "llvm.call" => calls.push(inner),
                _ => {}
            }
        }
    }
    Some(globals)
}

/// The innermost op around `op` (up to `function`) whose control flow
/// depends on a divergent value: an `scf.if` / `scf.index_switch` with a
/// divergent condition, an `scf.for` with divergent bounds or step, an
/// `scf.while` with a divergent condition, or, where `op` (or an op around
/// it) lies in a region of several blocks, a `cf.cond_br` / `cf.switch` of
/// that region on a divergent value (which blocks a thread runs, and so
/// whether it reaches `op`, may differ). `None` if every enclosing branch
/// and loop is uniform.
pub fn divergent_parent<'c, 'a>(
    divergence: &Divergence,
    op: &OperationRef<'c, 'a>,
    function: &OperationRef<'c, 'a>,
) -> Option<OperationRef<'c, 'a>> {
    if let Some(branch) = divergent_branch_around(divergence, op) {
        return Some(branch);
    }
    for parent in ops::ancestors(op) {
        if parent == *function {
            return None;
        }
        if let Some(branch) = divergent_branch_around(divergence, &parent) {
            return Some(branch);
        }
        let diverges = match ops::name(&parent) {
            "scf.if" | "scf.index_switch" => {
                parent.operand(0).is_ok_and(|c| divergence.is_divergent(c))
            }
            "scf.for" => {
                (0..3).any(|i| parent.operand(i).is_ok_and(|v| divergence.is_divergent(v)))
            }
            "scf.while" => parent
                .region_at(0)
                .and_then(|r| r.first_block())
                .and_then(|b| b.terminator())
                .and_then(|t| t.operand_at(0))
                .is_some_and(|c| divergence.is_divergent(c)),
            _ => false,
        };
        if diverges {
            return Some(parent);
        }
    }
    None
}

/// A `cf.cond_br` / `cf.switch` on a divergent value in the region that
/// holds `op`, if that region has several blocks and `op` is not in its
/// entry block (which every thread that enters the region runs). A block
/// where the branches join again is taken as reached by some threads only
/// too (no post-dominance is computed: conservative).
fn divergent_branch_around<'c, 'a>(
    divergence: &Divergence,
    op: &OperationRef<'c, 'a>,
) -> Option<OperationRef<'c, 'a>> {
    let block = op.block()?;
    let region = block.parent_region()?;
    let first = region.first_block()?;
    first.next_in_region()?;
    if block == first {
        return None;
    }
    std::iter::successors(Some(first), |b| b.next_in_region())
        .filter_map(|block| block.terminator())
        .find(|terminator| {
            matches!(ops::name(terminator), "cf.cond_br" | "cf.switch")
                && terminator
                    .operand(0)
                    .is_ok_and(|c| divergence.is_divergent(c))
        })
}
