//! The CPU emulation runtime of `apipe-run`: the `extern "C"` functions that
//! `apipe-to-emulation` calls in place of apipe ops, and the per-queue state
//! of DESIGN.md section 3.
//!
//! State, per queue `q` (one emulated thread: the JIT runs the entry on the
//! calling thread):
//! - `U_q`: the copies issued on `q` and not yet committed;
//! - `G_q`: a FIFO of committed groups, each with its copies and its token.
//!
//! Both live in one FIFO of pending copies per queue, each tagged with the
//! sequence number of its group, beside a FIFO of (token, sequence number)
//! of the committed groups not complete yet: no event allocates.
//!
//! Events and their effect:
//! 1. `copy` (PTX `cp.async`, PTX ISA 9.7.9.25.3.1): checks the indices
//!    against the sizes of both memrefs (an error names the op's location),
//!    then records the copy in `U_q` as addresses, not data: its read of
//!    `src` and write of `dst` happen later, as one action (a memmove: all of `src` is read
//!    before `dst` is written);
//! 2. `commit_group` (`cp.async.commit_group`): moves `U_q` into a new group
//!    at the tail of `G_q` and returns its token (group ids start at 1; 0 is
//!    the token of `apipe.ready`, complete from the start);
//! 3. `wait_group N` (`cp.async.wait_group N`): forces every group of `G_q`
//!    but the newest `N`, oldest first; on a queue with no commits at all it
//!    emits a note (once per op);
//! 4. `wait %t`: forces the group of `t` and every older group of its queue
//!    (groups complete in FIFO order); a token that no commit produced is an
//!    error;
//! 5. `memref.dealloc`: a buffer freed while a copy that reads or writes it
//!    is still pending is an error (on the GPU the copy would use freed
//!    memory);
//! 6. [`finish`] (after the entry returns): the end of the entry forces
//!    everything left, which nothing can observe any more; it warns about
//!    copies that were never committed.
//!
//! The completion policy ([`Completion`]) chooses the moment a copy lands,
//! between its issue and the forcing of its group: `lazy` at the forcing (a
//! missing wait shows as stale data), `eager` at issue (an early overwrite
//! shows), `random:SEED` at issue, at any later runtime event, or at the
//! forcing, with a reproducible pseudo-random choice (each pending copy lands
//! with probability 1/4 at each event, issue included).
//!
//! Errors: the first error is printed with the op's location, the runtime
//! then stops performing actions (every later call is a no-op, commits
//! return token 0) and [`finish`] reports failure, so the driver exits 1
//! after the entry returns; nothing unwinds through JIT frames.
//!
//! Output order: JIT code prints through C stdio (`printF32`, and
//! `printMemref*`, whose `std::cout` is synchronized with stdio). Before the
//! runtime writes a message, it flushes C stdio, so the streams interleave in
//! program order.

use std::{cell::Cell, collections::HashSet, collections::VecDeque, io::Write};

/// Name of the runtime function for `apipe.commit_group`:
/// `(id: i64, queue: i64) -> i64` (the token).
pub const COMMIT_GROUP_FN: &str = "apipe_emu_commit_group";
/// Name of the runtime function for `apipe.wait_group`:
/// `(id: i64, queue: i64, pending: i64)`.
pub const WAIT_GROUP_FN: &str = "apipe_emu_wait_group";
/// Name of the runtime function for one token of `apipe.wait`:
/// `(id: i64, token: i64)`.
pub const WAIT_FN: &str = "apipe_emu_wait";
/// Name of the runtime function for `apipe.ready`: `(id: i64, queue: i64) -> i64`.
pub const READY_FN: &str = "apipe_emu_ready";
/// Prefix of the runtime functions called before `memref.dealloc`, one
/// declaration per element type, all bound to [`apipe_emu_dealloc`]:
/// `(id: i64, element_bytes: i64, memref: memref<*xT>)`.
pub const DEALLOC_FN_PREFIX: &str = "apipe_emu_dealloc_";
/// Prefix of the runtime functions for `apipe.copy`, one declaration per
/// pair of memref types (`apipe_emu_copy_0`, ...), all bound to
/// [`apipe_emu_copy`].
pub const COPY_FN_PREFIX: &str = "apipe_emu_copy_";
/// The largest memref rank a copy can have in emulation (the copy function
/// takes this many indices per side).
pub const MAX_RANK: usize = 4;

