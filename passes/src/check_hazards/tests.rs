//! The checker against a naive reference: a sweep of multi-buffered loops
//! (versions, distances, waits) run on the semantic model directly.

use super::*;
use melior::ir::Module;

/// A multi-buffered loop: `versions` versions, the consumer `distance`
/// iterations after the producer (the prologue issues tiles
/// `0..distance`), waiting with `pending`; `trips` iterations (`None`: a
/// dynamic count, argument `%n`).
fn multi_buffered(versions: i64, distance: i64, pending: i64, trips: Option<i64>) -> String {
    let ty = format!("memref<{versions}x4xf32>");
    let upper = match trips {
        Some(_) => "%trips".to_owned(),
        None => "%n".to_owned(),
    };
    let mut text = format!(
        "func.func @f(%A: memref<64xf32>, %out: memref<16xf32>, %n: index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cD = arith.constant {distance} : index
  %cV = arith.constant {versions} : index
  %c4 = arith.constant 4 : index
  %trips = arith.constant {} : index
  %buf = memref.alloc() : {ty}
",
        trips.unwrap_or(0)
    );
    for p in 0..distance {
        text += &format!(
            "  %s{p} = arith.constant {} : index
  %v{p} = arith.constant {} : index
  \"apipe.copy\"(%A, %buf, %s{p}, %v{p}, %c0) {{elements = 4 : i64}} : (memref<64xf32>, {ty}, index, index, index) -> ()
  \"apipe.commit_group\"() : () -> ()
",
            4 * p,
            p % versions
        );
    }
    text += &format!(
        "  scf.for %j = %c0 to {upper} step %c1 {{
    %next = arith.addi %j, %cD : index
    %src = arith.muli %next, %c4 : index
    %vn = arith.remui %next, %cV : index
    \"apipe.copy\"(%A, %buf, %src, %vn, %c0) {{elements = 4 : i64}} : (memref<64xf32>, {ty}, index, index, index) -> ()
    \"apipe.commit_group\"() : () -> ()
    \"apipe.wait_group\"() {{pending = {pending} : i64}} : () -> ()
    %v = arith.remui %j, %cV : index
    %x = memref.load %buf[%v, %c1] : {ty}
    memref.store %x, %out[%j] : memref<16xf32>
  }}
  \"apipe.wait_group\"() {{pending = 0 : i64}} : () -> ()
  return
}}
"
    );
    text
}

/// The naive reference: runs the same program on the semantic model (FIFO
/// groups, `wait_group` completes all but the newest `pending`) and says
/// whether some read meets a copy of its version whose group is not
/// complete, for each trip count in `trips`.
fn reference_has_hazard(versions: i64, distance: i64, pending: i64, trips: &[i64]) -> bool {
    trips.iter().any(|&n| {
        let mut complete: Vec<bool> = Vec::new();
        let mut copies: Vec<(i64, usize)> = Vec::new();
        let mut issue = |version: i64, complete: &mut Vec<bool>| {
            copies.push((version, complete.len()));
            complete.push(false);
            copies.clone()
        };
        for p in 0..distance {
            issue(p % versions, &mut complete);
        }
        for j in 0..n {
            let copies = issue((j + distance) % versions, &mut complete);
            let groups = complete.len();
            for done in complete
                .iter_mut()
                .take(groups.saturating_sub(pending as usize))
            {
                *done = true;
            }
            let read = j % versions;
            if copies.iter().any(|(v, g)| *v == read && !complete[*g]) {
                return true;
            }
        }
        false
    })
}

#[test]
fn multi_buffered_loops_match_the_naive_reference() {
    let context = apipe_dialect::create_context().unwrap();
    let mut hazard_count = 0;
    let mut cases = 0;
    for trips in [Some(8), Some(1), Some(2), None] {
        for distance in 1..=3 {
            for versions in 1..=4 {
                for pending in 0..=3 {
                    let text = multi_buffered(versions, distance, pending, trips);
                    let module = Module::parse(&context, &text).unwrap();
                    let before = module.as_operation().to_string();
                    let found = find_hazards(&module.as_operation()).unwrap();
                    assert_eq!(module.as_operation().to_string(), before, "IR unchanged");
                    let counts: Vec<i64> = match trips {
                        Some(n) => vec![n],
                        None => (0..12).collect(),
                    };
                    let expected = reference_has_hazard(versions, distance, pending, &counts);
                    let reads: Vec<&Hazard> = found
                        .iter()
                        .filter(|h| h.kind == HazardKind::ReadAfterWrite)
                        .collect();
                    assert_eq!(
                        !reads.is_empty(),
                        expected,
                        "versions {versions}, distance {distance}, pending {pending}, trips \
                         {trips:?}: {:?}\n{text}",
                        found.iter().map(|h| &h.message).collect::<Vec<_>>()
                    );
                    assert!(found.iter().all(|h| !h.conservative));
                    hazard_count += usize::from(expected);
                    cases += 1;
                }
            }
        }
    }
    // Both outcomes occur (the sweep is not vacuous).
    assert!(hazard_count > 0 && hazard_count < cases);
}

