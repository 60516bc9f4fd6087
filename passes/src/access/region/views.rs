//! Regions through view ops: `memref.subview`, `memref.view`,
//! `memref.reinterpret_cast`, `memref.expand_shape` / `collapse_shape`,
//! `memref.transpose`, casts, each mapping the view's dimensions to its
//! source's (see the parent module for what a [`Region`] is). A view that
//! is not followed exactly gives any position in the dimensions it
//! changes, or the whole buffer.

use super::*;

/// The static size of dimension `i` of a shaped type, if static.
pub(super) fn static_size(ty: Type, i: usize) -> Option<i64> {
    // SAFETY: `ty` is a live shaped type; `i` is below its rank (checked).
    unsafe {
        let raw = ty.to_raw();
        if !mlir_sys::mlirShapedTypeHasRank(raw) || i as i64 >= mlir_sys::mlirShapedTypeGetRank(raw)
        {
            return None;
        }
        let size = mlir_sys::mlirShapedTypeGetDimSize(raw, i as isize);
        (size >= 0 && !mlir_sys::mlirShapedTypeIsDynamicSize(size)).then_some(size)
    }
}

/// The rank of a memref value (`None` if unranked).
pub fn rank(value: Value) -> Option<usize> {
    memref_type(value).map(|t| t.rank())
}

/// The groups of a `reassociation` attribute (array of arrays of integers).
pub(super) fn reassociation(op: &melior::ir::OperationRef) -> Option<Vec<Vec<usize>>> {
    let attribute = op.attribute("reassociation").ok()?;
    // SAFETY: a live attribute; each element checked to be an array of
    // integers first.
    unsafe {
        let raw = attribute.to_raw();
        if !mlir_sys::mlirAttributeIsAArray(raw) {
            return None;
        }
        let mut out = Vec::new();
        for i in 0..mlir_sys::mlirArrayAttrGetNumElements(raw) {
            let group = mlir_sys::mlirArrayAttrGetElement(raw, i);
            if !mlir_sys::mlirAttributeIsAArray(group) {
                return None;
            }
            let mut dims = Vec::new();
            for j in 0..mlir_sys::mlirArrayAttrGetNumElements(group) {
                let element = mlir_sys::mlirArrayAttrGetElement(group, j);
                if !mlir_sys::mlirAttributeIsAInteger(element) {
                    return None;
                }
                dims.push(mlir_sys::mlirIntegerAttrGetValueInt(element) as usize);
            }
            out.push(dims);
        }
        Some(out)
    }
}

/// The permutation of a `memref.transpose` (result dim i is source dim
/// `perm[i]`).
pub(super) fn permutation(op: &melior::ir::OperationRef) -> Option<Vec<usize>> {
    let attribute = op.attribute("permutation").ok()?;
    // SAFETY: a live attribute, checked to be a permutation map.
    unsafe {
        if !mlir_sys::mlirAttributeIsAAffineMap(attribute.to_raw()) {
            return None;
        }
        let map = mlir_sys::mlirAffineMapAttrGetValue(attribute.to_raw());
        if !mlir_sys::mlirAffineMapIsPermutation(map) {
            return None;
        }
        (0..mlir_sys::mlirAffineMapGetNumResults(map))
            .map(|i| {
                let expr = mlir_sys::mlirAffineMapGetResult(map, i);
                mlir_sys::mlirAffineExprIsADim(expr)
                    .then(|| mlir_sys::mlirAffineDimExprGetPosition(expr) as usize)
            })
            .collect()
    }
}

/// One step up a view: the region of `memref`'s source for `dims` of
/// `memref`, or `None` if `memref` is not a view.
pub(super) fn through_view<'c: 'a, 'a>(
    forms: &mut Forms,
    memref: Value<'c, 'a>,
    dims: Option<Vec<Dim>>,
) -> Option<(Value<'c, 'a>, Option<Vec<Dim>>)> {
    let op = defining_op(memref)?;
    let source = view_operand(&op)?;
    let name = ops::name(&op);
    let dims = match (name, dims) {
        (_, None) => None,
        ("memref.cast" | "memref.memory_space_cast" | "memref.assume_alignment", dims) => {
            // Same layout; a cast to or from an unranked memref keeps the
            // ranked side's dimensions only when both are ranked.
            dims.filter(|d| rank(source) == Some(d.len()))
        }
        ("memref.subview", Some(dims)) => subview(forms, &op, source, dims),
        ("memref.expand_shape", Some(dims)) => expand_shape(&op, memref, dims),
        ("memref.collapse_shape", Some(dims)) => collapse_shape(&op, source, dims),
        ("memref.view", Some(dims)) => view(forms, &op, memref, source, dims),
        ("memref.reinterpret_cast", Some(dims)) => reinterpret_cast(forms, &op, source, dims),
        ("memref.transpose", Some(dims)) => permutation(&op).and_then(|perm| {
            let mut out = vec![Dim::Any; dims.len()];
            for (i, p) in perm.iter().enumerate() {
                *out.get_mut(*p)? = dims.get(i)?.clone();
            }
            Some(out)
        }),
        _ => None,
    };
    Some((source, dims))
}

