//! Property tests of the counting ↔ token conversion against a brute-force
//! path enumerator, on random structured
//! programs: straight-line code, `scf.for` with static and dynamic bounds,
//! `scf.while`, `scf.if` with and without `else`, nested loops, one or two queues, tokens
//! in iter_args and if results.
//!
//! 1. counting → tokens → counting is the identity (strict: every count
//!    comes back exact, and the printed program is the same); only waits
//!    that are no-ops on every path vanish;
//! 2. every count from tokens-to-counting is ≤ the true minimum distance
//!    over the enumerated paths (loops unrolled 0-3 times);
//! 3. a count the analysis calls exact equals the distance on every
//!    enumerated path;
//! 4. after `apipe-merge-queues`, every wait still completes its group:
//!    its count is at most the merged distance on every enumerated path.

mod common;

use apipe_dialect::{attributes, ops};
use apipe_passes::{
    counting_to_tokens::counting_to_tokens,
    group_distance::GroupDistance,
    merge_queues::merge_queues,
    tokens_to_counting::{tokens_to_counting, wait_counts},
};
use common::{enumerate_paths, generate, to_mlir, Observations, Program, Rng, Shape};
use melior::{
    ir::{operation::OperationLike, BlockLike, Module, OperationRef},
    Context,
};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

fn context() -> Context {
    let context = apipe_dialect::create_context().expect("context");
    context.attach_diagnostic_handler(|_| true);
    context
}

/// `(tag, queue) -> pending` of every `wait_group`.
fn wait_groups(root: OperationRef) -> BTreeMap<(usize, u8), u64> {
    ops::nested_ops(&root)
        .iter()
        .filter(|op| ops::is(*op, ops::WAIT_GROUP))
        .map(|op| {
            let tag = attributes::integer(op, "tag").expect("tag") as usize;
            let queue = attributes::queue(op) as u8;
            let pending = attributes::integer(op, attributes::PENDING).unwrap() as u64;
            ((tag, queue), pending)
        })
        .collect()
}

fn shape(queues: u8, statements: usize, token_form: bool) -> Shape {
    Shape {
        statements,
        depth: 2,
        queues,
        token_form,
        max_trip: 3,
        window: 0,
    }
}

fn check_round_trip(program: &Program) -> Result<(), TestCaseError> {
    let context = context();
    let text = to_mlir(program);
    let module = Module::parse(&context, &text).expect("generated program parses");
    let root = module.as_operation();
    prop_assert!(root.verify(), "{text}");
    let before = wait_groups(root);
    let printed_before = root.to_string();
    prop_assert!(counting_to_tokens(root).is_ok(), "{text}");
    prop_assert!(root.verify(), "{text}");
    // Waits whose token names no group on any path (`ready`, possibly
    // through region results): nothing to wait for, they vanish.
    let function = module.body().first_operation().unwrap();
    let analysis = GroupDistance::compute(&function).expect("analysis");
    let mut dropped = BTreeSet::new();
    for op in ops::nested_ops(&function) {
        if ops::is(&op, ops::WAIT) {
            let tag = attributes::integer(&op, "tag").unwrap() as usize;
            let fact = analysis.token_fact(&op, op.operand(0).unwrap()).unwrap();
            if fact.groups.is_none() {
                dropped.insert((tag, fact.queue as u8));
            }
        }
    }
    prop_assert!(
        tokens_to_counting(root, true).is_ok(),
        "round trip not exact:\n{text}"
    );
    prop_assert!(root.verify(), "{text}");
    let after = wait_groups(root);
    let expected: BTreeMap<(usize, u8), u64> = before
        .iter()
        .filter(|(key, _)| !dropped.contains(*key))
        .map(|(k, v)| (*k, *v))
        .collect();
    prop_assert_eq!(&after, &expected, "{}", text);
    if dropped.is_empty() {
        // Nothing vanished: the very same program comes back.
        prop_assert_eq!(root.to_string(), printed_before);
    }
    // The dropped waits are no-ops on every enumerated path.
    let Some(observations) = enumerate_paths(program, 3, 100_000, false) else {
        return Ok(()); // Too many paths to enumerate: the counts were checked.
    };
    for key in &dropped {
        if let Some(observed) = observations.get(key) {
            prop_assert!(observed.distances.is_empty(), "{key:?} dropped:\n{text}");
        }
    }
    Ok(())
}

fn check_token_counts(program: &Program) -> Result<(), TestCaseError> {
    let context = context();
    let text = to_mlir(program);
    let module = Module::parse(&context, &text).expect("generated program parses");
    let root = module.as_operation();
    prop_assert!(root.verify(), "{text}");
    let function = module.body().first_operation().unwrap();
    let analysis = GroupDistance::compute(&function).expect("analysis");
    let Some(observations): Option<Observations> = enumerate_paths(program, 3, 100_000, false)
    else {
        return Err(TestCaseError::reject("too many paths to enumerate"));
    };
    let mut counted = BTreeMap::new();
    for wait in ops::nested_ops(&function) {
        if !ops::is(&wait, ops::WAIT) {
            continue;
        }
        let tag = attributes::integer(&wait, "tag").unwrap() as usize;
        for count in wait_counts(&analysis, wait).expect("every token followed") {
            let key = (tag, count.queue as u8);
            counted.insert(key, count.pending);
            let Some(observed) = observations.get(&key) else {
                continue; // Not reached on any enumerated path.
            };
            if let Some(&true_min) = observed.distances.first() {
                // 2. Safe.
                prop_assert!(
                    count.pending <= true_min,
                    "{key:?}: pending {} > true minimum {true_min}\n{text}",
                    count.pending
                );
                // 3. Exact means all paths agree.
                if count.exact {
                    prop_assert_eq!(
                        observed.distances.iter().copied().collect::<Vec<_>>(),
                        vec![count.pending],
                        "{:?} claimed exact\n{}",
                        key,
                        text
                    );
                }
            }
        }
    }
    // Every wait that names a group on some path keeps a count.
    for (key, observed) in &observations {
        if !observed.distances.is_empty() {
            prop_assert!(counted.contains_key(key), "{key:?} lost its wait\n{text}");
        }
    }
    // The pass writes those counts.
    prop_assert!(tokens_to_counting(root, false).is_ok(), "{text}");
    prop_assert!(root.verify(), "{text}");
    prop_assert_eq!(wait_groups(root), counted, "{}", text);
    Ok(())
}

