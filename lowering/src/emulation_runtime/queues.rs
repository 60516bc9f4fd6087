//! The asynchronous-copy state of one emulated thread: its queues, each
//! with `U_q` (copies issued, not committed) and `G_q` (a FIFO of committed
//! groups), as in the semantic model of apipe (per thread, per queue) and PTX ISA
//! 9.7.9.25.3 (`cp.async`, `cp.async.commit_group`, `cp.async.wait_group`).
//!
//! Queues are sparse: a thread keeps one [`Queue`] per queue number it has
//! used, in order of first use (its *slot*), so a queue number such as
//! `2^40` costs one entry, never an allocation sized by the number.
//!
//! Tokens name groups without any per-commit table: a token is
//! `slot << TOKEN_SLOT_SHIFT | (sequence number + 1)`, where the sequence
//! number counts the commits on that queue before it; token 0 is the token
//! of `apipe.ready` (a group complete from the start).

use std::collections::VecDeque;

/// Bits of a token below its queue slot.
pub const TOKEN_SLOT_SHIFT: u32 = 48;
/// The most distinct queues one thread may use (slots fit in the 15 bits of
/// a positive token above [`TOKEN_SLOT_SHIFT`]).
pub const MAX_QUEUES: usize = 1 << 15;

/// One issued copy, as addresses: the data is read when it lands.
#[derive(Clone, Copy, Debug)]
pub struct Copy {
    /// The id of the `apipe.copy` op (an index into the location table).
    pub op: i64,
    /// Address of the first source element.
    pub src: *const u8,
    /// Bytes between consecutive source elements.
    pub src_step: isize,
    /// Address of the first destination element.
    pub dst: *mut u8,
    /// Bytes between consecutive destination elements.
    pub dst_step: isize,
    /// Bytes of one element.
    pub element_bytes: usize,
    /// Elements written to `dst`.
    pub elements: usize,
    /// Elements read from `src`; the rest of `dst` is zero-filled.
    pub src_elements: usize,
}

impl Copy {
    /// Performs the copy: reads every source element, then writes `dst`
    /// (zero past `src_elements`), so overlapping buffers read old data.
    pub fn land(&self) {
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

    /// The byte ranges `[start, end)` this copy writes (`dst`), one per
    /// element when the destination is strided, else one.
    pub fn dst_ranges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        ranges(
            self.dst as usize,
            self.dst_step,
            self.element_bytes,
            self.elements,
        )
    }

    /// The byte ranges `[start, end)` this copy reads (`src`).
    pub fn src_ranges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        ranges(
            self.src as usize,
            self.src_step,
            self.element_bytes,
            self.src_elements,
        )
    }
}

/// `count` elements of `size` bytes from `start`, `step` bytes apart, as
/// byte ranges (one range when they are contiguous).
fn ranges(
    start: usize,
    step: isize,
    size: usize,
    count: usize,
) -> impl Iterator<Item = (usize, usize)> {
    let contiguous = step == size as isize;
    let runs = if contiguous { count.min(1) } else { count };
    let length = if contiguous { size * count } else { size };
    (0..runs).map(move |k| {
        let at = start.wrapping_add((k as isize * step) as usize);
        (at, at + length)
    })
}

/// A copy that has not landed yet, or landed early under `random`.
pub struct Pending {
    /// The sequence number of its group on its queue (the number of commits
    /// on the queue before it was issued).
    pub group: u64,
    /// Whether it has landed already (`random` lands copies early).
    pub landed: bool,
    /// The copy.
    pub copy: Copy,
}

/// One queue: `U_q` and `G_q`. Pending copies of all its groups (and the
/// uncommitted ones) sit in one FIFO, in issue order, so no event allocates
/// once the buffers have grown.
pub struct Queue {
    /// The queue number (the `queue` attribute), at least 0.
    pub number: i64,
    /// Copies issued and not complete (landed or not), oldest first.
    pub pending: VecDeque<Pending>,
    /// Copies issued and not committed, landed or not (for the exit warning).
    pub uncommitted_count: usize,
    /// The op of the first uncommitted copy.
    pub first_uncommitted: Option<i64>,
    /// Sequence numbers of the committed groups not complete yet, oldest first.
    pub groups: VecDeque<u64>,
    /// Commits on this queue so far.
    pub commit_count: u64,
}

