//! Threads in a kernel: which values are thread ids or vary between
//! threads, which ops every thread runs, and the bounds of the thread ids
//! (for the missing-barrier classes).

use super::*;

impl<'c, 'a> Analysis<'c, 'a> {
    /// True if the value `k` is a thread id (distinct in every thread).
    pub(in crate::check_hazards) fn is_thread_id(&self, k: usize) -> bool {
        crate::access::values::is_thread_id(k)
    }

    /// The dimension (0 for x, 1 for y, 2 for z) of the thread id `k`
    /// (a `gpu.thread_id`, a `gpu.global_id`, a `gpu.launch` body's
    /// thread id argument).
    pub(in crate::check_hazards) fn thread_id_dimension(&self, k: usize) -> Option<usize> {
        if !self.is_thread_id(k) {
            return None;
        }
        // Cached: the dimension attribute is read by printing it.
        if let Some(&d) = self.dimensions.borrow().get(&k) {
            return d;
        }
        // SAFETY: keys of symbols come from live values of this function.
        let value = unsafe { value_of(k) };
        let d = match defining_op(value) {
            Some(op) => crate::access::values::gpu_dimension(&op),
            None => block_argument(value).map(|(_, n)| n - 3),
        };
        self.dimensions.borrow_mut().insert(k, d);
        d
    }

    /// A thread id of dimension `d` (0 for x, 1 for y, 2 for z) in scope
    /// at `op`: the thread id argument of the innermost `gpu.launch`
    /// around it, else the function's first `gpu.thread_id` of that
    /// dimension; `None` if the function has none.
    pub(in crate::check_hazards) fn thread_id_of_dimension(
        &mut self,
        op: &OperationRef<'c, 'a>,
        d: usize,
    ) -> Option<usize> {
        let mut current = op.parent_operation();
        while let Some(parent) = current {
            if ops::is(&parent, "gpu.launch") {
                let block = parent.region_at(0)?.first_block()?;
                return Some(crate::access::values::value_key(
                    ops::argument_at(&block, 3 + d)?.into(),
                ));
            }
            current = parent.parent_operation();
        }
        *self
            .thread_ids
            .get_or_insert_with(|| {
                let mut ids = [None; 3];
                for op in ops::nested_ops(&self.function) {
                    if ops::is(&op, "gpu.thread_id") {
                        if let (Some(d), Ok(result)) =
                            (crate::access::values::gpu_dimension(&op), op.result(0))
                        {
                            ids[d].get_or_insert(crate::access::values::value_key(result.into()));
                        }
                    }
                }
                ids
            })
            .get(d)?
    }

    /// True if the block has one thread: each dimension's size is 1, as
    /// the kernel states (`known_block_size`, a `gpu.launch` of constant
    /// sizes) or as every `gpu.launch_func` of the module launches it (a
    /// kernel the module does not launch is not taken to have one thread).
    pub(in crate::check_hazards) fn single_thread_block(
        &mut self,
        op: &OperationRef<'c, 'a>,
    ) -> bool {
        let launched =
            launch_name(&self.function).and_then(|name| self.launches.get(&name).copied());
        (0..3).all(|d| match crate::access::values::known_block_size(op, d) {
            Some(size) => size == 1,
            None => launched.is_some_and(|flags| !flags[d]),
        })
    }

    /// True if two threads of the block running `op` may have different
    /// ids in dimension `d` (0 for x, 1 for y, 2 for z): the size stated
    /// (`known_block_size`, a `gpu.launch` with constant sizes) exceeds 1;
    /// with none stated, a `gpu.launch` body, or a function that uses an
    /// id of that dimension (`gpu.thread_id`, `gpu.global_id` with a use),
    /// or a kernel
    /// that a `gpu.launch_func` of the module launches with a size there
    /// other than the constant 1. A kernel that never reads an id of a
    /// dimension, and is launched in the module only with size 1 there (or
    /// not at all), is assumed to run with size 1 there (README, "Status
    /// and known limits").
    pub(in crate::check_hazards) fn dimension_may_differ(
        &mut self,
        op: &OperationRef<'c, 'a>,
        d: usize,
    ) -> bool {
        if let Some(size) = crate::access::values::known_block_size(op, d) {
            return size > 1;
        }
        let mut current = op.parent_operation();
        while let Some(parent) = current {
            if ops::is(&parent, "gpu.launch") {
                return true;
            }
            current = parent.parent_operation();
        }
        let function = self.function;
        let launches = &self.launches;
        let reads = *self
            .reads_dimension
            .get_or_insert_with(|| dimensions_used(&function, launches));
        reads.get(d).copied().unwrap_or(true)
    }

