//! The fork server: runs a tool's logic in a forked child of the driver,
//! so that each input costs a `fork` instead of starting a 250 MB binary.
//!
//! 1. the driver (single-threaded, so `fork` is safe) prepares what every
//!    run shares once: the pass registrations ([`crate::register_passes`]);
//! 2. for each input, [`Pool::start`] forks a child that points stdin and
//!    stdout at `/dev/null` (or a file), stderr at a per-slot scratch file,
//!    disables core dumps, caps its address space, arms `alarm` as a
//!    backstop, runs the tool on a thread with [`crate::STACK_BYTES`] of
//!    stack (as [`crate::run_tool`] does), writes what it learnt into a
//!    page shared with the driver ([`Report`]) and exits with the tool's
//!    code (`_exit`, after flushing stdio);
//! 3. [`Pool::wait`] waits on the children's pidfds, kills a child whose
//!    CPU time (user + system, all its threads: the kernel's process CPU
//!    clock, `clock_getcpuclockid`) passes its limit, or whose wall time
//!    passes the generous wall limit (a hang that does not burn CPU), and
//!    returns each child's [`Ending`], stderr and CPU time (`wait4`).
//!    CPU time, not wall time: on a loaded machine a child waits for a
//!    core, and a wall limit would report false timeouts.
//!
//! Up to `jobs` children run at once, one per slot.

use std::{
    ffi::CString,
    io::Write,
    os::fd::{AsRawFd, FromRawFd, OwnedFd},
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

/// How a child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ending {
    /// A normal exit with this code.
    Exited(i32),
    /// Killed by this signal (not by the driver's timeout).
    Signaled(i32),
    /// Still running at the timeout; the driver killed it.
    TimedOut,
}

impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ending::Exited(code) => write!(f, "exit {code}"),
            Ending::Signaled(signal) => write!(f, "{}", signal_name(*signal)),
            Ending::TimedOut => write!(f, "timeout"),
        }
    }
}

/// The name of a signal number (`SIGSEGV`), or `signal N`.
pub fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGSYS => "SIGSYS",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGTERM => "SIGTERM",
        _ => return format!("signal {signal}"),
    };
    name.to_owned()
}

/// What a child tells the driver through its shared page before it exits
/// normally (a child that crashes leaves it as it was: `parsed` unknown).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Report {
    /// Whether the tool's parse of the input succeeded: 0 unknown (the tool
    /// did not parse, or the child crashed), 1 failed, 2 succeeded.
    pub parsed: u8,
    /// For `apipe-run`, written before the tool starts: 0 unknown, 1 the
    /// program's work is small, 2 it may run long by design
    /// ([`super::work`]). Such a child is stopped at the shorter
    /// [`Limits::design_timeout`].
    pub work: u8,
}

/// The end of one run.
#[derive(Clone, Debug)]
pub struct Execution {
    /// How the child ended.
    pub ending: Ending,
    /// Its stderr (at most [`STDERR_LIMIT`] bytes, lossy UTF-8).
    pub stderr: String,
    /// What it reported ([`Report`]).
    pub report: Report,
    /// Wall time from fork to the end.
    pub elapsed: Duration,
    /// CPU time of the child, user + system, all threads (`wait4`).
    pub cpu: Duration,
}

/// The most stderr bytes kept per run.
pub const STDERR_LIMIT: usize = 64 * 1024;

/// Limits of every child.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// CPU time (user + system, all threads) after which the driver kills
    /// the child.
    pub timeout: Duration,
    /// CPU time after which the driver kills a child whose [`Report`]
    /// says it may run long by design.
    pub design_timeout: Duration,
    /// Wall time after which the driver kills any child (the second
    /// guard, for a child that hangs without using CPU); well above
    /// `timeout`, so that load alone does not reach it.
    pub wall_timeout: Duration,
    /// `RLIMIT_AS` of the child in bytes (0: unlimited).
    pub address_space: u64,
}

/// Where a child's stdout goes.
#[derive(Clone, Debug)]
pub enum Stdout {
    /// `/dev/null`.
    Discard,
    /// This file (created or truncated).
    File(PathBuf),
}

struct Slot {
    stderr_path: PathBuf,
    page: *mut Report,
    running: Option<Running>,
}

struct Running {
    pid: libc::pid_t,
    pidfd: OwnedFd,
    started: Instant,
    tag: usize,
}

/// Up to `jobs` forked children at once.
pub struct Pool {
    slots: Vec<Slot>,
    limits: Limits,
    dev_null: CString,
}

