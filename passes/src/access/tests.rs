//! Tests of the access module: the solver against brute force, regions of
//! real IR through views, accesses from memory effects, and the dependence
//! test against enumeration of the iterations.

use super::*;
use apipe_dialect::ops;
use melior::ir::{operation::OperationLike, BlockLike, Module, OperationRef, RegionLike};
use proptest::prelude::*;

fn sym(n: usize) -> Lin {
    Lin::symbol(Symbol::Fresh(n as u32))
}

fn ge(x: Lin) -> Constraint {
    Constraint::NonNeg(x)
}

fn range(s: usize, lo: i64, hi: i64) -> [Constraint; 2] {
    [
        ge(sym(s).offset(-lo).unwrap()),
        ge(sym(s).scaled(-1).unwrap().offset(hi).unwrap()),
    ]
}

#[test]
fn gcd_test_separates_versions() {
    // (t + 2) mod 3 = t mod 3 for t >= 0: never.
    let t = sym(0);
    let a = Lin::modulo(t.offset(2).unwrap(), 3, Signedness::Unsigned);
    let b = Lin::modulo(t.clone(), 3, Signedness::Unsigned);
    let mut system = System::new();
    system.push(ge(t.clone()));
    system.push(Constraint::eq(&a, &b).unwrap());
    assert_eq!(system.feasible(), Feasibility::Infeasible);
    // (t + 3) mod 3 = t mod 3: always (witness with t bounded).
    let c = Lin::modulo(t.offset(3).unwrap(), 3, Signedness::Unsigned);
    let mut system = System::new();
    system.extend(range(0, 0, 9));
    system.push(Constraint::eq(&c, &b).unwrap());
    assert_eq!(system.feasible(), Feasibility::Feasible { exact: true });
}

#[test]
fn shifted_remainders_separate_flat_versions() {
    // 4 (i mod 3) + t = 4 ((i + 1) mod 3) + u with i >= 0 unbounded and
    // t, u in [0, 3]: two versions of a flat buffer of 4-element tiles,
    // never the same element (the remainders differ by 1 or -2).
    let (i, t, u) = (sym(0), sym(1), sym(2));
    let tile = |shift: i64, x: &Lin| {
        Lin::modulo(i.offset(shift).unwrap(), 3, Signedness::Unsigned)
            .scaled(4)
            .and_then(|v| v.plus(x, 1))
            .unwrap()
    };
    // As the checker asks it: iteration i of a loop of n >= 1 trips, i >= 1,
    // each tile in the buffer's 12 elements for both threads.
    let n = sym(3);
    let flat = |shift: i64| {
        let mut system = System::new();
        system.push(ge(n.offset(-1).unwrap()));
        system.push(ge(i.clone()));
        system.push(ge(i.offset(-1).unwrap()));
        system.push(ge(n.plus(&i, -1).unwrap().offset(-1).unwrap()));
        for x in [&t, &u] {
            for s in [0, shift] {
                system.push(ge(tile(s, x)));
                system.push(ge(tile(s, x).scaled(-1).unwrap().offset(11).unwrap()));
            }
        }
        system.extend(range(1, 0, 3));
        system.extend(range(2, 0, 3));
        system.push(Constraint::eq(&tile(0, &t), &tile(shift, &u)).unwrap());
        system.feasible()
    };
    assert_eq!(flat(1), Feasibility::Infeasible);
    assert_eq!(flat(2), Feasibility::Infeasible);
    // Shifted by the modulus: the same version, the same element.
    assert!(flat(3).may());
    // Tiles of 5 elements with t, u in [0, 4] but a stride of 4 overlap.
    let mut system = System::new();
    system.push(ge(i.clone()));
    system.extend(range(1, 0, 4));
    system.extend(range(2, 0, 4));
    system.push(Constraint::eq(&tile(0, &t), &tile(1, &u)).unwrap());
    assert!(system.feasible().may());
}

#[test]
fn nonzero_is_decided_by_cases() {
    // t in [0, 1], (t + 1) mod 3 != 1: only t = 1 (exact).
    let t = sym(0);
    let m = Lin::modulo(t.offset(1).unwrap(), 3, Signedness::Unsigned);
    let mut system = System::new();
    system.extend(range(0, 0, 1));
    system.push(Constraint::NonZero(m.offset(-1).unwrap()));
    assert_eq!(system.feasible(), Feasibility::Feasible { exact: true });
    // ... and t = 0 besides: infeasible.
    system.push(Constraint::Zero(t.clone()));
    assert_eq!(system.feasible(), Feasibility::Infeasible);
    // Two cases each: t != 0, t != 1, t != 2 in [0, 2] is infeasible, and
    // feasible (t = 3) in [0, 3].
    let mut system = System::new();
    system.extend(range(0, 0, 2));
    for k in 0..3 {
        system.push(Constraint::NonZero(t.offset(-k).unwrap()));
    }
    assert_eq!(system.feasible(), Feasibility::Infeasible);
    let mut system = System::new();
    system.extend(range(0, 0, 3));
    for k in 0..3 {
        system.push(Constraint::NonZero(t.offset(-k).unwrap()));
    }
    assert_eq!(system.feasible(), Feasibility::Feasible { exact: true });
}

#[test]
fn independent_variables_are_decided_apart() {
    // Threads (x, y) and (x', y') of a 4 x 4 block, distinct in x, each
    // writing element 16 y + 4 x + a (a in [0, 4)) of the other's: no
    // solution, found only by enumerating the ids (over the rationals
    // there is one). Beside them, an unbounded trip count n >= 1 that no
    // other constraint names: alone, it made the enumeration too large.
    let (x, y, x2, y2, a, a2, n) = (sym(0), sym(1), sym(2), sym(3), sym(4), sym(5), sym(6));
    let element = |x: &Lin, y: &Lin, a: &Lin| {
        y.scaled(16)
            .unwrap()
            .plus(&x.scaled(4).unwrap(), 1)
            .unwrap()
            .plus(a, 1)
            .unwrap()
    };
    let mut system = System::new();
    for s in 0..4 {
        system.extend(range(s, 0, 3));
    }
    system.extend(range(4, 0, 3));
    system.extend(range(5, 0, 3));
    system.push(Constraint::le(&x.offset(1).unwrap(), &x2).unwrap());
    system.extend(Constraint::eq(
        &element(&x, &y, &a),
        &element(&x2, &y2, &a2),
    ));
    assert_eq!(system.feasible(), Feasibility::Infeasible);
    system.push(ge(n.offset(-1).unwrap()));
    assert_eq!(system.feasible(), Feasibility::Infeasible);
    // The same threads may be equal: then a solution exists, and the
    // unbounded part leaves it inexact, not infeasible.
    let mut system = System::new();
    for s in 0..6 {
        system.extend(range(s, 0, 3));
    }
    system.extend(Constraint::eq(
        &element(&x, &y, &a),
        &element(&x2, &y2, &a2),
    ));
    system.push(ge(n.offset(-1).unwrap()));
    assert!(system.feasible().may());
}

