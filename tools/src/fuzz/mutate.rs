//! Structure-aware mutation of MLIR text.
//!
//! A mutant is a seed with one to six mutations applied in a row. Each
//! mutation works on lines and ops ([`super::text`]) and aims at programs
//! that still parse but are odd, the inputs that reach the passes:
//!
//! 1. attribute values: `pending`, `queue`, `elements`, `apipe.stage`,
//!    `apipe.order` (generic and custom syntax) and the entries of
//!    `apipe.async_stages`, set to zero, negative, small, huge and i64
//!    extremes; attributes added to ops and removed;
//! 2. synchronization: `apipe.copy` / `commit_group` / `wait_group` /
//!    `wait` / `ready` deleted, duplicated, moved (also into and out of
//!    regions), and new ones inserted (a commit/wait pair on a token, a
//!    copy between two buffers of the program);
//! 3. types: a `memref` type changed everywhere it occurs (or once): a
//!    dimension, the element type, the memory space, a strided layout;
//! 4. loops: a bound or step replaced by a fresh constant, bounds swapped,
//!    `unsigned` added;
//! 5. ops: deleted, duplicated (results renamed), moved, wrapped in a new
//!    `scf.if` / `scf.for` / `scf.execute_region`, or hoisted out of their
//!    region; an operand replaced by another value of the same type;
//! 6. splices: a function (or `gpu.module`) of another seed added, ops of
//!    another seed inserted with their operands renamed to values in scope;
//! 7. a host function turned into a `gpu.func` kernel in a `gpu.module`;
//! 8. rarely, plain line edits and byte flips.

use super::{
    rng::Rng,
    text::{self, Statement},
};

/// Values that find overflow and sign bugs.
pub const INTERESTING: [i64; 44] = [
    0,
    1,
    2,
    3,
    4,
    5,
    7,
    8,
    15,
    16,
    17,
    31,
    32,
    33,
    63,
    64,
    65,
    127,
    128,
    255,
    256,
    1023,
    1024,
    4096,
    65535,
    65536,
    i32::MAX as i64,
    i32::MIN as i64,
    1 << 31,
    1 << 32,
    (1 << 32) + 1,
    1 << 53,
    1 << 62,
    i64::MAX,
    i64::MAX - 1,
    i64::MIN,
    i64::MIN + 1,
    -1,
    -2,
    -4,
    -16,
    -64,
    1_000_000,
    100_000_000,
];

/// The names of the mutations, as counted in campaign reports.
pub const MUTATIONS: [&str; 20] = [
    "apipe-attribute",
    "async-stages",
    "add-attribute",
    "remove-attribute",
    "integer",
    "sync-delete",
    "sync-duplicate",
    "sync-move",
    "sync-insert",
    "memref-type",
    "loop-bounds",
    "op-delete",
    "op-duplicate",
    "op-move",
    "wrap-region",
    "unwrap-region",
    "operand-swap",
    "splice",
    "to-kernel",
    "havoc",
];

/// Relative weights of [`MUTATIONS`].
const WEIGHTS: [u32; 20] = [14, 6, 6, 4, 6, 5, 5, 6, 7, 8, 6, 4, 4, 4, 5, 2, 4, 5, 2, 1];

/// A value for an integer that was `old`.
pub fn pick_value(rng: &mut Rng, old: i64) -> i64 {
    match rng.below(10) {
        0..=3 => *rng.pick(&INTERESTING).unwrap(),
        4 | 5 => old.wrapping_add(rng.range(-3, 3)),
        6 => old.wrapping_mul(2),
        7 => old.wrapping_neg(),
        8 => rng.range(0, 100),
        _ => *rng
            .pick(&[i64::MAX, i64::MIN, 1 << 32, -1, 0, i64::MAX / 2 + 1])
            .unwrap(),
    }
}

/// Mutates seeds; `donors` are the other seeds (for splices).
pub struct Mutator<'a> {
    rng: Rng,
    donors: &'a [String],
    fresh: usize,
}

impl<'a> Mutator<'a> {
    /// A mutator drawing from `rng`, splicing from `donors`.
    pub fn new(rng: Rng, donors: &'a [String]) -> Self {
        Self {
            rng,
            donors,
            fresh: 0,
        }
    }

    /// `seed` with one to six mutations applied; also returns the names of
    /// the mutations that changed it.
    pub fn mutate(&mut self, seed: &str) -> (String, Vec<&'static str>) {
        let mut lines: Vec<String> = seed.lines().map(str::to_owned).collect();
        let mut rounds = 1;
        while rounds < 6 && self.rng.chance(1, 2) {
            rounds += 1;
        }
        let mut applied = Vec::new();
        let mut attempts = 0;
        while applied.len() < rounds && attempts < rounds * 8 {
            attempts += 1;
            let Some(which) = self.rng.weighted(&WEIGHTS) else {
                break;
            };
            if self.apply(which, &mut lines) {
                applied.push(MUTATIONS[which]);
            }
        }
        let mut out = lines.join("\n");
        out.push('\n');
        (out, applied)
    }

    /// Applies mutation `which` ([`MUTATIONS`]); false if it found nothing
    /// to change.
    pub fn apply(&mut self, which: usize, lines: &mut Vec<String>) -> bool {
        match which {
            0 => self.apipe_attribute(lines),
            1 => self.async_stages(lines),
            2 => self.add_attribute(lines),
            3 => self.remove_attribute(lines),
            4 => self.integer(lines),
            5 => self.sync_delete(lines),
            6 => self.sync_duplicate(lines),
            7 => self.sync_move(lines),
            8 => self.sync_insert(lines),
            9 => self.memref_type(lines),
            10 => self.loop_bounds(lines),
            11 => self.op_delete(lines),
            12 => self.op_duplicate(lines),
            13 => self.op_move(lines),
            14 => self.wrap_region(lines),
            15 => self.unwrap_region(lines),
            16 => self.operand_swap(lines),
            17 => self.splice(lines),
            18 => self.make_kernel(lines),
            _ => self.havoc(lines),
        }
    }

    fn fresh_name(&mut self, stem: &str) -> String {
        self.fresh += 1;
        format!("%fz_{stem}{}", self.fresh)
    }

    // 1. Attribute values.

