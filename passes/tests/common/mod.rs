//! Random structured programs with commits and waits (straight-line code,
//! `scf.for` with static and dynamic bounds, `scf.while`, `scf.if` with and
//! without `else`, nesting, one or two queues, tokens in iter_args and if
//! results), their MLIR text, and a
//! brute-force path enumerator: the naive reference that the optimised
//! group-distance analysis is tested against.
//!
//! Shared by `tests/conversion_props.rs` (proptest) and
//! `benches/precision.rs` (the precision benchmark).
#![allow(dead_code)]

pub mod pipelines;

use std::collections::{BTreeMap, BTreeSet};

/// SplitMix64: a small deterministic generator (seeded by proptest or the
/// benchmark).
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// True with probability 1/2.
    pub fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
}

/// The trip count of a loop.
#[derive(Clone, Copy, Debug)]
pub enum Trip {
    /// A constant trip count.
    Static(u32),
    /// A function argument: 0, 1, 2, ... iterations.
    Dynamic,
}

/// A token carried through a loop: `arg` in the body (init `init`, yield
/// `yielded`), `result` after it.
#[derive(Clone, Debug)]
pub struct Carried {
    pub arg: String,
    pub init: String,
    pub yielded: String,
    pub result: String,
}

/// A token result of an `scf.if`.
#[derive(Clone, Debug)]
pub struct Branched {
    pub result: String,
    pub then_value: String,
    pub else_value: String,
}

/// A statement.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// `commit_group` on `queue`, with a token named `var` (token form).
    Commit { queue: u8, var: Option<String> },
    /// `apipe.wait` on `tokens`, tagged `tag`.
    Wait { tag: usize, tokens: Vec<String> },
    /// `wait_group {queue, pending}`, tagged `tag`.
    WaitGroup { tag: usize, queue: u8, pending: u32 },
    /// `scf.for`.
    For {
        trip: Trip,
        carried: Vec<Carried>,
        body: Vec<Stmt>,
    },
    /// `scf.while` without carried values: `before` runs, then the
    /// condition (a function argument) exits or runs `after` and loops.
    While { before: Vec<Stmt>, after: Vec<Stmt> },
    /// `scf.if` (`els = None`: no else region).
    If {
        then: Vec<Stmt>,
        els: Option<Vec<Stmt>>,
        results: Vec<Branched>,
    },
}

/// A generated function.
#[derive(Clone, Debug)]
pub struct Program {
    pub body: Vec<Stmt>,
    pub queues: u8,
    pub token_form: bool,
}

/// Shape of the generated programs.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Statements in all (an upper bound).
    pub statements: usize,
    /// Nesting depth of loops and ifs.
    pub depth: usize,
    /// Number of queues (1 or 2).
    pub queues: u8,
    /// Token form (waits on tokens, tokens in iter_args and if results)
    /// or counting form (wait_group).
    pub token_form: bool,
    /// Largest static trip count.
    pub max_trip: u32,
    /// Tokens are picked among the `window` newest in scope (0: any).
    pub window: usize,
}

struct Generator<'r> {
    rng: &'r mut Rng,
    shape: Shape,
    budget: usize,
    next_var: usize,
    next_tag: usize,
}

