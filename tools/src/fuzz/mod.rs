//! `apipe-fuzz`: a structure-aware mutation fuzzer for apipe's tools, on
//! stable Rust (no cargo-fuzz, no sanitizer runtime).
//!
//! A campaign:
//! 1. loads the seed corpus ([`corpus`]): the lit suite and the examples
//!    by default, split at `// -----`;
//! 2. checks each seed with `apipe-opt` (does it parse and verify?) and
//!    grows the corpus with the pipeliner's and `apipe-counting-to-tokens`'
//!    output of the seeds they accept, so that pipelined and token-form
//!    programs are seeds too;
//! 3. for each target ([`targets`]: `apipe-opt` alone, with every apipe
//!    pass alone and the pipeliner chain; `apipe-translate --to-ptx` for
//!    sm_80 and sm_90; `apipe-run` lazy, eager, random) and each input
//!    number `i < inputs`, picks a seed (valid ones mostly; ones with
//!    `@main` for `apipe-run`, with a `gpu.module` for `apipe-translate`),
//!    mutates it ([`mutate`]) with a generator seeded from (campaign seed,
//!    target, `i`), and runs the target on it in a forked child
//!    ([`exec`]): the driver never execs the 250 MB tool binaries;
//! 4. classifies each run ([`classify`]): exit 0, a refusal (exit 1, with
//!    or without a located error), a program that runs long by design
//!    ([`work`]), or a crash with its class;
//! 5. after the runs, minimises one input per crash class ([`reduce`]),
//!    and writes each with its command line, signature and the area it
//!    points at to `OUT/crashes/`, and the figures to `OUT/summary.txt`.
//!
//! The same seed and corpus give the same inputs, whatever the number of
//! jobs.

pub mod classify;
pub mod corpus;
pub mod exec;
pub mod mutate;
pub mod reduce;
pub mod rng;
pub mod targets;
pub mod text;
pub mod work;

use classify::{Crash, Verdict};
use exec::{Ending, Execution, Limits, Pool, Stdout};
use rng::Rng;
use std::{
    collections::{BTreeMap, BTreeSet, HashMap},
    fmt::Write as _,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};
use targets::{Target, Tool};

/// A campaign's settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// The campaign seed.
    pub seed: u64,
    /// Inputs per target.
    pub inputs: u64,
    /// Whether `inputs` counts per tool instead: the targets of a tool
    /// share them (`apipe-opt`'s 14 targets get `inputs / 14` each).
    pub per_tool: bool,
    /// The targets to run.
    pub targets: Vec<Target>,
    /// Seed files and directories.
    pub corpus: Vec<PathBuf>,
    /// Where crashes and the summary go.
    pub out: PathBuf,
    /// Children at once.
    pub jobs: usize,
    /// The CPU-time limit of one run (user + system, all its threads).
    pub timeout: Duration,
    /// The CPU-time limit of an `apipe-run` of a program that may run long
    /// by design.
    pub design_timeout: Duration,
    /// The wall-time limit of any run: the second guard, for a run that
    /// hangs without using CPU.
    pub wall_timeout: Duration,
    /// Stop starting runs this long after the campaign started (seed
    /// checks included; the runs are interleaved over the targets, so each
    /// gets its share).
    pub time_limit: Option<Duration>,
    /// Minimise crashes.
    pub reduce: bool,
    /// Grow the corpus with pass outputs (step 2).
    pub expand: bool,
    /// `RLIMIT_AS` of each child in bytes.
    pub address_space: u64,
    /// Progress lines on stderr.
    pub progress: bool,
}

/// The default corpus: the repository's lit suite and examples.
pub fn default_corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new("."))
        .to_owned();
    vec![root.join("test"), root.join("examples")]
}

