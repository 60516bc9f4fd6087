//! Builds the plugin and C API library (`scripts/build-plugin.sh`:
//! `target/plugin/libApipePlugin.so` over Debian's `libMLIR.so`) and runs
//! the plugin lit suite (`test/plugin/lit.cfg.py`): a subset of the apipe
//! suite through upstream `mlir-opt` with the plugin loaded, and the C API
//! embedding program (`test/CAPI/embed.c`). Prints lit's summary and fails
//! if the build or lit fails.

use std::{io::Write, path::Path, process::Command};

#[test]
fn plugin_suite() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut stderr = std::io::stderr();
    let build = Command::new("bash")
        .arg(repo.join("scripts/build-plugin.sh"))
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("run scripts/build-plugin.sh");
    let _ = stderr.write_all(&build.stderr);
    assert!(
        build.status.success(),
        "scripts/build-plugin.sh failed: {}",
        build.status
    );
    let plugin = String::from_utf8_lossy(&build.stdout).trim().to_owned();

    let bin_dir = Path::new(env!("CARGO_BIN_EXE_apipe-opt")).parent().unwrap();
    let llvm_bin =
        std::env::var("APIPE_LLVM_BIN").unwrap_or_else(|_| "/usr/lib/llvm-22/bin".into());
    let lit_out = repo.join("target").join("lit-plugin");
    let _ = std::fs::remove_dir_all(&lit_out);
    let output = Command::new(Path::new(&llvm_bin).join("lit"))
        .arg("-v")
        .arg("--order=lexical")
        .arg(repo.join("test").join("plugin"))
        .env("APIPE_PLUGIN", &plugin)
        .env("APIPE_BIN_DIR", bin_dir)
        .env("APIPE_LIT_OUT", &lit_out)
        .output()
        .expect("run lit");
    let _ = stderr.write_all(&output.stdout);
    let _ = stderr.write_all(&output.stderr);
    assert!(
        output.status.success(),
        "plugin lit suite failed: {}",
        output.status
    );
}
