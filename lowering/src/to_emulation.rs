//! `apipe-to-emulation`: apipe ops become calls into the CPU emulation
//! runtime ([`crate::emulation_runtime`]), GPU kernels become host
//! functions the runtime runs per GPU thread, and run-time checks become
//! located errors, so that the upstream LLVM lowering and the MLIR
//! ExecutionEngine can run the program (`apipe-run`).
//!
//! Runs on a `builtin.module` (it declares the runtime functions in it).
//!
//! Algorithm:
//! 1. check every precondition before touching the IR: the root is a
//!    `builtin.module`; no apipe op sits in a nested `builtin.module`; every
//!    copy has memrefs of rank 1 to [`MAX_RANK`] whose element type has a
//!    whole number of bytes; no symbol of the root uses a runtime function's
//!    name; every op of a `gpu.module` and every launch can be emulated
//!    ([`kernels::check`]), and every stated block and grid size is one a
//!    launch can have ([`crate::launch_bounds`]); every
//!    `memref.generic_atomic_rmw` has an
//!    integer element (MLIR 22 lowers it to `llvm.cmpxchg`);
//! 2. give each apipe op and each `memref.dealloc` an id, in pre-order;
//!    `locations[id]` is its `file:line:col`, which the runtime prints in
//!    its messages (later steps add ids for the ops they lower); erase
//!    each `memref.dealloc` of workgroup memory in a kernel (the block's
//!    memory lives as long as the block; `free` of it would crash);
//! 3. with the race checker, hooks before each workgroup access and global
//!    store or atomic update in kernels, and before each write of host
//!    code that issues copies (called only while a host copy is in
//!    flight) ([`hooks`]); record the workgroup allocations
//!    ([`kernels::classify`]);
//! 4. tokens become group ids: every `!apipe.token` value (op results and
//!    block arguments, e.g. `scf.for` iter_args) is retyped to `i64` in
//!    place; every memory space becomes host memory: each memref type loses
//!    its memory space (the LLVM lowering of `memref.dealloc` and calls
//!    cannot mix address spaces on the host); `func.func` and `gpu.func`
//!    signatures and `memref.global` types follow;
//! 5. kernels become host functions and launches runtime calls
//!    ([`kernels::lower`]);
//! 6. replace each apipe op by a `func.call`: `copy(id, queue,
//!    element_bytes, elements, src_elements (else elements), src rank, src, dst rank,
//!    dst, src indices, dst indices)` with indices padded to [`MAX_RANK`] by
//!    zeros, the memrefs passed through MLIR's C interface (a pointer to
//!    the descriptor, built in the frame of a wrapper function: no stack
//!    grows per loop iteration); `commit_group(id, queue) -> token`;
//!    `wait_group(id, queue, pending)`; one `wait(id, token)` per token of
//!    `apipe.wait`; `ready(id, queue) -> token`; instead of each
//!    `memref.dealloc`, `dealloc(id, element_bytes, rank, memref)`, which
//!    checks that the memref is a live buffer of `memref.alloc` and that no
//!    pending copy uses it, then frees it (after a quarantine that keeps
//!    its address from reuse, for the use-after-free check)
//!    ([`crate::emulation_runtime::heap`]);
//!    the ops of the mbarrier form become calls with the address of their
//!    slot ([`crate::emulation::mbarrier`]);
//! 7. erase `gpu.barrier` in host functions: one host thread runs, so a
//!    barrier has nothing to wait for (programs written for the GPU, such
//!    as pipeliner output with `barriers=true`, then run as they are);
//! 8. run-time checks ([`checks`]): `cf.assert`, `scf.for` steps,
//!    vector access bounds, and `memref.alloc` (null check; the buffer
//!    becomes live for the dealloc check). Last, so that every alloc
//!    that reaches the LLVM lowering is seen (earlier steps replace
//!    workgroup allocs by views; no later pass creates allocs);
//! 9. after each call of a function with `memref.alloca`s, a check that no
//!    pending copy uses the released frame; inline each
//!    `memref.alloca_scope` between a stack save and restore, with the same
//!    check at its end ([`stack`]): upstream `convert-scf-to-cf` would
//!    otherwise split the scope's single block.
//!
//! Postcondition: no apipe op, token value or `gpu.module` is left; the
//! pipelining annotations stay (they are discardable and lower away).
//!
//! Semantics kept: per thread, per-queue FIFOs of groups (PTX ISA
//! 9.7.9.25.3 `cp.async` / `cp.async.commit_group` / `cp.async.wait_group`);
//! the runtime chooses when each copy lands.