/// `memref.subview`: source position = offset + stride * position.
pub(super) fn subview(
    forms: &mut Forms,
    op: &melior::ir::OperationRef,
    source: Value,
    dims: Vec<Dim>,
) -> Option<Vec<Dim>> {
    let offsets = dense_i64(op, "static_offsets")?;
    let sizes = dense_i64(op, "static_sizes")?;
    let strides = dense_i64(op, "static_strides")?;
    let source_rank = rank(source)?;
    if offsets.len() != source_rank || sizes.len() != source_rank || strides.len() != source_rank {
        return None;
    }
    let mut dynamic = op.operands().skip(1);
    let mut take = |values: &[i64]| -> Vec<Option<Lin>> {
        values
            .iter()
            .map(|&v| {
                if v == i64::MIN {
                    dynamic.next().map(|d| forms.of(d))
                } else {
                    Some(Lin::constant(v))
                }
            })
            .collect()
    };
    let offsets = take(&offsets);
    let _sizes = take(&sizes);
    let strides = take(&strides);
    // Rank reduction drops unit dimensions (static size 1), first ones first;
    // which ones does not matter: a kept unit dimension is indexed at 0.
    let mut to_drop = source_rank.checked_sub(dims.len())?;
    let mut inner = dims.into_iter();
    let mut out = Vec::with_capacity(source_rank);
    for i in 0..source_rank {
        let dropped = to_drop > 0 && sizes[i] == 1;
        let position = if dropped {
            to_drop -= 1;
            None
        } else {
            Some(inner.next()?)
        };
        let stride = strides[i].as_ref().and_then(|s| s.as_constant());
        out.push(match (&offsets[i], position, stride) {
            (Some(offset), None, _) => Dim::Range {
                start: offset.clone(),
                extent: 1,
            },
            (Some(offset), Some(Dim::Range { start, extent }), Some(stride)) if stride > 0 => {
                let start = start.scaled(stride).and_then(|s| s.plus(offset, 1));
                let extent = (extent - 1)
                    .checked_mul(stride)
                    .and_then(|e| e.checked_add(1));
                match (start, extent) {
                    (Some(start), Some(extent)) => Dim::Range { start, extent },
                    _ => Dim::Any,
                }
            }
            _ => Dim::Any,
        });
    }
    Some(out)
}

/// The strides of a memref type whose layout is row-major from offset 0
/// (the identity layout, or strides equal to it), with every size past the
/// first static; `None` otherwise.
pub(super) fn row_major_strides(ty: Type) -> Option<Vec<i64>> {
    let memref = MemRefType::try_from(ty).ok()?;
    let rank = memref.rank();
    let mut strides = vec![0i64; rank.max(1)];
    let mut offset = 0i64;
    // SAFETY: `memref` is live; `strides` has room for `rank` entries.
    let result = unsafe {
        mlir_sys::mlirMemRefTypeGetStridesAndOffset(
            memref.to_raw(),
            strides.as_mut_ptr(),
            &mut offset,
        )
    };
    if result.value == 0 || offset != 0 {
        return None;
    }
    strides.truncate(rank);
    let mut expected = 1i64;
    for i in (0..rank).rev() {
        if strides[i] != expected {
            return None;
        }
        if i > 0 {
            expected = expected.checked_mul(static_size(ty, i)?)?;
        }
    }
    Some(strides)
}

/// The linear range `(start, extent)` of `dims` in a layout of `strides`:
/// exact when at most the innermost dimension with an extent above 1 is
/// ranged, the smallest enclosing range otherwise.
pub(super) fn linearize(dims: &[Dim], strides: &[i64]) -> Option<(Lin, i64)> {
    if dims.len() != strides.len() {
        return None;
    }
    let mut start = Lin::constant(0);
    let mut last = 0i64;
    for (dim, &stride) in dims.iter().zip(strides) {
        let Dim::Range { start: s, extent } = dim else {
            return None;
        };
        start = start.plus(s, stride)?;
        last = last.checked_add((extent - 1).checked_mul(stride)?)?;
    }
    Some((start, last.checked_add(1)?))
}

