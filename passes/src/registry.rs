//! The registry of apipe passes: one table that the tools (`apipe-opt`
//! flags and `--pass-pipeline`) and library users read.
//!
//! Names follow MLIR: the flag/pipeline argument is kebab-case with the
//! dialect prefix (`apipe-make-sync`); each pass module also exports a
//! `create_<name>_pass()` constructor.
//!
//! Like MLIR's global pass registry (`mlir::registerPass`), crates that sit
//! above this one (the lowering passes in `apipe-lowering`) add their passes
//! with [`register`] at start-up; the table here lists the transforms of this
//! crate.

use crate::{
    check_hazards, counting_to_tokens, make_sync, merge_queues,
    options::{OptionInfo, PassOptions},
    pass::{ApipePass, PassId, RunFn},
    select_sync, software_pipeline, tokens_to_counting, tokens_to_mbarrier, Error,
};
use std::sync::RwLock;

use melior::{
    dialect::DialectHandle,
    ir::r#type::TypeId,
    pass::{create_external, Pass},
};

/// The description of one apipe pass.
pub struct PassInfo {
    /// The pipeline/flag name, e.g. `apipe-make-sync`.
    pub argument: &'static str,
    /// The pass class name, e.g. `ApipeMakeSync` (shown by
    /// `--mlir-print-ir-after-all` and `--mlir-timing`).
    pub name: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    /// The declared options.
    pub options: &'static [OptionInfo],
    /// The pass body.
    pub run: RunFn,
    /// The address that makes the pass's MLIR `TypeID`; one `static` per pass.
    pub id: &'static PassId,
    /// The dialects whose ops the pass creates; MLIR loads them before the
    /// pass runs (`getDependentDialects`).
    pub dependent_dialects: fn() -> Vec<DialectHandle>,
}

impl PassInfo {
    /// Creates an instance with `options` in MLIR syntax (the inside of
    /// `{...}`; empty for the defaults). The pass runs on any op
    /// (op-agnostic), like most MLIR transforms, so it can be nested under
    /// `builtin.module`, `func.func` or `gpu.module`.
    ///
    /// # Errors
    /// A bad option name or value ([`Error::UnknownOption`],
    /// [`Error::InvalidOptionValue`], [`Error::Pipeline`]).
    pub fn create(&'static self, options: &str) -> Result<Pass, Error> {
        let options = PassOptions::parse(self.argument, self.options, options)?;
        Ok(create_external(
            ApipePass {
                info: self,
                options,
            },
            TypeId::create(self.id),
            self.name,
            self.argument,
            self.summary,
            "",
            &(self.dependent_dialects)(),
        ))
    }
}

/// The passes of this crate, in `--help` order.
const BUILTIN: &[&PassInfo] = &[
    &make_sync::INFO,
    &counting_to_tokens::INFO,
    &tokens_to_counting::INFO,
    &tokens_to_mbarrier::INFO,
    &select_sync::INFO,
    &merge_queues::INFO,
    &software_pipeline::INFO,
    &check_hazards::INFO,
];

/// Passes added by [`register`].
static REGISTERED: RwLock<Vec<&'static PassInfo>> = RwLock::new(Vec::new());

/// Adds `infos` to the registry (idempotent: a pass whose argument is already
/// registered is skipped), as `mlir::registerPass` does for C++ passes.
pub fn register(infos: &[&'static PassInfo]) {
    let mut registered = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    for &info in infos {
        if lookup_in(BUILTIN, info.argument).is_none()
            && lookup_in(&registered, info.argument).is_none()
        {
            registered.push(info);
        }
    }
}

/// Every apipe pass: this crate's, then the registered ones, in `--help`
/// order.
pub fn passes() -> Vec<&'static PassInfo> {
    let registered = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    BUILTIN.iter().chain(registered.iter()).copied().collect()
}

fn lookup_in(infos: &[&'static PassInfo], argument: &str) -> Option<&'static PassInfo> {
    infos.iter().copied().find(|info| info.argument == argument)
}

/// The apipe pass named `argument`, if any.
pub fn lookup(argument: &str) -> Option<&'static PassInfo> {
    lookup_in(&passes(), argument)
}

/// Creates the apipe pass named `argument` with `options` (MLIR syntax).
///
/// # Errors
/// [`Error::UnknownPass`] if no apipe pass has that name, or an option error.
pub fn create_pass(argument: &str, options: &str) -> Result<Pass, Error> {
    lookup(argument)
        .ok_or_else(|| Error::UnknownPass(argument.into()))?
        .create(options)
}