impl Pool {
    /// A pool of `jobs` slots whose scratch files live in `scratch` (best on
    /// a tmpfs such as `/dev/shm`).
    ///
    /// # Errors
    /// The scratch directory or a shared page cannot be created.
    pub fn new(jobs: usize, scratch: &Path, limits: Limits) -> std::io::Result<Self> {
        std::fs::create_dir_all(scratch)?;
        let mut slots = Vec::new();
        for index in 0..jobs.max(1) {
            // SAFETY: an anonymous shared mapping, checked for failure; it
            // lives as long as the process (the pool is never unmapped while
            // children may write to it).
            let page = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    4096,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if page == libc::MAP_FAILED {
                return Err(std::io::Error::last_os_error());
            }
            slots.push(Slot {
                stderr_path: scratch.join(format!("stderr-{index}")),
                page: page.cast(),
                running: None,
            });
        }
        Ok(Self {
            slots,
            limits,
            dev_null: CString::new("/dev/null").unwrap(),
        })
    }

    /// Whether a slot is free.
    pub fn has_free_slot(&self) -> bool {
        self.slots.iter().any(|s| s.running.is_none())
    }

    /// Whether any child runs.
    pub fn is_busy(&self) -> bool {
        self.slots.iter().any(|s| s.running.is_some())
    }

    /// Forks a child that runs `body` and exits with its result; `tag`
    /// comes back with the child's [`Execution`]. `body` runs on a thread
    /// with [`crate::STACK_BYTES`] of stack; it may write the child's
    /// [`Report`].
    ///
    /// # Errors
    /// No slot is free, or `fork` fails.
    ///
    /// # Panics
    /// Never in the driver; the child exits.
    pub fn start(
        &mut self,
        tag: usize,
        stdout: &Stdout,
        body: impl FnOnce(&mut Report) -> i32,
    ) -> std::io::Result<()> {
        let Some(index) = self.slots.iter().position(|s| s.running.is_none()) else {
            return Err(std::io::Error::other("no free slot"));
        };
        let stderr_path =
            CString::new(self.slots[index].stderr_path.as_os_str().as_encoded_bytes())
                .map_err(std::io::Error::other)?;
        let stdout_path = match stdout {
            Stdout::Discard => self.dev_null.clone(),
            Stdout::File(path) => {
                CString::new(path.as_os_str().as_encoded_bytes()).map_err(std::io::Error::other)?
            }
        };
        let page = self.slots[index].page;
        // SAFETY: the page is a live shared mapping of at least one Report.
        unsafe { page.write(Report::default()) };
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
        // SAFETY: the driver is single-threaded when it forks (it never
        // starts threads), so the child may run arbitrary code.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(std::io::Error::last_os_error());
        }
        if pid == 0 {
            // The child: never returns.
            child(
                &self.dev_null,
                &stdout_path,
                &stderr_path,
                self.limits,
                page,
                body,
            );
        }
        // SAFETY: pidfd_open on our own child; the result is checked.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) } as i32;
        if fd < 0 {
            let error = std::io::Error::last_os_error();
            // SAFETY: our child; reap it so it does not linger.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, std::ptr::null_mut(), 0);
            }
            return Err(error);
        }
        self.slots[index].running = Some(Running {
            pid,
            // SAFETY: a fresh descriptor we own.
            pidfd: unsafe { OwnedFd::from_raw_fd(fd) },
            started: Instant::now(),
            tag,
        });
        Ok(())
    }

    /// The CPU-time limit of the child in `slot`, by what it reported so
    /// far.
    fn limit(&self, slot: &Slot) -> Duration {
        // SAFETY: the page is live; the child writes the byte once, and a
        // torn read of one byte cannot happen.
        let work = unsafe { std::ptr::read_volatile(&(*slot.page).work) };
        if work == 2 {
            self.limits.design_timeout.min(self.limits.timeout)
        } else {
            self.limits.timeout
        }
    }

    /// Waits until at least one child ends (or is killed at the timeout)
    /// and returns the ended children with their tags. Empty if none runs.
    pub fn wait(&mut self) -> Vec<(usize, Execution)> {
        let mut done = Vec::new();
        while self.is_busy() && done.is_empty() {
            let now = Instant::now();
            let mut fds = Vec::new();
            let mut owners = Vec::new();
            let mut wait_ms = i32::MAX;
            for (index, slot) in self.slots.iter().enumerate() {
                if let Some(running) = &slot.running {
                    fds.push(libc::pollfd {
                        fd: running.pidfd.as_raw_fd(),
                        events: libc::POLLIN,
                        revents: 0,
                    });
                    owners.push(index);
                    let left = self
                        .limits
                        .wall_timeout
                        .saturating_sub(now - running.started);
                    wait_ms = wait_ms.min(left.as_millis().min(i32::MAX as u128) as i32 + 1);
                }
            }
            // Wake up now and then: CPU time cannot be waited for, and a
            // child may report a shorter limit. A child ends at most this
            // much CPU time past its limit.
            wait_ms = wait_ms.min(100);
            // SAFETY: `fds` is a live array of `fds.len()` pollfds.
            let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as _, wait_ms) };
            if ready < 0 {
                let error = std::io::Error::last_os_error();
                if error.kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                panic!("poll on child pidfds failed: {error}");
            }
            for (fd, &index) in fds.iter().zip(&owners) {
                let running = self.slots[index].running.as_ref().unwrap();
                let over = fd.revents == 0
                    && (running.started.elapsed() >= self.limits.wall_timeout
                        || process_cpu_time(running.pid)
                            .is_some_and(|cpu| cpu >= self.limit(&self.slots[index])));
                if fd.revents == 0 && !over {
                    continue;
                }
                let running = self.slots[index].running.take().unwrap();
                let timed_out = fd.revents == 0;
                if timed_out {
                    // SAFETY: our child, not yet reaped.
                    unsafe { libc::kill(running.pid, libc::SIGKILL) };
                }
                let mut status = 0;
                // SAFETY: a zeroed rusage is a valid value to overwrite.
                let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
                // SAFETY: our child; blocks only until it is reaped.
                unsafe { libc::wait4(running.pid, &mut status, 0, &mut usage) };
                let elapsed = running.started.elapsed();
                let cpu = duration(usage.ru_utime) + duration(usage.ru_stime);
                let backstop = [libc::SIGALRM, libc::SIGXCPU];
                let ending = if timed_out {
                    Ending::TimedOut
                } else if libc::WIFEXITED(status) {
                    Ending::Exited(libc::WEXITSTATUS(status))
                } else if libc::WIFSIGNALED(status) && backstop.contains(&libc::WTERMSIG(status)) {
                    // The child's own backstops (wall alarm, CPU rlimit).
                    Ending::TimedOut
                } else if libc::WIFSIGNALED(status) {
                    Ending::Signaled(libc::WTERMSIG(status))
                } else {
                    Ending::Signaled(0)
                };
                let slot = &self.slots[index];
                // SAFETY: the child has ended; nobody writes the page now.
                let report = unsafe { slot.page.read() };
                let stderr = read_capped(&slot.stderr_path);
                done.push((
                    running.tag,
                    Execution {
                        ending,
                        stderr,
                        report,
                        elapsed,
                        cpu,
                    },
                ));
            }
        }
        done
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for slot in &mut self.slots {
            if let Some(running) = slot.running.take() {
                // SAFETY: our child, not yet reaped.
                unsafe {
                    libc::kill(running.pid, libc::SIGKILL);
                    libc::waitpid(running.pid, std::ptr::null_mut(), 0);
                }
            }
            let _ = std::fs::remove_file(&slot.stderr_path);
        }
    }
}

