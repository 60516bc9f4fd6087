/// Errors of the passes crate: bad pass names, options and pipelines.
///
/// Diagnostics about IR are not errors of this type: passes emit them as
/// located MLIR diagnostics and signal failure.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No apipe or upstream pass has this name.
    #[error("'{0}' does not refer to a registered pass or pass pipeline")]
    UnknownPass(String),
    /// The pass has no option of this name.
    #[error("no such option '{option}' for pass '{pass}'")]
    UnknownOption {
        /// The pass.
        pass: String,
        /// The option as written.
        option: String,
    },
    /// The option value does not parse as the option's type.
    #[error("invalid value '{value}' for option '{option}' of pass '{pass}': expected {expected}")]
    InvalidOptionValue {
        /// The pass.
        pass: String,
        /// The option.
        option: String,
        /// The value as written.
        value: String,
        /// What the option accepts ("true or false", "one of: a, b").
        expected: String,
    },
    /// The textual pipeline does not follow the grammar.
    #[error("invalid pass pipeline '{pipeline}': {reason}")]
    Pipeline {
        /// The pipeline text.
        pipeline: String,
        /// What is wrong, and where.
        reason: String,
    },
    /// MLIR refused an upstream pipeline segment.
    #[error("{0}")]
    Upstream(String),
}
