//! `apipe-translate`: apipe IR to LLVM IR, PTX or a cubin. See
//! `apipe_tools::translate`.

fn main() -> std::process::ExitCode {
    apipe_tools::run_tool(apipe_tools::translate::main)
}
