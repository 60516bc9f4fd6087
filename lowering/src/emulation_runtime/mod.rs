//! The CPU emulation runtime of `apipe-run`: the `extern "C"` functions that
//! `apipe-to-emulation` calls in place of apipe ops, GPU ids, barriers and
//! kernel launches, and the state behind them.
//!
//! Threads: the host entry runs on one emulated thread; each
//! `gpu.launch_func` runs every GPU thread of every block as an emulated
//! thread of its own ([`launch`]). Each thread runs on a fiber, so a
//! barrier switches threads and a run-time error stops the program without
//! unwinding JIT frames ([`context`]).
//!
//! Per thread and per queue `q` ([`queues`]): `U_q` (copies issued, not
//! committed) and `G_q` (a FIFO of committed groups), as in PTX where
//! `cp.async` groups are per thread. Events:
//! 1. `copy` (PTX `cp.async`, PTX ISA 9.7.9.25.3.1): checks the queue
//!    (at least 0) and the indices against the sizes of both memrefs (an
//!    error names the op's location), then records the copy in `U_q` as
//!    addresses, not data: its read of `src` and write of `dst` happen
//!    later, as one action (a memmove);
//! 2. `commit_group` (`cp.async.commit_group`): moves `U_q` into a new
//!    group at the tail of `G_q` and returns its token;
//! 3. `wait_group N` (`cp.async.wait_group N`): forces every group of `G_q`
//!    but the newest `N`, oldest first; on a queue with no commits at all
//!    it emits a note (once per op);
//! 4. `wait %t`: forces the group of `t` and every older group of its
//!    queue (groups complete in FIFO order); a token that no commit
//!    produced is an error;
//! 5. `memref.alloc` / `memref.dealloc` ([`heap`]): freeing anything but
//!    a live buffer of `memref.alloc` (twice, an alloca, a global, a view
//!    at an offset) is an error, and so is a buffer freed while a copy that
//!    reads or writes it is still pending;
//! 6. the end of the entry forces everything left, which nothing can
//!    observe any more, and warns about copies never committed.
//!
//! The completion policy ([`Completion`]) chooses the moment a copy lands,
//! between its issue and the forcing of its group: `lazy` at the forcing (a
//! missing wait shows as stale data), `eager` at issue (an early overwrite
//! shows), `random:SEED` at issue, at any later runtime event of the same
//! thread, or at the forcing (each pending copy lands with probability 1/4
//! at each event). The schedule ([`Schedule`]) orders the threads of a
//! block between barriers, so a missing barrier shows as wrong data too.
//!
//! Errors: the first run-time error is printed with the op's location (and
//! the GPU thread), and the program stops there ([`context::entry`]); the
//! driver exits 1. Races ([`racecheck`], and writes into the global
//! source of a copy in flight, [`copy_sources`]) are all reported (once
//! per pair of ops) and stop the program at the end of their launch; a
//! write of the host into the source of its own copy in flight stops it
//! at the write.
//!
//! Output order: JIT code prints through C stdio (`printF32`, and
//! `printMemref*`, whose `std::cout` is synchronized with stdio). Before the
//! runtime writes a message, it flushes C stdio, so the streams interleave
//! in program order.

pub mod context;
pub mod copy_sources;
pub mod descriptor;
pub mod heap;
pub mod launch;
pub mod mbarrier;
pub mod overflow;
pub mod queues;
pub mod racecheck;
pub mod region_access;

pub use context::{flush_all, set_quiet, KernelInfo, RunConfig};

