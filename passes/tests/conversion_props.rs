//! Property tests of the counting ↔ token conversion against a brute-force
//! path enumerator (issue 4, "Guarantees, tested"), on random structured
//! programs: straight-line code, `scf.for` with static and dynamic bounds,
//! `scf.if` with and without `else`, nested loops, one or two queues, tokens
//! in iter_args and if results.
//!
//! 1. counting → tokens → counting is the identity (strict: every count
//!    comes back exact); only waits that are no-ops on every path vanish;
//! 2. every count from tokens-to-counting is ≤ the true minimum distance
//!    over the enumerated paths (loops unrolled 0-3 times);
//! 3. a count the analysis calls exact equals the distance on every
//!    enumerated path.

mod common;

use apipe_dialect::{attributes, ops};
use apipe_passes::{
    counting_to_tokens::counting_to_tokens,
    group_distance::GroupDistance,
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
    }
}

fn check_round_trip(program: &Program) -> Result<(), TestCaseError> {
    let context = context();
    let text = to_mlir(program);
    let module = Module::parse(&context, &text).expect("generated program parses");
    let root = module.as_operation();
    prop_assert!(root.verify(), "{text}");
    let before = wait_groups(root);
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
    // The dropped waits are no-ops on every enumerated path.
    let observations = enumerate_paths(program, 3, 200_000);
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
    let observations: Observations = enumerate_paths(program, 3, 200_000);
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn counting_tokens_counting_is_identity(seed in any::<u64>(), queues in 1u8..=2, statements in 1usize..16) {
        let program = generate(&mut Rng::new(seed), shape(queues, statements, false));
        check_round_trip(&program)?;
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
    let observations = enumerate_paths(&program, 3, 1000);
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
