//! Workgroup (shared) memory that a GPU kernel allocates with
//! `memref.alloc` / `memref.alloca`.
//!
//! Such an allocation means one buffer per block, shared by its threads (as
//! `apipe-run` emulates it). Upstream `convert-gpu-to-nvvm` has no lowering
//! for that: it lowers the alloc to a per-thread `malloc` and casts the heap
//! pointer to the shared state space, which ptxas accepts and which faults
//! or reads garbage at run time. A kernel's shared memory is a workgroup
//! attribution (`gpu.func @k(...) workgroup(%b : memref<..., 3>) kernel`),
//! which `convert-gpu-to-nvvm` turns into a `.shared` global. So:
//!
//! 1. [`check_hoistable`]: the alloc is in the entry block of a
//!    `gpu.func ... kernel` (it runs once per thread, at the start, so one
//!    buffer per block for the whole kernel is what it means) and has a
//!    static shape; anything else is a located error;
//! 2. [`hoist`]: a new workgroup attribution of the same type (its
//!    `alignment` becomes the attribution's `llvm.align`) replaces every use
//!    of the alloc; its `memref.dealloc`s and the alloc are erased.
//!
//! `apipe-to-nvgpu` (and so `apipe-translate`) hoists every workgroup alloc
//! it finds; the pipeliner multi-buffers such a buffer straight into an
//! attribution of the expanded type ([`add_workgroup_attribution`]).

use crate::cp_async::{memory_space, MemorySpace};
use apipe_dialect::ops::Checked as _;
use apipe_dialect::{attributes, ops};
use melior::ir::{
    operation::OperationLike, r#type::MemRefType, AttributeLike, BlockLike, Location, OperationRef,
    RegionLike, Type, TypeLike, Value, ValueLike,
};

/// True if `op` is a `memref.alloc` / `memref.alloca` of workgroup memory
/// in GPU code (inside a `gpu.module` or a `gpu.launch` body; on the host a
/// memory space means nothing to the hardware).
pub fn is_workgroup_alloc(op: &OperationRef) -> bool {
    (ops::is(op, "memref.alloc") || ops::is(op, "memref.alloca"))
        && ops::ancestors(op).any(|p| ops::is(&p, "gpu.module") || ops::is(&p, "gpu.launch"))
        && op.result_count() == 1
        && MemRefType::try_from(op.result(0).unwrap().r#type())
            .is_ok_and(|ty| memory_space(ty) == MemorySpace::Shared)
}

/// The `gpu.func` kernel whose entry block holds `op`, if any.
fn kernel_of<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let parent = op.parent_operation()?;
    let entry = parent.region_at(0)?.first_block()?;
    (ops::is(&parent, "gpu.func")
        && parent.has_attribute("gpu.kernel")
        && op.block() == Some(entry))
    .then_some(parent)
}

/// Step 1: `Ok` if the workgroup alloc `op` can become a workgroup
/// attribution, else the message of the located error to emit at it.
pub fn check_hoistable(op: &OperationRef) -> Result<(), String> {
    let name = ops::name(op);
    let ty = op.result(0).map_err(|e| e.to_string())?.r#type();
    let fix = format!(
        "declare it as a workgroup attribution of the kernel (gpu.func @k(...) workgroup(%buf : {ty}) kernel)"
    );
    if kernel_of(op).is_none() {
        return Err(format!(
            "'{name}' op allocates workgroup memory outside the entry block of a gpu.func kernel: \
             shared memory is one buffer per block, allocated when the kernel starts; {fix}"
        ));
    }
    if op.operand_count() != 0 {
        return Err(format!(
            "'{name}' op allocates workgroup memory of a dynamic size: shared memory is sized \
             when the kernel is compiled; {fix}"
        ));
    }
    Ok(())
}

