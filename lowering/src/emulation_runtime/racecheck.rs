//! The race checker of kernels (`apipe-run --racecheck`), as strict as
//! `compute-sanitizer --tool racecheck` for shared memory:
//!
//! 1. Epochs: the threads of a block run between barriers; each completed
//!    `gpu.barrier` starts a new epoch of the block. Two accesses of
//!    different threads to the same shared-memory byte in the same epoch,
//!    at least one a write, are a race: RAW, WAR or WAW (CUDA programming
//!    guide, "memory fence and synchronization"; a barrier orders every
//!    access before it with every access after it).
//! 2. Shadow memory ([`Shadow`]): per byte of the block's workgroup memory,
//!    its last write and up to two reads of the current epoch (two
//!    different threads, so a later write by either still finds the other),
//!    each as (epoch, thread, op) packed in one word.
//! 3. Asynchronous copies (`apipe.copy`, PTX `cp.async`) write their
//!    destination and read their source from issue until their group
//!    completes: at issue their bytes are recorded with the epoch
//!    [`IN_FLIGHT`], which conflicts with every access of another thread;
//!    when a wait completes the group, they are recorded again at the
//!    epoch of the wait. So a copy read by another thread before
//!    wait + barrier is a race, and an access of the issuing thread itself
//!    to the bytes of its own copy in flight is reported too (a missing
//!    wait).
//!    A copy that an mbarrier phase completes (its arrival retired it, at
//!    once under `eager`; super::mbarrier) stays in flight until a wait
//!    on that phase returns, in any thread: then its bytes name a
//!    [`Completion`] of the current epoch (the thread field
//!    [`COMPLETED`], the op field the completion's index), which lists the
//!    threads whose wait returned. Those threads are ordered after the
//!    copy (PTX ISA 9.7.13.15: a completed phase makes the copies it
//!    tracked visible to the threads that observe it); any other thread's
//!    access in the same epoch is a race, and the next `gpu.barrier`
//!    orders the copy before every thread ([`Shadow::barrier`]).
//! 4. Atomic read-modify-writes (`memref.atomic_rmw`,
//!    `memref.generic_atomic_rmw`) are writes marked atomic: they race with
//!    the plain accesses of other threads in the same epoch, never with
//!    another atomic access (PTX `atom` on shared memory is atomic with
//!    respect to every thread of the CTA).
//! 5. Global memory: each block logs the byte ranges its stores write,
//!    plain and atomic apart; at the end of a launch two blocks that wrote
//!    the same bytes, not both atomically, are reported (the order of
//!    blocks is unspecified; an atomic update is atomic only with respect
//!    to other atomics: [`cross_block_plain_atomic`]).
//! 6. The global source of a copy, which it reads until its group
//!    completes, is watched apart ([`super::copy_sources`]): only the
//!    bytes of copies in flight.
//!
//! Each race is reported once per (kind, op, other op), with both threads,
//! the byte offset and the buffer, and fails the run at the end of the
//! launch.

use super::context::{triple, GpuIds, Run};

/// The epoch of an access that lasts until its copy completes.
pub const IN_FLIGHT: u32 = u32::MAX;

/// One access to a byte: epoch 0 means none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Access {
    /// The epoch of the access ([`IN_FLIGHT`] for a copy in flight).
    pub epoch: u32,
    /// The linear id of the thread in its block.
    pub thread: u32,
    /// The op id.
    pub op: u32,
    /// Whether the access is an atomic read-modify-write.
    pub atomic: bool,
}

/// Bits of a packed access that hold the op id (ids past it saturate);
/// the bit above them marks an atomic access.
const OP_BITS: u32 = 20;
/// The bit of a packed access that marks it atomic.
const ATOMIC_BIT: u64 = 1 << OP_BITS;
/// Where the thread starts in a packed access.
const THREAD_SHIFT: u32 = OP_BITS + 1;
/// Bits of a packed access that hold the thread (at most 1024 per block).
const THREAD_BITS: u32 = 11;
/// The thread field of a packed access that stands for an asynchronous
/// copy completed through an mbarrier phase in the current epoch: its op
/// field is the index of its [`Completion`] in [`Shadow::completions`]
/// (no thread has this id: a block has at most 1024 threads).
pub const COMPLETED: u32 = (1 << THREAD_BITS) - 1;
/// The most completions one epoch records (the op field's range); past
/// it a completed copy is forgotten (no later access conflicts with it).
const MAX_COMPLETIONS: usize = (1 << OP_BITS) - 1;

