//! The glue behind apipe's command-line tools (`apipe-opt`, `apipe-translate`,
//! `apipe-run`): reading and splitting inputs,
//! printing MLIR diagnostics as `mlir-opt` does, and checking
//! `expected-*` comments (`--verify-diagnostics`).
#![deny(missing_docs)]

pub mod diagnostics;
pub mod opt;
pub mod run;
pub mod source;
pub mod translate;
pub mod verify_diagnostics;