/// Figures of one target.
#[derive(Clone, Debug, Default)]
pub struct TargetStats {
    /// Inputs run.
    pub inputs: u64,
    /// Inputs the tool parsed.
    pub parsed: u64,
    /// Endings: `exit 0`, `exit 1`, `SIGSEGV`, `timeout`, ...
    pub endings: BTreeMap<String, u64>,
    /// Refusals (exit 1) without a located error.
    pub unlocated: u64,
    /// Runs stopped as long by design.
    pub long_by_design: u64,
    /// Crashes.
    pub crashes: u64,
    /// Child time, fork to reap.
    pub child_time: Duration,
    /// Child CPU time, user + system.
    pub child_cpu: Duration,
}

/// One crash class.
#[derive(Clone, Debug)]
pub struct CrashClass {
    /// The first crash seen.
    pub crash: Crash,
    /// How many runs hit it.
    pub count: u64,
    /// The targets that hit it.
    pub targets: BTreeSet<String>,
    /// The first input: target index, variant, input number, text,
    /// mutations.
    pub example: (usize, u64, u64, String, Vec<&'static str>),
    /// The stderr of the first crash.
    pub stderr: String,
    /// Who fixes it and the known class it looks like
    /// ([`classify::route`]), once step 5 has looked at it.
    pub route: Option<(&'static str, Option<&'static str>)>,
}

/// A campaign's results.
#[derive(Debug, Default)]
pub struct Summary {
    /// Per target name, in target order.
    pub targets: Vec<(String, TargetStats)>,
    /// Crash classes by key.
    pub crashes: BTreeMap<String, CrashClass>,
    /// Per mutation: (uses, of which the tool parsed).
    pub mutations: BTreeMap<&'static str, (u64, u64)>,
    /// Seeds loaded, seeds valid, seeds added by expansion.
    pub seeds: (usize, usize, usize),
    /// Wall time of the campaign, seed checks included.
    pub wall: Duration,
    /// Whether the time limit cut the campaign short.
    pub cut_short: bool,
    /// Unlocated refusal examples: (target, first stderr line).
    pub unlocated_examples: BTreeMap<String, (String, String)>,
    /// Inputs skipped because the mutator panicked (a bug of the fuzzer).
    pub mutator_panics: u64,
}

/// Loads the JIT's runner utilities ([`crate::run::DEFAULT_SHARED_LIBS`])
/// into the driver once, before any fork, with the flags LLVM's
/// `DynamicLibrary` uses (`RTLD_LAZY | RTLD_GLOBAL`): each `apipe-run`
/// child's ExecutionEngine then finds them loaded, instead of paying the
/// dynamic loader's relocation and symbol lookup per input (about 40% of
/// the CPU time of a small program's run). A library that fails to load is
/// left to the child, which reports it as `apipe-run` would.
fn preload_runner_libraries() {
    for path in crate::run::DEFAULT_SHARED_LIBS {
        let Ok(c_path) = std::ffi::CString::new(*path) else {
            continue;
        };
        // SAFETY: a NUL-terminated path; the driver is single-threaded
        // here (no child has been forked yet); the handle is kept for the
        // life of the process, as LLVM keeps its permanent libraries.
        let _ = unsafe { libc::dlopen(c_path.as_ptr(), libc::RTLD_LAZY | libc::RTLD_GLOBAL) };
    }
}

/// Runs targets on texts in forked children, one at a time or many.
pub struct Runner {
    pool: Pool,
    scratch: PathBuf,
}

impl Runner {
    /// A runner with `jobs` slots and scratch files in a fresh directory
    /// under `/dev/shm` (or the temp directory).
    ///
    /// # Errors
    /// The scratch directory or the pool cannot be made.
    pub fn new(jobs: usize, limits: Limits) -> std::io::Result<Self> {
        crate::register_passes();
        preload_runner_libraries();
        let base = if Path::new("/dev/shm").is_dir() {
            PathBuf::from("/dev/shm")
        } else {
            std::env::temp_dir()
        };
        let scratch = base.join(format!("apipe-fuzz-{}", std::process::id()));
        let pool = Pool::new(jobs, &scratch, limits)?;
        Ok(Self { pool, scratch })
    }

