//! `apipe-translate`: apipe IR in a `gpu.module` to LLVM IR, PTX or a cubin
//! through LLVM's NVPTX backend and `ptxas`.
//!
//! 1. parse the flags; read and parse the input (a file or `-`), run the
//!    MLIR and apipe verifiers;
//! 2. check `--sm` (below sm_80 is a located error: `cp.async` needs
//!    sm_80) and `--ptx` (a version LLVM knows, not below the sm's); an
//!    input without a `gpu.module` is a located error at its first op, and
//!    so is a kernel stating a block or grid size that no launch can have
//!    ([`apipe_lowering::launch_bounds`]);
//! 3. lower with [`apipe_lowering::gpu_pipeline`] (apipe passes for
//!    `--sync=auto|counting|mbarrier`, then upstream MLIR to the LLVM/NVVM
//!    dialects); where mbarriers remain and no `--ptx` was given, PTX ISA
//!    7.1 at least (`mbarrier.test_wait.parity` on sm_80), and 8.0 where
//!    bulk copies remain (`cp.async.bulk ... mbarrier::complete_tx`,
//!    `mbarrier.expect_tx`, sm_90);
//! 4. translate the `gpu.module` to LLVM IR in memory and, for PTX and
//!    cubins, optimize (O3) and emit PTX through inkwell
//!    ([`apipe_lowering::ptx`]);
//! 5. for `--to-cubin`, run `ptxas` ([`apipe_lowering::ptxas`]); with
//!    `--resource-usage` print registers, spills and shared memory per
//!    kernel;
//! 6. print diagnostics as `mlir-opt` does; exit 1 on any error.

use crate::{
    diagnostics::{self, Capture, Record},
    source::{self, Input},
};
use apipe_lowering::{gpu_pipeline, launch_bounds, ptx, ptxas, Error};
use clap::Parser;
use melior::ir::operation::OperationLike;
use std::{io::Write, process::ExitCode, time::Instant};

/// Command-line flags of `apipe-translate`.
#[derive(Parser, Debug)]
#[command(
    name = "apipe-translate",
    version = concat!(env!("CARGO_PKG_VERSION"), " (MLIR 22, LLVM 22)"),
    about = "Translate apipe IR in a gpu.module to LLVM IR, PTX (LLVM NVPTX through inkwell) or a cubin (ptxas)"
)]
#[command(group(clap::ArgGroup::new("target").args(["to_llvmir", "to_ptx", "to_cubin"])))]
pub struct Cli {
    /// Input file, or `-` for standard input.
    #[arg(default_value = "-")]
    pub input: String,
    /// Output file (`-` for standard output).
    #[arg(short = 'o', default_value = "-", value_name = "FILE")]
    pub output: String,
    /// Emit LLVM IR (before LLVM's optimizations).
    #[arg(long = "to-llvmir")]
    pub to_llvmir: bool,
    /// Emit PTX (the default).
    #[arg(long = "to-ptx")]
    pub to_ptx: bool,
    /// Emit a cubin, assembled by ptxas.
    #[arg(long = "to-cubin")]
    pub to_cubin: bool,
    /// The GPU architecture: 80, 86, 89, 90 or 90a (`sm_` prefix optional).
    #[arg(long = "sm", default_value = "80")]
    pub sm: String,
    /// The PTX ISA version ×10 (e.g. 80 for 8.0); default: the lowest the sm supports.
    #[arg(long = "ptx", value_name = "VERSION")]
    pub ptx: Option<u32>,
    /// With --to-cubin: print registers, spills and shared memory per kernel (from `ptxas -v`).
    #[arg(long = "resource-usage")]
    pub resource_usage: bool,
    /// Print the compile time of each stage (apipe passes, upstream lowering, LLVM codegen) to stderr.
    #[arg(long = "stage-timing")]
    pub stage_timing: bool,
    /// The synchronization emitted: `auto` (counting form where every count is exact, else mbarriers), `counting` (cp.async.wait_group) or `mbarrier` (cp.async.mbarrier.arrive and phase waits).
    #[arg(long = "sync", default_value = "auto", value_name = "FORM")]
    pub sync: String,
    /// Print the MLIR pass pipeline of the lowering (for `apipe-opt --pass-pipeline=...`) and exit.
    #[arg(long = "print-pipeline")]
    pub print_pipeline: bool,
}