impl Generator<'_> {
    fn fresh(&mut self) -> String {
        self.next_var += 1;
        format!("%v{}", self.next_var)
    }

    fn pick(&mut self, scope: &[(String, u8)], queue: Option<u8>) -> (String, u8) {
        let candidates: Vec<&(String, u8)> = scope
            .iter()
            .filter(|(_, q)| queue.is_none_or(|queue| *q == queue))
            .collect();
        let candidates = if self.shape.window > 0 && candidates.len() > self.shape.window {
            candidates[candidates.len() - self.shape.window..].to_vec()
        } else {
            candidates
        };
        // Prefer recent tokens.
        let n = candidates.len() as u64;
        let index = if n > 3 && self.rng.coin() {
            n - 1 - self.rng.below(3)
        } else {
            self.rng.below(n)
        };
        candidates[index as usize].clone()
    }

    fn block(&mut self, scope: &mut Vec<(String, u8)>, depth: usize) -> Vec<Stmt> {
        let mut out = Vec::new();
        let count = 1 + self.rng.below(4);
        for _ in 0..count {
            // Never an empty region (at most one statement over budget).
            if self.budget == 0 && !out.is_empty() {
                break;
            }
            self.budget = self.budget.saturating_sub(1);
            let nested = depth < self.shape.depth;
            let stmt = match self.rng.below(10) {
                4..=6 => self.wait(scope),
                7 if nested => self.for_loop(scope, depth),
                8 if nested => {
                    if self.rng.below(3) == 0 {
                        self.while_loop(scope, depth)
                    } else {
                        self.for_loop(scope, depth)
                    }
                }
                9 if nested => self.branch(scope, depth),
                _ => self.commit(scope),
            };
            out.push(stmt);
        }
        out
    }

    fn commit(&mut self, scope: &mut Vec<(String, u8)>) -> Stmt {
        let queue = self.rng.below(self.shape.queues as u64) as u8;
        let var = self.shape.token_form.then(|| self.fresh());
        if let Some(var) = &var {
            scope.push((var.clone(), queue));
        }
        Stmt::Commit { queue, var }
    }

    fn wait(&mut self, scope: &[(String, u8)]) -> Stmt {
        self.next_tag += 1;
        let tag = self.next_tag;
        if !self.shape.token_form {
            return Stmt::WaitGroup {
                tag,
                queue: self.rng.below(self.shape.queues as u64) as u8,
                pending: self.rng.below(4) as u32,
            };
        }
        let count = if self.rng.below(4) == 0 { 2 } else { 1 };
        let tokens = (0..count).map(|_| self.pick(scope, None).0).collect();
        Stmt::Wait { tag, tokens }
    }

    fn for_loop(&mut self, scope: &mut Vec<(String, u8)>, depth: usize) -> Stmt {
        let trip = if self.rng.coin() {
            Trip::Static(self.rng.below(self.shape.max_trip as u64 + 1) as u32)
        } else {
            Trip::Dynamic
        };
        let carried_count = if self.shape.token_form {
            self.rng.below(3) as usize
        } else {
            0
        };
        let mut inner = scope.clone();
        let mut partial = Vec::new();
        for _ in 0..carried_count {
            let (init, queue) = self.pick(scope, None);
            let arg = self.fresh();
            inner.push((arg.clone(), queue));
            partial.push((arg, init, queue));
        }
        let body = self.block(&mut inner, depth + 1);
        let base = self.fresh();
        let mut carried = Vec::new();
        for (index, (arg, init, queue)) in partial.into_iter().enumerate() {
            let yielded = self.pick(&inner, Some(queue)).0;
            let result = if carried_count == 1 {
                base.clone()
            } else {
                format!("{base}#{index}")
            };
            scope.push((result.clone(), queue));
            carried.push(Carried {
                arg,
                init,
                yielded,
                result,
            });
        }
        Stmt::For {
            trip,
            carried,
            body,
        }
    }

    fn while_loop(&mut self, scope: &[(String, u8)], depth: usize) -> Stmt {
        let before = self.block(&mut scope.to_vec(), depth + 1);
        let after = self.block(&mut scope.to_vec(), depth + 1);
        Stmt::While { before, after }
    }

    fn branch(&mut self, scope: &mut Vec<(String, u8)>, depth: usize) -> Stmt {
        let has_else = self.rng.coin();
        let mut then_scope = scope.clone();
        let then = self.block(&mut then_scope, depth + 1);
        let mut else_scope = scope.clone();
        let els = has_else.then(|| self.block(&mut else_scope, depth + 1));
        let result_count = if has_else && self.shape.token_form {
            self.rng.below(3) as usize
        } else {
            0
        };
        let base = self.fresh();
        let mut results = Vec::new();
        for index in 0..result_count {
            let queue = self.rng.below(self.shape.queues as u64) as u8;
            let then_value = self.pick(&then_scope, Some(queue)).0;
            let else_value = self.pick(&else_scope, Some(queue)).0;
            let result = if result_count == 1 {
                base.clone()
            } else {
                format!("{base}#{index}")
            };
            scope.push((result.clone(), queue));
            results.push(Branched {
                result,
                then_value,
                else_value,
            });
        }
        Stmt::If { then, els, results }
    }
}

