//! `apipe-check-hazards`: the static hazard check, a pass/fail gate for the
//! synchronization of asynchronous copies. It does not change the IR.
//!
//! Semantics (of the apipe dialect, after PTX `cp.async`): an `apipe.copy`
//! reads its `src` and writes its `dst` at one moment between its issue and
//! the completion of its group; groups of a queue complete in FIFO order;
//! `wait_group {pending = N}` completes every group of its queue but the
//! newest N, `wait %t` the named group and the older ones, for the waiting
//! thread only; in a `gpu.func` a `gpu.barrier` after the wait makes the data
//! visible to the other threads. What an op reads and writes comes from
//! MLIR's memory effects ([`crate::access`]).
//!
//! Hazard classes ([`HazardKind`]):
//! - read-after-write: a read (a plain read, a call passed the buffer, an
//!   `apipe.copy` reading its source) of a region a copy in flight writes;
//! - write-after-read: a write (a plain write, a free, an `apipe.copy` into
//!   its destination) of a region a copy in flight reads;
//! - write-after-write: a write of a region a copy in flight writes (two
//!   copies in flight into the same elements, or a store the copy may erase);
//! - missing barrier, read side: in a `gpu.func` (or a `gpu.launch` body, or
//!   a function that uses thread ids or barriers), a read of data other
//!   threads copied, complete for them, with no `gpu.barrier` since their
//!   wait;
//! - missing barrier, write side: an `apipe.copy` into data other threads
//!   read with no `gpu.barrier` since, or a write into data other threads'
//!   copies may still write;
//! - races between threads (read-after-write, write-after-read,
//!   write-after-write between threads): in a `gpu.func`, two accesses of
//!   different threads to overlapping bytes, one of them an async copy in
//!   flight (its destination is written, its source read, from its issue
//!   until its group completes in the issuing thread), with no
//!   `gpu.barrier` ordering them after that completion. A wait completes
//!   only the waiting thread's copies, so two threads' copies in flight are
//!   never ordered: the same `apipe.copy` run by every thread must write
//!   disjoint bytes in distinct threads (or equal values: the same source
//!   at the same distance from the destination in every thread), and a
//!   copy over (or from) bytes another thread wrote needs a barrier after
//!   that write. Messages give thread ids that meet.
//! - divergent barrier: a `gpu.barrier` under control flow that depends on
//!   the thread id, which some threads of the block may skip ([`barriers`]).
//!
//! Each is a located error at the access with notes: at the copy (issued in
//! which iteration, how many newer groups are committed), at the wait that
//! leaves it in flight with the `pending` that would complete it, and at the
//! loop or branch that decides the path. A hazard that rests only on two
//! different buffers that may alias (two arguments) is a remark, and is not
//! reported for plain writes.
//!
//! # Algorithm: abstract interpretation of the copies in flight, per function
//! 1. The group-distance analysis of the function (its token facts, and its
//!    refusals of commits it cannot follow).
//! 2. The state before each op is the set of copy instances that may be in
//!    flight: the copy, its `src` and `dst` regions, the groups committed on
//!    its queue since its issue (a count `[base, base + slack]`, `base`
//!    affine in loop iterations), the constraints under which it exists
//!    (its issue context, path conditions), and in a `gpu.func` whether it is
//!    complete for its thread but not yet behind a barrier; plus, in a
//!    `gpu.func`, the reads of shared data and the writes of workgroup or
//!    global memory (not thread-private) not yet behind a barrier. Regions
//!    are forms of the values in scope ([`crate::access::values`]): a loop
//!    induction variable is `lb + step * τ_L`.
//! 3. Transfer: an access (by its memory effects) is checked against every
//!    instance (classes above; the regions meet under the point's context
//!    and the instance's constraints, [`crate::access::overlap`]; in a
//!    `gpu.func` an overlap only with another thread's instance is a race
//!    between threads); a copy is checked as a read of `src` and a write of
//!    `dst`, in a `gpu.func` also against the reads and (workgroup or global) writes of
//!    other threads with no barrier since and against itself run by another
//!    thread, then added uncommitted; a commit adds one group to its queue's instances and
//!    closes the uncommitted ones; `wait_group {pending = N}` completes the
//!    instances with more than N groups since them (an iteration-dependent
//!    count splits: in flight under `count <= N`); a `wait` on a token does
//!    the same with the token's group distance, and completes the copies its
//!    commit op closed and those whose group (or a newer one) the token
//!    names on every path on which they are in flight ([`names`]: a token
//!    yielded with `apipe.ready` on another branch, or carried past an
//!    optional commit, still names its copy's group exactly); `gpu.barrier` drops what was complete and the reads.
//! 4. `scf.if` / `scf.index_switch` / `scf.execute_region`: each region from
//!    the same state; what each leaves is constrained by its condition
//!    (`%c` holds, `x = case`, the default's range), then joined: instances
//!    of the same copy and regions merge, their counts as a hull, their
//!    constraints intersected; but counts that differ on paths excluding
//!    each other by an `i1` condition (`%c` holds on one, fails on the
//!    other) stay apart, up to 4 per copy, so that a later branch on `%c`
//!    sees each (a path where `%c` both holds and fails is dropped; at a
//!    back edge, constraints of two iterations on one value, or on one
//!    inner loop's trip count, are dropped first, and a count that names
//!    both iterations' trip counts keeps their bounds only, see
//!    `State::forget_collisions`). In a `gpu.func`, where the condition (or
//!    the switch operand) may differ between threads, the regions are
//!    exclusive for one thread only: each region's accesses are also
//!    checked against the copies other threads issue in the other regions,
//!    in flight at any moment (races between threads).
//! 5. `scf.for`: instances from before the loop see `base + per * τ_L` in
//!    iteration `τ_L` (`per`: the groups one iteration commits); the header
//!    is the join of the entry and the back edge (`τ_L -> τ_L - 1`, values
//!    defined in the body stale), iterated to a fixed point (waits bound the
//!    instances in flight, so it is reached within a few rounds; otherwise
//!    carried instances are summarized over their iteration after 6 rounds, their
//!    regions after 16; more rounds before widening where the function keeps
//!    more groups in flight, but only in loops that issue copies or close
//!    groups, and at most `T + 2` for a static trip count `T`; and one work
//!    budget per function, past which every loop widens at once, bounds
//!    nested fixed points). Two cases converge at once: in a loop with no
//!    commit, wait or barrier what enters it holds in every iteration (no
//!    "first iteration only" bound, which would grow by one per round); in
//!    a loop with no `gpu.barrier` the reads of earlier iterations are
//!    summarized as issued in some `σ <= τ_L - 1` from the first round
//!    (exact: no barrier clears them). Nested loops so cost a bounded
//!    number of passes over each body per enclosing round. The exit is the end of the body at `τ_L = T_L - 1`
//!    (no zero-trip path for a static trip count), joined with the entry
//!    under "no iteration" for a dynamic one. `scf.while`: the same with
//!    `τ_W` the back edges taken (its `before` arguments' `x + c`
//!    recurrences are forms of it, its `after` arguments what
//!    `scf.condition` passes, and the `after` region runs where the
//!    condition holds), exiting after its `before` region where the
//!    condition fails, at an unknown `τ_W`.
//!
//! The mbarrier form (docs/mbarrier.md) first goes through [`mbarrier`]:
//! it proves every wait's phase reached on every path and every arrive on
//! its ring's next slot, after the previous group of that slot completed
//! (else located errors), and says which copies each wait completes. The
//! walk then treats every `apipe.mbarrier_arrive_copies` as the commit of
//! one queue (the arrive tracks every earlier copy of the thread) and each
//! `apipe.mbarrier_wait` as completing its group's copies for every thread
//! (no barrier needed after it); reads stay pending until a `gpu.barrier`,
//! so write-after-read across threads is still checked.
//!
//! Loops that still carry pipelining annotations (`apipe.stage`,
//! `apipe.async_stages`) are inputs of `apipe-software-pipeline`, which
//! places their synchronization: they are not checked.
//!
//! # Invariants
//! - Soundness: every copy that may be in flight at a point on some path is
//!   covered by an instance of the state there (joins are unions, counts
//!   are lower bounds, constraints are only dropped, never invented), so a
//!   hazard that happens on some execution is reported.
//! - Exactness where the counts are uniform (the same number of groups on
//!   every path, as the pipeliner commits) and the regions are affine in the
//!   iterations with `mod V` versions: no hazard is reported that no
//!   execution has.
//! - Linear in the size of the function for a bounded loop depth: each op
//!   is visited a bounded number of times per round, and rounds are bounded.
//!
//! Preconditions: the IR verifies; the group-distance analysis accepts each
//! function (its errors are reported as they are).
//!
//! Citations: PTX ISA 9.7.9.25.3 (`cp.async`, `cp.async.commit_group`,
//! `cp.async.wait_group`: per-thread completion, a barrier for other
//! threads), RFC 0077 "Asynchronous stage in software pipeline" sections
//! "Inter-stage synchronization" and "Multi-buffering" (versions `iv mod V`),
//! MLIR `scf.for`, `scf.if`, `gpu.barrier` (SCFOps.td, GPUOps.td),
//! `MemoryEffectOpInterface` (SideEffectInterfaces.td).

