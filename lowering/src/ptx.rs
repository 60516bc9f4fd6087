//! LLVM IR and PTX through inkwell (the GPU path of
//! `apipe-translate`).
//!
//! 1. [`check_sm`]: `cp.async` needs sm_80 or newer (PTX ISA 9.7.9.25.3,
//!    "Target ISA notes"); an older `--sm` is a located error at the first
//!    copy, before anything is lowered;
//! 2. [`translate`]: the lowered `gpu.module` goes to LLVM IR in memory
//!    (`mlirTranslateModuleToLLVMIR` into inkwell's `LLVMContext`: no text);
//! 3. [`emit_ptx`]: set the `nvptx64-nvidia-cuda` triple and the target
//!    machine's data layout, build the machine for the sm with its PTX
//!    version (default: the lowest that sm supports, [`Sm::min_ptx`]), run
//!    LLVM's `default<O3>` pipeline, and print PTX.

use crate::Error;
use apipe_dialect::{diagnostic, ops};
use inkwell::{
    context::Context as LlvmContext,
    module::Module as LlvmModule,
    passes::PassBuilderOptions,
    targets::{
        CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple,
    },
    OptimizationLevel,
};
use melior::ir::{operation::OperationLike, Module, OperationRef};

/// The NVPTX triple.
pub const TRIPLE: &str = "nvptx64-nvidia-cuda";

/// A supported GPU architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sm {
    /// The number: 80, 86, 89 or 90.
    pub number: u32,
    /// The architecture-specific variant (`sm_90a`).
    pub arch_specific: bool,
}

impl Sm {
    /// The architectures apipe emits PTX for.
    pub const SUPPORTED: &'static [&'static str] = &["80", "86", "89", "90", "90a"];

    /// Parses `80`, `sm_80`, `90a`, `sm_90a`. `Ok(Err(n))` is a well-formed
    /// number below 80 (reported at the IR by [`check_sm`]).
    ///
    /// # Errors
    /// [`Error::Target`] for anything else.
    pub fn parse(text: &str) -> Result<Result<Sm, u32>, Error> {
        let body = text.trim_start_matches("sm_");
        let (digits, arch_specific) = match body.strip_suffix('a') {
            Some(d) => (d, true),
            None => (body, false),
        };
        let unsupported = || {
            Error::Target(format!(
                "unsupported --sm '{text}'; expected one of {}",
                Self::SUPPORTED.join(", ")
            ))
        };
        let number: u32 = digits.parse().map_err(|_| unsupported())?;
        if number < 80 && !arch_specific {
            return Ok(Err(number));
        }
        if !Self::SUPPORTED.contains(&body) {
            return Err(unsupported());
        }
        Ok(Ok(Sm {
            number,
            arch_specific,
        }))
    }

    /// `sm_80`, `sm_90a`.
    pub fn name(&self) -> String {
        format!(
            "sm_{}{}",
            self.number,
            if self.arch_specific { "a" } else { "" }
        )
    }

    /// The lowest PTX ISA version (×10) that supports this sm (PTX ISA,
    /// "Release notes"): sm_80 7.0, sm_86 7.1, sm_89 and sm_90 7.8, sm_90a 8.0.
    pub fn min_ptx(&self) -> u32 {
        match (self.number, self.arch_specific) {
            (80, _) => 70,
            (86, _) => 71,
            (89, _) | (90, false) => 78,
            _ => 80,
        }
    }
}

/// The PTX ISA versions (×10) that LLVM 22's NVPTX backend knows: its
/// `ptxNN` subtarget features. Source: `/usr/lib/llvm-22/bin/llc
/// -march=nvptx64 -mattr=help` (Debian LLVM 22.1.8), which lists `ptx32`
/// through `ptx90` (no `ptx79`, `ptx89`); LLVM ignores any other `+ptxNN`
/// with only a warning and falls back to its default version, so a value
/// outside this table is an error.
pub const LLVM_PTX_VERSIONS: &[u32] = &[
    32, 40, 41, 42, 43, 50, 60, 61, 62, 63, 64, 65, 70, 71, 72, 73, 74, 75, 76, 77, 78, 80, 81, 82,
    83, 84, 85, 86, 87, 88, 90,
];

