//! The differential harness of the pipeliner and the hazard checker against
//! the emulator.
//!
//! For each generated pipelining input ([`common::pipelines`]):
//! 1. the reference: `apipe-make-sync` of the input;
//! 2. `apipe-software-pipeline` of it (a refusal is counted, not an error);
//!    on half of the outputs with more than one queue (drawn from the
//!    input's seed, apart from the other draws), `apipe-merge-queues` of it
//!    then ([`Report::merged`]; a refusal keeps the output as it is and is
//!    counted); the output must print what the reference prints under
//!    every completion mode of `apipe-run` ([`MODES`]: lazy, eager, five
//!    random seeds), and `apipe-check-hazards` must be silent on it;
//! 3. mutants of the output ([`Mutation`]): a `pending` one too large, a
//!    wait removed, a commit moved after its wait, a version index shifted
//!    by one, a store into the source of a copy just issued. A mutant is
//!    *truly broken* when some mode prints other than `apipe-make-sync` of
//!    the mutant itself prints; the checker must flag every truly broken
//!    mutant (a *miss* otherwise), and what it flags should be broken (a
//!    *false alarm* otherwise). `apipe-make-sync`'s semantics is the
//!    completion of every copy at its issue, which is the emulator's eager
//!    mode, so a mutant's reference is its own eager run; for the first
//!    program of each batch the make-sync of every mutant is run too and
//!    must print the same (a cross-check of that equivalence, counted in
//!    [`Report::cross_checks`]).
//!
//! The inputs ([`input::Input`]) are of six kinds: annotated host loops,
//! the same loops unannotated and scheduled from `num-stages` 2-5
//! ([`unannotated`]), `gpu.func` kernels launched by a host function,
//! annotated or not ([`gpu`]), and host loops and kernels of either kind
//! taken to the mbarrier form ([`input::Input::Mbarrier`]): pipelined with
//! `sync=tokens`, then `apipe-tokens-to-mbarrier`. Their mutants are
//! [`MBARRIER_MUTATIONS`] (a version index shifted, a store into a source,
//! an `apipe.mbarrier_wait` removed, its parity negated, its slot moved to
//! the next one, an `apipe.mbarrier_arrive_copies` removed) and, in
//! kernels, each barrier removed. A mutant whose own eager run fails (a
//! deadlock: a phase never armed) is truly broken, with no make-sync
//! cross-check (its make-sync has no wait left to block). The checker's
//! false alarms on them are counted apart ([`Report::mbarrier_summary`]). Every program also runs once (lazy,
//! forward) with the emulator's race checker on: a reference or a
//! pipelined output that races is an error ([`Report::races_on_outputs`]),
//! and a mutant is truly broken also when the race checker reports it. In
//! host code it watches the host's accesses and copies against its own
//! copies still in flight, which the completion modes can hide (a thread's
//! copies land in issue order: a copy over a copy in flight prints the
//! same). Kernels differ in three ways:
//! - they run in [`GPU_MODES`] under every thread order of [`SCHEDULES`]
//!   (forward, reverse, random) with the race checker off;
//! - their mutants include [`Mutation::BarrierRemoved`]: each
//!   `gpu.barrier` of the pipelined kernel removed in turn (at most
//!   [`Config::barrier_mutants`], drawn at random);
//! - the truly broken kernel mutants the race checker passes are counted
//!   ([`Report::racecheck_missed`]; the CI test requires none).
//!
//! Batching: the programs of a batch, every variant (reference, output,
//! mutants) with its kernel renamed, go into one module and one JIT; each
//! entry runs the kernel on every scenario (dynamic trip counts, condition
//! values) and hands `%out` to `@harness_record` after each, which the
//! harness binds to a Rust function that keeps the values. One JIT per
//! batch, one run per (entry, mode); [`Config::jobs`] threads take batches
//! in turn (each with its own MLIR context and JIT; the emulator's state is
//! per thread). The JIT's `malloc` is `calloc` ([`harness_malloc`]): a
//! mutant that reads a buffer element nobody wrote reads the same zero in
//! every run.

#[path = "../../../passes/tests/common/mod.rs"]
pub mod common;
pub mod gpu;
pub mod input;
pub mod unannotated;

use apipe_dialect::ops;
use apipe_lowering::{
    emulation_runtime::{self, Completion, KernelInfo, RunConfig, Schedule},
    to_emulation::{to_emulation, EmulationOptions},
};
use apipe_passes::{
    check_hazards::find_all_hazards,
    make_sync::make_sync,
    merge_queues::merge_queues,
    software_pipeline::software_pipeline,
    tokens_to_mbarrier::{tokens_to_mbarrier, Options as MbarrierOptions},
};
use apipe_tools::run::{prepare_entry, Engine, LLVM_PIPELINE};
use common::Rng;
use input::{Input, Kind};
use melior::ir::{operation::OperationLike, BlockLike, Module};
use std::{
    cell::RefCell,
    collections::{BTreeMap, HashMap, HashSet},
    fmt::Write as _,
    time::{Duration, Instant},
};

/// The completion modes every program runs in.
pub const MODES: [Completion; 7] = [
    Completion::Lazy,
    Completion::Eager,
    Completion::Random(1),
    Completion::Random(2),
    Completion::Random(3),
    Completion::Random(4),
    Completion::Random(5),
];

/// The kinds of mutants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mutation {
    /// A `wait_group`'s `pending` one too large.
    PendingPlusOne,
    /// A wait removed.
    WaitRemoved,
    /// A commit moved after the next wait of its block.
    CommitAfterWait,
    /// A version index `x mod V` became `(x + 1) mod V`.
    VersionShifted,
    /// A store into the source of a copy, just after the copy.
    StoreIntoSource,
    /// A `gpu.barrier` removed (kernels: one mutant per barrier of the
    /// pipelined output, see [`remove_barrier`]).
    BarrierRemoved,
    /// An `apipe.mbarrier_wait` removed (mbarrier form).
    MbarrierWaitRemoved,
    /// An `apipe.mbarrier_wait`'s parity negated (mbarrier form): it waits
    /// for the other phase of its slot.
    ParityFlipped,
    /// An `apipe.mbarrier_wait`'s slot `s` became `(s + 1) mod K`, `K` the
    /// ring's size (mbarrier form).
    SlotShifted,
    /// An `apipe.mbarrier_arrive_copies` removed (mbarrier form): its slot's
    /// phase never completes.
    ArriveRemoved,
}

/// Every mutation, in order.
pub const MUTATIONS: [Mutation; 5] = [
    Mutation::PendingPlusOne,
    Mutation::WaitRemoved,
    Mutation::CommitAfterWait,
    Mutation::VersionShifted,
    Mutation::StoreIntoSource,
];

/// Every mutation of the mbarrier form, in order: those of
/// [`MUTATIONS`] that do not name counting ops, then the mbarrier ops'.
pub const MBARRIER_MUTATIONS: [Mutation; 6] = [
    Mutation::VersionShifted,
    Mutation::StoreIntoSource,
    Mutation::MbarrierWaitRemoved,
    Mutation::ParityFlipped,
    Mutation::SlotShifted,
    Mutation::ArriveRemoved,
];

/// The completion modes of kernels, each under every [`SCHEDULES`].
pub const GPU_MODES: [Completion; 3] = [Completion::Lazy, Completion::Eager, Completion::Random(1)];

