//! `apipe-to-emulation`: apipe ops become calls into the CPU emulation
//! runtime ([`crate::emulation_runtime`]), so that the upstream LLVM lowering
//! and the MLIR ExecutionEngine can run the program (`apipe-run`, DESIGN.md
//! section 6).
//!
//! Runs on a `builtin.module` (it declares the runtime functions in it).
//!
//! Algorithm:
//! 1. check every precondition before touching the IR: the root is a
//!    `builtin.module`; no apipe op sits in a nested symbol table (a
//!    `gpu.module`: kernels are not emulated); every copy has memrefs of rank
//!    1 to [`MAX_RANK`] whose element type has a whole number of bytes; no
//!    symbol of the root uses a runtime function's name;
//! 2. give each apipe op and each `memref.dealloc` an id, in pre-order; `locations[id]` is its
//!    `file:line:col`, which the runtime prints in its messages;
//! 3. tokens become group ids: every `!apipe.token` value (op results and
//!    block arguments, e.g. `scf.for` iter_args) is retyped to `i64` in
//!    place; every memory space becomes host memory: each memref type loses
//!    its memory space (the LLVM lowering of `memref.dealloc` and calls
//!    cannot mix address spaces on the host); `func.func` signatures and
//!    `memref.global` types follow;
//! 4. declare the runtime functions (`func.func private`); a copy passes its
//!    memrefs as unranked memrefs (`memref.cast`, as the MLIR runner
//!    utilities take them), one declaration per pair of memref types, all
//!    bound to one runtime function; each cast is placed right after the
//!    memref's definition, so a copy inside a loop does not re-materialize
//!    its descriptor (stack space) at each iteration;
//! 5. replace each op by a `func.call`: `copy(id, queue, element_bytes,
//!    elements, src_elements or -1, src, dst, src indices, dst indices)`
//!    with indices padded to [`MAX_RANK`] by zeros; `commit_group(id, queue)
//!    -> token`; `wait_group(id, queue, pending)`; one `wait(id, token)` per
//!    token of `apipe.wait`; `ready(id, queue) -> token`; before each
//!    `memref.dealloc` (which stays), `dealloc(id, element_bytes, memref)`,
//!    which checks that no pending copy uses the freed buffer.
//!
//! 6. erase `gpu.barrier` in host functions: one thread is emulated, so a
//!    barrier has nothing to wait for (programs written for the GPU, such
//!    as pipeliner output with `barriers=true`, then run as they are).
//!
//! Postcondition: no apipe op or token value is left; the pipelining
//! annotations stay (they are discardable and lower away).
//!
//! Semantics kept: DESIGN.md section 3 (per-queue FIFO of groups, PTX ISA
//! 9.7.9.25.3 `cp.async` / `cp.async.commit_group` / `cp.async.wait_group`);
//! the runtime chooses when each copy lands.

