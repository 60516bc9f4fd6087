//! The differential test of the pipeliner and the hazard checker against
//! the emulator, bounded for CI: 300 inputs, 280 generated annotated host
//! inputs (fixed
//! seed; dynamic trip counts 0-5 and 7; the queues of half of the outputs
//! with several merged by `apipe-merge-queues`) with their mutants (see
//! `harness/mod.rs`), and a small fixed share
//! of the other kinds: 12 unannotated host loops (`num-stages` 2-5), 5
//! annotated and 3 unannotated `gpu.func` kernels (each with at most 4
//! barrier-removal mutants), on 2 threads. A debug build spends about 1.2
//! CPU-seconds per host input (the checker's solver, the MLIR lowering of
//! about 6,000 lines per input, the runs) and 6-8 per kernel (more mutants,
//! each run in 3 completion modes x 3 thread orders and once with the race
//! checker), so the whole takes about four minutes of 2 cores.
//! `benches/differential.rs` runs the full counts (4,000 host inputs, 1,000
//! unannotated, 225 kernels with every barrier removed) in release.
//! `APIPE_DIFFERENTIAL_INPUTS`, `_UNANNOTATED`, `_GPU`, `_GPU_UNANNOTATED`,
//! `_BARRIERS`, `_JOBS`, `_BATCH` override the counts, the barrier mutants
//! per kernel, threads and inputs per JIT; `APIPE_DIFFERENTIAL_DUMP=<dir>`
//! writes each missed or falsely flagged mutant there.

mod harness;

use harness::{run, Config};

#[test]
fn pipeliner_and_checker_against_the_emulator() {
    // `APIPE_DIFFERENTIAL_INPUTS` overrides the count when iterating locally.
    let inputs = std::env::var("APIPE_DIFFERENTIAL_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(280);
    let batch = std::env::var("APIPE_DIFFERENTIAL_BATCH")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(25);
    let jobs = std::env::var("APIPE_DIFFERENTIAL_JOBS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let count = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let report = run(&Config {
        inputs,
        unannotated: count("APIPE_DIFFERENTIAL_UNANNOTATED", 12),
        gpu: count("APIPE_DIFFERENTIAL_GPU", 5),
        gpu_unannotated: count("APIPE_DIFFERENTIAL_GPU_UNANNOTATED", 3),
        mbarrier_host: count("APIPE_DIFFERENTIAL_MBARRIER_HOST", 16),
        mbarrier_gpu: count("APIPE_DIFFERENTIAL_MBARRIER_GPU", 4),
        barrier_mutants: count("APIPE_DIFFERENTIAL_BARRIERS", 4),
        seed: 0x5eed,
        batch,
        jobs,
    });
    println!("{}", report.summary());
    // The pipeliner is correct on every input it accepts, and the checker
    // is silent on its output.
    assert!(
        report.mismatches.is_empty(),
        "pipelined outputs that print other than make-sync:\n{}",
        report.mismatches.join("\n")
    );
    assert!(
        report.alarms_on_outputs.is_empty(),
        "alarms on correct outputs:\n{}",
        report.alarms_on_outputs.join("\n")
    );
    // A mutant's reference is its eager run: make-sync agrees on every
    // mutant checked.
    assert!(
        report.cross_check_failures.is_empty(),
        "eager runs that print other than make-sync:\n{}",
        report.cross_check_failures.join("\n")
    );
    assert!(report.cross_checks > 0);
    // Every truly broken mutant is flagged.
    assert!(
        report.missed.is_empty(),
        "truly broken mutants the checker misses:\n{}",
        report.missed.join("\n")
    );
    // Fewer than 1% of the flagged mutants are never broken.
    assert!(
        report.false_alarms.len() * 100 < report.flagged.max(1),
        "false alarms ({} of {} flagged):\n{}",
        report.false_alarms.len(),
        report.flagged,
        report.false_alarms.join("\n")
    );
    // In the mbarrier form, what the checker flags and no run shows broken
    // is an error of the ring's protocol that the runs did not reach (see
    // `Report::mbarrier_summary`); any other false alarm fails.
    let unexplained: Vec<&String> = report
        .mbarrier_false_alarms
        .iter()
        .filter(|a| harness::mbarrier_alarm_class(a).is_none())
        .collect();
    assert!(
        unexplained.is_empty(),
        "false alarms on mbarrier-form mutants of no known class:\n{unexplained:?}"
    );
    // The references and pipelined outputs are race-free (host and
    // kernels); in kernels the race checker reports every truly broken
    // mutant, stores into a copy's global source included.
    assert!(
        report.races_on_outputs.is_empty(),
        "races in references or pipelined outputs, which must have none:\n{}",
        report.races_on_outputs.join("\n")
    );
    for (mutation, figures) in report
        .gpu_by_mutation
        .iter()
        .chain(&report.mbarrier_by_mutation)
    {
        assert_eq!(
            figures.racecheck_missed,
            0,
            "{mutation:?}: truly broken kernel mutants the race checker passes:\n{}",
            report.racecheck_missed.join("\n")
        );
    }
    let gpu = report
        .by_kind
        .iter()
        .filter(|(kind, _)| {
            matches!(
                kind,
                harness::input::Kind::Gpu | harness::input::Kind::GpuUnannotated
            )
        })
        .fold(0, |n, (_, f)| n + f.inputs - f.refused);
    if inputs >= 100 {
        assert!(gpu > 0, "no kernel pipelined");
        let barriers = report
            .gpu_by_mutation
            .get(&harness::Mutation::BarrierRemoved)
            .copied()
            .unwrap_or_default();
        assert!(barriers.truly_broken > 0 && barriers.truly_broken < barriers.mutants);
    }
    // Not vacuous: most inputs pipeline, and mutants break; merged queues
    // are among the outputs checked.
    assert!(report.inputs - report.refused >= report.inputs / 2);
    if inputs >= 100 {
        assert!(report.truly_broken > 0 && report.mutants >= report.inputs);
        assert!(report.merged > 0, "no output with merged queues");
    }
}

/// The unannotated host inputs: the copies' statements first, then the
/// consumers, with no `apipe.stage`/`apipe.order`/`apipe.async_stages`.
#[test]
fn unannotated_inputs_put_copies_first_and_lose_their_annotations() {
    use harness::unannotated::{strip, Stages};
    let kernel = r#"
  scf.for %i = %c0 to %n step %c1 {
    %t = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    %y = arith.addf %x, %x {apipe.stage = 2 : i64} : f32
    scf.if %c {
      %u = arith.addf %x, %x : f32
    } {apipe.stage = 1 : i64, apipe.order = 3 : i64}
    %s = arith.muli %i, %c2 {apipe.stage = 0 : i64} : index
  } {apipe.async_stages = array<i64: 0, 1>}
"#
    .trim_start_matches('\n');
    let expected = r#"
  scf.for %i = %c0 to %n step %c1 {
    %t = arith.muli %i, %c4 : index
    scf.if %c {
      %u = arith.addf %x, %x : f32
    }
    %s = arith.muli %i, %c2 : index
    %y = arith.addf %x, %x : f32
  }
"#
    .trim_start_matches('\n');
    assert_eq!(
        strip(kernel, Stages::Attribute(3)),
        expected.replace("\n  }\n", "\n  } {apipe.num_stages = 3 : i64}\n")
    );
    assert_eq!(strip(kernel, Stages::Option(2)), expected);
}
