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
/// For many records of one file, [`print_all`] finds the lines faster.
pub fn print(out: &mut dyn Write, record: &Record, source: Option<(&str, &str)>) {
    let lines = source.map(|(file, text)| SourceLines::new(file, text));
    print_with(out, record, lines.as_ref());
}

/// Prints `records` as [`print`] does, all of the file `file` with text
/// `text`: the line starts are found once (a pass that remarks on each of
/// thousands of loops would otherwise scan the file for each remark).
pub fn print_all(out: &mut dyn Write, records: &[Record], file: &str, text: &str) {
    let lines = SourceLines::new(file, text);
    for record in records {
        print_with(out, record, Some(&lines));
    }
}

/// The lines of one source file, by number.
struct SourceLines<'a> {
    file: &'a str,
    text: &'a str,
    /// The byte offset of the start of each line.
    starts: Vec<usize>,
}

impl<'a> SourceLines<'a> {
    fn new(file: &'a str, text: &'a str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .filter(|&i| i < text.len())
            .collect();
        Self { file, text, starts }
    }

    /// Line `n` (1-based) without its line ending, as `str::lines` gives it.
    fn line(&self, n: usize) -> Option<&'a str> {
        let start = *self.starts.get(n.checked_sub(1)?)?;
        let end = self.starts.get(n).copied().unwrap_or(self.text.len());
        let line = &self.text[start..end];
        let line = line.strip_suffix('\n').unwrap_or(line);
        Some(line.strip_suffix('\r').unwrap_or(line))
    }
}

fn print_with(out: &mut dyn Write, record: &Record, source: Option<&SourceLines>) {
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
    if let (Some(position), Some(lines)) = (&record.location, source) {
        if position.file == lines.file && position.line > 0 {
            if let Some(line) = lines.line(position.line as usize) {
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
        print_with(out, note, source);
    }
}

/// Prints a tool-level error that has no IR location (bad flag, missing
/// file) as MLIR tools do.
pub fn print_error(message: &str) {
    eprintln!("error: {message}");
}

#[cfg(test)]
mod source_lines_tests {
    use super::SourceLines;

    #[test]
    fn lines_by_number_are_those_of_str_lines() {
        for text in ["", "a", "a\n", "a\nb", "a\r\nb\r\n", "\n\nc\n", "x\n\n"] {
            let lines = SourceLines::new("f", text);
            let expected: Vec<&str> = text.lines().collect();
            for n in 0..=expected.len() + 1 {
                let want = n.checked_sub(1).and_then(|i| expected.get(i)).copied();
                assert_eq!(lines.line(n), want, "line {n} of {text:?}");
            }
        }
    }
}