use crate::emulation_runtime::{
    COMMIT_GROUP_FN, COPY_FN_PREFIX, DEALLOC_FN_PREFIX, MAX_RANK, READY_FN, WAIT_FN, WAIT_GROUP_FN,
};
use apipe_dialect::{attributes, diagnostic, location::file_line_col, ops, Reported};
use apipe_passes::{
    options::PassOptions,
    pass::{PassId, RunFn},
    registry::PassInfo,
};
use melior::{
    dialect::{arith, func, DialectHandle},
    ir::{attribute::AttributeLike, operation::OperationMutLike},
    ir::{
        attribute::{FlatSymbolRefAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::{FunctionType, IntegerType, MemRefType, ShapedTypeLike},
        Attribute, BlockLike, Identifier, Location, OperationRef, Region, Type, TypeLike, Value,
        ValueLike,
    },
    pass::Pass,
    Context,
};
use mlir_sys::{
    mlirFloatTypeGetWidth, mlirIntegerTypeGetWidth, mlirMemRefTypeGet, mlirOperationDestroy,
    mlirShapedTypeGetDimSize, mlirShapedTypeGetElementType, mlirTypeIsAFloat,
    mlirTypeIsAUnrankedMemRef, mlirUnrankedMemRefTypeGet, mlirUnrankedMemrefGetMemorySpace,
    mlirValueReplaceAllUsesOfWith, MlirAttribute,
};
use std::collections::{HashMap, HashSet};

static ID: PassId = PassId::new();

/// The registry entry of `apipe-to-emulation`.
pub static INFO: PassInfo = PassInfo {
    argument: "apipe-to-emulation",
    name: "ApipeToEmulation",
    summary:
        "Replace apipe ops by calls into the CPU emulation runtime of apipe-run (on builtin.module)",
    options: &[],
    run: run as RunFn,
    id: &ID,
    dependent_dialects: || {
        vec![
            DialectHandle::arith(),
            DialectHandle::func(),
            DialectHandle::memref(),
        ]
    },
};

/// Creates the `apipe-to-emulation` pass.
pub fn create_to_emulation_pass() -> Pass {
    INFO.create("").expect("no options")
}

fn run(op: OperationRef, _options: &PassOptions) -> Result<(), Reported> {
    to_emulation(&op).map(|_| ())
}

/// What the driver needs to run a lowered module.
#[derive(Clone, Debug, Default)]
pub struct Emulation {
    /// `locations[id]`: the `file:line:col` of the apipe op with that id.
    pub locations: Vec<String>,
    /// The declared copy functions, to bind to
    /// [`copy_symbol`](crate::emulation_runtime::copy_symbol).
    pub copy_functions: Vec<String>,
    /// The declared dealloc checks, to bind to
    /// [`dealloc_symbol`](crate::emulation_runtime::dealloc_symbol).
    pub dealloc_functions: Vec<String>,
}

/// Applies the pass to `root` (a `builtin.module`). On failure the IR is
/// unchanged and located errors have been emitted.
pub fn to_emulation<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) -> Result<Emulation, Reported> {
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
    let apipe_ops: Vec<OperationRef> = nested
        .iter()
        .copied()
        .filter(|op| ops::is_apipe(op) || ops::is(op, "memref.dealloc"))
        .collect();
    let mut ok = true;
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
        .filter(|op| ops::is(op, "gpu.barrier") && nested_module(root, op).is_none())
        .collect();

    // 2. Ids and locations.
    let locations = apipe_ops
        .iter()
        .map(|op| {
            file_line_col(op.location())
                .map_or_else(|| "<unknown>:0:0".to_owned(), |p| p.to_string())
        })
        .collect();

    let context_ref = root.context();
    // SAFETY: bound first (TOOLCHAIN.md: never `to_ref` a temporary).
    let context: &Context = unsafe { context_ref.to_ref() };
    let i64_type: Type = IntegerType::new(context, 64).into();

    // 3. Tokens become i64; memory spaces become host memory.
    retype_values(root, context, i64_type);

    // 4.-5.
    let mut lowering = Lowering {
        context,
        i64_type,
        body,
        declared: HashSet::new(),
        typed: HashMap::new(),
        casts: HashMap::new(),
    };
    for (id, op) in apipe_ops.into_iter().enumerate() {
        lowering.lower(id as i64, op);
    }
    // 6. One thread is emulated: a barrier has nobody to wait for.
    for op in barriers {
        // SAFETY: `gpu.barrier` has no results; no handle to it is used again.
        unsafe { mlirOperationDestroy(op.to_raw()) }
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
    Ok(Emulation {
        locations,
        copy_functions: typed(COPY_FN_PREFIX),
        dealloc_functions: typed(DEALLOC_FN_PREFIX),
    })
}

/// Step 1 for one apipe op.
fn check_op<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>, op: &OperationRef<'c, 'a>) -> bool {
    if let Some(p) = nested_module(root, op) {
        diagnostic::error(
            op.location(),
            &format!(
                "'{}' inside a nested '{}': apipe-run emulates host functions (func.func), not gpu kernels",
                op.name().as_string_ref().as_str().unwrap_or("?"),
                p.name().as_string_ref().as_str().unwrap_or("?")
            ),
        );
        return false;
    }
    if !ops::is(op, ops::COPY) {
        return true;
    }
    let mut ok = true;
    for (i, side) in [(0, "source"), (1, "destination")] {
        let Some(ty) = op
            .operand(i)
            .ok()
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

/// The `gpu.module` or `builtin.module` between `root` and `op`, if any.
fn nested_module<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
    op: &OperationRef<'c, 'a>,
) -> Option<OperationRef<'c, 'a>> {
    ops::ancestors(op)
        .take_while(|p| p.to_raw().ptr != root.to_raw().ptr)
        .find(|p| ops::is(p, "gpu.module") || ops::is(p, "builtin.module"))
}

/// The size of an element of type `ty` in memory, if it is a whole number
/// of bytes (the LLVM lowering's layout: `index` is 64 bits).
fn element_bytes(ty: Type) -> Option<i64> {
    // SAFETY: each accessor is called on the type kind it is defined for.
    let bits = unsafe {
        if ty.is_index() {
            64
        } else if ty.is_integer() {
            mlirIntegerTypeGetWidth(ty.to_raw())
        } else if mlirTypeIsAFloat(ty.to_raw()) {
            mlirFloatTypeGetWidth(ty.to_raw())
        } else {
            return None;
        }
    };
    (bits > 0 && bits % 8 == 0).then_some(bits as i64 / 8)
}

/// Step 3: every token value becomes an `i64`, and every memref type loses
/// its memory space (host memory), in place.
fn retype_values<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
    context: &'c Context,
    i64_type: Type<'c>,
) {
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
        if ops::is(&op, "func.func") {
            retype_signature(op, context, i64_type);
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
fn retype_signature<'c>(op: OperationRef<'c, '_>, context: &'c Context, i64_type: Type<'c>) {
    let Some(ty) = op
        .attribute("function_type")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
        .and_then(|a| FunctionType::try_from(a.value()).ok())
    else {
        return;
    };
    let map = |t: Type<'c>| host_type(t, i64_type).unwrap_or(t);
    let inputs: Vec<Type> = (0..ty.input_count())
        .map(|i| map(ty.input(i).unwrap()))
        .collect();
    let outputs: Vec<Type> = (0..ty.result_count())
        .map(|i| map(ty.result(i).unwrap()))
        .collect();
    let new = FunctionType::new(context, &inputs, &outputs);
    if Type::from(new) != Type::from(ty) {
        // SAFETY: a handle to a live op; setting an attribute does not move it.
        let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) };
        op.set_attribute("function_type", TypeAttribute::new(new.into()).into());
    }
}