    fn input_path(&self, tag: usize) -> PathBuf {
        self.scratch.join(format!("input-{}.mlir", tag % 4096))
    }

    /// Starts `target` on `text` as run `tag` (needs a free slot).
    ///
    /// # Errors
    /// Writing the input or forking fails.
    pub fn start(
        &mut self,
        tag: usize,
        target: &Target,
        variant: u64,
        text: &str,
        stdout: &Stdout,
    ) -> std::io::Result<()> {
        let path = self.input_path(tag);
        std::fs::write(&path, text)?;
        let target = target.clone();
        self.pool.start(tag, stdout, move |report| {
            target.execute(&path, variant, report)
        })
    }

    /// Runs `target` on the file `path` as it is (bytes, not text) and
    /// waits for it.
    ///
    /// # Errors
    /// Forking fails.
    pub fn run_file(
        &mut self,
        target: &Target,
        variant: u64,
        path: &Path,
    ) -> std::io::Result<Execution> {
        while self.pool.is_busy() {
            self.pool.wait();
        }
        let target = target.clone();
        let path = path.to_owned();
        self.pool
            .start(usize::MAX - 2, &Stdout::Discard, move |report| {
                target.execute(&path, variant, report)
            })?;
        loop {
            for (tag, execution) in self.pool.wait() {
                if tag == usize::MAX - 2 {
                    return Ok(execution);
                }
            }
        }
    }

