//! The rules of PTX `cp.async` (PTX ISA 9.7.9.25.3.1) that an `apipe.copy`
//! must follow to become one: checked by the pipeliner inside `gpu.func`
//! (where the user can still fix the kernel) and by `apipe-to-nvgpu` (and so
//! `apipe-translate`) on everything it exports.
//!
//! - `cp-size`: a copy moves 4, 8 or 16 bytes (`elements` × element width;
//!   sub-byte element types count bits: 32 × `i4` is 16 bytes, as upstream
//!   `convert-nvgpu-to-nvvm` lowers `nvgpu.device_async_copy`);
//! - alignment: the source and destination addresses are multiples of the
//!   copy size; checked where the offset is known at compile time (constant
//!   indices, static strides and layout offset);
//! - state spaces: it reads global memory and writes shared memory;
//! - both memrefs have a unit innermost stride (the bytes are contiguous).

use apipe_dialect::ops::Checked as _;
use apipe_dialect::{attributes, ops};
use melior::ir::{
    operation::OperationLike,
    r#type::{MemRefType, ShapedTypeLike},
    OperationRef, Type, TypeLike, Value, ValueLike,
};

/// The memory a memref lives in, as far as `cp.async` cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemorySpace {
    /// No memory space, `1`, or `#gpu.address_space<global>`.
    Global,
    /// `3` or `#gpu.address_space<workgroup>`.
    Shared,
    /// Anything else.
    Other,
}

/// The memory space of a memref type.
pub fn memory_space(ty: MemRefType) -> MemorySpace {
    match attributes::memory_space_number(ty.memory_space()) {
        Some(0 | 1) => MemorySpace::Global,
        Some(3) => MemorySpace::Shared,
        _ => MemorySpace::Other,
    }
}

/// The width in bits of an integer or float element type.
pub fn bit_width(ty: Type) -> Option<u32> {
    // SAFETY: `ty` is live.
    unsafe {
        if mlir_sys::mlirTypeIsAInteger(ty.to_raw()) {
            Some(mlir_sys::mlirIntegerTypeGetWidth(ty.to_raw()))
        } else if mlir_sys::mlirTypeIsAFloat(ty.to_raw()) {
            Some(mlir_sys::mlirFloatTypeGetWidth(ty.to_raw()))
        } else {
            None
        }
    }
}

/// The strides and the layout offset of a memref type (`i64::MIN` where
/// dynamic), or `None` if the layout is not strided.
fn strides_and_offset(ty: MemRefType) -> Option<(Vec<i64>, i64)> {
    let rank = ty.rank();
    let mut strides = vec![0i64; rank.max(1)];
    let mut offset = 0i64;
    // SAFETY: `ty` is live; `strides` has room for `rank` entries.
    let result = unsafe {
        mlir_sys::mlirMemRefTypeGetStridesAndOffset(ty.to_raw(), strides.as_mut_ptr(), &mut offset)
    };
    (result.value != 0).then(|| {
        strides.truncate(rank);
        (strides, offset)
    })
}

/// The strides and layout offset of a memref type when all are static.
pub fn static_strides_and_offset(ty: MemRefType) -> Option<(Vec<i64>, i64)> {
    let (strides, offset) = strides_and_offset(ty)?;
    (offset != i64::MIN && !strides.contains(&i64::MIN)).then_some((strides, offset))
}

/// The innermost stride of a memref type, if static.
pub fn innermost_stride(ty: MemRefType) -> Option<i64> {
    let (strides, _) = strides_and_offset(ty)?;
    strides.last().copied().filter(|s| *s != i64::MIN)
}

/// The offset in bits of the element at `indices` from the start (aligned
/// pointer) of a memref of type `ty`, if it is known at compile time: the
/// layout offset is static, every index is a constant, and every nonzero
/// index has a static stride. `None` otherwise.
pub fn static_bit_offset(ty: MemRefType, indices: &[Value]) -> Option<i128> {
    let element_bits = i128::from(bit_width(ty.element())?);
    // The indices first: MLIR derives the strides from the layout, which
    // costs more than the rest, and most copies index by the induction
    // variable.
    let indices = indices
        .iter()
        .map(|index| ops::constant_int(*index))
        .collect::<Option<Vec<i64>>>()?;
    let (strides, offset) = strides_and_offset(ty)?;
    if offset == i64::MIN || indices.len() != strides.len() {
        return None;
    }
    let mut linear = i128::from(offset);
    for (&index, stride) in indices.iter().zip(&strides) {
        if index != 0 {
            if *stride == i64::MIN {
                return None;
            }
            linear = linear.checked_add(i128::from(index).checked_mul(i128::from(*stride))?)?;
        }
    }
    linear.checked_mul(element_bits)
}

