//! An apipe pass as MLIR's pass registry knows it.
//!
//! Each pass module declares one [`PassInfo`] (its pipeline argument,
//! summary, options and Rust body). [`PassInfo::register`] hands it to the
//! C++ class `RustPass` (`passes/cpp/RustPass.cpp`), which MLIR's registry
//! then creates like any C++ pass:
//! 1. the options are MLIR `Pass::Option<T>`s, so MLIR parses them in
//!    textual pipelines and `--<pass>=...` flags, reports bad names and
//!    values, lists them in `--help` and copies them into the clones it runs
//!    on its thread pool;
//! 2. when the pass runs, C++ calls back [`run_pass`] with the option
//!    values in declared order; it runs the semantic verifier on the op
//!    (a pass never builds on IR that breaks the dialect's rules, such as
//!    an apipe op outside any function), builds [`PassOptions`], runs the
//!    body, turns a panic into a located internal error, and runs the
//!    verifier again (the verifier runs after every pass). The verifier on
//!    the input is skipped when an earlier apipe pass verified the op and
//!    no pass changed it since: C++ keeps that fact as an MLIR analysis,
//!    which the pass manager drops after any pass that does not preserve
//!    it;
//! 3. the `PassInfo`'s address makes the pass's MLIR `TypeID`, so
//!    registering twice is a no-op.
//!
//! The Rust body gets the function pointer at registration time, not by
//! symbol name: nothing depends on link order, and the same code runs in
//! `apipe-opt`, in a library user's context and in upstream `mlir-opt`
//! through the plugin.

use crate::Error;
use melior::{
    dialect::DialectHandle,
    ir::{operation::OperationLike, OperationRef},
    pass::Pass,
    StringRef,
};
use mlir_sys::{MlirDialectHandle, MlirOperation, MlirStringRef};
use std::{ffi::c_void, sync::Mutex};

/// A pass body: transforms `op` in place. On failure it has emitted located
/// diagnostics and returns `Err(Reported)`; it must then leave the IR
/// verifiable.
pub type RunFn =
    for<'c, 'a> fn(OperationRef<'c, 'a>, &PassOptions) -> Result<(), apipe_dialect::Reported>;

/// The declaration of one apipe pass: one `static` per pass module.
pub struct PassInfo {
    /// The pipeline/flag argument, e.g. `apipe-make-sync`.
    pub argument: &'static str,
    /// The pass class name, e.g. `ApipeMakeSync` (shown by
    /// `--mlir-print-ir-after-all` and `--mlir-timing`).
    pub name: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    /// The declared options, in the order [`PassOptions`] receives them.
    pub options: &'static [OptionInfo],
    /// The pass body.
    pub run: RunFn,
    /// The dialects whose ops the pass creates; MLIR loads them before the
    /// pass runs (`getDependentDialects`).
    pub dependent_dialects: fn() -> Vec<DialectHandle>,
    /// The pass only reads the IR (it emits diagnostics, as
    /// `apipe-check-hazards`): its output is its input, verified before it
    /// ran, so the verification after it is skipped.
    pub reads_only: bool,
    /// The pass reads the functions that its op's functions call (it
    /// follows calls), so it runs only on an op that holds their symbols
    /// (`builtin.module`, `gpu.module`: the `SymbolTable` trait). On another
    /// op (nested under `func.func` or `any`, where MLIR may run it on
    /// sibling functions in parallel and it must not read them) it fails
    /// with an error located at the op.
    pub follows_calls: bool,
}

/// The dependent dialects of a pass that builds synchronization and
/// multi-buffering code: `arith`, `memref`, `scf` and `gpu` (barriers,
/// workgroup attributions).
pub fn sync_rewrite_dialects() -> Vec<DialectHandle> {
    vec![
        DialectHandle::arith(),
        DialectHandle::memref(),
        DialectHandle::scf(),
        DialectHandle::gpu(),
    ]
}

/// The type of a pass option (an MLIR `Pass::Option<T>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `Option<bool>`: `true`/`false` (also `1`/`0`); a bare `name` is true.
    Bool,
    /// `Option<int64_t>`.
    Int,
    /// `Option<int64_t>` with bounds (inclusive): a value outside them is
    /// a pass option error when the pipeline is parsed, as MLIR reports a
    /// malformed value.
    IntIn(i64, i64),
    /// An enum option: one of the listed words.
    Choice(&'static [&'static str]),
}

/// One declared option of a pass.
#[derive(Clone, Copy, Debug)]
pub struct OptionInfo {
    /// The key, kebab-case as MLIR passes spell them (`num-stages`).
    pub name: &'static str,
    /// Its type.
    pub kind: OptionKind,
    /// One line for `--help`, including the default.
    pub description: &'static str,
}

/// The option values of one pass run, as MLIR parsed them.
#[derive(Clone)]
pub struct PassOptions {
    info: &'static PassInfo,
    /// Per declared option: the value when the pipeline named it (0/1 for a
    /// bool, the integer, the index of a choice).
    values: Vec<Option<i64>>,
}

