//! Kernel launches (`gpu.launch_func`) and the block scheduler.
//!
//! 1. [`launch`] checks the grid and block sizes against the CUDA limits
//!    (every size at least 1; a block of at most 1024 threads, x and y at
//!    most 1024, z at most 64; a grid of at most 2^31 - 1 blocks in x and
//!    65535 in y and z; at most [`MAX_SHARED_BYTES`] of workgroup memory),
//!    then runs the blocks in order, on the calling OS thread or on
//!    `jobs` OS threads that take blocks from a shared counter.
//! 2. A block ([`run_block`]): one fiber per GPU thread on a reused stack;
//!    fresh workgroup memory (filled with `0xff` bytes: never-written
//!    shared memory reads as NaN or -1); each thread's argument slots are
//!    the host's arguments followed by the hidden ones the lowering added
//!    to the kernel (the workgroup memory as `memref<Nxi8>`, then thread,
//!    block, block-size and grid-size ids, x y z each).
//! 3. Rounds: the threads run in the schedule's order ([`Schedule`]), each
//!    until it waits at a `gpu.barrier`, waits at an `apipe.mbarrier_wait`
//!    whose phase other threads must complete first (it runs again in the
//!    next round; a round in which nothing moves is a deadlock at that
//!    wait, [`super::mbarrier`]), or returns. When all have stopped,
//!    every thread must wait at the same barrier op (then a new epoch
//!    starts and the next round runs) or all must have returned; anything
//!    else is a deadlock on a GPU and a located error (never a hang).
//! 4. At the end of a block, copies still pending land (the last moment
//!    allowed) and copies never committed get a warning; with the race
//!    checker, the block's global writes and its copies' global source
//!    reads join the launch's logs, checked across blocks at the end of
//!    the launch.

use super::overflow::{self, Resumed};
use super::{
    context::{set_current, triple, Event, GpuIds, KernelInfo, Run, Stop, Thread},
    copy_sources::{self, SourceRead, Sources},
    racecheck::{self, GlobalLog, Shadow},
    Schedule,
};
use corosensei::{stack::DefaultStack, Coroutine};
use std::{
    ffi::c_void,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Mutex,
    },
};

/// Bytes of stack of each GPU thread's fiber (reserved, committed on use):
/// the most private memory a kernel may use (512 KiB, checked by the
/// lowering) and room for the frames of the kernel and the runtime.
pub const THREAD_STACK_BYTES: usize = 2 << 20;
/// The most workgroup memory a block may use (sm_90: 227 KiB).
pub const MAX_SHARED_BYTES: usize = 227 * 1024;
/// Hidden argument slots after the host's: the workgroup memory descriptor
/// (5), 12 ids, and the thread's race-checker read cache descriptor (5).
pub const HIDDEN_SLOTS: usize = 5 + 12 + 5;

/// The block a GPU thread belongs to.
pub struct Block {
    /// Start of its workgroup memory.
    pub shared: *mut u8,
    /// Bytes of workgroup memory.
    pub shared_bytes: usize,
    /// Race checker shadow of the workgroup memory.
    pub shadow: Shadow,
    /// Race checker log of plain global writes.
    pub global: GlobalLog,
    /// Race checker log of atomic global updates (they race with the
    /// copies' source reads of other blocks, not with each other).
    pub atomics: GlobalLog,
    /// Race checker watch on the global sources of copies.
    pub sources: Sources,
    /// The kernel's workgroup buffers (offset, bytes, location).
    pub buffers: *const [(usize, usize, String)],
}

/// One GPU thread's state and argument slots.
struct Lane {
    thread: Thread,
    slots: Vec<i64>,
    pointers: Vec<*mut c_void>,
}

type Fiber = Coroutine<(), Event, (), DefaultStack>;

/// What runs blocks on one OS thread: stacks, lanes and workgroup memory,
/// reused from block to block.
pub struct Worker {
    stacks: Vec<DefaultStack>,
    /// Boxed: a suspended fiber points at its lane, which must not move.
    #[allow(clippy::vec_box)]
    lanes: Vec<Box<Lane>>,
    shared: Vec<u128>,
    block: Box<Block>,
}

// SAFETY: a worker moves between OS threads only while no block runs on it:
// then its raw pointers are stale values that the next block overwrites,
// and its stacks hold no live frames.
unsafe impl Send for Worker {}

