//! The mbarrier form in the emulation runtime (docs/mbarrier.md): rings of
//! mbarrier slots with real phases, arrival counts and transaction counts.
//!
//! A slot is the 8 bytes of workgroup memory the program gave it (a
//! `memref<Kxi64, 3>` element), as on the GPU; its state lives in a table of
//! the OS thread that runs the block (or the host entry), keyed by the
//! slot's address. `apipe.mbarrier_init` writes a fresh cookie into each
//! slot's 8 bytes and the table remembers it: a slot whose bytes do not hold
//! its cookie was never initialised (fresh workgroup memory is `0xff`
//! bytes) or was overwritten by the program, an error at the op that uses
//! it. When a block ends, the table forgets the slots in its workgroup
//! memory ([`forget_block`]), with their arrivals still pending: the next
//! block on the OS thread reuses that memory at the same addresses, and a
//! stale arrival (of a thread whose lane it reuses too) must not count
//! there. So nothing of a finished block survives into the next one.
//!
//! The race checker ([`check_ring`]) sees the ops on a ring of workgroup
//! memory as accesses to its bytes, as the PTX ISA's memory model does:
//! `init` writes the slots (a plain write), the other ops update them
//! atomically. An arrive or a wait of another thread after an `init`, with
//! no `gpu.barrier` between, is a race, whichever thread runs first.
//!
//! Per slot (PTX ISA 9.7.13.15.2, "Contents of the mbarrier object"): the
//! phase, the expected arrival count E, the pending arrival count P, the
//! transaction count T, and what is still in flight towards the current
//! phase: the arrivals whose copies have not all landed, and the bulk
//! copies that have not landed.
//!
//! 1. `init(address, K, E)`: every slot: phase 0, P = E, T = 0.
//! 2. `arrive_copies(slot)` (`cp.async.mbarrier.arrive.noinc`): the
//!    arrival tracks every copy this thread has issued so far (on every
//!    queue, up to a mark per queue); if they have all landed (`eager`, or
//!    early under `random`) it counts at once (P -= 1), else it waits in
//!    the slot until a wait forces it. The copies count as tracked: no
//!    "never committed" warning. An arrival that counts (at once, or
//!    forced) first counts the same thread's earlier arrivals still
//!    pending, on their own slots: they track a prefix of its copies,
//!    which land first, so each copy completes through the phase of the
//!    earliest arrival that tracks it.
//! 3. `expect_tx(slot, B)`: T += B on the current phase.
//! 4. A bulk copy is issued as an `apipe.copy` on the reserved queue
//!    [`BULK_QUEUE`], then `bulk_track(slot, B)` moves it from that queue to
//!    the slot: it completes B bytes (T -= B) when it lands (at once under
//!    `eager`).
//! 5. Phase completion: when P = 0 and T = 0, the phase advances and
//!    P = E.
//! 6. `wait(slot, parity)`: returns at once if the current phase's parity
//!    differs from `parity` (the phase before it is complete). Else it
//!    forces the current phase as late as allowed (`lazy`): every recorded
//!    arrival lands the copies it tracks (in their own threads' queues) and
//!    counts; every recorded bulk copy lands and completes its bytes. If the
//!    phase is still incomplete (threads have not arrived yet), a GPU
//!    thread suspends ([`super::context::Event::Blocked`]) and tries again
//!    when the block's other threads have run; the block scheduler reports
//!    a deadlock, at this op, when no thread can make progress. The host
//!    thread, alone, reports it at once.
//!
//! Race checker: a copy that completes through a phase (its arrival or
//! bulk copy retired, at once under `eager`) is synchronized only with
//! the threads that wait on that phase, or on the phase of a later arrival
//! of the same thread on any slot (that arrival tracks the copy too, PTX
//! ISA 9.7.9.25.3.1, `cp.async.mbarrier.arrive`: "all prior cp.async
//! operations initiated by the executing thread"); the copies an arrival
//! retires form one [`Batch`], counted on each such slot once. Its shared-memory bytes
//! (destination, and a shared source) stay in flight in the block's
//! shadow ([`super::racecheck::Shadow`]): the slot keeps them with the
//! phase they counted on, and each GPU thread's wait that returns after
//! that phase orders them before that thread's later accesses
//! (`Shadow::waited`); any other thread's access is a race until a
//! `gpu.barrier` follows such a wait. Their global sources stay watched ([`super::copy_sources::Sources`])
//! after the arrival retires them: the slot keeps each one's range id and
//! phase, and each GPU thread's wait that returns after that phase orders
//! the range before that thread's later writes (`Sources::waited`); for
//! the others a `gpu.barrier` after such a wait does.
//! The host's copies stay in its watch of copy sources
//! ([`super::copy_sources::HostWatch`]) until the host's own wait returns
//! on a slot whose phase they counted on has completed (not when they
//! land: under `eager` an arrival completes at once, and a write into the
//! source before the wait is still a hazard).

