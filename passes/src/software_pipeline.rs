//! `apipe-software-pipeline`: software pipelining with asynchronous stages,
//! the transform of TVM RFC 0077 "Asynchronous stage in software pipeline"
//! (tvm-rfcs #80) on MLIR `scf.for`.
//!
//! Input: an `scf.for` (positive step, static or dynamic bounds, with or
//! without iter_args) whose body ops carry `apipe.stage = k` and optionally
//! `apipe.order = k`, and which carries `apipe.async_stages`. Only the
//! innermost annotated loop of a nest is pipelined (a remark says so).
//!
//! Time model: with `S` the largest stage and `N` the trip count, time step
//! `τ ∈ [0, N + S)` runs stage `s` on iteration `τ − s` when that is in
//! `[0, N)` (RFC 0077 "Software pipeline": stage `s` of the kernel works on
//! logical iteration `j + S − s`). No stage ever runs outside `[lb, ub)`.
//!
//! Algorithm ([`pipeline_for_loop`]):
//! 1. `analysis::analyze` checks every precondition before touching the IR
//!    (stages, orders, async stages with copies, side effects, calls,
//!    stage-crossing values, buffers to multi-buffer) and builds the plan:
//!    the schedule (body order with waits, commits and barriers), the
//!    values that cross stages and the buffers with their versions; then
//!    `dependences` proves that the schedule keeps every memory dependence
//!    of the original loop (a dependence test, exact for indices affine in
//!    the induction variable, between every pair of accesses whose order
//!    the schedule changes), or refuses with the two ops and the iteration
//!    distance;
//! 2. multi-buffer (`multi_buffer`): each buffer gets its own `V`, except
//!    one the loop multi-buffered by hand whose slots (`iv mod K`) already
//!    keep the iterations in flight apart (`dependences::Accesses::own_slots`:
//!    it keeps its type); a buffer that gets versions must not be read for
//!    what an earlier iteration wrote (`Accesses::carried_read`), since each
//!    version holds its own iteration's data only;
//! 3. emit before the loop: each cloned `apipe.copy` of async stage `s`
//!    gets `queue = s` (the RFC convention); one
//!    `apipe.commit_group {queue = s}` per async stage per time step,
//!    after the last op of stage `s` in body order, also when the stage is
//!    inactive (an empty group), so prologue, kernel and epilogue use the
//!    same grouping; before the first op of stage `t` that reads data of
//!    async stage `s`, a wait for the group of the same iteration:
//!    `apipe.wait_group {queue = s, pending = P}` (`sync=counting`, the
//!    default) with the exact FIFO distance `P = t − s − 1`, plus one when
//!    the step's own commit of `s` comes first (every step commits one
//!    group per queue, so `P` is the same in every part), or `apipe.wait %t`
//!    on the commit's token (`sync=tokens`); `gpu.barrier` after waits and
//!    before the async writes (write-after-read across threads, CUTLASS
//!    order wait, barrier, issue). Only these emitted ops are synchronized:
//!    the function's other apipe ops, in either form, are left as they are;
//!    an async stage that no op of the loop reads (its copies are read
//!    after the loop, or never) is waited for after the emitted code
//!    (`Emitter::drain`): nothing in the schedule waits for it;
//!    - static trip count `N` (`trip_count`, up to `2^64 − 1`): prologue
//!      steps `τ < S`, a steady-state `scf.for` over `N − S` iterations
//!      when `N > S` (`scf.for unsigned` above `i64::MAX`), epilogue steps
//!      `τ ≥ max(N, S)`; inactive stages are left out;
//!    - dynamic trip count: `N = lb < ub ? ceildivui(ub − lb, step) : 0`,
//!      compared as the loop compares (`trip_count`: no step of it wraps),
//!      and an `scf.index_switch` on `min(N, S)`: cases `0 … S−1` are the
//!      static schedules of those counts, the default is prologue, kernel
//!      over `N − S` iterations (unsigned unless `N ≤ i64::MAX` is known:
//!      a signed loop with a constant `lb ≥ 0`) and epilogue indexed from
//!      the end;
//!
//!    No emitted arithmetic depends on a wrapped value: every iteration
//!    number `i` it computes lies in `[0, N)` and every `N − k` has
//!    `k ≤ N`, so `lb + i · step ∈ [lb, ub)` is exact in 64-bit wrapping
//!    arithmetic (`arith.muli` / `arith.addi` without overflow flags), and
//!    the version `i mod V` is `arith.remui` of an exact unsigned `i`;
//!
//!    Values and tokens that cross stages rotate through iter_args: a value
//!    made by stage `p` and used up to stage `p + d` takes `d` iter_args;
//!
//!    Loop-carried values (iter_args of the input loop): iter_arg `a` of
//!    iteration `i` is the yielded value `v` of iteration `i − 1` (the init
//!    for `i = 0`, kept in the table as iteration −1). A reader of `a` in
//!    stage `r` runs at time `i + r`; `v` of iteration `i − 1`, made by stage
//!    `p`, exists at time `i − 1 + p`. So the schedule is valid iff for every
//!    reader `p ≤ r + 1`, and when `p = r + 1` (same time step) the op that
//!    makes `v` comes before the reader in the pipelined body order
//!    (`apipe.order`). A reader at `p ≤ r` is a use at stage distance
//!    `r − p + 1` and rotates through that many kernel iter_args, like any
//!    crossing value (upstream `scf::pipelineForLoop` accepts the same
//!    schedules). The loop results are `v` of iteration `N − 1`, taken after
//!    the epilogue (a `v` made in stage 0 is also carried out of the kernel);
//!    `N = 0` gives the inits, and in the dynamic case every region of the
//!    `scf.index_switch` yields its last values. The other schedules, and a
//!    yield of a value not computed by a body op, get a located error;
//! 4. erase the original loop and the replaced allocations.
//!
//! Postconditions: no `apipe.stage` / `apipe.order` / `apipe.async_stages`
//! is left; the IR verifies.
//!
//! Invariants: a failure (located errors, `Err(Reported)`) leaves the IR
//! unchanged; the emitted code depends only on the schedule and `N`, so each
//! (stage, iteration) pair of `[0, N)` runs exactly once, in time order.
//!
//! Limits (located errors, not silent): iter_args read more than one stage
//! before the stage that yields them, or yielding a value from outside the
//! body (an invariant, an iter_arg, the induction variable); a buffer
//! written by an async copy through a view made inside the loop; a buffer
//! read outside the loop; a memory dependence the schedule would reverse
//! (`dependences`). Buffers written by synchronous ops and read in a later
//! stage are accepted when every iteration writes its own elements (e.g.
//! `tmp[i]`); a local one (`memref.alloc` / `alloca` before the loop, used
//! only in it) whose elements later iterations rewrite too early gets
//! versions like an async buffer when each iteration reads only what it
//! wrote (RFC 0077 versions every intermediate buffer); otherwise the
//! schedule is refused.
//!
//! References: TVM RFC 0077 sections "Asynchronous stage" and "Multi-buffering";
//! PTX ISA 9.7.9.25.3 (`cp.async.commit_group` / `cp.async.wait_group`);
//! upstream `scf::pipelineForLoop` (mlir/lib/Dialect/SCF/Transforms/
//! LoopPipelining.cpp) for the prologue/kernel/epilogue structure.