use context::{current, entry, Event, Run, Stop, Thread};
use copy_sources::SourceRead;
use corosensei::{stack::DefaultStack, Coroutine};
use descriptor::{locate, Descriptor};
use overflow::Resumed;
use queues::{token, untoken, Copy, Pending};
use racecheck::{GlobalWrite, Kind, IN_FLIGHT};
use std::ffi::c_void;

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
/// Name of the runtime function called when a run-time check fails
/// (`cf.assert`, bounds of vector accesses): `(id: i64)`; never returns.
pub const CHECK_FAILED_FN: &str = "apipe_emu_check_failed";
/// Name of the runtime function called when an `scf.for` starts with a step
/// that is not positive: `(id: i64, step: i64)`; never returns.
pub const BAD_STEP_FN: &str = "apipe_emu_bad_step";
/// Name of the runtime function called where stack memory is released
/// (after a call to a function with `memref.alloca`s returns, at the end
/// of a `memref.alloca_scope`): `(id: i64, stack_pointer: i64)`
/// ([`apipe_emu_stack_release`]).
pub const STACK_RELEASE_FN: &str = "apipe_emu_stack_release";
/// `apipe_emu_scope_release(op id, address, bytes)`: the end of a
/// `memref.alloca_scope` released the `memref.alloca` at `address` of
/// `bytes` bytes ([`apipe_emu_scope_release`]).
pub const SCOPE_RELEASE_FN: &str = "apipe_emu_scope_release";
/// Name of the runtime function for `gpu.barrier`: `(id: i64)`.
pub const BARRIER_FN: &str = "apipe_emu_barrier";
/// Name of the runtime function for a GPU id outside a kernel's own body
/// (device functions): `(id: i64, which: i64) -> i64`, `which` = 3 * kind
/// + dimension with kinds thread, block, block size, grid size.
pub const GPU_ID_FN: &str = "apipe_emu_gpu_id";
/// Name of the runtime function that appends one 8-byte argument slot for
/// the next launch: `(value: i64)`.
pub const LAUNCH_ARGUMENT_FN: &str = "apipe_emu_launch_argument";
/// Name of the runtime function for `gpu.launch_func`:
/// `(id, kernel, grid x, y, z, block x, y, z: i64)`.
pub const LAUNCH_FN: &str = "apipe_emu_launch";
/// Name of the race checker's hook before a workgroup-memory access:
/// `(id, address, bytes, kind: i64)`, kind 0 a read, 1 a write.
pub const SHARED_ACCESS_FN: &str = "apipe_emu_shared_access";
/// Name of the race checker's hook before a global store or atomic
/// update of one element in a kernel: `(id, address, bytes, kind: i64)`,
/// kind 1 a write, 2 an atomic update.
pub const GLOBAL_WRITE_FN: &str = "apipe_emu_global_write";
/// Name of the hook before an access of the host (code outside kernels)
/// to one element, called only while a host copy is in flight
/// ([`copy_sources::HOST_WATCH_GLOBAL`]): `(id, address, bytes, kind:
/// i64)`, kind 0 a read, 1 a write, 2 an atomic update.
pub const HOST_ACCESS_FN: &str = "apipe_emu_host_access";
/// Name of the race checker's hook before an access through an
/// `!llvm.ptr` in a kernel: `(id, address, bytes, kind: i64)`, kind 0 a
/// read, 1 a write, 2 an atomic update ([`apipe_emu_pointer_access`]).
pub const POINTER_ACCESS_FN: &str = "apipe_emu_pointer_access";
/// Name of the runtime function called after `memref.alloc` (and its null
/// check): `(id: i64, aligned_pointer: i64)` ([`heap::apipe_emu_alloc`]).
pub const ALLOC_FN: &str = "apipe_emu_alloc";
/// Name of the runtime function called before an op that uses a buffer
/// which a `memref.dealloc` of its function frees: `(id: i64,
/// aligned_pointer: i64)` ([`heap::apipe_emu_live`]).
pub const LIVE_FN: &str = "apipe_emu_live";
/// Prefix of the runtime functions called before `memref.dealloc`, one
/// declaration per memref type, bound through the C interface
/// (`_mlir_ciface_<name>`) to [`heap::apipe_emu_dealloc`]:
/// `(id: i64, element_bytes: i64, rank: i64, memref)`, rank -1 for an
/// unranked memref, element_bytes 0 when not a whole number of bytes.
pub const DEALLOC_FN_PREFIX: &str = "apipe_emu_dealloc_";
/// Prefix of the race checker's hooks before an op that accesses a region
/// of a memref (not one element), one declaration per memref type, bound
/// through the C interface (`_mlir_ciface_<name>`) to
/// [`region_access::apipe_emu_region_access`]: `(id, kind, element_bytes,
/// rank: i64, memref, starts: 4 x i64, extents: 4 x i64)`, kind 0 a read,
/// 1 a write, 2 an atomic update; an extent -1 reaches the end of its
/// dimension.
pub const REGION_FN_PREFIX: &str = "apipe_emu_region_access_";
/// Prefix of the runtime functions for `apipe.copy`, one declaration per
/// pair of memref types (`apipe_emu_copy_0`, ...), bound through the C
/// interface (`_mlir_ciface_<name>`) to [`apipe_emu_copy`].
pub const COPY_FN_PREFIX: &str = "apipe_emu_copy_";
/// The prefix MLIR's C interface gives the functions it wraps.
pub const CIFACE_PREFIX: &str = "_mlir_ciface_";
/// The largest memref rank a copy can have in emulation (the copy function
/// takes this many indices per side).
pub const MAX_RANK: usize = 4;
/// Bytes of stack of the host entry's fiber (reserved, committed on use).
pub const HOST_STACK_BYTES: usize = 1 << 30;

/// When a copy lands (its read of `src` and write of `dst`, as one action).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    /// At the latest moment allowed: when a wait forces its group, or at the
    /// end of the entry function (of the block, for a GPU thread).
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

/// The order in which the threads of a block run between two barriers, and
/// the order in which the blocks of a launch start (with one job, the order
/// they run in: CUDA gives no order between blocks, so a kernel whose
/// output depends on it shows it as different output between schedules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Thread 0 first (linear thread id, x fastest); block 0 first.
    Forward,
    /// The last thread first; the last block first.
    Reverse,
    /// A reproducible pseudo-random permutation per block and barrier
    /// interval; the blocks in a reproducible pseudo-random order.
    Random(u64),
}

impl Schedule {
    /// The block that starts `i`-th among `blocks` (a bijection of
    /// `0..blocks`; for `Random`, `i -> (a i + c) mod blocks` with `a`
    /// coprime to `blocks`, both from the seed: no table for huge grids).
    pub fn block(self, i: usize, blocks: usize) -> usize {
        match self {
            Schedule::Forward => i,
            Schedule::Reverse => blocks - 1 - i,
            Schedule::Random(seed) => {
                let n = blocks as u128;
                let mut a = splitmix64(seed) as u128 % n;
                while a == 0 || gcd(a, n) != 1 {
                    a += 1;
                }
                let c = splitmix64(seed ^ 0x5851_f42d_4c95_7f2d) as u128 % n;
                ((a * i as u128 + c) % n) as usize
            }
        }
    }
}

/// SplitMix64's output function: a well-mixed 64-bit value of `x`.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl std::str::FromStr for Schedule {
    type Err = String;

    /// Parses `forward`, `reverse`, `random` (seed 0) or `random:SEED`.
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "forward" => Ok(Self::Forward),
            "reverse" => Ok(Self::Reverse),
            "random" => Ok(Self::Random(0)),
            _ => match text.strip_prefix("random:") {
                Some(seed) => seed.parse().map(Self::Random).map_err(|_| {
                    format!("invalid seed '{seed}' in '--schedule={text}': expected an unsigned integer")
                }),
                None => Err(format!(
                    "invalid schedule '{text}': expected forward, reverse, random or random:SEED"
                )),
            },
        }
    }
}