use super::{
    context::{current, entry, triple, Event, Stop, Thread},
    launch::Block,
    queues::{Copy, Pending},
    racecheck::Kind,
};
use std::{
    cell::{Cell, RefCell},
    collections::{HashMap, VecDeque},
    rc::Rc,
};

/// `(op, address, slots, count)`: `apipe.mbarrier_init` of the ring at
/// `address` (its first slot).
pub const MBARRIER_INIT_FN: &str = "apipe_emu_mbarrier_init";
/// `(op, address)`: `apipe.mbarrier_arrive_copies` on the slot at `address`.
pub const MBARRIER_ARRIVE_COPIES_FN: &str = "apipe_emu_mbarrier_arrive_copies";
/// `(op, address, bytes)`: `apipe.mbarrier_expect_tx`.
pub const MBARRIER_EXPECT_TX_FN: &str = "apipe_emu_mbarrier_expect_tx";
/// `(op, address, parity)`: `apipe.mbarrier_wait`.
pub const MBARRIER_WAIT_FN: &str = "apipe_emu_mbarrier_wait";
/// `(op, address, bytes)`: the copy just issued on [`BULK_QUEUE`] is an
/// `apipe.bulk_copy` that completes `bytes` on the slot at `address`.
pub const BULK_TRACK_FN: &str = "apipe_emu_bulk_track";
/// The queue on which the lowering issues the copy of an `apipe.bulk_copy`
/// before [`BULK_TRACK_FN`] takes it off (a program's own queues are far
/// below it).
pub const BULK_QUEUE: i64 = i64::MAX;

/// Bits above the counter of a cookie, so that `0xff` bytes and small
/// integers are never one.
const COOKIE_TAG: u64 = 0x5a1b_0000_0000_0000;

/// An arrival whose copies had not all landed.
struct Arrival {
    /// The arriving thread (a lane of the running block, or the host).
    thread: *mut Thread,
    /// Per queue slot of that thread, the copies issued before the arrival
    /// (see [`super::queues::Queue::retired`]).
    marks: Vec<(usize, u64)>,
    /// The order of arrivals on this OS thread's slots ([`Table`]).
    seq: u64,
}

/// A bulk copy in flight towards a slot.
struct BulkCopy {
    thread: *mut Thread,
    copy: Copy,
    bytes: i64,
}

/// One slot's state.
struct Slot {
    cookie: u64,
    phase: u64,
    expected: u32,
    pending: u32,
    tx: i64,
    arrivals: Vec<Arrival>,
    bulk_copies: Vec<BulkCopy>,
    /// The host's copies counted on this slot, `(op, range start, whether
    /// it is a destination range, phase they counted on)`: they leave the
    /// host's watch of copies when a wait of the host returns after that
    /// phase.
    host_copies: Vec<(u32, usize, bool, u64)>,
    /// The GPU threads' copies counted on this slot, with the phase they
    /// counted on, for the race checker (see [`Batch`]); dropped once a
    /// barrier ordered them before every thread.
    copies: Vec<(u64, Rc<Batch>)>,
}

/// The copies of a GPU thread that one arrival retired (or one bulk copy),
/// as the race checker follows them: their global sources stay watched and
/// their bytes of workgroup memory stay in flight in the shadow until a
/// wait returns on a phase they counted on. One arrival's copies are always
/// counted together: on its slot's phase, then on the phase of each later
/// arrival of the thread on another slot ([`count_arrival`]).
struct Batch {
    /// The issuing thread's linear id.
    thread: u32,
    copies: Vec<TrackedCopy>,
    /// The slots (addresses) it counts on, each once: a wait on a later
    /// phase of a slot returns after the earlier one too.
    slots: RefCell<Vec<usize>>,
    /// Whether a barrier ordered it before every thread (a wait found it
    /// no longer watched nor in flight).
    done: Cell<bool>,
}