mod analysis;
mod barriers;
pub use barriers::forget_placements;
mod conditional_writes;
mod dependences;
mod emit;
mod multi_buffer;
mod schedule;
mod shared_memory;

pub use barriers::BarrierMode;
pub use schedule::ScheduleOrder;
pub use shared_memory::opt_in_limit;

use crate::{
    access,
    pass::{OptionInfo, OptionKind, PassInfo, PassOptions, RunFn},
    rewrite,
};
use analysis::{key, Item, Plan};
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{attributes, build, diagnostic, ops, Reported};
use barriers::StepBarriers;
use melior::{
    ir::AttributeLike,
    ir::{
        attribute::{DenseI64ArrayAttribute, IntegerAttribute},
        operation::{OperationBuilder, OperationLike, OperationMutLike},
        r#type::IntegerType,
        Block, BlockLike, BlockRef, Identifier, Location, OperationRef, Region, RegionLike, Type,
        Value, ValueLike,
    },
    pass::Pass,
    Context,
};
use mlir_sys::{MlirBlock, MlirOperation, MlirValue};
use rustc_hash::{FxHashMap, FxHashSet};

/// The registry entry of `apipe-software-pipeline`.
pub static INFO: PassInfo = PassInfo {
    argument: "apipe-software-pipeline",
    name: "ApipeSoftwarePipeline",
    summary: "Software-pipeline scf.for loops with asynchronous copy stages (TVM RFC 0077), from stage annotations or num-stages",
    options: &[
        OptionInfo {
            name: "num-stages",
            kind: OptionKind::Int,
            description: "schedule loops that have copies and no stage annotations with this many stages (2..65); `apipe.num_stages` on a loop wins",
        },
        OptionInfo {
            name: "max-shared-bytes",
            // A negative budget is meaningless: an option error at parse time.
            kind: OptionKind::IntIn(0, 1 << 40),
            description: "shared memory a kernel may use, in bytes (default: the opt-in maximum of `sm`, else 49152); scheduled loops get fewer stages to fit",
        },
        OptionInfo {
            name: "sm",
            kind: OptionKind::Choice(&["80", "86", "89", "90", "90a"]),
            description: "target GPU: its opt-in shared-memory maximum is the default budget (163 KiB on 80, 99 KiB on 86/89, 227 KiB on 90)",
        },
        OptionInfo {
            name: "order",
            kind: OptionKind::Choice(&["cutlass", "copies-first"]),
            description: "order of a scheduled loop's time step: cutlass (wait, barrier, compute, then the new copies; default) or copies-first (wait, barrier, the new copies, then compute: one more tile in flight)",
        },
        OptionInfo {
            name: "barriers",
            kind: OptionKind::Choice(&["true", "false", "1", "0", "conservative"]),
            description: "gpu.barrier placement: true (only where a hazard needs one; default inside gpu.func), conservative (after each wait and before each async stage), false (none; default elsewhere)",
        },
        OptionInfo {
            name: "sync",
            kind: OptionKind::Choice(&["counting", "tokens"]),
            description: "synchronization form of the output: counting (wait_group, default) or tokens (wait %t)",
        },
    ],
    run: run as RunFn,
    dependent_dialects: crate::pass::sync_rewrite_dialects,
    reads_only: false,
    follows_calls: false,
};

/// The synchronization form of the pipelined output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncForm {
    /// `commit_group` / `wait_group {pending = N}` (PTX cp.async form).
    Counting,
    /// `commit_group -> !apipe.token` / `apipe.wait %t`.
    Tokens,
}

/// Options of [`software_pipeline`] and [`pipeline_for_loop`].
#[derive(Clone, Copy, Debug)]
pub struct PipelineOptions {
    /// Barrier placement; `None`: [`BarrierMode::Minimal`] inside
    /// `gpu.func`, [`BarrierMode::Off`] elsewhere.
    pub barriers: Option<BarrierMode>,
    /// Output synchronization form.
    pub sync: SyncForm,
    /// Stages for loops without annotations (`apipe.num_stages` wins).
    pub num_stages: Option<i64>,
    /// The order of a scheduled loop's time step.
    pub order: ScheduleOrder,
    /// Bytes of shared memory a kernel may use (see
    /// [`shared_memory_budget`]).
    pub max_shared_bytes: i64,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        Self {
            barriers: None,
            sync: SyncForm::Counting,
            num_stages: None,
            order: ScheduleOrder::Cutlass,
            max_shared_bytes: shared_memory::STATIC_LIMIT,
        }
    }
}

/// The shared-memory budget: `max_shared_bytes` when given, else the
/// opt-in maximum per block of `sm` (`"80"`: 163 KiB, `"86"`/`"89"`:
/// 99 KiB, `"90"`/`"90a"`: 227 KiB), else 48 KiB (the static limit).
pub fn shared_memory_budget(max_shared_bytes: Option<i64>, sm: Option<&str>) -> i64 {
    max_shared_bytes
        .or_else(|| sm.and_then(shared_memory::opt_in_limit))
        .unwrap_or(shared_memory::STATIC_LIMIT)
}

/// Creates the `apipe-software-pipeline` pass with default options.
pub fn create_software_pipeline_pass() -> Pass {
    INFO.create("").expect("no options")
}

fn run(op: OperationRef, options: &PassOptions) -> Result<(), Reported> {
    let options = PipelineOptions {
        barriers: options
            .is_set("barriers")
            .then(|| match options.choice("barriers", "true") {
                "conservative" => BarrierMode::Conservative,
                "false" | "0" => BarrierMode::Off,
                _ => BarrierMode::Minimal,
            }),
        sync: if options.choice("sync", "counting") == "tokens" {
            SyncForm::Tokens
        } else {
            SyncForm::Counting
        },
        num_stages: options
            .is_set("num-stages")
            .then(|| options.int("num-stages", 0)),
        order: if options.choice("order", "cutlass") == "copies-first" {
            ScheduleOrder::CopiesFirst
        } else {
            ScheduleOrder::Cutlass
        },
        max_shared_bytes: shared_memory_budget(
            options
                .is_set("max-shared-bytes")
                .then(|| options.int("max-shared-bytes", 0)),
            options.is_set("sm").then(|| options.choice("sm", "80")),
        ),
    };
    software_pipeline(&op, options)
}