mod barriers;
mod classes;
mod mbarrier;
mod names;
mod report;
mod state;
mod walk;

pub use report::{Hazard, HazardKind};

use crate::{
    group_distance,
    pass::{PassInfo, PassOptions, RunFn},
};
use apipe_dialect::{
    diagnostic::{self, Severity},
    Reported,
};
use melior::{
    ir::{operation::OperationLike, BlockLike, OperationRef, RegionLike},
    pass::Pass,
};

/// The registry entry of `apipe-check-hazards`.
pub static INFO: PassInfo = PassInfo {
    argument: "apipe-check-hazards",
    name: "ApipeCheckHazards",
    summary: "Report hazards of async copies: uncovered reads (RAW), early overwrites (WAR), overlapping copies in flight (WAW) and missing barriers",
    options: &[],
    run: run as RunFn,
    dependent_dialects: Vec::new,
    reads_only: true,
    follows_calls: true,
};

/// Creates the `apipe-check-hazards` pass.
pub fn create_check_hazards_pass() -> Pass {
    INFO.create("").expect("no options")
}

fn run(op: OperationRef, _options: &PassOptions) -> Result<(), Reported> {
    check_hazards(&op)
}

/// Runs the check on every function in `root` and emits each hazard: an
/// error with its notes, or a remark when it rests only on buffers that may
/// alias. The IR is not changed.
///
/// A function the analysis refuses does not hide the hazards of the
/// others: they are emitted too, as `mlir-opt` reports every error of a
/// module.
///
/// # Errors
/// `Err(Reported)` if a hazard error was emitted or the group-distance
/// analysis refused a function (its errors are emitted).
pub fn check_hazards<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) -> Result<(), Reported> {
    let (hazards, analyzed) = find_all_hazards(root);
    let mut ok = analyzed.is_ok();
    for hazard in &hazards {
        let severity = if hazard.conservative {
            Severity::Remark
        } else {
            ok = false;
            Severity::Error
        };
        let notes: Vec<(melior::ir::Location, &str)> =
            hazard.notes.iter().map(|(l, m)| (*l, m.as_str())).collect();
        diagnostic::emit(hazard.at.location(), severity, &hazard.message, &notes);
    }
    if ok {
        Ok(())
    } else {
        Err(Reported)
    }
}