fn memref_type<'c>(value: Value<'c, '_>) -> Option<MemRefType<'c>> {
    MemRefType::try_from(value.r#type()).ok()
}

/// The bytes one `apipe.copy` moves (`elements` × element width), or why it
/// has none (not whole bytes, or an element type without a width). The
/// product is taken in `i128`, where an `i64` count times a `u32` width
/// cannot overflow: a huge `elements` is reported with its exact byte count
/// instead of wrapping to a valid-looking 0, 4, 8 or 16.
pub fn copy_bytes(op: &OperationRef) -> Result<i128, String> {
    let element = memref_type(op.operand(0).map_err(|e| e.to_string())?)
        .ok_or("expected a memref source")?
        .element();
    let elements = i128::from(attributes::integer(op, attributes::ELEMENTS).unwrap_or(0));
    match bit_width(element) {
        Some(bits) if elements * i128::from(bits) % 8 == 0 => Ok(elements * i128::from(bits) / 8),
        Some(bits) => Err(format!(
            "cp.async copies whole bytes; {elements} elements of {element} are {} bits",
            elements * i128::from(bits)
        )),
        None => Err(format!(
            "cp.async copies whole bytes of integers or floats, not elements of type {element}"
        )),
    }
}

/// The alignment in bytes that the addresses of `op` (an `apipe.copy`) need:
/// its size when that is a `cp-size` (4, 8 or 16), else 1 (no rule).
pub fn required_alignment(op: &OperationRef) -> i64 {
    match copy_bytes(op) {
        Ok(bytes @ (4 | 8 | 16)) => bytes as i64,
        _ => 1,
    }
}

/// Which rules [`check_copy`] applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// Size and the alignment of static offsets (the pipeliner in
    /// `gpu.func`: the buffers may still be re-allocated).
    SizeAndAlignment,
    /// Every rule (the export to `nvgpu.device_async_copy`).
    All,
}

/// Checks the `apipe.copy` `op` against the `cp.async` rules; returns one
/// message per violation (`'apipe.copy' op ...`, for a located error).
pub fn check_copy(op: &OperationRef, rules: Rules) -> Vec<String> {
    let mut messages = Vec::new();
    let (Some(src), Some(dst)) = (
        op.operand_at(0).and_then(memref_type),
        op.operand_at(1).and_then(memref_type),
    ) else {
        return messages;
    };
    match copy_bytes(op) {
        Ok(4 | 8 | 16) => {}
        Ok(bytes) => messages.push(format!(
            "'apipe.copy' op moves {bytes} bytes; cp.async copies 4, 8 or 16 bytes"
        )),
        Err(message) => messages.push(format!("'apipe.copy' op: {message}")),
    }
    if let Ok(bytes @ (4 | 8 | 16)) = copy_bytes(op) {
        let indices: Vec<Value> = op.operands().skip(2).collect();
        let (src_rank, dst_rank) = (src.rank(), dst.rank());
        if indices.len() >= src_rank + dst_rank {
            for (what, ty, at) in [
                ("source", src, &indices[..src_rank]),
                ("destination", dst, &indices[src_rank..src_rank + dst_rank]),
            ] {
                let Some(bits) = static_bit_offset(ty, at) else {
                    continue;
                };
                if bits.rem_euclid(bytes * 8) != 0 {
                    let offset = if bits % 8 == 0 {
                        format!("byte offset {}", bits / 8)
                    } else {
                        format!("bit offset {bits}")
                    };
                    messages.push(format!(
                        "'apipe.copy' op {what} {offset} is not a multiple of the {bytes}-byte copy; cp.async needs addresses aligned to the copy size"
                    ));
                }
            }
        }
    }
    if rules == Rules::SizeAndAlignment {
        return messages;
    }
    if memory_space(src) != MemorySpace::Global {
        messages.push(format!(
            "'apipe.copy' op reads {src}; cp.async reads global memory"
        ));
    }
    if memory_space(dst) != MemorySpace::Shared {
        messages.push(format!(
            "'apipe.copy' op writes {dst}; cp.async writes shared (workgroup) memory"
        ));
    }
    for (what, ty) in [("source", src), ("destination", dst)] {
        if innermost_stride(ty) != Some(1) {
            messages.push(format!(
                "'apipe.copy' op {what} {ty} has no unit innermost stride; cp.async copies contiguous bytes"
            ));
        }
    }
    messages
}
