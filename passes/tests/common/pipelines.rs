//! Random inputs of `apipe-software-pipeline`: one annotated `scf.for` that
//! copies tiles of `%A` asynchronously and consumes them in later stages,
//! with the shapes the pipeliner must handle (1-3 async stages, 1-4 copies,
//! copies of copies, consumers at random stages and orders, static,
//! dynamic, zero and small trip counts, the loop nested in outer loops,
//! `scf.if` around copies and their reads, buffers written synchronously).
//!
//! [`generate`] draws a [`Pipeline`] from an [`Rng`]; [`Pipeline::kernel`]
//! prints its kernel function `@kernel(%A, %out, %n, %c)` and
//! [`Pipeline::scenarios`] the arguments to run it with (every dynamic trip
//! count and condition value worth trying). The description is data, so
//! later shapes (unannotated loops with `num-stages`, `gpu.func` forms) are
//! new fields and printers, not a new generator.

use super::Rng;
use std::fmt::Write as _;

/// The trip count of the pipelined loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trip {
    /// A constant count (0 included).
    Static(i64),
    /// The argument `%n` is the upper bound; the scenarios try several.
    Dynamic,
}

/// When the copies of a conditional group run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    /// The `i1` argument `%c` (true and false are both tried).
    Argument,
    /// `i mod 3 != 1`: the iteration decides.
    Iteration,
}

/// One asynchronous copy of a tile and its consumer.
#[derive(Clone, Debug)]
pub struct Copy {
    /// Its (async) stage.
    pub stage: i64,
    /// Elements per tile (2 or 4).
    pub elements: i64,
    /// Copies the tile of this earlier copy out of its buffer (a copy of a
    /// copy) instead of `%A`.
    pub from: Option<usize>,
    /// The stage of the consumer (a load, then a store to `%out`).
    pub consumer: i64,
    /// The element the consumer reads first (it reads the whole tile).
    pub read: i64,
    /// The consumer reads the whole tile with `vector.load`.
    pub vector: bool,
    /// The copy and its consumer run under this condition.
    pub condition: Option<Condition>,
    /// `apipe.order` of the copy and of its consumer.
    pub order: Option<(i64, i64)>,
    /// The consumer's value goes through a one-element buffer written in
    /// the consumer's stage and read in this stage.
    pub staging: Option<i64>,
}

/// A generated pipelining input.
#[derive(Clone, Debug)]
pub struct Pipeline {
    /// The copies.
    pub copies: Vec<Copy>,
    /// The async stages (`apipe.async_stages`); every copy is in one.
    pub async_stages: Vec<i64>,
    /// The trip count.
    pub trip: Trip,
    /// The lower bound of the loop (the upper is `lower + trips * step`).
    pub lower: i64,
    /// The step.
    pub step: i64,
    /// Trip counts of the loops around the pipelined one, outermost first.
    pub outer: Vec<i64>,
}

/// Largest static trip count drawn.
pub const MAX_TRIPS: i64 = 7;

/// Largest trip count a dynamic loop runs with: every count from 0 up to
/// it is a scenario. The pipelined loop's kernel runs from the stage count
/// (at most 5) up, and a mutant may break at some counts only: one whose
/// wait names the wrong phase of an mbarrier ring of K slots (K <= 8)
/// breaks for one residue of the count mod 2K, so every residue of the
/// kernel's counts is run (4 + 2 * 8 = 20).
pub const MAX_DYNAMIC_TRIPS: i64 = 20;

