//! `apipe-run`: runs a program with apipe ops and GPU kernels on the CPU,
//! with a chosen completion policy for the asynchronous copies and a chosen
//! order of the threads of a block, as `mlir-runner` runs upstream programs.
//!
//! 1. parse flags; read the input (a file or `-`) with real file names in
//!    locations; parse and verify it (MLIR and apipe verifiers);
//! 2. check the entry: a `func.func` with no arguments and no results; mark it
//!    `llvm.emit_c_interface` so the JIT can call it packed;
//! 3. upstream `gpu-kernel-outlining` when the program uses `gpu.launch`,
//!    `memref.realloc` becomes alloc, copy and dealloc
//!    ([`apipe_lowering::emulation::realloc`]);
//!    upstream `generate-runtime-verification` (bounds of memref accesses)
//!    unless `--no-runtime-verification`;
//! 4. `apipe-to-emulation` ([`apipe_lowering::to_emulation`]): apipe ops,
//!    kernels, launches and run-time checks become runtime calls (with the
//!    race checker's hooks under `--racecheck`); then the upstream lowering
//!    to the LLVM dialect ([`LLVM_PIPELINE`]);
//! 5. JIT the module with the MLIR ExecutionEngine, the MLIR runner
//!    utilities (`--shared-libs`, by default llvm-22's
//!    `libmlir_c_runner_utils` and `libmlir_runner_utils`) and the runtime's
//!    symbols; look up the packed entries of the entry and of each kernel;
//! 6. run the entry under the runtime ([`emulation_runtime`]) once per
//!    (completion, schedule) pair asked for (several runs share the one JIT
//!    compilation; when there are several, each run is announced on stdout by a
//!    line `// apipe-run: completion=C schedule=S`), flush;
//! 7. exit 0 on success, 1 on any error (never a panic).

use crate::{
    diagnostics::{self, Capture},
    source::{self, Input},
    Error,
};
use apipe_lowering::{
    emulation_runtime::{self, Completion, RunConfig, Schedule, CIFACE_PREFIX},
    to_emulation::{to_emulation, Emulation, EmulationOptions},
};
use apipe_passes::registry;
use clap::Parser;
use melior::{
    ir::{
        attribute::{Attribute, StringAttribute, TypeAttribute},
        operation::{OperationLike, OperationMutLike},
        r#type::FunctionType,
        BlockLike, Module, RegionLike,
    },
    StringRef,
};
use mlir_sys::{
    mlirExecutionEngineDestroy, mlirExecutionEngineLookupPacked, mlirExecutionEngineRegisterSymbol,
    MlirExecutionEngine, MlirModule, MlirStringRef,
};
use std::{io::Write, process::ExitCode, time::Instant};

/// The upstream lowering from the emulation form to the LLVM dialect
/// (scf, arith, index, memref, func, cf to LLVM, plus linalg, affine, vector, math and ub
/// for the ops programs use). `convert-vector-to-scf` (fully unrolled: no
/// temporary buffers) lowers the `vector.transfer_read` / `transfer_write`
/// that `convert-vector-to-llvm` cannot (permutation maps, several
/// dimensions). `expand-strided-metadata` runs before `lower-affine`: it
/// turns `memref.subview` into `affine.apply`. `convert-vector-to-llvm`
/// and `finalize-memref-to-llvm` run on their own (the patterns
/// `convert-to-llvm` takes from these dialects leave the vector transfers
/// and a `memref.reshape` of dynamic shape); `convert-to-llvm` then applies
/// the LLVM patterns of the other dialects (their
/// `ConvertToLLVMPatternInterface`) in one dialect conversion: one walk of
/// the module, not one per dialect.
pub const LLVM_PIPELINE: &str =
    "builtin.module(func.func(convert-linalg-to-loops,convert-vector-to-scf{full-unroll=true}),\
    expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-vector-to-llvm,\
    finalize-memref-to-llvm,convert-to-llvm,reconcile-unrealized-casts)";

/// The runner utilities `mlir-runner` tests link (`printMemrefF32`,
/// `printF32`, `printNewline`, ...).
pub const DEFAULT_SHARED_LIBS: &[&str] = &[
    "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so",
    "/usr/lib/llvm-22/lib/libmlir_runner_utils.so",
];

