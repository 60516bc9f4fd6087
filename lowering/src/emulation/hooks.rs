//! The race checker's hooks (`apipe-run --racecheck`), in the code of a
//! `gpu.module`, before each op that accesses workgroup memory or writes
//! global memory (atomically or not), and in host code before each op
//! that writes memory:
//!
//! 1. the hot path, `memref.load` / `memref.store`, `vector.load` /
//!    `vector.store` of one row (every vector dimension but the last is 1)
//!    and `memref.atomic_rmw` / `memref.generic_atomic_rmw`: a call
//!    `apipe_emu_shared_access(id, address, bytes, kind)` (kind 0 a read,
//!    1 a write, 2 an atomic update) for workgroup memory,
//!    `apipe_emu_global_write(id, address, bytes, kind)` for a store or
//!    atomic update of global memory; the address is `aligned + (offset +
//!    sum(index_d * stride_d)) * element_bytes`, from the memref's
//!    metadata, which the LLVM lowering shares with the access itself;
//! 2. every other op with memory effects, as MLIR's
//!    `MemoryEffectOpInterface` declares them (the same query the hazard
//!    checker uses, [`apipe_dialect::effects`]), on a memref value:
//!    `apipe_emu_region_access_<k>(id, kind, element_bytes, rank, memref,
//!    starts, extents)` per accessed memref (through MLIR's C interface),
//!    kind 0 a read, 1 a write, 2 an atomic update
//!    ([`crate::emulation_runtime::region_access`]). The box is narrowed to
//!    what the op's indices say where they say it:
//!    - `vector.transfer_read` / `transfer_write`: from the indices, one
//!      extent per memref dimension that the permutation map sends a
//!      vector dimension to (1 for the others and for broadcasts);
//!    - `vector.load` / `store` of several rows: the vector's shape on
//!      the innermost dimensions;
//!    - masked and indexed vector ops (`vector.maskedload` /
//!      `maskedstore`, `gather` / `scatter`, `compressstore` /
//!      `expandload`, masked 1-D transfers): one hook per enabled lane
//!      ([`super::lanes`]); past its limits, the box as for
//!      `vector.load` (masked-off lanes then count as accessed);
//!    - any other op (`memref.copy`, `linalg` ops, ...): the whole memref
//!      it names.
//!
//! 3. host code (outside `gpu.module`s), when it issues copies: before
//!    each op of steps 1-2 that accesses a memref (of any memory: the
//!    host's copies may read and write its stack too), and each access
//!    through an `!llvm.ptr` (`llvm.load` / `store` / `atomicrmw` /
//!    `cmpxchg`, `llvm.intr.memset` / `memcpy` / `memmove`), a load of the
//!    runtime's count of hosts with copies in flight
//!    ([`crate::emulation_runtime::copy_sources::HOST_WATCH_GLOBAL`],
//!    declared as an external `memref.global`) and, when it is not 0, the
//!    hook: `apipe_emu_host_access(id, address, bytes, kind)` for one
//!    element, the region hook otherwise. A write into the source or
//!    destination of a host copy in flight, or a read of its destination,
//!    is then a located error (atomic or not: an atomic update is not
//!    ordered against the copy either).
//! 4. in a kernel, each of step 3's accesses through an `!llvm.ptr`:
//!    `apipe_emu_pointer_access(id, address, bytes, kind)`, checked as a
//!    workgroup access where the address lies in the block's workgroup
//!    memory, as a global write elsewhere (a pointer's type need not say
//!    which memory it points into).
//!
//! Atomics race with plain accesses in workgroup memory and, across
//! blocks, with plain writes of global memory, never with each other;
//! against a copy's source read they count as writes.
//!
//! Not instrumented: apipe ops (the runtime records their copies itself),
//! calls (the callee's own ops are), allocation and free effects, memrefs
//! of rank above 4 (no hook: not checked), and memrefs whose element is
//! not a whole number of bytes.
//!
//! Runs before memory spaces are erased (it classifies accesses by them).
//! Each hook's id carries the op's name ([`Emitter::name`]) for the race
//! messages.