impl Queue {
    fn new(number: i64) -> Self {
        Self {
            number,
            pending: VecDeque::new(),
            uncommitted_count: 0,
            first_uncommitted: None,
            groups: VecDeque::new(),
            commit_count: 0,
        }
    }

    /// Completes the oldest group: lands its copies that have not landed and
    /// hands each of its copies to `completed`.
    pub fn complete_oldest(&mut self, completed: &mut impl FnMut(&Copy)) {
        let Some(group) = self.groups.pop_front() else {
            return;
        };
        while self.pending.front().is_some_and(|p| p.group <= group) {
            let pending = self.pending.pop_front().unwrap();
            if !pending.landed {
                pending.copy.land();
            }
            completed(&pending.copy);
        }
    }
}

/// The queues of one thread, sparse by queue number.
#[derive(Default)]
pub struct Queues {
    /// One entry per queue number used, in order of first use (the slot).
    pub slots: Vec<Queue>,
    /// The slot found by the last lookup (programs use one queue at a time).
    last: usize,
}

impl Queues {
    /// The slot of queue `number` (at least 0), created on first use;
    /// `None` when [`MAX_QUEUES`] are in use already.
    pub fn slot(&mut self, number: i64) -> Option<usize> {
        if self
            .slots
            .get(self.last)
            .is_some_and(|q| q.number == number)
        {
            return Some(self.last);
        }
        let slot = match self.slots.iter().position(|q| q.number == number) {
            Some(slot) => slot,
            None if self.slots.len() < MAX_QUEUES => {
                self.slots.push(Queue::new(number));
                self.slots.len() - 1
            }
            None => return None,
        };
        self.last = slot;
        Some(slot)
    }

    /// The slot of queue `number` if it was used.
    pub fn find(&self, number: i64) -> Option<usize> {
        self.slots.iter().position(|q| q.number == number)
    }

    /// Forgets every queue (a new thread).
    pub fn clear(&mut self) {
        self.slots.clear();
        self.last = 0;
    }

    /// Whether some copy is pending and has not landed.
    pub fn any_unlanded(&self) -> bool {
        self.slots
            .iter()
            .any(|q| q.pending.iter().any(|p| !p.landed))
    }
}

/// The token of the group with sequence number `sequence` on slot `slot`.
pub fn token(slot: usize, sequence: u64) -> i64 {
    ((slot as i64) << TOKEN_SLOT_SHIFT) | (sequence as i64 + 1)
}

/// The (slot, sequence number) a token names, if it can name a group
/// (token 0, `apipe.ready`, names none).
pub fn untoken(token: i64) -> Option<(usize, u64)> {
    if token <= 0 {
        return None;
    }
    let sequence = (token & ((1 << TOKEN_SLOT_SHIFT) - 1)) as u64;
    (sequence > 0).then_some(((token >> TOKEN_SLOT_SHIFT) as usize, sequence - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_queue_numbers_cost_one_slot() {
        let mut queues = Queues::default();
        assert_eq!(queues.slot(i64::MAX), Some(0));
        assert_eq!(queues.slot(1 << 32), Some(1));
        assert_eq!(queues.slot(i64::MAX), Some(0));
        assert_eq!(queues.slots.len(), 2);
    }

    #[test]
    fn tokens_round_trip() {
        for (slot, sequence) in [(0, 0), (3, 17), (MAX_QUEUES - 1, (1 << 47) - 2)] {
            let t = token(slot, sequence);
            assert!(t > 0);
            assert_eq!(untoken(t), Some((slot, sequence)));
        }
        assert_eq!(untoken(0), None);
        assert_eq!(untoken(-5), None);
    }
}