    /// Runs `target` on `text` and waits for it.
    ///
    /// # Errors
    /// As [`Runner::start`].
    pub fn run_one(
        &mut self,
        target: &Target,
        variant: u64,
        text: &str,
        stdout: &Stdout,
    ) -> std::io::Result<Execution> {
        while self.pool.is_busy() {
            self.pool.wait();
        }
        self.start(usize::MAX - 1, target, variant, text, stdout)?;
        loop {
            for (tag, execution) in self.pool.wait() {
                if tag == usize::MAX - 1 {
                    return Ok(execution);
                }
            }
        }
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

/// One run of [`check_files`].
#[derive(Clone, Debug)]
pub struct CheckRow {
    /// The file.
    pub file: PathBuf,
    /// The target's name.
    pub target: String,
    /// How the run ended.
    pub ending: Ending,
    /// What it means.
    pub verdict: Verdict,
    /// The first error line of stderr (or its first line).
    pub first_error: String,
}

/// Runs every target on every file (each file as it is, not mutated):
/// the broken-input corpus test runs this over `test/Tools/Inputs/broken`.
///
/// # Errors
/// A file cannot be read, or the runner cannot fork.
pub fn check_files(
    files: &[PathBuf],
    targets: &[Target],
    limits: Limits,
) -> std::io::Result<Vec<CheckRow>> {
    let mut runner = Runner::new(1, limits)?;
    let mut rows = Vec::new();
    for file in files {
        let bytes = std::fs::read(file)?;
        for target in targets {
            let path = runner.input_path(0);
            std::fs::write(&path, &bytes)?;
            let execution = runner.run_file(target, 0, &path)?;
            let verdict = classify::classify(target, &execution);
            let first_error = execution
                .stderr
                .lines()
                .find(|l| l.contains("error"))
                .or_else(|| execution.stderr.lines().next())
                .unwrap_or("")
                .replace(path.to_string_lossy().as_ref(), &file.display().to_string());
            rows.push(CheckRow {
                file: file.clone(),
                target: target.name.clone(),
                ending: execution.ending,
                verdict,
                first_error,
            });
        }
    }
    Ok(rows)
}

/// A seed with what step 2 learnt about it.
struct CheckedSeed {
    text: String,
    valid: bool,
    main: bool,
    gpu: bool,
}

/// Runs a campaign and writes its report; returns its figures.
///
/// # Errors
/// The corpus or the output directory cannot be read or written.
pub fn campaign(config: &Config) -> std::io::Result<Summary> {
    let limits = Limits {
        timeout: config.timeout,
        design_timeout: config.design_timeout,
        wall_timeout: config.wall_timeout,
        address_space: config.address_space,
    };
    let start = Instant::now();
    let mut runner = Runner::new(config.jobs, limits)?;
    let mut summary = Summary::default();
    // 1. and 2.
    let seeds = corpus::load(&config.corpus)?;
    let checked = check_seeds(&mut runner, &seeds, config)?;
    summary.seeds = (
        seeds.len(),
        checked[..seeds.len()].iter().filter(|s| s.valid).count(),
        checked.len() - seeds.len(),
    );
    if config.progress {
        eprintln!(
            "apipe-fuzz: {} seeds ({} parse and verify), {} more from pass outputs",
            summary.seeds.0, summary.seeds.1, summary.seeds.2
        );
    }
    if checked.is_empty() {
        return Err(std::io::Error::other("the corpus has no seeds"));
    }
    let donors: Vec<String> = checked
        .iter()
        .filter(|s| s.valid)
        .map(|s| s.text.clone())
        .collect();
    let pools = SeedPools::new(&checked);
    // 3. and 4.
    summary.targets = config
        .targets
        .iter()
        .map(|t| (t.name.clone(), TargetStats::default()))
        .collect();
    let quotas = quotas(config);
    let rounds = quotas.iter().copied().max().unwrap_or(0);
    let total = rounds * config.targets.len() as u64;
    let mut pending: HashMap<usize, (usize, u64, u64, String, Vec<&'static str>)> = HashMap::new();
    let mut last_progress = Instant::now();
    let mut next: u64 = 0;
    let mut done: u64 = 0;
    while next < total || runner.pool.is_busy() {
        while runner.pool.has_free_slot() && next < total {
            if config
                .time_limit
                .is_some_and(|limit| start.elapsed() >= limit)
            {
                summary.cut_short = true;
                break;
            }
            let target_index = (next % config.targets.len() as u64) as usize;
            let input = next / config.targets.len() as u64;
            if input >= quotas[target_index] {
                next += 1;
                continue;
            }
            let target = &config.targets[target_index];
            let mut rng = Rng::new(stream_seed(config.seed, &target.name, input));
            let seed_text = pools.pick(&mut rng, target.tool, &checked);
            let mut mutator = mutate::Mutator::new(rng.fork(), &donors);
            // A bug of the mutator costs one input, not the campaign (its
            // panic message is printed; the input is skipped).
            let mutated = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                mutator.mutate(seed_text)
            }));
            let Ok((text, applied)) = mutated else {
                summary.mutator_panics += 1;
                next += 1;
                continue;
            };
            let variant = rng.next_u64() % 1000;
            let tag = next as usize;
            runner.start(tag, target, variant, &text, &Stdout::Discard)?;
            pending.insert(tag, (target_index, variant, input, text, applied));
            next += 1;
        }
        if summary.cut_short && !runner.pool.is_busy() {
            break;
        }
        for (tag, execution) in runner.pool.wait() {
            let Some((target_index, variant, input, text, applied)) = pending.remove(&tag) else {
                continue;
            };
            done += 1;
            let target = &config.targets[target_index];
            let verdict = classify::classify(target, &execution);
            if let Verdict::Crash(crash) = &verdict {
                if !summary.crashes.contains_key(&crash.key()) {
                    write_example(
                        config,
                        "found",
                        summary.crashes.len() + 1,
                        target,
                        &crash.key(),
                        &text,
                        &execution,
                    );
                }
            }
            record(
                config,
                &mut summary,
                &execution,
                &verdict,
                (target_index, variant, input, text, applied),
            );
        }
        if config.progress && last_progress.elapsed() >= Duration::from_secs(30) {
            last_progress = Instant::now();
            let crashes: u64 = summary.targets.iter().map(|(_, s)| s.crashes).sum();
            eprintln!(
                "apipe-fuzz: {done}/{} runs, {:.0} s, {} crash classes ({crashes} crashes)",
                quotas.iter().sum::<u64>(),
                start.elapsed().as_secs_f64(),
                summary.crashes.len()
            );
        }
    }
    summary.wall = start.elapsed();
    // 5.
    std::fs::create_dir_all(&config.out)?;
    write_crashes(&mut runner, config, &mut summary)?;
    let report = render(config, &summary);
    std::fs::write(config.out.join("summary.txt"), &report)?;
    Ok(summary)
}

/// The inputs of each target.
fn quotas(config: &Config) -> Vec<u64> {
    config
        .targets
        .iter()
        .map(|target| {
            if config.per_tool {
                let share = config
                    .targets
                    .iter()
                    .filter(|t| t.tool == target.tool)
                    .count() as u64;
                config.inputs.div_ceil(share.max(1))
            } else {
                config.inputs
            }
        })
        .collect()
}

/// A 64-bit seed for input `input` of `target` in campaign `seed`.
fn stream_seed(seed: u64, target: &str, input: u64) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in target.bytes() {
        hash = (hash ^ byte as u64).wrapping_mul(0x100_0000_01b3);
    }
    let mut rng = Rng::new(seed ^ hash.rotate_left(17) ^ input.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.next_u64()
}

/// Seeds by what a tool wants.
struct SeedPools {
    any: Vec<usize>,
    valid: Vec<usize>,
    main: Vec<usize>,
    gpu: Vec<usize>,
}

impl SeedPools {
    fn new(seeds: &[CheckedSeed]) -> Self {
        let filter = |f: &dyn Fn(&CheckedSeed) -> bool| -> Vec<usize> {
            (0..seeds.len()).filter(|&i| f(&seeds[i])).collect()
        };
        Self {
            any: filter(&|_| true),
            valid: filter(&|s| s.valid),
            main: filter(&|s| s.valid && s.main),
            gpu: filter(&|s| s.valid && s.gpu),
        }
    }