    fn apipe_attribute(&mut self, lines: &mut [String]) -> bool {
        // (line, start, end) of integer literals that are apipe attribute
        // values, in either syntax.
        let mut spots = Vec::new();
        for (index, line) in lines.iter().enumerate() {
            let code = &line[..text::code_end(line)];
            for key in [
                "pending = ",
                "queue = ",
                "elements = ",
                "apipe.stage = ",
                "apipe.order = ",
                "apipe.num_stages = ",
                "apipe.wait_group ",
                "queue ",
                "apipe.async_stages = array<i64: ",
            ] {
                let mut from = 0;
                while let Some(found) = code[from..].find(key) {
                    let start = from + found + key.len();
                    if let Some(end) = integer_end(code, start) {
                        spots.push((index, start, end));
                    }
                    from = start;
                }
            }
            // Custom `apipe.copy %a[...], %b[...], N`: the literal after
            // the second `], `.
            if text::op_name(code) == "apipe.copy" && !code.contains('"') {
                if let Some(pos) = code.match_indices("], ").nth(1).map(|(p, _)| p + 3) {
                    if let Some(end) = integer_end(code, pos) {
                        spots.push((index, pos, end));
                    }
                }
            }
        }
        let Some(&(index, start, end)) = self.rng.pick(&spots) else {
            return false;
        };
        let old: i64 = lines[index][start..end].parse().unwrap_or(0);
        let new = pick_value(&mut self.rng, old);
        lines[index].replace_range(start..end, &new.to_string());
        true
    }

