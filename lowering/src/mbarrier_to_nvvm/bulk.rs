//! Hopper bulk copies in `apipe-mbarrier-to-nvvm` (docs/mbarrier.md, "Bulk
//! copies"): `apipe.bulk_copy` and `apipe.mbarrier_expect_tx` on sm_90.
//!
//! 1. [`check`]: the rules of `cp.async.bulk.shared::cluster.global.
//!    mbarrier::complete_tx::bytes` (PTX ISA 9.7.9.25.4.1), each violation
//!    a message for a located error: sm_90 (refused before it, where
//!    `apipe.copy` / `cp.async` is the form); it reads global memory and
//!    writes shared memory, both with a static strided layout and a unit
//!    innermost stride (the span is contiguous); it moves a positive
//!    multiple of 16 bytes below 2^20 (the range of an mbarrier's
//!    transaction count, PTX ISA 9.7.13.15.2); constant offsets are
//!    multiples of 16 bytes (dynamic ones are the program's precondition,
//!    as for `cp.async`). `mbarrier.expect_tx` needs sm_90 too.
//! 2. [`Lower::bulk_copy`]: both addresses as aligned pointer plus
//!    `(layout offset + Σ index × stride) × element bytes`; the source a
//!    generic pointer cast to `!llvm.ptr<1>` (global), the destination
//!    `!llvm.ptr<3>`; then `nvvm.cp.async.bulk.shared.cluster.global` with
//!    the slot's address and the byte count.
//! 3. [`Lower::expect_tx`]: `nvvm.mbarrier.expect_tx` on the slot
//!    (`mbarrier.expect_tx.relaxed.cta.shared::cta.b64`).
//! 4. After the initialisation of a ring that bulk copies complete bytes
//!    on: `nvvm.fence.mbarrier.init` (`fence.mbarrier_init.release.cluster`,
//!    PTX ISA 9.7.13.4): the async proxy that performs the bulk copies'
//!    `complete_tx` sees the initialised objects only through it.

use super::Lower;
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{attributes, ops};
use apipe_passes::cp_async::{self, MemorySpace};
use melior::{
    dialect::arith,
    ir::{
        operation::{OperationBuilder, OperationLike},
        r#type::{MemRefType, ShapedTypeLike},
        OperationRef, Value, ValueLike,
    },
};

/// The largest byte count of one bulk copy: the transaction count of an
/// mbarrier phase holds at most 2^20 - 1 (PTX ISA 9.7.13.15.2).
pub const MAX_BULK_BYTES: i128 = (1 << 20) - 1;