use crate::emulation::{checks, element_bytes, hooks, kernels, mbarrier, stack, Emitter};
use crate::emulation_runtime::{
    COMMIT_GROUP_FN, COPY_FN_PREFIX, DEALLOC_FN_PREFIX, MAX_RANK, READY_FN, WAIT_FN, WAIT_GROUP_FN,
};
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{attributes, diagnostic, ops, Reported};
use apipe_passes::pass::{PassInfo, PassOptions, RunFn};
use apipe_passes::rewrite;
use melior::{
    dialect::DialectHandle,
    ir::{attribute::AttributeLike, operation::OperationMutLike},
    ir::{
        attribute::{StringAttribute, TypeAttribute},
        operation::OperationLike,
        r#type::{FunctionType, IntegerType, MemRefType, ShapedTypeLike},
        BlockLike, OperationRef, Type, TypeLike, Value, ValueLike,
    },
    pass::Pass,
    Context,
};
use mlir_sys::{
    mlirMemRefTypeGet, mlirShapedTypeGetDimSize, mlirShapedTypeGetElementType,
    mlirTypeIsAUnrankedMemRef, mlirUnrankedMemRefTypeGet, mlirUnrankedMemrefGetMemorySpace,
    MlirAttribute,
};
use std::collections::HashMap;

/// The registry entry of `apipe-to-emulation`.
pub static INFO: PassInfo = PassInfo {
    argument: "apipe-to-emulation",
    name: "ApipeToEmulation",
    summary:
        "Replace apipe ops by calls into the CPU emulation runtime of apipe-run (on builtin.module)",
    options: &[],
    run: run as RunFn,
    dependent_dialects: || {
        vec![
            DialectHandle::arith(),
            DialectHandle::func(),
            DialectHandle::llvm(),
            DialectHandle::memref(),
            // The run-time checks' `scf.if` (the alloc null check).
            DialectHandle::scf(),
        ]
    },
    reads_only: false,
    follows_calls: false,
};

/// Creates the `apipe-to-emulation` pass.
pub fn create_to_emulation_pass() -> Pass {
    INFO.create("").expect("no options")
}

fn run(op: OperationRef, _options: &PassOptions) -> Result<(), Reported> {
    to_emulation(&op, &EmulationOptions::default()).map(|_| ())
}

/// What the lowering adds besides the apipe ops.
#[derive(Clone, Copy, Debug, Default)]
pub struct EmulationOptions {
    /// Race checker hooks in kernels and host code ([`hooks`]).
    pub racecheck: bool,
    /// Bounds checks of vector accesses ([`checks`]; `cf.assert`s and
    /// `scf.for` steps are always checked).
    pub bounds: bool,
}

/// What the driver needs to run a lowered module.
#[derive(Clone, Debug, Default)]
pub struct Emulation {
    /// `locations[id]`: the `file:line:col` of the op with that id.
    pub locations: Vec<String>,
    /// `checks[id]`: the message of the run-time check with that id.
    pub checks: Vec<String>,
    /// `names[id]`: the op name of the id (apipe ops and the race
    /// checker's hooks; empty for others).
    pub names: Vec<String>,
    /// The declared copy functions, to bind (with MLIR's C interface
    /// prefix) to [`copy_symbol`](crate::emulation_runtime::copy_symbol).
    pub copy_functions: Vec<String>,
    /// The declared dealloc checks, to bind (with MLIR's C interface
    /// prefix) to [`dealloc_symbol`](crate::emulation_runtime::dealloc_symbol).
    pub dealloc_functions: Vec<String>,
    /// The declared race checker's region hooks, to bind (with MLIR's C
    /// interface prefix) to
    /// [`region_symbol`](crate::emulation_runtime::region_symbol).
    pub region_functions: Vec<String>,
    /// The kernels by number; the driver sets each `entry` to the packed
    /// entry of its `function`.
    pub kernels: Vec<crate::emulation_runtime::KernelInfo>,
}