/// Runs `body` as the host entry of a run configured by `config`, on a
/// fiber; returns `false` if a run-time error was reported (the program
/// stopped at it). At the end, copies never committed get a warning.
pub fn run_host(config: RunConfig, body: impl FnOnce()) -> bool {
    // Nothing of an earlier run (another completion mode) survives.
    mbarrier::forget_all();
    let run = Run::new(config);
    let seed = match run.config.completion {
        Completion::Random(seed) => seed,
        _ => 0,
    };
    let mut host = Thread::new(&run, seed);
    let host_ptr: *mut Thread = &mut host;
    let stack = match DefaultStack::new(HOST_STACK_BYTES) {
        Ok(stack) => stack,
        Err(e) => {
            run.error(-1, &format!("cannot allocate the entry's stack: {e}"), &[]);
            return false;
        }
    };
    {
        use corosensei::stack::Stack;
        host.stack = (stack.limit().get(), stack.base().get());
    }
    // SAFETY: the fiber runs to completion or is reset below, before `run`,
    // `host` and `body`'s borrows end.
    let mut fiber: Coroutine<(), Event, (), DefaultStack> = unsafe {
        Coroutine::with_stack_unchecked(stack, move |yielder, ()| {
            (*host_ptr).yielder = yielder;
            body();
        })
    };
    overflow::install();
    let previous = context::set_current(host_ptr);
    let result = overflow::resume(&mut fiber);
    context::set_current(previous);
    let ok = match result {
        Resumed::Return => {
            host.yielder = std::ptr::null();
            finish(&mut host)
        }
        Resumed::Overflow => {
            host.yielder = std::ptr::null();
            run.error(
                run.config.entry_op,
                &format!(
                    "the program overflowed the entry's stack of {}: recursion too deep, or a \
                     'memref.alloca' in a loop (its memory is freed only when the function \
                     returns; wrap the loop body in 'memref.alloca_scope')",
                    overflow::describe_bytes(HOST_STACK_BYTES)
                ),
                &[],
            );
            false
        }
        Resumed::Yield(_) => {
            // SAFETY: the fiber stopped at a run-time error from frames
            // without destructors; it is never resumed.
            unsafe { fiber.force_reset() };
            false
        }
    };
    drop(fiber);
    flush_all();
    mbarrier::forget_all();
    ok && !run.failed.load(std::sync::atomic::Ordering::SeqCst)
}

/// Runs the JIT-compiled packed entry `entry` (no arguments, no results)
/// under the runtime; see [`run_host`].
pub fn run_entry(config: RunConfig, entry: unsafe extern "C" fn(*mut *mut c_void)) -> bool {
    run_host(config, || {
        let mut arguments: [*mut c_void; 0] = [];
        // SAFETY: the entry takes no arguments and returns nothing.
        unsafe { entry(arguments.as_mut_ptr()) }
    })
}

/// Step 6: the end of the entry is the last moment a copy may land, and
/// none can be observed after it (its buffers may be freed), so pending
/// copies are dropped; warns about copies never committed.
fn finish(host: &mut Thread) -> bool {
    let run = host.run();
    host.host_sources.clear();
    for queue in &mut host.queues.slots {
        queue.groups.clear();
        queue.pending.clear();
        if let Some(op) = queue.first_uncommitted {
            let count = queue.uncommitted_count;
            run.message(
                op,
                "warning",
                &format!(
                    "{count} {} on queue {} {} never committed: no 'apipe.commit_group' \
                     follows (this copy is the first)",
                    if count == 1 { "copy" } else { "copies" },
                    queue.number,
                    if count == 1 { "was" } else { "were" }
                ),
                &[],
                false,
            );
        }
    }
    true
}

/// The slot of queue `queue` of `t`, or an error at `op`.
fn queue_slot(t: &mut Thread, op: i64, queue: i64) -> Result<usize, Stop> {
    if queue < 0 {
        return Err(t.error(
            op,
            &format!("queue {queue} is negative: queues are numbered from 0"),
        ));
    }
    t.queues.slot(queue).ok_or_else(|| {
        t.error(
            op,
            &format!(
                "queue {queue} is one more distinct queue than the {} a thread may use",
                queues::MAX_QUEUES
            ),
        )
    })
}

/// The byte range `[start, end)` of workgroup memory of `t`'s block that
/// `(address, bytes)` covers, if any.
fn shared_range(t: &Thread, address: usize, bytes: usize) -> Option<(usize, usize)> {
    // SAFETY: null or the live block of a running GPU thread.
    let block = unsafe { t.block.as_ref() }?;
    let base = block.shared as usize;
    let offset = address.checked_sub(base)?;
    (offset < block.shared_bytes).then_some((offset, offset + bytes))
}

/// Race checker: records an access of `t` by op `op` and reports a race.
#[inline]
fn check_shared(t: &mut Thread, op: i64, kind: Kind, start: usize, end: usize, epoch: Option<u32>) {
    // SAFETY: null or the live block of a running GPU thread.
    let Some(block) = (unsafe { t.block.as_mut() }) else {
        return;
    };
    let epoch = epoch.unwrap_or(block.shadow.epoch);
    if let Some(race) = block
        .shadow
        .access(kind, start, end, t.linear as u32, op as u32, epoch)
    {
        // SAFETY: the block's buffer table lives as long as the launch.
        let buffers = unsafe { &*block.buffers };
        if let Some(ids) = &t.gpu {
            racecheck::report(t.run(), &race, op as u32, kind, ids, buffers);
        }
    }
}