/// Runs `apipe-translate` with `args` (including the program name).
pub fn main(args: Vec<String>) -> ExitCode {
    crate::register_passes();
    let cli: Cli = match crate::parse_cli(args) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match run(&cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            diagnostics::print_error(&error.to_string());
            ExitCode::FAILURE
        }
    }
}

fn report(records: &mut [Record], input: &Input) {
    let stderr = std::io::stderr();
    let mut lock = stderr.lock();
    diagnostics::print_all(&mut lock, records, &input.name, &input.text);
}

/// What the translation produced.
enum Output {
    Text(String),
    Binary(Vec<u8>, Vec<ptxas::ResourceUsage>),
}

fn run(cli: &Cli) -> Result<bool, crate::Error> {
    // 2. (flags only)
    let sync = gpu_pipeline::SyncForm::parse(&cli.sync).map_err(crate::Error::Usage)?;
    let sm = ptx::Sm::parse(&cli.sm)?;
    if cli.print_pipeline {
        let options = gpu_pipeline::Options {
            sync,
            sm: sm.map_or(80, |sm| sm.number),
        };
        writeln!(
            std::io::stdout(),
            "{}",
            gpu_pipeline::pipeline_text(options)
        )
        .map_err(crate::Error::Stdout)?;
        return Ok(true);
    }
    if cli.resource_usage && !cli.to_cubin {
        return Err(crate::Error::Usage(
            "--resource-usage needs --to-cubin".into(),
        ));
    }
    // 1.
    let input = Input::read(&cli.input)?;
    let context = apipe_dialect::create_context()?;
    let capture = Capture::attach(&context);
    let result = translate(cli, sm, sync, &context, &input);
    let mut records = capture.take();
    report(&mut records, &input);
    let output = match result {
        Ok(Some(output)) => output,
        failed => {
            crate::source::remove_failed_output(&cli.output)?;
            return match failed {
                Err(Error::Reported { .. }) if !records.is_empty() => Ok(false),
                Err(error) => Err(error.into()),
                Ok(_) => Ok(false),
            };
        }
    };
    let bytes = match output {
        Output::Text(text) => text.into_bytes(),
        Output::Binary(cubin, usage) => {
            if cli.resource_usage {
                let mut text = String::new();
                for kernel in &usage {
                    text.push_str(&format!(
                        "{}: registers {}, spill stores {} bytes, spill loads {} bytes, shared memory {} bytes, stack {} bytes\n",
                        kernel.kernel, kernel.registers, kernel.spill_stores, kernel.spill_loads, kernel.shared_bytes, kernel.stack_bytes
                    ));
                }
                if cli.output == "-" {
                    eprint!("{text}");
                } else {
                    write!(std::io::stdout(), "{text}").map_err(crate::Error::Stdout)?;
                }
            }
            cubin
        }
    };
    if cli.output == "-" {
        std::io::stdout()
            .write_all(&bytes)
            .map_err(crate::Error::Stdout)?;
    } else {
        std::fs::write(&cli.output, &bytes).map_err(|source| crate::Error::WriteOutput {
            path: cli.output.clone(),
            source,
        })?;
    }
    Ok(true)
}

/// The PTX ISA version the mbarrier form needs (`mbarrier.test_wait.parity`,
/// PTX ISA 7.1), ×10.
const MBARRIER_PTX: u32 = 71;

