//! The differential test of the pipeliner and the hazard checker against
//! the emulator, bounded for CI: 200 generated inputs (fixed seed) with
//! their mutants (see `harness/mod.rs`), on 2 threads. A debug build spends
//! about 1.2 CPU-seconds per input (the checker's solver, the MLIR lowering
//! of about 6,000 lines per input, the runs), so 200 inputs take about two
//! minutes of 2 cores; 300 would take the whole 3 minutes CI allows.
//! `benches/differential.rs` runs the full count (5,000 inputs) in
//! release. `APIPE_DIFFERENTIAL_INPUTS`, `_JOBS`, `_BATCH` override the
//! count, threads and inputs per JIT; `APIPE_DIFFERENTIAL_DUMP=<dir>` writes
//! each missed or falsely flagged mutant there.

mod harness;

use harness::{run, Config};

#[test]
fn pipeliner_and_checker_against_the_emulator() {
    // `APIPE_DIFFERENTIAL_INPUTS` overrides the count when iterating locally.
    let inputs = std::env::var("APIPE_DIFFERENTIAL_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let batch = std::env::var("APIPE_DIFFERENTIAL_BATCH")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(25);
    let jobs = std::env::var("APIPE_DIFFERENTIAL_JOBS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let report = run(&Config {
        inputs,
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
    // Not vacuous: most inputs pipeline, and mutants break.
    assert!(report.inputs - report.refused >= report.inputs / 2);
    if inputs >= 100 {
        assert!(report.truly_broken > 0 && report.mutants >= report.inputs);
    }
}
