//! `apipe-run`: runs a program with apipe ops on the CPU under a completion
//! policy. See `apipe_tools::run`.

fn main() -> std::process::ExitCode {
    apipe_tools::run_tool(apipe_tools::run::main)
}
