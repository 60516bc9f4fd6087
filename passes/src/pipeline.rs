//! Textual pass pipelines in MLIR's grammar, with apipe passes in them.
//!
//! ```text
//! pipeline ::= op-anchor '(' element-list? ')'
//! element  ::= pass-name ('{' options '}')? | op-anchor '(' element-list? ')'
//! ```
//!
//! e.g. `builtin.module(func.func(apipe-make-sync),canonicalize{max-iterations=3})`.
//!
//! The MLIR C API cannot name Rust passes in a textual pipeline
//! (`mlirParsePassPipeline` only knows the C++ registry), so this module
//! parses the nesting and options itself:
//! 1. parse the text into a tree of [`Element`]s;
//! 2. walk it: an anchor becomes `OpPassManager::nest(anchor)`; an apipe
//!    pass is created from the [registry](crate::registry) and added; any
//!    other pass name goes to MLIR as a one-element pipeline
//!    (`mlirOpPassManagerAddPipeline`), which checks the name and options.

use crate::{registry, Error};
use melior::{pass::OperationPassManager, StringRef};
use mlir_sys::{mlirOpPassManagerAddPipeline, MlirStringRef};
use std::ffi::c_void;

/// One element of a pipeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Element {
    /// A pass and its option text (without braces).
    Pass {
        /// Its name (`apipe-make-sync`, `canonicalize`).
        name: String,
        /// Its options in MLIR syntax, empty for none.
        options: String,
    },
    /// A nested pass manager anchored on an op name (`func.func`).
    Nested {
        /// The op name.
        anchor: String,
        /// Its elements.
        elements: Vec<Element>,
    },
}

impl std::fmt::Display for Element {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Element::Pass { name, options } if options.is_empty() => write!(f, "{name}"),
            Element::Pass { name, options } => write!(f, "{name}{{{options}}}"),
            Element::Nested { anchor, elements } => {
                write!(f, "{anchor}(")?;
                for (i, element) in elements.iter().enumerate() {
                    if i > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{element}")?;
                }
                write!(f, ")")
            }
        }
    }
}

/// Parses a full pipeline: one anchored element, e.g. `builtin.module(...)`.
///
/// # Errors
/// [`Error::Pipeline`] naming the offset of the problem.
pub fn parse(text: &str) -> Result<Element, Error> {
    let mut parser = Parser { text, pos: 0 };
    let element = parser.element()?;
    parser.skip_space();
    if parser.pos != text.len() {
        return Err(parser.error("unexpected trailing text"));
    }
    match element {
        Element::Nested { .. } => Ok(element),
        Element::Pass { .. } => {
            Err(parser.error("expected an op-anchored pipeline such as 'builtin.module(...)'"))
        }
    }
}

/// Parses a comma-separated element list without an anchor (the inside of
/// `builtin.module(...)`).
///
/// # Errors
/// [`Error::Pipeline`].
pub fn parse_elements(text: &str) -> Result<Vec<Element>, Error> {
    let mut parser = Parser { text, pos: 0 };
    let elements = parser.elements()?;
    parser.skip_space();
    if parser.pos != text.len() {
        return Err(parser.error("unexpected trailing text"));
    }
    Ok(elements)
}

/// Adds `elements` to `manager`, nesting where the elements say.
///
/// # Errors
/// An unknown pass, bad options (apipe's or MLIR's message).
pub fn add_elements(manager: OperationPassManager, elements: &[Element]) -> Result<(), Error> {
    for element in elements {
        match element {
            Element::Nested { anchor, elements } => {
                add_elements(manager.nested_under(anchor), elements)?;
            }
            Element::Pass { name, options } => match registry::lookup(name) {
                Some(info) => manager.add_pass(info.create(options)?),
                None => add_upstream(manager, &element.to_string(), name)?,
            },
        }
    }
    Ok(())
}