#[test]
fn elimination_separates_unbounded_unknowns() {
    // Two threads t, t' (no upper bound): t' >= t + 1, and element 2t of
    // thread t within [2t', 2t' + 2): 0 <= 2t - 2t' <= 1. Propagation
    // cannot bound t or t'; elimination finds 0 <= t - t' <= -1.
    let (t, u) = (sym(0), sym(1));
    let d = t.scaled(2).unwrap().plus(&u, -2).unwrap();
    let mut system = System::new();
    system.push(ge(t.clone()));
    system.push(ge(u.clone()));
    system.push(Constraint::le(&t.offset(1).unwrap(), &u).unwrap());
    system.push(ge(d.clone()));
    system.push(ge(d.scaled(-1).unwrap().offset(1).unwrap()));
    assert_eq!(system.feasible(), Feasibility::Infeasible);
    // With t' <= t - 1 and 0 <= 2t - 2t' <= 2, t' = t - 1 is a solution:
    // not called infeasible.
    let mut system = System::new();
    system.push(ge(t.clone()));
    system.push(ge(u.clone()));
    system.push(Constraint::le(&u.offset(1).unwrap(), &t).unwrap());
    system.push(ge(d.clone()));
    system.push(ge(d.scaled(-1).unwrap().offset(2).unwrap()));
    assert!(system.feasible().may());
}

#[test]
fn quotient_and_remainder_of_one_value_share_its_definition() {
    // Two threads t != t' (no upper bound) with equal t div 4 and equal
    // 4 * (t mod 4) .. + 4 ranges: t = 4q + r = t'. Infeasible only if the
    // quotient of `t mod 4` is `t div 4`.
    let (t, u) = (sym(0), sym(1));
    let div = |x: &Lin| Lin::div(x.clone(), 4, Signedness::Unsigned);
    let rem = |x: &Lin| Lin::modulo(x.clone(), 4, Signedness::Unsigned);
    let d = rem(&t)
        .scaled(4)
        .unwrap()
        .plus(&rem(&u).scaled(4).unwrap(), -1)
        .unwrap();
    let mut system = System::new();
    system.push(ge(t.clone()));
    system.push(ge(u.clone()));
    system.push(Constraint::le(&t.offset(1).unwrap(), &u).unwrap());
    system.push(Constraint::eq(&div(&t), &div(&u)).unwrap());
    system.push(ge(d.offset(3).unwrap()));
    system.push(ge(d.scaled(-1).unwrap().offset(3).unwrap()));
    assert_eq!(system.feasible(), Feasibility::Infeasible);
    // Equal quotients, different remainders: t = 4, t' = 5.
    let mut system = System::new();
    system.push(ge(t.clone()));
    system.push(ge(u.clone()));
    system.push(Constraint::le(&t.offset(1).unwrap(), &u).unwrap());
    system.push(Constraint::eq(&div(&t), &div(&u)).unwrap());
    assert!(system.feasible().may());
}

#[test]
fn remainder_of_a_possibly_negative_value_is_only_bounded() {
    // t unconstrained: (t + 2) remui 3 vs t remui 3 may meet (t = -2 gives
    // (2^64 - 2) mod 3 vs 0 ...): not provably disjoint.
    let t = sym(0);
    let a = Lin::modulo(t.offset(2).unwrap(), 3, Signedness::Unsigned);
    let b = Lin::modulo(t, 3, Signedness::Unsigned);
    let mut system = System::new();
    system.push(Constraint::eq(&a, &b).unwrap());
    assert!(system.feasible().may());
}

#[test]
fn bounds_propagate_through_min_and_max() {
    // s = max(x, 0), m = min(s, 2), m >= 2 (a switch default) gives x >= 2;
    // with x <= 1: infeasible.
    let (x, s, m) = (sym(0), sym(1), sym(2));
    let mut system = System::new();
    system.push(Constraint::Max(s.clone(), x.clone(), Lin::constant(0)));
    system.push(Constraint::Min(m.clone(), s.clone(), Lin::constant(2)));
    system.push(ge(m.offset(-2).unwrap()));
    assert!(system.feasible().may());
    system.push(ge(x.scaled(-1).unwrap().offset(1).unwrap()));
    assert_eq!(system.feasible(), Feasibility::Infeasible);
}

#[test]
fn contradicting_conditions_are_infeasible() {
    let mut system = System::new();
    system.push(Constraint::Holds(Symbol::Value(1), true));
    assert!(system.feasible().may());
    system.push(Constraint::Holds(Symbol::Value(1), false));
    assert_eq!(system.feasible(), Feasibility::Infeasible);
}

/// A random form over symbols 0..3 with small coefficients, sometimes
/// inside a remainder or quotient.
fn form() -> impl Strategy<Value = Lin> {
    let leaf =
        (proptest::collection::vec(-3i64..=3, 3), -6i64..=6).prop_map(|(coefficients, c)| {
            let mut lin = Lin::constant(c);
            for (i, k) in coefficients.into_iter().enumerate() {
                lin = lin.plus(&sym(i), k).unwrap();
            }
            lin
        });
    // A quotient folded from a constant can be near i64::MAX (an unsigned
    // division of a negative dividend), so a sum may overflow: such cases
    // are left out.
    (leaf.clone(), leaf, 0u8..4, 1i64..=4, 0u8..3).prop_filter_map(
        "the sum overflows i64",
        |(a, b, shape, v, sign)| {
            let sign = [
                Signedness::Unsigned,
                Signedness::Signed,
                Signedness::Euclidean,
            ][sign as usize];
            match shape {
                0 => Some(a),
                1 => a.plus(&Lin::modulo(b, v, sign), 2),
                2 => Lin::div(a, v, sign).plus(&b, 1),
                _ => Some(Lin::modulo(a, v, sign)),
            }
        },
    )
}

/// The value of `f` as an integer (no i64 wrap-around: the solver's
/// semantics), with remainders and quotients taken as the op would on an
/// i64 dividend; `None` where a dividend is outside i64 or a symbol unknown.
fn exact_value(f: &Lin, value: &dyn Fn(Symbol) -> Option<i64>) -> Option<i128> {
    let mut total = i128::from(f.constant_term());
    for (atom, coefficient) in f.terms() {
        let x: i128 = match atom {
            Atom::Sym(s) => value(*s)?.into(),
            Atom::Mod(x, v, sign) | Atom::Div(x, v, sign) => {
                let x = i64::try_from(exact_value(x, value)?).ok()?;
                let modulo = matches!(atom, Atom::Mod(..));
                match (sign, modulo) {
                    (Signedness::Signed, true) => (x % v).into(),
                    (Signedness::Signed, false) => (x / v).into(),
                    (Signedness::Euclidean, true) => x.rem_euclid(*v).into(),
                    (Signedness::Euclidean, false) => x.div_euclid(*v).into(),
                    (Signedness::Unsigned, true) => ((x as u64) % (*v as u64)).into(),
                    (Signedness::Unsigned, false) => ((x as u64) / (*v as u64)).into(),
                }
            }
        };
        total += x * i128::from(coefficient);
    }
    Some(total)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// The solver never calls a satisfiable system infeasible, and its
    /// witnesses are real: brute force over symbols in [-4, 4] (bounded by
    /// the system itself).
    #[test]
    fn solver_agrees_with_brute_force(
        forms in proptest::collection::vec((form(), any::<bool>()), 1..4),
    ) {
        let mut system = System::new();
        for s in 0..3 {
            system.extend(range(s, -4, 4));
        }
        for (f, equality) in &forms {
            system.push(if *equality { Constraint::Zero(f.clone()) } else { ge(f.clone()) });
        }
        let mut found = false;
        for x in -4..=4 {
            for y in -4..=4 {
                for z in -4..=4 {
                    let value = |s: Symbol| match s {
                        Symbol::Fresh(n) => Some([x, y, z][n as usize]),
                        _ => None,
                    };
                    // Forms are integers (the solver's semantics); only a
                    // remainder or quotient of a dividend outside i64 is
                    // unknown, and then counts as met.
                    let ok = forms.iter().all(|(f, eq)| match exact_value(f, &value) {
                        Some(v) => if *eq { v == 0 } else { v >= 0 },
                        None => true,
                    });
                    found |= ok;
                }
            }
        }
        let answer = system.feasible();
        if found {
            prop_assert!(answer.may(), "satisfiable but called infeasible: {:?}", forms);
        }
        if answer == (Feasibility::Feasible { exact: true }) {
            prop_assert!(found, "a witness claimed for an unsatisfiable system: {:?}", forms);
        }
    }
}

