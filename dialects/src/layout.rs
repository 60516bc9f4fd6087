//! Sizes of types in memory, from MLIR's `DataLayout` (the C API has no
//! data-layout query: `capi/ApipeDataLayout.cpp` forwards one).

use melior::ir::{operation::OperationLike, Type, TypeLike};

unsafe extern "C" {
    /// `capi/ApipeDataLayout.cpp`: `DataLayout::closest(scope)
    /// .getTypeSize(type)`, or -1 for a type with no data layout.
    fn apipeTypeSizeInBytes(ty: mlir_sys::MlirType, scope: mlir_sys::MlirOperation) -> i64;
}

/// The size in bytes of `ty` in memory (with the padding of its elements)
/// under the data layout closest to `scope` (the `dlti.dl_spec` of the
/// module around it, else MLIR's default layout): builtin integers, floats,
/// `index` and fixed vectors of those, and the LLVM dialect's types
/// (`!llvm.array<N x T>`, structs, pointers). `None` for any other type.
pub fn type_size_in_bytes<'c: 'a, 'a>(
    ty: Type<'c>,
    scope: &impl OperationLike<'c, 'a>,
) -> Option<i64> {
    // SAFETY: a live type and a live op of one context; the C++ side
    // checks that the type has a layout before asking for its size.
    let size = unsafe { apipeTypeSizeInBytes(ty.to_raw(), scope.to_raw()) };
    (size >= 0).then_some(size)
}