/// The hazards of every function in `root`, function by function, each in
/// the order the walk finds them.
///
/// # Errors
/// The group-distance analysis refused a function (errors emitted).
pub fn find_hazards<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
) -> Result<Vec<Hazard<'c, 'a>>, Reported> {
    let (hazards, analyzed) = find_all_hazards(root);
    analyzed.map(|()| hazards)
}

/// The hazards of every function in `root` that the analysis does not
/// refuse, function by function, each in the order the walk finds them;
/// and `Err(Reported)` if it refused a function (a call into GPU code, a
/// region of several blocks, a mbarrier form it cannot follow: errors
/// emitted, located).
pub fn find_all_hazards<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
) -> (Vec<Hazard<'c, 'a>>, Result<(), Reported>) {
    let mut out = Vec::new();
    let mut ok = true;
    let functions: Vec<Function> = group_distance::functions(root)
        .into_iter()
        .map(Function::of)
        .collect();
    // The functions that commit, that hold apipe ops, and that issue
    // copies, or may reach one that does through calls. Once for the
    // module, each op's name read once: per function it would make the
    // check quadratic in the number of functions.
    // SAFETY: `root` is live.
    let root_op = unsafe { OperationRef::from_raw(root.to_raw()) };
    let tests: [&dyn Fn(&str) -> bool; 3] = [
        &|name| name == apipe_dialect::ops::COMMIT_GROUP,
        &|name| name.starts_with("apipe."),
        &|name| name == apipe_dialect::ops::COPY || name == apipe_dialect::ops::BULK_COPY,
    ];
    let sets = if apipe_dialect::ops::outermost(&root_op) == root_op {
        let pairs: Vec<_> = functions
            .iter()
            .map(|f| (f.op, f.nested.as_slice()))
            .collect();
        group_distance::functions_where_named(&pairs, &tests)
    } else {
        // Nested in a larger op, its calls may reach the functions outside.
        group_distance::functions_above_where_named(&root_op, &tests)
    };
    let mut sets = sets.into_iter();
    let [committing, with_async, issuing]: [rustc_hash::FxHashSet<String>; 3] =
        std::array::from_fn(|_| sets.next().unwrap_or_default());
    let committing = std::rc::Rc::new(committing);
    // Calls resolved once, by symbol table (a module's `@k` and a
    // `gpu.module`'s `@k` are different functions).
    let calls = std::rc::Rc::new(resolve_calls(&functions));
    let indirect = std::rc::Rc::new(resolve_indirect_calls(&functions));
    let names: rustc_hash::FxHashMap<usize, String> = functions
        .iter()
        .filter_map(|f| Some((op_key(&f.op), group_distance::symbol_name(&f.op)?)))
        .collect();
    // Each function is checked on its own: a kernel that calls a function
    // with apipe ops would have that function's copies in flight, and
    // thread-dependent arguments in it, unseen. Refused at the call.
    // The functions refused at such a call: not walked (their hazards
    // would miss what the callee leaves in flight).
    let mut refused: rustc_hash::FxHashSet<usize> = Default::default();
    if !with_async.is_empty() {
        // Every call of the module once (a function nested in another,
        // a `gpu.launch`, lists its calls again), in the module's order.
        let mut seen = rustc_hash::FxHashSet::default();
        for call in functions
            .iter()
            .flat_map(|f| &f.links)
            .filter(|c| seen.insert(op_key(c)))
        {
            let through_value = group_distance::unknown_call(call);
            if !(group_distance::is_call(call) || through_value)
                || !apipe_dialect::ops::in_gpu_code(call)
            {
                continue;
            }
            // A call through a value may call any function whose address
            // is taken (trial 28); one that can reach no such function
            // with async ops is no call of them (trial 62: a kernel's
            // `func.call_indirect` was refused in a module without apipe
            // ops).
            let callee = if through_value {
                indirect
                    .get(&op_key(call))
                    .into_iter()
                    .flatten()
                    .filter_map(|f| names.get(f))
                    .any(|name| with_async.contains(name))
                    .then(|| "a function through a value, which may be one that".to_owned())
            } else {
                group_distance::callee(call)
                    .filter(|c| with_async.contains(c))
                    .map(|c| format!("@{c}, which"))
            };
            if let Some(callee) = callee {
                diagnostic::error(
                    call.location(),
                    &format!(
                        "'{}' op in GPU code calls {callee} has async copies, commits or waits, or calls a function that does: apipe-check-hazards checks each function on its own and does not follow them across a call (inline it)",
                        apipe_dialect::ops::name(call)
                    ),
                );
                if let Some(caller) =
                    apipe_dialect::ops::ancestors(call).find(apipe_dialect::ops::is_function)
                {
                    refused.insert(op_key(&caller));
                }
                ok = false;
            }
        }
    }
    let launches = std::rc::Rc::new(walk::launched_block_sizes(
        functions.iter().flat_map(|f| &f.launches),
    ));
    // The copies each function may return with in flight: its callers,
    // walked after it, take them in at the call ([`walk::Analysis`]).
    let mut leftovers: std::rc::Rc<walk::Leftovers<'c, 'a>> = Default::default();
    let ordered = callees_first(functions, &calls, &indirect);
    // A call of a function walked after its caller (a cycle of calls) that
    // may issue copies: the copies it returns with in flight are not known
    // when the caller is walked, so a read after the call would go
    // unchecked (trial 28: a missed read-after-write, in one order of the
    // functions only). Refused at the call.
    let position: rustc_hash::FxHashMap<usize, usize> = ordered
        .iter()
        .enumerate()
        .map(|(i, f)| (op_key(&f.op), i))
        .collect();
    for (i, function) in ordered.iter().enumerate() {
        for call in &function.links {
            for callee in callees_of(call, &calls, &indirect) {
                if position.get(callee).is_none_or(|&j| j < i) {
                    continue;
                }
                let name = names.get(callee).cloned().unwrap_or_default();
                if !issuing.contains(&name) {
                    continue;
                }
                diagnostic::error(
                    call.location(),
                    &format!(
                        "'{}' op {} @{name} in a cycle of calls, and @{name} may issue async copies: apipe-check-hazards does not follow the copies a function returns with in flight around a cycle of calls",
                        apipe_dialect::ops::name(call),
                        if calls.contains_key(&op_key(call)) {
                            "calls"
                        } else {
                            "may call (through a value)"
                        }
                    ),
                );
                refused.insert(op_key(&function.op));
                ok = false;
            }
        }
    }
    // The waits of each function, callees first (a call of a function whose
    // waits are known makes them there too); again until nothing changes,
    // so that in a cycle of calls the result does not depend on which
    // function of the cycle comes first (trial 26: a false alarm with one
    // order, none with the other). Waits only grow, one function at least
    // per round.
    let mut waits: rustc_hash::FxHashMap<usize, walk::CalleeWaits<'c, 'a>> = Default::default();
    for _ in 0..=ordered.len() {
        let mut changed = false;
        for f in &ordered {
            let found = walk::callee_waits(&f.op, &calls, &waits);
            if found.as_ref() != waits.get(&op_key(&f.op)) {
                changed = true;
                match found {
                    Some(w) => waits.insert(op_key(&f.op), w),
                    None => waits.remove(&op_key(&f.op)),
                };
            }
        }
        if !changed {
            break;
        }
    }
    let callee_waits = std::rc::Rc::new(waits);
    let device = device_functions(&ordered, &calls);
    for Function {
        op: function,
        nested,
        links,
        ..
    } in ordered
    {
        if refused.contains(&op_key(&function)) {
            continue;
        }
        // The walk and the mbarrier analysis follow structured control
        // flow only: an apipe op in a region of several blocks (`cf.br` /
        // `cf.cond_br`, in the function or an `scf.execute_region`), or
        // nested in an op of such a region, would go unseen. Refused, with
        // or without copies (a wait on a ring can deadlock on its own).
        if let Some(op) = nested.iter().find(|op| {
            apipe_dialect::ops::is_apipe(*op)
                && std::iter::once(**op)
                    .chain(apipe_dialect::ops::ancestors(op))
                    .take_while(|o| *o != function)
                    .any(|o| {
                        o.block()
                            .and_then(|b| b.parent_region())
                            .and_then(|r| r.first_block())
                            .is_some_and(|b| b.next_in_region().is_some())
                    })
        }) {
            diagnostic::error(
                op.location(),
                &format!(
                    "'{}' op in a region of several blocks: apipe-check-hazards follows async copies, commits and waits only through structured control flow (scf)",
                    apipe_dialect::ops::name(op)
                ),
            );
            ok = false;
            continue;
        }
        // Host code runs on one thread: no barrier of it can diverge
        // (trial 56: a loop of barriers in a host function, pipelined with
        // `barriers=conservative`, was a false divergent barrier).
        if device.contains(&op_key(&function)) {
            out.extend(barriers::divergent_barriers(&function, &nested));
        }
        // The mbarrier form (docs/mbarrier.md): its waits name (slot,
        // phase); `mbarrier` proves each reached and says which copies it
        // completes, for the walk.
        let facts = if mbarrier::in_mbarrier_form(&nested) {
            let launched = walk::threads::launch_name(&function)
                .is_some_and(|name| launches.contains_key(&name));
            let used = walk::dimensions_used(&function, &launches);
            match mbarrier::analyze(function, used, launched) {
                Ok(facts) => {
                    // Waits for a completed phase: hazards of their own;
                    // the walk names the reads they expose. So do arrives
                    // that reuse their slot too early.
                    out.extend(facts.stale_hazards(&nested));
                    Some(facts)
                }
                Err(Reported) => {
                    ok = false;
                    continue;
                }
            }
        } else {
            None
        };
        let has_copy = nested.iter().any(|op| {
            apipe_dialect::ops::is(op, apipe_dialect::ops::COPY)
                || apipe_dialect::ops::is(op, apipe_dialect::ops::BULK_COPY)
        });
        // A function without copies still returns with those of the
        // functions it calls.
        let calls_leaving = || {
            links
                .iter()
                .any(|op| callees_of(op, &calls, &indirect).any(|c| leftovers.contains_key(c)))
        };
        // A kernel without copies still has its threads' plain accesses
        // of workgroup memory to order by barriers.
        let kernel = apipe_dialect::ops::is(&function, "gpu.func")
            || apipe_dialect::ops::is(&function, "gpu.launch");
        if !has_copy && !calls_leaving() && !kernel {
            continue;
        }
        // Region ops other than scf's are walked once, or not at all: an
        // async op or a barrier in a loop of another kind (`affine.for`,
        // `scf.parallel`, `scf.forall`, ...) would be checked for one
        // iteration only (trial 17: missed hazards across iterations of
        // `affine.for` and `scf.parallel`). Refused.
        if let Some((op, parent)) = nested.iter().find_map(|op| {
            if !(apipe_dialect::ops::is_apipe(op) || apipe_dialect::ops::is(op, "gpu.barrier")) {
                return None;
            }
            let mut at = op.parent_operation();
            while let Some(parent) = at {
                if parent == function {
                    return None;
                }
                let name = apipe_dialect::ops::name(&parent);
                if !matches!(
                    name,
                    "scf.for"
                        | "scf.while"
                        | "scf.if"
                        | "scf.index_switch"
                        | "scf.execute_region"
                        | "memref.alloca_scope"
                        | "affine.if"
                        | "gpu.launch"
                ) {
                    return Some((*op, parent));
                }
                at = parent.parent_operation();
            }
            None
        }) {
            diagnostic::error(
                op.location(),
                &format!(
                    "'{}' op inside '{}': apipe-check-hazards follows async copies, commits, waits and barriers only through scf.for, scf.while, scf.if, scf.index_switch and scf.execute_region (lower the loop to scf.for first: --lower-affine does for affine.for)",
                    apipe_dialect::ops::name(&op),
                    apipe_dialect::ops::name(&parent)
                ),
            );
            ok = false;
            continue;
        }
        match walk::Analysis::new(function, &nested, &committing, launches.clone()) {
            Ok(mut analysis) => {
                analysis.mbarrier = facts;
                analysis.leftovers = std::rc::Rc::clone(&leftovers);
                analysis.calls = std::rc::Rc::clone(&calls);
                analysis.indirect = std::rc::Rc::clone(&indirect);
                analysis.callee_waits = std::rc::Rc::clone(&callee_waits);
                let (hazards, left) = analysis.run();
                out.extend(hazards);
                if !left.is_empty() {
                    std::rc::Rc::make_mut(&mut leftovers)
                        .insert(op_key(&function), (function, left));
                }
            }
            Err(Reported) => ok = false,
        }
    }
    (out, if ok { Ok(()) } else { Err(Reported) })
}