/// Pipelines every innermost `scf.for` nested in `root` that asks for it
/// (annotations, `apipe.num_stages`, or copies under `num-stages`). All
/// loops are checked before any is changed; on failure the IR is unchanged
/// and located errors have been emitted.
pub fn software_pipeline<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
    options: PipelineOptions,
) -> Result<(), Reported> {
    if let Some(n) = options.num_stages {
        if !(2..=analysis::MAX_STAGE + 1).contains(&n) {
            // Located at each loop the option would schedule (the root of
            // a parsed file has no location of its own).
            let message = format!(
                "apipe-software-pipeline: num-stages must be in [2, {}], got {n}",
                analysis::MAX_STAGE + 1
            );
            let loops: Vec<OperationRef> = ops::self_and_nested_ops(root)
                .into_iter()
                .filter(|l| {
                    schedule::num_stages_attribute(l).is_none()
                        && schedule::request(l, Some(n)) == Some(schedule::Request::Scheduled(n))
                })
                .collect();
            if loops.is_empty() {
                // No loop would use the option (all are annotated by hand,
                // or none has copies): point at the first loop, or else the
                // first op, rather than at the file (`file:0:0`).
                let nested = ops::self_and_nested_ops(root);
                let at = nested
                    .iter()
                    .skip(1)
                    .find(|l| ops::is(*l, "scf.for"))
                    .or_else(|| nested.get(1))
                    .map_or_else(|| root.location(), |l| l.location());
                diagnostic::error(at, &message);
            }
            for l in &loops {
                diagnostic::error(l.location(), &message);
            }
            return Err(Reported);
        }
    }
    // 1. Find the loops; only the innermost of a nest.
    let requested: Vec<(OperationRef, schedule::Request)> = ops::self_and_nested_ops(root)
        .into_iter()
        .filter_map(|l| schedule::request(&l, options.num_stages).map(|r| (l, r)))
        .collect();
    let requested_set: FxHashSet<usize> = requested
        .iter()
        .map(|(l, _)| l.to_raw().ptr as usize)
        .collect();
    let is_requested = |op: &OperationRef| requested_set.contains(&(op.to_raw().ptr as usize));
    for l in ops::self_and_nested_ops(root) {
        if ops::is(&l, "scf.for")
            && schedule::num_stages_attribute(&l).is_some()
            && !is_requested(&l)
        {
            diagnostic::warning(
                l.location(),
                "loop not pipelined: 'apipe.num_stages' asks for stages, but the loop has no 'apipe.copy' of its own (outside nested loops) to make asynchronous",
            );
        }
        // A loop the pass-wide option would schedule but for its
        // synchronization: said, not skipped in silence (trial 27: a copy
        // with its commit and wait inside a `memref.alloca_scope`).
        // A loop of another kind with copies of its own (trial 28: an
        // scf.while, affine.for, scf.parallel or scf.forall in the
        // synchronous form was left in silence).
        if options.num_stages.is_some()
            && schedule::is_loop(&l)
            && !ops::is(&l, "scf.for")
            && ops::nested_ops(&l).iter().any(|c| {
                ops::is(c, ops::COPY)
                    && ops::ancestors(c)
                        .find(schedule::is_loop)
                        .is_some_and(|p| p == l)
            })
        {
            diagnostic::remark(
                l.location(),
                &format!(
                    "loop not pipelined by num-stages: apipe-software-pipeline pipelines scf.for loops, not '{}' (lower it to scf.for first: --lower-affine for affine.for, --scf-forall-to-for, --scf-parallel-for-to-nested-fors); it stays as it is",
                    ops::name(&l)
                ),
            );
        }
        if options.num_stages.is_some()
            && ops::is(&l, "scf.for")
            && !is_requested(&l)
            && schedule::has_own_copies(&l)
        {
            diagnostic::remark(
                l.location(),
                "loop not pipelined by num-stages: its copies are not in the synchronous form (per queue, a commit and a 'wait_group 0' that are ops of the loop body itself, after its last copy; docs/pipelining.md); it stays as it is",
            );
        }
    }
    let mut innermost = Vec::new();
    let mut outer = Vec::new();
    for (l, request) in &requested {
        if ops::nested_ops(l).iter().any(is_requested) {
            if analysis::is_annotated(l) || schedule::num_stages_attribute(l).is_some() {
                outer.push(l.to_raw());
                diagnostic::remark(
                    l.location(),
                    "loop not pipelined: a nested loop is annotated too; only the innermost annotated loop is pipelined",
                );
            }
        } else {
            innermost.push((*l, *request));
        }
    }
    // 2. Check everything first, within each kernel's budget.
    let mut planned = Vec::new();
    let mut ok = true;
    let mut kernels = shared_memory::Kernels::default();
    for (l, request) in &innermost {
        match plan_loop(*l, *request, &options, &mut kernels) {
            Ok(p) => planned.push(p),
            Err(()) => ok = false,
        }
    }
    let mut type_names = shared_memory::TypeNames::default();
    for p in &planned {
        p.report(&mut type_names);
    }
    if !ok {
        return Err(Reported);
    }
    // 3. Transform (in walk order: the loops of a block in block order).
    let mut constants = BlockConstants::default();
    // Which functions may issue copies, found once for all the loops (the
    // transform keeps every copy and commit of a function, or erases a
    // loop that never runs: then the answer errs on the safe side, an
    // entry wait with nothing to wait for).
    let mut issuing = Issuing::default();
    // The results of the loops transformed so far and what replaced them:
    // a later loop may take one as a bound, an init or a buffer (trial 43:
    // its plan kept the erased result, a crash or a loop fed by its own
    // result).
    let mut replaced = Replaced::default();
    for p in &mut planned {
        p.plan.refresh(&replaced);
        transform(
            &p.plan,
            options.sync,
            &mut constants,
            &mut issuing,
            &mut replaced,
        );
    }
    // The emitted ops lost their annotations when cloned; the loops left
    // alone lose theirs now.
    for l in outer {
        // SAFETY: outer loops are not erased (only innermost loops are).
        for op in ops::self_and_nested_ops(&unsafe { OperationRef::from_raw(l) }) {
            remove_annotations(op.to_raw());
        }
    }
    Ok(())
}

/// Pipelines one `scf.for` (the library entry point): by its annotations,
/// or scheduled when it has `apipe.num_stages` or `options.num_stages` is
/// set. On failure the IR is unchanged and located errors have been
/// emitted.
pub fn pipeline_for_loop(loop_op: OperationRef, options: PipelineOptions) -> Result<(), Reported> {
    let request =
        schedule::request(&loop_op, options.num_stages).unwrap_or(match options.num_stages {
            Some(n) => schedule::Request::Scheduled(n),
            None => schedule::Request::Annotated,
        });
    let planned = plan_loop(
        loop_op,
        request,
        &options,
        &mut shared_memory::Kernels::default(),
    )
    .map_err(|()| Reported)?;
    planned.report(&mut shared_memory::TypeNames::default());
    transform(
        &planned.plan,
        options.sync,
        &mut BlockConstants::default(),
        &mut Issuing::default(),
        &mut Replaced::default(),
    );
    Ok(())
}

/// A checked loop, with what its remarks say.
struct Planned {
    plan: Plan,
    /// The scheduled stage count, when the pipeliner picked the stages.
    scheduled: Option<i64>,
    /// `(stages, bytes)` of the schedules that did not fit.
    reduced: Vec<(i64, i64)>,
    /// The kernel's shared memory with this loop pipelined (`None` outside
    /// a `gpu.func`), and the budget.
    shared: Option<i64>,
    budget: i64,
}