/// Applies the pass to `root` (a `builtin.module`). On failure the IR is
/// unchanged and located errors have been emitted.
pub fn to_emulation<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
    options: &EmulationOptions,
) -> Result<Emulation, Reported> {
    // 1. Preconditions.
    let body = match (
        ops::is(root, "builtin.module"),
        ops::blocks_of(root).first(),
    ) {
        (true, Some(&body)) => body,
        _ => {
            diagnostic::error(
                root.location(),
                &format!(
                    "'apipe-to-emulation' runs on 'builtin.module', not '{}'",
                    root.name().as_string_ref().as_str().unwrap_or("?")
                ),
            );
            return Err(Reported);
        }
    };
    let nested = ops::nested_ops(root);
    // A dealloc of workgroup memory in a kernel (of the buffer, a cast or a
    // view of it, or of an attribution) does nothing: the block's memory
    // lives as long as the block (step 2).
    let workgroup_dealloc = |op: &OperationRef| {
        ops::is(op, "memref.dealloc")
            && ops::ancestors(op).any(|p| ops::is(&p, "gpu.module"))
            && op.operand(0).is_ok_and(|m| {
                crate::emulation::address_space(m.r#type()) == Some(crate::emulation::WORKGROUP)
            })
    };
    let workgroup_deallocs: Vec<OperationRef> =
        nested.iter().copied().filter(workgroup_dealloc).collect();
    let apipe_ops: Vec<OperationRef> = nested
        .iter()
        .copied()
        .filter(|op| ops::is_apipe(op) || ops::is(op, "memref.dealloc") && !workgroup_dealloc(op))
        .collect();
    let mut ok = kernels::check(root);
    ok &= crate::launch_bounds::check(root);
    for op in nested
        .iter()
        .filter(|op| ops::is(*op, "memref.generic_atomic_rmw"))
    {
        ok &= check_generic_atomic(op);
    }
    ok &= crate::switch_cases::check(root);
    for op in apipe_ops.iter().filter(|op| ops::is_apipe(*op)) {
        ok &= check_op(root, op);
    }
    let mut symbol = body.first_operation();
    while let Some(op) = symbol {
        if let Ok(name) = op.attribute("sym_name") {
            let name = StringAttribute::try_from(name).map(|s| s.value().to_owned());
            if name.is_ok_and(|n| n.starts_with("apipe_emu_")) {
                diagnostic::error(
                    op.location(),
                    "symbol names starting with 'apipe_emu_' are reserved for the emulation runtime",
                );
                ok = false;
            }
        }
        symbol = op.next_in_block();
    }
    if !ok {
        return Err(Reported);
    }

    // Collected now: lowering destroys ops of `nested`.
    let barriers: Vec<OperationRef> = nested
        .iter()
        .copied()
        .filter(|op| {
            ops::is(op, "gpu.barrier") && !ops::ancestors(op).any(|p| ops::is(&p, "gpu.module"))
        })
        .collect();

    let context_ref = root.context();
    // SAFETY: bound first (never `to_ref` a temporary).
    let context: &Context = unsafe { context_ref.to_ref() };
    let mut emitter = Emitter::new(context, body);

    // 2. Ids and locations; workgroup deallocs go.
    for op in workgroup_deallocs {
        // `memref.dealloc` has no results; no handle to it is used again.
        rewrite::erase_op(op);
    }
    let ids: Vec<i64> = apipe_ops
        .iter()
        .map(|op| {
            let id = emitter.id(op.location(), "");
            emitter.name(id, crate::emulation::op_name(op));
            id
        })
        .collect();

    // 3. Race checker hooks; workgroup memory.
    let region_functions = if options.racecheck {
        hooks::insert(root, &mut emitter)
    } else {
        Vec::new()
    };
    let workgroup = kernels::classify(root);

    // 4. Tokens become i64; memory spaces become host memory.
    let i64_type: Type = IntegerType::new(context, 64).into();
    retype_values(root, i64_type);

    // 5. Kernels and launches.
    let kernel_infos = kernels::lower(root, &mut emitter, &workgroup);

    // 6. apipe ops.
    let mut lowering = Lowering {
        emitter: &mut emitter,
        typed: HashMap::new(),
    };
    for (id, op) in ids.into_iter().zip(apipe_ops) {
        lowering.lower(id, op);
    }
    let typed = |prefix: &str| {
        let mut names: Vec<String> = lowering
            .typed
            .values()
            .filter(|n| n.starts_with(prefix))
            .cloned()
            .collect();
        names.sort();
        names
    };
    let copy_functions = typed(COPY_FN_PREFIX);
    let dealloc_functions = typed(DEALLOC_FN_PREFIX);
    // 7. One host thread: a barrier has nobody to wait for.
    for op in barriers {
        // `gpu.barrier` has no results; no handle to it is used again.
        rewrite::erase_op(op);
    }
    // 8. Run-time checks.
    checks::insert(root, &mut emitter, options.bounds);
    // 9. Alloca scopes; stack release checks.
    stack::check_releases(root, &mut emitter);
    stack::inline(root, &mut emitter);
    Ok(Emulation {
        locations: emitter.locations,
        checks: emitter.checks,
        names: emitter.names,
        copy_functions,
        dealloc_functions,
        region_functions,
        kernels: kernel_infos,
    })
}

/// Step 1 for a `memref.generic_atomic_rmw`: MLIR 22's LLVM lowering
/// builds an `llvm.cmpxchg` of the element type, which LLVM allows for
/// integers only (`apipe-run` lowers the op with `convert-arith-to-llvm`
/// first, as the pattern needs its body converted).
fn check_generic_atomic(op: &OperationRef) -> bool {
    let integer = op
        .operand_at(0)
        .and_then(|m| MemRefType::try_from(m.r#type()).ok())
        .is_some_and(|ty| ty.element().is_integer() || ty.element().is_index());
    if !integer {
        diagnostic::error(
            op.location(),
            "'memref.generic_atomic_rmw' of a non-integer element is not supported by apipe-run \
             (MLIR 22 lowers it to 'llvm.cmpxchg', which takes integers only)",
        );
    }
    integer
}

/// Step 1 for one apipe op.
fn check_op<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>, op: &OperationRef<'c, 'a>) -> bool {
    if let Some(p) = nested_module(root, op) {
        diagnostic::error(
            op.location(),
            &format!(
                "'{}' inside a nested '{}': apipe-run emulates the root module and its gpu.modules",
                op.name().as_string_ref().as_str().unwrap_or("?"),
                p.name().as_string_ref().as_str().unwrap_or("?")
            ),
        );
        return false;
    }
    if !ops::is(op, ops::COPY) && !ops::is(op, ops::BULK_COPY) {
        return true;
    }
    let mut ok = true;
    for (i, side) in [(0, "source"), (1, "destination")] {
        let Some(ty) = op
            .operand_at(i)
            .and_then(|v| MemRefType::try_from(v.r#type()).ok())
        else {
            continue; // the verifier reports it
        };
        if ty.rank() == 0 || ty.rank() > MAX_RANK {
            diagnostic::error(
                op.location(),
                &format!(
                    "'apipe.copy' {side} {} has rank {}; emulation handles ranks 1 to {MAX_RANK}",
                    Type::from(ty),
                    ty.rank()
                ),
            );
            ok = false;
        }
        if i == 0 && element_bytes(ty.element()).is_none() {
            diagnostic::error(
                op.location(),
                &format!(
                    "'apipe.copy' element type {} has no whole number of bytes; emulation cannot copy it",
                    ty.element()
                ),
            );
            ok = false;
        }
    }
    ok
}

/// The `builtin.module` between `root` and `op`, if any.
fn nested_module<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
    op: &OperationRef<'c, 'a>,
) -> Option<OperationRef<'c, 'a>> {
    ops::ancestors(op)
        .take_while(|p| p.to_raw().ptr != root.to_raw().ptr)
        .find(|p| ops::is(p, "builtin.module"))
}

/// Step 4: every token value becomes an `i64`, and every memref type loses
/// its memory space (host memory), in place.
fn retype_values<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>, i64_type: Type<'c>) {
    let map = |t: Type<'c>| host_type(t, i64_type);
    for op in ops::self_and_nested_ops(root) {
        for result in op.results() {
            if let Some(new) = map(result.r#type()) {
                result.set_type(new);
            }
        }
        for block in ops::blocks_of(&op) {
            for i in 0..block.argument_count() {
                let argument = block.argument(i).unwrap();
                if let Some(new) = map(argument.r#type()) {
                    argument.set_type(new);
                }
            }
        }
        if ops::is(&op, "func.func") || ops::is(&op, "gpu.func") {
            retype_signature(op, i64_type);
        }
        if ops::is(&op, "memref.global") {
            retype_global(op, i64_type);
        }
    }
}

/// Rewrites the `type` of a `memref.global` as [`host_type`] does, so that
/// it matches its (retyped) `memref.get_global` results.
fn retype_global<'c>(op: OperationRef<'c, '_>, i64_type: Type<'c>) {
    let Some(ty) = op
        .attribute("type")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
    else {
        return;
    };
    if let Some(new) = host_type(ty.value(), i64_type) {
        // SAFETY: a handle to a live op; setting an attribute does not move it.
        let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) };
        op.set_attribute("type", TypeAttribute::new(new).into());
    }
}

