//! The glue behind apipe's command-line tools (`apipe-opt`, `apipe-translate`,
//! `apipe-run`): reading and splitting inputs,
//! printing MLIR diagnostics as `mlir-opt` does, and checking
//! `expected-*` comments (`--verify-diagnostics`); and the fuzzer that
//! runs them (`apipe-fuzz`, [`fuzz`]).
#![deny(missing_docs)]

pub mod diagnostics;
mod error;
pub mod fuzz;
pub mod opt;
pub mod run;
pub mod source;
pub mod translate;
pub mod verify_diagnostics;

pub use error::Error;

use std::{process::ExitCode, sync::Once};

/// The Rust heap of every tool: mimalloc. The analyses build and drop many
/// small forms and constraint lists (about 6,000 allocations per checked
/// kernel); with glibc's malloc, allocation was a third of the hazard
/// checker's instructions. MLIR's own (C++) allocations are not affected.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Registers every pass the tools can run, once per process: upstream
/// MLIR's (for `--pass-pipeline` and the lowerings) and apipe's, the
/// lowering passes included. Registering instantiates every upstream pass,
/// so a process that runs the tools many times (the fuzzer's forked
/// children inherit the registrations) pays for it once.
pub fn register_passes() {
    static ONCE: Once = Once::new();
    // Upstream's passes are registered by apipe's registration, under the
    // lock that keeps MLIR's registry from being read while it is written.
    ONCE.call_once(apipe_lowering::register_passes);
}

/// MLIR's parser and verifier recurse once per nesting level; the tools run
/// on a thread with a stack this large (bytes) so deeply nested input is not
/// a stack overflow.
pub const STACK_BYTES: usize = 1 << 30;

/// Runs a tool's `main` with the process arguments on a thread with a
/// [`STACK_BYTES`] stack; a panic that escapes it exits with failure.
pub fn run_tool(main: fn(Vec<String>) -> ExitCode) -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(move || main(args))
        .map(|thread| thread.join().unwrap_or(ExitCode::FAILURE))
        .unwrap_or(ExitCode::FAILURE)
}

/// Parses a tool's command line with clap. `Err` holds the exit code after
/// clap has printed its message: success for `--help` / `--version`,
/// failure for a usage error.
pub fn parse_cli<C: clap::Parser>(
    args: impl IntoIterator<Item = impl Into<std::ffi::OsString> + Clone>,
) -> Result<C, ExitCode> {
    C::try_parse_from(args).map_err(|error| {
        let _ = error.print();
        match error.kind() {
            clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                ExitCode::SUCCESS
            }
            _ => ExitCode::FAILURE,
        }
    })
}