impl Planned {
    /// Emits the scheduling remarks (`type_names`: the types printed so
    /// far in this run).
    fn report(&self, type_names: &mut shared_memory::TypeNames) {
        let plan = &self.plan;
        // SAFETY: the loop is live until it is transformed.
        let loop_op = unsafe { OperationRef::from_raw(plan.loop_op) };
        let Some(n) = self.scheduled else { return };
        let budget = self.budget;
        for &(stages, bytes) in &self.reduced {
            diagnostic::remark(
                loop_op.location(),
                &format!(
                    "{stages} stages need {bytes} bytes of shared memory, over the budget of {budget} bytes (max-shared-bytes): trying {} stages",
                    stages - 1
                ),
            );
        }
        let mut per_stage: Vec<String> = Vec::new();
        for s in 0..=plan.max_stage {
            let count = plan.stage.iter().filter(|&&x| x == s).count();
            if count > 0 {
                per_stage.push(format!("stage {s}: {count} ops"));
            }
        }
        let memory = match self.shared {
            Some(bytes) => format!("shared memory: {bytes} of {budget} bytes"),
            None => format!(
                "buffers: {} bytes (not in a gpu.func or gpu.launch: no shared-memory budget)",
                shared_memory::plan_bytes(plan)
            ),
        };
        let barriers = match plan.barriers.kernel_barrier_count() {
            Some(c) => format!("; {c} gpu.barrier per iteration"),
            None => String::new(),
        };
        diagnostic::remark(
            loop_op.location(),
            &format!(
                "scheduled {} stages (num_stages = {n}): {}; versions: {}; {memory}{barriers}",
                plan.max_stage + 1,
                per_stage.join(", "),
                shared_memory::describe_versions(plan, type_names),
            ),
        );
        if n >= 2 && plan.max_stage == 0 {
            // Trial 14, finding 5: a loop that only issues copies (their
            // data read after it) gets 1 stage, and nothing overlaps.
            diagnostic::warning(
                loop_op.location(),
                &format!(
                    "num_stages = {n}, but no op of this loop reads what its copies write (their data is read after the loop): the schedule has 1 stage and nothing overlaps; to pipeline across tiles, issue the copies in the loop that reads their data (unroll this copy loop into it)"
                ),
            );
        }
        if self.shared.is_some_and(|b| b > shared_memory::STATIC_LIMIT) {
            diagnostic::warning(
                loop_op.location(),
                &format!(
                    "the kernel needs {} bytes of shared memory, more than the {} bytes of static shared memory: it must use dynamic shared memory (and cudaFuncSetAttribute), which apipe-translate does not emit, so ptxas will refuse it",
                    self.shared.unwrap(),
                    shared_memory::STATIC_LIMIT
                ),
            );
        }
    }
}

/// Step 1 for one loop: schedule it (fewer stages while the kernel's shared
/// memory would exceed the budget), analyze it, and check the budget.
/// `kernels` holds each kernel's shared memory so far: its bytes as written
/// (found once per kernel: the IR does not change while loops are planned)
/// plus the growth already planned.
fn plan_loop(
    loop_op: OperationRef,
    request: schedule::Request,
    options: &PipelineOptions,
    kernels: &mut shared_memory::Kernels,
) -> Result<Planned, ()> {
    // A `gpu.launch` body is a kernel too (gpu-kernel-outlining makes it a
    // `gpu.func` with the same workgroup buffers).
    let kernel =
        ops::ancestors(&loop_op).find(|p| ops::is(p, "gpu.func") || ops::is(p, "gpu.launch"));
    let budget = options.max_shared_bytes;
    let mut reduced = Vec::new();
    let mut stages = match request {
        schedule::Request::Scheduled(n) => Some(n),
        schedule::Request::Annotated => None,
    };
    // Each op's accesses, for every step and every stage count tried (the
    // IR is unchanged until the transform).
    let mut cache = access::AccessCache::new();
    loop {
        let assignment = match stages {
            Some(n) => Some(schedule::assign(&loop_op, n, options.order, &mut cache)?),
            None => None,
        };
        let plan = analysis::analyze(
            loop_op,
            options.barriers,
            options.sync,
            assignment.as_ref(),
            &mut cache,
        )?;
        let shared = kernel
            .as_ref()
            .map(|k| kernels.bytes(k) + shared_memory::growth(&plan));
        if let Some(bytes) = shared.filter(|&b| b > budget) {
            match stages {
                Some(n) if n > 2 => {
                    reduced.push((n, bytes));
                    stages = Some(n - 1);
                    continue;
                }
                Some(n) => diagnostic::error(
                    loop_op.location(),
                    &format!(
                        "{n} stages (the fewest) need {bytes} bytes of shared memory, over the budget of {budget} bytes (max-shared-bytes); {}",
                        if reduced.is_empty() { "the loop cannot be pipelined within it".to_owned() } else { format!("tried {}", reduced.iter().map(|(s, b)| format!("{s} stages: {b} bytes")).collect::<Vec<_>>().join(", ")) }
                    ),
                ),
                None => diagnostic::error(
                    loop_op.location(),
                    &format!(
                        "the annotated schedule needs {bytes} bytes of shared memory, over the budget of {budget} bytes (max-shared-bytes); use fewer stages"
                    ),
                ),
            }
            return Err(());
        }
        if let Some(k) = &kernel {
            kernels.grow(k, shared_memory::growth(&plan));
        }
        return Ok(Planned {
            plan,
            scheduled: stages,
            reduced,
            shared,
            budget,
        });
    }
}

fn remove_annotations(op: MlirOperation) {
    // SAFETY: a live op.
    let op_ref = unsafe { OperationRef::from_raw(op) };
    for name in [
        attributes::STAGE,
        attributes::ORDER,
        attributes::ASYNC_STAGES,
        attributes::NUM_STAGES,
    ] {
        // Looking an attribute up compares strings; removing one uniques
        // its name first, so only remove what is there.
        if !op_ref.has_attribute(name) {
            continue;
        }
        // SAFETY: a live op; removing an attribute does not move it.
        unsafe {
            mlir_sys::mlirOperationRemoveAttributeByName(op, melior::StringRef::new(name).to_raw());
        }
    }
}

/// The index constants (`arith.constant` of `index` type, directly in the
/// block) before a point of one block, by value, the first of each value:
/// those a loop's emitter reuses. Kept from loop to loop as the loops of a
/// block are transformed in block order, so that each op of the block is
/// scanned once, not once per later loop (a block of `n` loops cost `n^2`
/// op visits).
///
/// Invariant: `resume` and `last` are live ops of `block`; `values`
/// holds the constants before `resume` (lent to the emitter while a loop is
/// transformed), and `last` is the last op scanned (before `resume`) that
/// the transform under way does not erase.
#[derive(Default)]
struct BlockConstants {
    /// The block scanned (`None` before the first loop).
    block: Option<MlirBlock>,
    /// The op where the scan resumes (`None`: the end of the block).
    resume: Option<MlirOperation>,
    /// The last op scanned that is kept (`None`: none yet).
    last: Option<MlirOperation>,
    /// The constants found before `resume`.
    values: FxHashMap<i64, MlirValue>,
}

