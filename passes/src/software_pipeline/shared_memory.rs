//! The shared-memory budget of `apipe-software-pipeline`
//! (`max-shared-bytes=B`, `sm=…`).
//!
//! A kernel's shared memory is the sum over its workgroup buffers
//! (workgroup attributions and workgroup `memref.alloc` / `alloca`, which
//! become attributions) of each buffer's bytes, each rounded up to
//! [`ALIGN`] bytes: the NVPTX backend gives every `.shared` array of a
//! kernel `.align 16` and ptxas lays them out one after the other, so this
//! is the `shared memory` figure `ptxas -v` prints. A pipelined loop
//! replaces each buffer it multi-buffers by one of `V` versions (each
//! version padded to the alignment of its copies, `multi_buffer`).
//!
//! The budget: `max-shared-bytes` when given; else the opt-in maximum per
//! block of the `sm` target (CUDA C++ Programming Guide, "Compute
//! Capabilities", table "Technical Specifications per Compute
//! Capability": 163 KiB on 8.0, 99 KiB on 8.6 and 8.9, 227 KiB on 9.0);
//! else [`STATIC_LIMIT`], the 48 KiB a kernel may use without opting in.
//! Above 48 KiB a kernel needs dynamic shared memory (and
//! `cudaFuncSetAttribute`): ptxas refuses a larger static `.shared` total.

use super::analysis::Plan;
use crate::cp_async::{memory_space, MemorySpace};
use apipe_dialect::ops;
use apipe_dialect::ops::Checked as _;
use melior::ir::{
    attribute::TypeAttribute,
    operation::OperationLike,
    r#type::{FunctionType, MemRefType, ShapedTypeLike},
    BlockLike, OperationRef, RegionLike, Type, TypeLike, ValueLike,
};
use mlir_sys::MlirOperation;
use rustc_hash::{FxHashMap, FxHashSet};

/// The shared memory a kernel may use without opting in: 48 KiB.
pub const STATIC_LIMIT: i64 = 48 * 1024;

/// The alignment of every `.shared` array in the NVPTX backend's output.
pub const ALIGN: i64 = 16;

/// The opt-in maximum of shared memory per block of `sm` (`80`, `86`,
/// `89`, `90`, `90a`).
pub fn opt_in_limit(sm: &str) -> Option<i64> {
    Some(match sm {
        "80" => 163 * 1024,
        "86" | "89" => 99 * 1024,
        "90" | "90a" => 227 * 1024,
        _ => return None,
    })
}

/// `bytes` rounded up to [`ALIGN`].
pub fn padded(bytes: i64) -> i64 {
    (bytes + ALIGN - 1) / ALIGN * ALIGN
}

/// The bytes of a memref type with a static shape and a known element
/// width.
pub(crate) fn type_bytes(ty: Type) -> Option<i64> {
    let ty = MemRefType::try_from(ty).ok()?;
    let element = element_bytes(ty.element())?;
    let mut elements = 1i64;
    for i in 0..ty.rank() {
        match ty.dim_size(i).ok()? {
            melior::ir::r#type::DimSize::Static(n) => elements = elements.checked_mul(n as i64)?,
            _ => return None,
        }
    }
    elements.checked_mul(element)
}

/// The bytes of one element of type `ty` in memory, as the LLVM lowering
/// of a memref lays it out: its size under MLIR's default data layout (an
/// integer or float of `w` bits takes `ceil(w / 8)` bytes, `index` 8, a
/// vector its padded size: `vector<3xf32>` takes 16, as LLVM allocates
/// `<3 x float>`; trial 33: it counted 12, and ptxas refused a kernel the
/// budget accepted), a complex number two of its parts; `None` for any
/// other type (trial 28: `index`, vector and complex elements counted 0
/// bytes, `i1` one bit).
fn element_bytes(ty: Type) -> Option<i64> {
    let none: Option<&OperationRef> = None;
    if let Some(bytes) = apipe_dialect::layout::type_size_in_bytes(ty, none) {
        return Some(bytes);
    }
    // SAFETY: type queries on a live type.
    unsafe {
        let raw = ty.to_raw();
        if mlir_sys::mlirTypeIsAComplex(raw) {
            return element_bytes(Type::from_raw(mlir_sys::mlirComplexTypeGetElementType(raw)))?
                .checked_mul(2);
        }
    }
    None
}

fn is_workgroup(ty: Type) -> bool {
    MemRefType::try_from(ty).is_ok_and(|t| memory_space(t) == MemorySpace::Shared)
}

/// The shared memory of each kernel, found once per kernel (the IR does
/// not change while loops are planned), and MLIR's symbol table of each
/// module looked into, built once per module (a module of `K` kernels is
/// walked `O(K)` times, not `O(K²)`).
#[derive(Default)]
pub(crate) struct Kernels {
    /// Kernel op address → its bytes as written plus the growth planned.
    bytes: FxHashMap<usize, i64>,
    /// Symbol table op address → its `SymbolTable`.
    tables: FxHashMap<usize, SymbolTable>,
}