fn parse<'c>(context: &'c melior::Context, text: &str) -> Module<'c> {
    Module::parse(context, text).unwrap_or_else(|| panic!("does not parse:\n{text}"))
}

fn all_ops<'c, 'a>(module: &'a Module<'c>) -> Vec<OperationRef<'c, 'a>> {
    ops::nested_ops(&module.as_operation())
}

fn find<'c, 'a>(module: &'a Module<'c>, name: &str, nth: usize) -> OperationRef<'c, 'a> {
    all_ops(module)
        .into_iter()
        .filter(|op| ops::name(op) == name)
        .nth(nth)
        .unwrap_or_else(|| panic!("no {name} #{nth}"))
}

/// The single access of `kind` of `op`.
fn access<'c, 'a>(forms: &mut Forms, op: &OperationRef<'c, 'a>, kind: AccessKind) -> Region {
    let found = accesses(forms, op);
    let mut matching = found.accesses.into_iter().filter(|a| a.kind == kind);
    let first = matching.next().expect("an access");
    assert!(matching.next().is_none());
    first.region
}

#[test]
fn multi_buffered_versions_through_subviews() {
    let context = apipe_dialect::create_context().unwrap();
    let module = parse(
        &context,
        r#"
        func.func @f(%A: memref<64xf32>, %n: index) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %buf = memref.alloc() : memref<3x4xf32>
          scf.for %i = %c0 to %n step %c1 {
            %next = arith.addi %i, %c2 : index
            %w = arith.remui %next, %c3 : index
            %dst = memref.subview %buf[%w, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
            memref.store %c0f, %dst[%c1] : memref<4xf32, strided<[1], offset: ?>>
            %r = arith.remui %i, %c3 : index
            %src = memref.subview %buf[%r, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
            %x = memref.load %src[%c1] : memref<4xf32, strided<[1], offset: ?>>
          }
          return
        }
        "#
        .replace("%c0f", "%f")
        .replace("%c0 = arith.constant 0 : index", "%c0 = arith.constant 0 : index\n          %f = arith.constant 0.0 : f32")
        .as_str(),
    );
    let store = find(&module, "memref.store", 0);
    let load = find(&module, "memref.load", 0);
    let l = find(&module, "scf.for", 0);
    let mut forms = Forms::new();
    let w = access(&mut forms, &store, AccessKind::Write);
    let r = access(&mut forms, &load, AccessKind::Read);
    assert_eq!(w.root, r.root);
    assert_eq!(w.root.kind, RootKind::Fresh);
    // The store of iteration i meets the load of iteration i + 2 only
    // (versions (i + 2) mod 3 and (i + d) mod 3).
    for d in 0..7u64 {
        let verdict = may_depend(&mut forms, &w, &r, &l, IterationDistance::Exactly(d));
        assert_eq!(verdict.may(), d % 3 == 2, "distance {d}: {verdict:?}");
    }
    assert!(may_depend(&mut forms, &w, &r, &l, IterationDistance::AtLeast(1)).may());
    // In the same iteration: different versions.
    let context_system = forms.context(&load, None);
    assert_eq!(
        overlap(&w, &r, context_system, &mut forms),
        Overlap::Disjoint
    );
}

#[test]
fn views_are_followed_to_the_root() {
    let context = apipe_dialect::create_context().unwrap();
    let module = parse(
        &context,
        r#"
        func.func @f(%i: index, %j: index) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %buf = memref.alloc() : memref<4x8xf32>
          %e = memref.expand_shape %buf [[0, 1], [2]] output_shape [2, 2, 8] : memref<4x8xf32> into memref<2x2x8xf32>
          %a = memref.load %e[%c1, %c1, %j] : memref<2x2x8xf32>
          %c = memref.collapse_shape %buf [[0, 1]] : memref<4x8xf32> into memref<32xf32>
          %b = memref.load %c[%i] : memref<32xf32>
          %t = memref.transpose %buf (d0, d1) -> (d1, d0) : memref<4x8xf32> to memref<8x4xf32, strided<[1, 8]>>
          %x = memref.load %t[%c1, %c0] : memref<8x4xf32, strided<[1, 8]>>
          %u = memref.cast %buf : memref<4x8xf32> to memref<*xf32>
          func.call @g(%u) : (memref<*xf32>) -> ()
          return
        }
        func.func private @g(memref<*xf32>)
        "#,
    );
    let mut forms = Forms::new();
    let expanded = access(
        &mut forms,
        &find(&module, "memref.load", 0),
        AccessKind::Read,
    );
    let collapsed = access(
        &mut forms,
        &find(&module, "memref.load", 1),
        AccessKind::Read,
    );
    let transposed = access(
        &mut forms,
        &find(&module, "memref.load", 2),
        AccessKind::Read,
    );
    assert_eq!(expanded.root, collapsed.root);
    assert_eq!(expanded.root, transposed.root);
    let dims = expanded.dims.clone().unwrap();
    assert_eq!(
        dims[0],
        Dim::Range {
            start: Lin::constant(3),
            extent: 1
        }
    );
    // transpose: [1, 0] of the view is [0, 1] of the root.
    assert_eq!(
        transposed.dims.clone().unwrap(),
        vec![
            Dim::Range {
                start: Lin::constant(0),
                extent: 1
            },
            Dim::Range {
                start: Lin::constant(1),
                extent: 1
            }
        ]
    );
    // The collapsed load at i meets [3, j] iff i = 3*8 + j for some j.
    assert!(overlap(&collapsed, &expanded, System::new(), &mut forms).may());
    let mut at = System::new();
    let i = forms.of(find(&module, "memref.load", 1).operand(1).unwrap());
    at.push(Constraint::eq(&i, &Lin::constant(5)).unwrap());
    assert_eq!(
        overlap(&collapsed, &expanded, at, &mut forms),
        Overlap::Disjoint
    );
    // A call receives an unranked cast of the buffer: it may read and write
    // all of it (no panic on the unranked memref).
    let call = accesses(&mut forms, &find(&module, "func.call", 0));
    assert_eq!(call.accesses.len(), 2);
    assert!(call
        .accesses
        .iter()
        .all(|a| a.assumed && a.region.is_whole()));
    assert_eq!(call.accesses[0].region.root, expanded.root);
}

