//! What one run means: success, a clean refusal, a program that runs long
//! by its own design, or a crash, and for a crash its class and the area
//! of the code it points at.
//!
//! A crash is any of (the definition the issue tracker uses):
//! 1. an exit code other than 0 or 1 (101 is an escaped Rust panic);
//! 2. a signal (SIGSEGV, SIGABRT from `abort`, a Rust panic across
//!    `extern "C"`, glibc heap checks, LLVM fatal errors);
//! 3. a caught panic: `panicked at` or `internal error` in the output,
//!    whatever the exit code;
//! 4. an LLVM fatal error or assertion text in the output;
//! 5. running past the time limit, except under `apipe-run` for a program
//!    that may run long by its own design ([`super::work`]).
//!
//! A crash's class key is its kind and its most specific text (the panic
//! location, the fatal message, the signal and the first crash line), with
//! numbers in messages replaced by `N`, so that the same bug reached from
//! many inputs is one class.

use super::{
    exec::{Ending, Execution},
    targets::{Target, Tool},
};

/// What a run means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exit 0.
    Success,
    /// Exit 1 (a refusal); `located` when stderr holds a located error
    /// (`file:line:col: error: `).
    Refused {
        /// Whether an error names a position in the input.
        located: bool,
    },
    /// Stopped at the shorter limit: the program may run long by design.
    LongByDesign,
    /// A crash.
    Crash(Crash),
}

/// One crash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crash {
    /// `panic`, `internal error`, `fatal error`, `signal`, `exit`,
    /// `timeout`.
    pub kind: &'static str,
    /// How the process ended (`SIGSEGV`, `exit 134`, `timeout`).
    pub ending: String,
    /// The tool that crashed (`apipe-run`).
    pub tool: &'static str,
    /// The most specific text: the panic location and message, the fatal
    /// message, or the first crash line of stderr.
    pub detail: String,
}

impl Crash {
    /// The class key: kind and detail with numbers replaced by `N`
    /// (except in a panic location).
    pub fn key(&self) -> String {
        let detail = if self.kind == "panic" {
            // "file.rs:L:C: message" keeps file.rs:L.
            let (location, message) = self.detail.split_once(": ").unwrap_or((&self.detail, ""));
            let location = location.rsplit_once(':').map_or(location, |(l, _)| l);
            format!("{location}: {}", normalize(message))
        } else {
            normalize(&self.detail)
        };
        // A panic names its place in the code; other crashes are told
        // apart by the tool too (a SIGSEGV in apipe-run and one in
        // apipe-translate are different bugs).
        let place = match self.kind {
            "panic" | "internal error" => String::new(),
            "signal" => format!("{} {}", self.tool, self.ending),
            _ => self.tool.to_owned(),
        };
        format!("{} {} {}", self.kind, place, detail)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// One line for reports: `SIGSEGV: ...`.
    pub fn signature(&self) -> String {
        format!("{} ({}): {}", self.kind, self.ending, self.detail)
    }
}

/// Lines that only a crash prints, most specific first.
const CRASH_MARKERS: [&str; 14] = [
    "panicked at",
    "internal error",
    "LLVM ERROR:",
    "Assertion `",
    "UNREACHABLE executed",
    "fatal runtime error:",
    "memory allocation of",
    "has overflowed its stack",
    "malloc(): ",
    "free(): ",
    "double free",
    "corrupted ",
    "terminate called",
    "Stack dump:",
];

/// Classifies one run of `target`.
pub fn classify(target: &Target, execution: &Execution) -> Verdict {
    let stderr = &execution.stderr;
    let marker = first_marker(stderr);
    let ending = execution.ending.to_string();
    let crash = |kind: &'static str, detail: String| {
        Verdict::Crash(Crash {
            kind,
            ending: ending.clone(),
            tool: target.tool.binary(),
            detail,
        })
    };
    if let Some(detail) = panic_detail(stderr) {
        return crash("panic", detail);
    }
    if let Some(line) = stderr.lines().find(|l| l.contains("internal error")) {
        return crash("internal error", strip_location(line));
    }
    match execution.ending {
        Ending::TimedOut => {
            if target.tool == Tool::Run && execution.report.work == 2 {
                return Verdict::LongByDesign;
            }
            crash("timeout", marker.unwrap_or_else(|| "no output".to_owned()))
        }
        Ending::Signaled(_) => crash(
            "signal",
            marker
                .or_else(|| faulting_frame(stderr).map(|f| format!("at {f}")))
                .unwrap_or_else(|| last_line(stderr)),
        ),
        Ending::Exited(code) if code != 0 && code != 1 => crash(
            "exit",
            marker.unwrap_or_else(|| format!("exit code {code}: {}", last_line(stderr))),
        ),
        Ending::Exited(code) => {
            if let Some(marker) = marker {
                return crash("fatal error", marker);
            }
            if code == 0 {
                Verdict::Success
            } else {
                Verdict::Refused {
                    located: has_located_error(stderr),
                }
            }
        }
    }
}