/// Draws a pipeline: async stages `S` (`{0}`, `{0, 1}`, `{0, 1, 2}` or
/// `{0, 2}`); each copy in a stage of `S`, its consumer in a later stage
/// outside `S` (async stages hold only copies and pure ops).
pub fn generate(rng: &mut Rng) -> Pipeline {
    let count = 1 + rng.below(4) as usize;
    let async_stages: Vec<i64> = match rng.below(4) {
        0 => vec![0],
        1 => vec![0, 1],
        2 => vec![0, 1, 2],
        _ => vec![0, 2],
    };
    // The first stage after `s` that is not async, `extra` further on.
    let consumer_after = |s: i64, extra: i64| -> i64 {
        let mut t = s + 1;
        let mut skipped = 0;
        loop {
            if !async_stages.contains(&t) {
                if skipped == extra {
                    return t;
                }
                skipped += 1;
            }
            t += 1;
        }
    };
    let mut copies: Vec<Copy> = Vec::new();
    for k in 0..count {
        let stage = async_stages[rng.below(async_stages.len() as u64) as usize];
        // A copy of an earlier copy's tile, one stage or more later.
        let from = if k > 0 && rng.below(5) == 0 {
            let source = rng.below(k as u64) as usize;
            (copies[source].stage < stage && copies[source].condition.is_none()).then_some(source)
        } else {
            None
        };
        let consumer = consumer_after(stage, rng.below(2) as i64);
        let elements = if rng.coin() { 2 } else { 4 };
        let condition = match (from, rng.below(6)) {
            (None, 0) => Some(Condition::Argument),
            (None, 1) => Some(Condition::Iteration),
            _ => None,
        };
        // Staged through a synchronous buffer, read in the same stage (rarely
        // a later one, which the pipeliner refuses).
        let staging = (rng.below(6) == 0 && condition.is_none()).then(|| {
            if rng.below(10) == 0 {
                consumer_after(consumer, 0)
            } else {
                consumer
            }
        });
        copies.push(Copy {
            stage,
            elements,
            from,
            consumer,
            read: rng.below(elements as u64) as i64,
            vector: rng.below(5) == 0,
            condition,
            order: None,
            staging,
        });
    }
    // A copy that a later copy reads keeps its tile until then; the later
    // copy reads it in an async stage, so its own consumer moves too.
    for k in 0..copies.len() {
        if let Some(source) = copies[k].from {
            let later = copies[k].stage;
            if copies[source].consumer < later {
                copies[source].consumer = consumer_after(later, 0);
            }
        }
    }
    // Orders: sometimes the consumers before the copies in the body.
    if rng.below(4) == 0 {
        let n = copies.len() as i64;
        for (k, copy) in copies.iter_mut().enumerate() {
            copy.order = Some((n + k as i64, k as i64));
        }
    }
    let trip = if rng.coin() {
        Trip::Static(rng.below(MAX_TRIPS as u64 + 1) as i64)
    } else {
        Trip::Dynamic
    };
    let outer = match rng.below(6) {
        0 => vec![2],
        1 => vec![2, 2],
        _ => Vec::new(),
    };
    Pipeline {
        copies,
        async_stages,
        trip,
        lower: rng.below(2) as i64,
        step: 1 + rng.below(2) as i64,
        outer,
    }
}

/// One set of arguments of the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// `%n`: the upper bound when the trip count is dynamic.
    pub upper: i64,
    /// `%c`.
    pub condition: bool,
}

impl Pipeline {
    /// The largest stage.
    pub fn max_stage(&self) -> i64 {
        self.copies
            .iter()
            .map(|c| c.consumer.max(c.staging.unwrap_or(0)))
            .max()
            .unwrap_or(0)
    }

    /// The async stages that hold a copy, sorted.
    pub fn async_stages(&self) -> Vec<i64> {
        let mut stages: Vec<i64> = self.copies.iter().map(|c| c.stage).collect();
        stages.sort();
        stages.dedup();
        stages
    }

    fn uses_argument_condition(&self) -> bool {
        self.copies
            .iter()
            .any(|c| c.condition == Some(Condition::Argument))
    }

    /// Elements of `%A`: every tile of every copy of every iteration.
    pub fn source_size(&self) -> i64 {
        let tile: i64 = self.copies.iter().map(|c| c.elements).sum();
        (self.lower + MAX_DYNAMIC_TRIPS * self.step + 1) * tile
    }

    /// Elements of `%out`: one per copy, iteration and outer iteration.
    pub fn output_size(&self) -> i64 {
        let outer: i64 = self.outer.iter().product();
        outer.max(1) * (self.lower + MAX_DYNAMIC_TRIPS * self.step + 1) * self.copies.len() as i64
    }

    /// The kernel's arguments to try.
    pub fn scenarios(&self) -> Vec<Scenario> {
        let uppers: Vec<i64> = match self.trip {
            Trip::Static(_) => vec![0],
            // Every count up to MAX_DYNAMIC_TRIPS: a mutant's hazard may show at
            // one count only (a guard `i mod 3` against 3 versions showed
            // at 6 trips, which the list once skipped).
            Trip::Dynamic => (0..=MAX_DYNAMIC_TRIPS)
                .map(|t| self.lower + t * self.step)
                .collect(),
        };
        let conditions: &[bool] = if self.uses_argument_condition() {
            &[true, false]
        } else {
            &[true]
        };
        let mut out = Vec::new();
        for &upper in &uppers {
            for &condition in conditions {
                out.push(Scenario { upper, condition });
            }
        }
        out
    }

