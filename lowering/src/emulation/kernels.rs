//! GPU kernels on the CPU: `gpu.module` code becomes host functions that
//! the emulation runtime runs once per GPU thread, on a fiber of its own
//! (`crate::emulation_runtime::launch`).
//!
//! Algorithm:
//! 1. [`check`] (before anything changes): every op of a `gpu.module` must
//!    have CPU semantics here: `nvgpu` / `nvvm` / `rocdl` / `amdgpu` ops
//!    and `gpu` ops other than ids, `gpu.barrier`, `gpu.return` and
//!    `gpu.func` are located errors naming the op; workgroup memory
//!    (attributions, `memref.alloc` / `alloca` in the workgroup space, a
//!    workgroup `memref.global`) must have a static shape and belong to a
//!    kernel; a `gpu.launch_func` must be synchronous, without clusters or
//!    dynamic shared memory, with scalar or ranked memref arguments.
//!    [`classify`] records the workgroup allocations and globals (memory
//!    spaces are erased afterwards).
//! 2. [`lower`] (after memory spaces are erased): every symbol of a
//!    `gpu.module` `@m` (the k-th) moves to the root module as
//!    `@apipe_emu_k<k>_m_<name>`
//!    (references inside `@m` follow). A kernel `gpu.func` becomes a public
//!    `func.func` taking its arguments, then hidden ones: its workgroup
//!    memory as `memref<Nxi8>`, 12 `index` ids (thread, block, block
//!    size, grid size; x y z each) and the race checker's per-thread read
//!    cache (`memref<65xi64>`, checked inline before each read hook). Each workgroup buffer (attribution,
//!    allocation, global) is a `memref.view` of that memory at an offset
//!    aligned to 16 bytes (`cp.async` needs up to 16); private attributions
//!    are `memref.alloca`s; `gpu.thread_id` etc. read the hidden ids;
//!    `gpu.return` is `func.return`. In other `gpu.module` functions, ids
//!    are runtime calls. `gpu.barrier` is `apipe_emu_barrier(id)` (the
//!    fiber waits for its block).
//! 3. Each `gpu.launch_func` passes its arguments to the runtime in the
//!    layout of the kernel's lowered signature, one 8-byte slot each
//!    (`apipe_emu_launch_argument`): a memref as allocated and aligned
//!    pointer, offset, sizes, strides; a scalar zero-extended to 64 bits
//!    (floats by their bits), after `apipe_emu_live` checks that the
//!    memref's buffer is not freed; then `apipe_emu_launch(id, kernel, grid,
//!    block)`. The driver binds each kernel number to the JIT's packed
//!    entry of its function (`_mlir_<name>`).

use super::{address_space, element_bytes, entry_block, Emitter, PRIVATE, WORKGROUP};
use crate::emulation_runtime::{
    context::READ_CACHE_SLOTS, KernelInfo, BARRIER_FN, GPU_ID_FN, LAUNCH_ARGUMENT_FN, LAUNCH_FN,
    LIVE_FN, SHARED_ACCESS_FN,
};
use apipe_dialect::{diagnostic, ops};
use apipe_passes::rewrite;
use melior::{
    dialect::{arith, func},
    ir::{
        attribute::{
            DenseI32ArrayAttribute, FlatSymbolRefAttribute, IntegerAttribute, StringAttribute,
            TypeAttribute,
        },
        operation::{OperationBuilder, OperationLike, OperationMutLike, OperationRefMut},
        r#type::{FunctionType, MemRefType, ShapedTypeLike},
        BlockLike, Location, OperationRef, Region, RegionLike, Type, TypeLike, Value, ValueLike,
    },
};
use mlir_sys::mlirTypeIsAFloat;
use std::collections::{HashMap, HashSet};

/// The gpu ops that kernels may use.
const GPU_OPS: &[&str] = &[
    "gpu.module",
    "gpu.func",
    "gpu.return",
    "gpu.thread_id",
    "gpu.block_id",
    "gpu.block_dim",
    "gpu.grid_dim",
    "gpu.global_id",
    "gpu.barrier",
];

/// Dialects with no CPU semantics in the emulator.
const DEVICE_DIALECTS: &[&str] = &["nvgpu", "nvvm", "rocdl", "amdgpu", "xevm", "spirv"];

/// The most private memory (static allocas and private attributions) a
/// function of a `gpu.module` may use per thread: CUDA's local memory per
/// thread (512 KiB); the runtime's thread stacks hold it
/// (`emulation_runtime::launch::THREAD_STACK_BYTES`).
pub const MAX_PRIVATE_BYTES: usize = 512 * 1024;

