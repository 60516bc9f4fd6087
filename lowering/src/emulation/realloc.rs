//! `memref.realloc` for `apipe-run`, instead of upstream `expand-realloc`
//! (whose dead branch of a static shrinking realloc holds an out-of-bounds
//! `memref.subview` that fails verification, and whose ops name themselves
//! in the emulator's errors).
//!
//! Algorithm, for each `%new = memref.realloc %old(%size)`:
//! 1. `%buffer = memref.alloc(%size)` of the result type (with the
//!    realloc's alignment);
//! 2. `%n = arith.minui` of the old and the new size (`memref.dim`);
//! 3. `memref.copy` of `memref.reinterpret_cast`s of both to `%n`
//!    elements (offset 0, stride 1: in bounds of both, so the views are
//!    always valid, whichever branch upstream would take);
//! 4. `memref.dealloc %old`; every use of `%new` uses `%buffer`; the
//!    realloc goes.
//!
//! The realloc always moves (MLIR's `memref.realloc` invalidates the old
//! memref either way). The ops it becomes carry [`REALLOC`], so that the
//! emulator's errors name `memref.realloc` ([`super::op_name`]).
//!
//! Preconditions (the op's verifier): rank-1 memrefs with the identity
//! layout and the same element type and memory space.

use apipe_dialect::ops;
use apipe_dialect::ops::Checked as _;
use apipe_passes::rewrite;
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, DenseI64ArrayAttribute, IntegerAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::{MemRefType, ShapedTypeLike},
    Attribute, BlockLike, Identifier, Operation, OperationRef, Type, Value, ValueLike,
};
use melior::Context;

/// The discardable attribute that marks the ops a `memref.realloc` became.
pub const REALLOC: &str = "apipe_realloc";

/// Expands every `memref.realloc` nested in `root`.
pub fn expand<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) {
    for op in ops::nested_ops(root) {
        if ops::is(&op, "memref.realloc") {
            expand_one(op);
        }
    }
}

/// `builder` with the [`REALLOC`] mark.
fn mark<'c>(context: &'c Context, builder: OperationBuilder<'c>) -> OperationBuilder<'c> {
    builder.add_attributes(&[(Identifier::new(context, REALLOC), Attribute::unit(context))])
}

/// Inserts `operation` before `op`; its result 0, if any.
fn insert<'c: 'a, 'a>(op: OperationRef<'c, 'a>, operation: Operation<'c>) -> Option<Value<'c, 'a>> {
    let block = op.block().expect("an op in a block");
    let inserted = block.insert_operation_before(op, operation);
    inserted.result_at(0).map(Value::from)
}

/// Steps 1-4 for one realloc.
fn expand_one<'c: 'a, 'a>(op: OperationRef<'c, 'a>) {
    let (Ok(old), Ok(result)) = (op.operand(0), op.result(0)) else {
        return;
    };
    let (Ok(old_type), Ok(new_type)) = (
        MemRefType::try_from(old.r#type()),
        MemRefType::try_from(result.r#type()),
    ) else {
        return;
    };
    let context_ref = op.context();
    // SAFETY: bound first; the context outlives the ops built here.
    let context: &'c Context = unsafe { context_ref.to_ref() };
    let location = op.location();
    let index = Type::index(context);
    // 1.
    let dynamic: Vec<Value> = op.operand(1).into_iter().collect();
    let mut alloc = mark(context, OperationBuilder::new("memref.alloc", location))
        .add_operands(&dynamic)
        .add_results(&[new_type.into()])
        .add_attributes(&[(
            Identifier::new(context, "operandSegmentSizes"),
            DenseI32ArrayAttribute::new(context, &[dynamic.len() as i32, 0]).into(),
        )]);
    if let Ok(alignment) = op.attribute("alignment") {
        alloc = alloc.add_attributes(&[(Identifier::new(context, "alignment"), alignment)]);
    }
    let buffer = insert(op, alloc.build().expect("valid memref.alloc")).unwrap();
    // 2.
    let zero = insert(
        op,
        OperationBuilder::new("arith.constant", location)
            .add_attributes(&[(
                Identifier::new(context, "value"),
                IntegerAttribute::new(index, 0).into(),
            )])
            .add_results(&[index])
            .build()
            .expect("valid arith.constant"),
    )
    .unwrap();
    let dim = |memref: Value<'c, 'a>| -> Value<'c, 'a> {
        insert(
            op,
            OperationBuilder::new("memref.dim", location)
                .add_operands(&[memref, zero])
                .add_results(&[index])
                .build()
                .expect("valid memref.dim"),
        )
        .unwrap()
    };
    let (old_size, new_size) = (dim(old), dim(buffer));
    let n = insert(
        op,
        OperationBuilder::new("arith.minui", location)
            .add_operands(&[old_size, new_size])
            .add_results(&[index])
            .build()
            .expect("valid arith.minui"),
    )
    .unwrap();
    // 3.
    let view_type: Type = MemRefType::new(
        old_type.element(),
        &[i64::MIN],
        None,
        old_type.memory_space(),
    )
    .into();
    let view = |memref: Value<'c, 'a>| -> Value<'c, 'a> {
        insert(
            op,
            mark(
                context,
                OperationBuilder::new("memref.reinterpret_cast", location),
            )
            .add_operands(&[memref, n])
            .add_results(&[view_type])
            .add_attributes(&[
                (
                    Identifier::new(context, "operandSegmentSizes"),
                    DenseI32ArrayAttribute::new(context, &[1, 0, 1, 0]).into(),
                ),
                (
                    Identifier::new(context, "static_offsets"),
                    DenseI64ArrayAttribute::new(context, &[0]).into(),
                ),
                (
                    Identifier::new(context, "static_sizes"),
                    DenseI64ArrayAttribute::new(context, &[i64::MIN]).into(),
                ),
                (
                    Identifier::new(context, "static_strides"),
                    DenseI64ArrayAttribute::new(context, &[1]).into(),
                ),
            ])
            .build()
            .expect("valid memref.reinterpret_cast"),
        )
        .unwrap()
    };
    let (source, target) = (view(old), view(buffer));
    insert(
        op,
        mark(context, OperationBuilder::new("memref.copy", location))
            .add_operands(&[source, target])
            .build()
            .expect("valid memref.copy"),
    );
    // 4.
    insert(
        op,
        mark(context, OperationBuilder::new("memref.dealloc", location))
            .add_operands(&[old])
            .build()
            .expect("valid memref.dealloc"),
    );
    // Both values are live and of the same type; then the realloc has no
    // uses left.
    rewrite::replace_all_uses_with(result.into(), buffer);
    rewrite::erase_op(op);
}
