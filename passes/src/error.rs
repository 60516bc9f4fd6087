/// Errors of the passes crate: bad pass names, options and pipelines, with
/// MLIR's messages (MLIR parses pipelines and options).
///
/// Diagnostics about IR are not errors of this type: passes emit them as
/// located MLIR diagnostics and signal failure.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No registered apipe pass has this name.
    #[error("'{0}' does not refer to a registered apipe pass")]
    UnknownPass(String),
    /// MLIR refused the options of a pass.
    #[error("invalid options for pass '{pass}': {message}")]
    Options {
        /// The pass argument.
        pass: String,
        /// MLIR's message.
        message: String,
    },
    /// MLIR refused a textual pipeline (its message, with the position).
    #[error("{0}")]
    Pipeline(String),
}