    /// What the in-bounds rule ([`crate::access::region::in_bounds`]) says
    /// of the thread ids alone, for every thread of a kernel: the
    /// constraints of the accesses (`memref.load`, `memref.store`, an
    /// `apipe.copy`'s source and destination) of the ops directly in the
    /// kernel's body, which every thread runs, that mention thread ids and
    /// nothing else. A copy into `buf[tid]` of a `memref<16xf32, 3>` at the
    /// top of the kernel bounds `tid` by 16 for every comparison between
    /// threads in the kernel, not only for those with that copy (an access
    /// out of bounds is undefined behaviour, so no thread has a larger id).
    pub(in crate::check_hazards) fn thread_bounds(&mut self) -> Vec<Constraint> {
        if let Some(bounds) = &self.thread_bounds {
            return bounds.clone();
        }
        let mut bounds = Vec::new();
        let body = self.function.region_at(0).and_then(|r| r.first_block());
        let mut next = body.and_then(|b| b.first_operation());
        while let Some(op) = next {
            next = op.next_in_block();
            if !crate::access::region::bounded_access(&op) || !self.runs_in_every_thread(&op) {
                continue;
            }
            let found = self.cache.of(&op);
            for access in &found.accesses {
                for c in crate::access::region::thread_id_bounds(&op, &access.region) {
                    if !bounds.contains(&c) {
                        bounds.push(c);
                    }
                }
            }
        }
        self.thread_bounds = Some(bounds.clone());
        bounds
    }

    /// True if every thread of the block that reaches `op`'s function runs
    /// `op` on the same path: every branch and loop around it (up to the
    /// function) decides on values equal in every thread ([`is_variant`]),
    /// no other op with regions encloses it, and every region on the way
    /// has a single block (a `cf.cond_br` inside an `scf.execute_region`
    /// may branch on the thread id), in a kernel (not a device function).
    ///
    /// [`is_variant`]: Analysis::is_variant
    pub(in crate::check_hazards) fn runs_in_every_thread(
        &mut self,
        op: &OperationRef<'c, 'a>,
    ) -> bool {
        // Only a kernel's (or a `gpu.launch` body's) arguments are the same
        // in every thread; a device function's may not be (a helper called
        // with `tid < 16`).
        let kernel = (ops::is(&self.function, "gpu.func")
            && self.function.has_attribute("gpu.kernel"))
            || ops::is(&self.function, "gpu.launch");
        if !kernel {
            return false;
        }
        if !ops::in_single_block_region(op) {
            return false;
        }
        for parent in ops::ancestors(op) {
            if parent == self.function {
                return true;
            }
            if !ops::in_single_block_region(&parent) {
                return false;
            }
            let uniform = match ops::name(&parent) {
                "scf.if" | "scf.index_switch" => parent
                    .operand(0)
                    .is_ok_and(|c| !self.is_variant(Symbol::Value(key_of_value(c)))),
                "scf.for" | "scf.while" => !self.is_variant(Symbol::Trips(key(&parent))),
                "scf.execute_region" => true,
                _ => false,
            };
            if !uniform {
                return false;
            }
        }
        false
    }

    /// True if the symbol may differ between threads.
    pub(in crate::check_hazards) fn is_variant(&mut self, s: Symbol) -> bool {
        match s {
            Symbol::Value(k) | Symbol::Stale(k) => self.value_variant(k, 0),
            Symbol::Iteration(l) | Symbol::Trips(l) => {
                // SAFETY: loop keys come from live ops of this function.
                let l = unsafe { OperationRef::from_raw(mlir_sys::MlirOperation { ptr: l as _ }) };
                // An `scf.while` runs as long as its condition holds.
                if ops::is(&l, "scf.while") {
                    let condition = l
                        .region_at(0)
                        .and_then(|r| r.first_block())
                        .and_then(|b| b.terminator())
                        .and_then(|c| c.operand_at(0));
                    return condition.is_none_or(|c| self.value_variant(key_of_value(c), 0));
                }
                (0..l.operand_count().min(3))
                    .any(|i| self.value_variant(key_of_value(l.operand(i).unwrap()), 0))
            }
            _ => false,
        }
    }