    /// Mostly valid seeds; with `@main` for `apipe-run`, with a
    /// `gpu.module` for `apipe-translate`.
    fn pick<'s>(&self, rng: &mut Rng, tool: Tool, seeds: &'s [CheckedSeed]) -> &'s str {
        let roll = rng.below(100);
        let pool = match tool {
            Tool::Run if roll < 85 => &self.main,
            Tool::Translate if roll < 70 => &self.gpu,
            _ if roll < 90 => &self.valid,
            _ => &self.any,
        };
        let pool = if pool.is_empty() { &self.any } else { pool };
        &seeds[*rng.pick(pool).unwrap()].text
    }
}

/// Step 2: which seeds parse and verify, and more seeds from pass outputs.
fn check_seeds(
    runner: &mut Runner,
    seeds: &[corpus::Seed],
    config: &Config,
) -> std::io::Result<Vec<CheckedSeed>> {
    let plain = Target {
        name: "opt".into(),
        tool: Tool::Opt,
        flags: vec![],
    };
    let mut checked = Vec::new();
    for seed in seeds {
        let execution = runner.run_one(&plain, 0, &seed.text, &Stdout::Discard)?;
        checked.push(CheckedSeed {
            valid: execution.ending == Ending::Exited(0),
            main: seed.has_main(),
            gpu: seed.has_gpu_module(),
            text: seed.text.clone(),
        });
    }
    if !config.expand {
        return Ok(checked);
    }
    let output = runner.scratch.join("expanded.mlir");
    let passes = ["--apipe-software-pipeline", "--apipe-counting-to-tokens"];
    let mut known: BTreeSet<String> = checked.iter().map(|s| s.text.clone()).collect();
    for index in 0..checked.len() {
        if !checked[index].valid || !checked[index].text.contains("apipe.") {
            continue;
        }
        for pass in passes {
            let target = Target {
                name: format!("opt:{pass}"),
                tool: Tool::Opt,
                flags: vec![pass.to_owned()],
            };
            let text = checked[index].text.clone();
            let execution = runner.run_one(&target, 0, &text, &Stdout::File(output.clone()))?;
            if execution.ending != Ending::Exited(0) {
                continue;
            }
            let produced = std::fs::read_to_string(&output).unwrap_or_default();
            if produced.len() > corpus::MAX_SEED_BYTES || !known.insert(produced.clone()) {
                continue;
            }
            checked.push(CheckedSeed {
                valid: true,
                main: produced.contains("func.func @main("),
                gpu: produced.contains("gpu.module @"),
                text: produced,
            });
        }
    }
    Ok(checked)
}