/// The orders of the threads of a block between barriers.
pub const SCHEDULES: [Schedule; 3] = [Schedule::Forward, Schedule::Reverse, Schedule::Random(7)];

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Generated annotated host inputs.
    pub inputs: usize,
    /// Generated unannotated host inputs (`num-stages`), after them.
    pub unannotated: usize,
    /// Generated annotated `gpu.func` inputs, after them.
    pub gpu: usize,
    /// Generated unannotated `gpu.func` inputs, after them.
    pub gpu_unannotated: usize,
    /// Generated host inputs taken to the mbarrier form, after them.
    pub mbarrier_host: usize,
    /// Generated `gpu.func` inputs taken to the mbarrier form, after them.
    pub mbarrier_gpu: usize,
    /// Barrier-removal mutants per kernel: at most this many of the
    /// pipelined kernel's barriers, drawn at random, are removed one at a
    /// time (`usize::MAX`: every barrier).
    pub barrier_mutants: usize,
    /// The seed of the first input (input `i` uses `seed + i`).
    pub seed: u64,
    /// Inputs per JIT.
    pub batch: usize,
    /// Threads running batches.
    pub jobs: usize,
}

/// The figures of a run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Inputs generated.
    pub inputs: usize,
    /// Inputs the pipeliner refused (located errors).
    pub refused: usize,
    /// Pipelined outputs whose queues `apipe-merge-queues` merged before
    /// they were run, checked and mutated.
    pub merged: usize,
    /// Pipelined outputs drawn for merging that `apipe-merge-queues`
    /// refused (kept unmerged).
    pub merge_refused: usize,
    /// The refusals by their first error message.
    pub refusals: BTreeMap<String, usize>,
    /// Pipelined outputs that printed other than the reference in some mode
    /// (pipeliner bugs), with the input.
    pub mismatches: Vec<String>,
    /// Pipelined outputs the checker flagged (false alarms on correct
    /// code), with the first message.
    pub alarms_on_outputs: Vec<String>,
    /// Mutants built and run.
    pub mutants: usize,
    /// Mutants per kind.
    pub mutants_by_kind: BTreeMap<Mutation, usize>,
    /// Mutants that some mode shows broken.
    pub truly_broken: usize,
    /// Mutants of the counting form the checker flags.
    pub flagged: usize,
    /// Truly broken mutants the checker does not flag.
    pub missed: Vec<String>,
    /// Flagged mutants of the counting form that no mode shows broken.
    pub false_alarms: Vec<String>,
    /// Mutants of the mbarrier form the checker flags.
    pub mbarrier_flagged: usize,
    /// Flagged mutants of the mbarrier form that no mode shows broken
    /// (apart from the counting form's: see [`Report::mbarrier_summary`]).
    pub mbarrier_false_alarms: Vec<String>,
    /// Mutants whose eager run was compared with their `apipe-make-sync`
    /// (the first program of each batch).
    pub cross_checks: usize,
    /// Those whose eager run printed other than their make-sync (must be
    /// none: eager completion is make-sync's semantics).
    pub cross_check_failures: Vec<String>,
    /// Runs of entries (program variant, mode).
    pub runs: usize,
    /// Programs whose race checker reports a race: a reference (the
    /// input's make-sync) or a pipelined output, with the input.
    pub races_on_outputs: Vec<String>,
    /// Truly broken kernel mutants the race checker passes (their runs
    /// print wrong values, or the hazard is one it does not watch).
    pub racecheck_missed: Vec<String>,
    /// The figures per kind of input.
    pub by_kind: BTreeMap<Kind, Figures>,
    /// The figures of kernel mutants per mutation.
    pub gpu_by_mutation: BTreeMap<Mutation, Figures>,
    /// The figures of mbarrier-form mutants (host and kernels) per
    /// mutation.
    pub mbarrier_by_mutation: BTreeMap<Mutation, Figures>,
    /// Wall time.
    pub elapsed: Duration,
    /// Time per phase, summed over the threads: building the variants
    /// (generation, pipeliner, mutations, make-sync), the checker,
    /// lowering, JIT, runs.
    pub phases: BTreeMap<&'static str, Duration>,
}

/// Counts of one kind of input or mutation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Figures {
    /// Inputs generated.
    pub inputs: usize,
    /// Inputs the pipeliner refused.
    pub refused: usize,
    /// Mutants run.
    pub mutants: usize,
    /// Mutants some run shows broken (or, kernels, with a race).
    pub truly_broken: usize,
    /// Mutants the checker flags.
    pub flagged: usize,
    /// Truly broken mutants the checker does not flag.
    pub missed: usize,
    /// Flagged mutants that are not truly broken.
    pub false_alarms: usize,
    /// Kernel mutants the race checker reports.
    pub racecheck_flagged: usize,
    /// Truly broken kernel mutants the race checker passes.
    pub racecheck_missed: usize,
}

impl Figures {
    fn add(&mut self, other: &Figures) {
        self.inputs += other.inputs;
        self.refused += other.refused;
        self.mutants += other.mutants;
        self.truly_broken += other.truly_broken;
        self.flagged += other.flagged;
        self.missed += other.missed;
        self.false_alarms += other.false_alarms;
        self.racecheck_flagged += other.racecheck_flagged;
        self.racecheck_missed += other.racecheck_missed;
    }

    fn line(&self) -> String {
        format!(
            "inputs {:5} refused {:5} mutants {:6} truly broken {:6} flagged {:6} missed {:3} \
             false alarms {:3} racecheck flagged {:5} racecheck missed {:3}",
            self.inputs,
            self.refused,
            self.mutants,
            self.truly_broken,
            self.flagged,
            self.missed,
            self.false_alarms,
            self.racecheck_flagged,
            self.racecheck_missed
        )
    }
}

/// The start of the checker's note at a wait that may return at once (its
/// slot's previous group may still be in flight): a class of
/// [`MBARRIER_ALARM_CLASSES`] whose first error is the access's.
const EARLY_WAIT_NOTE: &str = "this wait may return at once";

/// The classes of the checker's errors on mbarrier-form mutants that no
/// run shows broken: (the start of the first error's message, or of the
/// note that goes with it, the class).
const MBARRIER_ALARM_CLASSES: [(&str, &str); 6] = [
    (
        "'apipe.mbarrier_arrive_copies' op reuses its slot too early",
        "slot re-armed before its previous group was waited for",
    ),
    (
        "'apipe.mbarrier_arrive_copies' op arrives on slot",
        "arrive out of step with the ring's count",
    ),
    (
        "'apipe.mbarrier_arrive_copies' op arrives on a slot that is not provably",
        "arrive out of step with the ring's count",
    ),
    (
        "'apipe.mbarrier_wait' op waits on a slot and parity that apipe-check-hazards cannot relate",
        "wait on a slot and parity of different counts",
    ),
    (
        "'apipe.mbarrier_wait' op can deadlock: on some path the phase it waits for is not armed yet",
        "wait for a phase no arrive armed yet",
    ),
    (
        EARLY_WAIT_NOTE,
        "access after a wait whose slot was re-armed while its previous group could be in flight",
    ),
];

/// The class of a false alarm on an mbarrier-form mutant (its line in
/// [`Report::mbarrier_false_alarms`]), if it is one of
/// [`MBARRIER_ALARM_CLASSES`].
pub fn mbarrier_alarm_class(alarm: &str) -> Option<&'static str> {
    MBARRIER_ALARM_CLASSES
        .iter()
        .find(|(start, _)| alarm.contains(start))
        .map(|(_, class)| *class)
}

