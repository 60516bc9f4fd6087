//! The race checker's watch on the global sources of asynchronous copies
//! (`apipe-run --racecheck`). An `apipe.copy` (PTX `cp.async`) reads its
//! source at some point between its issue and the wait that completes its
//! group (PTX ISA 9.7.9.25.3), so a write into those bytes in between
//! leaves the copy's value undefined: a write-after-read hazard that the
//! shared-memory shadow ([`super::racecheck::Shadow`]) does not see when
//! the source is global memory. Only the bytes of copies in flight are
//! watched:
//!
//! 1. At issue, each global source range of a copy is recorded for its
//!    thread with the epoch [`IN_FLIGHT`], and in the block's log of
//!    source reads ([`Sources::log`]).
//! 2. When a wait completes the copy's group, its ranges get the epoch of
//!    the wait ([`Sources::complete`]). A copy that an mbarrier phase
//!    completes (its arrival retired, [`Sources::retire`]) stays in flight
//!    for every thread until a wait on that phase returns: each such wait
//!    gives it the epoch of the wait and orders it before the waiting
//!    thread's later writes ([`Sources::waited`]); under `eager` the
//!    arrival retires at once, and a write between the arrival and the
//!    wait is still a hazard. A `gpu.barrier` drops every completed range
//!    ([`Sources::barrier`]). Each range is one entry with its own id, so
//!    the same op issued again at the same address is never confused with
//!    a copy still in flight.
//! 3. A non-atomic write of global memory by a thread of the block
//!    (`memref.store`, `vector.store`, any op whose memory effects write
//!    global memory, a copy's global destination) conflicts with a range
//!    it overlaps that is in flight (any thread, the issuing one included:
//!    a missing wait), or that was completed in the current epoch by a
//!    wait that the writing thread did not perform itself (no
//!    `gpu.barrier` orders that wait before the write).
//! 4. The other order: the block's global writes of the current epoch are
//!    kept ([`Sources::record_write`]); a copy issued in the same epoch
//!    that reads bytes another thread wrote is a race too (no barrier
//!    orders the write before the copy's read, so the thread order alone
//!    decided what the copy read), reported at the write as well. So a
//!    race is found whatever the thread order (`--schedule`).
//! 5. Blocks are unordered: at the end of a launch, a write of one block
//!    into bytes that a copy of another block reads, at any time, is
//!    reported ([`cross_block_source_write`]).
//!
//! Atomic writes (`memref.atomic_rmw`, `memref.generic_atomic_rmw`) count
//! as writes here: atomicity orders them among atomics, not against the
//! copy's plain read.
//!
//! The host thread (code outside kernels) has a watch of its own
//! ([`HostWatch`]): its copies' source and destination ranges from issue
//! until a wait completes them; a write of the host into one of them, or
//! a read of a destination (the copy may not have landed), stops the
//! program with a located error at the access. The JIT code calls the
//! host's hook only while some host thread has a copy in flight: it first
//! reads [`HOST_WATCH_GLOBAL`], which counts them.
//!
//! Cost: per global write, an insertion in an ordered map of the epoch's
//! writes, and one bounds test while no copy is in flight (none of its
//! bytes can be watched), a scan of the live ranges otherwise (at most
//! the copies in flight of the block's threads); per copy, a range query
//! in the epoch's writes. Per host write, a load and a test while no copy
//! is in flight, a call and a scan of the host's copies in flight
//! otherwise.

use super::context::{triple, GpuIds, Run};
use super::racecheck::{GlobalLog, GlobalWrite, IN_FLIGHT};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};

/// Name of the global `i64` that JIT code of the host reads before each
/// write: the number of host threads with a copy in flight
/// ([`HOST_WATCH`]); 0 means no host write needs a check.
pub const HOST_WATCH_GLOBAL: &str = "apipe_emu_host_copies_in_flight";

/// The value behind [`HOST_WATCH_GLOBAL`]: the number of live
/// [`HostWatch`]es that watch some range (runs of one process may
/// overlap, e.g. in unit tests; a count keeps each one's hooks on).
pub static HOST_WATCH: AtomicI64 = AtomicI64::new(0);

