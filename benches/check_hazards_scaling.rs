//! Cost of `apipe-check-hazards` against the size of a function, and
//! against `apipe-software-pipeline` on the same input (a benchmark, not a
//! test).
//!
//! The input: one function with `M` annotated tile streams in sequence,
//! each a loop of 16 iterations over its own buffer whose copy (stage 0)
//! runs two iterations ahead of its consumer (stage 2), the shape of
//! `examples/software_pipeline_input.mlir`; `M` is chosen so that the
//! pipelined function has about 1k, 2k, 4k, 8k and 16k ops. For each size:
//! the pipeliner's time on the input, the checker's time on the pipelined
//! output (CPU time of the measuring thread, so that other processes on a
//! shared machine count little; the minimum of 5 runs each, parsing
//! excluded), the checker's
//! microseconds per 1,000 ops (a flat column is linear growth), and the
//! ratio checker / pipeliner. The checker must stay linear (10x the ops, at
//! most 11x the time: compared between the 1.6k and 16k sizes) and cost
//! no more than the pipeliner.
//!
//! A second table does the same for the mbarrier form: the pipeliner in
//! token form (`sync=tokens`), then `apipe-tokens-to-mbarrier` (not
//! timed), then the checker, whose mbarrier analysis follows every count
//! value and ring (docs/mbarrier.md).
//!
//! Run: `cargo bench -p apipe-passes --bench check_hazards_scaling`
//! (release).

use apipe_passes::{
    check_hazards::find_hazards,
    software_pipeline::{software_pipeline, PipelineOptions, SyncForm},
    tokens_to_mbarrier::{self, tokens_to_mbarrier},
};
use melior::ir::Module;
use std::fmt::Write as _;

/// `struct timespec` of Linux (64-bit).
#[repr(C)]
struct Timespec {
    seconds: i64,
    nanoseconds: i64,
}

unsafe extern "C" {
    fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
}

/// `CLOCK_THREAD_CPUTIME_ID` of Linux.
const THREAD_CPU_TIME: i32 = 3;

/// CPU seconds the calling thread has used.
fn thread_cpu_seconds() -> f64 {
    let mut time = Timespec {
        seconds: 0,
        nanoseconds: 0,
    };
    // SAFETY: libc's clock_gettime writes one timespec through a valid
    // pointer to a live local.
    let status = unsafe { clock_gettime(THREAD_CPU_TIME, &mut time) };
    assert_eq!(status, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    time.seconds as f64 + time.nanoseconds as f64 * 1e-9
}

/// The function with `m` tile streams.
fn input(m: usize) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "func.func @streams(%A: memref<64xf32>, %out: memref<16xf32> {{llvm.noalias}}) {{"
    );
    for c in [0, 1, 4, 16] {
        let _ = writeln!(t, "  %c{c} = arith.constant {c} : index");
    }
    for s in 0..m {
        let _ = writeln!(t, "  %tile{s} = memref.alloc() : memref<4xf32>");
        let _ = writeln!(t, "  scf.for %j = %c0 to %c16 step %c1 {{");
        let _ = writeln!(
            t,
            "    %off = arith.muli %j, %c4 {{apipe.stage = 0 : i64}} : index"
        );
        let _ = writeln!(
            t,
            "    apipe.copy %A[%off], %tile{s}[%c0], 4 {{apipe.stage = 0 : i64}} : memref<64xf32> to memref<4xf32>"
        );
        let _ = writeln!(
            t,
            "    %x = memref.load %tile{s}[%c1] {{apipe.stage = 2 : i64}} : memref<4xf32>"
        );
        let _ = writeln!(
            t,
            "    memref.store %x, %out[%j] {{apipe.stage = 2 : i64}} : memref<16xf32>"
        );
        let _ = writeln!(t, "  }} {{apipe.async_stages = array<i64: 0>}}");
    }
    let _ = writeln!(t, "  return\n}}");
    t
}

