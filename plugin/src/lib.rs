//! The apipe C API and the MLIR plugin entry points, in one shared library,
//! `libApipePlugin.so`, built over Debian's `libMLIR.so` (the one `mlir-opt`
//! uses) by `scripts/build-plugin.sh`.
//!
//! - C API (`include/apipe-c/`): `mlirGetDialectHandle__apipe__` (from
//!   `apipe-dialect`), [`apipeRegisterPasses`], [`apipeCreatePass`],
//!   [`apipeCountingToTokens`], [`apipeTokensToCounting`], [`apipeVerify`].
//! - Plugin (`mlir-opt --load-dialect-plugin=... --load-pass-plugin=...`):
//!   [`mlirGetDialectPluginInfo`] inserts the dialect into the tool's
//!   registry; [`mlirGetPassPluginInfo`] registers every apipe pass.
//!
//! One process must hold one copy of MLIR (two copies have two registries
//! and two sets of `TypeID`s), so this library links `libMLIR.so` and a
//! `libMLIR-C.so` built from Debian's C API archives over it, never the
//! static libraries.
#![deny(missing_docs)]
// The library is `libApipePlugin.so`, named as MLIR plugins are.
#![allow(non_snake_case)]

use apipe_dialect::Reported;
use melior::{ir::OperationRef, StringRef};
use mlir_sys::{
    mlirDialectHandleInsertDialect, MlirDialectRegistry, MlirLogicalResult, MlirOperation,
    MlirPass, MlirStringCallback, MlirStringRef,
};
use std::ffi::{c_char, c_void};

/// `MLIR_PLUGIN_API_VERSION` of `mlir/Tools/Plugins/*Plugin.h` (LLVM 22).
const PLUGIN_API_VERSION: u32 = 1;
const PLUGIN_NAME: &[u8] = b"apipe\0";
const PLUGIN_VERSION: &[u8] = concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes();

/// `mlir::DialectPluginLibraryInfo` (`mlir/Tools/Plugins/DialectPlugin.h`).
#[repr(C)]
pub struct DialectPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register_dialect_registry_callbacks: extern "C" fn(*mut c_void),
}

/// `mlir::PassPluginLibraryInfo` (`mlir/Tools/Plugins/PassPlugin.h`).
#[repr(C)]
pub struct PassPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register_pass_registry_callbacks: extern "C" fn(),
}

extern "C" fn insert_dialect(registry: *mut c_void) {
    // SAFETY: MLIR passes its live `DialectRegistry *`, which is what an
    // `MlirDialectRegistry` wraps.
    unsafe {
        mlirDialectHandleInsertDialect(
            apipe_dialect::dialect_handle().to_raw(),
            MlirDialectRegistry { ptr: registry },
        )
    }
}

extern "C" fn register_passes() {
    apipe_lowering::register_passes();
}

/// The dialect plugin entry point that `--load-dialect-plugin` looks up.
#[no_mangle]
pub extern "C" fn mlirGetDialectPluginInfo() -> DialectPluginLibraryInfo {
    DialectPluginLibraryInfo {
        api_version: PLUGIN_API_VERSION,
        plugin_name: PLUGIN_NAME.as_ptr().cast(),
        plugin_version: PLUGIN_VERSION.as_ptr().cast(),
        register_dialect_registry_callbacks: insert_dialect,
    }
}

/// The pass plugin entry point that `--load-pass-plugin` looks up.
#[no_mangle]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: PLUGIN_API_VERSION,
        plugin_name: PLUGIN_NAME.as_ptr().cast(),
        plugin_version: PLUGIN_VERSION.as_ptr().cast(),
        register_pass_registry_callbacks: register_passes,
    }
}

/// `apipe-c/Passes.h`: registers every apipe pass in MLIR's registry.
#[no_mangle]
pub extern "C" fn apipeRegisterPasses() {
    apipe_lowering::register_passes();
}

/// `apipe-c/Passes.h`: creates the apipe pass `argument` with `options`.
///
/// # Safety
/// `argument` and `options` are valid string references; `on_error`, if
/// set, may be called with `user_data` during the call.
#[no_mangle]
pub unsafe extern "C" fn apipeCreatePass(
    argument: MlirStringRef,
    options: MlirStringRef,
    on_error: MlirStringCallback,
    user_data: *mut c_void,
) -> MlirPass {
    apipe_lowering::register_passes();
    // SAFETY: the caller's contract.
    let (argument, options) = unsafe { (text(argument), text(options)) };
    match apipe_passes::create_pass(&argument, &options) {
        Ok(pass) => pass.to_raw(),
        Err(error) => {
            if let Some(on_error) = on_error {
                let message = error.to_string();
                // SAFETY: the caller's callback, with its own `user_data`.
                unsafe { on_error(StringRef::new(&message).to_raw(), user_data) };
            }
            MlirPass {
                ptr: std::ptr::null_mut(),
            }
        }
    }
}

/// `apipe-c/Transforms.h`: counting form to token form on `op`.
///
/// # Safety
/// `op` is a live operation.
#[no_mangle]
pub unsafe extern "C" fn apipeCountingToTokens(op: MlirOperation) -> MlirLogicalResult {
    // SAFETY: the caller's contract.
    let op = unsafe { OperationRef::from_raw(op) };
    result(apipe_passes::counting_to_tokens::counting_to_tokens(op))
}

/// `apipe-c/Transforms.h`: token form to counting form on `op`.
///
/// # Safety
/// `op` is a live operation.
#[no_mangle]
pub unsafe extern "C" fn apipeTokensToCounting(
    op: MlirOperation,
    strict: bool,
) -> MlirLogicalResult {
    // SAFETY: the caller's contract.
    let op = unsafe { OperationRef::from_raw(op) };
    result(apipe_passes::tokens_to_counting::tokens_to_counting(
        op, strict,
    ))
}

/// `apipe-c/Transforms.h`: the apipe semantic verifier on `op`.
///
/// # Safety
/// `op` is a live operation.
#[no_mangle]
pub unsafe extern "C" fn apipeVerify(op: MlirOperation) -> MlirLogicalResult {
    // SAFETY: the caller's contract.
    let op = unsafe { OperationRef::from_raw(op) };
    result(if apipe_dialect::verifier::verify(&op) {
        Ok(())
    } else {
        Err(Reported)
    })
}

fn result(outcome: Result<(), Reported>) -> MlirLogicalResult {
    MlirLogicalResult {
        value: i8::from(outcome.is_ok()),
    }
}

/// The text of a C string reference (lossy UTF-8).
///
/// # Safety
/// `string` points to `length` readable bytes (or has length 0).
unsafe fn text(string: MlirStringRef) -> String {
    if string.length == 0 {
        return String::new();
    }
    // SAFETY: the caller's contract.
    let bytes = unsafe { std::slice::from_raw_parts(string.data.cast::<u8>(), string.length) };
    String::from_utf8_lossy(bytes).into_owned()
}