/// When a copy lands (its read of `src` and write of `dst`, as one action).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    /// At the latest moment allowed: when a wait forces its group, or at the
    /// end of the entry function.
    Lazy,
    /// At issue.
    Eager,
    /// A reproducible pseudo-random moment between issue and forcing.
    Random(u64),
}

impl std::str::FromStr for Completion {
    type Err = String;

    /// Parses `lazy`, `eager`, `random` (seed 0) or `random:SEED`.
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "lazy" => Ok(Self::Lazy),
            "eager" => Ok(Self::Eager),
            "random" => Ok(Self::Random(0)),
            _ => match text.strip_prefix("random:") {
                Some(seed) => seed.parse().map(Self::Random).map_err(|_| {
                    format!("invalid seed '{seed}' in '--completion={text}': expected an unsigned integer")
                }),
                None => Err(format!(
                    "invalid completion '{text}': expected lazy, eager, random or random:SEED"
                )),
            },
        }
    }
}

/// One issued copy, as addresses: the data is read when it lands.
struct Copy {
    /// The id of the `apipe.copy` op (an index into the location table).
    op: i64,
    src: *const u8,
    /// Bytes between consecutive source elements.
    src_step: isize,
    dst: *mut u8,
    /// Bytes between consecutive destination elements.
    dst_step: isize,
    element_bytes: usize,
    /// Elements written to `dst`.
    elements: usize,
    /// Elements read from `src`; the rest of `dst` is zero-filled.
    src_elements: usize,
}

impl Copy {
    /// Performs the copy: reads every source element, then writes `dst`
    /// (zero past `src_elements`), so overlapping buffers read old data.
    fn land(&self) {
        let size = self.element_bytes;
        let read = self.src_elements * size;
        if self.src_step == size as isize && self.dst_step == size as isize {
            // SAFETY: the indices were checked against the memrefs' sizes at
            // issue, and a buffer is not freed while a copy of it is pending
            // (`apipe_emu_dealloc`). `copy` is a memmove: it reads all of
            // `src` before writing `dst`.
            unsafe {
                std::ptr::copy(self.src, self.dst, read);
                std::ptr::write_bytes(
                    self.dst.add(read),
                    0,
                    (self.elements - self.src_elements) * size,
                );
            }
            return;
        }
        let mut data = vec![0u8; self.elements * size];
        for k in 0..self.src_elements {
            // SAFETY: as above; `data` is a separate buffer.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    self.src.offset(k as isize * self.src_step),
                    data.as_mut_ptr().add(k * size),
                    size,
                )
            };
        }
        for k in 0..self.elements {
            // SAFETY: as above.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    data.as_ptr().add(k * size),
                    self.dst.offset(k as isize * self.dst_step),
                    size,
                )
            };
        }
    }
}

/// A copy that has not landed yet, or landed early under `random`.
struct Pending {
    /// The sequence number of its group on its queue (the number of commits
    /// on the queue before it was issued).
    group: u64,
    landed: bool,
    copy: Copy,
}

/// One queue: `U_q` and `G_q` of DESIGN.md section 3. Pending copies of all
/// its groups (and the uncommitted ones) sit in one FIFO, in issue order,
/// so no event allocates once the buffers have grown.
#[derive(Default)]
struct Queue {
    pending: VecDeque<Pending>,
    /// Copies issued and not committed, landed or not (for the exit warning).
    uncommitted_count: usize,
    /// The op of the first uncommitted copy.
    first_uncommitted: Option<i64>,
    /// Committed groups not complete yet: (token, sequence number).
    groups: VecDeque<(i64, u64)>,
    commit_count: u64,
}

impl Queue {
    /// Completes the oldest group: lands its copies that have not landed.
    fn complete_oldest(&mut self) {
        let Some((_, group)) = self.groups.pop_front() else {
            return;
        };
        while self.pending.front().is_some_and(|p| p.group <= group) {
            let pending = self.pending.pop_front().unwrap();
            if !pending.landed {
                pending.copy.land();
            }
        }
    }
}