/// One copy of a [`Batch`].
struct TrackedCopy {
    /// The copy op.
    op: u32,
    /// The range ids of its watched global sources
    /// ([`super::copy_sources::Sources::retire`]).
    sources: Vec<u64>,
    /// Its byte ranges, as offsets in workgroup memory: read (source) or
    /// write (destination).
    ranges: Vec<(Kind, usize, usize)>,
    /// `(epoch, index)` of its completion in the shadow, once a wait
    /// returned (`Shadow::waited`), shared by every slot it counts on.
    completion: Cell<Option<(u32, u32)>>,
}

impl Slot {
    /// Records `copy` of `t` as counted on the current phase, if `t` is
    /// the host and watches copy sources.
    fn count_host_copy(&mut self, t: &Thread, copy: &Copy) {
        if t.gpu.is_none() && t.host_sources.watching() {
            push_host_ranges(&mut self.host_copies, self.phase, copy);
        }
    }
}

/// Records the source and destination ranges of the host's `copy` as
/// counted on `phase` (see [`Slot::host_copies`]).
fn push_host_ranges(host_copies: &mut Vec<(u32, usize, bool, u64)>, phase: u64, copy: &Copy) {
    let op = copy.op as u32;
    for (start, _) in copy.src_ranges() {
        host_copies.push((op, start, false, phase));
    }
    for (start, _) in copy.dst_ranges() {
        host_copies.push((op, start, true, phase));
    }
}

#[derive(Default)]
struct Table {
    slots: HashMap<usize, Slot>,
    next_cookie: u64,
    /// Bumped by every arrival counted, phase completed and wait returned:
    /// the block scheduler's measure of progress.
    progress: u64,
    /// Why each blocked thread waits (by thread address), for the
    /// deadlock message.
    blocked: HashMap<usize, String>,
    /// The sequence number of the next arrival ([`Arrival::seq`]).
    next_arrival: u64,
    /// Per GPU thread (by address), the batches its arrivals retired, in
    /// order, that a later arrival may still have to count on its slot:
    /// each batch counts on a superset of the slots of every later one.
    batches: HashMap<usize, VecDeque<Rc<Batch>>>,
}

thread_local! {
    static TABLE: RefCell<Table> = RefCell::new(Table::default());
}

/// Forgets every slot, pending arrival and batch: a new run (one
/// completion mode of `apipe-run`) starts with none, even after a run that
/// stopped at a run-time error with arrivals pending. Those reference the
/// stopped run's threads, and its rings' addresses (the entry fiber's
/// stack) are reused by the next run. Cookies keep counting up, so a slot
/// whose bytes still hold an old cookie is not taken for an initialised
/// one.
pub fn forget_all() {
    TABLE.with(|table| {
        let mut table = table.borrow_mut();
        let next_cookie = table.next_cookie;
        *table = Table {
            next_cookie,
            ..Table::default()
        };
    });
}

/// Forgets the slots at addresses in `[start, end)`, the workgroup memory
/// of a block that ended, with their pending arrivals and copies.
pub fn forget_block(start: usize, end: usize) {
    TABLE.with(|table| {
        let mut table = table.borrow_mut();
        table
            .slots
            .retain(|&address, _| !(start..end).contains(&address));
        table.batches.clear();
    });
}

/// Race checker: op `op` of the GPU thread `t` accesses the `bytes` bytes
/// of a ring at `address` (`Kind::Write` for `init`, `Kind::Atomic` for the
/// other mbarrier ops); nothing for the host or a ring outside workgroup
/// memory.
fn check_ring(t: &mut Thread, op: i64, address: i64, bytes: usize, kind: Kind) {
    if !(t.run().config.racecheck && t.gpu.is_some()) {
        return;
    }
    if let Some((start, end)) = super::shared_range(t, address as usize, bytes) {
        super::check_shared(t, op, kind, start, end, None);
    }
}

/// Progress made on this OS thread's mbarriers so far (see [`Table`]).
pub fn progress() -> u64 {
    TABLE.with(|t| t.borrow().progress)
}

/// Why `thread` waits at an `apipe.mbarrier_wait`, for a deadlock message.
pub fn blocked_reason(thread: *const Thread) -> Option<String> {
    TABLE.with(|t| t.borrow().blocked.get(&(thread as usize)).cloned())
}

fn read_word(address: usize) -> u64 {
    // SAFETY: the lowering passes the address of an element of a live
    // `memref<Kxi64>`, 8-byte aligned.
    unsafe { std::ptr::read_volatile(address as *const u64) }
}

fn write_word(address: usize, value: u64) {
    // SAFETY: as in `read_word`.
    unsafe { std::ptr::write_volatile(address as *mut u64, value) }
}