/// Counts one run of `example` (target index, variant, input number, text,
/// mutations applied) in `summary`.
fn record(
    config: &Config,
    summary: &mut Summary,
    execution: &Execution,
    verdict: &Verdict,
    example: (usize, u64, u64, String, Vec<&'static str>),
) {
    let target = &config.targets[example.0];
    let stats = &mut summary.targets[example.0].1;
    stats.inputs += 1;
    stats.child_time += execution.elapsed;
    stats.child_cpu += execution.cpu;
    let parsed = execution.report.parsed == 2;
    if parsed {
        stats.parsed += 1;
    }
    let ending = match verdict {
        Verdict::LongByDesign => "long by design".to_owned(),
        _ => execution.ending.to_string(),
    };
    *stats.endings.entry(ending).or_default() += 1;
    for name in &example.4 {
        let entry = summary.mutations.entry(*name).or_default();
        entry.0 += 1;
        entry.1 += parsed as u64;
    }
    match verdict {
        Verdict::Success => {}
        Verdict::Refused { located } => {
            if !located {
                stats.unlocated += 1;
                let line = execution
                    .stderr
                    .lines()
                    .find(|l| l.contains("error"))
                    .unwrap_or("(no error line)")
                    .chars()
                    .take(160)
                    .collect::<String>();
                let key = format!("{}: {}", target.tool.binary(), classify::normalize(&line));
                if !summary.unlocated_examples.contains_key(&key) {
                    write_example(
                        config,
                        "unlocated",
                        summary.unlocated_examples.len() + 1,
                        target,
                        &key,
                        &example.3,
                        execution,
                    );
                    summary
                        .unlocated_examples
                        .insert(key, (target.name.clone(), example.3.clone()));
                }
            }
        }
        Verdict::LongByDesign => stats.long_by_design += 1,
        Verdict::Crash(crash) => {
            stats.crashes += 1;
            let class = summary
                .crashes
                .entry(crash.key())
                .or_insert_with(|| CrashClass {
                    crash: crash.clone(),
                    count: 0,
                    targets: BTreeSet::new(),
                    example,
                    stderr: execution.stderr.clone(),
                    route: None,
                });
            class.count += 1;
            class.targets.insert(target.name.clone());
        }
    }
}

/// As soon as a new crash class (`kind` "found") or a new kind of refusal
/// without a location (`kind` "unlocated") shows up: its input, unreduced,
/// as `OUT/KIND/NN-TARGET.mlir` (with the target, the class key and the end
/// of stderr in comments), so that a long campaign can be worked on while
/// it runs (and survives if it is stopped). Replay it with
/// `apipe-fuzz replay --target TARGET FILE`.
fn write_example(
    config: &Config,
    kind: &str,
    number: usize,
    target: &Target,
    key: &str,
    text: &str,
    execution: &Execution,
) {
    let dir = config.out.join(kind);
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    let name: String = target
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let lines: Vec<&str> = execution.stderr.lines().collect();
    let tail: String = lines[lines.len().saturating_sub(12)..]
        .iter()
        .map(|l| format!("// | {}\n", l.chars().take(200).collect::<String>()))
        .collect();
    let header = format!(
        "// target: {}\n// class: {key}\n// stderr (end):\n{tail}",
        target.name,
    );
    let _ = std::fs::write(dir.join(format!("{number:02}-{name}.mlir")), header + text);
}

/// Step 5: minimise and write one reproducer per class.
fn write_crashes(
    runner: &mut Runner,
    config: &Config,
    summary: &mut Summary,
) -> std::io::Result<()> {
    if summary.crashes.is_empty() {
        return Ok(());
    }
    let dir = config.out.join("crashes");
    std::fs::create_dir_all(&dir)?;
    let plain = Target {
        name: "opt".into(),
        tool: Tool::Opt,
        flags: vec![],
    };
    for (number, (key, class)) in summary.crashes.iter_mut().enumerate() {
        let (target_index, variant, input, text, applied) = &class.example;
        let target = &config.targets[*target_index];
        let reduced = if config.reduce {
            // At most 400 runs and two minutes per class.
            let deadline = Instant::now() + Duration::from_secs(120);
            reduce::reduce(text, 400, |candidate| {
                Instant::now() < deadline
                    && runner
                        .run_one(target, *variant, candidate, &Stdout::Discard)
                        .is_ok_and(|e| matches!(classify::classify(target, &e), Verdict::Crash(c) if c.key() == *key))
            })
        } else {
            text.clone()
        };
        // A crash that apipe-opt alone (parse and verify) also has is a
        // parser or verifier crash, whatever the target.
        let parse_level = target.name != "opt"
            && runner
                .run_one(&plain, 0, &reduced, &Stdout::Discard)
                .is_ok_and(|e| matches!(classify::classify(&plain, &e), Verdict::Crash(_)));
        let (owner, known) = if parse_level {
            classify::route_parse_level(&class.crash)
        } else {
            classify::route(&class.crash, target, &reduced)
        };
        class.route = Some((owner, known));
        let slug: String = classify::normalize(key)
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect::<String>()
            .split('-')
            .filter(|s| !s.is_empty())
            .take(8)
            .collect::<Vec<_>>()
            .join("-");
        let class_dir = dir.join(format!("{:02}-{slug}", number + 1));
        std::fs::create_dir_all(&class_dir)?;
        let header = |file: &str| {
            format!(
                "// target: {}\n// signature: {}\n// class: {key}\n// owner: {owner}{}\n// hits: {} runs on {}\n// found by: apipe-fuzz campaign --seed {} (target {}, input {input}; mutations: {})\n",
                target.command_line(Path::new(file), *variant),
                class.crash.signature(),
                known.map_or(String::new(), |k| format!(" (looks like the known class {k})")),
                class.count,
                class.targets.iter().cloned().collect::<Vec<_>>().join(", "),
                config.seed,
                target.name,
                applied.join(", "),
            )
        };
        let frames = classify::symbolize(&class.stderr, 12);
        let frames: String = frames.iter().map(|f| format!("//   {f}\n")).collect();
        let header = |file: &str| {
            if frames.is_empty() {
                header(file)
            } else {
                format!(
                    "{}// backtrace (fork server, innermost first):\n{frames}",
                    header(file)
                )
            }
        };
        std::fs::write(
            class_dir.join("reproducer.mlir"),
            header("reproducer.mlir") + &reduced,
        )?;
        std::fs::write(
            class_dir.join("original.mlir"),
            header("original.mlir") + text,
        )?;
    }
    Ok(())
}

/// The summary report.
pub fn render(config: &Config, summary: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "apipe-fuzz campaign: seed {}, {} inputs per {}, {} targets, {} jobs, timeout {} s of CPU ({} s for programs that may run long by design), {} s of wall time{}",
        config.seed,
        config.inputs,
        if config.per_tool { "tool" } else { "target" },
        config.targets.len(),
        config.jobs,
        config.timeout.as_secs(),
        config.design_timeout.as_secs(),
        config.wall_timeout.as_secs(),
        if summary.cut_short { ", CUT SHORT by the time limit" } else { "" }
    );
    let _ = writeln!(
        out,
        "corpus: {} seeds ({} parse and verify) + {} from pass outputs; wall time {:.1} s",
        summary.seeds.0,
        summary.seeds.1,
        summary.seeds.2,
        summary.wall.as_secs_f64()
    );
    let runs: u64 = summary.targets.iter().map(|(_, s)| s.inputs).sum();
    let _ = writeln!(
        out,
        "runs: {runs} ({:.1} per second of wall time with {} jobs)",
        runs as f64 / summary.wall.as_secs_f64().max(1e-9),
        config.jobs
    );
    let _ = writeln!(
        out,
        "\n{:<44} {:>8} {:>7} {:>8} {:>8} {:>9} {:>6} {:>8} {:>9}",
        "target",
        "inputs",
        "parsed",
        "exit 0",
        "exit 1",
        "unlocated",
        "long",
        "crashes",
        "inputs/s"
    );
    let mut per_tool: BTreeMap<&str, (u64, u64, u64, Duration, Duration)> = BTreeMap::new();
    for (name, stats) in &summary.targets {
        let rate = stats.inputs as f64 / stats.child_time.as_secs_f64().max(1e-9);
        let _ = writeln!(
            out,
            "{:<44} {:>8} {:>6.1}% {:>8} {:>8} {:>9} {:>6} {:>8} {:>9.1}",
            name,
            stats.inputs,
            100.0 * stats.parsed as f64 / stats.inputs.max(1) as f64,
            stats.endings.get("exit 0").copied().unwrap_or(0),
            stats.endings.get("exit 1").copied().unwrap_or(0),
            stats.unlocated,
            stats.long_by_design,
            stats.crashes,
            rate
        );
        let tool = name.split(':').next().unwrap_or(name);
        let entry = per_tool.entry(tool).or_default();
        entry.0 += stats.inputs;
        entry.1 += stats.parsed;
        entry.2 += stats.crashes;
        entry.3 += stats.child_time;
        entry.4 += stats.child_cpu;
    }
    let _ = writeln!(
        out,
        "\nper tool (inputs/s: inputs over the summed wall time of their children, fork to reap; CPU: their summed user + system time):"
    );
    for (tool, (inputs, parsed, crashes, time, cpu)) in &per_tool {
        let _ = writeln!(
            out,
            "  {tool:<10} {inputs:>9} inputs, {:>5.1}% parsed, {crashes} crashes, {:.1} inputs/s, {:.1} s CPU",
            100.0 * *parsed as f64 / (*inputs).max(1) as f64,
            *inputs as f64 / time.as_secs_f64().max(1e-9),
            cpu.as_secs_f64()
        );
    }
    let _ = writeln!(out, "\nexit-code histogram:");
    for (name, stats) in &summary.targets {
        let histogram: Vec<String> = stats
            .endings
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        let _ = writeln!(out, "  {name:<44} {}", histogram.join(", "));
    }
    if summary.mutator_panics > 0 {
        let _ = writeln!(
            out,
            "\nmutator panics (inputs skipped, a bug of apipe-fuzz): {}",
            summary.mutator_panics
        );
    }
    let _ = writeln!(out, "\ncrash classes: {}", summary.crashes.len());
    for (number, (key, class)) in summary.crashes.iter().enumerate() {
        let target = &config.targets[class.example.0];
        let (owner, known) = class
            .route
            .unwrap_or_else(|| classify::route(&class.crash, target, &class.example.3));
        let _ = writeln!(
            out,
            "  {:02}. [{owner}{}] {key}\n      {} runs on {}",
            number + 1,
            known.map_or(String::new(), |k| format!(", like {k}")),
            class.count,
            class.targets.iter().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    if !summary.unlocated_examples.is_empty() {
        let _ = writeln!(out, "\nrefusals without a located error (kinds):");
        for (key, (target, _)) in &summary.unlocated_examples {
            let _ = writeln!(out, "  [{target}] {key}");
        }
    }
    let _ = writeln!(
        out,
        "\nmutations (uses, share of mutants with it that parsed):"
    );
    for (name, (uses, parsed)) in &summary.mutations {
        let _ = writeln!(
            out,
            "  {name:<18} {uses:>9} {:>6.1}%",
            100.0 * *parsed as f64 / (*uses).max(1) as f64
        );
    }
    out
}