/// Command-line flags of `apipe-run`.
#[derive(Parser, Debug)]
#[command(
    name = "apipe-run",
    version = concat!(env!("CARGO_PKG_VERSION"), " (MLIR 22)"),
    about = "Runs a program with apipe ops on the CPU (emulated asynchronous copies), like mlir-runner"
)]
pub struct Cli {
    /// Input file, or `-` for standard input.
    #[arg(default_value = "-")]
    pub input: String,
    /// The function to run: a func.func with no arguments and no results.
    #[arg(
        long = "entry",
        short = 'e',
        default_value = "main",
        value_name = "NAME"
    )]
    pub entry: String,
    /// When copies land: lazy (when a wait forces them), eager (at issue), or
    /// random[:SEED] (anywhere allowed, reproducibly). A comma-separated
    /// list runs the entry once per policy (and schedule) in one JIT.
    #[arg(long = "completion", default_value = "lazy", value_name = "POLICY")]
    pub completion: String,
    /// The order of the threads of a block between barriers, and of the
    /// blocks of a launch: forward, reverse, or random[:SEED]. A
    /// comma-separated list runs once each.
    #[arg(long = "schedule", default_value = "forward", value_name = "ORDER")]
    pub schedule: String,
    /// Check kernels for races on shared memory (and writes into the global
    /// source of an asynchronous copy in flight, and writes of two blocks to
    /// the same global bytes), and host code for writes into the source of
    /// its own copies in flight: on by default; `--racecheck=false` or
    /// `--no-racecheck` turns it off.
    #[arg(
        long = "racecheck",
        value_name = "BOOL",
        default_value_t = true,
        num_args = 0..=1,
        default_missing_value = "true",
        action = clap::ArgAction::Set
    )]
    pub racecheck: bool,
    /// Same as `--racecheck=false`.
    #[arg(long = "no-racecheck")]
    pub no_racecheck: bool,
    /// Do not check the bounds of memref and vector accesses at run time
    /// (MLIR's generate-runtime-verification; faster, but an out-of-bounds
    /// access is then undefined behaviour).
    #[arg(long = "no-runtime-verification")]
    pub no_runtime_verification: bool,
    /// OS threads that run the blocks of a launch (results do not depend
    /// on it for race-free kernels).
    #[arg(long = "jobs", short = 'j', default_value_t = 1, value_name = "N")]
    pub jobs: usize,
    /// Shared libraries for the JIT, comma-separated (default: the MLIR
    /// runner utilities of llvm-22). Given libraries are added to the default ones.
    #[arg(long = "shared-libs", value_delimiter = ',', value_name = "LIBS")]
    pub shared_libs: Vec<String>,
    /// LLVM IR optimization level of the JIT (0-3); code generation runs
    /// at LLVM's default, -O2, whatever the level (as in `mlir-runner`).
    #[arg(short = 'O', default_value_t = 2, value_name = "LEVEL")]
    pub opt_level: u8,
    /// Print the compile (parse, lowering, JIT code generation) and run times
    /// in milliseconds to stderr.
    #[arg(long = "time")]
    pub time: bool,
}

