//! The race checker's hooks for vector ops whose lanes access memory one
//! by one, under a mask or at the indices of an index vector (`apipe-run
//! --racecheck`; [`super::hooks`] has the other ops). A masked-off lane
//! accesses nothing (vector dialect: masked-off lanes of a masked store
//! leave memory unchanged, those of a masked load do not read it), so
//! only the enabled lanes count, each at the byte it touches:
//!
//! 1. `vector.maskedload` / `maskedstore`: lane `j` accesses
//!    `base[indices]` moved by `j` along the innermost memref dimension;
//! 2. `vector.gather` / `scatter`: lane `j` accesses the element
//!    `index_vec[j]` elements past `base[offsets]` (the LLVM lowering's
//!    GEP, in elements: the innermost stride is 1);
//! 3. `vector.compressstore` / `expandload`: the enabled lanes access
//!    consecutive elements from `base[indices]`: one hook for
//!    `popcount(mask)` elements;
//! 4. `vector.transfer_read` / `transfer_write` with a mask, of a 1-D
//!    vector along the innermost memref dimension (minor identity map):
//!    lane `j` accesses `base[indices]` + `j` if its mask bit is set and,
//!    unless `in_bounds`, `indices[last] + j` is below the dimension's size
//!    (an out-of-bounds lane is not accessed either).
//!
//! Each lane's hook is the element hook of [`super::hooks`] step 1
//! (`apipe_emu_shared_access` for workgroup memory,
//! `apipe_emu_global_write` for a write of global memory,
//! `apipe_emu_host_access` in host code under the host's count of copies
//! in flight) in an `scf.if` on the lane's mask bit: a masked-off lane
//! touches neither the shared-memory shadow, the watch of copy sources,
//! nor the cross-block log of global writes.
//!
//! Not handled here (the whole box of [`super::hooks`] step 2, where a
//! masked-off lane counts): vectors of more than one dimension (apipe-run
//! cannot lower an n-D masked store anyway) or of more than
//! [`MAX_LANES`] lanes, scalable vectors, element types that differ from
//! the memref's, and masked transfers with other maps.

use super::{
    address_space,
    checks::in_bounds_flags,
    element_bytes,
    hooks::{address, needs_hook, rank_of, transfer_dims, vector_shape, READ, WRITE},
    Emitter, WORKGROUP,
};
use crate::emulation_runtime::{GLOBAL_WRITE_FN, HOST_ACCESS_FN, SHARED_ACCESS_FN};
use apipe_dialect::ops;
use apipe_dialect::ops::Checked as _;
use melior::ir::r#type::ShapedTypeLike as _;
use melior::{
    dialect::arith,
    ir::{
        attribute::DenseI64ArrayAttribute, operation::OperationBuilder, operation::OperationLike,
        r#type::MemRefType, Identifier, OperationRef, Type, TypeLike as _, Value, ValueLike as _,
    },
};

/// The most lanes a vector op gets one hook per lane for.
pub const MAX_LANES: i64 = 256;

/// Where the lanes of an op go.
enum Lanes<'c, 'a> {
    /// Row-major from `base[indices]` over the innermost dimensions.
    Contiguous,
    /// At the element offsets of this index vector.
    Indexed(Value<'c, 'a>),
    /// The enabled lanes, packed from `base[indices]`.
    Compressed,
}

/// One lane-wise access.
struct LaneAccess<'c, 'a> {
    memref: Value<'c, 'a>,
    indices: Vec<Value<'c, 'a>>,
    kind: i64,
    mask: Value<'c, 'a>,
    /// The vector's shape (of the value loaded or stored): one dimension.
    shape: Vec<i64>,
    lanes: Lanes<'c, 'a>,
    /// A transfer whose dimension is not `in_bounds`: lanes past the
    /// dimension's size are not accessed.
    bounded: bool,
}