    /// True if the memory that the load `op` reads may be written by the
    /// function: by an op that writes all memory, or by a write access to
    /// the same buffer or to a buffer of unknown origin. Two different
    /// arguments (or an argument and a global) are taken to be distinct
    /// here, as for the hazards the checker reports as errors.
    pub(super) fn may_be_written(&mut self, op: &OperationRef<'c, 'a>) -> bool {
        use crate::access::{region::RootKind, same_buffer};
        if self.written.is_none() {
            let mut roots = Vec::new();
            let mut all = false;
            for o in ops::nested_ops(&self.function) {
                let found = self.cache.of(&o);
                all |= found.writes_all;
                roots.extend(
                    found
                        .accesses
                        .iter()
                        .filter(|a| a.kind == AccessKind::Write)
                        .map(|a| a.region.root.clone()),
                );
            }
            self.written = Some((roots, all));
        }
        let read = self.cache.of(op);
        let Some((roots, all)) = &self.written else {
            return true;
        };
        *all || read.reads_all
            || read.accesses.iter().any(|a| {
                roots.iter().any(|w| {
                    same_buffer(w, &a.region.root)
                        || matches!(w.kind, RootKind::Other | RootKind::Choice(_))
                        || matches!(a.region.root.kind, RootKind::Other | RootKind::Choice(_))
                })
            })
    }

    /// The accesses of all memory in `found` through a pointer or buffer of
    /// unknown origin ([`OpAccesses::through_pointers`]: an effect on a
    /// pointer the checker does not follow back to a buffer, an op without
    /// memory-effect information receiving one) as accesses of the whole
    /// of every buffer other threads may see that the function accesses
    /// elsewhere ([`crate::access::region::thread_private`]: not a
    /// thread's own), and of [`unknown_workgroup_memory`] (workgroup
    /// memory the function reaches only through such pointers: an
    /// `!llvm.ptr<3>` argument, a pointer loaded from memory): a read for
    /// `reads_all`, a write for `writes_all`.
    pub(super) fn everywhere(&mut self, found: &OpAccesses<'c, 'a>) -> Vec<Access<'c, 'a>> {
        // An effect on no value alone (`gpu.printf`) touches no buffer the
        // program's threads share.
        if !found.through_pointers || !found.reads_all && !found.writes_all {
            return Vec::new();
        }
        if self.visible_roots.is_none() {
            let mut roots: Vec<crate::access::Root> = Vec::new();
            for o in ops::nested_ops(&self.function) {
                for a in &self.cache.of(&o).accesses {
                    let root = &a.region.root;
                    if !crate::access::region::thread_private(root) && !roots.contains(root) {
                        roots.push(root.clone());
                    }
                }
            }
            roots.push(unknown_workgroup_memory());
            self.visible_roots = Some(roots);
        }
        let roots = self.visible_roots.as_deref().unwrap_or_default();
        let kinds = [
            (found.reads_all, AccessKind::Read),
            (found.writes_all, AccessKind::Write),
        ];
        kinds
            .into_iter()
            .filter(|(all, _)| *all)
            .flat_map(|(_, kind)| {
                roots.iter().map(move |root| Access {
                    kind,
                    region: crate::access::Region {
                        root: root.clone(),
                        dims: None,
                    },
                    value: None,
                    collective: false,
                    // Reported as the op's own access (of a pointer of
                    // unknown origin, or all memory).
                    assumed: false,
                    asynchronous: false,
                })
            })
            .collect()
    }

