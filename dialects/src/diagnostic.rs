//! Emitting MLIR diagnostics from Rust: errors, warnings, remarks and notes,
//! located at an op, through the context's diagnostic engine (so
//! `--verify-diagnostics`, `mlir-opt`-style printing and library users'
//! handlers all see them).
//!
//! The C API only has `mlirEmitError`; `capi/ApipeDiagnostics.cpp` adds the
//! rest over `mlir::emitDiagnostic`.

use melior::{ir::Location, StringRef};
use mlir_sys::{MlirDiagnosticSeverity, MlirLocation, MlirStringRef};

/// Severity of a diagnostic, as MLIR's `DiagnosticSeverity`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// `error:`; the pass or tool fails.
    Error,
    /// `warning:`; a likely bug that does not stop compilation.
    Warning,
    /// `remark:`; information, such as an inexact count.
    Remark,
}

unsafe extern "C" {
    fn apipeEmitDiagnostic(
        location: MlirLocation,
        severity: MlirDiagnosticSeverity,
        message: MlirStringRef,
        note_count: isize,
        note_locations: *const MlirLocation,
        note_messages: *const MlirStringRef,
    );
    fn apipeContextSetPrintOpOnDiagnostic(context: mlir_sys::MlirContext, enable: bool);
}

/// Sets whether MLIR attaches a "see current operation: ..." note (the op
/// printed) to diagnostics emitted on an op; on by default. `mlir-opt` turns
/// it off under `--verify-diagnostics`.
pub fn set_print_op_on_diagnostic(context: &melior::Context, enable: bool) {
    // SAFETY: the context is live.
    unsafe { apipeContextSetPrintOpOnDiagnostic(context.to_raw(), enable) }
}

/// Emits `message` at `location` with `severity`, and one note per entry of
/// `notes` (each at its own location).
pub fn emit(location: Location, severity: Severity, message: &str, notes: &[(Location, &str)]) {
    let severity = match severity {
        Severity::Error => mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticError,
        Severity::Warning => mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticWarning,
        Severity::Remark => mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticRemark,
    };
    let note_locations: Vec<MlirLocation> = notes.iter().map(|(l, _)| l.to_raw()).collect();
    let note_messages: Vec<MlirStringRef> = notes
        .iter()
        .map(|(_, m)| StringRef::new(m).to_raw())
        .collect();
    // SAFETY: every location is live for the call; the string refs point into
    // `message` and `notes`, which outlive the call (MLIR copies the text).
    unsafe {
        apipeEmitDiagnostic(
            location.to_raw(),
            severity,
            StringRef::new(message).to_raw(),
            notes.len() as isize,
            note_locations.as_ptr(),
            note_messages.as_ptr(),
        )
    }
}

/// Emits an error at `location`.
pub fn error(location: Location, message: &str) {
    emit(location, Severity::Error, message, &[]);
}

/// Emits a warning at `location`.
pub fn warning(location: Location, message: &str) {
    emit(location, Severity::Warning, message, &[]);
}

/// Emits a remark at `location`.
pub fn remark(location: Location, message: &str) {
    emit(location, Severity::Remark, message, &[]);
}