#[test]
fn accesses_come_from_memory_effects() {
    let context = apipe_dialect::create_context().unwrap();
    context.set_allow_unregistered_dialects(true);
    let module = parse(
        &context,
        r#"
        func.func @f(%g: memref<128x128xf16>, %i: index, %v: f32) {
          %c0 = arith.constant 0 : index
          %s = memref.alloc() : memref<2x128x32xf16, 3>
          %m = nvgpu.ldmatrix %s[%c0, %c0, %c0] {numTiles = 4 : i32, transpose = false} : memref<2x128x32xf16, 3> -> vector<4x2xf16>
          %t = memref.alloc() : memref<32x40xf16, 3>
          %a = gpu.subgroup_mma_load_matrix %t[%c0, %c0] {leadDimension = 40 : index} : memref<32x40xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
          %f = memref.alloc() : memref<16xf32>
          %old = memref.atomic_rmw addf %v, %f[%i] : (f32, memref<16xf32>) -> f32
          %o = memref.alloc() : memref<16xf32>
          linalg.copy ins(%f : memref<16xf32>) outs(%o : memref<16xf32>)
          %w = vector.transfer_read %f[%i], %v : memref<16xf32>, vector<4xf32>
          memref.dealloc %o : memref<16xf32>
          "test.unknown"(%f) : (memref<16xf32>) -> ()
          return
        }
        "#,
    );
    let mut forms = Forms::new();
    // ldmatrix: a collective read of version 0, any row and column.
    let ld = accesses(&mut forms, &find(&module, "nvgpu.ldmatrix", 0));
    assert_eq!(ld.accesses.len(), 1);
    let a = &ld.accesses[0];
    assert!(a.collective && a.kind == AccessKind::Read);
    assert_eq!(
        a.region.dims.clone().unwrap(),
        vec![
            Dim::Range {
                start: Lin::constant(0),
                extent: 1
            },
            Dim::Any,
            Dim::Any
        ]
    );
    let mma = accesses(
        &mut forms,
        &find(&module, "gpu.subgroup_mma_load_matrix", 0),
    );
    assert!(mma.accesses.len() == 1 && mma.accesses[0].collective);
    // atomic_rmw: read and write of f[i].
    let rmw = accesses(&mut forms, &find(&module, "memref.atomic_rmw", 0));
    let kinds: Vec<AccessKind> = rmw.accesses.iter().map(|a| a.kind).collect();
    assert!(kinds.contains(&AccessKind::Read) && kinds.contains(&AccessKind::Write));
    assert!(rmw.accesses.iter().all(|a| !a.region.is_whole()));
    // linalg.copy: reads f, writes o (whole buffers).
    let copy = accesses(&mut forms, &find(&module, "linalg.copy", 0));
    assert!(copy
        .accesses
        .iter()
        .any(|a| a.kind == AccessKind::Read && a.region.is_whole()));
    assert!(copy.accesses.iter().any(|a| a.kind == AccessKind::Write));
    // transfer_read: 4 elements from i.
    let tr = access(
        &mut forms,
        &find(&module, "vector.transfer_read", 0),
        AccessKind::Read,
    );
    assert!(matches!(&tr.dims.unwrap()[0], Dim::Range { extent: 4, .. }));
    // dealloc: a write (free).
    let dealloc = accesses(&mut forms, &find(&module, "memref.dealloc", 0));
    assert!(dealloc.accesses.iter().any(|a| a.kind == AccessKind::Write));
    // An unregistered op: assumed read and write of its memref.
    let unknown = accesses(&mut forms, &find(&module, "test.unknown", 0));
    assert_eq!(unknown.accesses.len(), 2);
    assert!(unknown.accesses.iter().all(|a| a.assumed));
}

#[test]
fn roots_alias_by_kind() {
    let root = |n: usize, kind: RootKind| Root {
        symbol: Symbol::Value(n),
        kind,
        space: "".into(),
    };
    assert!(!may_alias(
        &root(1, RootKind::Fresh),
        &root(2, RootKind::Argument { noalias: false })
    ));
    assert!(may_alias(
        &root(1, RootKind::Argument { noalias: false }),
        &root(2, RootKind::Argument { noalias: false })
    ));
    assert!(may_alias(
        &root(1, RootKind::Global("a".into())),
        &root(2, RootKind::Global("a".into()))
    ));
    assert!(!may_alias(
        &root(1, RootKind::Global("a".into())),
        &root(2, RootKind::Global("b".into()))
    ));
    // Unknown roots (a call result, an op that is not a known view) may
    // alias even fresh buffers; different memory spaces never alias.
    assert!(may_alias(
        &root(3, RootKind::Other),
        &root(4, RootKind::Fresh)
    ));
    let mut shared = root(3, RootKind::Other);
    shared.space = "3".into();
    assert!(!may_alias(
        &shared,
        &root(4, RootKind::Argument { noalias: false })
    ));
    // An argument marked llvm.noalias aliases no other argument or global,
    // but an unknown root may be based on it.
    let restrict = root(5, RootKind::Argument { noalias: true });
    assert!(!may_alias(
        &restrict,
        &root(6, RootKind::Argument { noalias: false })
    ));
    assert!(!may_alias(
        &root(6, RootKind::Global("a".into())),
        &restrict
    ));
    assert!(may_alias(&restrict, &root(7, RootKind::Other)));
    assert!(may_alias(&restrict, &restrict.clone()));
}

/// One random access of a generated loop: `buf[(a*i + b) op V]`.
#[derive(Clone, Debug)]
struct Index {
    a: i64,
    b: i64,
    /// 0: none, 1: remui, 2: divui.
    op: u8,
    v: i64,
}

impl Index {
    fn value(&self, i: i64) -> i64 {
        let x = self.a * i + self.b;
        match self.op {
            1 => ((x as u64) % (self.v as u64)) as i64,
            2 => ((x as u64) / (self.v as u64)) as i64,
            _ => x,
        }
    }

    fn mlir(&self, name: &str) -> String {
        let x = format!(
            "    %{name}a = arith.constant {} : index
    %{name}b = arith.constant {} : index
    %{name}v = arith.constant {} : index
    %{name}m = arith.muli %i, %{name}a : index
    %{name}x = arith.addi %{name}m, %{name}b : index
",
            self.a, self.b, self.v
        );
        let last = match self.op {
            1 => format!("    %{name} = arith.remui %{name}x, %{name}v : index\n"),
            2 => format!("    %{name} = arith.divui %{name}x, %{name}v : index\n"),
            _ => format!("    %{name} = arith.addi %{name}x, %c0 : index\n"),
        };
        x + &last
    }
}

fn index() -> impl Strategy<Value = Index> {
    (-3i64..=3, 0i64..=12, 0u8..3, 1i64..=4).prop_map(|(a, b, op, v)| Index { a, b, op, v })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The dependence test against enumeration of the iterations: a store
    /// at `x(i)` (extent 1 or 2, through a subview) and a load at `y(i)`, in
    /// a loop of `trips` iterations from `lb`.
    #[test]
    fn dependence_agrees_with_enumeration(
        x in index(), y in index(), lb in 0i64..3, trips in 0i64..7,
        wide in any::<bool>(), d in 0u64..5,
    ) {
        let extent = if wide { 2 } else { 1 };
        let text = format!(
            "func.func @f(%buf: memref<64xf32>, %v: f32) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lb = arith.constant {lb} : index
  %ub = arith.constant {} : index
  scf.for %i = %lb to %ub step %c1 {{
{}{}    %w = memref.subview %buf[%x] [{extent}] [1] : memref<64xf32> to memref<{extent}xf32, strided<[1], offset: ?>>
    vector.store %vec, %w[%c0] : memref<{extent}xf32, strided<[1], offset: ?>>, vector<{extent}xf32>
    %r = memref.load %buf[%y] : memref<64xf32>
  }}
  return
}}",
            lb + trips,
            x.mlir("x"),
            y.mlir("y"),
        )
        .replace("  %c1 = arith.constant 1 : index\n", &format!("  %c1 = arith.constant 1 : index\n  %vec = vector.broadcast %v : f32 to vector<{extent}xf32>\n"));
        let context = apipe_dialect::create_context().unwrap();
        let module = parse(&context, &text);
        let store = find(&module, "vector.store", 0);
        let load = find(&module, "memref.load", 0);
        let l = find(&module, "scf.for", 0);
        let mut forms = Forms::new();
        let w = access(&mut forms, &store, AccessKind::Write);
        let r = access(&mut forms, &load, AccessKind::Read);
        let verdict = may_depend(&mut forms, &w, &r, &l, IterationDistance::Exactly(d));
        let mut real = false;
        for t in 0..trips {
            let later = t + d as i64;
            if later >= trips {
                continue;
            }
            let (i, j) = (lb + t, lb + later);
            let start = i128::from(x.value(i));
            let at = i128::from(y.value(j));
            real |= at >= start && at < start + i128::from(extent);
        }
        if real {
            prop_assert!(verdict.may(), "missed a dependence: {text}");
        }
        if let Overlap::May { exact: true, .. } = verdict {
            prop_assert!(real, "claimed an exact dependence that is not there: {text}");
        }
    }
}

