//! The heap of a run: which buffers `memref.alloc` returned and which
//! `memref.dealloc` freed, so that a dealloc of anything else is a located
//! error before `free` runs, instead of glibc's abort ("double free") or
//! heap corruption.
//!
//! 1. After each `memref.alloc` (of host or per-thread memory; workgroup
//!    buffers are the block's own memory, see
//!    [`crate::emulation::kernels`]) and its null check, the lowering calls
//!    [`apipe_emu_alloc`] with the buffer's aligned pointer: the buffer is
//!    live.
//! 2. Before each `memref.dealloc` (which stays and calls `free`), the
//!    lowering calls [`apipe_emu_dealloc`] with the memref's descriptor. The
//!    memref must start at a live buffer's aligned pointer (the memref that
//!    `memref.alloc` returned, or a cast or a view of it at offset 0, which
//!    frees the same buffer); otherwise it is an error at the dealloc:
//!    - the buffer was freed already (a note at its alloc and at the
//!      first dealloc);
//!    - the memref is a view into a live buffer at a byte offset other than
//!      0 (MLIR's `memref.dealloc` takes the memref an alloc returned, not
//!      a view: `free` would get a pointer that `malloc` never returned);
//!    - nothing `memref.alloc` returned starts there: a `memref.alloca`, a
//!      `memref.get_global`, a `memref.view` with a byte shift, ...
//!
//!    A buffer that a pending `apipe.copy` still reads or writes is an error
//!    too ([`crate::emulation_runtime`], event 5). Then the buffer is freed.
//!
//! 3. Before each op that uses a buffer which some `memref.dealloc` of its
//!    function frees (see [`crate::emulation::checks`], step 5), the
//!    lowering calls [`apipe_emu_live`] with the buffer's aligned pointer:
//!    a buffer freed already is an error at that op (use after free), with
//!    a note at its alloc and at its dealloc. Buffers that no dealloc
//!    frees get no such call, so programs without `memref.dealloc` pay
//!    nothing.
//!
//! Keyed by the aligned pointer, which every view keeps (the allocated
//! pointer, which `free` gets, is the same for the buffer and its views;
//! `memref.alloc` without an alignment gives both the same value).
//! `malloc` may return a freed address again: the new alloc makes it live.
//!
//! Not caught: a use after free through a memref that reaches the op
//! through a call, a block argument or an `scf.for` iter_arg, or in a
//! kernel (step 3 follows the buffer's views within its function only), and
//! a use after `malloc` has given the freed address to a new buffer.

use super::context::{entry, Thread};
use std::collections::HashMap;

/// The most freed buffers remembered for "already freed" messages; past it
/// the record starts again (a later double free is then reported as memory
/// that no live alloc returned: still an error, with fewer notes).
const MAX_FREED: usize = 1 << 20;

/// The buffers of a run, by aligned pointer.
#[derive(Debug, Default)]
pub struct Heap {
    /// Live buffers: aligned pointer -> op id of their `memref.alloc`.
    live: HashMap<usize, i64>,
    /// Freed buffers: aligned pointer -> (alloc op id, dealloc op id).
    freed: HashMap<usize, (i64, i64)>,
}

impl Heap {
    /// Step 1: `memref.alloc` op `op` returned the buffer at `aligned`.
    pub fn allocated(&mut self, op: i64, aligned: usize) {
        self.freed.remove(&aligned);
        self.live.insert(aligned, op);
    }

    /// Step 3: the (alloc op id, dealloc op id) of the freed buffer at
    /// `aligned`, if a dealloc freed it and no alloc has returned the
    /// address since.
    pub fn freed_at(&self, aligned: usize) -> Option<(i64, i64)> {
        self.freed.get(&aligned).copied()
    }

