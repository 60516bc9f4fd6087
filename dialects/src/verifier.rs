//! The semantic verifier of apipe IR: what the ODS-generated C++ verifier
//! does not check.
//!
//! The C++ dialect (from `ApipeOps.td`) already checks operand and result
//! kinds, that required attributes are present and i64, that `bypass_l1` is
//! a unit attribute, and that a copy's memrefs are ranked with an index
//! count that fits their ranks (so that its custom form can print). This
//! verifier checks every rule of the dialect reference (docs/dialect.md),
//! those included (so that it stands alone on IR built without the C++
//! verifier running), per op:
//!
//! 1. `apipe.copy`: `elements` is an i64 > 0; src and dst are ranked memrefs
//!    of rank >= 1 with the same element type; the index count is
//!    rank(src) + rank(dst), plus 1 when `src_elements` is given; a constant
//!    `src_elements` lies in [0, elements]; a static innermost destination
//!    dimension holds `elements`, and a static innermost source dimension
//!    holds the elements read (`src_elements` when constant, else
//!    `elements`);
//! 2. `queue` (every op but `wait`) and `pending` (`wait_group`) are i64 >= 0;
//! 3. `apipe.wait` has at least one operand;
//! 4. every apipe op sits in the body of a function (an op named `*.func`,
//!    or a `gpu.launch` body): groups and waits are per thread of a running
//!    function, and the lowerings build their code inside one (an op at
//!    `gpu.module` or `builtin.module` scope would become an intrinsic call
//!    with no function around it);
//! 5. the mbarrier form (docs/mbarrier.md): the ring of every
//!    `apipe.mbarrier_*` op and of `apipe.bulk_copy` is a `memref<Kxi64>` in
//!    workgroup memory (`3` or `#gpu.address_space<workgroup>`) with a
//!    static K >= 1 and the identity layout; a constant slot lies in
//!    [0, K); a constant arrival count of `apipe.mbarrier_init` and the
//!    `bytes` of `apipe.mbarrier_expect_tx` lie in [1, 2^20 - 1] (PTX ISA
//!    9.7.13.15.1, "Contents of the mbarrier object": the ranges of the
//!    arrival and transaction counts); `apipe.bulk_copy` has the copy rules
//!    of 1. (one index per dimension, no `src_elements`) and moves a
//!    positive multiple of 16 bytes, at most 2^20 - 1 (PTX ISA 9.7.9.25.4.1,
//!    `cp.async.bulk`);
//! 6. the pipelining annotations: `apipe.stage` is an i64 >= 0 on an op
//!    directly inside an `scf.for` body, not on its terminator;
//!    `apipe.order` is an i64;
//!    `apipe.async_stages` is an `array<i64>` on an `scf.for` whose stages
//!    all occur on ops of its body; `apipe.num_stages` is an i64 >= 2 on an
//!    `scf.for`; `bypass_l1` is a unit attribute;
//! 7. an upstream rule that MLIR 22's own verifier misses, and that passes
//!    rely on: `memref.generic_atomic_rmw` has one index per dimension of
//!    its memref (as `memref.atomic_rmw` checks; without it,
//!    `generate-runtime-verification` and the lowering to LLVM read past
//!    the index list).
//!
//! It reports every failure it finds (not just the first) as an MLIR error
//! located at the op, and runs after parsing, before every pass and after every
//! pass that changes the IR.

use crate::ops::Checked as _;
use crate::{
    attributes::{
        self, ASYNC_STAGES, BYPASS_L1, BYTES, ELEMENTS, NUM_STAGES, ORDER, PENDING, QUEUE, STAGE,
    },
    diagnostic, ops,
};
use melior::ir::{
    attribute::{Attribute, DenseI64ArrayAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::MemRefType,
    r#type::{DimSize, ShapedTypeLike},
    AttributeLike, BlockLike, OperationRef, RegionLike, Type, TypeLike, ValueLike,
};
use std::collections::BTreeSet;

/// Verifies `root` and every op nested in it. Emits one located error per
/// problem and returns `false` if there was any.
pub fn verify<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) -> bool {
    let mut ok = true;
    ops::walk_self_and_nested(root, &mut |op| ok &= verify_op(&op));
    ok
}