/// An asynchronous copy completed through an mbarrier phase in the
/// current epoch (step 3 of the module doc).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completion {
    /// The linear id of the issuing thread.
    pub thread: u32,
    /// The copy op.
    pub op: u32,
    /// The threads whose wait on the completing phase returned in this
    /// epoch: ordered after the copy.
    pub waiters: Vec<u32>,
}

impl Access {
    /// The access as one word: epoch, thread, op (0: none).
    pub fn pack(self) -> u64 {
        let op = self.op.min((1 << OP_BITS) - 1) as u64;
        let atomic = if self.atomic { ATOMIC_BIT } else { 0 };
        ((self.epoch as u64) << 32) | ((self.thread as u64) << THREAD_SHIFT) | atomic | op
    }

    /// The access of a packed word.
    pub fn unpack(word: u64) -> Self {
        Self {
            epoch: (word >> 32) as u32,
            thread: ((word >> THREAD_SHIFT) & ((1 << THREAD_BITS) - 1)) as u32,
            op: (word & ((1 << OP_BITS) - 1)) as u32,
            atomic: word & ATOMIC_BIT != 0,
        }
    }
}

/// The kind of an access, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A load.
    Read,
    /// A store.
    Write,
    /// An atomic read-modify-write (recorded as a write).
    Atomic,
}

/// The shared-memory shadow of one block: per byte of workgroup memory,
/// its last write and up to two reads of the current epoch (by two
/// different threads), each a packed [`Access`] (struct of arrays: the
/// read path touches two words per byte).
#[derive(Default)]
pub struct Shadow {
    /// The last write of each byte.
    pub write: Vec<u64>,
    /// A read of each byte in the current epoch (or in flight).
    pub read: Vec<u64>,
    /// A read in the current epoch by another thread than `read`'s.
    pub read2: Vec<u64>,
    /// The current epoch (starts at 1 for each block).
    pub epoch: u32,
    /// The copies completed through an mbarrier phase in the current
    /// epoch, by index (step 3 of the module doc).
    pub completions: Vec<Completion>,
}

/// A race found: the access that found it and the earlier one.
pub struct Race {
    /// "RAW", "WAR" or "WAW".
    pub name: &'static str,
    /// The byte offset in workgroup memory.
    pub offset: usize,
    /// The earlier access.
    pub other: Access,
    /// Whether `other` is a copy still in flight of the same thread.
    pub own_in_flight: bool,
    /// Whether `other` is a copy that an mbarrier phase completed in this
    /// epoch, which the accessing thread did not wait for.
    pub unwaited: bool,
}

/// Whether the packed access `other` conflicts with an access of `thread`
/// at epoch `now` (`atomic`: an atomic one): `Some(own)` if so, `own` when
/// it is the thread's own copy in flight.
/// A copy completed through an mbarrier in this epoch (`completions`)
/// conflicts unless `thread` waited for it.
#[inline(always)]
fn conflicts(
    other: u64,
    now: u32,
    thread: u32,
    atomic: bool,
    completions: &[Completion],
) -> Option<bool> {
    if other == 0 || atomic && other & ATOMIC_BIT != 0 {
        return None;
    }
    let epoch = (other >> 32) as u32;
    if epoch != now && epoch != IN_FLIGHT {
        return None;
    }
    let by = ((other >> THREAD_SHIFT) & ((1 << THREAD_BITS) - 1)) as u32;
    if by == COMPLETED {
        let index = (other & ((1 << OP_BITS) - 1)) as usize;
        return completions
            .get(index)
            .is_some_and(|c| !c.waiters.contains(&thread))
            .then_some(false);
    }
    if by != thread {
        Some(false)
    } else {
        (epoch == IN_FLIGHT).then_some(true)
    }
}

/// The race of an access with the packed access `other` (`own`: the
/// thread's own copy in flight): a completed copy is named by its issuing
/// thread and op.
fn make_race(
    name: &'static str,
    offset: usize,
    other: u64,
    own: bool,
    completions: &[Completion],
) -> Race {
    let mut access = Access::unpack(other);
    let mut unwaited = false;
    if access.thread == COMPLETED {
        if let Some(c) = completions.get(access.op as usize) {
            (access.thread, access.op, unwaited) = (c.thread, c.op, true);
        }
    }
    Race {
        name,
        offset,
        other: access,
        own_in_flight: own,
        unwaited,
    }
}