/// The runtime state of one run.
struct State {
    completion: Completion,
    rng: u64,
    locations: Vec<String>,
    queues: Vec<Queue>,
    /// The queue of each token (index = token; token 0 is `ready`).
    token_queues: Vec<u32>,
    /// Ops that already emitted their note.
    noted: HashSet<i64>,
    failed: bool,
}

thread_local! {
    /// The run's state, owned through a raw pointer (a `Box` leaked by
    /// [`start`], reclaimed by [`finish`]): every apipe op of the program
    /// reaches it, and a `RefCell` costs a borrow check on each. Runtime
    /// functions never call back into JIT code, so no two `&mut` to it
    /// exist at once.
    static STATE: Cell<*mut State> = const { Cell::new(std::ptr::null_mut()) };
}

/// Starts a run on this thread: `locations[id]` is the source location of
/// the apipe op with that id (from `apipe-to-emulation`).
pub fn start(completion: Completion, locations: Vec<String>) {
    let seed = match completion {
        Completion::Random(seed) => seed,
        _ => 0,
    };
    let state = Box::new(State {
        completion,
        rng: seed ^ 0x9e37_79b9_7f4a_7c15,
        locations,
        queues: Vec::new(),
        token_queues: vec![u32::MAX],
        noted: HashSet::new(),
        failed: false,
    });
    take_state();
    STATE.with(|cell| cell.set(Box::into_raw(state)));
}

/// Ends the run: the end of the entry is the last moment a copy may land,
/// and none can be observed after it, so pending copies are dropped; warns
/// about copies never committed; flushes the output.
/// Returns `false` if a run-time error was reported.
pub fn finish() -> bool {
    let ok = (|| {
        let Some(mut state) = take_state() else {
            return true;
        };
        if state.failed {
            return false;
        }
        for q in 0..state.queues.len() {
            let queue = &mut state.queues[q];
            // Nothing can observe a copy that lands after the entry returns,
            // and its buffers may be freed: drop the pending ones.
            queue.groups.clear();
            queue.pending.clear();
            if let Some(op) = queue.first_uncommitted {
                let count = queue.uncommitted_count;
                state.message(
                    op,
                    "warning",
                    &format!(
                        "{count} {} on queue {q} {} never committed: no 'apipe.commit_group' \
                         follows (this copy is the first)",
                        if count == 1 { "copy" } else { "copies" },
                        if count == 1 { "was" } else { "were" }
                    ),
                );
            }
        }
        true
    })();
    flush_all();
    ok
}

/// Flushes C stdio (the JIT's prints) and Rust's stdout and stderr.
pub fn flush_all() {
    unsafe extern "C" {
        fn fflush(stream: *mut std::ffi::c_void) -> i32;
    }
    // SAFETY: `fflush(NULL)` flushes every C output stream.
    unsafe { fflush(std::ptr::null_mut()) };
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
}

impl State {
    /// Prints `file:line:col: kind: message` for op `op`, in program order.
    fn message(&self, op: i64, kind: &str, message: &str) {
        flush_all();
        let location = usize::try_from(op)
            .ok()
            .and_then(|i| self.locations.get(i))
            .map_or("<unknown>:0:0", String::as_str);
        let _ = writeln!(std::io::stderr(), "{location}: {kind}: {message}");
    }

    fn error(&mut self, op: i64, message: &str) {
        self.message(op, "error", message);
        self.failed = true;
    }

    fn queue(&mut self, queue: i64) -> &mut Queue {
        let q = queue.max(0) as usize;
        if self.queues.len() <= q {
            self.queues.resize_with(q + 1, Queue::default);
        }
        &mut self.queues[q]
    }