impl PassOptions {
    /// The options of `info` with none set (every accessor returns its
    /// default).
    pub fn defaults(info: &'static PassInfo) -> Self {
        Self {
            info,
            values: vec![None; info.options.len()],
        }
    }

    fn value(&self, name: &str) -> Option<(OptionKind, i64)> {
        let index = self.info.options.iter().position(|o| o.name == name)?;
        self.values[index].map(|value| (self.info.options[index].kind, value))
    }

    /// The bool option `name`, or `default` when the pipeline did not set it.
    pub fn bool(&self, name: &str, default: bool) -> bool {
        match self.value(name) {
            Some((OptionKind::Bool, value)) => value != 0,
            _ => default,
        }
    }

    /// The integer option `name`, or `default` when the pipeline did not set
    /// it.
    pub fn int(&self, name: &str, default: i64) -> i64 {
        match self.value(name) {
            Some((OptionKind::Int | OptionKind::IntIn(..), value)) => value,
            _ => default,
        }
    }

    /// The choice option `name`, or `default` when the pipeline did not set
    /// it.
    pub fn choice<'s>(&self, name: &str, default: &'s str) -> &'s str {
        match self.value(name) {
            Some((OptionKind::Choice(words), index)) => usize::try_from(index)
                .ok()
                .and_then(|i| words.get(i))
                .copied()
                .unwrap_or(default),
            _ => default,
        }
    }

    /// True if the pipeline set option `name` (for defaults that depend on
    /// the IR, such as `barriers` inside a `gpu.func`).
    pub fn is_set(&self, name: &str) -> bool {
        self.value(name).is_some()
    }
}

impl PassInfo {
    /// Registers the pass in MLIR's pass registry, so that textual pipelines
    /// and `--<argument>` flags name it. Idempotent.
    pub fn register(&'static self) {
        // SAFETY: `ffi_info` is leaked for the process, as MLIR's registry
        // keeps a pointer to it.
        unsafe { ffi::apipeRegisterRustPass(self.ffi_info()) }
    }

    /// Creates an instance with `options` in MLIR syntax (the inside of
    /// `{...}`; empty for the defaults), parsed by MLIR.
    ///
    /// # Errors
    /// [`Error::Options`] with MLIR's message for a bad option name or value.
    pub fn create(&'static self, options: &str) -> Result<Pass, Error> {
        let mut message = String::new();
        // SAFETY: `ffi_info` lives for the process; `message` outlives the
        // call and is only written by `collect`.
        let raw = unsafe {
            ffi::apipeCreateRustPass(
                self.ffi_info(),
                StringRef::new(options).to_raw(),
                Some(collect_message),
                &mut message as *mut String as *mut c_void,
            )
        };
        if raw.ptr.is_null() {
            return Err(Error::Options {
                pass: self.argument.into(),
                message,
            });
        }
        // SAFETY: a fresh, owned pass; `Pass` hands ownership to the pass
        // manager it is added to.
        Ok(unsafe { Pass::from_raw(raw) })
    }

    /// The C description of this pass, built once and leaked (MLIR keeps
    /// pointers to its strings and arrays for the whole process).
    fn ffi_info(&'static self) -> &'static ffi::RustPassInfo {
        static BUILT: Mutex<Vec<(usize, ffi::Leaked)>> = Mutex::new(Vec::new());
        let key = self as *const PassInfo as usize;
        let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, info)) = built.iter().find(|(k, _)| *k == key) {
            return info.0;
        }
        let info = ffi::Leaked(Box::leak(Box::new(ffi::RustPassInfo::new(self))));
        let leaked = info.0;
        built.push((key, info));
        leaked
    }
}

/// The `MlirStringCallback` that appends a message to the `String` that
/// `data` points to.
pub(crate) unsafe extern "C" fn collect_message(message: MlirStringRef, data: *mut c_void) {
    // SAFETY: `data` is the `String` the caller passed, alive during the
    // call; MLIR passes a valid string reference of `length` bytes.
    let (out, bytes) = unsafe {
        (
            &mut *(data as *mut String),
            std::slice::from_raw_parts(message.data as *const u8, message.length),
        )
    };
    out.push_str(&String::from_utf8_lossy(bytes));
}

