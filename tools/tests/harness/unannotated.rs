//! Unannotated inputs: the loops of the generated inputs with no
//! `apipe.stage` / `apipe.order` / `apipe.async_stages`, pipelined from a
//! number of stages alone (`apipe-software-pipeline{num-stages=N}` or
//! `apipe.num_stages = N` on the loop), N from 2 to 5.

use super::common::Rng;

/// How the pipelined loop gets its schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stages {
    /// Hand annotations on every op of the body.
    Annotated,
    /// No annotations; the pass option `num-stages=N`.
    Option(i64),
    /// No annotations; `apipe.num_stages = N` on the loop.
    Attribute(i64),
}

impl Stages {
    /// An unannotated schedule: N in 2..=5, as a pass option or as the
    /// loop's attribute.
    pub fn draw(rng: &mut Rng) -> Self {
        let n = 2 + rng.below(4) as i64;
        if rng.coin() {
            Stages::Option(n)
        } else {
            Stages::Attribute(n)
        }
    }

    /// The pass option `num-stages`.
    pub fn option(self) -> Option<i64> {
        match self {
            Stages::Option(n) => Some(n),
            _ => None,
        }
    }
}

/// `kernel` (printed by [`super::common::pipelines::Pipeline::kernel`])
/// as a user writes it without annotations: the loop body's statements in
/// async stages (the copies, their conditions and index arithmetic) first,
/// in their order, then the others (the consumers) in theirs, as in a
/// synchronous loop that loads its tiles and then computes (the annotated
/// text interleaves each copy with its consumer, and a consumer's store
/// before a later copy is a write the schedule may not move after it: the
/// scheduler refuses). Then every `{apipe.stage = S : i64}` or
/// `{apipe.stage = S : i64, apipe.order = O : i64}` dictionary is removed,
/// and the loop's `{apipe.async_stages = array<i64: ...>}` becomes
/// `{apipe.num_stages = N : i64}` for [`Stages::Attribute`] and nothing
/// otherwise.
///
/// The order changes nothing the program prints: the copies read `%A` and
/// their earlier copies' buffers, which no consumer writes, and the
/// consumers write `%out` and their staging buffers, which no copy reads.
pub fn strip(kernel: &str, stages: Stages) -> String {
    let reordered = copies_first(kernel);
    let mut out = String::with_capacity(reordered.len());
    for line in reordered.lines() {
        let mut line = line.to_owned();
        while let Some(start) = line.find(" {apipe.stage = ") {
            let Some(len) = line[start..].find('}') else {
                break;
            };
            line.replace_range(start..start + len + 1, "");
        }
        if let Some(start) = line.find(" {apipe.async_stages = ") {
            let replacement = match stages {
                Stages::Attribute(n) => format!(" {{apipe.num_stages = {n} : i64}}"),
                _ => String::new(),
            };
            line.replace_range(start.., &replacement);
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The stage in `{apipe.stage = S ...}` on `line`.
fn stage_of(line: &str) -> Option<i64> {
    let rest = &line[line.find("apipe.stage = ")? + "apipe.stage = ".len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// The annotated loop of `kernel` with its top-level statements in async
/// stages moved before the others (a stable partition). A statement is a
/// line at the body's indentation with the lines nested in it (an
/// `scf.if` up to its closing `} {apipe.stage = S : i64}`).
fn copies_first(kernel: &str) -> String {
    let lines: Vec<&str> = kernel.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let (Some(head), Some(tail)) = (
        lines
            .iter()
            .position(|l| l.trim_start().starts_with("scf.for %i = ")),
        lines
            .iter()
            .position(|l| l.contains("{apipe.async_stages = array<i64: ")),
    ) else {
        return kernel.to_owned();
    };
    let async_stages: Vec<i64> = {
        let l = lines[tail];
        let from = l
            .find("array<i64: ")
            .map_or(l.len(), |p| p + "array<i64: ".len());
        l[from..]
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|d| d.parse().ok())
            .collect()
    };
    let depth = indent(lines[head]) + 2;
    // Statements: (is in an async stage, lines).
    let mut statements: Vec<(bool, Vec<&str>)> = Vec::new();
    for &line in &lines[head + 1..tail] {
        let top = indent(line) == depth && !line.trim_start().starts_with('}');
        if top || statements.is_empty() {
            statements.push((false, Vec::new()));
        }
        let last = statements.last_mut().expect("a statement");
        if indent(line) == depth {
            if let Some(stage) = stage_of(line) {
                last.0 = async_stages.contains(&stage);
            }
        }
        last.1.push(line);
    }
    let mut out: Vec<&str> = lines[..=head].to_vec();
    for wanted in [true, false] {
        for (is_async, body) in &statements {
            if *is_async == wanted {
                out.extend(body);
            }
        }
    }
    out.extend(&lines[tail..]);
    let mut text = out.join("\n");
    text.push('\n');
    text
}
