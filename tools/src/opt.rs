//! `apipe-opt`: `mlir-opt` with the apipe dialect and passes.
//!
//! 1. split argv into tool flags (clap) and pass flags (`--<pass>[=opts]`,
//!    in order), accepting `mlir-opt`'s single-dash long flags; the pass
//!    flags become the textual pipeline `builtin.module(pass{opts},...)`
//!    (what `mlir-opt` builds from them), parsed by MLIR like
//!    `--pass-pipeline` against MLIR's registry, where every apipe pass is
//!    registered with its options;
//! 2. read the input, and split it at `// -----` with `--split-input-file`;
//! 3. for each chunk, in a fresh context: parse, run the apipe verifier,
//!    run the pass pipeline (apipe passes verify after themselves), run the
//!    verifier again, print;
//! 4. print diagnostics as MLIR does, or with `--verify-diagnostics` check
//!    them against the `expected-*` comments;
//! 5. exit 0 on success, 1 on any error (never a panic).

use crate::{
    diagnostics::{self, Capture, Kind, Record},
    source::{self, Input},
    verify_diagnostics, Error,
};
use apipe_passes::registry;
use clap::{CommandFactory, Parser};
use melior::{
    ir::operation::{OperationLike, OperationPrintingFlags},
    pass::{PassIrPrintingOptions, PassManager},
};
use std::{io::Write, process::ExitCode};

/// Command-line flags of `apipe-opt` (pass flags are handled apart).
#[derive(Parser, Debug)]
#[command(
    name = "apipe-opt",
    version = concat!(env!("CARGO_PKG_VERSION"), " (MLIR 22)"),
    about = "apipe modular optimizer driver: mlir-opt with the apipe dialect and passes",
    after_help = "Pass flags: --<pass>[=options] (e.g. --apipe-software-pipeline=\"sync=tokens\"), or --pass-pipeline; the registered passes and their options follow.",
)]
pub struct Cli {
    /// Input file, or `-` for standard input.
    #[arg(default_value = "-")]
    pub input: String,
    /// Output file (`-` for standard output).
    #[arg(short = 'o', default_value = "-", value_name = "FILE")]
    pub output: String,
    /// Textual pass pipeline, e.g. 'builtin.module(func.func(apipe-make-sync),canonicalize)'.
    #[arg(long = "pass-pipeline", value_name = "PIPELINE")]
    pub pass_pipeline: Option<String>,
    /// Split the input at '// -----' and process each chunk separately.
    #[arg(long = "split-input-file")]
    pub split_input_file: bool,
    /// Check diagnostics against expected-* comments in the input.
    #[arg(long = "verify-diagnostics")]
    pub verify_diagnostics: bool,
    /// Print the IR after each pass (to stderr).
    #[arg(long = "mlir-print-ir-after-all")]
    pub print_ir_after_all: bool,
    /// Print the IR before each pass (to stderr).
    #[arg(long = "mlir-print-ir-before-all")]
    pub print_ir_before_all: bool,
    /// Print pass timing (to stderr).
    #[arg(long = "mlir-timing")]
    pub timing: bool,
    /// Allow operations of unregistered dialects.
    #[arg(long = "allow-unregistered-dialect")]
    pub allow_unregistered_dialect: bool,
    /// Print locations (debug info) in the output.
    #[arg(long = "mlir-print-debuginfo")]
    pub print_debuginfo: bool,
    /// Print ops in the generic form.
    #[arg(long = "mlir-print-op-generic")]
    pub print_op_generic: bool,
    /// Run passes on one thread.
    #[arg(long = "mlir-disable-threading")]
    pub disable_threading: bool,
    /// Print the registered passes with their options and exit.
    #[arg(long = "list-passes")]
    pub list_passes: bool,
    /// Run the MLIR and apipe verifiers after parsing and after the passes
    /// (`--verify-each=false` turns them off).
    #[arg(
        long = "verify-each",
        default_value_t = true,
        num_args = 0..=1,
        default_missing_value = "true",
        action = clap::ArgAction::Set,
        value_name = "BOOL"
    )]
    pub verify_each: bool,
}

