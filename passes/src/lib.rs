//! Analyses and transformations on apipe IR, as passes in MLIR's pass
//! registry (their bodies are Rust; see [`pass`]).
//!
//! - [`pass`]: the declaration of one pass ([`PassInfo`]) and its options
//!   as MLIR parsed them ([`PassOptions`]);
//! - [`registry`]: registration in MLIR's registry, creation by name, and
//!   textual pipelines (`builtin.module(func.func(apipe-make-sync),cse)`)
//!   parsed by MLIR;
//! - [`cp_async`]: the PTX `cp.async` rules an `apipe.copy` must follow;
//! - one module per pass ([`make_sync`], [`tokens_to_counting`],
//!   [`counting_to_tokens`], [`tokens_to_mbarrier`], [`select_sync`],
//!   [`merge_queues`], [`software_pipeline`], [`check_hazards`]) and per
//!   shared analysis or utility ([`access`], [`group_distance`],
//!   [`rewrite`], [`token_values`], [`trip_count`], [`workgroup_memory`]).
#![deny(missing_docs)]

pub mod access;
pub mod check_hazards;
pub mod counting_to_tokens;
pub mod cp_async;
mod error;
pub mod group_distance;
pub mod make_sync;
pub mod merge_queues;
pub mod pass;
pub mod registry;
pub mod rewrite;
pub mod select_sync;
pub mod software_pipeline;
pub mod token_values;
pub mod tokens_to_counting;
pub mod tokens_to_mbarrier;
pub mod trip_count;
pub mod workgroup_memory;

pub use error::Error;
pub use pass::{OptionInfo, OptionKind, PassInfo, PassOptions, RunFn};
pub use registry::{create_pass, lookup, passes, register, register_passes};