/// `-k*t + c >= 0`.
fn at_most(t: &crate::access::Lin, k: i64, c: i64) -> crate::access::Constraint {
    crate::access::Constraint::NonNeg(t.scaled(-k).unwrap().offset(c).unwrap())
}

#[test]
fn constraint_lists_are_tightened_over_the_integers() {
    use crate::access::{Lin, Symbol};
    let t = Lin::symbol(Symbol::Fresh(0));
    // 2t <= 1 is t <= 0; t <= 2 stays beside it.
    assert_eq!(
        state::tests_sorted(vec![at_most(&t, 1, 2), at_most(&t, 2, 1)]),
        vec![at_most(&t, 1, 0), at_most(&t, 1, 2)]
    );
}

#[test]
fn hull_pairs_the_tightest_bounds_of_each_side() {
    use crate::access::{Lin, Symbol};
    let t = Lin::symbol(Symbol::Fresh(0));
    // The entry edge (t <= 0) joined with the back edge of an instance in
    // flight while 2t <= 1, then shifted by one iteration (2t <= 3, with a
    // weaker t <= 5 beside it): t <= 1, not t <= 5 and not nothing (a bound
    // that grows every round keeps a loop's fixed point from converging).
    let entry = vec![at_most(&t, 1, 0)];
    let back = state::tests_sorted(vec![at_most(&t, 2, 3), at_most(&t, 1, 5)]);
    assert_eq!(state::hull(&entry, &back), vec![at_most(&t, 1, 1)]);
    assert_eq!(state::hull(&back, &entry), vec![at_most(&t, 1, 1)]);
}

#[test]
fn a_path_no_execution_takes_leaves_nothing_in_flight() {
    use crate::access::{copy_regions, Constraint, Forms, Lin};
    use melior::ir::{BlockLike, OperationRef, RegionLike};
    let context = apipe_dialect::create_context().unwrap();
    let module = Module::parse(
        &context,
        "func.func @f(%A: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %b = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c0], %b[%c0], 4 : memref<8xf32> to memref<4xf32>
  return
}",
    )
    .unwrap();
    let body = module.body();
    let function = body.first_operation().unwrap();
    let block = function.region(0).unwrap().first_block().unwrap();
    let mut op: Option<OperationRef> = block.first_operation();
    while let Some(o) = op.filter(|o| !apipe_dialect::ops::is(o, apipe_dialect::ops::COPY)) {
        op = o.next_in_block();
    }
    let copy = op.unwrap();
    let (src, dst) = copy_regions(&mut Forms::new(), &copy);
    let issued = state::State {
        instances: vec![state::Instance::issued(copy, 0, src, dst, Vec::new())],
        reads: Vec::new(),
    };
    // A region whose condition may hold keeps the copy in flight, under it.
    let mut taken = issued.clone();
    taken.constrain_all(&[Constraint::NonNeg(Lin::constant(0))]);
    assert_eq!(taken.instances.len(), 1);
    assert_eq!(taken.instances[0].when.len(), 1);
    // The region of `scf.if` on `k mod 3 != 1` of a constant k = 1 (the
    // condition's comparison folds to `0 != 0`): nothing is left, so no
    // later loss of the constraint (a loop's widening) can bring the copy
    // back.
    for never in [
        Constraint::NonZero(Lin::constant(0)),
        Constraint::Zero(Lin::constant(2)),
        Constraint::NonNeg(Lin::constant(-1)),
    ] {
        let mut dead = issued.clone();
        dead.constrain_all(&[never]);
        assert!(dead.instances.is_empty() && dead.reads.is_empty());
    }
}
