//! Reading an input (a file or `-` for stdin), splitting it at `// -----`
//! (`--split-input-file`), and parsing each chunk with locations that name
//! the real file and its real line numbers.
//!
//! The C API parser (`mlirModuleCreateParse`) takes no file name, so each
//! chunk is padded with newlines to keep its line numbers, parsed, and its
//! locations are then renamed to the real file ([`relocate`]); diagnostics
//! emitted while parsing are renamed by [`rename_diagnostics`].

use crate::diagnostics::Record;
use melior::{
    ir::{operation::OperationLike, BlockLike, Module, ValueLike},
    Context, StringRef,
};
use mlir_sys::{
    mlirBlockArgumentSetLocation, mlirIdentifierStr, mlirLocationCallSiteGet,
    mlirLocationCallSiteGetCallee, mlirLocationCallSiteGetCaller, mlirLocationFileLineColGet,
    mlirLocationFileLineColRangeGetFilename, mlirLocationFileLineColRangeGetStartColumn,
    mlirLocationFileLineColRangeGetStartLine, mlirLocationFusedGet, mlirLocationFusedGetLocations,
    mlirLocationFusedGetMetadata, mlirLocationFusedGetNumLocations, mlirLocationIsACallSite,
    mlirLocationIsAFileLineColRange, mlirLocationIsAFused, mlirLocationIsAName,
    mlirLocationNameGet, mlirLocationNameGetChildLoc, mlirLocationNameGetName,
    mlirModuleCreateParse, mlirOperationSetLocation, MlirContext, MlirLocation,
};
use std::sync::atomic::{AtomicU8, Ordering};

/// The marker `mlir-opt --split-input-file` splits at.
pub const SPLIT_MARKER: &str = "// -----";

/// The name the C API parser (`mlirModuleCreateParse`) gives its buffer;
/// renamed to the real name.
const PARSER_BUFFER_NAME: &str = "-";

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
    /// The message `mlir-opt` gives: `could not open input file '...': ...`.
    pub fn read(path: &str) -> Result<Self, String> {
        let (name, bytes) = if path == "-" {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
                .map_err(|e| format!("could not read standard input: {e}"))?;
            ("<stdin>".to_owned(), bytes)
        } else {
            let bytes = std::fs::read(path)
                .map_err(|e| format!("could not open input file '{path}': {e}"))?;
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

/// The outcome of the last [`parse`] in this process: 0 none yet, 1
/// failed, 2 succeeded.
static LAST_PARSE: AtomicU8 = AtomicU8::new(0);

/// Whether the last [`parse`] in this process succeeded (`None` if none
/// ran). The fuzzer (`apipe_tools::fuzz`) reads it to report the share of
/// its inputs that parse.
pub fn last_parse_succeeded() -> Option<bool> {
    match LAST_PARSE.load(Ordering::Relaxed) {
        0 => None,
        1 => Some(false),
        _ => Some(true),
    }
}

/// Parses `text` as a module (top-level ops are wrapped in an implicit
/// `builtin.module`, as `mlir-opt` does) and names its locations `file`.
/// Parse errors go to the context's diagnostic handlers.
pub fn parse<'c>(context: &'c Context, text: &str, file: &str) -> Option<Module<'c>> {
    let module = parse_module(context, text, file);
    LAST_PARSE.store(if module.is_some() { 2 } else { 1 }, Ordering::Relaxed);
    module
}

fn parse_module<'c>(context: &'c Context, text: &str, file: &str) -> Option<Module<'c>> {
    // MLIR's lexer finds the end of input at a NUL byte after the buffer
    // (it does not stop at the length alone), so the text passed must be
    // followed by one.
    let mut terminated = String::with_capacity(text.len() + 1);
    terminated.push_str(text);
    terminated.push('\0');
    // SAFETY: the context is live; `terminated` outlives the call and holds
    // the NUL right after the `text.len()` bytes passed.
    let raw = unsafe {
        mlirModuleCreateParse(
            context.to_raw(),
            StringRef::new(&terminated[..text.len()]).to_raw(),
        )
    };
    // SAFETY: a null module is handled by `from_option_raw`.
    let module = unsafe { Module::from_option_raw(raw) }?;
    relocate(&module, file);
    Some(module)
}

