//! Runs the lit suite under `test/` (LLVM `lit` with `FileCheck`) against the
//! tools this package builds, prints lit's summary, and fails if lit fails.

use std::{io::Write, path::Path, process::Command};

#[test]
fn lit_suite() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_apipe-opt")).parent().unwrap();
    let llvm_bin =
        std::env::var("APIPE_LLVM_BIN").unwrap_or_else(|_| "/usr/lib/llvm-22/bin".into());
    let lit = Path::new(&llvm_bin).join("lit");
    assert!(
        lit.exists(),
        "{} not found: run scripts/setup.sh",
        lit.display()
    );
    // A fresh output tree each run: a file left by an earlier run must never
    // let a test pass (e.g. an `-o` file the tool should not have written).
    let lit_out = repo.join("target").join("lit");
    let _ = std::fs::remove_dir_all(&lit_out);
    let output = Command::new(&lit)
        .arg("-v")
        .arg("--order=lexical")
        .arg(repo.join("test"))
        .env("APIPE_BIN_DIR", bin_dir)
        .env("APIPE_LIT_OUT", &lit_out)
        .output()
        .expect("run lit");
    // Written to the process's stderr directly (not `eprint!`, which the
    // test harness captures), so lit's summary shows in every `cargo test`.
    let mut stderr = std::io::stderr();
    let _ = stderr.write_all(&output.stdout);
    let _ = stderr.write_all(&output.stderr);
    assert!(output.status.success(), "lit failed: {}", output.status);
}
