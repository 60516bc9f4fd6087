/// Errors of the dialect crate.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The generated IRDL module did not parse, verify or load.
    #[error("cannot load the apipe IRDL dialect: {0}")]
    Irdl(&'static str),
}

/// A failure that has already been reported as located MLIR diagnostics
/// (errors at the offending ops); nothing more to say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("failed; see the diagnostics emitted at the ops")]
pub struct Reported;