impl Report {
    /// The mbarrier form's flagged mutants and those no run shows broken,
    /// by class ([`MBARRIER_ALARM_CLASSES`]). They are not counted with the
    /// counting form's: each class is an error of the ring's protocol
    /// (docs/mbarrier.md) that the runs of a mutant may not reach (a slot
    /// re-armed two phases ahead of a wait's parity returns that wait at
    /// once only when such a wait follows; an arrive out of step leaves a
    /// phase unarmed, which deadlocks only the wait on it).
    pub fn mbarrier_summary(&self) -> String {
        let mut classes: BTreeMap<&str, usize> = BTreeMap::new();
        for alarm in &self.mbarrier_false_alarms {
            let class = mbarrier_alarm_class(alarm).unwrap_or("other");
            *classes.entry(class).or_default() += 1;
        }
        let mut out = format!(
            "mbarrier form:   flagged {}, false alarms {} ({:.2}% of flagged)\n",
            self.mbarrier_flagged,
            self.mbarrier_false_alarms.len(),
            100.0 * self.mbarrier_false_alarms.len() as f64 / self.mbarrier_flagged.max(1) as f64
        );
        for (class, count) in classes {
            let _ = writeln!(out, "  {count:5} {class}");
        }
        out
    }

    /// The figures, one per line.
    pub fn summary(&self) -> String {
        let seconds = self.elapsed.as_secs_f64();
        let programs = self.inputs - self.refused + self.mutants;
        let mut out = String::new();
        let _ = writeln!(out, "inputs:          {}", self.inputs);
        let _ = writeln!(out, "refused:         {}", self.refused);
        for (message, count) in &self.refusals {
            let _ = writeln!(out, "  {count:5} {message}");
        }
        let _ = writeln!(
            out,
            "queues merged:   {} ({} refused)",
            self.merged, self.merge_refused
        );
        let _ = writeln!(
            out,
            "output mismatches (pipeliner vs make-sync): {}",
            self.mismatches.len()
        );
        let _ = writeln!(
            out,
            "alarms on correct outputs: {}",
            self.alarms_on_outputs.len()
        );
        let _ = writeln!(
            out,
            "mutants:         {} {:?}",
            self.mutants, self.mutants_by_kind
        );
        let _ = writeln!(out, "truly broken:    {}", self.truly_broken);
        let _ = writeln!(out, "flagged:         {}", self.flagged);
        let _ = writeln!(out, "missed:          {}", self.missed.len());
        let _ = writeln!(
            out,
            "false alarms:    {} ({:.2}% of flagged)",
            self.false_alarms.len(),
            100.0 * self.false_alarms.len() as f64 / self.flagged.max(1) as f64
        );
        out.push_str(&self.mbarrier_summary());
        let _ = writeln!(
            out,
            "eager = make-sync cross-checks: {} ({} failed)",
            self.cross_checks,
            self.cross_check_failures.len()
        );
        let _ = writeln!(
            out,
            "races in references/outputs: {}",
            self.races_on_outputs.len()
        );
        let _ = writeln!(
            out,
            "truly broken kernel mutants racecheck passes: {}",
            self.racecheck_missed.len()
        );
        for (kind, figures) in &self.by_kind {
            let _ = writeln!(out, "  {:16} {}", format!("{kind:?}"), figures.line());
        }
        for (form, by_mutation) in [
            ("gpu", &self.gpu_by_mutation),
            ("mbarrier", &self.mbarrier_by_mutation),
        ] {
            for (mutation, figures) in by_mutation {
                let _ = writeln!(
                    out,
                    "  {form} {:19} {}",
                    format!("{mutation:?}"),
                    figures.line()
                );
            }
        }
        let _ = writeln!(out, "runs:            {}", self.runs);
        let _ = writeln!(out, "time:            {seconds:.1} s");
        for (phase, time) in &self.phases {
            let _ = writeln!(out, "  {phase:10} {:.1} s", time.as_secs_f64());
        }
        let _ = writeln!(
            out,
            "programs/s:      {:.1} ({} programs: outputs and mutants, each in {} modes; \
             kernels in {} modes x {} schedules and once with racecheck)",
            programs as f64 / seconds.max(1e-9),
            programs,
            MODES.len(),
            GPU_MODES.len(),
            SCHEDULES.len()
        );
        out
    }
}

thread_local! {
    static RECORDED: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

/// `@harness_record(memref<*xf32>)`: MLIR passes an unranked memref as its
/// rank and a pointer to the ranked descriptor `{allocated, aligned,
/// offset, sizes[rank], strides[rank]}`; the harness programs pass rank 1.
unsafe extern "C" fn harness_record(rank: i64, descriptor: *const i64) {
    if rank != 1 || descriptor.is_null() {
        return;
    }
    // SAFETY: a rank-1 descriptor of an f32 memref built by the JIT.
    unsafe {
        let aligned = *descriptor.add(1) as *const f32;
        let offset = *descriptor.add(2) as isize;
        let size = *descriptor.add(3) as usize;
        let stride = *descriptor.add(4) as isize;
        RECORDED.with(|r| {
            let mut r = r.borrow_mut();
            for i in 0..size {
                r.push(*aligned.offset(offset + i as isize * stride));
            }
        });
    }
}

unsafe extern "C" {
    fn calloc(count: usize, size: usize) -> *mut std::ffi::c_void;
}

/// `malloc` of the JIT-compiled programs (the lowering of `memref.alloc`):
/// zeroed memory, so that a program that reads an element no one wrote
/// (a mutant that reads a version no copy fills) reads the same in every
/// run instead of whatever the allocator left there; `free` stays libc's.
unsafe extern "C" fn harness_malloc(size: usize) -> *mut std::ffi::c_void {
    // SAFETY: libc's calloc; the programs free it with libc's free.
    unsafe { calloc(size.max(1), 1) }
}

/// One program variant in a batch.
struct Variant {
    /// The kernel's symbol and the entry's.
    name: String,
    /// The kernel function, renamed.
    kernel: String,
}

/// A mutant of a program.
struct MutantCase {
    kind: Mutation,
    /// The mutant kernel (for `APIPE_DIFFERENTIAL_DUMP`).
    text: String,
    /// Its variant name, and its make-sync's when it is cross-checked.
    name: String,
    reference: Option<String>,
}

/// A program of a batch.
struct Case {
    index: usize,
    input: Input,
    /// The output's queues were merged (`apipe-merge-queues`).
    merged: bool,
    reference: String,
    output: String,
    mutants: Vec<MutantCase>,
}

/// The ops of `module`'s body, printed (the program: a host function, or a
/// `gpu.module` and the host function that launches its kernel).
fn kernel_of(module: &Module) -> Option<String> {
    let mut out = String::new();
    let mut op = module.body().first_operation();
    while let Some(o) = op {
        out.push_str(&o.to_string());
        out.push('\n');
        op = o.next_in_block();
    }
    (!out.is_empty()).then_some(out)
}

/// The program with its symbols (`@kernel`, and for kernels
/// `@kernel_gpu::@kernel_k`) renamed to start with `@name`.
fn renamed(kernel: &str, name: &str) -> String {
    kernel.replace("@kernel", &format!("@{name}"))
}

/// `program` in a module that may hold `gpu.launch_func`.
fn container(program: &str) -> String {
    format!("module attributes {{gpu.container_module}} {{\n{program}}}\n")
}

/// The `gpu.barrier` lines of a printed program, by line index.
fn barriers(kernel: &str) -> Vec<usize> {
    kernel
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == "gpu.barrier")
        .map(|(i, _)| i)
        .collect()
}

/// The program without its `gpu.barrier` on line `line`.
pub fn remove_barrier(kernel: &str, line: usize) -> String {
    let mut out: Vec<&str> = kernel.lines().collect();
    out.remove(line);
    out.join("\n")
}