    fn next_random(&mut self) -> u64 {
        // splitmix64
        self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// The step every event takes under `random`: each pending copy lands
    /// with probability 1/4. Landing early never breaks FIFO completion: a
    /// group completes only when forced, after every older group.
    fn tick(&mut self) {
        if !matches!(self.completion, Completion::Random(_)) {
            return;
        }
        let mut queues = std::mem::take(&mut self.queues);
        for queue in &mut queues {
            for pending in queue.pending.iter_mut().filter(|p| !p.landed) {
                if self.next_random().is_multiple_of(4) {
                    pending.copy.land();
                    pending.landed = true;
                }
            }
        }
        self.queues = queues;
    }
}

/// Runs `f` on the state unless there is none or an error stopped the run.
fn with_state<R>(default: R, f: impl FnOnce(&mut State) -> R) -> R {
    let state = STATE.with(Cell::get);
    // SAFETY: null or the live state of this thread's run (see `STATE`); no
    // other reference to it exists during a runtime call.
    match unsafe { state.as_mut() } {
        Some(state) if !state.failed => f(state),
        _ => default,
    }
}

/// Ends the ownership of the state by `STATE`, if there is a run.
fn take_state() -> Option<Box<State>> {
    let state = STATE.with(|cell| cell.replace(std::ptr::null_mut()));
    // SAFETY: a pointer from `Box::into_raw` in `start`, taken once.
    (!state.is_null()).then(|| unsafe { Box::from_raw(state) })
}

/// A memref descriptor as the LLVM lowering lays it out:
/// `{allocated, aligned, offset, sizes[rank], strides[rank]}`.
struct Descriptor {
    aligned: *mut u8,
    offset: i64,
    rank: usize,
    sizes: [i64; MAX_RANK],
    strides: [i64; MAX_RANK],
}

impl Descriptor {
    /// # Safety
    /// `raw` points to a ranked descriptor of rank `rank` (at most
    /// [`MAX_RANK`], which `apipe-to-emulation` checks).
    unsafe fn read(rank: i64, raw: *const i64) -> Self {
        // Plain loops and comparisons: the runtime is on the hot path of
        // every copy, and workspace crates build without optimization in
        // the dev profile.
        let rank = if rank < 0 {
            0
        } else if rank as usize > MAX_RANK {
            MAX_RANK
        } else {
            rank as usize
        };
        let mut sizes = [0; MAX_RANK];
        let mut strides = [0; MAX_RANK];
        // SAFETY: the layout above; every field is 8 bytes on x86-64.
        unsafe {
            let mut d = 0;
            while d < rank {
                sizes[d] = *raw.add(3 + d);
                strides[d] = *raw.add(3 + rank + d);
                d += 1;
            }
            Self {
                aligned: *(raw.add(1) as *const *mut u8),
                offset: *raw.add(2),
                rank,
                sizes,
                strides,
            }
        }
    }

    /// Checks `indices` (the last one starting a run of `count` elements)
    /// against the sizes; `Err` describes the violation.
    fn check(&self, indices: &[i64], count: i64) -> Result<(), String> {
        let mut bad = count < 0;
        let mut d = 0;
        while d < self.rank {
            let (i, size) = (indices[d], self.sizes[d]);
            // The last index starts a run of `count` elements.
            let end = if d + 1 == self.rank {
                size - count
            } else {
                size - 1
            };
            bad |= i < 0 || i > end;
            d += 1;
        }
        if bad {
            Err(format!(
                "indices {:?} + {count} elements, sizes {:?}",
                &indices[..self.rank],
                &self.sizes[..self.rank]
            ))
        } else {
            Ok(())
        }
    }