/// Renames the parser's buffer name to `file` in every location of
/// `module` (ops and block arguments).
pub fn relocate(module: &Module, file: &str) {
    let context = module.context();
    // SAFETY: bound first; the context outlives this call.
    let context = unsafe { context.to_ref() }.to_raw();
    let op = module.as_operation();
    relocate_op(context, &op, file);
}

fn relocate_op<'c: 'a, 'a>(context: MlirContext, root: &impl OperationLike<'c, 'a>, file: &str) {
    for op in apipe_dialect::ops::self_and_nested_ops(root) {
        // SAFETY: the op and its blocks are live; locations are uniqued in
        // the context.
        unsafe {
            mlirOperationSetLocation(op.to_raw(), rename(context, op.location().to_raw(), file))
        };
        for block in apipe_dialect::ops::blocks_of(&op) {
            for i in 0..block.argument_count() {
                let value: melior::ir::Value = block.argument(i).unwrap().into();
                let location = value_location(value);
                // SAFETY: as above.
                unsafe {
                    mlirBlockArgumentSetLocation(value.to_raw(), rename(context, location, file))
                };
            }
        }
    }
}

fn value_location(value: melior::ir::Value) -> MlirLocation {
    value.location().to_raw()
}

/// `location` with every `FileLineCol` in the parser's buffer renamed.
fn rename(context: MlirContext, location: MlirLocation, file: &str) -> MlirLocation {
    // SAFETY: accessors are called on the location kinds they belong to.
    unsafe {
        if mlirLocationIsAFileLineColRange(location) {
            let name = StringRef::from_raw(mlirIdentifierStr(
                mlirLocationFileLineColRangeGetFilename(location),
            ));
            if name.as_str() != Ok(PARSER_BUFFER_NAME) {
                return location;
            }
            return mlirLocationFileLineColGet(
                context,
                StringRef::new(file).to_raw(),
                mlirLocationFileLineColRangeGetStartLine(location) as u32,
                mlirLocationFileLineColRangeGetStartColumn(location) as u32,
            );
        }
        if mlirLocationIsAName(location) {
            let child = rename(context, mlirLocationNameGetChildLoc(location), file);
            return mlirLocationNameGet(
                context,
                mlirIdentifierStr(mlirLocationNameGetName(location)),
                child,
            );
        }
        if mlirLocationIsACallSite(location) {
            let callee = rename(context, mlirLocationCallSiteGetCallee(location), file);
            let caller = rename(context, mlirLocationCallSiteGetCaller(location), file);
            return mlirLocationCallSiteGet(callee, caller);
        }
        if mlirLocationIsAFused(location) {
            let count = mlirLocationFusedGetNumLocations(location);
            let mut members = vec![
                MlirLocation {
                    ptr: std::ptr::null()
                };
                count as usize
            ];
            mlirLocationFusedGetLocations(location, members.as_mut_ptr());
            let members: Vec<MlirLocation> = members
                .into_iter()
                .map(|m| rename(context, m, file))
                .collect();
            return mlirLocationFusedGet(
                context,
                count as isize,
                members.as_ptr(),
                mlirLocationFusedGetMetadata(location),
            );
        }
    }
    location
}

/// Renames the parser's buffer name to `file` in captured diagnostics.
pub fn rename_diagnostics(records: &mut [Record], file: &str) {
    for record in records {
        if let Some(position) = &mut record.location {
            if position.file == PARSER_BUFFER_NAME {
                position.file = file.to_owned();
            }
        }
        rename_diagnostics(&mut record.notes, file);
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