/// Generates a program of `shape` from `rng`.
pub fn generate(rng: &mut Rng, shape: Shape) -> Program {
    let mut generator = Generator {
        rng,
        shape,
        budget: shape.statements,
        next_var: 0,
        next_tag: 0,
    };
    let mut scope: Vec<(String, u8)> = (0..shape.queues)
        .map(|q| (format!("%ready{q}"), q))
        .collect();
    let mut body = Vec::new();
    while generator.budget > 0 {
        body.extend(generator.block(&mut scope, 0));
    }
    Program {
        body,
        queues: shape.queues,
        token_form: shape.token_form,
    }
}

/// ` queue q` in the custom syntax of the apipe ops; nothing for queue 0.
fn queue_clause(queue: u8) -> String {
    if queue == 0 {
        String::new()
    } else {
        format!(" queue {queue}")
    }
}

struct Printer {
    out: String,
    conditions: usize,
    trip_counts: usize,
}

impl Printer {
    fn line(&mut self, indent: usize, text: &str) {
        for _ in 0..indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn tokens(count: usize) -> String {
        vec!["!apipe.token"; count].join(", ")
    }

    fn block(&mut self, stmts: &[Stmt], indent: usize) {
        for stmt in stmts {
            match stmt {
                Stmt::Commit { queue, var } => match var {
                    Some(var) => self.line(
                        indent,
                        &format!("{var} = apipe.commit_group{}", queue_clause(*queue)),
                    ),
                    None => self.line(
                        indent,
                        &format!("apipe.commit_group{}", queue_clause(*queue)),
                    ),
                },
                Stmt::Wait { tag, tokens } => self.line(
                    indent,
                    &format!("apipe.wait {} {{tag = {tag} : i64}}", tokens.join(", ")),
                ),
                Stmt::WaitGroup {
                    tag,
                    queue,
                    pending,
                } => self.line(
                    indent,
                    &format!(
                        "apipe.wait_group {pending}{} {{tag = {tag} : i64}}",
                        queue_clause(*queue)
                    ),
                ),
                Stmt::For {
                    trip,
                    carried,
                    body,
                } => {
                    let upper = match trip {
                        Trip::Static(n) => format!("%c{n}"),
                        Trip::Dynamic => {
                            self.trip_counts += 1;
                            format!("%n{}", self.trip_counts - 1)
                        }
                    };
                    let results = match carried.len() {
                        0 => String::new(),
                        1 => format!("{} = ", carried[0].result),
                        n => format!("{}:{n} = ", carried[0].result.split('#').next().unwrap()),
                    };
                    let iter_args = if carried.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " iter_args({}) -> ({})",
                            carried
                                .iter()
                                .map(|c| format!("{} = {}", c.arg, c.init))
                                .collect::<Vec<_>>()
                                .join(", "),
                            Self::tokens(carried.len())
                        )
                    };
                    self.line(
                        indent,
                        &format!("{results}scf.for %i{indent}_{} = %c0 to {upper} step %c1{iter_args} {{", self.out.len()),
                    );
                    self.block(body, indent + 1);
                    if !carried.is_empty() {
                        self.line(
                            indent + 1,
                            &format!(
                                "scf.yield {} : {}",
                                carried
                                    .iter()
                                    .map(|c| c.yielded.clone())
                                    .collect::<Vec<_>>()
                                    .join(", "),
                                Self::tokens(carried.len())
                            ),
                        );
                    }
                    self.line(indent, "}");
                }
                Stmt::While { before, after } => {
                    self.conditions += 1;
                    let condition = format!("%p{}", self.conditions - 1);
                    self.line(indent, "scf.while : () -> () {");
                    self.block(before, indent + 1);
                    self.line(indent + 1, &format!("scf.condition({condition})"));
                    self.line(indent, "} do {");
                    self.block(after, indent + 1);
                    self.line(indent + 1, "scf.yield");
                    self.line(indent, "}");
                }
                Stmt::If { then, els, results } => {
                    self.conditions += 1;
                    let condition = format!("%p{}", self.conditions - 1);
                    let head = match results.len() {
                        0 => format!("scf.if {condition} {{"),
                        1 => format!(
                            "{} = scf.if {condition} -> (!apipe.token) {{",
                            results[0].result
                        ),
                        n => format!(
                            "{}:{n} = scf.if {condition} -> ({}) {{",
                            results[0].result.split('#').next().unwrap(),
                            Self::tokens(n)
                        ),
                    };
                    self.line(indent, &head);
                    self.block(then, indent + 1);
                    let yield_of = |values: Vec<String>| {
                        format!(
                            "scf.yield {} : {}",
                            values.join(", "),
                            Self::tokens(values.len())
                        )
                    };
                    if !results.is_empty() {
                        let line = yield_of(results.iter().map(|r| r.then_value.clone()).collect());
                        self.line(indent + 1, &line);
                    }
                    if let Some(els) = els {
                        self.line(indent, "} else {");
                        self.block(els, indent + 1);
                        if !results.is_empty() {
                            let line =
                                yield_of(results.iter().map(|r| r.else_value.clone()).collect());
                            self.line(indent + 1, &line);
                        }
                    }
                    self.line(indent, "}");
                }
            }
        }
    }
}