    /// [`Analysis::value_variant`] of argument `n` (key `k`) of `block`, a
    /// region of the `scf.while` `w`. An `after` argument is the
    /// `scf.condition` operand it receives. A `before` argument is variant
    /// if its initial value or the value the `after` region yields for it
    /// is: the cycle through the loop is first taken as invariant, and the
    /// answers found under that assumption are dropped when the argument
    /// turns out variant (a least fixed point).
    pub(super) fn while_argument_variant(
        &mut self,
        w: &OperationRef<'c, 'a>,
        block: BlockRef<'c, 'a>,
        n: usize,
        k: usize,
        depth: usize,
    ) -> bool {
        let region = |i: usize| w.region_at(i).and_then(|r| r.first_block());
        let terminator_operand = |b: Option<BlockRef<'c, 'a>>, i: usize| {
            b.and_then(|b| b.terminator())
                .and_then(|t| t.operand_at(i))
                .map(key_of_value)
        };
        if region(1) == Some(block) {
            return terminator_operand(region(0), n + 1)
                .is_none_or(|v| self.value_variant(v, depth + 1));
        }
        let init = w.operand(n).ok().map(key_of_value);
        let yielded = terminator_operand(region(1), n);
        self.assuming_uniform(&[k], |this| {
            init.is_none_or(|v| this.value_variant(v, depth + 1))
                || yielded.is_none_or(|v| this.value_variant(v, depth + 1))
        })
    }

    /// `check`, with the values `assumed` taken to be the same in every
    /// thread meanwhile (a cycle through a loop); if it finds them variant,
    /// the answers found under the assumption are dropped and `assumed`
    /// are variant (a least fixed point).
    fn assuming_uniform(
        &mut self,
        assumed: &[usize],
        check: impl FnOnce(&mut Self) -> bool,
    ) -> bool {
        let known: FxHashSet<usize> = self.variant.keys().copied().collect();
        for &k in assumed {
            self.variant.insert(k, false);
        }
        let variant = check(self);
        if variant {
            self.variant.retain(|key, v| known.contains(key) || *v);
            for &k in assumed {
                self.variant.insert(k, true);
            }
        }
        variant
    }

    /// True if the bounds or the step of the `scf.for` `l` may differ
    /// between threads.
    fn bounds_variant(&mut self, l: &OperationRef<'c, 'a>, depth: usize) -> bool {
        (0..3).any(|i| {
            l.operand(i)
                .is_ok_and(|v| self.value_variant(key_of_value(v), depth + 1))
        })
    }

    /// True if iter_arg `j` of the `scf.for` `l` (or its result `j`, the
    /// key `k`) may differ between threads: its bounds, its init or what
    /// the body yields for it may. The iter_arg is taken to be the same in
    /// every thread while its yield is followed (a cycle), and what was
    /// found under that assumption is forgotten when it fails (as for
    /// `scf.while` arguments).
    fn for_carried_variant(
        &mut self,
        l: &OperationRef<'c, 'a>,
        j: usize,
        k: usize,
        depth: usize,
    ) -> bool {
        if self.bounds_variant(l, depth)
            || l.operand(3 + j)
                .is_ok_and(|v| self.value_variant(key_of_value(v), depth + 1))
        {
            return true;
        }
        let Some(argument) = names::arguments(l, 0, 1).get(j).map(|a| key_of_value(*a)) else {
            return true;
        };
        let yielded = names::yielded(l, 0, 0).get(j).map(|v| key_of_value(*v));
        self.assuming_uniform(&[argument, k], |this| {
            yielded.is_none_or(|v| this.value_variant(v, depth + 1))
        })
    }

