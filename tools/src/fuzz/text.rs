//! A line-level view of MLIR text, enough for structure-aware mutation
//! without parsing: statements (ops, with the lines of their regions),
//! functions, the values each line defines, and where a new op may go.
//!
//! The view is a heuristic over the textual form MLIR prints and people
//! write (one op per line, regions opened at the end of a line and closed
//! by a line that starts with `}`); a mutant it misjudges is merely an
//! input that does not parse.

/// Brace depth before and after each line, skipping string literals and
/// `//` comments.
pub fn depths(lines: &[String]) -> Vec<(i32, i32)> {
    let mut depth = 0i32;
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let start = depth;
        depth += brace_delta(line);
        out.push((start, depth));
    }
    out
}

/// `{` minus `}` in the code part of `line`.
pub fn brace_delta(line: &str) -> i32 {
    let mut delta = 0;
    let mut in_string = false;
    let mut escaped = false;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
        } else if c == b'"' {
            in_string = true;
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            break;
        } else if c == b'{' {
            delta += 1;
        } else if c == b'}' {
            delta -= 1;
        }
        i += 1;
    }
    delta
}

/// One op: its first and last line (inclusive; the last closes its regions)
/// and the brace depth it sits at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Statement {
    /// The first line.
    pub start: usize,
    /// The last line (inclusive).
    pub end: usize,
    /// The brace depth of the first line.
    pub depth: i32,
}

impl Statement {
    /// Whether the op has regions (spans lines through braces).
    pub fn has_regions(&self, lines: &[String]) -> bool {
        self.end > self.start && lines[self.start].trim_end().ends_with('{')
    }
}

/// Whether `line` starts an op (not a blank, comment, block label or
/// region close).
pub fn starts_statement(line: &str) -> bool {
    let t = line.trim_start();
    !(t.is_empty()
        || t.starts_with("//")
        || t.starts_with('}')
        || t.starts_with('^')
        || t.starts_with(':')
        || t.starts_with("->")
        || t.starts_with(')')
        || t.starts_with(']'))
}

/// Whether `line` continues the op of the line before it (a type signature
/// or operand list broken over lines).
fn continues(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with(':') || t.starts_with("->") || t.starts_with(')') || t.starts_with(']')
}

/// Every op of the text, outermost and nested, in line order.
pub fn statements(lines: &[String]) -> Vec<Statement> {
    let depth = depths(lines);
    let mut out = Vec::new();
    for start in 0..lines.len() {
        if !starts_statement(&lines[start]) {
            continue;
        }
        let base = depth[start].0;
        let mut end = start;
        if depth[start].1 > base {
            // Runs to the line that brings the depth back.
            end = lines.len() - 1;
            for (j, d) in depth.iter().enumerate().skip(start + 1) {
                if d.1 <= base {
                    end = j;
                    break;
                }
            }
        }
        while end + 1 < lines.len() && continues(&lines[end + 1]) && depth[end].1 == base {
            end += 1;
        }
        out.push(Statement {
            start,
            end,
            depth: base,
        });
    }
    out
}

/// The op names MLIR uses for functions with bodies.
pub fn is_function_header(line: &str) -> bool {
    let t = line.trim_start();
    (t.starts_with("func.func ") || t.starts_with("gpu.func ") || t.starts_with("llvm.func "))
        && line.trim_end().ends_with('{')
}

/// The functions (with bodies) of the text.
pub fn functions(lines: &[String]) -> Vec<Statement> {
    statements(lines)
        .into_iter()
        .filter(|s| s.end > s.start && is_function_header(&lines[s.start]))
        .collect()
}

/// The op name of a statement line: `scf.for`, `apipe.copy` (generic
/// `"apipe.copy"(...)` too), or empty.
pub fn op_name(line: &str) -> String {
    let mut t = line.trim_start();
    if t.starts_with('%') {
        if let Some((_, rest)) = t.split_once(" = ") {
            t = rest.trim_start();
        }
    }
    let t = t.strip_prefix('"').unwrap_or(t);
    t.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
        .collect()
}

/// Whether the statement line is a region terminator.
pub fn is_terminator(line: &str) -> bool {
    matches!(
        op_name(line).as_str(),
        "scf.yield"
            | "scf.condition"
            | "func.return"
            | "return"
            | "gpu.return"
            | "gpu.terminator"
            | "gpu.yield"
            | "cf.br"
            | "cf.cond_br"
            | "llvm.return"
            | "affine.yield"
            | "scf.reduce"
            | "scf.in_parallel"
            | "memref.alloca_scope.return"
            | "linalg.yield"
            | "vector.yield"
            | "tensor.yield"
    )
}

/// The apipe synchronization and copy ops.
pub const APIPE_OPS: [&str; 5] = [
    "apipe.copy",
    "apipe.commit_group",
    "apipe.wait_group",
    "apipe.wait",
    "apipe.ready",
];

