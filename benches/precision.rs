//! Precision and cost of `apipe-tokens-to-counting` and of `sync=auto`
//! (a benchmark, not a test).
//!
//! 1. Precision: over random token-form programs (straight-line code,
//!    `scf.for` with static and dynamic bounds, `scf.if` with and without
//!    `else`, nesting depth 2, one or two queues, tokens in iter_args and if
//!    results), each (wait, queue) that names a group on some path is judged
//!    against the brute-force path enumerator (loops unrolled 0-3 times):
//!    *exact* when the count equals the distance on every path, *unsafe*
//!    when it exceeds the distance on some path. Baseline: Triton's rule
//!    (a single token defined by a commit in the wait's own block: count the
//!    commits of that block in between, ignoring commits inside regions;
//!    anything else: 0).
//! 2. Cost: the group-distance analysis plus the rewrite on programs of
//!    1k-16k ops (tokens picked among the 8 newest, as a pipeliner's window),
//!    in microseconds per 1,000 ops; linear growth shows as a flat column.
//!
//! 3. `sync=auto` (`apipe-select-sync`): programs whose counts would not
//!    all be exact (or that commit on two queues) are converted to the
//!    mbarrier form, whose waits name their group's slot and phase; the
//!    others keep the counts of 1. Each converted program must verify and
//!    keep every wait's tag on its `apipe.mbarrier_wait`s.
//!
//! Run (debug build, as the tests; the figures are for that build):
//! `cargo test -p apipe-passes --bench precision`

#[path = "../passes/tests/common/mod.rs"]
mod common;

use apipe_dialect::{attributes, ops};
use apipe_passes::{
    group_distance::{GroupDistance, Options as DistanceOptions},
    select_sync::{inexact_reason, select_sync},
    tokens_to_counting::{tokens_to_counting, wait_counts},
};
use common::{enumerate_paths, generate, to_mlir, Rng, Shape};
use melior::ir::{operation::OperationLike, BlockLike, Module, OperationRef, ValueLike};
use std::{
    collections::BTreeMap,
    time::{Duration, Instant},
};

/// Triton's rule for the wait `wait` on queue `queue` (see the module doc).
fn triton_count(wait: &OperationRef, queue: i64) -> u64 {
    if wait.operand_count() != 1 {
        return 0;
    }
    let token = wait.operand(0).unwrap();
    // SAFETY: a live value; the owner of an op result is a live op.
    let commit = unsafe {
        if !mlir_sys::mlirValueIsAOpResult(token.to_raw()) {
            return 0;
        }
        OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(token.to_raw()))
    };
    if !ops::is(&commit, ops::COMMIT_GROUP)
        || attributes::queue(&commit) != queue
        || commit.block() != wait.block()
    {
        return 0;
    }
    let mut count = 0;
    let mut next = commit.next_in_block();
    while let Some(op) = next {
        if op == *wait {
            return count;
        }
        if ops::is(&op, ops::COMMIT_GROUP) && attributes::queue(&op) == queue {
            count += 1;
        }
        next = op.next_in_block();
    }
    0
}

#[derive(Default)]
struct Tally {
    judged: usize,
    exact: usize,
    unsafe_counts: usize,
}

impl Tally {
    fn add(&mut self, pending: u64, distances: &std::collections::BTreeSet<u64>) {
        self.judged += 1;
        if distances.iter().all(|&d| d == pending) {
            self.exact += 1;
        }
        if distances.first().is_some_and(|&min| pending > min) {
            self.unsafe_counts += 1;
        }
    }
}