impl Default for Worker {
    fn default() -> Self {
        Self {
            stacks: Vec::new(),
            lanes: Vec::new(),
            shared: Vec::new(),
            block: Box::new(Block {
                shared: std::ptr::null_mut(),
                shared_bytes: 0,
                shadow: Shadow::default(),
                global: GlobalLog::default(),
                atomics: GlobalLog::default(),
                sources: Sources::default(),
                buffers: &[],
            }),
        }
    }
}

/// One launch.
struct Launch<'r> {
    run: &'r Run,
    op: i64,
    kernel: &'r KernelInfo,
    entry: unsafe extern "C" fn(*mut *mut c_void),
    grid: [i64; 3],
    block: [i64; 3],
    arguments: Vec<i64>,
}

/// Checks the sizes of a launch; `Err` says what is wrong.
pub fn check_sizes(grid: [i64; 3], block: [i64; 3], shared: usize) -> Result<(), String> {
    for (what, sizes) in [("grid", grid), ("block", block)] {
        if let Some(d) = sizes.iter().position(|&s| s < 1) {
            return Err(format!(
                "launch with {what} size {} in {}: every grid and block size must be at least 1",
                sizes[d],
                ["x", "y", "z"][d]
            ));
        }
    }
    let limits = [(1024, "x"), (1024, "y"), (64, "z")];
    for (d, (limit, name)) in limits.iter().enumerate() {
        if block[d] > *limit {
            return Err(format!(
                "launch with block size {} in {name}: at most {limit}",
                block[d]
            ));
        }
    }
    let threads = block[0] * block[1] * block[2];
    if threads > 1024 {
        return Err(format!(
            "launch of {threads} threads per block ({} x {} x {}): at most 1024",
            block[0], block[1], block[2]
        ));
    }
    let limits = [((1i64 << 31) - 1, "x"), (65535, "y"), (65535, "z")];
    for (d, (limit, name)) in limits.iter().enumerate() {
        if grid[d] > *limit {
            return Err(format!(
                "launch with grid size {} in {name}: at most {limit}",
                grid[d]
            ));
        }
    }
    if shared > MAX_SHARED_BYTES {
        return Err(format!(
            "the kernel needs {shared} bytes of workgroup memory per block: at most {MAX_SHARED_BYTES}"
        ));
    }
    Ok(())
}

