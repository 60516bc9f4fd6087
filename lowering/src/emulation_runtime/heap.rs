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
//! 2. Instead of each `memref.dealloc`, the lowering calls
//!    [`apipe_emu_dealloc`] with the memref's descriptor. The
//!    memref must start at a live buffer's aligned pointer (the memref that
//!    `memref.alloc` returned, or a cast or a view of it at offset 0, which
//!    frees the same buffer); otherwise it is an error at the dealloc:
//!    - the buffer was freed already (a note at its alloc and at the
//!      first dealloc);
//!    - the memref is a view into a live buffer at a byte offset other than
//!      0 (MLIR's `memref.dealloc` takes the memref an alloc returned, not
//!      a view: `free` would get a pointer that `malloc` never returned);
//!    - nothing `memref.alloc` returned starts there: a `memref.alloca`, a
//!      `memref.get_global`, a view with a byte shift, ...
//!
//!    A buffer that a pending `apipe.copy` still reads or writes is an error
//!    too ([`crate::emulation_runtime`], event 5). Then the buffer is freed:
//!    held back from `free` (a quarantine of at most [`QUARANTINE_BYTES`]
//!    and [`QUARANTINE_BUFFERS`], oldest out first, the rest freed when the
//!    run ends), so that while it is held no allocation of the program or of
//!    the runtime (workgroup memory, thread stacks) can get its address.
//!
//! 3. Before each op that uses a memref which may have been freed (see
//!    [`crate::emulation::checks`], step 5: buffers that a dealloc frees or
//!    that escape their function, and memrefs of unknown provenance such as
//!    arguments, iter_args and `scf.if` results), and for each memref a
//!    `gpu.launch_func` passes, the lowering calls [`apipe_emu_live`] with
//!    the memref's aligned pointer: a buffer freed already is an error at
//!    that op (use after free), with a note at its alloc and at its
//!    dealloc. Programs without `memref.dealloc` get no such call, and until
//!    the first free of the process each call returns at once; after it, a
//!    buffer the thread found live since the last free of the process is
//!    not looked up again (a per-thread cache, stale after any free).
//!
//! Keyed by the aligned pointer, which every view keeps (the allocated
//! pointer, which `free` gets, is the same for the buffer and its views;
//! `memref.alloc` without an alignment gives both the same value).
//! `malloc` may return a freed address again: the new alloc makes it live.
//!
//! Not caught: a use of a buffer that has left the quarantine (its address
//! may belong to newer memory by then: the lookup no longer reports it).

use super::context::{current, entry, Thread, LIVE_CACHE_SLOTS};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Whether any buffer of the process has been freed: until then
/// [`apipe_emu_live`] has nothing to look up (set, never cleared: runs that
/// share the process only lose that shortcut).
static ANY_FREED: AtomicBool = AtomicBool::new(false);

/// The number of frees in the process so far, bumped under the heap's lock
/// after the buffer is recorded as freed: a buffer that a thread found
/// live when this count was `n` is still live while the count is `n`
/// ([`Thread::live_cache`]).
static FREES: AtomicU64 = AtomicU64::new(0);

/// The most freed buffers remembered for "already freed" messages; past it
/// the record starts again (a later double free is then reported as memory
/// that no live alloc returned: still an error, with fewer notes).
const MAX_FREED: usize = 1 << 20;

/// The most bytes of freed buffers held back from `free` (step 2): while a
/// freed buffer is held, no allocation can get its address, so a use of it
/// is always recognised (never mistaken for a use of newer memory).
const QUARANTINE_BYTES: usize = 256 << 20;

/// The most freed buffers held back from `free`.
const QUARANTINE_BUFFERS: usize = 1 << 16;

/// A freed buffer held back from `free`.
#[derive(Debug)]
struct Held {
    aligned: usize,
    /// The pointer `malloc` returned (what `free` gets).
    allocated: usize,
    bytes: usize,
}

