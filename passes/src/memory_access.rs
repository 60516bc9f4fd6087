//! Which memory an op reads and writes, by root buffer and memory space:
//! the facts the pipeliner's scheduler and barrier placement reason about.
//!
//! The MLIR C API has no query for `MemoryEffectOpInterface`, so the
//! effects of the ops that access memory are listed here (from their ODS
//! definitions: `memref.load` reads operand 0, `vector.store` writes
//! operand 1, ...). An op that is not listed and takes a memref (or LLVM
//! pointer) operand is taken to read and write every buffer it is given
//! (conservative); an op with no such operand reaches no buffer of the
//! function (calls are refused by the pipeliner before this matters).
//!
//! Algorithm ([`accesses`], [`root`]):
//! 1. match the op against the table of access ops: the memref operands it
//!    reads and writes, and whether the access is asynchronous
//!    (`apipe.copy`: from its issue until its group completes);
//! 2. resolve each accessed memref to its **root**: follow view ops
//!    (`memref.subview`, `cast`, `reinterpret_cast`, `expand_shape`,
//!    `collapse_shape`, `view`, `transpose`, `memory_space_cast`,
//!    `assume_alignment`) through operand 0 up to a `memref.alloc` /
//!    `alloca` result, a function argument or workgroup attribution (a
//!    root of its own), or a `memref.get_global` (the global's symbol: two
//!    `get_global`s of one symbol are one buffer); anything else (an
//!    `scf.if` result, an iter_arg, a call result) is [`Root::Unknown`],
//!    which may be any buffer of its memory space;
//! 3. classify the memory space ([`Space`]): workgroup (`3`,
//!    `#gpu.address_space<workgroup>`), private (`5`,
//!    `#gpu.address_space<private>`, and an alloc or alloca with no memory
//!    space inside a `gpu.func`: per thread), global (the rest).
//!
//! Invariant: two accesses whose roots differ and are both known never
//! touch the same bytes, except global roots (function arguments may
//! alias each other; [`may_alias`] says so).

use crate::cp_async::{memory_space, MemorySpace};
use apipe_dialect::ops;
use melior::ir::{
    attribute::FlatSymbolRefAttribute, operation::OperationLike, r#type::MemRefType, BlockLike,
    OperationRef, TypeLike, Value, ValueLike,
};

/// The buffer an access reaches.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Root {
    /// The result of `memref.alloc` / `memref.alloca`, or a block argument
    /// of a function's entry block (an argument or a workgroup attribution),
    /// by the address of the MLIR value.
    Value(usize),
    /// A `memref.global`, by symbol.
    Global(String),
    /// Not known: may be any buffer of its memory space.
    Unknown,
}

/// The memory space of an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// Shared by the threads of a block (CUDA shared memory).
    Workgroup,
    /// One copy per thread.
    Private,
    /// Device memory, and anything not known to be per block or per thread.
    Global,
}

/// One memory access of an op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// The buffer.
    pub root: Root,
    /// Its memory space.
    pub space: Space,
    /// The op reads it.
    pub read: bool,
    /// The op writes it.
    pub write: bool,
    /// The access lasts from the op until its group completes (`apipe.copy`).
    pub asynchronous: bool,
}

/// `(memref operand index, reads, writes)` of the ops that access memory.
fn table(name: &str) -> Option<&'static [(usize, bool, bool)]> {
    Some(match name {
        "memref.load" | "vector.load" | "vector.maskedload" | "vector.gather"
        | "vector.expandload" | "vector.transfer_read" | "nvgpu.ldmatrix" => &[(0, true, false)],
        "memref.store" | "vector.store" | "vector.maskedstore" | "vector.scatter"
        | "vector.compressstore" | "vector.transfer_write" => &[(1, false, true)],
        "memref.atomic_rmw" => &[(1, true, true)],
        "memref.generic_atomic_rmw" => &[(0, true, true)],
        "memref.copy" => &[(0, true, false), (1, false, true)],
        ops::COPY => &[(0, true, false), (1, false, true)],
        _ => return None,
    })
}

/// Ops that take memrefs without accessing them: views, metadata,
/// allocation, and the structural ops that pass values along.
fn is_non_access(name: &str) -> bool {
    VIEW_OPS.contains(&name)
        || matches!(
            name,
            "memref.dim"
                | "memref.rank"
                | "memref.extract_strided_metadata"
                | "memref.extract_aligned_pointer_as_index"
                | "memref.alloc"
                | "memref.alloca"
                | "memref.dealloc"
                | "memref.get_global"
                | "scf.yield"
                | "scf.for"
                | "scf.if"
                | "scf.while"
                | "scf.condition"
                | "scf.index_switch"
                | "scf.execute_region"
                | "func.return"
                | "gpu.return"
                | "gpu.yield"
                | "arith.select"
                | "builtin.unrealized_conversion_cast"
        )
}