/// Runs `apipe-run` with `args` (including the program name).
pub fn main(args: Vec<String>) -> ExitCode {
    crate::register_passes();
    let cli: Cli = match crate::parse_cli(args) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let ok = match run(&cli) {
        Ok(ok) => ok,
        Err(error) => {
            diagnostics::print_error(&error.to_string());
            false
        }
    };
    emulation_runtime::flush_all();
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Steps 1-6. `Ok(false)`: a located error was printed.
fn run(cli: &Cli) -> Result<bool, Error> {
    // 1.
    let completions: Vec<Completion> = cli
        .completion
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(Error::Usage)?;
    let schedules: Vec<Schedule> = cli
        .schedule
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(Error::Usage)?;
    if cli.opt_level > 3 {
        return Err(Error::Usage(format!(
            "invalid optimization level -O{}: expected 0 to 3",
            cli.opt_level
        )));
    }
    if cli.jobs == 0 {
        return Err(Error::Usage("invalid --jobs=0: expected at least 1".into()));
    }
    let racecheck = cli.racecheck && !cli.no_racecheck;
    let mut libraries: Vec<String> = DEFAULT_SHARED_LIBS.iter().map(|s| s.to_string()).collect();
    for library in &cli.shared_libs {
        if !std::path::Path::new(library).exists() {
            return Err(Error::Usage(format!(
                "could not open shared library '{library}': no such file"
            )));
        }
        if !libraries.contains(library) {
            libraries.push(library.clone());
        }
    }
    libraries.retain(|l| std::path::Path::new(l).exists());
    let start = Instant::now();
    let input = Input::read(&cli.input)?;
    let context = apipe_dialect::create_context()?;
    let capture = Capture::attach(&context);
    let report = |capture: &Capture| {
        let records = capture.take();
        let stderr = std::io::stderr();
        let mut lock = stderr.lock();
        diagnostics::print_all(&mut lock, &records, &input.name, &input.text);
    };
    let Some(mut module) = source::parse(&context, &input.text, &input.name) else {
        report(&capture);
        return Ok(false);
    };
    if !module.as_operation().verify()
        || !apipe_dialect::verifier::verify(&module.as_operation())
        || !apipe_lowering::module_scope::check(&module.as_operation())
    {
        report(&capture);
        return Ok(false);
    }
    // 2.
    let entry_location = match prepare_entry(&module, &cli.entry) {
        Ok(location) => location,
        Err((message, location)) => {
            // An input without ops: its first line.
            let location =
                location.unwrap_or_else(|| melior::ir::Location::new(&context, &input.name, 1, 1));
            apipe_dialect::diagnostic::error(location, &message);
            report(&capture);
            return Ok(false);
        }
    };
    // 3.
    let mut upstream = Vec::new();
    if has_op(&module, "gpu.launch") {
        upstream.push("gpu-kernel-outlining");
    }
    // MLIR 22's `finalize-memref-to-llvm` leaves `memref.realloc` unconverted
    // (the JIT then fails on an unrealized cast): it becomes `memref.alloc` +
    // `memref.copy` + `memref.dealloc` (not upstream's `expand-realloc`,
    // which fails on a static shrinking realloc), which the emulator's
    // allocation checks then follow like any other buffer.
    apipe_lowering::emulation::realloc::expand(&module.as_operation());
    if !cli.no_runtime_verification {
        upstream.push("generate-runtime-verification");
    }
    if !upstream.is_empty() {
        run_pipeline(
            &context,
            &mut module,
            &format!("builtin.module({})", upstream.join(",")),
        )?;
        if capture.has_error() {
            report(&capture);
            return Ok(false);
        }
    }
    // 4.
    let options = EmulationOptions {
        racecheck,
        bounds: !cli.no_runtime_verification,
    };
    let Ok(emulation) = to_emulation(&module.as_operation(), &options) else {
        report(&capture);
        return Ok(false);
    };
    // `finalize-memref-to-llvm` converts `memref.generic_atomic_rmw` only
    // when the ops of its body are LLVM ops already.
    let pipeline = if has_op(&module, "memref.generic_atomic_rmw") {
        LLVM_PIPELINE.replace(
            "finalize-memref-to-llvm",
            "convert-arith-to-llvm,finalize-memref-to-llvm",
        )
    } else {
        LLVM_PIPELINE.to_owned()
    };
    if run_pipeline(&context, &mut module, &pipeline).is_err() || capture.has_error() {
        report(&capture);
        return Err(Error::LoweringFailed);
    }
    probe_stacks(&module);
    // An op left outside the LLVM dialects gets an error at itself, not the
    // JIT's unlocated failure.
    if apipe_lowering::unlowered::refuse_unlowered(&module.as_operation()).is_err() {
        // The located errors say it all (no summary line without a
        // location after them).
        report(&capture);
        return Ok(false);
    }
    report(&capture);
    // 5.
    let engine = Engine::new(&module, cli.opt_level, DEFAULT_CODEGEN_LEVEL, &libraries);
    report(&capture);
    let engine = engine?;
    engine.bind_runtime(&emulation);
    // Materialize the entry (LLVM code generation happens at the first
    // lookup), so that the run time below is the execution alone.
    let entry = engine.lookup_packed(&cli.entry)?;
    let mut kernels = emulation.kernels.clone();
    for kernel in &mut kernels {
        kernel.entry = Some(engine.lookup_packed(&kernel.function)?);
    }
    let kernels: std::sync::Arc<[_]> = kernels.into();
    let checks: std::sync::Arc<[String]> = emulation.checks.clone().into();
    let names: std::sync::Arc<[String]> = emulation.names.clone().into();
    let compiled = start.elapsed();
    // 6.
    let mut ok = true;
    let runs = completions.len() * schedules.len();
    for &completion in &completions {
        for &schedule in &schedules {
            if runs > 1 {
                emulation_runtime::flush_all();
                // As the JIT's own prints: a closed stdout (`| head`) ends
                // the run with an error, not a panic.
                writeln!(
                    std::io::stdout(),
                    "// apipe-run: completion={} schedule={}",
                    describe(completion),
                    describe_schedule(schedule)
                )
                .map_err(crate::Error::Stdout)?;
            }
            let begin = Instant::now();
            let mut locations = emulation.locations.clone();
            locations.push(entry_location.clone());
            let config = RunConfig {
                entry_op: locations.len() as i64 - 1,
                completion,
                schedule,
                racecheck,
                jobs: cli.jobs,
                locations: locations.into(),
                checks: checks.clone(),
                names: names.clone(),
                kernels: kernels.clone(),
            };
            ok &= emulation_runtime::run_entry(config, entry);
            if cli.time {
                eprintln!(
                    "apipe-run: compile {:.3} ms, run {:.3} ms",
                    compiled.as_secs_f64() * 1e3,
                    begin.elapsed().as_secs_f64() * 1e3
                );
            }
        }
    }
    drop(engine);
    Ok(ok)
}

fn describe(completion: Completion) -> String {
    match completion {
        Completion::Lazy => "lazy".into(),
        Completion::Eager => "eager".into(),
        Completion::Random(seed) => format!("random:{seed}"),
    }
}

fn describe_schedule(schedule: Schedule) -> String {
    match schedule {
        Schedule::Forward => "forward".into(),
        Schedule::Reverse => "reverse".into(),
        Schedule::Random(seed) => format!("random:{seed}"),
    }
}

/// Whether an op named `name` is nested in `module`.
fn has_op(module: &Module, name: &str) -> bool {
    apipe_dialect::ops::nested_ops(&module.as_operation())
        .iter()
        .any(|op| apipe_dialect::ops::is(op, name))
}

/// Runs the textual pass pipeline `text` (upstream passes) on `module`.
///
/// # Errors
/// The pipeline does not parse, or a pass failed (its diagnostics went to
/// the context's handlers).
pub fn run_pipeline(
    context: &melior::Context,
    module: &mut Module,
    text: &str,
) -> Result<(), Error> {
    let manager = registry::module_pass_manager(context);
    registry::parse_pipeline(&manager, text)?;
    manager
        .run(module)
        .map_err(|_| Error::PipelineFailed(text.to_owned()))
}

/// Step 2: checks that `entry` names a `func.func` of `() -> ()` in
/// `module`'s body and marks it `llvm.emit_c_interface`; returns its
/// `file:line:col`.
///
/// # Errors
/// The message and where it points: the op named `entry` when it is not
/// such a function, else the input's first op (`None` when it has none).
pub fn prepare_entry<'c>(
    module: &Module<'c>,
    entry: &str,
) -> Result<String, (String, Option<melior::ir::Location<'c>>)> {
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let name = op
            .attribute("sym_name")
            .ok()
            .and_then(|a| StringAttribute::try_from(a).ok())
            .map(|s| s.value().to_owned());
        if name.as_deref() != Some(entry) {
            continue;
        }
        if op.name().as_string_ref().as_str() != Ok("func.func")
            || op.region(0).is_ok_and(|r| r.first_block().is_none())
        {
            return Err((
                format!("entry point '{entry}' is not a func.func with a body"),
                Some(op.location()),
            ));
        }
        let ty = op
            .attribute("function_type")
            .ok()
            .and_then(|a| TypeAttribute::try_from(a).ok())
            .and_then(|a| FunctionType::try_from(a.value()).ok());
        if ty.is_none_or(|t| t.input_count() != 0 || t.result_count() != 0) {
            return Err((
                format!(
                    "entry point '{entry}' must take no arguments and return nothing (it is {})",
                    ty.map_or("?".to_owned(), |t| melior::ir::Type::from(t).to_string())
                ),
                Some(op.location()),
            ));
        }
        // SAFETY: a handle to a live op; setting an attribute does not move it.
        let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) };
        let context = module.context();
        // SAFETY: bound first; the context outlives the module.
        let unit = Attribute::unit(unsafe { context.to_ref() });
        op.set_attribute("llvm.emit_c_interface", unit);
        return Ok(apipe_dialect::location::file_line_col(op.location())
            .map_or_else(|| "<unknown>:0:0".to_owned(), |p| p.to_string()));
    }
    let first = module.body().first_operation().map(|op| op.location());
    if first.is_none() {
        // Often a failed command before a pipe (`apipe-opt ... | apipe-run -`).
        return Err((
            format!("entry point '{entry}' not found: the input has no ops (if it comes from a pipe, did the command before it fail?)"),
            None,
        ));
    }
    Err((format!("entry point '{entry}' not found"), first))
}