/// The slot at `address`, if `init` made it and its bytes still hold its
/// cookie; else the error message.
fn with_slot<R>(
    slots: &mut HashMap<usize, Slot>,
    address: usize,
    what: &str,
    f: impl FnOnce(&mut Slot) -> R,
) -> Result<R, String> {
    if !address.is_multiple_of(8) {
        return Err(format!(
            "'{what}' on address {address:#x}, which is not 8-byte aligned (an mbarrier is a 64-bit object)"
        ));
    }
    let word = read_word(address);
    match slots.get_mut(&address) {
        Some(slot) if slot.cookie == word => Ok(f(slot)),
        Some(_) => Err(format!(
            "'{what}' on an mbarrier slot whose bytes were overwritten since its 'apipe.mbarrier_init' \
             (a store into the ring, or the ring's memory reused)"
        )),
        None => Err(format!(
            "'{what}' on an mbarrier slot that no 'apipe.mbarrier_init' initialised"
        )),
    }
}

/// Step 5 for `slot`; returns true if its phase completed.
fn maybe_complete(slot: &mut Slot, progress: &mut u64) -> bool {
    if slot.pending == 0 && slot.tx == 0 {
        slot.phase += 1;
        slot.pending = slot.expected;
        *progress += 1;
        true
    } else {
        false
    }
}

/// The race checker's record of `copy`, of the GPU thread `thread`
/// (linear id), completed through a phase: its watched global sources
/// (retired from the block's [`super::copy_sources::Sources`]) and its
/// bytes of workgroup memory; `None` when it has neither.
fn synchronized(block: &mut Block, thread: u32, copy: &Copy) -> Option<TrackedCopy> {
    let mut sources = Vec::new();
    if block.sources.watching() {
        for (start, _) in copy.src_ranges() {
            sources.extend(block.sources.retire(thread, copy.op as u32, start));
        }
    }
    let base = block.shared as usize;
    let mut ranges = Vec::new();
    for (kind, all) in [
        (Kind::Read, copy.src_ranges().collect::<Vec<_>>()),
        (Kind::Write, copy.dst_ranges().collect::<Vec<_>>()),
    ] {
        for (start, end) in all {
            if let Some(offset) = start.checked_sub(base) {
                if offset < block.shared_bytes {
                    ranges.push((kind, offset, offset + (end - start)));
                }
            }
        }
    }
    (!sources.is_empty() || !ranges.is_empty()).then(|| TrackedCopy {
        op: copy.op as u32,
        sources,
        ranges,
        completion: Cell::new(None),
    })
}

/// Counts `copies` of the GPU thread `thread` on the current phase of
/// `slot` (at `address`) as one [`Batch`], returned; `None` when there is
/// nothing to follow.
fn count_batch(
    thread: u32,
    copies: Vec<TrackedCopy>,
    address: usize,
    slot: &mut Slot,
) -> Option<Rc<Batch>> {
    if copies.is_empty() {
        return None;
    }
    let batch = Rc::new(Batch {
        thread,
        copies,
        slots: RefCell::new(vec![address]),
        done: Cell::new(false),
    });
    slot.copies.push((slot.phase, batch.clone()));
    Some(batch)
}

/// A bulk copy of the thread `t` landed on the slot at `address`: the race
/// checker's record of it counts on the slot's current phase (a bulk copy
/// is tracked by its own slot only, not by later arrivals).
fn count_bulk(t: &Thread, copy: &Copy, address: usize, slot: &mut Slot) {
    if !(t.run().config.racecheck && t.gpu.is_some()) {
        return;
    }
    // SAFETY: null or the live block of the running GPU threads.
    let Some(block) = (unsafe { t.block.as_mut() }) else {
        return;
    };
    let thread = t.linear as u32;
    let copies = synchronized(block, thread, copy).into_iter().collect();
    count_batch(thread, copies, address, slot);
}

/// A wait of the GPU thread `waiter` returned on `slot`: the copies that
/// its completed phases counted are ordered before `waiter` (their global
/// sources before its later writes, their workgroup bytes before its
/// later accesses).
fn waited(block: &mut Block, slot: &mut Slot, waiter: u32) {
    let (phase, now) = (slot.phase, block.shadow.epoch);
    slot.copies.retain(|(counted, batch)| {
        if *counted >= phase {
            return true;
        }
        let mut live = false;
        for copy in &batch.copies {
            for &id in &copy.sources {
                live |= block.sources.waited(batch.thread, id, waiter, now);
            }
            let mut completion = copy.completion.get();
            for &(kind, start, end) in &copy.ranges {
                live |= block.shadow.waited(
                    kind,
                    start,
                    end,
                    batch.thread,
                    copy.op,
                    waiter,
                    &mut completion,
                );
            }
            copy.completion.set(completion);
        }
        if !live {
            batch.done.set(true);
        }
        live
    });
}