/// Steps 4-5.
struct Lowering<'c, 'a> {
    context: &'c Context,
    i64_type: Type<'c>,
    body: melior::ir::BlockRef<'c, 'a>,
    /// Declared runtime functions by name.
    declared: HashSet<String>,
    /// The name of the function declared for (prefix, argument types).
    typed: HashMap<(&'static str, String), String>,
    /// The unranked cast of each memref value (by raw pointer).
    casts: HashMap<*const std::ffi::c_void, Value<'c, 'a>>,
}

impl<'c, 'a> Lowering<'c, 'a> {
    fn lower(&mut self, id: i64, op: OperationRef<'c, 'a>) {
        let location = op.location();
        let block = op.block().unwrap();
        let queue = attributes::queue(&op);
        let i64_type = self.i64_type;
        let constant = |value: i64| -> Value<'c, 'a> {
            let index_like = i64_type;
            block
                .insert_operation_before(
                    op,
                    arith::constant(
                        self.context,
                        IntegerAttribute::new(index_like, value).into(),
                        location,
                    ),
                )
                .result(0)
                .unwrap()
                .into()
        };
        let call =
            |this: &mut Self, name: &str, arguments: Vec<Value<'c, 'a>>, results: &[Type<'c>]| {
                this.declare(name, &arguments, results, location);
                block.insert_operation_before(
                    op,
                    func::call(
                        this.context,
                        FlatSymbolRefAttribute::new(this.context, name),
                        &arguments,
                        results,
                        location,
                    ),
                )
            };
        if ops::is(&op, ops::COPY) {
            let src = op.operand(0).unwrap();
            let dst = op.operand(1).unwrap();
            let src_type = MemRefType::try_from(src.r#type()).unwrap();
            let dst_type = MemRefType::try_from(dst.r#type()).unwrap();
            let (src_rank, dst_rank) = (src_type.rank(), dst_type.rank());
            let indices: Vec<Value> = op.operands().skip(2).collect();
            let index = Type::index(self.context);
            let zero_index: Value = block
                .insert_operation_before(
                    op,
                    arith::constant(
                        self.context,
                        IntegerAttribute::new(index, 0).into(),
                        location,
                    ),
                )
                .result(0)
                .unwrap()
                .into();
            let pad = |values: &[Value<'c, 'a>]| {
                let mut v = values.to_vec();
                v.resize(MAX_RANK, zero_index);
                v
            };
            let src_indices = pad(&indices[..src_rank]);
            let dst_indices = pad(&indices[src_rank..src_rank + dst_rank]);
            let src_elements = match indices.get(src_rank + dst_rank) {
                Some(&count) => block
                    .insert_operation_before(op, arith::index_cast(count, i64_type, location))
                    .result(0)
                    .unwrap()
                    .into(),
                None => constant(-1),
            };
            let src_cast = self.unranked(src);
            let dst_cast = self.unranked(dst);
            let mut arguments = vec![
                constant(id),
                constant(queue),
                constant(element_bytes(src_type.element()).unwrap()),
                constant(attributes::integer(&op, attributes::ELEMENTS).unwrap_or(1)),
                src_elements,
                src_cast,
                dst_cast,
            ];
            arguments.extend(src_indices);
            arguments.extend(dst_indices);
            let key = format!("{}|{}", src_cast.r#type(), dst_cast.r#type());
            let name = self.typed_name(COPY_FN_PREFIX, key);
            call(self, &name, arguments, &[]);
        } else if ops::is(&op, ops::COMMIT_GROUP) || ops::is(&op, ops::READY) {
            let name = if ops::is(&op, ops::READY) {
                READY_FN
            } else {
                COMMIT_GROUP_FN
            };
            let arguments = vec![constant(id), constant(queue)];
            let new = call(self, name, arguments, &[i64_type]);
            if let Ok(token) = op.result(0) {
                // SAFETY: both values are live and have the type i64.
                unsafe {
                    mlirValueReplaceAllUsesOfWith(token.to_raw(), new.result(0).unwrap().to_raw())
                };
            }
        } else if ops::is(&op, ops::WAIT_GROUP) {
            let pending = attributes::integer(&op, attributes::PENDING).unwrap_or(0);
            let arguments = vec![constant(id), constant(queue), constant(pending)];
            call(self, WAIT_GROUP_FN, arguments, &[]);
        } else if ops::is(&op, "memref.dealloc") {
            let memref = op.operand(0).unwrap();
            let Ok(ty) = MemRefType::try_from(memref.r#type()) else {
                return; // an unranked dealloc: no bounds to check
            };
            let Some(bytes) = element_bytes(ty.element()) else {
                return;
            };
            let cast = self.unranked(memref);
            let name = self.typed_name(DEALLOC_FN_PREFIX, cast.r#type().to_string());
            let arguments = vec![constant(id), constant(bytes), cast];
            call(self, &name, arguments, &[]);
            return; // the dealloc stays
        } else if ops::is(&op, ops::WAIT) {
            for token in op.operands() {
                let arguments = vec![constant(id), token];
                call(self, WAIT_FN, arguments, &[]);
            }
        }
        // SAFETY: `op`'s results have no uses left; no handle to it is used again.
        unsafe { mlirOperationDestroy(op.to_raw()) }
    }

    /// The name of the runtime function `prefix<k>` for arguments of the
    /// types `key` (one declaration per distinct `key`).
    fn typed_name(&mut self, prefix: &'static str, key: String) -> String {
        let count = self.typed.keys().filter(|(p, _)| *p == prefix).count();
        self.typed
            .entry((prefix, key))
            .or_insert_with(|| format!("{prefix}{count}"))
            .clone()
    }

    /// Declares `name` (once) as a private function taking the types of
    /// `arguments` and returning `results`.
    fn declare(
        &mut self,
        name: &str,
        arguments: &[Value<'c, 'a>],
        results: &[Type<'c>],
        location: Location<'c>,
    ) {
        if !self.declared.insert(name.to_owned()) {
            return;
        }
        let inputs: Vec<Type> = arguments.iter().map(|a| a.r#type()).collect();
        let function_type = FunctionType::new(self.context, &inputs, results);
        let declaration = func::func(
            self.context,
            StringAttribute::new(self.context, name),
            TypeAttribute::new(function_type.into()),
            Region::new(),
            &[(
                Identifier::new(self.context, "sym_visibility"),
                StringAttribute::new(self.context, "private").into(),
            )],
            location,
        );
        self.body.insert_operation(0, declaration);
    }

    /// `value` cast to an unranked memref, placed right after its definition
    /// (once per value).
    fn unranked(&mut self, value: Value<'c, 'a>) -> Value<'c, 'a> {
        if let Some(&cast) = self.casts.get(&value.to_raw().ptr) {
            return cast;
        }
        let ty = MemRefType::try_from(value.r#type()).unwrap();
        let memory_space = ty.memory_space().map_or(
            MlirAttribute {
                ptr: std::ptr::null(),
            },
            |a: Attribute| a.to_raw(),
        );
        // SAFETY: the element type and memory space are live in the context.
        let unranked = unsafe {
            Type::from_raw(mlirUnrankedMemRefTypeGet(
                ty.element().to_raw(),
                memory_space,
            ))
        };
        let location = value.location();
        let operation = OperationBuilder::new("memref.cast", location)
            .add_operands(&[value])
            .add_results(&[unranked])
            .build()
            .expect("valid memref.cast");
        let cast = if let Ok(result) = melior::ir::operation::OperationResult::try_from(value) {
            let owner = result.owner();
            owner
                .block()
                .unwrap()
                .insert_operation_after(owner, operation)
        } else {
            let argument = melior::ir::block::BlockArgument::try_from(value).unwrap();
            // SAFETY: the owner block lives as long as the IR ('a).
            let owner: melior::ir::BlockRef<'c, 'a> =
                unsafe { melior::ir::BlockRef::from_raw(argument.owner().to_raw()) };
            owner.insert_operation(0, operation)
        };
        let cast: Value<'c, 'a> = cast.result(0).unwrap().into();
        self.casts.insert(value.to_raw().ptr, cast);
        cast
    }
}