/// Race checker: op `op` of `t` writes `[start, end)` of global memory
/// (`atomic`: as an atomic update): a copy's source read it conflicts
/// with is reported ([`copy_sources`]), and the write is kept for the
/// copies issued later in the epoch. `verb` as in
/// [`copy_sources::report`].
#[inline]
fn check_global_write(t: &Thread, op: i64, start: usize, end: usize, verb: &str, atomic: bool) {
    // SAFETY: null or the live block of a running GPU thread.
    let (Some(ids), Some(block)) = (&t.gpu, unsafe { t.block.as_mut() }) else {
        return;
    };
    if !t.run().config.racecheck {
        return; // the hooks run, the watch is not kept
    }
    let write = GlobalWrite {
        start,
        end,
        op: op as u32,
        thread: t.linear as u32,
        atomic,
    };
    if let Some(race) = block.sources.write(write, block.shadow.epoch) {
        copy_sources::report(t.run(), &race, verb, ids);
    }
    block.sources.record_write(write);
}

/// `apipe.copy`. `src`/`dst` are ranked descriptors of rank `src_rank` /
/// `dst_rank` (MLIR's C interface passes a pointer to each); `indices`
/// holds the source indices then the destination indices, each padded to
/// [`MAX_RANK`]; `src_elements` is `elements` where the op gives none. A
/// `src_elements` outside `[0, elements]` stops the program (the verifier
/// checks constant ones; PTX's `cp.async` src-size is unsigned and at
/// most cp-size, PTX ISA 9.7.9.25.3.1).
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
    entry((), |t| {
        let slot = queue_slot(t, op, queue)?;
        let src_count = src_elements;
        if src_count < 0 {
            return Err(t.error(
                op,
                &format!("'apipe.copy' src_elements = {src_count} is negative"),
            ));
        }
        if src_count > elements {
            return Err(t.error(
                op,
                &format!("'apipe.copy' src_elements = {src_count} exceeds elements = {elements}"),
            ));
        }
        let size = element_bytes as isize;
        let (src_indices, dst_indices) = ([s0, s1, s2, s3], [d0, d1, d2, d3]);
        let Some((src_at, src_step)) =
            // SAFETY: `src` is a descriptor of rank `src_rank` (the
            // function's contract).
            (unsafe { locate(src_rank, src, &src_indices, src_count, size) })
        else {
            // SAFETY: as above.
            let src = unsafe { Descriptor::read(src_rank, src) };
            let e = src.check(&src_indices, src_count).err().unwrap_or_default();
            return Err(t.error(op, &format!("'apipe.copy' reads outside its source: {e}")));
        };
        let Some((dst_at, dst_step)) =
            // SAFETY: `dst` is a descriptor of rank `dst_rank` (the
            // function's contract).
            (unsafe { locate(dst_rank, dst, &dst_indices, elements, size) })
        else {
            // SAFETY: as above.
            let dst = unsafe { Descriptor::read(dst_rank, dst) };
            let e = dst.check(&dst_indices, elements).err().unwrap_or_default();
            return Err(t.error(
                op,
                &format!("'apipe.copy' writes outside its destination: {e}"),
            ));
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
        // A copy whose source and destination share bytes has no defined
        // result: the order of its element copies is unspecified (PTX
        // `cp.async` copies global memory to shared memory, which never
        // overlap), and `apipe-make-sync`'s loop and this emulator's copy
        // would disagree (trial 29).
        // The bytes of every (source, destination) range pair in common
        // (a strided copy has a range per element).
        let shared: usize = copy
            .src_ranges()
            .flat_map(|(s0, s1)| {
                copy.dst_ranges()
                    .map(move |(d0, d1)| s1.min(d1).saturating_sub(s0.max(d0)))
            })
            .sum();
        if shared > 0 {
            return Err(t.error(
                op,
                &format!(
                    "'apipe.copy' reads and writes overlapping memory ({shared} bytes of its source are bytes of its destination): the order of its element copies is unspecified"
                ),
            ));
        }
        if t.run().config.racecheck && t.gpu.is_some() {
            t.next_generation();
            for (start, end) in copy.src_ranges() {
                if let Some((s, e)) = shared_range(t, start, end - start) {
                    check_shared(t, op, Kind::Read, s, e, Some(IN_FLIGHT));
                }
            }
            for (start, end) in copy.dst_ranges() {
                if let Some((s, e)) = shared_range(t, start, end - start) {
                    check_shared(t, op, Kind::Write, s, e, Some(IN_FLIGHT));
                } else if !(t.stack.0..t.stack.1).contains(&start) {
                    record_global_write(t, op, start, end, "writes, as its destination,", false);
                }
            }
            // Global sources are watched until the copy completes (the
            // thread's own stack is not: no other thread can write it).
            // SAFETY: as above.
            let base = unsafe { Descriptor::read(src_rank, src) }.aligned as usize;
            let thread = t.linear as u32;
            let private = t.stack;
            // SAFETY: null or the live block of a running GPU thread.
            if let Some(block) = unsafe { t.block.as_mut() } {
                let shared = block.shared as usize..block.shared as usize + block.shared_bytes;
                for (start, end) in copy.src_ranges() {
                    if shared.contains(&start) || (private.0..private.1).contains(&start) {
                        continue;
                    }
                    let read = SourceRead {
                        start,
                        end,
                        base,
                        op: op as u32,
                        thread,
                        epoch: IN_FLIGHT,
                    };
                    if let (Some(race), Some(ids)) = (block.sources.read_after_write(read), &t.gpu)
                    {
                        copy_sources::report(t.run(), &race, "writes", ids);
                    }
                    block.sources.issue(read);
                }
            }
        }
        if t.run().config.racecheck && t.gpu.is_none() {
            // A copy's read of the destination of a copy still in flight,
            // or its write into the source or destination of one, is the
            // hazard a plain access there is: PTX orders no two cp.async
            // of a thread before the wait that completes the first.
            if t.host_sources.watching() {
                for (start, end) in copy.src_ranges() {
                    check_host_access(t, op, 0, start, end)?;
                }
                for (start, end) in copy.dst_ranges() {
                    check_host_access(t, op, 1, start, end)?;
                }
            }
            // The host's copies: every source and destination byte is
            // watched (its stack too: a host access to it is the same
            // hazard).
            // SAFETY: as above.
            let base = unsafe { Descriptor::read(src_rank, src) }.aligned as usize;
            for (start, end) in copy.src_ranges() {
                t.host_sources.issue(SourceRead {
                    start,
                    end,
                    base,
                    op: op as u32,
                    thread: 0,
                    epoch: IN_FLIGHT,
                });
            }
            // SAFETY: as above.
            let base = unsafe { Descriptor::read(dst_rank, dst) }.aligned as usize;
            for (start, end) in copy.dst_ranges() {
                t.host_sources.issue_destination(SourceRead {
                    start,
                    end,
                    base,
                    op: op as u32,
                    thread: 0,
                    epoch: IN_FLIGHT,
                });
            }
        }
        let eager = t.run().config.completion == Completion::Eager;
        let q = &mut t.queues.slots[slot];
        q.uncommitted_count += 1;
        q.first_uncommitted.get_or_insert(copy.op);
        let group = q.commit_count;
        if eager {
            copy.land();
        }
        q.pending.push_back(Pending {
            group,
            landed: eager,
            copy,
        });
        t.tick();
        Ok(())
    })
}

