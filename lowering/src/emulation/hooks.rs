//! The race checker's hooks (`apipe-run --racecheck`): in the code of a
//! `gpu.module`, before each `memref.load` / `memref.store` /
//! `vector.load` / `vector.store` of a workgroup memref, a call
//! `apipe_emu_shared_access(id, address, bytes, kind)` (kind 0 a read, 1 a
//! write); before each store to global memory, a call
//! `apipe_emu_global_write(id, address, bytes)`. Atomic ops
//! (`memref.atomic_rmw`, `memref.generic_atomic_rmw`) get none: atomics
//! do not race.
//!
//! The address is computed from the memref's metadata:
//! `aligned + (offset + sum(index_d * stride_d)) * element_bytes`, which
//! the LLVM lowering shares with the access itself.
//!
//! Runs before memory spaces are erased (it classifies accesses by them).

use super::{address_space, element_bytes, Emitter, WORKGROUP};
use crate::emulation_runtime::{GLOBAL_WRITE_FN, SHARED_ACCESS_FN};
use apipe_dialect::ops;
use melior::ir::r#type::ShapedTypeLike as _;
use melior::{
    dialect::arith,
    ir::{operation::OperationLike, OperationRef, Value, ValueLike},
};

/// Inserts the hooks in every `gpu.module` nested in `root`.
pub fn insert<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>, emitter: &mut Emitter<'c, 'a>) {
    for op in ops::nested_ops(root) {
        let in_gpu = ops::ancestors(&op).any(|p| ops::is(&p, "gpu.module"));
        if !in_gpu {
            continue;
        }
        // (memref operand, first index operand, value type, is a write)
        let access = match ops::name(&op).as_str() {
            "memref.load" => Some((0, 1, op.result(0).map(|r| r.r#type()), false)),
            "vector.load" => Some((0, 1, op.result(0).map(|r| r.r#type()), false)),
            "memref.store" | "vector.store" => {
                Some((1, 2, op.operand(0).map(|v| v.r#type()), true))
            }
            _ => None,
        };
        let Some((memref_at, first_index, Ok(value_type), write)) = access else {
            continue;
        };
        let Ok(memref) = op.operand(memref_at) else {
            continue;
        };
        let (Some(space), Some(bytes)) =
            (address_space(memref.r#type()), element_bytes(value_type))
        else {
            continue;
        };
        let shared = space == WORKGROUP;
        if !shared && (!write || space != 0 && space != 1 || is_stack(memref)) {
            continue;
        }
        let indices: Vec<Value> = op.operands().skip(first_index).collect();
        let Some(element) = melior::ir::r#type::MemRefType::try_from(memref.r#type())
            .ok()
            .and_then(|t| element_bytes(t.element()))
        else {
            continue;
        };
        let address = address(op, emitter, memref, &indices, element);
        let id = emitter.id(op.location(), "");
        let id = emitter.constant(op, emitter.i64_type(), id);
        let bytes = emitter.constant(op, emitter.i64_type(), bytes);
        if shared {
            let kind = emitter.constant(op, emitter.i64_type(), write as i64);
            emitter.call(op, SHARED_ACCESS_FN, &[id, address, bytes, kind], &[]);
        } else {
            emitter.call(op, GLOBAL_WRITE_FN, &[id, address, bytes], &[]);
        }
    }
}

/// The byte address of `memref[indices]` as an `i64`, computed before `op`.
fn address<'c, 'a>(
    op: OperationRef<'c, 'a>,
    emitter: &Emitter<'c, 'a>,
    memref: Value<'c, 'a>,
    indices: &[Value<'c, 'a>],
    element: i64,
) -> Value<'c, 'a> {
    let location = op.location();
    let (pointer, offset, _, strides) = emitter.metadata(op, memref);
    let mut linear = offset;
    for (i, stride) in indices.iter().zip(&strides) {
        let term: Value = emitter
            .before(op, arith::muli(*i, *stride, location))
            .result(0)
            .unwrap()
            .into();
        linear = emitter
            .before(op, arith::addi(linear, term, location))
            .result(0)
            .unwrap()
            .into();
    }
    let size = emitter.constant(op, emitter.index_type(), element);
    let bytes: Value = emitter
        .before(op, arith::muli(linear, size, location))
        .result(0)
        .unwrap()
        .into();
    let address: Value = emitter
        .before(op, arith::addi(pointer, bytes, location))
        .result(0)
        .unwrap()
        .into();
    emitter.to_i64(op, address)
}

/// Whether `memref` is (a view of) a `memref.alloca`: private memory of the
/// thread, which no other thread writes.
fn is_stack(memref: Value) -> bool {
    let mut value = memref;
    loop {
        let Ok(result) = melior::ir::operation::OperationResult::try_from(value) else {
            return false;
        };
        let owner = result.owner();
        let name = ops::name(&owner);
        if name == "memref.alloca" {
            return true;
        }
        let view = [
            "memref.subview",
            "memref.cast",
            "memref.view",
            "memref.reinterpret_cast",
            "memref.collapse_shape",
            "memref.expand_shape",
            "memref.transpose",
        ];
        match owner.operand(0) {
            Ok(source) if view.contains(&name.as_str()) => value = source,
            _ => return false,
        }
    }
}