/// `gpu.launch_func` of kernel `kernel` by op `op` from the host thread
/// `host` (whose `launch_arguments` hold the kernel's arguments).
pub fn launch(
    host: &mut Thread,
    op: i64,
    kernel: i64,
    grid: [i64; 3],
    block: [i64; 3],
) -> Result<(), Stop> {
    let run = host.run();
    let arguments = std::mem::take(&mut host.launch_arguments);
    let Some(info) = usize::try_from(kernel)
        .ok()
        .and_then(|k| run.config.kernels.get(k))
    else {
        return Err(host.error(op, &format!("launch of unknown kernel {kernel}")));
    };
    let Some(entry) = info.entry else {
        return Err(host.error(op, &format!("the kernel {} was not compiled", info.name)));
    };
    if arguments.len() != info.argument_slots {
        return Err(host.error(
            op,
            &format!(
                "internal error: {} argument slots for {}, which takes {}",
                arguments.len(),
                info.name,
                info.argument_slots
            ),
        ));
    }
    if let Err(message) = check_sizes(grid, block, info.shared_bytes) {
        return Err(host.error(op, &message));
    }
    for (what, launched, stated) in [
        ("block", block, &info.known_block),
        ("grid", grid, &info.known_grid),
    ] {
        if let Some(bound) = stated.iter().find(|b| !b.admits(launched)) {
            let sizes = |s: [i64; 3]| {
                let one = |n: i64| {
                    if n == i64::MAX {
                        "any".to_owned()
                    } else {
                        n.to_string()
                    }
                };
                format!("{} x {} x {}", one(s[0]), one(s[1]), one(s[2]))
            };
            use crate::launch_bounds::BoundKind;
            let why = match bound.kind {
                BoundKind::Exact => format!(
                    "it was compiled for that size (upstream lowering folds gpu.{what}_dim to it)"
                ),
                BoundKind::Threads => format!(
                    "at most {} threads per block (PTX .maxntid)",
                    bound.sizes.iter().product::<i64>()
                ),
                BoundKind::PerDimension => {
                    "its ids were declared below those sizes (upstream lowering gives the id that range, and apipe-check-hazards relies on it)".to_owned()
                }
            };
            return Err(host.error_with_notes(
                op,
                &format!(
                    "launch of {} with {what} size {}, but the kernel states {} = {}: {why}",
                    info.name,
                    sizes(launched),
                    bound.attribute,
                    sizes(bound.sizes),
                ),
                &[(
                    info.declared_at,
                    format!("{} states its {what} size here", info.name),
                )],
            ));
        }
    }
    let launch = Launch {
        run,
        op,
        kernel: info,
        entry,
        grid,
        block,
        arguments,
    };
    let blocks = (grid[0] * grid[1] * grid[2]) as usize;
    let jobs = run.config.jobs.clamp(1, blocks);
    let logs: Mutex<Vec<(usize, GlobalLog)>> = Mutex::new(Vec::new());
    let atomic_logs: Mutex<Vec<(usize, GlobalLog)>> = Mutex::new(Vec::new());
    let source_logs: Mutex<Vec<(usize, Vec<SourceRead>)>> = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let host_ptr: *mut Thread = host;
    let work = |worker: &mut Worker| loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= blocks || run.failed.load(Ordering::Relaxed) {
            break;
        }
        let b = run.config.schedule.block(i, blocks);
        if run_block(&launch, b, worker).is_err() {
            break;
        }
        if run.config.racecheck {
            let log = std::mem::take(&mut worker.block.global);
            if let Ok(mut logs) = logs.lock() {
                logs.push((b, log));
            }
            let atomics = std::mem::take(&mut worker.block.atomics);
            if let (false, Ok(mut logs)) = (atomics.writes.is_empty(), atomic_logs.lock()) {
                logs.push((b, atomics));
            }
            let reads = std::mem::take(&mut worker.block.sources.log);
            if let (false, Ok(mut logs)) = (reads.is_empty(), source_logs.lock()) {
                logs.push((b, reads));
            }
        }
    };
    if jobs == 1 {
        WORKER.with(|w| {
            let mut worker = w.take().unwrap_or_default();
            work(&mut worker);
            w.set(Some(worker));
        });
    } else {
        std::thread::scope(|scope| {
            for _ in 0..jobs {
                scope.spawn(|| {
                    let mut worker = Worker::default();
                    work(&mut worker);
                });
            }
        });
    }
    set_current(host_ptr);
    if run.failed.load(Ordering::Relaxed) {
        return Err(Stop);
    }
    if run.config.racecheck {
        let mut logs = logs.into_inner().unwrap_or_default();
        // (block, thread) ids of a logged write of block `b`.
        let ids = |b: usize, w: &racecheck::GlobalWrite| {
            let g = block_ids(&launch, b);
            (triple(g.block), triple(g.thread_of(w.thread as usize)))
        };
        if let Some((b0, w0, b1, w1, address)) = racecheck::cross_block_overlap(&mut logs) {
            let ((block0, thread0), (block1, thread1)) = (ids(b0, &w0), ids(b1, &w1));
            run.races.fetch_add(1, Ordering::SeqCst);
            run.message(
                w1.op as i64,
                "error",
                &format!(
                    "race (WAW) on global memory at address {address:#x}: thread {thread1} of block \
                     {block1} and thread {thread0} of block {block0} write the same bytes, neither \
                     atomically (the order of blocks is unspecified)"
                ),
                &[(w0.op as i64, format!("the other write, by thread {thread0} of block {block0}"))],
                false,
            );
        }
        let mut atomic_logs = atomic_logs.into_inner().unwrap_or_default();
        if let Some((b0, w0, b1, w1, address)) =
            racecheck::cross_block_plain_atomic(&mut logs, &mut atomic_logs)
        {
            let ((block0, thread0), (block1, thread1)) = (ids(b0, &w0), ids(b1, &w1));
            run.races.fetch_add(1, Ordering::SeqCst);
            run.message(
                w0.op as i64,
                "error",
                &format!(
                    "race (WAW) on global memory at address {address:#x}: thread {thread0} of \
                     block {block0} writes the bytes that thread {thread1} of block {block1} \
                     atomically updates (an atomic update is atomic only with respect to other \
                     atomics; the order of blocks is unspecified)"
                ),
                &[(
                    w1.op as i64,
                    format!("the atomic update, by thread {thread1} of block {block1}"),
                )],
                false,
            );
        }
        let reads = source_logs.into_inner().unwrap_or_default();
        let source_write = copy_sources::cross_block_source_write(&reads, &mut logs)
            .map(|race| (race, "writes"))
            .or_else(|| {
                copy_sources::cross_block_source_write(&reads, &mut atomic_logs)
                    .map(|race| (race, "atomically updates"))
            });
        if let Some(((b0, read, b1, write, address), verb)) = source_write {
            let g0 = block_ids(&launch, b0);
            let g1 = block_ids(&launch, b1);
            let (block0, thread0) = (triple(g0.block), triple(g0.thread_of(read.thread as usize)));
            let (block1, thread1) = (
                triple(g1.block),
                triple(g1.thread_of(write.thread as usize)),
            );
            run.races.fetch_add(1, Ordering::SeqCst);
            run.message(
                write.op as i64,
                "error",
                &format!(
                    "race (WAR) on global memory byte {} of an asynchronous copy's source buffer: \
                     thread {thread1} of block {block1} {verb} it, and the copy of thread \
                     {thread0} of block {block0} reads it (the order of blocks is unspecified)",
                    address.wrapping_sub(read.base)
                ),
                &[(
                    read.op as i64,
                    format!("the asynchronous copy, by thread {thread0} of block {block0}"),
                )],
                false,
            );
        }
        if run.races.load(Ordering::SeqCst) > 0 {
            return Err(run.error(
                op,
                "the kernel has races (see above); run with --racecheck=false to run it anyway",
                &[],
            ));
        }
    }
    Ok(())
}

