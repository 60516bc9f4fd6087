//! Sizes of types in memory, from MLIR's `DataLayout` (the C API has no
//! data-layout query: `capi/ApipeDataLayout.cpp` forwards one).

use melior::ir::{operation::OperationLike, Type, TypeLike};

unsafe extern "C" {
    /// `capi/ApipeDataLayout.cpp`: `DataLayout::closest(scope)
    /// .getTypeSize(type)`, or -1 for a type with no data layout.
    fn apipeTypeSizeInBytes(ty: mlir_sys::MlirType, scope: mlir_sys::MlirOperation) -> i64;
}

/// The size in bytes of `ty` in memory (with the padding of its elements:
/// a `vector<3xf32>` takes 16 bytes) under the data layout closest to
/// `scope` (the `dlti.dl_spec` of the module around it), or MLIR's default
/// layout when `scope` is `None`: builtin integers, floats, `index` and
/// fixed vectors of those, and the LLVM dialect's types
/// (`!llvm.array<N x T>`, structs, pointers). `None` for any other type.
pub fn type_size_in_bytes<'c: 'a, 'a>(
    ty: Type<'c>,
    scope: Option<&impl OperationLike<'c, 'a>>,
) -> Option<i64> {
    let scope = scope.map_or(
        mlir_sys::MlirOperation {
            ptr: std::ptr::null_mut(),
        },
        |op| op.to_raw(),
    );
    // SAFETY: a live type and a live (or null) op of one context; the C++
    // side checks that the type has a layout before asking for its size.
    let size = unsafe { apipeTypeSizeInBytes(ty.to_raw(), scope) };
    (size >= 0).then_some(size)
}