/// The source and destination ranges of the host thread's copies in
/// flight (issued, not completed by a wait), landed or not.
#[derive(Default)]
pub struct HostWatch {
    reads: Vec<SourceRead>,
    /// The destination ranges (a [`SourceRead`] each: the bytes the copy
    /// writes, `base` the destination's aligned pointer).
    writes: Vec<SourceRead>,
    /// `[low, high)` holds every range of `reads` and `writes` (a quick
    /// reject).
    low: usize,
    /// See `low`.
    high: usize,
}

impl HostWatch {
    /// Widens the quick reject for a new range; counts the watch in
    /// [`HOST_WATCH`] when it starts watching.
    fn add(&mut self, range: &SourceRead) {
        if !self.watching() {
            HOST_WATCH.fetch_add(1, Ordering::Relaxed);
            (self.low, self.high) = (usize::MAX, 0);
        }
        self.low = self.low.min(range.start);
        self.high = self.high.max(range.end);
    }

    /// Uncounts the watch when it stops watching.
    fn removed(&mut self, was_watching: bool) {
        if was_watching && !self.watching() {
            HOST_WATCH.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// A copy issued by the host reads `read`'s range.
    pub fn issue(&mut self, read: SourceRead) {
        self.add(&read);
        self.reads.push(read);
    }

    /// A copy issued by the host writes `write`'s range.
    pub fn issue_destination(&mut self, write: SourceRead) {
        self.add(&write);
        self.writes.push(write);
    }

    /// A wait completed the copy `op` whose source range starts at
    /// `start`: its oldest such range is no longer watched.
    pub fn complete(&mut self, op: u32, start: usize) {
        let was = self.watching();
        if let Some(i) = self
            .reads
            .iter()
            .position(|r| r.op == op && r.start == start)
        {
            self.reads.remove(i);
        }
        self.removed(was);
    }

    /// A wait completed the copy `op` whose destination range starts at
    /// `start`: its oldest such range is no longer watched.
    pub fn complete_destination(&mut self, op: u32, start: usize) {
        let was = self.watching();
        if let Some(i) = self
            .writes
            .iter()
            .position(|r| r.op == op && r.start == start)
        {
            self.writes.remove(i);
        }
        self.removed(was);
    }

    /// Whether any range is watched.
    #[inline]
    pub fn watching(&self) -> bool {
        !self.reads.is_empty() || !self.writes.is_empty()
    }

    /// The first watched source range that `[start, end)` overlaps.
    pub fn write(&self, start: usize, end: usize) -> Option<&SourceRead> {
        if end <= self.low || start >= self.high {
            return None;
        }
        self.reads.iter().find(|r| start < r.end && r.start < end)
    }

    /// The first watched destination range that `[start, end)` overlaps.
    pub fn destination(&self, start: usize, end: usize) -> Option<&SourceRead> {
        if end <= self.low || start >= self.high {
            return None;
        }
        self.writes.iter().find(|r| start < r.end && r.start < end)
    }

    /// Forgets every range (the end of the entry).
    pub fn clear(&mut self) {
        let was = self.watching();
        self.reads.clear();
        self.writes.clear();
        self.removed(was);
    }
}

impl Drop for HostWatch {
    fn drop(&mut self) {
        self.clear();
    }
}

/// One byte range of global memory that an asynchronous copy reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceRead {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// The aligned pointer of the copy's source memref: messages give byte
    /// offsets from it.
    pub base: usize,
    /// The `apipe.copy` op.
    pub op: u32,
    /// The linear id of the issuing thread in its block.
    pub thread: u32,
    /// [`IN_FLIGHT`] until a wait completes the copy's group, then the
    /// epoch of that wait.
    pub epoch: u32,
}

/// A write that conflicts with a copy's source read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceRace {
    /// The copy's read.
    pub read: SourceRead,
    /// The write: its op and thread (its bytes unused).
    pub write: GlobalWrite,
    /// The first byte both touch (an address).
    pub address: usize,
    /// Whether the copy was issued after the write (step 4).
    pub copy_after_write: bool,
}

