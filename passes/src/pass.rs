//! The bridge from an apipe pass body (a Rust function over an op) to an
//! MLIR pass (a melior external pass inside MLIR's `PassManager`).
//!
//! Every apipe pass runs the semantic verifier on its op before its body
//! (a pass never builds on IR that breaks the dialect's rules, such as an
//! apipe op outside any function) and after it (the verifier runs after
//! every pass), so ill-formed apipe IR fails at the pass, with a located
//! error.

use crate::{options::PassOptions, registry::PassInfo};
use melior::{
    ir::{operation::OperationLike, OperationRef},
    pass::{ExternalPass, RunExternalPass},
    ContextRef,
};

/// A pass body: transforms `op` in place. On failure it has emitted located
/// diagnostics and returns `Err(Reported)`; it must then leave the IR
/// verifiable.
pub type RunFn =
    for<'c, 'a> fn(OperationRef<'c, 'a>, &PassOptions) -> Result<(), apipe_dialect::Reported>;

/// Unique address for each pass's MLIR `TypeID` (8-byte aligned, non-zero
/// sized so that statics do not share an address).
#[repr(align(8))]
pub struct PassId(#[allow(dead_code)] u8);

impl PassId {
    /// A new id; use one `static` per pass.
    pub const fn new() -> Self {
        Self(0)
    }
}

impl Default for PassId {
    fn default() -> Self {
        Self::new()
    }
}

/// One configured instance of an apipe pass. `Clone` because MLIR clones
/// passes for each thread of a parallel pass manager; the state is immutable.
#[derive(Clone)]
pub(crate) struct ApipePass {
    pub(crate) info: &'static PassInfo,
    pub(crate) options: PassOptions,
}

impl<'c> RunExternalPass<'c> for ApipePass {
    fn initialize(&mut self, _context: ContextRef<'c>) {}

    fn run(&mut self, operation: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        if !apipe_dialect::verifier::verify(&operation) {
            pass.signal_failure();
            return;
        }
        // A panic must not unwind into MLIR (that aborts the process): turn
        // it into a located internal error and a failed pass.
        let body =
            std::panic::AssertUnwindSafe(|| (self.info.run)(operation, &self.options).is_ok());
        let succeeded = std::panic::catch_unwind(body).unwrap_or_else(|_| {
            apipe_dialect::diagnostic::error(
                operation.location(),
                &format!(
                    "internal error in pass '{}'; please report it",
                    self.info.argument
                ),
            );
            false
        });
        if !succeeded || !apipe_dialect::verifier::verify(&operation) {
            pass.signal_failure();
        }
    }
}