fn verify_op(op: &OperationRef) -> bool {
    let mut checker = Checker { op, ok: true };
    // The name is read once, as bytes: every op of the module comes through
    // here, and only apipe ops and one memref op have rules by name.
    let name = ops::name_bytes(op);
    let apipe = name.starts_with(b"apipe.");
    let named = if apipe || name == b"memref.generic_atomic_rmw" {
        std::str::from_utf8(name).unwrap_or("")
    } else {
        ""
    };
    match named {
        ops::COPY => {
            checker.copy();
            checker.queue();
            checker.unit(BYPASS_L1);
        }
        ops::COMMIT_GROUP | ops::READY => checker.queue(),
        ops::WAIT_GROUP => {
            checker.i64_at_least(PENDING, true, 0);
            checker.queue();
        }
        ops::WAIT if op.operand_count() == 0 => {
            checker.error("expected at least one !apipe.token operand".into());
        }
        ops::MBARRIER_INIT if checker.ring(0).is_some() => {
            checker.count_in_range(1, "arrival count");
        }
        ops::MBARRIER_ARRIVE_COPIES | ops::MBARRIER_WAIT => {
            if let Some(slots) = checker.ring(0) {
                checker.slot(1, slots);
            }
        }
        ops::MBARRIER_EXPECT_TX => {
            if let Some(slots) = checker.ring(0) {
                checker.slot(1, slots);
            }
            if let Some(bytes) = checker.i64_at_least(BYTES, true, 1) {
                if bytes > MAX_MBARRIER_COUNT {
                    checker.error(format!(
                        "attribute '{BYTES}' must be at most {MAX_MBARRIER_COUNT} (the range of an mbarrier's transaction count), got {bytes}"
                    ));
                }
            }
        }
        ops::BULK_COPY => checker.bulk_copy(),
        "memref.generic_atomic_rmw" => checker.subscripts_match_rank(),
        _ => {}
    }
    if apipe && !ops::ancestors(op).any(|p| ops::is_function(&p)) {
        checker.error(
            "must be inside a function body (func.func, gpu.func, llvm.func or a gpu.launch body): \
             groups and waits belong to a running thread"
                .into(),
        );
    }
    checker.annotations();
    checker.ok
}

struct Checker<'o, 'c, 'a> {
    op: &'o OperationRef<'c, 'a>,
    ok: bool,
}

