//! Property tests of trip counts (`apipe_passes::trip_count`) against `i128`
//! arithmetic, for random lower bounds, upper bounds and steps, signed and
//! unsigned, biased towards the edges of the 64-bit range:
//!
//! 1. [`trip_count`] equals `ceil((ub - lb) / step)` (or 0) computed in
//!    `i128` on the bounds read signed or unsigned;
//! 2. the code the pipeliner emits for dynamic bounds computes the same
//!    count: the ops from the function arguments to the `scf.index_switch`
//!    selector (`min(N, S)`) and to the kernel's upper bound (`N - S`) are
//!    evaluated in 64-bit wrapping arithmetic, as the hardware does.

use apipe_dialect::ops;
use apipe_passes::{
    software_pipeline::{pipeline_for_loop, PipelineOptions},
    trip_count::trip_count,
};
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, BlockLike, Module, OperationRef,
    RegionLike,
};
use proptest::prelude::*;
use std::collections::HashMap;

/// The number of random cases of each property.
const CASES: u32 = 100_000;

/// The reference: the iterations of `for iv = lb; iv < ub; iv += step` in
/// exact (`i128`) arithmetic.
fn reference(lower: i64, upper: i64, step: i64, unsigned: bool) -> Option<u128> {
    if step <= 0 {
        return None;
    }
    let read = |v: i64| {
        if unsigned {
            i128::from(v as u64)
        } else {
            i128::from(v)
        }
    };
    let (l, u, s) = (read(lower), read(upper), i128::from(step));
    Some(if u > l {
        ((u - l + s - 1) / s) as u128
    } else {
        0
    })
}

/// A 64-bit value biased to the edges: near 0, near `i64::MIN`/`MAX`, near
/// `±2^62`, or anything.
fn edgy() -> impl Strategy<Value = i64> {
    prop_oneof![
        -64i64..64,
        (0i64..64).prop_map(|d| i64::MAX - d),
        (0i64..64).prop_map(|d| i64::MIN + d),
        (-64i64..64).prop_map(|d| (1i64 << 62).wrapping_add(d)),
        (-64i64..64).prop_map(|d| (-(1i64 << 62)).wrapping_add(d)),
        any::<i64>(),
    ]
}