/// Hands one upstream pass (with options) to MLIR's textual parser.
fn add_upstream(manager: OperationPassManager, text: &str, name: &str) -> Result<(), Error> {
    unsafe extern "C" fn collect(message: MlirStringRef, data: *mut c_void) {
        // SAFETY: `data` is the `String` below, alive during the call.
        let out = unsafe { &mut *(data as *mut String) };
        if let Ok(text) = unsafe { StringRef::from_raw(message) }.as_str() {
            out.push_str(text);
        }
    }
    let mut message = String::new();
    // SAFETY: the manager is live; `message` outlives the call.
    let result = unsafe {
        mlirOpPassManagerAddPipeline(
            manager.to_raw(),
            StringRef::new(text).to_raw(),
            Some(collect),
            &mut message as *mut String as *mut c_void,
        )
    };
    if result.value == 0 {
        if message.contains("does not refer to a registered pass") || message.is_empty() {
            return Err(Error::UnknownPass(name.into()));
        }
        // LLVM's option parser prefixes its message with the (empty) program
        // name: ": for the --x option: ...".
        let message = message.trim().trim_start_matches(':').trim();
        return Err(Error::Upstream(format!(
            "invalid options for pass '{name}': {message}"
        )));
    }
    Ok(())
}

struct Parser<'t> {
    text: &'t str,
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, reason: &str) -> Error {
        Error::Pipeline {
            pipeline: self.text.into(),
            reason: format!("{reason} at offset {}", self.pos),
        }
    }

    fn skip_space(&mut self) {
        while self.text[self.pos..].starts_with(char::is_whitespace) {
            self.pos += self.text[self.pos..].chars().next().unwrap().len_utf8();
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn elements(&mut self) -> Result<Vec<Element>, Error> {
        let mut elements = Vec::new();
        self.skip_space();
        if matches!(self.peek(), None | Some(')')) {
            return Ok(elements);
        }
        loop {
            elements.push(self.element()?);
            self.skip_space();
            if self.peek() == Some(',') {
                self.pos += 1;
            } else {
                return Ok(elements);
            }
        }
    }

    fn element(&mut self) -> Result<Element, Error> {
        self.skip_space();
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '$') {
                self.pos += 1;
            } else {
                break;
            }
        }
        if start == self.pos {
            return Err(self.error("expected a pass or op name"));
        }
        let name = self.text[start..self.pos].to_owned();
        match self.peek() {
            Some('(') => {
                self.pos += 1;
                let elements = self.elements()?;
                self.skip_space();
                if self.peek() != Some(')') {
                    return Err(self.error("expected ')'"));
                }
                self.pos += 1;
                Ok(Element::Nested {
                    anchor: name,
                    elements,
                })
            }
            Some('{') => {
                let options = self.braced()?;
                Ok(Element::Pass { name, options })
            }
            _ => Ok(Element::Pass {
                name,
                options: String::new(),
            }),
        }
    }

    /// Reads `{...}` (nesting and quotes respected) and returns the inside.
    fn braced(&mut self) -> Result<String, Error> {
        let open = self.pos;
        let mut depth = 0usize;
        let mut quote: Option<char> = None;
        for (offset, c) in self.text[open..].char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '{') => depth += 1,
                (None, '}') => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos = open + offset + 1;
                        return Ok(self.text[open + 1..open + offset].to_owned());
                    }
                }
                _ => {}
            }
        }
        self.pos = self.text.len();
        Err(self.error("unterminated '{' in pass options"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_nesting_and_options() {
        let pipeline =
            parse("builtin.module(func.func(apipe-make-sync, cse), canonicalize{max-iterations=3 region-simplify=disabled})")
                .unwrap();
        assert_eq!(
            pipeline.to_string(),
            "builtin.module(func.func(apipe-make-sync,cse),canonicalize{max-iterations=3 region-simplify=disabled})"
        );
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "builtin.module(",
            "builtin.module(a,)",
            "apipe-make-sync",
            "x(a{b)",
            "builtin.module(a))",
        ] {
            assert!(matches!(parse(bad), Err(Error::Pipeline { .. })), "{bad}");
        }
    }

    #[test]
    fn empty_lists() {
        assert_eq!(
            parse("builtin.module()").unwrap().to_string(),
            "builtin.module()"
        );
        assert_eq!(parse_elements("").unwrap(), vec![]);
    }
}
