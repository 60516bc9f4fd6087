/// Errors of the dialect crate.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The C++ dialect did not register its ops in the context.
    #[error("cannot register the apipe dialect: {0}")]
    Registration(&'static str),
}

/// A failure that has already been reported as located MLIR diagnostics
/// (errors at the offending ops); nothing more to say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("failed; see the diagnostics emitted at the ops")]
pub struct Reported;
