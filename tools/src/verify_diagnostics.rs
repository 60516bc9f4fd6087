//! `--verify-diagnostics`: checks the diagnostics of a run against the
//! `expected-*` comments of the input, as `mlir-opt` does
//! (`mlir::SourceMgrDiagnosticVerifierHandler`).
//!
//! A comment `// expected-error {{text}}` expects an error whose message
//! contains `text` on the comment's line; `@+N` / `@-N` move that line,
//! `@above` / `@below` mean the previous / next line, and `@N` names line
//! N. Kinds: `error`, `warning`, `remark`, `note`; `expected-<kind>-re`
//! takes a text whose `{{...}}` parts are regular expressions. Every diagnostic must be
//! expected, and every expectation must be met; each miss is reported as
//! an error at the diagnostic or at the comment.

use crate::diagnostics::{Kind, Record};
use apipe_dialect::location::FileLineCol;

/// One `expected-<kind> [@line] {{text}}` comment.
#[derive(Clone, Debug)]
pub struct Expectation {
    /// The kind expected.
    pub kind: Kind,
    /// The line the diagnostic must be on (1-based).
    pub line: u32,
    /// Where the comment itself is, for "was not produced" reports.
    pub at: FileLineCol,
    /// The text the message must contain.
    pub text: String,
    /// For `expected-<kind>-re`: the text as a regex (literal parts
    /// escaped, `{{...}}` parts as written), which must match part of the
    /// message.
    pub regex: Option<regex::Regex>,
    /// Set once a diagnostic matched.
    pub matched: bool,
}

/// Reads the expectations of `text` (one chunk, with its real line
/// numbers) of file `file`.
///
/// # Errors
/// A malformed comment, as an error record at the comment.
pub fn parse_expectations(file: &str, text: &str) -> Result<Vec<Expectation>, Record> {
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_number = index as u32 + 1;
        let mut rest = line;
        let mut consumed = 0usize;
        while let Some(start) = rest.find("expected-") {
            let column = (consumed + start) as u32 + 1;
            let at = FileLineCol {
                file: file.into(),
                line: line_number,
                column,
            };
            let after = &rest[start + "expected-".len()..];
            let (kind, after) = match ["error", "warning", "remark", "note"]
                .iter()
                .find(|k| after.starts_with(**k))
            {
                Some(&k) => (
                    match k {
                        "error" => Kind::Error,
                        "warning" => Kind::Warning,
                        "remark" => Kind::Remark,
                        _ => Kind::Note,
                    },
                    &after[k.len()..],
                ),
                None => {
                    consumed += start + "expected-".len();
                    rest = after;
                    continue;
                }
            };
            let bad = |message: &str| Record {
                kind: Kind::Error,
                location: Some(at.clone()),
                message: message.into(),
                notes: vec![],
            };
            let (is_regex, after) = match after.strip_prefix("-re") {
                Some(rest) => (true, rest),
                None => (false, after),
            };
            let mut after = after.trim_start();
            let mut target = line_number as i64;
            if let Some(designator) = after.strip_prefix('@') {
                let end = designator
                    .find(|c: char| c.is_whitespace() || c == '{')
                    .unwrap_or(designator.len());
                let word = &designator[..end];
                target = match word {
                    "above" => target - 1,
                    "below" => target + 1,
                    _ if word.starts_with('+') || word.starts_with('-') => {
                        target
                            + word
                                .parse::<i64>()
                                .map_err(|_| bad("invalid line offset in expected-* comment"))?
                    }
                    _ => word
                        .parse::<i64>()
                        .map_err(|_| bad("invalid line designator in expected-* comment"))?,
                };
                after = designator[end..].trim_start();
            }
            let Some(body) = after.strip_prefix("{{") else {
                return Err(bad("expected '{{' after expected-* in comment"));
            };
            // A regex expectation may hold `{{...}}` parts: it ends at the
            // last `}}` of the line.
            let end = if is_regex {
                body.rfind("}}")
            } else {
                body.find("}}")
            };
            let Some(end) = end else {
                return Err(bad("found start of regex with no end '}}'"));
            };
            let regex = if is_regex {
                Some(
                    expectation_regex(&body[..end])
                        .map_err(|e| bad(&format!("invalid regex: {e}")))?,
                )
            } else {
                None
            };
            if target < 1 {
                return Err(bad(
                    "expected-* line designator points before the start of the file",
                ));
            }
            out.push(Expectation {
                kind,
                line: target as u32,
                at,
                text: body[..end].to_owned(),
                regex,
                matched: false,
            });
            // `body` is a suffix of `rest`: continue after its closing `}}`.
            let advanced = rest.len() - body.len() + end + 2;
            consumed += advanced;
            rest = &rest[advanced..];
        }
    }
    Ok(out)
}

