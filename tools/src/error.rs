//! The errors of the tools that are not MLIR diagnostics: files that cannot
//! be read or written, bad command lines and pipelines, and errors of the
//! library crates. Each prints as `mlir-opt` would print it (`main` prefixes
//! the tool name).

use std::io;

/// An error of `apipe-opt`, `apipe-translate`, `apipe-run` or `apipe-fuzz`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The input file cannot be read.
    #[error("could not open input file '{path}': {source}")]
    ReadInput {
        /// The path as given (`<stdin>` for `-`).
        path: String,
        /// Why.
        source: io::Error,
    },
    /// The output file cannot be written.
    #[error("could not open output file '{path}': {source}")]
    WriteOutput {
        /// The path as given.
        path: String,
        /// Why.
        source: io::Error,
    },
    /// Standard output cannot be written (a closed pipe).
    #[error("could not write to standard output: {0}")]
    Stdout(io::Error),
    /// A command-line combination the tool refuses.
    #[error("{0}")]
    Usage(String),
    /// The apipe dialect does not register.
    #[error(transparent)]
    Dialect(#[from] apipe_dialect::Error),
    /// A pass or pipeline that MLIR refused (MLIR's message).
    #[error(transparent)]
    Passes(#[from] apipe_passes::Error),
    /// The GPU or emulation lowering failed before reaching a diagnostic.
    #[error(transparent)]
    Lowering(#[from] apipe_lowering::Error),
    /// The printed IR is not UTF-8 (a melior printing error).
    #[error("cannot print the IR: {0}")]
    Print(String),
    /// A pass pipeline the tool runs itself failed (its diagnostics went
    /// to the context's handlers first).
    #[error("the pass pipeline '{0}' failed")]
    PipelineFailed(String),
    /// `apipe-run`: the lowered module did not reach the LLVM dialect (its
    /// diagnostics were printed first).
    #[error("lowering to the LLVM dialect failed")]
    LoweringFailed,
    /// `apipe-run`: MLIR's ExecutionEngine could not be created (the C API
    /// drops LLVM's reason).
    #[error("the JIT could not compile the lowered module")]
    JitCompile,
    /// `apipe-fuzz`: running children or writing its reports failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// Why it failed.
        source: io::Error,
    },
    /// `apipe-run`: a function the JIT should have compiled is missing.
    #[error("could not find the entry point '{0}' in the JIT")]
    JitLookup(String),
}