    pub(super) fn value_variant(&mut self, k: usize, depth: usize) -> bool {
        if let Some(v) = self.variant.get(&k) {
            return *v;
        }
        if depth > 32 {
            return true;
        }
        // SAFETY: keys come from live values of this function.
        let value = unsafe { value_of(k) };
        let variant = if constant(value).is_some() {
            false
        } else if let Some(op) = defining_op(value) {
            let name = ops::name(&op);
            match name {
                // A thread id along a dimension of size 1 is 0 in every
                // thread (as in the divergence analysis).
                "gpu.thread_id" => !crate::access::values::is_unit_thread_id(value),
                "gpu.lane_id" | "gpu.global_id" | "gpu.subgroup_id" => true,
                "gpu.block_id"
                | "gpu.block_dim"
                | "gpu.grid_dim"
                | "gpu.subgroup_size"
                | "gpu.num_subgroups"
                | "gpu.cluster_id"
                | "gpu.cluster_dim"
                | "gpu.cluster_block_id"
                | "gpu.cluster_dim_blocks" => false,
                // A load at the same position in every thread, of memory
                // that nothing in the function writes, reads the same value
                // in every thread (a trip count or a bound read from a
                // table).
                "memref.load" | "vector.load" | "affine.load" => {
                    let indices: Vec<usize> = op.operands().skip(1).map(key_of_value).collect();
                    indices
                        .into_iter()
                        .any(|o| self.value_variant(o, depth + 1))
                        || self.may_be_written(&op)
                }
                _ if name.starts_with("arith.")
                    || name.starts_with("index.")
                    || name == "affine.apply"
                    || thread_agnostic(&op) =>
                {
                    let operands: Vec<usize> = op.operands().map(key_of_value).collect();
                    operands
                        .into_iter()
                        .any(|o| self.value_variant(o, depth + 1))
                }
                // A loop's result is its last iteration's iter_arg (or the
                // init); a branch op's, what the branch taken yields, on a
                // condition the same in every thread (trial 44: the bound
                // of a loop taken from an earlier loop's count made its
                // barrier count as skipped by some threads, a false
                // missing-barrier error).
                "scf.for" | "scf.if" | "scf.index_switch" => {
                    // SAFETY: `value` is a result of the live op `op`.
                    let j = unsafe { mlir_sys::mlirOpResultGetResultNumber(value.to_raw()) };
                    match usize::try_from(j) {
                        Err(_) => true,
                        Ok(j) if name == "scf.for" => self.for_carried_variant(&op, j, k, depth),
                        Ok(j) => {
                            op.operand(0)
                                .is_ok_and(|c| self.value_variant(key_of_value(c), depth + 1))
                                || (0..op.region_count()).any(|r| {
                                    names::yielded(&op, r, 0).get(j).is_none_or(|v| {
                                        self.value_variant(key_of_value(*v), depth + 1)
                                    })
                                })
                        }
                    }
                }
                _ => true,
            }
        } else if let Some((block, n)) = block_argument(value) {
            match block.parent_operation() {
                Some(p) if ops::is_function(&p) && ops::is_entry_block(&block) => {
                    ops::is(&p, "gpu.launch")
                        && (3..6).contains(&n)
                        && !crate::access::values::is_unit_thread_id(value)
                }
                Some(p) if ops::is(&p, "scf.for") && n == 0 => self.bounds_variant(&p, depth),
                Some(p) if ops::is(&p, "scf.for") => self.for_carried_variant(&p, n - 1, k, depth),
                Some(p) if ops::is(&p, "scf.while") => {
                    self.while_argument_variant(&p, block, n, k, depth)
                }
                _ => true,
            }
        } else {
            true
        };
        self.variant.insert(k, variant);
        variant
    }
}

/// Dialects whose memory-effect-free ops compute their results from their
/// operands alone, the same in every thread: none reads a thread id,
/// a lane or a clock (those are `gpu` and `nvvm` ops). In `memref` these
/// are the views (`cast`, `subview`, `expand_shape`, ...), `dim` and
/// `get_global`; its allocations have memory effects (a thread's own
/// `alloca` differs from another's).
const THREAD_AGNOSTIC_DIALECTS: &[&str] = &["vector.", "math.", "complex.", "affine.", "memref."];

/// True if `op` is an op of [`THREAD_AGNOSTIC_DIALECTS`]
/// with no regions and no memory effects (MLIR's
/// `MemoryEffectOpInterface` declares none): with operands the same in
/// every thread, its results are too (trial 87: a loop bound taken with
/// `vector.extract` from a constant vector was taken to differ between
/// threads, and the pipeliner's own output was flagged; trial 89: the
/// `memref.dim` of a `memref.cast` of an argument). Ops with effects
/// (`vector.load`, `affine.load`) are loads, judged by what they read.
fn thread_agnostic<'c, 'a>(op: &OperationRef<'c, 'a>) -> bool {
    let name = ops::name(op);
    THREAD_AGNOSTIC_DIALECTS.iter().any(|d| name.starts_with(d))
        && op.region_count() == 0
        && apipe_dialect::effects::memory_effects(op)
            .declared
            .is_some_and(|effects| effects.is_empty())
}

