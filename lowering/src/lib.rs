//! Lowering of apipe IR: to nvgpu / NVVM / LLVM IR / PTX (the GPU path) and to
//! calls into the CPU emulation runtime (`apipe-run`).
//!
//! The GPU path (docs/passes.md; `gpu_pipeline` and `ptx` need the default
//! feature `ptx`, which the plugin build turns off):
//! - [`import_nvgpu`] / [`to_nvgpu`]: interop with upstream `nvgpu` async
//!   copies (passes `apipe-import-nvgpu` / `apipe-to-nvgpu`);
//! - [`mbarrier_to_nvvm`]: the mbarrier form to NVVM mbarrier ops (pass
//!   `apipe-mbarrier-to-nvvm`);
//! - `gpu_pipeline`: apipe passes (`--sync=auto|counting|mbarrier`), then
//!   upstream MLIR lowering to the LLVM and NVVM dialects;
//! - `ptx`: LLVM IR and PTX through inkwell's NVPTX backend;
//! - [`ptxas`]: NVIDIA `ptxas` for cubins and resource usage;
//! - [`launch_bounds`]: the block and grid sizes kernels state, checked
//!   before lowering (both paths);
//! - [`module_scope`]: no op to run sits directly in a module's body
//!   (both paths).
//!
//! The CPU path (`apipe-run`):
//! - [`to_emulation`]: apipe ops → calls into the runtime (pass
//!   `apipe-to-emulation`), with [`emulation`]: GPU kernels → host
//!   functions run per GPU thread, run-time checks, race checker hooks;
//! - [`emulation_runtime`]: the runtime that keeps apipe's per-thread queue
//!   semantics (docs/semantics.md) with lazy / eager / random completion,
//!   runs kernel launches on fibers with schedules, and checks races.
//!
//! The lowering passes join the apipe pass registry through
//! [`register_passes`], which the tools call at start-up (as MLIR tools call
//! `registerAllPasses`).
#![deny(missing_docs)]

pub mod emulation;
pub mod emulation_runtime;
mod error;
#[cfg(feature = "ptx")]
pub mod gpu_pipeline;
pub mod import_nvgpu;
pub mod launch_bounds;
pub mod mbarrier_to_nvvm;
pub mod module_scope;
#[cfg(feature = "ptx")]
pub mod ptx;
pub mod ptxas;
pub mod switch_cases;
pub mod to_emulation;
pub mod to_nvgpu;
pub mod unlowered;

pub use error::Error;

/// Registers every apipe pass in MLIR's pass registry: the transforms of
/// `apipe-passes` and this crate's lowering passes (through
/// [`apipe_passes::registry`]). Idempotent.
pub fn register_passes() {
    apipe_passes::register_passes();
    apipe_passes::register(&[
        &import_nvgpu::INFO,
        &to_nvgpu::INFO,
        &mbarrier_to_nvvm::INFO,
        &to_emulation::INFO,
    ]);
}
