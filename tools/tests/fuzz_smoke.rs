//! The CI smoke of the fuzzer: a fixed-seed campaign over every target
//! (`apipe-opt` with every apipe pass and the pipeliner chain,
//! `apipe-translate` for sm_80 and sm_90, `apipe-run` lazy, eager and
//! random), bounded to stay well under two minutes on two slow shared
//! cores (about a minute when they are free), that fails on any crash: a
//! signal, a panic (caught or not), an abort, an exit code other than 0 or
//! 1, or a run past its time limit. Campaigns at scale are run by hand (see
//! `apipe-fuzz campaign --help`).

use std::{io::Write, path::Path, process::Command};

/// Inputs per target: 19 targets × 30 inputs, after about 750 seed checks.
const INPUTS: &str = "30";

/// The campaign stops starting runs after this many seconds, so a slow
/// machine ends early (reported) instead of running long: at most this
/// plus one run's wall-time guard (60 s; a run's own limit is 10 s of CPU
/// time), 140 s.
const TIME_LIMIT_S: &str = "80";

/// Known crash classes that do not fail the smoke, each with the reason
/// (`(label, reason)`): a crash the fuzzer labels `like <label>` is
/// reported but tolerated. Empty: every crash fails. An entry needs a
/// reason a reviewer accepts (a fix under way elsewhere, named).
const KNOWN: &[(&str, &str)] = &[];

#[test]
fn fuzz_smoke_has_no_crash() {
    let fuzz = Path::new(env!("CARGO_BIN_EXE_apipe-fuzz"));
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-smoke");
    let _ = std::fs::remove_dir_all(&out);
    let output = Command::new(fuzz)
        .args(["campaign", "--seed", "1", "--inputs", INPUTS, "--jobs", "2"])
        .args([
            "--time-limit",
            TIME_LIMIT_S,
            "--no-reduce",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .output()
        .expect("run apipe-fuzz");
    // Written to the process's stderr directly (not `eprint!`, which the
    // test harness captures), so the figures show in every `cargo test`.
    let mut stderr = std::io::stderr();
    let _ = stderr.write_all(&output.stdout);
    let _ = stderr.write_all(&output.stderr);
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        report.contains("crash classes: "),
        "apipe-fuzz did not finish: {}\n{report}",
        output.status
    );
    // Class lines: `  01. [owner, like crash_04-06] key`.
    let new_classes: Vec<&str> = report
        .lines()
        .filter(|l| {
            let t = l.trim_start().as_bytes();
            t.len() > 5
                && t[0].is_ascii_digit()
                && t[1].is_ascii_digit()
                && t[2..].starts_with(b". [")
        })
        .filter(|l| {
            !KNOWN
                .iter()
                .any(|(known, _reason)| l.contains(&format!(", like {known}]")))
        })
        .collect();
    assert!(
        new_classes.is_empty(),
        "the fuzz smoke found crashes (reproducers under {}):\n  {}",
        out.join("crashes").display(),
        new_classes.join("\n  ")
    );
    // Every tool ran.
    for tool in ["opt", "translate", "run"] {
        assert!(
            report
                .lines()
                .any(|l| l.trim_start().starts_with(tool) && l.contains(" inputs,")),
            "no runs of {tool} in the report"
        );
    }
}

/// Writes `text` to a fresh file under the test's temporary directory.
fn input(name: &str, text: &str) -> std::path::PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).expect("write the input");
    path
}

/// `apipe-fuzz replay FILE --target run:modes ARGS`: (success, stdout).
fn replay(file: &Path, args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_apipe-fuzz"))
        .arg("replay")
        .arg(file)
        .args(["--target", "run:modes"])
        .args(args)
        .output()
        .expect("run apipe-fuzz");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// The time limit is CPU time: a run that waits (here it sleeps 2.5 s, as
/// a run waits for a core on a loaded machine) is not a timeout under a
/// limit of 1 s; one that computes past the limit is stopped there; the
/// wall-time guard still stops a run that waits too long.
#[test]
fn the_time_limit_is_cpu_time() {
    let sleep = |microseconds: u32| {
        format!(
            "func.func private @usleep(i32) -> i32\n\
             func.func @main() {{\n\
               %t = arith.constant {microseconds} : i32\n\
               %r = func.call @usleep(%t) : (i32) -> i32\n\
               return\n\
             }}\n"
        )
    };
    let waits = input("sleeps-2.5s.mlir", &sleep(2_500_000));
    let (ok, report) = replay(&waits, &["--timeout", "1", "--wall-timeout", "30"]);
    assert!(ok && report.contains(": exit 0 in "), "{report}");

    let hangs = input("sleeps-40s.mlir", &sleep(40_000_000));
    let (ok, report) = replay(&hangs, &["--timeout", "1", "--wall-timeout", "3"]);
    assert!(!ok && report.contains(": timeout in "), "{report}");

    // 10^11 iterations: about 2 s of CPU each time, then stopped.
    let computes = input(
        "computes.mlir",
        "func.func private @printI64(i64)\n\
         func.func @main() {\n\
           %c0 = arith.constant 0 : i64\n\
           %c1 = arith.constant 1 : i64\n\
           %n = arith.constant 100000000000 : i64\n\
           %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (i64) : i64 {\n\
             %b = arith.muli %a, %i : i64\n\
             %c = arith.addi %b, %c1 : i64\n\
             scf.yield %c : i64\n\
           }\n\
           func.call @printI64(%s) : (i64) -> ()\n\
           return\n\
         }\n",
    );
    let (_, report) = replay(
        &computes,
        &[
            "--timeout",
            "2",
            "--design-timeout",
            "2",
            "--wall-timeout",
            "120",
        ],
    );
    let seconds: f64 = report
        .split(": timeout in ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not stopped at its CPU limit: {report}"));
    assert!(seconds >= 2.0, "stopped before 2 s of CPU: {report}");
}