/// The line-based mutations of a printed kernel (counting form, or the
/// mbarrier form for [`MBARRIER_MUTATIONS`]); `None` if it has no op the
/// mutation applies to.
pub fn mutate(kernel: &str, kind: Mutation, rng: &mut Rng) -> Option<String> {
    let lines: Vec<&str> = kernel.lines().collect();
    let pick = |candidates: &[usize], rng: &mut Rng| -> Option<usize> {
        (!candidates.is_empty()).then(|| candidates[rng.below(candidates.len() as u64) as usize])
    };
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    match kind {
        // One mutant per barrier: see `remove_barrier`.
        Mutation::BarrierRemoved => return None,
        Mutation::PendingPlusOne | Mutation::WaitRemoved => {
            let waits: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].trim_start().starts_with("apipe.wait_group "))
                .collect();
            let i = pick(&waits, rng)?;
            if kind == Mutation::WaitRemoved {
                out.remove(i);
            } else {
                let rest = lines[i].trim_start().strip_prefix("apipe.wait_group ")?;
                let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
                let n: i64 = digits.parse().ok()?;
                out[i] = format!(
                    "{}apipe.wait_group {}{}",
                    &lines[i][..indent(lines[i])],
                    n + 1,
                    &rest[digits.len()..]
                );
            }
        }
        Mutation::CommitAfterWait => {
            // A commit with a wait after it in the same block.
            let mut moves = Vec::new();
            for i in 0..lines.len() {
                if !lines[i].trim_start().starts_with("apipe.commit_group") {
                    continue;
                }
                let depth = indent(lines[i]);
                for (j, line) in lines.iter().enumerate().skip(i + 1) {
                    let d = indent(line);
                    if d < depth || line.trim().is_empty() {
                        break;
                    }
                    if d == depth && line.trim_start().starts_with("apipe.wait_group ") {
                        moves.push((i, j));
                        break;
                    }
                }
            }
            let k = pick(&(0..moves.len()).collect::<Vec<_>>(), rng)?;
            let (i, j) = moves[k];
            let commit = out.remove(i);
            out.insert(j, commit);
        }
        Mutation::VersionShifted => {
            // `%v = arith.remui %x, %V : index` used as a subview offset.
            let mut remuis = Vec::new();
            for (i, line) in lines.iter().enumerate() {
                let t = line.trim_start();
                let Some((result, rest)) = t.split_once(" = arith.remui ") else {
                    continue;
                };
                let used = lines
                    .iter()
                    .any(|l| l.contains("memref.subview") && l.contains(&format!("[{result},")));
                if used {
                    remuis.push((i, result.to_owned(), rest.to_owned()));
                }
            }
            let k = pick(&(0..remuis.len()).collect::<Vec<_>>(), rng)?;
            let (i, result, rest) = remuis[k].clone();
            let (x, tail) = rest.split_once(", ")?;
            let pad = &lines[i][..indent(lines[i])];
            out[i] = format!("{pad}{result} = arith.remui %hz_shift, {tail}");
            out.insert(
                i,
                format!("{pad}%hz_shift = arith.addi {x}, %hz_one : index"),
            );
            out.insert(i, format!("{pad}%hz_one = arith.constant 1 : index"));
        }
        Mutation::MbarrierWaitRemoved | Mutation::ArriveRemoved => {
            let op = if kind == Mutation::ArriveRemoved {
                "apipe.mbarrier_arrive_copies "
            } else {
                "apipe.mbarrier_wait "
            };
            let lines_of: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].trim_start().starts_with(op))
                .collect();
            out.remove(pick(&lines_of, rng)?);
        }
        Mutation::ParityFlipped | Mutation::SlotShifted => {
            // `apipe.mbarrier_wait %ring[%slot], %parity : memref<Kxi64, 3>`
            let waits: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].trim_start().starts_with("apipe.mbarrier_wait "))
                .collect();
            let i = pick(&waits, rng)?;
            let t = lines[i].trim_start().strip_prefix("apipe.mbarrier_wait ")?;
            let (ring, rest) = t.split_once('[')?;
            let (slot, rest) = rest.split_once("], ")?;
            let (parity, ty) = rest.split_once(" : ")?;
            let pad = &lines[i][..indent(lines[i])];
            let mut before = Vec::new();
            let (slot, parity) = if kind == Mutation::ParityFlipped {
                before.push(format!("{pad}%hz_true = arith.constant true"));
                before.push(format!(
                    "{pad}%hz_parity = arith.xori {parity}, %hz_true : i1"
                ));
                (slot.to_owned(), "%hz_parity".to_owned())
            } else {
                let size: i64 = ty
                    .strip_prefix("memref<")?
                    .split_once('x')?
                    .0
                    .parse()
                    .ok()?;
                before.push(format!("{pad}%hz_one = arith.constant 1 : index"));
                before.push(format!("{pad}%hz_ring = arith.constant {size} : index"));
                before.push(format!(
                    "{pad}%hz_next = arith.addi {slot}, %hz_one : index"
                ));
                before.push(format!(
                    "{pad}%hz_slot = arith.remui %hz_next, %hz_ring : index"
                ));
                ("%hz_slot".to_owned(), parity.to_owned())
            };
            out[i] = format!("{pad}apipe.mbarrier_wait {ring}[{slot}], {parity} : {ty}");
            for line in before.into_iter().rev() {
                out.insert(i, line);
            }
        }
        Mutation::StoreIntoSource => {
            let copies: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].trim_start().starts_with("apipe.copy "))
                .collect();
            let i = pick(&copies, rng)?;
            let t = lines[i].trim_start().strip_prefix("apipe.copy ")?;
            // `%src[%i, ...], %dst[...], n ... : memref<...> to memref<...>`
            let open = t.find('[')?;
            let close = t.find(']')?;
            let source = &t[..open];
            let indices = &t[open + 1..close];
            let ty_start = t.rfind(" : ")? + 3;
            let types = &t[ty_start..];
            // The source type: up to " to " at bracket depth 0.
            let mut depth = 0i32;
            let mut end = None;
            for (p, c) in types.char_indices() {
                match c {
                    '<' | '[' | '(' => depth += 1,
                    '>' | ']' | ')' => depth -= 1,
                    _ => {}
                }
                if depth == 0 && types[p..].starts_with(" to ") {
                    end = Some(p);
                    break;
                }
            }
            let source_type = &types[..end?];
            let pad = &lines[i][..indent(lines[i])];
            out.insert(
                i + 1,
                format!("{pad}memref.store %hz_value, {source}[{indices}] : {source_type}"),
            );
            out.insert(i + 1, format!("{pad}%hz_value = arith.constant -7.0 : f32"));
        }
    }
    Some(out.join("\n"))
}

/// With `APIPE_DIFFERENTIAL_DUMP=<dir>`, writes the input and the mutant
/// `name` there (`<dir>/<name>.mlir`), to reproduce a miss or a false alarm
/// with `apipe-opt` and `apipe-run`: the mutant `@<name>` with the entry
/// `@main` that runs every scenario and prints `%out` after each
/// (`printMemrefF32`). The mutant is truly broken when a completion mode
/// (or thread order) prints other than `--completion=eager` (its make-sync
/// semantics), or the race checker reports a run.
fn dump(name: &str, input: &Input, mutant: &str) {
    let Some(dir) = std::env::var_os("APIPE_DIFFERENTIAL_DUMP") else {
        return;
    };
    let program = format!(
        "func.func private @printMemrefF32(memref<*xf32>)\n\
         func.func @harness_record(%m: memref<*xf32>) {{\n  \
         func.call @printMemrefF32(%m) : (memref<*xf32>) -> ()\n  return\n}}\n\
         {}\n{}func.func @main() {{\n  func.call @e_{name}() : () -> ()\n  return\n}}\n",
        renamed(mutant, name),
        entry(name, input)
    );
    let text = format!(
        "// input ({:?}, {:?}):\n// {}\n// mutant:\n{}\n",
        input.kind(),
        input.options(),
        input.text().replace('\n', "\n// "),
        container(&program)
    );
    let _ = std::fs::write(
        std::path::Path::new(&dir).join(format!("{name}.mlir")),
        text,
    );
}