impl Shadow {
    /// Resets the shadow for a block of `bytes` of workgroup memory.
    pub fn reset(&mut self, bytes: usize) {
        for words in [&mut self.write, &mut self.read, &mut self.read2] {
            words.clear();
            words.resize(bytes, 0);
        }
        self.epoch = 1;
        self.completions.clear();
    }

    /// A `gpu.barrier` completed: a new epoch; the copies completed
    /// through an mbarrier in the last one are ordered before every
    /// thread.
    pub fn barrier(&mut self) {
        self.epoch += 1;
        self.completions.clear();
    }

    /// Records an access of `thread` by op `op` to bytes `[start, end)` of
    /// workgroup memory at `epoch` (the current epoch, or [`IN_FLIGHT`] for
    /// a copy at issue); returns the first race it finds.
    pub fn access(
        &mut self,
        kind: Kind,
        start: usize,
        end: usize,
        thread: u32,
        op: u32,
        epoch: u32,
    ) -> Option<Race> {
        let now = self.epoch;
        let end = end.min(self.write.len());
        let start = start.min(end);
        let atomic = kind == Kind::Atomic;
        let me = Access {
            epoch,
            thread,
            op,
            atomic,
        }
        .pack();
        let mut race = None;
        match kind {
            Kind::Read => {
                // Fast path: a read of bytes whose records are all alike
                // (one write, one reader: the common case) is decided once.
                let n = end - start;
                if n > 1
                    && self.write[start..end]
                        .iter()
                        .all(|&w| w == self.write[start])
                    && self.read[start..end].iter().all(|&r| r == self.read[start])
                    && conflicts(self.write[start], now, thread, false, &self.completions).is_none()
                {
                    let r = self.read[start];
                    let r_epoch = (r >> 32) as u32;
                    let r_thread = ((r >> THREAD_SHIFT) & ((1 << THREAD_BITS) - 1)) as u32;
                    let target = if r_epoch != now && r_epoch != IN_FLIGHT || r_thread == thread {
                        &mut self.read[start..end]
                    } else {
                        &mut self.read2[start..end]
                    };
                    target.fill(me);
                    return None;
                }
                for offset in start..end {
                    let w = self.write[offset];
                    if let Some(own) = conflicts(w, now, thread, false, &self.completions) {
                        race.get_or_insert_with(|| {
                            make_race("RAW", offset, w, own, &self.completions)
                        });
                    }
                    let r = self.read[offset];
                    let r_epoch = (r >> 32) as u32;
                    let r_thread = ((r >> THREAD_SHIFT) & ((1 << THREAD_BITS) - 1)) as u32;
                    if r_epoch != now && r_epoch != IN_FLIGHT || r_thread == thread {
                        self.read[offset] = me;
                    } else {
                        self.read2[offset] = me;
                    }
                }
            }
            Kind::Write | Kind::Atomic => {
                // Fast path: a write over bytes whose records are all alike
                // (a tile written once per epoch: the common case) is
                // decided once, at the first byte, as the loop would.
                let n = end - start;
                if n > 1 {
                    let first = (self.write[start], self.read[start], self.read2[start]);
                    if self.write[start..end].iter().all(|&w| w == first.0)
                        && self.read[start..end].iter().all(|&r| r == first.1)
                        && self.read2[start..end].iter().all(|&r| r == first.2)
                    {
                        let found = write_conflict(first, now, thread, atomic, &self.completions);
                        self.write[start..end].fill(last_write(first.0, me, now, thread, atomic));
                        return found.map(|(name, other, own)| {
                            make_race(name, start, other, own, &self.completions)
                        });
                    }
                }
                for offset in start..end {
                    let records = (self.write[offset], self.read[offset], self.read2[offset]);
                    let found = write_conflict(records, now, thread, atomic, &self.completions);
                    if let Some((name, other, own)) = found {
                        race.get_or_insert_with(|| {
                            make_race(name, offset, other, own, &self.completions)
                        });
                    }
                    self.write[offset] = last_write(records.0, me, now, thread, atomic);
                }
            }
        }
        race
    }

    /// A copy of `thread` completed at the current epoch: its bytes
    /// `[start, end)` recorded in flight by op `op` get the current epoch.
    pub fn complete(&mut self, kind: Kind, start: usize, end: usize, thread: u32, op: u32) {
        let end = end.min(self.write.len());
        let start = start.min(end);
        let in_flight = Access {
            epoch: IN_FLIGHT,
            thread,
            op,
            atomic: false,
        }
        .pack();
        let now = Access {
            epoch: self.epoch,
            thread,
            op,
            atomic: false,
        }
        .pack();
        let arrays: [&mut Vec<u64>; 2] = match kind {
            Kind::Write | Kind::Atomic => [&mut self.write, &mut Vec::new()],
            Kind::Read => [&mut self.read, &mut self.read2],
        };
        for words in arrays {
            for word in words.iter_mut().take(end).skip(start) {
                if *word == in_flight {
                    *word = now;
                }
            }
        }
    }
}