fn ops_in(module: &Module) -> usize {
    apipe_dialect::ops::nested_ops(&module.as_operation()).len()
}

/// (output ops, pipeliner seconds, checker seconds), CPU time, minimum of
/// 5 runs; `mbarrier`: the checker runs on the mbarrier form.
fn measure(context: &melior::Context, m: usize, mbarrier: bool) -> (usize, f64, f64) {
    let text = input(m);
    let mut pipeliner = f64::MAX;
    let mut checker = f64::MAX;
    let mut size = 0;
    for _ in 0..5 {
        let module = Module::parse(context, &text).expect("the input parses");
        // Each run solves its systems anew (no answers of the last run).
        apipe_passes::access::System::forget_answers();
        apipe_passes::software_pipeline::forget_placements();
        let start = thread_cpu_seconds();
        let options = PipelineOptions {
            sync: if mbarrier {
                SyncForm::Tokens
            } else {
                SyncForm::Counting
            },
            ..PipelineOptions::default()
        };
        software_pipeline(&module.as_operation(), options)
            .expect("the pipeliner accepts the input");
        pipeliner = pipeliner.min(thread_cpu_seconds() - start);
        if mbarrier {
            tokens_to_mbarrier(
                module.as_operation(),
                tokens_to_mbarrier::Options::default(),
            )
            .expect("the token form converts");
        }
        size = ops_in(&module);
        // The checker does not reuse the pipeliner's answers either.
        apipe_passes::access::System::forget_answers();
        apipe_passes::software_pipeline::forget_placements();
        let start = thread_cpu_seconds();
        let hazards = find_hazards(&module.as_operation()).expect("the checker runs");
        checker = checker.min(thread_cpu_seconds() - start);
        assert!(hazards.is_empty(), "the pipeliner's output is hazard-free");
    }
    (size, pipeliner, checker)
}

fn main() {
    let context = apipe_dialect::create_context().expect("context");
    for (form, mbarrier) in [("counting", false), ("mbarrier", true)] {
        println!("== checker on the {form} form ==");
        table(&context, mbarrier);
    }
}

/// One table: the sizes, the growth and the worst ratio.
fn table(context: &melior::Context, mbarrier: bool) {
    // Ops of the output per stream (the function's own ops aside), to aim
    // at the sizes.
    let (one, _, _) = measure(context, 1, mbarrier);
    let (eleven, _, _) = measure(context, 11, mbarrier);
    let per_stream = (eleven - one) / 10;
    println!("pipelined ops per stream: {per_stream}");
    println!(
        "{:>8} {:>7} {:>14} {:>12} {:>16} {:>18}",
        "ops", "streams", "pipeliner ms", "checker ms", "checker us/kop", "checker/pipeliner"
    );
    let mut rows = Vec::new();
    for target in [1000usize, 1600, 2000, 4000, 8000, 16000] {
        let m = (target / per_stream).max(1);
        let (ops, p, c) = measure(context, m, mbarrier);
        println!(
            "{ops:>8} {m:>7} {:>14.1} {:>12.1} {:>16.1} {:>18.2}",
            p * 1e3,
            c * 1e3,
            c * 1e9 / ops as f64,
            c / p
        );
        rows.push((target, ops, p, c));
    }
    let at = |t: usize| rows.iter().find(|r| r.0 == t).copied().expect("measured");
    let (_, small_ops, _, small) = at(1600);
    let (_, large_ops, _, large) = at(16000);
    let growth = large / small;
    let size = large_ops as f64 / small_ops as f64;
    println!(
        "checker: {size:.1}x the ops ({small_ops} -> {large_ops}) cost {growth:.1}x the time \
         (bound: 1.1 x {size:.1} = {:.1}x)",
        1.1 * size
    );
    let worst = rows.iter().map(|r| r.3 / r.2).fold(0.0, f64::max);
    println!("checker / pipeliner: at most {worst:.2}");
}