impl BlockConstants {
    /// Adds the index constants from `from` up to `to` (exclusive, `None`:
    /// the end of the block), and moves `last` to the last op scanned that
    /// is not in `erased`; false if the block ended before `to`.
    fn scan(
        &mut self,
        context: &Context,
        from: Option<OperationRef>,
        to: Option<MlirOperation>,
        erased: &FxHashSet<usize>,
    ) -> bool {
        let mut next = from;
        while let Some(op) = next {
            if Some(op.to_raw().ptr) == to.map(|t| t.ptr) {
                return true;
            }
            next = op.next_in_block();
            if !erased.contains(&(op.to_raw().ptr as usize)) {
                self.last = Some(op.to_raw());
            }
            if !ops::is(&op, "arith.constant") {
                continue;
            }
            let Some(result) = op
                .result_at(0)
                .filter(|r| r.r#type() == Type::index(context))
            else {
                continue;
            };
            if let Some(v) = op
                .attribute("value")
                .ok()
                .and_then(|a| IntegerAttribute::try_from(a).ok())
            {
                self.values.entry(v.value()).or_insert(result.to_raw());
            }
        }
        to.is_none()
    }

    /// The constants before `loop_op`, scanning on from the last loop of
    /// its block (from the block's start for a new block, or for a loop
    /// before the last one), lent to its emitter until
    /// [`BlockConstants::after`]. `erased`: the ops its transform erases.
    fn before(
        &mut self,
        context: &Context,
        loop_op: OperationRef,
        erased: &FxHashSet<usize>,
    ) -> FxHashMap<i64, MlirValue> {
        let block = loop_op.block();
        let first = || block.and_then(|b| b.first_operation());
        if self.block.map(|b| b.ptr) != block.map(|b| b.to_raw().ptr) {
            *self = BlockConstants {
                block: block.map(|b| b.to_raw()),
                resume: first().map(|o| o.to_raw()),
                ..BlockConstants::default()
            };
        }
        // SAFETY: the resume point is a live op of the block (the
        // invariant).
        let from = self.resume.map(|o| unsafe { OperationRef::from_raw(o) });
        if self
            .last
            .is_some_and(|o| erased.contains(&(o.ptr as usize)))
            || !self.scan(context, from, Some(loop_op.to_raw()), erased)
        {
            self.values.clear();
            self.last = None;
            self.scan(context, first(), Some(loop_op.to_raw()), erased);
        }
        self.resume = Some(loop_op.to_raw());
        std::mem::take(&mut self.values)
    }

    /// Takes back the constants lent by [`BlockConstants::before`] as the
    /// emitter left them (`known`: those it was lent, never replaced, and
    /// those it created), and adds those among the ops now between the last
    /// kept op before the loop and `next`, the first kept op after it
    /// ([`BlockConstants::erased`]), where its emitted code stands; the
    /// scan resumes at `next`.
    fn after(
        &mut self,
        context: &Context,
        known: FxHashMap<i64, MlirValue>,
        next: Option<MlirOperation>,
    ) {
        self.values = known;
        let start = match self.last {
            // SAFETY: `last` is live: the transform did not erase it.
            Some(p) => unsafe { OperationRef::from_raw(p) }.next_in_block(),
            // SAFETY: the block holds the loop's emitted code: live.
            None => self
                .block
                .and_then(|b| unsafe { BlockRef::from_raw(b) }.first_operation()),
        };
        self.scan(context, start, next, &FxHashSet::default());
        self.resume = next;
    }

    /// The ops the transform of `plan`'s loop erases (the loop, its
    /// buffers' allocations and their `memref.dealloc`s), and the first op
    /// after the loop that it keeps.
    fn erased(plan: &Plan) -> (FxHashSet<usize>, Option<MlirOperation>) {
        // SAFETY: the loop, its buffers and their users are live.
        let loop_op = unsafe { OperationRef::from_raw(plan.loop_op) };
        let mut erased: FxHashSet<usize> = FxHashSet::default();
        erased.insert(plan.loop_op.ptr as usize);
        for buffer in &plan.buffers {
            erased.insert(buffer.alloc.ptr as usize);
            // SAFETY: the buffer value is live.
            let value = unsafe { Value::from_raw(buffer.value) };
            for user in crate::token_values::users(value) {
                if ops::is(&user, "memref.dealloc") {
                    erased.insert(user.to_raw().ptr as usize);
                }
            }
        }
        let mut next = loop_op.next_in_block();
        while let Some(op) = next.filter(|o| erased.contains(&(o.to_raw().ptr as usize))) {
            next = op.next_in_block();
        }
        (erased, next.map(|o| o.to_raw()))
    }
}

/// Steps 2-4 for one checked loop.
/// Step 3 for one loop (`issuing`: what the entry check found of the
/// module's functions so far, [`may_enter_in_flight`]).
fn transform(
    plan: &Plan,
    sync: SyncForm,
    block_constants: &mut BlockConstants,
    issuing: &mut Issuing,
    replaced: &mut Replaced,
) {
    // SAFETY: the loop is live.
    let loop_op = unsafe { OperationRef::from_raw(plan.loop_op) };
    let context = loop_op.context();
    // SAFETY: `context` is bound first (a temporary context ref would dangle).
    let context: &Context = unsafe { context.to_ref() };
    let location = loop_op.location();
    if plan.trip_count == Some(0) {
        // The loop never runs: nothing to pipeline, no buffer to expand; its
        // results are the initial values.
        replace_results(plan, &plan.inits, replaced);
        // Nothing refers to the loop any more.
        rewrite::erase_op(loop_op);
        return;
    }
    // Every check is done: strip the annotations from the body once, so the
    // clones of each op (one per time step) are born without them.
    for &op in &plan.body {
        // SAFETY: body ops are live until the loop is erased.
        for inner in ops::self_and_nested_ops(&unsafe { OperationRef::from_raw(op) }) {
            remove_annotations(inner.to_raw());
        }
    }
    // Before any op is erased (expansion erases deallocs).
    let (erased, next) = BlockConstants::erased(plan);
    let mut expanded = FxHashMap::default();
    for (i, buffer) in plan.buffers.iter().enumerate() {
        expanded.insert(
            key(buffer.value),
            (i, multi_buffer::expand(buffer, context)),
        );
    }
    let mut emitter = Emitter {
        context,
        plan,
        location,
        anchor: plan.loop_op,
        constants: FxHashMap::default(),
        table: FxHashMap::default(),
        point: Point::Before(plan.loop_op),
        expanded,
        trip: None,
        kernel_counter: None,
        part: PartCache::default(),
        sync,
    };
    // Reuse the index constants that precede the loop in its block; new
    // constants go before constant 0, which precedes all emitted code.
    emitter.constants = block_constants.before(context, loop_op, &erased);
    emitter.constant(0);
    // SAFETY: `constant(0)` just made this value as the result of an op it
    // inserted, so it is a live op result.
    emitter.anchor = unsafe { mlir_sys::mlirOpResultGetOwner(emitter.constants[&0]) };
    emitter.seed_inits();
    emitter.settle(issuing);
    let results = match plan.trip_count {
        Some(n) => {
            emitter.emit_static(n);
            emitter.last_values(Iteration::Absolute(i128::from(n) - 1))
        }
        None => emitter.emit_dynamic(),
    };
    emitter.drain(next);
    replace_results(plan, &results, replaced);
    // Nothing refers to the loop any more; its body uses the old buffers,
    // so it goes first.
    rewrite::erase_op(loop_op);
    for buffer in &plan.buffers {
        if !buffer.alloc.ptr.is_null() {
            // SAFETY: the alloc is live; its only users (the loop,
            // deallocs) are gone or moved.
            rewrite::erase_op(unsafe { OperationRef::from_raw(buffer.alloc) });
        }
    }
    block_constants.after(context, std::mem::take(&mut emitter.constants), next);
}

/// True if groups or uncommitted copies of `queue` may be in flight where
/// `loop_op` starts: a copy or commit on `queue`, or a call of a function
/// that may issue ([`Issuing`]), runs before it in the blocks around it, or
/// anywhere in a loop around it (an earlier iteration; both regions of an
/// `scf.while`) or in a region of several blocks around it, at any depth
/// (what follows `loop_op` inside an `scf.if` of the outer loop's body runs
/// before the next iteration's `loop_op`; trial 26) but `loop_op` itself,
/// which the pipeliner drains; or the function may be entered with them:
/// a call of it (`func.call`, `llvm.call`) in the module is such a point
/// itself, and a loop around that call runs the function's own copies
/// before the next call (docs/semantics.md, rule 5: a called function
/// starts with its caller's groups). A kernel (`gpu.func`, a `gpu.launch`
/// body) starts with none. Conservative: any path.
fn may_enter_in_flight(loop_op: &OperationRef, queue: Option<i64>, issuing: &mut Issuing) -> bool {
    in_flight_at(loop_op, loop_op, queue, issuing, &mut FxHashSet::default())
}

/// [`may_enter_in_flight`] of `loop_op` at `op` (`loop_op`, or a call of
/// the function that holds it); `seen`: the functions whose calls were
/// followed already.
fn in_flight_at(
    op: &OperationRef,
    loop_op: &OperationRef,
    queue: Option<i64>,
    issuing: &mut Issuing,
    seen: &mut FxHashSet<usize>,
) -> bool {
    // The ops of `inner`'s block before it; with `whole`, every op of
    // every region of `parent` at any depth but `loop_op`: in a loop (an
    // earlier iteration, or the other region of an `scf.while`) and in a
    // region of several blocks (a predecessor block).
    let around =
        |inner: &OperationRef, parent: &OperationRef, whole: bool, issuing: &mut Issuing| {
            if !whole {
                return ops::preceding(inner).any(|op| issuing.issues(&op, queue));
            }
            issuing.issues_outside(parent, loop_op, queue)
        };
    let mut inner = *op;
    while let Some(parent) = inner.parent_operation() {
        let several_blocks = inner
            .block()
            .and_then(|b| b.parent_region())
            .and_then(|r| r.first_block())
            .is_some_and(|b| b.next_in_region().is_some());
        // Any region op but those known to run their regions at most once
        // per run of the op may repeat them: `scf.for`, `scf.while`,
        // `affine.for`, `scf.parallel`, `scf.forall`, an unknown op (trial
        // 28: an `affine.for` around the loop got no entry wait).
        let once = matches!(
            ops::name(&parent),
            "scf.if"
                | "scf.index_switch"
                | "scf.execute_region"
                | "memref.alloca_scope"
                | "affine.if"
                | "builtin.module"
                | "gpu.module"
        ) || ops::is_function(&parent);
        let whole = !once || several_blocks;
        if around(&inner, &parent, whole, issuing) {
            return true;
        }
        if ops::is_function(&parent) {
            // A kernel starts with nothing in flight; an `llvm.func` is
            // called like a `func.func` (trial 26).
            if !ops::is(&parent, "func.func") && !ops::is(&parent, "llvm.func") {
                return false;
            }
            // The pass runs on this function alone (nested under
            // `func.func`): its callers are out of reach, so they may
            // have left groups in flight. So may callers through a value
            // (`calls_of` is `None`; trial 25).
            if ops::outermost(&parent) == parent {
                return true;
            }
            if !seen.insert(parent.to_raw().ptr as usize) {
                return false;
            }
            return issuing.calls_of(&parent).is_none_or(|calls| {
                calls.iter().any(|&call| {
                    // SAFETY: the calls of the module are live: the
                    // transform neither clones nor erases a call (a loop
                    // with one is not pipelined).
                    let call = unsafe { OperationRef::from_raw(call) };
                    in_flight_at(&call, loop_op, queue, issuing, seen)
                })
            });
        }
        inner = parent;
    }
    false
}

/// The functions of the module that may copy or commit (directly, or
/// through the functions they call), found at the first call asked about;
/// calls of other functions (declarations such as `printMemrefF32`
/// included) issue nothing, as the group-distance analysis counts them. A
/// call of a function the pass cannot see (it runs on one function, nested
/// under `func.func`: `ops::outermost`) may issue.
#[derive(Default)]
pub(crate) struct Issuing {
    /// `(issuing, visible)`: the names of the functions that may issue, and
    /// of every function the pass can see.
    names: Option<(FxHashSet<String>, FxHashSet<String>)>,
    /// Function name → its `func.call`s and `llvm.call`s in the module, and
    /// whether a `func.constant` or an `llvm.mlir.addressof` names it;
    /// found in one walk of the module at the first question (was a walk
    /// per loop: quadratic in the functions of a module).
    callers: Option<FxHashMap<String, (Vec<MlirOperation>, bool)>>,
}

impl Issuing {
    /// The calls of `function` in the module; `None` if its address is
    /// taken: it may then be called through a value, by callers no symbol
    /// names.
    fn calls_of(&mut self, function: &OperationRef) -> Option<Vec<MlirOperation>> {
        let Some(name) = crate::group_distance::symbol_name(function) else {
            return Some(Vec::new());
        };
        let callers = self.callers.get_or_insert_with(|| {
            let mut callers: FxHashMap<String, (Vec<MlirOperation>, bool)> = FxHashMap::default();
            ops::walk_nested(&ops::outermost(function), &mut |op| {
                if crate::group_distance::is_call(&op) {
                    if let Some(callee) = crate::group_distance::callee(&op) {
                        callers.entry(callee).or_default().0.push(op.to_raw());
                    }
                } else if let Some(named) = crate::group_distance::address_taken(&op) {
                    callers.entry(named).or_default().1 = true;
                }
            });
            callers
        });
        match callers.get(&name) {
            None => Some(Vec::new()),
            Some((_, true)) => None,
            Some((calls, false)) => Some(calls.clone()),
        }
    }

