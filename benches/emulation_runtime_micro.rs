//! Micro-benchmark of the emulation runtime alone (no JIT): drives its
//! `extern "C"` functions as the 3-stage pipelined loop of
//! `test/Emulation/pipeline-stress.mlir` does (per iteration: one copy of 4
//! i32, one commit_group, one wait_group {pending = 2}) and prints the time
//! per iteration for each completion policy. Built by benches/emulation.sh
//! with rustc directly, optimized and not.

#[allow(dead_code)]
#[path = "../lowering/src/emulation_runtime.rs"]
mod emulation_runtime;

use emulation_runtime::*;
use std::time::Instant;

fn main() {
    let n: usize = std::env::var("APIPE_MICRO_N").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let a: Vec<i32> = (0..(n * 4) as i32).collect();
    let mut buf = [0i32; 12];
    // Descriptors: {allocated, aligned, offset, sizes, strides}.
    let src = [a.as_ptr() as i64, a.as_ptr() as i64, 0, n as i64, 4, 4, 1];
    let dst = [buf.as_mut_ptr() as i64, buf.as_mut_ptr() as i64, 0, 3, 4, 4, 1];
    let mut line = String::new();
    for (name, completion) in [
        ("lazy", Completion::Lazy),
        ("eager", Completion::Eager),
        ("random", Completion::Random(1)),
    ] {
        if std::env::var("APIPE_MICRO_MODE").is_ok_and(|m| m != name) {
            continue;
        }
        start(completion, vec!["bench:1:1".into()]);
        let begin = Instant::now();
        for i in 0..n as i64 {
            // SAFETY: rank-2 descriptors of live buffers, indices in bounds.
            unsafe {
                apipe_emu_copy(0, 0, 4, 4, -1, 2, src.as_ptr(), 2, dst.as_ptr(), i, 0, 0, 0, i % 3, 0, 0, 0)
            };
            apipe_emu_commit_group(0, 0);
            apipe_emu_wait_group(0, 0, 2);
        }
        let elapsed = begin.elapsed();
        assert!(finish());
        line.push_str(&format!("{name} {:.1} ns  ", elapsed.as_secs_f64() * 1e9 / n as f64));
    }
    println!("{line}");
}