    fn address(&self, indices: &[i64], element_bytes: usize) -> *mut u8 {
        let mut linear = self.offset;
        let mut d = 0;
        while d < indices.len() && d < self.rank {
            linear += indices[d] * self.strides[d];
            d += 1;
        }
        self.aligned
            .wrapping_offset(linear as isize * element_bytes as isize)
    }
}

/// The address of the element at `indices` of the memref `(rank,
/// descriptor)` and the byte step along its innermost dimension, if the
/// indices, with a run of `count` elements from the last one, lie inside its
/// sizes. The hot path of every copy: one pass over the descriptor, no
/// intermediate struct.
///
/// # Safety
/// `raw` points to a ranked descriptor of rank `rank`.
unsafe fn locate(
    rank: i64,
    raw: *const i64,
    indices: &[i64; MAX_RANK],
    count: i64,
    element_bytes: isize,
) -> Option<(*const u8, isize)> {
    if rank < 1 || rank > MAX_RANK as i64 || count < 0 {
        return None;
    }
    let rank = rank as usize;
    // SAFETY: the layout of `Descriptor`: 3 + 2 rank fields of 8 bytes on
    // x86-64. One slice: a debug build checks each raw read separately.
    let fields = unsafe { std::slice::from_raw_parts(raw, 3 + 2 * rank) };
    let mut linear = fields[2];
    let mut d = 0;
    while d < rank {
        let (i, size, stride) = (indices[d], fields[3 + d], fields[3 + rank + d]);
        let end = if d + 1 == rank {
            size - count
        } else {
            size - 1
        };
        if i < 0 || i > end {
            return None;
        }
        linear += i * stride;
        d += 1;
    }
    let aligned = fields[1] as usize as *const u8;
    let step = fields[2 + 2 * rank] as isize * element_bytes;
    Some((
        aligned.wrapping_offset(linear as isize * element_bytes),
        step,
    ))
}

/// `apipe.copy`. `src`/`dst` are unranked memrefs (rank, pointer to the
/// ranked descriptor); `indices` holds the source indices then the
/// destination indices, each padded to [`MAX_RANK`]; `src_elements < 0`
/// means "all `elements`".
///
/// # Safety
/// Called by JIT code with descriptors of live memrefs.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn apipe_emu_copy(
    op: i64,
    queue: i64,
    element_bytes: i64,
    elements: i64,
    src_elements: i64,
    src_rank: i64,
    src: *const i64,
    dst_rank: i64,
    dst: *const i64,
    s0: i64,
    s1: i64,
    s2: i64,
    s3: i64,
    d0: i64,
    d1: i64,
    d2: i64,
    d3: i64,
) {
    with_state((), |state| {
        let src_count = if src_elements < 0 {
            elements
        } else {
            src_elements
        };
        if src_count > elements {
            return state.error(
                op,
                &format!("'apipe.copy' src_elements = {src_count} exceeds elements = {elements}"),
            );
        }
        let size = element_bytes as isize;
        let (src_indices, dst_indices) = ([s0, s1, s2, s3], [d0, d1, d2, d3]);
        // SAFETY (both): see the function's contract.
        let Some((src_at, src_step)) =
            (unsafe { locate(src_rank, src, &src_indices, src_count, size) })
        else {
            let src = unsafe { Descriptor::read(src_rank, src) };
            let e = src.check(&src_indices, src_count).err().unwrap_or_default();
            return state.error(op, &format!("'apipe.copy' reads outside its source: {e}"));
        };
        let Some((dst_at, dst_step)) =
            (unsafe { locate(dst_rank, dst, &dst_indices, elements, size) })
        else {
            let dst = unsafe { Descriptor::read(dst_rank, dst) };
            let e = dst.check(&dst_indices, elements).err().unwrap_or_default();
            return state.error(
                op,
                &format!("'apipe.copy' writes outside its destination: {e}"),
            );
        };
        let copy = Copy {
            op,
            src: src_at,
            src_step,
            dst: dst_at as *mut u8,
            dst_step,
            element_bytes: size as usize,
            elements: elements as usize,
            src_elements: src_count as usize,
        };
        let eager = state.completion == Completion::Eager;
        let q = state.queue(queue);
        q.uncommitted_count += 1;
        q.first_uncommitted.get_or_insert(copy.op);
        if eager {
            copy.land();
        } else {
            let group = q.commit_count;
            q.pending.push_back(Pending {
                group,
                landed: false,
                copy,
            });
            state.tick();
        }
    })
}

/// `apipe.commit_group`: returns the new group's token.
pub extern "C" fn apipe_emu_commit_group(_op: i64, queue: i64) -> i64 {
    with_state(0, |state| {
        let token = state.token_queues.len() as i64;
        state.token_queues.push(queue as u32);
        let q = state.queue(queue);
        q.uncommitted_count = 0;
        q.first_uncommitted = None;
        let group = q.commit_count;
        q.groups.push_back((token, group));
        q.commit_count += 1;
        state.tick();
        token
    })
}

/// `apipe.wait_group {pending}`.
pub extern "C" fn apipe_emu_wait_group(op: i64, queue: i64, pending: i64) {
    with_state((), |state| {
        if state.queue(queue).commit_count == 0 && state.noted.insert(op) {
            state.message(
                op,
                "note",
                &format!("'apipe.wait_group' on queue {queue}, which has no commits yet: it waits for nothing"),
            );
        }
        let keep = pending.max(0) as usize;
        let q = state.queue(queue);
        while q.groups.len() > keep {
            q.complete_oldest();
        }
        state.tick();
    })
}

