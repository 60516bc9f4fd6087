//! Minimising a crashing input: hierarchical delta debugging (Misherghi
//! and Su, "HDD: hierarchical delta debugging", ICSE 2006) over ops, then
//! plain delta debugging (Zeller and Hildebrandt, "Simplifying and
//! isolating failure-inducing input", TSE 2002) over lines, keeping every
//! step that still crashes with the same class.
//!
//! 1. for each nesting depth, outermost first: remove chunks of the ops
//!    at that depth (whole ops, with their regions, so the text stays
//!    balanced), halving the chunk size down to one op;
//! 2. remove chunks of lines, halving the chunk size down to one line;
//! 3. repeat while a round shrinks the input, within the run budget.

use super::text;

/// Minimises `input` while `crashes` holds, calling it at most `budget`
/// times. `crashes(candidate)` runs the target and says whether it still
/// crashes with the same class.
pub fn reduce(input: &str, budget: usize, crashes: impl FnMut(&str) -> bool) -> String {
    let mut reducer = Reducer {
        lines: input.lines().map(str::to_owned).collect(),
        runs: 0,
        budget,
        crashes,
    };
    loop {
        let before = reducer.lines.len();
        // 1.
        let mut depth = 0;
        loop {
            let statements: Vec<(usize, usize)> = text::statements(&reducer.lines)
                .into_iter()
                .filter(|s| s.depth == depth)
                .map(|s| (s.start, s.end))
                .collect();
            if statements.is_empty() {
                if !text::statements(&reducer.lines)
                    .iter()
                    .any(|s| s.depth > depth)
                {
                    break;
                }
            } else {
                reducer.remove_chunks(&statements);
            }
            depth += 1;
        }
        // 2.
        let lines: Vec<(usize, usize)> = (0..reducer.lines.len()).map(|i| (i, i)).collect();
        reducer.remove_chunks(&lines);
        if reducer.lines.len() >= before || reducer.runs >= reducer.budget {
            break;
        }
    }
    join(&reducer.lines)
}

struct Reducer<F> {
    lines: Vec<String>,
    runs: usize,
    budget: usize,
    crashes: F,
}

impl<F: FnMut(&str) -> bool> Reducer<F> {
    /// ddmin's complement steps over `units` (disjoint inclusive line
    /// ranges, in order): removes chunks of units while the crash stays.
    fn remove_chunks(&mut self, units: &[(usize, usize)]) {
        let mut units: Vec<(usize, usize)> = units.to_vec();
        let mut chunk = units.len().div_ceil(2).max(1);
        loop {
            let mut start = 0;
            while start < units.len() && self.runs < self.budget {
                let end = (start + chunk).min(units.len());
                let removed: Vec<(usize, usize)> = units[start..end].to_vec();
                let candidate: Vec<String> = self
                    .lines
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !removed.iter().any(|&(a, b)| a <= *i && *i <= b))
                    .map(|(_, l)| l.clone())
                    .collect();
                if candidate.len() < self.lines.len()
                    && !candidate.is_empty()
                    && self.attempt(&candidate)
                {
                    // Shift the later units by the lines removed.
                    let gone: usize = removed.iter().map(|&(a, b)| b - a + 1).sum();
                    self.lines = candidate;
                    units.drain(start..end);
                    for unit in &mut units[start..] {
                        unit.0 -= gone;
                        unit.1 -= gone;
                    }
                } else {
                    start = end;
                }
            }
            if chunk == 1 || self.runs >= self.budget {
                break;
            }
            chunk = chunk.div_ceil(2);
        }
    }

    fn attempt(&mut self, candidate: &[String]) -> bool {
        self.runs += 1;
        (self.crashes)(&join(candidate))
    }
}

fn join(lines: &[String]) -> String {
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_what_the_crash_needs() {
        let input = "func.func @f() {\n  %a = arith.constant 1 : index\n  BOOM\n  %b = arith.constant 2 : index\n  scf.if %x {\n    noise\n  }\n  return\n}\n";
        let reduced = reduce(input, 1000, |candidate| candidate.contains("BOOM"));
        assert_eq!(reduced, "  BOOM\n");
        let reduced = reduce(input, 1000, |candidate| {
            candidate.contains("BOOM") && candidate.contains("return")
        });
        assert_eq!(reduced, "  BOOM\n  return\n");
    }

    #[test]
    fn removes_whole_ops_with_their_regions() {
        // Balanced braces are the crash condition: only whole ops go.
        let input = "a {\n  b {\n    c\n  }\n  d\n}\ne\n";
        let reduced = reduce(input, 1000, |candidate| {
            candidate.contains('d')
                && candidate.matches('{').count() == candidate.matches('}').count()
        });
        assert_eq!(reduced, "a {\n  d\n}\n");
    }

    #[test]
    fn respects_the_budget() {
        let input = "a\nb\nc\nd\n";
        let mut calls = 0;
        let _ = reduce(input, 3, |_| {
            calls += 1;
            false
        });
        assert_eq!(calls, 3);
    }
}
