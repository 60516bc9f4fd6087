//! Feeds every file of the broken-input corpus (`test/Tools/Inputs/broken/`)
//! to the tools and checks that each run ends cleanly: a normal exit (no
//! signal), exit code 0 or 1 (never 101 = Rust panic, never 134 = abort),
//! and no crash text on stderr.
//!
//! 1. `broken_inputs_exit_cleanly`: the `apipe-opt` binary, twice (plain,
//!    and with `--apipe-make-sync --split-input-file`);
//! 2. `broken_inputs_through_every_pass_and_tool`: every fuzz target
//!    (`apipe-fuzz check`: `apipe-opt` with every apipe pass alone, the
//!    pipeliner chain and the round trip, `apipe-translate --to-ptx` for
//!    sm_80 and sm_90, `apipe-run` lazy, eager and random), in forked
//!    children of one process; a failure (exit 1) must carry a located
//!    diagnostic (`file:line:col: error: `).
//!
//! The file name says what else is expected:
//! - `bad-*`: exit code exactly 1 and a located diagnostic (`: error: `),
//!   whatever the pass or tool;
//! - `ok-*`: valid input that merely looks odd: exit code 0 from
//!   `apipe-opt` alone (a pass or tool may refuse it, with a located error);
//! - `edge-*`: either outcome is acceptable, only a clean exit is required.
//!
//! All failures are collected and reported together.

use std::{
    io::{Read, Write},
    path::{Path, PathBuf},
    process::{Command, Stdio},
    thread,
    time::{Duration, Instant},
};

/// Text that only a crash prints.
const CRASH_MARKERS: [&str; 4] = ["panicked", "Assertion", "LLVM ERROR", "Stack dump"];

/// Generous: the slowest corpus file takes well under a second.
const TIMEOUT: Duration = Duration::from_secs(120);

/// The minimum corpus size the issue asks for.
const MIN_FILES: usize = 50;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Bad,
    Ok,
    Edge,
}

fn expectation(name: &str) -> Option<Expect> {
    if name.starts_with("bad-") {
        Some(Expect::Bad)
    } else if name.starts_with("ok-") {
        Some(Expect::Ok)
    } else if name.starts_with("edge-") {
        Some(Expect::Edge)
    } else {
        None
    }
}

struct Run {
    /// `None` when killed by a signal (or by the timeout).
    code: Option<i32>,
    /// A description of how the process ended, for reports.
    status: String,
    stderr: String,
    timed_out: bool,
}

fn run(binary: &Path, file: &Path, extra: &[&str]) -> Run {
    let mut child = Command::new(binary)
        .arg(file)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
    // Drain both pipes on threads so a large output cannot block the child.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = thread::spawn(move || {
        let mut sink = Vec::new();
        let _ = stdout.read_to_end(&mut sink);
    });
    let err_reader = thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stderr.read_to_end(&mut text);
        text
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > TIMEOUT => {
                timed_out = true;
                let _ = child.kill();
                break child.wait().expect("wait for killed child");
            }
            Ok(None) => thread::sleep(Duration::from_millis(5)),
            Err(e) => panic!("waiting for {}: {e}", binary.display()),
        }
    };
    let _ = out_reader.join();
    let stderr = err_reader.join().unwrap_or_default();
    Run {
        code: status.code(),
        status: status.to_string(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        timed_out,
    }
}

/// The problems of one run (empty when it is as expected).
fn check(expect: Expect, run: &Run) -> Vec<String> {
    let mut problems = Vec::new();
    if run.timed_out {
        problems.push(format!("did not finish within {}s", TIMEOUT.as_secs()));
    }
    match run.code {
        None => problems.push(format!("killed by a signal ({})", run.status)),
        Some(0 | 1) => {}
        Some(101) => problems.push("exit code 101 (Rust panic)".into()),
        Some(134) => problems.push("exit code 134 (abort)".into()),
        Some(code) => problems.push(format!("exit code {code} (expected 0 or 1)")),
    }
    for marker in CRASH_MARKERS {
        if run.stderr.contains(marker) {
            problems.push(format!("stderr contains {marker:?}"));
        }
    }
    match expect {
        Expect::Bad => {
            if run.code.is_some() && run.code != Some(1) {
                problems.push(format!("expected exit code 1, got {}", run.status));
            }
            if !run.stderr.contains(": error: ") {
                problems.push("stderr has no located diagnostic (\": error: \")".into());
            }
        }
        Expect::Ok => {
            if run.code.is_some() && run.code != Some(0) {
                problems.push(format!("expected exit code 0, got {}", run.status));
            }
        }
        Expect::Edge => {}
    }
    problems
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .join("test")
        .join("Tools")
        .join("Inputs")
        .join("broken")
}