/// The regex of an `expected-*-re` text: literal parts escaped, the
/// insides of `{{...}}` kept as regex (MLIR's convention).
fn expectation_regex(text: &str) -> Result<regex::Regex, regex::Error> {
    let mut pattern = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        pattern.push_str(&regex::escape(&rest[..open]));
        let inner = &rest[open + 2..];
        let close = inner.find("}}").unwrap_or(inner.len());
        pattern.push_str(&format!("(?:{})", &inner[..close]));
        rest = inner.get(close + 2..).unwrap_or("");
    }
    pattern.push_str(&regex::escape(rest));
    regex::Regex::new(&pattern)
}

impl Expectation {
    fn matches(&self, message: &str) -> bool {
        match &self.regex {
            Some(regex) => regex.is_match(message),
            None => message.contains(&self.text),
        }
    }
}

/// Matches `diagnostics` (notes included) against `expectations` and
/// returns one error record per unexpected diagnostic and per unmet
/// expectation, in that order.
pub fn verify(file: &str, diagnostics: &[Record], expectations: &mut [Expectation]) -> Vec<Record> {
    let mut failures = Vec::new();
    let mut flat = Vec::new();
    flatten(diagnostics, &mut flat);
    for record in flat {
        let found = record
            .location
            .as_ref()
            .filter(|p| p.file == file)
            .and_then(|position| {
                expectations.iter_mut().find(|e| {
                    !e.matched
                        && e.kind == record.kind
                        && e.line == position.line
                        && e.matches(&record.message)
                })
            });
        match found {
            Some(expectation) => expectation.matched = true,
            None => failures.push(Record {
                kind: Kind::Error,
                location: record.location.clone(),
                message: format!("unexpected {}: {}", record.kind.as_str(), record.message),
                notes: vec![],
            }),
        }
    }
    for expectation in expectations.iter().filter(|e| !e.matched) {
        failures.push(Record {
            kind: Kind::Error,
            location: Some(expectation.at.clone()),
            message: format!(
                "expected {} \"{}\" was not produced",
                expectation.kind.as_str(),
                expectation.text
            ),
            notes: vec![],
        });
    }
    failures
}

fn flatten<'r>(records: &'r [Record], out: &mut Vec<&'r Record>) {
    for record in records {
        out.push(record);
        flatten(&record.notes, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(kind: Kind, line: u32, message: &str) -> Record {
        Record {
            kind,
            location: Some(FileLineCol {
                file: "f".into(),
                line,
                column: 3,
            }),
            message: message.into(),
            notes: vec![],
        }
    }

    #[test]
    fn parses_designators() {
        let text = "// expected-error @+1 {{first}}\nop\nop // expected-warning {{second}} expected-note @above {{third}}\n// expected-remark@below{{fourth}}\n";
        let expectations = parse_expectations("f", text).unwrap();
        let summary: Vec<_> = expectations
            .iter()
            .map(|e| (e.kind, e.line, e.text.as_str()))
            .collect();
        assert_eq!(
            summary,
            vec![
                (Kind::Error, 2, "first"),
                (Kind::Warning, 3, "second"),
                (Kind::Note, 2, "third"),
                (Kind::Remark, 5, "fourth")
            ]
        );
    }

    #[test]
    fn reports_unexpected_and_unmet() {
        let mut expectations =
            parse_expectations("f", "// expected-error @+1 {{bad}}\nop\n").unwrap();
        let failures = verify(
            "f",
            &[record(Kind::Error, 2, "very bad thing")],
            &mut expectations,
        );
        assert!(failures.is_empty());
        let mut expectations =
            parse_expectations("f", "// expected-error @+1 {{bad}}\nop\n").unwrap();
        let failures = verify("f", &[record(Kind::Error, 1, "other")], &mut expectations);
        let messages: Vec<_> = failures.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            messages,
            vec![
                "unexpected error: other",
                "expected error \"bad\" was not produced"
            ]
        );
    }

    #[test]
    fn regex_expectations() {
        let text = "// expected-error-re@+1 {{'arith.constant' op {{.*}} type}}\nop\n";
        let mut expectations = parse_expectations("f", text).unwrap();
        let ok = record(Kind::Error, 2, "'arith.constant' op value of wrong type");
        assert!(verify("f", &[ok], &mut expectations).is_empty());
        let mut expectations = parse_expectations("f", text).unwrap();
        let bad = record(Kind::Error, 2, "'arith.constant' op (x) kind");
        assert_eq!(verify("f", &[bad], &mut expectations).len(), 2);
    }

    #[test]
    fn malformed_comment_is_an_error() {
        assert!(parse_expectations("f", "// expected-error {{never closed\n").is_err());
        assert!(parse_expectations("f", "// expected-error oops\n").is_err());
    }
}