/// One watched range of [`Sources`].
#[derive(Clone, Debug)]
struct Watched {
    read: SourceRead,
    /// Unique in the block's launch (step 2).
    id: u64,
    /// Whether an mbarrier arrival retired it: then only the threads in
    /// `waiters` are ordered after it, else only its issuing thread.
    retired: bool,
    /// The threads whose wait on the completing phase returned.
    waiters: Vec<u32>,
}

impl Watched {
    /// Whether a write of `thread` conflicts with the range at epoch `now`.
    #[inline]
    fn unordered(&self, thread: u32, now: u32) -> bool {
        let ordered = if self.retired {
            self.waiters.contains(&thread)
        } else {
            self.read.thread == thread
        };
        self.read.epoch == IN_FLIGHT || self.read.epoch == now && !ordered
    }
}

/// The watched source ranges of one block's copies (step 1-3 of the
/// module doc).
#[derive(Default)]
pub struct Sources {
    /// Per thread (linear id in the block): its copies' ranges in flight
    /// or completed in the current epoch.
    by_thread: Vec<Vec<Watched>>,
    /// The id of the next range (never reset, so that an id held by an
    /// mbarrier slot never names a later range).
    next_id: u64,
    /// Ranges in `by_thread`.
    live: usize,
    /// `[low, high)` holds every range of `by_thread` (a quick reject).
    low: usize,
    /// See `low`.
    high: usize,
    /// The global writes of the block's threads in the current epoch, by
    /// (first byte, thread): a copy looks up the writes it overlaps
    /// without scanning the epoch's.
    epoch_writes: BTreeMap<(usize, u32), GlobalWrite>,
    /// The most bytes one entry of `epoch_writes` covers.
    longest_write: usize,
    /// Every source read of the block's copies in the launch, contiguous
    /// reads of one op and source merged (step 4).
    pub log: Vec<SourceRead>,
}

impl Sources {
    /// Resets the watch for a block of `threads` threads.
    pub fn reset(&mut self, threads: usize) {
        self.by_thread.iter_mut().for_each(Vec::clear);
        self.by_thread.resize_with(threads, Vec::new);
        self.live = 0;
        self.low = usize::MAX;
        self.high = 0;
        self.log.clear();
        self.clear_writes();
    }

    /// Whether any range is watched.
    #[inline]
    pub fn watching(&self) -> bool {
        self.live > 0
    }

    /// Step 1: a copy issued by `read.thread` reads `[read.start,
    /// read.end)` (its `epoch` is ignored: [`IN_FLIGHT`]).
    pub fn issue(&mut self, read: SourceRead) {
        let read = SourceRead {
            epoch: IN_FLIGHT,
            ..read
        };
        let Some(list) = self.by_thread.get_mut(read.thread as usize) else {
            return;
        };
        self.next_id += 1;
        list.push(Watched {
            read,
            id: self.next_id,
            retired: false,
            waiters: Vec::new(),
        });
        self.live += 1;
        self.low = self.low.min(read.start);
        self.high = self.high.max(read.end);
        match self.log.last_mut() {
            Some(last)
                if last.op == read.op
                    && last.thread == read.thread
                    && last.base == read.base
                    && read.start <= last.end
                    && read.end >= last.start =>
            {
                last.start = last.start.min(read.start);
                last.end = last.end.max(read.end);
            }
            _ => self.log.push(read),
        }
    }

    /// Step 4: the copy `op` of `thread` reads `[start, end)` at issue: the
    /// first write of another thread in the current epoch to those bytes.
    pub fn read_after_write(&self, read: SourceRead) -> Option<SourceRace> {
        // The writes that start in [read.start - longest, read.end).
        let from = read.start.saturating_sub(self.longest_write);
        self.epoch_writes
            .range((from, 0)..(read.end, 0))
            .map(|(_, w)| w)
            .find(|w| read.start < w.end && w.thread != read.thread)
            .map(|w| SourceRace {
                read,
                write: *w,
                address: read.start.max(w.start),
                copy_after_write: true,
            })
    }

