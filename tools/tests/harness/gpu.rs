//! Random `gpu.func` inputs of `apipe-software-pipeline`: a kernel of
//! several threads (2-64) in 1-2 blocks whose pipelined loop fills
//! workgroup buffers (address space 3) with `apipe.copy` from global
//! memory, each thread its own part of the tile, and consumes them after a
//! `gpu.barrier`: each thread reads elements other threads copied (`shift`
//! elements further on in the tile, across parts), so both the waits and
//! the barriers matter; sometimes in an outer loop (the next pipelined
//! loop's prologue overwrites versions the previous epilogue read). The
//! input is the synchronous kernel a user writes (copy, barrier, consume,
//! barrier); `apipe-make-sync` of it is race-free, and the pipeliner
//! replaces its synchronization with waits and its own barriers.
//!
//! A host function `@kernel(%A, %out, %n, %c)` launches it with
//! `gpu.launch_func`, so that the harness runs it like the host inputs of
//! [`super::common::pipelines`]; the kernel's symbols all start with
//! `@kernel` (`@kernel_gpu::@kernel_k`), and renaming `@kernel` renames the
//! whole program.
//!
//! The loop is annotated (`apipe.stage`, `apipe.async_stages`) or, with
//! [`Stages::Option`] / [`Stages::Attribute`], left for the scheduler
//! (`num-stages`).

use super::common::{
    pipelines::{Scenario, Trip, MAX_DYNAMIC_TRIPS, MAX_TRIPS},
    Rng,
};
use super::unannotated::Stages;
use apipe_passes::software_pipeline::{BarrierMode, PipelineOptions, ScheduleOrder};
use std::fmt::Write as _;

/// One asynchronous copy of a tile into a workgroup buffer and its
/// consumer.
#[derive(Clone, Debug)]
pub struct GpuCopy {
    /// Its (async) stage.
    pub stage: i64,
    /// Elements each thread copies (1, 2 or 4).
    pub elements: i64,
    /// The stage of the consumer (loads, then a store to `%out`).
    pub consumer: i64,
    /// Thread `t` reads elements `(t * elements + shift + j) mod (threads *
    /// elements)` of the tile (0: its own part, which needs a wait but no
    /// barrier; a multiple of `elements`: another thread's part; else parts
    /// of two threads).
    pub shift: i64,
    /// The element of that part it reads first (it reads the whole part).
    pub read: i64,
}

/// A generated kernel.
#[derive(Clone, Debug)]
pub struct GpuPipeline {
    /// Threads per block (x).
    pub threads: i64,
    /// Blocks (x).
    pub blocks: i64,
    /// The copies.
    pub copies: Vec<GpuCopy>,
    /// The trip count.
    pub trip: Trip,
    /// The lower bound of the loop.
    pub lower: i64,
    /// The step.
    pub step: i64,
    /// Annotated, or scheduled from a number of stages.
    pub stages: Stages,
    /// The kernel has `known_block_size` (else the checker bounds thread
    /// ids only through their uses).
    pub known_block_size: bool,
    /// Trips of a loop around the pipelined one (1: none).
    pub outer: i64,
    /// `order=copies-first` (scheduled loops; else the CUTLASS order).
    pub copies_first: bool,
    /// `barriers=conservative` (else the minimal placement).
    pub conservative: bool,
}