/// The program as a module with one `func.func @f`; conditions and dynamic
/// trip counts are function arguments (each independent).
pub fn to_mlir(program: &Program) -> String {
    let mut printer = Printer {
        out: String::new(),
        conditions: 0,
        trip_counts: 0,
    };
    printer.block(&program.body, 1);
    let mut head = String::new();
    let mut arguments: Vec<String> = (0..printer.conditions)
        .map(|i| format!("%p{i}: i1"))
        .collect();
    arguments.extend((0..printer.trip_counts).map(|i| format!("%n{i}: index")));
    head.push_str(&format!("func.func @f({}) {{\n", arguments.join(", ")));
    for n in 0..=8 {
        head.push_str(&format!("  %c{n} = arith.constant {n} : index\n"));
    }
    if program.token_form {
        for q in 0..program.queues {
            head.push_str(&format!("  %ready{q} = apipe.ready{}\n", queue_clause(q)));
        }
    }
    format!("{head}{}  return\n}}\n", printer.out)
}

/// What the paths show at one wait on one queue.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observed {
    /// Groups committed after the newest waited group, per path where a
    /// waited token of this queue names a group.
    pub distances: BTreeSet<u64>,
    /// Paths that reach the wait with no group named on this queue.
    pub no_group: bool,
    /// For `wait_group`: groups of every queue committed after the group it
    /// completes, per path where that group exists (the merged FIFO order
    /// of `apipe-merge-queues`).
    pub merged_distances: BTreeSet<u64>,
}

/// One path's state: groups committed per queue, and what each token names
/// (queue, index of the group in its queue; `None` for ready).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct PathState {
    committed: Vec<u64>,
    tokens: BTreeMap<String, (u8, Option<u64>)>,
    /// The queue of every group committed so far, in order.
    history: Vec<u8>,
}