/// The SSA names a statement line defines in front of `=` (`%a`, `%b` of
/// `%a, %b = ...`; `%r` of `%r:2 = ...`).
pub fn result_names(line: &str) -> Vec<String> {
    let t = line.trim_start();
    if !t.starts_with('%') {
        return vec![];
    }
    let Some((lhs, _)) = t.split_once(" = ") else {
        return vec![];
    };
    lhs.split(',')
        .map(|n| n.trim().split(':').next().unwrap_or("").to_owned())
        .filter(|n| n.starts_with('%'))
        .collect()
}

/// The SSA names a line uses or defines, with their byte ranges.
pub fn ssa_names(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let code_end = code_end(line);
    let mut out = Vec::new();
    let mut i = 0;
    while i < code_end {
        if bytes[i] == b'%' {
            let start = i;
            i += 1;
            while i < code_end
                && (bytes[i].is_ascii_alphanumeric()
                    || matches!(bytes[i], b'_' | b'$' | b'.' | b'-'))
            {
                i += 1;
            }
            if i > start + 1 {
                out.push((start, i));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The byte offset where the `//` comment of `line` starts (its length if
/// none), skipping string literals.
pub fn code_end(line: &str) -> usize {
    let bytes = line.as_bytes();
    let mut in_string = false;
    let mut escaped = false;
    for i in 0..bytes.len() {
        let c = bytes[i];
        if in_string {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
        } else if c == b'"' {
            in_string = true;
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            return i;
        }
    }
    bytes.len()
}

/// Values a line defines with their type where the text shows it:
/// function and block arguments (`%A: memref<...>`), loop induction
/// variables and iter_args, and results of ops whose result type is
/// printed at the end (`arith.constant`, `memref.alloc`, casts, views,
/// `->` of generic ops).
pub fn typed_definitions(line: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let code = &line[..code_end(line)];
    let trimmed = code.trim();
    let name = op_name(code);
    // Arguments written `%x: T` or `%x : T` (functions, blocks, workgroup
    // attributions, iter_args types are separate).
    if is_function_header(code) || trimmed.starts_with('^') || name == "gpu.func" {
        for (start, end) in ssa_names(code) {
            let rest = code[end..].trim_start();
            if let Some(rest) = rest.strip_prefix(':') {
                out.push((
                    code[start..end].to_owned(),
                    Some(leading_type(rest.trim_start())),
                ));
            }
        }
        return out;
    }
    if name == "scf.for" {
        // scf.for %i = ... iter_args(%a = %x, ...) -> (T, ...)
        if let Some(rest) = trimmed.strip_prefix("scf.for ") {
            let rest = rest.strip_prefix("unsigned ").unwrap_or(rest);
            let induction: String = rest.chars().take_while(|c| !c.is_whitespace()).collect();
            let ty = code
                .split(" : ")
                .nth(1)
                .map(|t| leading_type(t.trim_start()))
                .unwrap_or_else(|| "index".to_owned());
            out.push((induction, Some(ty)));
        }
        if let Some((_, args)) = code.split_once("iter_args(") {
            let types: Vec<String> = code
                .rsplit_once("-> (")
                .map(|(_, t)| split_top_level(t.trim_end_matches(['{', ' ', ')'])))
                .or_else(|| {
                    code.rsplit_once("-> ")
                        .map(|(_, t)| vec![leading_type(t.trim_end_matches(['{', ' ']))])
                })
                .unwrap_or_default();
            let args = args.split(')').next().unwrap_or("");
            for (index, binding) in args.split(',').enumerate() {
                let arg = binding.split('=').next().unwrap_or("").trim();
                if arg.starts_with('%') {
                    out.push((arg.to_owned(), types.get(index).cloned()));
                }
            }
        }
        return out;
    }
    let results = result_names(code);
    if results.is_empty() {
        return out;
    }
    let ty = if results.len() == 1 {
        result_type(&name, code)
    } else {
        None
    };
    for result in results {
        out.push((result, ty.clone()));
    }
    out
}

/// The result type of a single-result op line, where the syntax shows it.
fn result_type(name: &str, code: &str) -> Option<String> {
    let code = code.trim_end();
    if let Some((_, after)) = code.rsplit_once("-> ") {
        if !after.starts_with('(') {
            return Some(leading_type(after));
        }
    }
    if matches!(
        name,
        "memref.subview"
            | "memref.cast"
            | "memref.reinterpret_cast"
            | "memref.expand_shape"
            | "memref.collapse_shape"
            | "memref.view"
            | "arith.index_cast"
            | "arith.extf"
            | "arith.truncf"
            | "arith.extsi"
            | "arith.extui"
            | "arith.trunci"
            | "arith.sitofp"
            | "arith.fptosi"
    ) {
        return code.rsplit_once(" to ").map(|(_, t)| leading_type(t));
    }
    let same_type = name.starts_with("arith.") && !matches!(name, "arith.cmpi" | "arith.cmpf")
        || matches!(
            name,
            "memref.alloc" | "memref.alloca" | "memref.get_global" | "index.add" | "index.mul"
        );
    if same_type {
        return code.rsplit_once(" : ").map(|(_, t)| leading_type(t));
    }
    if matches!(name, "arith.cmpi" | "arith.cmpf") {
        return Some("i1".to_owned());
    }
    if name == "memref.load" || name == "memref.dim" {
        return None;
    }
    None
}

/// The type at the start of `text` (up to a top-level `,`, `)`, `{`, or
/// whitespace after a complete type).
pub fn leading_type(text: &str) -> String {
    let mut depth = 0i32;
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ']' => depth -= 1,
            ')' => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            ',' | '{' | ' ' if depth == 0 => break,
            _ => {}
        }
        out.push(c);
    }
    out.trim().to_owned()
}

/// Splits at top-level commas (outside `<>`, `()`, `[]`, `{}`).
pub fn split_top_level(text: &str) -> Vec<String> {
    let mut depth = 0i32;
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            '>' | ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(current.trim().to_owned());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_owned());
    }
    out
}

/// Byte ranges of `memref<...>` types in `line` (balanced angle brackets).
pub fn memref_types(line: &str) -> Vec<(usize, usize)> {
    let end = code_end(line);
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = line[from..end].find("memref<") {
        let start = from + found;
        let mut depth = 0i32;
        let mut stop = None;
        for (offset, c) in line[start..end].char_indices() {
            match c {
                '<' => depth += 1,
                '>' => {
                    depth -= 1;
                    if depth == 0 {
                        stop = Some(start + offset + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
        match stop {
            Some(stop) => {
                out.push((start, stop));
                from = stop;
            }
            None => break,
        }
    }
    out
}

/// Positions where a new op line may be inserted inside the body
/// `[body.start + 1, body.end]` of a function: before line `p`, when line
/// `p - 1` ends an op or opens a region, and the op before a region close is
/// not that region's terminator.
pub fn insertion_points(lines: &[String], function: &Statement) -> Vec<usize> {
    let statements = statements(lines);
    let ends: std::collections::HashSet<usize> = statements.iter().map(|s| s.end).collect();
    let starts: std::collections::HashMap<usize, usize> =
        statements.iter().map(|s| (s.end, s.start)).collect();
    let mut out = Vec::new();
    for p in function.start + 1..=function.end {
        let previous = &lines[p - 1];
        let opens = previous.trim_end().ends_with('{');
        if !(opens || ends.contains(&(p - 1))) {
            continue;
        }
        if continues(&lines[p]) {
            continue;
        }
        let closes = lines[p].trim_start().starts_with('}');
        if closes && !opens {
            let start = starts.get(&(p - 1)).copied().unwrap_or(p - 1);
            if is_terminator(&lines[start]) {
                continue;
            }
        }
        if !opens && !ends.contains(&(p - 1)) {
            continue;
        }
        out.push(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    const PROGRAM: &str = r#"func.func @f(%A: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %n step %c0 iter_args(%acc = %c0) -> (index) {
    "apipe.copy"(%A, %buf, %i, %c0) {elements = 4 : i64, note = "{"} : (memref<64xf32>, memref<4xf32, 3>, index, index) -> ()
    scf.yield %acc : index
  } {apipe.async_stages = array<i64: 0>}
  return
}"#;

    #[test]
    fn statements_span_their_regions() {
        let lines = lines(PROGRAM);
        let statements = statements(&lines);
        let spans: Vec<(usize, usize)> = statements.iter().map(|s| (s.start, s.end)).collect();
        assert_eq!(
            spans,
            vec![(0, 8), (1, 1), (2, 2), (3, 6), (4, 4), (5, 5), (7, 7)]
        );
        assert_eq!(functions(&lines).len(), 1);
        assert_eq!(op_name(&lines[4]), "apipe.copy");
        assert!(is_terminator(&lines[5]));
    }

    #[test]
    fn definitions_carry_types() {
        let lines = lines(PROGRAM);
        assert_eq!(
            typed_definitions(&lines[0]),
            vec![
                ("%A".to_owned(), Some("memref<64xf32>".to_owned())),
                ("%n".to_owned(), Some("index".to_owned()))
            ]
        );
        assert_eq!(
            typed_definitions(&lines[2]),
            vec![("%buf".to_owned(), Some("memref<4xf32, 3>".to_owned()))]
        );
        assert_eq!(
            typed_definitions(&lines[3]),
            vec![
                ("%i".to_owned(), Some("index".to_owned())),
                ("%acc".to_owned(), Some("index".to_owned()))
            ]
        );
    }

    #[test]
    fn insertion_points_avoid_after_terminators() {
        let lines = lines(PROGRAM);
        let function = functions(&lines)[0];
        // Not 6 (after scf.yield, before the loop's close) and not 8
        // (after return).
        assert_eq!(insertion_points(&lines, &function), vec![1, 2, 3, 4, 5, 7]);
    }

    #[test]
    fn memref_types_balance_brackets() {
        let line = "%s = memref.subview %B[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>";
        let found: Vec<&str> = memref_types(line)
            .iter()
            .map(|&(a, b)| &line[a..b])
            .collect();
        assert_eq!(
            found,
            vec!["memref<8xf32>", "memref<4xf32, strided<[1], offset: ?>>"]
        );
    }
}
