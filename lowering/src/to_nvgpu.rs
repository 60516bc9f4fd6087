//! `apipe-to-nvgpu`: counting-form apipe IR to upstream `nvgpu` async copies
//! (the export half of the nvgpu interop, and the `cp.async` mapping of the
//! GPU lowering).
//!
//! Upstream `convert-nvgpu-to-nvvm` then lowers the result to
//! `nvvm.cp.async.shared.global` / `nvvm.cp.async.commit.group` /
//! `nvvm.cp.async.wait.group`, which LLVM's NVPTX backend prints as the PTX
//! instructions of PTX ISA section 9.7.9.25.3 (`cp.async`,
//! `cp.async.commit_group`, `cp.async.wait_group N`).
//!
//! Algorithm:
//! 1. check every precondition before touching the IR, reporting every
//!    violation at its op:
//!    - counting form only: a `commit_group` with a token result,
//!      `apipe.wait` or `apipe.ready` is an error (the GPU pipeline runs
//!      `apipe-tokens-to-counting` first);
//!    - queue 0 only: the hardware has one `cp.async` queue per thread
//!      (the GPU pipeline runs `apipe-merge-queues` first); a copy in a
//!      function that commits no group (the mbarrier form, whose ops
//!      `apipe-mbarrier-to-nvvm` lowers) may be on any queue;
//!    - each `apipe.copy` follows the `cp.async` rules
//!      (`apipe_passes::cp_async`, PTX ISA 9.7.9.25.3.1): it moves 4, 8 or
//!      16 bytes (`cp-size`; 32 × `i4` is 16), reads global memory (no
//!      memory space, `1` or `#gpu.address_space<global>`), writes shared
//!      memory (`3` or `#gpu.address_space<workgroup>`), both memrefs have a
//!      unit innermost stride, and neither address is misaligned for the
//!      copy size where its offset is known at compile time;
//!    - every `wait_group` count fits an i32 (`numGroups`, and PTX
//!      `cp.async.wait_group`'s count);
//!    - every workgroup `memref.alloc` / `alloca` sits in the entry block of
//!      a `gpu.func` kernel with a static shape
//!      (`apipe_passes::workgroup_memory`);
//! 2. every workgroup alloc becomes a workgroup attribution of its kernel
//!    (upstream would lower it to a per-thread `malloc`, not shared
//!    memory); every workgroup buffer a copy writes (a `gpu.func` workgroup
//!    attribution or a `memref.global`, also through view-like ops) gets an
//!    alignment of at least the copy size ([`align_destinations`]); then
//!    each `apipe.copy` becomes `nvgpu.device_async_copy` with
//!    `dstElements = elements`, the optional `src_elements` operand as
//!    `srcElements` (PTX `src-size`, zero-fill), and `bypassL1` only for a
//!    16-byte copy with `bypass_l1` (`.cg`; every other copy is `.ca`, which
//!    is all PTX allows for 4 and 8 bytes);
//! 3. each `commit_group` becomes `nvgpu.device_async_create_group` over the
//!    tokens of the copies issued since the previous commit in the same
//!    block (copies nested in a region are still in the group: PTX commits
//!    every prior `cp.async` of the thread; nvgpu's token list is
//!    documentation only);
//! 4. each `wait_group {pending = N}` becomes
//!    `nvgpu.device_async_wait %t {numGroups = N}` where `%t` is the token of
//!    the group that the wait forces complete, the (N+1)-th newest one, when
//!    the shared group analysis names its commit in the wait's block or an
//!    enclosing `scf.if` / `scf.index_switch` / `scf.execute_region` block
//!    with no region that commits in between
//!    ([`group_distance::forced_commits`], one forward walk, computed
//!    before the commits are replaced); otherwise (e.g. the group was committed
//!    by an earlier loop iteration) `%t` is a placeholder
//!    `builtin.unrealized_conversion_cast` with no operand, which the
//!    lowering drops (`reconcile-unrealized-casts`) and
//!    `apipe-import-nvgpu` treats as "no group named".
//!
//! With the option `sync=auto|counting|mbarrier`, token form is accepted:
//! the conversions that `apipe-translate --sync=...` runs first (auto:
//! `apipe-select-sync`, then `apipe-tokens-to-counting` and
//! `apipe-merge-queues`; counting: the latter two; mbarrier:
//! `apipe-counting-to-tokens`, `apipe-tokens-to-mbarrier`) run before step 1
//! on a clone of the op, which replaces it only if every step succeeds;
//! mbarrier ops are left to `apipe-mbarrier-to-nvvm`.
//!
//! With the option `tokens=true` ([`to_nvgpu_with_tokens`]) step 4 names
//! every waited group with a real token instead: `apipe-counting-to-tokens`
//! first threads windows of tokens through scf, as upstream nvgpu pipelines
//! carry their tokens in iter_args; only "no group yet" (`apipe.ready`)
//! remains a placeholder.
//!
//! Postcondition: no apipe op is left; counts are unchanged (`numGroups = N`
//! has exactly the semantics of `wait_group {pending = N}` on queue 0).

