//! Pass options in MLIR syntax: `pass-name{key=value key2=value2}`.
//!
//! The grammar is MLIR's (`mlir::detail::PassOptions::parseFromString`):
//! whitespace-separated `key=value` pairs; a bare `key` means `key=true`;
//! a value may be quoted (`"..."`, `'...'`) or braced (`{...}`, nesting
//! allowed). Values are typed by the pass's [`OptionInfo`].

use crate::Error;

/// The type of a pass option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true`/`false` (also `1`/`0`, as LLVM's `cl::opt<bool>`).
    Bool,
    /// A signed 64-bit integer.
    Int,
    /// One of the listed words (an MLIR `ListOption`-free enum option).
    Choice(&'static [&'static str]),
}

/// One declared option of a pass, for parsing and for `--help`.
#[derive(Clone, Copy, Debug)]
pub struct OptionInfo {
    /// The key, kebab-case or snake_case as MLIR passes spell them.
    pub name: &'static str,
    /// Its type.
    pub kind: OptionKind,
    /// One line for `--help`, including the default.
    pub description: &'static str,
}

/// Parsed options of one pass instance: `(key, value)` in written order,
/// keys checked against the pass's declaration.
#[derive(Clone, Debug, Default)]
pub struct PassOptions {
    pass: String,
    values: Vec<(String, String)>,
}

impl PassOptions {
    /// Parses `text` (the inside of `{...}`) for pass `pass`, whose options
    /// are `declared`.
    ///
    /// # Errors
    /// [`Error::UnknownOption`], [`Error::InvalidOptionValue`] for a value of
    /// the wrong type, [`Error::Pipeline`] for unbalanced quotes or braces.
    pub fn parse(pass: &str, declared: &[OptionInfo], text: &str) -> Result<Self, Error> {
        let mut values = Vec::new();
        for item in split_items(text).map_err(|reason| Error::Pipeline {
            pipeline: format!("{pass}{{{text}}}"),
            reason,
        })? {
            let (key, value) = match item.split_once('=') {
                Some((key, value)) => (key.trim(), unquote(value.trim())),
                None => (item.trim(), "true"),
            };
            let Some(info) = declared.iter().find(|o| o.name == key) else {
                return Err(Error::UnknownOption {
                    pass: pass.into(),
                    option: key.into(),
                });
            };
            let options = Self {
                pass: pass.into(),
                values: vec![],
            };
            match info.kind {
                OptionKind::Bool => {
                    options.parse_bool(key, value)?;
                }
                OptionKind::Int => {
                    options.parse_int(key, value)?;
                }
                OptionKind::Choice(words) => {
                    if !words.contains(&value) {
                        return Err(options.invalid(
                            key,
                            value,
                            format!("one of: {}", words.join(", ")),
                        ));
                    }
                }
            }
            values.push((key.to_owned(), value.to_owned()));
        }
        Ok(Self {
            pass: pass.into(),
            values,
        })
    }

    /// The last value given for `name`, parsed as a bool, or `default`.
    pub fn bool(&self, name: &str, default: bool) -> bool {
        self.raw(name)
            .map_or(default, |v| self.parse_bool(name, v).unwrap_or(default))
    }

    /// The last value given for `name`, parsed as an integer, or `default`.
    pub fn int(&self, name: &str, default: i64) -> i64 {
        self.raw(name)
            .map_or(default, |v| self.parse_int(name, v).unwrap_or(default))
    }

    /// The last value given for the choice option `name`, or `default`.
    pub fn choice<'s>(&'s self, name: &str, default: &'s str) -> &'s str {
        self.raw(name).unwrap_or(default)
    }

    /// True if `name` was given.
    pub fn is_set(&self, name: &str) -> bool {
        self.raw(name).is_some()
    }

    fn raw(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn parse_bool(&self, name: &str, value: &str) -> Result<bool, Error> {
        match value {
            "true" | "1" | "TRUE" | "True" => Ok(true),
            "false" | "0" | "FALSE" | "False" => Ok(false),
            _ => Err(self.invalid(name, value, "true or false")),
        }
    }

    fn parse_int(&self, name: &str, value: &str) -> Result<i64, Error> {
        value
            .parse()
            .map_err(|_| self.invalid(name, value, "an integer"))
    }

    fn invalid(&self, name: &str, value: &str, expected: impl Into<String>) -> Error {
        Error::InvalidOptionValue {
            pass: self.pass.clone(),
            option: name.into(),
            value: value.into(),
            expected: expected.into(),
        }
    }
}

/// Splits option text at top-level whitespace, keeping quoted and braced
/// values whole.
fn split_items(text: &str) -> Result<Vec<&str>, String> {
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => {
                quote = Some(c);
                start.get_or_insert(i);
            }
            (None, '{') => {
                depth += 1;
                start.get_or_insert(i);
            }
            (None, '}') => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| format!("unbalanced '}}' at offset {i}"))?;
            }
            (None, c) if c.is_whitespace() && depth == 0 => {
                if let Some(s) = start.take() {
                    items.push(&text[s..i]);
                }
            }
            (None, _) => {
                start.get_or_insert(i);
            }
        }
    }
    if quote.is_some() {
        return Err("unterminated quote in options".into());
    }
    if depth != 0 {
        return Err("unbalanced '{' in options".into());
    }
    if let Some(s) = start {
        items.push(&text[s..]);
    }
    Ok(items)
}

fn unquote(value: &str) -> &str {
    for (open, close) in [('"', '"'), ('\'', '\''), ('{', '}')] {
        if value.len() >= 2 && value.starts_with(open) && value.ends_with(close) {
            return &value[1..value.len() - 1];
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    const DECLARED: &[OptionInfo] = &[
        OptionInfo {
            name: "strict",
            kind: OptionKind::Bool,
            description: "",
        },
        OptionInfo {
            name: "depth",
            kind: OptionKind::Int,
            description: "",
        },
    ];

    #[test]
    fn parses_pairs_bare_keys_and_quotes() {
        let options = PassOptions::parse("p", DECLARED, "strict depth='3'").unwrap();
        assert!(options.bool("strict", false));
        assert_eq!(options.int("depth", 0), 3);
        let options = PassOptions::parse("p", DECLARED, " strict=false ").unwrap();
        assert!(!options.bool("strict", true));
    }

    #[test]
    fn rejects_unknown_and_invalid() {
        assert!(matches!(
            PassOptions::parse("p", DECLARED, "nope=1"),
            Err(Error::UnknownOption { .. })
        ));
        assert!(matches!(
            PassOptions::parse("p", DECLARED, "strict=maybe"),
            Err(Error::InvalidOptionValue { .. })
        ));
        assert!(matches!(
            PassOptions::parse("p", DECLARED, "depth={3"),
            Err(Error::Pipeline { .. })
        ));
    }
}
