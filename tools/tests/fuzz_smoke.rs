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
/// plus one run's time limit (10 s).
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
