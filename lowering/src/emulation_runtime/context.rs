//! The state of one run ([`Run`], shared by every OS thread of the run) and
//! of one emulated thread ([`Thread`]: the host entry, or one GPU thread of
//! a block), how a runtime function finds them ([`current`]), how messages
//! are printed, and how a run-time error stops the program.
//!
//! Stopping: every emulated thread runs on a fiber (a stackful coroutine,
//! `corosensei`): the host entry on one, each GPU thread of a block on its
//! own. A runtime function that finds an error prints it, returns from its
//! own frames (nothing with a destructor stays live), then suspends the
//! fiber with [`Event::Abort`]; the fiber is never resumed: its owner
//! resets it without unwinding (no unwinding ever crosses JIT-compiled
//! frames), and the run reports failure. A panic inside a runtime function
//! is caught there and reported the same way, as an internal error.

use super::{queues::Queues, Completion, Schedule};
use corosensei::Yielder;
use std::{
    cell::Cell,
    collections::HashSet,
    io::Write,
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        Arc, Mutex,
    },
};

/// What a fiber hands to its owner when it suspends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Waits at the `gpu.barrier` with this op id.
    Barrier(i64),
    /// Waits at the `apipe.mbarrier_wait` with this op id for a phase that
    /// other threads of the block have yet to complete
    /// ([`super::mbarrier`]); resume it to try again.
    Blocked(i64),
    /// Stops: a run-time error was reported; never resume this fiber.
    Abort,
}

/// The fiber interface of an emulated thread.
pub type FiberYielder = Yielder<(), Event>;

/// What a kernel needs at run time (from `apipe-to-emulation` and the JIT).
#[derive(Clone, Debug, Default)]
pub struct KernelInfo {
    /// The kernel's name as the user wrote it (`@module::@kernel`).
    pub name: String,
    /// The name of the host function it became (whose packed entry the
    /// driver looks up).
    pub function: String,
    /// The packed entry of the lowered kernel (`_mlir_<name>(void **args)`),
    /// set by the driver after JIT compilation.
    pub entry: Option<unsafe extern "C" fn(*mut *mut std::ffi::c_void)>,
    /// Bytes of workgroup memory one block needs.
    pub shared_bytes: usize,
    /// 8-byte argument slots the host passes (memrefs count 3 + 2 rank).
    pub argument_slots: usize,
    /// The workgroup buffers: (byte offset, bytes, `file:line:col` of their
    /// declaration), by offset.
    pub buffers: Vec<(usize, usize, String)>,
    /// The block sizes the kernel states (`known_block_size`,
    /// `nvvm.maxntid`, ...; see `crate::launch_bounds`): every launch must
    /// keep each.
    pub known_block: Vec<crate::launch_bounds::Bound>,
    /// The grid sizes the kernel states, as `known_block`.
    pub known_grid: Vec<crate::launch_bounds::Bound>,
    /// The op id of the kernel (its `gpu.func`), for notes.
    pub declared_at: i64,
}

/// How a run is configured.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// When copies land.
    pub completion: Completion,
    /// The order of the threads of a block between barriers.
    pub schedule: Schedule,
    /// Whether shared-memory races and cross-block global writes are checked
    /// (the lowering must have instrumented the kernels).
    pub racecheck: bool,
    /// OS threads that run blocks (1: every block on the calling thread).
    pub jobs: usize,
    /// `locations[id]`: `file:line:col` of the op with that id. This and
    /// the three tables below are shared (`Arc`), so that a harness that
    /// runs one module in many modes does not copy them per run.
    pub locations: Arc<[String]>,
    /// Run-time check messages by op id (`cf.assert` and the lowering's own
    /// checks), see [`crate::to_emulation::Emulation::checks`].
    pub checks: Arc<[String]>,
    /// Op names by op id (apipe ops and the race checker's hooks; empty
    /// for others), see [`crate::to_emulation::Emulation::names`].
    pub names: Arc<[String]>,
    /// The kernels, by kernel index.
    pub kernels: Arc<[KernelInfo]>,
    /// The op id of the entry function (`locations[entry_op]`), where an
    /// error that no op owns points (an overflow of the entry's stack); -1
    /// when unknown.
    pub entry_op: i64,
}