    fn async_stages(&mut self, lines: &mut [String]) -> bool {
        const KEY: &str = "apipe.async_stages = array<i64";
        let spots: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].contains(KEY))
            .collect();
        let Some(&index) = self.rng.pick(&spots) else {
            return false;
        };
        let line = &lines[index];
        let start = line.find(KEY).unwrap() + KEY.len();
        let Some(close) = line[start..].find('>').map(|p| start + p) else {
            return false;
        };
        let mut values: Vec<i64> = line[start..close]
            .trim_start_matches(':')
            .split(',')
            .filter_map(|v| v.trim().parse().ok())
            .collect();
        match self.rng.below(6) {
            0 if !values.is_empty() => {
                let at = self.rng.below(values.len());
                values.remove(at);
            }
            1 => {
                let value = if self.rng.chance(2, 3) {
                    self.rng.range(0, 4)
                } else {
                    pick_value(&mut self.rng, 0)
                };
                let at = self.rng.below(values.len() + 1);
                values.insert(at, value);
            }
            2 if !values.is_empty() => {
                let at = self.rng.below(values.len());
                values[at] = pick_value(&mut self.rng, values[at]);
            }
            3 if !values.is_empty() => {
                let at = self.rng.below(values.len());
                values.insert(at, values[at]);
            }
            4 => values.reverse(),
            _ => values.clear(),
        }
        let list = if values.is_empty() {
            String::new()
        } else {
            format!(
                ": {}",
                values
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        lines[index].replace_range(start..close, &list);
        true
    }

    fn add_attribute(&mut self, lines: &mut [String]) -> bool {
        let statements = text::statements(lines);
        let candidates: Vec<&Statement> = statements.iter().filter(|s| s.depth > 0).collect();
        let Some(&&statement) = self.rng.pick(&candidates) else {
            return false;
        };
        let value = if self.rng.chance(1, 2) {
            self.rng.range(0, 4)
        } else {
            pick_value(&mut self.rng, 1)
        };
        if statement.has_regions(lines) {
            // On the op's closing line: loop annotations.
            let entry = match self.rng.below(3) {
                0 => format!(
                    "apipe.async_stages = array<i64: {}>",
                    (0..self.rng.range(1, 3))
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                1 => format!("apipe.num_stages = {value} : i64"),
                _ => format!("apipe.stage = {value} : i64"),
            };
            return add_to_attribute_dict(&mut lines[statement.end], &entry, true);
        }
        let key = *self
            .rng
            .pick(&[
                "apipe.stage",
                "apipe.stage",
                "apipe.order",
                "queue",
                "pending",
                "elements",
                "bypass_l1",
            ])
            .unwrap();
        let entry = if key == "bypass_l1" {
            key.to_owned()
        } else {
            format!("{key} = {value} : i64")
        };
        add_to_attribute_dict(&mut lines[statement.start], &entry, false)
    }

    fn remove_attribute(&mut self, lines: &mut [String]) -> bool {
        let mut spots = Vec::new();
        for (index, line) in lines.iter().enumerate() {
            for (start, end) in attribute_dicts(line) {
                let entries = text::split_top_level(&line[start + 1..end - 1]);
                for (entry_index, entry) in entries.iter().enumerate() {
                    let key = entry.split('=').next().unwrap_or("").trim();
                    if key.starts_with("apipe.")
                        || matches!(key, "queue" | "pending" | "elements" | "bypass_l1")
                    {
                        spots.push((index, start, end, entry_index));
                    }
                }
            }
        }
        let Some(&(index, start, end, entry_index)) = self.rng.pick(&spots) else {
            return false;
        };
        let line = &lines[index];
        let mut entries = text::split_top_level(&line[start + 1..end - 1]);
        entries.remove(entry_index);
        let replacement = if entries.is_empty() {
            String::new()
        } else {
            format!("{{{}}}", entries.join(", "))
        };
        lines[index].replace_range(start..end, &replacement);
        true
    }

    fn integer(&mut self, lines: &mut [String]) -> bool {
        let mut spots = Vec::new();
        for (index, line) in lines.iter().enumerate() {
            for (start, end) in integer_literals(line) {
                spots.push((index, start, end));
            }
        }
        let Some(&(index, start, end)) = self.rng.pick(&spots) else {
            return false;
        };
        let old: i64 = lines[index][start..end].parse().unwrap_or(0);
        let new = pick_value(&mut self.rng, old);
        lines[index].replace_range(start..end, &new.to_string());
        true
    }

    // 2. Synchronization ops.

    fn sync_statements(&self, lines: &[String]) -> Vec<Statement> {
        text::statements(lines)
            .into_iter()
            .filter(|s| text::APIPE_OPS.contains(&text::op_name(&lines[s.start]).as_str()))
            .collect()
    }

    fn sync_delete(&mut self, lines: &mut Vec<String>) -> bool {
        let candidates = self.sync_statements(lines);
        let Some(&statement) = self.rng.pick(&candidates) else {
            return false;
        };
        lines.drain(statement.start..=statement.end);
        true
    }

    fn sync_duplicate(&mut self, lines: &mut Vec<String>) -> bool {
        let candidates = self.sync_statements(lines);
        let Some(&statement) = self.rng.pick(&candidates) else {
            return false;
        };
        let elsewhere = self.rng.chance(1, 2);
        self.duplicate(lines, statement, elsewhere)
    }

    fn sync_move(&mut self, lines: &mut Vec<String>) -> bool {
        let candidates = self.sync_statements(lines);
        let Some(&statement) = self.rng.pick(&candidates) else {
            return false;
        };
        self.move_statement(lines, statement)
    }

    fn sync_insert(&mut self, lines: &mut Vec<String>) -> bool {
        let functions = text::functions(lines);
        let Some(&function) = self.rng.pick(&functions) else {
            return false;
        };
        let points = text::insertion_points(lines, &function);
        let Some(&at) = self.rng.pick(&points) else {
            return false;
        };
        let indent = indentation_at(lines, at);
        let custom = uses_custom_syntax(lines);
        let queue = if self.rng.chance(3, 4) {
            self.rng.range(0, 2)
        } else {
            pick_value(&mut self.rng, 0)
        };
        let queue_attr = |custom: bool| -> (String, String) {
            if queue == 0 {
                (String::new(), String::new())
            } else if custom {
                (format!(" queue {queue}"), String::new())
            } else {
                (String::new(), format!("queue = {queue} : i64"))
            }
        };
        let mut new_lines = Vec::new();
        match self.rng.below(5) {
            0 => {
                let (c, g) = queue_attr(custom);
                new_lines.push(if custom {
                    format!("apipe.commit_group{c}")
                } else if g.is_empty() {
                    "\"apipe.commit_group\"() : () -> ()".to_owned()
                } else {
                    format!("\"apipe.commit_group\"() {{{g}}} : () -> ()")
                });
            }
            1 => {
                let pending = if self.rng.chance(3, 4) {
                    self.rng.range(0, 3)
                } else {
                    pick_value(&mut self.rng, 0)
                };
                let (c, g) = queue_attr(custom);
                new_lines.push(if custom {
                    format!("apipe.wait_group {pending}{c}")
                } else if g.is_empty() {
                    format!("\"apipe.wait_group\"() {{pending = {pending} : i64}} : () -> ()")
                } else {
                    format!("\"apipe.wait_group\"() {{pending = {pending} : i64, {g}}} : () -> ()")
                });
            }
            2 => {
                // A token committed here and waited on at once, or an
                // `apipe.ready` token waited on.
                let token = self.fresh_name("t");
                let (c, g) = queue_attr(custom);
                let op = if self.rng.chance(1, 2) {
                    "commit_group"
                } else {
                    "ready"
                };
                new_lines.push(if custom {
                    format!("{token} = apipe.{op}{c}")
                } else if g.is_empty() {
                    format!("{token} = \"apipe.{op}\"() : () -> !apipe.token")
                } else {
                    format!("{token} = \"apipe.{op}\"() {{{g}}} : () -> !apipe.token")
                });
                new_lines.push(if custom {
                    format!("apipe.wait {token}")
                } else {
                    format!("\"apipe.wait\"({token}) : (!apipe.token) -> ()")
                });
            }
            _ => {
                // A copy between two buffers visible in the function.
                let buffers = self.visible_values(lines, &function, at, |ty| {
                    ty.starts_with("memref<") && !ty.starts_with("memref<*")
                });
                if buffers.is_empty() {
                    return false;
                }
                let (src, src_ty) = self.rng.pick(&buffers).unwrap().clone();
                let same: Vec<&(String, String)> = buffers
                    .iter()
                    .filter(|(_, t)| element_type(t) == element_type(&src_ty))
                    .collect();
                let (dst, dst_ty) = if self.rng.chance(4, 5) && !same.is_empty() {
                    (*self.rng.pick(&same).unwrap()).clone()
                } else {
                    self.rng.pick(&buffers).unwrap().clone()
                };
                let zero = self.fresh_name("c");
                new_lines.push(format!("{zero} = arith.constant 0 : index"));
                let rank = |t: &str| memref_rank(t);
                let indices: Vec<String> = vec![zero.clone(); rank(&src_ty) + rank(&dst_ty)];
                let elements = if self.rng.chance(3, 4) {
                    *self.rng.pick(&[1, 2, 4, 8]).unwrap()
                } else {
                    pick_value(&mut self.rng, 4)
                };
                let (_, g) = queue_attr(false);
                let attrs = if g.is_empty() {
                    format!("elements = {elements} : i64")
                } else {
                    format!("elements = {elements} : i64, {g}")
                };
                let types: Vec<&str> = std::iter::repeat_n("index", indices.len()).collect();
                new_lines.push(format!(
                    "\"apipe.copy\"({src}, {dst}{}{}) {{{attrs}}} : ({src_ty}, {dst_ty}{}{}) -> ()",
                    if indices.is_empty() { "" } else { ", " },
                    indices.join(", "),
                    if types.is_empty() { "" } else { ", " },
                    types.join(", ")
                ));
                if self.rng.chance(1, 2) {
                    new_lines.push("\"apipe.commit_group\"() : () -> ()".to_owned());
                }
            }
        }
        for (offset, line) in new_lines.into_iter().enumerate() {
            lines.insert(at + offset, format!("{indent}{line}"));
        }
        true
    }

    // 3. Types.

    fn memref_type(&mut self, lines: &mut [String]) -> bool {
        let mut spots = Vec::new();
        for (index, line) in lines.iter().enumerate() {
            for (start, end) in text::memref_types(line) {
                spots.push((index, start, end));
            }
        }
        let Some(&(index, start, end)) = self.rng.pick(&spots) else {
            return false;
        };
        let old = lines[index][start..end].to_owned();
        let Some(new) = self.mutate_memref(&old) else {
            return false;
        };
        if self.rng.chance(3, 4) {
            // Everywhere, so the program stays consistent.
            for line in lines.iter_mut() {
                if line.contains(&old) {
                    *line = replace_type(line, &old, &new);
                }
            }
        } else {
            lines[index].replace_range(start..end, &new);
        }
        true
    }

    fn mutate_memref(&mut self, ty: &str) -> Option<String> {
        let inner = ty.strip_prefix("memref<")?.strip_suffix('>')?;
        if inner.starts_with('*') {
            return None;
        }
        let parts = text::split_top_level(inner);
        let (shape_and_element, rest) = parts.split_first()?;
        let mut dims: Vec<String> = Vec::new();
        let mut element = shape_and_element.as_str();
        while let Some((dim, tail)) = element.split_once('x') {
            if dim.chars().all(|c| c.is_ascii_digit()) && !dim.is_empty() || dim == "?" {
                dims.push(dim.to_owned());
                element = tail;
            } else {
                break;
            }
        }
        let mut element = element.to_owned();
        let mut rest: Vec<String> = rest.to_vec();
        match self.rng.below(7) {
            0 | 1 if !dims.is_empty() => {
                let at = self.rng.below(dims.len());
                let old: i64 = dims[at].parse().unwrap_or(4);
                dims[at] = match self.rng.below(6) {
                    0 => "?".to_owned(),
                    1 => (old + self.rng.range(-2, 2)).max(0).to_string(),
                    2 => (old * 2).to_string(),
                    _ => self
                        .rng
                        .pick(&[
                            0i64,
                            1,
                            2,
                            3,
                            5,
                            8,
                            16,
                            64,
                            128,
                            1000,
                            1 << 20,
                            1 << 31,
                            1 << 40,
                        ])
                        .unwrap()
                        .to_string(),
                };
            }
            2 => {
                if dims.is_empty() || self.rng.chance(1, 2) {
                    let dim = *self.rng.pick(&[1, 2, 3, 4, 16]).unwrap();
                    dims.insert(0, dim.to_string());
                } else {
                    let at = self.rng.below(dims.len());
                    dims.remove(at);
                }
            }
            3 => {
                element = self
                    .rng
                    .pick(&[
                        "f32",
                        "f16",
                        "f64",
                        "bf16",
                        "i8",
                        "i16",
                        "i32",
                        "i64",
                        "i1",
                        "i4",
                        "index",
                        "vector<4xf32>",
                    ])
                    .unwrap()
                    .to_string();
            }
            4 | 5 => {
                // The memory space: the last part unless it is a layout.
                let space = self
                    .rng
                    .pick(&[
                        "",
                        "3",
                        "1",
                        "5",
                        "0",
                        "4",
                        "#gpu.address_space<workgroup>",
                        "#gpu.address_space<global>",
                        "#gpu.address_space<private>",
                    ])
                    .unwrap()
                    .to_string();
                let has_space = rest
                    .last()
                    .is_some_and(|r| !r.starts_with("strided") && !r.starts_with("affine_map"));
                if has_space {
                    rest.pop();
                }
                if !space.is_empty() {
                    rest.push(space);
                }
            }
            _ => {
                let has_layout = rest
                    .first()
                    .is_some_and(|r| r.starts_with("strided") || r.starts_with("affine_map"));
                if has_layout {
                    rest.remove(0);
                } else if !dims.is_empty() {
                    let mut strides = Vec::new();
                    let mut stride: i64 = 1;
                    for dim in dims.iter().rev() {
                        strides.push(stride.to_string());
                        stride = stride.saturating_mul(dim.parse().unwrap_or(1));
                    }
                    strides.reverse();
                    let offset = if self.rng.chance(1, 2) { "?" } else { "0" };
                    rest.insert(
                        0,
                        format!("strided<[{}], offset: {offset}>", strides.join(", ")),
                    );
                }
            }
        }
        let mut out = String::from("memref<");
        for dim in &dims {
            out.push_str(dim);
            out.push('x');
        }
        out.push_str(&element);
        for part in &rest {
            out.push_str(", ");
            out.push_str(part);
        }
        out.push('>');
        (out != ty).then_some(out)
    }

    // 4. Loops.

    fn loop_bounds(&mut self, lines: &mut Vec<String>) -> bool {
        let loops: Vec<usize> = (0..lines.len())
            .filter(|&i| text::op_name(&lines[i]) == "scf.for" && lines[i].contains(" to "))
            .collect();
        let Some(&index) = self.rng.pick(&loops) else {
            return false;
        };
        let line = lines[index].clone();
        let Some(for_at) = line.find("scf.for ") else {
            return false;
        };
        let after = for_at + "scf.for ".len();
        let Some(eq) = line[after..].find(" = ").map(|p| after + p + 3) else {
            return false;
        };
        let Some(to) = line[eq..].find(" to ").map(|p| eq + p) else {
            return false;
        };
        let Some(step) = line[to..].find(" step ").map(|p| to + p) else {
            return false;
        };
        let step_start = step + " step ".len();
        let step_end = line[step_start..]
            .find([' ', '{'])
            .map_or(line.len(), |p| step_start + p);
        let lb = line[eq..to].to_owned();
        let ub = line[to + 4..step].to_owned();
        match self.rng.below(5) {
            0 => {
                let mut new = line.clone();
                new.replace_range(eq..step, &format!("{ub} to {lb}"));
                lines[index] = new;
            }
            1 => {
                if line.contains("scf.for unsigned ") {
                    lines[index] = line.replacen("scf.for unsigned ", "scf.for ", 1);
                } else {
                    lines[index] = line.replacen("scf.for ", "scf.for unsigned ", 1);
                }
            }
            which => {
                // A fresh constant for the lower bound, upper bound or step.
                let (start, end) = match which {
                    2 => (eq, to),
                    3 => (to + 4, step),
                    _ => (step_start, step_end),
                };
                let ty = line
                    .split(" : ")
                    .nth(1)
                    .map(|t| text::leading_type(t.trim_start()))
                    .filter(|t| !t.is_empty())
                    .unwrap_or_else(|| "index".to_owned());
                let value = match which {
                    4 => *self
                        .rng
                        .pick(&[0, -1, 1, 2, 3, 7, i64::MAX, i64::MIN, 1 << 32, -4])
                        .unwrap(),
                    _ => pick_value(&mut self.rng, 16),
                };
                let name = self.fresh_name("b");
                let mut new = line.clone();
                new.replace_range(start..end, &name);
                let indent = indentation_at(lines, index);
                lines[index] = new;
                lines.insert(
                    index,
                    format!("{indent}{name} = arith.constant {value} : {ty}"),
                );
            }
        }
        true
    }

    // 5. Ops.

    fn body_statements(&self, lines: &[String]) -> Vec<Statement> {
        text::statements(lines)
            .into_iter()
            .filter(|s| s.depth > 0 && !text::is_function_header(&lines[s.start]))
            .collect()
    }

    fn op_delete(&mut self, lines: &mut Vec<String>) -> bool {
        let candidates = self.body_statements(lines);
        let Some(&statement) = self.rng.pick(&candidates) else {
            return false;
        };
        lines.drain(statement.start..=statement.end);
        true
    }

    fn op_duplicate(&mut self, lines: &mut Vec<String>) -> bool {
        let candidates: Vec<Statement> = self
            .body_statements(lines)
            .into_iter()
            .filter(|s| !text::is_terminator(&lines[s.start]))
            .collect();
        let Some(&statement) = self.rng.pick(&candidates) else {
            return false;
        };
        let elsewhere = self.rng.chance(1, 3);
        self.duplicate(lines, statement, elsewhere)
    }

    fn op_move(&mut self, lines: &mut Vec<String>) -> bool {
        let candidates: Vec<Statement> = self
            .body_statements(lines)
            .into_iter()
            .filter(|s| !text::is_terminator(&lines[s.start]))
            .collect();
        let Some(&statement) = self.rng.pick(&candidates) else {
            return false;
        };
        self.move_statement(lines, statement)
    }

    /// Duplicates `statement` right after itself, or elsewhere in its
    /// function when `elsewhere`; the copy's results get fresh names.
    fn duplicate(
        &mut self,
        lines: &mut Vec<String>,
        statement: Statement,
        elsewhere: bool,
    ) -> bool {
        let mut copy: Vec<String> = lines[statement.start..=statement.end].to_vec();
        for name in text::result_names(&copy[0]) {
            let fresh = self.fresh_name("d");
            copy[0] = copy[0].replacen(&format!("{name} "), &format!("{fresh} "), 1);
            copy[0] = copy[0].replacen(&format!("{name},"), &format!("{fresh},"), 1);
            copy[0] = copy[0].replacen(&format!("{name}:"), &format!("{fresh}:"), 1);
        }
        let at = if elsewhere {
            let Some(function) = enclosing_function(lines, statement.start) else {
                return false;
            };
            let points = text::insertion_points(lines, &function);
            match self.rng.pick(&points) {
                Some(&p) => p,
                None => return false,
            }
        } else {
            statement.end + 1
        };
        for (offset, line) in copy.into_iter().enumerate() {
            lines.insert(at + offset, line);
        }
        true
    }

    /// Moves `statement` to another insertion point of its function (into
    /// or out of regions).
    fn move_statement(&mut self, lines: &mut Vec<String>, statement: Statement) -> bool {
        let Some(function) = enclosing_function(lines, statement.start) else {
            return false;
        };
        let moved: Vec<String> = lines.drain(statement.start..=statement.end).collect();
        let count = moved.len();
        let function = Statement {
            end: function.end - count,
            ..function
        };
        let points = text::insertion_points(lines, &function);
        let Some(&at) = self.rng.pick(&points) else {
            for (offset, line) in moved.into_iter().enumerate() {
                lines.insert(statement.start + offset, line);
            }
            return false;
        };
        let indent = indentation_at(lines, at);
        for (offset, line) in moved.into_iter().enumerate() {
            lines.insert(at + offset, format!("{indent}{}", line.trim_start()));
        }
        true
    }

    fn wrap_region(&mut self, lines: &mut Vec<String>) -> bool {
        let functions = text::functions(lines);
        let Some(&function) = self.rng.pick(&functions) else {
            return false;
        };
        // A run of sibling ops of the function (not terminators).
        let statements: Vec<Statement> = text::statements(lines)
            .into_iter()
            .filter(|s| {
                s.start > function.start
                    && s.end < function.end
                    && !text::is_terminator(&lines[s.start])
            })
            .collect();
        let Some(&first) = self.rng.pick(&statements) else {
            return false;
        };
        let siblings: Vec<Statement> = statements
            .iter()
            .copied()
            .filter(|s| s.depth == first.depth && s.start >= first.start)
            .collect();
        // Contiguous siblings (no region close in between).
        let mut last = first;
        let run = 1 + self.rng.below(4);
        for s in siblings.iter().skip(1).take(run - 1) {
            if (last.end + 1..s.start).any(|l| lines[l].trim_start().starts_with('}')) {
                break;
            }
            last = *s;
        }
        let indent = indentation_at(lines, first.start);
        let header_at = function.start + 1;
        let body_indent = indentation_at(lines, header_at);
        let (open, close, setup): (String, Vec<String>, Vec<String>) = match self.rng.below(4) {
            0 | 1 => {
                let condition = self.fresh_name("b");
                let value = if self.rng.chance(3, 4) {
                    "true"
                } else {
                    "false"
                };
                (
                    format!("scf.if {condition} {{"),
                    vec!["}".to_owned()],
                    vec![format!("{condition} = arith.constant {value}")],
                )
            }
            2 => {
                let (lo, hi, st) = (
                    self.fresh_name("c"),
                    self.fresh_name("c"),
                    self.fresh_name("c"),
                );
                let iv = self.fresh_name("i");
                let upper = if self.rng.chance(4, 5) {
                    self.rng.range(0, 5)
                } else {
                    pick_value(&mut self.rng, 3)
                };
                let step = if self.rng.chance(5, 6) {
                    1
                } else {
                    self.rng.range(-1, 3)
                };
                (
                    format!("scf.for {iv} = {lo} to {hi} step {st} {{"),
                    vec!["}".to_owned()],
                    vec![
                        format!("{lo} = arith.constant 0 : index"),
                        format!("{hi} = arith.constant {upper} : index"),
                        format!("{st} = arith.constant {step} : index"),
                    ],
                )
            }
            _ => (
                "scf.execute_region {".to_owned(),
                vec!["  scf.yield".to_owned(), "}".to_owned()],
                vec![],
            ),
        };
        for (offset, line) in close.iter().enumerate() {
            lines.insert(last.end + 1 + offset, format!("{indent}{line}"));
        }
        for line in &mut lines[first.start..=last.end] {
            line.insert_str(0, "  ");
        }
        lines.insert(first.start, format!("{indent}{open}"));
        for (offset, line) in setup.into_iter().enumerate() {
            lines.insert(header_at + offset, format!("{body_indent}{line}"));
        }
        true
    }

    fn unwrap_region(&mut self, lines: &mut Vec<String>) -> bool {
        let candidates: Vec<Statement> = self
            .body_statements(lines)
            .into_iter()
            .filter(|s| {
                s.has_regions(lines)
                    && matches!(
                        text::op_name(&lines[s.start]).as_str(),
                        "scf.for" | "scf.if" | "scf.execute_region" | "scf.parallel"
                    )
            })
            .collect();
        let Some(&statement) = self.rng.pick(&candidates) else {
            return false;
        };
        let header = lines[statement.start].clone();
        let depth = text::depths(lines);
        let inner_depth = depth[statement.start].1;
        // The body lines of the first region (to `} else {` or the close).
        let mut body_end = statement.end;
        for l in statement.start + 1..statement.end {
            if depth[l].0 == inner_depth && lines[l].trim_start().starts_with('}') {
                body_end = l;
                break;
            }
        }
        let mut body: Vec<String> = lines[statement.start + 1..body_end]
            .iter()
            .filter(|l| {
                let name = text::op_name(l);
                name != "scf.yield" || l.contains("scf.yield %")
            })
            .map(|l| l.strip_prefix("  ").unwrap_or(l).to_owned())
            .collect();
        if text::op_name(&header) == "scf.for" {
            // The induction variable becomes the lower bound.
            if let Some(rest) = header.trim_start().strip_prefix("scf.for ") {
                let rest = rest.strip_prefix("unsigned ").unwrap_or(rest);
                if let Some((iv, bounds)) = rest.split_once(" = ") {
                    let lb = bounds.split(" to ").next().unwrap_or("").trim();
                    let indent = indentation_at(lines, statement.start);
                    body.insert(0, format!("{indent}{iv} = arith.maxsi {lb}, {lb} : index"));
                }
            }
        }
        lines.splice(statement.start..=statement.end, body);
        true
    }

    fn operand_swap(&mut self, lines: &mut [String]) -> bool {
        let functions = text::functions(lines);
        let Some(&function) = self.rng.pick(&functions) else {
            return false;
        };
        // Uses in the body: (line, start, end) of `%name` not in front of `=`.
        let mut uses = Vec::new();
        for (index, line) in lines
            .iter()
            .enumerate()
            .take(function.end)
            .skip(function.start + 1)
        {
            let defined: Vec<String> = text::result_names(line);
            for (start, end) in text::ssa_names(line) {
                if !defined.iter().any(|d| d == &line[start..end]) {
                    uses.push((index, start, end));
                }
            }
        }
        let Some(&(index, start, end)) = self.rng.pick(&uses) else {
            return false;
        };
        let name = lines[index][start..end].to_owned();
        let typed = self.visible_values(lines, &function, index, |_| true);
        let ty = typed
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.clone());
        let same: Vec<&(String, String)> = typed
            .iter()
            .filter(|(n, t)| *n != name && ty.as_ref().is_none_or(|ty| ty == t))
            .collect();
        let Some(&(replacement, _)) = self.rng.pick(&same) else {
            return false;
        };
        let replacement = replacement.clone();
        lines[index].replace_range(start..end, &replacement);
        true
    }

    /// Values with a known type defined in `function` before line `before`
    /// (arguments and results), whose type passes `keep`.
    fn visible_values(
        &self,
        lines: &[String],
        function: &Statement,
        before: usize,
        keep: impl Fn(&str) -> bool,
    ) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for line in &lines[function.start..before.min(lines.len())] {
            for (name, ty) in text::typed_definitions(line) {
                if let Some(ty) = ty {
                    if keep(&ty) && !out.iter().any(|(n, _)| *n == name) {
                        out.push((name, ty));
                    }
                }
            }
        }
        out
    }

    // 6. Splices.

    fn splice(&mut self, lines: &mut Vec<String>) -> bool {
        let Some(donor) = self.rng.pick(self.donors) else {
            return false;
        };
        let donor: Vec<String> = donor.lines().map(str::to_owned).collect();
        if self.rng.chance(1, 2) {
            self.splice_function(lines, &donor)
        } else {
            self.splice_ops(lines, &donor)
        }
    }

    fn splice_function(&mut self, lines: &mut Vec<String>, donor: &[String]) -> bool {
        let top: Vec<Statement> = text::statements(donor)
            .into_iter()
            .filter(|s| {
                let name = text::op_name(&donor[s.start]);
                s.has_regions(donor) && matches!(name.as_str(), "func.func" | "gpu.module")
            })
            .collect();
        let Some(&chosen) = self.rng.pick(&top) else {
            return false;
        };
        let mut piece: Vec<String> = donor[chosen.start..=chosen.end].to_vec();
        // Rename the spliced symbol so it does not clash.
        if let Some(at) = piece[0].find('@') {
            let end = piece[0][at + 1..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.'))
                .map_or(piece[0].len(), |p| at + 1 + p);
            self.fresh += 1;
            let fresh = format!("_fz{}", self.fresh);
            piece[0].insert_str(end, &fresh);
        }
        // After the last top-level op of the destination (inside an explicit
        // `module {` when there is one).
        let statements = text::statements(lines);
        let outer_depth = statements
            .iter()
            .filter(|s| {
                text::is_function_header(&lines[s.start])
                    || text::op_name(&lines[s.start]) == "gpu.module"
            })
            .map(|s| s.depth)
            .min()
            .unwrap_or(0);
        let at = statements
            .iter()
            .filter(|s| s.depth == outer_depth)
            .map(|s| s.end + 1)
            .max()
            .unwrap_or(lines.len());
        // Unbalanced braces (an earlier mutation) can make depths negative.
        let indent = "  ".repeat(usize::try_from(outer_depth).unwrap_or(0));
        let base = piece[0].len() - piece[0].trim_start_matches(' ').len();
        for (offset, line) in piece.into_iter().enumerate() {
            let stripped = line.get(base..).filter(|_| line[..base].trim().is_empty());
            let body = stripped.unwrap_or(line.trim_start());
            lines.insert(at + offset, format!("{indent}{body}"));
        }
        true
    }

    fn splice_ops(&mut self, lines: &mut Vec<String>, donor: &[String]) -> bool {
        let candidates: Vec<Statement> = text::statements(donor)
            .into_iter()
            .filter(|s| {
                s.depth > 0
                    && !text::is_function_header(&donor[s.start])
                    && !text::is_terminator(&donor[s.start])
                    && text::op_name(&donor[s.start]) != "gpu.func"
            })
            .collect();
        let Some(&chosen) = self.rng.pick(&candidates) else {
            return false;
        };
        let functions = text::functions(lines);
        let Some(&function) = self.rng.pick(&functions) else {
            return false;
        };
        let points = text::insertion_points(lines, &function);
        let Some(&at) = self.rng.pick(&points) else {
            return false;
        };
        let mut piece: Vec<String> = donor[chosen.start..=chosen.end].to_vec();
        // Types of the donor's values, to map the piece's free uses onto
        // values of the destination with the same type.
        let donor_function = enclosing_function(donor, chosen.start);
        let donor_types: Vec<(String, Option<String>)> = donor_function
            .map(|f| {
                donor[f.start..chosen.start]
                    .iter()
                    .flat_map(|l| text::typed_definitions(l))
                    .collect()
            })
            .unwrap_or_default();
        let defined_inside: std::collections::HashSet<String> = piece
            .iter()
            .flat_map(|l| text::typed_definitions(l).into_iter().map(|(n, _)| n))
            .collect();
        let available = self.visible_values(lines, &function, at, |_| true);
        let mut renames: Vec<(String, String)> = Vec::new();
        let mut setup = Vec::new();
        for line in &piece {
            for (start, end) in text::ssa_names(line) {
                let name = &line[start..end];
                if defined_inside.contains(name) || renames.iter().any(|(n, _)| n == name) {
                    continue;
                }
                let ty = donor_types
                    .iter()
                    .rev()
                    .find(|(n, _)| n == name)
                    .and_then(|(_, t)| t.clone());
                let target = ty.as_ref().and_then(|ty| {
                    let same: Vec<&(String, String)> =
                        available.iter().filter(|(_, t)| t == ty).collect();
                    self.rng.pick(&same).map(|(n, _)| n.clone())
                });
                let target = match (target, ty.as_deref()) {
                    (Some(t), _) => t,
                    (None, Some("index")) => {
                        let fresh = self.fresh_name("c");
                        setup.push(format!(
                            "{fresh} = arith.constant {} : index",
                            self.rng.range(0, 4)
                        ));
                        fresh
                    }
                    _ => continue,
                };
                renames.push((name.to_owned(), target));
            }
        }
        // Results of the piece get fresh names.
        for name in &defined_inside {
            let fresh = self.fresh_name("s");
            renames.push((name.clone(), fresh));
        }
        for line in &mut piece {
            *line = rename_values(line, &renames);
        }
        let indent = indentation_at(lines, at);
        let mut inserted = setup;
        inserted.extend(piece.iter().map(|l| l.trim_start().to_owned()));
        for (offset, line) in inserted.into_iter().enumerate() {
            lines.insert(at + offset, format!("{indent}{line}"));
        }
        true
    }

    // 7. Kernels.

    fn make_kernel(&mut self, lines: &mut Vec<String>) -> bool {
        let candidates: Vec<Statement> = text::functions(lines)
            .into_iter()
            .filter(|f| {
                let header = &lines[f.start];
                header.trim_start().starts_with("func.func @") && !header.contains("->")
            })
            .collect();
        let Some(&function) = self.rng.pick(&candidates) else {
            return false;
        };
        let indent = indentation_at(lines, function.start);
        for line in &mut lines[function.start + 1..function.end] {
            if text::op_name(line) == "return" || text::op_name(line) == "func.return" {
                *line = line.replacen("func.return", "gpu.return", 1);
                if !line.contains("gpu.return") {
                    *line = line.replacen("return", "gpu.return", 1);
                }
            }
            line.insert_str(0, "  ");
        }
        let header = lines[function.start].replacen("func.func", "gpu.func", 1);
        let header = header
            .trim_end()
            .strip_suffix('{')
            .map(|h| format!("  {}kernel {{", h))
            .unwrap_or(header);
        lines[function.start] = header;
        lines[function.end].insert_str(0, "  ");
        self.fresh += 1;
        lines.insert(function.end + 1, format!("{indent}}}"));
        lines.insert(
            function.start,
            format!("{indent}gpu.module @fz_kernels{} {{", self.fresh),
        );
        true
    }

    // 8. Havoc.

    fn havoc(&mut self, lines: &mut Vec<String>) -> bool {
        if lines.is_empty() {
            return false;
        }
        let index = self.rng.below(lines.len());
        match self.rng.below(4) {
            0 => {
                lines.remove(index);
            }
            1 => {
                let line = lines[index].clone();
                lines.insert(index, line);
            }
            2 => {
                let other = self.rng.below(lines.len());
                lines.swap(index, other);
            }
            _ => {
                let line = &mut lines[index];
                if line.is_empty() {
                    return false;
                }
                let mut bytes = line.clone().into_bytes();
                let at = self.rng.below(bytes.len());
                bytes[at] = *self.rng.pick(b"{}()<>[]%:,=-09x\"@^#?").unwrap();
                *line = String::from_utf8_lossy(&bytes).into_owned();
            }
        }
        true
    }
}

