//! Unit tests of the runtime's host-side events.

use super::*;
use std::sync::Arc;

fn config(completion: Completion, locations: Vec<String>) -> RunConfig {
    RunConfig {
        completion,
        schedule: Schedule::Forward,
        racecheck: false,
        jobs: 1,
        locations: locations.into(),
        checks: Arc::from([]),
        names: Arc::from([]),
        kernels: Arc::from([]),
        entry_op: -1,
    }
}

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
            n,
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
    let ok = run_host(config(Completion::Lazy, vec!["x:1:1".into()]), || {
        copy(&sa, &sb, 0, 0, 2, 0);
        apipe_emu_commit_group(0, 0);
        copy(&sa, &sb, 2, 2, 2, 0);
        let t2 = apipe_emu_commit_group(0, 0);
        assert_eq!(b, [0.0; 4], "nothing lands before a wait");
        apipe_emu_wait_group(0, 0, 1);
        assert_eq!(b, [1.0, 2.0, 0.0, 0.0], "only the older group");
        apipe_emu_wait(0, t2);
        assert_eq!(b, [1.0, 2.0, 3.0, 4.0]);
    });
    assert!(ok);
}

#[test]
fn queues_are_independent_and_a_token_forces_older_groups() {
    let mut a = [1.0f32, 2.0, 3.0, 4.0];
    let mut b = [0.0f32; 4];
    let (sa, sb) = (descriptor(&mut a), descriptor(&mut b));
    let ok = run_host(config(Completion::Lazy, vec!["x:1:1".into()]), || {
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
    });
    assert!(ok);
}

#[test]
fn eager_lands_at_issue_and_random_is_reproducible() {
    let mut a = [1.0f32, 2.0];
    let mut b = [0.0f32; 2];
    let (sa, sb) = (descriptor(&mut a), descriptor(&mut b));
    let ok = run_host(config(Completion::Eager, vec![]), || {
        copy(&sa, &sb, 0, 0, 2, 3);
        assert_eq!(b, [1.0, 2.0]);
        apipe_emu_commit_group(0, 3);
    });
    assert!(ok);

    let landed_at = |seed| {
        let mut a = [5.0f32];
        let mut b = [0.0f32];
        let (sa, sb) = (descriptor(&mut a), descriptor(&mut b));
        let mut events = 0;
        let ok = run_host(config(Completion::Random(seed), vec![]), || {
            copy(&sa, &sb, 0, 0, 1, 0);
            while b[0] == 0.0 && events < 100 {
                apipe_emu_ready(0, 0);
                events += 1;
            }
            apipe_emu_commit_group(0, 0);
        });
        assert!(ok);
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
    let ok = run_host(config(Completion::Lazy, vec!["f.mlir:3:5".into()]), || {
        copy(&sa, &sb, 2, 0, 4, 0);
    });
    assert!(!ok);
    let ok = run_host(config(Completion::Lazy, vec!["f.mlir:3:5".into()]), || {
        apipe_emu_wait(0, 7);
    });
    assert!(!ok);
}

#[test]
fn parses_completion() {
    assert_eq!("lazy".parse(), Ok(Completion::Lazy));
    assert_eq!("random:42".parse(), Ok(Completion::Random(42)));
    assert!("random:x".parse::<Completion>().is_err());
    assert!("late".parse::<Completion>().is_err());
}

#[test]
fn huge_and_negative_queues() {
    let mut a = [1.0f32; 4];
    let mut b = [0.0f32; 4];
    let (sa, sb) = (descriptor(&mut a), descriptor(&mut b));
    for queue in [i64::MAX, 1 << 32, 1 << 40, 1 << 31] {
        let ok = run_host(config(Completion::Random(1), vec![]), || {
            copy(&sa, &sb, 0, 0, 4, queue);
            let t = apipe_emu_commit_group(0, queue);
            apipe_emu_wait_group(0, queue, 0);
            apipe_emu_wait(0, t);
        });
        assert!(ok, "queue {queue}");
    }
    let ok = run_host(config(Completion::Lazy, vec![]), || {
        apipe_emu_commit_group(0, -1);
    });
    assert!(!ok);
}

#[test]
fn the_program_stops_at_its_first_error() {
    let mut reached = false;
    let ok = run_host(config(Completion::Lazy, vec!["f.mlir:1:1".into()]), || {
        apipe_emu_wait(0, 42);
        reached = true;
    });
    assert!(!ok);
    assert!(!reached, "nothing runs after the error");
    let ok = run_host(config(Completion::Lazy, vec![]), || {
        apipe_emu_bad_step(0, 0);
        reached = true;
    });
    assert!(!ok && !reached);
}

#[test]
fn parses_schedule() {
    assert_eq!("reverse".parse(), Ok(Schedule::Reverse));
    assert_eq!("random:7".parse(), Ok(Schedule::Random(7)));
    assert!("sideways".parse::<Schedule>().is_err());
}

#[test]
fn every_schedule_orders_the_blocks_as_a_permutation() {
    for blocks in [1usize, 2, 6, 7, 64, 1000] {
        for schedule in [
            Schedule::Forward,
            Schedule::Reverse,
            Schedule::Random(0),
            Schedule::Random(7),
            Schedule::Random(u64::MAX),
        ] {
            let mut seen = vec![false; blocks];
            for i in 0..blocks {
                let b = schedule.block(i, blocks);
                assert!(b < blocks && !seen[b], "{schedule:?} {blocks}");
                seen[b] = true;
            }
        }
    }
    assert_eq!(Schedule::Reverse.block(0, 5), 4);
    // A random order is not the forward one (for this seed and size).
    assert!((0..64).any(|i| Schedule::Random(3).block(i, 64) != i));
}

#[test]
fn read_cache_keys_never_collide_with_empty_slots() {
    use super::context::read_key;
    assert_ne!(read_key(1, 4, 0), 0);
    assert_ne!(
        read_key(1, 4, 0),
        read_key(2, 4, 0),
        "a new generation misses"
    );
    assert_ne!(read_key(1, 4, 8), read_key(1, 2, 8), "sizes differ");
    assert_ne!(read_key(1, 4, 8), read_key(1, 4, 12));
}