/// Draws a kernel: 1-3 copies in async stages `{0}` or `{0, 1}`, each
/// consumed 1-2 stages after; 2-64 threads, 1-2 blocks; annotated, or
/// unannotated with a random number of stages 2-5 (one in `unannotated`).
pub fn generate(rng: &mut Rng, unannotated: bool) -> GpuPipeline {
    let threads = [2, 3, 4, 4, 8, 8, 16, 32, 64][rng.below(9) as usize];
    let blocks = 1 + rng.below(2) as i64;
    let count = 1 + rng.below(3) as usize;
    let async_stages: &[i64] = if rng.coin() { &[0] } else { &[0, 1] };
    let first_sync = async_stages.len() as i64;
    let copies = (0..count)
        .map(|_| {
            let stage = async_stages[rng.below(async_stages.len() as u64) as usize];
            let elements = [1, 2, 4][rng.below(3) as usize];
            GpuCopy {
                stage,
                elements,
                consumer: first_sync + rng.below(2) as i64,
                shift: match rng.below(6) {
                    0 => 0,
                    1 | 2 => elements * (1 + rng.below(threads as u64 - 1) as i64),
                    _ => 1 + rng.below((threads * elements) as u64 - 1) as i64,
                },
                read: rng.below(elements as u64) as i64,
            }
        })
        .collect();
    let trip = if rng.coin() {
        Trip::Static(rng.below(MAX_TRIPS as u64 + 1) as i64)
    } else {
        Trip::Dynamic
    };
    let stages = if unannotated {
        Stages::draw(rng)
    } else {
        Stages::Annotated
    };
    GpuPipeline {
        threads,
        blocks,
        copies,
        trip,
        lower: rng.below(2) as i64,
        step: 1 + rng.below(2) as i64,
        stages,
        known_block_size: rng.below(4) != 0,
        outer: if rng.below(4) == 0 { 2 } else { 1 },
        copies_first: unannotated && rng.below(3) == 0,
        conservative: rng.below(4) == 0,
    }
}

impl GpuPipeline {
    /// Iterations of the loop's index space one block owns (`i` below it).
    fn span(&self) -> i64 {
        self.lower + MAX_DYNAMIC_TRIPS * self.step + 1
    }

    /// Elements of one tile: every thread's part of every copy.
    fn tile(&self) -> i64 {
        self.threads * self.copies.iter().map(|c| c.elements).sum::<i64>()
    }

    /// Elements of `%A`.
    pub fn source_size(&self) -> i64 {
        self.blocks * self.outer * self.span() * self.tile()
    }

    /// Elements of `%out`: one per block, outer iteration, iteration,
    /// thread and copy.
    pub fn output_size(&self) -> i64 {
        self.blocks * self.outer * self.span() * self.threads * self.copies.len() as i64
    }

    /// The options of `apipe-software-pipeline`.
    pub fn options(&self) -> PipelineOptions {
        PipelineOptions {
            num_stages: self.stages.option(),
            order: if self.copies_first {
                ScheduleOrder::CopiesFirst
            } else {
                ScheduleOrder::Cutlass
            },
            barriers: Some(if self.conservative {
                BarrierMode::Conservative
            } else {
                BarrierMode::Minimal
            }),
            ..PipelineOptions::default()
        }
    }

    /// The arguments to run the kernel with.
    pub fn scenarios(&self) -> Vec<Scenario> {
        let uppers: Vec<i64> = match self.trip {
            Trip::Static(_) => vec![0],
            // Every count: the prologue and epilogue of N stages have a
            // path per count below N (up to 5 stages here).
            Trip::Dynamic => (0..=MAX_DYNAMIC_TRIPS)
                .map(|t| self.lower + t * self.step)
                .collect(),
        };
        uppers
            .into_iter()
            .map(|upper| Scenario {
                upper,
                condition: true,
            })
            .collect()
    }

    /// The largest stage.
    fn max_stage(&self) -> i64 {
        self.copies.iter().map(|c| c.consumer).max().unwrap_or(0)
    }