    /// Step 4: a global write of the current epoch.
    #[inline]
    pub fn record_write(&mut self, write: GlobalWrite) {
        self.longest_write = self.longest_write.max(write.end - write.start);
        let entry = self
            .epoch_writes
            .entry((write.start, write.thread))
            .or_insert(write);
        entry.end = entry.end.max(write.end);
    }

    /// Forgets the writes of the epoch.
    fn clear_writes(&mut self) {
        self.epoch_writes.clear();
        self.longest_write = 0;
    }

    /// Step 2: a wait of `thread` at epoch `now` completed the copy `op`
    /// whose source range starts at `start`.
    pub fn complete(&mut self, thread: u32, op: u32, start: usize, now: u32) {
        let Some(list) = self.by_thread.get_mut(thread as usize) else {
            return;
        };
        if let Some(w) = list.iter_mut().find(|w| {
            !w.retired && w.read.epoch == IN_FLIGHT && w.read.op == op && w.read.start == start
        }) {
            w.read.epoch = now;
        }
    }

    /// Step 2: an mbarrier arrival (or a bulk copy's landing) of `thread`
    /// retired its oldest copy `op` in flight whose source range starts at
    /// `start` (copies retire in issue order): that range stays in flight
    /// until a wait on the phase returns. The range's id, for
    /// [`Sources::waited`]; `None` if it is not watched.
    pub fn retire(&mut self, thread: u32, op: u32, start: usize) -> Option<u64> {
        let list = self.by_thread.get_mut(thread as usize)?;
        let w = list.iter_mut().find(|w| {
            !w.retired && w.read.epoch == IN_FLIGHT && w.read.op == op && w.read.start == start
        })?;
        w.retired = true;
        Some(w.id)
    }

    /// Step 2: a wait of `waiter` at epoch `now` returned on the phase that
    /// completed the range `id` of `thread`'s copy ([`Sources::retire`]):
    /// the range is complete, ordered before `waiter`'s later writes.
    /// Returns false when the range is no longer watched (a `gpu.barrier`
    /// after an earlier wait dropped it).
    pub fn waited(&mut self, thread: u32, id: u64, waiter: u32, now: u32) -> bool {
        let Some(w) = self
            .by_thread
            .get_mut(thread as usize)
            .and_then(|list| list.iter_mut().find(|w| w.id == id))
        else {
            return false;
        };
        if w.read.epoch != now {
            // In flight until this first wait (a range completed in an
            // earlier epoch was dropped by the barrier that ended it).
            w.read.epoch = now;
            w.waiters.clear();
        }
        if !w.waiters.contains(&waiter) {
            w.waiters.push(waiter);
        }
        true
    }

    /// Step 2: a `gpu.barrier` completed: the ranges of completed copies
    /// are no longer watched.
    pub fn barrier(&mut self) {
        self.clear_writes();
        if self.live == 0 {
            return;
        }
        let (mut live, mut low, mut high) = (0, usize::MAX, 0);
        for list in &mut self.by_thread {
            list.retain(|w| w.read.epoch == IN_FLIGHT);
            live += list.len();
            for w in list.iter() {
                low = low.min(w.read.start);
                high = high.max(w.read.end);
            }
        }
        (self.live, self.low, self.high) = (live, low, high);
    }

    /// Step 3: `thread` writes `[start, end)` at epoch `now`: the first
    /// watched range it conflicts with.
    #[inline]
    pub fn write(&self, write: GlobalWrite, now: u32) -> Option<SourceRace> {
        let (start, end) = (write.start, write.end);
        if self.live == 0 || end <= self.low || start >= self.high {
            return None;
        }
        self.by_thread.iter().flatten().find_map(|w| {
            let r = &w.read;
            let overlaps = start < r.end && r.start < end;
            (overlaps && w.unordered(write.thread, now)).then_some(SourceRace {
                read: *r,
                write,
                address: start.max(r.start),
                copy_after_write: false,
            })
        })
    }
}