/// The race checker's record of `copy`'s completion by `t`.
fn completed(thread: u32, block: *mut launch::Block, copy: &Copy) {
    // SAFETY: null or the live block of a running GPU thread.
    let Some(block) = (unsafe { block.as_mut() }) else {
        return;
    };
    let base = block.shared as usize;
    if block.sources.watching() {
        for (start, _) in copy.src_ranges() {
            let now = block.shadow.epoch;
            block.sources.complete(thread, copy.op as u32, start, now);
        }
    }
    for kind in [Kind::Read, Kind::Write] {
        let ranges: Box<dyn Iterator<Item = (usize, usize)>> = match kind {
            Kind::Read => Box::new(copy.src_ranges()),
            Kind::Write | Kind::Atomic => Box::new(copy.dst_ranges()),
        };
        for (start, end) in ranges {
            if let Some(offset) = start.checked_sub(base) {
                if offset < block.shared_bytes {
                    block.shadow.complete(
                        kind,
                        offset,
                        offset + (end - start),
                        thread,
                        copy.op as u32,
                    );
                }
            }
        }
    }
}

/// Completes the groups of slot `slot` of `t` while `more(sequence of the
/// oldest group, groups left)` holds.
fn complete_while(t: &mut Thread, slot: usize, more: impl Fn(u64, usize) -> bool) {
    let racecheck = t.run().config.racecheck && t.gpu.is_some();
    let (thread, block) = (t.linear as u32, t.block);
    if racecheck {
        t.next_generation();
    }
    let host = &mut t.host_sources;
    let q = &mut t.queues.slots[slot];
    while let Some(&oldest) = q.groups.front() {
        if !more(oldest, q.groups.len()) {
            break;
        }
        if racecheck {
            q.complete_oldest(&mut |copy| completed(thread, block, copy));
        } else if host.watching() {
            q.complete_oldest(&mut |copy| host_completed(host, copy));
        } else {
            q.complete_oldest(&mut |_| {});
        }
    }
}

/// The host's watch forgets the source and destination ranges of
/// `copy`, which completed.
pub(crate) fn host_completed(host: &mut copy_sources::HostWatch, copy: &Copy) {
    for (start, _) in copy.src_ranges() {
        host.complete(copy.op as u32, start);
    }
    for (start, _) in copy.dst_ranges() {
        host.complete_destination(copy.op as u32, start);
    }
}

/// Op `op` of the host thread `t` accesses `[start, end)` as `kind`
/// (0 a read, 1 a write, 2 an atomic update): a write into the source or
/// destination of a copy of the host still in flight, or a read of its
/// destination, is a located error at the access with a note at the copy
/// (PTX leaves the result undefined: the copy reads its source and writes
/// its destination at some moment before the wait that completes its
/// group).
fn check_host_access(t: &Thread, op: i64, kind: i64, start: usize, end: usize) -> Result<(), Stop> {
    let run = t.run();
    let names = |copy: u32| match (run.name(op), run.name(copy as i64)) {
        (Some(me), Some(copy)) => format!(" ('{me}' and '{copy}')"),
        (Some(me), None) => format!(" ('{me}')"),
        _ => String::new(),
    };
    let verb = match kind {
        0 => "reads",
        1 => "writes",
        _ => "atomically updates",
    };
    if kind != 0 {
        if let Some(read) = t.host_sources.write(start, end) {
            let byte = start.max(read.start).wrapping_sub(read.base);
            return Err(t.error_with_notes(
                op,
                &format!(
                    "the host {verb} global memory byte {byte} of the source buffer of its own \
                     asynchronous copy still in flight, which may not have read it yet: no wait \
                     completes the copy first{}",
                    names(read.op)
                ),
                &[(read.op as i64, "the copy in flight".to_owned())],
            ));
        }
    }
    let Some(write) = t.host_sources.destination(start, end) else {
        return Ok(());
    };
    let byte = start.max(write.start).wrapping_sub(write.base);
    let why = if kind == 0 {
        "which may not have written it yet"
    } else {
        "which may write it after this access"
    };
    Err(t.error_with_notes(
        op,
        &format!(
            "the host {verb} global memory byte {byte} of the destination buffer of its own \
             asynchronous copy still in flight, {why}: no wait completes the copy first{}",
            names(write.op)
        ),
        &[(write.op as i64, "the copy in flight".to_owned())],
    ))
}