/// Adds a workgroup attribution of type `ty` to the `gpu.func` `func`
/// (after its existing ones), with `llvm.align = align` when given, and
/// returns it.
pub fn add_workgroup_attribution<'c, 'a>(
    func: &OperationRef<'c, 'a>,
    ty: Type<'c>,
    align: Option<i64>,
    location: Location<'c>,
) -> Value<'c, 'a> {
    let count = attributes::integer(func, "workgroup_attributions").unwrap_or(0);
    let inputs = func
        .attribute("function_type")
        .ok()
        .and_then(|a| melior::ir::attribute::TypeAttribute::try_from(a).ok())
        .and_then(|t| melior::ir::r#type::FunctionType::try_from(t.value()).ok())
        .map_or(0, |t| t.input_count());
    let entry = func.region(0).unwrap().first_block().unwrap();
    // SAFETY: the entry block, type and location are live; the position is
    // within the block's arguments (inputs, then the attributions).
    let argument = unsafe {
        mlir_sys::mlirBlockInsertArgument(
            entry.to_raw(),
            inputs as isize + count as isize,
            ty.to_raw(),
            location.to_raw(),
        )
    };
    // SAFETY: live op; attributes are values of its context.
    unsafe {
        let context = mlir_sys::mlirOperationGetContext(func.to_raw());
        let i64_type = mlir_sys::mlirIntegerTypeGet(context, 64);
        set_attribute(
            func,
            "workgroup_attributions",
            mlir_sys::mlirIntegerAttrGet(i64_type, count + 1),
        );
        let existing = func
            .attribute("workgroup_attrib_attrs")
            .ok()
            .map(|a| a.to_raw())
            .filter(|a| {
                mlir_sys::mlirAttributeIsAArray(*a)
                    && mlir_sys::mlirArrayAttrGetNumElements(*a) == count as isize
            });
        if existing.is_some() || align.is_some() {
            let empty = mlir_sys::mlirDictionaryAttrGet(context, 0, std::ptr::null());
            let mut dicts: Vec<mlir_sys::MlirAttribute> = (0..count as isize)
                .map(|i| {
                    existing.map_or(empty, |array| mlir_sys::mlirArrayAttrGetElement(array, i))
                })
                .collect();
            dicts.push(match align {
                Some(align) => {
                    let key = "llvm.align";
                    let entry = mlir_sys::mlirNamedAttributeGet(
                        mlir_sys::mlirIdentifierGet(context, melior::StringRef::new(key).to_raw()),
                        mlir_sys::mlirIntegerAttrGet(i64_type, align),
                    );
                    mlir_sys::mlirDictionaryAttrGet(context, 1, &entry)
                }
                None => empty,
            });
            set_attribute(
                func,
                "workgroup_attrib_attrs",
                mlir_sys::mlirArrayAttrGet(context, dicts.len() as isize, dicts.as_ptr()),
            );
        }
        Value::from_raw(argument)
    }
}

/// # Safety
/// `func` and `attribute` are live and of one context.
unsafe fn set_attribute(func: &OperationRef, name: &str, attribute: mlir_sys::MlirAttribute) {
    // SAFETY: as the caller promises; setting an attribute does not move
    // the op.
    unsafe {
        mlir_sys::mlirOperationSetAttributeByName(
            func.to_raw(),
            melior::StringRef::new(name).to_raw(),
            attribute,
        )
    }
}

/// Step 2: replaces the workgroup alloc `op` (checked by
/// [`check_hoistable`]) by a new workgroup attribution of its kernel, and
/// erases it and its `memref.dealloc`s.
pub fn hoist(op: OperationRef) {
    let kernel = kernel_of(&op).expect("checked by check_hoistable");
    let result = op.result(0).unwrap();
    let align = attributes::integer(&op, "alignment");
    let attribution = add_workgroup_attribution(&kernel, result.r#type(), align, op.location());
    for user in crate::token_values::users(result.into()) {
        if ops::is(&user, "memref.dealloc") {
            crate::rewrite::erase_op(user);
        }
    }
    crate::rewrite::replace_all_uses_with(result.into(), attribution);
    crate::rewrite::erase_op(op);
}