/// The PTX ISA version bulk copies need (`cp.async.bulk` with
/// `mbarrier::complete_tx::bytes` and `mbarrier.expect_tx`, PTX ISA 8.0),
/// ×10.
const BULK_PTX: u32 = 80;

/// Steps 1–5 after reading; `Ok(None)` when located diagnostics say why not.
fn translate(
    cli: &Cli,
    sm: Result<ptx::Sm, u32>,
    sync: gpu_pipeline::SyncForm,
    context: &melior::Context,
    input: &Input,
) -> Result<Option<Output>, Error> {
    let Some(mut module) = source::parse(context, &input.text, &input.name) else {
        return Ok(None);
    };
    if !module.as_operation().verify() || !apipe_dialect::verifier::verify(&module.as_operation()) {
        return Ok(None);
    }
    // 2.
    let sm = match sm {
        Ok(sm) => sm,
        Err(number) => {
            let _ = ptx::check_sm(&module, number);
            return Ok(None);
        }
    };
    let mut version = ptx::ptx_version(sm, cli.ptx)?;
    let gpu_module_count = ptx::gpu_modules(&module).len();
    if gpu_module_count == 0 {
        // Located at the first op of the input (the module itself if empty).
        let body = module.body();
        let at = melior::ir::BlockLike::first_operation(&body)
            .map(|op| op.location())
            .unwrap_or_else(|| module.as_operation().location());
        apipe_dialect::diagnostic::error(at, &Error::NoGpuModule.to_string());
        return Ok(None);
    }
    if let Some(second) = ptx::gpu_modules(&module).get(1) {
        // One PTX module per input: checked before lowering, at the second.
        apipe_dialect::diagnostic::error(
            second.location(),
            &format!(
                "expected one 'gpu.module' to translate, found {gpu_module_count}; \
                 apipe-translate emits one PTX module per input"
            ),
        );
        return Ok(None);
    }
    if !apipe_lowering::module_scope::check(&module.as_operation())
        | !launch_bounds::check(&module.as_operation())
        | !apipe_lowering::switch_cases::check(&module.as_operation())
    {
        return Ok(None);
    }
    // `--sync=mbarrier` converts apipe's ops; upstream's async copies are
    // lowered as they are, with cp.async.wait_group (trial 88: the option
    // was silently without effect on nvgpu input).
    if sync == gpu_pipeline::SyncForm::Mbarrier {
        let upstream = apipe_dialect::ops::nested_ops(&module.as_operation())
            .into_iter()
            .find(|op| apipe_dialect::ops::is(op, "nvgpu.device_async_copy"));
        if let Some(copy) = upstream {
            apipe_dialect::diagnostic::warning(
                copy.location(),
                "--sync=mbarrier converts apipe's ops only: this 'nvgpu.device_async_copy' and its groups are lowered as they are (cp.async.commit_group / wait_group); import them first (apipe-opt --apipe-import-nvgpu) to give them mbarriers",
            );
        }
    }
    // 3.
    let mut times = gpu_pipeline::StageTimes::default();
    let options = gpu_pipeline::Options {
        sync,
        sm: sm.number,
    };
    gpu_pipeline::lower_to_nvvm(&mut module, options, &mut times)?;
    let gpu_modules = ptx::gpu_modules(&module);
    if gpu_pipeline::uses_mbarriers(&module) && version < MBARRIER_PTX {
        // `mbarrier.test_wait.parity` (PTX ISA 9.7.13.15.16) needs 7.1.
        if cli.ptx.is_some() {
            return Err(Error::Target(format!(
                "--ptx={version}: the mbarrier form needs PTX ISA 7.1 or newer \
                 (mbarrier.test_wait.parity); pass --ptx=71 or --sync=counting"
            )));
        }
        version = MBARRIER_PTX;
    }
    if gpu_pipeline::uses_bulk_copies(&module) && version < BULK_PTX {
        if cli.ptx.is_some() {
            return Err(Error::Target(format!(
                "--ptx={version}: bulk copies need PTX ISA 8.0 or newer \
                 (cp.async.bulk with mbarrier::complete_tx, mbarrier.expect_tx); pass --ptx=80"
            )));
        }
        version = BULK_PTX;
    }
    // 4.
    let start = Instant::now();
    let llvm = inkwell::context::Context::create();
    let llvm_module = ptx::translate(&gpu_modules[0], &llvm)?;
    let machine = ptx::target_machine(sm, version)?;
    let output = if cli.to_llvmir {
        llvm_module.set_triple(&inkwell::targets::TargetTriple::create(ptx::TRIPLE));
        llvm_module.set_data_layout(&machine.get_target_data().get_data_layout());
        Output::Text(llvm_module.print_to_string().to_string())
    } else {
        ptx::optimize(&llvm_module, &machine)?;
        let text = ptx::emit_ptx(&llvm_module, &machine)?;
        times.codegen = start.elapsed();
        if cli.to_cubin {
            // 5.
            let (cubin, usage) = match ptxas::assemble(&text, &sm.name()) {
                Ok(assembled) => assembled,
                Err(apipe_lowering::Error::Ptxas(report)) if report.starts_with("ptxas failed") => {
                    report_ptxas_failure(&gpu_modules[0], &report);
                    return Ok(None);
                }
                Err(e) => return Err(e),
            };
            Output::Binary(cubin, usage)
        } else {
            Output::Text(text)
        }
    };
    if cli.stage_timing {
        eprintln!(
            "stage-timing: apipe passes {:.3} ms, upstream lowering {:.3} ms, LLVM codegen {:.3} ms",
            times.apipe.as_secs_f64() * 1e3,
            times.upstream.as_secs_f64() * 1e3,
            times.codegen.as_secs_f64() * 1e3
        );
    }
    Ok(Some(output))
}