/// Whether `stderr` holds an error with a position: `file:line:col: error: `.
pub fn has_located_error(stderr: &str) -> bool {
    stderr.lines().any(|line| is_located(line, &[": error: "]))
}

/// Whether `line` is a diagnostic of one of `kinds` (`": error: "`, ...)
/// with a position: `file:line:col<kind>message`.
fn is_located(line: &str, kinds: &[&str]) -> bool {
    kinds.iter().any(|kind| {
        let Some((position, _)) = line.split_once(kind) else {
            return false;
        };
        let mut parts = position.rsplit(':');
        let column = parts.next().unwrap_or("");
        let row = parts.next().unwrap_or("");
        !column.is_empty()
            && column.chars().all(|c| c.is_ascii_digit())
            && !row.is_empty()
            && row.chars().all(|c| c.is_ascii_digit())
    })
}

/// The frames of the backtrace a child printed at a fatal signal
/// ([`super::exec::BACKTRACE_HEADER`]) from the faulting one on (after the
/// handler and the signal trampoline), as `module(+0xOFFSET)`.
pub fn fault_frames(stderr: &str) -> Vec<String> {
    let Some(at) = stderr.find(super::exec::BACKTRACE_HEADER) else {
        return vec![];
    };
    let frames: Vec<&str> = stderr[at..]
        .lines()
        .skip(1)
        .take_while(|l| l.contains("[0x"))
        .collect();
    // Frame 0 is the handler; the trampoline (`__restore_rt`, in libc) is
    // the frame that called it.
    let start = frames
        .iter()
        .position(|f| f.contains("libc.so"))
        .map_or(1, |p| p + 1);
    frames[start.min(frames.len())..]
        .iter()
        .map(|f| {
            let frame = f.split('[').next().unwrap_or(f).trim();
            if frame.is_empty() {
                // No module: JIT-compiled code (apipe-run).
                "jit-compiled code".to_owned()
            } else {
                frame.rsplit('/').next().unwrap_or(frame).to_owned()
            }
        })
        .collect()
}

/// The faulting frame (`apipe-fuzz(+0x1a2b3c)`), if the child printed its
/// backtrace.
fn faulting_frame(stderr: &str) -> Option<String> {
    fault_frames(stderr).into_iter().next()
}

/// The source lines of the frames of `stderr`'s backtrace that lie in the
/// running executable (`addr2line`; empty when it is not installed).
pub fn symbolize(stderr: &str, most: usize) -> Vec<String> {
    let Ok(exe) = std::env::current_exe() else {
        return vec![];
    };
    let name = exe
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let offsets: Vec<String> = fault_frames(stderr)
        .iter()
        .filter(|f| f.starts_with(&format!("{name}(")))
        .filter_map(|f| {
            f.split("(+")
                .nth(1)
                .map(|o| o.trim_end_matches(')').to_owned())
        })
        .take(most)
        .collect();
    if offsets.is_empty() {
        return vec![];
    }
    let output = std::process::Command::new("addr2line")
        .arg("-e")
        .arg(&exe)
        .args(["-f", "-C", "-p"])
        .args(&offsets)
        .output();
    match output {
        Ok(output) => String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(str::to_owned)
            .collect(),
        Err(_) => vec![],
    }
}

/// `file:L:C: message` of the first Rust panic in `stderr`.
fn panic_detail(stderr: &str) -> Option<String> {
    let at = stderr.find("panicked at ")?;
    let rest = &stderr[at + "panicked at ".len()..];
    let mut lines = rest.lines();
    let location = lines.next()?.trim_end_matches(':').to_owned();
    let message = lines.next().unwrap_or("").trim();
    Some(format!("{location}: {message}"))
}

/// The first line with a crash marker, by marker. Located diagnostics are
/// the tools' own reports, not crashes, even when their text names one
/// (apipe-run's "'memref.dealloc' of a buffer that is already freed
/// (double free)"); a caught panic ("internal error") is found before this.
fn first_marker(stderr: &str) -> Option<String> {
    const DIAGNOSTICS: [&str; 4] = [": error: ", ": warning: ", ": note: ", ": remark: "];
    for marker in CRASH_MARKERS {
        if let Some(line) = stderr
            .lines()
            .find(|l| l.contains(marker) && !is_located(l, &DIAGNOSTICS))
        {
            return Some(line.trim().chars().take(200).collect());
        }
    }
    None
}

fn last_line(stderr: &str) -> String {
    stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(|l| strip_location(l).chars().take(200).collect())
        .unwrap_or_else(|| "no output".to_owned())
}

