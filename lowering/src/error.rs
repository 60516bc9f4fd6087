/// Errors of the lowering crate.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A pass failed; its located diagnostics were emitted through the
    /// context.
    #[error("{stage} failed; see the diagnostics emitted at the ops")]
    Reported {
        /// The pipeline stage that failed (`apipe passes`, `upstream lowering`).
        stage: &'static str,
    },
    /// A pipeline could not be built (an apipe error message).
    #[error("{0}")]
    Pipeline(String),
    /// The input has no `gpu.module`.
    #[error("the input has no 'gpu.module' to translate")]
    NoGpuModule,
    /// MLIR could not translate the lowered module to LLVM IR.
    #[error("cannot translate the lowered gpu.module to LLVM IR (is every op in the llvm/nvvm dialects?)")]
    Translation,
    /// LLVM (target lookup, optimization or code generation) failed.
    #[error("LLVM: {0}")]
    Llvm(String),
    /// An `--sm` or `--ptx` value that apipe does not support.
    #[error("{0}")]
    Target(String),
    /// `ptxas` is missing or failed.
    #[error("{0}")]
    Ptxas(String),
}
