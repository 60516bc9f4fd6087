//! `apipe-make-sync`: the reference semantics (README, "The `apipe` dialect").
//!
//! Every `apipe.copy` becomes an ordinary synchronous copy and all
//! synchronization disappears, so the result is what the program means when
//! every group completes at once. Every transform is checked end to end
//! against it.
//!
//! Algorithm:
//! 1. check every precondition before touching the IR: each token value can
//!    be removed ([`token_values::check_removable`]); a zero-filling copy has
//!    an element type with a zero (integer, index or float);
//! 2. replace each `apipe.copy` by an `scf.for` over `elements` that loads
//!    `src[..., i + k]` and stores to `dst[..., j + k]`; with `src_elements`,
//!    `k >= src_elements` stores zero instead (PTX `src-size` zero-fill,
//!    PTX ISA 9.7.9.25.3.1);
//!    an `apipe.bulk_copy` (mbarrier form) becomes the same loop;
//! 3. erase `apipe.wait` and `apipe.wait_group`, and the ops of the
//!    mbarrier form (`apipe.mbarrier_init`, `arrive_copies`, `expect_tx`,
//!    `wait`): their ring stays, unused. In a kernel (`gpu.func`,
//!    `gpu.launch`) an `apipe.mbarrier_wait` becomes a `gpu.barrier`: the
//!    wait returns once every thread of the block arrived, and makes every
//!    thread's copies visible (docs/mbarrier.md), which is what a barrier
//!    does once the copies are synchronous. Step 1 therefore refuses a
//!    kernel's `apipe.mbarrier_wait` under control flow that depends on the
//!    thread id (a barrier there would not be reached by every thread);
//! 4. remove token values ([`token_values::strip_tokens`]);
//! 5. erase `apipe.commit_group`;
//! 6. drop the pipelining annotations (`apipe.stage`, `apipe.order`,
//!    `apipe.async_stages`): nothing is asynchronous any more.
//!
//! Postcondition: no apipe op or annotation is left.

use crate::{
    group_distance,
    pass::{PassInfo, PassOptions, RunFn},
    rewrite, token_values,
    tokens_to_mbarrier::divergence::{divergent_parent, Divergence},
};
use apipe_dialect::{attributes, diagnostic, ops, Reported};
use melior::{
    dialect::{arith, memref, scf, DialectHandle},
    ir::{
        attribute::{Attribute, IntegerAttribute},
        operation::{OperationBuilder, OperationLike, OperationMutLike},
        r#type::{MemRefType, TypeLike},
        Block, BlockLike, OperationRef, Region, RegionLike, Type, Value, ValueLike,
    },
    pass::Pass,
    Context,
};
use mlir_sys::mlirTypeIsAFloat;
use rustc_hash::{FxHashMap, FxHashSet};

/// The registry entry of `apipe-make-sync`.
pub static INFO: PassInfo = PassInfo {
    argument: "apipe-make-sync",
    name: "ApipeMakeSync",
    summary: "Replace async copies by synchronous copies and drop all synchronization (reference semantics)",
    options: &[],
    run: run as RunFn,
    dependent_dialects: || vec![DialectHandle::arith(), DialectHandle::memref(), DialectHandle::scf()],
    reads_only: false,
    follows_calls: false,
};

/// Creates the `apipe-make-sync` pass.
pub fn create_make_sync_pass() -> Pass {
    INFO.create("").expect("no options")
}

fn run(op: OperationRef, _options: &PassOptions) -> Result<(), Reported> {
    make_sync(&op)
}