/// Prints a write that conflicts with a copy's source read (steps 3-4)
/// at the write, with a note at the copy, once per (write op, copy op),
/// and counts it as a race. `ids` are the block's ids (any thread);
/// `verb` says what a plain write does ("writes", or "writes, as its
/// destination," for a copy); an atomic write "atomically updates".
pub fn report(run: &Run, race: &SourceRace, verb: &str, ids: &GpuIds) {
    let verb = if race.write.atomic {
        "atomically updates"
    } else {
        verb
    };
    let (op, copy) = (race.write.op, race.read.op);
    if !run.claim_race_report(("copy source", op, copy)) {
        return;
    }
    let me = triple(ids.thread_of(race.write.thread as usize));
    let block = triple(ids.block);
    let other = triple(ids.thread_of(race.read.thread as usize));
    let byte = race.address.wrapping_sub(race.read.base);
    let names = match (run.name(op as i64), run.name(copy as i64)) {
        (Some(me), Some(other)) => format!(" ('{me}' and '{other}')"),
        (Some(me), None) => format!(" ('{me}')"),
        _ => String::new(),
    };
    let (message, note) = if race.write.thread == race.read.thread {
        (
            format!(
                "thread {me} of block {block} {verb} global memory byte {byte} of the source \
                 buffer of its own asynchronous copy still in flight, which may not have read it \
                 yet: no wait completes the copy first{names}"
            ),
            "the copy in flight".to_owned(),
        )
    } else {
        let (name, when, note) = if race.copy_after_write {
            ("RAW", "issued after it", " (after the write)")
        } else if race.read.epoch == IN_FLIGHT {
            ("WAR", "still in flight", " (in flight)")
        } else {
            ("WAR", "completed by a wait", "")
        };
        (
            format!(
                "race ({name}) on global memory byte {byte} of an asynchronous copy's source \
                 buffer: thread {me} of block {block} {verb} it, and the copy of thread {other}, \
                 {when}, reads it with no gpu.barrier between{names}"
            ),
            format!("the asynchronous copy, by thread {other}{note}"),
        )
    };
    run.message(op as i64, "error", &message, &[(copy as i64, note)], false);
}

