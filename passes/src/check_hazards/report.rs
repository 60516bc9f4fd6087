//! Hazards and their diagnostics: an error (or, for an overlap that rests
//! only on two buffers that may alias, a remark) at the access, with notes
//! that say by how much the synchronization falls short: at the copy, at the
//! wait that leaves it in flight (with the `pending` that would complete it,
//! or in the mbarrier form how many groups back its slot and parity name),
//! and at the loop or branch that decides the path.

use super::state::{Instance, Read};
use crate::access::AccessKind;
use apipe_dialect::ops;
use melior::ir::{operation::OperationLike, Location, OperationRef};

/// The class of a [`Hazard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HazardKind {
    /// A read (a plain read, or an `apipe.copy` reading its source) of a
    /// region an async copy may still be writing: read-after-write.
    ReadAfterWrite,
    /// A write (a plain write, or an `apipe.copy` into its destination) of a
    /// region an async copy may still be reading (its source):
    /// write-after-read.
    WriteAfterRead,
    /// A write of a region an async copy may still be writing (its
    /// destination): the copy may land after it (write-after-write).
    WriteAfterWrite,
    /// A read of data that other threads copied, complete for them, with no
    /// `gpu.barrier` after the wait that completes it.
    MissingBarrierBeforeRead,
    /// An async copy or a write into data that other threads may still be
    /// reading or copying, with no `gpu.barrier` in between.
    MissingBarrierBeforeWrite,
    /// A read of bytes that another thread's async copy may still be
    /// writing (a copy in flight, or the same copy of another thread; or a
    /// copy reading bytes another thread wrote with no barrier since): a
    /// race between threads, which only that thread's wait and then a
    /// `gpu.barrier` order.
    ReadAfterWriteBetweenThreads,
    /// A write of bytes that another thread's async copy may still be
    /// reading (its source).
    WriteAfterReadBetweenThreads,
    /// A write (a plain write, or an async copy) of bytes that another
    /// thread's async copy may still be writing, or a copy into bytes
    /// another thread wrote with no barrier since: two threads' copies in
    /// flight into the same bytes land in either order.
    WriteAfterWriteBetweenThreads,
    /// A `gpu.barrier` under control flow that depends on the thread id:
    /// the threads that skip it leave the others waiting.
    DivergentBarrier,
}

impl HazardKind {
    /// The short name used in messages.
    pub fn name(self) -> &'static str {
        match self {
            HazardKind::ReadAfterWrite => "read-after-write",
            HazardKind::WriteAfterRead => "write-after-read",
            HazardKind::WriteAfterWrite => "write-after-write",
            HazardKind::MissingBarrierBeforeRead | HazardKind::MissingBarrierBeforeWrite => {
                "missing barrier"
            }
            HazardKind::ReadAfterWriteBetweenThreads => "read-after-write between threads",
            HazardKind::WriteAfterReadBetweenThreads => "write-after-read between threads",
            HazardKind::WriteAfterWriteBetweenThreads => "write-after-write between threads",
            HazardKind::DivergentBarrier => "divergent barrier",
        }
    }

    /// The same class between two threads.
    pub(super) fn between_threads(self) -> Self {
        match self {
            HazardKind::ReadAfterWrite => HazardKind::ReadAfterWriteBetweenThreads,
            HazardKind::WriteAfterRead => HazardKind::WriteAfterReadBetweenThreads,
            HazardKind::WriteAfterWrite => HazardKind::WriteAfterWriteBetweenThreads,
            other => other,
        }
    }
}

/// One hazard found by [`super::find_hazards`].
#[derive(Clone, Debug)]
pub struct Hazard<'c, 'a> {
    /// The class.
    pub kind: HazardKind,
    /// True if it rests only on two different buffers that may alias: a
    /// remark, not an error.
    pub conservative: bool,
    /// The access (or the overwriting copy).
    pub at: OperationRef<'c, 'a>,
    /// The async copy in flight (or, for a barrier missing before a write,
    /// the read of other threads' data).
    pub other: OperationRef<'c, 'a>,
    /// The error (or remark) text.
    pub message: String,
    /// The notes, each at a location.
    pub notes: Vec<(Location<'c>, String)>,
}

/// What the access is, for the messages.
#[derive(Clone, Copy, Debug)]
pub(super) enum Role {
    /// A plain read or write by an op.
    Plain(AccessKind),
    /// An access by an op with no memory-effect information (may or may not
    /// touch the buffer).
    Assumed(AccessKind),
    /// An `apipe.copy` reading its source.
    CopySource,
    /// An `apipe.copy` writing its destination.
    CopyDestination,
}

/// What is known of an instance where the hazard happens (lower bounds
/// under the hazard's own constraints).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Facts {
    /// Groups committed on its queue since its issue, at the access.
    pub groups_now: Option<i64>,
    /// The same at its last wait.
    pub groups_at_wait: Option<i64>,
    /// Iterations of its carrying loop since its issue (0: this iteration),
    /// if the access is in that loop.
    pub age: Option<i64>,
}