/// Step 2 of the module doc: the function C++ calls to run a Rust pass.
///
/// # Safety
/// `pass` is the address of a `'static` [`PassInfo`], `op` a live op, and
/// `values` points to `count` values (the pass's option count).
unsafe extern "C" fn run_pass(
    pass: *const c_void,
    op: MlirOperation,
    values: *const ffi::RustOptionValue,
    count: isize,
    input_verified: bool,
) -> bool {
    // SAFETY: the caller's contract above (an empty `std::vector` passes a
    // null pointer, hence the check).
    let (info, op, values) = unsafe {
        (
            &*(pass as *const PassInfo),
            OperationRef::from_raw(op),
            if count <= 0 || values.is_null() {
                &[][..]
            } else {
                std::slice::from_raw_parts(values, count as usize)
            },
        )
    };
    // An op an earlier apipe pass verified, unchanged since (the C++ side
    // knows it from MLIR's analysis manager), is not verified again.
    if !input_verified && !apipe_dialect::verifier::verify(&op) {
        return false;
    }
    let options = PassOptions {
        info,
        values: values.iter().map(|v| v.is_set.then_some(v.value)).collect(),
    };
    // Each run solves its own systems and barrier placements (and leaves
    // no answers behind).
    let forget = || {
        crate::access::System::forget_answers();
        crate::software_pipeline::forget_placements();
    };
    forget();
    // A panic must not unwind into C++ (that aborts the process): turn it
    // into a located internal error and a failed pass.
    // The pass reads nothing outside `op` (`ops::outermost` stops there).
    let body = std::panic::AssertUnwindSafe(|| {
        apipe_dialect::ops::with_pass_root(op.to_raw(), || (info.run)(op, &options).is_ok())
    });
    let succeeded = std::panic::catch_unwind(body).unwrap_or_else(|_| {
        apipe_dialect::diagnostic::error(
            op.location(),
            &format!(
                "internal error in pass '{}'; please report it",
                info.argument
            ),
        );
        false
    });
    forget();
    succeeded && (info.reads_only || apipe_dialect::verifier::verify(&op))
}

/// The structs of `passes/cpp/RustPass.h`.
mod ffi {
    use super::*;

    #[repr(C)]
    pub struct RustOption {
        name: MlirStringRef,
        description: MlirStringRef,
        kind: i32,
        choices: *const MlirStringRef,
        choice_count: isize,
        minimum: i64,
        maximum: i64,
    }

    #[repr(C)]
    pub struct RustOptionValue {
        pub is_set: bool,
        pub value: i64,
    }

    #[repr(C)]
    pub struct RustPassInfo {
        argument: MlirStringRef,
        name: MlirStringRef,
        summary: MlirStringRef,
        options: *const RustOption,
        option_count: isize,
        dependent_dialects: *const MlirDialectHandle,
        dependent_dialect_count: isize,
        run: unsafe extern "C" fn(
            *const c_void,
            MlirOperation,
            *const RustOptionValue,
            isize,
            bool,
        ) -> bool,
        pass: *const c_void,
        symbol_table_only: bool,
    }

    /// A leaked, never mutated [`RustPassInfo`].
    pub struct Leaked(pub &'static RustPassInfo);
    // SAFETY: the pointed-to data is immutable and lives for the process;
    // the raw pointers inside only point to other leaked or `'static` data.
    unsafe impl Send for Leaked {}

    fn string(text: &'static str) -> MlirStringRef {
        StringRef::new(text).to_raw()
    }

    fn leak<T: 'static>(items: Vec<T>) -> (*const T, isize) {
        let items: &'static [T] = Vec::leak(items);
        (items.as_ptr(), items.len() as isize)
    }

    impl RustPassInfo {
        pub fn new(info: &'static PassInfo) -> Self {
            let (options, option_count) = leak(
                info.options
                    .iter()
                    .map(|option| {
                        let (kind, words): (i32, &[&'static str]) = match option.kind {
                            OptionKind::Bool => (0, &[]),
                            OptionKind::Int | OptionKind::IntIn(..) => (1, &[]),
                            OptionKind::Choice(words) => (2, words),
                        };
                        let (minimum, maximum) = match option.kind {
                            OptionKind::IntIn(minimum, maximum) => (minimum, maximum),
                            _ => (i64::MIN, i64::MAX),
                        };
                        let (choices, choice_count) =
                            leak(words.iter().map(|w| string(w)).collect());
                        RustOption {
                            name: string(option.name),
                            description: string(option.description),
                            kind,
                            choices,
                            choice_count,
                            minimum,
                            maximum,
                        }
                    })
                    .collect(),
            );
            let (dependent_dialects, dependent_dialect_count) = leak(
                (info.dependent_dialects)()
                    .into_iter()
                    .map(DialectHandle::to_raw)
                    .collect(),
            );
            Self {
                argument: string(info.argument),
                name: string(info.name),
                summary: string(info.summary),
                options,
                option_count,
                dependent_dialects,
                dependent_dialect_count,
                run: run_pass,
                pass: info as *const PassInfo as *const c_void,
                symbol_table_only: info.follows_calls,
            }
        }
    }

    unsafe extern "C" {
        pub fn apipeRegisterRustPass(info: *const RustPassInfo);
        pub fn apipeCreateRustPass(
            info: *const RustPassInfo,
            options: MlirStringRef,
            on_error: mlir_sys::MlirStringCallback,
            user_data: *mut c_void,
        ) -> mlir_sys::MlirPass;
    }
}