/// MLIR's `SymbolTable` of a symbol-table op (`mlirSymbolTableCreate`):
/// its symbols by name, hashed once.
struct SymbolTable(mlir_sys::MlirSymbolTable);

impl SymbolTable {
    /// The table of `op`; `None` if `op` is not a symbol table.
    fn of(op: &OperationRef) -> Option<Self> {
        // SAFETY: a live op; a null table means it is not a symbol table.
        let table = unsafe { mlir_sys::mlirSymbolTableCreate(op.to_raw()) };
        (!table.ptr.is_null()).then_some(Self(table))
    }

    /// The op named `name` in the table.
    fn lookup(&self, name: &str) -> Option<MlirOperation> {
        // SAFETY: a live table; the name is copied by MLIR.
        let op = unsafe {
            mlir_sys::mlirSymbolTableLookup(self.0, melior::StringRef::new(name).to_raw())
        };
        (!op.ptr.is_null()).then_some(op)
    }
}

impl Drop for SymbolTable {
    fn drop(&mut self) {
        // SAFETY: created by `mlirSymbolTableCreate`, destroyed once.
        unsafe { mlir_sys::mlirSymbolTableDestroy(self.0) }
    }
}

impl Kernels {
    /// The shared memory of `kernel` so far (see [`kernel_bytes`]).
    pub(crate) fn bytes(&mut self, kernel: &OperationRef) -> i64 {
        let key = kernel.to_raw().ptr as usize;
        if let Some(&b) = self.bytes.get(&key) {
            return b;
        }
        let b = kernel_bytes(kernel, &mut self.tables);
        self.bytes.insert(key, b);
        b
    }

    /// Adds `growth` bytes to `kernel`'s shared memory.
    pub(crate) fn grow(&mut self, kernel: &OperationRef, growth: i64) {
        let b = self.bytes(kernel);
        self.bytes.insert(kernel.to_raw().ptr as usize, b + growth);
    }
}