/// The end of the integer literal starting at `start` of `code` (an
/// optional `-` and digits), if one starts there.
fn integer_end(code: &str, start: usize) -> Option<usize> {
    let bytes = code.as_bytes();
    let mut end = start;
    if bytes.get(end) == Some(&b'-') {
        end += 1;
    }
    let digits = end;
    while end < bytes.len() && bytes[end].is_ascii_digit() {
        end += 1;
    }
    (end > digits).then_some(end)
}

/// Integer literals of a line (not parts of names, dimensions or floats).
pub fn integer_literals(line: &str) -> Vec<(usize, usize)> {
    let code_end = text::code_end(line);
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut in_string = false;
    let mut i = 0;
    while i < code_end {
        let c = bytes[i];
        if c == b'"' {
            in_string = !in_string;
            i += 1;
            continue;
        }
        if in_string || !c.is_ascii_digit() {
            i += 1;
            continue;
        }
        let mut start = i;
        let before = if start > 0 { bytes[start - 1] } else { b' ' };
        let mut end = i;
        while end < code_end && bytes[end].is_ascii_digit() {
            end += 1;
        }
        let after = if end < code_end { bytes[end] } else { b' ' };
        i = end;
        if before.is_ascii_alphanumeric()
            || matches!(before, b'_' | b'%' | b'@' | b'^' | b'#' | b'.' | b'$')
            || after.is_ascii_alphanumeric()
            || matches!(after, b'_' | b'.')
        {
            continue;
        }
        if before == b'-' {
            start -= 1;
        }
        out.push((start, end));
    }
    out
}

