//! The seed corpus: every `.mlir` file under the given directories (the lit
//! suite and the examples by default; reproducers of earlier reports when a
//! campaign names them), split at `// -----` like `--split-input-file`,
//! with full-line comments (RUN, CHECK and expected-* lines) removed.

use std::{
    collections::HashSet,
    path::{Path, PathBuf},
};

/// One seed: a chunk of a file.
#[derive(Clone, Debug)]
pub struct Seed {
    /// `path` or `path#chunk`.
    pub origin: String,
    /// The MLIR text.
    pub text: String,
}

impl Seed {
    /// Whether the seed has a `func.func @main`, the entry `apipe-run`
    /// looks for.
    pub fn has_main(&self) -> bool {
        self.text.contains("func.func @main(")
    }

    /// Whether the seed has a `gpu.module`, what `apipe-translate` lowers.
    pub fn has_gpu_module(&self) -> bool {
        self.text.contains("gpu.module @")
    }
}

/// The longest seed kept (bytes); longer chunks are stress inputs whose
/// mutants cost more than they find.
pub const MAX_SEED_BYTES: usize = 48 * 1024;

/// Loads the seeds under `roots` (files or directories, recursively), in
/// a stable order, without duplicates.
///
/// # Errors
/// A root that cannot be read.
pub fn load(roots: &[PathBuf]) -> std::io::Result<Vec<Seed>> {
    let mut files = Vec::new();
    for root in roots {
        collect(root, &mut files)?;
    }
    files.sort();
    let mut seen = HashSet::new();
    let mut seeds = Vec::new();
    for file in files {
        let bytes = std::fs::read(&file)?;
        let text = String::from_utf8_lossy(&bytes);
        let chunks = split(&text);
        let many = chunks.len() > 1;
        for (index, chunk) in chunks.into_iter().enumerate() {
            if chunk.trim().is_empty()
                || chunk.len() > MAX_SEED_BYTES
                || !seen.insert(chunk.clone())
            {
                continue;
            }
            let origin = if many {
                format!("{}#{index}", file.display())
            } else {
                file.display().to_string()
            };
            seeds.push(Seed {
                origin,
                text: chunk,
            });
        }
    }
    Ok(seeds)
}

fn collect(path: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        for entry in std::fs::read_dir(path)? {
            collect(&entry?.path(), files)?;
        }
    } else if path.extension().is_some_and(|e| e == "mlir") {
        files.push(path.to_owned());
    }
    Ok(())
}

/// The chunks of `text` between `// -----` lines, without full-line
/// comments and trailing blank lines.
pub fn split(text: &str) -> Vec<String> {
    let mut chunks = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with(crate::source::SPLIT_MARKER) {
            chunks.push(std::mem::take(&mut current));
            continue;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        current.push_str(line);
        current.push('\n');
    }
    chunks.push(current);
    chunks
        .into_iter()
        .map(|c| format!("{}\n", c.trim_end()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_drops_comment_lines() {
        let text = "// RUN: x\nfunc.func @a() {\n  return // keep\n}\n// -----\n// CHECK: y\nfunc.func @b()\n";
        assert_eq!(
            split(text),
            vec![
                "func.func @a() {\n  return // keep\n}\n".to_owned(),
                "func.func @b()\n".to_owned()
            ]
        );
    }
}