#[test]
fn loop_and_branch_contexts() {
    let context = apipe_dialect::create_context().unwrap();
    let module = parse(
        &context,
        r#"
        func.func @f(%n: index, %c: i1) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %m = arith.maxsi %n, %c0 : index
          %k = arith.minsi %m, %c2 : index
          %buf = memref.alloc() : memref<8xf32>
          scf.index_switch %k
          case 0 {
            scf.yield
          }
          case 1 {
            scf.yield
          }
          default {
            %p = arith.subi %m, %c2 : index
            %x = memref.load %buf[%p] : memref<8xf32>
            scf.yield
          }
          scf.if %c {
            %y = memref.load %buf[%c1] : memref<8xf32>
          }
          return
        }
        "#,
    );
    let mut forms = Forms::new();
    let load = find(&module, "memref.load", 0);
    let r = access(&mut forms, &load, AccessKind::Read);
    // In the default case m >= 2, so m - 2 >= 0: the load never reads -1.
    let minus_one = Region {
        root: r.root.clone(),
        dims: Some(vec![Dim::Range {
            start: Lin::constant(-1),
            extent: 1,
        }]),
    };
    let context_system = forms.context(&load, None);
    assert_eq!(
        overlap(&r, &minus_one, context_system.clone(), &mut forms),
        Overlap::Disjoint
    );
    let zero = Region {
        dims: Some(vec![Dim::Range {
            start: Lin::constant(0),
            extent: 1,
        }]),
        ..minus_one
    };
    assert!(overlap(&r, &zero, context_system, &mut forms).may());
    // Under `scf.if %c`, %c holds.
    let under_if = forms.context(&find(&module, "memref.load", 1), None);
    assert!(under_if
        .constraints()
        .iter()
        .any(|c| matches!(c, Constraint::Holds(_, true))));
}

/// Accesses in a loop nested in the body: the two iterations of the outer
/// loop may run any iterations of the inner one (`buf[i + j]` of iteration
/// `i`, `j = 1`, is `buf[(i + 1) + j']` of iteration `i + 1`, `j' = 0`).
/// In one iteration, a copy in the inner loop meets itself only across
/// inner iterations.
#[test]
fn nested_loops_iterate_independently() {
    let context = apipe_dialect::create_context().unwrap();
    let module = parse(
        &context,
        r#"
        func.func @f(%buf: memref<64xf32>, %v: f32) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c4 = arith.constant 4 : index
          %c16 = arith.constant 16 : index
          scf.for %i = %c0 to %c16 step %c1 {
            scf.for %j = %c0 to %c2 step %c1 {
              %x = arith.addi %i, %j : index
              memref.store %v, %buf[%x] : memref<64xf32>
            }
            %i4 = arith.muli %i, %c4 : index
            scf.for %j = %c0 to %c2 step %c1 {
              %y = arith.addi %i4, %j : index
              %r = memref.load %buf[%y] : memref<64xf32>
            }
          }
          return
        }
        "#,
    );
    let store = find(&module, "memref.store", 0);
    let load = find(&module, "memref.load", 0);
    let l = find(&module, "scf.for", 0);
    let mut forms = Forms::new();
    let w = access(&mut forms, &store, AccessKind::Write);
    let r = access(&mut forms, &load, AccessKind::Read);
    // The store against itself one iteration later: i + j = i + 1 + j'.
    assert!(may_depend(&mut forms, &w, &w, &l, IterationDistance::Exactly(1)).may());
    // Same iteration, the store against itself at other inner iterations:
    // may meet (j = j' is allowed by the test); across inner iterations
    // only: never (i + j = i + j' + e, e >= 1, for the inner loop).
    assert!(may_meet_in_one_iteration(&mut forms, (&w, None), (&w, None), &l).may());
    let inner = find(&module, "scf.for", 1);
    assert_eq!(
        may_depend(&mut forms, &w, &w, &inner, IterationDistance::AtLeast(1)),
        Overlap::Disjoint
    );
    // The load of 4i + j against the store of i + 1 + j' (iteration i + 1,
    // i >= 0): 4i + j = i + 1 + j' has solutions (i = 0, j = 1, j' = 0).
    assert!(may_depend(&mut forms, &r, &w, &l, IterationDistance::Exactly(1)).may());
    // With the paths (inner bounds j, j' in [0, 2)): the load of 4i + j
    // meets the store of i + 1 + j' only for i = 0 (j = 1, j' = 0)...
    let exact = may_depend_at(
        &mut forms,
        (&r, Some(&load)),
        (&w, Some(&store)),
        &l,
        IterationDistance::Exactly(1),
    );
    assert_eq!(
        exact,
        Overlap::May {
            exact: true,
            alias: false
        }
    );
    // ... and the store of i + j never meets the load of 4(i + d) + j',
    // d >= 1 (i + j <= i + 1 < 4i + 4).
    assert_eq!(
        may_depend_at(
            &mut forms,
            (&w, Some(&store)),
            (&r, Some(&load)),
            &l,
            IterationDistance::AtLeast(1),
        ),
        Overlap::Disjoint
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The dependence test with the paths of accesses in loops nested in the
    /// body, against enumeration: a store at `a i + b + c j` (`j` in `[0,
    /// m)`) and a load at `a' i + b' + c' k` (`k` in `[0, n)`), in a loop
    /// of `trips` iterations from `lb`, `d` iterations apart.
    #[test]
    fn nested_dependence_agrees_with_enumeration(
        (a, b, c) in (-3i64..=3, 0i64..=12, -3i64..=3),
        (a2, b2, c2) in (-3i64..=3, 0i64..=12, -3i64..=3),
        m in 1i64..4, n in 1i64..4, lb in 0i64..3, trips in 0i64..6, d in 0u64..4,
    ) {
        let text = format!(
            "func.func @f(%buf: memref<256xf32>, %v: f32) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lb = arith.constant {lb} : index
  %ub = arith.constant {ub} : index
  %m = arith.constant {m} : index
  %n = arith.constant {n} : index
  %a = arith.constant {a} : index
  %b = arith.constant {b} : index
  %c = arith.constant {c} : index
  %a2 = arith.constant {a2} : index
  %b2 = arith.constant {b2} : index
  %c2 = arith.constant {c2} : index
  scf.for %i = %lb to %ub step %c1 {{
    %ai = arith.muli %i, %a : index
    %base = arith.addi %ai, %b : index
    scf.for %j = %c0 to %m step %c1 {{
      %cj = arith.muli %j, %c : index
      %x = arith.addi %base, %cj : index
      memref.store %v, %buf[%x] : memref<256xf32>
    }}
    scf.for %k = %c0 to %n step %c1 {{
      %ai2 = arith.muli %i, %a2 : index
      %ck = arith.muli %k, %c2 : index
      %y0 = arith.addi %ai2, %b2 : index
      %y = arith.addi %y0, %ck : index
      %r = memref.load %buf[%y] : memref<256xf32>
    }}
  }}
  return
}}",
            ub = lb + trips,
        );
        let context = apipe_dialect::create_context().unwrap();
        let module = parse(&context, &text);
        let store = find(&module, "memref.store", 0);
        let load = find(&module, "memref.load", 0);
        let l = find(&module, "scf.for", 0);
        let mut forms = Forms::new();
        let w = access(&mut forms, &store, AccessKind::Write);
        let r = access(&mut forms, &load, AccessKind::Read);
        let verdict = may_depend_at(
            &mut forms,
            (&w, Some(&store)),
            (&r, Some(&load)),
            &l,
            IterationDistance::Exactly(d),
        );
        let mut real = false;
        for t in 0..trips {
            let later = t + d as i64;
            if later >= trips {
                continue;
            }
            let (i, i2) = (lb + t, lb + later);
            for j in 0..m {
                for k in 0..n {
                    real |= a * i + b + c * j == a2 * i2 + b2 + c2 * k;
                }
            }
        }
        if real {
            prop_assert!(verdict.may(), "missed a dependence: {text}");
        }
        if let Overlap::May { exact: true, .. } = verdict {
            prop_assert!(real, "claimed an exact dependence that is not there: {text}");
        }
        // The same store against itself at other iterations of its inner
        // loop, in one iteration: `c (j - j') = 0`, `j != j'`.
        let inner = find(&module, "scf.for", 1);
        let self_verdict = may_depend_at(
            &mut forms,
            (&w, Some(&store)),
            (&w, Some(&store)),
            &inner,
            IterationDistance::AtLeast(1),
        );
        let self_real = trips > 0 && m > 1 && c == 0;
        if self_real {
            prop_assert!(self_verdict.may(), "missed a self dependence: {text}");
        }
    }
}

