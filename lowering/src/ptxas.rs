//! Running NVIDIA `ptxas` (`apipe-translate --to-cubin`): finding it, assembling
//! PTX into a cubin, and reading its `-v` resource usage.
//!
//! Lookup order: `$APIPE_PTXAS`, then `PATH`, then the project venv
//! (`.venv/lib/python3*/site-packages/nvidia/cuda_nvcc/bin/ptxas`, installed
//! by `bash scripts/setup.sh`) under the current directory, the tool's
//! directory or the source tree, and their ancestors.

use crate::Error;
use std::{
    path::{Path, PathBuf},
    process::Command,
};

/// The command that installs `ptxas`.
pub const SETUP_COMMAND: &str = "bash scripts/setup.sh";

fn venv_ptxas(root: &Path) -> Option<PathBuf> {
    let lib = root.join(".venv").join("lib");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&lib)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("python3"))
        .map(|e| e.path().join("site-packages/nvidia/cuda_nvcc/bin/ptxas"))
        .filter(|p| p.is_file())
        .collect();
    found.sort();
    found.pop()
}

/// The `ptxas` to run, if any.
pub fn find() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("APIPE_PTXAS") {
        return Some(PathBuf::from(path)).filter(|p| p.is_file());
    }
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let candidate = dir.join("ptxas");
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    let mut roots: Vec<PathBuf> = Vec::new();
    roots.extend(std::env::current_dir().ok());
    roots.extend(
        std::env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(Path::to_path_buf)),
    );
    roots.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    roots
        .iter()
        .flat_map(|root| root.ancestors())
        .find_map(venv_ptxas)
}

/// Resource usage of one kernel, from `ptxas -v`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceUsage {
    /// The kernel (entry function) name.
    pub kernel: String,
    /// Registers per thread.
    pub registers: u32,
    /// Bytes of spill stores.
    pub spill_stores: u32,
    /// Bytes of spill loads.
    pub spill_loads: u32,
    /// Bytes of static shared memory.
    pub shared_bytes: u32,
    /// Bytes of stack frame.
    pub stack_bytes: u32,
}

fn number_before(text: &str, unit: &str) -> Option<u32> {
    let at = text.find(unit)?;
    text[..at].split_whitespace().last()?.parse().ok()
}

/// Parses the `-v` report of `ptxas` (its stderr).
pub fn parse_resource_usage(report: &str) -> Vec<ResourceUsage> {
    let mut out: Vec<ResourceUsage> = Vec::new();
    for line in report.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            let name = rest.split('\'').next().unwrap_or("").to_owned();
            out.push(ResourceUsage {
                kernel: name,
                ..Default::default()
            });
        } else if let Some(current) = out.last_mut() {
            if line.contains("bytes stack frame") {
                current.stack_bytes = number_before(line, "bytes stack frame").unwrap_or(0);
                current.spill_stores = number_before(line, "bytes spill stores").unwrap_or(0);
                current.spill_loads = number_before(line, "bytes spill loads").unwrap_or(0);
            } else if line.contains("Used") && line.contains("registers") {
                current.registers = number_before(line, "registers").unwrap_or(0);
                current.shared_bytes = number_before(line, "bytes smem").unwrap_or(0);
            }
        }
    }
    out
}

/// Assembles `ptx` for `sm` (e.g. `sm_80`) into a cubin; returns the cubin
/// and the `-v` resource usage.
///
/// # Errors
/// [`Error::Ptxas`]: `ptxas` missing (naming [`SETUP_COMMAND`]) or
/// rejecting the PTX (its message).
pub fn assemble(ptx: &str, sm: &str) -> Result<(Vec<u8>, Vec<ResourceUsage>), Error> {
    let ptxas = find().ok_or_else(|| {
        Error::Ptxas(format!(
            "ptxas not found on PATH or in the project venv (.venv/lib/python3*/site-packages/nvidia/cuda_nvcc/bin); install it with '{SETUP_COMMAND}'"
        ))
    })?;
    let dir = std::env::temp_dir().join(format!(
        "apipe-ptxas-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| Error::Ptxas(e.to_string()))?;
    let input = dir.join("kernel.ptx");
    let output = dir.join("kernel.cubin");
    std::fs::write(&input, ptx).map_err(|e| Error::Ptxas(e.to_string()))?;
    let result = Command::new(&ptxas)
        .arg(format!("-arch={sm}"))
        .arg("-v")
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .map_err(|e| Error::Ptxas(format!("cannot run {}: {e}", ptxas.display())));
    let cubin = std::fs::read(&output);
    let _ = std::fs::remove_dir_all(&dir);
    let result = result?;
    let report = String::from_utf8_lossy(&result.stderr).into_owned();
    if !result.status.success() {
        return Err(Error::Ptxas(format!("ptxas failed:\n{report}")));
    }
    let cubin = cubin.map_err(|e| Error::Ptxas(e.to_string()))?;
    Ok((cubin, parse_resource_usage(&report)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ptxas_report() {
        let report = "ptxas info    : 0 bytes gmem\n\
ptxas info    : Compiling entry function 'sgemm' for 'sm_80'\n\
ptxas info    : Function properties for sgemm\n\
    0 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n\
ptxas info    : Used 96 registers, used 1 barriers, 24576 bytes smem, 384 bytes cmem[0]\n";
        let usage = parse_resource_usage(report);
        assert_eq!(
            usage,
            vec![ResourceUsage {
                kernel: "sgemm".into(),
                registers: 96,
                spill_stores: 8,
                spill_loads: 4,
                shared_bytes: 24576,
                stack_bytes: 0,
            }]
        );
    }
}