fn iterations_back(age: Option<i64>) -> String {
    match age {
        Some(0) => ", issued earlier in this iteration".to_owned(),
        Some(1) => ", issued in the previous iteration".to_owned(),
        Some(k) => format!(", issued {k} iterations earlier"),
        None => String::new(),
    }
}

/// The note at an `apipe.mbarrier_wait` that may return at once
/// (`mbarrier::Facts::returns_early`).
const EARLY_WAIT: &str = "this wait may return at once: on some path its slot was armed again \
     while the slot's previous group could still be in flight, so the slot's current phase is \
     that group's, of the other parity; it completes nothing here (wait for the slot's previous \
     group before arming it again)";

/// The notes of an instance: at the copy, at its last wait, at the loop or
/// branch that decides the path. `barrier`: a missing barrier, `write` on
/// the write side (other threads' copies may still read or write what is
/// written).
fn instance_notes<'c, 'a>(
    instance: &Instance<'c, 'a>,
    facts: Facts,
    barrier: bool,
    write: bool,
    between: bool,
) -> Vec<(Location<'c>, String)> {
    let mut notes = Vec::new();
    let queue = instance.queue;
    let issued = iterations_back(facts.age);
    if let Some((branch, region)) = instance.trace.divergent {
        let which = match (ops::name(&branch), region) {
            ("scf.if", 0) => "the then branch".to_owned(),
            ("scf.if", _) => "the else branch".to_owned(),
            ("scf.index_switch", 0) => "its default region".to_owned(),
            ("scf.index_switch", r) => {
                match crate::access::values::dense_i64(&branch, "cases")
                    .and_then(|cases| cases.get(r - 1).copied())
                {
                    Some(case) => format!("its case {case}"),
                    None => format!("region {r} of this scf.index_switch"),
                }
            }
            (name, r) => format!("region {r} of this {name}"),
        };
        notes.push((
            instance.copy.location(),
            "the other thread's async copy, which may be in flight while this thread runs the other branch"
                .to_owned(),
        ));
        notes.push((
            branch.location(),
            format!(
                "the condition differs between threads: another thread may take {which} while this one takes the branch of the access; nothing orders the two branches"
            ),
        ));
        return notes;
    }
    if barrier {
        notes.push((
            instance.copy.location(),
            format!(
                "the async copy{}, issued by every thread: other threads' copies may not {}",
                issued.replacen(", issued", "", 1),
                if write { "be complete" } else { "have landed" }
            ),
        ));
        if let Some(wait) = &instance.trace.wait {
            notes.push((
                wait.op.location(),
                "this wait completes the copy for the waiting thread only; no gpu.barrier \
                 follows it on some path to the access"
                    .to_owned(),
            ));
        }
        return notes;
    }
    let mbarrier = in_mbarrier_form(&instance.copy);
    // Where a group is closed: by a commit on the copy's queue, or by this
    // thread's next arrive on a ring.
    let closed_on = if mbarrier {
        "closed by arrives on the ring".to_owned()
    } else {
        format!("committed on queue {queue}")
    };
    let count = match (facts.groups_now, barrier) {
        (_, true) => String::new(),
        (Some(0), false) if mbarrier => {
            "; its group is not closed yet (no arrive since the copy)".to_owned()
        }
        (Some(0), false) => "; its group is not committed yet".to_owned(),
        (Some(d), false) => format!("; {} newer group(s) {closed_on} since its group", d - 1),
        (None, false) => String::new(),
    };
    let whose = if between {
        "the other thread's async copy"
    } else {
        "the async copy"
    };
    notes.push((
        instance.copy.location(),
        format!("{whose} still in flight{issued}{count}"),
    ));
    match &instance.trace.wait {
        Some(wait) => {
            let at_wait = wait.groups.as_constant().or(facts.groups_at_wait);
            let text = match (wait.pending, at_wait) {
                // An mbarrier wait completes the group its slot and parity
                // name, `pending + 1` groups back, and every older one.
                (Some(_), Some(0)) if mbarrier => "this wait cannot complete this copy's \
                     group: the group is closed by an arrive after this wait (arrive before \
                     waiting)"
                    .to_owned(),
                (Some(pending), Some(d)) if mbarrier && d <= pending => format!(
                    "this wait's slot and parity name the group {} groups back on its ring; \
                     this copy's group is {d} group(s) back ({} newer group(s) {closed_on}): \
                     wait on its slot and phase",
                    pending + 1,
                    d - 1
                ),
                (Some(pending), _) if mbarrier => format!(
                    "this wait's slot and parity name the group {} groups back on its ring, \
                     older than this copy's group on some path: it leaves the copy in flight",
                    pending + 1
                ),
                (Some(pending), Some(0)) => format!(
                    "`pending = {pending}` cannot complete this copy's group: the group is \
                     committed after this wait (commit it before waiting)"
                ),
                // `d - 1` newer groups and `pending >= d - 1` would have
                // completed it: the count is a summary (a loop's iterations
                // joined), so give no number rather than a contradiction.
                (Some(pending), Some(d)) if d > pending => {
                    format!("`pending = {pending}` leaves this copy's group in flight on some path")
                }
                (Some(pending), Some(d)) => format!(
                    "`pending = {pending}` leaves this copy's group in flight: {} newer \
                     group(s) are committed on queue {queue} when it waits; `pending <= {}` \
                     completes it",
                    d - 1,
                    d - 1
                ),
                (Some(pending), None) => {
                    format!("`pending = {pending}` leaves this copy's group in flight on some path")
                }
                (None, _) if wait.returns_early => EARLY_WAIT.to_owned(),
                (None, _) if wait.names_no_group => "this wait's token names no group on \
                     this path (an `apipe.ready` token, a commit that has not run, or an unknown \
                     distance): it completes nothing here"
                    .to_owned(),
                (None, _) => "this wait names a group older than the copy's: it leaves the \
                              copy's group in flight"
                    .to_owned(),
            };
            notes.push((wait.op.location(), text));
            // A wait that may have returned at once before the last one:
            // the reason the copy's group was not complete there.
            if let Some(early) = instance.trace.early_wait.filter(|e| *e != wait.op) {
                notes.push((early.location(), EARLY_WAIT.to_owned()));
            }
        }
        None if mbarrier => notes.push((
            instance.copy.location(),
            "no wait on this copy's group follows it before the access on this path".to_owned(),
        )),
        None => notes.push((
            instance.copy.location(),
            format!("no wait on queue {queue} follows this copy before the access on this path"),
        )),
    }
    if let Some((branch, region)) = instance.trace.branch {
        let which = match (ops::name(&branch), region) {
            ("scf.if", 0) => "when this scf.if takes its then branch".to_owned(),
            ("scf.if", _) => "when this scf.if takes its else branch".to_owned(),
            (name, r) => format!("on region {r} of this {name}"),
        };
        notes.push((
            branch.location(),
            format!("the copy stays in flight {which}"),
        ));
    } else if let (Some(l), Some(age)) = (instance.trace.carried, facts.age) {
        if age > 0 {
            notes.push((
                l.location(),
                format!(
                    "the copy is carried in flight across {} of this loop",
                    if age == 1 {
                        "the back edge".to_owned()
                    } else {
                        format!("{age} back edges")
                    }
                ),
            ));
        }
    }
    notes
}