/// Scenarios that are every pair of `uppers` counts `lower + i * step`
/// (`i < uppers`, in order) and one or two conditions (inner), the shape
/// [`Input::scenarios`] gives, which the entry runs as a loop nest.
struct Grid {
    uppers: i64,
    lower: i64,
    step: i64,
    conditions: Vec<bool>,
}

impl Grid {
    fn of(scenarios: &[common::pipelines::Scenario]) -> Option<Grid> {
        let first = scenarios.first()?;
        let conditions: Vec<bool> = scenarios
            .iter()
            .take_while(|s| s.upper == first.upper)
            .map(|s| s.condition)
            .collect();
        if conditions.len() > 2 || !scenarios.len().is_multiple_of(conditions.len()) {
            return None;
        }
        let uppers = (scenarios.len() / conditions.len()) as i64;
        let step = scenarios
            .get(conditions.len())
            .map_or(0, |s| s.upper - first.upper);
        let grid = Grid {
            uppers,
            lower: first.upper,
            step,
            conditions,
        };
        let expected = (0..grid.uppers).flat_map(|i| {
            let upper = grid.lower + i * grid.step;
            grid.conditions.iter().map(move |c| (upper, *c))
        });
        expected
            .eq(scenarios.iter().map(|s| (s.upper, s.condition)))
            .then_some(grid)
    }
}

/// The entry `@e_<name>`: fills `%A`, runs the kernel on every scenario and
/// records `%out` after each.
fn entry(name: &str, pipeline: &Input) -> String {
    let (na, no) = (pipeline.source_size(), pipeline.output_size());
    let mut t = String::new();
    let _ = writeln!(t, "func.func @e_{name}() {{");
    let _ = writeln!(t, "  %c0 = arith.constant 0 : index");
    let _ = writeln!(t, "  %c1 = arith.constant 1 : index");
    let _ = writeln!(t, "  %na = arith.constant {na} : index");
    let _ = writeln!(t, "  %no = arith.constant {no} : index");
    let _ = writeln!(t, "  %f0 = arith.constant 0.0 : f32");
    let _ = writeln!(t, "  %f1 = arith.constant 1.0 : f32");
    let _ = writeln!(t, "  %A = memref.alloc() : memref<{na}xf32>");
    let _ = writeln!(t, "  %out = memref.alloc() : memref<{no}xf32>");
    let _ = writeln!(t, "  scf.for %j = %c0 to %na step %c1 {{");
    let _ = writeln!(t, "    %ji = arith.index_cast %j : index to i64");
    let _ = writeln!(t, "    %jf = arith.sitofp %ji : i64 to f32");
    let _ = writeln!(t, "    %v = arith.addf %jf, %f1 : f32");
    let _ = writeln!(t, "    memref.store %v, %A[%j] : memref<{na}xf32>");
    let _ = writeln!(t, "  }}");
    let _ = writeln!(
        t,
        "  %u = memref.cast %out : memref<{no}xf32> to memref<*xf32>"
    );
    let scenarios = pipeline.scenarios();
    let run = |t: &mut String, indent: &str, s: &str| {
        let call = format!(
            "func.call @{name}(%A, %out, %n{s}, %cond{s}) : (memref<{na}xf32>, memref<{no}xf32>, index, i1) -> ()"
        );
        let _ = writeln!(t, "{indent}scf.for %j = %c0 to %no step %c1 {{");
        let _ = writeln!(t, "{indent}  memref.store %f0, %out[%j] : memref<{no}xf32>");
        let _ = writeln!(t, "{indent}}}");
        let _ = writeln!(t, "{indent}{call}");
        let _ = writeln!(
            t,
            "{indent}func.call @harness_record(%u) : (memref<*xf32>) -> ()"
        );
    };
    match Grid::of(&scenarios) {
        // One loop over the grid, whatever its size: a batch module's
        // code (most of what a batch costs to lower and compile) does not
        // grow with the scenarios.
        Some(grid) => {
            let (first, second) = (
                grid.conditions[0],
                grid.conditions[grid.conditions.len() - 1],
            );
            let _ = write!(
                t,
                "  %uppers = arith.constant {} : index\n  \
                 %lower = arith.constant {} : index\n  \
                 %step = arith.constant {} : index\n  \
                 %conds = arith.constant {} : index\n  \
                 %first = arith.constant {first}\n  \
                 %second = arith.constant {second}\n  \
                 scf.for %s = %c0 to %uppers step %c1 {{\n    \
                 %sn = arith.muli %s, %step : index\n    \
                 %n = arith.addi %sn, %lower : index\n    \
                 scf.for %q = %c0 to %conds step %c1 {{\n      \
                 %isfirst = arith.cmpi eq, %q, %c0 : index\n      \
                 %cond = arith.select %isfirst, %first, %second : i1\n",
                grid.uppers,
                grid.lower,
                grid.step,
                grid.conditions.len()
            );
            run(&mut t, "      ", "");
            let _ = writeln!(t, "    }}\n  }}");
        }
        None => {
            for (s, scenario) in scenarios.iter().enumerate() {
                let _ = writeln!(t, "  %n{s} = arith.constant {} : index", scenario.upper);
                let _ = writeln!(t, "  %cond{s} = arith.constant {}", scenario.condition);
                run(&mut t, "  ", &s.to_string());
            }
        }
    }
    let _ = writeln!(t, "  return\n}}");
    t
}

/// The first line (1-based) of each function of the batch module `text`,
/// with the program it belongs to: `@<name>` and its entry `@e_<name>`
/// are program `<name>`, as is a kernel `@<name>_k`.
fn function_starts(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let t = line.trim_start();
            let rest = t
                .strip_prefix("func.func @")
                .or_else(|| t.strip_prefix("func.func private @"))
                .or_else(|| t.strip_prefix("gpu.func @"))?;
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let name = if t.starts_with("gpu.func") {
                name.strip_suffix("_k").map(str::to_owned).unwrap_or(name)
            } else {
                name.strip_prefix("e_").map(str::to_owned).unwrap_or(name)
            };
            Some((i + 1, name))
        })
        .collect()
}

/// The line of a printed location `loc("<file>":L:C)`.
fn line_of(location: &str) -> Option<usize> {
    let (_, rest) = location.rsplit_once("\":")?;
    rest.split(':').next()?.parse().ok()
}

/// The program whose function holds `line` ([`function_starts`]).
fn program_at(starts: &[(usize, String)], line: usize) -> Option<String> {
    let at = starts.partition_point(|(first, _)| *first <= line);
    Some(starts.get(at.checked_sub(1)?)?.1.clone())
}

/// Parses `text` (one kernel) in `context`, applies `transform`, prints the
/// kernel; `None` if it does not parse or the transform fails.
fn transformed(
    context: &melior::Context,
    text: &str,
    transform: impl Fn(&Module) -> bool,
) -> Option<String> {
    let module = Module::parse(context, &container(text))?;
    if !transform(&module) || !module.as_operation().verify() {
        return None;
    }
    kernel_of(&module)
}