/// `apipe.commit_group`: returns the new group's token.
pub extern "C" fn apipe_emu_commit_group(op: i64, queue: i64) -> i64 {
    entry(0, |t| {
        let slot = queue_slot(t, op, queue)?;
        let q = &mut t.queues.slots[slot];
        q.uncommitted_count = 0;
        q.first_uncommitted = None;
        let group = q.commit_count;
        q.groups.push_back(group);
        q.commit_count += 1;
        t.tick();
        Ok(token(slot, group))
    })
}

/// `apipe.wait_group {pending}`.
pub extern "C" fn apipe_emu_wait_group(op: i64, queue: i64, pending: i64) {
    entry((), |t| {
        if queue < 0 {
            queue_slot(t, op, queue)?;
        }
        let Some(slot) = t.queues.find(queue) else {
            t.run().message(
                op,
                "note",
                &format!("'apipe.wait_group' on queue {queue}, which has no commits yet: it waits for nothing"),
                &[],
                true,
            );
            t.tick();
            return Ok(());
        };
        if t.queues.slots[slot].commit_count == 0 {
            t.run().message(
                op,
                "note",
                &format!("'apipe.wait_group' on queue {queue}, which has no commits yet: it waits for nothing"),
                &[],
                true,
            );
        }
        let keep = pending.max(0) as usize;
        complete_while(t, slot, |_, left| left > keep);
        t.tick();
        Ok(())
    })
}

/// `apipe.wait` on one token.
pub extern "C" fn apipe_emu_wait(op: i64, token: i64) {
    entry((), |t| {
        if token == 0 {
            t.tick();
            return Ok(());
        }
        let named = untoken(token).filter(|&(slot, sequence)| {
            t.queues
                .slots
                .get(slot)
                .is_some_and(|q| sequence < q.commit_count)
        });
        let Some((slot, sequence)) = named else {
            return Err(t.error(
                op,
                &format!("'apipe.wait' on token {token}, which no 'apipe.commit_group' produced"),
            ));
        };
        complete_while(t, slot, |oldest, _| oldest <= sequence);
        t.tick();
        Ok(())
    })
}

/// Stack memory below `stack_pointer` was released at op `op` (a call to a
/// function with `memref.alloca`s returned, or a `memref.alloca_scope`
/// ended; stacks grow down): a copy of the current thread still pending
/// that reads or writes it is an error (it would land in memory that the
/// next call reuses).
pub extern "C" fn apipe_emu_stack_release(op: i64, stack_pointer: i64) {
    entry((), |t| {
        let (low, high) = (t.stack.0, (stack_pointer as usize).min(t.stack.1));
        released(t, op, low, high)
    })
}

/// The end of a `memref.alloca_scope` released its `memref.alloca` at
/// `address`, of `bytes` bytes: as [`apipe_emu_stack_release`], for that
/// buffer. An alloca of a scope in a function's entry block is a static
/// one, part of the frame (LLVM allocates it at the function's entry), so
/// the stack pointer the scope saved is below it and the stack check alone
/// does not see it (trial 29).
pub extern "C" fn apipe_emu_scope_release(op: i64, address: i64, bytes: i64) {
    entry((), |t| {
        let low = address as usize;
        released(t, op, low, low.saturating_add(bytes.max(0) as usize))
    })
}

/// The error if a pending copy reads or writes `[low, high)`, stack memory
/// released at `op`.
fn released(t: &mut Thread, op: i64, low: usize, high: usize) -> Result<(), Stop> {
    {
        if low >= high {
            return Ok(());
        }
        let dead = |(start, end): (usize, usize)| start < high && end > low;
        let pending = t.queues.slots.iter().find_map(|queue| {
            // Landed or not (eager): no wait has completed it.
            queue.pending.iter().find_map(|p| {
                if p.copy.dst_ranges().any(dead) {
                    Some((p.copy.op, "writes"))
                } else if p.copy.src_ranges().any(dead) {
                    Some((p.copy.op, "reads"))
                } else {
                    None
                }
            })
        });
        if let Some((copy, verb)) = pending {
            return Err(t.error_with_notes(
                op,
                &format!(
                    "stack memory is released here (a function with 'memref.alloca' returned, or \
                     a 'memref.alloca_scope' ended) while a pending 'apipe.copy' still {verb} it: \
                     no wait completes the copy before"
                ),
                &[(copy, "the pending copy".to_owned())],
            ));
        }
        Ok(())
    }
}

/// `apipe.ready`: the token of a group that is already complete.
pub extern "C" fn apipe_emu_ready(_op: i64, _queue: i64) -> i64 {
    entry(0, |t| {
        t.tick();
        Ok(0)
    })
}

/// A run-time check failed at op `op` (`cf.assert`, a bounds check): the
/// message is the check's own ([`RunConfig::checks`]). Stops the program.
pub extern "C" fn apipe_emu_check_failed(op: i64) {
    entry((), |t| {
        let message = usize::try_from(op)
            .ok()
            .and_then(|i| t.run().config.checks.get(i))
            .filter(|m| !m.is_empty())
            .cloned()
            .unwrap_or_else(|| "run-time check failed".to_owned());
        Err(t.error(op, &message))
    })
}

/// An `scf.for` (op `op`) starts with step `step`, which is not positive:
/// the loop would not terminate (undefined behaviour). Stops the program.
pub extern "C" fn apipe_emu_bad_step(op: i64, step: i64) {
    entry((), |t| {
        Err(t.error(
            op,
            &format!(
                "'scf.for' with step {step}: the step must be positive (a loop with a \
                 non-positive step is undefined behaviour and would not terminate)"
            ),
        ))
    })
}

