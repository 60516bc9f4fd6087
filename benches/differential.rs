//! Benchmark of the differential harness at scale: the pipeliner and the
//! hazard checker against the emulator on generated inputs and their
//! mutants (`tools/tests/harness/mod.rs`; the CI test
//! `tools/tests/differential.rs` runs a bounded count of the same inputs).
//! Prints the figures: inputs, mutants, truly broken, flagged, missed,
//! false alarms (each listed), per kind of input and, for kernels, per
//! mutation with the race checker's figures; time per phase, programs per
//! second.
//!
//!   cargo bench -p apipe-tools --bench differential -- \
//!       [INPUTS] [JOBS] [BATCH] [UNANNOTATED] [GPU] [GPU_UNANNOTATED] [BARRIERS] \
//!       [MBARRIER_HOST] [MBARRIER_GPU] [SEED]
//!
//! `SEED` (default 0x5eed = 24301) is the seed of the first input of each
//! kind; input `i` of the annotated host kind uses `SEED + i`, so `1 2 25 0
//! 0 0 0 0 0 <24301 + i>` with `APIPE_DIFFERENTIAL_DUMP=<dir>` reproduces
//! that input of a run with the defaults alone.
//! Defaults: 4,000 annotated host inputs (seed 0x5eed, the CI test's first
//! inputs are the same), one job per available core, 25 inputs per JIT,
//! 1,000 unannotated host loops, 150 annotated and 75 unannotated
//! `gpu.func` kernels, 4 barriers of each pipelined kernel (drawn at
//! random) removed in turn, then 500 host loops and 50 kernels taken to
//! the mbarrier form: 5,775 inputs and 27,386 mutants. Dynamic trip counts
//! run every count from 0 to 20. A kernel has about 8 mutants, each run in
//! 9 modes and once with the race checker; most of the time is the
//! lowering of the batch modules and LLVM's code generation (at -O0: about
//! 2,800 CPU seconds in all, 1,440 s on 2 cores). `BARRIERS` = a large number removes every barrier in
//! turn: 12.5 barrier mutants per kernel on 20 kernels tried. Exits
//! 1 if a pipelined output differs from make-sync or (kernels) races, the
//! checker flags a correct output, misses a truly broken mutant, flags 1%
//! or more of the counting form's mutants that no run shows broken, or
//! flags a mutant of the mbarrier form that no run shows broken with an
//! error of no known class (`harness::mbarrier_alarm_class`).

#[path = "../tools/tests/harness/mod.rs"]
mod harness;

use harness::{run, Config};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let number =
        |i: usize, default: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let config = Config {
        inputs: number(0, 4000),
        unannotated: number(3, 1000),
        gpu: number(4, 150),
        gpu_unannotated: number(5, 75),
        barrier_mutants: number(6, 4),
        mbarrier_host: number(7, 500),
        mbarrier_gpu: number(8, 50),
        seed: number(9, 0x5eed) as u64,
        jobs: number(1, cores),
        batch: number(2, 25),
    };
    println!("differential benchmark: {config:?}");
    let report = run(&config);
    print!("{}", report.summary());
    for (title, list) in [
        ("output mismatches", &report.mismatches),
        ("alarms on correct outputs", &report.alarms_on_outputs),
        ("races in references/outputs", &report.races_on_outputs),
        ("missed", &report.missed),
        ("racecheck passes", &report.racecheck_missed),
        ("false alarms", &report.false_alarms),
        (
            "false alarms (mbarrier form)",
            &report.mbarrier_false_alarms,
        ),
        (
            "eager/make-sync disagreements",
            &report.cross_check_failures,
        ),
    ] {
        for item in list {
            println!("{title}: {item}");
        }
    }
    let bad = !report.mismatches.is_empty()
        || !report.alarms_on_outputs.is_empty()
        || !report.races_on_outputs.is_empty()
        || !report.missed.is_empty()
        || !report.cross_check_failures.is_empty()
        || report.false_alarms.len() * 100 >= report.flagged.max(1)
        || report
            .mbarrier_false_alarms
            .iter()
            .any(|a| harness::mbarrier_alarm_class(a).is_none());
    std::process::exit(i32::from(bad));
}