/// True if `copy`'s function synchronizes in the mbarrier form: its groups
/// are closed by `apipe.mbarrier_arrive_copies` on a ring and waited on by
/// slot and phase parity, so the notes speak of arrives and of how many
/// groups back a wait names, not of queues and `pending` counts.
fn in_mbarrier_form(copy: &OperationRef) -> bool {
    crate::group_distance::enclosing_function(*copy)
        .is_some_and(|function| super::mbarrier::in_mbarrier_form(&ops::nested_ops(&function)))
}

/// A hazard between an access and an instance.
pub(super) fn instance_hazard<'c, 'a>(
    kind: HazardKind,
    role: Role,
    at: OperationRef<'c, 'a>,
    instance: &Instance<'c, 'a>,
    alias: bool,
    facts: Facts,
    threads: Option<String>,
) -> Hazard<'c, 'a> {
    let name = ops::name(&at);
    let what = match (kind, role) {
        (HazardKind::ReadAfterWriteBetweenThreads, Role::CopySource) => {
            "reads (as its source) bytes that another thread's async copy may still be writing"
        }
        (HazardKind::ReadAfterWriteBetweenThreads, _) => {
            "reads bytes that another thread's async copy may still be writing"
        }
        (HazardKind::WriteAfterReadBetweenThreads, _) => {
            "writes bytes that another thread's async copy may still be reading (its source)"
        }
        (HazardKind::WriteAfterWriteBetweenThreads, Role::CopyDestination) => {
            "writes bytes that another thread's async copy may still be writing: copies of \
             different threads in flight land in either order"
        }
        (HazardKind::WriteAfterWriteBetweenThreads, _) => {
            "writes bytes that another thread's async copy may still be writing: the copy may \
             land after this write and erase it"
        }
        (HazardKind::ReadAfterWrite, Role::CopySource) => {
            "reads (as its source) a buffer region that an async copy may still be writing"
        }
        (HazardKind::ReadAfterWrite, _) => {
            "reads a buffer region that an async copy may still be writing"
        }
        (HazardKind::WriteAfterRead, Role::CopyDestination) => {
            "overwrites a buffer region that an earlier async copy may still be reading (its \
             source)"
        }
        (HazardKind::WriteAfterRead, _) => {
            "writes a buffer region that an async copy may still be reading (its source)"
        }
        (HazardKind::WriteAfterWrite, Role::CopyDestination) => {
            "writes a buffer region that an earlier async copy may still be writing: the final \
             content depends on which lands last"
        }
        (HazardKind::WriteAfterWrite, _) => {
            "writes a buffer region that an async copy may still be writing (its destination): \
             the copy may land after this write and erase it"
        }
        (HazardKind::MissingBarrierBeforeRead, _) => {
            "reads data that other threads copied asynchronously, with no gpu.barrier between \
             the wait that completes it and this read"
        }
        // Reported by `barriers`, never against an instance.
        (HazardKind::DivergentBarrier, _) => "is a barrier some threads may skip",
        (HazardKind::MissingBarrierBeforeWrite, _) => {
            "writes data that other threads' async copies may still be reading or writing (as \
             their source or destination), with no gpu.barrier after the wait that completes \
             them"
        }
    };
    let mut message = match &threads {
        Some(threads) => format!(
            "'{name}' op {what} ({threads}; only the wait of the thread that issued it, then a \
             gpu.barrier, orders the two) ({})",
            kind.name()
        ),
        None => format!("'{name}' op {what} ({})", kind.name()),
    };
    if let Role::Assumed(_) = role {
        message += ": it has no memory-effect information, so it may read and write any part \
                    of the buffers it receives, and of the globals its callee takes with \
                    memref.get_global";
    }
    if alias {
        message = format!("possible hazard (the buffers may alias): {message}");
    }
    let barrier = matches!(
        kind,
        HazardKind::MissingBarrierBeforeRead | HazardKind::MissingBarrierBeforeWrite
    );
    Hazard {
        kind,
        conservative: alias,
        at,
        other: instance.copy,
        message,
        notes: instance_notes(
            instance,
            facts,
            barrier,
            kind == HazardKind::MissingBarrierBeforeWrite,
            threads.is_some(),
        ),
    }
}

