//! The launch bounds a kernel declares, checked before anything is lowered.
//!
//! A `gpu.func` may state its block and grid sizes: `known_block_size` and
//! `known_grid_size` (MLIR gpu dialect; `gpu.known_block_size` /
//! `gpu.known_grid_size` on other functions), or the NVVM launch bounds
//! `nvvm.maxntid` / `nvvm.reqntid` (PTX ISA 11.4, performance-tuning
//! directives). Upstream lowering folds `gpu.block_dim` and `gpu.grid_dim`
//! to the stated sizes and emits `.maxntid` from them, so:
//! 1. [`check`]: each stated size must be one that some launch can have,
//!    every component at least 1 and within CUDA's limits (blocks of at most
//!    1024 threads, x and y at most 1024, z at most 64; grids of at most
//!    2^31 - 1 x 65535 x 65535 blocks). Otherwise `apipe-translate` would
//!    print PTX that ptxas refuses ("Positive non-zero value expected for
//!    maxntid") or fail in the NVVM translation without a location, and
//!    `apipe-run` would emulate a kernel no GPU can launch. Each offending
//!    function gets a located error.
//!    The other NVVM tuning attributes that become PTX directives
//!    (`nvvm.maxnreg` → `.maxnreg`, `nvvm.minctasm` → `.minnctapersm`,
//!    `nvvm.cluster_max_blocks` → `.maxclusterrank`, `nvvm.cluster_dim` →
//!    `.reqnctapercluster`) must be positive too: a zero is refused by
//!    ptxas, and a negative one wraps to 2^32 - n or fails without a
//!    location.
//! 2. [`declared_block`] / [`declared_grid`]: the stated sizes, which
//!    `apipe-run` compares with each `gpu.launch_func` at run time (a launch
//!    with other sizes is undefined behaviour: the kernel was compiled for
//!    the stated ones).

use apipe_dialect::{diagnostic, ops};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, IntegerAttribute},
    operation::{OperationLike, OperationRef},
};

use crate::emulation_runtime::launch::check_sizes;

/// Attributes stating the block size, in the order they are looked up.
const BLOCK_ATTRIBUTES: [&str; 4] = [
    "known_block_size",
    "gpu.known_block_size",
    "nvvm.reqntid",
    "nvvm.maxntid",
];

/// Attributes stating the grid size, in the order they are looked up.
const GRID_ATTRIBUTES: [&str; 2] = ["known_grid_size", "gpu.known_grid_size"];

/// Integer attributes that become PTX directives and must be positive.
const POSITIVE_ATTRIBUTES: [&str; 3] = ["nvvm.maxnreg", "nvvm.minctasm", "nvvm.cluster_max_blocks"];

/// Dense arrays that become PTX directives and must be positive.
const POSITIVE_ARRAYS: [&str; 1] = ["nvvm.cluster_dim"];

/// The dense i32 array `name` on `op`, as x, y, z (missing trailing
/// components are 1, as in `.maxntid 128`), or `None` if absent or not a
/// dense i32 array of 1 to 3 elements.
fn sizes(op: &OperationRef, name: &str) -> Option<[i64; 3]> {
    let array = DenseI32ArrayAttribute::try_from(op.attribute(name).ok()?).ok()?;
    if !(1..=3).contains(&array.len()) {
        return None;
    }
    let mut out = [1i64; 3];
    for (d, size) in out.iter_mut().enumerate().take(array.len()) {
        *size = i64::from(array.element(d).ok()?);
    }
    Some(out)
}

/// The block size `function` states (x, y, z), with the attribute's name.
pub fn declared_block(function: &OperationRef) -> Option<([i64; 3], &'static str)> {
    BLOCK_ATTRIBUTES
        .iter()
        .find_map(|name| sizes(function, name).map(|s| (s, *name)))
}

/// The grid size `function` states (x, y, z), with the attribute's name.
pub fn declared_grid(function: &OperationRef) -> Option<([i64; 3], &'static str)> {
    GRID_ATTRIBUTES
        .iter()
        .find_map(|name| sizes(function, name).map(|s| (s, *name)))
}

/// Step 1: a located error at every function under `root` whose stated
/// block or grid size no launch can have. Returns whether there was none.
pub fn check<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) -> bool {
    let mut ok = true;
    for op in ops::nested_ops(root) {
        if !ops::is_function(&op) {
            continue;
        }
        let mut stated = Vec::new();
        for name in BLOCK_ATTRIBUTES {
            if let Some(block) = sizes(&op, name) {
                stated.push((name, [1, 1, 1], block));
            }
        }
        for name in GRID_ATTRIBUTES {
            if let Some(grid) = sizes(&op, name) {
                stated.push((name, grid, [1, 1, 1]));
            }
        }
        let mut error = |name: &str, message: &str| {
            let value = op
                .attribute(name)
                .map(|a| a.to_string())
                .unwrap_or_default();
            diagnostic::error(
                op.location(),
                &format!(
                    "'{}' op states {name} = {value}, which no launch can have: {message}",
                    ops::name(&op)
                ),
            );
            ok = false;
        };
        for name in POSITIVE_ATTRIBUTES {
            let value = op
                .attribute(name)
                .ok()
                .and_then(|a| IntegerAttribute::try_from(a).ok())
                .map(|a| a.value());
            if value.is_some_and(|v| v < 1) {
                error(name, "it must be at least 1");
            }
        }
        for name in POSITIVE_ARRAYS {
            if sizes(&op, name).is_some_and(|s| s.iter().any(|&v| v < 1)) {
                error(name, "every component must be at least 1");
            }
        }
        for (name, grid, block) in stated {
            if let Err(message) = check_sizes(grid, block, 0) {
                error(name, &message);
            }
        }
    }
    ok
}