use apipe_dialect::ops::Checked as _;
use apipe_dialect::{attributes, diagnostic, ops, Reported};
use apipe_passes::{
    counting_to_tokens,
    cp_async::{self, copy_bytes},
    group_distance, merge_queues, rewrite, select_sync, tokens_to_counting, tokens_to_mbarrier,
    workgroup_memory, OptionInfo, OptionKind, PassInfo, PassOptions, RunFn,
};
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::{
            ArrayAttribute, Attribute, DictionaryAttribute, IntegerAttribute, TypeAttribute,
        },
        operation::{OperationBuilder, OperationLike, OperationMutLike},
        r#type::{FunctionType, IntegerType, MemRefType},
        BlockLike, Identifier, OperationRef, Type, Value, ValueLike,
    },
    Context,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::HashMap;

/// The registry entry of `apipe-to-nvgpu`.
pub static INFO: PassInfo = PassInfo {
    argument: "apipe-to-nvgpu",
    name: "ApipeToNvgpu",
    summary: "Export counting-form apipe copies and groups as upstream nvgpu async copies (numGroups on every wait)",
    options: &[
        OptionInfo {
            name: "tokens",
            kind: OptionKind::Bool,
            description: "name every waited group with a real token carried through scf (apipe-counting-to-tokens) instead of placeholders (default false)",
        },
        OptionInfo {
            name: "sync",
            kind: OptionKind::Choice(&["auto", "counting", "mbarrier"]),
            description: "first convert token form to this form of synchronization, as apipe-translate --sync does: auto (counting form where every count is exact, else the mbarrier form: apipe-select-sync), counting (apipe-tokens-to-counting, apipe-merge-queues), mbarrier (apipe-counting-to-tokens, apipe-tokens-to-mbarrier); mbarrier ops are left to apipe-mbarrier-to-nvvm (default: none, the input must be in counting or mbarrier form)",
        },
    ],
    run: run as RunFn,
    dependent_dialects: || {
        vec![
            // SAFETY: the C API returns a static handle.
            unsafe { DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__nvgpu__()) },
            // What `sync=mbarrier|auto` builds (the rings, counts, guards).
            DialectHandle::arith(),
            DialectHandle::memref(),
            DialectHandle::scf(),
            DialectHandle::gpu(),
        ]
    },
    reads_only: false,
    follows_calls: false,
};

/// Creates the `apipe-to-nvgpu` pass.
pub fn create_to_nvgpu_pass() -> melior::pass::Pass {
    INFO.create("").expect("no options")
}

fn run(op: OperationRef, options: &PassOptions) -> Result<(), Reported> {
    let tokens = options.bool("tokens", false);
    if options.is_set("sync") {
        return with_sync(op, options.choice("sync", "auto"), tokens);
    }
    if tokens {
        to_nvgpu_with_tokens(op)
    } else {
        to_nvgpu(&op)
    }
}

/// The option `sync`: the conversions of the form `sync` (those of
/// `apipe-translate --sync`, see [`crate::gpu_pipeline`]), then the export,
/// all on a clone of `op`, whose regions and attributes replace `op`'s
/// only when every step succeeded, so that a failure leaves the IR
/// unchanged.
///
/// # Errors
/// [`Reported`] after the located errors of the step that refused.
fn with_sync(op: OperationRef, sync: &str, tokens: bool) -> Result<(), Reported> {
    // Owned here and destroyed on drop.
    let clone = rewrite::detached_clone(op);
    // SAFETY: the clone lives until the end of this function.
    let root = unsafe { OperationRef::from_raw(clone.to_raw()) };
    match sync {
        "counting" => {
            tokens_to_counting::tokens_to_counting(root, false)?;
            merge_queues::merge_queues(root)?;
        }
        "mbarrier" => {
            counting_to_tokens::counting_to_tokens(root)?;
            tokens_to_mbarrier::tokens_to_mbarrier(root, tokens_to_mbarrier::Options::default())?;
        }
        _ => {
            select_sync::select_sync(root, false)?;
            tokens_to_counting::tokens_to_counting(root, false)?;
            merge_queues::merge_queues(root)?;
        }
    }
    if tokens {
        to_nvgpu_with_tokens(root)?;
    } else {
        to_nvgpu(&root)?;
    }
    // Both ops have the same number of regions; each of `op`'s regions
    // takes the converted body (its old one is erased).
    for index in 0..op.region_count() {
        rewrite::take_body(&op.region(index).unwrap(), &clone.region(index).unwrap());
    }
    // The attributes too (a kernel's workgroup attributions).
    // SAFETY: `op` is live; its attributes change, not its place in the IR.
    let mut target = unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) };
    let old: Vec<String> = op
        .attributes()
        .filter_map(|(name, _)| name.as_string_ref().as_str().ok().map(str::to_owned))
        .collect();
    for name in old {
        let _ = target.remove_attribute(&name);
    }
    for (name, attribute) in clone.attributes() {
        if let Ok(name) = name.as_string_ref().as_str() {
            target.set_attribute(name, attribute);
        }
    }
    Ok(())
}