/// `apipe-merge-queues` on a counting-form program of two queues: each
/// wait that completes a group on some path keeps (in its run of adjacent
/// waits) a count on queue 0 no larger than the merged distance of that
/// group on any enumerated path.
fn check_merge_queues(program: &Program) -> Result<(), TestCaseError> {
    let context = context();
    let text = to_mlir(program);
    let module = Module::parse(&context, &text).expect("generated program parses");
    let root = module.as_operation();
    prop_assert!(merge_queues(root).is_ok(), "{text}");
    prop_assert!(root.verify(), "{text}");
    let merged = wait_groups(root);
    prop_assert!(merged.keys().all(|(_, queue)| *queue == 0), "{text}");
    let Some(observations) = enumerate_paths(program, 3, 100_000, true) else {
        return Err(TestCaseError::reject("too many paths to enumerate"));
    };
    let mut runs = BTreeMap::new();
    common::wait_runs(&program.body, &mut runs);
    for ((tag, _), observed) in &observations {
        let Some(&true_min) = observed.merged_distances.first() else {
            continue; // A no-op wait on every enumerated path.
        };
        let covered = runs[tag]
            .iter()
            .filter_map(|t| merged.get(&(*t, 0)))
            .any(|&pending| pending <= true_min);
        prop_assert!(
            covered,
            "wait {tag}: merged distance {true_min}, counts {merged:?}\n{text}"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn counting_tokens_counting_is_identity(seed in any::<u64>(), queues in 1u8..=2, statements in 1usize..16) {
        let program = generate(&mut Rng::new(seed), shape(queues, statements, false));
        check_round_trip(&program)?;
    }

    #[test]
    fn merged_queue_counts_are_safe(seed in any::<u64>(), statements in 1usize..16) {
        let program = generate(&mut Rng::new(seed), shape(2, statements, false));
        check_merge_queues(&program)?;
    }

    #[test]
    fn token_counts_are_safe_and_exact_ones_are_true(seed in any::<u64>(), queues in 1u8..=2, statements in 1usize..16) {
        let program = generate(&mut Rng::new(seed), shape(queues, statements, true));
        check_token_counts(&program)?;
    }
}

/// The reference itself on a program whose answer is known by hand.
#[test]
fn enumerator_counts_a_dynamic_loop_by_hand() {
    use common::{Carried, Stmt, Trip};
    let program = Program {
        queues: 1,
        token_form: true,
        body: vec![
            Stmt::Commit {
                queue: 0,
                var: Some("%a".into()),
            },
            Stmt::For {
                trip: Trip::Dynamic,
                carried: vec![Carried {
                    arg: "%x".into(),
                    init: "%a".into(),
                    yielded: "%t".into(),
                    result: "%r".into(),
                }],
                body: vec![
                    Stmt::Commit {
                        queue: 0,
                        var: Some("%t".into()),
                    },
                    Stmt::Wait {
                        tag: 1,
                        tokens: vec!["%x".into()],
                    },
                ],
            },
            Stmt::Wait {
                tag: 2,
                tokens: vec!["%a".into()],
            },
            Stmt::Wait {
                tag: 3,
                tokens: vec!["%r".into()],
            },
        ],
    };
    let observations = enumerate_paths(&program, 3, 1000, false).unwrap();
    // In the loop: the previous group, one commit ago.
    assert_eq!(observations[&(1, 0)].distances, BTreeSet::from([1]));
    // After 0..=3 iterations, %a has 0..=3 groups after it.
    assert_eq!(
        observations[&(2, 0)].distances,
        BTreeSet::from([0, 1, 2, 3])
    );
    // The loop result is the newest group on every path.
    assert_eq!(observations[&(3, 0)].distances, BTreeSet::from([0]));
    // And the analysis agrees: exact 1, inexact 0, exact 0.
    let context = context();
    let text = to_mlir(&program);
    let module = Module::parse(&context, &text).unwrap();
    let function = module.body().first_operation().unwrap();
    let analysis = GroupDistance::compute(&function).unwrap();
    let mut seen = Vec::new();
    for wait in ops::nested_ops(&function) {
        if ops::is(&wait, ops::WAIT) {
            let count = wait_counts(&analysis, wait).unwrap()[0];
            seen.push((count.pending, count.exact));
        }
    }
    assert_eq!(seen, vec![(1, true), (0, false), (0, true)]);
}