/// End of step 4: every `llvm.func` with a body gets LLVM's
/// `"probe-stack"="inline-asm"` (a `passthrough` entry), so that each frame
/// larger than a page touches its pages in order and an overflow of a
/// fiber's stack always hits its guard page
/// ([`emulation_runtime::overflow`]), even from a large `memref.alloca`.
fn probe_stacks(module: &Module) {
    let (key, value) = emulation_runtime::overflow::PROBE_STACK_PASSTHROUGH;
    let entry = format!("[\"{key}\", \"{value}\"]");
    for op in apipe_dialect::ops::nested_ops(&module.as_operation()) {
        if !apipe_dialect::ops::is(&op, "llvm.func")
            || op.region(0).is_ok_and(|r| r.first_block().is_none())
        {
            continue;
        }
        // Keep the entries already there (`[a, b]` becomes `[a, b, entry]`).
        let text = match op.attribute("passthrough") {
            Ok(existing) => {
                let existing = existing.to_string();
                match existing.strip_suffix(']') {
                    Some(head) if head.trim_end() != "[" => format!("{head}, {entry}]"),
                    _ => format!("[{entry}]"),
                }
            }
            Err(_) => format!("[{entry}]"),
        };
        let context = module.context();
        // SAFETY: bound first; the context outlives the module.
        let Some(attribute) = Attribute::parse(unsafe { context.to_ref() }, &text) else {
            continue;
        };
        // SAFETY: a handle to a live op; setting an attribute does not move it.
        let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) };
        op.set_attribute("passthrough", attribute);
    }
}