use super::{address_space, element_bytes, Emitter, WORKGROUP};
use crate::emulation_runtime::{
    GLOBAL_WRITE_FN, HOST_ACCESS_FN, POINTER_ACCESS_FN, REGION_FN_PREFIX, SHARED_ACCESS_FN,
};
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{
    effects::{memory_effects, EffectKind},
    ops,
};
use melior::ir::r#type::ShapedTypeLike as _;
use melior::{
    dialect::arith,
    ir::{
        attribute::AttributeLike as _, operation::OperationLike, r#type::MemRefType, OperationRef,
        Type, TypeLike as _, Value, ValueLike,
    },
};
use std::collections::HashMap;

/// Inserts the hooks in every `gpu.module` nested in `root`; returns the
/// names of the region hooks it declared (to bind through the C
/// interface).
pub fn insert<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
    emitter: &mut Emitter<'c, 'a>,
) -> Vec<String> {
    let mut region_functions: HashMap<String, String> = HashMap::new();
    let nested = ops::nested_ops(root);
    let in_gpu = |op: &OperationRef| ops::ancestors(op).any(|p| ops::is(&p, "gpu.module"));
    // Step 3 only where the host issues copies.
    let host_copies = nested
        .iter()
        .any(|op| (ops::is(op, "apipe.copy") || ops::is(op, "apipe.bulk_copy")) && !in_gpu(op));
    for op in nested {
        let host = !in_gpu(&op);
        if host && !host_copies || ops::is_apipe(&op) {
            continue;
        }
        if !element_access(op, emitter, host)
            && !pointer_access(op, emitter, host)
            && !super::lanes::insert(op, emitter, host)
        {
            for access in region_accesses(&op) {
                region_hook(op, emitter, &mut region_functions, access, host);
            }
        }
    }
    let mut names: Vec<String> = region_functions.into_values().collect();
    names.sort();
    names
}

/// Kind numbers of the runtime hooks.
pub(super) const READ: i64 = 0;
pub(super) const WRITE: i64 = 1;
const ATOMIC: i64 = 2;

/// Whether an access of `kind` to `memref` needs a hook: in a kernel,
/// every access of workgroup memory and a write or atomic update of
/// global (or default) memory that is not the thread's own stack; in host
/// code (`host`), every access.
pub(super) fn needs_hook(memref: Value, kind: i64, host: bool) -> bool {
    if host {
        return true;
    }
    match address_space(memref.r#type()) {
        Some(WORKGROUP) => true,
        Some(0 | 1) => kind != READ && !is_stack(memref),
        _ => false,
    }
}