/// Op names of the upstream nvgpu async-copy ops.
pub mod nvgpu {
    /// `nvgpu.device_async_copy`.
    pub const COPY: &str = "nvgpu.device_async_copy";
    /// `nvgpu.device_async_create_group`.
    pub const CREATE_GROUP: &str = "nvgpu.device_async_create_group";
    /// `nvgpu.device_async_wait`.
    pub const WAIT: &str = "nvgpu.device_async_wait";
    /// The token type of all three.
    pub const TOKEN_TYPE: &str = "!nvgpu.device.async.token";
}

fn memref_type<'c>(value: Value<'c, '_>) -> MemRefType<'c> {
    MemRefType::try_from(value.r#type()).expect("verified apipe.copy operand")
}

/// Step 1: every precondition, each violation reported at its op.
fn check(nested: &[OperationRef]) -> bool {
    let mut ok = true;
    // Per function: whether it commits a group.
    let mut commits: HashMap<usize, bool> = HashMap::new();
    for op in nested {
        let mut fail = |message: String| {
            diagnostic::error(op.location(), &message);
            ok = false;
        };
        let token_form = (ops::is(op, ops::COMMIT_GROUP) && op.result_count() > 0)
            || ops::is(op, ops::WAIT)
            || ops::is(op, ops::READY);
        if token_form {
            fail(format!(
                "'{}' op is in token form; apipe-to-nvgpu needs the counting form (run apipe-tokens-to-counting first)",
                op.name().as_string_ref().as_str().unwrap_or("?")
            ));
            continue;
        }
        // A copy's queue matters only where groups are committed: in the
        // mbarrier form (no commit in the function) an arrival tracks every
        // earlier copy of the thread, on any queue.
        let queue_matters = !ops::is(op, ops::COPY)
            || group_distance::enclosing_function(*op).is_none_or(|f| {
                *commits
                    .entry(f.to_raw().ptr as usize)
                    .or_insert_with(|| !group_distance::commit_queues(&f).is_empty())
            });
        if ops::is_apipe(op) && queue_matters && attributes::queue(op) != 0 {
            fail(format!(
                "'{}' op is on queue {}; cp.async has one queue per thread (run apipe-merge-queues first)",
                op.name().as_string_ref().as_str().unwrap_or("?"),
                attributes::queue(op)
            ));
            continue;
        }
        if ops::is(op, ops::COPY) {
            for message in cp_async::check_copy(op, cp_async::Rules::All) {
                fail(message);
            }
        }
        // `numGroups` is an i32 (NVGPUOps.td), as is the count of PTX
        // `cp.async.wait_group` (`llvm.nvvm.cp.async.wait.group(i32)`): a
        // larger count was cut to its low 32 bits (2^32 + 1 became 1, 2^31
        // a negative count; trial 75).
        if ops::is(op, ops::WAIT_GROUP) {
            let pending = attributes::integer(op, attributes::PENDING).unwrap_or(0);
            if pending > i64::from(i32::MAX) {
                fail(format!(
                    "'apipe.wait_group' op pending = {pending} does not fit the 32-bit count of 'nvgpu.device_async_wait' (numGroups) and PTX cp.async.wait_group (at most {}); a count above the groups committed before it waits for nothing: remove the wait or lower the count",
                    i32::MAX
                ));
            }
        }
        if workgroup_memory::is_workgroup_alloc(op) {
            if let Err(message) = workgroup_memory::check_hoistable(op) {
                fail(message);
            }
        }
    }
    ok
}

/// Step 2, first: every workgroup `memref.alloc` / `alloca` (checked in step
/// 1) becomes a workgroup attribution of its kernel (`workgroup_memory`).
///
/// The allocs are collected before any is hoisted: hoisting one erases its
/// `memref.dealloc`s, which `nested` holds too.
fn hoist_workgroup_allocs(nested: &[OperationRef]) {
    let allocs: Vec<OperationRef> = nested
        .iter()
        .filter(|op| workgroup_memory::is_workgroup_alloc(op))
        .copied()
        .collect();
    for op in allocs {
        workgroup_memory::hoist(op);
    }
}

/// Applies the pass to the ops nested in `root`. On failure the IR is
/// unchanged and located errors have been emitted.
pub fn to_nvgpu<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) -> Result<(), Reported> {
    let nested = ops::nested_ops(root);
    // 1.
    if !check(&nested) {
        return Err(Reported);
    }
    // 2. (shared memory, alignment)
    hoist_workgroup_allocs(&nested);
    let nested = ops::nested_ops(root);
    align_destinations(root, &nested);
    let context_ref = root.context();
    // SAFETY: bound first (a temporary context ref would dangle).
    let context: &Context = unsafe { context_ref.to_ref() };
    let token_type = Type::parse(context, nvgpu::TOKEN_TYPE).expect("nvgpu is registered");
    // Collected now: steps 2-3 erase ops of `nested`.
    let waits: Vec<OperationRef> = nested
        .iter()
        .copied()
        .filter(|op| ops::is(op, ops::WAIT_GROUP))
        .collect();
    // The commit each wait names (step 4), from the shared group analysis,
    // before the commits are replaced.
    let forced: HashMap<usize, usize> = group_distance::forced_commits(root)
        .into_iter()
        .map(|(wait, commit)| (wait, op_key(&commit)))
        .collect();
    // 2.-3. Copies and commits, in program order within each block.
    let mut pending: HashMap<usize, Vec<Value>> = HashMap::new();
    let mut groups: HashMap<usize, Value> = HashMap::new();
    for op in &nested {
        if ops::is(op, ops::COPY) {
            insert_copy(context, op, token_type, &mut pending);
            rewrite::erase_op(*op);
        } else if ops::is(op, ops::COMMIT_GROUP) {
            let group = insert_create_group(context, op, token_type, &mut pending);
            groups.insert(op_key(op), group.result(0).unwrap().into());
            rewrite::erase_op(*op);
        }
    }
    // 4. Waits, now that every group has its token.
    for op in &waits {
        let pending = attributes::integer(op, attributes::PENDING).unwrap_or(0);
        let token = match forced.get(&op_key(op)).and_then(|c| groups.get(c)) {
            Some(token) => *token,
            None => placeholder(context, op, token_type),
        };
        let wait = nvgpu_wait(context, op.location(), token, pending);
        op.block().unwrap().insert_operation_before(*op, wait);
        rewrite::erase_op(*op);
    }
    Ok(())
}