/// The first record of a byte, `(write, read, read2)`, that a write of
/// `thread` at epoch `now` conflicts with: its kind ("WAW" or "WAR"), the
/// record, and whether it is the thread's own copy in flight.
/// The write record of a byte after an access `me` of `thread` (`atomic`:
/// an atomic one) over the record `write`, at epoch `now`: an atomic update
/// keeps the same thread's plain write of this epoch, which every other
/// thread's access until the next barrier still races with (an atomic
/// record races only with plain accesses). So an `apipe.mbarrier_init`
/// and the same thread's arrive, then another thread's arrive with no
/// barrier between, is a race.
#[inline(always)]
fn last_write(write: u64, me: u64, now: u32, thread: u32, atomic: bool) -> u64 {
    let plain_own_now = write != 0
        && write & ATOMIC_BIT == 0
        && (write >> 32) as u32 == now
        && ((write >> THREAD_SHIFT) & ((1 << THREAD_BITS) - 1)) as u32 == thread;
    if atomic && plain_own_now {
        write
    } else {
        me
    }
}

fn write_conflict(
    (write, read, read2): (u64, u64, u64),
    now: u32,
    thread: u32,
    atomic: bool,
    completions: &[Completion],
) -> Option<(&'static str, u64, bool)> {
    [("WAW", write), ("WAR", read), ("WAR", read2)]
        .into_iter()
        .find_map(|(name, other)| {
            conflicts(other, now, thread, atomic, completions).map(|own| (name, other, own))
        })
}

impl Shadow {
    /// A wait of `waiter` returned on the mbarrier phase that completed
    /// the copy `op` of `thread`, whose bytes `[start, end)` of workgroup
    /// memory were recorded in flight as `kind` (step 3 of the module
    /// doc). `completion` is the copy's [`Completion`] as `(epoch,
    /// index)` once a wait made one (the caller keeps it for the copy's
    /// other ranges and later waits). Returns false when the copy is
    /// ordered before every thread (completed in an earlier epoch: a
    /// barrier followed), so that the caller can forget it.
    #[allow(clippy::too_many_arguments)]
    pub fn waited(
        &mut self,
        kind: Kind,
        start: usize,
        end: usize,
        thread: u32,
        op: u32,
        waiter: u32,
        completion: &mut Option<(u32, u32)>,
    ) -> bool {
        let index = match *completion {
            Some((epoch, _)) if epoch != self.epoch => return false,
            Some((_, index)) => index,
            None if self.completions.len() >= MAX_COMPLETIONS => {
                self.forget_in_flight(kind, start, end, thread, op);
                return false;
            }
            None => {
                self.completions.push(Completion {
                    thread,
                    op,
                    waiters: Vec::new(),
                });
                let index = (self.completions.len() - 1) as u32;
                *completion = Some((self.epoch, index));
                index
            }
        };
        let c = &mut self.completions[index as usize];
        if !c.waiters.contains(&waiter) {
            c.waiters.push(waiter);
        }
        let in_flight = Access {
            epoch: IN_FLIGHT,
            thread,
            op,
            atomic: false,
        }
        .pack();
        let done = Access {
            epoch: self.epoch,
            thread: COMPLETED,
            op: index,
            atomic: false,
        }
        .pack();
        self.replace(kind, start, end, in_flight, done);
        true
    }

    /// A copy completed through an mbarrier that no later access
    /// conflicts with: its bytes recorded in flight are forgotten.
    fn forget_in_flight(&mut self, kind: Kind, start: usize, end: usize, thread: u32, op: u32) {
        let in_flight = Access {
            epoch: IN_FLIGHT,
            thread,
            op,
            atomic: false,
        }
        .pack();
        self.replace(kind, start, end, in_flight, 0);
    }