/// The copy `at` against the same copy issued by another thread (`kind`:
/// write-after-write of their destinations, or read-after-write of this
/// source from the other destination; `threads`: the thread ids or the
/// relation).
pub(super) fn same_copy_hazard<'c, 'a>(
    at: OperationRef<'c, 'a>,
    kind: HazardKind,
    role: Role,
    threads: String,
) -> Hazard<'c, 'a> {
    let what = match role {
        Role::CopySource => {
            "reads (as its source) bytes that the same copy issued by another \
                             thread may still be writing"
        }
        _ => {
            "writes bytes that the same copy issued by another thread may also be writing: \
              copies of different threads in flight land in either order"
        }
    };
    Hazard {
        kind,
        conservative: false,
        at,
        other: at,
        message: format!(
            "'apipe.copy' op {what} ({threads}; a wait completes the waiting thread's copies \
             only, so no gpu.barrier can order two threads' copies in flight) ({})",
            kind.name()
        ),
        notes: vec![(
            at.location(),
            "the same async copy, issued by the other thread".to_owned(),
        )],
    }
}

/// A copy `at` whose destination or source (`role`) meets a plain write
/// of another thread with no `gpu.barrier` since (`age`: iterations of its
/// carrying loop since the write; `threads`: the thread ids or the
/// relation).
pub(super) fn write_hazard<'c, 'a>(
    at: OperationRef<'c, 'a>,
    role: Role,
    write: &Read<'c, 'a>,
    age: Option<i64>,
    threads: String,
) -> Hazard<'c, 'a> {
    let name = ops::name(&at);
    let (kind, what) = match role {
        Role::CopySource => (
            HazardKind::ReadAfterWriteBetweenThreads,
            "reads (as its source) bytes that another thread wrote",
        ),
        _ => (
            HazardKind::WriteAfterWriteBetweenThreads,
            "writes bytes that another thread wrote",
        ),
    };
    let notes = unbarriered_notes(write, age, "the other thread's write", "the copy", "write");
    Hazard {
        kind,
        conservative: false,
        at,
        other: write.op,
        message: format!(
            "'{name}' op {what}, with no gpu.barrier between that write and this copy \
             ({threads}) ({})",
            kind.name()
        ),
        notes,
    }
}