/// `functions` with each one after the functions it calls (depth-first,
/// callees first; a call back into a function still being ordered, a
/// recursion, is not followed), else in their order.
fn callees_first<'c: 'a, 'a>(
    functions: Vec<Function<'c, 'a>>,
    calls: &rustc_hash::FxHashMap<usize, usize>,
    indirect: &rustc_hash::FxHashMap<usize, Vec<usize>>,
) -> Vec<Function<'c, 'a>> {
    let keys: Vec<usize> = functions.iter().map(|f| op_key(&f.op)).collect();
    let callees = |k: usize| -> Vec<usize> {
        let mut found: Vec<usize> = functions[k]
            .links
            .iter()
            .flat_map(|op| callees_of(op, calls, indirect))
            .filter_map(|c| keys.iter().position(|f| f == c))
            .collect();
        found.dedup();
        found.reverse();
        found
    };
    let mut order = Vec::with_capacity(functions.len());
    let mut placed = vec![false; functions.len()];
    let mut open = vec![false; functions.len()];
    // (function, its callees not yet followed).
    let mut stack: Vec<(usize, Vec<usize>)> = Vec::new();
    for start in 0..functions.len() {
        if placed[start] {
            continue;
        }
        open[start] = true;
        stack.push((start, callees(start)));
        while let Some((k, pending)) = stack.last_mut() {
            let k = *k;
            match pending.pop() {
                Some(c) if !placed[c] && !open[c] => {
                    open[c] = true;
                    stack.push((c, callees(c)));
                }
                Some(_) => {}
                None => {
                    stack.pop();
                    placed[k] = true;
                    order.push(k);
                }
            }
        }
    }
    let mut slots: Vec<Option<_>> = functions.into_iter().map(Some).collect();
    order.into_iter().filter_map(|k| slots[k].take()).collect()
}

