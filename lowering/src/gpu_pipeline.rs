//! The GPU lowering pipeline: apipe IR in counting, token or mbarrier form,
//! inside a `gpu.module`, to the LLVM and NVVM dialects, ready for
//! [`crate::ptx`].
//!
//! Stages (each a `PassManager` run, timed apart for the benchmark):
//! 1. **apipe passes** on the whole module, by [`SyncForm`]:
//!    - `counting`: `apipe-tokens-to-counting` (token form → counting form,
//!      the minimum count where paths disagree) and `apipe-merge-queues`
//!      (every queue onto the one hardware queue); then `apipe-to-nvgpu`
//!      ([`crate::to_nvgpu`]: `cp.async`, commit groups, `wait_group N`)
//!      and `apipe-mbarrier-to-nvvm` for the mbarrier ops the input already
//!      has (a kernel written in the mbarrier form: there is no counting
//!      form to convert them to);
//!    - `mbarrier`: `apipe-counting-to-tokens`, `apipe-tokens-to-mbarrier`
//!      (each group a slot and phase of a ring of mbarriers), then
//!      `apipe-to-nvgpu` (the copies) and `apipe-mbarrier-to-nvvm`
//!      ([`crate::mbarrier_to_nvvm`]: `mbarrier.init`,
//!      `cp.async.mbarrier.arrive.noinc`, `try_wait.parity` on sm_90, a
//!      `test_wait.parity` loop before);
//!    - `auto` (the default): `apipe-select-sync` first (each token-form
//!      function whose counts would not all be exact goes to the mbarrier
//!      form), then the passes of `counting` for the rest, and
//!      `apipe-mbarrier-to-nvvm`;
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
use apipe_dialect::ops::Checked as _;
use apipe_passes::registry;
use melior::ir::{operation::OperationLike, Module, ValueLike};
use std::time::{Duration, Instant};

/// The upstream passes of stage 2, nested under `gpu.module`. Vector
/// transfers (`vector.transfer_read` / `transfer_write`, which
/// `convert-gpu-to-nvvm` does not lower) become loops of 1-D transfers
/// (`convert-vector-to-scf`, fully unrolled), then loads and stores
/// (`convert-vector-to-llvm`), before the GPU conversions.
pub const UPSTREAM_LOWERING: &str = "convert-vector-to-scf{full-unroll=true},\
convert-scf-to-cf,expand-strided-metadata,lower-affine,convert-vector-to-llvm,\
convert-nvgpu-to-nvvm,convert-gpu-to-nvvm,convert-arith-to-llvm,convert-index-to-llvm,\
convert-nvvm-to-llvm,\
reconcile-unrealized-casts,canonicalize,cse";

/// The form of synchronization the lowering emits (`--sync` of
/// `apipe-translate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SyncForm {
    /// Counting form wherever every count is exact, else the mbarrier form.
    #[default]
    Auto,
    /// Counting form (`cp.async.wait_group N`) everywhere.
    Counting,
    /// The mbarrier form everywhere.
    Mbarrier,
}

impl SyncForm {
    /// Parses `auto`, `counting` or `mbarrier`.
    ///
    /// # Errors
    /// A message naming the accepted words.
    pub fn parse(text: &str) -> Result<Self, String> {
        match text {
            "auto" => Ok(SyncForm::Auto),
            "counting" => Ok(SyncForm::Counting),
            "mbarrier" => Ok(SyncForm::Mbarrier),
            _ => Err(format!(
                "--sync={text}: expected auto, counting or mbarrier"
            )),
        }
    }
}

/// What stage 1 needs to know: the form and the architecture number (80,
/// 86, 89 or 90; the mbarrier waits differ before sm_90).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The form of synchronization.
    pub sync: SyncForm,
    /// The architecture number.
    pub sm: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            sync: SyncForm::Auto,
            sm: 80,
        }
    }
}

/// The apipe passes of stage 1, in order, each with its options text.
pub fn apipe_passes(options: Options) -> Vec<(&'static str, String)> {
    let plain = |name| (name, String::new());
    let to_nvvm = ("apipe-mbarrier-to-nvvm", format!("sm={}", options.sm));
    match options.sync {
        SyncForm::Counting => vec![
            plain("apipe-tokens-to-counting"),
            plain("apipe-merge-queues"),
            plain("apipe-to-nvgpu"),
            to_nvvm,
        ],
        SyncForm::Mbarrier => vec![
            plain("apipe-counting-to-tokens"),
            plain("apipe-tokens-to-mbarrier"),
            plain("apipe-to-nvgpu"),
            to_nvvm,
        ],
        SyncForm::Auto => vec![
            plain("apipe-select-sync"),
            plain("apipe-tokens-to-counting"),
            plain("apipe-merge-queues"),
            plain("apipe-to-nvgpu"),
            to_nvvm,
        ],
    }
}

/// The whole pipeline as one textual pipeline, for `apipe-opt
/// --pass-pipeline=...`.
pub fn pipeline_text(options: Options) -> String {
    format!(
        "builtin.module({},gpu.module({UPSTREAM_LOWERING}))",
        pass_list(options)
    )
}