thread_local! {
    /// The worker of the calling OS thread, kept between launches.
    static WORKER: std::cell::Cell<Option<Worker>> = const { std::cell::Cell::new(None) };
}

/// The ids of thread 0 of block `linear` of `launch`.
fn block_ids(launch: &Launch, linear: usize) -> GpuIds {
    let [gx, gy, _] = launch.grid;
    let l = linear as i64;
    GpuIds {
        thread: [0; 3],
        block: [l % gx, (l / gx) % gy, l / (gx * gy)],
        block_dim: launch.block,
        grid_dim: launch.grid,
    }
}

/// Where a fiber stopped.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Ready,
    At(i64),
    /// At an `apipe.mbarrier_wait` whose phase is incomplete.
    Blocked(i64),
    Done,
}

/// Runs block `linear` of `launch` on `worker` (step 2-4 of the module doc).
fn run_block(launch: &Launch, linear: usize, worker: &mut Worker) -> Result<(), Stop> {
    let run = launch.run;
    let ids = block_ids(launch, linear);
    let n = (launch.block[0] * launch.block[1] * launch.block[2]) as usize;
    // Workgroup memory, 16-byte aligned, and its shadow.
    let bytes = launch.kernel.shared_bytes;
    worker.shared.clear();
    worker.shared.resize(bytes.div_ceil(16), u128::MAX);
    let block = &mut *worker.block;
    block.shared = worker.shared.as_mut_ptr() as *mut u8;
    block.shared_bytes = bytes;
    block.buffers = launch.kernel.buffers.as_slice();
    if run.config.racecheck {
        block.shadow.reset(bytes);
        block.sources.reset(n);
    }
    let block_ptr: *mut Block = block;
    // Lanes.
    while worker.lanes.len() < n {
        worker.lanes.push(Box::new(Lane {
            thread: Thread::new(run, 0),
            slots: Vec::new(),
            pointers: Vec::new(),
        }));
    }
    let seed = match run.config.completion {
        super::Completion::Random(seed) => seed,
        _ => 0,
    };
    let mut fibers: Vec<Fiber> = Vec::with_capacity(n);
    for t in 0..n {
        let lane = &mut *worker.lanes[t];
        let mut gpu = ids;
        gpu.thread = ids.thread_of(t);
        lane.thread = Thread::new(
            run,
            seed ^ ((linear as u64) << 20 | t as u64).wrapping_mul(0x2545_f491_4f6c_dd1d),
        );
        lane.thread.gpu = Some(gpu);
        lane.thread.linear = t;
        lane.thread.block = block_ptr;
        lane.slots.clear();
        lane.slots.extend_from_slice(&launch.arguments);
        let shared = worker.shared.as_mut_ptr() as i64;
        lane.slots
            .extend_from_slice(&[shared, shared, 0, bytes as i64, 1]);
        for v in [gpu.thread, gpu.block, gpu.block_dim, gpu.grid_dim] {
            lane.slots.extend_from_slice(&v);
        }
        let cache = lane.thread.read_cache.as_mut_ptr() as i64;
        let cache_words = lane.thread.read_cache.len() as i64;
        lane.slots
            .extend_from_slice(&[cache, cache, 0, cache_words, 1]);
        lane.pointers.clear();
        lane.pointers.extend(
            lane.slots
                .iter_mut()
                .map(|slot| slot as *mut i64 as *mut c_void),
        );
        let stack = match worker.stacks.pop() {
            Some(stack) => stack,
            None => DefaultStack::new(THREAD_STACK_BYTES).map_err(|e| {
                run.error(
                    launch.op,
                    &format!("cannot allocate a thread stack: {e}"),
                    &[],
                )
            })?,
        };
        {
            use corosensei::stack::Stack;
            lane.thread.stack = (stack.limit().get(), stack.base().get());
        }
        let lane_ptr: *mut Lane = lane;
        let entry = launch.entry;
        fibers.push(Coroutine::with_stack(stack, move |yielder, ()| {
            // SAFETY: the lane outlives the fiber (both live in this block's
            // `run_block`); the slots hold the kernel's arguments in the
            // layout of its packed entry.
            unsafe {
                (*lane_ptr).thread.yielder = yielder;
                entry((*lane_ptr).pointers.as_mut_ptr());
            }
        }));
    }
    let result = schedule_block(launch, &ids, worker, &mut fibers, linear, n);
    // Reclaim the stacks; a fiber stopped mid-way is reset, never unwound
    // (its frames include JIT code).
    for mut fiber in fibers {
        if !fiber.done() {
            // SAFETY: nothing on a stopped fiber's stack needs dropping: the
            // runtime suspends only from frames without destructors.
            unsafe { fiber.force_reset() };
        }
        worker.stacks.push(fiber.into_stack());
    }
    // The block's workgroup memory dies with it, and its mbarrier slots too
    // (the next block reuses the memory at the same addresses).
    let shared = worker.shared.as_ptr() as usize;
    super::mbarrier::forget_block(shared, shared + bytes);
    result?;
    // 4. Copies still pending land at the end of the block.
    for t in 0..n {
        let thread = &mut worker.lanes[t].thread;
        let where_ = thread.where_();
        for queue in &mut thread.queues.slots {
            while !queue.groups.is_empty() {
                queue.complete_oldest(&mut |_| {});
            }
            for pending in queue.pending.drain(..) {
                if !pending.landed {
                    pending.copy.land();
                }
            }
            if let Some(op) = queue.first_uncommitted {
                run.message(
                    op,
                    "warning",
                    &format!(
                        "copies on queue {} were never committed: no 'apipe.commit_group' \
                         follows this copy{where_}",
                        queue.number
                    ),
                    &[],
                    true,
                );
            }
        }
    }
    Ok(())
}

