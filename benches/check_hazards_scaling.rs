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
//! output (the minimum of 3 runs each, parsing excluded), the checker's
//! microseconds per 1,000 ops (a flat column is linear growth), and the
//! ratio checker / pipeliner. The checker must stay linear (10x the ops, at
//! most 11x the time: compared between the 1.6k and 16k sizes) and cost
//! no more than the pipeliner.
//!
//! Run: `cargo bench -p apipe-passes --bench check_hazards_scaling`
//! (release).

use apipe_passes::{
    check_hazards::find_hazards,
    software_pipeline::{software_pipeline, PipelineOptions},
};
use melior::ir::Module;
use std::{fmt::Write as _, time::Instant};

/// The function with `m` tile streams.
fn input(m: usize) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "func.func @streams(%A: memref<64xf32>, %out: memref<16xf32>) {{"
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

/// (output ops, pipeliner seconds, checker seconds), minimum of 3 runs.
fn measure(context: &melior::Context, m: usize) -> (usize, f64, f64) {
    let text = input(m);
    let mut pipeliner = f64::MAX;
    let mut checker = f64::MAX;
    let mut size = 0;
    for _ in 0..3 {
        let module = Module::parse(context, &text).expect("the input parses");
        let start = Instant::now();
        software_pipeline(&module.as_operation(), PipelineOptions::default())
            .expect("the pipeliner accepts the input");
        pipeliner = pipeliner.min(start.elapsed().as_secs_f64());
        size = ops_in(&module);
        let start = Instant::now();
        let hazards = find_hazards(&module.as_operation()).expect("the checker runs");
        checker = checker.min(start.elapsed().as_secs_f64());
        assert!(hazards.is_empty(), "the pipeliner's output is hazard-free");
    }
    (size, pipeliner, checker)
}

fn main() {
    let context = apipe_dialect::create_context().expect("context");
    // Ops of the output per stream, to aim at the sizes.
    let (per_stream, _, _) = measure(&context, 1);
    println!("pipelined ops per stream: {per_stream}");
    println!(
        "{:>8} {:>7} {:>14} {:>12} {:>16} {:>18}",
        "ops", "streams", "pipeliner ms", "checker ms", "checker us/kop", "checker/pipeliner"
    );
    let mut rows = Vec::new();
    for target in [1000usize, 1600, 2000, 4000, 8000, 16000] {
        let m = (target / per_stream).max(1);
        let (ops, p, c) = measure(&context, m);
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