/// Step 1 for `op` (step 3 in `host` code); false if `op` is not one of
/// its ops.
fn element_access<'c, 'a>(
    op: OperationRef<'c, 'a>,
    emitter: &mut Emitter<'c, 'a>,
    host: bool,
) -> bool {
    // (memref operand, first index operand, value type, kind)
    let result_type = || op.result(0).map(|r| r.r#type());
    let access = match ops::name(&op) {
        "memref.load" | "vector.load" => (0, 1, result_type(), READ),
        "memref.store" | "vector.store" => (1, 2, op.operand(0).map(|v| v.r#type()), WRITE),
        "memref.atomic_rmw" => (1, 2, result_type(), ATOMIC),
        "memref.generic_atomic_rmw" => (0, 1, result_type(), ATOMIC),
        _ => return false,
    };
    let (memref_at, first_index, Ok(value_type), kind) = access else {
        return true;
    };
    if vector_shape(value_type)
        .iter()
        .rev()
        .skip(1)
        .any(|&n| n != 1)
    {
        return false; // several rows: step 2
    }
    let Ok(memref) = op.operand(memref_at) else {
        return true;
    };
    let Some(bytes) = element_bytes(value_type) else {
        return true;
    };
    if !needs_hook(memref, kind, host) {
        return true;
    }
    let shared = address_space(memref.r#type()) == Some(WORKGROUP);
    let indices: Vec<Value> = op.operands().skip(first_index).collect();
    let Some(element) = MemRefType::try_from(memref.r#type())
        .ok()
        .and_then(|t| element_bytes(t.element()))
    else {
        return true;
    };
    let address = address(op, emitter, memref, &indices, element);
    let id = emitter.id(op.location(), "");
    emitter.name(id, ops::name(&op));
    let id = emitter.constant(op, emitter.i64_type(), id);
    let bytes = emitter.constant(op, emitter.i64_type(), bytes);
    let kind = emitter.constant(op, emitter.i64_type(), kind);
    let arguments = [id, address, bytes, kind];
    if host {
        let watching = emitter.host_watching(op);
        emitter.call_if_with(op, watching, HOST_ACCESS_FN, &arguments, false);
    } else if shared {
        emitter.call(op, SHARED_ACCESS_FN, &arguments, &[]);
    } else {
        emitter.call(op, GLOBAL_WRITE_FN, &arguments, &[]);
    }
    true
}

/// The LLVM dialect's accesses through a pointer: in host code, step 3
/// (trials 61-62: a host `llvm.load` through the aligned pointer of a
/// copy's destination in flight, an `llvm.atomicrmw` or
/// `llvm.intr.memcpy` of it, went unreported); in a kernel, a call
/// `apipe_emu_pointer_access(id, address, bytes, kind)`, which tells
/// workgroup memory from other memory by the address (trial 64: a
/// kernel's `llvm.store` into workgroup memory raced unreported):
/// - `llvm.load` / `llvm.store`: one value at the pointer;
/// - `llvm.atomicrmw` / `llvm.cmpxchg`: one value, an atomic update;
/// - `llvm.intr.memset` (and `memset.inline`): `len` bytes written at the
///   destination;
/// - `llvm.intr.memcpy` / `memmove` (and `memcpy.inline`): `len` bytes
///   written at the destination and read at the source.
///
/// A loaded or stored aggregate (`!llvm.array`, `!llvm.struct`) takes its
/// size from the data layout.
///
/// False if `op` is not one of these ops.
fn pointer_access<'c, 'a>(
    op: OperationRef<'c, 'a>,
    emitter: &mut Emitter<'c, 'a>,
    host: bool,
) -> bool {
    enum Size<'c> {
        /// The bytes of a value of this type.
        Of(Option<Type<'c>>),
        /// An operand's count of bytes.
        Operand(usize),
        /// A constant count of bytes in an integer attribute.
        Attribute(&'static str),
    }
    let value_type = |i: usize| op.operand_at(i).map(|v| v.r#type());
    // (pointer operand, size, kind) per access.
    let accesses: Vec<(usize, Size<'c>, i64)> = match ops::name(&op) {
        "llvm.load" => vec![(0, Size::Of(op.result_at(0).map(|r| r.r#type())), READ)],
        "llvm.store" => vec![(1, Size::Of(value_type(0)), WRITE)],
        "llvm.atomicrmw" => vec![(0, Size::Of(value_type(1)), ATOMIC)],
        "llvm.cmpxchg" => vec![(0, Size::Of(value_type(1)), ATOMIC)],
        "llvm.intr.memset" => vec![(0, Size::Operand(2), WRITE)],
        "llvm.intr.memcpy" | "llvm.intr.memmove" => {
            vec![(0, Size::Operand(2), WRITE), (1, Size::Operand(2), READ)]
        }
        "llvm.intr.memset.inline" => vec![(0, Size::Attribute("len"), WRITE)],
        "llvm.intr.memcpy.inline" => vec![
            (0, Size::Attribute("len"), WRITE),
            (1, Size::Attribute("len"), READ),
        ],
        _ => return false,
    };
    let location = op.location();
    for (pointer_at, size, kind) in accesses {
        let Some(pointer) = op.operand_at(pointer_at) else {
            continue;
        };
        let bytes = match size {
            // A scalar or vector, else an aggregate (`!llvm.array`,
            // `!llvm.struct`; trial 64) by the data layout.
            Size::Of(ty) => match ty.and_then(|t| {
                element_bytes(t).or_else(|| {
                    let none: Option<&OperationRef> = None;
                    apipe_dialect::layout::type_size_in_bytes(t, none)
                })
            }) {
                Some(n) => emitter.constant(op, emitter.i64_type(), n),
                None => continue,
            },
            Size::Attribute(name) => match apipe_dialect::attributes::integer(&op, name) {
                Some(n) => emitter.constant(op, emitter.i64_type(), n),
                None => continue,
            },
            Size::Operand(i) => match op.operand_at(i) {
                Some(n) => emitter.to_i64(op, n),
                None => continue,
            },
        };
        let Ok(to_int) = melior::ir::operation::OperationBuilder::new("llvm.ptrtoint", location)
            .add_operands(&[pointer])
            .add_results(&[emitter.i64_type()])
            .build()
        else {
            continue;
        };
        let Some(address) = emitter.before(op, to_int).result_at(0) else {
            continue;
        };
        let id = emitter.id(location, "");
        emitter.name(id, ops::name(&op));
        let id = emitter.constant(op, emitter.i64_type(), id);
        let kind = emitter.constant(op, emitter.i64_type(), kind);
        let arguments = [id, address.into(), bytes, kind];
        if host {
            let watching = emitter.host_watching(op);
            emitter.call_if_with(op, watching, HOST_ACCESS_FN, &arguments, false);
        } else {
            emitter.call(op, POINTER_ACCESS_FN, &arguments, &[]);
        }
    }
    true
}

/// One access of step 2: the memref, the kind, the first index per
/// dimension (none: from 0) and the extent per dimension (-1: to the end).
struct RegionAccess<'c, 'a> {
    memref: Value<'c, 'a>,
    kind: i64,
    starts: Vec<Value<'c, 'a>>,
    extents: Vec<i64>,
}

/// The extents of a vector type, outermost first (empty if not a vector).
pub(super) fn vector_shape(ty: Type) -> Vec<i64> {
    // SAFETY: accessors on the type kind they are defined for.
    unsafe {
        let raw = ty.to_raw();
        if !mlir_sys::mlirTypeIsAVector(raw) {
            return Vec::new();
        }
        (0..mlir_sys::mlirShapedTypeGetRank(raw) as isize)
            .map(|i| mlir_sys::mlirShapedTypeGetDimSize(raw, i))
            .collect()
    }
}

/// The rank of a ranked memref value.
pub(super) fn rank_of(value: Value) -> Option<usize> {
    MemRefType::try_from(value.r#type()).ok().map(|t| t.rank())
}

/// Per memref dimension (of `rank`), the extent a vector of `shape`
/// covers when its dimensions go to the innermost memref dimensions.
fn innermost_extents(rank: usize, shape: &[i64]) -> Vec<i64> {
    (0..rank)
        .map(|d| {
            let from_end = rank - d;
            if from_end <= shape.len() {
                shape[shape.len() - from_end]
            } else {
                1
            }
        })
        .collect()
}

/// Per memref dimension, the extent a `vector.transfer_*` with vector
/// `shape` covers under its `permutation_map` (absent: minor identity);
/// `None` if the map cannot be read.
fn transfer_extents(op: &OperationRef, rank: usize, shape: &[i64]) -> Option<Vec<i64>> {
    Some(
        transfer_dims(op, rank, shape.len())?
            .into_iter()
            .map(|j| j.map_or(1, |j| shape[j]))
            .collect(),
    )
}

/// For each of the `rank` memref dims of the `vector.transfer_read` /
/// `transfer_write` `op` with a vector of `vector_rank` dims, the vector
/// dim its `permutation_map` maps there (`None`: a dim the transfer does
/// not run along, or a broadcast); the minor identity without the
/// attribute. `None` if the map is not a projected permutation.
pub(super) fn transfer_dims(
    op: &OperationRef,
    rank: usize,
    vector_rank: usize,
) -> Option<Vec<Option<usize>>> {
    let Ok(attribute) = op.attribute("permutation_map") else {
        return (vector_rank <= rank).then(|| {
            (0..rank)
                .map(|d| (d + vector_rank >= rank).then(|| d + vector_rank - rank))
                .collect()
        });
    };
    let mut dims = vec![None; rank];
    // SAFETY: a live attribute, checked to be an affine map; results are
    // read within their count, dimension positions checked against `rank`.
    unsafe {
        if !mlir_sys::mlirAttributeIsAAffineMap(attribute.to_raw()) {
            return None;
        }
        let map = mlir_sys::mlirAffineMapAttrGetValue(attribute.to_raw());
        let results = mlir_sys::mlirAffineMapGetNumResults(map) as usize;
        if results != vector_rank {
            return None;
        }
        for j in 0..vector_rank {
            let expr = mlir_sys::mlirAffineMapGetResult(map, j as isize);
            if mlir_sys::mlirAffineExprIsADim(expr) {
                let d = mlir_sys::mlirAffineDimExprGetPosition(expr) as usize;
                *dims.get_mut(d)? = Some(j);
            } else if !mlir_sys::mlirAffineExprIsAConstant(expr) {
                return None;
            }
        }
    }
    Some(dims)
}

/// Step 2: the accesses of `op` to memref values.
fn region_accesses<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<RegionAccess<'c, 'a>> {
    let indexed = |memref_at: usize, kind: i64, extents: Option<Vec<i64>>| {
        let memref = op.operand_at(memref_at)?;
        let rank = rank_of(memref)?;
        let starts: Vec<Value> = op.operands().skip(memref_at + 1).take(rank).collect();
        (starts.len() == rank).then_some(())?;
        let extents = extents.unwrap_or_else(|| vec![1; rank]);
        Some(RegionAccess {
            memref,
            kind,
            starts,
            extents,
        })
    };
    let shape_of = |i: usize| op.operand_at(i).map(|v| vector_shape(v.r#type()));
    let result_shape = op.result_at(0).map(|r| vector_shape(r.r#type()));
    let rank_at = |i: usize| op.operand_at(i).and_then(rank_of).unwrap_or(0);
    let narrowed = match ops::name(op) {
        // (When step 1 could not read their element type.)
        "memref.atomic_rmw" => Some(indexed(1, ATOMIC, None)),
        "memref.generic_atomic_rmw" => Some(indexed(0, ATOMIC, None)),
        "vector.transfer_read" => Some(result_shape.and_then(|shape| {
            let extents = transfer_extents(op, rank_at(0), &shape);
            indexed(0, READ, extents)
        })),
        "vector.transfer_write" => Some(shape_of(0).and_then(|shape| {
            let extents = transfer_extents(op, rank_at(1), &shape);
            indexed(1, WRITE, extents)
        })),
        "vector.load" | "vector.maskedload" => Some(
            result_shape
                .and_then(|shape| indexed(0, READ, Some(innermost_extents(rank_at(0), &shape)))),
        ),
        "vector.store" => Some(
            shape_of(0)
                .and_then(|shape| indexed(1, WRITE, Some(innermost_extents(rank_at(1), &shape)))),
        ),
        "vector.maskedstore" => {
            let rank = rank_at(0);
            Some(
                shape_of(rank + 2)
                    .and_then(|shape| indexed(0, WRITE, Some(innermost_extents(rank, &shape)))),
            )
        }
        _ => None,
    };
    // A narrowed op whose operands could not be read falls back to its
    // whole memrefs, from its declared effects, below.
    if let Some(Some(access)) = narrowed {
        return vec![access];
    }
    let Some(declared) = memory_effects(op).declared else {
        return Vec::new(); // a call: its callee's ops have their own hooks
    };
    let mut accesses: Vec<RegionAccess> = Vec::new();
    for effect in declared {
        let kind = match effect.kind {
            EffectKind::Read => READ,
            EffectKind::Write => WRITE,
            _ => continue,
        };
        let Some(memref) = effect.value.filter(|v| rank_of(*v).is_some()) else {
            continue;
        };
        let atomic = ops::is(op, "memref.atomic_rmw") || ops::is(op, "memref.generic_atomic_rmw");
        let kind = if atomic { ATOMIC } else { kind };
        if accesses
            .iter()
            .any(|a| a.memref == memref && a.kind == kind)
        {
            continue;
        }
        let rank = rank_of(memref).unwrap_or(0);
        accesses.push(RegionAccess {
            memref,
            kind,
            starts: Vec::new(),
            extents: vec![-1; rank],
        });
    }
    accesses
}

/// Emits the hook of one step-2 access before `op` (step 3 in `host`
/// code: guarded by the host's count of copies in flight).
fn region_hook<'c, 'a>(
    op: OperationRef<'c, 'a>,
    emitter: &mut Emitter<'c, 'a>,
    functions: &mut HashMap<String, String>,
    access: RegionAccess<'c, 'a>,
    host: bool,
) {
    const MAX_RANK: usize = crate::emulation_runtime::MAX_RANK;
    let memref = access.memref;
    if !needs_hook(memref, access.kind, host) {
        return;
    }
    let Ok(ty) = MemRefType::try_from(memref.r#type()) else {
        return;
    };
    let (Some(bytes), rank) = (element_bytes(ty.element()), ty.rank()) else {
        return;
    };
    if rank > MAX_RANK {
        return;
    }
    let i64_type = emitter.i64_type();
    let id = emitter.id(op.location(), "");
    emitter.name(id, ops::name(&op));
    let mut arguments = vec![
        emitter.constant(op, i64_type, id),
        emitter.constant(op, i64_type, access.kind),
        emitter.constant(op, i64_type, bytes),
        emitter.constant(op, i64_type, rank as i64),
        memref,
    ];
    for d in 0..MAX_RANK {
        let start = match access.starts.get(d) {
            Some(&index) => emitter.to_i64(op, index),
            None => emitter.constant(op, i64_type, 0),
        };
        arguments.push(start);
    }
    for d in 0..MAX_RANK {
        let extent = access.extents.get(d).copied().unwrap_or(1);
        arguments.push(emitter.constant(op, i64_type, extent));
    }
    let key = memref.r#type().to_string();
    let count = functions.len();
    let name = functions
        .entry(key)
        .or_insert_with(|| format!("{REGION_FN_PREFIX}{count}"))
        .clone();
    if host {
        let watching = emitter.host_watching(op);
        emitter.call_if_with(op, watching, &name, &arguments, true);
        return;
    }
    let inputs: Vec<Type> = arguments.iter().map(|a| a.r#type()).collect();
    emitter.declare(&name, &inputs, &[], true);
    let call = emitter.call_operation(&name, &arguments, &[], op.location());
    emitter.before(op, call);
}

/// The byte address of `memref[indices]` as an `i64`, computed before `op`.
pub(super) fn address<'c, 'a>(
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
        let Some(owner) = ops::defining_op(value) else {
            return false;
        };
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
        if !view.contains(&name) || owner.operand_count() == 0 {
            return false;
        }
        match owner.operand(0) {
            Ok(source) => value = source,
            _ => return false,
        }
    }
}