/// Bytes of private memory `function` allocates: its static
/// `memref.alloca`s outside workgroup memory and its private attributions.
fn private_bytes(function: &OperationRef) -> usize {
    let mut bytes = 0usize;
    if let Some(entry) = entry_block(function) {
        for i in 0..entry.argument_count() {
            let ty = entry.argument(i).unwrap().r#type();
            if address_space(ty) == Some(PRIVATE) {
                bytes = bytes.saturating_add(static_bytes(ty).unwrap_or(0));
            }
        }
    }
    for op in ops::nested_ops(function) {
        if ops::is(&op, "memref.alloca") {
            if let Ok(result) = op.result(0) {
                if address_space(result.r#type()) != Some(WORKGROUP) {
                    bytes = bytes.saturating_add(static_bytes(result.r#type()).unwrap_or(0));
                }
            }
        }
    }
    bytes
}

/// Workgroup memory found by [`classify`].
#[derive(Default)]
pub struct Workgroup {
    /// `memref.alloc` / `alloca` ops in the workgroup space (raw pointers).
    allocations: HashSet<*mut std::ffi::c_void>,
    /// `(gpu.module, global)` names of workgroup `memref.global`s.
    globals: HashSet<(String, String)>,
}

fn symbol_name<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<String> {
    op.attribute("sym_name")
        .ok()
        .and_then(|a| StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_owned())
}

/// The `gpu.module` around `op`, if any.
fn gpu_module<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    ops::ancestors(op).find(|p| ops::is(p, "gpu.module"))
}

/// The function-like op (gpu.func / func.func) around `op`.
fn function<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    ops::ancestors(op).find(|p| ops::is(p, "gpu.func") || ops::is(p, "func.func"))
}

fn is_kernel(op: &OperationRef) -> bool {
    ops::is(op, "gpu.func") && op.attribute("gpu.kernel").is_ok()
}

/// The type of a `memref.global`.
fn global_type<'c>(op: &OperationRef<'c, '_>) -> Option<Type<'c>> {
    op.attribute("type")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
        .map(|t| t.value())
}

/// Bytes of a statically shaped memref type, if it has a static shape.
fn static_bytes(ty: Type) -> Option<usize> {
    let memref = MemRefType::try_from(ty).ok()?;
    let mut count: i64 = 1;
    for d in 0..memref.rank() {
        let melior::ir::r#type::DimSize::Static(size) = memref.dim_size(d).ok()? else {
            return None;
        };
        count = count.checked_mul(i64::try_from(size).ok()?)?;
    }
    let bytes = count.checked_mul(element_bytes(memref.element())?)?;
    usize::try_from(bytes).ok()
}