/// The attribute that carries a wait's count through
/// `apipe-counting-to-tokens` (which keeps a `wait_group`'s other
/// attributes on the `apipe.wait` it builds).
const NUM_GROUPS: &str = "apipe.num_groups";

/// The `tokens=true` variant: every wait names the group it forces complete
/// with a real token, as upstream nvgpu code does.
///
/// 1. the preconditions of [`to_nvgpu`] and of `apipe-counting-to-tokens`;
/// 2. each `wait_group` keeps its count in an `apipe.num_groups` attribute,
///    then `apipe-counting-to-tokens` threads windows of tokens through
///    scf (iter_args, results) and turns each wait into `apipe.wait` on the
///    token of the group it completes (`apipe.ready` where none exists);
/// 3. buffer alignment and copies as in [`to_nvgpu`]; each token commit becomes
///    `device_async_create_group` with the same token uses; each wait
///    `device_async_wait %t {numGroups = N}`; each `apipe.ready` a
///    placeholder (upstream has no completed-group token);
///    a `wait_group` that counting-to-tokens kept (it may wait for a group
///    committed before the function was entered) becomes
///    `device_async_wait` on a placeholder with `numGroups = pending`;
/// 4. every remaining `!apipe.token` value (iter_args, results) becomes
///    `!nvgpu.device.async.token`.
///
/// On failure the IR is unchanged and located errors have been emitted.
///
/// # Errors
/// [`Reported`] after located errors.
pub fn to_nvgpu_with_tokens(root: OperationRef) -> Result<(), Reported> {
    // 1.
    if !check(&ops::nested_ops(&root)) || !counting_to_tokens::check_all(&root) {
        return Err(Reported);
    }
    hoist_workgroup_allocs(&ops::nested_ops(&root));
    align_destinations(&root, &ops::nested_ops(&root));
    let context_ref = root.context();
    // SAFETY: bound first (a temporary context ref would dangle).
    let context: &Context = unsafe { context_ref.to_ref() };
    let token_type = Type::parse(context, nvgpu::TOKEN_TYPE).expect("nvgpu is registered");
    let i64_type: Type = IntegerType::new(context, 64).into();
    // 2.
    for op in ops::nested_ops(&root) {
        if ops::is(&op, ops::WAIT_GROUP) {
            let pending = attributes::integer(&op, attributes::PENDING).unwrap_or(0);
            // SAFETY: a live op; setting an attribute does not move it.
            let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) };
            op.set_attribute(NUM_GROUPS, IntegerAttribute::new(i64_type, pending).into());
        }
    }
    counting_to_tokens::counting_to_tokens(root)?;
    // 3.
    let nested = ops::nested_ops(&root);
    let mut pending: HashMap<usize, Vec<Value>> = HashMap::new();
    let mut erase_list = Vec::new();
    for op in &nested {
        if ops::is(op, ops::COPY) {
            insert_copy(context, op, token_type, &mut pending);
            erase_list.push(*op);
        } else if ops::is(op, ops::COMMIT_GROUP) || ops::is(op, ops::READY) {
            let block = op.block().unwrap();
            let new = if ops::is(op, ops::COMMIT_GROUP) {
                insert_create_group(context, op, token_type, &mut pending)
            } else {
                let cast =
                    OperationBuilder::new("builtin.unrealized_conversion_cast", op.location())
                        .add_results(&[token_type])
                        .build()
                        .expect("valid cast");
                block.insert_operation_before(*op, cast)
            };
            if op.result_count() > 0 {
                rewrite::replace_all_uses_with(
                    op.result(0).unwrap().into(),
                    new.result(0).unwrap().into(),
                );
            }
            erase_list.push(*op);
        } else if ops::is(op, ops::WAIT) {
            let count = attributes::integer(op, NUM_GROUPS).unwrap_or(0);
            let wait = nvgpu_wait(context, op.location(), op.operand(0).unwrap(), count);
            op.block().unwrap().insert_operation_before(*op, wait);
            erase_list.push(*op);
        } else if ops::is(op, ops::WAIT_GROUP) {
            // Left in counting form by counting-to-tokens: it may wait for
            // a group the caller committed, which no token of this function
            // names.
            let count = attributes::integer(op, attributes::PENDING).unwrap_or(0);
            let token = placeholder(context, op, token_type);
            let wait = nvgpu_wait(context, op.location(), token, count);
            op.block().unwrap().insert_operation_before(*op, wait);
            erase_list.push(*op);
        }
    }
    for op in erase_list.into_iter().rev() {
        rewrite::erase_op(op);
    }
    // 4.
    for op in ops::self_and_nested_ops(&root) {
        for result in op.results() {
            if ops::is_token_type(result.r#type()) {
                result.set_type(token_type);
            }
        }
        for block in ops::blocks_of(&op) {
            for index in 0..block.argument_count() {
                let argument = block.argument(index).unwrap();
                if ops::is_token_type(argument.r#type()) {
                    argument.set_type(token_type);
                }
            }
        }
    }
    Ok(())
}

