//! `apipe-fuzz`: the structure-aware fuzzer of apipe's tools. See
//! `apipe_tools::fuzz`.
//!
//! ```text
//! apipe-fuzz campaign --seed 1 --inputs 5000 --out /tmp/fuzz-1   # every target
//! apipe-fuzz campaign --targets run,translate --inputs 100
//! apipe-fuzz targets                                            # names and command lines
//! apipe-fuzz replay crash.mlir --target opt:apipe-merge-queues
//! apipe-fuzz reduce crash.mlir --target run:modes -o small.mlir
//! ```
//!
//! Exit status: 0 when no run crashed, 1 when one did (or for a bad
//! argument), so a CI job fails on any crash.

use apipe_tools::{
    fuzz::{
        self,
        classify::{self, Verdict},
        exec::{Execution, Limits, Stdout},
        targets, Runner,
    },
    Error,
};
use clap::{Parser, Subcommand};
use std::{path::PathBuf, process::ExitCode, time::Duration};

#[derive(Parser, Debug)]
#[command(
    name = "apipe-fuzz",
    version = concat!(env!("CARGO_PKG_VERSION"), " (MLIR 22)"),
    about = "Structure-aware fuzzer of apipe-opt, apipe-translate and apipe-run (forked in-process runs)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args, Debug)]
struct Common {
    /// CPU-time limit of one run (user + system, all threads), seconds.
    #[arg(long, default_value_t = 10)]
    timeout: u64,
    /// CPU-time limit of an apipe-run of a program that may run long by design, seconds.
    #[arg(long = "design-timeout", default_value_t = 1)]
    design_timeout: u64,
    /// Wall-time limit of one run, seconds: the second guard, for a run that
    /// hangs without using CPU (load alone should not reach it).
    #[arg(long = "wall-timeout", default_value_t = 60)]
    wall_timeout: u64,
    /// Address-space limit of each run, MiB.
    #[arg(long = "memory-mib", default_value_t = 8192)]
    memory_mib: u64,
}