/// For every op with a `callee` in `functions` (a call): the key of the
/// function it calls, looked up in the call's nearest symbol table
/// (`builtin.module` or `gpu.module`; the same name may name a function of
/// each).
fn resolve_calls<'c: 'a, 'a>(
    functions: &[Function<'c, 'a>],
) -> rustc_hash::FxHashMap<usize, usize> {
    let by_name: rustc_hash::FxHashMap<(Option<usize>, String), usize> = functions
        .iter()
        .filter_map(|f| {
            Some((
                (table_of(&f.op), group_distance::symbol_name(&f.op)?),
                op_key(&f.op),
            ))
        })
        .collect();
    let mut out = rustc_hash::FxHashMap::default();
    for op in functions.iter().flat_map(|f| &f.links) {
        if let Some(name) = group_distance::callee(op) {
            if let Some(f) = by_name.get(&(table_of(op), name)) {
                out.insert(op_key(op), *f);
            }
        }
    }
    out
}

/// The functions (by [`op_key`]) the call `op` may call: its callee by
/// name ([`resolve_calls`]), or those a call through a value may reach
/// ([`resolve_indirect_calls`]); none for another op.
fn callees_of<'m>(
    op: &OperationRef,
    calls: &'m rustc_hash::FxHashMap<usize, usize>,
    indirect: &'m rustc_hash::FxHashMap<usize, Vec<usize>>,
) -> impl Iterator<Item = &'m usize> {
    let key = op_key(op);
    calls
        .get(&key)
        .into_iter()
        .chain(indirect.get(&key).into_iter().flatten())
}

