//! `apipe-translate`: apipe IR to LLVM IR, PTX or a cubin. See
//! `apipe_tools::translate`.

/// MLIR's parser and verifier recurse once per nesting level (as apipe-opt).
const STACK_BYTES: usize = 1 << 30;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(move || apipe_tools::translate::main(args))
        .expect("spawn the apipe-translate thread")
        .join()
        .unwrap_or(std::process::ExitCode::FAILURE)
}