/// The type `ty` has in emulation, if it differs: `i64` for a token; a
/// memref (ranked or unranked) without its memory space.
fn host_type<'c>(ty: Type<'c>, i64_type: Type<'c>) -> Option<Type<'c>> {
    if ops::is_token_type(ty) {
        return Some(i64_type);
    }
    let null = MlirAttribute {
        ptr: std::ptr::null(),
    };
    if let Ok(memref) = MemRefType::try_from(ty) {
        memref.memory_space()?;
        let shape: Vec<i64> = (0..memref.rank())
            // SAFETY: a live memref type and `d` below its rank.
            .map(|d| unsafe { mlirShapedTypeGetDimSize(memref.to_raw(), d as isize) })
            .collect();
        // SAFETY: shape, layout and element type come from a valid memref
        // type; a null memory space is the default one.
        return Some(unsafe {
            Type::from_raw(mlirMemRefTypeGet(
                memref.element().to_raw(),
                shape.len() as isize,
                shape.as_ptr(),
                memref.layout().to_raw(),
                null,
            ))
        });
    }
    // A function value's type (`func.constant`), as its function's
    // signature is retyped (trial 62: a `func.call_indirect` of a function
    // taking a workgroup memref failed to verify after the erasure).
    if let Ok(function) = FunctionType::try_from(ty) {
        let map = |t: Type<'c>| host_type(t, i64_type).unwrap_or(t).to_raw();
        let inputs: Vec<_> = (0..function.input_count())
            .filter_map(|i| function.input(i).ok())
            .map(map)
            .collect();
        let outputs: Vec<_> = (0..function.result_count())
            .filter_map(|i| function.result(i).ok())
            .map(map)
            .collect();
        // SAFETY: live types of the live context of `ty`; the arrays
        // outlive the call, which copies them.
        let new = unsafe {
            Type::from_raw(mlir_sys::mlirFunctionTypeGet(
                mlir_sys::mlirTypeGetContext(ty.to_raw()),
                inputs.len() as isize,
                inputs.as_ptr(),
                outputs.len() as isize,
                outputs.as_ptr(),
            ))
        };
        return (new != ty).then_some(new);
    }
    // SAFETY: accessors on the type kind they are defined for.
    unsafe {
        if mlirTypeIsAUnrankedMemRef(ty.to_raw()) {
            let space = mlirUnrankedMemrefGetMemorySpace(ty.to_raw());
            if space.ptr.is_null() {
                return None;
            }
            let element = mlirShapedTypeGetElementType(ty.to_raw());
            return Some(Type::from_raw(mlirUnrankedMemRefTypeGet(element, null)));
        }
    }
    None
}