/// Byte ranges `{...}` of attribute dictionaries balanced within `line`
/// (not region braces).
fn attribute_dicts(line: &str) -> Vec<(usize, usize)> {
    let end = text::code_end(line);
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut stack = Vec::new();
    let mut in_string = false;
    for (i, &byte) in bytes.iter().enumerate().take(end) {
        match byte {
            b'"' => in_string = !in_string,
            b'{' if !in_string => stack.push(i),
            b'}' if !in_string => {
                if let Some(start) = stack.pop() {
                    if stack.is_empty() {
                        out.push((start, i + 1));
                    }
                }
            }
            _ => {}
        }
    }
    out.retain(|&(s, e)| {
        let inner = &line[s + 1..e - 1];
        !inner.trim().is_empty() && (inner.contains('=') || !inner.contains(' '))
    });
    out
}

/// Adds `entry` to the attribute dictionary of an op line (creating one in
/// front of the type signature, or at the end of a region-closing line).
fn add_to_attribute_dict(line: &mut String, entry: &str, closing: bool) -> bool {
    let dicts = attribute_dicts(line);
    // Prefer the dictionary just before ` : ` (the op's attributes, not
    // properties `<{...}>`).
    if let Some(&(start, end)) = dicts
        .iter()
        .rev()
        .find(|&&(s, _)| s == 0 || &line[s - 1..s] != "<")
    {
        if closing || line[end..].trim_start().starts_with(':') || line[end..].trim().is_empty() {
            let _ = start;
            line.insert_str(end - 1, &format!(", {entry}"));
            return true;
        }
    }
    if closing {
        let code_end = text::code_end(line);
        line.insert_str(code_end, &format!(" {{{entry}}}"));
        return true;
    }
    if let Some(at) = line[..text::code_end(line)].rfind(" : ") {
        line.insert_str(at, &format!(" {{{entry}}}"));
        return true;
    }
    if line.trim_end().ends_with('{') {
        return false;
    }
    let code_end = text::code_end(line);
    line.insert_str(code_end, &format!(" {{{entry}}}"));
    true
}