/// The notes of an access `other` of another thread with no `gpu.barrier`
/// after it before the access reported (`before`, as the message names
/// it): at `other`, `head` and how many iterations earlier (`age`, back
/// edges crossed); and, when carried across a back edge, at the loop that
/// carries the `noun` (`read` or `write`).
fn unbarriered_notes<'c, 'a>(
    other: &Read<'c, 'a>,
    age: Option<i64>,
    head: &str,
    before: &str,
    noun: &str,
) -> Vec<(Location<'c>, String)> {
    let when = match age {
        Some(0) | None => String::new(),
        Some(1) => " in the previous iteration".to_owned(),
        Some(k) => format!(" {k} iterations earlier"),
    };
    let mut notes = vec![(
        other.op.location(),
        format!("{head}{when}: no gpu.barrier follows it before {before} on some path"),
    )];
    if let (Some(l), Some(1..)) = (other.carried, age) {
        notes.push((
            l.location(),
            format!(
                "the {noun} is carried into the next iteration of this loop with no gpu.barrier \
                 after it"
            ),
        ));
    }
    notes
}

/// A plain access at `at` (a write if `write`) of workgroup bytes that
/// another thread's plain access `other` touched, with no `gpu.barrier`
/// between (`age`: back edges crossed; `threads`: a witness).
pub(super) fn plain_race_hazard<'c, 'a>(
    at: OperationRef<'c, 'a>,
    write: bool,
    other: &Read<'c, 'a>,
    age: Option<i64>,
    threads: String,
) -> Hazard<'c, 'a> {
    let name = ops::name(&at);
    let (kind, what, theirs) = match (write, other.write) {
        (false, _) => (
            HazardKind::ReadAfterWriteBetweenThreads,
            "reads workgroup memory that another thread wrote",
            "write",
        ),
        (true, true) => (
            HazardKind::WriteAfterWriteBetweenThreads,
            "writes workgroup memory that another thread wrote",
            "write",
        ),
        (true, false) => (
            HazardKind::WriteAfterReadBetweenThreads,
            "writes workgroup memory that another thread read",
            "read",
        ),
    };
    let head = format!("the other thread's {theirs}");
    let notes = unbarriered_notes(other, age, &head, "this access", theirs);
    Hazard {
        kind,
        conservative: false,
        at,
        other: other.op,
        message: format!(
            "'{name}' op {what}, with no gpu.barrier between the two ({threads}) ({})",
            kind.name()
        ),
        notes,
    }
}

/// A copy issued over data that other threads may still be reading (`age`:
/// iterations of its carrying loop since the read).
pub(super) fn read_hazard<'c, 'a>(
    at: OperationRef<'c, 'a>,
    read: &Read<'c, 'a>,
    age: Option<i64>,
) -> Hazard<'c, 'a> {
    let name = ops::name(&at);
    let notes = unbarriered_notes(
        read,
        age,
        "the read of other threads' data",
        "the copy",
        "read",
    );
    Hazard {
        kind: HazardKind::MissingBarrierBeforeWrite,
        conservative: false,
        at,
        other: read.op,
        message: format!(
            "'{name}' op overwrites data that other threads may still be reading, with no \
             gpu.barrier between their read and this copy ({})",
            HazardKind::MissingBarrierBeforeWrite.name()
        ),
        notes,
    }
}