/// Step 1: located errors for everything the emulator cannot run.
pub fn check<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) -> bool {
    let mut ok = true;
    let mut error = |op: &OperationRef, message: String| {
        diagnostic::error(op.location(), &message);
        ok = false;
    };
    for op in ops::nested_ops(root) {
        let name = ops::name(&op);
        let dialect = name.split('.').next().unwrap_or("");
        let in_gpu = gpu_module(&op).is_some();
        if DEVICE_DIALECTS.contains(&dialect) {
            let hint = if name.starts_with("nvgpu.device_async") {
                " (run --apipe-import-nvgpu first: its apipe form is emulated)"
            } else {
                ""
            };
            error(
                &op,
                format!(
                    "'{name}' cannot be emulated by apipe-run: it has no CPU semantics here{hint}"
                ),
            );
            continue;
        }
        if in_gpu {
            if dialect == "gpu" && !GPU_OPS.contains(&name) {
                error(
                    &op,
                    format!(
                        "'{name}' cannot be emulated by apipe-run (supported in kernels: {})",
                        GPU_OPS[2..].join(", ")
                    ),
                );
            }
            if ops::is(&op, "gpu.func") && !is_kernel(&op) {
                let workgroup = op
                    .attribute("workgroup_attributions")
                    .ok()
                    .and_then(|a| IntegerAttribute::try_from(a).ok())
                    .map_or(0, |a| a.value());
                if workgroup > 0 {
                    error(
                        &op,
                        "workgroup attributions of a non-kernel 'gpu.func' cannot be emulated"
                            .into(),
                    );
                }
            }
            if ops::is(&op, "gpu.func") {
                // The entry arguments past the function's inputs are its
                // workgroup and private attributions, whatever memory space
                // their types name (a fuzzed `memref<?xf32, 4>` in the
                // workgroup list got no bytes and the kernel segfaulted).
                let inputs = op
                    .attribute("function_type")
                    .ok()
                    .and_then(|a| TypeAttribute::try_from(a).ok())
                    .and_then(|a| FunctionType::try_from(a.value()).ok())
                    .map(|t| t.input_count());
                if let (Some(entry), Some(inputs)) = (entry_block(&op), inputs) {
                    for i in 0..entry.argument_count() {
                        let ty = entry.argument(i).unwrap().r#type();
                        let space = address_space(ty);
                        let attribution =
                            i >= inputs || space == Some(WORKGROUP) || space == Some(PRIVATE);
                        if attribution && static_bytes(ty).is_none() {
                            error(&op, format!("the attribution {ty} needs a static shape of whole bytes to be emulated"));
                        }
                    }
                }
            }
            if ops::is(&op, "gpu.func") || ops::is(&op, "func.func") {
                let private = private_bytes(&op);
                if private > MAX_PRIVATE_BYTES {
                    error(
                        &op,
                        format!(
                            "'{name}' needs {private} bytes of private memory per thread (allocas \
                             and private attributions): at most {MAX_PRIVATE_BYTES} (CUDA's local \
                             memory per thread)"
                        ),
                    );
                }
            }
            let alloc = ops::is(&op, "memref.alloc") || ops::is(&op, "memref.alloca");
            if alloc
                && op
                    .result(0)
                    .is_ok_and(|r| address_space(r.r#type()) == Some(WORKGROUP))
            {
                let ty = op.result(0).unwrap().r#type();
                if static_bytes(ty).is_none() {
                    error(&op, format!("workgroup '{name}' of {ty} needs a static shape to be emulated (one buffer per block)"));
                } else if !function(&op).is_some_and(|f| is_kernel(&f)) {
                    error(
                        &op,
                        format!("workgroup '{name}' outside a kernel cannot be emulated"),
                    );
                }
            }
            if ops::is(&op, "memref.get_global")
                && op
                    .result(0)
                    .is_ok_and(|r| address_space(r.r#type()) == Some(WORKGROUP))
                && !function(&op).is_some_and(|f| is_kernel(&f))
            {
                error(
                    &op,
                    "a workgroup 'memref.global' read outside a kernel cannot be emulated".into(),
                );
            }
            // An LLVM global of workgroup memory would need one copy per
            // block, which only `memref.global`s get (trial 66: its
            // `llvm.mlir.addressof` failed inside the lowering).
            if ops::is(&op, "llvm.mlir.global")
                && apipe_dialect::attributes::integer(&op, "addr_space")
                    == Some(i64::from(WORKGROUP))
            {
                error(
                    &op,
                    "a workgroup 'llvm.mlir.global' cannot be emulated (one buffer per block): declare it as a workgroup 'memref.global' and take its address with 'memref.get_global' and 'memref.extract_aligned_pointer_as_index'".into(),
                );
            }
            if ops::is(&op, "memref.global")
                && global_type(&op).is_some_and(|t| {
                    address_space(t) == Some(WORKGROUP) && static_bytes(t).is_none()
                })
            {
                error(
                    &op,
                    "a workgroup 'memref.global' needs a static shape to be emulated".into(),
                );
            }
            continue;
        }
        match name {
            "gpu.launch_func" => {
                if let Some(message) = launch_problem(&op) {
                    error(&op, message);
                }
            }
            "gpu.launch" => error(&op, "'gpu.launch' must be outlined first (gpu-kernel-outlining)".into()),
            "gpu.barrier" | "gpu.module" | "gpu.host_register" | "gpu.host_unregister" => {}
            _ if dialect == "gpu" && name != "gpu.func" => error(
                &op,
                format!("'{name}' cannot be emulated by apipe-run (host code may use gpu.launch_func, gpu.host_register)"),
            ),
            _ => {}
        }
    }
    ok
}

/// The segments of a `gpu.launch_func`'s operands (MLIR 22 order: async
/// dependencies, grid x y z, block x y z, cluster x y z, dynamic shared
/// memory size, kernel operands, async object).
fn segments(op: &OperationRef) -> Option<Vec<usize>> {
    let attribute =
        DenseI32ArrayAttribute::try_from(op.attribute("operandSegmentSizes").ok()?).ok()?;
    let sizes: Vec<usize> = (0..attribute.len())
        .map(|i| attribute.element(i).unwrap_or(0) as usize)
        .collect();
    (sizes.len() == 13).then_some(sizes)
}

fn launch_problem(op: &OperationRef) -> Option<String> {
    let Some(segments) = segments(op) else {
        return Some("this form of 'gpu.launch_func' cannot be emulated".into());
    };
    if segments[0] > 0 || segments[12] > 0 || op.result_count() > 0 {
        return Some(
            "an asynchronous 'gpu.launch_func' cannot be emulated: launch synchronously".into(),
        );
    }
    if segments[7..10].iter().any(|&s| s > 0) {
        return Some("a 'gpu.launch_func' with clusters cannot be emulated".into());
    }
    if segments[10] > 0 {
        return Some("a 'gpu.launch_func' with dynamic shared memory cannot be emulated".into());
    }
    let first = segments[..11].iter().sum::<usize>();
    for value in op.operands().skip(first).take(segments[11]) {
        if argument_slots(value.r#type()).is_none() {
            return Some(format!(
                "a kernel argument of type {} cannot be emulated (scalars and ranked memrefs can)",
                value.r#type()
            ));
        }
    }
    None
}

/// 8-byte slots of a kernel argument of type `ty` in the lowered signature.
fn argument_slots(ty: Type) -> Option<usize> {
    if let Ok(memref) = MemRefType::try_from(ty) {
        return Some(3 + 2 * memref.rank());
    }
    // SAFETY: a live type; the predicate only reads it.
    let is_float = unsafe { mlirTypeIsAFloat(ty.to_raw()) };
    let bits = if ty.is_index() {
        64
    } else if ty.is_integer() {
        // SAFETY: an integer type.
        unsafe { mlir_sys::mlirIntegerTypeGetWidth(ty.to_raw()) }
    } else if is_float {
        // SAFETY: a float type.
        unsafe { mlir_sys::mlirFloatTypeGetWidth(ty.to_raw()) }
    } else {
        return None;
    };
    (bits <= 64 && (ty.is_index() || ty.is_integer() || bits % 8 == 0)).then_some(1)
}

/// Step 1, second half: records workgroup allocations and globals while
/// memory spaces still tell them apart.
pub fn classify<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) -> Workgroup {
    let mut workgroup = Workgroup::default();
    for op in ops::nested_ops(root) {
        let Some(module) = gpu_module(&op) else {
            continue;
        };
        let alloc = ops::is(&op, "memref.alloc") || ops::is(&op, "memref.alloca");
        if alloc
            && op
                .result(0)
                .is_ok_and(|r| address_space(r.r#type()) == Some(WORKGROUP))
        {
            workgroup.allocations.insert(op.to_raw().ptr);
        }
        if ops::is(&op, "memref.global")
            && global_type(&op).is_some_and(|t| address_space(t) == Some(WORKGROUP))
        {
            workgroup.globals.insert((
                symbol_name(&module).unwrap_or_default(),
                symbol_name(&op).unwrap_or_default(),
            ));
        }
    }
    workgroup
}

/// Steps 2-3. Returns the kernels, by kernel number.
pub fn lower<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
    emitter: &mut Emitter<'c, 'a>,
    workgroup: &Workgroup,
) -> Vec<KernelInfo> {
    let mut kernels = Vec::new();
    let mut numbers: HashMap<String, usize> = HashMap::new();
    let modules: Vec<OperationRef> = ops::nested_ops(root)
        .into_iter()
        .filter(|op| ops::is(op, "gpu.module"))
        .collect();
    for (module_number, module) in modules.into_iter().enumerate() {
        let module_name = symbol_name(&module).unwrap_or_default();
        // The module's number keeps names from two modules apart even when
        // their names and symbols share underscores.
        let rename = |n: &str| format!("apipe_emu_k{module_number}_{module_name}_{n}");
        let body: Vec<OperationRef> = ops::blocks_of(&module)
            .iter()
            .flat_map(|b| std::iter::successors(b.first_operation(), |o| o.next_in_block()))
            .collect();
        let symbols: HashSet<String> = body.iter().filter_map(symbol_name).collect();
        // References inside the module follow the new names, whatever
        // attribute holds them (a call's `callee`, `memref.get_global`'s
        // `name`, `func.constant`'s `value`, `llvm.mlir.addressof`'s
        // `global_name`): MLIR's `SymbolTable::replaceAllSymbolUses`
        // (trial 57: a `func.constant` kept naming the host copy of a
        // function, whose `gpu.barrier` then did nothing).
        for name in &symbols {
            let new_name = rename(name);
            // SAFETY: a live op; the strings outlive the call, which copies
            // them into attributes.
            let replaced = unsafe {
                mlir_sys::mlirSymbolTableReplaceAllSymbolUses(
                    melior::StringRef::new(name).to_raw(),
                    melior::StringRef::new(&new_name).to_raw(),
                    module.to_raw(),
                )
            };
            // It fails only on a symbol use it cannot walk (an unknown
            // nested symbol table), which the module's verification
            // before the lowering rules out.
            debug_assert!(replaced.value != 0, "replaceAllSymbolUses of @{name}");
        }
        let globals: HashSet<String> = workgroup
            .globals
            .iter()
            .filter(|(m, _)| *m == module_name)
            .map(|(_, g)| rename(g))
            .collect();
        for op in body {
            let Some(name) = symbol_name(&op) else {
                continue;
            };
            let new_name = rename(&name);
            if ops::is(&op, "gpu.func") {
                let kernel = is_kernel(&op);
                let info =
                    convert_function(op, &new_name, kernel, module, emitter, workgroup, &globals);
                if let Some(mut info) = info {
                    info.name = format!("@{module_name}::@{name}");
                    info.function = new_name.clone();
                    numbers.insert(info.name.clone(), kernels.len());
                    kernels.push(info);
                }
            } else if ops::is(&op, "func.func")
                || ops::is(&op, "llvm.func")
                || ops::is(&op, "memref.global")
                || ops::is(&op, "llvm.mlir.global")
            {
                // An `llvm.func` is called like a `func.func` (trial 28: it
                // was left in the module, erased with it, and its calls
                // crashed the lowering); an `llvm.mlir.global` (of global
                // memory) is one buffer for every block (trial 66: it was
                // erased with the module).
                if globals.contains(&new_name) {
                    continue; // a per-block buffer now; goes with the module
                }
                // SAFETY: a live op; renaming and moving it keep it valid.
                let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
                op.set_attribute(
                    "sym_name",
                    StringAttribute::new(emitter.context, &new_name).into(),
                );
                op.move_before(module);
                if ops::is(&op, "func.func") || ops::is(&op, "llvm.func") {
                    lower_gpu_ops(&op, None, emitter);
                }
            }
        }
        // Every op still used moved out of the module.
        rewrite::erase_op(module);
    }
    for info in &mut kernels {
        info.buffers.sort();
    }
    lower_launches(root, emitter, &numbers);
    kernels
}

/// Hidden kernel arguments after the user's: workgroup memory, then ids.
struct Hidden<'c, 'a> {
    shared: Value<'c, 'a>,
    /// thread x y z, block x y z, block size x y z, grid size x y z.
    ids: Vec<Value<'c, 'a>>,
    /// The thread's race-checker read cache (`memref<65xi64>`).
    cache: Value<'c, 'a>,
}

/// Step 2 for one `gpu.func`; the kernel's info for a kernel.
#[allow(clippy::too_many_arguments)]
fn convert_function<'c: 'a, 'a>(
    op: OperationRef<'c, 'a>,
    new_name: &str,
    kernel: bool,
    module: OperationRef<'c, 'a>,
    emitter: &mut Emitter<'c, 'a>,
    workgroup: &Workgroup,
    globals: &HashSet<String>,
) -> Option<KernelInfo> {
    let context = emitter.context;
    let location = op.location();
    let mut known_block = crate::launch_bounds::declared_block(&op);
    let mut known_grid = crate::launch_bounds::declared_grid(&op);
    known_block.extend(crate::launch_bounds::declared_id_bound(
        &op,
        "gpu.thread_id",
    ));
    known_grid.extend(crate::launch_bounds::declared_id_bound(&op, "gpu.block_id"));
    let declared_at = emitter.id(location, "");
    emitter.name(declared_at, "gpu.func");
    let function_type = op
        .attribute("function_type")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
        .and_then(|a| FunctionType::try_from(a.value()).ok())?;
    let inputs: Vec<Type> = (0..function_type.input_count())
        .map(|i| function_type.input(i).unwrap())
        .collect();
    let results: Vec<Type> = (0..function_type.result_count())
        .map(|i| function_type.result(i).unwrap())
        .collect();
    let entry = entry_block(&op)?;
    let workgroup_count = op
        .attribute("workgroup_attributions")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map_or(0, |a| a.value() as usize);
    let argument_count = entry.argument_count();
    let nested = ops::nested_ops(&op);
    // Layout of the workgroup memory: attributions, allocations, globals.
    let mut shared_bytes = 0usize;
    let mut buffers: Vec<(usize, usize, String)> = Vec::new();
    let mut place = |bytes: usize, at: Location| {
        let offset = shared_bytes.div_ceil(16) * 16;
        shared_bytes = offset + bytes;
        let at = apipe_dialect::location::file_line_col(at)
            .map_or_else(|| "<unknown>".to_owned(), |p| p.to_string());
        buffers.push((offset, bytes, at));
        offset
    };
    let attribution_offsets: Vec<usize> = (inputs.len()..inputs.len() + workgroup_count)
        .map(|i| {
            let argument = entry.argument(i).unwrap();
            // SAFETY: a live value; its location lives in the context.
            let at =
                unsafe { Location::from_raw(mlir_sys::mlirValueGetLocation(argument.to_raw())) };
            place(static_bytes(argument.r#type()).unwrap_or(0), at)
        })
        .collect();
    let allocations: Vec<(OperationRef, usize)> = nested
        .iter()
        .filter(|o| workgroup.allocations.contains(&o.to_raw().ptr))
        .map(|o| {
            let bytes = static_bytes(o.result(0).unwrap().r#type()).unwrap_or(0);
            (*o, place(bytes, o.location()))
        })
        .collect();
    let mut global_offsets: HashMap<String, usize> = HashMap::new();
    let mut get_globals: Vec<(OperationRef, String)> = Vec::new();
    for o in nested.iter().filter(|o| ops::is(*o, "memref.get_global")) {
        let Some(name) = o
            .attribute("name")
            .ok()
            .and_then(|a| FlatSymbolRefAttribute::try_from(a).ok())
            .map(|s| s.value().to_owned())
        else {
            continue;
        };
        if globals.contains(&name) {
            if !global_offsets.contains_key(&name) {
                let bytes = static_bytes(o.result(0).unwrap().r#type()).unwrap_or(0);
                global_offsets.insert(name.clone(), place(bytes, o.location()));
            }
            get_globals.push((*o, name));
        }
    }
    let mut slot_count = 0;
    // The new function.
    let index = emitter.index_type();
    let shared_type: Type = MemRefType::new(
        melior::ir::r#type::IntegerType::new(context, 8).into(),
        &[shared_bytes as i64],
        None,
        None,
    )
    .into();
    let mut new_inputs = inputs.clone();
    let cache_type: Type = MemRefType::new(
        melior::ir::r#type::IntegerType::new(context, 64).into(),
        &[READ_CACHE_SLOTS as i64 + 1],
        None,
        None,
    )
    .into();
    if kernel {
        new_inputs.push(shared_type);
        new_inputs.extend(std::iter::repeat_n(index, 12));
        new_inputs.push(cache_type);
        slot_count = inputs.iter().map(|t| argument_slots(*t).unwrap_or(1)).sum();
    }
    let new_type = FunctionType::new(context, &new_inputs, &results);
    let new = module.block().unwrap().insert_operation_before(
        module,
        func::func(
            context,
            StringAttribute::new(context, new_name),
            TypeAttribute::new(new_type.into()),
            Region::new(),
            &[],
            location,
        ),
    );
    // Both regions are live; the old one is left empty.
    rewrite::take_body(&new.region(0).unwrap(), &op.region(0).unwrap());
    let entry = entry_block(&new)?;
    let first = entry.first_operation()?;
    let hidden = kernel.then(|| {
        let shared = entry.add_argument(shared_type, location);
        let ids = (0..12)
            .map(|_| entry.add_argument(index, location))
            .collect();
        let cache = entry.add_argument(cache_type, location);
        Hidden { shared, ids, cache }
    });
    let view = |offset: usize, ty: Type<'c>, shared: Value<'c, 'a>| -> Value<'c, 'a> {
        let shift = entry
            .insert_operation_before(
                first,
                arith::constant(
                    context,
                    IntegerAttribute::new(index, offset as i64).into(),
                    location,
                ),
            )
            .result(0)
            .unwrap()
            .into();
        entry
            .insert_operation_before(
                first,
                OperationBuilder::new("memref.view", location)
                    .add_operands(&[shared, shift])
                    .add_results(&[ty])
                    .build()
                    .expect("valid memref.view"),
            )
            .result(0)
            .unwrap()
            .into()
    };
    // Both values are live and have the same (host) type.
    let replace = |old: Value<'c, 'a>, new: Value<'c, 'a>| rewrite::replace_all_uses_with(old, new);
    for (k, offset) in attribution_offsets.iter().enumerate() {
        let argument: Value = entry.argument(inputs.len() + k).unwrap().into();
        if let Some(hidden) = &hidden {
            replace(argument, view(*offset, argument.r#type(), hidden.shared));
        }
    }
    for i in inputs.len() + workgroup_count..argument_count {
        let argument: Value = entry.argument(i).unwrap().into();
        let Ok(ty) = MemRefType::try_from(argument.r#type()) else {
            continue;
        };
        let alloca = entry
            .insert_operation_before(
                first,
                melior::dialect::memref::alloca(context, ty, &[], &[], None, location),
            )
            .result(0)
            .unwrap()
            .into();
        replace(argument, alloca);
    }
    let mut dead: Vec<OperationRef> = Vec::new();
    if let Some(hidden) = &hidden {
        for (o, offset) in &allocations {
            let result: Value = o.result(0).unwrap().into();
            // (Its deallocs are gone: `apipe-to-emulation` step 2.)
            let buffer = view(*offset, result.r#type(), hidden.shared);
            replace(result, buffer);
            dead.push(*o);
        }
        for (o, name) in &get_globals {
            let result: Value = o.result(0).unwrap().into();
            replace(
                result,
                view(global_offsets[name], result.r#type(), hidden.shared),
            );
            dead.push(*o);
        }
    }
    // Destroyed only now: `first`, where the views go, may be one of them.
    for o in dead {
        // No uses left; no handle to it is used again.
        rewrite::erase_op(o);
    }
    for i in (inputs.len()..argument_count).rev() {
        // SAFETY: the attribution arguments have no uses left and no
        // handle to them is used again.
        unsafe { entry.erase_argument(i) };
    }
    // The old op's region is empty; nothing refers to it.
    rewrite::erase_op(op);
    lower_gpu_ops(&new, hidden.as_ref(), emitter);
    if let Some(hidden) = &hidden {
        // The old first op may be gone (an id op): take the current one.
        if let Some(first) = entry_block(&new).and_then(|b| b.first_operation()) {
            inline_read_cache(&new, first, hidden, emitter);
        }
    }
    kernel.then(|| KernelInfo {
        name: String::new(),
        function: String::new(),
        entry: None,
        shared_bytes,
        argument_slots: slot_count,
        buffers,
        known_block,
        known_grid,
        declared_at,
    })
}

/// Race checker, in a kernel: each read hook
/// (`apipe_emu_shared_access(id, address, bytes, 0)`) runs only when the
/// thread's read cache misses, checked inline: the key
/// `generation << 40 | bytes << 32 | (offset + 1)` against slot
/// `(offset / 4) mod 64` (the runtime keeps the cache and its generation,
/// see `emulation_runtime::context::Thread::read_cache`).
fn inline_read_cache<'c: 'a, 'a>(
    function: &impl OperationLike<'c, 'a>,
    first: OperationRef<'c, 'a>,
    hidden: &Hidden<'c, 'a>,
    emitter: &mut Emitter<'c, 'a>,
) {
    let hooks: Vec<OperationRef> = ops::nested_ops(function)
        .into_iter()
        .filter(|op| {
            ops::is(op, "func.call")
                && op
                    .attribute("callee")
                    .ok()
                    .and_then(|a| FlatSymbolRefAttribute::try_from(a).ok())
                    .is_some_and(|c| c.value() == SHARED_ACCESS_FN)
                && op
                    .operand(3)
                    .is_ok_and(|k| super::checks::constant_value(k) == Some(0))
        })
        .collect();
    if hooks.is_empty() {
        return;
    }
    let context = emitter.context;
    let index = emitter.index_type();
    let i64_type = emitter.i64_type();
    let location = first.location();
    // The workgroup memory's address, once at entry.
    let base: Value = emitter
        .before(
            first,
            OperationBuilder::new("memref.extract_aligned_pointer_as_index", location)
                .add_operands(&[hidden.shared])
                .add_results(&[index])
                .build()
                .expect("valid memref.extract_aligned_pointer_as_index"),
        )
        .result(0)
        .unwrap()
        .into();
    let base = emitter.to_i64(first, base);
    for hook in hooks {
        let location = hook.location();
        let address = hook.operand(1).unwrap();
        let bytes = hook.operand(2).unwrap();
        let value = |op: melior::ir::Operation<'c>| -> Value<'c, 'a> {
            emitter.before(hook, op).result(0).unwrap().into()
        };
        let offset = value(arith::subi(address, base, location));
        let c = |v: i64| emitter.constant(hook, i64_type, v);
        let (c1, c2, c32, c40, c63) = (c(1), c(2), c(32), c(40), c(63));
        let generation_at = emitter.constant(hook, index, READ_CACHE_SLOTS as i64);
        let load = |at: Value<'c, 'a>| {
            OperationBuilder::new("memref.load", location)
                .add_operands(&[hidden.cache, at])
                .add_results(&[i64_type])
                .build()
                .expect("valid memref.load")
        };
        let generation = value(load(generation_at));
        let high = value(arith::shli(generation, c40, location));
        let middle = value(arith::shli(bytes, c32, location));
        let low = value(arith::addi(offset, c1, location));
        let key = value(arith::ori(high, middle, location));
        let key = value(arith::ori(key, low, location));
        let word = value(arith::shrui(offset, c2, location));
        let slot = value(arith::andi(word, c63, location));
        let slot = value(arith::index_cast(slot, index, location));
        let cached = value(load(slot));
        let miss = value(arith::cmpi(
            context,
            melior::dialect::arith::CmpiPredicate::Ne,
            cached,
            key,
            location,
        ));
        let then_block = melior::ir::Block::new(&[]);
        let terminator = then_block.append_operation(melior::dialect::scf::r#yield(&[], location));
        let then_region = Region::new();
        then_region.append_block(then_block);
        emitter.before(
            hook,
            melior::dialect::scf::r#if(miss, &[], then_region, Region::new(), location),
        );
        // SAFETY: a live op moved into a block of the same function.
        let mut hook = unsafe { OperationRefMut::from_raw(hook.to_raw()) };
        hook.move_before(terminator);
    }
}

/// The dimension (0, 1, 2) of a `gpu.*_id` / `*_dim` op.
fn dimension(op: &OperationRef) -> usize {
    let text = op
        .attribute("dimension")
        .map(|a| a.to_string())
        .unwrap_or_default();
    match text.trim_end_matches('>').chars().last() {
        Some('y') => 1,
        Some('z') => 2,
        _ => 0,
    }
}

/// Ids, barriers and returns of a function that came from a `gpu.module`.
fn lower_gpu_ops<'c: 'a, 'a>(
    function: &impl OperationLike<'c, 'a>,
    hidden: Option<&Hidden<'c, 'a>>,
    emitter: &mut Emitter<'c, 'a>,
) {
    let kinds = [
        "gpu.thread_id",
        "gpu.block_id",
        "gpu.block_dim",
        "gpu.grid_dim",
    ];
    for op in ops::nested_ops(function) {
        let name = ops::name(&op);
        let location = op.location();
        let id_value = |emitter: &mut Emitter<'c, 'a>, kind: usize, d: usize| -> Value<'c, 'a> {
            match hidden {
                Some(h) => h.ids[3 * kind + d],
                None => {
                    let id = emitter.id(location, "");
                    let id = emitter.constant(op, emitter.i64_type(), id);
                    let which = emitter.constant(op, emitter.i64_type(), (3 * kind + d) as i64);
                    let call = emitter.call(op, GPU_ID_FN, &[id, which], &[emitter.i64_type()]);
                    emitter
                        .before(
                            op,
                            arith::index_cast(
                                call.result(0).unwrap().into(),
                                emitter.index_type(),
                                location,
                            ),
                        )
                        .result(0)
                        .unwrap()
                        .into()
                }
            }
        };
        let replacement = if let Some(kind) = kinds.iter().position(|k| *k == name) {
            Some(id_value(emitter, kind, dimension(&op)))
        } else if name == "gpu.global_id" {
            let d = dimension(&op);
            let (t, b, n) = (
                id_value(emitter, 0, d),
                id_value(emitter, 1, d),
                id_value(emitter, 2, d),
            );
            let product: Value = emitter
                .before(op, arith::muli(b, n, location))
                .result(0)
                .unwrap()
                .into();
            Some(
                emitter
                    .before(op, arith::addi(product, t, location))
                    .result(0)
                    .unwrap()
                    .into(),
            )
        } else if name == "gpu.barrier" {
            let id = emitter.id(location, "");
            let id = emitter.constant(op, emitter.i64_type(), id);
            emitter.call(op, BARRIER_FN, &[id], &[]);
            None
        } else if name == "gpu.return" {
            let operands: Vec<Value> = op.operands().collect();
            emitter.before(op, func::r#return(&operands, location));
            None
        } else {
            continue;
        };
        if let Some(value) = replacement {
            let old = op.result(0).unwrap();
            // Both values are live and have the type index.
            rewrite::replace_all_uses_with(old.into(), value);
        }
        // No uses left; no handle to it is used again.
        rewrite::erase_op(op);
    }
}

/// Step 3.
fn lower_launches<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
    emitter: &mut Emitter<'c, 'a>,
    numbers: &HashMap<String, usize>,
) {
    let launches: Vec<OperationRef> = ops::nested_ops(root)
        .into_iter()
        .filter(|op| ops::is(op, "gpu.launch_func"))
        .collect();
    for op in launches {
        let kernel = op
            .attribute("kernel")
            .map(|a| a.to_string())
            .unwrap_or_default();
        let number = numbers.get(&kernel).copied().unwrap_or(usize::MAX);
        let segments = segments(&op).unwrap_or_default();
        let operands: Vec<Value> = op.operands().collect();
        let sizes: Vec<Value> = operands[segments[0]..segments[0] + 6].to_vec();
        let first = segments[..11].iter().sum::<usize>();
        let i64_type = emitter.i64_type();
        let location = op.location();
        for &argument in &operands[first..first + segments[11]] {
            let ty = argument.r#type();
            let mut slots: Vec<Value> = Vec::new();
            if MemRefType::try_from(ty).is_ok() {
                let (pointer, offset, sizes, strides) = emitter.metadata(op, argument);
                let pointer = emitter.to_i64(op, pointer);
                // The kernel uses the buffer: it must not be freed.
                let id = emitter.id(location, "");
                emitter.name(id, "gpu.launch_func");
                let id = emitter.constant(op, i64_type, id);
                emitter.call(op, LIVE_FN, &[id, pointer], &[]);
                slots.extend([pointer, pointer, emitter.to_i64(op, offset)]);
                for v in sizes.into_iter().chain(strides) {
                    slots.push(emitter.to_i64(op, v));
                }
            } else if ty.is_index() || ty.is_integer() {
                slots.push(emitter.to_i64(op, argument));
            } else {
                // A float: its bits, zero-extended.
                let bits = element_bytes(ty).unwrap_or(8) * 8;
                let integer: Type =
                    melior::ir::r#type::IntegerType::new(emitter.context, bits as u32).into();
                let cast: Value = emitter
                    .before(op, arith::bitcast(argument, integer, location))
                    .result(0)
                    .unwrap()
                    .into();
                slots.push(emitter.to_i64(op, cast));
            }
            for slot in slots {
                emitter.call(op, LAUNCH_ARGUMENT_FN, &[slot], &[]);
            }
        }
        let id = emitter.id(location, "");
        let mut arguments = vec![
            emitter.constant(op, i64_type, id),
            emitter.constant(op, i64_type, number as i64),
        ];
        for size in sizes {
            arguments.push(emitter.to_i64(op, size));
        }
        emitter.call(op, LAUNCH_FN, &arguments, &[]);
        // A synchronous launch has no results.
        rewrite::erase_op(op);
    }
}