    /// Step 2: `memref.dealloc` op `op` frees the memref whose aligned
    /// pointer is `aligned` and whose first element is `offset_bytes`
    /// further (`None` when the element size is not a whole number of
    /// bytes and the offset is not 0). `Err` gives the message and notes.
    pub fn free(
        &mut self,
        op: i64,
        aligned: usize,
        offset_bytes: Option<i64>,
    ) -> Result<(), (String, Vec<(i64, String)>)> {
        if let Some(&alloc) = self.live.get(&aligned) {
            if offset_bytes != Some(0) {
                let at = offset_bytes.map_or_else(
                    || "a non-zero element offset".to_owned(),
                    |b| format!("byte offset {b}"),
                );
                return Err((
                    format!(
                        "'memref.dealloc' of a view at {at} into a buffer, not of the buffer: \
                         'memref.dealloc' takes the memref that 'memref.alloc' returned (or a \
                         cast of it)"
                    ),
                    vec![(alloc, "the buffer was allocated here".to_owned())],
                ));
            }
            self.live.remove(&aligned);
            if self.freed.len() >= MAX_FREED {
                self.freed.clear();
            }
            self.freed.insert(aligned, (alloc, op));
            return Ok(());
        }
        if let Some(&(alloc, first)) = self.freed.get(&aligned) {
            return Err((
                "'memref.dealloc' of a buffer that is already freed (double free)".to_owned(),
                vec![
                    (alloc, "the buffer was allocated here".to_owned()),
                    (first, "and freed here".to_owned()),
                ],
            ));
        }
        Err((
            "'memref.dealloc' of memory that no live 'memref.alloc' returned (a 'memref.alloca', \
             a 'memref.get_global', a view with a byte shift, or a freed buffer): only buffers \
             from 'memref.alloc' may be freed"
                .to_owned(),
            Vec::new(),
        ))
    }
}

/// Step 1: `memref.alloc` op `op` returned the buffer whose aligned pointer
/// is `aligned` (null: the alloc failed, and its null check stops the
/// program).
pub extern "C" fn apipe_emu_alloc(op: i64, aligned: i64) {
    if aligned == 0 {
        return;
    }
    entry((), |t| {
        if let Ok(mut heap) = t.run().heap.lock() {
            heap.allocated(op, aligned as usize);
        }
        Ok(())
    })
}

/// Step 3: op `op` (its name recorded by the lowering) is about to use the
/// buffer of `memref.alloc` whose aligned pointer is `aligned`. Stops the
/// program with a located error if a `memref.dealloc` has freed it.
pub extern "C" fn apipe_emu_live(op: i64, aligned: i64) {
    entry((), |t| {
        let freed = t
            .run()
            .heap
            .lock()
            .ok()
            .and_then(|heap| heap.freed_at(aligned as usize));
        let Some((alloc, free)) = freed else {
            return Ok(());
        };
        let name = t.run().name(op).unwrap_or("op").to_owned();
        Err(t.error_with_notes(
            op,
            &format!("'{name}' uses a buffer that is already freed (use after free)"),
            &[
                (alloc, "the buffer was allocated here".to_owned()),
                (free, "and freed here".to_owned()),
            ],
        ))
    })
}

/// A memref descriptor's fields that a dealloc needs, read from the
/// C interface's argument: `rank >= 0` a pointer to a ranked descriptor
/// `{allocated, aligned, offset, sizes[rank], strides[rank]}`; `rank < 0`
/// a pointer to an unranked one `{rank, descriptor pointer}`.
struct Freed {
    aligned: usize,
    offset: i64,
    /// `(size, stride)` per dimension.
    dims: Vec<(i64, i64)>,
}

impl Freed {
    /// # Safety
    /// `raw` is as described on [`Freed`], from JIT code.
    unsafe fn read(rank: i64, raw: *const i64) -> Self {
        // SAFETY: see the function's contract; every field is 8 bytes.
        unsafe {
            let (rank, raw) = if rank < 0 {
                (*raw, *(raw.add(1) as *const *const i64))
            } else {
                (rank, raw)
            };
            let rank = rank.max(0) as usize;
            Self {
                aligned: *raw.add(1) as usize,
                offset: *raw.add(2),
                dims: (0..rank)
                    .map(|d| (*raw.add(3 + d), *raw.add(3 + rank + d)))
                    .collect(),
            }
        }
    }
}