/// The symbol table (by [`op_key`]) that `op` is in: its nearest
/// `builtin.module` or `gpu.module`.
fn table_of<'c: 'a, 'a>(op: &OperationRef<'c, 'a>) -> Option<usize> {
    apipe_dialect::ops::ancestors(op)
        .find(|p| {
            apipe_dialect::ops::is(p, "builtin.module") || apipe_dialect::ops::is(p, "gpu.module")
        })
        .map(|t| op_key(&t))
}

/// Per call through a value ([`group_distance::unknown_call`], by
/// [`op_key`]): the functions it may call, those of its symbol table whose
/// address the module takes (`func.constant`, `llvm.mlir.addressof`) and
/// whose entry block has one argument per operand after the callee value.
/// (A function value from outside the module, a function argument, is
/// not followed: apipe checks the callers it sees.)
fn resolve_indirect_calls<'c: 'a, 'a>(
    functions: &[Function<'c, 'a>],
) -> rustc_hash::FxHashMap<usize, Vec<usize>> {
    let mut out = rustc_hash::FxHashMap::default();
    let taken = addresses_taken(functions);
    if taken.is_empty() {
        return out;
    }
    // (table, arity, key) of each function whose address is taken.
    let candidates: Vec<(Option<usize>, usize, usize)> = functions
        .iter()
        .filter(|f| group_distance::symbol_name(&f.op).is_some_and(|n| taken.contains(&n)))
        .filter_map(|f| {
            let entry = apipe_dialect::ops::blocks_of(&f.op).into_iter().next()?;
            Some((table_of(&f.op), entry.argument_count(), op_key(&f.op)))
        })
        .collect();
    for op in functions
        .iter()
        .flat_map(|f| &f.links)
        .filter(|o| group_distance::unknown_call(*o))
    {
        let (table, arity) = (table_of(op), op.operand_count().saturating_sub(1));
        let reached: Vec<usize> = candidates
            .iter()
            .filter(|(t, n, _)| *t == table && *n == arity)
            .map(|(_, _, f)| *f)
            .collect();
        if !reached.is_empty() {
            out.insert(op_key(op), reached);
        }
    }
    out
}