/// The shared memory of `kernel` (a `gpu.func`, or a `gpu.launch`, whose
/// body becomes one) as it is: its workgroup attributions and workgroup
/// allocs, and the workgroup `memref.global`s
/// that it, or a function it calls (through any chain of calls in its
/// module), reads with `memref.get_global`, each padded, each global once
/// (trial 27: a kernel with a 48 KB workgroup global was pipelined past
/// the static limit, and ptxas refused it). `tables`: the symbols of each
/// table looked into so far.
fn kernel_bytes(kernel: &OperationRef, tables: &mut FxHashMap<usize, SymbolTable>) -> i64 {
    // A `gpu.func`'s workgroup attributions follow its inputs; a
    // `gpu.launch` body's follow its ids and sizes (index values), so
    // every workgroup memref argument of it is one.
    let inputs = kernel
        .attribute("function_type")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
        .and_then(|t| FunctionType::try_from(t.value()).ok())
        .map_or(0, |t| t.input_count());
    let mut total = 0;
    if let Some(entry) = kernel.region_at(0).and_then(|r| r.first_block()) {
        for i in inputs..entry.argument_count() {
            let ty = entry.argument(i).unwrap().r#type();
            if is_workgroup(ty) {
                total += padded(type_bytes(ty).unwrap_or(0));
            }
        }
    }
    // The symbol table the kernel's calls and globals resolve in: the
    // `gpu.module` of a `gpu.func`, the module around a `gpu.launch`.
    let table =
        ops::ancestors(kernel).find(|p| ops::is(p, "gpu.module") || ops::is(p, "builtin.module"));
    // The kernel and the functions it calls, each walked once: its
    // workgroup allocs, and every function's workgroup globals.
    let mut functions = vec![kernel.to_raw()];
    let mut seen_functions: FxHashSet<String> = FxHashSet::default();
    let mut globals: FxHashSet<String> = FxHashSet::default();
    while let Some(function) = functions.pop() {
        let in_kernel = function.ptr == kernel.to_raw().ptr;
        // SAFETY: a live function op of the module.
        let function = unsafe { OperationRef::from_raw(function) };
        for op in ops::nested_ops(&function) {
            // A call, or a function's address taken for a call through a
            // value (`func.constant`, `llvm.mlir.addressof`; trial 31: the
            // globals of a function called with `func.call_indirect` were
            // left out), or the address of an LLVM global.
            let referenced = if crate::group_distance::is_call(&op) {
                crate::group_distance::callee(&op)
            } else {
                crate::group_distance::address_taken(&op)
            };
            if let (Some(name), Some(table)) = (referenced, table) {
                if !seen_functions.insert(name.clone()) {
                    continue;
                }
                let symbols = match tables.entry(table.to_raw().ptr as usize) {
                    std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                    std::collections::hash_map::Entry::Vacant(e) => match SymbolTable::of(&table) {
                        Some(created) => e.insert(created),
                        None => continue,
                    },
                };
                let Some(symbol) = symbols.lookup(&name) else {
                    continue;
                };
                // SAFETY: an op of the live table.
                let symbol = unsafe { OperationRef::from_raw(symbol) };
                if ops::is_function(&symbol) {
                    functions.push(symbol.to_raw());
                } else if ops::is(&symbol, "llvm.mlir.global") {
                    total += padded(llvm_global_bytes(&symbol).unwrap_or(0));
                }
            } else if ops::is(&op, "memref.get_global") && op.result_count() == 1 {
                let ty = op.result(0).unwrap().r#type();
                let name = crate::group_distance::symbol_ref(&op, "name");
                if is_workgroup(ty) && name.is_some_and(|n| globals.insert(n)) {
                    total += padded(type_bytes(ty).unwrap_or(0));
                }
            } else if in_kernel
                && (ops::is(&op, "memref.alloc") || ops::is(&op, "memref.alloca"))
                && op.result_count() == 1
                && is_workgroup(op.result(0).unwrap().r#type())
            {
                total += padded(type_bytes(op.result(0).unwrap().r#type()).unwrap_or(0));
            }
        }
    }
    total
}

/// The bytes of an `llvm.mlir.global` in workgroup memory (`addr_space =
/// 3`): its `global_type`'s size under MLIR's data layout (trial 31: such
/// globals were left out of the budget); `None` in another address space
/// or for a type with no layout.
fn llvm_global_bytes(global: &OperationRef) -> Option<i64> {
    let space = global
        .attribute("addr_space")
        .ok()
        .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
        .map_or(0, |a| a.value());
    if space != 3 {
        return None;
    }
    let ty = TypeAttribute::try_from(global.attribute("global_type").ok()?)
        .ok()?
        .value();
    apipe_dialect::layout::type_size_in_bytes(ty, Some(global))
}

/// What `plan` adds to its kernel's shared memory: each multi-buffered
/// workgroup buffer's expanded size minus its size.
pub(crate) fn growth(plan: &Plan) -> i64 {
    plan.buffers
        .iter()
        .map(|b| {
            // SAFETY: live values and types of this context.
            let (old, new) = unsafe {
                (
                    melior::ir::Value::from_raw(b.value).r#type(),
                    Type::from_raw(b.expanded_type),
                )
            };
            if !is_workgroup(old) {
                return 0;
            }
            padded(type_bytes(new).unwrap_or(0)) - padded(type_bytes(old).unwrap_or(0))
        })
        .sum()
}

/// The bytes of the buffers `plan` multi-buffers, expanded and padded.
pub(crate) fn plan_bytes(plan: &Plan) -> i64 {
    plan.buffers
        .iter()
        // SAFETY: a type of this context.
        .map(|b| padded(type_bytes(unsafe { Type::from_raw(b.expanded_type) }).unwrap_or(0)))
        .sum()
}

/// The printed forms of types, each printed once per pass run: MLIR's
/// printer costs about 10,000 instructions per type, and a function of
/// many pipelined loops names the same few buffer types in every remark.
/// Keyed by the uniqued type's address, valid while the run's context is.
#[derive(Default)]
pub(crate) struct TypeNames(rustc_hash::FxHashMap<usize, String>);

impl TypeNames {
    /// `ty` as MLIR prints it.
    pub(crate) fn of(&mut self, ty: Type) -> &str {
        use melior::ir::TypeLike as _;
        self.0
            .entry(ty.to_raw().ptr as usize)
            .or_insert_with(|| ty.to_string())
    }
}

/// `memref<64x16xf32, 3> x 3 (12288 bytes)` for each multi-buffered buffer,
/// `memref<3x64xf32, 3> x 1 (768 bytes, its own slots)` for each buffer
/// whose own slots the loop keeps (`Plan::own_slots`).
pub(crate) fn describe_versions(plan: &Plan, type_names: &mut TypeNames) -> String {
    let own = plan.own_slots.iter().map(|&v| {
        // SAFETY: a live value of this context.
        let ty = unsafe { melior::ir::Value::from_raw(v) }.r#type();
        format!(
            "{} x 1 ({} bytes, its own slots)",
            type_names.of(ty),
            padded(type_bytes(ty).unwrap_or(0))
        )
    });
    let own: Vec<String> = own.collect();
    let parts: Vec<String> = plan
        .buffers
        .iter()
        .map(|b| {
            // SAFETY: live values and types of this context.
            let (old, new) = unsafe {
                (
                    melior::ir::Value::from_raw(b.value).r#type(),
                    Type::from_raw(b.expanded_type),
                )
            };
            format!(
                "{} x {} ({} bytes)",
                type_names.of(old),
                b.versions,
                padded(type_bytes(new).unwrap_or(0))
            )
        })
        .chain(own)
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}
