//! The race checker's hook for ops that access a region of a memref
//! rather than one element (`vector.transfer_read` / `transfer_write`,
//! `memref.copy`, `linalg` ops, ...: every op whose
//! `MemoryEffectOpInterface` reads or writes workgroup memory, or writes
//! global memory, see
//! [`crate::emulation::hooks`]).
//!
//! The lowering passes the memref through MLIR's C interface (a pointer to
//! its descriptor), the first index of the region per dimension and its
//! extent per dimension (-1: to the end of the dimension). The runtime
//! clips the box to the memref's sizes (a transfer with out-of-bounds
//! dimensions touches only the elements inside), walks it, and records
//! each contiguous run of the innermost dimension (each element, when
//! that stride is not 1): in workgroup memory in the block's shadow, as a
//! read, a write or an atomic update; elsewhere, a write or atomic update
//! of global memory in the block's log of global writes, after checking
//! it against the global sources of copies in flight
//! ([`super::copy_sources`]). In host code (called only while a host copy
//! is in flight), a write or atomic update into the source or destination
//! of one of the host's copies in flight, or a read of its destination,
//! stops the program.

use super::{check_shared, context::entry, racecheck::Kind, shared_range, MAX_RANK};

/// Race checker: op `op` accesses (`kind` 0 read, 1 write, 2 atomic) the
/// box `[s_d, s_d + e_d)` of the memref `(rank, descriptor)` whose
/// elements are `element_bytes` each.
///
/// # Safety
/// Called by JIT code with the descriptor of a live ranked memref of rank
/// `rank` (at most [`MAX_RANK`]).
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn apipe_emu_region_access(
    op: i64,
    kind: i64,
    element_bytes: i64,
    rank: i64,
    memref: *const i64,
    s0: i64,
    s1: i64,
    s2: i64,
    s3: i64,
    e0: i64,
    e1: i64,
    e2: i64,
    e3: i64,
) {
    if rank < 0 || rank as usize > MAX_RANK || element_bytes <= 0 {
        return;
    }
    entry((), |t| {
        let host = t.gpu.is_none();
        if host && !t.host_sources.watching() || !host && t.block.is_null() {
            return Ok(());
        }
        let rank = rank as usize;
        // SAFETY: see the function's contract: 3 + 2 rank words.
        let fields = unsafe { std::slice::from_raw_parts(memref, 3 + 2 * rank) };
        let aligned = fields[1] as usize;
        let offset = fields[2];
        let (starts, extents) = ([s0, s1, s2, s3], [e0, e1, e2, e3]);
        // Clipped box per dimension: [low, high).
        let mut low = [0i64; MAX_RANK];
        let mut high = [0i64; MAX_RANK];
        for d in 0..rank {
            let size = fields[3 + d];
            let end = if extents[d] < 0 {
                size
            } else {
                starts[d].saturating_add(extents[d])
            };
            low[d] = starts[d].max(0);
            high[d] = end.min(size);
            if low[d] >= high[d] {
                return Ok(());
            }
        }
        let strides = &fields[3 + rank..3 + 2 * rank];
        let kind = match kind {
            0 => Kind::Read,
            1 => Kind::Write,
            _ => Kind::Atomic,
        };
        let bytes = element_bytes as usize;
        // The innermost dimension (a rank-0 memref: one element).
        let (inner_low, inner_high, inner_stride) = match rank {
            0 => (0, 1, 1),
            _ => (low[rank - 1], high[rank - 1], strides[rank - 1]),
        };
        let outer = rank.saturating_sub(1);
        let mut index = low;
        loop {
            let mut linear = offset;
            for d in 0..outer {
                linear += index[d] * strides[d];
            }
            let runs: Box<dyn Iterator<Item = (i64, usize)>> = if inner_stride == 1 {
                let count = (inner_high - inner_low) as usize;
                Box::new(std::iter::once((linear + inner_low, count * bytes)))
            } else {
                Box::new((inner_low..inner_high).map(move |i| (linear + i * inner_stride, bytes)))
            };
            for (element, length) in runs {
                let address = aligned.wrapping_add((element as usize).wrapping_mul(bytes));
                if host {
                    let code = match kind {
                        Kind::Read => 0,
                        Kind::Write => 1,
                        Kind::Atomic => 2,
                    };
                    super::check_host_access(t, op, code, address, address + length)?;
                } else {
                    record(t, op, kind, address, length);
                }
            }
            // Next index of the outer dimensions, innermost of them fastest.
            let mut d = outer;
            loop {
                if d == 0 {
                    return Ok(());
                }
                d -= 1;
                index[d] += 1;
                if index[d] < high[d] {
                    break;
                }
                index[d] = low[d];
            }
        }
    })
}

/// Records one contiguous run of `length` bytes at `address` for `t`.
fn record(t: &mut super::context::Thread, op: i64, kind: Kind, address: usize, length: usize) {
    if let Some((start, end)) = shared_range(t, address, length) {
        check_shared(t, op, kind, start, end, None);
        return;
    }
    if kind == Kind::Read {
        return;
    }
    if (t.stack.0..t.stack.1).contains(&address) {
        return; // private
    }
    let atomic = kind == Kind::Atomic;
    super::record_global_write(t, op, address, address + length, "writes", atomic);
}