/// Whether [`Run::message`] prints nothing: set by [`set_quiet`].
static QUIET: AtomicBool = AtomicBool::new(false);

/// Stops (or resumes) the printing of run-time errors, warnings and race
/// reports in this process; runs still fail as before. For harnesses that
/// run many deliberately broken programs and read only whether each run
/// passed (`tools/tests/harness`); `apipe-run` never calls it.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// The most races reported in one run; later ones are counted only.
pub const MAX_RACE_REPORTS: usize = 16;

/// The state of one run, shared by the OS threads that run its blocks.
pub struct Run {
    /// The configuration.
    pub config: RunConfig,
    /// Set by the first run-time error: every thread stops.
    pub failed: AtomicBool,
    /// Races reported (deduplicated) in this run.
    pub races: AtomicUsize,
    /// Serializes messages and remembers which (op, kind) already noted.
    pub output: Mutex<HashSet<(i64, &'static str)>>,
    /// Race reports already printed: (kind, op, other op).
    pub race_keys: Mutex<HashSet<(&'static str, u32, u32)>>,
    /// The live `memref.alloc` buffers and the recently freed ones.
    pub heap: Mutex<super::heap::Heap>,
}

impl Run {
    /// A new run.
    pub fn new(config: RunConfig) -> Self {
        Self {
            config,
            failed: AtomicBool::new(false),
            races: AtomicUsize::new(0),
            output: Mutex::new(HashSet::new()),
            race_keys: Mutex::new(HashSet::new()),
            heap: Mutex::new(super::heap::Heap::default()),
        }
    }

    /// Whether a race `key` (kind, op, other op) is to be printed: the first
    /// time it is seen, while fewer than [`MAX_RACE_REPORTS`] races have
    /// been reported (later ones are counted only).
    pub fn claim_race_report(&self, key: (&'static str, u32, u32)) -> bool {
        let Ok(mut keys) = self.race_keys.lock() else {
            return false;
        };
        if !keys.insert(key) {
            return false;
        }
        drop(keys);
        self.races.fetch_add(1, Ordering::SeqCst) < MAX_RACE_REPORTS
    }

    /// The name of op `op`, if known.
    pub fn name(&self, op: i64) -> Option<&str> {
        usize::try_from(op)
            .ok()
            .and_then(|i| self.config.names.get(i))
            .map(String::as_str)
            .filter(|n| !n.is_empty())
    }

    /// The `file:line:col` of op `op`.
    pub fn location(&self, op: i64) -> &str {
        usize::try_from(op)
            .ok()
            .and_then(|i| self.config.locations.get(i))
            .map_or("<unknown>:0:0", String::as_str)
    }

    /// Prints `file:line:col: kind: message` for op `op`, in program order
    /// (C stdio is flushed first), then `notes` as `note:` lines. With
    /// `once`, only the first message of this kind for this op is printed.
    pub fn message(
        &self,
        op: i64,
        kind: &'static str,
        message: &str,
        notes: &[(i64, String)],
        once: bool,
    ) {
        let Ok(mut seen) = self.output.lock() else {
            return;
        };
        if once && !seen.insert((op, kind)) {
            return;
        }
        if QUIET.load(Ordering::Relaxed) {
            return;
        }
        flush_all();
        let mut text = format!("{}: {kind}: {message}\n", self.location(op));
        for (at, note) in notes {
            text.push_str(&format!("{}: note: {note}\n", self.location(*at)));
        }
        let _ = std::io::stderr().write_all(text.as_bytes());
        let _ = std::io::stderr().flush();
    }

    /// Reports a run-time error at op `op` and marks the run failed.
    pub fn error(&self, op: i64, message: &str, notes: &[(i64, String)]) -> Stop {
        if !self.failed.swap(true, Ordering::SeqCst) {
            self.message(op, "error", message, notes, false);
        }
        Stop
    }
}

/// A run-time error was reported: the current thread must stop.
#[derive(Debug)]
pub struct Stop;

/// The ids of a GPU thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct GpuIds {
    /// `gpu.thread_id` x, y, z.
    pub thread: [i64; 3],
    /// `gpu.block_id` x, y, z.
    pub block: [i64; 3],
    /// `gpu.block_dim` x, y, z.
    pub block_dim: [i64; 3],
    /// `gpu.grid_dim` x, y, z.
    pub grid_dim: [i64; 3],
}

impl GpuIds {
    /// The thread's index in its block (x fastest).
    pub fn linear_thread(&self) -> usize {
        let [x, y, z] = self.thread;
        let [dx, dy, _] = self.block_dim;
        (x + dx * (y + dy * z)) as usize
    }

    /// `(x,y,z)` of the thread with linear index `linear` in this block.
    pub fn thread_of(&self, linear: usize) -> [i64; 3] {
        let [dx, dy, _] = self.block_dim;
        let l = linear as i64;
        [l % dx, (l / dx) % dy, l / (dx * dy)]
    }
}

/// Formats `[x, y, z]` as `(x,y,z)`.
pub fn triple(v: [i64; 3]) -> String {
    format!("({},{},{})", v[0], v[1], v[2])
}

/// One emulated thread: the host entry or a GPU thread.
pub struct Thread {
    /// The run it belongs to.
    pub run: *const Run,
    /// Its asynchronous-copy queues.
    pub queues: Queues,
    /// State of its `random` completion choices.
    pub rng: u64,
    /// Its fiber, while it runs on one (null otherwise: unit tests).
    pub yielder: *const FiberYielder,
    /// Its ids, for a GPU thread.
    pub gpu: Option<GpuIds>,
    /// Its linear index in its block (GPU threads).
    pub linear: usize,
    /// The block it belongs to (a GPU thread), for workgroup memory and the
    /// race checker.
    pub block: *mut super::launch::Block,
    /// Host: the argument slots of the next `gpu.launch_func`.
    pub launch_arguments: Vec<i64>,
    /// The addresses `[low, high)` of its fiber's stack (a GPU thread's
    /// private memory; the host entry's stack).
    pub stack: (usize, usize),
    /// Race checker: the workgroup reads this thread already recorded in
    /// the current generation ([`read_key`]), by slot `(offset / 4) mod
    /// READ_CACHE_SLOTS`; the last word is the generation, which changes at
    /// each barrier and each copy the thread issues or completes. JIT code
    /// of kernels reads it too (a hidden `memref<65xi64>` argument) and
    /// calls the runtime only on a miss.
    pub read_cache: [u64; READ_CACHE_SLOTS + 1],
    /// The host thread, with the race checker: the source ranges of its
    /// copies in flight ([`super::copy_sources::HostWatch`]).
    pub host_sources: super::copy_sources::HostWatch,
    /// Use-after-free check: buffers found live, as `(aligned pointer,
    /// frees in the process then)`, by slot `(pointer / 16) mod
    /// LIVE_CACHE_SLOTS` ([`super::heap::apipe_emu_live`]); an entry holds
    /// while no buffer has been freed since.
    pub live_cache: [(usize, u64); LIVE_CACHE_SLOTS],
}

/// Slots of a thread's cache of live buffers.
pub const LIVE_CACHE_SLOTS: usize = 8;

/// The read cache's key of a read of `bytes` bytes at workgroup offset
/// `offset` in generation `generation` (never 0: generations start at 1).
pub fn read_key(generation: u64, bytes: u64, offset: u64) -> u64 {
    (generation << 40) | (bytes << 32) | (offset + 1)
}

impl Thread {
    /// Starts a new generation of the read cache.
    pub fn next_generation(&mut self) {
        self.read_cache[READ_CACHE_SLOTS] += 1;
    }
}

/// Slots of a thread's read cache.
pub const READ_CACHE_SLOTS: usize = 64;

impl Thread {
    /// A thread of `run` with `seed` for its random choices.
    pub fn new(run: *const Run, seed: u64) -> Self {
        Self {
            run,
            queues: Queues::default(),
            rng: seed ^ 0x9e37_79b9_7f4a_7c15,
            yielder: std::ptr::null(),
            gpu: None,
            linear: 0,
            block: std::ptr::null_mut(),
            launch_arguments: Vec::new(),
            stack: (0, 0),
            read_cache: {
                let mut cache = [0; READ_CACHE_SLOTS + 1];
                cache[READ_CACHE_SLOTS] = 1;
                cache
            },
            host_sources: Default::default(),
            // (No free has count 0 once the cache is consulted.)
            live_cache: [(0, 0); LIVE_CACHE_SLOTS],
        }
    }

    /// The run (not tied to a borrow of the thread: the run outlives it).
    pub fn run<'r>(&self) -> &'r Run {
        // SAFETY: a thread never outlives its run (both live in `run_host`).
        unsafe { &*self.run }
    }

    /// `" in thread (x,y,z) of block (x,y,z)"` for a GPU thread, else "".
    pub fn where_(&self) -> String {
        self.gpu.map_or(String::new(), |ids| {
            format!(
                " (thread {} of block {})",
                triple(ids.thread),
                triple(ids.block)
            )
        })
    }

    /// Reports a run-time error at op `op` in this thread.
    pub fn error(&self, op: i64, message: &str) -> Stop {
        self.error_with_notes(op, message, &[])
    }

    /// Reports a run-time error at op `op` in this thread, with `notes`
    /// (op id, text) after it.
    pub fn error_with_notes(&self, op: i64, message: &str, notes: &[(i64, String)]) -> Stop {
        self.run()
            .error(op, &format!("{message}{}", self.where_()), notes)
    }

    /// The next pseudo-random number (splitmix64).
    pub fn next_random(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// The step every event takes under `random`: each pending copy lands
    /// with probability 1/4. Landing early never breaks FIFO completion: a
    /// group completes only when forced, after every older group.
    pub fn tick(&mut self) {
        if !matches!(self.run().config.completion, Completion::Random(_)) {
            return;
        }
        let mut queues = std::mem::take(&mut self.queues.slots);
        for queue in &mut queues {
            for pending in queue.pending.iter_mut().filter(|p| !p.landed) {
                if self.next_random().is_multiple_of(4) {
                    pending.copy.land();
                    pending.landed = true;
                }
            }
        }
        self.queues.slots = queues;
    }
}

thread_local! {
    /// The emulated thread running on this OS thread (null outside a run).
    static CURRENT: Cell<*mut Thread> = const { Cell::new(std::ptr::null_mut()) };
}

/// Makes `thread` the current one of this OS thread; returns the previous.
pub fn set_current(thread: *mut Thread) -> *mut Thread {
    CURRENT.with(|c| c.replace(thread))
}

/// The current emulated thread, if a run is on.
pub fn current() -> *mut Thread {
    CURRENT.with(Cell::get)
}

/// Suspends the current fiber for good (its owner resets it). Without a
/// fiber (unit tests) it returns, and the failed run turns later calls into
/// no-ops.
pub fn abort_current() {
    let thread = current();
    if thread.is_null() {
        return;
    }
    // SAFETY: the current thread is live; its yielder, when set, belongs to
    // the fiber this code runs on.
    let yielder = unsafe { (*thread).yielder };
    // SAFETY: a set yielder points to the fiber's own yielder, which lives
    // as long as the fiber this code runs on.
    if let Some(yielder) = unsafe { yielder.as_ref() } {
        loop {
            yielder.suspend(Event::Abort);
        }
    }
}

/// Runs the body of a runtime function on the current thread: `default`
/// when there is none or the run already failed (then the thread stops),
/// else `f`'s value; an error (`Err(Stop)`) or a panic in `f` stops the
/// thread after `f`'s frames are gone.
pub fn entry<R>(default: R, f: impl FnOnce(&mut Thread) -> Result<R, Stop>) -> R {
    let thread = current();
    // SAFETY: null or the live current thread; runtime functions do not
    // nest, so no other reference to it exists during the call.
    let Some(t) = (unsafe { thread.as_mut() }) else {
        return default;
    };
    if t.run().failed.load(Ordering::Relaxed) {
        abort_current();
        return default;
    }
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(t)));
    match result {
        Ok(Ok(value)) => value,
        Ok(Err(Stop)) => {
            abort_current();
            default
        }
        Err(panic) => {
            let text = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            // SAFETY: as above; the closure's borrow has ended.
            let t = unsafe { &*thread };
            t.run().error(
                -1,
                &format!("internal error in the emulation runtime: {text}"),
                &[],
            );
            abort_current();
            default
        }
    }
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
