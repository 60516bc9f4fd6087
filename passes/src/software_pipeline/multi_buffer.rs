//! Multi-buffering for `apipe-software-pipeline` (RFC 0077 "Multi-buffering"),
//! in the style of upstream `memref::multiBuffer`
//! (mlir/lib/Dialect/MemRef/Transforms/MultiBuffer.cpp).
//!
//! A buffer that async stage `s` writes and stage `t` reads, or a local
//! buffer that synchronous ops write and later stages read (chosen by
//! `super::dependences::sync_versions`), is expanded to `V` versions:
//! 1. [`check`] (before any change): the buffer is the result of
//!    `memref.alloc` / `memref.alloca` outside the loop, or a `gpu.func`
//!    workgroup attribution; its type has a static shape and the identity
//!    layout; outside the loop it is only deallocated. A function argument
//!    cannot be re-allocated and gets a located error.
//! 2. [`expand`]: a new `alloc`/`alloca` of `memref<V x shape>` (or the
//!    attribution retyped in place), and `memref.dealloc` users redirected.
//!    Every version starts at an address aligned to the largest copy into
//!    the buffer (`A` bytes, `cp_async::required_alignment`: `cp.async`
//!    needs addresses aligned to its 4, 8 or 16 bytes): when a version
//!    (`shape`) is not a multiple of `A` bytes, the outermost dimension of
//!    each version is padded to the next size that is, e.g. `memref<6xf32>`
//!    under 16-byte copies becomes `memref<V x 8 x f32>` (the views keep
//!    `shape`);
//! 3. the emitter replaces each use in the pipelined code by
//!    [`subview`] of version `iteration mod V`: a rank-reducing
//!    `memref.subview` `[v, 0, ...] [1, shape...] [1, ...]` whose type is
//!    `memref<shape, strided<[...], offset: ?>>`.
//!
//! `V` is computed per buffer by the analysis: the last stage that still
//! reads the data minus the writer stage, plus one (an async copy that reads
//! the buffer reads until the wait on its own group, RFC 0077 example b).
//! [`describe`] is [`check`] without diagnostics (for buffers that are
//! versioned only where possible).

use crate::workgroup_memory;
use apipe_dialect::{diagnostic, ops};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, DenseI64ArrayAttribute},
    operation::{OperationBuilder, OperationLike, OperationMutLike, OperationRefMut},
    r#type::{MemRefType, ShapedTypeLike},
    BlockLike, Identifier, OperationRef, Type, TypeLike, Value, ValueLike,
};
use mlir_sys::{MlirOperation, MlirType, MlirValue};

/// One buffer to expand.
pub(crate) struct Buffer {
    /// The original buffer value.
    pub value: MlirValue,
    /// Its `memref.alloc`/`alloca`, or null for a workgroup attribution.
    pub alloc: MlirOperation,
    /// The alloc is of workgroup memory in a kernel: the expanded buffer is
    /// a workgroup attribution (`workgroup_memory`), not an alloc.
    pub to_attribution: bool,
    /// The number of versions.
    pub versions: i64,
    /// The original shape (of each version's view).
    pub shape: Vec<i64>,
    /// The type of one version (what the subview returns).
    pub view_type: MlirType,
    /// The expanded type.
    pub expanded_type: MlirType,
}

/// Which versions of its buffer an access of iteration `i` touches. A
/// buffer the pipeliner multi-buffers has `V` versions, version `i mod V`
/// being iteration `i`'s; a buffer that keeps its own slots (a loop
/// multi-buffered by hand: `super::analysis::Plan::own_slots`) has as versions the
/// positions of its slot dimension (the first dimension that every access
/// indexes by `(a * iv + c) mod K` or by constants; [`slot_dimension`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Slots {
    /// Version `i mod V`.
    Iteration,
    /// Position `(a * i + c) mod k` of the slot dimension (`a, c >= 0`).
    Rotating { a: i64, c: i64, k: i64 },
    /// Positions `[start, start + extent)` of the slot dimension.
    Fixed { start: i64, extent: i64 },
    /// Every version.
    All,
}