/// The symbols whose address an op of `functions` takes
/// ([`group_distance::address_taken`]).
fn addresses_taken(functions: &[Function]) -> rustc_hash::FxHashSet<String> {
    functions
        .iter()
        .flat_map(|f| f.links.iter().filter_map(group_distance::address_taken))
        .collect()
}

/// The functions (by [`op_key`]) that may run on the threads of a block:
/// `gpu.func`s, `gpu.launch` bodies, the functions of a `gpu.module`, the
/// functions they call (through any chain of calls resolved by `calls`),
/// and every function whose address is taken (its callers are unknown).
/// The others are host code, which runs on one thread.
fn device_functions<'c: 'a, 'a>(
    functions: &[Function<'c, 'a>],
    calls: &rustc_hash::FxHashMap<usize, usize>,
) -> rustc_hash::FxHashSet<usize> {
    let address_taken = addresses_taken(functions);
    let mut device: rustc_hash::FxHashSet<usize> = functions
        .iter()
        .map(|f| &f.op)
        .filter(|f| {
            apipe_dialect::ops::is(*f, "gpu.func")
                || apipe_dialect::ops::is(*f, "gpu.launch")
                || apipe_dialect::ops::ancestors(f)
                    .any(|p| apipe_dialect::ops::is(&p, "gpu.module"))
                || group_distance::symbol_name(*f).is_some_and(|n| address_taken.contains(&n))
        })
        .map(op_key)
        .collect();
    let index: rustc_hash::FxHashMap<usize, usize> = functions
        .iter()
        .enumerate()
        .map(|(i, f)| (op_key(&f.op), i))
        .collect();
    let mut work: Vec<usize> = device.iter().copied().collect();
    while let Some(f) = work.pop() {
        let Some(function) = index.get(&f).map(|&i| &functions[i]) else {
            continue;
        };
        for op in &function.links {
            if let Some(&callee) = calls.get(&op_key(op)) {
                if device.insert(callee) {
                    work.push(callee);
                }
            }
        }
    }
    device
}

