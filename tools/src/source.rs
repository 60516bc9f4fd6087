//! Reading an input (a file or `-` for stdin), splitting it at `// -----`
//! (`--split-input-file`), and parsing each chunk with locations that name
//! the real file and its real line numbers.
//!
//! Each chunk is padded with newlines to keep its line numbers and parsed
//! with the real file name ([`apipe_dialect::parse::parse_module`]), so
//! locations and parse diagnostics say `file:line:col`.

use crate::Error;
use melior::{ir::Module, Context};
use std::sync::atomic::{AtomicU8, Ordering};

/// The marker `mlir-opt --split-input-file` splits at.
pub const SPLIT_MARKER: &str = "// -----";

/// One input file.
pub struct Input {
    /// Its name in diagnostics: the path as given, or `<stdin>`.
    pub name: String,
    /// Its text.
    pub text: String,
}

impl Input {
    /// Reads `path` (`-` is stdin).
    ///
    /// # Errors
    /// [`Error::ReadInput`], which prints as `mlir-opt`'s message: `could
    /// not open input file '...': ...`.
    pub fn read(path: &str) -> Result<Self, Error> {
        let (name, bytes) = if path == "-" {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes).map_err(|source| {
                Error::ReadInput {
                    path: "<stdin>".into(),
                    source,
                }
            })?;
            ("<stdin>".to_owned(), bytes)
        } else {
            let bytes = std::fs::read(path).map_err(|source| Error::ReadInput {
                path: path.into(),
                source,
            })?;
            (path.to_owned(), bytes)
        };
        // Invalid UTF-8 becomes U+FFFD: harmless in comments (as in
        // mlir-opt), a located "unexpected character" error elsewhere.
        let text = String::from_utf8_lossy(&bytes).into_owned();
        Ok(Self { name, text })
    }

    /// The chunks to process: the whole text, or the pieces between
    /// `// -----` lines. Each chunk keeps its line numbers (it is preceded by
    /// as many newlines as lines came before it).
    pub fn chunks(&self, split: bool) -> Vec<String> {
        if !split {
            return vec![self.text.clone()];
        }
        let mut chunks = Vec::new();
        let mut current = String::new();
        let mut line_count = 0usize;
        for line in self.text.split_inclusive('\n') {
            if line.trim_start().starts_with(SPLIT_MARKER) {
                chunks.push(std::mem::take(&mut current));
                line_count += 1;
                current = "\n".repeat(line_count);
                continue;
            }
            current.push_str(line);
            line_count += 1;
        }
        chunks.push(current);
        chunks
    }
}

/// Parses `text` as a module (top-level ops are wrapped in an implicit
/// `builtin.module`, as `mlir-opt` does) with locations in `file`, and
/// verifies it. Parse errors go to the context's diagnostic handlers; after
/// an invalid input the process only reports and exits (see
/// [`apipe_dialect::parse`]: the parser is stopped at its first error).
pub fn parse<'c>(context: &'c Context, text: &str, file: &str) -> Option<Module<'c>> {
    let result = apipe_dialect::parse::parse_module(context, text, file);
    let outcome = match result {
        Ok(_) => 2,
        Err(apipe_dialect::parse::ParseFailure::Invalid) => 3,
        Err(apipe_dialect::parse::ParseFailure::Stopped) => 1,
    };
    LAST_PARSE.store(outcome, Ordering::Relaxed);
    result.ok()
}

/// The outcome of the last [`parse`] in this process: 0 none yet, 1 the
/// parser stopped at an error, 2 parsed and verified, 3 parsed but invalid.
static LAST_PARSE: AtomicU8 = AtomicU8::new(0);

/// Whether the last [`parse`] in this process got past the parser (`None`
/// if none ran); the input may still fail to verify. The fuzzer
/// (`apipe_tools::fuzz`) reads it to report the share of its inputs that
/// parse.
pub fn last_parse_succeeded() -> Option<bool> {
    match LAST_PARSE.load(Ordering::Relaxed) {
        0 => None,
        1 => Some(false),
        _ => Some(true),
    }
}

/// Removes the output file `path` after a failed run (nothing for `-`, a
/// file that does not exist, or anything but a regular file), as
/// `mlir-opt` and `mlir-translate` do (their `ToolOutputFile` is deleted
/// unless the run succeeds): an earlier run's output is not left behind for
/// a build to take as this run's.
///
/// # Errors
/// [`crate::Error::WriteOutput`] if the file exists and cannot be removed.
pub fn remove_failed_output(path: &str) -> Result<(), crate::Error> {
    // Only a regular file: `-o /dev/null` (a device), a FIFO or a link
    // stays, as LLVM's ToolOutputFile leaves special files alone.
    let regular = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file());
    if path == "-" || !regular {
        return Ok(());
    }
    match std::fs::remove_file(path) {
        Err(source) if source.kind() != std::io::ErrorKind::NotFound => {
            Err(crate::Error::WriteOutput {
                path: path.to_owned(),
                source,
            })
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_keep_line_numbers() {
        let input = Input {
            name: "x".into(),
            text: "a\n// -----\nb\nc\n// -----\nd\n".into(),
        };
        let chunks = input.chunks(true);
        assert_eq!(chunks, vec!["a\n", "\n\nb\nc\n", "\n\n\n\n\nd\n"]);
        assert_eq!(input.chunks(false), vec![input.text.clone()]);
    }
}