/// `gpu.barrier` (op `op`): a GPU thread waits until every thread of its
/// block has reached it; on the host it does nothing (one thread).
pub extern "C" fn apipe_emu_barrier(op: i64) {
    let thread = current();
    // SAFETY: null or the live current thread; nothing of it is borrowed.
    let Some(t) = (unsafe { thread.as_ref() }) else {
        return;
    };
    if t.gpu.is_none() {
        return;
    }
    // SAFETY: a GPU thread always runs on its fiber.
    if let Some(yielder) = unsafe { t.yielder.as_ref() } {
        yielder.suspend(Event::Barrier(op));
    }
    entry((), |t| {
        t.next_generation(); // a new epoch
        Ok(())
    });
}

/// A GPU id (`which` = 3 * kind + dimension; kinds: thread, block, block
/// size, grid size) for code outside a kernel's own body.
pub extern "C" fn apipe_emu_gpu_id(op: i64, which: i64) -> i64 {
    entry(0, |t| {
        let Some(ids) = t.gpu else {
            return Err(t.error(op, "a GPU id read outside a kernel launch"));
        };
        let all = [ids.thread, ids.block, ids.block_dim, ids.grid_dim];
        Ok(all[(which / 3).clamp(0, 3) as usize][(which % 3).clamp(0, 2) as usize])
    })
}

/// Appends one 8-byte argument slot for the next launch.
pub extern "C" fn apipe_emu_launch_argument(value: i64) {
    entry((), |t| {
        t.launch_arguments.push(value);
        Ok(())
    })
}

/// `gpu.launch_func` (op `op`) of kernel number `kernel` with the argument
/// slots appended since the last launch.
#[allow(clippy::too_many_arguments)]
pub extern "C" fn apipe_emu_launch(
    op: i64,
    kernel: i64,
    gx: i64,
    gy: i64,
    gz: i64,
    bx: i64,
    by: i64,
    bz: i64,
) {
    entry((), |t| {
        if t.gpu.is_some() {
            return Err(t.error(op, "a kernel launch from a GPU thread"));
        }
        launch::launch(t, op, kernel, [gx, gy, gz], [bx, by, bz])
    })
}

/// Race checker: op `op` of the current GPU thread reads (`kind` 0),
/// writes (1) or atomically updates (2) `bytes` bytes of workgroup memory
/// at `address`.
///
/// The hot path of a race-checked kernel (one call per shared access): it
/// skips [`entry`]'s bookkeeping; nothing in it can panic but the report,
/// which runs under `catch_unwind`.
///
/// A thread runs without interruption from one barrier to the next (its
/// fiber switches only there), so no other thread can access memory
/// between two reads of the same bytes by one thread in one epoch: the
/// second adds nothing to the shadow, unless the thread issued or completed
/// a copy in between. Such repeated reads hit a small per-thread cache.
pub extern "C" fn apipe_emu_shared_access(op: i64, address: i64, bytes: i64, kind: i64) {
    // SAFETY: null or the live current thread; nothing else borrows it
    // during the call.
    let Some(t) = (unsafe { current().as_mut() }) else {
        return;
    };
    // SAFETY: null or the live block of a running GPU thread.
    let Some(block) = (unsafe { t.block.as_mut() }) else {
        return;
    };
    if bytes <= 0 {
        return; // no lane enabled (a compressed access of no element)
    }
    let offset = (address as usize).wrapping_sub(block.shared as usize);
    if offset >= block.shared_bytes {
        return;
    }
    let kind = match kind {
        0 => Kind::Read,
        1 => Kind::Write,
        _ => Kind::Atomic,
    };
    let epoch = block.shadow.epoch;
    let end = offset + bytes.max(0) as usize;
    let generation = t.read_cache[context::READ_CACHE_SLOTS];
    let cached = context::read_key(generation, bytes as u64, offset as u64);
    let slot = (offset >> 2) % context::READ_CACHE_SLOTS;
    if kind == Kind::Read && t.read_cache[slot] == cached {
        return;
    }
    if let Some(race) = block
        .shadow
        .access(kind, offset, end, t.linear as u32, op as u32, epoch)
    {
        let reported = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // SAFETY: the block's buffer table lives as long as the launch.
            let buffers = unsafe { &*block.buffers };
            if let Some(ids) = &t.gpu {
                racecheck::report(t.run(), &race, op as u32, kind, ids, buffers);
            }
        }));
        if reported.is_err() {
            t.run()
                .failed
                .store(true, std::sync::atomic::Ordering::SeqCst);
            context::abort_current();
        }
    } else if kind == Kind::Read {
        t.read_cache[slot] = cached;
    }
}

/// Race checker: op `op` of the current GPU thread writes (`kind` 1) or
/// atomically updates (2) `bytes` bytes of global memory at `address`.
pub extern "C" fn apipe_emu_global_write(op: i64, address: i64, bytes: i64, kind: i64) {
    entry((), |t| {
        let private = (t.stack.0..t.stack.1).contains(&(address as usize));
        if bytes <= 0 || private || shared_range(t, address as usize, 1).is_some() {
            return Ok(());
        }
        let (start, end) = (address as usize, address as usize + bytes.max(0) as usize);
        record_global_write(t, op, start, end, "writes", kind == 2);
        Ok(())
    })
}