/// View ops: their result is a view of operand 0.
const VIEW_OPS: &[&str] = &[
    "memref.subview",
    "memref.cast",
    "memref.reinterpret_cast",
    "memref.expand_shape",
    "memref.collapse_shape",
    "memref.view",
    "memref.transpose",
    "memref.memory_space_cast",
    "memref.assume_alignment",
];

fn is_memref_or_pointer(value: Value) -> bool {
    let ty = value.r#type();
    // SAFETY: a live type.
    MemRefType::try_from(ty).is_ok() || unsafe { mlir_sys::mlirTypeIsALLVMPointerType(ty.to_raw()) }
}

/// The memory accesses of `op` itself (not of the ops nested in it). An op
/// with unknown effects reads and writes each memref (or pointer) it takes.
pub fn accesses(op: &OperationRef) -> Vec<Access> {
    let name = ops::name(op);
    if let Some(entries) = table(&name) {
        let asynchronous = name == ops::COPY;
        return entries
            .iter()
            .filter_map(|&(index, read, write)| {
                let value = op.operand(index).ok()?;
                MemRefType::try_from(value.r#type()).ok()?;
                let (root, space) = root(value);
                Some(Access {
                    root,
                    space,
                    read,
                    write,
                    asynchronous,
                })
            })
            .collect();
    }
    if is_non_access(&name) {
        return Vec::new();
    }
    op.operands()
        .filter(|v| is_memref_or_pointer(*v))
        .map(|value| {
            let (root, space) = if MemRefType::try_from(value.r#type()).is_ok() {
                root(value)
            } else {
                // An LLVM pointer: any buffer of its address space.
                // SAFETY: a live LLVM pointer type.
                let space = unsafe { mlir_sys::mlirLLVMPointerTypeGetAddressSpace(value.r#type().to_raw()) };
                (Root::Unknown, if space == 3 { Space::Workgroup } else { Space::Global })
            };
            Access {
                root,
                space,
                read: true,
                write: true,
                asynchronous: false,
            }
        })
        .collect()
}

/// True if `op` has no memory access listed by [`accesses`] and is not a
/// synchronization op (`gpu.barrier`, apipe groups and waits).
pub fn is_access_free(op: &OperationRef) -> bool {
    let name = ops::name(op);
    accesses(op).is_empty()
        && name != "gpu.barrier"
        && ![ops::COMMIT_GROUP, ops::WAIT_GROUP, ops::WAIT].contains(&name.as_str())
}

/// The root buffer of `memref` and its memory space (step 2 and 3).
pub fn root(memref: Value) -> (Root, Space) {
    let mut value = memref;
    loop {
        if let Ok(result) = melior::ir::operation::OperationResult::try_from(value) {
            let owner = result.owner();
            let name = ops::name(&owner);
            if VIEW_OPS.contains(&name.as_str()) && owner.operand_count() > 0 {
                value = owner.operand(0).unwrap();
                continue;
            }
            let root = match name.as_str() {
                "memref.alloc" | "memref.alloca" => Root::Value(value.to_raw().ptr as usize),
                "memref.get_global" => owner
                    .attribute("name")
                    .ok()
                    .and_then(|a| FlatSymbolRefAttribute::try_from(a).ok())
                    .map_or(Root::Unknown, |s| Root::Global(s.value().to_owned())),
                _ => Root::Unknown,
            };
            let per_thread = matches!(name.as_str(), "memref.alloc" | "memref.alloca")
                && ops::ancestors(&owner).any(|p| ops::is(&p, "gpu.func"));
            return (root, space_of(value, per_thread));
        }
        let argument = melior::ir::block::BlockArgument::try_from(value).unwrap();
        let block = argument.owner();
        let is_function_entry = block
            .parent_operation()
            .is_some_and(|p| ops::is_function(&p) && ops::is_entry_block(&block));
        let root = if is_function_entry {
            Root::Value(value.to_raw().ptr as usize)
        } else {
            Root::Unknown
        };
        return (root, space_of(value, false));
    }
}

/// The memory space of a root buffer: from its type, and per thread for an
/// alloc or alloca with no memory space in a kernel.
fn space_of(value: Value, per_thread_default: bool) -> Space {
    let Ok(ty) = MemRefType::try_from(value.r#type()) else {
        return Space::Global;
    };
    let text = ty.memory_space().map(|a| a.to_string());
    match (memory_space(ty), text.as_deref()) {
        (MemorySpace::Shared, _) => Space::Workgroup,
        (_, Some("5" | "5 : i64" | "5 : i32" | "#gpu.address_space<private>")) => Space::Private,
        (_, None) if per_thread_default => Space::Private,
        _ => Space::Global,
    }
}

/// True if two accesses of the same memory space may touch the same bytes:
/// equal roots, an unknown root, or (global memory) two roots of which one
/// is a function argument or a global (arguments may alias each other).
pub fn may_alias(a: &Access, b: &Access) -> bool {
    if a.space != b.space {
        // A view never changes the memory space of its buffer.
        return false;
    }
    match (&a.root, &b.root) {
        (Root::Unknown, _) | (_, Root::Unknown) => true,
        (x, y) if x == y => true,
        _ => a.space == Space::Global,
    }
}