#[test]
fn tightened_nonneg_divides_by_the_gcd_and_rounds_down() {
    // -2t + 1 >= 0 over the integers is -t >= 0 (t <= 0).
    let x = sym(0).scaled(-2).unwrap().offset(1).unwrap();
    assert_eq!(x.tightened_nonneg(), sym(0).scaled(-1).unwrap());
    // 4t - 6u - 3 >= 0 is 2t - 3u - 2 >= 0.
    let y = sym(0)
        .scaled(4)
        .unwrap()
        .plus(&sym(1), -6)
        .unwrap()
        .offset(-3)
        .unwrap();
    let want = sym(0)
        .scaled(2)
        .unwrap()
        .plus(&sym(1), -3)
        .unwrap()
        .offset(-2)
        .unwrap();
    assert_eq!(y.tightened_nonneg(), want);
    // Coprime coefficients and constants stay.
    let z = sym(0).plus(&sym(1), 2).unwrap().offset(-7).unwrap();
    assert_eq!(z.clone().tightened_nonneg(), z);
    assert_eq!(Lin::constant(-3).tightened_nonneg(), Lin::constant(-3));
}

/// How the slot of [`slot_forms_agree_with_execution`] advances.
#[derive(Clone, Copy, Debug)]
enum Advance {
    /// `arith.remui (x + 1), k`.
    Remainder,
    /// `select(x + 1 == k, 0, x + 1)`.
    WrapOnIncrement,
    /// `select(x == k - 1, 0, x + 1)`.
    WrapOnIndex,
    /// `select(x + 1 != k, x + 1, 0)`.
    NotWrapped,
    /// `x + 0` (not advanced).
    Kept,
}

impl Advance {
    fn next(self, x: i64, k: i64) -> i64 {
        match self {
            Advance::Remainder => ((x + 1) as u64 % k as u64) as i64,
            Advance::WrapOnIncrement | Advance::NotWrapped => {
                if x + 1 == k {
                    0
                } else {
                    x + 1
                }
            }
            Advance::WrapOnIndex => {
                if x == k - 1 {
                    0
                } else {
                    x + 1
                }
            }
            Advance::Kept => x,
        }
    }

    fn mlir(self) -> &'static str {
        match self {
            Advance::Remainder => "    %inc = arith.addi %s, %c1 : index\n    %next = arith.remui %inc, %k : index\n",
            Advance::WrapOnIncrement => "    %inc = arith.addi %s, %c1 : index\n    %w = arith.cmpi eq, %inc, %k : index\n    %next = arith.select %w, %c0, %inc : index\n",
            Advance::WrapOnIndex => "    %inc = arith.addi %s, %c1 : index\n    %km1 = arith.subi %k, %c1 : index\n    %w = arith.cmpi eq, %s, %km1 : index\n    %next = arith.select %w, %c0, %inc : index\n",
            Advance::NotWrapped => "    %inc = arith.addi %c1, %s : index\n    %w = arith.cmpi ne, %inc, %k : index\n    %next = arith.select %w, %inc, %c0 : index\n",
            Advance::Kept => "    %next = arith.addi %s, %c0 : index\n",
        }
    }
}

fn advance() -> impl Strategy<Value = Advance> {
    prop_oneof![
        Just(Advance::Remainder),
        Just(Advance::WrapOnIncrement),
        Just(Advance::WrapOnIndex),
        Just(Advance::NotWrapped),
        Just(Advance::Kept),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// A slot carried through iter_args (advanced from `init` on `k` slots,
    /// possibly out of range) and a window of `depth` older slots passed
    /// along after it (their inits `shift` off the slots before the loop):
    /// wherever a form of an iter_arg or a loop result is a function of the
    /// iteration alone, it gives the executed value in every iteration
    /// (the folds of `crate::access::slot` and the shift rule are sound).
    #[test]
    fn slot_forms_agree_with_execution(
        how in advance(), k in 1i64..=4, init in -1i64..=5, depth in 0usize..=2,
        shift in -1i64..=1, trips in 0i64..7,
    ) {
        // Window inits: slot j before the loop is the slot of iteration
        // -1 - j, computed backwards where possible, then shifted.
        let mut inits = vec![init];
        for j in 0..depth {
            let back = (0..k.max(1) + 2).find(|p| how.next(*p, k) == inits[j]).unwrap_or(inits[j]);
            inits.push(if j + 1 == depth { back + shift } else { back });
        }
        let names: Vec<String> = (0..=depth).map(|j| format!("%s{j}")).collect();
        let init_values: Vec<String> = inits.iter().enumerate().map(|(j, _)| format!("%i{j}")).collect();
        let mut consts = String::new();
        for (j, v) in inits.iter().enumerate() {
            consts += &format!("  %i{j} = arith.constant {v} : index\n");
        }
        // The yields: the newest slot advanced, each older one the slot
        // one newer.
        let mut yields = vec!["%next".to_string()];
        yields.extend(names[..depth].iter().cloned());
        let types = vec!["index"; depth + 1].join(", ");
        let args: Vec<String> = names.iter().zip(&init_values).map(|(n, i)| format!("{n} = {i}")).collect();
        let text = format!(
            "func.func @f(%buf: memref<64xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant {k} : index
  %n = arith.constant {trips} : index
{consts}  %r:{} = scf.for %i = %c0 to %n step %c1 iter_args({}) -> ({types}) {{
{}{}    scf.yield {} : {types}
  }}
  return
}}",
            depth + 1,
            args.join(", "),
            "    %s = arith.addi %s0, %c0 : index\n",
            how.mlir(),
            yields.join(", "),
        );
        let context = apipe_dialect::create_context().unwrap();
        let module = parse(&context, &text);
        let l = find(&module, "scf.for", 0);
        let body = l.region(0).unwrap().first_block().unwrap();
        let mut forms = Forms::new();
        let tau = Symbol::Iteration(values::op_key(&l));
        // Execute.
        let mut state = inits.clone();
        let mut history = vec![state.clone()];
        for _ in 0..trips {
            let mut next = vec![how.next(state[0], k)];
            next.extend(state[..depth].iter().copied());
            state = next;
            history.push(state.clone());
        }
        // Slots (K >= 2) from a constant in range, a window that matches them: every
        // form must be followed (precision), not only be right.
        let followed = k >= 2 && (0..k).contains(&init) && (depth == 0 || shift == 0);
        for j in 0..=depth {
            let arg = body.argument(j + 1).unwrap();
            let form = forms.of(arg.into());
            if form.mentions(Symbol::Value(values::value_key(arg.into()))) {
                prop_assert!(!followed, "iter_arg {} not followed: {}\n{}", j, form, text);
                continue;
            }
            for (t, values_at) in history.iter().enumerate().take(trips as usize) {
                let got = form.evaluate(&|s| (s == tau).then_some(t as i64));
                prop_assert_eq!(got, Some(values_at[j]), "iter_arg {} at iteration {}: {}\n{}", j, t, form, text);
            }
            let result = forms.of(l.result(j).unwrap().into());
            match result.evaluate(&|_| None) {
                Some(got) => prop_assert_eq!(got, state[j], "result {}: {}\n{}", j, result, text),
                None => prop_assert!(!followed, "result {} not followed: {}\n{}", j, result, text),
            }
        }
    }
}