/// Replaces whole occurrences of the type `old` by `new` (not when `old`
/// is the prefix of a longer type).
fn replace_type(line: &str, old: &str, new: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find(old) {
        out.push_str(&rest[..at]);
        out.push_str(new);
        rest = &rest[at + old.len()..];
    }
    out.push_str(rest);
    out
}

/// Renames whole SSA names of `line` by `renames` (old, new).
fn rename_values(line: &str, renames: &[(String, String)]) -> String {
    let mut out = String::new();
    let mut last = 0;
    for (start, end) in text::ssa_names(line) {
        let name = &line[start..end];
        if let Some((_, new)) = renames.iter().find(|(old, _)| old == name) {
            out.push_str(&line[last..start]);
            out.push_str(new);
            last = end;
        }
    }
    out.push_str(&line[last..]);
    out
}

/// The leading whitespace for a line inserted before line `at`.
fn indentation_at(lines: &[String], at: usize) -> String {
    let reference = lines
        .get(at)
        .filter(|l| !l.trim_start().starts_with('}') && !l.trim().is_empty())
        .or_else(|| at.checked_sub(1).and_then(|p| lines.get(p)))
        .map(String::as_str)
        .unwrap_or("");
    let mut indent: String = reference.chars().take_while(|c| *c == ' ').collect();
    if at > 0
        && lines
            .get(at - 1)
            .is_some_and(|l| l.trim_end().ends_with('{'))
        && lines
            .get(at)
            .is_none_or(|l| l.trim_start().starts_with('}'))
    {
        indent.push_str("  ");
    }
    indent
}