impl Config {
    /// Inputs of every kind.
    pub fn total(&self) -> usize {
        self.inputs
            + self.unannotated
            + self.gpu
            + self.gpu_unannotated
            + self.mbarrier_host
            + self.mbarrier_gpu
    }

    /// The kind of the `g`-th input and its index among its kind: the
    /// annotated host inputs first (the same as before the other kinds
    /// existed), then the unannotated ones, then the kernels.
    fn input(&self, g: usize) -> (Kind, usize) {
        let mut g = g;
        for (kind, count) in [
            (Kind::Host, self.inputs),
            (Kind::HostUnannotated, self.unannotated),
            (Kind::Gpu, self.gpu),
            (Kind::GpuUnannotated, self.gpu_unannotated),
            (Kind::HostMbarrier, self.mbarrier_host),
            (Kind::GpuMbarrier, self.mbarrier_gpu),
        ] {
            if g < count {
                return (kind, g);
            }
            g -= count;
        }
        unreachable!("input index past the total")
    }
}

/// Runs the harness on the inputs of `config`.
pub fn run(config: &Config) -> Report {
    apipe_lowering::register_passes();
    // Mutants fail runs on purpose: their race reports and run-time errors
    // would flood the output; the harness reads only pass or fail.
    emulation_runtime::set_quiet(true);
    let start = Instant::now();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let batch = config.batch.max(1);
    let total = config.total();
    let worker = || {
        let mut report = Report::default();
        loop {
            let first = next.fetch_add(batch, std::sync::atomic::Ordering::Relaxed);
            if first >= total {
                break;
            }
            let end = (first + batch).min(total);
            let inputs: Vec<(Kind, usize)> = (first..end).map(|g| config.input(g)).collect();
            run_batch(&inputs, config, &mut report);
        }
        report
    };
    let reports: Vec<Report> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..config.jobs.max(1))
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(256 << 20)
                    .spawn_scoped(scope, worker)
                    .expect("a harness thread")
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a harness thread panicked"))
            .collect()
    });
    let mut report = Report::default();
    for part in reports {
        report.merge(part);
    }
    report.inputs = total;
    report.elapsed = start.elapsed();
    report
}

impl Report {
    /// Adds the figures of `other` (another thread's batches).
    fn merge(&mut self, other: Report) {
        self.refused += other.refused;
        self.merged += other.merged;
        self.merge_refused += other.merge_refused;
        for (k, v) in other.refusals {
            *self.refusals.entry(k).or_default() += v;
        }
        self.mismatches.extend(other.mismatches);
        self.alarms_on_outputs.extend(other.alarms_on_outputs);
        self.mutants += other.mutants;
        for (k, v) in other.mutants_by_kind {
            *self.mutants_by_kind.entry(k).or_default() += v;
        }
        self.truly_broken += other.truly_broken;
        self.flagged += other.flagged;
        self.missed.extend(other.missed);
        self.false_alarms.extend(other.false_alarms);
        self.mbarrier_flagged += other.mbarrier_flagged;
        self.mbarrier_false_alarms
            .extend(other.mbarrier_false_alarms);
        self.cross_checks += other.cross_checks;
        self.cross_check_failures.extend(other.cross_check_failures);
        self.races_on_outputs.extend(other.races_on_outputs);
        self.racecheck_missed.extend(other.racecheck_missed);
        for (k, v) in other.by_kind {
            self.by_kind.entry(k).or_default().add(&v);
        }
        for (k, v) in other.gpu_by_mutation {
            self.gpu_by_mutation.entry(k).or_default().add(&v);
        }
        for (k, v) in other.mbarrier_by_mutation {
            self.mbarrier_by_mutation.entry(k).or_default().add(&v);
        }
        self.runs += other.runs;
        for (k, v) in other.phases {
            *self.phases.entry(k).or_default() += v;
        }
    }
}

/// Mixed into an input's seed for its `apipe-merge-queues` draw.
const MERGE_SALT: u64 = 0x6d65_7267_6520_7175;

/// The seed of the `i`-th input of `kind`: the annotated host inputs keep
/// the seeds they had before the other kinds existed.
fn input_seed(seed: u64, kind: Kind, i: usize) -> u64 {
    let salt = match kind {
        Kind::Host => 0,
        Kind::HostUnannotated => 1,
        Kind::Gpu => 2,
        Kind::GpuUnannotated => 3,
        Kind::HostMbarrier => 4,
        Kind::GpuMbarrier => 5,
    };
    seed.wrapping_add(i as u64)
        .wrapping_add(salt << 40)
        .wrapping_mul(0x2545_f491_4f6c_dd1d)
}