#[test]
fn substituted_dividends_keep_their_direct_bounds() {
    // The versions and slots of a pipelined loop over slots the user wrote
    // as `(i + 1) mod 3`: version `t mod 4` against `(t + 3) mod 4` (never
    // equal), with `(t + 1) mod 3 = (t + 4) mod 3` (always) for t in
    // [0, 4]. Solving the second equality for `t` gives a definition whose
    // range is wider than [0, 4]; `t mod 4` still gets its exact definition.
    let t = sym(0);
    let mut system = System::new();
    system.extend(range(0, 0, 4));
    let version = Lin::modulo(t.clone(), 4, Signedness::Unsigned);
    let later = Lin::modulo(t.offset(3).unwrap(), 4, Signedness::Unsigned);
    system.push(Constraint::eq(&version, &later).unwrap());
    let slot = Lin::modulo(t.offset(1).unwrap(), 3, Signedness::Euclidean);
    let later_slot = Lin::modulo(t.offset(4).unwrap(), 3, Signedness::Euclidean);
    system.push(Constraint::eq(&slot, &later_slot).unwrap());
    assert_eq!(system.feasible(), Feasibility::Infeasible);
    // The same slots with versions that do meet: (t + 4) mod 4 = t mod 4.
    let mut system = System::new();
    system.extend(range(0, 0, 4));
    let same = Lin::modulo(t.offset(4).unwrap(), 4, Signedness::Unsigned);
    system.push(Constraint::eq(&version, &same).unwrap());
    system.push(Constraint::eq(&slot, &later_slot).unwrap());
    assert_eq!(system.feasible(), Feasibility::Feasible { exact: true });
    assert_eq!(system.range_of(&t), Some((Some(0), Some(4))));
}

#[test]
fn answers_are_remembered_per_renaming_only() {
    System::forget_answers();
    // (a + 2) mod 3 = a mod 3 with a >= 0: never, whatever `a` is called.
    let never = |a: Lin| {
        let mut system = System::new();
        system.push(ge(a.clone()));
        let x = Lin::modulo(a.offset(2).unwrap(), 3, Signedness::Unsigned);
        let y = Lin::modulo(a, 3, Signedness::Unsigned);
        system.push(Constraint::eq(&x, &y).unwrap());
        system
    };
    assert_eq!(never(sym(0)).feasible(), Feasibility::Infeasible);
    assert_eq!(never(sym(7)).feasible(), Feasibility::Infeasible);
    // The same shape with another constant is another system: (a + 3) mod
    // 3 = a mod 3 holds (a witness with `a` bounded).
    let a = sym(7);
    let mut system = System::new();
    system.extend(range(7, 0, 9));
    let x = Lin::modulo(a.offset(3).unwrap(), 3, Signedness::Unsigned);
    let y = Lin::modulo(a.clone(), 3, Signedness::Unsigned);
    system.push(Constraint::eq(&x, &y).unwrap());
    assert_eq!(system.feasible(), Feasibility::Feasible { exact: true });
    // Two symbols in the other order are not confused: b >= a + 1 and
    // a >= b + 1 is infeasible, b >= a + 1 and a >= b - 1 is not.
    let (a, b) = (sym(1), sym(2));
    let ordered = |slack: i64| {
        let mut system = System::new();
        system.push(Constraint::le(&a.offset(1).unwrap(), &b).unwrap());
        system.push(Constraint::le(&b.offset(slack).unwrap(), &a).unwrap());
        system
    };
    assert_eq!(ordered(1).feasible(), Feasibility::Infeasible);
    assert!(ordered(-1).feasible().may());
    System::forget_answers();
    assert_eq!(ordered(1).feasible(), Feasibility::Infeasible);
}