/// True if `value` is computed by `arith` / `index` ops from thread ids
/// and constants alone, with at least one thread id (`gpu.thread_id`, a
/// `gpu.launch` body's id argument): a branch on it is one the threads of
/// a block split on by their ids, not one only taken to vary (a loop's
/// result, a load, an argument).
pub(in crate::check_hazards) fn computed_from_thread_ids(value: Value, depth: usize) -> bool {
    if depth > 16 {
        return false;
    }
    if crate::access::values::block_thread_id_dimension(value).is_some() {
        return true;
    }
    let Some(op) = defining_op(value) else {
        return false;
    };
    let name = ops::name(&op);
    if !(name.starts_with("arith.") || name.starts_with("index.")) {
        return false;
    }
    let operands: Vec<Value> = op.operands().collect();
    !operands.is_empty()
        && operands
            .iter()
            .all(|v| constant(*v).is_some() || computed_from_thread_ids(*v, depth + 1))
        && operands.iter().any(|v| constant(*v).is_none())
}

/// True if `value` (a thread id) is used only to elect thread
/// `(0, 0, 0)`: through `arith.ori` with other ids into `arith.cmpi` with
/// the constant 0, as `apipe-tokens-to-mbarrier` emits for the thread that
/// initializes the barriers. Such a read says nothing about how the
/// kernel's data depends on that dimension.
/// A plain `%tid_y == 0` is no election (a guard on the dimension itself).
pub(super) fn only_elects(value: Value, depth: usize) -> bool {
    let users = crate::token_values::users(value);
    depth < 8
        && !users.is_empty()
        && users.iter().all(|user| match ops::name(user) {
            "arith.ori" => user
                .result(0)
                .is_ok_and(|r| only_elects(r.into(), depth + 1)),
            "arith.cmpi" => depth > 0 && user.operands().any(|v| constant(v) == Some(0)),
            _ => false,
        })
}

/// The name `gpu.launch_func` gives the `gpu.func` `function`
/// (`@module::@kernel`), if it is one.
pub(in crate::check_hazards) fn launch_name(function: &OperationRef) -> Option<String> {
    if !ops::is(function, "gpu.func") {
        return None;
    }
    let (kernel, module) = (
        group_distance::symbol_name(function)?,
        function
            .parent_operation()
            .and_then(|m| group_distance::symbol_name(&m))?,
    );
    Some(format!("@{module}::@{kernel}"))
}

/// True if threads run `function` together: a `gpu.func`, a `gpu.launch`
/// body, or a function that uses thread ids or barriers (a kernel written as
/// `func.func`, as IREE and upstream tests do).
pub(super) fn runs_on_threads(function: &OperationRef, nested: &[OperationRef]) -> bool {
    ops::is(function, "gpu.func")
        || ops::is(function, "gpu.launch")
        || nested.iter().any(|op| {
            matches!(
                ops::name(op),
                "gpu.barrier" | "gpu.thread_id" | "gpu.lane_id" | "nvvm.barrier0"
            )
        })
}

/// Most threads [`some_thread_takes`] evaluates a condition in.
const MOST_THREADS_EVALUATED: i64 = 1024;

/// True if some thread of the block is known to take region `region` of
/// the branch op `op` (an `scf.if`, or an `scf.index_switch`) whose
/// condition is computed from thread ids and constants
/// ([`computed_from_thread_ids`]): the condition is evaluated in each
/// thread of the block, its size where the kernel states it
/// (`known_block_size`, a `gpu.launch` of constant sizes; at most
/// [`MOST_THREADS_EVALUATED`] threads), else in thread 0 of each dimension
/// whose size is unknown (thread `(0, 0, 0)` is in every block). A
/// condition with an op the evaluation does not know is taken by no
/// thread. The thread must also reach `op` ([`reaches`]). A wait in a
/// region that no thread runs (`tid >= 16` in a block of 8, or `tid >= 4`
/// inside `tid < 4`) completes nothing for the threads of the other
/// regions.
pub(in crate::check_hazards) fn some_thread_takes(op: &OperationRef, region: usize) -> bool {
    let sizes: Vec<i64> = (0..3)
        .map(|d| crate::access::values::known_block_size(op, d).unwrap_or(1))
        .collect();
    if sizes.iter().product::<i64>() > MOST_THREADS_EVALUATED {
        return false;
    }
    for z in 0..sizes[2] {
        for y in 0..sizes[1] {
            for x in 0..sizes[0] {
                let ids = [x, y, z];
                if region_taken(op, region, ids) == Some(true) && reaches(op, ids) {
                    return true;
                }
            }
        }
    }
    false
}