/// The buffers of a run, by aligned pointer.
#[derive(Debug, Default)]
pub struct Heap {
    /// Live buffers: aligned pointer -> op id of their `memref.alloc`.
    live: HashMap<usize, i64>,
    /// Freed buffers: aligned pointer -> (alloc op id, dealloc op id).
    freed: HashMap<usize, (i64, i64)>,
    /// Freed buffers not yet given to `free`, oldest first.
    quarantine: VecDeque<Held>,
    /// The aligned pointers of `quarantine`.
    held: HashSet<usize>,
    /// The bytes of `quarantine`.
    held_bytes: usize,
    /// The aligned pointer and bytes of each buffer of `quarantine`, by
    /// aligned pointer ([`Heap::freed_containing`]).
    held_ranges: std::collections::BTreeMap<usize, usize>,
}

impl Heap {
    /// Step 1: `memref.alloc` op `op` returned the buffer at `aligned`.
    pub fn allocated(&mut self, op: i64, aligned: usize) {
        self.freed.remove(&aligned);
        self.live.insert(aligned, op);
    }

    /// Step 3: the (alloc op id, dealloc op id) of the freed buffer at
    /// `aligned`, if a dealloc freed it and the buffer is still held back
    /// from `free` (so that nothing else can live at that address).
    pub fn freed_at(&self, aligned: usize) -> Option<(i64, i64)> {
        if !self.held.contains(&aligned) {
            return None;
        }
        self.freed.get(&aligned).copied()
    }

    /// [`Heap::freed_at`] of the freed buffer whose bytes hold `address`
    /// (an element inside it, not only its first): an mbarrier op gets the
    /// address of its slot, not the ring's pointer.
    pub fn freed_containing(&self, address: usize) -> Option<(i64, i64)> {
        let (&aligned, &bytes) = self.held_ranges.range(..=address).next_back()?;
        (address < aligned.saturating_add(bytes.max(1)))
            .then(|| self.freed_at(aligned))
            .flatten()
    }

    /// Step 2, after [`Heap::free`] accepted the buffer at `aligned`, whose
    /// `malloc` pointer is `allocated`, of about `bytes` bytes: holds it
    /// back from `free`; returns the `malloc` pointers of the oldest held
    /// buffers that now go to `free` (past [`QUARANTINE_BYTES`] or
    /// [`QUARANTINE_BUFFERS`]).
    pub fn hold(&mut self, aligned: usize, allocated: usize, bytes: usize) -> Vec<usize> {
        self.quarantine.push_back(Held {
            aligned,
            allocated,
            bytes,
        });
        self.held.insert(aligned);
        self.held_ranges.insert(aligned, bytes);
        self.held_bytes = self.held_bytes.saturating_add(bytes);
        let mut release = Vec::new();
        while self.held_bytes > QUARANTINE_BYTES || self.quarantine.len() > QUARANTINE_BUFFERS {
            let Some(oldest) = self.quarantine.pop_front() else {
                break;
            };
            self.held.remove(&oldest.aligned);
            self.held_ranges.remove(&oldest.aligned);
            self.held_bytes = self.held_bytes.saturating_sub(oldest.bytes);
            release.push(oldest.allocated);
        }
        release
    }

    /// The `malloc` pointers of every held buffer (the run has ended).
    pub fn release_all(&mut self) -> Vec<usize> {
        self.held.clear();
        self.held_ranges.clear();
        self.held_bytes = 0;
        self.quarantine.drain(..).map(|h| h.allocated).collect()
    }

