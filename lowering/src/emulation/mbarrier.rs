//! The mbarrier form in `apipe-to-emulation` (docs/mbarrier.md): each op
//! becomes a call into the runtime's mbarrier functions
//! ([`crate::emulation_runtime::mbarrier`]) with the address of its slot.
//!
//! The address of slot `s` of ring `%ring` (a `memref<Kxi64>`, host memory
//! after step 4 of the lowering) is its aligned pointer plus
//! `(offset + s) * 8`, from `memref.extract_aligned_pointer_as_index` and
//! `memref.extract_strided_metadata`:
//! - `apipe.mbarrier_init %ring, %n`: `init(id, address of slot 0, K, n)`;
//! - `apipe.mbarrier_arrive_copies %ring[%s]`: `arrive_copies(id, address)`;
//! - `apipe.mbarrier_expect_tx %ring[%s], B`: `expect_tx(id, address, B)`;
//! - `apipe.mbarrier_wait %ring[%s], %p`: `wait(id, address, p)`;
//! - `apipe.bulk_copy`: the copy call of `apipe.copy` on the reserved queue
//!   [`BULK_QUEUE`], then `bulk_track(id, address, bytes)`.

use super::{element_bytes, Emitter};
use crate::emulation_runtime::mbarrier::{
    BULK_QUEUE, BULK_TRACK_FN, MBARRIER_ARRIVE_COPIES_FN, MBARRIER_EXPECT_TX_FN, MBARRIER_INIT_FN,
    MBARRIER_WAIT_FN,
};
use crate::emulation_runtime::CHECK_FAILED_FN;
use apipe_dialect::{attributes, ops};
use melior::ir::{
    operation::{OperationBuilder, OperationLike},
    r#type::{MemRefType, ShapedTypeLike},
    OperationRef, Value, ValueLike,
};

/// The operands of an `apipe.bulk_copy` as the copy call of `apipe.copy`
/// takes them: (src, dst, source indices, destination indices, queue).
pub struct BulkCopyOperands<'c, 'a> {
    /// The source memref.
    pub src: Value<'c, 'a>,
    /// The destination memref.
    pub dst: Value<'c, 'a>,
    /// Source indices, then destination indices.
    pub indices: Vec<Value<'c, 'a>>,
    /// The queue to issue the copy on ([`BULK_QUEUE`]).
    pub queue: i64,
}

/// The copy part of an `apipe.bulk_copy`.
pub fn bulk_copy_operands<'c, 'a>(op: &OperationRef<'c, 'a>) -> BulkCopyOperands<'c, 'a> {
    BulkCopyOperands {
        src: op.operand(0).unwrap(),
        dst: op.operand(1).unwrap(),
        indices: op.operands().skip(4).collect(),
        queue: BULK_QUEUE,
    }
}

/// The static slot count `K` of `ring` (a `memref<Kxi64>`; verified
/// static, `None` otherwise).
fn ring_slots(ring: Value) -> Option<i64> {
    match MemRefType::try_from(ring.r#type()).ok()?.dim_size(0).ok()? {
        melior::ir::r#type::DimSize::Static(n) => Some(n as i64),
        _ => None,
    }
}

