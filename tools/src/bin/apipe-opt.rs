//! `apipe-opt`: parse, verify, run passes (apipe and upstream), print.
//! See `apipe_tools::opt`.

fn main() -> std::process::ExitCode {
    apipe_tools::run_tool(apipe_tools::opt::main)
}