/// The positions in a row-major buffer of type `ty` (static sizes past the
/// first) of the linear range `(start, extent)`: itself in one dimension;
/// in several, one element is delinearized (`(x div inner) mod size`, as
/// `collapse_shape`) and a longer range is any position.
pub(super) fn delinearize(start: Lin, extent: i64, ty: Type) -> Option<Vec<Dim>> {
    let rank = MemRefType::try_from(ty).ok()?.rank();
    if rank == 1 {
        return Some(vec![Dim::Range { start, extent }]);
    }
    if extent != 1 {
        return Some(vec![Dim::Any; rank]);
    }
    let mut out = Vec::with_capacity(rank);
    let mut inner = 1i64;
    for d in (0..rank).rev() {
        let position = Lin::div(start.clone(), inner, Signedness::Euclidean);
        let position = if d > 0 {
            let size = static_size(ty, d)?;
            inner = inner.checked_mul(size)?;
            Lin::modulo(position, size, Signedness::Euclidean)
        } else {
            position
        };
        out.push(Dim::Range {
            start: position,
            extent: 1,
        });
    }
    out.reverse();
    Some(out)
}

/// `memref.view %bytes[%shift][sizes]`: a row-major view of the 1-D `i8`
/// buffer `source` from byte `%shift` (MLIR's `memref.view`); element `L`
/// (linear) of the view is bytes `shift + L * size .. + size` of the source.
pub(super) fn view(
    forms: &mut Forms,
    op: &melior::ir::OperationRef,
    result: Value,
    source: Value,
    dims: Vec<Dim>,
) -> Option<Vec<Dim>> {
    if row_major_strides(source.r#type())?.len() != 1 {
        return None;
    }
    let strides = row_major_strides(result.r#type())?;
    let element = MemRefType::try_from(result.r#type()).ok()?.element();
    let bits = i64::from(crate::cp_async::bit_width(element)?);
    if bits % 8 != 0 {
        return None;
    }
    let size = bits / 8;
    let (start, extent) = linearize(&dims, &strides)?;
    let shift = forms.of(op.operand_at(1)?);
    Some(vec![Dim::Range {
        start: start.scaled(size)?.plus(&shift, 1)?,
        extent: extent.checked_mul(size)?,
    }])
}

/// `memref.reinterpret_cast %source to offset: [o], sizes: [...], strides:
/// [...]` (MLIR's `memref.reinterpret_cast`): position `p` of the result is
/// element `o + sum(stride * p)` from the source's base pointer, which is
/// its position 0 only when the source is row-major from offset 0 (else
/// the whole buffer); the linear range is then delinearized in the source.
pub(super) fn reinterpret_cast(
    forms: &mut Forms,
    op: &melior::ir::OperationRef,
    source: Value,
    dims: Vec<Dim>,
) -> Option<Vec<Dim>> {
    row_major_strides(source.r#type())?;
    let offsets = dense_i64(op, "static_offsets")?;
    let sizes = dense_i64(op, "static_sizes")?;
    let strides = dense_i64(op, "static_strides")?;
    if offsets.len() != 1 {
        return None;
    }
    // Dynamic values follow the source in the order offsets, sizes,
    // strides. The sizes bound the positions but do not move them (a
    // dynamic size is no reason for the whole buffer; trial 61: a false
    // read-after-write); a dynamic stride is followed where it folds to a
    // constant.
    let mut dynamic = op.operands().skip(1);
    let offset = if offsets[0] == i64::MIN {
        forms.of(dynamic.next()?)
    } else {
        Lin::constant(offsets[0])
    };
    for _ in sizes.iter().filter(|&&s| s == i64::MIN) {
        dynamic.next()?;
    }
    let strides = strides
        .iter()
        .map(|&s| match s {
            i64::MIN => forms.of(dynamic.next()?).as_constant(),
            s => Some(s),
        })
        .collect::<Option<Vec<i64>>>()?;
    if strides.iter().any(|&s| s <= 0) {
        return None;
    }
    let (start, extent) = linearize(&dims, &strides)?;
    delinearize(start.plus(&offset, 1)?, extent, source.r#type())
}

/// `memref.expand_shape`: each source dimension is the linearization of its
/// group of result dimensions.
pub(super) fn expand_shape(
    op: &melior::ir::OperationRef,
    result: Value,
    dims: Vec<Dim>,
) -> Option<Vec<Dim>> {
    let groups = reassociation(op)?;
    let ty = result.r#type();
    let mut out = Vec::with_capacity(groups.len());
    for group in groups {
        let mut start = Lin::constant(0);
        let mut last = 0i64;
        let mut stride = 1i64;
        let mut any = false;
        for &d in group.iter().rev() {
            match dims.get(d)? {
                Dim::Range { start: s, extent } => {
                    start = start.plus(s, stride)?;
                    last = last.checked_add((extent - 1).checked_mul(stride)?)?;
                }
                Dim::Any => any = true,
            }
            match static_size(ty, d) {
                Some(size) => stride = stride.checked_mul(size)?,
                None if d != group[0] => any = true,
                None => {}
            }
        }
        out.push(if any {
            Dim::Any
        } else {
            Dim::Range {
                start,
                extent: last.checked_add(1)?,
            }
        });
    }
    Some(out)
}

/// `memref.collapse_shape`: a single position of a collapsed dimension is
/// `(x div inner) mod size` in each source dimension of its group; a range
/// `[x, x + e)` that stays in one row of the group's innermost dimension
/// (of static size `S`: `x = S q + r` for every value of its symbols with
/// `r + e <= S`, [`one_row`]) is the row `q`, delinearized over the outer
/// dimensions, and `[r, r + e)` in the innermost (trial 67: a copy of one
/// row through a collapsed view was any position, a false read-after-write
/// with the next row). Any other range is any position.
pub(super) fn collapse_shape(
    op: &melior::ir::OperationRef,
    source: Value,
    dims: Vec<Dim>,
) -> Option<Vec<Dim>> {
    let groups = reassociation(op)?;
    let ty = source.r#type();
    let mut out = vec![Dim::Any; rank(source)?];
    for (r, group) in groups.iter().enumerate() {
        let Dim::Range { start, extent } = dims.get(r)? else {
            continue;
        };
        if *extent == 1 {
            for (d, position) in single_positions(ty, group, start).unwrap_or_default() {
                out[d] = Dim::Range {
                    start: position,
                    extent: 1,
                };
            }
            continue;
        }
        let Some((&innermost, outer)) = group.split_last() else {
            continue;
        };
        if outer.is_empty() {
            out[innermost] = dims[r].clone();
            continue;
        }
        let Some((row, column)) =
            static_size(ty, innermost).and_then(|size| one_row(start, *extent, size))
        else {
            continue;
        };
        let Some(rows) = single_positions(ty, outer, &row) else {
            continue;
        };
        for (d, position) in rows {
            out[d] = Dim::Range {
                start: position,
                extent: 1,
            };
        }
        out[innermost] = Dim::Range {
            start: column,
            extent: *extent,
        };
    }
    Some(out)
}

/// The position in each dimension of `group` (of `ty`, outermost first)
/// of the linear position `start` of the collapsed dimension: `(start div
/// inner) mod size`; `None` where a size past the first is not static.
pub(super) fn single_positions(
    ty: Type,
    group: &[usize],
    start: &Lin,
) -> Option<Vec<(usize, Lin)>> {
    let mut inner = 1i64;
    let mut positions = Vec::new();
    for (j, &d) in group.iter().enumerate().rev() {
        let position = Lin::div(start.clone(), inner, Signedness::Euclidean);
        let size = static_size(ty, d);
        let position = match size {
            Some(size) if j > 0 => Lin::modulo(position, size, Signedness::Euclidean),
            _ => position,
        };
        positions.push((d, position));
        match size {
            Some(size) => inner = inner.checked_mul(size)?,
            None if j > 0 => return None,
            None => {}
        }
    }
    Some(positions)
}

/// `(q, r)` with `start = size * q + r`, `r` in `[0, size)`, when
/// `[start, start + extent)` stays in one row of `size` for every value of
/// `start`'s symbols: `q` and `r` exact (`r` constant) when every
/// coefficient of `start` is a multiple of `size`; otherwise `start div
/// size` and `start mod size`, when `start` lies `c` past a multiple of
/// `g = gcd(size, its coefficients)` with `c + extent <= g` (row ends are
/// multiples of `g`, so the range never crosses one: `[4 tid, 4 tid + 4)`
/// in rows of 128, trial 88's vector read of a collapsed buffer, which was
/// any position). `None` otherwise.
pub(super) fn one_row(start: &Lin, extent: i64, size: i64) -> Option<(Lin, Lin)> {
    if size <= 0 || extent <= 0 {
        return None;
    }
    let column = start.constant_term().rem_euclid(size);
    if column.checked_add(extent)? <= size {
        if let Some(row) = start.offset(-column).and_then(|s| s.exact_quotient(size)) {
            return Some((row, Lin::constant(column)));
        }
    }
    // `size > 0`, so `g` is in `[1, size]`.
    let g = crate::access::affine::gcd_u64(size.unsigned_abs(), start.coefficient_gcd()) as i64;
    if start.constant_term().rem_euclid(g).checked_add(extent)? > g {
        return None;
    }
    Some((
        Lin::div(start.clone(), size, Signedness::Euclidean),
        Lin::modulo(start.clone(), size, Signedness::Euclidean),
    ))
}
