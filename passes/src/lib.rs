//! Analyses and transformations on apipe IR, as passes that run inside
//! MLIR's `PassManager` (melior external passes), and the registry that
//! names them for the tools and for library users.
//!
//! - [`registry`]: every apipe pass by its MLIR-style name (`apipe-make-sync`),
//!   with its options; `create_pass("apipe-make-sync", "")` returns a
//!   `melior::pass::Pass`.
//! - [`pipeline`]: the textual pass pipeline grammar
//!   (`builtin.module(func.func(apipe-make-sync),canonicalize)`), parsed here
//!   because the MLIR C API has no registry for Rust passes; upstream
//!   segments are handed to MLIR.
//! - [`cp_async`]: the PTX `cp.async` rules an `apipe.copy` must follow.
//! - One module per pass ([`make_sync`], [`tokens_to_counting`],
//!   [`counting_to_tokens`], [`merge_queues`], [`software_pipeline`],
//!   [`check_hazards`]) and per
//!   shared analysis or utility ([`group_distance`], [`token_values`],
//!   [`trip_count`], [`workgroup_memory`]).
#![deny(missing_docs)]

pub mod access;
pub mod check_hazards;
pub mod counting_to_tokens;
pub mod cp_async;
mod error;
pub mod group_distance;
pub mod make_sync;
pub mod merge_queues;
pub mod options;
pub mod pass;
pub mod pipeline;
pub mod registry;
pub mod software_pipeline;
pub mod token_values;
pub mod tokens_to_counting;
pub mod trip_count;
pub mod workgroup_memory;

pub use error::Error;
pub use pass::{PassId, RunFn};
pub use registry::{create_pass, lookup, passes, register, PassInfo};
