//! The GPU lowering pipeline (DESIGN.md section 1; issue 5 "the lowering
//! pipeline"): apipe IR in counting or token form, inside a `gpu.module`, to
//! the LLVM and NVVM dialects, ready for [`crate::ptx`].
//!
//! Stages (each a `PassManager` run, timed apart for the benchmark):
//! 1. **apipe passes** on the whole module: `apipe-tokens-to-counting` (token
//!    form → counting form) and `apipe-merge-queues` (every queue onto the
//!    one hardware queue), each included when the pass registry has it (they
//!    live on other branches until the merge; without them `apipe-to-nvgpu`
//!    rejects token form and queues other than 0 with located errors); then
//!    `apipe-to-nvgpu` ([`crate::to_nvgpu`]);
//! 2. **upstream lowering** inside each `gpu.module`, upstream passes only:
//!    `convert-scf-to-cf`, `expand-strided-metadata`, `lower-affine`,
//!    `convert-nvgpu-to-nvvm` (`nvvm.cp.async.*`), `convert-gpu-to-nvvm`
//!    (`gpu.func` → `llvm.func` with `nvvm.kernel`, thread ids, barriers,
//!    workgroup memory as `addr_space = 3` globals; it also converts memref,
//!    cf and func, since `finalize-memref-to-llvm`, `convert-cf-to-llvm` and
//!    `convert-func-to-llvm` only run on `builtin.module`),
//!    `convert-arith-to-llvm`, `convert-index-to-llvm`, `convert-nvvm-to-llvm`,
//!    `reconcile-unrealized-casts`, then `canonicalize` and `cse`.
//!
//! Precondition: the module verifies. Postcondition: every `gpu.module` holds
//! only `llvm` and `nvvm` ops.

use crate::Error;
use apipe_passes::pipeline::{self, Element};
use melior::{
    ir::{operation::OperationLike, Module},
    pass::PassManager,
};
use std::time::{Duration, Instant};

/// The upstream passes of stage 2, nested under `gpu.module`.
pub const UPSTREAM_LOWERING: &str = "convert-scf-to-cf,expand-strided-metadata,lower-affine,\
convert-nvgpu-to-nvvm,convert-gpu-to-nvvm,convert-arith-to-llvm,convert-index-to-llvm,\
convert-nvvm-to-llvm,\
reconcile-unrealized-casts,canonicalize,cse";

/// The apipe passes of stage 1, in order. `apipe-tokens-to-counting` and
/// `apipe-merge-queues` are included only when registered (see the module
/// doc).
pub fn apipe_passes() -> Vec<&'static str> {
    let mut passes = Vec::new();
    // Included when the branches that define them are merged (issue 4).
    for optional in ["apipe-tokens-to-counting", "apipe-merge-queues"] {
        if apipe_passes::lookup(optional).is_some() {
            passes.push(optional);
        }
    }
    passes.push("apipe-to-nvgpu");
    passes
}

/// The whole pipeline as one textual pipeline, for `apipe-opt
/// --pass-pipeline=...`.
pub fn pipeline_text() -> String {
    format!(
        "builtin.module({},gpu.module({UPSTREAM_LOWERING}))",
        apipe_passes().join(",")
    )
}

/// Wall time of the stages.
#[derive(Clone, Copy, Debug, Default)]
pub struct StageTimes {
    /// Stage 1: apipe passes.
    pub apipe: Duration,
    /// Stage 2: upstream MLIR lowering.
    pub upstream: Duration,
    /// LLVM: translation to LLVM IR, O3 and PTX emission ([`crate::ptx`]).
    pub codegen: Duration,
}

fn run_stage(
    module: &mut Module,
    elements: &[Element],
    stage: &'static str,
) -> Result<Duration, Error> {
    let context_ref = module.context();
    // SAFETY: bound first (TOOLCHAIN.md); the module keeps it alive.
    let context = unsafe { context_ref.to_ref() };
    let manager = PassManager::new(context);
    pipeline::add_elements(manager.as_operation_pass_manager(), elements)
        .map_err(|e| Error::Pipeline(e.to_string()))?;
    let start = Instant::now();
    let result = manager.run(module);
    let elapsed = start.elapsed();
    result.map_err(|_| Error::Reported { stage })?;
    if !module.as_operation().verify() {
        return Err(Error::Reported { stage });
    }
    Ok(elapsed)
}

/// Runs stages 1 and 2 on `module` and records their times in `times`.
///
/// # Errors
/// [`Error::NoGpuModule`] before any change; [`Error::Reported`] when a pass
/// fails (its diagnostics were emitted through the context).
pub fn lower_to_nvvm(module: &mut Module, times: &mut StageTimes) -> Result<(), Error> {
    if crate::ptx::gpu_modules(module).is_empty() {
        return Err(Error::NoGpuModule);
    }
    melior::utility::register_all_passes();
    apipe_passes_registered();
    let stage1: Vec<Element> = apipe_passes()
        .into_iter()
        .map(|name| Element::Pass {
            name: name.into(),
            options: String::new(),
        })
        .collect();
    times.apipe = run_stage(module, &stage1, "apipe passes")?;
    let stage2 = vec![Element::Nested {
        anchor: "gpu.module".into(),
        elements: pipeline::parse_elements(UPSTREAM_LOWERING)
            .map_err(|e| Error::Pipeline(e.to_string()))?,
    }];
    times.upstream = run_stage(module, &stage2, "upstream lowering")?;
    Ok(())
}

fn apipe_passes_registered() {
    crate::register_passes();
}