    /// Replaces the words `from` of bytes `[start, end)` in the arrays of
    /// `kind` by `to`.
    fn replace(&mut self, kind: Kind, start: usize, end: usize, from: u64, to: u64) {
        let end = end.min(self.write.len());
        let start = start.min(end);
        let arrays: [&mut Vec<u64>; 2] = match kind {
            Kind::Write | Kind::Atomic => [&mut self.write, &mut Vec::new()],
            Kind::Read => [&mut self.read, &mut self.read2],
        };
        for words in arrays {
            for word in words.iter_mut().take(end).skip(start) {
                if *word == from {
                    *word = to;
                }
            }
        }
    }
}

/// Prints one race (once per kind, op and other op) and counts it.
#[allow(clippy::too_many_arguments)]
pub fn report(
    run: &Run,
    race: &Race,
    op: u32,
    kind: Kind,
    ids: &GpuIds,
    buffers: &[(usize, usize, String)],
) {
    if !run.claim_race_report((race.name, op, race.other.op)) {
        return;
    }
    let buffer = buffers
        .iter()
        .rev()
        .find(|(offset, _, _)| *offset <= race.offset)
        .map_or(String::new(), |(offset, _, at)| {
            format!(
                " (byte {} of the workgroup buffer at {at})",
                race.offset - offset
            )
        });
    let me = triple(ids.thread);
    let block = triple(ids.block);
    let other = triple(ids.thread_of(race.other.thread as usize));
    let verb = match kind {
        Kind::Read => "reads",
        Kind::Write => "writes",
        Kind::Atomic => "atomically updates",
    };
    // The two ops by name, where known: "('vector.transfer_read' and
    // 'memref.store')".
    let names = match (run.name(op as i64), run.name(race.other.op as i64)) {
        (Some(me), Some(other)) => format!(" ('{me}' and '{other}')"),
        (Some(me), None) => format!(" ('{me}')"),
        _ => String::new(),
    };
    let copy_verb = if race.name == "WAR" {
        "reads"
    } else {
        "writes"
    };
    let (message, note) = if race.own_in_flight {
        (
            format!(
                "thread {me} of block {block} {verb} shared memory byte {}{buffer} that its own \
                 asynchronous copy still in flight {copy_verb}: no wait completes the copy \
                 first{names}",
                race.offset
            ),
            "the copy in flight".to_owned(),
        )
    } else if race.unwaited && other == me {
        (
            format!(
                "thread {me} of block {block} {verb} shared memory byte {}{buffer} that its own \
                 asynchronous copy {copy_verb}, which another thread's 'apipe.mbarrier_wait' \
                 completed: this thread did not wait on that phase, and no gpu.barrier orders \
                 the other thread's wait first{names}",
                race.offset
            ),
            "the copy, completed by another thread's wait".to_owned(),
        )
    } else {
        let other_verb = if race.name == "WAR" {
            "reads"
        } else if race.other.atomic {
            "atomically updates"
        } else {
            "writes"
        };
        let (how, note) = if race.unwaited {
            (
                format!(
                    ", as an asynchronous copy that another thread's 'apipe.mbarrier_wait' \
                     completed, with no wait of thread {me} on that phase and no gpu.barrier \
                     after the wait"
                ),
                " (an asynchronous copy completed through an mbarrier phase)",
            )
        } else if race.other.epoch == IN_FLIGHT {
            (
                " with no gpu.barrier between".to_owned(),
                " (an asynchronous copy still in flight)",
            )
        } else {
            (" with no gpu.barrier between".to_owned(), "")
        };
        (
            format!(
                "race ({}) on shared memory byte {}{buffer}: thread {me} of block {block} {verb} \
                 it, and thread {other} {other_verb} it{how}{names}",
                race.name, race.offset
            ),
            format!("the other access, by thread {other}{note}"),
        )
    };
    run.message(
        op as i64,
        "error",
        &message,
        &[(race.other.op as i64, note)],
        false,
    );
}

/// One logged global write of a block: bytes `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlobalWrite {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// The store op.
    pub op: u32,
    /// Linear thread id in the block.
    pub thread: u32,
    /// Whether the write is an atomic update (`memref.atomic_rmw`,
    /// `memref.generic_atomic_rmw`).
    pub atomic: bool,
}

/// Logs a block's global writes, merging adjacent repeats as it goes.
#[derive(Default)]
pub struct GlobalLog {
    /// The writes, unsorted.
    pub writes: Vec<GlobalWrite>,
}

impl GlobalLog {
    /// Records a write of `[start, end)`.
    pub fn record(&mut self, write: GlobalWrite) {
        if let Some(last) = self.writes.last_mut() {
            if write.start >= last.start && write.end <= last.end {
                return;
            }
            if write.start == last.end && write.op == last.op {
                last.end = write.end;
                return;
            }
        }
        self.writes.push(write);
        if self.writes.len() >= 1 << 20 {
            self.compact();
        }
    }