/// Whether the thread `ids` takes region `region` of the `scf.if` or
/// `scf.index_switch` `op` (an `scf.execute_region`'s one region always);
/// `None` if its condition does not evaluate ([`evaluate`]).
fn region_taken(op: &OperationRef, region: usize, ids: [i64; 3]) -> Option<bool> {
    if ops::is(op, "scf.execute_region") {
        return Some(true);
    }
    let value = evaluate(op.operand(0).ok()?, ids, 0)?;
    if ops::is(op, "scf.if") {
        return Some((value != 0) == (region == 0));
    }
    if !ops::is(op, "scf.index_switch") {
        return None;
    }
    let cases = crate::access::values::dense_i64(op, "cases")?;
    Some(match region {
        0 => !cases.contains(&value),
        r => cases.get(r - 1) == Some(&value),
    })
}

/// True if the thread `ids` is known to reach `op` whenever the other
/// threads of the block do: every branch op around it, up to its function
/// or `gpu.launch`, takes the region that holds it in that thread, and
/// every loop around it has bounds that do not depend on the thread
/// ([`may_depend_on_thread`]), so that all threads run the same
/// iterations. Anything else around it (an `scf.while`, a loop of
/// thread-dependent bounds) is not known to be reached.
fn reaches(op: &OperationRef, ids: [i64; 3]) -> bool {
    let mut child = *op;
    while let Some(parent) = child.parent_operation() {
        if ops::is_function(&parent) || ops::is(&parent, "gpu.launch") {
            return true;
        }
        let Some(region) = crate::access::values::region_index(&parent, &child) else {
            return false;
        };
        match ops::name(&parent) {
            "scf.if" | "scf.index_switch" | "scf.execute_region" => {
                if region_taken(&parent, region, ids) != Some(true) {
                    return false;
                }
            }
            // Every thread runs the same iterations, so the waiting thread
            // runs the one the others do.
            "scf.for" => {
                if bounds_may_depend_on_thread(&parent, 0) {
                    return false;
                }
            }
            _ => return false,
        }
        child = parent;
    }
    false
}

/// False only if `value` is known to be the same in every thread of the
/// block: a constant, a function argument, a `gpu.block_id` / `block_dim`
/// / `grid_dim`, the variable of an `scf.for` whose bounds are so, or a
/// pure `arith` / `index` op of such values. Thread ids, loads, iter_args
/// and anything else may depend on the thread.
fn may_depend_on_thread(value: Value, depth: usize) -> bool {
    if depth > 16 {
        return true;
    }
    if constant(value).is_some() {
        return false;
    }
    let Some(op) = defining_op(value) else {
        let Some((block, n)) = block_argument(value) else {
            return true;
        };
        let Some(owner) = block.parent_operation() else {
            return true;
        };
        if ops::is_function(&owner) && ops::is_entry_block(&block) {
            return false;
        }
        // The induction variable of an `scf.for` (argument 0 of its body).
        return !(ops::is(&owner, "scf.for") && n == 0)
            || bounds_may_depend_on_thread(&owner, depth + 1);
    };
    let name = ops::name(&op);
    if matches!(name, "gpu.block_id" | "gpu.block_dim" | "gpu.grid_dim") {
        return false;
    }
    if !(name.starts_with("arith.") || name.starts_with("index.")) || op.region_count() > 0 {
        return true;
    }
    let operands: Vec<Value> = op.operands().collect();
    operands.iter().any(|v| may_depend_on_thread(*v, depth + 1))
}

/// [`may_depend_on_thread`] of any of the lower bound, upper bound and
/// step of the `scf.for` `l`.
fn bounds_may_depend_on_thread(l: &OperationRef, depth: usize) -> bool {
    (0..3).any(|i| {
        l.operand(i)
            .map_or(true, |v| may_depend_on_thread(v, depth))
    })
}