/// The CPU time (user + system, all threads) that the live or unreaped
/// child `pid` has used so far: its process CPU clock. `None` if the clock
/// cannot be read.
fn process_cpu_time(pid: libc::pid_t) -> Option<Duration> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: plain calls with live out-pointers; failures are checked.
    unsafe {
        if libc::clock_getcpuclockid(pid, &mut clock) != 0 {
            return None;
        }
        let mut now: libc::timespec = std::mem::zeroed();
        if libc::clock_gettime(clock, &mut now) != 0 {
            return None;
        }
        Some(Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
    }
}

/// A `timeval` as a duration.
fn duration(time: libc::timeval) -> Duration {
    Duration::new(time.tv_sec.max(0) as u64, time.tv_usec.max(0) as u32 * 1000)
}

fn read_capped(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_default();
    let end = bytes.len().min(STDERR_LIMIT);
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// The child's side of [`Pool::start`]. Never returns.
fn child(
    dev_null: &CString,
    stdout: &CString,
    stderr: &CString,
    limits: Limits,
    page: *mut Report,
    body: impl FnOnce(&mut Report) -> i32,
) -> ! {
    // SAFETY: plain system calls on paths and descriptors of this process;
    // failures end the child with a code the driver reports.
    unsafe {
        let no_core = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::setrlimit(libc::RLIMIT_CORE, &no_core);
        if limits.address_space > 0 {
            let cap = libc::rlimit {
                rlim_cur: limits.address_space,
                rlim_max: limits.address_space,
            };
            libc::setrlimit(libc::RLIMIT_AS, &cap);
        }
        let input = libc::open(dev_null.as_ptr(), libc::O_RDONLY);
        let output = libc::open(
            stdout.as_ptr(),
            libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC,
            0o644,
        );
        let errors = libc::open(
            stderr.as_ptr(),
            libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC,
            0o644,
        );
        if input < 0 || output < 0 || errors < 0 {
            libc::_exit(125);
        }
        libc::dup2(input, 0);
        libc::dup2(output, 1);
        libc::dup2(errors, 2);
        libc::close(input);
        libc::close(output);
        libc::close(errors);
        // Backstops in case the driver dies: the child never outlives its
        // wall limit nor its CPU limit by much (SIGALRM, SIGXCPU).
        libc::alarm(limits.wall_timeout.as_secs() as u32 + 5);
        let cpu_seconds = limits.timeout.as_secs() + 2;
        let cpu = libc::rlimit {
            rlim_cur: cpu_seconds,
            rlim_max: cpu_seconds + 3,
        };
        libc::setrlimit(libc::RLIMIT_CPU, &cpu);
        install_backtrace_on_fatal_signals();
    }
    let page = page as usize;
    let body = AssertSend(body);
    let code = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(crate::STACK_BYTES)
            .spawn_scoped(scope, move || {
                let body = body;
                // SAFETY: the shared page holds one Report; only this child
                // writes it while it runs.
                let report = unsafe { &mut *(page as *mut Report) };
                (body.0)(report)
            })
            .map(|thread| thread.join().unwrap_or(101))
            .unwrap_or(125)
    });
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: flushes C stdio (JIT-compiled programs print through it),
    // then ends the child without the static destructors of the driver's
    // image (LLVM's command-line options, ...): they cost a tenth of a
    // run and belong to no tool logic.
    unsafe {
        libc::fflush(std::ptr::null_mut());
        libc::_exit(code)
    }
}