impl Common {
    fn limits(&self) -> Limits {
        Limits {
            timeout: Duration::from_secs(self.timeout),
            design_timeout: Duration::from_secs(self.design_timeout),
            wall_timeout: Duration::from_secs(self.wall_timeout.max(self.timeout)),
            address_space: self.memory_mib << 20,
        }
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a campaign: mutate seeds, run every target, report.
    Campaign {
        /// Campaign seed (same seed, same inputs).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Inputs per target (per tool with --per-tool).
        #[arg(long, default_value_t = 1000)]
        inputs: u64,
        /// Count --inputs per tool: the targets of a tool share them.
        #[arg(long = "per-tool")]
        per_tool: bool,
        /// Targets (names, or tool prefixes: opt, translate, run), comma-separated; default all.
        #[arg(long, value_delimiter = ',')]
        targets: Vec<String>,
        /// Seed files or directories (default: the repository's test/ and examples/).
        #[arg(long)]
        corpus: Vec<PathBuf>,
        /// Output directory for crashes and summary.txt.
        #[arg(long, default_value = "apipe-fuzz-out")]
        out: PathBuf,
        /// Runs at once.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Stop starting runs after this many seconds.
        #[arg(long = "time-limit")]
        time_limit: Option<u64>,
        /// Do not minimise crashes.
        #[arg(long = "no-reduce")]
        no_reduce: bool,
        /// Do not add pass outputs of the seeds to the corpus.
        #[arg(long = "no-expand")]
        no_expand: bool,
        /// No progress lines.
        #[arg(long)]
        quiet: bool,
        #[command(flatten)]
        common: Common,
    },
    /// List the targets and their command lines.
    Targets,
    /// Run one target on one file and classify the run.
    Replay {
        /// The input.
        file: PathBuf,
        /// The target name (see `apipe-fuzz targets`).
        #[arg(long)]
        target: String,
        /// The variant (seed of --completion=random:N).
        #[arg(long, default_value_t = 0)]
        variant: u64,
        #[command(flatten)]
        common: Common,
    },
    /// Run every target (or the chosen ones) on each file as it is; one
    /// tab-separated line per run: file, target, ending, verdict, first
    /// error line. Exit 1 if a run crashed.
    Check {
        /// Files, or directories of .mlir files.
        files: Vec<PathBuf>,
        /// Targets (names or tool prefixes), comma-separated; default all.
        #[arg(long, value_delimiter = ',')]
        targets: Vec<String>,
        #[command(flatten)]
        common: Common,
    },
    /// Minimise a crashing input, keeping its crash class.
    Reduce {
        /// The input.
        file: PathBuf,
        /// The target name.
        #[arg(long)]
        target: String,
        /// The variant (seed of --completion=random:N).
        #[arg(long, default_value_t = 0)]
        variant: u64,
        /// Where to write the result (default: stdout).
        #[arg(short = 'o')]
        output: Option<PathBuf>,
        /// Most runs.
        #[arg(long, default_value_t = 500)]
        budget: usize,
        #[command(flatten)]
        common: Common,
    },
}

fn find_target(name: &str) -> Result<targets::Target, Error> {
    targets::all()
        .into_iter()
        .find(|t| t.name == name)
        .ok_or_else(|| Error::Usage(format!("unknown target '{name}' (see apipe-fuzz targets)")))
}

/// The shared start of `replay` and `reduce`: the target, the input's
/// text, the runner, and the input's first run.
struct FirstRun {
    target: targets::Target,
    text: String,
    runner: Runner,
    execution: Execution,
}

/// Reads `file`, finds `target` and runs it once on the file's text.
fn first_run(
    file: &std::path::Path,
    target: &str,
    variant: u64,
    common: &Common,
) -> Result<FirstRun, Error> {
    let target = find_target(target)?;
    let text = std::fs::read_to_string(file).map_err(|source| Error::ReadInput {
        path: file.display().to_string(),
        source,
    })?;
    let mut runner = Runner::new(1, common.limits()).map_err(io("cannot start the runner"))?;
    let execution = runner
        .run_one(&target, variant, &text, &Stdout::Discard)
        .map_err(io("cannot run the target"))?;
    Ok(FirstRun {
        target,
        text,
        runner,
        execution,
    })
}

fn main() -> ExitCode {
    let cli = match apipe_tools::parse_cli::<Cli>(std::env::args()) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("apipe-fuzz: error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// An [`Error::Io`] saying `what` failed, for `map_err`.
fn io(what: &'static str) -> impl Fn(std::io::Error) -> Error {
    move |source| Error::Io {
        what: what.to_owned(),
        source,
    }
}

fn run(cli: Cli) -> Result<ExitCode, Error> {
    if !matches!(cli.command, Command::Replay { .. }) {
        // A backtrace costs seconds of symbolization in a 250 MB image per
        // panic; the panic line is enough to class a crash.
        std::env::remove_var("RUST_BACKTRACE");
    }
    match cli.command {
        Command::Targets => {
            for target in targets::all() {
                println!(
                    "{:<44} {}",
                    target.name,
                    target.command_line(&PathBuf::from("FILE"), 0)
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Campaign {
            seed,
            inputs,
            per_tool,
            targets: filters,
            corpus,
            out,
            jobs,
            time_limit,
            no_reduce,
            no_expand,
            quiet,
            common,
        } => {
            let selected = targets::select(&filters);
            if selected.is_empty() {
                return Err(Error::Usage(format!(
                    "no target matches {filters:?} (see apipe-fuzz targets)"
                )));
            }
            let limits = common.limits();
            let config = fuzz::Config {
                seed,
                inputs,
                per_tool,
                targets: selected,
                corpus: if corpus.is_empty() {
                    fuzz::default_corpus()
                } else {
                    corpus
                },
                out,
                jobs,
                timeout: limits.timeout,
                design_timeout: limits.design_timeout,
                wall_timeout: limits.wall_timeout,
                time_limit: time_limit.map(Duration::from_secs),
                reduce: !no_reduce,
                expand: !no_expand,
                address_space: limits.address_space,
                progress: !quiet,
            };
            let summary = fuzz::campaign(&config).map_err(io("the campaign failed"))?;
            print!("{}", fuzz::render(&config, &summary));
            println!("report: {}", config.out.join("summary.txt").display());
            Ok(if summary.crashes.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Check {
            files,
            targets: filters,
            common,
        } => {
            let selected = targets::select(&filters);
            let mut paths = Vec::new();
            for file in files {
                if file.is_dir() {
                    let mut found: Vec<PathBuf> = std::fs::read_dir(&file)
                        .map_err(|source| Error::ReadInput {
                            path: file.display().to_string(),
                            source,
                        })?
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
                        .collect();
                    found.sort();
                    paths.extend(found);
                } else {
                    paths.push(file);
                }
            }
            let rows = fuzz::check_files(&paths, &selected, common.limits())
                .map_err(io("the check failed"))?;
            let mut crashed = false;
            for row in &rows {
                crashed |= matches!(row.verdict, Verdict::Crash(_));
                println!(
                    "{}\t{}\t{}\t{}\t{}",
                    row.file.display(),
                    row.target,
                    row.ending,
                    verdict_word(&row.verdict),
                    row.first_error.replace('\t', " ")
                );
            }
            Ok(if crashed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Replay {
            file,
            target,
            variant,
            common,
        } => {
            let FirstRun {
                target, execution, ..
            } = first_run(&file, &target, variant, &common)?;
            eprint!("{}", execution.stderr);
            let verdict = classify::classify(&target, &execution);
            println!(
                "{}: {} in {:.3} s: {}",
                target.command_line(&file, variant),
                execution.ending,
                execution.elapsed.as_secs_f64(),
                describe(&verdict)
            );
            Ok(if matches!(verdict, Verdict::Crash(_)) {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Reduce {
            file,
            target,
            variant,
            output,
            budget,
            common,
        } => {
            let FirstRun {
                target,
                text,
                mut runner,
                execution: first,
            } = first_run(&file, &target, variant, &common)?;
            let Verdict::Crash(crash) = classify::classify(&target, &first) else {
                return Err(Error::Usage(format!(
                    "{} does not crash {}",
                    file.display(),
                    target.name
                )));
            };
            let key = crash.key();
            eprintln!("apipe-fuzz: reducing, class: {key}");
            let reduced = fuzz::reduce::reduce(&text, budget, |candidate| {
                runner
                    .run_one(&target, variant, candidate, &Stdout::Discard)
                    .is_ok_and(|e| matches!(classify::classify(&target, &e), Verdict::Crash(c) if c.key() == key))
            });
            let header = format!(
                "// target: {}\n// signature: {}\n",
                target.command_line(&PathBuf::from("FILE"), variant),
                crash.signature()
            );
            match output {
                Some(path) => std::fs::write(&path, header + &reduced).map_err(|source| {
                    Error::WriteOutput {
                        path: path.display().to_string(),
                        source,
                    }
                })?,
                None => print!("{header}{reduced}"),
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn describe(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Success => "success".into(),
        Verdict::Refused { located: true } => "refused with a located error".into(),
        Verdict::Refused { located: false } => "refused WITHOUT a located error".into(),
        Verdict::LongByDesign => "runs long by design (not a crash)".into(),
        Verdict::Crash(crash) => format!("CRASH {}", crash.signature()),
    }
}

/// One word per verdict, for `check`'s lines.
fn verdict_word(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Success => "success".into(),
        Verdict::Refused { located: true } => "refused-located".into(),
        Verdict::Refused { located: false } => "refused-unlocated".into(),
        Verdict::LongByDesign => "long-by-design".into(),
        Verdict::Crash(crash) => format!("crash: {}", crash.signature()),
    }
}