    /// True if `op` or an op nested in it copies or commits on `queue`
    /// (`None`: any queue), or calls a function that may.
    fn issues(&mut self, op: &OperationRef, queue: Option<i64>) -> bool {
        ops::self_and_nested_ops(op)
            .iter()
            .any(|o| self.issues_itself(o, queue))
    }

    /// [`Issuing::issues`] for the ops nested in `parent` (at any depth),
    /// `skipped` and the ops nested in it left out.
    fn issues_outside(
        &mut self,
        parent: &OperationRef,
        skipped: &OperationRef,
        queue: Option<i64>,
    ) -> bool {
        ops::blocks_of(parent)
            .iter()
            .flat_map(|b| std::iter::successors(b.first_operation(), |o| o.next_in_block()))
            .any(|op| {
                op != *skipped
                    && (self.issues_itself(&op, queue) || self.issues_outside(&op, skipped, queue))
            })
    }

    /// True if `o` itself (not the ops nested in it) copies or commits on
    /// `queue`, or calls a function that may.
    fn issues_itself(&mut self, o: &OperationRef, queue: Option<i64>) -> bool {
        if ops::is(o, ops::COPY) || ops::is(o, ops::COMMIT_GROUP) {
            return queue.is_none_or(|q| attributes::queue(o) == q);
        }
        // An unknown callee may issue.
        crate::group_distance::unknown_call(o)
            || crate::group_distance::is_call(o) && {
                let (issuing, visible) = self.names.get_or_insert_with(|| {
                    let visible = crate::group_distance::functions(&ops::outermost(o))
                        .iter()
                        .filter_map(crate::group_distance::symbol_name)
                        .collect();
                    (issuing_functions(o), visible)
                });
                crate::group_distance::callee(o)
                    .is_none_or(|c| issuing.contains(&c) || !visible.contains(&c))
            }
    }
}

/// The symbol names of the functions of the module around `op` that copy
/// or commit, or call one that does (through any chain of calls, or a call
/// of an unknown function: [`crate::group_distance::functions_where`]).
fn issuing_functions(op: &OperationRef) -> FxHashSet<String> {
    crate::group_distance::functions_containing(op, &[ops::COPY, ops::COMMIT_GROUP])
}

/// Replaces each use of the results of the original loop by `values`,
/// and records each replacement in `replaced`.
fn replace_results(plan: &Plan, values: &[MlirValue], replaced: &mut Replaced) {
    // SAFETY: the loop is live.
    let loop_op = unsafe { OperationRef::from_raw(plan.loop_op) };
    for (j, &v) in values.iter().enumerate() {
        // SAFETY: `v` is live; the loop has one result per iter_arg.
        let with = unsafe { Value::from_raw(v) };
        let result = loop_op.result(j).unwrap();
        replaced.insert(key(result.to_raw()), v);
        rewrite::replace_all_uses_with(result.into(), with);
    }
}

/// The results of the transformed loops (by [`key`]: they are erased, and
/// their addresses may be reused) and the values that replaced them.
pub(crate) type Replaced = FxHashMap<usize, MlirValue>;

/// The iteration a stage works on in the part being emitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Iteration {
    /// Iteration `i` (0-based; `-1` names the inits of the iter_args). An
    /// `i128`: a trip count reaches `2^64 - 1`.
    Absolute(i128),
    /// Iteration `N − m` (dynamic epilogue).
    FromEnd(i64),
    /// Iteration `t + o`, `t` the steady-state loop counter.
    Kernel(i64),
}

