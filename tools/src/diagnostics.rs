//! Capturing MLIR diagnostics from a context and printing them the way
//! `mlir-opt` does (`file:line:col: error: message`, then the source line
//! and a caret).

use apipe_dialect::location::{file_line_col, FileLineCol};
use melior::{diagnostic::DiagnosticSeverity, Context};
use std::{
    io::Write,
    sync::{Arc, Mutex},
};

/// The kind of a diagnostic, as MLIR spells it in output and in
/// `expected-<kind>` comments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `error`
    Error,
    /// `warning`
    Warning,
    /// `note`
    Note,
    /// `remark`
    Remark,
}

impl Kind {
    /// The word MLIR prints.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Error => "error",
            Kind::Warning => "warning",
            Kind::Note => "note",
            Kind::Remark => "remark",
        }
    }

    fn from_severity(severity: DiagnosticSeverity) -> Self {
        match severity {
            DiagnosticSeverity::Error => Kind::Error,
            DiagnosticSeverity::Warning => Kind::Warning,
            DiagnosticSeverity::Note => Kind::Note,
            DiagnosticSeverity::Remark => Kind::Remark,
        }
    }
}

/// One diagnostic, detached from the context.
#[derive(Clone, Debug)]
pub struct Record {
    /// Its kind.
    pub kind: Kind,
    /// Its file position, if the location has one.
    pub location: Option<FileLineCol>,
    /// The message.
    pub message: String,
    /// Attached notes (as records of kind `Note`).
    pub notes: Vec<Record>,
}

/// The diagnostics a context emitted, in order. Cloning shares the list.
#[derive(Clone, Default)]
pub struct Capture(Arc<Mutex<Vec<Record>>>);

impl Capture {
    /// Attaches a handler to `context` that records every diagnostic (and
    /// stops MLIR from printing it).
    pub fn attach(context: &Context) -> Self {
        let capture = Self::default();
        let sink = capture.0.clone();
        context.attach_diagnostic_handler(move |diagnostic| {
            let record = to_record(&diagnostic);
            sink.lock().unwrap().push(record);
            true
        });
        capture
    }

    /// Takes the diagnostics recorded so far.
    pub fn take(&self) -> Vec<Record> {
        std::mem::take(&mut self.0.lock().unwrap())
    }

    /// True if an error was recorded and not yet taken.
    pub fn has_error(&self) -> bool {
        self.0.lock().unwrap().iter().any(|r| r.kind == Kind::Error)
    }
}

fn to_record(diagnostic: &melior::diagnostic::Diagnostic) -> Record {
    let notes = (0..diagnostic.note_count())
        .filter_map(|i| diagnostic.note(i).ok())
        .map(|note| to_record(&note))
        .collect();
    Record {
        kind: Kind::from_severity(diagnostic.severity()),
        location: file_line_col(diagnostic.location()),
        message: diagnostic.to_string(),
        notes,
    }
}

/// Prints `record` (and its notes) like MLIR's `SourceMgrDiagnosticHandler`:
/// the position, the kind, the message; then the source line and a caret
/// when `source` (the text of the file the position names) has that line.
pub fn print(out: &mut dyn Write, record: &Record, source: Option<(&str, &str)>) {
    let _ = match &record.location {
        Some(position) => writeln!(
            out,
            "{position}: {}: {}",
            record.kind.as_str(),
            record.message
        ),
        None => writeln!(
            out,
            "<unknown>:0: {}: {}",
            record.kind.as_str(),
            record.message
        ),
    };
    if let (Some(position), Some((file, text))) = (&record.location, source) {
        if position.file == file && position.line > 0 {
            if let Some(line) = text.lines().nth(position.line as usize - 1) {
                let _ = writeln!(out, "{line}");
                let _ = writeln!(
                    out,
                    "{}^",
                    " ".repeat(position.column.saturating_sub(1) as usize)
                );
            }
        }
    }
    for note in &record.notes {
        print(out, note, source);
    }
}

/// Prints a tool-level error that has no IR location (bad flag, missing
/// file) as MLIR tools do.
pub fn print_error(message: &str) {
    eprintln!("error: {message}");
}