/// Moves the child's body to the thread that runs it. The child has no
/// other thread that could touch what the body holds: the spawning thread
/// only waits for it.
struct AssertSend<T>(T);

// SAFETY: see the type's comment; the value is used by one thread at a
// time.
unsafe impl<T> Send for AssertSend<T> {}

unsafe extern "C" {
    /// glibc `backtrace(3)`.
    fn backtrace(buffer: *mut *mut libc::c_void, size: libc::c_int) -> libc::c_int;
    /// glibc `backtrace_symbols_fd(3)`: one `module(+offset) [address]` line
    /// per frame, without allocating (safe in a signal handler).
    fn backtrace_symbols_fd(buffer: *const *mut libc::c_void, size: libc::c_int, fd: libc::c_int);
}

/// The line a child prints before the frames of a fatal signal.
pub const BACKTRACE_HEADER: &str = "apipe-fuzz: fatal signal; backtrace:";

/// The signals whose backtrace a child prints.
const FATAL_SIGNALS: [libc::c_int; 5] = [
    libc::SIGSEGV,
    libc::SIGBUS,
    libc::SIGILL,
    libc::SIGFPE,
    libc::SIGABRT,
];

/// The actions that were installed before ours, per signal number.
// SAFETY: `sigaction` is a C struct of integers, a signal set and a handler
// field, for which all zero bytes are valid (`SIG_DFL`).
static mut PREVIOUS: [libc::sigaction; 32] = unsafe { std::mem::zeroed() };

/// In the child: on a fatal signal, print the raw backtrace to stderr
/// ([`BACKTRACE_HEADER`], then `backtrace_symbols_fd` lines), then give
/// the signal to the action installed before (Rust's stack-overflow
/// report, or the default), so the child ends as the tool would.
///
/// # Safety
/// Call once, in the single-threaded child, before the tool runs.
unsafe fn install_backtrace_on_fatal_signals() {
    // `backtrace` loads libgcc's unwinder on first use: do it now, not in
    // the handler.
    let mut warm = [std::ptr::null_mut(); 4];
    // SAFETY: a live buffer of 4 frames.
    unsafe { backtrace(warm.as_mut_ptr(), 4) };
    for signal in FATAL_SIGNALS {
        // SAFETY: plain sigaction calls on a zeroed struct; the handler is
        // async-signal-safe (write, backtrace after warm-up,
        // backtrace_symbols_fd, sigaction).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = report_fatal_signal as *const () as usize;
            action.sa_flags = libc::SA_ONSTACK;
            libc::sigemptyset(&mut action.sa_mask);
            let previous = &raw mut PREVIOUS[signal as usize];
            libc::sigaction(signal, &action, previous);
        }
    }
}

extern "C" fn report_fatal_signal(signal: libc::c_int) {
    const LINE: &[u8] = b"\napipe-fuzz: fatal signal; backtrace:\n";
    // SAFETY: async-signal-safe calls only; `PREVIOUS` was written before
    // any handler could run.
    unsafe {
        libc::write(2, LINE.as_ptr().cast(), LINE.len());
        let mut frames = [std::ptr::null_mut(); 48];
        let count = backtrace(frames.as_mut_ptr(), 48);
        backtrace_symbols_fd(frames.as_ptr(), count, 2);
        // Hand over: the fault repeats (or abort re-raises) under the
        // previous action.
        libc::sigaction(
            signal,
            &raw const PREVIOUS[signal as usize],
            std::ptr::null_mut(),
        );
    }
}