/// The PTX version to use: `requested` (×10, e.g. 80 for 8.0) or the
/// lowest the sm supports.
///
/// # Errors
/// [`Error::Target`] if `requested` is below what the sm needs or not a
/// version LLVM knows ([`LLVM_PTX_VERSIONS`]).
pub fn ptx_version(sm: Sm, requested: Option<u32>) -> Result<u32, Error> {
    match requested {
        None => Ok(sm.min_ptx()),
        Some(v) if v < sm.min_ptx() => Err(Error::Target(format!(
            "--ptx={v} is too old for {}: it needs PTX ISA {}.{} or newer",
            sm.name(),
            sm.min_ptx() / 10,
            sm.min_ptx() % 10
        ))),
        Some(v) if LLVM_PTX_VERSIONS.contains(&v) => Ok(v),
        Some(v) => Err(Error::Target(format!(
            "unsupported --ptx '{v}'; for {} expected one of {} (the PTX ISA versions LLVM 22 knows)",
            sm.name(),
            LLVM_PTX_VERSIONS
                .iter()
                .filter(|known| **known >= sm.min_ptx())
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The `gpu.module` ops directly in `module`'s body.
pub fn gpu_modules<'c, 'a>(module: &'a Module<'c>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    let mut next = melior::ir::BlockLike::first_operation(&module.body());
    while let Some(op) = next {
        if op.name().as_string_ref().as_str() == Ok("gpu.module") {
            out.push(op);
        }
        next = op.next_in_block();
    }
    out
}

/// Step 1: reports `--sm=sm_<number>` (below 80) at the first async copy
/// (or the first `gpu.module`). Always returns `Err` after reporting.
pub fn check_sm(module: &Module, number: u32) -> Result<(), apipe_dialect::Reported> {
    let at = ops::nested_ops(&module.as_operation())
        .iter()
        .find(|op| ops::is(*op, ops::COPY) || ops::is(*op, crate::to_nvgpu::nvgpu::COPY))
        .map(|op| op.location())
        .or_else(|| gpu_modules(module).first().map(|op| op.location()))
        .unwrap_or_else(|| module.as_operation().location());
    diagnostic::error(
        at,
        &format!("cp.async needs sm_80 or newer; --sm is sm_{number}"),
    );
    Err(apipe_dialect::Reported)
}

/// Step 2: the lowered `gpu_module` as an LLVM module in `llvm`.
///
/// # Errors
/// [`Error::Reported`] after a located error at each op left outside the
/// LLVM dialects ([`crate::unlowered`]); [`Error::Translation`].
pub fn translate<'l>(
    gpu_module: &OperationRef,
    llvm: &'l LlvmContext,
) -> Result<LlvmModule<'l>, Error> {
    crate::unlowered::refuse_unlowered(gpu_module).map_err(|_| Error::Reported {
        stage: "lowering to the LLVM dialect",
    })?;
    // SAFETY: the op is live; the returned module belongs to `llvm`, whose
    // raw handle is the same `LLVMContextRef` type on both sides.
    let raw = unsafe {
        mlir_sys::mlirTranslateModuleToLLVMIR(
            gpu_module.to_raw(),
            llvm.raw() as mlir_sys::LLVMContextRef,
        )
    };
    if raw.is_null() {
        return Err(Error::Translation);
    }
    // SAFETY: `raw` is a fresh module owned by `llvm`; inkwell takes it.
    Ok(unsafe { LlvmModule::new(raw as inkwell::llvm_sys::prelude::LLVMModuleRef) })
}

/// The target machine for `sm` with PTX version `ptx` (×10).
///
/// # Errors
/// [`Error::Llvm`] if LLVM lacks the NVPTX target.
pub fn target_machine(sm: Sm, ptx: u32) -> Result<TargetMachine, Error> {
    Target::initialize_nvptx(&InitializationConfig::default());
    let triple = TargetTriple::create(TRIPLE);
    let target = Target::from_triple(&triple).map_err(|e| Error::Llvm(e.to_string()))?;
    target
        .create_target_machine(
            &triple,
            &sm.name(),
            &format!("+ptx{ptx}"),
            OptimizationLevel::Aggressive,
            RelocMode::Default,
            CodeModel::Default,
        )
        .ok_or_else(|| Error::Llvm(format!("cannot create a target machine for {}", sm.name())))
}

/// Step 3 up to O3: sets triple and data layout and optimizes `module` in
/// place.
///
/// # Errors
/// [`Error::Llvm`].
pub fn optimize(module: &LlvmModule, machine: &TargetMachine) -> Result<(), Error> {
    module.set_triple(&TargetTriple::create(TRIPLE));
    module.set_data_layout(&machine.get_target_data().get_data_layout());
    module
        .verify()
        .map_err(|e| Error::Llvm(format!("invalid LLVM IR: {e}")))?;
    module
        .run_passes("default<O3>", machine, PassBuilderOptions::create())
        .map_err(|e| Error::Llvm(e.to_string()))
}

/// Step 3: PTX text for `module` (optimized with [`optimize`] first).
///
/// # Errors
/// [`Error::Llvm`].
pub fn emit_ptx(module: &LlvmModule, machine: &TargetMachine) -> Result<String, Error> {
    let buffer = machine
        .write_to_memory_buffer(module, FileType::Assembly)
        .map_err(|e| Error::Llvm(e.to_string()))?;
    Ok(String::from_utf8_lossy(buffer.as_slice()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sms_and_picks_the_lowest_ptx() {
        let sm = |t: &str| Sm::parse(t).unwrap().unwrap();
        assert_eq!(sm("80").name(), "sm_80");
        assert_eq!(sm("sm_90a").name(), "sm_90a");
        assert_eq!(sm("80").min_ptx(), 70);
        assert_eq!(sm("86").min_ptx(), 71);
        assert_eq!(sm("89").min_ptx(), 78);
        assert_eq!(sm("90").min_ptx(), 78);
        assert_eq!(sm("90a").min_ptx(), 80);
        assert_eq!(Sm::parse("75").unwrap(), Err(75));
        assert!(Sm::parse("100").is_err());
        assert!(Sm::parse("x").is_err());
        assert_eq!(ptx_version(sm("80"), Some(80)).unwrap(), 80);
        assert!(ptx_version(sm("90"), Some(70)).is_err());
        for unknown in [79, 89, 91, 100] {
            assert!(ptx_version(sm("80"), Some(unknown)).is_err(), "{unknown}");
        }
        assert_eq!(ptx_version(sm("80"), Some(88)).unwrap(), 88);
        assert_eq!(ptx_version(sm("90"), Some(90)).unwrap(), 90);
    }
}
