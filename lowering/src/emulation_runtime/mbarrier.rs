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
//! it. So nothing of a finished block survives into the next one.
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
//!    "never committed" warning.
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
//! Race checker: copies that complete through a phase are synchronized
//! with every thread that waits on it, so their bytes leave the shadow
//! (a later access by any thread is no race). A thread that reads them
//! without waiting on that phase, after another thread's wait completed it,
//! is not reported (the shadow keeps no per-thread phase knowledge).
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
use std::{cell::RefCell, collections::HashMap};

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
    /// The host's copies counted on this slot, `(op, source start, phase
    /// they counted on)`: they leave the host's watch of copy sources when
    /// a wait of the host on the slot returns after that phase.
    host_copies: Vec<(u32, usize, u64)>,
}

impl Slot {
    /// Records `copy` of `t` as counted on the current phase, if `t` is
    /// the host and watches copy sources.
    fn count_host_copy(&mut self, t: &Thread, copy: &Copy) {
        if t.gpu.is_none() && t.host_sources.watching() {
            for (start, _) in copy.src_ranges() {
                self.host_copies.push((copy.op as u32, start, self.phase));
            }
        }
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
}

thread_local! {
    static TABLE: RefCell<Table> = RefCell::new(Table::default());
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

/// Removes `copy`'s bytes from the race checker's shadow of `block` and
/// its watch on global sources: it completed through an mbarrier phase, which synchronizes it with every
/// waiter.
fn synchronized(block: *mut Block, copy: &Copy) {
    // SAFETY: null or the live block of the running GPU threads.
    let Some(block) = (unsafe { block.as_mut() }) else {
        return;
    };
    if block.sources.watching() {
        for (start, _) in copy.src_ranges() {
            block.sources.forget(copy.op as u32, start);
        }
    }
    let base = block.shared as usize;
    for (kind, ranges) in [
        (Kind::Read, copy.src_ranges().collect::<Vec<_>>()),
        (Kind::Write, copy.dst_ranges().collect::<Vec<_>>()),
    ] {
        for (start, end) in ranges {
            if let Some(offset) = start.checked_sub(base) {
                if offset < block.shared_bytes {
                    block.shadow.forget_in_flight(
                        kind,
                        offset,
                        offset + (end - start),
                        copy.op as u32,
                    );
                }
            }
        }
    }
}

/// Lands (if needed) and retires the copies of `thread` issued before
/// `marks`, which count on `slot`.
fn retire(thread: *mut Thread, marks: &[(usize, u64)], slot: &mut Slot) {
    // SAFETY: the thread is the current one or a suspended lane of the
    // running block (its fiber does not run); nothing else borrows its
    // queues during this call.
    let t = unsafe { &mut *thread };
    let racecheck = t.run().config.racecheck && t.gpu.is_some();
    let block = t.block;
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
            if racecheck {
                synchronized(block, &copy);
            }
            if t.gpu.is_none() && t.host_sources.watching() {
                for (start, _) in copy.src_ranges() {
                    slot.host_copies.push((copy.op as u32, start, slot.phase));
                }
            }
        }
    }
    if racecheck {
        // Its copies completed: a new generation of its read cache.
        t.next_generation();
    }
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

/// Step 6's forcing: every recorded arrival and bulk copy of `slot` lands
/// and counts.
///
/// Each arrival and each landing counts on the phase that is current at
/// that moment, as on the GPU: arrivals beyond E complete the phase and
/// count on the next one (a slot reused too early).
fn force(slot: &mut Slot, progress: &mut u64) {
    for bulk in std::mem::take(&mut slot.bulk_copies) {
        bulk.copy.land();
        // SAFETY: as in `retire`.
        let t = unsafe { &*bulk.thread };
        if t.run().config.racecheck && t.gpu.is_some() {
            synchronized(t.block, &bulk.copy);
        }
        slot.count_host_copy(t, &bulk.copy);
        slot.tx -= bulk.bytes;
        maybe_complete(slot, progress);
    }
    for arrival in std::mem::take(&mut slot.arrivals) {
        retire(arrival.thread, &arrival.marks, slot);
        slot.pending = slot.pending.saturating_sub(1);
        *progress += 1;
        maybe_complete(slot, progress);
    }
}

fn stop(t: &mut Thread, op: i64, message: String) -> Stop {
    t.error(op, &message)
}

/// `apipe.mbarrier_init` of the `slots` slots of the ring at `address`
/// with the arrival count `count`.
pub extern "C" fn apipe_emu_mbarrier_init(op: i64, address: i64, slots: i64, count: i64) {
    entry((), |t| {
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
            let progress = &mut table.progress;
            with_slot(
                &mut table.slots,
                address as usize,
                "apipe.mbarrier_arrive_copies",
                |slot| {
                    if landed {
                        retire(thread, &marks, slot);
                        slot.pending = slot.pending.saturating_sub(1);
                        *progress += 1;
                        maybe_complete(slot, progress);
                    } else {
                        slot.arrivals.push(Arrival { thread, marks });
                    }
                },
            )
        });
        result.map_err(|message| stop(t, op, message))?;
        t.tick();
        Ok(())
    })
}

/// `apipe.mbarrier_expect_tx` of `bytes` on the slot at `address`.
pub extern "C" fn apipe_emu_mbarrier_expect_tx(op: i64, address: i64, bytes: i64) {
    entry((), |t| {
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
                        if t.run().config.racecheck && t.gpu.is_some() {
                            synchronized(t.block, &pending.copy);
                        }
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
    loop {
        let outcome = entry(None, |t| {
            // The host's copies that the waited phase completed.
            let mut released: Vec<(u32, usize)> = Vec::new();
            let host = t.gpu.is_none();
            let result = TABLE.with(|table| {
                let table = &mut *table.borrow_mut();
                let progress = &mut table.progress;
                let outcome = with_slot(
                    &mut table.slots,
                    address as usize,
                    "apipe.mbarrier_wait",
                    |slot| {
                        if slot.phase % 2 != parity {
                            *progress += 1;
                            return Try::Done;
                        }
                        force(slot, progress);
                        if slot.phase % 2 != parity {
                            *progress += 1;
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
                    },
                );
                if let Ok(Try::Done) = outcome {
                    let key = current() as usize;
                    table.blocked.remove(&key);
                    if let (true, Some(slot)) = (host, table.slots.get_mut(&(address as usize))) {
                        let phase = slot.phase;
                        slot.host_copies.retain(|&(op, start, counted)| {
                            let done = counted < phase;
                            if done {
                                released.push((op, start));
                            }
                            !done
                        });
                    }
                }
                outcome
            });
            for (op, start) in released {
                t.host_sources.complete(op, start);
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
