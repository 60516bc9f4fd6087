//! Lowering of apipe IR: to nvgpu / NVVM / LLVM IR / PTX (the GPU path) and to
//! calls into the CPU emulation runtime (`apipe-run`).
//!
//! The lowering passes join the apipe pass registry through
//! [`register_passes`], which the tools call at start-up (as MLIR tools call
//! `registerAllPasses`).
#![deny(missing_docs)]

pub mod emulation_runtime;
pub mod to_emulation;

/// Adds this crate's passes to [`apipe_passes::registry`]. Idempotent.
pub fn register_passes() {
    apipe_passes::register(&[&to_emulation::INFO]);
}