    /// The kernel `func.func @kernel(%A: memref<?xf32>, %out: memref<?xf32>,
    /// %n: index, %c: i1)` with the annotated loop.
    pub fn kernel(&self) -> String {
        let (na, no) = (self.source_size(), self.output_size());
        let count = self.copies.len() as i64;
        let tile: i64 = self.copies.iter().map(|c| c.elements).sum();
        let mut t = String::new();
        let _ = writeln!(
            t,
            "func.func @kernel(%A: memref<{na}xf32>, %out: memref<{no}xf32> {{llvm.noalias}}, %n: index, %c: i1) {{"
        );
        for v in 0..=8 {
            let _ = writeln!(t, "  %c{v} = arith.constant {v} : index");
        }
        let _ = writeln!(t, "  %ctile = arith.constant {tile} : index");
        let _ = writeln!(t, "  %ccount = arith.constant {count} : index");
        let _ = writeln!(
            t,
            "  %cspan = arith.constant {} : index",
            (self.lower + MAX_DYNAMIC_TRIPS * self.step + 1) * count
        );
        let mut offset = 0;
        for (k, copy) in self.copies.iter().enumerate() {
            let _ = writeln!(t, "  %off{k} = arith.constant {offset} : index");
            offset += copy.elements;
        }
        let _ = writeln!(t, "  %one = arith.constant 1.0 : f32");
        let _ = writeln!(t, "  %ten = arith.constant 10.0 : f32");
        let _ = writeln!(t, "  %zero = arith.constant 0.0 : f32");
        for (k, copy) in self.copies.iter().enumerate() {
            let _ = writeln!(
                t,
                "  %b{k} = memref.alloc() : memref<{}xf32>",
                copy.elements
            );
            if copy.staging.is_some() {
                let _ = writeln!(t, "  %s{k} = memref.alloc() : memref<1xf32>");
            }
        }
        // The outer loops and the output offset of their iteration.
        let mut indent = 1;
        let mut outer_index = "%c0".to_owned();
        for (d, trips) in self.outer.iter().enumerate() {
            let pad = "  ".repeat(indent);
            let _ = writeln!(t, "{pad}scf.for %o{d} = %c0 to %c{trips} step %c1 {{");
            indent += 1;
            let pad = "  ".repeat(indent);
            let _ = writeln!(
                t,
                "{pad}%os{d} = arith.muli {outer_index}, %c{trips} : index"
            );
            let _ = writeln!(t, "{pad}%oi{d} = arith.addi %os{d}, %o{d} : index");
            outer_index = format!("%oi{d}");
        }
        let pad = "  ".repeat(indent);
        let upper = match self.trip {
            Trip::Static(n) => {
                let _ = writeln!(
                    t,
                    "{pad}%ub = arith.constant {} : index",
                    self.lower + n * self.step
                );
                "%ub".to_owned()
            }
            Trip::Dynamic => "%n".to_owned(),
        };
        let _ = writeln!(
            t,
            "{pad}%outbase = arith.muli {outer_index}, %cspan : index"
        );
        let _ = writeln!(
            t,
            "{pad}scf.for %i = %c{} to {upper} step %c{} {{",
            self.lower, self.step
        );
        let body = "  ".repeat(indent + 1);
        for (k, copy) in self.copies.iter().enumerate() {
            let s = copy.stage;
            let order = |which: usize| match copy.order {
                Some((a, b)) => format!(", apipe.order = {} : i64", if which == 0 { a } else { b }),
                None => String::new(),
            };
            let attrs = |stage: i64, which: usize| {
                format!("{{apipe.stage = {stage} : i64{}}}", order(which))
            };
            let copy_attrs = attrs(s, 0);
            // The condition, in the copy's stage.
            if copy.condition == Some(Condition::Iteration) {
                let _ = writeln!(t, "{body}%m{k} = arith.remui %i, %c3 {copy_attrs} : index");
                let _ = writeln!(
                    t,
                    "{body}%q{k} = arith.cmpi ne, %m{k}, %c1 {copy_attrs} : index"
                );
            }
            let condition = match copy.condition {
                Some(Condition::Argument) => Some("%c".to_owned()),
                Some(Condition::Iteration) => Some(format!("%q{k}")),
                None => None,
            };
            // The copy: tile (i * tile + offset) of %A, or the source
            // copy's buffer.
            let e = copy.elements;
            let statement = match copy.from {
                None => {
                    let _ = writeln!(
                        t,
                        "{body}%t{k} = arith.muli %i, %ctile {copy_attrs} : index"
                    );
                    let _ = writeln!(
                        t,
                        "{body}%a{k} = arith.addi %t{k}, %off{k} {copy_attrs} : index"
                    );
                    format!(
                        "apipe.copy %A[%a{k}], %b{k}[%c0], {e} : memref<{na}xf32> to memref<{e}xf32>"
                    )
                }
                Some(source) => {
                    let es = self.copies[source].elements;
                    let n = e.min(es);
                    format!(
                        "apipe.copy %b{source}[%c0], %b{k}[%c0], {n} : memref<{es}xf32> to memref<{e}xf32>"
                    )
                }
            };
            match &condition {
                Some(c) => {
                    let _ = writeln!(t, "{body}scf.if {c} {{");
                    let _ = writeln!(t, "{body}  {statement}");
                    let _ = writeln!(t, "{body}}} {copy_attrs}");
                }
                None => {
                    let (head, tail) = statement.split_at(statement.find(" : ").unwrap());
                    let _ = writeln!(t, "{body}{head} {copy_attrs}{tail}");
                }
            }
            // The consumer: out[outbase + i * count + k] = buf[read] + 1 (or
            // the sum of the tile).
            let ts = copy.consumer;
            let cattrs = attrs(ts, 1);
            let inner = if condition.is_some() {
                format!("{body}  ")
            } else {
                body.clone()
            };
            let mut lines = Vec::new();
            // The whole tile: a change of any element shows.
            if copy.vector {
                lines.push(format!(
                    "%v{k} = vector.load %b{k}[%c0] : memref<{e}xf32>, vector<{e}xf32>"
                ));
                lines.push(format!(
                    "%r{k} = vector.reduction <add>, %v{k} : vector<{e}xf32> into f32"
                ));
            } else {
                // Weighted, so that two changes do not cancel out.
                lines.push(format!(
                    "%r{k}_0 = memref.load %b{k}[%c{}] : memref<{e}xf32>",
                    copy.read
                ));
                for j in 1..e {
                    let at = (copy.read + j) % e;
                    lines.push(format!(
                        "%l{k}_{j} = memref.load %b{k}[%c{at}] : memref<{e}xf32>"
                    ));
                    lines.push(format!(
                        "%p{k}_{j} = arith.mulf %r{k}_{}, %ten : f32",
                        j - 1
                    ));
                    lines.push(format!("%r{k}_{j} = arith.addf %p{k}_{j}, %l{k}_{j} : f32"));
                }
                lines.push(format!("%r{k} = arith.addf %r{k}_{}, %zero : f32", e - 1));
            }
            lines.push(format!("%y{k} = arith.addf %r{k}, %one : f32"));
            lines.push(format!("%w{k}a = arith.muli %i, %ccount : index"));
            lines.push(format!("%w{k}b = arith.addi %w{k}a, %c{k} : index"));
            lines.push(format!("%w{k} = arith.addi %w{k}b, %outbase : index"));
            match copy.staging {
                Some(r) if r == ts => {
                    lines.push(format!("memref.store %y{k}, %s{k}[%c0] : memref<1xf32>"));
                    lines.push(format!("%z{k} = memref.load %s{k}[%c0] : memref<1xf32>"));
                    lines.push(format!(
                        "memref.store %z{k}, %out[%w{k}] : memref<{no}xf32>"
                    ));
                }
                Some(_) => {
                    lines.push(format!("memref.store %y{k}, %s{k}[%c0] : memref<1xf32>"));
                }
                None => lines.push(format!(
                    "memref.store %y{k}, %out[%w{k}] : memref<{no}xf32>"
                )),
            }
            match &condition {
                Some(c) => {
                    let _ = writeln!(t, "{body}scf.if {c} {{");
                    for line in &lines {
                        let _ = writeln!(t, "{inner}{line}");
                    }
                    let _ = writeln!(t, "{body}}} {cattrs}");
                }
                None => {
                    for line in &lines {
                        let (head, tail) = match line.find(" : ") {
                            Some(p) => line.split_at(p),
                            None => (line.as_str(), ""),
                        };
                        let _ = writeln!(t, "{body}{head} {cattrs}{tail}");
                    }
                }
            }
            // A staging buffer read in a later stage.
            if let Some(r) = copy.staging.filter(|r| *r != ts) {
                let rattrs = attrs(r, 1);
                let _ = writeln!(
                    t,
                    "{body}%z{k} = memref.load %s{k}[%c0] {rattrs} : memref<1xf32>"
                );
                let _ = writeln!(t, "{body}%u{k}a = arith.muli %i, %ccount {rattrs} : index");
                let _ = writeln!(
                    t,
                    "{body}%u{k}b = arith.addi %u{k}a, %c{k} {rattrs} : index"
                );
                let _ = writeln!(
                    t,
                    "{body}%u{k} = arith.addi %u{k}b, %outbase {rattrs} : index"
                );
                let _ = writeln!(
                    t,
                    "{body}memref.store %z{k}, %out[%u{k}] {rattrs} : memref<{no}xf32>"
                );
            }
        }
        let stages: Vec<String> = self.async_stages().iter().map(|s| s.to_string()).collect();
        let _ = writeln!(
            t,
            "{pad}}} {{apipe.async_stages = array<i64: {}>}}",
            stages.join(", ")
        );
        for d in (0..self.outer.len()).rev() {
            let _ = writeln!(t, "{}}}", "  ".repeat(d + 1));
        }
        let _ = writeln!(t, "  return\n}}");
        t
    }
}
