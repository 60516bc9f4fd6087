//! apipe passes in MLIR's pass registry: registration, creation by name, and
//! textual pipelines parsed by MLIR.
//!
//! [`register_passes`] registers this crate's passes (the lowering crate
//! registers its own the same way), as MLIR tools call `registerAllPasses`.
//! After that, MLIR's own parser reads pipelines that mix apipe and upstream
//! passes ([`parse_pipeline`]), with MLIR's grammar, option parsing and
//! error messages.

use crate::{
    check_hazards, counting_to_tokens, make_sync, merge_queues,
    pass::{collect_message, PassInfo},
    select_sync, software_pipeline, tokens_to_counting, tokens_to_mbarrier, Error,
};
use melior::{pass::PassManager, Context, StringRef};
use mlir_sys::{MlirLogicalResult, MlirPassManager, MlirStringCallback, MlirStringRef};
use std::{ffi::c_void, sync::RwLock};

/// The passes of this crate, in `--help` order.
pub const PASSES: &[&PassInfo] = &[
    &make_sync::INFO,
    &counting_to_tokens::INFO,
    &tokens_to_counting::INFO,
    &tokens_to_mbarrier::INFO,
    &select_sync::INFO,
    &merge_queues::INFO,
    &software_pipeline::INFO,
    &check_hazards::INFO,
];

/// Every apipe pass registered so far (this crate's and other crates').
static REGISTERED: RwLock<Vec<&'static PassInfo>> = RwLock::new(Vec::new());

/// Registers `infos` in MLIR's pass registry (idempotent).
///
/// MLIR's pass registry is a process-wide map that is not safe to write
/// while another thread writes or reads it. So every write to it (upstream
/// MLIR's `registerAllPasses`, done here first, once per process, and each
/// apipe pass) happens under [`REGISTERED`]'s write lock, and every pipeline
/// parse ([`parse_pipeline`], [`add_passes`]) under its read lock. Call this
/// instead of `melior::utility::register_all_passes`.
pub fn register(infos: &[&'static PassInfo]) {
    let mut registered = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    melior::utility::register_all_passes();
    for &info in infos {
        if !registered.iter().any(|r| std::ptr::eq(*r, info)) {
            info.register();
            registered.push(info);
        }
    }
}

/// Registers this crate's passes ([`PASSES`]) in MLIR's pass registry.
pub fn register_passes() {
    register(PASSES);
}

/// Every registered apipe pass, in registration order.
pub fn passes() -> Vec<&'static PassInfo> {
    REGISTERED.read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The registered apipe pass named `argument`, if any.
pub fn lookup(argument: &str) -> Option<&'static PassInfo> {
    passes().into_iter().find(|info| info.argument == argument)
}

/// Creates the registered apipe pass named `argument` with `options` (MLIR
/// syntax, parsed by MLIR).
///
/// # Errors
/// [`Error::UnknownPass`], or [`Error::Options`] for a bad option.
pub fn create_pass(argument: &str, options: &str) -> Result<melior::pass::Pass, Error> {
    lookup(argument)
        .ok_or_else(|| Error::UnknownPass(argument.into()))?
        .create(options)
}

/// A pass manager anchored on `builtin.module`, as `mlir-opt` makes one for
/// `--pass-pipeline='builtin.module(...)'` ([`parse_pipeline`]).
pub fn module_pass_manager(context: &Context) -> PassManager<'_> {
    // SAFETY: the context is live; the op name is a valid string reference
    // for the call.
    unsafe {
        PassManager::from_raw(mlir_sys::mlirPassManagerCreateOnOperation(
            context.to_raw(),
            StringRef::new("builtin.module").to_raw(),
        ))
    }
}

/// Parses the anchored pipeline `pipeline`
/// (`builtin.module(func.func(apipe-make-sync),cse)`) with MLIR's parser and
/// makes it the passes of `manager`, as `mlir-opt --pass-pipeline` does. Its
/// anchor should be the op it runs on ([`module_pass_manager`] and
/// `builtin.module(...)`); MLIR reports a mismatch, located, when it runs.
///
/// # Errors
/// [`Error::Pipeline`] with MLIR's message (`'x' does not refer to a
/// registered pass or pass pipeline`, option errors, grammar errors).
pub fn parse_pipeline(manager: &PassManager, pipeline: &str) -> Result<(), Error> {
    // SAFETY: the manager is live for the call.
    call_parser(pipeline, |text, on_error, data| unsafe {
        apipeParsePassPipeline(manager.to_raw(), text, on_error, data)
    })
}

/// Adds the passes `passes` (a list without anchor: `cse,apipe-x{a=1}`) to
/// `manager` with implicit nesting (a pass restricted to `func.func` nests
/// itself), as `mlir-opt`'s `--<pass>` flags do.
///
/// # Errors
/// As [`parse_pipeline`].
pub fn add_passes(manager: &PassManager, passes: &str) -> Result<(), Error> {
    // SAFETY: the manager is live for the call.
    call_parser(passes, |text, on_error, data| unsafe {
        apipeAddPasses(manager.to_raw(), text, on_error, data)
    })
}

fn call_parser(
    text: &str,
    parse: impl FnOnce(MlirStringRef, MlirStringCallback, *mut c_void) -> MlirLogicalResult,
) -> Result<(), Error> {
    // Readers of MLIR's pass registry exclude its writers ([`register`]).
    let _registry = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    let mut message = String::new();
    let result = parse(
        StringRef::new(text).to_raw(),
        Some(collect_message),
        &mut message as *mut String as *mut c_void,
    );
    if result.value == 0 {
        return Err(Error::Pipeline(message.trim_end().to_owned()));
    }
    Ok(())
}

/// Sets the program name that LLVM's option parser puts before its messages
/// about bad pass option values (`apipe-opt: for the --sync option: ...`),
/// as `mlir-opt` gets it from its command line. For tools only.
pub fn set_program_name(name: &str) {
    // SAFETY: the string reference is valid for the call; C++ copies it.
    unsafe { apipeSetProgramName(StringRef::new(name).to_raw()) }
}

/// Prints every registered pass with its options to standard output, as
/// `mlir-opt --help` lists them.
pub fn print_registered_passes() {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    // SAFETY: no arguments; MLIR prints to its own (flushed) stdout stream.
    unsafe { apipePrintRegisteredPasses() }
}

unsafe extern "C" {
    fn apipeParsePassPipeline(
        pass_manager: MlirPassManager,
        pipeline: MlirStringRef,
        on_error: MlirStringCallback,
        user_data: *mut c_void,
    ) -> MlirLogicalResult;
    fn apipeAddPasses(
        pass_manager: MlirPassManager,
        passes: MlirStringRef,
        on_error: MlirStringCallback,
        user_data: *mut c_void,
    ) -> MlirLogicalResult;
    fn apipePrintRegisteredPasses();
    fn apipeSetProgramName(name: MlirStringRef);
}