/// `apipe.wait` on one token.
pub extern "C" fn apipe_emu_wait(op: i64, token: i64) {
    with_state((), |state| {
        if token == 0 {
            return state.tick();
        }
        let Some(&queue) = usize::try_from(token)
            .ok()
            .and_then(|t| state.token_queues.get(t))
        else {
            return state.error(
                op,
                &format!("'apipe.wait' on token {token}, which no 'apipe.commit_group' produced"),
            );
        };
        let q = state.queue(queue as i64);
        while q.groups.front().is_some_and(|&(t, _)| t <= token) {
            q.complete_oldest();
        }
        state.tick();
    })
}

/// Before `memref.dealloc` of the unranked memref `(rank, descriptor)`:
/// fails the run if a pending copy reads or writes the freed buffer.
///
/// # Safety
/// Called by JIT code with the descriptor of a live memref.
pub unsafe extern "C" fn apipe_emu_dealloc(
    op: i64,
    element_bytes: i64,
    rank: i64,
    memref: *const i64,
) {
    with_state((), |state| {
        // SAFETY: see the function's contract.
        let memref = unsafe { Descriptor::read(rank, memref) };
        let size = element_bytes.max(1) as usize;
        let extent: i64 = 1 + memref
            .sizes
            .iter()
            .zip(&memref.strides)
            .map(|(&n, &s)| (n - 1).max(0) * s.abs())
            .sum::<i64>();
        let low = memref.address(&[], size) as usize;
        let high = low + extent as usize * size;
        let inside = |p: usize| (low..high).contains(&p);
        let pending = state.queues.iter().find_map(|queue| {
            queue
                .pending
                .iter()
                .filter(|p| !p.landed)
                .find(|p| inside(p.copy.src as usize) || inside(p.copy.dst as usize))
                .map(|p| p.copy.op)
        });
        if let Some(copy) = pending {
            let copy_at = usize::try_from(copy)
                .ok()
                .and_then(|i| state.locations.get(i))
                .cloned()
                .unwrap_or_default();
            state.error(
                op,
                &format!(
                    "'memref.dealloc' frees a buffer that the pending 'apipe.copy' at {copy_at} still \
                     uses: no wait completes that copy before"
                ),
            );
        }
    })
}

/// `apipe.ready`: the token of a group that is already complete.
pub extern "C" fn apipe_emu_ready(_op: i64, _queue: i64) -> i64 {
    with_state(0, |state| {
        state.tick();
        0
    })
}

/// The runtime's symbols for the JIT: `(name, address)` of the fixed
/// functions; each copy declaration `COPY_FN_PREFIX<k>` binds to
/// [`copy_symbol`].
pub fn symbols() -> Vec<(&'static str, *mut ())> {
    vec![
        (COMMIT_GROUP_FN, apipe_emu_commit_group as *mut ()),
        (WAIT_GROUP_FN, apipe_emu_wait_group as *mut ()),
        (WAIT_FN, apipe_emu_wait as *mut ()),
        (READY_FN, apipe_emu_ready as *mut ()),
    ]
}

/// The address of [`apipe_emu_copy`].
pub fn copy_symbol() -> *mut () {
    apipe_emu_copy as *mut ()
}

