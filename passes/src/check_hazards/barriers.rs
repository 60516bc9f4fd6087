//! Barriers that some threads of a block may skip: a `gpu.barrier` (or
//! `nvvm.barrier0`) under control flow that depends on the thread id.
//!
//! Rule (MLIR GPUOps.td, `gpu.barrier`: "Either none or all work items of a
//! workgroup need to execute this op in convergence"; PTX ISA 9.7.13.1
//! `bar.sync`, the same for the threads of a CTA): every thread of the
//! block reaches each barrier. A thread that skips one leaves the others
//! waiting at it (a deadlock), or pairs its next barrier with theirs, so
//! that the barriers no longer order what the checker relies on them to
//! order.
//!
//! Algorithm: per function (a `gpu.launch` body is one) that holds a
//! barrier, the divergence analysis of
//! [`crate::tokens_to_mbarrier::divergence`]; a barrier is reported when an
//! op around it, up to the function, branches on a divergent condition
//! (`scf.if`, `scf.index_switch`, `scf.while`) or is an `scf.for` whose
//! bounds or step are divergent (its trip count differs per thread), with
//! a note at that op.
//!
//! Conservative as the divergence analysis is: a thread-dependent condition
//! that holds for every thread of the launched block (`tid < 128` in a
//! block of 128 threads) is still reported, as
//! `apipe-software-pipeline` refuses such a loop when it needs barriers.

use super::{Hazard, HazardKind};
use crate::tokens_to_mbarrier::divergence::{divergent_parent, Divergence};
use apipe_dialect::ops;
use melior::ir::{operation::OperationLike, OperationRef};

/// Op names of the block-wide barriers.
const BARRIERS: &[&str] = &["gpu.barrier", "nvvm.barrier0"];

/// The barriers of `function` (with its nested ops `nested`) that some
/// threads may skip, each a [`HazardKind::DivergentBarrier`] error at the
/// barrier with a note at the diverging op. Nested functions (a
/// `gpu.launch` in a host function) are left to their own call.
pub(super) fn divergent_barriers<'c: 'a, 'a>(
    function: &OperationRef<'c, 'a>,
    nested: &[OperationRef<'c, 'a>],
) -> Vec<Hazard<'c, 'a>> {
    let mut holding = Vec::new();
    let barriers: Vec<OperationRef<'c, 'a>> = nested
        .iter()
        .filter(|op| {
            BARRIERS.contains(&ops::name(*op))
                || crate::group_distance::is_call(*op)
                    && crate::access::effects::callee_function(op)
                        .is_some_and(|f| holds_barrier(&f, &mut holding, &mut Vec::new()))
        })
        .filter(|op| crate::group_distance::enclosing_function(**op) == Some(*function))
        .copied()
        .collect();
    if barriers.is_empty() {
        return Vec::new();
    }
    let divergence = Divergence::compute(function);
    let mut forms = crate::access::Forms::new();
    barriers
        .into_iter()
        .filter_map(|barrier| {
            // A call whose thread-dependent operands may decide whether the
            // callee reaches its barrier (trial 41: `@h(%c)` holding
            // `scf.if %c { gpu.barrier }`, called with `tid < 1`, was
            // silent): the call itself is the deciding op.
            // A buffer of the thread's own (private memory) may hold
            // thread-dependent values too (trial 42: the thread id passed
            // through an alloca).
            // An operand that folds to a constant is the same in every
            // thread, whatever it is computed from (trial 45: `ori %c,
            // %true` with `%c = tid < 4`, a false divergent barrier).
            let mut decided_inside = || {
                !BARRIERS.contains(&ops::name(&barrier))
                    && barrier.operands().any(|v| {
                        divergence.is_divergent(v) && forms.folded(v).is_none()
                            || crate::access::region::is_memref(v)
                                && crate::access::region::is_thread_private(v)
                    })
                    && crate::access::effects::callee_function(&barrier)
                        .is_some_and(|f| conditional_barrier(&f, &mut Vec::new()))
            };
            let parent = match divergent_parent(&divergence, &barrier, function) {
                Some(parent) => parent,
                None if decided_inside() => barrier,
                None => return None,
            };
            let why = match ops::name(&parent) {
                _ if parent == barrier => {
                    "passes values that depend on the thread id to a function that reaches a barrier under control flow"
                }
                "scf.for" => {
                    "whose bounds or step depend on the thread id (so does its trip count)"
                }
                _ => "whose condition depends on the thread id",
            };
            let called = if BARRIERS.contains(&ops::name(&barrier)) {
                ""
            } else if parent == barrier {
                " (or its callee's barrier, under control flow that the call's thread-dependent operands may decide)"
            } else {
                " (it calls a function that holds a barrier)"
            };
            Some(Hazard {
                kind: HazardKind::DivergentBarrier,
                conservative: false,
                at: barrier,
                other: parent,
                message: format!(
                    "'{}' op may be reached by only some threads of the block{called}: every \
                     thread must reach each barrier, and the threads that skip it leave the \
                     others waiting (a deadlock) ({})",
                    ops::name(&barrier),
                    HazardKind::DivergentBarrier.name()
                ),
                notes: vec![(
                    parent.location(),
                    format!("the '{}' {why}", ops::name(&parent)),
                )],
            })
        })
        .collect()
}

/// True if `function` holds a barrier, or calls a function that does
/// (trial 40: a helper's barrier called under a thread-dependent condition
/// went unreported). `holding`: functions (op keys) known to hold one;
/// `seen`: those being looked at (a cycle of calls holds none of its own).
fn holds_barrier(function: &OperationRef, holding: &mut Vec<usize>, seen: &mut Vec<usize>) -> bool {
    let key = crate::access::values::op_key(function);
    if holding.contains(&key) {
        return true;
    }
    if seen.contains(&key) {
        return false;
    }
    seen.push(key);
    let found = ops::nested_ops(function).iter().any(|op| {
        BARRIERS.contains(&ops::name(op))
            || crate::group_distance::is_call(op)
                && crate::access::effects::callee_function(op)
                    .is_some_and(|f| holds_barrier(&f, holding, seen))
    });
    if found {
        holding.push(key);
    }
    found
}

/// True if `function` may reach a barrier under control flow: a barrier
/// outside the top level of its entry block, a call there of a function
/// that holds one, or a top-level call of a function that reaches one so.
/// `seen`: functions being looked at (a cycle of calls adds none).
fn conditional_barrier(function: &OperationRef, seen: &mut Vec<usize>) -> bool {
    let key = crate::access::values::op_key(function);
    if seen.contains(&key) {
        return false;
    }
    seen.push(key);
    let entry = ops::blocks_of(function).first().copied();
    ops::nested_ops(function).iter().any(|op| {
        let top = op.block() == entry;
        if BARRIERS.contains(&ops::name(op)) {
            return !top;
        }
        crate::group_distance::is_call(op)
            && crate::access::effects::callee_function(op).is_some_and(|f| {
                if top {
                    conditional_barrier(&f, seen)
                } else {
                    holds_barrier(&f, &mut Vec::new(), &mut Vec::new())
                }
            })
    })
}