/// Splits raw arguments into clap's and the pass flags. `mlir-opt`'s
/// single-dash long flags (`-split-input-file`) are accepted.
fn split_arguments(args: Vec<String>) -> (Vec<String>, Vec<PassFlag>) {
    let command = Cli::command();
    let known: Vec<String> = command
        .get_arguments()
        .filter_map(|a| a.get_long().map(str::to_owned))
        .chain(["help".into(), "version".into()])
        .collect();
    let mut tool = Vec::new();
    let mut passes = Vec::new();
    let mut iter = args.into_iter();
    if let Some(program) = iter.next() {
        tool.push(program);
    }
    let mut after_double_dash = false;
    while let Some(arg) = iter.next() {
        if after_double_dash
            || arg == "-"
            || !arg.starts_with('-')
            || arg == "-o"
            || arg.starts_with("-o=")
        {
            tool.push(arg);
            continue;
        }
        if arg == "--" {
            after_double_dash = true;
            tool.push(arg);
            continue;
        }
        let body = arg.trim_start_matches('-');
        if arg.len() == 2 {
            tool.push(arg);
            continue;
        }
        let (name, value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        if known.iter().any(|k| k == name) {
            tool.push(format!("--{body}"));
            if name == "pass-pipeline" && value.is_none() {
                if let Some(next) = iter.next() {
                    tool.push(next);
                }
            }
        } else {
            passes.push(PassFlag {
                name: name.into(),
                options: value.map(str::to_owned),
            });
        }
    }
    (tool, passes)
}

/// A pass flag as written: `--name` or `--name=options`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PassFlag {
    name: String,
    options: Option<String>,
}

/// Runs `apipe-opt` with `args` (including the program name).
pub fn main(args: Vec<String>) -> ExitCode {
    crate::register_passes();
    registry::set_program_name("apipe-opt");
    let help = args
        .iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .any(|a| matches!(a.as_str(), "-h" | "--help" | "-help"));
    let (tool_args, pass_flags) = split_arguments(args);
    let cli: Cli = match crate::parse_cli(tool_args) {
        Ok(cli) => cli,
        Err(code) => {
            if help {
                registry::print_registered_passes();
            }
            return code;
        }
    };
    if cli.list_passes {
        registry::print_registered_passes();
        return ExitCode::SUCCESS;
    }
    match run(&cli, &pass_flags) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            diagnostics::print_error(&error.to_string());
            ExitCode::FAILURE
        }
    }
}

/// The passes to run: an anchored `--pass-pipeline`, or the pass flags in
/// order as the pass list `name{options},...` (what `mlir-opt` adds for
/// `--name=options` flags).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Pipeline {
    /// `--pass-pipeline='builtin.module(...)'`.
    Anchored(String),
    /// Pass flags, with implicit nesting.
    Flags(String),
}

impl Pipeline {
    /// No pass flags and no `--pass-pipeline`.
    fn is_empty(&self) -> bool {
        matches!(self, Self::Flags(text) if text.is_empty())
    }

    fn from_cli(cli: &Cli, pass_flags: &[PassFlag]) -> Result<Self, Error> {
        match (&cli.pass_pipeline, pass_flags.is_empty()) {
            (Some(_), false) => Err(Error::Usage(
                "'--pass-pipeline' cannot be used with individual pass flags".into(),
            )),
            (Some(text), true) => Ok(Self::Anchored(text.clone())),
            (None, _) => {
                let passes: Vec<String> = pass_flags
                    .iter()
                    .map(|flag| match &flag.options {
                        Some(options) => format!("{}{{{options}}}", flag.name),
                        None => flag.name.clone(),
                    })
                    .collect();
                Ok(Self::Flags(passes.join(",")))
            }
        }
    }

    /// A pass manager on `builtin.module` running these passes (parsed by
    /// MLIR).
    fn pass_manager<'c>(&self, context: &'c melior::Context) -> Result<PassManager<'c>, Error> {
        let manager = registry::module_pass_manager(context);
        match self {
            Self::Anchored(text) => registry::parse_pipeline(&manager, text)?,
            Self::Flags(text) => registry::add_passes(&manager, text)?,
        }
        Ok(manager)
    }
}

fn run(cli: &Cli, pass_flags: &[PassFlag]) -> Result<bool, Error> {
    let pipeline = Pipeline::from_cli(cli, pass_flags)?;
    // Reject unknown passes and bad options once, before reading input.
    {
        let context = apipe_dialect::create_context()?;
        pipeline.pass_manager(&context)?;
    }
    let input = Input::read(&cli.input)?;
    let mut output = Vec::new();
    let mut ok = true;
    for (index, chunk) in input.chunks(cli.split_input_file).iter().enumerate() {
        if index > 0 {
            output.extend_from_slice(format!("{}\n", source::SPLIT_MARKER).as_bytes());
        }
        ok &= process_chunk(cli, &pipeline, &input, chunk, &mut output)?;
    }
    if cli.output == "-" {
        std::io::stdout()
            .write_all(&output)
            .map_err(Error::Stdout)?;
    } else if ok {
        std::fs::write(&cli.output, &output).map_err(|source| Error::WriteOutput {
            path: cli.output.clone(),
            source,
        })?;
    } else {
        // As mlir-opt: no output file after a failed run, not even an
        // earlier run's (trial 75).
        source::remove_failed_output(&cli.output)?;
    }
    Ok(ok)
}