/// The address (`i64`) of slot `slot` of `ring`, computed before `op`.
///
/// A slot that is not a constant is checked first: outside `[0, K)` (an
/// unsigned `slot >= K`) stops the program at `op` with a located error.
/// The address would otherwise lie outside the ring: in memory the program
/// uses for something else (a ring that is a subview of a larger buffer),
/// or in no memory at all (a segmentation fault). PTX leaves an mbarrier
/// op on an address that holds no initialised mbarrier undefined (PTX ISA
/// 9.7.13.15). The verifier checks constant slots.
fn slot_address<'c, 'a>(
    em: &mut Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    ring: Value<'c, 'a>,
    slot: Value<'c, 'a>,
) -> Value<'c, 'a> {
    let location = op.location();
    let index = em.index_type();
    if let (Some(slots), None) = (ring_slots(ring), super::checks::constant_value(slot)) {
        let name = ops::name(&op);
        let id = em.id(
            location,
            &format!(
                "'{name}' on a slot outside its ring of {slots} slot{}",
                if slots == 1 { "" } else { "s" }
            ),
        );
        let k = em.constant(op, index, slots);
        let outside: Value = em
            .before(
                op,
                melior::dialect::arith::cmpi(
                    em.context,
                    melior::dialect::arith::CmpiPredicate::Uge,
                    slot,
                    k,
                    location,
                ),
            )
            .result(0)
            .unwrap()
            .into();
        let i64_type = em.i64_type();
        let id = em.constant(op, i64_type, id);
        em.call_if(op, outside, CHECK_FAILED_FN, &[id]);
    }
    let pointer: Value = em
        .before(
            op,
            OperationBuilder::new("memref.extract_aligned_pointer_as_index", location)
                .add_operands(&[ring])
                .add_results(&[index])
                .build()
                .expect("memref.extract_aligned_pointer_as_index"),
        )
        .result(0)
        .unwrap()
        .into();
    let ring_type = MemRefType::try_from(ring.r#type()).expect("verified ring");
    let base_type = MemRefType::new(ring_type.element(), &[], None, None);
    let mut results = vec![base_type.into(), index];
    for _ in 0..ring_type.rank() {
        results.extend([index, index]);
    }
    let metadata = em.before(
        op,
        OperationBuilder::new("memref.extract_strided_metadata", location)
            .add_operands(&[ring])
            .add_results(&results)
            .build()
            .expect("memref.extract_strided_metadata"),
    );
    let offset: Value = metadata.result(1).unwrap().into();
    let element = em.before(op, melior::dialect::arith::addi(offset, slot, location));
    let eight = em.constant(op, index, 8);
    let bytes = em.before(
        op,
        melior::dialect::arith::muli(element.result(0).unwrap().into(), eight, location),
    );
    let address = em.before(
        op,
        melior::dialect::arith::addi(pointer, bytes.result(0).unwrap().into(), location),
    );
    em.to_i64(op, address.result(0).unwrap().into())
}

/// Lowers the mbarrier op `op` (id `id`) to runtime calls before it; the
/// caller erases it. `apipe.bulk_copy` issues its copy first through
/// `copy_call` (the lowering of `apipe.copy`). Returns false if `op` is not
/// an op of the mbarrier form.
pub fn lower<'c, 'a>(
    em: &mut Emitter<'c, 'a>,
    id: i64,
    op: OperationRef<'c, 'a>,
    copy_call: &mut dyn FnMut(&mut Emitter<'c, 'a>, BulkCopyOperands<'c, 'a>),
) -> bool {
    let i64_type = em.i64_type();
    let name = ops::name(&op);
    match name {
        ops::MBARRIER_INIT => {
            let ring = op.operand(0).unwrap();
            let slots = ring_slots(ring).unwrap_or(0);
            let zero = em.constant(op, em.index_type(), 0);
            let address = slot_address(em, op, ring, zero);
            let count = em.to_i64(op, op.operand(1).unwrap());
            let arguments = [
                em.constant(op, i64_type, id),
                address,
                em.constant(op, i64_type, slots),
                count,
            ];
            em.call(op, MBARRIER_INIT_FN, &arguments, &[]);
        }
        ops::MBARRIER_ARRIVE_COPIES => {
            let address = slot_address(em, op, op.operand(0).unwrap(), op.operand(1).unwrap());
            let arguments = [em.constant(op, i64_type, id), address];
            em.call(op, MBARRIER_ARRIVE_COPIES_FN, &arguments, &[]);
        }
        ops::MBARRIER_EXPECT_TX => {
            let address = slot_address(em, op, op.operand(0).unwrap(), op.operand(1).unwrap());
            let bytes = attributes::integer(&op, attributes::BYTES).unwrap_or(0);
            let arguments = [
                em.constant(op, i64_type, id),
                address,
                em.constant(op, i64_type, bytes),
            ];
            em.call(op, MBARRIER_EXPECT_TX_FN, &arguments, &[]);
        }
        ops::MBARRIER_WAIT => {
            let address = slot_address(em, op, op.operand(0).unwrap(), op.operand(1).unwrap());
            let parity = em.to_i64(op, op.operand(2).unwrap());
            let arguments = [em.constant(op, i64_type, id), address, parity];
            em.call(op, MBARRIER_WAIT_FN, &arguments, &[]);
        }
        ops::BULK_COPY => {
            let operands = bulk_copy_operands(&op);
            let element = MemRefType::try_from(operands.src.r#type())
                .map(|t| t.element())
                .ok();
            let bytes = element.and_then(element_bytes).unwrap_or(0)
                * attributes::integer(&op, attributes::ELEMENTS).unwrap_or(0);
            copy_call(em, operands);
            let address = slot_address(em, op, op.operand(2).unwrap(), op.operand(3).unwrap());
            let arguments = [
                em.constant(op, i64_type, id),
                address,
                em.constant(op, i64_type, bytes),
            ];
            em.call(op, BULK_TRACK_FN, &arguments, &[]);
        }
        _ => return false,
    }
    true
}