    /// The program: `gpu.module @kernel_gpu` with `gpu.func @kernel_k(%A,
    /// %out, %n)` and the host function `func.func @kernel(%A, %out, %n,
    /// %c)` that launches it.
    pub fn kernel(&self) -> String {
        let (na, no) = (self.source_size(), self.output_size());
        let (threads, count) = (self.threads, self.copies.len() as i64);
        let annotated = self.stages == Stages::Annotated;
        let mut t = String::new();
        let buffers: Vec<String> = self
            .copies
            .iter()
            .enumerate()
            .map(|(k, c)| format!("%b{k}: memref<{}xf32, 3>", threads * c.elements))
            .collect();
        let _ = writeln!(t, "gpu.module @kernel_gpu {{");
        let known = if self.known_block_size {
            format!(" attributes {{known_block_size = array<i32: {threads}, 1, 1>}}")
        } else {
            String::new()
        };
        let _ = writeln!(
            t,
            "  gpu.func @kernel_k(%A: memref<{na}xf32>, %out: memref<{no}xf32> {{llvm.noalias}}, %n: index) workgroup({}) kernel{known} {{",
            buffers.join(", ")
        );
        let pad = "    ";
        let mut constants: Vec<i64> = (0..=8).collect();
        constants.extend([threads, self.tile(), self.span(), count, self.outer]);
        constants.extend(self.copies.iter().map(|c| c.elements));
        constants.sort();
        constants.dedup();
        for v in constants {
            let _ = writeln!(t, "{pad}%c{v} = arith.constant {v} : index");
        }
        let _ = writeln!(t, "{pad}%one = arith.constant 1.0 : f32");
        let _ = writeln!(t, "{pad}%ten = arith.constant 10.0 : f32");
        let _ = writeln!(t, "{pad}%tid = gpu.thread_id x");
        let _ = writeln!(t, "{pad}%bid = gpu.block_id x");
        // Per copy: the thread's part (`%lane`), its offset in the tile of
        // %A (`%lo`), and the elements of the tile it reads (`%at`).
        let mut offset = 0;
        for (k, c) in self.copies.iter().enumerate() {
            let e = c.elements;
            let _ = writeln!(t, "{pad}%lane{k} = arith.muli %tid, %c{e} : index");
            let _ = writeln!(t, "{pad}%off{k} = arith.constant {offset} : index");
            let _ = writeln!(t, "{pad}%lo{k} = arith.addi %lane{k}, %off{k} : index");
            let _ = writeln!(t, "{pad}%tile{k} = arith.constant {} : index", threads * e);
            for j in 0..e {
                let _ = writeln!(
                    t,
                    "{pad}%sh{k}_{j} = arith.constant {} : index",
                    c.shift + (c.read + j) % e
                );
                let _ = writeln!(
                    t,
                    "{pad}%as{k}_{j} = arith.addi %lane{k}, %sh{k}_{j} : index"
                );
                let _ = writeln!(
                    t,
                    "{pad}%at{k}_{j} = arith.remui %as{k}_{j}, %tile{k} : index"
                );
            }
            offset += threads * e;
        }
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
        // The outer loop, and the first iteration of the loop's index space
        // this block (and outer iteration) owns: `%bspan`.
        let pad = if self.outer > 1 {
            let _ = writeln!(t, "{pad}scf.for %o = %c0 to %c{} step %c1 {{", self.outer);
            let inner = "      ";
            let _ = writeln!(t, "{inner}%bo0 = arith.muli %bid, %c{} : index", self.outer);
            let _ = writeln!(t, "{inner}%bo = arith.addi %bo0, %o : index");
            let _ = writeln!(
                t,
                "{inner}%bspan = arith.muli %bo, %c{} : index",
                self.span()
            );
            inner
        } else {
            let _ = writeln!(
                t,
                "{pad}%bspan = arith.muli %bid, %c{} : index",
                self.span()
            );
            pad
        };
        let _ = writeln!(
            t,
            "{pad}scf.for %i = %c{} to {upper} step %c{} {{",
            self.lower, self.step
        );
        let body = format!("{pad}  ");
        let body = body.as_str();
        // `op {attrs} : type` for an annotated op, `op : type` otherwise.
        let line = |t: &mut String, stage: i64, text: &str| {
            if !annotated {
                let _ = writeln!(t, "{body}{text}");
                return;
            }
            let attrs = format!("{{apipe.stage = {stage} : i64}}");
            match text.find(" : ") {
                Some(p) => {
                    let _ = writeln!(t, "{body}{} {attrs}{}", &text[..p], &text[p..]);
                }
                None => {
                    let _ = writeln!(t, "{body}{text} {attrs}");
                }
            }
        };
        // The block's iteration `bspan + i`, its tile of %A.
        for (k, c) in self.copies.iter().enumerate() {
            let (s, e) = (c.stage, c.elements);
            line(
                &mut t,
                s,
                &format!("%g{k}a = arith.addi %bspan, %i : index"),
            );
            line(
                &mut t,
                s,
                &format!("%g{k}b = arith.muli %g{k}a, %c{} : index", self.tile()),
            );
            line(
                &mut t,
                s,
                &format!("%a{k} = arith.addi %g{k}b, %lo{k} : index"),
            );
            line(
                &mut t,
                s,
                &format!(
                    "apipe.copy %A[%a{k}], %b{k}[%lane{k}], {e} : memref<{na}xf32> to memref<{}xf32, 3>",
                    threads * e
                ),
            );
        }
        let last = self.max_stage();
        line(&mut t, last, "gpu.barrier");
        // Consumers: out[((bspan + i) * threads + tid) * count + k] = a
        // weighted sum of the part read, plus 1.
        for (k, c) in self.copies.iter().enumerate() {
            let (s, e) = (c.consumer, c.elements);
            let ty = format!("memref<{}xf32, 3>", threads * e);
            line(
                &mut t,
                s,
                &format!("%r{k}_0 = memref.load %b{k}[%at{k}_0] : {ty}"),
            );
            for j in 1..e {
                line(
                    &mut t,
                    s,
                    &format!("%l{k}_{j} = memref.load %b{k}[%at{k}_{j}] : {ty}"),
                );
                line(
                    &mut t,
                    s,
                    &format!("%p{k}_{j} = arith.mulf %r{k}_{}, %ten : f32", j - 1),
                );
                line(
                    &mut t,
                    s,
                    &format!("%r{k}_{j} = arith.addf %p{k}_{j}, %l{k}_{j} : f32"),
                );
            }
            line(
                &mut t,
                s,
                &format!("%y{k} = arith.addf %r{k}_{}, %one : f32", e - 1),
            );
            line(
                &mut t,
                s,
                &format!("%w{k}a = arith.addi %bspan, %i : index"),
            );
            line(
                &mut t,
                s,
                &format!("%w{k}b = arith.muli %w{k}a, %c{threads} : index"),
            );
            line(
                &mut t,
                s,
                &format!("%w{k}c = arith.addi %w{k}b, %tid : index"),
            );
            line(
                &mut t,
                s,
                &format!("%w{k}d = arith.muli %w{k}c, %c{count} : index"),
            );
            line(
                &mut t,
                s,
                &format!("%w{k} = arith.addi %w{k}d, %c{k} : index"),
            );
            line(
                &mut t,
                s,
                &format!("memref.store %y{k}, %out[%w{k}] : memref<{no}xf32>"),
            );
        }
        line(&mut t, last, "gpu.barrier");
        let _ = match self.stages {
            Stages::Annotated => {
                let mut stages: Vec<String> =
                    self.copies.iter().map(|c| c.stage.to_string()).collect();
                stages.sort();
                stages.dedup();
                writeln!(
                    t,
                    "{pad}}} {{apipe.async_stages = array<i64: {}>}}",
                    stages.join(", ")
                )
            }
            Stages::Attribute(n) => writeln!(t, "{pad}}} {{apipe.num_stages = {n} : i64}}"),
            Stages::Option(_) => writeln!(t, "{pad}}}"),
        };
        if self.outer > 1 {
            let _ = writeln!(t, "    }}");
        }
        let pad = "    ";
        let _ = writeln!(t, "{pad}gpu.return");
        let _ = writeln!(t, "  }}");
        let _ = writeln!(t, "}}");
        let _ = writeln!(
            t,
            "func.func @kernel(%A: memref<{na}xf32>, %out: memref<{no}xf32>, %n: index, %c: i1) {{"
        );
        let _ = writeln!(t, "  %one = arith.constant 1 : index");
        let _ = writeln!(t, "  %gx = arith.constant {} : index", self.blocks);
        let _ = writeln!(t, "  %tx = arith.constant {threads} : index");
        let _ = writeln!(
            t,
            "  gpu.launch_func @kernel_gpu::@kernel_k blocks in (%gx, %one, %one) threads in (%tx, %one, %one) args(%A : memref<{na}xf32>, %out : memref<{no}xf32>, %n : index)"
        );
        let _ = writeln!(t, "  return\n}}");
        t
    }
}
