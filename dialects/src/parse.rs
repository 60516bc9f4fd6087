//! Parsing MLIR text into a module, safely on every input.
//!
//! `mlirModuleCreateParse` runs MLIR 22's cleanup of half-built IR after a
//! parse error, and that cleanup can write to freed memory (a forward
//! reference resolved inside a region of an op whose parse then fails), so
//! the process aborts later. [`parse_module`] calls
//! `capi/ApipeParser.cpp`, which stops the parser at its first error and
//! leaks the half-built IR instead, then emits the error to the context's
//! handlers as usual.

use melior::{ir::Module, Context, StringRef};
use mlir_sys::{MlirContext, MlirModule, MlirStringRef};

unsafe extern "C" {
    fn apipeParseModule(
        context: MlirContext,
        source: MlirStringRef,
        source_name: MlirStringRef,
        poisoned: *mut bool,
    ) -> MlirModule;
}

/// Why [`parse_module`] returned no module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseFailure {
    /// The input is invalid: the parser stopped at an error (emitted to the
    /// context's diagnostic handlers) and leaked its half-built IR. The
    /// context's diagnostic engine stays locked by this thread: emit
    /// diagnostics only from this thread and run no passes on it.
    Stopped,
    /// It parsed but does not verify, or the parser failed without an error
    /// (the diagnostics, if any, were emitted).
    Invalid,
}

/// Parses `text` as a module named `name` in locations (`file:line:col`),
/// wrapping top-level ops in a `builtin.module` as `mlir-opt` does, and
/// verifies it (MLIR's verifier).
///
/// # Errors
/// [`ParseFailure`], after its diagnostics went to the context's handlers.
pub fn parse_module<'c>(
    context: &'c Context,
    text: &str,
    name: &str,
) -> Result<Module<'c>, ParseFailure> {
    // MLIR's lexer finds the end of input at a NUL byte after the buffer
    // (it does not stop at the length alone), so the text passed must be
    // followed by one.
    let mut terminated = String::with_capacity(text.len() + 1);
    terminated.push_str(text);
    terminated.push('\0');
    let mut poisoned = false;
    // SAFETY: the context is live; `terminated` outlives the call and holds
    // the NUL right after the `text.len()` bytes passed; `name` is copied
    // into the context's locations.
    let raw = unsafe {
        apipeParseModule(
            context.to_raw(),
            StringRef::new(&terminated[..text.len()]).to_raw(),
            StringRef::new(name).to_raw(),
            &mut poisoned,
        )
    };
    // SAFETY: a null module is handled by `from_option_raw`; otherwise the
    // module is owned by the caller.
    match unsafe { Module::from_option_raw(raw) } {
        Some(module) => Ok(module),
        None if poisoned => Err(ParseFailure::Stopped),
        None => Err(ParseFailure::Invalid),
    }
}