/// Race checker: op `op` of a GPU thread accesses `bytes` bytes at
/// `address` through an `!llvm.ptr` (kind 0 a read, 1 a write, 2 an
/// atomic update; trial 64: a kernel's `llvm.store` into workgroup memory
/// went unchecked). A pointer's type need not say which memory it points
/// into (an `llvm.inttoptr` of a workgroup buffer's aligned pointer is a
/// plain `!llvm.ptr`), so the address does: the block's workgroup memory
/// is checked as [`apipe_emu_shared_access`] checks it (the part within
/// it), other memory's writes as [`apipe_emu_global_write`] records them
/// (the thread's own stack excluded).
pub extern "C" fn apipe_emu_pointer_access(op: i64, address: i64, bytes: i64, kind: i64) {
    // SAFETY: null or the live current thread; its borrow ends before the
    // hooks below borrow it again.
    let Some(t) = (unsafe { current().as_ref() }) else {
        return;
    };
    // SAFETY: null or the live block of a running GPU thread.
    let block = unsafe { t.block.as_ref() };
    let room = shared_range(t, address as usize, 1)
        .zip(block)
        .map(|((offset, _), block)| block.shared_bytes - offset);
    match room {
        Some(room) => apipe_emu_shared_access(op, address, bytes.min(room as i64), kind),
        None if kind != 0 => apipe_emu_global_write(op, address, bytes, kind),
        None => {}
    }
}

/// Race checker: op `op` of the GPU thread `t` writes (`atomic`:
/// atomically updates; a store, or an async copy's destination) `[start,
/// end)` of global memory (`verb` as in [`copy_sources::report`]): checked against
/// the copies' sources and logged for the launch's cross-block checks
/// (plain writes with plain writes, any write with the copies' reads).
fn record_global_write(
    t: &mut Thread,
    op: i64,
    start: usize,
    end: usize,
    verb: &str,
    atomic: bool,
) {
    check_global_write(t, op, start, end, verb, atomic);
    // SAFETY: null or the live block of a running GPU thread.
    let (Some(ids), Some(block)) = (t.gpu, unsafe { t.block.as_mut() }) else {
        return;
    };
    let write = GlobalWrite {
        start,
        end,
        op: op as u32,
        thread: ids.linear_thread() as u32,
        atomic,
    };
    if atomic {
        block.atomics.record(write);
    } else {
        block.global.record(write);
    }
}

/// Op `op` of the host thread reads (`kind` 0), writes (1) or atomically
/// updates (2) `bytes` bytes at `address`; JIT code calls it only while a
/// host copy is in flight ([`copy_sources::HOST_WATCH_GLOBAL`]). A write
/// into the source or destination of a copy of the host in flight, or a
/// read of its destination, stops the program ([`check_host_access`]).
///
/// Host code in a pipelined loop calls it for every access while copies
/// are in flight: an access that touches no watched range returns before
/// [`entry`]'s bookkeeping (nothing in that test can panic).
pub extern "C" fn apipe_emu_host_access(op: i64, address: i64, bytes: i64, kind: i64) {
    // SAFETY: null or the live current thread; nothing else borrows it
    // during the call.
    let Some(t) = (unsafe { current().as_ref() }) else {
        return;
    };
    if t.gpu.is_some() || bytes <= 0 {
        return;
    }
    let (start, end) = (address as usize, address as usize + bytes as usize);
    let watched = t.host_sources.destination(start, end).is_some()
        || kind != 0 && t.host_sources.write(start, end).is_some();
    if !watched {
        return;
    }
    entry((), |t| check_host_access(t, op, kind, start, end))
}

/// The runtime's symbols for the JIT: `(name, address)` of the functions
/// with one fixed signature; each copy declaration `COPY_FN_PREFIX<k>`
/// binds `CIFACE_PREFIX` + its name to [`copy_symbol`], each dealloc check
/// to [`dealloc_symbol`].
pub fn symbols() -> Vec<(&'static str, *mut ())> {
    vec![
        (COMMIT_GROUP_FN, apipe_emu_commit_group as *mut ()),
        (WAIT_GROUP_FN, apipe_emu_wait_group as *mut ()),
        (WAIT_FN, apipe_emu_wait as *mut ()),
        (READY_FN, apipe_emu_ready as *mut ()),
        (CHECK_FAILED_FN, apipe_emu_check_failed as *mut ()),
        (BAD_STEP_FN, apipe_emu_bad_step as *mut ()),
        (BARRIER_FN, apipe_emu_barrier as *mut ()),
        (GPU_ID_FN, apipe_emu_gpu_id as *mut ()),
        (LAUNCH_ARGUMENT_FN, apipe_emu_launch_argument as *mut ()),
        (LAUNCH_FN, apipe_emu_launch as *mut ()),
        (SHARED_ACCESS_FN, apipe_emu_shared_access as *mut ()),
        (GLOBAL_WRITE_FN, apipe_emu_global_write as *mut ()),
        (HOST_ACCESS_FN, apipe_emu_host_access as *mut ()),
        (POINTER_ACCESS_FN, apipe_emu_pointer_access as *mut ()),
        (
            copy_sources::HOST_WATCH_GLOBAL,
            copy_sources::HOST_WATCH.as_ptr() as *mut (),
        ),
        (ALLOC_FN, heap::apipe_emu_alloc as *mut ()),
        (LIVE_FN, heap::apipe_emu_live as *mut ()),
        (STACK_RELEASE_FN, apipe_emu_stack_release as *mut ()),
        (SCOPE_RELEASE_FN, apipe_emu_scope_release as *mut ()),
    ]
    .into_iter()
    .chain(mbarrier::symbols())
    .collect()
}

/// The address of [`apipe_emu_copy`].
pub fn copy_symbol() -> *mut () {
    apipe_emu_copy as *mut ()
}

/// The address of [`region_access::apipe_emu_region_access`].
pub fn region_symbol() -> *mut () {
    region_access::apipe_emu_region_access as *mut ()
}

/// The address of [`heap::apipe_emu_dealloc`].
pub fn dealloc_symbol() -> *mut () {
    heap::apipe_emu_dealloc as *mut ()
}

#[cfg(test)]
mod tests;