fn precision(context: &melior::Context) {
    const PROGRAMS: u64 = 2000;
    let (mut ours, mut triton) = (Tally::default(), Tally::default());
    let mut claimed_exact = 0;
    let mut agreeing = 0;
    let mut skipped = 0;
    let mut claimed_exact_and_true = 0;
    // sync=auto: the judged waits of programs kept in counting form (judged
    // as `ours`) plus those of programs converted to the mbarrier form.
    let mut auto = Tally::default();
    let (mut to_mbarrier, mut mbarrier_waits, mut refused) = (0, 0, 0);
    for seed in 0..PROGRAMS {
        let mut rng = Rng::new(seed);
        let shape = Shape {
            statements: 4 + (seed % 13) as usize,
            depth: 2,
            queues: 1 + (seed % 2) as u8,
            token_form: true,
            max_trip: 3,
            window: 0,
        };
        let program = generate(&mut rng, shape);
        let Some(observations) = enumerate_paths(&program, 3, 200_000, false) else {
            skipped += 1;
            continue;
        };
        let text = to_mlir(&program);
        let module = Module::parse(context, &text).expect("parses");
        let function = module.body().first_operation().unwrap();
        let analysis = GroupDistance::compute(&function).expect("analysis");
        // sync=auto on a fresh copy: the mbarrier form where a count would
        // be inexact. Each converted wait must keep its tag on the
        // `apipe.mbarrier_wait`s that replace it (one per queue and token).
        let converted = {
            let copy = Module::parse(context, &text).expect("parses");
            let root = copy.as_operation();
            let wanted = inexact_reason(
                copy.body().first_operation().unwrap(),
                &DistanceOptions::default(),
            )
            .expect("analysis")
            .is_some();
            let done = wanted && select_sync(root, false).expect("select-sync") == 1;
            if wanted && !done {
                refused += 1;
            }
            if done {
                assert!(root.verify(), "the mbarrier form verifies:\n{root}");
                to_mbarrier += 1;
            }
            done.then(|| {
                ops::nested_ops(&root)
                    .iter()
                    .filter(|op| ops::is(*op, ops::MBARRIER_WAIT))
                    .filter_map(|op| attributes::integer(op, "tag"))
                    .map(|tag| tag as usize)
                    .collect::<std::collections::BTreeSet<usize>>()
            })
        };
        for wait in ops::nested_ops(&function) {
            if !ops::is(&wait, ops::WAIT) {
                continue;
            }
            let tag = attributes::integer(&wait, "tag").unwrap() as usize;
            let counts: BTreeMap<i64, _> = wait_counts(&analysis, wait)
                .unwrap()
                .into_iter()
                .map(|c| (c.queue, c))
                .collect();
            for ((observed_tag, queue), observed) in observations.range((tag, 0)..=(tag, u8::MAX)) {
                debug_assert_eq!(*observed_tag, tag);
                if observed.distances.is_empty() {
                    continue;
                }
                let queue = *queue as i64;
                let count = counts
                    .get(&queue)
                    .expect("a wait that names a group keeps a count");
                ours.add(count.pending, &observed.distances);
                match &converted {
                    // The wait names its group's slot and phase: exact on
                    // every path (what docs/mbarrier.md proves; the
                    // emulation tests check it).
                    Some(tags) => {
                        assert!(tags.contains(&tag), "wait {tag} kept in the mbarrier form");
                        auto.judged += 1;
                        auto.exact += 1;
                        mbarrier_waits += 1;
                    }
                    None => auto.add(count.pending, &observed.distances),
                }
                agreeing += usize::from(observed.distances.len() == 1);
                triton.add(triton_count(&wait, queue), &observed.distances);
                if count.exact {
                    claimed_exact += 1;
                    if observed.distances.len() == 1 {
                        claimed_exact_and_true += 1;
                    }
                }
            }
        }
    }
    let percent = |n: usize, d: usize| 100.0 * n as f64 / d.max(1) as f64;
    println!(
        "precision over {} random token-form programs ({} judged waits per queue; {skipped} \
         programs with too many paths skipped):",
        PROGRAMS - skipped,
        ours.judged
    );
    println!(
        "  apipe tokens-to-counting: exact {:>5} / {} = {:5.1}%   unsafe {}",
        ours.exact,
        ours.judged,
        percent(ours.exact, ours.judged),
        ours.unsafe_counts
    );
    println!(
        "  sync=auto:                exact {:>5} / {} = {:5.1}%   unsafe {}   ({to_mbarrier} \
         programs, {mbarrier_waits} judged waits in the mbarrier form; {refused} refused)",
        auto.exact,
        auto.judged,
        percent(auto.exact, auto.judged),
        auto.unsafe_counts
    );
    println!(
        "  Triton baseline rule:     exact {:>5} / {} = {:5.1}%   unsafe {}",
        triton.exact,
        triton.judged,
        percent(triton.exact, triton.judged),
        triton.unsafe_counts
    );
    println!(
        "  waits whose paths all agree (the most any count can get exact): {agreeing} = {:.1}%",
        percent(agreeing, ours.judged)
    );
    println!(
        "  counts the analysis calls exact: {claimed_exact} (all paths agree on {claimed_exact_and_true})"
    );
}

fn cost(context: &melior::Context) {
    println!("cost (best of 3; analysis + rewrite, parse excluded; debug build):");
    println!(
        "  {:>7} {:>8} {:>10} {:>14} {:>14}",
        "ops", "waits", "pass (ms)", "us / 1000 ops", "analysis (ms)"
    );
    for thousands in [1usize, 2, 4, 8, 16] {
        let mut rng = Rng::new(7);
        let shape = Shape {
            statements: 800 * thousands,
            depth: 2,
            queues: 2,
            token_form: true,
            max_trip: 3,
            window: 8,
        };
        let program = generate(&mut rng, shape);
        let text = to_mlir(&program);
        // The best of three runs (the machine is shared), each on a fresh
        // parse.
        let (mut analysis_time, mut elapsed) = (Duration::MAX, Duration::MAX);
        let (mut op_count, mut waits) = (0, 0);
        for _ in 0..3 {
            let module = Module::parse(context, &text).expect("parses");
            let function = module.body().first_operation().unwrap();
            let start = Instant::now();
            GroupDistance::compute(&function).expect("analysis");
            analysis_time = analysis_time.min(start.elapsed());
            let module = Module::parse(context, &text).expect("parses");
            let root = module.as_operation();
            let all = ops::nested_ops(&root);
            op_count = all.len();
            waits = all.iter().filter(|op| ops::is(*op, ops::WAIT)).count();
            let start = Instant::now();
            tokens_to_counting(root, false).expect("converts");
            elapsed = elapsed.min(start.elapsed());
        }
        println!(
            "  {:>7} {:>8} {:>10.2} {:>14.1} {:>14.2}",
            op_count,
            waits,
            elapsed.as_secs_f64() * 1e3,
            elapsed.as_secs_f64() * 1e6 / (op_count as f64 / 1000.0),
            analysis_time.as_secs_f64() * 1e3
        );
    }
}

fn main() {
    let context = apipe_dialect::create_context().expect("context");
    // Remarks for inexact counts are expected here; keep the output clean.
    context.attach_diagnostic_handler(|_| true);
    precision(&context);
    cost(&context);
}