/// Lands (if needed) and retires the copies of `thread` issued before
/// `marks`, which count on `slot` (at `address`); returns the race
/// checker's batch of them.
fn retire(
    thread: *mut Thread,
    marks: &[(usize, u64)],
    address: usize,
    slot: &mut Slot,
) -> Option<Rc<Batch>> {
    // SAFETY: the thread is the current one or a suspended lane of the
    // running block (its fiber does not run); nothing else borrows its
    // queues during this call.
    let t = unsafe { &mut *thread };
    let racecheck = t.run().config.racecheck && t.gpu.is_some();
    // SAFETY: null or the live block of the running GPU threads; no other
    // borrow of it is live here.
    let mut block = unsafe { t.block.as_mut() }.filter(|_| racecheck);
    let linear = t.linear as u32;
    let mut tracked = Vec::new();
    for &(queue_slot, mark) in marks {
        let Some(queue) = t.queues.slots.get_mut(queue_slot) else {
            continue;
        };
        while queue.retired < mark {
            let Some(Pending { landed, copy, .. }) = queue.pending.pop_front() else {
                break;
            };
            queue.retired += 1;
            if !landed {
                copy.land();
            }
            if let Some(block) = block.as_deref_mut() {
                tracked.extend(synchronized(block, linear, &copy));
            }
            if t.gpu.is_none() && t.host_sources.watching() {
                push_host_ranges(&mut slot.host_copies, slot.phase, &copy);
            }
        }
    }
    if racecheck {
        // Its copies completed: a new generation of its read cache.
        t.next_generation();
    }
    count_batch(linear, tracked, address, slot)
}

/// Whether every copy of `thread` before `marks` has landed.
fn all_landed(thread: &Thread, marks: &[(usize, u64)]) -> bool {
    marks.iter().all(|&(slot, mark)| {
        thread.queues.slots.get(slot).is_none_or(|q| {
            let count = mark.saturating_sub(q.retired) as usize;
            q.pending.iter().take(count).all(|p| p.landed)
        })
    })
}

/// Step 6's forcing: every recorded bulk copy of the slot at `address`
/// (initialised) lands and counts, then its recorded arrivals, in order,
/// until the phase of parity `parity` (the waited one) has completed: a
/// lazy run lands no copy before a wait needs it.
///
/// Each arrival and each landing counts on the phase that is current at
/// that moment, as on the GPU: arrivals beyond E complete the phase and
/// count on the next one (a slot reused too early).
fn force(table: &mut Table, address: usize, parity: u64) {
    let Some(slot) = table.slots.get_mut(&address) else {
        return;
    };
    for bulk in std::mem::take(&mut slot.bulk_copies) {
        bulk.copy.land();
        // SAFETY: as in `retire`.
        let t = unsafe { &*bulk.thread };
        count_bulk(t, &bulk.copy, address, slot);
        slot.count_host_copy(t, &bulk.copy);
        slot.tx -= bulk.bytes;
        maybe_complete(slot, &mut table.progress);
    }
    loop {
        let Some(slot) = table.slots.get_mut(&address) else {
            return;
        };
        // Only up to the waited phase: an arrival queued for a later phase
        // stays pending (it would complete that phase early and land its
        // copies before the program waits for them).
        if slot.arrivals.is_empty() || slot.phase % 2 != parity {
            return;
        }
        let arrival = slot.arrivals.remove(0);
        count_arrival(table, address, arrival);
    }
}