/// A positive step: small, near a power of two, or anything positive.
fn step() -> impl Strategy<Value = i64> {
    prop_oneof![
        1i64..16,
        (0u32..63, -2i64..3).prop_map(|(k, d)| ((1i64 << k) + d).max(1)),
        1i64..=i64::MAX,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn trip_count_matches_i128(lower in edgy(), upper in edgy(), step in step(), unsigned in any::<bool>()) {
        let got = trip_count(lower, upper, step, unsigned).map(u128::from);
        prop_assert_eq!(got, reference(lower, upper, step, unsigned));
    }
}

#[test]
fn non_positive_steps_have_no_trip_count() {
    for step in [0, -1, i64::MIN] {
        assert_eq!(trip_count(0, 10, step, false), None);
        assert_eq!(trip_count(0, 10, step, true), None);
    }
}

/// A two-stage loop over dynamic bounds; `UNSIGNED` is `unsigned ` or empty.
const DYNAMIC: &str = r#"
func.func @f(%A: memref<64xf32>, %out: memref<4xf32> {llvm.noalias}, %lb: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for UNSIGNED%i = %lb to %ub step %step {
    "apipe.copy"(%A, %buf, %c0, %c0) {elements = 4 : i64, apipe.stage = 0 : i64} : (memref<64xf32>, memref<4xf32>, index, index) -> ()
    %x = memref.load %buf[%c1] {apipe.stage = STAGE : i64} : memref<4xf32>
    memref.store %x, %out[%c0] {apipe.stage = STAGE : i64} : memref<4xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}
"#;

/// An index expression read back from the emitted IR: the function's
/// arguments 2, 3 and 4 (lb, ub, step), constants and the `arith` ops the
/// trip count uses.
enum Expr {
    Argument(usize),
    Constant(u64),
    Op(String, i64, Vec<Expr>),
}

impl Expr {
    /// Reads the expression that computes `value`.
    fn read(value: melior::ir::Value) -> Self {
        if let Ok(argument) = melior::ir::block::BlockArgument::try_from(value) {
            return Expr::Argument(argument.argument_number() - 2);
        }
        let op = melior::ir::operation::OperationResult::try_from(value)
            .unwrap()
            .owner();
        let name = ops::name(&op);
        if name == "arith.constant" {
            let a = op.attribute("value").unwrap();
            return Expr::Constant(IntegerAttribute::try_from(a).unwrap().value() as u64);
        }
        let predicate = op
            .attribute("predicate")
            .ok()
            .map_or(-1, |a| IntegerAttribute::try_from(a).unwrap().value());
        let operands = op.operands().map(Expr::read).collect();
        Expr::Op(name.to_owned(), predicate, operands)
    }

    /// Evaluates it in 64-bit wrapping arithmetic, as the hardware does.
    fn evaluate(&self, arguments: &[u64; 3]) -> u64 {
        match self {
            Expr::Argument(i) => arguments[*i],
            Expr::Constant(c) => *c,
            Expr::Op(name, predicate, operands) => {
                let v: Vec<u64> = operands.iter().map(|e| e.evaluate(arguments)).collect();
                match name.as_str() {
                    "arith.subi" => v[0].wrapping_sub(v[1]),
                    "arith.addi" => v[0].wrapping_add(v[1]),
                    "arith.maxui" => v[0].max(v[1]),
                    "arith.minui" => v[0].min(v[1]),
                    // MLIR defines it as `a == 0 ? 0 : (a - 1) / b + 1`.
                    "arith.ceildivui" => {
                        if v[0] == 0 {
                            0
                        } else {
                            (v[0] - 1) / v[1] + 1
                        }
                    }
                    // MLIR's arith.cmpi predicates: 2 = slt, 6 = ult.
                    "arith.cmpi" => u64::from(match predicate {
                        2 => (v[0] as i64) < (v[1] as i64),
                        6 => v[0] < v[1],
                        p => panic!("unexpected predicate {p}"),
                    }),
                    "arith.select" => {
                        if v[0] != 0 {
                            v[1]
                        } else {
                            v[2]
                        }
                    }
                    other => panic!("the trip count uses an unexpected op {other}"),
                }
            }
        }
    }
}

/// Pipelines [`DYNAMIC`] and returns the module with its switch selector
/// and the kernel's upper bound (in the switch's default region).
fn pipelined_dynamic(context: &melior::Context, unsigned: bool, stage: i64) -> Module<'_> {
    let text = DYNAMIC
        .replace("UNSIGNED", if unsigned { "unsigned " } else { "" })
        .replace("STAGE", &stage.to_string());
    let module = Module::parse(context, &text).unwrap();
    let function = module.body().first_operation().unwrap();
    let for_op = ops::nested_ops(&function)
        .into_iter()
        .find(|op| ops::is(op, "scf.for"))
        .unwrap();
    pipeline_for_loop(for_op, PipelineOptions::default()).unwrap();
    assert!(module.as_operation().verify());
    module
}

fn switch_and_kernel<'c, 'a>(
    module: &'a Module<'c>,
) -> (OperationRef<'c, 'a>, OperationRef<'c, 'a>) {
    let all = ops::nested_ops(&module.as_operation());
    let switch = *all
        .iter()
        .find(|op| ops::is(*op, "scf.index_switch"))
        .unwrap();
    let default = switch.region(0).unwrap();
    let kernel = all
        .iter()
        .find(|op| {
            ops::is(*op, "scf.for")
                && op
                    .block()
                    .and_then(|b| b.parent_region())
                    .is_some_and(|r| r.to_raw().ptr == default.to_raw().ptr)
        })
        .copied()
        .unwrap();
    (switch, kernel)
}

/// The emitted dynamic trip count: the selector is `min(N, S)` and, when
/// `N >= S`, the kernel runs `N - S` iterations under its own comparison
/// (unsigned when `N` may exceed `i64::MAX`). The loop is pipelined once per
/// (signedness, stage count); the random bounds only change the evaluation.
#[test]
fn emitted_dynamic_trip_count_matches_i128() {
    let context = apipe_dialect::create_context().unwrap();
    let modules: Vec<((bool, i64), Module)> = [false, true]
        .into_iter()
        .flat_map(|u| (1..4).map(move |s| (u, s)))
        .map(|(u, s)| ((u, s), pipelined_dynamic(&context, u, s)))
        .collect();
    // (selector, kernel upper bound, kernel compares unsigned) per loop.
    let loops: HashMap<(bool, i64), (Expr, Expr, bool)> = modules
        .iter()
        .map(|(k, m)| {
            let (switch, kernel) = switch_and_kernel(m);
            let selector = Expr::read(switch.operand(0).unwrap());
            let upper = Expr::read(kernel.operand(1).unwrap());
            (*k, (selector, upper, kernel.has_attribute("unsignedCmp")))
        })
        .collect();
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(CASES));
    let strategy = (edgy(), edgy(), step(), any::<bool>(), 1i64..4);
    runner
        .run(&strategy, |(lower, upper, step, unsigned, stage)| {
            let (selector, kernel_upper, kernel_unsigned) = &loops[&(unsigned, stage)];
            let arguments = [lower as u64, upper as u64, step as u64];
            let n = reference(lower, upper, step, unsigned).unwrap();
            prop_assert_eq!(
                u128::from(selector.evaluate(&arguments)),
                n.min(stage as u128)
            );
            if n >= stage as u128 {
                let kernel_upper = kernel_upper.evaluate(&arguments);
                // Iterations of `for t = 0 to kernel_upper step 1`.
                let runs = if *kernel_unsigned {
                    u128::from(kernel_upper)
                } else {
                    (kernel_upper as i64).max(0) as u128
                };
                prop_assert_eq!(runs, n - stage as u128);
            }
            Ok(())
        })
        .unwrap();
}