    /// Sorts and merges overlapping ranges (writes of one block never race).
    pub fn compact(&mut self) {
        self.writes.sort_unstable_by_key(|w| (w.start, w.end));
        let mut merged: Vec<GlobalWrite> = Vec::with_capacity(self.writes.len());
        for w in self.writes.drain(..) {
            match merged.last_mut() {
                Some(last) if w.start <= last.end => last.end = last.end.max(w.end),
                _ => merged.push(w),
            }
        }
        self.writes = merged;
    }
}

/// The first pair of blocks that wrote the same bytes: (block of the
/// earlier range, its write, block of the later, its write, first byte).
pub fn cross_block_overlap(
    logs: &mut [(usize, GlobalLog)],
) -> Option<(usize, GlobalWrite, usize, GlobalWrite, usize)> {
    let mut all: Vec<(GlobalWrite, usize)> = Vec::new();
    for (block, log) in logs.iter_mut() {
        log.compact();
        all.extend(log.writes.iter().map(|w| (*w, *block)));
    }
    all.sort_unstable_by_key(|(w, b)| (w.start, *b));
    let mut reach: Option<(GlobalWrite, usize)> = None;
    for (w, b) in all {
        if let Some((r, rb)) = reach {
            if w.start < r.end && rb != b {
                return Some((rb, r, b, w, w.start));
            }
            if w.end <= r.end {
                continue;
            }
        }
        reach = Some((w, b));
    }
    None
}