/// Steps 3–4 for one chunk. Returns whether it succeeded (or, with
/// `--verify-diagnostics`, whether its diagnostics were as expected).
fn process_chunk(
    cli: &Cli,
    pipeline: &Pipeline,
    input: &Input,
    chunk: &str,
    output: &mut Vec<u8>,
) -> Result<bool, Error> {
    let context = apipe_dialect::create_context()?;
    context.set_allow_unregistered_dialects(cli.allow_unregistered_dialect);
    if cli.disable_threading {
        context.enable_multi_threading(false);
    }
    if cli.verify_diagnostics {
        apipe_dialect::diagnostic::set_print_op_on_diagnostic(&context, false);
    }
    let capture = Capture::attach(&context);
    let mut printed = None;
    if let Some(mut module) = source::parse(&context, chunk, &input.name) {
        // The parser ran MLIR's verifier (`parse_module`); the apipe
        // semantic verifier follows.
        let verified = !cli.verify_each || apipe_dialect::verifier::verify(&module.as_operation());
        if verified {
            let manager = pipeline.pass_manager(&context)?;
            manager.enable_verifier(cli.verify_each);
            if cli.print_ir_after_all || cli.print_ir_before_all {
                manager.enable_ir_printing(&PassIrPrintingOptions {
                    before_all: cli.print_ir_before_all,
                    after_all: cli.print_ir_after_all,
                    module_scope: false,
                    on_change: false,
                    on_failure: false,
                    flags: printing_flags(cli),
                    tree_printing_path: Default::default(),
                });
            }
            if cli.timing {
                // SAFETY: the pass manager is live; MLIR prints the report
                // when it is destroyed.
                unsafe { mlir_sys::mlirPassManagerEnableTiming(manager.to_raw()) };
            }
            let passed = manager.run(&mut module).is_ok() && !capture.has_error();
            // Again after the passes (upstream passes do not run the apipe
            // verifier); with no pass the IR is the one just verified.
            let passed = passed
                && (!cli.verify_each
                    || pipeline.is_empty()
                    || apipe_dialect::verifier::verify(&module.as_operation()));
            drop(manager);
            if passed {
                printed = Some(
                    module
                        .as_operation()
                        .to_string_with_flags(printing_flags(cli))
                        .map_err(|e| Error::Print(e.to_string()))?,
                );
            }
        }
    }
    let mut records = capture.take();
    if printed.is_none() && !records.iter().any(|r| r.kind == Kind::Error) {
        records.push(silent_failure(&input.name, chunk));
    }
    let ok = if cli.verify_diagnostics {
        let mut expectations = match verify_diagnostics::parse_expectations(&input.name, chunk) {
            Ok(expectations) => expectations,
            Err(record) => {
                report(&[record], input);
                return Ok(false);
            }
        };
        let failures = verify_diagnostics::verify(&input.name, &records, &mut expectations);
        report(&failures, input);
        failures.is_empty()
    } else {
        report(&records, input);
        printed.is_some() && !records.iter().any(|r| r.kind == Kind::Error)
    };
    if let Some(text) = printed {
        // As mlir-opt: the op as printed, then a newline (the outputs of the
        // two tools are byte-identical).
        output.extend_from_slice(text.as_bytes());
        output.push(b'\n');
    }
    Ok(ok)
}

/// The error for a chunk that failed while MLIR emitted no diagnostic, at
/// its first line of code: never fail silently.
fn silent_failure(file: &str, chunk: &str) -> Record {
    let line = chunk
        .lines()
        .position(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//"))
        .map_or(1, |i| i as u32 + 1);
    Record {
        kind: Kind::Error,
        location: Some(apipe_dialect::location::FileLineCol {
            file: file.to_owned(),
            line,
            column: 1,
        }),
        message: "failed to parse or process this input, and MLIR gave no diagnostic".to_owned(),
        notes: vec![],
    }
}

fn printing_flags(cli: &Cli) -> OperationPrintingFlags {
    let mut flags = OperationPrintingFlags::new();
    if cli.print_debuginfo {
        flags = flags.enable_debug_info(true, false);
    }
    if cli.print_op_generic {
        flags = flags.print_generic_operation_form();
    }
    flags
}

fn report(records: &[Record], input: &Input) {
    let stderr = std::io::stderr();
    let mut lock = stderr.lock();
    diagnostics::print_all(&mut lock, records, &input.name, &input.text);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn splits_pass_flags_in_order() {
        let (tool, passes) = split_arguments(strings(&[
            "apipe-opt",
            "-split-input-file",
            "--apipe-make-sync",
            "x.mlir",
            "--canonicalize=max-iterations=2",
            "-o",
            "out.mlir",
        ]));
        assert_eq!(
            tool,
            strings(&[
                "apipe-opt",
                "--split-input-file",
                "x.mlir",
                "-o",
                "out.mlir"
            ])
        );
        let cli = Cli::try_parse_from(["apipe-opt"]).unwrap();
        assert_eq!(
            Pipeline::from_cli(&cli, &passes).unwrap(),
            Pipeline::Flags("apipe-make-sync,canonicalize{max-iterations=2}".into())
        );
    }
}
