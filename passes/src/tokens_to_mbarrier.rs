//! `apipe-tokens-to-mbarrier{slots=0 max-slots=16}`: token form to mbarrier
//! form (docs/mbarrier.md).
//!
//! Each group named by a token gets a slot of a ring of mbarriers in
//! workgroup memory: group j of queue q (the (j+1)-th commit on q) arms slot
//! `j mod K_q` for the phase `j div K_q`, and a wait on its token waits for
//! that slot's phase parity `(j div K_q) mod 2`. The wait names its group
//! directly, so it is exact on every path: no count, nothing younger.
//! This is what CUTLASS's `PipelineState {index, phase, count}` carries by
//! hand; here each token becomes its group's count j (an `index`), and the
//! count of every queue travels through `scf.for` iter_args and `scf.if`
//! results, from which slot and parity follow: `j & (K - 1)` and
//! `(j & K) != 0` when K is a power of two, `arith.remui j, K` and
//! `((j div K) & 1) != 0` for any other K >= 1 (`slots=3` is as exact as
//! `slots=4`, with a division for a mask).
//!
//! Algorithm, per function:
//! 1. plan every function before touching the IR ([`plan::plan_function`],
//!    which reads the shared group-distance analysis): the ring size K_q
//!    from the token window, the run-time guards, the acquires; refuse a
//!    device function, a `gpu.launch` body, a `wait_group` (counting form),
//!    in a kernel a commit under thread-dependent control flow, and a host
//!    function that may return with a group in flight when a `wait_group`
//!    may run after it ([`waited_after_return`]: its ring is its own stack
//!    memory, so no wait could complete the group), each with a located
//!    error (and change nothing);
//! 2. check that every token value can be replaced
//!    ([`token_values::check_removable`]: tokens live only in waits and
//!    structured control flow);
//! 3. retype every token value to `index` in place;
//! 4. at the start of the function, one ring `memref<K_q x i64, 3>` per
//!    queue: a workgroup attribution of a kernel (thread (0, 0, 0)
//!    initialises it with the block size as the arrival count, then a
//!    `gpu.barrier`), or a `memref.alloca` of a host function (arrival
//!    count 1); each queue's count starts at 0;
//! 5. in program order: a commit on q with count c becomes (the acquire
//!    `apipe.mbarrier_wait` on slot `c mod K` for the previous parity, when
//!    planned) `apipe.mbarrier_arrive_copies` on slot `c mod K`; its token
//!    becomes c and the count becomes c + 1. An `apipe.ready` token becomes
//!    [`rewrite::READY_COUNT`]. A wait becomes one `apipe.mbarrier_wait` per
//!    token j on slot `j mod K` with parity `(j div K) mod 2`, inside
//!    `scf.if (count - j <= K)` where planned; it keeps the wait's other
//!    attributes. Tokens that name no group on any path need no wait;
//! 6. an `scf` op whose regions commit on a queue carries that queue's
//!    count: `scf.for` as an iter_arg, `scf.while` through its region
//!    arguments, `scf.condition` and yield, `scf.if` / `scf.index_switch` /
//!    `scf.execute_region` as a result (an `scf.if` without `else` gets one
//!    yielding the count unchanged);
//! 7. in a kernel, the `gpu.barrier` right after a wait is removed where it
//!    orders nothing else ([`barriers`]: the wait covers read-after-write
//!    across threads; the barrier stays where a later copy may overwrite
//!    data read after it, or a plain write needs it).
//!
//! Invariants: at every point, the count of q is the number of groups
//! committed on q so far, and a token's value is the count of its group
//! (or [`rewrite::READY_COUNT`]). A slot is re-armed only after its
//! previous group is complete in the arming thread (acquire), so an
//! arrival always counts on the phase of its own group, and a wait on
//! group j never finds its slot two phases ahead: when j's slot is
//! re-armed, j is complete, and the guard (or the token window, when the
//! distance is provably below K) skips the wait.
//!
//! Read-after-write across threads is covered by the wait itself: the
//! phase completes only once every thread of the block has arrived, each
//! arrival after its thread's copies landed, and the wait acquires their
//! data. Write-after-read (a copy into a buffer that other threads may
//! still read) keeps its barrier: the pass leaves every other `gpu.barrier`
//! of the program where it is (docs/mbarrier.md, "Write after read").
//!
//! Citations: PTX ISA 9.7.13.15 ("mbarrier": phases, arrival counts,
//! `mbarrier.test_wait.parity`), 9.7.13.15.15 (`cp.async.mbarrier.arrive`);
//! CUTLASS `cutlass/pipeline/sm90_pipeline.hpp` (`PipelineState`, the
//! producer's acquire before it reuses a stage).

pub mod barriers;
pub mod divergence;
pub mod plan;
pub mod rewrite;

use crate::{
    group_distance::{self, Options as DistanceOptions},
    pass::{OptionInfo, OptionKind, PassInfo, PassOptions, RunFn},
    token_values,
};
use apipe_dialect::{ops, Reported};
use melior::{
    ir::{operation::OperationLike, OperationRef},
    pass::Pass,
};
pub use plan::{FunctionKind, FunctionPlan, Options, TokenWait};