/// The lane-wise access of `op`, if it is one of the module doc's ops in
/// a form handled here.
fn describe<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<LaneAccess<'c, 'a>> {
    let operands: Vec<Value> = op.operands().collect();
    let at = |i: usize| operands.get(i).copied();
    let result_shape = || op.result_at(0).map(|r| r.r#type());
    let shape_at = |i: usize| at(i).map(|v| v.r#type());
    let name = ops::name(op);
    let base = if name == "vector.transfer_write" {
        1
    } else {
        0
    };
    let memref = at(base)?;
    let rank = rank_of(memref)?;
    let indices: Vec<Value> = operands.iter().skip(base + 1).take(rank).copied().collect();
    if indices.len() != rank {
        return None;
    }
    let after = base + 1 + rank;
    let (kind, mask, shape, lanes, bounded) = match name {
        "vector.maskedload" => (READ, at(after)?, result_shape()?, Lanes::Contiguous, false),
        "vector.maskedstore" => (
            WRITE,
            at(after)?,
            shape_at(after + 1)?,
            Lanes::Contiguous,
            false,
        ),
        "vector.gather" => (
            READ,
            at(after + 1)?,
            result_shape()?,
            Lanes::Indexed(at(after)?),
            false,
        ),
        "vector.scatter" => (
            WRITE,
            at(after + 1)?,
            shape_at(after + 2)?,
            Lanes::Indexed(at(after)?),
            false,
        ),
        "vector.compressstore" => (
            WRITE,
            at(after)?,
            shape_at(after + 1)?,
            Lanes::Compressed,
            false,
        ),
        "vector.expandload" => (READ, at(after)?, result_shape()?, Lanes::Compressed, false),
        "vector.transfer_read" | "vector.transfer_write" => {
            let reads = name == "vector.transfer_read";
            // transfer_read: source, indices, padding, [mask];
            // transfer_write: vector, dest, indices, [mask].
            let mask = at(if reads { after + 1 } else { after })?;
            let shape = if reads { result_shape()? } else { shape_at(0)? };
            let vector_rank = vector_shape(shape).len();
            let dims = transfer_dims(op, rank, vector_rank)?;
            let minor = vector_rank == 1
                && rank >= 1
                && dims[rank - 1] == Some(0)
                && dims[..rank - 1].iter().all(Option::is_none);
            if !minor || vector_shape(mask.r#type()).len() != 1 {
                return None;
            }
            let bounded = !in_bounds_flags(op, 1)[0];
            let kind = if reads { READ } else { WRITE };
            (kind, mask, shape, Lanes::Contiguous, bounded)
        }
        _ => return None,
    };
    let vector_type = shape;
    let shape = vector_shape(vector_type);
    let lanes_count: i64 = shape.iter().product();
    let same_element = MemRefType::try_from(memref.r#type())
        .is_ok_and(|t| !shape.is_empty() && element_type(vector_type) == t.element());
    if !same_element
        || shape.len() != 1
        || rank == 0
        || shape.iter().any(|&n| n <= 0)
        || lanes_count > MAX_LANES
        || is_scalable(mask.r#type())
        || vector_shape(mask.r#type()) != shape
    {
        return None;
    }
    Some(LaneAccess {
        memref,
        indices,
        kind,
        mask,
        shape,
        lanes,
        bounded,
    })
}

/// Whether `ty` is a vector type with a scalable dimension.
fn is_scalable(ty: Type) -> bool {
    // SAFETY: accessors on the type kind they are defined for.
    unsafe {
        let raw = ty.to_raw();
        mlir_sys::mlirTypeIsAVector(raw) && mlir_sys::mlirVectorTypeIsScalable(raw)
    }
}

/// The element type of the vector type `ty`.
pub(super) fn element_type<'c>(ty: Type<'c>) -> Type<'c> {
    // SAFETY: `ty` is a vector type (a shaped type).
    unsafe { Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(ty.to_raw())) }
}

/// Emits the per-lane hooks of `op` (host code: `host`); false if `op` is
/// not an op handled here (the caller falls back to [`super::hooks`]).
pub fn insert<'c, 'a>(op: OperationRef<'c, 'a>, emitter: &mut Emitter<'c, 'a>, host: bool) -> bool {
    let Some(access) = describe(&op) else {
        return false;
    };
    let Ok(memref_type) = MemRefType::try_from(access.memref.r#type()) else {
        return false;
    };
    let Some(bytes) = element_bytes(memref_type.element()) else {
        return false;
    };
    if !needs_hook(access.memref, access.kind, host) {
        return true;
    }
    let location = op.location();
    let context = emitter.context;
    let i64_type = emitter.i64_type();
    let index = emitter.index_type();
    let id = emitter.id(location, "");
    emitter.name(id, ops::name(&op));
    let id = emitter.constant(op, i64_type, id);
    let kind = emitter.constant(op, i64_type, access.kind);
    let element = emitter.constant(op, i64_type, bytes);
    let base = address(op, emitter, access.memref, &access.indices, bytes);
    let (_, _, sizes, strides) = emitter.metadata(op, access.memref);
    let lanes: i64 = access.shape.iter().product();
    let mask = access.mask;
    let watching = host.then(|| emitter.host_watching(op));
    let function = if host {
        HOST_ACCESS_FN
    } else if address_space(access.memref.r#type()) == Some(WORKGROUP) {
        SHARED_ACCESS_FN
    } else {
        GLOBAL_WRITE_FN
    };
    let bin = |emitter: &Emitter<'c, 'a>, operation| -> Value<'c, 'a> {
        emitter.before(op, operation).result(0).unwrap().into()
    };
    let i1 = melior::ir::r#type::IntegerType::new(context, 1).into();
    let and_watching = |emitter: &Emitter<'c, 'a>, condition: Value<'c, 'a>| match watching {
        Some(w) => bin(emitter, arith::andi(condition, w, location)),
        None => condition,
    };
    if let Lanes::Compressed = access.lanes {
        let mut count = emitter.constant(op, i64_type, 0);
        for j in 0..lanes {
            let bit = extract(op, emitter, mask, j, i1);
            let one = bin(emitter, arith::extui(bit, i64_type, location));
            count = bin(emitter, arith::addi(count, one, location));
        }
        let zero = emitter.constant(op, i64_type, 0);
        let any = bin(
            emitter,
            arith::cmpi(context, arith::CmpiPredicate::Sgt, count, zero, location),
        );
        let length = bin(emitter, arith::muli(count, element, location));
        let condition = and_watching(emitter, any);
        emitter.call_if_with(op, condition, function, &[id, base, length, kind], false);
        return true;
    }
    let rank = access.indices.len();
    let limit = access.bounded.then(|| {
        let last = access.indices[rank - 1];
        bin(emitter, arith::subi(sizes[rank - 1], last, location))
    });
    // Bytes per lane along the innermost dim.
    let step = {
        let stride = emitter.to_i64(op, strides[rank - 1]);
        bin(emitter, arith::muli(stride, element, location))
    };
    let offsets = match access.lanes {
        Lanes::Indexed(vector) => Some(vector),
        _ => None,
    };
    for j in 0..lanes {
        let bit = extract(op, emitter, mask, j, i1);
        let mut condition = bit;
        if let Some(limit) = limit {
            let lane = emitter.constant(op, index, j);
            let inside = bin(
                emitter,
                arith::cmpi(context, arith::CmpiPredicate::Slt, lane, limit, location),
            );
            condition = bin(emitter, arith::andi(condition, inside, location));
        }
        let condition = and_watching(emitter, condition);
        let at = match offsets {
            Some(vector) => {
                let offset_type = element_type(vector.r#type());
                let offset = extract(op, emitter, vector, j, offset_type);
                let offset = if offset_type.is_index() {
                    bin(emitter, arith::index_cast(offset, i64_type, location))
                } else if offset_type == i64_type {
                    offset
                } else {
                    bin(emitter, arith::extsi(offset, i64_type, location))
                };
                let delta = bin(emitter, arith::muli(offset, element, location));
                bin(emitter, arith::addi(base, delta, location))
            }
            None if j == 0 => base,
            None => {
                let position = emitter.constant(op, i64_type, j);
                let delta = bin(emitter, arith::muli(position, step, location));
                bin(emitter, arith::addi(base, delta, location))
            }
        };
        emitter.call_if_with(op, condition, function, &[id, at, element, kind], false);
    }
    true
}

/// `vector.extract %vector[j]` (a 1-D vector) of type `ty`, before `op`.
pub(super) fn extract<'c, 'a>(
    op: OperationRef<'c, 'a>,
    emitter: &Emitter<'c, 'a>,
    vector: Value<'c, 'a>,
    j: i64,
    ty: Type<'c>,
) -> Value<'c, 'a> {
    let context = emitter.context;
    emitter
        .before(
            op,
            OperationBuilder::new("vector.extract", op.location())
                .add_operands(&[vector])
                .add_attributes(&[(
                    Identifier::new(context, "static_position"),
                    DenseI64ArrayAttribute::new(context, &[j]).into(),
                )])
                .add_results(&[ty])
                .build()
                .expect("valid vector.extract"),
        )
        .result(0)
        .unwrap()
        .into()
}