    /// Step 2, the check: may a `memref.dealloc` free the memref whose
    /// aligned pointer is `aligned` and whose first element is
    /// `offset_bytes` further (`None` when the element size is not a whole
    /// number of bytes and the offset is not 0)? `Err` gives the message
    /// and notes.
    pub fn check_free(
        &self,
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

    /// Step 2, after [`Heap::check_free`] accepted it: `memref.dealloc` op
    /// `op` frees the live buffer at `aligned`.
    pub fn free(&mut self, op: i64, aligned: usize) {
        let Some(alloc) = self.live.remove(&aligned) else {
            return;
        };
        ANY_FREED.store(true, Ordering::Release);
        if self.freed.len() >= MAX_FREED {
            self.freed.clear();
        }
        self.freed.insert(aligned, (alloc, op));
        FREES.fetch_add(1, Ordering::Release);
    }
}

impl Drop for Heap {
    fn drop(&mut self) {
        for pointer in self.release_all() {
            // SAFETY: each held pointer came from the JIT code's `malloc`
            // and has not been freed: the run that used it has ended.
            unsafe { libc::free(pointer as *mut libc::c_void) }
        }
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
///
/// The hot path of programs that free (one call per checked access):
/// until the first free of the process it returns at once; after it, a
/// buffer the thread found live since the last free anywhere hits the
/// thread's small cache ([`Thread::live_cache`]) and returns without the
/// heap's lock.
pub extern "C" fn apipe_emu_live(op: i64, aligned: i64) {
    if !ANY_FREED.load(Ordering::Acquire) {
        return;
    }
    let frees = FREES.load(Ordering::Acquire);
    let key = (aligned as usize, frees);
    let slot = (aligned as usize >> 4) % LIVE_CACHE_SLOTS;
    // SAFETY: null or the live current thread; nothing else borrows it
    // during this read.
    if unsafe { current().as_ref() }.is_some_and(|t| t.live_cache[slot] == key) {
        return;
    }
    entry((), |t| {
        let freed = t
            .run()
            .heap
            .lock()
            .ok()
            .and_then(|heap| heap.freed_at(aligned as usize));
        let Some((alloc, free)) = freed else {
            // Live after `frees` frees (counted before the lookup: a free
            // since then makes the entry stale).
            t.live_cache[slot] = key;
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

/// The error for an mbarrier op `op` (its name in messages: `name`) on the
/// slot at `address` of a ring a `memref.dealloc` freed, as
/// [`apipe_emu_live`] gives for the other ops (trial 29: an init, arrive
/// or wait on a freed ring ran on).
pub fn freed_ring(t: &Thread, op: i64, address: i64, name: &str) -> Option<super::context::Stop> {
    if !ANY_FREED.load(Ordering::Acquire) {
        return None;
    }
    let (alloc, free) = t
        .run()
        .heap
        .lock()
        .ok()
        .and_then(|heap| heap.freed_containing(address as usize))?;
    Some(t.error_with_notes(
        op,
        &format!("'{name}' uses an mbarrier ring that is already freed (use after free)"),
        &[
            (alloc, "the ring was allocated here".to_owned()),
            (free, "and freed here".to_owned()),
        ],
    ))
}

/// A memref descriptor's fields that a dealloc needs, read from the
/// C interface's argument: `rank >= 0` a pointer to a ranked descriptor
/// `{allocated, aligned, offset, sizes[rank], strides[rank]}`; `rank < 0`
/// a pointer to an unranked one `{rank, descriptor pointer}`.
struct Freed {
    /// The pointer `malloc` returned.
    allocated: usize,
    aligned: usize,
    offset: i64,
    /// `(size, stride)` per dimension.
    dims: Vec<(i64, i64)>,
}

impl Freed {
    /// The bytes from the first element to one past the last (elements of
    /// `element_bytes`, at least 1), and the address of the first.
    fn span(&self, element_bytes: i64) -> (usize, usize) {
        let size = element_bytes.max(1) as usize;
        let extent: i64 = 1 + self
            .dims
            .iter()
            .map(|&(n, s)| (n - 1).max(0).saturating_mul(s.saturating_abs()))
            .fold(0i64, i64::saturating_add);
        let low = self
            .aligned
            .wrapping_add((self.offset as usize).wrapping_mul(size));
        (low, (extent as usize).saturating_mul(size))
    }

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
                allocated: *raw as usize,
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
        let heap = t
            .run()
            .heap
            .lock()
            .map_err(|_| t.error(op, "the heap's lock is poisoned"))?;
        if let Err((message, notes)) = heap.check_free(memref.aligned, offset_bytes) {
            drop(heap);
            let message = named(t, op, &message);
            return Err(t.error_with_notes(op, &message, &notes));
        }
        drop(heap);
        pending_copy(t, op, &memref, element_bytes)?;
        let mut heap = t
            .run()
            .heap
            .lock()
            .map_err(|_| t.error(op, "the heap's lock is poisoned"))?;
        heap.free(op, memref.aligned);
        let release = heap.hold(
            memref.aligned,
            memref.allocated,
            memref.span(element_bytes).1,
        );
        drop(heap);
        for pointer in release {
            // SAFETY: a pointer that the JIT code's `malloc` returned, freed
            // once: the heap gave it out of its quarantine only now.
            unsafe { libc::free(pointer as *mut libc::c_void) }
        }
        Ok(())
    })
}

/// `message` about a dealloc, naming the op of id `op` (`memref.realloc`
/// for the dealloc a realloc became).
fn named(t: &Thread, op: i64, message: &str) -> String {
    let name = t.run().name(op).unwrap_or("memref.dealloc");
    message.replacen("'memref.dealloc'", &format!("'{name}'"), 1)
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
    let (low, bytes) = memref.span(element_bytes);
    let high = low.saturating_add(bytes);
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
        let message = named(
            t,
            op,
            &format!(
                "'memref.dealloc' frees a buffer that the pending 'apipe.copy' at {copy_at} still \
                 uses: no wait completes that copy before"
            ),
        );
        return Err(t.error(op, &message));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Heap, QUARANTINE_BYTES};

    /// A dealloc: the check, then the free.
    fn free(
        heap: &mut Heap,
        op: i64,
        aligned: usize,
        offset_bytes: Option<i64>,
    ) -> Result<(), (String, Vec<(i64, String)>)> {
        heap.check_free(aligned, offset_bytes)?;
        heap.free(op, aligned);
        Ok(())
    }

    #[test]
    fn a_second_free_names_the_alloc_and_the_first_free() {
        let mut heap = Heap::default();
        heap.allocated(3, 0x1000);
        assert!(free(&mut heap, 4, 0x1000, Some(0)).is_ok());
        let (message, notes) = free(&mut heap, 5, 0x1000, Some(0)).unwrap_err();
        assert!(message.contains("already freed"), "{message}");
        assert_eq!(notes.iter().map(|n| n.0).collect::<Vec<_>>(), vec![3, 4]);
        // malloc returns the address again: live again.
        heap.allocated(6, 0x1000);
        assert!(free(&mut heap, 7, 0x1000, Some(0)).is_ok());
    }

    #[test]
    fn views_and_unknown_memory_are_refused() {
        let mut heap = Heap::default();
        heap.allocated(1, 0x2000);
        let (message, notes) = free(&mut heap, 2, 0x2000, Some(16)).unwrap_err();
        assert!(message.contains("byte offset 16"), "{message}");
        assert_eq!(notes[0].0, 1);
        assert!(free(&mut heap, 2, 0x2000, None).is_err());
        let (message, _) = free(&mut heap, 2, 0x3000, Some(0)).unwrap_err();
        assert!(message.contains("no live 'memref.alloc'"), "{message}");
        // The refused frees left the buffer live.
        assert!(free(&mut heap, 3, 0x2000, Some(0)).is_ok());
    }

    #[test]
    fn uses_are_recognised_while_the_buffer_is_held_back_from_free() {
        let mut heap = Heap::default();
        heap.allocated(1, 0x1000);
        heap.allocated(2, 0x9000);
        assert_eq!(heap.freed_at(0x1000), None);
        free(&mut heap, 3, 0x1000, Some(0)).unwrap();
        assert!(heap.hold(0x1000, 0x0ff0, 64).is_empty());
        assert_eq!(heap.freed_at(0x1000), Some((1, 3)));
        // A second buffer past the quarantine's bytes releases the first
        // (its address may now be reused: no longer reported).
        free(&mut heap, 4, 0x9000, Some(0)).unwrap();
        assert_eq!(heap.hold(0x9000, 0x8ff0, QUARANTINE_BYTES), vec![0x0ff0]);
        assert_eq!(heap.freed_at(0x1000), None);
        assert_eq!(heap.freed_at(0x9000), Some((2, 4)));
        // Not real pointers: nothing for `Drop` to free.
        assert_eq!(heap.release_all(), vec![0x8ff0]);
    }
}