/// Step 4: the first write of one block into bytes that a copy of another
/// block reads: `(block of the read, the read, block of the write, the
/// write, first byte)`. `reads` and `writes` hold each block's logs.
pub fn cross_block_source_write(
    reads: &[(usize, Vec<SourceRead>)],
    writes: &mut [(usize, GlobalLog)],
) -> Option<(usize, SourceRead, usize, GlobalWrite, usize)> {
    // Sweep both kinds of range by start; for each kind keep the two
    // ranges that reach furthest whose blocks differ, so that a range of
    // the other kind that starts inside one of another block is found.
    #[derive(Clone, Copy)]
    enum Range {
        Read(SourceRead),
        Write(GlobalWrite),
    }
    let bounds = |r: &Range| match r {
        Range::Read(r) => (r.start, r.end),
        Range::Write(w) => (w.start, w.end),
    };
    let mut all: Vec<(usize, Range)> = Vec::new();
    for (block, log) in reads {
        all.extend(log.iter().map(|r| (*block, Range::Read(*r))));
    }
    if all.is_empty() {
        return None;
    }
    for (block, log) in writes.iter_mut() {
        log.compact();
        all.extend(log.writes.iter().map(|w| (*block, Range::Write(*w))));
    }
    // Unstable: ranges with equal keys are of one block, never compared.
    all.sort_unstable_by_key(|(block, r)| (bounds(r).0, *block));
    // Per kind (0 read, 1 write): the two furthest-reaching ranges of
    // distinct blocks.
    let mut reach: [[Option<(usize, Range)>; 2]; 2] = [[None; 2]; 2];
    for (block, range) in all {
        let (start, end) = bounds(&range);
        let (mine, other) = match range {
            Range::Read(_) => (0, 1),
            Range::Write(_) => (1, 0),
        };
        let hit = reach[other]
            .iter()
            .flatten()
            .find(|(b, r)| *b != block && bounds(r).1 > start);
        if let Some(&(b, r)) = hit {
            return match (range, r) {
                (Range::Read(read), Range::Write(write)) => Some((block, read, b, write, start)),
                (Range::Write(write), Range::Read(read)) => Some((b, read, block, write, start)),
                _ => None,
            };
        }
        let [first, second] = &mut reach[mine];
        match first {
            Some((b, r)) if *b == block => {
                if end > bounds(r).1 {
                    *first = Some((block, range));
                }
            }
            Some((_, r)) if end > bounds(r).1 => {
                *second = *first;
                *first = Some((block, range));
            }
            Some(_) => {
                if second.is_none_or(|(_, r)| end > bounds(&r).1) {
                    *second = Some((block, range));
                }
            }
            None => *first = Some((block, range)),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(start: usize, end: usize, thread: u32) -> SourceRead {
        SourceRead {
            start,
            end,
            base: 0,
            op: 7,
            thread,
            epoch: 0,
        }
    }

    fn write(start: usize, end: usize, thread: u32) -> GlobalWrite {
        GlobalWrite {
            start,
            end,
            op: 1,
            thread,
            atomic: false,
        }
    }

    #[test]
    fn writes_conflict_while_in_flight_and_until_a_barrier() {
        let mut s = Sources::default();
        s.reset(4);
        assert!(s.write(write(0, 4, 1), 1).is_none(), "nothing watched");
        s.issue(read(100, 116, 0));
        assert!(s.write(write(96, 100, 1), 1).is_none(), "just below");
        assert!(s.write(write(116, 120, 1), 1).is_none(), "just above");
        let race = s.write(write(112, 120, 1), 1).expect("partial overlap");
        assert_eq!((race.address, race.read.thread), (112, 0));
        assert!(s.write(write(100, 101, 0), 1).is_some(), "own, in flight");
        s.complete(0, 7, 100, 1);
        assert!(s.write(write(100, 104, 0), 1).is_none(), "own, after wait");
        assert!(s.write(write(100, 104, 2), 1).is_some(), "no barrier since");
        s.barrier();
        assert!(s.write(write(100, 104, 2), 2).is_none(), "wait + barrier");
        assert_eq!(
            s.log,
            vec![SourceRead {
                epoch: IN_FLIGHT,
                ..read(100, 116, 0)
            }]
        );
    }

    #[test]
    fn the_host_watch_keeps_each_destination_until_its_wait() {
        let mut h = HostWatch::default();
        h.issue(read(0, 16, 0));
        h.issue_destination(read(100, 116, 0));
        assert!(h.destination(0, 16).is_none(), "the source");
        assert!(h.write(100, 116).is_none(), "the destination");
        assert_eq!(h.destination(112, 120).map(|r| r.start), Some(100));
        h.complete(7, 0);
        assert!(h.watching(), "the destination is still in flight");
        h.complete_destination(7, 100);
        assert!(!h.watching());
        assert!(h.destination(100, 116).is_none());
    }

    #[test]
    fn the_host_watch_keeps_each_copy_until_its_wait() {
        let mut h = HostWatch::default();
        assert!(h.write(0, 100).is_none(), "nothing watched");
        h.issue(read(100, 116, 0));
        h.issue(read(100, 104, 0)); // the same op and start, a later group
        h.issue(read(200, 208, 0));
        assert!(h.write(96, 100).is_none(), "just below");
        assert!(h.write(116, 200).is_none(), "between");
        assert_eq!(h.write(112, 120).map(|r| r.end), Some(116));
        h.complete(7, 100); // the older copy of the two
        assert!(h.write(112, 116).is_none());
        assert!(h.write(100, 101).is_some(), "the later one is in flight");
        h.complete(7, 100);
        h.complete(7, 200);
        assert!(!h.watching());
        assert!(h.write(100, 101).is_none());
    }

    #[test]
    fn an_mbarrier_copy_is_watched_until_each_threads_wait() {
        let mut s = Sources::default();
        s.reset(3);
        s.issue(read(0, 8, 1));
        s.barrier();
        assert!(s.write(write(4, 8, 0), 2).is_some(), "still in flight");
        let id = s.retire(1, 7, 0).expect("watched");
        assert!(s.write(write(4, 8, 1), 2).is_some(), "retired, no wait yet");
        assert!(s.write(write(4, 8, 0), 2).is_some(), "retired, no wait yet");
        assert!(s.waited(1, id, 0, 2));
        assert!(s.write(write(4, 8, 0), 2).is_none(), "the waiter");
        assert!(
            s.write(write(4, 8, 1), 2).is_some(),
            "the issuer did not wait"
        );
        assert!(s.write(write(4, 8, 2), 2).is_some(), "nor thread 2");
        assert!(s.waited(1, id, 1, 2));
        assert!(s.write(write(4, 8, 1), 2).is_none(), "the issuer waited");
        s.barrier();
        assert!(s.write(write(4, 8, 2), 3).is_none(), "wait + barrier");
        assert!(!s.waited(1, id, 2, 3), "dropped by the barrier");
    }

    #[test]
    fn retiring_one_copy_keeps_another_of_the_same_op_and_address() {
        let mut s = Sources::default();
        s.reset(1);
        s.issue(read(0, 8, 0));
        s.issue(read(0, 8, 0)); // the same op at the same address, again
        let first = s.retire(0, 7, 0).expect("the older copy");
        assert!(s.waited(0, first, 0, 1));
        assert!(s.write(write(0, 4, 0), 1).is_some(), "the later one");
        let second = s.retire(0, 7, 0).expect("the later copy");
        assert_ne!(first, second);
        assert!(s.retire(0, 7, 0).is_none(), "none left");
        assert!(s.waited(0, second, 0, 1));
        assert!(s.write(write(0, 4, 0), 1).is_none());
    }

    #[test]
    fn a_copy_after_another_threads_write_in_the_epoch() {
        let mut s = Sources::default();
        s.reset(2);
        s.record_write(write(8, 12, 0));
        s.record_write(write(12, 16, 0));
        assert!(s.read_after_write(read(16, 20, 1)).is_none(), "beside");
        assert!(s.read_after_write(read(8, 16, 0)).is_none(), "own write");
        let race = s.read_after_write(read(14, 30, 1)).expect("RAW");
        assert_eq!((race.address, race.write.thread), (14, 0));
        s.barrier();
        assert!(s.read_after_write(read(8, 16, 1)).is_none(), "a barrier");
    }

    #[test]
    fn reads_and_writes_of_different_blocks_overlap() {
        let log = |ranges: &[(usize, usize)]| {
            let mut l = GlobalLog::default();
            ranges.iter().for_each(|&(s, e)| l.record(write(s, e, 0)));
            l
        };
        let reads = vec![(0, vec![read(100, 116, 3)]), (1, vec![read(200, 216, 0)])];
        // Each block writes its own copy's source: no cross-block race.
        let mut writes = vec![(0, log(&[(100, 104)])), (1, log(&[(212, 216)]))];
        assert!(cross_block_source_write(&reads, &mut writes).is_none());
        // Block 1 writes a byte that block 0's copy reads.
        let mut writes = vec![(0, log(&[(100, 104)])), (1, log(&[(90, 101)]))];
        let (rb, r, wb, _, at) = cross_block_source_write(&reads, &mut writes).unwrap();
        assert_eq!((rb, r.thread, wb, at), (0, 3, 1, 100));
        // A long write of block 0 ahead does not hide block 1's.
        let mut writes = vec![(0, log(&[(0, 300)])), (1, log(&[(205, 206)]))];
        let (rb, _, wb, _, at) = cross_block_source_write(&reads, &mut writes).unwrap();
        assert_eq!((rb, wb, at), (1, 0, 200));
    }
}