/// The first plain write of one block and atomic update of another block
/// to the same bytes: (block of the plain write, the write, block of the
/// atomic update, the update, first byte). An atomic update is atomic
/// only with respect to other atomics: against a plain write of another
/// block the final value depends on the order of the blocks, which is
/// unspecified (a data race in the CUDA memory model).
pub fn cross_block_plain_atomic(
    plain: &mut [(usize, GlobalLog)],
    atomic: &mut [(usize, GlobalLog)],
) -> Option<(usize, GlobalWrite, usize, GlobalWrite, usize)> {
    if atomic.is_empty() {
        return None;
    }
    // (block, write, is atomic), swept by start; per kind the two
    // furthest-reaching ranges of distinct blocks: a range that starts
    // inside one of another block of the other kind finds it.
    let mut all: Vec<(usize, GlobalWrite, bool)> = Vec::new();
    for (logs, is_atomic) in [(plain, false), (atomic, true)] {
        for (block, log) in logs.iter_mut() {
            log.compact();
            all.extend(log.writes.iter().map(|w| (*block, *w, is_atomic)));
        }
    }
    all.sort_unstable_by_key(|(block, w, _)| (w.start, *block));
    let mut reach: [[Option<(usize, GlobalWrite)>; 2]; 2] = [[None; 2]; 2];
    for (block, w, is_atomic) in all {
        let (mine, other) = if is_atomic { (1, 0) } else { (0, 1) };
        let hit = reach[other]
            .iter()
            .flatten()
            .find(|(b, r)| *b != block && r.end > w.start);
        if let Some(&(b, r)) = hit {
            return Some(if is_atomic {
                (b, r, block, w, w.start)
            } else {
                (block, w, b, r, w.start)
            });
        }
        let [first, second] = &mut reach[mine];
        match first {
            Some((b, r)) if *b == block => {
                if w.end > r.end {
                    *first = Some((block, w));
                }
            }
            Some((_, r)) if w.end > r.end => {
                *second = *first;
                *first = Some((block, w));
            }
            Some(_) => {
                if second.is_none_or(|(_, r)| w.end > r.end) {
                    *second = Some((block, w));
                }
            }
            None => *first = Some((block, w)),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_epoch_different_threads_race_and_a_barrier_separates() {
        let mut s = Shadow::default();
        s.reset(8);
        assert!(s.access(Kind::Write, 0, 4, 0, 1, 1).is_none());
        assert!(s.access(Kind::Read, 0, 4, 0, 2, 1).is_none(), "own write");
        let race = s.access(Kind::Read, 2, 4, 1, 3, 1).expect("RAW");
        assert_eq!((race.name, race.offset, race.other.op), ("RAW", 2, 1));
        s.epoch = 2;
        assert!(
            s.access(Kind::Read, 0, 4, 1, 3, 2).is_none(),
            "after a barrier"
        );
        assert!(s.access(Kind::Read, 0, 4, 2, 3, 2).is_none(), "two readers");
        let war = s
            .access(Kind::Write, 0, 1, 1, 4, 2)
            .expect("WAR with the other reader");
        assert_eq!((war.name, war.other.thread), ("WAR", 2));
    }

    #[test]
    fn a_write_decides_like_byte_by_byte_on_alike_and_mixed_records() {
        // Alike records (the fast path): the race is at the first byte.
        let mut s = Shadow::default();
        s.reset(16);
        assert!(s.access(Kind::Write, 0, 16, 0, 1, 1).is_none());
        let waw = s.access(Kind::Write, 4, 12, 1, 2, 1).expect("WAW");
        assert_eq!((waw.name, waw.offset, waw.other.thread), ("WAW", 4, 0));
        assert!(s.access(Kind::Write, 4, 12, 1, 3, 1).is_none(), "own bytes");
        // Mixed records (the byte loop): the first byte that conflicts.
        let mut s = Shadow::default();
        s.reset(16);
        assert!(s.access(Kind::Write, 0, 8, 0, 1, 1).is_none());
        assert!(s.access(Kind::Read, 8, 16, 2, 4, 1).is_none());
        let war = s.access(Kind::Write, 6, 16, 2, 5, 1).expect("WAW first");
        assert_eq!((war.name, war.offset, war.other.thread), ("WAW", 6, 0));
        let mut s = Shadow::default();
        s.reset(16);
        assert!(s.access(Kind::Write, 0, 8, 0, 1, 1).is_none());
        assert!(s.access(Kind::Read, 8, 16, 2, 4, 1).is_none());
        let war = s.access(Kind::Write, 0, 16, 0, 5, 1).expect("WAR");
        assert_eq!((war.name, war.offset, war.other.thread), ("WAR", 8, 2));
        // After a barrier the alike records are old: no race.
        s.barrier();
        assert!(s.access(Kind::Write, 0, 16, 3, 6, s.epoch).is_none());
    }

    #[test]
    fn a_copy_in_flight_conflicts_until_it_completes() {
        let mut s = Shadow::default();
        s.reset(4);
        assert!(s.access(Kind::Write, 0, 4, 0, 1, IN_FLIGHT).is_none());
        s.epoch = 5;
        let race = s.access(Kind::Read, 0, 4, 3, 2, 5).expect("in flight");
        assert!(!race.own_in_flight);
        assert!(s.access(Kind::Read, 0, 4, 0, 2, 5).unwrap().own_in_flight);
        s.complete(Kind::Write, 0, 4, 0, 1);
        assert!(s.access(Kind::Read, 0, 4, 0, 2, 5).is_none());
        s.epoch = 6;
        assert!(
            s.access(Kind::Read, 0, 4, 3, 2, 6).is_none(),
            "wait + barrier"
        );
    }

    #[test]
    fn an_mbarrier_copy_is_in_flight_until_a_wait_then_ordered_for_its_waiters() {
        let mut s = Shadow::default();
        s.reset(8);
        // Thread 0's copy (op 1) writes bytes 0..4; its arrival retired it.
        assert!(s.access(Kind::Write, 0, 4, 0, 1, IN_FLIGHT).is_none());
        s.barrier();
        assert!(s.access(Kind::Read, 0, 4, 1, 2, 2).is_some(), "no wait yet");
        assert!(s.access(Kind::Read, 0, 4, 0, 2, 2).unwrap().own_in_flight);
        let mut completion = None;
        assert!(s.waited(Kind::Write, 0, 4, 0, 1, 2, &mut completion));
        assert_eq!(completion, Some((2, 0)));
        assert!(s.access(Kind::Read, 0, 4, 2, 3, 2).is_none(), "the waiter");
        let race = s.access(Kind::Read, 2, 4, 3, 3, 2).expect("no wait");
        assert!(race.unwaited && !race.own_in_flight);
        assert_eq!((race.other.thread, race.other.op, race.offset), (0, 1, 2));
        let race = s.access(Kind::Read, 0, 1, 0, 3, 2).expect("the issuer");
        assert!(race.unwaited && race.other.thread == 0);
        assert!(s.waited(Kind::Write, 0, 4, 0, 1, 0, &mut completion));
        assert!(s.access(Kind::Read, 0, 4, 0, 4, 2).is_none(), "waited too");
        s.barrier();
        assert!(s.access(Kind::Write, 0, 4, 3, 5, 3).is_none(), "a barrier");
        assert!(!s.waited(Kind::Write, 0, 4, 0, 1, 3, &mut completion));
    }

    #[test]
    fn an_atomic_keeps_the_threads_plain_write_of_the_epoch() {
        let mut s = Shadow::default();
        s.reset(8);
        // Thread 0 writes (an mbarrier init), then updates atomically (its
        // arrive): thread 1's atomic update still races with the write.
        assert!(s.access(Kind::Write, 0, 8, 0, 1, 1).is_none());
        assert!(s.access(Kind::Atomic, 0, 8, 0, 2, 1).is_none());
        let race = s.access(Kind::Atomic, 0, 8, 1, 2, 1).expect("WAW");
        assert_eq!((race.name, race.other.thread, race.other.op), ("WAW", 0, 1));
        // After a barrier, atomics of two threads do not race.
        s.barrier();
        assert!(s.access(Kind::Atomic, 0, 8, 0, 2, s.epoch).is_none());
        assert!(s.access(Kind::Atomic, 0, 8, 1, 2, s.epoch).is_none());
    }

    #[test]
    fn atomics_race_with_plain_accesses_only() {
        let mut s = Shadow::default();
        s.reset(8);
        assert!(s.access(Kind::Atomic, 0, 4, 0, 1, 1).is_none());
        assert!(
            s.access(Kind::Atomic, 0, 4, 1, 1, 1).is_none(),
            "two atomics"
        );
        let race = s.access(Kind::Read, 0, 4, 2, 2, 1).expect("RAW");
        assert!(race.other.atomic && race.other.thread == 1);
        let race = s.access(Kind::Atomic, 0, 4, 3, 1, 1).expect("WAR");
        assert_eq!((race.name, race.other.thread), ("WAR", 2));
        s.epoch = 2;
        assert!(s.access(Kind::Write, 0, 4, 2, 3, 2).is_none(), "a barrier");
        assert!(s.access(Kind::Atomic, 0, 4, 0, 1, 2).is_some(), "WAW");
    }

    #[test]
    fn a_plain_write_and_an_atomic_of_two_blocks_overlap() {
        let w = |start, end, atomic| GlobalWrite {
            start,
            end,
            op: 0,
            thread: 0,
            atomic,
        };
        let log = |ranges: &[(usize, usize)], atomic: bool| {
            let mut l = GlobalLog::default();
            ranges.iter().for_each(|&(s, e)| l.record(w(s, e, atomic)));
            l
        };
        // Atomics of two blocks on the same bytes, plain writes elsewhere
        // and the same block's plain write beside its atomic: no race.
        let mut plain = vec![
            (0, log(&[(0, 4), (16, 20)], false)),
            (1, log(&[(12, 16)], false)),
        ];
        let mut atomic = vec![
            (0, log(&[(8, 12), (20, 24)], true)),
            (1, log(&[(20, 24)], true)),
        ];
        assert!(cross_block_plain_atomic(&mut plain, &mut atomic).is_none());
        // Block 1 updates atomically what block 0 writes plainly.
        let mut atomic = vec![(1, log(&[(2, 3)], true))];
        let (pb, _, ab, _, at) = cross_block_plain_atomic(&mut plain, &mut atomic).unwrap();
        assert_eq!((pb, ab, at), (0, 1, 2));
        // The other order: an atomic of block 0 that a long plain write of
        // block 1 covers, behind a plain write of block 0 reaching further.
        let mut plain = vec![(0, log(&[(0, 100)], false)), (1, log(&[(10, 60)], false))];
        let mut atomic = vec![(0, log(&[(40, 44)], true))];
        let (pb, _, ab, _, at) = cross_block_plain_atomic(&mut plain, &mut atomic).unwrap();
        assert_eq!((pb, ab, at), (1, 0, 40));
    }

    #[test]
    fn global_writes_of_two_blocks_overlap() {
        let w = |start, end| GlobalWrite {
            start,
            end,
            op: 0,
            thread: 0,
            atomic: false,
        };
        let mut a = GlobalLog::default();
        a.record(w(0, 4));
        a.record(w(4, 8));
        a.record(w(0, 4));
        let mut b = GlobalLog::default();
        b.record(w(8, 12));
        let mut logs = vec![(0, a), (1, b)];
        assert!(cross_block_overlap(&mut logs).is_none());
        logs[1].1.record(w(6, 7));
        let (b0, _, b1, _, at) = cross_block_overlap(&mut logs).unwrap();
        assert_eq!((b0, b1, at), (0, 1, 6));
    }
}