/// A random pair of version-index forms of one dimension, as a pipelined
/// loop makes them: `(a*τ + b) mod V` on both sides (the same `a`, `V` and
/// signedness, different offsets), `a*τ + x + b`, or constants; over an
/// iteration count `τ` (never negative) and a free symbol `x`.
fn version_pair() -> impl Strategy<Value = (Lin, Lin)> {
    (0u8..3, -2i64..=3, -4i64..=6, -4i64..=6, 1i64..=6, 0u8..3).prop_filter_map(
        "the form overflows i64",
        |(shape, a, b1, b2, v, sign)| {
            let sign = [
                Signedness::Unsigned,
                Signedness::Signed,
                Signedness::Euclidean,
            ][sign as usize];
            let tau = Lin::symbol(Symbol::Iteration(1));
            let side = |b: i64| -> Option<Lin> {
                let x = tau.scaled(a)?.offset(b)?;
                match shape {
                    0 => Some(Lin::modulo(x, v, sign)),
                    1 => x.plus(&sym(0), 1),
                    _ => Some(Lin::constant(b)),
                }
            };
            Some((side(b1)?, side(b2)?))
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// [`disjoint_by_forms`] is a proof: regions it calls disjoint share no
    /// element for any iteration count in [0, 12] and free symbol in
    /// [-4, 4], with remainders taken as the op would.
    #[test]
    fn disjoint_by_forms_is_sound(
        starts in proptest::collection::vec((version_pair(), 1i64..=3, 1i64..=3), 1..3),
    ) {
        let root = Root { symbol: Symbol::Value(7), kind: RootKind::Fresh, space: "".into() };
        let region = |side: usize| Region {
            root: root.clone(),
            dims: Some(starts.iter().map(|((a, b), ea, eb)| Dim::Range {
                start: if side == 0 { a.clone() } else { b.clone() },
                extent: if side == 0 { *ea } else { *eb },
            }).collect()),
        };
        let (a, b) = (region(0), region(1));
        if !disjoint_by_forms(&a, &b, &mut |_| true) {
            return Ok(());
        }
        for tau in 0..=12 {
            for x in -4..=4 {
                let value = |s: Symbol| match s {
                    Symbol::Iteration(_) => Some(tau),
                    Symbol::Fresh(0) => Some(x),
                    _ => None,
                };
                let meets = starts.iter().all(|((sa, sb), ea, eb)| {
                    match (exact_value(sa, &value), exact_value(sb, &value)) {
                        (Some(p), Some(q)) => p < q + i128::from(*eb) && q < p + i128::from(*ea),
                        _ => true,
                    }
                });
                prop_assert!(!meets, "called disjoint, meet at τ = {tau}, x = {x}: {:?}", starts);
            }
        }
    }
}

#[test]
fn disjoint_by_forms_separates_versions_only_where_fixed() {
    let tau = Lin::symbol(Symbol::Iteration(1));
    let tid = Lin::symbol(Symbol::Value(9));
    let version = |k: i64| Lin::modulo(tau.offset(k).unwrap(), 3, Signedness::Unsigned);
    let region = |v: Lin| Region {
        root: Root {
            symbol: Symbol::Value(7),
            kind: RootKind::Fresh,
            space: "3".into(),
        },
        dims: Some(vec![
            Dim::Range {
                start: v,
                extent: 1,
            },
            Dim::Range {
                start: tid.clone(),
                extent: 1,
            },
        ]),
    };
    // buf[(τ + 2) mod 3, tid] and buf[τ mod 3, tid]: versions 2 apart.
    assert!(disjoint_by_forms(
        &region(version(2)),
        &region(version(0)),
        &mut |_| true
    ));
    // The same version: no proof (they meet).
    assert!(!disjoint_by_forms(
        &region(version(3)),
        &region(version(0)),
        &mut |_| true
    ));
    // Constant versions 0 and 1.
    assert!(disjoint_by_forms(
        &region(Lin::constant(0)),
        &region(Lin::constant(1)),
        &mut |_| true
    ));
    // `τ - 1` may be negative: its unsigned remainder is no version.
    assert!(!disjoint_by_forms(
        &region(version(-1)),
        &region(version(0)),
        &mut |_| true
    ));
    // A dimension whose symbols another thread renames decides nothing.
    assert!(!disjoint_by_forms(
        &region(version(2)),
        &region(version(0)),
        &mut |s| !matches!(s, Symbol::Iteration(_))
    ));
}

/// [`Lin::substitute`] as a sum rebuilt term by term (every term through
/// [`Lin::plus`]): the normal form the fast paths of
/// [`Lin::substituted`] (in-place renames and shifts) must give as well.
fn substitute_by_sums(f: &Lin, map: &dyn Fn(Symbol) -> Option<Lin>) -> Option<Lin> {
    let mut out = Lin::constant(f.constant_term());
    for (atom, coefficient) in f.terms() {
        let replaced = match atom {
            Atom::Sym(s) => map(*s).unwrap_or_else(|| Lin::symbol(*s)),
            Atom::Mod(x, v, sign) => Lin::modulo(substitute_by_sums(x, map)?, *v, *sign),
            Atom::Div(x, v, sign) => Lin::div(substitute_by_sums(x, map)?, *v, *sign),
        };
        out = out.plus(&replaced, coefficient)?;
    }
    Some(out)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Renames (`a -> b + c`, two symbols onto one, a symbol onto itself
    /// shifted), general replacements and untouched symbols give the same
    /// form, in normal form, as the sum rebuilt term by term; an untouched
    /// form is reported as such.
    #[test]
    fn substituted_matches_the_sum_term_by_term(
        f in form(),
        replacement in form(),
        kinds in proptest::collection::vec((0u8..3, 0usize..3, -4i64..=4), 3),
    ) {
        let map = |s: Symbol| -> Option<Lin> {
            let Symbol::Fresh(n) = s else { return None };
            let (kind, target, shift) = *kinds.get(n as usize)?;
            match kind {
                0 => None,
                1 => sym(target).offset(shift),
                _ => Some(replacement.clone()),
            }
        };
        let want = substitute_by_sums(&f, &map);
        prop_assert_eq!(f.substitute(&map), want.clone());
        if let Some(Some(changed)) = f.substituted(&map) {
            prop_assert_eq!(Some(changed), want);
        } else if let Some(None) = f.substituted(&map) {
            prop_assert_eq!(Some(f.clone()), want);
        }
    }
}

#[test]
fn exact_divisions_fold() {
    let tau = Lin::symbol(Symbol::Iteration(8));
    let two_tau = tau.scaled(2).unwrap();
    // The iteration number of a loop of step 2: (2τ) div 2 = τ, also
    // unsigned (τ >= 0); (2τ + 4) mod 2 = 0.
    assert_eq!(Lin::div(two_tau.clone(), 2, Signedness::Unsigned), tau);
    assert_eq!(
        Lin::modulo(two_tau.offset(4).unwrap(), 2, Signedness::Unsigned),
        Lin::constant(0)
    );
    // A symbol of any sign: signed and Euclidean divisions are exact, an
    // unsigned one is not (a negative dividend divides as a large number).
    let two_x = sym(0).scaled(2).unwrap();
    assert_eq!(Lin::div(two_x.clone(), 2, Signedness::Signed), sym(0));
    assert_eq!(Lin::div(two_x.clone(), 2, Signedness::Euclidean), sym(0));
    assert_ne!(Lin::div(two_x.clone(), 2, Signedness::Unsigned), sym(0));
    assert_ne!(
        Lin::modulo(two_x, 2, Signedness::Unsigned),
        Lin::constant(0)
    );
    // Not divisible: stays a quotient.
    assert_ne!(Lin::div(tau.scaled(3).unwrap(), 2, Signedness::Signed), tau);
}

#[test]
fn modulus_split_separates_threads_of_a_block_stride_nest() {
    // The linearized index of a 2-D block-stride nest, `16 r + c` with
    // `r = ty + 2 τr`, `c = tx + 4 τc` (a 4 x 2 block), in two threads:
    // equal only for the same thread in the same iterations, so never with
    // `τr' <= τr - 1` (the other thread's copy of an earlier iteration).
    // Over the reals it is feasible; the split by modulus 4, 4 and 2 gives
    // `tx = tx'`, `τc = τc'`, `ty = ty'`, `τr = τr'`.
    let (tx, ty, tc, tr) = (0, 1, 2, 3);
    let other = |s: usize| s + 4;
    let index = |base: usize| {
        sym(base + ty)
            .scaled(16)
            .and_then(|x| x.plus(&sym(base + tr), 32))
            .and_then(|x| x.plus(&sym(base + tx), 1))
            .and_then(|x| x.plus(&sym(base + tc), 4))
            .unwrap()
    };
    let system = |ty_hi: i64| {
        let mut system = System::new();
        for base in [0, 4] {
            system.extend(range(base + tx, 0, 3));
            system.extend(range(base + ty, 0, ty_hi));
            system.push(ge(sym(base + tc)));
            system.push(ge(sym(base + tr)));
            // c = tx + 4 τc <= 15, r = ty + 2 τr <= 15.
            let c = sym(base + tx).plus(&sym(base + tc), 4).unwrap();
            system.push(Constraint::le(&c, &Lin::constant(15)).unwrap());
            let r = sym(base + ty).plus(&sym(base + tr), 2).unwrap();
            system.push(Constraint::le(&r, &Lin::constant(15)).unwrap());
        }
        system.push(Constraint::eq(&index(0), &index(4)).unwrap());
        system.push(Constraint::le(&sym(other(tr)), &sym(tr).offset(-1).unwrap()).unwrap());
        system
    };
    assert_eq!(system(1).feasible(), Feasibility::Infeasible);
    // With `ty` up to 2 (3 rows of threads, the step still 2), thread row
    // 2's first row is thread row 0's second: feasible, and the split
    // (`ty - ty'` has two multiples of 2 in range) must not lose it.
    assert!(system(2).feasible().may());
}