impl Iteration {
    /// The iteration before this one (whose yield feeds its iter_args).
    fn previous(self) -> Self {
        match self {
            Iteration::Absolute(i) => Iteration::Absolute(i - 1),
            Iteration::FromEnd(m) => Iteration::FromEnd(m + 1),
            Iteration::Kernel(o) => Iteration::Kernel(o - 1),
        }
    }
}

/// Inserts `op` right before the live op `before`; returns it.
///
/// # Safety
/// `before` must be a live op in a block.
unsafe fn insert_before(before: MlirOperation, op: melior::ir::Operation) -> MlirOperation {
    let before = OperationRef::from_raw(before);
    before
        .block()
        .expect("an op in a block")
        .insert_operation_before(before, op)
        .to_raw()
}

#[derive(Clone, Copy)]
enum Point {
    Before(MlirOperation),
    End(MlirBlock),
}

#[derive(Default)]
struct PartCache {
    index: FxHashMap<Iteration, MlirValue>,
    induction: FxHashMap<Iteration, MlirValue>,
    version: FxHashMap<(Iteration, i64), MlirValue>,
}

struct Emitter<'c, 'p> {
    context: &'c Context,
    plan: &'p Plan,
    location: Location<'c>,
    /// Constants go before this op (the original loop): they dominate
    /// everything that is emitted.
    anchor: MlirOperation,
    constants: FxHashMap<i64, MlirValue>,
    /// (value key, iteration) -> the value of that iteration.
    table: FxHashMap<(usize, Iteration), MlirValue>,
    point: Point,
    /// Buffer key -> (index in plan.buffers, expanded value).
    expanded: FxHashMap<usize, (usize, MlirValue)>,
    /// The trip count value (dynamic case).
    trip: Option<MlirValue>,
    kernel_counter: Option<MlirValue>,
    part: PartCache,
    /// The synchronization form emitted.
    sync: SyncForm,
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::Module;

    const TWO_STAGES: &str = r#"
func.func @f(%A: memref<64xf32>, %out: memref<16xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %ub = UPPER
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %ub step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    "apipe.copy"(%A, %buf, %off, %c0) {elements = 4 : i64, apipe.stage = 0 : i64} : (memref<64xf32>, memref<4xf32, 3>, index, index) -> ()
    %x = memref.load %buf[%c1] {apipe.stage = LOAD_STAGE : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = LOAD_STAGE : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}
"#;

    fn count(module: &Module, name: &str) -> usize {
        ops::nested_ops(&module.as_operation())
            .iter()
            .filter(|op| ops::is(*op, name))
            .count()
    }

    fn pipelined(upper: &str, load_stage: i64, sync: SyncForm) -> (String, usize, usize) {
        let context = apipe_dialect::create_context().unwrap();
        let text = TWO_STAGES
            .replace("UPPER", upper)
            .replace("LOAD_STAGE", &load_stage.to_string());
        let module = Module::parse(&context, &text).unwrap();
        let function = module.body().first_operation().unwrap();
        let for_op = ops::nested_ops(&function)
            .into_iter()
            .find(|op| ops::is(op, "scf.for"))
            .unwrap();
        let options = PipelineOptions {
            sync,
            ..PipelineOptions::default()
        };
        pipeline_for_loop(for_op, options).unwrap();
        assert!(module.as_operation().verify());
        let printed = module.as_operation().to_string();
        (
            printed,
            count(&module, ops::COPY),
            count(&module, "memref.load"),
        )
    }

    /// Static trip counts: every iteration is copied and consumed exactly
    /// once (copies/loads outside the kernel plus one per kernel body), and
    /// the kernel exists only when the count exceeds the last stage.
    #[test]
    fn each_static_trip_count_runs_each_stage_once_per_iteration() {
        for stages in 1..=3i64 {
            for n in 0..=6i64 {
                let (_, copies, loads) = pipelined(
                    &format!("arith.constant {n} : index"),
                    stages,
                    SyncForm::Tokens,
                );
                let kernel = i64::from(n > stages);
                // Prologue + epilogue emit the iterations the kernel does
                // not: all n when there is no kernel, else `stages` of each.
                let outside = if kernel == 1 { stages } else { n };
                assert_eq!(copies as i64, outside + kernel, "n={n} stages={stages}");
                assert_eq!(loads as i64, outside + kernel, "n={n} stages={stages}");
            }
        }
    }

    /// The library entry converts to counting form: no token is left and the
    /// kernel wait keeps one group pending per stage of distance.
    #[test]
    fn counting_form_has_exact_pending() {
        for stages in 1..=3i64 {
            let (printed, _, _) =
                pipelined("arith.constant 16 : index", stages, SyncForm::Counting);
            assert!(!printed.contains("!apipe.token"));
            assert!(!printed.contains("apipe.stage"));
            assert!(printed.contains(&format!("apipe.wait_group {stages}\n")));
        }
    }

    const SUM: &str = r#"
func.func @f(%A: memref<64xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant N : index
  %buf = memref.alloc() : memref<4xf32, 3>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
    "apipe.copy"(%A, %buf, %i, %c0) {elements = 4 : i64, apipe.stage = 0 : i64} : (memref<64xf32>, memref<4xf32, 3>, index, index) -> ()
    %x = memref.load %buf[%c1] {apipe.stage = STAGE : i64} : memref<4xf32, 3>
    %s = arith.addf %acc, %x {apipe.stage = STAGE : i64} : f32
    scf.yield %s : f32
  } {apipe.async_stages = array<i64: 0>}
  return %r : f32
}
"#;