/// Step 3 of the module doc: rounds of the block's fibers between barriers.
fn schedule_block(
    launch: &Launch,
    ids: &GpuIds,
    worker: &mut Worker,
    fibers: &mut [Fiber],
    linear: usize,
    n: usize,
) -> Result<(), Stop> {
    let run = launch.run;
    let mut states = vec![State::Ready; n];
    let mut order: Vec<usize> = (0..n).collect();
    let mut round: u64 = 0;
    loop {
        match run.config.schedule {
            Schedule::Forward => {}
            Schedule::Reverse => order.reverse(),
            Schedule::Random(seed) => {
                let mut rng = seed
                    ^ (linear as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                    ^ round.wrapping_mul(0xbf58_476d_1ce4_e5b9);
                order.sort_unstable();
                for i in (1..n).rev() {
                    rng = rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
                    let mut z = rng;
                    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                    z ^= z >> 31;
                    order.swap(i, (z % (i as u64 + 1)) as usize);
                }
            }
        }
        let progress = super::mbarrier::progress();
        let mut ran = false;
        for &t in order.iter() {
            match states[t] {
                State::Ready => ran = true,
                State::Blocked(_) => {}
                _ => continue,
            }
            set_current(&mut worker.lanes[t].thread);
            states[t] = match overflow::resume(&mut fibers[t]) {
                Resumed::Yield(Event::Barrier(op)) => State::At(op),
                Resumed::Yield(Event::Blocked(op)) => State::Blocked(op),
                Resumed::Yield(Event::Abort) => return Err(Stop),
                Resumed::Return => State::Done,
                Resumed::Overflow => {
                    return Err(worker.lanes[t].thread.error(
                        launch.op,
                        &format!(
                            "the kernel overflowed a GPU thread's stack of {}: recursion too \
                             deep, or a 'memref.alloca' in a loop (its memory is freed only when \
                             the function returns; wrap the loop body in 'memref.alloca_scope')",
                            overflow::describe_bytes(THREAD_STACK_BYTES)
                        ),
                    ));
                }
            };
            if run.failed.load(Ordering::Relaxed) {
                return Err(Stop);
            }
        }
        if run.config.schedule == Schedule::Reverse {
            order.reverse();
        }
        // Threads at an `apipe.mbarrier_wait` try again while the block
        // makes progress (a thread ran, or an mbarrier moved); when nothing
        // can move, the first of them is a deadlock.
        let blocked = states.iter().enumerate().find_map(|(t, s)| match s {
            State::Blocked(op) => Some((t, *op)),
            _ => None,
        });
        if let Some((t, op)) = blocked {
            if ran || super::mbarrier::progress() != progress {
                round += 1;
                continue;
            }
            let message = super::mbarrier::deadlock_message(
                &worker.lanes[t].thread,
                ids.thread_of(t),
                ids.block,
            );
            return Err(run.error(op, &message, &[]));
        }
        let waiting: Vec<(usize, i64)> = states
            .iter()
            .enumerate()
            .filter_map(|(t, s)| match s {
                State::At(op) => Some((t, *op)),
                _ => None,
            })
            .collect();
        let Some(&(first, barrier)) = waiting.first() else {
            return Ok(()); // every thread returned
        };
        let thread = |t: usize| triple(ids.thread_of(t));
        let block = triple(ids.block);
        if let Some(done) = states.iter().position(|s| *s == State::Done) {
            return Err(run.error(
                barrier,
                &format!(
                    "deadlock: thread {} of block {block} waits at this 'gpu.barrier', but thread {} \
                     of the block has returned and never reaches it (a barrier in divergent \
                     control flow)",
                    thread(first),
                    thread(done)
                ),
                &[],
            ));
        }
        if let Some(&(other, at)) = waiting.iter().find(|(_, op)| *op != barrier) {
            return Err(run.error(
                barrier,
                &format!(
                    "deadlock: threads of block {block} wait at different barriers: thread {} here, \
                     thread {} at another 'gpu.barrier' (a barrier in divergent control flow)",
                    thread(first),
                    thread(other)
                ),
                &[(at, format!("the barrier where thread {} waits", thread(other)))],
            ));
        }
        for s in states.iter_mut() {
            *s = State::Ready;
        }
        worker.block.shadow.barrier();
        worker.block.sources.barrier();
        round += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::check_sizes;

    #[test]
    fn launch_sizes_follow_the_cuda_limits() {
        assert!(check_sizes([1, 1, 1], [1024, 1, 1], 0).is_ok());
        assert!(check_sizes([(1 << 31) - 1, 65535, 65535], [32, 32, 1], 48 * 1024).is_ok());
        let error = |g, b, s| check_sizes(g, b, s).unwrap_err();
        assert_eq!(
            error([0, 1, 1], [1, 1, 1], 0),
            "launch with grid size 0 in x: every grid and block size must be at least 1"
        );
        assert!(error([1, 1, 1], [1, -3, 1], 0).contains("block size -3 in y"));
        assert!(error([1, 1, 1], [1, 1, 65], 0).contains("block size 65 in z: at most 64"));
        assert!(error([1, 1, 1], [64, 32, 1], 0).contains("2048 threads per block"));
        assert!(error([1, 65536, 1], [1, 1, 1], 0).contains("grid size 65536 in y"));
        assert!(error([1, 1, 1], [1, 1, 1], 300 * 1024).contains("bytes of workgroup memory"));
    }
}