/// Observations per (wait tag, queue). For `wait_group`, `distances` holds
/// `pending` on paths where the queue has more than `pending` groups, and
/// `no_group` marks paths where it has fewer (a no-op wait).
pub type Observations = BTreeMap<(usize, u8), Observed>;

/// Brute force: runs every path, each dynamic loop 0 to `max_unroll` times
/// and each `if` both ways (independently), and records what each wait
/// sees; with `merged`, also the merged FIFO distances of `wait_group`s
/// (paths then keep their whole commit history). `None` if more than
/// `max_states` distinct states arise at once.
pub fn enumerate_paths(
    program: &Program,
    max_unroll: u32,
    max_states: usize,
    merged: bool,
) -> Option<Observations> {
    let mut tokens = BTreeMap::new();
    for q in 0..program.queues {
        tokens.insert(format!("%ready{q}"), (q, None));
    }
    let start = PathState {
        committed: vec![0; program.queues as usize],
        tokens,
        history: Vec::new(),
    };
    let mut enumerator = Enumerator {
        max_unroll,
        max_states,
        merged,
        too_many: false,
        observations: Observations::new(),
    };
    enumerator.block(&program.body, vec![start]);
    (!enumerator.too_many).then_some(enumerator.observations)
}

struct Enumerator {
    max_unroll: u32,
    max_states: usize,
    merged: bool,
    too_many: bool,
    observations: Observations,
}

fn dedup(states: Vec<PathState>) -> Vec<PathState> {
    let set: BTreeSet<PathState> = states.into_iter().collect();
    set.into_iter().collect()
}

impl Enumerator {
    fn block(&mut self, stmts: &[Stmt], mut states: Vec<PathState>) -> Vec<PathState> {
        for stmt in stmts {
            if self.too_many {
                return Vec::new();
            }
            states = dedup(self.stmt(stmt, states));
            if states.len() > self.max_states {
                self.too_many = true;
                return Vec::new();
            }
        }
        states
    }