/// Retires `arrival` (landing its copies) and counts it on the slot at
/// `address`, after the arrivals of the same thread still pending before
/// it (on any slot), each on its own slot: they track a prefix of its
/// copies (PTX `cp.async.mbarrier.arrive` tracks every earlier `cp.async`
/// of the thread), and on the GPU an arrival triggers as soon as the
/// copies it tracks have landed, so a later arrival never completes an
/// earlier one's copies in its place (a wait on the earlier slot's phase
/// orders them).
///
/// Each arrival also counts, for the race checker, the batches of the
/// thread's earlier arrivals not yet counted on its slot: it tracks their
/// copies too. Batches count on nested sets of slots (an older one on
/// every slot a newer one counts on), so the newest batch already counted
/// there ends the scan, and each (batch, slot) pair is counted once.
fn count_arrival(table: &mut Table, address: usize, arrival: Arrival) {
    let Table {
        slots,
        progress,
        batches,
        ..
    } = table;
    let before = |a: &Arrival| a.thread == arrival.thread && a.seq < arrival.seq;
    let mut earlier: Vec<(u64, usize, Arrival)> = Vec::new();
    for (&at, slot) in slots.iter_mut() {
        let mut i = 0;
        while i < slot.arrivals.len() {
            if before(&slot.arrivals[i]) {
                let a = slot.arrivals.remove(i);
                earlier.push((a.seq, at, a));
            } else {
                i += 1;
            }
        }
    }
    earlier.sort_by_key(|(seq, _, _)| *seq);
    earlier.push((arrival.seq, address, arrival));
    let rings = slots.len();
    for (_, at, a) in earlier {
        if let Some(slot) = slots.get_mut(&at) {
            let list = batches.entry(a.thread as usize).or_default();
            for batch in list.iter().rev() {
                if batch.slots.borrow().contains(&at) {
                    break;
                }
                batch.slots.borrow_mut().push(at);
                slot.copies.push((slot.phase, batch.clone()));
            }
            list.extend(retire(a.thread, &a.marks, at, slot));
            // Forget the oldest batches that no slot can still add to:
            // ordered before every thread, or counted on every slot.
            while list
                .front()
                .is_some_and(|b| b.done.get() || b.slots.borrow().len() >= rings)
            {
                list.pop_front();
            }
            slot.pending = slot.pending.saturating_sub(1);
            *progress += 1;
            maybe_complete(slot, progress);
        }
    }
}

fn stop(t: &mut Thread, op: i64, message: String) -> Stop {
    t.error(op, &message)
}

/// `apipe.mbarrier_init` of the `slots` slots of the ring at `address`
/// with the arrival count `count`.
pub extern "C" fn apipe_emu_mbarrier_init(op: i64, address: i64, slots: i64, count: i64) {
    entry((), |t| {
        if let Some(stop) = super::heap::freed_ring(t, op, address, "apipe.mbarrier_init") {
            return Err(stop);
        }
        if !(1..=(1 << 20) - 1).contains(&count) {
            return Err(stop(
                t,
                op,
                format!(
                    "'apipe.mbarrier_init' with arrival count {count}: an mbarrier counts 1 to 1048575 arrivals"
                ),
            ));
        }
        if address % 8 != 0 {
            return Err(stop(
                t,
                op,
                format!(
                    "'apipe.mbarrier_init' of a ring at {address:#x}, which is not 8-byte aligned"
                ),
            ));
        }
        check_ring(t, op, address, 8 * slots.max(0) as usize, Kind::Write);
        TABLE.with(|table| {
            let mut table = table.borrow_mut();
            for i in 0..slots.max(0) as usize {
                table.next_cookie += 1;
                let cookie = COOKIE_TAG | table.next_cookie;
                let at = address as usize + 8 * i;
                write_word(at, cookie);
                table.slots.insert(
                    at,
                    Slot {
                        cookie,
                        phase: 0,
                        expected: count as u32,
                        pending: count as u32,
                        tx: 0,
                        arrivals: Vec::new(),
                        bulk_copies: Vec::new(),
                        host_copies: Vec::new(),
                        copies: Vec::new(),
                    },
                );
            }
            table.progress += 1;
        });
        t.tick();
        Ok(())
    })
}

/// `apipe.mbarrier_arrive_copies` on the slot at `address`.
pub extern "C" fn apipe_emu_mbarrier_arrive_copies(op: i64, address: i64) {
    entry((), |t| {
        if let Some(stop) = super::heap::freed_ring(t, op, address, "apipe.mbarrier_arrive_copies")
        {
            return Err(stop);
        }
        check_ring(t, op, address, 8, Kind::Atomic);
        let marks: Vec<(usize, u64)> = t
            .queues
            .slots
            .iter()
            .enumerate()
            .map(|(slot, q)| (slot, q.retired + q.pending.len() as u64))
            .collect();
        for queue in &mut t.queues.slots {
            queue.uncommitted_count = 0;
            queue.first_uncommitted = None;
        }
        let landed = all_landed(t, &marks);
        let thread: *mut Thread = t;
        let result = TABLE.with(|table| {
            let table = &mut *table.borrow_mut();
            let address = address as usize;
            with_slot(
                &mut table.slots,
                address,
                "apipe.mbarrier_arrive_copies",
                |_| (),
            )?;
            table.next_arrival += 1;
            let arrival = Arrival {
                thread,
                marks,
                seq: table.next_arrival,
            };
            if landed {
                count_arrival(table, address, arrival);
            } else if let Some(slot) = table.slots.get_mut(&address) {
                slot.arrivals.push(arrival);
            }
            Ok(())
        });
        result.map_err(|message| stop(t, op, message))?;
        t.tick();
        Ok(())
    })
}