impl<'c, 'a> Checker<'_, 'c, 'a> {
    fn error(&mut self, message: String) {
        let name = self.op.name();
        let name = name.as_string_ref().as_str().unwrap_or("?").to_owned();
        diagnostic::error(self.op.location(), &format!("'{name}' op {message}"));
        self.ok = false;
    }

    /// Rule 7: operand 0 is a memref whose rank is the count of the other
    /// operands (the op's indices).
    fn subscripts_match_rank(&mut self) {
        let Some(rank) = self
            .op
            .operand_at(0)
            .and_then(|memref| ranked(memref.r#type()))
            .map(|memref| memref.rank())
        else {
            return;
        };
        let indices = self.op.operand_count().saturating_sub(1);
        if indices != rank {
            self.error(format!(
                "expects the number of subscripts to be equal to memref rank: {rank}, got {indices} (MLIR 22's verifier does not check it)"
            ));
        }
    }

    /// `name` is an i64 >= `min` (0: "non-negative", 1: "positive"),
    /// required or optional. Returns its value when it is valid.
    fn i64_at_least(&mut self, name: &str, required: bool, min: i64) -> Option<i64> {
        let Ok(attribute) = self.op.attribute(name) else {
            if required {
                self.error(format!("requires attribute '{name}'"));
            }
            return None;
        };
        if !attributes::is_i64(attribute) {
            self.error(format!(
                "attribute '{name}' must be an i64 integer, got {attribute}"
            ));
            return None;
        }
        let value = IntegerAttribute::try_from(attribute).unwrap().value();
        if value < min {
            let bound = if min == 1 { "positive" } else { "non-negative" };
            self.error(format!("attribute '{name}' must be {bound}, got {value}"));
            return None;
        }
        Some(value)
    }

    /// `name`, if present, is a unit attribute.
    fn unit(&mut self, name: &str) {
        if let Ok(attribute) = self.op.attribute(name) {
            if !attribute.is_unit() {
                self.error(format!(
                    "attribute '{name}' must be a unit attribute, got {attribute}"
                ));
            }
        }
    }

    fn queue(&mut self) {
        self.i64_at_least(QUEUE, false, 0);
    }

    /// The first two operands of a copy (`apipe.copy`, `apipe.bulk_copy`)
    /// with their types, if both are ranked memrefs of rank >= 1 (it copies
    /// along the innermost dimension); else an error (`missing` when the
    /// operands are absent) and `None`.
    fn src_and_dst(
        &mut self,
        missing: &str,
    ) -> Option<(
        melior::ir::Value<'c, 'a>,
        melior::ir::Value<'c, 'a>,
        MemRefType<'c>,
        MemRefType<'c>,
    )> {
        let (Ok(src), Ok(dst)) = (self.op.operand(0), self.op.operand(1)) else {
            self.error(missing.into());
            return None;
        };
        let (Some(src_type), Some(dst_type)) = (ranked(src.r#type()), ranked(dst.r#type())) else {
            self.error(format!(
                "expected ranked memrefs for src and dst, got {} and {}",
                src.r#type(),
                dst.r#type()
            ));
            return None;
        };
        if src_type.rank() == 0 || dst_type.rank() == 0 {
            self.error(format!(
                "expected memrefs of rank >= 1 (it copies along the innermost dimension), got {} and {}",
                src.r#type(),
                dst.r#type()
            ));
            return None;
        }
        Some((src, dst, src_type, dst_type))
    }

    fn copy(&mut self) {
        let elements = self.i64_at_least(ELEMENTS, true, 1);
        let Some((src, dst, src_type, dst_type)) =
            self.src_and_dst("expected src and dst memref operands")
        else {
            return;
        };
        let (src_rank, dst_rank) = (src_type.rank(), dst_type.rank());
        let index_count = self.op.operand_count() - 2;
        let expected = src_rank + dst_rank;
        if index_count != expected && index_count != expected + 1 {
            self.error(format!(
                "expected {expected} indices ({src_rank} for {} and {dst_rank} for {}), \
                 or {} with src_elements, got {index_count}",
                src.r#type(),
                dst.r#type(),
                expected + 1
            ));
        }
        if src_type.element() != dst_type.element() {
            self.error(format!(
                "expected the same element type for src and dst, got {} and {}",
                src_type.element(),
                dst_type.element()
            ));
        }
        let Some(elements) = elements.filter(|e| *e > 0) else {
            return;
        };
        if let Ok(DimSize::Static(size)) = dst_type.dim_size(dst_rank - 1) {
            if (size as i64) < elements {
                self.error(format!(
                    "copies {elements} elements but the innermost dimension of {} has {size}",
                    dst.r#type()
                ));
            }
        }
        // The elements read from src: `src_elements` when given (unknown
        // when it is not a constant), else `elements`.
        let mut read = Some(elements);
        if index_count == expected + 1 {
            let src_elements = self.op.operand(self.op.operand_count() - 1).unwrap();
            read = ops::constant_literal(src_elements);
            if let Some(value) = read {
                if value < 0 || value > elements {
                    self.error(format!(
                        "src_elements must lie in [0, {elements}] (the 'elements' attribute), got {value}"
                    ));
                }
            }
        }
        if let (Some(read), Ok(DimSize::Static(size))) = (read, src_type.dim_size(src_rank - 1)) {
            if (size as i64) < read {
                self.error(format!(
                    "reads {read} elements but the innermost dimension of {} has {size}",
                    src.r#type()
                ));
            }
        }
    }

    /// Operand `index` is a ring of mbarrier slots (rule 5); returns K.
    fn ring(&mut self, index: usize) -> Option<i64> {
        let ring = self.op.operand_at(index)?;
        let ty = ring.r#type();
        let slots = ranked(ty)
            .filter(|t| {
                t.rank() == 1
                    && attributes::integer_width(t.element()) == Some(64)
                    && has_identity_layout(*t)
            })
            .and_then(|t| match t.dim_size(0) {
                Ok(DimSize::Static(n)) if n >= 1 => Some((t, n as i64)),
                _ => None,
            });
        let Some((ring_type, slots)) = slots else {
            self.error(format!(
                "expects a ring of mbarrier slots, a memref<Kxi64> with a static K >= 1 and the identity layout, got {ty}"
            ));
            return None;
        };
        if !is_workgroup(ring_type) {
            self.error(format!(
                "expects the ring of mbarrier slots in workgroup memory (memory space 3 or #gpu.address_space<workgroup>), got {ty}"
            ));
            return None;
        }
        Some(slots)
    }

    /// Operand `index` is a slot of a ring of `slots`: a constant one lies
    /// in [0, slots).
    fn slot(&mut self, index: usize, slots: i64) {
        let Some(slot) = self.op.operand_at(index).and_then(ops::constant_literal) else {
            return;
        };
        if !(0..slots).contains(&slot) {
            self.error(format!(
                "slot {slot} is outside the ring of {slots} mbarrier slots"
            ));
        }
    }

    /// Operand `index`, when constant, lies in [1, 2^20 - 1].
    fn count_in_range(&mut self, index: usize, what: &str) {
        let Some(count) = self.op.operand_at(index).and_then(ops::constant_literal) else {
            return;
        };
        if !(1..=MAX_MBARRIER_COUNT).contains(&count) {
            self.error(format!(
                "{what} {count} is outside [1, {MAX_MBARRIER_COUNT}], the range of an mbarrier's counts"
            ));
        }
    }

    /// Rule 5 for `apipe.bulk_copy`: its operands are src, dst, the ring,
    /// the slot, then the source and the destination indices.
    fn bulk_copy(&mut self) {
        let elements = self.i64_at_least(ELEMENTS, true, 1);
        let Some((src, dst, src_type, dst_type)) =
            self.src_and_dst("expected src, dst, ring and slot operands")
        else {
            return;
        };
        let index_count = self.op.operand_count().saturating_sub(4);
        if index_count != src_type.rank() + dst_type.rank() {
            self.error(format!(
                "expected {} indices ({} for {} and {} for {}), got {index_count}",
                src_type.rank() + dst_type.rank(),
                src_type.rank(),
                src.r#type(),
                dst_type.rank(),
                dst.r#type()
            ));
        }
        if src_type.element() != dst_type.element() {
            self.error(format!(
                "expected the same element type for src and dst, got {} and {}",
                src_type.element(),
                dst_type.element()
            ));
        }
        if let Some(slots) = self.ring(2) {
            self.slot(3, slots);
        }
        let Some(elements) = elements else {
            return;
        };
        for (verb, ty) in [("copies", dst_type), ("reads", src_type)] {
            if let Ok(DimSize::Static(size)) = ty.dim_size(ty.rank() - 1) {
                if (size as i64) < elements {
                    self.error(format!(
                        "{verb} {elements} elements but the innermost dimension of {} has {size}",
                        Type::from(ty)
                    ));
                }
            }
        }
        let bits = attributes::integer_width(src_type.element())
            .or_else(|| float_width(src_type.element()));
        if let Some(bits) = bits {
            let total = i128::from(elements) * i128::from(bits);
            if total % 128 != 0 || total / 8 > i128::from(MAX_MBARRIER_COUNT) {
                // In bytes, as the rule; bits only for a part of a byte
                // (sub-byte elements; it said "moves 96 bits" for 12
                // bytes, trial 75).
                let size = if total % 8 == 0 {
                    format!("{} bytes", total / 8)
                } else {
                    format!("{total} bits (not a whole number of bytes)")
                };
                self.error(format!(
                    "moves {size}: a bulk copy moves a positive multiple of 16 bytes, at most {MAX_MBARRIER_COUNT} bytes"
                ));
            }
        }
    }

    fn annotations(&mut self) {
        // The annotations are discardable attributes (dialect-prefixed, not
        // declared by any op): an op with none has none of them.
        // SAFETY: a live op.
        if unsafe { mlir_sys::mlirOperationGetNumDiscardableAttributes(self.op.to_raw()) } == 0 {
            return;
        }
        if let Ok(stage) = self.op.attribute(STAGE) {
            let parent_is_for = self
                .op
                .parent_operation()
                .is_some_and(|parent| parent.name().as_string_ref().as_str() == Ok("scf.for"));
            self.annotation_i64(STAGE, stage, true);
            if !parent_is_for {
                self.error(format!(
                    "'{STAGE}' annotates ops of an scf.for body, but the parent op is not scf.for"
                ));
            } else if self.op.next_in_block().is_none() {
                self.error(format!(
                    "'{STAGE}' annotates the ops of an scf.for body, not its terminator"
                ));
            }
        }
        if let Ok(order) = self.op.attribute(ORDER) {
            self.annotation_i64(ORDER, order, false);
        }
        if let Ok(async_stages) = self.op.attribute(ASYNC_STAGES) {
            self.async_stages(async_stages);
        }
        if let Ok(stages) = self.op.attribute(NUM_STAGES) {
            self.annotation_i64(NUM_STAGES, stages, true);
            if self.op.name().as_string_ref().as_str() != Ok("scf.for") {
                self.error(format!("'{NUM_STAGES}' annotates an scf.for, not this op"));
            } else if attributes::integer(self.op, NUM_STAGES).is_some_and(|n| n < 2) {
                self.error(format!(
                    "'{NUM_STAGES}' must be at least 2 (one stage copies, a later one reads), got {}",
                    attributes::integer(self.op, NUM_STAGES).unwrap()
                ));
            }
        }
    }

    fn annotation_i64(&mut self, name: &str, attribute: Attribute, non_negative: bool) {
        if !attributes::is_i64(attribute) {
            self.error(format!("'{name}' must be an i64 integer, got {attribute}"));
            return;
        }
        let value = IntegerAttribute::try_from(attribute).unwrap().value();
        if non_negative && value < 0 {
            self.error(format!("'{name}' must be non-negative, got {value}"));
        }
    }

    fn async_stages(&mut self, attribute: Attribute) {
        if self.op.name().as_string_ref().as_str() != Ok("scf.for") {
            self.error(format!(
                "'{ASYNC_STAGES}' annotates an scf.for, not this op"
            ));
            return;
        }
        let Ok(array) = DenseI64ArrayAttribute::try_from(attribute) else {
            self.error(format!(
                "'{ASYNC_STAGES}' must be an array<i64: ...>, got {attribute}"
            ));
            return;
        };
        let body_stages: BTreeSet<i64> = self
            .op
            .region_at(0)
            .and_then(|region| region.first_block())
            .map(|block| {
                let mut stages = BTreeSet::new();
                let mut next = block.first_operation();
                while let Some(op) = next {
                    if let Some(stage) = attributes::integer(&op, STAGE) {
                        stages.insert(stage);
                    }
                    next = op.next_in_block();
                }
                stages
            })
            .unwrap_or_default();
        for index in 0..array.len() {
            let stage = array.element(index).unwrap();
            if !body_stages.contains(&stage) {
                self.error(format!(
                    "'{ASYNC_STAGES}' names stage {stage}, but no op of the loop body has '{STAGE} = {stage}'"
                ));
            }
        }
    }
}

/// The largest arrival or transaction count of an mbarrier (PTX ISA
/// 9.7.13.15.1: the counts have 20 bits).
pub const MAX_MBARRIER_COUNT: i64 = (1 << 20) - 1;

/// True if `ty` lives in workgroup memory (`3`, `3 : i64`, `3 : i32` or
/// `#gpu.address_space<workgroup>`).
fn is_workgroup(ty: MemRefType) -> bool {
    crate::attributes::memory_space_number(ty.memory_space()) == Some(3)
}

/// True if `ty` has the identity layout (contiguous, offset 0).
fn has_identity_layout(ty: MemRefType) -> bool {
    // SAFETY: `ty` is live; the layout of a memref type is an attribute.
    unsafe {
        let layout = mlir_sys::mlirMemRefTypeGetLayout(ty.to_raw());
        mlir_sys::mlirAttributeIsAAffineMap(layout)
            && mlir_sys::mlirAffineMapIsIdentity(mlir_sys::mlirAffineMapAttrGetValue(layout))
    }
}

/// The width of a float type, `None` for any other type.
fn float_width(ty: Type) -> Option<u32> {
    // SAFETY: `ty` is live.
    unsafe {
        mlir_sys::mlirTypeIsAFloat(ty.to_raw())
            .then(|| mlir_sys::mlirFloatTypeGetWidth(ty.to_raw()))
    }
}

fn ranked(ty: Type) -> Option<MemRefType> {
    MemRefType::try_from(ty).ok()
}