    fn stmt(&mut self, stmt: &Stmt, states: Vec<PathState>) -> Vec<PathState> {
        match stmt {
            Stmt::Commit { queue, var } => states
                .into_iter()
                .map(|mut s| {
                    let index = s.committed[*queue as usize];
                    s.committed[*queue as usize] += 1;
                    if self.merged {
                        s.history.push(*queue);
                    }
                    if let Some(var) = var {
                        s.tokens.insert(var.clone(), (*queue, Some(index)));
                    }
                    s
                })
                .collect(),
            Stmt::Wait { tag, tokens } => {
                for s in &states {
                    let mut per_queue: BTreeMap<u8, Option<u64>> = BTreeMap::new();
                    for token in tokens {
                        let (queue, group) = s.tokens[token];
                        let distance = group.map(|g| s.committed[queue as usize] - g - 1);
                        let entry = per_queue.entry(queue).or_insert(None);
                        *entry = match (*entry, distance) {
                            (Some(a), Some(b)) => Some(a.min(b)),
                            (a, b) => a.or(b),
                        };
                    }
                    for (queue, distance) in per_queue {
                        let observed = self.observations.entry((*tag, queue)).or_default();
                        match distance {
                            Some(d) => {
                                observed.distances.insert(d);
                            }
                            None => observed.no_group = true,
                        }
                    }
                }
                states
            }
            Stmt::WaitGroup {
                tag,
                queue,
                pending,
            } => {
                let merged = self.merged;
                for s in &states {
                    let observed = self.observations.entry((*tag, *queue)).or_default();
                    if s.committed[*queue as usize] > *pending as u64 {
                        observed.distances.insert(*pending as u64);
                        if !merged {
                            continue;
                        }
                        // The (pending+1)-th newest group of the queue, and
                        // every group of any queue after it.
                        let position = s
                            .history
                            .iter()
                            .enumerate()
                            .rev()
                            .filter(|(_, q)| **q == *queue)
                            .nth(*pending as usize)
                            .unwrap()
                            .0;
                        let after = (s.history.len() - position - 1) as u64;
                        observed.merged_distances.insert(after);
                    } else {
                        observed.no_group = true;
                    }
                }
                states
            }
            Stmt::For {
                trip,
                carried,
                body,
            } => {
                let bind = |states: Vec<PathState>,
                            from: &dyn Fn(&Carried) -> &String,
                            to: &dyn Fn(&Carried) -> &String| {
                    states
                        .into_iter()
                        .map(|mut s| {
                            let values: Vec<_> =
                                carried.iter().map(|c| s.tokens[from(c)]).collect();
                            for (c, v) in carried.iter().zip(values) {
                                s.tokens.insert(to(c).clone(), v);
                            }
                            s
                        })
                        .collect::<Vec<_>>()
                };
                let mut current = bind(states, &|c| &c.init, &|c| &c.arg);
                let (low, high) = match trip {
                    Trip::Static(n) => (*n, *n),
                    Trip::Dynamic => (0, self.max_unroll),
                };
                let mut exits = Vec::new();
                for iteration in 0..=high {
                    if iteration >= low {
                        exits.extend(current.iter().cloned());
                    }
                    if iteration == high {
                        break;
                    }
                    current = self.block(body, current);
                    current = bind(current, &|c| &c.yielded, &|c| &c.arg);
                }
                if high == 0 && low == 0 {
                    // Body never runs; its waits are unreachable.
                }
                bind(dedup(exits), &|c| &c.arg, &|c| &c.result)
            }
            Stmt::While { before, after } => {
                // The condition exits after 1 to `max_unroll + 1` runs of
                // the before-region.
                let mut exits = Vec::new();
                let mut current = states;
                for iteration in 0..=self.max_unroll {
                    current = self.block(before, current);
                    exits.extend(current.iter().cloned());
                    if iteration == self.max_unroll {
                        break;
                    }
                    current = self.block(after, current);
                }
                dedup(exits)
            }
            Stmt::If { then, els, results } => {
                let mut out = Vec::new();
                let then_states = self.block(then, states.clone());
                for mut s in then_states {
                    for r in results {
                        let v = s.tokens[&r.then_value];
                        s.tokens.insert(r.result.clone(), v);
                    }
                    out.push(s);
                }
                match els {
                    Some(els) => {
                        for mut s in self.block(els, states) {
                            for r in results {
                                let v = s.tokens[&r.else_value];
                                s.tokens.insert(r.result.clone(), v);
                            }
                            out.push(s);
                        }
                    }
                    None => out.extend(states),
                }
                out
            }
        }
    }
}

/// For each `wait_group` tag, the tags of the run of consecutive
/// `wait_group`s it belongs to (no commit in between: they wait at one
/// point).
pub fn wait_runs(stmts: &[Stmt], out: &mut BTreeMap<usize, Vec<usize>>) {
    let mut run: Vec<usize> = Vec::new();
    let flush = |run: &mut Vec<usize>, out: &mut BTreeMap<usize, Vec<usize>>| {
        for tag in run.iter() {
            out.insert(*tag, run.clone());
        }
        run.clear();
    };
    for stmt in stmts {
        match stmt {
            Stmt::WaitGroup { tag, .. } => run.push(*tag),
            Stmt::For { body, .. } => {
                flush(&mut run, out);
                wait_runs(body, out);
            }
            Stmt::While { before, after } => {
                flush(&mut run, out);
                wait_runs(before, out);
                wait_runs(after, out);
            }
            Stmt::If { then, els, .. } => {
                flush(&mut run, out);
                wait_runs(then, out);
                if let Some(els) = els {
                    wait_runs(els, out);
                }
            }
            _ => flush(&mut run, out),
        }
    }
    flush(&mut run, out);
}