fn first_lines(text: &str, count: usize) -> String {
    let mut lines: Vec<&str> = text.lines().take(count).collect();
    if lines.is_empty() {
        lines.push("<empty>");
    }
    lines
        .iter()
        .map(|line| {
            let mut line = line.to_string();
            if line.len() > 200 {
                let mut end = 200;
                while !line.is_char_boundary(end) {
                    end -= 1;
                }
                line.truncate(end);
                line.push_str("...");
            }
            format!("        {line}")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn broken_inputs_exit_cleanly() {
    let binary = Path::new(env!("CARGO_BIN_EXE_apipe-opt"));
    let dir = corpus_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    assert!(
        files.len() >= MIN_FILES,
        "{} holds {} .mlir files, expected at least {MIN_FILES}",
        dir.display(),
        files.len()
    );

    let modes: [(&str, &[&str]); 2] = [
        ("plain", &[]),
        (
            "--apipe-make-sync --split-input-file",
            &["--apipe-make-sync", "--split-input-file"],
        ),
    ];
    let mut failures = Vec::new();
    let mut counts = [0usize; 3];
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let Some(expect) = expectation(&name) else {
            failures.push(format!(
                "{name}: the name must start with bad-, ok- or edge-"
            ));
            continue;
        };
        counts[expect as usize] += 1;
        for (label, args) in modes {
            let run = run(binary, file, args);
            let problems = check(expect, &run);
            if !problems.is_empty() {
                failures.push(format!(
                    "{name} [{label}]: {}\n      stderr:\n{}",
                    problems.join("; "),
                    first_lines(&run.stderr, 4)
                ));
            }
        }
    }

    let [bad, ok, edge] = counts;
    let runs = files.len() * modes.len();
    // Written to the process's stderr directly (not `eprint!`, which the
    // test harness captures), so the summary shows in every `cargo test`.
    let mut stderr = std::io::stderr();
    if failures.is_empty() {
        let _ = writeln!(
            stderr,
            "broken inputs: {} files ({bad} bad, {ok} ok, {edge} edge), {runs} runs, all exited cleanly",
            files.len()
        );
    } else {
        let _ = writeln!(
            stderr,
            "broken inputs: {} files ({bad} bad, {ok} ok, {edge} edge), {runs} runs, {} failed",
            files.len(),
            failures.len()
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {runs} runs over {} did not end as expected:\n  {}",
        failures.len(),
        dir.display(),
        failures.join("\n  ")
    );
}

/// One line of `apipe-fuzz check`: file, target, ending, verdict, first
/// error line.
struct CheckLine {
    file: String,
    target: String,
    ending: String,
    verdict: String,
    first_error: String,
}

fn parse_check_line(line: &str) -> Option<CheckLine> {
    let mut fields = line.splitn(5, '\t');
    Some(CheckLine {
        file: fields.next()?.to_owned(),
        target: fields.next()?.to_owned(),
        ending: fields.next()?.to_owned(),
        verdict: fields.next()?.to_owned(),
        first_error: fields.next().unwrap_or("").to_owned(),
    })
}

/// The problems of one `check` run (empty when it is as expected).
fn check_every_target(expect: Expect, run: &CheckLine) -> Vec<String> {
    let mut problems = Vec::new();
    if run.verdict.starts_with("crash") {
        problems.push(run.verdict.clone());
    } else if run.ending != "exit 0" && run.ending != "exit 1" && run.verdict != "long-by-design" {
        problems.push(format!("ended with {} (expected exit 0 or 1)", run.ending));
    }
    if run.verdict == "refused-unlocated" {
        problems.push("exit 1 without a located diagnostic (file:line:col: error: ...)".into());
    }
    match expect {
        Expect::Bad if run.ending != "exit 1" => {
            problems.push(format!("expected exit 1, got {}", run.ending));
        }
        Expect::Ok if run.target == "opt" && run.ending != "exit 0" => {
            problems.push(format!(
                "expected exit 0 from apipe-opt alone, got {}",
                run.ending
            ));
        }
        _ => {}
    }
    problems
}

#[test]
fn broken_inputs_through_every_pass_and_tool() {
    let fuzz = Path::new(env!("CARGO_BIN_EXE_apipe-fuzz"));
    let dir = corpus_dir();
    let targets = Command::new(fuzz)
        .arg("targets")
        .output()
        .expect("run apipe-fuzz targets");
    let target_names: Vec<String> = String::from_utf8_lossy(&targets.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect();
    assert!(
        target_names.len() >= 19,
        "apipe-fuzz lists {} targets",
        target_names.len()
    );
    let output = Command::new(fuzz)
        .arg("check")
        .arg(&dir)
        .stdin(Stdio::null())
        .output()
        .expect("run apipe-fuzz check");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let runs: Vec<CheckLine> = stdout.lines().filter_map(parse_check_line).collect();
    let mut failures = Vec::new();
    let mut files = std::collections::BTreeMap::<String, Vec<String>>::new();
    for run in &runs {
        let name = Path::new(&run.file)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        files
            .entry(name.clone())
            .or_default()
            .push(run.target.clone());
        let Some(expect) = expectation(&name) else {
            continue;
        };
        let problems = check_every_target(expect, run);
        if !problems.is_empty() {
            failures.push(format!(
                "{name} [{}]: {}\n      first error: {}",
                run.target,
                problems.join("; "),
                run.first_error
            ));
        }
    }
    // Every file went through every target.
    for (name, seen) in &files {
        for target in &target_names {
            if !seen.contains(target) {
                failures.push(format!("{name}: no run of {target}"));
            }
        }
    }
    assert!(
        files.len() >= MIN_FILES,
        "apipe-fuzz check ran {} files of {} (stderr: {})",
        files.len(),
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let mut stderr = std::io::stderr();
    let _ = writeln!(
        stderr,
        "broken inputs through every target: {} files x {} targets = {} runs, {} failed",
        files.len(),
        target_names.len(),
        runs.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} runs over {} did not end as expected:\n  {}",
        failures.len(),
        runs.len(),
        dir.display(),
        failures.join("\n  ")
    );
}
