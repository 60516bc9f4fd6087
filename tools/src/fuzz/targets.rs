//! What the fuzzer runs: each target is one tool with one set of flags,
//! run in-process in a forked child ([`super::exec`]).
//!
//! - `apipe-opt` alone (parse, verify, print), with every apipe pass alone
//!   (read from the pass registry, so a new pass is fuzzed without a
//!   change here), a few pass options, and the pipeliner chain
//!   (`apipe-software-pipeline`, then `apipe-counting-to-tokens`,
//!   `apipe-tokens-to-counting`, `apipe-merge-queues`, `apipe-to-nvgpu`);
//! - `apipe-translate --to-ptx` for sm_80 and sm_90;
//! - `apipe-run` with lazy, eager and random completion, in one process
//!   (`--completion=lazy,eager,random:N` runs the entry once per mode in one
//!   JIT, so the lowering and the LLVM code generation, most of a run's time,
//!   are paid once per input instead of three times).

use super::{exec::Report, work};
use std::{path::Path, process::ExitCode};

/// The three tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tool {
    /// `apipe-opt`
    Opt,
    /// `apipe-translate`
    Translate,
    /// `apipe-run`
    Run,
}

impl Tool {
    /// The binary's name.
    pub fn binary(self) -> &'static str {
        match self {
            Tool::Opt => "apipe-opt",
            Tool::Translate => "apipe-translate",
            Tool::Run => "apipe-run",
        }
    }

    /// The tool's `main` ([`crate::opt::main`] and the others).
    pub fn main(self) -> fn(Vec<String>) -> ExitCode {
        match self {
            Tool::Opt => crate::opt::main,
            Tool::Translate => crate::translate::main,
            Tool::Run => crate::run::main,
        }
    }
}

/// One tool with its flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// A short name, e.g. `opt:apipe-make-sync`, `run:modes`.
    pub name: String,
    /// The tool.
    pub tool: Tool,
    /// Flags after the input file; `{variant}` is replaced by a number that
    /// differs per input (the seed of `--completion=random:N`).
    pub flags: Vec<String>,
}

impl Target {
    fn new(name: &str, tool: Tool, flags: &[&str]) -> Self {
        Self {
            name: name.to_owned(),
            tool,
            flags: flags.iter().map(|f| f.to_string()).collect(),
        }
    }

    /// The tool's arguments for `input` (program name first).
    pub fn argv(&self, input: &Path, variant: u64) -> Vec<String> {
        let mut argv = vec![self.tool.binary().to_owned(), input.display().to_string()];
        argv.extend(
            self.flags
                .iter()
                .map(|f| f.replace("{variant}", &variant.to_string())),
        );
        argv
    }

    /// The command line that reproduces a run, for reports.
    pub fn command_line(&self, input: &Path, variant: u64) -> String {
        self.argv(input, variant)
            .iter()
            .map(|a| {
                if a.contains([' ', '{', '}', '\'']) {
                    format!("'{a}'")
                } else {
                    a.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Runs the target on `input` in this process (the forked child),
    /// filling `report`; returns the exit code (0 or 1, as the tool).
    pub fn execute(&self, input: &Path, variant: u64, report: &mut Report) -> i32 {
        if self.tool == Tool::Run {
            let text = std::fs::read(input).unwrap_or_default();
            report.work = match work::estimate(&String::from_utf8_lossy(&text), "main") {
                work::Work::Small => 1,
                work::Work::MayRunLong => 2,
            };
        }
        let code = (self.tool.main())(self.argv(input, variant));
        report.parsed = match crate::source::last_parse_succeeded() {
            None => 0,
            Some(false) => 1,
            Some(true) => 2,
        };
        if code == ExitCode::SUCCESS {
            0
        } else {
            1
        }
    }
}

/// The pipeliner chain: the pipeliner, then the conversions, queue merging
/// and the lowering to nvgpu.
pub const PIPELINER_CHAIN: [&str; 5] = [
    "--apipe-software-pipeline",
    "--apipe-counting-to-tokens",
    "--apipe-tokens-to-counting",
    "--apipe-merge-queues",
    "--apipe-to-nvgpu",
];

/// The `opt:nested` target's pipeline.
pub const NESTED_PIPELINE: &str = "--pass-pipeline=builtin.module(func.func(apipe-software-pipeline,apipe-counting-to-tokens,apipe-tokens-to-counting,canonicalize),apipe-check-hazards)";

/// Every target, in a stable order.
pub fn all() -> Vec<Target> {
    apipe_lowering::register_passes();
    let mut targets = vec![Target::new("opt", Tool::Opt, &[])];
    for info in apipe_passes::passes() {
        let flag = format!("--{}", info.argument);
        targets.push(Target::new(
            &format!("opt:{}", info.argument),
            Tool::Opt,
            &[flag.as_str()],
        ));
    }
    let extra: [(&str, &[&str]); 5] = [
        (
            "opt:apipe-software-pipeline{sync=tokens}",
            &["--apipe-software-pipeline=sync=tokens"],
        ),
        (
            "opt:apipe-tokens-to-counting{strict=true}",
            &["--apipe-tokens-to-counting=strict=true"],
        ),
        (
            "opt:round-trip",
            &[
                "--apipe-counting-to-tokens",
                "--apipe-tokens-to-counting=strict=true",
            ],
        ),
        ("opt:pipeliner-chain", &PIPELINER_CHAIN),
        // Passes nested under func.func, which MLIR's thread pool runs on
        // sibling functions in parallel (a pass that read its siblings
        // crashed there), then the checker on the module.
        ("opt:nested", &[NESTED_PIPELINE]),
    ];
    for (name, flags) in extra {
        targets.push(Target::new(name, Tool::Opt, flags));
    }
    targets.push(Target::new(
        "translate:sm_80",
        Tool::Translate,
        &["--to-ptx", "--sm=80"],
    ));
    targets.push(Target::new(
        "translate:sm_90",
        Tool::Translate,
        &["--to-ptx", "--sm=90"],
    ));
    targets.push(Target::new(
        "run:modes",
        Tool::Run,
        &["--completion=lazy,eager,random:{variant}"],
    ));
    targets
}

/// The targets whose name is in `filters` or starts with one of them
/// followed by `:` (`opt` selects every `opt:` target); all when empty.
pub fn select(filters: &[String]) -> Vec<Target> {
    all()
        .into_iter()
        .filter(|t| {
            filters.is_empty()
                || filters
                    .iter()
                    .any(|f| t.name == *f || t.name.starts_with(&format!("{f}:")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_apipe_pass_is_a_target() {
        let targets = all();
        for info in apipe_passes::passes() {
            assert!(
                targets
                    .iter()
                    .any(|t| t.name == format!("opt:{}", info.argument)),
                "no target for {}",
                info.argument
            );
        }
        assert_eq!(select(&["run".to_owned()]).len(), 1);
        assert_eq!(select(&["translate".to_owned()]).len(), 2);
        let run = targets.iter().find(|t| t.name == "run:modes").unwrap();
        assert_eq!(
            run.command_line(Path::new("x.mlir"), 7),
            "apipe-run x.mlir --completion=lazy,eager,random:7"
        );
    }
}