    /// Loop-carried sums, static trip counts: one add per iteration outside
    /// the kernel (plus one in it), and the function returns the init when
    /// the loop never runs, else an add (the last iteration's sum) or the
    /// kernel's result.
    #[test]
    fn iter_args_each_static_trip_count_adds_once_per_iteration() {
        for stages in 1..=3i64 {
            for n in 0..=6i64 {
                let context = apipe_dialect::create_context().unwrap();
                let text = SUM
                    .replace("N :", &format!("{n} :"))
                    .replace("STAGE", &stages.to_string());
                let module = Module::parse(&context, &text).unwrap();
                software_pipeline(&module.as_operation(), PipelineOptions::default()).unwrap();
                assert!(module.as_operation().verify());
                let kernel = i64::from(n > stages);
                let outside = if kernel == 1 { stages } else { n };
                let adds = count(&module, "arith.addf") as i64;
                assert_eq!(adds, outside + kernel, "n={n} stages={stages}");
                let printed = module.as_operation().to_string();
                let returned = printed
                    .lines()
                    .find(|l| l.trim_start().starts_with("return"))
                    .unwrap()
                    .to_owned();
                if n == 0 {
                    assert!(returned.contains("return %arg1"), "{returned}");
                } else {
                    assert!(!returned.contains("%arg1"), "{returned}");
                }
            }
        }
    }

    /// The function's own token code, with a wait whose count depends on
    /// the path (strict tokens-to-counting refuses it), before the loop.
    const USER_TOKENS: &str = r#"
  %t = "apipe.commit_group"() {queue = 5 : i64} : () -> !apipe.token
  scf.if %c {
    "apipe.commit_group"() {queue = 5 : i64} : () -> ()
  }
  "apipe.wait"(%t) : (!apipe.token) -> ()
"#;

    /// A loop the pass refuses, or accepts, in a function that holds other
    /// token code: a refusal leaves the function exactly as it was, a
    /// success leaves that code as it was (only the emitted ops are in
    /// counting form).
    #[test]
    fn other_synchronization_is_left_alone() {
        for load_stage in ["0", "1"] {
            let context = apipe_dialect::create_context().unwrap();
            let text = TWO_STAGES
                .replace("%n: index)", "%n: index, %c: i1)")
                .replace("  %ub = UPPER\n", &format!("  %ub = UPPER\n{USER_TOKENS}"))
                .replace("UPPER", "arith.addi %n, %c0 : index")
                .replace("LOAD_STAGE", load_stage);
            assert!(text.contains("apipe.wait"));
            let module = Module::parse(&context, &text).unwrap();
            let before = module.as_operation().to_string();
            let result = software_pipeline(&module.as_operation(), PipelineOptions::default());
            let after = module.as_operation().to_string();
            if load_stage == "0" {
                assert!(result.is_err());
                assert_eq!(after, before);
            } else {
                assert!(result.is_ok());
                assert!(module.as_operation().verify());
                // The user's wait still names the user's token commit; no
                // other op is in token form.
                let all = ops::nested_ops(&module.as_operation());
                let waits: Vec<_> = all.iter().filter(|o| ops::is(*o, ops::WAIT)).collect();
                assert_eq!(waits.len(), 1, "{after}");
                let token = waits[0].operand(0).unwrap();
                let owner = melior::ir::operation::OperationResult::try_from(token)
                    .unwrap()
                    .owner();
                assert!(ops::is(&owner, ops::COMMIT_GROUP));
                assert_eq!(attributes::queue(&owner), 5);
                let token_commits = all
                    .iter()
                    .filter(|o| ops::is(*o, ops::COMMIT_GROUP) && o.result_count() > 0)
                    .count();
                assert_eq!(token_commits, 1, "{after}");
                assert!(count(&module, ops::WAIT_GROUP) > 0, "{after}");
            }
        }
    }

    /// A loop the pass refuses is left exactly as it was.
    #[test]
    fn failure_leaves_the_ir_unchanged() {
        let context = apipe_dialect::create_context().unwrap();
        // The load reads the buffer in the copy's own stage.
        let text = TWO_STAGES
            .replace("UPPER", "arith.addi %n, %c0 : index")
            .replace("LOAD_STAGE", "0");
        let module = Module::parse(&context, &text).unwrap();
        let before = module.as_operation().to_string();
        let result = software_pipeline(&module.as_operation(), PipelineOptions::default());
        assert!(result.is_err());
        assert_eq!(module.as_operation().to_string(), before);
    }

    /// A loop whose schedule would reverse a memory dependence (the store
    /// of iteration i writes what the copy of iteration i + 1 reads) is
    /// refused and left exactly as it was; with the store one element
    /// further on (disjoint from every later copy) it is pipelined.
    #[test]
    fn reversed_dependence_leaves_the_ir_unchanged() {
        for (offset, refused) in [("%c4", true), ("%c3", false)] {
            let context = apipe_dialect::create_context().unwrap();
            let text = TWO_STAGES
                .replace("UPPER", "arith.addi %n, %c0 : index")
                .replace("LOAD_STAGE", "1")
                .replace(
                    "    memref.store %x, %out[%i]",
                    &format!(
                        "    %w = arith.addi %off, {offset} {{apipe.stage = 1 : i64}} : index\n    memref.store %x, %A[%w] {{apipe.stage = 1 : i64}} : memref<64xf32>\n    memref.store %x, %out[%i]"
                    ),
                )
                .replace("%c4 = arith.constant 4 : index", "%c4 = arith.constant 4 : index\n  %c3 = arith.constant 3 : index");
            let module = Module::parse(&context, &text).unwrap();
            let before = module.as_operation().to_string();
            let result = software_pipeline(&module.as_operation(), PipelineOptions::default());
            if refused {
                assert!(result.is_err());
                assert_eq!(module.as_operation().to_string(), before);
            } else {
                assert!(result.is_ok(), "{text}");
                assert!(module.as_operation().verify());
                assert!(count(&module, ops::WAIT_GROUP) > 0);
            }
        }
    }
}
