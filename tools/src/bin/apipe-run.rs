//! `apipe-run`: runs a program with apipe ops on the CPU under a completion
//! policy. See `apipe_tools::run`.

/// MLIR's parser and verifier recurse once per nesting level; run on a
/// thread with a large stack so deeply nested input is not a stack overflow.
const STACK_BYTES: usize = 1 << 30;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(move || apipe_tools::run::main(args))
        .expect("spawn the apipe-run thread")
        .join()
        .unwrap_or(std::process::ExitCode::FAILURE)
}