/// `apipe.mbarrier_expect_tx` of `bytes` on the slot at `address`.
pub extern "C" fn apipe_emu_mbarrier_expect_tx(op: i64, address: i64, bytes: i64) {
    entry((), |t| {
        if let Some(stop) = super::heap::freed_ring(t, op, address, "apipe.mbarrier_expect_tx") {
            return Err(stop);
        }
        check_ring(t, op, address, 8, Kind::Atomic);
        let result = TABLE.with(|table| {
            let table = &mut *table.borrow_mut();
            let progress = &mut table.progress;
            with_slot(
                &mut table.slots,
                address as usize,
                "apipe.mbarrier_expect_tx",
                |slot| {
                    slot.tx += bytes;
                    maybe_complete(slot, progress);
                },
            )
        });
        result.map_err(|message| stop(t, op, message))?;
        t.tick();
        Ok(())
    })
}

/// After the copy of an `apipe.bulk_copy` was issued on [`BULK_QUEUE`]:
/// moves it to the slot at `address`, where it completes `bytes`.
pub extern "C" fn apipe_emu_bulk_track(op: i64, address: i64, bytes: i64) {
    entry((), |t| {
        check_ring(t, op, address, 8, Kind::Atomic);
        let Some(queue) = t.queues.find(BULK_QUEUE) else {
            return Err(stop(
                t,
                op,
                "internal error: no bulk copy was issued before it is tracked".into(),
            ));
        };
        let q = &mut t.queues.slots[queue];
        let Some(pending) = q.pending.pop_back() else {
            return Err(stop(
                t,
                op,
                "internal error: no bulk copy was issued before it is tracked".into(),
            ));
        };
        // Taken off the queue as if it was never issued there.
        q.uncommitted_count = q.uncommitted_count.saturating_sub(1);
        if q.uncommitted_count == 0 {
            q.first_uncommitted = None;
        }
        let thread: *mut Thread = t;
        let result = TABLE.with(|table| {
            let table = &mut *table.borrow_mut();
            let progress = &mut table.progress;
            with_slot(
                &mut table.slots,
                address as usize,
                "apipe.bulk_copy",
                |slot| {
                    if pending.landed {
                        // SAFETY: the current thread; no other borrow is live.
                        let t = unsafe { &*thread };
                        count_bulk(t, &pending.copy, address as usize, slot);
                        slot.count_host_copy(t, &pending.copy);
                        slot.tx -= bytes;
                        maybe_complete(slot, progress);
                    } else {
                        slot.bulk_copies.push(BulkCopy {
                            thread,
                            copy: pending.copy,
                            bytes,
                        });
                    }
                },
            )
        });
        result.map_err(|message| stop(t, op, message))?;
        t.tick();
        Ok(())
    })
}

/// What one try of a wait found.
enum Try {
    Done,
    /// The phase is incomplete; the reason, for a deadlock message.
    Blocked(String),
}