/// Rewrites the `function_type` of a `func.func` as [`host_type`] does.
fn retype_signature<'c>(op: OperationRef<'c, '_>, i64_type: Type<'c>) {
    let Some(new) = op
        .attribute("function_type")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
        .and_then(|a| host_type(a.value(), i64_type))
    else {
        return;
    };
    // SAFETY: a handle to a live op; setting an attribute does not move it.
    let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) };
    op.set_attribute("function_type", TypeAttribute::new(new).into());
}

/// Step 6.
struct Lowering<'e, 'c, 'a> {
    emitter: &'e mut Emitter<'c, 'a>,
    /// The name of the function declared for (prefix, argument types).
    typed: HashMap<(&'static str, String), String>,
}

impl<'c, 'a> Lowering<'_, 'c, 'a> {
    fn lower(&mut self, id: i64, op: OperationRef<'c, 'a>) {
        let queue = attributes::queue(&op);
        let em = &mut *self.emitter;
        let i64_type = em.i64_type();
        if ops::is(&op, ops::COPY) {
            let src = op.operand(0).unwrap();
            let dst = op.operand(1).unwrap();
            let indices: Vec<Value> = op.operands().skip(2).collect();
            copy_call(em, &mut self.typed, id, op, src, dst, &indices, queue);
        } else if ops::MBARRIER_OPS.contains(&ops::name(&op)) {
            let typed = &mut self.typed;
            mbarrier::lower(em, id, op, &mut |em, operands| {
                let mbarrier::BulkCopyOperands {
                    src,
                    dst,
                    indices,
                    queue,
                } = operands;
                copy_call(em, typed, id, op, src, dst, &indices, queue);
            });
        } else if ops::is(&op, ops::COMMIT_GROUP) || ops::is(&op, ops::READY) {
            let name = if ops::is(&op, ops::READY) {
                READY_FN
            } else {
                COMMIT_GROUP_FN
            };
            let arguments = [
                em.constant(op, i64_type, id),
                em.constant(op, i64_type, queue),
            ];
            let new = em.call(op, name, &arguments, &[i64_type]);
            // Check the count first: melior prints the whole module into the
            // error of an out-of-range `result(0)` (a counting-form commit
            // has none), which made this step quadratic in the module.
            if op.result_count() == 1 {
                let token = op.result(0).expect("checked");
                // Both values are live and have the type i64.
                rewrite::replace_all_uses_with(token.into(), new.result(0).unwrap().into());
            }
        } else if ops::is(&op, ops::WAIT_GROUP) {
            let pending = attributes::integer(&op, attributes::PENDING).unwrap_or(0);
            let arguments = [
                em.constant(op, i64_type, id),
                em.constant(op, i64_type, queue),
                em.constant(op, i64_type, pending),
            ];
            em.call(op, WAIT_GROUP_FN, &arguments, &[]);
        } else if ops::is(&op, "memref.dealloc") {
            let memref = op.operand(0).unwrap();
            // Unranked: rank -1 tells the runtime to read the rank from the
            // descriptor; an element of no whole number of bytes: 0.
            let (rank, bytes) = match MemRefType::try_from(memref.r#type()) {
                Ok(ty) => (ty.rank() as i64, element_bytes(ty.element()).unwrap_or(0)),
                // SAFETY: a memref type that is not ranked is unranked.
                Err(_) => (-1, unsafe {
                    element_bytes(Type::from_raw(mlirShapedTypeGetElementType(
                        memref.r#type().to_raw(),
                    )))
                    .unwrap_or(0)
                }),
            };
            let arguments = [
                em.constant(op, i64_type, id),
                em.constant(op, i64_type, bytes),
                em.constant(op, i64_type, rank),
                memref,
            ];
            let name = typed_name(
                &mut self.typed,
                DEALLOC_FN_PREFIX,
                memref.r#type().to_string(),
            );
            // The runtime frees the buffer (after holding it back for a
            // while: heap, step 2); the dealloc goes.
            call_c_interface(em, op, &name, &arguments);
        } else if ops::is(&op, ops::WAIT) {
            for token in op.operands() {
                let arguments = [em.constant(op, i64_type, id), token];
                em.call(op, WAIT_FN, &arguments, &[]);
            }
        }
        // `op`'s results have no uses left; no handle to it is used again.
        rewrite::erase_op(op);
    }
}