/// Inserts the nvgpu copy of the `apipe.copy` `op` before it and records
/// its token in `pending`, the tokens of its block's uncommitted copies
/// (keyed by block).
fn insert_copy<'c, 'a>(
    context: &'c Context,
    op: &OperationRef<'c, 'a>,
    token_type: Type<'c>,
    pending: &mut HashMap<usize, Vec<Value<'c, 'a>>>,
) {
    let block = op.block().unwrap();
    let new = block.insert_operation_before(*op, build_copy(context, op, token_type));
    pending
        .entry(block.to_raw().ptr as usize)
        .or_default()
        .push(new.result(0).unwrap().into());
}

/// Inserts before the `apipe.commit_group` `op` a
/// `device_async_create_group` of the tokens `pending` holds for its block
/// (a placeholder token for an empty group) and returns it.
fn insert_create_group<'c, 'a>(
    context: &'c Context,
    op: &OperationRef<'c, 'a>,
    token_type: Type<'c>,
    pending: &mut HashMap<usize, Vec<Value<'c, 'a>>>,
) -> OperationRef<'c, 'a> {
    let block = op.block().unwrap();
    let mut tokens = pending
        .remove(&(block.to_raw().ptr as usize))
        .unwrap_or_default();
    if tokens.is_empty() {
        tokens.push(placeholder(context, op, token_type));
    }
    let group = OperationBuilder::new(nvgpu::CREATE_GROUP, op.location())
        .add_operands(&tokens)
        .add_results(&[token_type])
        .build()
        .expect("valid nvgpu.device_async_create_group");
    block.insert_operation_before(*op, group)
}