/// `apipe.mbarrier_wait` on the slot at `address` for the phase of parity
/// `parity` (step 6).
pub extern "C" fn apipe_emu_mbarrier_wait(op: i64, address: i64, parity: i64) {
    let parity = (parity & 1) as u64;
    let mut first_try = true;
    loop {
        let outcome = entry(None, |t| {
            if std::mem::take(&mut first_try) {
                if let Some(stop) = super::heap::freed_ring(t, op, address, "apipe.mbarrier_wait") {
                    return Err(stop);
                }
                check_ring(t, op, address, 8, Kind::Atomic);
            }
            // The host's copies that the waited phase completed.
            let mut released: Vec<(u32, usize, bool)> = Vec::new();
            let host = t.gpu.is_none();
            let racecheck = !host && t.run().config.racecheck;
            let (block, me) = (t.block, t.linear as u32);
            let result = TABLE.with(|table| {
                let table = &mut *table.borrow_mut();
                let at = address as usize;
                let outcome = with_slot(&mut table.slots, at, "apipe.mbarrier_wait", |slot| {
                    slot.phase % 2 != parity
                })
                .map(|done| {
                    if !done {
                        force(table, at, parity);
                    }
                    let Some(slot) = table.slots.get(&at) else {
                        return Try::Done;
                    };
                    if slot.phase % 2 != parity {
                        table.progress += 1;
                        return Try::Done;
                    }
                    Try::Blocked(format!(
                        "it waits for phase {} (parity {parity}) of the slot, which has {} of {} \
                         arrivals{}",
                        slot.phase,
                        slot.expected - slot.pending,
                        slot.expected,
                        if slot.tx != 0 {
                            format!(" and {} transaction bytes outstanding", slot.tx)
                        } else {
                            String::new()
                        }
                    ))
                });
                if let Ok(Try::Done) = outcome {
                    let key = current() as usize;
                    table.blocked.remove(&key);
                    if host {
                        // Every completed phase of every slot, not only the
                        // waited one: an arrival retires all the thread's
                        // earlier copies, so a copy may be counted on a
                        // later group's slot than the group the program
                        // waits for (cp.async.mbarrier.arrive tracks all
                        // prior cp.async of the thread). Under `lazy` a
                        // phase completes only at a wait on it.
                        for slot in table.slots.values_mut() {
                            let phase = slot.phase;
                            slot.host_copies
                                .retain(|&(op, start, destination, counted)| {
                                    let done = counted < phase;
                                    if done {
                                        released.push((op, start, destination));
                                    }
                                    !done
                                });
                        }
                    }
                    // SAFETY: null or the live block of the running GPU
                    // threads; no other borrow of it is live here.
                    let block = unsafe { block.as_mut() };
                    if let (true, Some(block), Some(slot)) =
                        (racecheck, block, table.slots.get_mut(&(address as usize)))
                    {
                        waited(block, slot, me);
                    }
                }
                outcome
            });
            for (op, start, destination) in released {
                if destination {
                    t.host_sources.complete_destination(op, start);
                } else {
                    t.host_sources.complete(op, start);
                }
            }
            match result {
                Err(message) => Err(stop(t, op, message)),
                Ok(Try::Done) => {
                    // Other threads' copies are now visible to this one: its
                    // cached reads must be checked again.
                    t.next_generation();
                    t.tick();
                    Ok(Some(true))
                }
                Ok(Try::Blocked(reason)) if t.gpu.is_none() => Err(stop(
                    t,
                    op,
                    format!(
                        "deadlock: this 'apipe.mbarrier_wait' can never return: {reason}, and the \
                         host thread is the only one that could arrive"
                    ),
                )),
                Ok(Try::Blocked(reason)) => {
                    TABLE.with(|table| {
                        table
                            .borrow_mut()
                            .blocked
                            .insert(current() as usize, reason)
                    });
                    Ok(Some(false))
                }
            }
        });
        match outcome {
            Some(false) => {
                let thread = current();
                // SAFETY: the live current GPU thread, on its fiber.
                let yielder = unsafe { thread.as_ref() }.map(|t| t.yielder);
                // SAFETY: a set yielder is the current fiber's own, alive
                // while this code runs on it.
                match yielder.and_then(|y| unsafe { y.as_ref() }) {
                    Some(yielder) => {
                        yielder.suspend(Event::Blocked(op));
                    }
                    None => return,
                }
            }
            _ => return,
        }
    }
}

/// The deadlock message of a block whose threads cannot progress: `thread`
/// (linear id `linear`, ids `ids`) waits at an `apipe.mbarrier_wait`.
pub fn deadlock_message(thread: *const Thread, ids: [i64; 3], block: [i64; 3]) -> String {
    let reason = blocked_reason(thread).unwrap_or_else(|| "its phase never completes".into());
    format!(
        "deadlock: thread {} of block {} waits at this 'apipe.mbarrier_wait' and no thread of the \
         block can make progress: {reason} (a wrong arrival count, a slot reused before its phase \
         completed, or a phase parity out of step)",
        triple(ids),
        triple(block)
    )
}

/// The runtime's mbarrier symbols for the JIT.
pub fn symbols() -> Vec<(&'static str, *mut ())> {
    vec![
        (MBARRIER_INIT_FN, apipe_emu_mbarrier_init as *mut ()),
        (
            MBARRIER_ARRIVE_COPIES_FN,
            apipe_emu_mbarrier_arrive_copies as *mut (),
        ),
        (
            MBARRIER_EXPECT_TX_FN,
            apipe_emu_mbarrier_expect_tx as *mut (),
        ),
        (MBARRIER_WAIT_FN, apipe_emu_mbarrier_wait as *mut ()),
        (BULK_TRACK_FN, apipe_emu_bulk_track as *mut ()),
    ]
}