/// The registry entry of `apipe-tokens-to-mbarrier`.
pub static INFO: PassInfo = PassInfo {
    argument: "apipe-tokens-to-mbarrier",
    name: "ApipeTokensToMbarrier",
    summary: "Replace token waits by waits on the mbarrier slot and phase of each group (exact on every path)",
    options: &[
        OptionInfo {
            name: "slots",
            kind: OptionKind::IntIn(0, 1 << 16),
            description: "slots per queue, any K >= 1 (0, the default: the smallest power of two above the token window, at least 2)",
        },
        OptionInfo {
            name: "max-slots",
            kind: OptionKind::IntIn(1, 1 << 16),
            description: "the largest ring the token window may ask for (default 16)",
        },
    ],
    run: run as RunFn,
    dependent_dialects: crate::pass::sync_rewrite_dialects,
    reads_only: false,
    follows_calls: false,
};

/// Creates the `apipe-tokens-to-mbarrier` pass with the default options.
pub fn create_tokens_to_mbarrier_pass() -> Pass {
    INFO.create("").expect("no options")
}

fn run(op: OperationRef, options: &PassOptions) -> Result<(), Reported> {
    // In range: MLIR rejects other values when it parses the pipeline
    // (`OptionKind::IntIn`).
    let slots = options.int("slots", 0);
    let max_slots = options.int("max-slots", 16);
    tokens_to_mbarrier(
        op,
        Options {
            slots: slots as u64,
            max_slots: (max_slots as u64).next_power_of_two(),
        },
    )
}

/// Plans every function in `root` (step 1). Errors are emitted.
///
/// # Errors
/// [`Reported`] after located errors.
pub fn plan<'c, 'a>(
    root: OperationRef<'c, 'a>,
    options: Options,
) -> Result<Vec<FunctionPlan<'c, 'a>>, Reported> {
    let mut ok = true;
    for op in ops::self_and_nested_ops(&root) {
        if ops::is(&op, ops::WAIT) && group_distance::enclosing_function(op).is_none() {
            apipe_dialect::diagnostic::error(
                op.location(),
                "'apipe.wait' op outside a function: groups are counted per function",
            );
            ok = false;
        }
    }
    // Nested under `func.func`, sibling functions may be converted in
    // parallel: do not read them.
    let function_only = group_distance::is_function(&root);
    let committing_functions = (!function_only).then(|| {
        // A callee that waits matters too: its `wait_group` completes no
        // mbarrier group once converted (trial 25).
        std::rc::Rc::new(group_distance::functions_containing(
            &root,
            &[ops::COMMIT_GROUP, ops::WAIT_GROUP, ops::WAIT],
        ))
    });
    let waited = waited_after_return(&root);
    let mut plans = Vec::new();
    for function in group_distance::functions(&root) {
        let distance_options = DistanceOptions {
            function_only,
            committing_functions: committing_functions.clone(),
            ..DistanceOptions::default()
        };
        match plan::plan_function(function, &distance_options, options, waited(&function)) {
            Ok(Some(plan)) => plans.push(plan),
            Ok(None) => {}
            Err(refusals) => {
                for refusal in &refusals {
                    refusal.emit();
                }
                ok = false;
            }
        }
    }
    if ok {
        Ok(plans)
    } else {
        Err(Reported)
    }
}

/// Whether a `wait_group` may run after a function of `root` returns, in
/// its caller or a function called later: in the module, when the module
/// has a `wait_group` and something calls the function or takes its
/// address; under `func.func` (the callers are not visible), always.
pub fn waited_after_return<'c: 'a, 'a>(
    root: &OperationRef<'c, 'a>,
) -> impl Fn(&OperationRef<'c, 'a>) -> bool {
    let function_only = group_distance::is_function(root);
    let nested = ops::nested_ops(root);
    let waits = nested.iter().any(|op| ops::is(op, ops::WAIT_GROUP));
    let entered: rustc_hash::FxHashSet<String> = if function_only || !waits {
        Default::default()
    } else {
        nested
            .iter()
            .filter_map(|op| {
                group_distance::callee(op).or_else(|| group_distance::address_taken(op))
            })
            .collect()
    };
    move |function| {
        function_only
            || waits && group_distance::symbol_name(function).is_some_and(|n| entered.contains(&n))
    }
}

/// Converts every function in `root` (a module or a function-like op) from
/// token form to mbarrier form. On failure the IR is unchanged and located
/// errors have been emitted.
///
/// # Errors
/// [`Reported`] after located errors.
pub fn tokens_to_mbarrier(root: OperationRef, options: Options) -> Result<(), Reported> {
    // 1.-2.
    let plans = plan(root, options)?;
    if !token_values::check_removable(&root) {
        return Err(Reported);
    }
    // 3.-6.
    for plan in &plans {
        rewrite::rewrite(plan);
    }
    // 7.
    for plan in &plans {
        if plan.kind == FunctionKind::Kernel {
            barriers::drop_after_waits(plan.function);
        }
    }
    Ok(())
}