/// The passes of stage 1 as a comma-separated pipeline (`name{options}`).
fn pass_list(options: Options) -> String {
    let passes: Vec<String> = apipe_passes(options)
        .into_iter()
        .map(|(name, text)| {
            if text.is_empty() {
                name.to_string()
            } else {
                format!("{name}{{{text}}}")
            }
        })
        .collect();
    passes.join(",")
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

fn run_stage(module: &mut Module, pipeline: &str, stage: &'static str) -> Result<Duration, Error> {
    let context_ref = module.context();
    // SAFETY: `context_ref` is bound first (a temporary would dangle); the
    // module keeps the context alive.
    let context = unsafe { context_ref.to_ref() };
    let manager = registry::module_pass_manager(context);
    registry::parse_pipeline(&manager, pipeline).map_err(|e| Error::Pipeline(e.to_string()))?;
    let start = Instant::now();
    let result = manager.run(module);
    let elapsed = start.elapsed();
    result.map_err(|_| Error::Reported { stage })?;
    if !module.as_operation().verify() {
        return Err(Error::Reported { stage });
    }
    Ok(elapsed)
}

/// Whether stage 1 left mbarrier objects in `module` (after
/// [`lower_to_nvvm`]: NVVM mbarrier ops), which need PTX ISA 7.1 on sm_80
/// (`mbarrier.test_wait.parity`).
pub fn uses_mbarriers(module: &Module) -> bool {
    apipe_dialect::ops::nested_ops(&module.as_operation())
        .iter()
        .any(|op| {
            let name = apipe_dialect::ops::name(op);
            name.starts_with("nvvm.mbarrier.")
                || name == "nvvm.cp.async.mbarrier.arrive"
                || name.starts_with("apipe.mbarrier_")
        })
}

/// Whether stage 1 left bulk copies in `module` (after [`lower_to_nvvm`]:
/// `nvvm.cp.async.bulk.*`, `nvvm.mbarrier.expect_tx`), which need PTX ISA
/// 8.0.
pub fn uses_bulk_copies(module: &Module) -> bool {
    apipe_dialect::ops::nested_ops(&module.as_operation())
        .iter()
        .any(|op| {
            let name = apipe_dialect::ops::name(op);
            name.starts_with("nvvm.cp.async.bulk")
                || name == "nvvm.mbarrier.expect_tx"
                || name == apipe_dialect::ops::BULK_COPY
                || name == apipe_dialect::ops::MBARRIER_EXPECT_TX
        })
}

/// Refuses, with a located error and before any change, the ops that stage
/// 2 would lower to invalid LLVM IR: `vector.expandload` and
/// `vector.compressstore` on a memref in a memory space other than the
/// default. `convert-vector-to-llvm` calls `llvm.masked.expandload` /
/// `compressstore` with that space's pointer, but declares them with a
/// generic one, which LLVM's verifier rejects without a location. And
/// `vector.print` in a `gpu.module`: `convert-vector-to-llvm` calls the CPU
/// runner's print functions (`printF32`, `printString`, …), which no GPU
/// has, and refers to its string globals from the host module, which the
/// verifier rejects inside the `gpu.module` with an internal message.
///
/// # Errors
/// [`Error::Reported`] after emitting an error at each such op.
fn refuse_unlowerable_vector_ops(module: &Module) -> Result<(), Error> {
    let mut ok = true;
    for gpu_module in crate::ptx::gpu_modules(module) {
        for op in apipe_dialect::ops::nested_ops(&gpu_module) {
            if apipe_dialect::ops::is(&op, "vector.print") {
                apipe_dialect::diagnostic::error(
                    op.location(),
                    "'vector.print' op in a kernel is not lowered to PTX: it calls the CPU \
                     runner's print functions, which the GPU does not have (print with \
                     gpu.printf on the GPU; apipe-run emulates vector.print in kernels, not \
                     gpu.printf)",
                );
                ok = false;
            }
        }
    }
    for op in apipe_dialect::ops::nested_ops(&module.as_operation()) {
        let name = apipe_dialect::ops::name(&op);
        if !matches!(name, "vector.expandload" | "vector.compressstore") {
            continue;
        }
        // The base memref is operand 0 of both.
        let space = op
            .operand_at(0)
            .and_then(|v| melior::ir::r#type::MemRefType::try_from(v.r#type()).ok())
            .and_then(|t| t.memory_space());
        if let Some(space) = space {
            apipe_dialect::diagnostic::error(
                op.location(),
                &format!(
                    "'{name}' op on a memref in memory space {space} is not lowered: \
                     convert-vector-to-llvm declares llvm.masked.{} with a generic pointer \
                     (use vector.maskedload / maskedstore, or a memref in the default space)",
                    &name["vector.".len()..]
                ),
            );
            ok = false;
        }
    }
    if ok {
        Ok(())
    } else {
        Err(Error::Reported {
            stage: "apipe passes",
        })
    }
}

/// Runs stages 1 and 2 on `module` with `options` and records their times
/// in `times`.
///
/// # Errors
/// [`Error::NoGpuModule`] before any change; [`Error::Reported`] when a pass
/// fails (its diagnostics were emitted through the context).
pub fn lower_to_nvvm(
    module: &mut Module,
    options: Options,
    times: &mut StageTimes,
) -> Result<(), Error> {
    if crate::ptx::gpu_modules(module).is_empty() {
        return Err(Error::NoGpuModule);
    }
    refuse_unlowerable_vector_ops(module)?;
    // Upstream's passes and apipe's, registered under one lock.
    crate::register_passes();
    let stage1 = format!("builtin.module({})", pass_list(options));
    times.apipe = run_stage(module, &stage1, "apipe passes")?;
    let stage2 = format!("builtin.module(gpu.module({UPSTREAM_LOWERING}))");
    times.upstream = run_stage(module, &stage2, "upstream lowering")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx;
    use melior::ir::Module;

    const KERNEL: &str = r#"
gpu.module @kernels {
  gpu.func @k(%src: memref<1024xf32>) workgroup(%buf: memref<2x512xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    apipe.copy %src[%lane], %buf[%c0, %lane], 4 {bypass_l1} : memref<1024xf32> to memref<2x512xf32, 3>
    apipe.commit_group
    apipe.copy %src[%lane], %buf[%c1, %lane], 2 : memref<1024xf32> to memref<2x512xf32, 3>
    apipe.commit_group
    apipe.wait_group 1
    gpu.barrier
    apipe.wait_group 0
    gpu.return
  }
}
"#;

    #[test]
    fn pipeline_ends_with_the_export_and_nests_upstream_under_gpu_module() {
        crate::register_passes();
        let passes = apipe_passes(Options {
            sync: SyncForm::Counting,
            sm: 80,
        });
        // The export, then the lowering of the mbarrier ops the input
        // already has (every form).
        let names: Vec<&str> = passes.iter().map(|p| p.0).collect();
        assert_eq!(
            names[names.len() - 2..],
            ["apipe-to-nvgpu", "apipe-mbarrier-to-nvvm"]
        );
        let text = pipeline_text(Options::default());
        assert!(text.contains("apipe-select-sync,"), "{text}");
        assert!(text.contains("apipe-mbarrier-to-nvvm{sm=80}"), "{text}");
        assert!(text.starts_with("builtin.module("));
        assert!(
            text.contains(",gpu.module(convert-vector-to-scf{full-unroll=true},convert-scf-to-cf,")
        );
        assert!(text.ends_with("reconcile-unrealized-casts,canonicalize,cse))"));
    }

    #[test]
    fn lowers_to_ptx_for_sm80_and_sm90() {
        let context = apipe_dialect::create_context().unwrap();
        for (sm, version, target) in [
            ("80", ".version 7.0", ".target sm_80"),
            ("90", ".version 7.8", ".target sm_90"),
        ] {
            let mut module = Module::parse(&context, KERNEL).unwrap();
            let mut times = StageTimes::default();
            lower_to_nvvm(&mut module, Options::default(), &mut times).unwrap();
            let gpu_module = ptx::gpu_modules(&module)[0];
            let llvm = inkwell::context::Context::create();
            let llvm_module = ptx::translate(&gpu_module, &llvm).unwrap();
            let sm = ptx::Sm::parse(sm).unwrap().unwrap();
            let machine = ptx::target_machine(sm, sm.min_ptx()).unwrap();
            ptx::optimize(&llvm_module, &machine).unwrap();
            let text = ptx::emit_ptx(&llvm_module, &machine).unwrap();
            assert!(text.contains(version) && text.contains(target), "{text}");
            let lines: Vec<&str> = text
                .lines()
                .map(str::trim)
                .filter(|l| l.starts_with("cp.async") || l.starts_with("bar.sync"))
                .collect();
            assert_eq!(lines.len(), 7, "{lines:?}");
            assert!(
                lines[0].starts_with("cp.async.cg.shared.global") && lines[0].ends_with(", 16;")
            );
            assert_eq!(lines[1], "cp.async.commit_group;");
            assert!(
                lines[2].starts_with("cp.async.ca.shared.global") && lines[2].ends_with(", 8;")
            );
            assert_eq!(lines[3], "cp.async.commit_group;");
            assert_eq!(
                lines[4].split_whitespace().collect::<Vec<_>>(),
                ["cp.async.wait_group", "1;"]
            );
            assert_eq!(
                lines[5].split_whitespace().collect::<Vec<_>>(),
                ["bar.sync", "0;"]
            );
            assert_eq!(
                lines[6].split_whitespace().collect::<Vec<_>>(),
                ["cp.async.wait_group", "0;"]
            );
        }
    }

    #[test]
    fn a_module_without_gpu_module_is_an_error_before_any_change() {
        let context = apipe_dialect::create_context().unwrap();
        let mut module = Module::parse(&context, "func.func @f() { return }").unwrap();
        let before = module.as_operation().to_string();
        let error =
            lower_to_nvvm(&mut module, Options::default(), &mut StageTimes::default()).unwrap_err();
        assert!(matches!(error, Error::NoGpuModule));
        assert_eq!(module.as_operation().to_string(), before);
    }
}