/// `nvgpu.device_async_wait %token {numGroups = count}`.
fn nvgpu_wait<'c>(
    context: &'c Context,
    location: melior::ir::Location<'c>,
    token: Value<'c, '_>,
    count: i64,
) -> melior::ir::Operation<'c> {
    let i32_type: Type = IntegerType::new(context, 32).into();
    OperationBuilder::new(nvgpu::WAIT, location)
        .add_operands(&[token])
        .add_attributes(&[(
            Identifier::new(context, "numGroups"),
            IntegerAttribute::new(i32_type, count).into(),
        )])
        .build()
        .expect("valid nvgpu.device_async_wait")
}

/// Step 2 for one copy.
fn build_copy<'c>(
    context: &'c Context,
    op: &OperationRef<'c, '_>,
    token_type: Type<'c>,
) -> melior::ir::Operation<'c> {
    use melior::ir::r#type::ShapedTypeLike;
    let src = op.operand(0).unwrap();
    let dst = op.operand(1).unwrap();
    let src_rank = memref_type(src).rank();
    let dst_rank = memref_type(dst).rank();
    let indices: Vec<Value> = op.operands().skip(2).collect();
    let (src_indices, rest) = indices.split_at(src_rank);
    let (dst_indices, src_elements) = rest.split_at(dst_rank);
    let elements = attributes::integer(op, attributes::ELEMENTS).unwrap();
    let mut operands = vec![dst];
    operands.extend_from_slice(dst_indices);
    operands.push(src);
    operands.extend_from_slice(src_indices);
    operands.extend_from_slice(src_elements);
    let segments = Attribute::parse(
        context,
        &format!(
            "array<i32: 1, {dst_rank}, 1, {src_rank}, {}>",
            src_elements.len()
        ),
    )
    .unwrap();
    let mut attrs = vec![
        (
            Identifier::new(context, "dstElements"),
            IntegerAttribute::new(Type::index(context), elements).into(),
        ),
        (Identifier::new(context, "operandSegmentSizes"), segments),
    ];
    if op.has_attribute(attributes::BYPASS_L1) && copy_bytes(op) == Ok(16) {
        attrs.push((
            Identifier::new(context, "bypassL1"),
            Attribute::unit(context),
        ));
    }
    OperationBuilder::new(nvgpu::COPY, op.location())
        .add_operands(&operands)
        .add_attributes(&attrs)
        .add_results(&[token_type])
        .build()
        .expect("valid nvgpu.device_async_copy")
}

/// A token that names no group, inserted before `op` (see step 4).
fn placeholder<'c, 'a>(
    _context: &'c Context,
    op: &OperationRef<'c, 'a>,
    token_type: Type<'c>,
) -> Value<'c, 'a> {
    let cast = OperationBuilder::new("builtin.unrealized_conversion_cast", op.location())
        .add_results(&[token_type])
        .build()
        .expect("valid cast");
    op.block()
        .unwrap()
        .insert_operation_before(*op, cast)
        .result(0)
        .unwrap()
        .into()
}

fn op_key<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> usize {
    op.to_raw().ptr as usize
}