/// The innermost function that contains line `line`.
fn enclosing_function(lines: &[String], line: usize) -> Option<Statement> {
    text::functions(lines)
        .into_iter()
        .filter(|f| f.start < line && line <= f.end)
        .max_by_key(|f| f.start)
}

/// Whether the text writes apipe ops in custom syntax.
fn uses_custom_syntax(lines: &[String]) -> bool {
    lines.iter().any(|l| {
        let t = l.trim_start();
        let t = t
            .split_once(" = ")
            .filter(|_| t.starts_with('%'))
            .map_or(t, |(_, r)| r);
        t.starts_with("apipe.")
    })
}

/// The element type of a memref type (`f32` of `memref<4x4xf32, 3>`).
fn element_type(ty: &str) -> String {
    let inner = ty.trim_start_matches("memref<");
    let first = text::split_top_level(inner.trim_end_matches('>'))
        .into_iter()
        .next()
        .unwrap_or_default();
    first.rsplit('x').next().unwrap_or("").to_owned()
}

/// The rank of a ranked memref type.
fn memref_rank(ty: &str) -> usize {
    let inner = ty.trim_start_matches("memref<");
    let first = text::split_top_level(inner.trim_end_matches('>'))
        .into_iter()
        .next()
        .unwrap_or_default();
    let mut rank = 0;
    let mut rest = first.as_str();
    while let Some((dim, tail)) = rest.split_once('x') {
        if dim == "?" || (!dim.is_empty() && dim.chars().all(|c| c.is_ascii_digit())) {
            rank += 1;
            rest = tail;
        } else {
            break;
        }
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = r#"func.func @f(%A: memref<64xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    "apipe.copy"(%A, %buf, %i, %c0) {elements = 4 : i64, apipe.stage = 0 : i64} : (memref<64xf32>, memref<4xf32>, index, index) -> ()
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    memref.store %x, %out[%c0] {apipe.stage = 1 : i64} : memref<4xf32>
  } {apipe.async_stages = array<i64: 0>}
  "apipe.commit_group"() : () -> ()
  "apipe.wait_group"() {pending = 0 : i64} : () -> ()
  return
}
"#;

    #[test]
    fn every_mutation_applies_to_a_pipelining_seed() {
        let donors = vec![SEED.to_owned()];
        for (which, name) in MUTATIONS.iter().enumerate() {
            let mut changed = false;
            for seed in 0..20 {
                let mut mutator = Mutator::new(Rng::new(seed), &donors);
                let mut lines: Vec<String> = SEED.lines().map(str::to_owned).collect();
                if mutator.apply(which, &mut lines) && lines.join("\n") + "\n" != SEED {
                    changed = true;
                    break;
                }
            }
            assert!(changed, "mutation {name} never changed the seed");
        }
    }

    /// Earlier mutations leave braces unbalanced (depths below 0): no
    /// mutation may panic on such text (a splice once indented by a
    /// negative depth).
    #[test]
    fn every_mutation_survives_unbalanced_braces() {
        let donors = vec![SEED.to_owned()];
        let unbalanced = format!("}}\n}}\n{SEED}}}\n");
        let shifted = format!("}}\n}}\n{}", SEED.replacen('{', "", 3));
        for text in [unbalanced, shifted] {
            for which in 0..MUTATIONS.len() {
                for seed in 0..20 {
                    let mut mutator = Mutator::new(Rng::new(seed), &donors);
                    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
                    mutator.apply(which, &mut lines);
                }
            }
        }
    }

    #[test]
    fn integer_literals_skip_names_and_dimensions() {
        let line = "%c16 = arith.constant -16 : index // 5";
        let found: Vec<&str> = integer_literals(line)
            .iter()
            .map(|&(a, b)| &line[a..b])
            .collect();
        assert_eq!(found, vec!["-16"]);
        let line = "%x = memref.load %b[%c1] : memref<4x4xf32, 3>";
        let found: Vec<&str> = integer_literals(line)
            .iter()
            .map(|&(a, b)| &line[a..b])
            .collect();
        assert_eq!(found, vec!["3"]);
    }

    #[test]
    fn attributes_are_added_inside_dictionaries() {
        let mut line =
            "%x = memref.load %b[%c1] {apipe.stage = 1 : i64} : memref<4xf32>".to_owned();
        assert!(add_to_attribute_dict(
            &mut line,
            "apipe.order = 2 : i64",
            false
        ));
        assert_eq!(
            line,
            "%x = memref.load %b[%c1] {apipe.stage = 1 : i64, apipe.order = 2 : i64} : memref<4xf32>"
        );
        let mut line = "\"apipe.commit_group\"() : () -> ()".to_owned();
        assert!(add_to_attribute_dict(&mut line, "queue = 1 : i64", false));
        assert_eq!(
            line,
            "\"apipe.commit_group\"() {queue = 1 : i64} : () -> ()"
        );
        let mut line = "  }".to_owned();
        assert!(add_to_attribute_dict(
            &mut line,
            "apipe.num_stages = 2 : i64",
            true
        ));
        assert_eq!(line, "  } {apipe.num_stages = 2 : i64}");
    }

    #[test]
    fn memref_types_keep_their_layout_and_space_apart() {
        assert_eq!(element_type("memref<4x8xf16, 3>"), "f16");
        assert_eq!(
            memref_rank("memref<4x?xf32, strided<[?, 1], offset: ?>>"),
            2
        );
        assert_eq!(memref_rank("memref<f32>"), 0);
    }

    #[test]
    fn mutants_are_deterministic() {
        let donors = vec![SEED.to_owned()];
        let a = Mutator::new(Rng::new(3), &donors).mutate(SEED);
        let b = Mutator::new(Rng::new(3), &donors).mutate(SEED);
        assert_eq!(a, b);
    }
}