/// `message` of `file:line:col: error: message`.
fn strip_location(line: &str) -> String {
    for kind in [": error: ", ": warning: ", ": note: "] {
        if let Some((_, message)) = line.split_once(kind) {
            return message.trim().to_owned();
        }
    }
    line.trim().to_owned()
}

/// `text` with digit runs replaced by `N` and hex addresses by `0xN`.
pub fn normalize(text: &str) -> String {
    let mut out = String::new();
    let mut previous_digit = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '0' && chars.peek() == Some(&'x') {
            chars.next();
            while chars.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                chars.next();
            }
            out.push_str("0xN");
            previous_digit = false;
            continue;
        }
        if c.is_ascii_digit() {
            if !previous_digit {
                out.push('N');
            }
            previous_digit = true;
        } else {
            out.push(c);
            previous_digit = false;
        }
    }
    out.chars().take(160).collect()
}

/// The area of the code a crash points at (who fixes it), and the known
/// class of the reproducers it looks like, if any. A best guess
/// for routing, from the crash text, the target and the input.
pub fn route(crash: &Crash, target: &Target, input: &str) -> (&'static str, Option<&'static str>) {
    let detail = crash.detail.as_str();
    let path_owner = |text: &str| -> Option<&'static str> {
        if [
            "software_pipeline",
            "counting_to_tokens",
            "tokens_to_counting",
            "group_distance",
            "token_values",
        ]
        .iter()
        .any(|p| text.contains(p))
        {
            Some("legal")
        } else if text.contains("check_hazards") {
            Some("hazard")
        } else if text.contains("emulation_runtime") || text.contains("to_emulation") {
            Some("emu")
        } else {
            None
        }
    };
    if crash.kind == "panic" || crash.kind == "internal error" {
        let owner = path_owner(detail).or_else(|| {
            let pass = detail.split('\'').nth(1).unwrap_or("");
            match pass {
                "apipe-software-pipeline"
                | "apipe-counting-to-tokens"
                | "apipe-tokens-to-counting" => Some("legal"),
                "apipe-check-hazards" => Some("hazard"),
                "apipe-to-emulation" => Some("emu"),
                _ => None,
            }
        });
        let known = if detail.contains("no value for") {
            Some("crash_01")
        } else if detail.contains("a memref root") {
            Some("check-hazards unranked memref")
        } else if detail.contains("capacity overflow") {
            Some("crash_04-06")
        } else {
            None
        };
        let owner = owner.or((target.tool == Tool::Run).then_some("emu"));
        return (owner.unwrap_or("fuzz"), known);
    }
    match target.tool {
        Tool::Run => {
            let known = if detail.contains("capacity overflow")
                || detail.contains("memory allocation of")
            {
                Some("crash_04-06")
            } else if detail.contains("overflowed its stack") || detail.contains("stack overflow") {
                Some("crash_07")
            } else if crash.kind == "signal" {
                Some("crash_08")
            } else if crash.kind == "timeout" {
                // A hang of a program with little work: out-of-bounds
                // accesses (crash_08) or a non-positive step (crash_09).
                Some("crash_08/09")
            } else {
                None
            };
            ("emu", known)
        }
        Tool::Translate if crash.kind == "signal" && apipe_op_in_gpu_module_body(input) => {
            ("legal", Some("crash_02"))
        }
        _ => ("fuzz", None),
    }
}

/// The area of a crash that `apipe-opt` alone (parse and verify) has too:
/// a panic names its code (the verifier); a signal without one is the
/// parser's (upstream MLIR 22 aborts after some parse errors: the issue's
/// `crash_03`).
pub fn route_parse_level(crash: &Crash) -> (&'static str, Option<&'static str>) {
    match crash.kind {
        "panic" | "internal error" => ("fuzz", None),
        _ => ("legal", Some("crash_03")),
    }
}

