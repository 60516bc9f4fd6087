//! The `apipe` MLIR dialect: asynchronous copies and the synchronization that
//! makes them correct, in counting form (`commit_group` / `wait_group N`) and
//! token form (`commit_group -> !apipe.token`, `wait %t`).
//!
//! One ODS file, `dialects/apipe/ApipeOps.td`, defines the dialect. From it:
//! - `build.rs` generates IRDL ([`IRDL`]), which [`register_dialect`] loads
//!   into a `melior::Context` at run time;
//! - melior's `dialect!` macro generates typed builders ([`ops`]).
//!
//! [`verifier`] adds the semantic checks that IRDL cannot express
//! (the op semantics documented in `apipe/ApipeOps.td`), each reported as a
//! located MLIR diagnostic.
//!
//! Library users call [`create_context`] (or [`register_dialect`] on their own
//! context), then add apipe passes from the `apipe-passes` crate to their
//! `PassManager`.
#![deny(missing_docs)]

pub mod attributes;
pub mod diagnostic;
mod error;
pub mod location;
pub mod ops;
pub mod parse;
pub mod verifier;

pub use error::{Error, Reported};

use melior::{
    dialect::DialectRegistry,
    ir::{operation::OperationLike, Module},
    utility::{load_irdl_dialects, register_all_dialects, register_all_llvm_translations},
    Context,
};

/// The IRDL definition of the dialect, generated from `ApipeOps.td` at build
/// time. The checked-in copy `dialects/apipe/apipe.irdl.mlir` must equal it
/// (a unit test fails otherwise) so that upstream
/// `mlir-opt --irdl-file=dialects/apipe/apipe.irdl.mlir` reads apipe IR too.
pub const IRDL: &str = include_str!(concat!(env!("OUT_DIR"), "/apipe.irdl.mlir"));

/// Registers the apipe dialect (from [`IRDL`]) in `context`.
///
/// Idempotent: loading an IRDL dialect twice into one context aborts the
/// process inside MLIR ("Dialect Type ... already registered"), so this
/// checks `is_registered_operation("apipe.copy")` first.
///
/// # Errors
/// [`Error::Irdl`] if the IRDL module does not parse or load (a build bug).
pub fn register_dialect(context: &Context) -> Result<(), Error> {
    if context.is_registered_operation(ops::COPY) {
        return Ok(());
    }
    let previous = context.allow_unregistered_dialects();
    let module =
        Module::parse(context, IRDL).ok_or(Error::Irdl("the IRDL module does not parse"))?;
    context.set_allow_unregistered_dialects(previous);
    if !module.as_operation().verify() {
        return Err(Error::Irdl("the IRDL module does not verify"));
    }
    if !load_irdl_dialects(&module) {
        return Err(Error::Irdl("mlirLoadIRDLDialects failed"));
    }
    Ok(())
}

/// Creates a context with every upstream dialect registered (and loadable on
/// demand, as `mlir-opt` does), the LLVM IR translations, the apipe dialect
/// loaded, and the dialects apipe IR uses (func, arith, index, memref, scf,
/// cf, gpu, nvgpu, vector) loaded for builders.
///
/// # Errors
/// As [`register_dialect`].
pub fn create_context() -> Result<Context, Error> {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    register_all_llvm_translations(&context);
    // IRDL parses the dialect definition; the others are the dialects apipe
    // IR is written in, loaded so that builders can create their ops.
    for dialect in [
        "irdl", "func", "arith", "index", "memref", "scf", "cf", "gpu", "nvgpu", "vector",
    ] {
        context.get_or_load_dialect(dialect);
    }
    register_dialect(&context)?;
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

    #[test]
    fn registers_once_and_twice() {
        let context = create_context().unwrap();
        assert!(context.is_registered_operation("apipe.copy"));
        assert!(context.is_registered_operation("apipe.wait_group"));
        // A second registration is a no-op, not an abort.
        register_dialect(&context).unwrap();
    }
}