/// Step 1: the violations of `op` (an `apipe.bulk_copy` or
/// `apipe.mbarrier_expect_tx`) on `sm`, as messages.
pub fn check(op: &OperationRef, sm: u32) -> Vec<String> {
    let name = ops::name(op);
    if sm < 90 {
        return vec![format!(
            "'{name}' op needs sm_90 (cp.async.bulk and mbarrier.expect_tx); on sm_{sm} \
             copy with apipe.copy (cp.async) and apipe.mbarrier_arrive_copies"
        )];
    }
    if name != ops::BULK_COPY {
        return Vec::new();
    }
    let mut messages = Vec::new();
    let memref = |i: usize| {
        op.operand_at(i)
            .and_then(|v| MemRefType::try_from(v.r#type()).ok())
    };
    let (Some(src), Some(dst)) = (memref(0), memref(1)) else {
        return vec![format!(
            "'{name}' op: expected memref source and destination"
        )];
    };
    if cp_async::memory_space(src) != MemorySpace::Global {
        messages.push(format!(
            "'{name}' op reads {src}; cp.async.bulk reads global memory"
        ));
    }
    if cp_async::memory_space(dst) != MemorySpace::Shared {
        messages.push(format!(
            "'{name}' op writes {dst}; cp.async.bulk writes shared (workgroup) memory"
        ));
    }
    for (what, ty) in [("source", src), ("destination", dst)] {
        match cp_async::static_strides_and_offset(ty) {
            Some((strides, _)) if strides.last() == Some(&1) => {}
            _ => messages.push(format!(
                "'{name}' op {what} {ty} has no static strided layout with a unit innermost \
                 stride; cp.async.bulk copies one contiguous span"
            )),
        }
    }
    match cp_async::copy_bytes(op) {
        Ok(bytes) if bytes > 0 && bytes % 16 == 0 && bytes <= MAX_BULK_BYTES => {
            let indices: Vec<Value> = op.operands().skip(4).collect();
            let (sr, dr) = (src.rank(), dst.rank());
            if indices.len() == sr + dr {
                for (what, ty, at) in [
                    ("source", src, &indices[..sr]),
                    ("destination", dst, &indices[sr..]),
                ] {
                    if let Some(bits) = cp_async::static_bit_offset(ty, at) {
                        if bits.rem_euclid(128) != 0 {
                            messages.push(format!(
                                "'{name}' op {what} bit offset {bits} is not a multiple of 16 \
                                 bytes; cp.async.bulk needs 16-byte aligned addresses"
                            ));
                        }
                    }
                }
            }
        }
        Ok(bytes) => messages.push(format!(
            "'{name}' op moves {bytes} bytes; cp.async.bulk moves a positive multiple of 16 \
             bytes, at most {MAX_BULK_BYTES} (an mbarrier's transaction count)"
        )),
        Err(message) => messages.push(format!("'{name}' op: {message}")),
    }
    messages
}

impl<'c> Lower<'c> {
    /// The address of the element at `indices` of `memref` (static strided
    /// layout, checked in step 1), as an `i64`.
    fn element_address<'a>(
        &self,
        anchor: OperationRef<'c, 'a>,
        memref: Value<'c, 'a>,
        indices: &[Value<'c, 'a>],
    ) -> Value<'c, 'a> {
        let location = anchor.location();
        let ty = MemRefType::try_from(memref.r#type()).expect("checked memref");
        let (strides, offset) =
            cp_async::static_strides_and_offset(ty).expect("checked static layout");
        let bytes = i64::from(cp_async::bit_width(ty.element()).expect("checked element") / 8);
        let mut linear = self.constant(anchor, self.index, offset);
        for (index, stride) in indices.iter().zip(&strides) {
            let stride = self.constant(anchor, self.index, *stride);
            let term = self
                .before(anchor, arith::muli(*index, stride, location))
                .unwrap();
            linear = self
                .before(anchor, arith::addi(linear, term, location))
                .unwrap();
        }
        let size = self.constant(anchor, self.index, bytes);
        let byte_offset = self
            .before(anchor, arith::muli(linear, size, location))
            .unwrap();
        self.byte_address(anchor, memref, || byte_offset)
    }

    /// Step 2.
    pub(super) fn bulk_copy(&self, op: OperationRef<'c, '_>) {
        let location = op.location();
        let (src, dst) = (op.operand(0).unwrap(), op.operand(1).unwrap());
        let sr = MemRefType::try_from(src.r#type()).unwrap().rank();
        let indices: Vec<Value> = op.operands().skip(4).collect();
        let generic = melior::ir::Type::parse(self.context, "!llvm.ptr").unwrap();
        let global = melior::ir::Type::parse(self.context, "!llvm.ptr<1>").unwrap();
        let src_address = self.element_address(op, src, &indices[..sr]);
        let src_generic = self
            .before(
                op,
                self.simple("llvm.inttoptr", location, &[src_address], generic),
            )
            .unwrap();
        let src_pointer = self
            .before(
                op,
                self.simple("llvm.addrspacecast", location, &[src_generic], global),
            )
            .unwrap();
        let dst_address = self.element_address(op, dst, &indices[sr..]);
        let dst_shared = self
            .before(
                op,
                self.simple(
                    "llvm.inttoptr",
                    location,
                    &[dst_address],
                    self.shared_pointer,
                ),
            )
            .unwrap();
        // The `.shared::cluster` destination (address space 7): LLVM 22
        // selects `cp.async.bulk.shared::cluster.global` for it on sm_90,
        // while a `.shared::cta` one (address space 3) needs a newer PTX ISA
        // and aborts instruction selection here.
        let cluster = melior::ir::Type::parse(self.context, "!llvm.ptr<7>").unwrap();
        let dst_pointer = self
            .before(
                op,
                self.simple("llvm.addrspacecast", location, &[dst_shared], cluster),
            )
            .unwrap();
        let slot = self.slot_pointer(op, op.operand(2).unwrap(), Some(op.operand(3).unwrap()), 0);
        let bytes = cp_async::copy_bytes(&op).expect("checked size") as i64;
        let size = self.constant(op, self.i32, bytes);
        let copy = OperationBuilder::new("nvvm.cp.async.bulk.shared.cluster.global", location)
            .add_operands(&[dst_pointer, src_pointer, slot, size])
            .add_attributes(&[(
                melior::ir::Identifier::new(self.context, "operandSegmentSizes"),
                melior::ir::attribute::DenseI32ArrayAttribute::new(
                    self.context,
                    &[1, 1, 1, 1, 0, 0],
                )
                .into(),
            )])
            .build()
            .expect("valid nvvm.cp.async.bulk.shared.cluster.global");
        self.before(op, copy);
    }

    /// Step 3.
    pub(super) fn expect_tx(&self, op: OperationRef<'c, '_>) {
        let pointer =
            self.slot_pointer(op, op.operand(0).unwrap(), Some(op.operand(1).unwrap()), 0);
        let bytes = attributes::integer(&op, "bytes").expect("verified bytes");
        let count = self.constant(op, self.i32, bytes);
        let expect = OperationBuilder::new("nvvm.mbarrier.expect_tx", op.location())
            .add_operands(&[pointer, count])
            .build()
            .expect("valid nvvm.mbarrier.expect_tx");
        self.before(op, expect);
    }

    /// Step 4: the fence after the lowered initialisation `init`.
    pub(super) fn fence_init(&self, init: OperationRef<'c, '_>) {
        let fence = OperationBuilder::new("nvvm.fence.mbarrier.init", init.location())
            .build()
            .expect("valid nvvm.fence.mbarrier.init");
        self.before(init, fence);
    }
}