/// Applies the pass to the ops nested in `root`. On failure the IR is
/// unchanged and located errors have been emitted.
pub fn make_sync<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) -> Result<(), Reported> {
    // 1. Preconditions.
    let mut ok = token_values::check_removable(root);
    let nested = ops::nested_ops(root);
    let waits_to_barriers = kernel_mbarrier_waits(&nested);
    ok &= waits_to_barriers.is_some();
    for op in nested.iter().filter(|op| ops::is(*op, ops::COPY)) {
        if has_src_elements(op) && zero_of(element_type(op)).is_none() {
            diagnostic::error(
                op.location(),
                &format!(
                    "'apipe.copy' op cannot zero-fill elements of type {}",
                    element_type(op)
                ),
            );
            ok = false;
        }
    }
    if !ok {
        return Err(Reported);
    }
    // 2.-3.
    for op in nested {
        if ops::is(&op, ops::COPY) || ops::is(&op, ops::BULK_COPY) {
            lower_copy(op);
            rewrite::erase_op(op);
        } else if ops::is(&op, ops::WAIT)
            || ops::is(&op, ops::WAIT_GROUP)
            || ops::MBARRIER_OPS.iter().any(|name| ops::is(&op, name))
        {
            if waits_to_barriers
                .as_ref()
                .is_some_and(|w| w.contains(&(op.to_raw().ptr as usize)))
            {
                let barrier = OperationBuilder::new("gpu.barrier", op.location())
                    .build()
                    .expect("valid gpu.barrier");
                op.block().unwrap().insert_operation_before(op, barrier);
            }
            rewrite::erase_op(op);
        }
    }
    // 4.
    token_values::strip_tokens(root);
    // 5.-6.
    for op in ops::self_and_nested_ops(root) {
        if ops::is(&op, ops::COMMIT_GROUP) {
            token_values::erase_if_unused(op);
        } else {
            remove_annotations(op);
        }
    }
    Ok(())
}

/// Step 1 for the mbarrier form: the `apipe.mbarrier_wait`s in kernels
/// (each becomes a `gpu.barrier` in step 3; by op key), or `None` after a
/// located error at each one under thread-dependent control flow.
fn kernel_mbarrier_waits(nested: &[OperationRef]) -> Option<FxHashSet<usize>> {
    let mut waits = FxHashSet::default();
    // Per function (by op key).
    let mut divergence: FxHashMap<usize, Divergence> = FxHashMap::default();
    let mut ok = true;
    for op in nested.iter().filter(|op| ops::is(*op, ops::MBARRIER_WAIT)) {
        let Some(function) = group_distance::enclosing_function(*op) else {
            continue;
        };
        if !matches!(ops::name(&function), "gpu.func" | "gpu.launch") {
            continue;
        }
        let divergence = divergence
            .entry(function.to_raw().ptr as usize)
            .or_insert_with(|| Divergence::compute(&function));
        if let Some(parent) = divergent_parent(divergence, op, &function) {
            diagnostic::emit(
                op.location(),
                diagnostic::Severity::Error,
                "'apipe.mbarrier_wait' op waits under control flow that depends on the thread id: apipe-make-sync would make it a gpu.barrier, which not every thread of the block would reach",
                &[(parent.location(), "the thread-dependent control flow")],
            );
            ok = false;
        } else {
            waits.insert(op.to_raw().ptr as usize);
        }
    }
    ok.then_some(waits)
}

/// Drops the pipelining annotations: the synchronous program has no async
/// stages left to pipeline.
fn remove_annotations(op: OperationRef) {
    // SAFETY: a handle to a live op; attribute removal does not move it.
    let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) };
    for name in [
        attributes::STAGE,
        attributes::ORDER,
        attributes::ASYNC_STAGES,
        attributes::NUM_STAGES,
    ] {
        // Asked first: removing by name interns the name (MLIR's
        // `StringAttr::get`), a cost per op; most ops have none of them.
        if op.has_attribute(name) {
            let _ = op.remove_attribute(name);
        }
    }
}