unsafe extern "C" {
    /// `mlirExecutionEngineCreate` with code generation at `codegen_level`
    /// (`dialects/capi/ApipeExecutionEngine.cpp`: the C API of LLVM 22
    /// generates code at -O2 whatever the level).
    fn apipeExecutionEngineCreate(
        module: MlirModule,
        opt_level: i32,
        codegen_level: i32,
        paths: i32,
        shared_lib_paths: *const MlirStringRef,
    ) -> MlirExecutionEngine;
}

/// The code generation level of apipe-run's JIT whatever `-O` is: LLVM's
/// default (-O2), as `mlirExecutionEngineCreate` and `mlir-runner` use.
/// (At -O0, trial 22 found wrong `vector<4xf16>` results in apipe-run: an
/// addition that overflows gave -inf, an i8 -> f16 conversion of 0 gave
/// garbage; `lli -O0` runs the same LLVM IR correctly, so the cause is not
/// known. The differential harness generates code at -O0 for its f32 and
/// index programs, whose verdicts equal those at -O2.)
pub const DEFAULT_CODEGEN_LEVEL: u8 = 2;

/// The MLIR ExecutionEngine through the C API: melior's wrapper does not
/// report a failed creation (a null engine), which must be an error here.
/// Drivers that run many entries of one module (the differential harness)
/// use it with [`run_pipeline`], [`prepare_entry`] and [`LLVM_PIPELINE`].
pub struct Engine(MlirExecutionEngine);