/// Before `memref.dealloc` op `op` of the memref `(rank, descriptor)` (see
/// [`Freed`]; `element_bytes` 0 when its element is not a whole number of
/// bytes): step 2, and no pending copy may read or write the buffer.
///
/// # Safety
/// Called by JIT code with the descriptor of a memref.
pub unsafe extern "C" fn apipe_emu_dealloc(
    op: i64,
    element_bytes: i64,
    rank: i64,
    memref: *const i64,
) {
    entry((), |t| {
        // SAFETY: see the function's contract.
        let memref = unsafe { Freed::read(rank, memref) };
        let offset_bytes =
            (element_bytes > 0 || memref.offset == 0).then(|| memref.offset * element_bytes);
        let freed = t
            .run()
            .heap
            .lock()
            .map(|mut heap| heap.free(op, memref.aligned, offset_bytes));
        if let Ok(Err((message, notes))) = freed {
            return Err(t.error_with_notes(op, &message, &notes));
        }
        pending_copy(t, op, &memref, element_bytes)
    })
}

/// A pending copy of `t` that reads or writes the buffer `memref` (an
/// error at dealloc op `op`). Pending means that no wait has completed the
/// copy's group yet, whether or not the emulator has already moved its data
/// (`eager` moves it at issue, `random` may move it early): PTX guarantees a
/// `cp.async` complete only after the wait on its group (PTX ISA, `cp.async.wait_group`),
/// so freeing its buffer before that is an error in every completion mode.
fn pending_copy(
    t: &mut Thread,
    op: i64,
    memref: &Freed,
    element_bytes: i64,
) -> Result<(), super::context::Stop> {
    let size = element_bytes.max(1) as usize;
    let extent: i64 = 1 + memref
        .dims
        .iter()
        .map(|&(n, s)| (n - 1).max(0).saturating_mul(s.saturating_abs()))
        .fold(0i64, i64::saturating_add);
    let low = memref
        .aligned
        .wrapping_add((memref.offset as usize).wrapping_mul(size));
    let high = low.saturating_add((extent as usize).saturating_mul(size));
    let inside = |p: usize| (low..high).contains(&p);
    let pending = t.queues.slots.iter().find_map(|queue| {
        queue
            .pending
            .iter()
            .find(|p| inside(p.copy.src as usize) || inside(p.copy.dst as usize))
            .map(|p| p.copy.op)
    });
    if let Some(copy) = pending {
        let copy_at = t.run().location(copy).to_owned();
        return Err(t.error(
            op,
            &format!(
                "'memref.dealloc' frees a buffer that the pending 'apipe.copy' at {copy_at} still \
                 uses: no wait completes that copy before"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Heap;

    #[test]
    fn a_second_free_names_the_alloc_and_the_first_free() {
        let mut heap = Heap::default();
        heap.allocated(3, 0x1000);
        assert!(heap.free(4, 0x1000, Some(0)).is_ok());
        let (message, notes) = heap.free(5, 0x1000, Some(0)).unwrap_err();
        assert!(message.contains("already freed"), "{message}");
        assert_eq!(notes.iter().map(|n| n.0).collect::<Vec<_>>(), vec![3, 4]);
        // malloc returns the address again: live again.
        heap.allocated(6, 0x1000);
        assert!(heap.free(7, 0x1000, Some(0)).is_ok());
    }

    #[test]
    fn views_and_unknown_memory_are_refused() {
        let mut heap = Heap::default();
        heap.allocated(1, 0x2000);
        let (message, notes) = heap.free(2, 0x2000, Some(16)).unwrap_err();
        assert!(message.contains("byte offset 16"), "{message}");
        assert_eq!(notes[0].0, 1);
        assert!(heap.free(2, 0x2000, None).is_err());
        let (message, _) = heap.free(2, 0x3000, Some(0)).unwrap_err();
        assert!(message.contains("no live 'memref.alloc'"), "{message}");
        // The refused frees left the buffer live.
        assert!(heap.free(3, 0x2000, Some(0)).is_ok());
    }
}