fn run_batch(inputs: &[(Kind, usize)], config: &Config, report: &mut Report) {
    let context = apipe_dialect::create_context().expect("context");
    // Refusals and diagnostics of mutants are expected: keep them quiet,
    // and the errors for the refusal counts.
    let errors: std::rc::Rc<RefCell<Vec<String>>> = Default::default();
    // The locations of the errors, in step with `errors`.
    let error_locations: std::rc::Rc<RefCell<Vec<String>>> = Default::default();
    let (sink, locations_sink) = (errors.clone(), error_locations.clone());
    context.attach_diagnostic_handler(move |d| {
        if matches!(d.severity(), melior::diagnostic::DiagnosticSeverity::Error) {
            sink.borrow_mut().push(d.to_string());
            locations_sink.borrow_mut().push(d.location().to_string());
        }
        true
    });
    let mut clock = Instant::now();
    let mut lap = |report: &mut Report, phase: &'static str| {
        *report.phases.entry(phase).or_default() += clock.elapsed();
        clock = Instant::now();
    };
    let mut cases: Vec<Case> = Vec::new();
    let mut variants: Vec<(Variant, usize)> = Vec::new();
    for &(kind, i) in inputs {
        let mut rng = Rng::new(input_seed(config.seed, kind, i));
        let generated = Input::generate(kind, &mut rng);
        let figures = report.by_kind.entry(kind).or_default();
        figures.inputs += 1;
        let input = generated.text();
        let Some(reference) =
            transformed(&context, &input, |m| make_sync(&m.as_operation()).is_ok())
        else {
            report.refused += 1;
            figures.refused += 1;
            continue;
        };
        errors.borrow_mut().clear();
        let options = generated.options();
        // The mbarrier form: the tokens form of the pipeliner, converted.
        let output = transformed(&context, &input, |m| {
            software_pipeline(&m.as_operation(), options).is_ok()
        })
        .and_then(|tokens| {
            if !generated.is_mbarrier() {
                return Some(tokens);
            }
            transformed(&context, &tokens, |m| {
                tokens_to_mbarrier(m.as_operation(), MbarrierOptions::default()).is_ok()
            })
        });
        let Some(output) = output else {
            report.refused += 1;
            figures.refused += 1;
            let first = errors.borrow().first().cloned().unwrap_or_default();
            // The message without its numbers, so that refusals group.
            let key: String = first
                .chars()
                .map(|c| if c.is_ascii_digit() { '#' } else { c })
                .collect();
            *report
                .refusals
                .entry(format!("{kind:?}: {key}"))
                .or_default() += 1;
            continue;
        };
        // `apipe-merge-queues` on half of the outputs with several queues,
        // drawn apart from `rng` so that the mutants' draws stay the same.
        let several_queues = output
            .lines()
            .any(|l| l.contains(" queue ") && !l.contains(" queue 0"));
        let draw = Rng::new(input_seed(config.seed, kind, i) ^ MERGE_SALT).coin();
        let (output, merged) = if several_queues && draw && !generated.is_mbarrier() {
            match transformed(&context, &output, |m| {
                merge_queues(m.as_operation()).is_ok()
            }) {
                Some(merged) => {
                    report.merged += 1;
                    (merged, true)
                }
                None => {
                    report.merge_refused += 1;
                    (output, false)
                }
            }
        } else {
            (output, false)
        };
        let case_index = cases.len();
        let base = format!("p{}_{i}", kind as usize);
        variants.push((
            Variant {
                name: format!("{base}_ref"),
                kernel: renamed(&reference, &format!("{base}_ref")),
            },
            case_index,
        ));
        variants.push((
            Variant {
                name: format!("{base}_out"),
                kernel: renamed(&output, &format!("{base}_out")),
            },
            case_index,
        ));
        // Every mutation once, and for kernels every barrier removed.
        let mutations: &[Mutation] = if generated.is_mbarrier() {
            &MBARRIER_MUTATIONS
        } else {
            &MUTATIONS
        };
        let mut texts: Vec<(Mutation, String)> = mutations
            .iter()
            .filter_map(|&m| Some((m, mutate(&output, m, &mut rng)?)))
            .collect();
        if generated.is_gpu() {
            let mut lines = barriers(&output);
            // A random subset of `barrier_mutants` (Fisher-Yates), in
            // program order.
            let keep = lines.len().min(config.barrier_mutants);
            for k in 0..keep {
                let j = k + rng.below((lines.len() - k) as u64) as usize;
                lines.swap(k, j);
            }
            lines.truncate(keep);
            lines.sort();
            for line in lines {
                texts.push((Mutation::BarrierRemoved, remove_barrier(&output, line)));
            }
        }
        let mut mutants = Vec::new();
        for (m, (kind, text)) in texts.into_iter().enumerate() {
            let Some(valid) = transformed(&context, &text, |_| true) else {
                continue;
            };
            let name = format!("{base}_m{m}");
            // The first program of the batch: its mutants' make-sync too.
            let reference = if case_index == 0 {
                let Some(sync) =
                    transformed(&context, &valid, |m| make_sync(&m.as_operation()).is_ok())
                else {
                    continue;
                };
                let reference = format!("{name}_ref");
                variants.push((
                    Variant {
                        name: reference.clone(),
                        kernel: renamed(&sync, &reference),
                    },
                    case_index,
                ));
                Some(reference)
            } else {
                None
            };
            variants.push((
                Variant {
                    name: name.clone(),
                    kernel: renamed(&valid, &name),
                },
                case_index,
            ));
            mutants.push(MutantCase {
                kind,
                text: valid.clone(),
                name,
                reference,
            });
        }
        cases.push(Case {
            index: i,
            input: generated,
            merged,
            reference: format!("{base}_ref"),
            output: format!("{base}_out"),
            mutants,
        });
    }
    if cases.is_empty() {
        return;
    }
    // One module: the programs, their entries, the recorder.
    let mut text = String::from("func.func private @harness_record(memref<*xf32>)\n");
    for (variant, case) in &variants {
        text.push_str(&variant.kernel);
        text.push('\n');
        text.push_str(&entry(&variant.name, &cases[*case].input));
    }
    let text = container(&text);
    // With `APIPE_DIFFERENTIAL_MODULE=<file>`, the batch module is written
    // there (to time or rerun its lowering with apipe-opt).
    if let Some(path) = std::env::var_os("APIPE_DIFFERENTIAL_MODULE") {
        let _ = std::fs::write(path, &text);
    }
    let mut module = Module::parse(&context, &text).expect("the batch module parses");
    lap(report, "variants");
    // The checker on every program, before lowering; a hazard in kernel
    // `@<name>_k` counts for program `<name>`.
    let mut flagged: HashSet<String> = HashSet::new();
    let mut first_message: BTreeMap<String, String> = BTreeMap::new();
    errors.borrow_mut().clear();
    error_locations.borrow_mut().clear();
    let (hazards, analyzed) = find_all_hazards(&module.as_operation());
    // Errors the checker reports as diagnostics (the mbarrier form's:
    // a wait that can deadlock, a slot out of step), each counted for the
    // program whose function holds its line.
    let starts = function_starts(&text);
    let mut attributed = 0;
    for (message, location) in errors.borrow().iter().zip(error_locations.borrow().iter()) {
        if let Some(name) = line_of(location).and_then(|line| program_at(&starts, line)) {
            attributed += 1;
            first_message
                .entry(name.clone())
                .or_insert_with(|| message.clone());
            flagged.insert(name);
        }
    }
    for hazard in hazards.iter().filter(|h| !h.conservative) {
        if let Some(function) =
            ops::ancestors(&hazard.at).find(|p| ops::is(p, "func.func") || ops::is(p, "gpu.func"))
        {
            let mut name = function
                .attribute("sym_name")
                .ok()
                .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
                .map(|s| s.value().to_owned())
                .unwrap_or_default();
            if ops::is(&function, "gpu.func") {
                if let Some(program) = name.strip_suffix("_k") {
                    name = program.to_owned();
                }
            }
            // A note that names the class of an mbarrier-form alarm
            // ([`MBARRIER_ALARM_CLASSES`]) goes with the message.
            let class_note = hazard
                .notes
                .iter()
                .find(|(_, note)| note.starts_with(EARLY_WAIT_NOTE));
            first_message
                .entry(name.clone())
                .or_insert_with(|| match class_note {
                    Some((_, note)) => format!("{} ({note})", hazard.message),
                    None => hazard.message.clone(),
                });
            flagged.insert(name);
        }
    }
    if analyzed.is_err() && attributed == 0 {
        // A refusal with no located error flags nothing here; it is
        // counted as an alarm on every output of the batch.
        for case in &cases {
            flagged.insert(case.output.clone());
        }
    }
    lap(report, "checker");
    // Lower and JIT.
    for (variant, _) in &variants {
        prepare_entry(&module, &format!("e_{}", variant.name)).expect("entry");
    }
    lap(report, "prepare");
    let emulation = to_emulation(
        &module.as_operation(),
        &EmulationOptions {
            // The race checker's hooks, in kernels and in host code (a
            // run turns it on or off).
            racecheck: true,
            bounds: false,
        },
    )
    .expect("apipe-to-emulation");
    lap(report, "emulation");
    // The lowering is upstream's, verified by upstream's tests and by
    // apipe-run; here, where the module holds every variant of a batch, its
    // verifier would run after each of the pipeline's passes.
    let manager = apipe_passes::registry::module_pass_manager(&context);
    manager.enable_verifier(false);
    apipe_passes::registry::parse_pipeline(&manager, LLVM_PIPELINE).expect("the LLVM pipeline");
    manager.run(&mut module).expect("LLVM lowering");
    let libraries: Vec<String> = apipe_tools::run::DEFAULT_SHARED_LIBS
        .iter()
        .map(|s| s.to_string())
        .filter(|l| std::path::Path::new(l).exists())
        .collect();
    lap(report, "lowering");
    // Code generation at -O0 (fast instruction selection and register
    // allocation): half the JIT time of -O2, with the same verdicts on the
    // benchmark's 33,116 programs (f32 and index only).
    let engine = Engine::new(&module, 0, 0, &libraries).expect("JIT");
    engine.bind_runtime(&emulation);
    engine.register("harness_record", harness_record as *mut ());
    engine.register("malloc", harness_malloc as *mut ());
    let mut kernels: Vec<KernelInfo> = emulation.kernels.clone();
    for kernel in &mut kernels {
        kernel.entry = Some(engine.lookup_packed(&kernel.function).expect("kernel"));
    }
    // Shared by every run of the batch (copied per run, they cost more
    // than most runs).
    let kernels: std::sync::Arc<[KernelInfo]> = kernels.into();
    let locations: std::sync::Arc<[String]> = emulation.locations.clone().into();
    let checks: std::sync::Arc<[String]> = emulation.checks.clone().into();
    let names: std::sync::Arc<[String]> = emulation.names.clone().into();
    // Every entry, looked up now: the JIT generates code at the first
    // lookup, which then counts as "jit" and not as "runs".
    let entries: HashMap<&str, _> = variants
        .iter()
        .map(|(variant, _)| {
            let entry = engine
                .lookup_packed(&format!("e_{}", variant.name))
                .expect("entry");
            (variant.name.as_str(), entry)
        })
        .collect();
    lap(report, "jit");
    let run_with = |name: &str,
                    completion: Completion,
                    schedule: Schedule,
                    racecheck: bool|
     -> Option<Vec<f32>> {
        let entry = entries[name];
        RECORDED.with(|r| r.borrow_mut().clear());
        let config = RunConfig {
            completion,
            schedule,
            racecheck,
            jobs: 1,
            locations: locations.clone(),
            checks: checks.clone(),
            names: names.clone(),
            kernels: kernels.clone(),
            entry_op: -1,
        };
        let ok = emulation_runtime::run_entry(config, entry);
        let values = RECORDED.with(|r| std::mem::take(&mut *r.borrow_mut()));
        ok.then_some(values)
    };
    let run = |name: &str, completion: Completion| -> Option<Vec<f32>> {
        run_with(name, completion, Schedule::Forward, false)
    };
    let same = |a: &Option<Vec<f32>>, b: &Option<Vec<f32>>| match (a, b) {
        (Some(a), Some(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
        }
        _ => false,
    };
    // Every (completion, schedule) a program runs in: the completion modes
    // for host programs; for kernels, fewer modes under every schedule.
    let runs_of = |gpu: bool| -> Vec<(Completion, Schedule)> {
        if gpu {
            GPU_MODES
                .iter()
                .flat_map(|&c| SCHEDULES.iter().map(move |&s| (c, s)))
                .collect()
        } else {
            MODES.iter().map(|&c| (c, Schedule::Forward)).collect()
        }
    };
    for case in &cases {
        let gpu = case.input.is_gpu();
        let kind = case.input.kind();
        let describe = || {
            let merged = if case.merged { ", queues merged" } else { "" };
            format!("{kind:?} input {}{merged} ({:?})", case.index, case.input)
        };
        // The reference runs with the race checker on: the synchronous
        // input is race-free.
        let reference = run_with(&case.reference, Completion::Lazy, Schedule::Forward, true);
        report.runs += 1;
        if reference.is_none() {
            report
                .races_on_outputs
                .push(format!("reference of {}", describe()));
        }
        let mut matches = true;
        for (completion, schedule) in runs_of(gpu) {
            let out = run_with(&case.output, completion, schedule, false);
            report.runs += 1;
            matches &= same(&out, &reference);
        }
        {
            report.runs += 1;
            if run_with(&case.output, Completion::Lazy, Schedule::Forward, true).is_none() {
                report
                    .races_on_outputs
                    .push(format!("pipelined output of {}", describe()));
            }
        }
        if !matches {
            report.mismatches.push(describe());
        }
        if flagged.contains(&case.output) {
            report.alarms_on_outputs.push(format!(
                "{}: {}",
                describe(),
                first_message.get(&case.output).cloned().unwrap_or_default()
            ));
        }
        for mutant in &case.mutants {
            report.mutants += 1;
            *report.mutants_by_kind.entry(mutant.kind).or_default() += 1;
            let mut figures = Figures {
                mutants: 1,
                ..Figures::default()
            };
            // Its reference: its own eager run (make-sync's semantics).
            let reference = run(&mutant.name, Completion::Eager);
            report.runs += 1;
            let mut broken = false;
            for (completion, schedule) in runs_of(gpu) {
                if (completion, schedule) == (Completion::Eager, Schedule::Forward) {
                    continue;
                }
                let out = run_with(&mutant.name, completion, schedule, false);
                report.runs += 1;
                broken |= !same(&out, &reference);
            }
            // A race the race checker reports breaks the mutant too (a
            // run that passes it fails only at a race): between threads
            // in kernels; in host code, the host's access to a copy of its
            // own still in flight, which the completion modes can hide (a
            // thread's copies land in issue order).
            let raced = reference.is_some() && {
                report.runs += 1;
                run_with(&mutant.name, Completion::Lazy, Schedule::Forward, true).is_none()
            };
            let broken = broken || raced;
            // The cross-check, where eager completion is make-sync's
            // semantics: not for a mutant whose eager run fails (a deadlock
            // of the mbarrier form, whose make-sync has no wait left to
            // block), nor for a kernel of the mbarrier form that races (its
            // waits suspend threads that have to wait for the others'
            // arrivals, even under eager completion, so its threads
            // interleave otherwise than its make-sync's, and a race gives
            // other values).
            let racy_mbarrier_kernel = case.input.is_mbarrier() && gpu && raced;
            if let Some(sync) = mutant
                .reference
                .as_ref()
                .filter(|_| reference.is_some() && !racy_mbarrier_kernel)
            {
                report.cross_checks += 1;
                report.runs += 1;
                if !same(&run(sync, Completion::Lazy), &reference) {
                    report.cross_check_failures.push(format!(
                        "{:?} of {kind:?} input {} ({:?})",
                        mutant.kind, case.index, case.input
                    ));
                }
            }
            let is_flagged = flagged.contains(&mutant.name);
            figures.truly_broken = usize::from(broken);
            figures.flagged = usize::from(is_flagged);
            figures.missed = usize::from(broken && !is_flagged);
            figures.false_alarms = usize::from(is_flagged && !broken);
            figures.racecheck_flagged = usize::from(raced);
            // A mutant of the mbarrier form whose own eager run fails has
            // met a run-time error (a deadlock: a phase that never
            // completes), not a race the race checker should see.
            let failed_alone = case.input.is_mbarrier() && reference.is_none();
            figures.racecheck_missed = usize::from(gpu && broken && !raced && !failed_alone);
            report.truly_broken += figures.truly_broken;
            if case.input.is_mbarrier() {
                report.mbarrier_flagged += figures.flagged;
            } else {
                report.flagged += figures.flagged;
            }
            let what = || {
                format!(
                    "{:?} of {kind:?} input {} ({:?})",
                    mutant.kind, case.index, case.input
                )
            };
            if broken != is_flagged || figures.racecheck_missed > 0 {
                dump(&mutant.name, &case.input, &mutant.text);
            }
            if broken && !is_flagged {
                report.missed.push(what());
            }
            if is_flagged && !broken {
                let list = if case.input.is_mbarrier() {
                    &mut report.mbarrier_false_alarms
                } else {
                    &mut report.false_alarms
                };
                list.push(format!(
                    "{}: {}",
                    what(),
                    first_message.get(&mutant.name).cloned().unwrap_or_default()
                ));
            }
            if figures.racecheck_missed > 0 {
                report.racecheck_missed.push(what());
            }
            report.by_kind.entry(kind).or_default().add(&figures);
            if case.input.is_mbarrier() {
                report
                    .mbarrier_by_mutation
                    .entry(mutant.kind)
                    .or_default()
                    .add(&figures);
            } else if gpu {
                report
                    .gpu_by_mutation
                    .entry(mutant.kind)
                    .or_default()
                    .add(&figures);
            }
        }
    }
    drop(engine);
    lap(report, "runs");
}