impl Engine {
    /// JIT-compiles `module` (in the LLVM dialect) with LLVM IR passes at
    /// `opt_level` and code generation at `codegen_level` (0-3,
    /// `llvm::CodeGenOptLevel`), with the shared `libraries`.
    ///
    /// # Errors
    /// The JIT could not compile the module.
    pub fn new(
        module: &Module,
        opt_level: u8,
        codegen_level: u8,
        libraries: &[String],
    ) -> Result<Self, Error> {
        // The engine reads the paths as C strings (up to a NUL), so each
        // one is NUL-terminated past its length.
        let terminated: Vec<String> = libraries.iter().map(|l| format!("{l}\0")).collect();
        let paths: Vec<_> = terminated
            .iter()
            .map(|l| StringRef::new(&l[..l.len() - 1]).to_raw())
            .collect();
        // SAFETY: the module is live and in the LLVM dialect; the path
        // strings outlive the call.
        let raw = unsafe {
            apipeExecutionEngineCreate(
                module.to_raw(),
                opt_level as i32,
                codegen_level as i32,
                paths.len() as i32,
                paths.as_ptr(),
            )
        };
        if raw.ptr.is_null() {
            return Err(Error::JitCompile);
        }
        Ok(Self(raw))
    }

    /// Binds the external symbol `name` to `address`, before the first
    /// lookup. The function at `address` must have the signature the module
    /// declares for `name`.
    pub fn register(&self, name: &str, address: *mut ()) {
        // SAFETY: the engine is live; `address` is a function with the
        // signature the module declares for `name` (the lowering and the
        // runtime agree on it).
        unsafe {
            mlirExecutionEngineRegisterSymbol(self.0, StringRef::new(name).to_raw(), address as _)
        }
    }

    /// Binds the emulation runtime: its functions
    /// ([`emulation_runtime::symbols`]) and the copy, region-hook and
    /// dealloc functions that `apipe-to-emulation` declared for
    /// `emulation` (by MLIR's C interface name). Before the first lookup.
    pub fn bind_runtime(&self, emulation: &Emulation) {
        for (name, address) in emulation_runtime::symbols() {
            self.register(name, address);
        }
        let declared = [
            (&emulation.copy_functions, emulation_runtime::copy_symbol()),
            (
                &emulation.region_functions,
                emulation_runtime::region_symbol(),
            ),
            (
                &emulation.dealloc_functions,
                emulation_runtime::dealloc_symbol(),
            ),
        ];
        for (names, address) in declared {
            for name in names {
                self.register(&format!("{CIFACE_PREFIX}{name}"), address);
            }
        }
    }

    /// The packed entry `_mlir_<name>(void **arguments)` of function `name`.
    ///
    /// # Errors
    /// No such function in the JIT.
    pub fn lookup_packed(&self, name: &str) -> Result<PackedFn, Error> {
        // SAFETY: the engine is live; a missing symbol gives null.
        let address =
            unsafe { mlirExecutionEngineLookupPacked(self.0, StringRef::new(name).to_raw()) };
        if address.is_null() {
            Err(Error::JitLookup(name.to_owned()))
        } else {
            // SAFETY: the ExecutionEngine's packed wrappers have this
            // signature.
            Ok(unsafe { std::mem::transmute::<*mut std::ffi::c_void, PackedFn>(address) })
        }
    }
}

/// A packed entry of the JIT.
pub type PackedFn = unsafe extern "C" fn(*mut *mut std::ffi::c_void);

impl Drop for Engine {
    fn drop(&mut self) {
        // SAFETY: created by `mlirExecutionEngineCreate`, destroyed once.
        unsafe { mlirExecutionEngineDestroy(self.0) }
    }
}
