//! The `apipe` MLIR dialect: asynchronous copies and the synchronization that
//! makes them correct, in counting form (`commit_group` / `wait_group N`) and
//! token form (`%t = commit_group`, `wait %t`).
//!
//! One ODS file, `dialects/apipe/ApipeOps.td`, defines the dialect. From it:
//! - `mlir-tblgen` generates the C++ dialect (custom assembly, ODS
//!   verifiers, memory effects), compiled by `build.rs` and registered
//!   through its C API dialect handle ([`dialect_handle`], [`register_dialect`]);
//! - melior's `dialect!` macro generates typed builders ([`ops`]), which
//!   passes use through [`build`];
//! - `build.rs` generates IRDL ([`IRDL`]) for `mlir-opt --irdl-file` users.
//!
//! [`effects`] exposes MLIR's memory-effect and view interfaces, which the C
//! API lacks.
//!
//! [`verifier`] adds the semantic checks (docs/dialect.md, "Verification"),
//! each reported as a located MLIR diagnostic.
//!
//! Library users call [`create_context`] (or [`register_dialect`] on their own
//! context), then add apipe passes from the `apipe-passes` crate to their
//! `PassManager`.
#![deny(missing_docs)]

pub mod attributes;
pub mod build;
pub mod diagnostic;
pub mod effects;
mod error;
pub mod layout;
pub mod location;
pub mod ops;
pub mod parse;
pub mod verifier;

pub use error::{Error, Reported};

use melior::{
    dialect::{DialectHandle, DialectRegistry},
    utility::{register_all_dialects, register_all_llvm_translations},
    Context,
};

/// The IRDL definition of the dialect, generated from `ApipeOps.td` at build
/// time. The checked-in copy `dialects/apipe/apipe.irdl.mlir` must equal it
/// (a unit test fails otherwise) so that upstream
/// `mlir-opt --irdl-file=dialects/apipe/apipe.irdl.mlir` reads apipe IR too
/// (generic form only: IRDL has no custom assembly).
pub const IRDL: &str = include_str!(concat!(env!("OUT_DIR"), "/apipe.irdl.mlir"));

unsafe extern "C" {
    /// Defined by `MLIR_DEFINE_CAPI_DIALECT_REGISTRATION` in
    /// `dialects/cpp/ApipeDialect.cpp`.
    fn mlirGetDialectHandle__apipe_cpp__() -> mlir_sys::MlirDialectHandle;
}

/// The MLIR dialect handle of the C++ apipe dialect, for
/// `DialectHandle::insert_dialect` (into a registry), `register_dialect` and
/// `load_dialect` (into a context).
pub fn dialect_handle() -> DialectHandle {
    // SAFETY: the function takes no argument and returns a pointer to a
    // static registration hook in the linked C++ dialect.
    unsafe { DialectHandle::from_raw(mlirGetDialectHandle__apipe_cpp__()) }
}

/// The C API entry point of `include/apipe-c/Dialect.h`, as upstream
/// dialects name theirs (`MLIR_DECLARE_CAPI_DIALECT_REGISTRATION`). Defined
/// in Rust so that the plugin library (a Rust `cdylib`) exports it.
#[no_mangle]
#[allow(non_snake_case)]
pub extern "C" fn mlirGetDialectHandle__apipe__() -> mlir_sys::MlirDialectHandle {
    dialect_handle().to_raw()
}

/// Registers the apipe dialect in `context` and loads it. Idempotent.
///
/// # Errors
/// [`Error::Registration`] if the ops are not registered afterwards: the
/// dialect was linked against another copy of MLIR than `context` (two
/// copies of MLIR in one process have two sets of `TypeID`s).
pub fn register_dialect(context: &Context) -> Result<(), Error> {
    let handle = dialect_handle();
    handle.register_dialect(context);
    handle.load_dialect(context);
    check_registered(context)
}

fn check_registered(context: &Context) -> Result<(), Error> {
    if context.is_registered_operation(ops::COPY) {
        Ok(())
    } else {
        Err(Error::Registration(
            "apipe.copy is not registered after loading the dialect; is a second copy of MLIR linked?",
        ))
    }
}

/// Creates a context with every upstream dialect and the apipe dialect
/// registered (and loadable on demand, as `mlir-opt` does), the LLVM IR
/// translations, and the dialects apipe IR uses (apipe, func, arith, index,
/// memref, scf, cf, gpu, nvgpu, vector) loaded for builders.
///
/// # Errors
/// As [`register_dialect`].
pub fn create_context() -> Result<Context, Error> {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    dialect_handle().insert_dialect(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    register_all_llvm_translations(&context);
    // The dialects apipe IR is written in, loaded so that builders can
    // create their ops.
    for dialect in [
        "apipe", "func", "arith", "index", "memref", "scf", "cf", "gpu", "nvgpu", "vector",
    ] {
        context.get_or_load_dialect(dialect);
    }
    check_registered(&context)?;
    Ok(context)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn checked_in_irdl_is_current() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("apipe/apipe.irdl.mlir");
        if std::env::var_os("APIPE_BLESS").is_some() {
            std::fs::write(&path, IRDL).unwrap();
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            checked_in, IRDL,
            "dialects/apipe/apipe.irdl.mlir is stale; regenerate it with \
             APIPE_BLESS=1 cargo test -p apipe-dialect checked_in_irdl_is_current"
        );
    }

    /// `docs/dialect.md` is `mlir-tblgen -gen-dialect-doc` of the ODS file.
    #[test]
    fn checked_in_dialect_reference_is_current() {
        const GENERATED: &str = include_str!(concat!(env!("OUT_DIR"), "/ApipeDialect.md"));
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/dialect.md");
        if std::env::var_os("APIPE_BLESS").is_some() {
            std::fs::write(&path, GENERATED).unwrap();
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            checked_in, GENERATED,
            "docs/dialect.md is stale; regenerate it with \
             APIPE_BLESS=1 cargo test -p apipe-dialect checked_in_dialect_reference_is_current"
        );
    }

    #[test]
    fn registers_once_and_twice() {
        let context = create_context().unwrap();
        assert!(context.is_registered_operation("apipe.copy"));
        assert!(context.is_registered_operation("apipe.wait_group"));
        assert!(context.is_registered_operation("apipe.ready"));
        // A second registration is a no-op, not an abort.
        register_dialect(&context).unwrap();
    }
}
