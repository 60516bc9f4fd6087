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
//! 2. [`check`]: the stated block sizes agree, and give PTX that ptxas
//!    takes: `known_block_size` becomes `.maxntid` (an upper bound that
//!    upstream lowering also folds `gpu.block_dim` to), `nvvm.maxntid` is
//!    an upper bound on the block's threads, `nvvm.reqntid` an exact size
//!    (PTX ISA 11.4.2 and 11.4.3). So `nvvm.reqntid` with either of the
//!    others is refused (ptxas: "Conflicting directives: .maxntid and
//!    .reqntid cannot both be specified"), and `known_block_size` with an
//!    `nvvm.maxntid` of other sizes (upstream lowering would drop the
//!    stated `.maxntid` without a word).
//! 3. [`declared_block`] / [`declared_grid`]: the stated bounds, which
//!    `apipe-run` checks at each `gpu.launch_func`: an exact size must be
//!    the launch's, an upper bound must hold the launch's threads (a launch
//!    of other sizes is undefined behaviour: the kernel was compiled for
//!    the stated ones). So must the `upper_bound` of the kernel's
//!    `gpu.thread_id` and `gpu.block_id` ops, per dimension
//!    ([`declared_id_bound`]): the block and grid sizes are at most them.

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

/// A block or grid size a kernel states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// x, y, z (`i64::MAX` where a [`BoundKind::PerDimension`] bound
    /// states nothing).
    pub sizes: [i64; 3],
    /// The attribute that states it (`known_block_size`, `nvvm.maxntid`,
    /// `upper_bound` of `gpu.thread_id`, ...).
    pub attribute: &'static str,
    /// How a launch must relate to `sizes`.
    pub kind: BoundKind,
}

/// How a launch's sizes must relate to a stated [`Bound`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundKind {
    /// Exactly these sizes (`known_block_size`, `known_grid_size`,
    /// `nvvm.reqntid`).
    Exact,
    /// At most this many threads, x * y * z (`nvvm.maxntid`).
    Threads,
    /// At most this size in each dimension: the `upper_bound` of the
    /// kernel's `gpu.thread_id` / `gpu.block_id` ops (MLIR GPUOps.td: an id
    /// below it; upstream lowering turns it into a range on the id, so a
    /// larger launch is undefined behaviour).
    PerDimension,
}

impl Bound {
    /// Whether a launch of `launched` (x, y, z) keeps this bound.
    pub fn admits(&self, launched: [i64; 3]) -> bool {
        match self.kind {
            BoundKind::Exact => launched == self.sizes,
            BoundKind::Threads => {
                launched.iter().product::<i64>() <= self.sizes.iter().product::<i64>()
            }
            BoundKind::PerDimension => launched.iter().zip(&self.sizes).all(|(l, s)| l <= s),
        }
    }
}

/// The per-dimension bound that the `upper_bound` attributes of the
/// `op_name` ops (`gpu.thread_id`, `gpu.block_id`) in `function` state: the
/// smallest per dimension; `None` if none has one.
pub fn declared_id_bound(function: &OperationRef, op_name: &'static str) -> Option<Bound> {
    let mut sizes = [i64::MAX; 3];
    let mut any = false;
    for op in ops::nested_ops(function) {
        if !ops::is(&op, op_name) {
            continue;
        }
        let Some(bound) = op
            .attribute("upper_bound")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map(|a| a.value())
        else {
            continue;
        };
        let Some(d) = apipe_passes::access::values::gpu_dimension(&op) else {
            continue;
        };
        sizes[d] = sizes[d].min(bound);
        any = true;
    }
    any.then_some(Bound {
        sizes,
        attribute: if op_name == "gpu.thread_id" {
            "gpu.thread_id upper_bound"
        } else {
            "gpu.block_id upper_bound"
        },
        kind: BoundKind::PerDimension,
    })
}

/// Every block size `function` states, in [`BLOCK_ATTRIBUTES`] order.
pub fn declared_block(function: &OperationRef) -> Vec<Bound> {
    BLOCK_ATTRIBUTES
        .iter()
        .filter_map(|name| {
            sizes(function, name).map(|sizes| Bound {
                sizes,
                attribute: name,
                kind: if *name == "nvvm.maxntid" {
                    BoundKind::Threads
                } else {
                    BoundKind::Exact
                },
            })
        })
        .collect()
}

/// Every grid size `function` states (all exact).
pub fn declared_grid(function: &OperationRef) -> Vec<Bound> {
    GRID_ATTRIBUTES
        .iter()
        .filter_map(|name| {
            sizes(function, name).map(|sizes| Bound {
                sizes,
                attribute: name,
                kind: BoundKind::Exact,
            })
        })
        .collect()
}

/// Step 2: why the stated block sizes `bounds` cannot all hold, or cannot
/// all become PTX directives, if so.
fn block_conflict(bounds: &[Bound]) -> Option<String> {
    let reqntid = bounds.iter().find(|b| b.attribute == "nvvm.reqntid");
    let maxntid = bounds.iter().find(|b| b.attribute == "nvvm.maxntid");
    let known = bounds
        .iter()
        .find(|b| b.attribute.ends_with("known_block_size"));
    if let (Some(_), Some(other)) = (reqntid, known.or(maxntid)) {
        return Some(format!(
            "states nvvm.reqntid and {}: PTX allows .reqntid or .maxntid, not both \
             ({} becomes .maxntid); state one of them",
            other.attribute, other.attribute
        ));
    }
    if let (Some(known), Some(maxntid)) = (known, maxntid) {
        if known.sizes != maxntid.sizes {
            return Some(format!(
                "states {} = {:?} and nvvm.maxntid = {:?}: upstream lowering emits .maxntid from \
                 {} and would drop the stated nvvm.maxntid; state one of them, or the same sizes",
                known.attribute, known.sizes, maxntid.sizes, known.attribute
            ));
        }
    }
    let mut exact = bounds.iter().filter(|b| b.kind == BoundKind::Exact);
    if let (Some(a), Some(b)) = (exact.next(), exact.next()) {
        if a.sizes != b.sizes {
            return Some(format!(
                "states {} = {:?} and {} = {:?}: no launch can have both",
                a.attribute, a.sizes, b.attribute, b.sizes
            ));
        }
    }
    None
}

/// Step 1: a located error at every function under `root` whose stated
/// block or grid size no launch can have. Returns whether there was none.
pub fn check<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>) -> bool {
    let mut ok = true;
    for op in ops::nested_ops(root) {
        if !ops::is_function(&op) {
            continue;
        }
        let block = declared_block(&op);
        let grid = declared_grid(&op);
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
        let one = [1, 1, 1];
        let launches = block.iter().map(|b| (b.attribute, one, b.sizes));
        for (name, launch_grid, launch_block) in
            launches.chain(grid.iter().map(|g| (g.attribute, g.sizes, one)))
        {
            if let Err(message) = check_sizes(launch_grid, launch_block, 0) {
                error(name, &message);
            }
        }
        if let Some(message) = block_conflict(&block) {
            diagnostic::error(op.location(), &format!("'{}' op {message}", ops::name(&op)));
            ok = false;
        }
    }
    ok
}