/// Reports a failure of `ptxas` (its `report`) as a located error: at the
/// kernel that a `ptxas error` line names (`Entry function 'k' ...`), else
/// at the `gpu.module` (the lowered `gpu_module`, whose functions keep the
/// kernels' names and locations). The error gives ptxas's error lines; a
/// note gives the rest of its report.
fn report_ptxas_failure(gpu_module: &melior::ir::OperationRef, report: &str) {
    use melior::ir::operation::OperationLike;
    let (errors, rest): (Vec<&str>, Vec<&str>) = report
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("ptxas failed"))
        .partition(|l| l.starts_with("ptxas error") || l.starts_with("ptxas fatal"));
    let kernel = errors.iter().find_map(|l| {
        let start = l.find("function '")? + "function '".len();
        let end = l[start..].find('\'')? + start;
        Some(&l[start..end])
    });
    let at = kernel
        .and_then(|name| {
            apipe_dialect::ops::nested_ops(gpu_module)
                .into_iter()
                .find(|op| {
                    op.attribute("sym_name")
                        .ok()
                        .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
                        .is_some_and(|a| a.value() == name)
                })
        })
        .map_or_else(|| gpu_module.location(), |op| op.location());
    let mut message = String::from("ptxas failed");
    for line in &errors {
        message.push_str(": ");
        message.push_str(
            line.trim_start_matches("ptxas error")
                .trim_start_matches([' ', ':']),
        );
    }
    if errors.iter().any(|l| l.contains("too much shared data")) {
        message.push_str(
            " (the kernel's workgroup buffers and mbarrier rings exceed the sm's static shared \
             memory; pipeline with fewer stages or a lower max-shared-bytes)",
        );
    }
    if rest.is_empty() {
        apipe_dialect::diagnostic::error(at, &message);
    } else {
        let note = rest.join("\n");
        apipe_dialect::diagnostic::emit(
            at,
            apipe_dialect::diagnostic::Severity::Error,
            &message,
            &[(at, &format!("ptxas reported:\n{note}"))],
        );
    }
}