/// What an access's region says of its position along one dimension of a
/// buffer, in iteration `τ_L` of the loop `l` (its op address): `None` if
/// the position depends on anything else.
fn slots_of(dim: &crate::access::Dim, l: usize) -> Option<Slots> {
    let crate::access::Dim::Range { start, extent } = dim else {
        return None;
    };
    if let Some(c) = start.as_constant() {
        return Some(Slots::Fixed {
            start: c,
            extent: *extent,
        });
    }
    let mut terms = start.terms();
    let (Some((crate::access::Atom::Mod(x, k, _), 1)), None, 0, 1) =
        (terms.next(), terms.next(), start.constant_term(), *extent)
    else {
        return None;
    };
    let mut inner = x.terms();
    let iteration = crate::access::Atom::Sym(crate::access::Symbol::Iteration(l));
    let (a, c) = match (inner.next(), inner.next()) {
        (Some((atom, a)), None) if *atom == iteration => (a, x.constant_term()),
        _ => return None,
    };
    // A nonnegative dividend: every remainder is in `[0, k)`.
    (a >= 0 && c >= 0).then_some(Slots::Rotating { a, c, k: *k })
}

/// The slot dimension of the buffer `value` (the address of its root
/// value; not multi-buffered), from the regions of its accesses (`None`:
/// an access of the whole buffer), in iterations of the loop `l` (its op
/// address): `(dimension, its size D, the slots of each access along it)`
/// for the first dimension of static size along which every access is
/// [`Slots::Rotating`] with `k <= D` or [`Slots::Fixed`] within `[0, D)`,
/// and at least one rotates. `None` if there is none (the buffer is then
/// one version).
pub(crate) fn slot_dimension(
    value: usize,
    regions: &[Option<&Vec<crate::access::Dim>>],
    l: usize,
) -> Option<(usize, i64, Vec<Slots>)> {
    // SAFETY: the caller passes the address of a live value.
    let shape = static_shape(unsafe { Value::from_raw(MlirValue { ptr: value as _ }) }.r#type());
    (0..shape.len()).find_map(|d| {
        let size = shape[d]?;
        let slots: Vec<Slots> = regions
            .iter()
            .map(|dims| {
                let slots = slots_of((*dims)?.get(d)?, l)?;
                match slots {
                    Slots::Rotating { k, .. } if k <= size => Some(slots),
                    Slots::Fixed { start, extent } if start >= 0 && start + extent <= size => {
                        Some(slots)
                    }
                    _ => None,
                }
            })
            .collect::<Option<_>>()?;
        slots
            .iter()
            .any(|s| matches!(s, Slots::Rotating { .. }))
            .then_some((d, size, slots))
    })
}

/// The static size of each dimension of a memref type (`None`: dynamic);
/// empty for another type.
pub(crate) fn static_shape(ty: Type) -> Vec<Option<i64>> {
    MemRefType::try_from(ty)
        .map(|t| {
            (0..t.rank())
                .map(|d| match t.dim_size(d) {
                    Ok(melior::ir::r#type::DimSize::Static(n)) => Some(n as i64),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default()
}

pub(crate) fn parse_type<'c: 'a, 'a>(op: &OperationRef<'c, 'a>, text: &str) -> MlirType {
    let context = op.context();
    // SAFETY: `context` is bound first (a temporary's `to_ref` would dangle).
    let context = unsafe { context.to_ref() };
    Type::parse(context, text)
        .unwrap_or_else(|| panic!("type {text} parses"))
        .to_raw()
}

fn users<'c, 'a>(value: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    crate::token_values::users(value)
}

/// Checks that `value` can be expanded to `versions` versions for the
/// pipelined `loop_op`, and describes the expansion. Emits a located error
/// otherwise, at `first_use` (the first copy that writes the buffer).
pub(crate) fn check(
    value: Value,
    loop_op: &OperationRef,
    versions: i64,
    align_bytes: i64,
    first_use: melior::ir::Location,
) -> Result<Buffer, ()> {
    describe(value, loop_op, versions, align_bytes, first_use).map_err(|(location, message)| {
        diagnostic::error(location, &message);
    })
}

/// [`check`] without diagnostics: the expansion, or where and why it is not
/// possible.
pub(crate) fn describe<'c>(
    value: Value<'c, '_>,
    loop_op: &OperationRef,
    versions: i64,
    align_bytes: i64,
    first_use: melior::ir::Location<'c>,
) -> Result<Buffer, (melior::ir::Location<'c>, String)> {
    let fail = |message: &str| Err((first_use, message.to_owned()));
    let alloc = if let Some(owner) = ops::defining_op(value) {
        if !(ops::is(&owner, "memref.alloc") || ops::is(&owner, "memref.alloca")) {
            return fail(&format!(
                "buffer written by an async copy and read {} stage(s) later needs {versions} versions, but it is defined by '{}', not by memref.alloc/alloca",
                versions - 1,
                owner.name().as_string_ref().as_str().unwrap_or("?")
            ));
        }
        if ops::is_inside(&owner, loop_op) {
            return fail("buffer written by an async copy is allocated inside the pipelined loop; allocate it before the loop");
        }
        if workgroup_memory::is_workgroup_alloc(&owner) && super::analysis::in_gpu_func(loop_op) {
            if let Err(message) = workgroup_memory::check_hoistable(&owner) {
                return Err((owner.location(), message));
            }
        }
        owner.to_raw()
    } else {
        let argument = melior::ir::block::BlockArgument::try_from(value).unwrap();
        let block = argument.owner();
        let function = block.parent_operation();
        let is_attribution = function.as_ref().is_some_and(|f| {
            ops::is(f, "gpu.func") && {
                let inputs = f
                    .attribute("function_type")
                    .ok()
                    .and_then(|a| melior::ir::attribute::TypeAttribute::try_from(a).ok())
                    .and_then(|t| melior::ir::r#type::FunctionType::try_from(t.value()).ok())
                    .map_or(usize::MAX, |t| t.input_count());
                argument.argument_number() >= inputs
            }
        });
        if let Some(owner) = function.filter(|f| !ops::is_function(f)) {
            return fail(&format!(
                "buffer written by an async copy is a block argument of '{}' (an iter_arg or region argument), which may name another buffer in each iteration: it cannot be multi-buffered ({versions} versions needed); copy into a buffer allocated before the loop (memref.alloc) or a gpu.func workgroup attribution",
                ops::name(&owner)
            ));
        }
        if let Some(launch) = function.filter(|f| ops::is(f, "gpu.launch")) {
            let attributions = launch
                .attribute("workgroup_attributions")
                .ok()
                .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
                .map_or(0, |a| a.value().max(0) as usize);
            // The launch body's arguments: 6 ids, 6 sizes, then the
            // workgroup attributions, then the private ones.
            let what = if (12..12 + attributions).contains(&argument.argument_number()) {
                "a workgroup attribution of 'gpu.launch'"
            } else {
                "an argument of the 'gpu.launch' body"
            };
            return fail(&format!(
                "buffer written by an async copy is {what}, which multi-buffering cannot re-allocate ({versions} versions needed); allocate it with memref.alloc in memory space 3 inside the launch body, or outline the launch (gpu-kernel-outlining) so that it becomes a gpu.func workgroup attribution"
            ));
        }
        if !is_attribution {
            return fail(&format!(
                "buffer written by an async copy is a function argument and cannot be re-allocated for multi-buffering ({versions} versions needed); allocate it with memref.alloc or as a gpu.func workgroup attribution"
            ));
        }
        MlirOperation {
            ptr: std::ptr::null_mut(),
        }
    };
    for user in users(value) {
        if !ops::is_inside(&user, loop_op) && !ops::is(&user, "memref.dealloc") {
            return Err((
                user.location(),
                "buffer is multi-buffered by the pipelined loop and cannot be used outside it (except by memref.dealloc); give each loop a buffer of its own (one memref.alloc per loop)".to_owned(),
            ));
        }
    }
    let ty = MemRefType::try_from(value.r#type()).unwrap();
    let (strides, offset) = ty.strides_and_offset();
    let mut shape = Vec::new();
    for i in 0..ty.rank() {
        match ty.dim_size(i) {
            Ok(melior::ir::r#type::DimSize::Static(n)) => shape.push(n as i64),
            _ => return fail("buffer to multi-buffer has a dynamic shape"),
        }
    }
    let mut expected = vec![1i64; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        expected[i] = expected[i + 1] * shape[i + 1];
    }
    if offset != 0 || strides != expected {
        return fail("buffer to multi-buffer has a non-identity layout");
    }
    let element = ty.element().to_string();
    let space = ty
        .memory_space()
        .map(|s| format!(", {s}"))
        .unwrap_or_default();
    let dims: String = shape.iter().map(|d| format!("{d}x")).collect();
    let strides_text = expected
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let view = format!("memref<{dims}{element}, strided<[{strides_text}], offset: ?>{space}>");
    let padded: String = padded_shape(
        &shape,
        crate::cp_async::bit_width(ty.element()),
        align_bytes,
    )
    .iter()
    .map(|d| format!("{d}x"))
    .collect();
    let expanded = format!("memref<{versions}x{padded}{element}{space}>");
    // SAFETY: a live op, or null (an attribution).
    let to_attribution = !alloc.ptr.is_null()
        && workgroup_memory::is_workgroup_alloc(&unsafe { OperationRef::from_raw(alloc) })
        && super::analysis::in_gpu_func(loop_op);
    Ok(Buffer {
        value: value.to_raw(),
        alloc,
        to_attribution,
        versions,
        shape,
        view_type: parse_type(loop_op, &view),
        expanded_type: parse_type(loop_op, &expanded),
    })
}

/// The shape of one version in the expanded buffer: `shape` with its
/// outermost dimension padded so that a version (of `element_bits` wide
/// elements) is a multiple of `align_bytes` bytes; `shape` itself when it
/// already is, or when the width is unknown.
fn padded_shape(shape: &[i64], element_bits: Option<u32>, align_bytes: i64) -> Vec<i64> {
    let (Some(bits), Some(&outer)) = (element_bits, shape.first()) else {
        return shape.to_vec();
    };
    let align_bits = align_bytes.max(1) * 8;
    let row_bits: i64 = shape[1..].iter().product::<i64>() * i64::from(bits);
    if row_bits == 0 || (outer * row_bits) % align_bits == 0 {
        return shape.to_vec();
    }
    // The outer dimension must be a multiple of `align_bits / gcd`.
    let gcd = |mut a: i64, mut b: i64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let quantum = align_bits / gcd(row_bits, align_bits);
    let mut padded = shape.to_vec();
    padded[0] = (outer + quantum - 1) / quantum * quantum;
    padded
}

/// Step 2: creates the expanded buffer and redirects `memref.dealloc`;
/// returns the new buffer value. The old `alloc` is erased by the caller
/// once the original loop is gone.
pub(crate) fn expand(buffer: &Buffer, context: &melior::Context) -> MlirValue {
    // SAFETY: the buffer value is live.
    let value = unsafe { Value::from_raw(buffer.value) };
    // SAFETY: a type of this context.
    let expanded = unsafe { Type::from_raw(buffer.expanded_type) };
    if buffer.alloc.ptr.is_null() {
        // A workgroup attribution: retype it in place; every use is in the
        // loop and is rewritten to a subview.
        value.set_type(expanded);
        return buffer.value;
    }
    // SAFETY: the alloc op is live.
    let alloc = unsafe { OperationRef::from_raw(buffer.alloc) };
    if buffer.to_attribution {
        // Workgroup memory of a kernel: an attribution, never an alloc
        // (which would lower to a per-thread malloc).
        let kernel = alloc
            .parent_operation()
            .expect("checked: a kernel's entry block");
        let align = apipe_dialect::attributes::integer(&alloc, "alignment");
        let attribution =
            workgroup_memory::add_workgroup_attribution(&kernel, expanded, align, alloc.location());
        for user in users(value) {
            if ops::is(&user, "memref.dealloc") {
                crate::rewrite::erase_op(user);
            }
        }
        return attribution.to_raw();
    }
    let mut builder = OperationBuilder::new(
        alloc.name().as_string_ref().as_str().unwrap(),
        alloc.location(),
    )
    .add_results(&[expanded])
    .add_attributes(&[(
        Identifier::new(context, "operandSegmentSizes"),
        DenseI32ArrayAttribute::new(context, &[0, 0]).into(),
    )]);
    if let Ok(alignment) = alloc.attribute("alignment") {
        builder = builder.add_attributes(&[(Identifier::new(context, "alignment"), alignment)]);
    }
    let new = alloc
        .block()
        .unwrap()
        .insert_operation_before(alloc, builder.build().expect("valid alloc"));
    let new_value = new.result(0).unwrap();
    for user in users(value) {
        if ops::is(&user, "memref.dealloc") {
            // SAFETY: a live op that no other handle changes meanwhile;
            // operand 0 is the buffer.
            let mut user = unsafe { OperationRefMut::from_raw(user.to_raw()) };
            user.set_operand(0, new_value.into());
        }
    }
    new_value.to_raw()
}

/// Builds `memref.subview %expanded[%version, 0...][1, shape...][1...]`
/// (rank-reducing), the view of one version.
pub(crate) fn subview<'c>(
    context: &'c melior::Context,
    buffer: &Buffer,
    expanded: MlirValue,
    version: MlirValue,
    location: melior::ir::Location<'c>,
) -> melior::ir::Operation<'c> {
    let rank = buffer.shape.len();
    let mut offsets = vec![i64::MIN];
    offsets.extend(std::iter::repeat_n(0, rank));
    let mut sizes = vec![1];
    sizes.extend(&buffer.shape);
    let strides = vec![1; rank + 1];
    // SAFETY: live values and type of this context.
    let (source, version, view) = unsafe {
        (
            Value::from_raw(expanded),
            Value::from_raw(version),
            Type::from_raw(buffer.view_type),
        )
    };
    OperationBuilder::new("memref.subview", location)
        .add_operands(&[source, version])
        .add_results(&[view])
        .add_attributes(&[
            (
                Identifier::new(context, "operandSegmentSizes"),
                DenseI32ArrayAttribute::new(context, &[1, 1, 0, 0]).into(),
            ),
            (
                Identifier::new(context, "static_offsets"),
                DenseI64ArrayAttribute::new(context, &offsets).into(),
            ),
            (
                Identifier::new(context, "static_sizes"),
                DenseI64ArrayAttribute::new(context, &sizes).into(),
            ),
            (
                Identifier::new(context, "static_strides"),
                DenseI64ArrayAttribute::new(context, &strides).into(),
            ),
        ])
        .build()
        .expect("valid subview")
}

#[cfg(test)]
mod tests {
    use super::padded_shape;

    #[test]
    fn versions_are_padded_to_the_copy_alignment() {
        // 24 bytes under 16-byte copies: 8 floats per version.
        assert_eq!(padded_shape(&[6], Some(32), 16), vec![8]);
        assert_eq!(padded_shape(&[6], Some(32), 8), vec![6]);
        assert_eq!(padded_shape(&[6], Some(32), 4), vec![6]);
        // Rows of 12 bytes: 4 rows are the first multiple of 16 bytes.
        assert_eq!(padded_shape(&[1, 3], Some(32), 16), vec![4, 3]);
        assert_eq!(padded_shape(&[2, 6], Some(32), 16), vec![2, 6]);
        // f16: 5 elements = 10 bytes -> 8 elements.
        assert_eq!(padded_shape(&[5], Some(16), 16), vec![8]);
        // i4: 20 elements = 10 bytes -> 32 elements (16 bytes).
        assert_eq!(padded_shape(&[20], Some(4), 16), vec![32]);
        assert_eq!(padded_shape(&[6], None, 16), vec![6]);
        // Against brute force: the smallest outer size >= the original
        // whose version is a multiple of the alignment.
        for bits in [4u32, 8, 16, 32, 64] {
            for align in [1i64, 4, 8, 16] {
                for outer in 1..20i64 {
                    for inner in 1..6i64 {
                        let row = inner * i64::from(bits);
                        let smallest = (outer..).find(|d| d * row % (align * 8) == 0).unwrap();
                        let p = padded_shape(&[outer, inner], Some(bits), align);
                        assert_eq!(p, vec![smallest, inner], "{bits} {align} {outer} {inner}");
                    }
                }
            }
        }
    }
}