/// The address of [`apipe_emu_dealloc`].
pub fn dealloc_symbol() -> *mut () {
    apipe_emu_dealloc as *mut ()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rank-1 descriptor over `data`.
    fn descriptor(data: &mut [f32]) -> [i64; 5] {
        let p = data.as_mut_ptr() as i64;
        [p, p, 0, data.len() as i64, 1]
    }

    fn copy(src: &[i64; 5], dst: &[i64; 5], at: i64, to: i64, n: i64, queue: i64) {
        // SAFETY: rank-1 descriptors of live buffers.
        unsafe {
            apipe_emu_copy(
                0,
                queue,
                4,
                n,
                -1,
                1,
                src.as_ptr(),
                1,
                dst.as_ptr(),
                at,
                0,
                0,
                0,
                to,
                0,
                0,
                0,
            )
        }
    }

    #[test]
    fn lazy_lands_at_the_wait_in_fifo_order() {
        let mut a = [1.0f32, 2.0, 3.0, 4.0];
        let mut b = [0.0f32; 4];
        let (sa, sb) = (descriptor(&mut a), descriptor(&mut b));
        start(Completion::Lazy, vec!["x:1:1".into()]);
        copy(&sa, &sb, 0, 0, 2, 0);
        apipe_emu_commit_group(0, 0);
        copy(&sa, &sb, 2, 2, 2, 0);
        let t2 = apipe_emu_commit_group(0, 0);
        assert_eq!(b, [0.0; 4], "nothing lands before a wait");
        apipe_emu_wait_group(0, 0, 1);
        assert_eq!(b, [1.0, 2.0, 0.0, 0.0], "only the older group");
        apipe_emu_wait(0, t2);
        assert_eq!(b, [1.0, 2.0, 3.0, 4.0]);
        assert!(finish());
    }

    #[test]
    fn queues_are_independent_and_a_token_forces_older_groups() {
        let mut a = [1.0f32, 2.0, 3.0, 4.0];
        let mut b = [0.0f32; 4];
        let (sa, sb) = (descriptor(&mut a), descriptor(&mut b));
        start(Completion::Lazy, vec!["x:1:1".into()]);
        copy(&sa, &sb, 0, 0, 1, 0);
        apipe_emu_commit_group(0, 0);
        copy(&sa, &sb, 1, 1, 1, 1);
        let q1 = apipe_emu_commit_group(0, 1);
        copy(&sa, &sb, 2, 2, 1, 0);
        apipe_emu_commit_group(0, 0);
        copy(&sa, &sb, 3, 3, 1, 0);
        let newest = apipe_emu_commit_group(0, 0);
        apipe_emu_wait_group(0, 1, 0);
        assert_eq!(b, [0.0, 2.0, 0.0, 0.0], "queue 1 only");
        apipe_emu_wait(0, q1);
        assert_eq!(b, [0.0, 2.0, 0.0, 0.0], "already complete: no effect");
        apipe_emu_wait(0, newest);
        assert_eq!(
            b,
            [1.0, 2.0, 3.0, 4.0],
            "the newest token forces the older groups of its queue"
        );
        assert!(finish());
    }

    #[test]
    fn eager_lands_at_issue_and_random_is_reproducible() {
        let mut a = [1.0f32, 2.0];
        let mut b = [0.0f32; 2];
        let (sa, sb) = (descriptor(&mut a), descriptor(&mut b));
        start(Completion::Eager, vec![]);
        copy(&sa, &sb, 0, 0, 2, 3);
        assert_eq!(b, [1.0, 2.0]);
        apipe_emu_commit_group(0, 3);
        assert!(finish());

        let landed_at = |seed| {
            let mut a = [5.0f32];
            let mut b = [0.0f32];
            let (sa, sb) = (descriptor(&mut a), descriptor(&mut b));
            start(Completion::Random(seed), vec![]);
            copy(&sa, &sb, 0, 0, 1, 0);
            let mut events = 0;
            while b[0] == 0.0 && events < 100 {
                apipe_emu_ready(0, 0);
                events += 1;
            }
            apipe_emu_commit_group(0, 0);
            assert!(finish());
            events
        };
        let seen: Vec<i32> = (0..8).map(landed_at).collect();
        assert_eq!(seen, (0..8).map(landed_at).collect::<Vec<_>>());
        assert!(
            seen.iter().any(|&e| e > 0),
            "some seed lands late: {seen:?}"
        );
    }

    #[test]
    fn out_of_bounds_copy_and_unknown_token_fail_the_run() {
        let mut a = [0.0f32; 4];
        let mut b = [0.0f32; 2];
        let (sa, sb) = (descriptor(&mut a), descriptor(&mut b));
        start(Completion::Lazy, vec!["f.mlir:3:5".into()]);
        copy(&sa, &sb, 2, 0, 4, 0);
        assert!(!finish());
        start(Completion::Lazy, vec!["f.mlir:3:5".into()]);
        apipe_emu_wait(0, 7);
        assert!(!finish());
    }

    #[test]
    fn parses_completion() {
        assert_eq!("lazy".parse(), Ok(Completion::Lazy));
        assert_eq!("random:42".parse(), Ok(Completion::Random(42)));
        assert!("random:x".parse::<Completion>().is_err());
        assert!("late".parse::<Completion>().is_err());
    }
}