/// A function of the module ([`group_distance::functions`]: `func.func`,
/// `gpu.func`, a `gpu.launch` body, ...) with the ops of it that the check
/// reads more than once, collected in one pass.
struct Function<'c, 'a> {
    op: OperationRef<'c, 'a>,
    /// The ops nested in it, in pre-order ([`apipe_dialect::ops::nested_ops`]).
    nested: Vec<OperationRef<'c, 'a>>,
    /// Among them, those that call resolution reads: the ops that name a
    /// `callee` ([`group_distance::callee`]), the calls through a value
    /// ([`group_distance::unknown_call`]) and the ops that take a symbol's
    /// address ([`group_distance::address_taken`]).
    links: Vec<OperationRef<'c, 'a>>,
    /// Among them, the `gpu.launch_func`s.
    launches: Vec<OperationRef<'c, 'a>>,
}

impl<'c, 'a> Function<'c, 'a> {
    fn of(op: OperationRef<'c, 'a>) -> Self {
        let nested = apipe_dialect::ops::nested_ops(&op);
        let mut links = Vec::new();
        let mut launches = Vec::new();
        for inner in &nested {
            match apipe_dialect::ops::name(inner) {
                "gpu.launch_func" => launches.push(*inner),
                "func.call_indirect" | "func.constant" | "llvm.mlir.addressof" => {
                    links.push(*inner)
                }
                // `func.call`, `llvm.call` and any other op that names a
                // callee.
                _ if inner.has_attribute("callee") => links.push(*inner),
                // An `llvm.call` through a value has no `callee`.
                "llvm.call" => links.push(*inner),
                _ => {}
            }
        }
        Function {
            op,
            nested,
            links,
            launches,
        }
    }
}

/// The key of an op.
fn op_key(op: &OperationRef) -> usize {
    crate::access::values::op_key(op)
}

#[cfg(test)]
mod tests;