/// Whether an apipe op sits directly in a `gpu.module` body (the shape of
/// the issue's `crash_02`).
fn apipe_op_in_gpu_module_body(input: &str) -> bool {
    let lines: Vec<String> = input.lines().map(str::to_owned).collect();
    let depth = super::text::depths(&lines);
    let mut module_depth = None;
    for (index, line) in lines.iter().enumerate() {
        let name = super::text::op_name(line);
        if name == "gpu.module" {
            module_depth = Some(depth[index].1);
        } else if let Some(d) = module_depth {
            if depth[index].0 < d {
                module_depth = None;
            } else if depth[index].0 == d && name.starts_with("apipe.") {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::exec::Report;
    use std::time::Duration;

    fn run(ending: Ending, stderr: &str, work: u8) -> Execution {
        Execution {
            ending,
            stderr: stderr.to_owned(),
            report: Report { parsed: 2, work },
            elapsed: Duration::ZERO,
            cpu: Duration::ZERO,
        }
    }

    #[test]
    fn a_located_diagnostic_naming_a_crash_is_a_refusal() {
        let stderr = "in.mlir:21:7: error: 'memref.dealloc' of a buffer that is already freed \
                      (double free)\nin.mlir:16:14: note: the buffer was allocated here\n";
        let verdict = classify(&target("run:modes"), &run(Ending::Exited(1), stderr, 0));
        assert!(
            matches!(verdict, Verdict::Refused { located: true }),
            "{verdict:?}"
        );
        // The same text from glibc, not located, is a crash.
        let glibc = "free(): double free detected in tcache 2\n";
        let verdict = classify(&target("run:modes"), &run(Ending::Exited(1), glibc, 0));
        assert!(matches!(verdict, Verdict::Crash(_)), "{verdict:?}");
    }

    fn target(name: &str) -> Target {
        super::super::targets::all()
            .into_iter()
            .find(|t| t.name == name)
            .unwrap()
    }

    #[test]
    fn crashes_and_refusals() {
        let opt = target("opt:apipe-software-pipeline");
        assert_eq!(
            classify(&opt, &run(Ending::Exited(0), "", 0)),
            Verdict::Success
        );
        assert_eq!(
            classify(&opt, &run(Ending::Exited(1), "x.mlir:3:5: error: bad\n", 0)),
            Verdict::Refused { located: true }
        );
        assert_eq!(
            classify(&opt, &run(Ending::Exited(1), "error: bad flag\n", 0)),
            Verdict::Refused { located: false }
        );
        let panic = "thread '<unnamed>' panicked at passes/src/software_pipeline.rs:615:32:\nno value for 0x5a4 at Absolute(0)\nx.mlir:1:1: error: internal error in pass 'apipe-software-pipeline'; please report it\n";
        let Verdict::Crash(crash) = classify(&opt, &run(Ending::Exited(1), panic, 0)) else {
            panic!("a caught panic is a crash")
        };
        assert_eq!(
            crash.key(),
            "panic passes/src/software_pipeline.rs:615: no value for 0xN at Absolute(N)"
        );
        assert_eq!(route(&crash, &opt, ""), ("legal", Some("crash_01")));
        let Verdict::Crash(crash) = classify(&opt, &run(Ending::Signaled(libc::SIGSEGV), "", 0))
        else {
            panic!("a signal is a crash")
        };
        assert_eq!(crash.key(), "signal apipe-opt SIGSEGV no output");
        assert!(matches!(
            classify(&opt, &run(Ending::Exited(134), "", 0)),
            Verdict::Crash(_)
        ));
        assert!(matches!(
            classify(
                &opt,
                &run(Ending::Exited(1), "LLVM ERROR: out of memory\n", 0)
            ),
            Verdict::Crash(_)
        ));
    }

    #[test]
    fn backtraces_give_the_faulting_frame() {
        let stderr = "noise\napipe-fuzz: fatal signal; backtrace:\n/x/apipe-fuzz(+0x10)[0x5510]\n/lib/x86_64-linux-gnu/libc.so.6(+0x3c050)[0x7f00]\n/x/apipe-fuzz(+0xabc)[0x5abc]\n/x/apipe-fuzz(+0xdef)[0x5def]\n[0x7f3b44e61013]\n";
        assert_eq!(
            fault_frames(stderr),
            vec![
                "apipe-fuzz(+0xabc)",
                "apipe-fuzz(+0xdef)",
                "jit-compiled code"
            ]
        );
        let opt = target("opt");
        let Verdict::Crash(crash) =
            classify(&opt, &run(Ending::Signaled(libc::SIGSEGV), stderr, 0))
        else {
            panic!("a signal is a crash")
        };
        assert_eq!(crash.detail, "at apipe-fuzz(+0xabc)");
    }

    #[test]
    fn timeouts_by_design_are_not_crashes() {
        let run_target = target("run:modes");
        assert_eq!(
            classify(&run_target, &run(Ending::TimedOut, "", 2)),
            Verdict::LongByDesign
        );
        assert!(matches!(
            classify(&run_target, &run(Ending::TimedOut, "", 1)),
            Verdict::Crash(_)
        ));
        assert!(matches!(
            classify(&target("opt"), &run(Ending::TimedOut, "", 2)),
            Verdict::Crash(_)
        ));
    }

    #[test]
    fn apipe_ops_in_gpu_module_bodies_are_recognised() {
        assert!(apipe_op_in_gpu_module_body(
            "gpu.module @k {\n  \"apipe.commit_group\"() : () -> ()\n}\n"
        ));
        assert!(!apipe_op_in_gpu_module_body(
            "gpu.module @k {\n  gpu.func @f() kernel {\n    \"apipe.commit_group\"() : () -> ()\n    gpu.return\n  }\n}\n"
        ));
    }
}