/// The copy call of `apipe.copy` (step 6), also issued for the copy of an
/// `apipe.bulk_copy`: `indices` holds the source indices, the destination
/// indices and optionally `src_elements`; `elements` is `op`'s attribute.
#[allow(clippy::too_many_arguments)]
fn copy_call<'c, 'a>(
    em: &mut Emitter<'c, 'a>,
    typed: &mut HashMap<(&'static str, String), String>,
    id: i64,
    op: OperationRef<'c, 'a>,
    src: Value<'c, 'a>,
    dst: Value<'c, 'a>,
    indices: &[Value<'c, 'a>],
    queue: i64,
) {
    let i64_type = em.i64_type();
    let src_type = MemRefType::try_from(src.r#type()).unwrap();
    let dst_type = MemRefType::try_from(dst.r#type()).unwrap();
    let (src_rank, dst_rank) = (src_type.rank(), dst_type.rank());
    let zero_index = em.constant(op, em.index_type(), 0);
    let pad = |values: &[Value<'c, 'a>]| {
        let mut v = values.to_vec();
        v.resize(MAX_RANK, zero_index);
        v
    };
    let src_indices = pad(&indices[..src_rank]);
    let dst_indices = pad(&indices[src_rank..src_rank + dst_rank]);
    let src_elements = match indices.get(src_rank + dst_rank) {
        Some(&count) => em.to_i64(op, count),
        None => em.constant(
            op,
            i64_type,
            attributes::integer(&op, attributes::ELEMENTS).unwrap_or(1),
        ),
    };
    let mut arguments = vec![
        em.constant(op, i64_type, id),
        em.constant(op, i64_type, queue),
        em.constant(op, i64_type, element_bytes(src_type.element()).unwrap()),
        em.constant(
            op,
            i64_type,
            attributes::integer(&op, attributes::ELEMENTS).unwrap_or(1),
        ),
        src_elements,
        em.constant(op, i64_type, src_rank as i64),
        src,
        em.constant(op, i64_type, dst_rank as i64),
        dst,
    ];
    arguments.extend(src_indices);
    arguments.extend(dst_indices);
    let key = format!("{}|{}", src.r#type(), dst.r#type());
    let name = typed_name(typed, COPY_FN_PREFIX, key);
    call_c_interface(em, op, &name, &arguments);
}

/// A call before `op` to `name`, declared with MLIR's C interface.
fn call_c_interface<'c, 'a>(
    em: &mut Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    name: &str,
    arguments: &[Value<'c, 'a>],
) {
    let inputs: Vec<Type> = arguments.iter().map(|a| a.r#type()).collect();
    em.declare(name, &inputs, &[], true);
    let call = em.call_operation(name, arguments, &[], op.location());
    em.before(op, call);
}

/// The name of the runtime function `prefix<k>` for arguments of the
/// types `key` (one declaration per distinct `key`).
fn typed_name(
    typed: &mut HashMap<(&'static str, String), String>,
    prefix: &'static str,
    key: String,
) -> String {
    let count = typed.keys().filter(|(p, _)| *p == prefix).count();
    typed
        .entry((prefix, key))
        .or_insert_with(|| format!("{prefix}{count}"))
        .clone()
}