/// Step 2, first: raises the alignment of every workgroup buffer that a copy of
/// `bytes` bytes writes to at least `bytes` (PTX ISA 9.7.9.25.3.1: the
/// `cp.async` addresses must be aligned to `cp-size`; MLIR would otherwise
/// give a buffer its element alignment, e.g. `.shared .align 2` for f16).
/// Follows the destination through view-like ops to
/// - a workgroup attribution of a `gpu.func`: sets `llvm.align` in its entry
///   of `workgroup_attrib_attrs`, which `convert-gpu-to-nvvm` copies onto
///   the `llvm.mlir.global` it creates;
/// - a `memref.get_global`: sets `alignment` on the `memref.global` (inside
///   `root` only: a pass nested deeper must not touch its parents).
///
/// Other destinations (kernel arguments, dynamic shared memory) are left
/// alone.
pub(crate) fn align_destinations<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
    nested: &[OperationRef<'c, 'a>],
) {
    let within: FxHashSet<usize> = nested
        .iter()
        .map(|n| n.to_raw().ptr as usize)
        .chain([root.to_raw().ptr as usize])
        .collect();
    let inside = |op: &OperationRef| within.contains(&(op.to_raw().ptr as usize));
    // Per kernel (in order of first need): the alignment each attribution
    // needs, the largest of its copies'; set once per kernel (one new
    // attribute array per kernel, not one per copy).
    let mut attributions: Vec<(OperationRef<'c, 'a>, FxHashMap<usize, i64>)> = Vec::new();
    let mut kernel_at: FxHashMap<usize, usize> = FxHashMap::default();
    for op in nested
        .iter()
        .filter(|op| ops::is(*op, ops::COPY) || ops::is(*op, ops::BULK_COPY))
    {
        // A bulk copy needs 16-byte aligned addresses (PTX ISA 9.7.9.25.4.1).
        let align = match copy_bytes(op) {
            _ if ops::is(op, ops::BULK_COPY) => 16,
            Ok(bytes @ (4 | 8 | 16)) => bytes as i64,
            _ => continue,
        };
        let mut value = op.operand(1).unwrap();
        loop {
            let raw = value.to_raw();
            // SAFETY: `value` is live; each accessor is called on the kind of
            // value it is defined for.
            unsafe {
                if mlir_sys::mlirValueIsABlockArgument(raw) {
                    let block = mlir_sys::mlirBlockArgumentGetOwner(raw);
                    let number = mlir_sys::mlirBlockArgumentGetArgNumber(raw) as usize;
                    let parent = mlir_sys::mlirBlockGetParentOperation(block);
                    if parent.ptr.is_null() {
                        break;
                    }
                    let func = OperationRef::from_raw(parent);
                    if ops::is(&func, "gpu.func") && inside(&func) {
                        let entry = mlir_sys::mlirRegionGetFirstBlock(
                            mlir_sys::mlirOperationGetRegion(parent, 0),
                        );
                        if entry.ptr == block.ptr {
                            let at = *kernel_at.entry(parent.ptr as usize).or_insert_with(|| {
                                attributions.push((func, FxHashMap::default()));
                                attributions.len() - 1
                            });
                            let most = attributions[at].1.entry(number).or_insert(align);
                            *most = (*most).max(align);
                        }
                    }
                    break;
                }
                let owner = OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(raw));
                if ops::is(&owner, "memref.get_global") {
                    align_global(&owner, align, &inside);
                    break;
                }
                if VIEW_LIKE.iter().any(|name| ops::is(&owner, name)) {
                    value = owner.operand(0).unwrap();
                    continue;
                }
                break;
            }
        }
    }
    for (func, wanted) in &attributions {
        align_attributions(func, wanted);
    }
}

/// Ops whose result views the memory of their first operand.
const VIEW_LIKE: &[&str] = &[
    "memref.subview",
    "memref.cast",
    "memref.reinterpret_cast",
    "memref.collapse_shape",
    "memref.expand_shape",
    "memref.view",
    "memref.memory_space_cast",
];

/// Sets `llvm.align` to at least `align` for each `number -> align`: block
/// argument `number` of `func`'s entry block, if it is a workgroup
/// attribution.
fn align_attributions(func: &OperationRef, wanted: &FxHashMap<usize, i64>) {
    let Some(function_type) = func
        .attribute("function_type")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
        .and_then(|a| FunctionType::try_from(a.value()).ok())
    else {
        return;
    };
    let inputs = function_type.input_count();
    let count = attributes::integer(func, "workgroup_attributions").unwrap_or(0) as usize;
    let context_ref = func.context();
    // SAFETY: `context_ref` (and the context it names) outlives every use
    // of `context` below.
    let context = unsafe { context_ref.to_ref() };
    let empty: Attribute = DictionaryAttribute::new(context, &[]).into();
    let existing = func
        .attribute("workgroup_attrib_attrs")
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok())
        .filter(|a| a.len() == count);
    let mut dicts: Vec<Attribute> = (0..count)
        .map(|i| existing.and_then(|a| a.element(i).ok()).unwrap_or(empty))
        .collect();
    let mut changed = false;
    for (&number, &align) in wanted {
        if number < inputs || number >= inputs + count {
            continue;
        }
        let index = number - inputs;
        let Ok(dict) = DictionaryAttribute::try_from(dicts[index]) else {
            continue;
        };
        if dict
            .element_by_name(LLVM_ALIGN)
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .is_some_and(|a| a.value() >= align)
        {
            continue;
        }
        let mut entries: Vec<(Identifier, Attribute)> = (0..dict.len())
            .filter_map(|i| dict.element(i).ok())
            .filter(|(name, _)| name.as_string_ref().as_str() != Ok(LLVM_ALIGN))
            .collect();
        entries.push((
            Identifier::new(context, LLVM_ALIGN),
            IntegerAttribute::new(IntegerType::new(context, 64).into(), align).into(),
        ));
        dicts[index] = DictionaryAttribute::new(context, &entries).into();
        changed = true;
    }
    if !changed {
        return;
    }
    // SAFETY: `func` is live; an attribute changes, not its place in the IR.
    let mut func = unsafe { melior::ir::operation::OperationRefMut::from_raw(func.to_raw()) };
    func.set_attribute(
        "workgroup_attrib_attrs",
        ArrayAttribute::new(context, &dicts).into(),
    );
}