fn memref_type<'c>(value: Value<'c, '_>) -> MemRefType<'c> {
    MemRefType::try_from(value.r#type()).expect("verified apipe.copy operand")
}

fn element_type<'c>(op: &OperationRef<'c, '_>) -> Type<'c> {
    use melior::ir::r#type::ShapedTypeLike;
    memref_type(op.operand(0).unwrap()).element()
}

fn has_src_elements(op: &OperationRef) -> bool {
    use melior::ir::r#type::ShapedTypeLike;
    let src = memref_type(op.operand(0).unwrap()).rank();
    let dst = memref_type(op.operand(1).unwrap()).rank();
    op.operand_count() == 2 + src + dst + 1
}

/// The zero of `ty` as an attribute, if it has one.
fn zero_of(ty: Type) -> Option<Attribute> {
    let context = ty.context();
    // SAFETY: `context` is bound first (a temporary's `to_ref` is unsound).
    let context = unsafe { context.to_ref() };
    // SAFETY: `ty` is live.
    if unsafe { mlirTypeIsAFloat(ty.to_raw()) } {
        Attribute::parse(context, &format!("0.0 : {ty}"))
    } else if ty.is_integer() || ty.is_index() {
        Some(IntegerAttribute::new(ty, 0).into())
    } else {
        None
    }
}

/// Step 2 for one copy: builds the synchronous loop before `op`.
fn lower_copy(op: OperationRef) {
    use melior::ir::r#type::ShapedTypeLike;
    let context_ref = op.context();
    // SAFETY: see `zero_of`.
    let context: &Context = unsafe { context_ref.to_ref() };
    let location = op.location();
    let block = op.block().unwrap();
    let operands: Vec<Value> = op.operands().collect();
    // `apipe.copy`: src, dst, source indices, destination indices, optional
    // src_elements; `apipe.bulk_copy`: src, dst, ring, slot, source
    // indices, destination indices.
    let (src, dst) = (operands[0], operands[1]);
    let (src_rank, dst_rank) = (memref_type(src).rank(), memref_type(dst).rank());
    let first_index = if ops::is(&op, ops::COPY) { 2 } else { 4 };
    let (src_indices, rest) = operands[first_index..].split_at(src_rank);
    let (dst_indices, src_elements) = rest.split_at(dst_rank);
    let elements = attributes::integer(&op, attributes::ELEMENTS).unwrap();
    let index = Type::index(context);

    let constant = |value: i64| {
        block
            .insert_operation_before(
                op,
                arith::constant(
                    context,
                    IntegerAttribute::new(index, value).into(),
                    location,
                ),
            )
            .result(0)
            .unwrap()
            .into()
    };
    let (lower, upper, step): (Value, Value, Value) =
        (constant(0), constant(elements), constant(1));

    let body = Block::new(&[(index, location)]);
    let k: Value = body.argument(0).unwrap().into();
    let mut src_at: Vec<Value> = src_indices.to_vec();
    let last = src_at.len() - 1;
    src_at[last] = body
        .append_operation(arith::addi(src_at[last], k, location))
        .result(0)
        .unwrap()
        .into();
    let mut dst_at: Vec<Value> = dst_indices.to_vec();
    let last = dst_at.len() - 1;
    dst_at[last] = body
        .append_operation(arith::addi(dst_at[last], k, location))
        .result(0)
        .unwrap()
        .into();

    let value: Value = match src_elements.first() {
        None => body
            .append_operation(memref::load(src, &src_at, location))
            .result(0)
            .unwrap()
            .into(),
        Some(&count) => {
            let element = memref_type(src).element();
            let in_bounds: Value = body
                .append_operation(arith::cmpi(
                    context,
                    arith::CmpiPredicate::Ult,
                    k,
                    count,
                    location,
                ))
                .result(0)
                .unwrap()
                .into();
            let then_block = Block::new(&[]);
            let loaded: Value = then_block
                .append_operation(memref::load(src, &src_at, location))
                .result(0)
                .unwrap()
                .into();
            then_block.append_operation(scf::r#yield(&[loaded], location));
            let else_block = Block::new(&[]);
            let zero: Value = else_block
                .append_operation(arith::constant(
                    context,
                    zero_of(element).unwrap(),
                    location,
                ))
                .result(0)
                .unwrap()
                .into();
            else_block.append_operation(scf::r#yield(&[zero], location));
            let then_region = Region::new();
            then_region.append_block(then_block);
            let else_region = Region::new();
            else_region.append_block(else_block);
            body.append_operation(scf::r#if(
                in_bounds,
                &[element],
                then_region,
                else_region,
                location,
            ))
            .result(0)
            .unwrap()
            .into()
        }
    };
    body.append_operation(memref::store(value, dst, &dst_at, location));
    body.append_operation(scf::r#yield(&[], location));
    let region = Region::new();
    region.append_block(body);
    block.insert_operation_before(op, scf::r#for(lower, upper, step, region, location));
}