/// The value of `value` in the thread `ids` (x, y, z): thread ids,
/// constants and the integer `arith` ops of them, as an integer of the
/// value's width (`index` as 64 bits, MLIR's `arith` semantics: wrapping
/// sums and products, division by zero unknown); `None` for anything else.
pub(super) fn evaluate(value: Value, ids: [i64; 3], depth: usize) -> Option<i64> {
    let width = crate::access::values::width(value.r#type())?;
    let wrap = |v: i128| -> i64 {
        let m = v & ((1i128 << width) - 1);
        // Sign-extended from `width` bits.
        (if width < 128 && m >> (width - 1) & 1 == 1 {
            m - (1i128 << width)
        } else {
            m
        }) as i64
    };
    let unsigned = |v: i64| -> u128 { (v as i128 & ((1i128 << width) - 1)) as u128 };
    if depth > 32 {
        return None;
    }
    if let Some(d) = crate::access::values::block_thread_id_dimension(value) {
        return Some(ids[d]);
    }
    if let Some(c) = constant(value) {
        return Some(wrap(c as i128));
    }
    let op = defining_op(value)?;
    let operand = |i: usize| evaluate(op.operand(i).ok()?, ids, depth + 1);
    let operand_unsigned = |i: usize| -> Option<u128> {
        let v = op.operand(i).ok()?;
        let w = crate::access::values::width(v.r#type())?;
        Some((evaluate(v, ids, depth + 1)? as i128 & ((1i128 << w) - 1)) as u128)
    };
    let (a, b) = (|| operand(0), || operand(1));
    Some(match ops::name(&op) {
        "arith.addi" => wrap(a()? as i128 + b()? as i128),
        "arith.subi" => wrap(a()? as i128 - b()? as i128),
        "arith.muli" => wrap(a()? as i128 * b()? as i128),
        "arith.andi" => wrap((a()? & b()?) as i128),
        "arith.ori" => wrap((a()? | b()?) as i128),
        "arith.xori" => wrap((a()? ^ b()?) as i128),
        name @ ("arith.divui" | "arith.remui" | "arith.divsi" | "arith.remsi") => {
            // Unsigned operands (below 2^64) and signed ones both fit i128.
            let (x, y) = if name.ends_with("ui") {
                (unsigned(a()?) as i128, unsigned(b()?) as i128)
            } else {
                (a()? as i128, b()? as i128)
            };
            if y == 0 {
                return None;
            }
            wrap(if name.starts_with("arith.div") {
                x / y
            } else {
                x % y
            })
        }
        "arith.shli" | "arith.shrui" => {
            let (x, s) = (unsigned(a()?), unsigned(b()?));
            if s >= width as u128 {
                return None;
            }
            wrap(if ops::is(&op, "arith.shli") {
                (x << s) as i128
            } else {
                (x >> s) as i128
            })
        }
        "arith.minui" => wrap(unsigned(a()?).min(unsigned(b()?)) as i128),
        "arith.maxui" => wrap(unsigned(a()?).max(unsigned(b()?)) as i128),
        "arith.minsi" => a()?.min(b()?),
        "arith.maxsi" => a()?.max(b()?),
        "arith.select" => {
            if operand(0)? != 0 {
                operand(1)?
            } else {
                operand(2)?
            }
        }
        "arith.index_cast" | "arith.extsi" | "arith.trunci" | "index.casts" => {
            wrap(operand(0)? as i128)
        }
        "arith.index_castui" | "arith.extui" | "index.castu" => wrap(operand_unsigned(0)? as i128),
        "arith.cmpi" => {
            let predicate = apipe_dialect::attributes::integer(&op, "predicate")?;
            let (x, y) = (a()?, b()?);
            // Unsigned predicates (6-9) compare the unsigned values, which
            // fit in 63 bits below 64-bit widths.
            let bits = crate::access::values::width(op.operand(0).ok()?.r#type())?;
            let holds = if (6..=9).contains(&predicate) && bits < 64 {
                let (ux, uy) = (operand_unsigned(0)?, operand_unsigned(1)?);
                crate::access::values::evaluate(predicate, ux as i64, uy as i64)?
            } else {
                crate::access::values::evaluate(predicate, x, y)?
            };
            wrap(holds as i128)
        }
        _ => return None,
    })
}

/// The workgroup memory that accesses of all memory reach beyond the
/// buffers the function names ([`Analysis::everywhere`]): one root for all
/// of them (two such accesses meet), which may alias every workgroup
/// buffer.
fn unknown_workgroup_memory() -> crate::access::Root {
    crate::access::Root {
        // A symbol of its own, of no value (no value of the IR is looked
        // up through it) and of no owner's fresh unknowns (numbered from 0).
        symbol: Symbol::Fresh(u32::MAX),
        kind: crate::access::region::RootKind::Other,
        space: "3".into(),
    }
}