/// The attribution attribute that `convert-gpu-to-nvvm` reads as the
/// alignment of a workgroup buffer.
const LLVM_ALIGN: &str = "llvm.align";

/// Sets `alignment` to at least `align` on the `memref.global` that
/// `get_global` names, if it is in the nearest enclosing symbol table and
/// `inside` the pass's root.
fn align_global(get_global: &OperationRef, align: i64, inside: &dyn Fn(&OperationRef) -> bool) {
    use melior::ir::RegionLike;
    let Ok(symbol) = get_global.attribute("name") else {
        return;
    };
    let name = symbol.to_string();
    let name = name.trim_start_matches('@').trim_matches('"').to_owned();
    let mut parent = get_global.parent_operation();
    while let Some(table) = parent {
        if ops::is(&table, "gpu.module") || ops::is(&table, "builtin.module") {
            let mut next = table
                .region_at(0)
                .and_then(|r| r.first_block())
                .and_then(|b| b.first_operation());
            while let Some(global) = next {
                next = global.next_in_block();
                let is_it = ops::is(&global, "memref.global")
                    && global
                        .attribute("sym_name")
                        .ok()
                        .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
                        .is_some_and(|s| s.value() == name);
                if !is_it {
                    continue;
                }
                if inside(&global) && attributes::integer(&global, "alignment").unwrap_or(0) < align
                {
                    // SAFETY: a live op; setting an attribute does not move it.
                    let mut global = unsafe {
                        melior::ir::operation::OperationRefMut::from_raw(global.to_raw())
                    };
                    let context = global.context();
                    // SAFETY: bound first (a temporary context ref would dangle).
                    let context: &Context = unsafe { context.to_ref() };
                    global.set_attribute(
                        "alignment",
                        IntegerAttribute::new(IntegerType::new(context, 64).into(), align).into(),
                    );
                }
                return;
            }
            return;
        }
        parent = table.parent_operation();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::Module;

    /// A copy the export refuses (global -> global), in token form.
    const REFUSED: &str = r#"
func.func @host(%A: memref<64xf32>, %B: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %B[%c0], 4 : memref<64xf32> to memref<64xf32>
  %t = apipe.commit_group
  apipe.wait %t
  return
}
"#;

    const KERNEL: &str = r#"
gpu.module @kernels {
  gpu.func @k(%A: memref<1024xf32>) workgroup(%buf : memref<256xf32, 3>) kernel {
    %tid = gpu.thread_id x
    apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
    %t = apipe.commit_group
    apipe.wait %t
    gpu.return
  }
}
"#;

    #[test]
    fn with_sync_failure_leaves_ir() {
        let context = apipe_dialect::create_context().unwrap();
        let module = Module::parse(&context, REFUSED).unwrap();
        let before = module.as_operation().to_string();
        assert!(with_sync(module.as_operation(), "counting", false).is_err());
        assert_eq!(module.as_operation().to_string(), before);
    }

    #[test]
    fn with_sync_converts_then_exports() {
        let context = apipe_dialect::create_context().unwrap();
        for (sync, expect) in [
            ("counting", "numGroups = 0"),
            ("auto", "numGroups = 0"),
            ("mbarrier", "apipe.mbarrier_wait"),
        ] {
            let module = Module::parse(&context, KERNEL).unwrap();
            with_sync(module.as_operation(), sync, false).unwrap();
            let text = module.as_operation().to_string();
            assert!(text.contains("nvgpu.device_async_copy"), "{sync}: {text}");
            assert!(text.contains(expect), "{sync}: {text}");
            assert!(!text.contains("apipe.wait "), "{sync}: {text}");
            assert!(module.as_operation().verify(), "{sync}: {text}");
        }
    }
}
