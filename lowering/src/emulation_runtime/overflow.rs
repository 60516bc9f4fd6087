//! Stack overflow of a fiber as a run-time error, not a `SIGSEGV`.
//!
//! Every emulated thread runs on a fiber whose stack (`corosensei`'s
//! `DefaultStack`) ends in a guard page: a program that recurses too deep,
//! or a `memref.alloca` in a loop (whose frame grows each iteration),
//! touches it and faults. The JIT-compiled code probes every frame larger
//! than a page (LLVM's `"probe-stack"="inline-asm"`, which `apipe-run`
//! sets on every function, see [`PROBE_STACK_PASSTHROUGH`]), so no frame
//! steps over the guard page.
//!
//! 1. [`install`] puts a `SIGSEGV`/`SIGBUS` handler in place (once per
//!    process; again if someone replaced it), on the alternate signal stack
//!    of the OS thread (the overflowed stack cannot hold the handler's
//!    frame); [`resume`] gives each OS thread that runs fibers such a stack
//!    when it has none.
//! 2. [`resume`] resumes a fiber with its guard page and `corosensei`'s
//!    trap handler recorded as the OS thread's active fiber ([`ACTIVE`]),
//!    the previous one (the fiber that launched a kernel) restored after.
//! 3. The handler: a fault whose address lies in the active fiber's guard
//!    page is its overflow; the handler rewrites the interrupted registers
//!    so that the fiber, once the handler returns, resets its stack and
//!    returns at once (`CoroutineTrapHandler::setup_trap_handler`) after
//!    marking the overflow ([`OVERFLOWED`]); its frames are dropped, never
//!    unwound (JIT frames cannot unwind), as for a stopped fiber
//!    ([`super::context`]). Any other fault is not ours: the handler puts
//!    the previous action back and returns, so the fault repeats under it
//!    (Rust's own stack-overflow report, or death by the signal).
//! 4. [`resume`] returns [`Resumed::Overflow`]; the fiber's owner reports a
//!    located error (the entry function, or the launch and the GPU thread)
//!    and the run fails.
//!
//! Limits: an overflow inside a runtime or C library function that holds a
//! lock (`malloc`'s) leaves it held; the owner's report may then block.
//! Only Linux on x86-64 has the handler; elsewhere an overflow stays a
//! signal.

use corosensei::{stack::DefaultStack, trap::CoroutineTrapHandler, Coroutine, CoroutineResult};
use std::cell::Cell;

/// The LLVM function attribute (as an MLIR `llvm.func` `passthrough`
/// entry) that makes every frame larger than a page probe its pages in
/// order, so that an overflow always touches the guard page first.
pub const PROBE_STACK_PASSTHROUGH: (&str, &str) = ("probe-stack", "inline-asm");

/// How a [`resume`] ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Resumed<Y> {
    /// The fiber suspended with this value.
    Yield(Y),
    /// The fiber's function returned.
    Return,
    /// The fiber overflowed its stack; its frames are gone and it is done.
    Overflow,
}

/// The fiber running on an OS thread: its trap handler (which knows its
/// stack's range, guard page included) and the page size.
#[derive(Clone, Copy)]
struct Active {
    trap: CoroutineTrapHandler<()>,
    page: usize,
}

impl Active {
    /// Whether `address` lies in the fiber's guard page: its stack's lowest
    /// page (`corosensei`'s stacks count the guard page in their range).
    fn in_guard_page(&self, address: usize) -> bool {
        self.trap.stack_ptr_in_bounds(address)
            && !self
                .trap
                .stack_ptr_in_bounds(address.saturating_sub(self.page))
    }
}

thread_local! {
    /// The fiber running on this OS thread, read by the signal handler
    /// (a const-initialized thread-local without destructor: no lazy
    /// initialization, safe to read in a handler).
    static ACTIVE: Cell<Option<Active>> = const { Cell::new(None) };
    /// Set by an overflowed fiber on its way out; read by [`resume`].
    static OVERFLOWED: Cell<bool> = const { Cell::new(false) };
    /// The alternate signal stack this OS thread got from [`resume`], if it
    /// had none.
    static ALTERNATE_STACK: AlternateStack = const { AlternateStack { base: Cell::new(0) } };
}

/// Resumes `fiber` (steps 2 and 4 of the module doc).
pub fn resume<Y>(fiber: &mut Coroutine<(), Y, (), DefaultStack>) -> Resumed<Y> {
    ensure_alternate_stack();
    let active = Active {
        trap: fiber.trap_handler(),
        page: page_size(),
    };
    let previous = ACTIVE.with(|a| a.replace(Some(active)));
    let result = fiber.resume(());
    ACTIVE.with(|a| a.set(previous));
    match result {
        CoroutineResult::Yield(y) => Resumed::Yield(y),
        CoroutineResult::Return(()) if OVERFLOWED.with(|o| o.replace(false)) => Resumed::Overflow,
        CoroutineResult::Return(()) => Resumed::Return,
    }
}

/// Bytes of a memory page.
fn page_size() -> usize {
    // SAFETY: a plain sysconf query.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size).unwrap_or(4096)
}

/// "1 GiB", "2 MiB": `bytes` for messages.
pub fn describe_bytes(bytes: usize) -> String {
    if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 30) {
        format!("{} GiB", bytes >> 30)
    } else if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
mod handler {
    use super::{ACTIVE, OVERFLOWED};
    use std::sync::Mutex;

    /// The actions installed before ours (`SIGSEGV`, `SIGBUS`).
    static PREVIOUS: Mutex<Option<[libc::sigaction; 2]>> = Mutex::new(None);
    /// A copy of [`PREVIOUS`] the handler can read without a lock.
    // SAFETY: `sigaction` is a C struct of integers, a signal set and a
    // handler field, for which all zero bytes are valid (`SIG_DFL`).
    static mut PREVIOUS_COPY: [libc::sigaction; 2] = unsafe { std::mem::zeroed() };

    const SIGNALS: [libc::c_int; 2] = [libc::SIGSEGV, libc::SIGBUS];

    /// Step 1: installs [`on_fault`] unless it is in place.
    pub fn install() {
        let Ok(mut previous) = PREVIOUS.lock() else {
            return;
        };
        // SAFETY: plain sigaction queries and installs on zeroed structs;
        // `PREVIOUS_COPY` is written under the lock while our handler is not
        // installed for the signal being written (it reads it only when
        // installed).
        unsafe {
            let mut current: libc::sigaction = std::mem::zeroed();
            libc::sigaction(libc::SIGSEGV, std::ptr::null(), &mut current);
            if current.sa_sigaction == on_fault as *const () as usize {
                return;
            }
            let mut saved: [libc::sigaction; 2] = std::mem::zeroed();
            for (i, signal) in SIGNALS.into_iter().enumerate() {
                libc::sigaction(signal, std::ptr::null(), &mut saved[i]);
                let copy = &raw mut PREVIOUS_COPY;
                (*copy)[i] = saved[i];
            }
            *previous = Some(saved);
            for signal in SIGNALS {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_fault as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    }

    /// Step 3 of the module doc.
    extern "C" fn on_fault(
        signal: libc::c_int,
        info: *mut libc::siginfo_t,
        context: *mut libc::c_void,
    ) {
        // SAFETY: the kernel passes a valid siginfo and ucontext; only
        // async-signal-safe work: thread-local reads, writes to the
        // overflowed fiber's own stack and to the interrupted registers,
        // sigaction.
        unsafe {
            let address = (*info).si_addr() as usize;
            if let Some(active) = ACTIVE.with(std::cell::Cell::get) {
                if active.in_guard_page(address) {
                    let regs = active
                        .trap
                        .setup_trap_handler(|| OVERFLOWED.with(|o| o.set(true)));
                    let context = &mut *context.cast::<libc::ucontext_t>();
                    let gregs = &mut context.uc_mcontext.gregs;
                    let corosensei::trap::TrapHandlerRegs {
                        rip,
                        rsp,
                        rbp,
                        rdi,
                        rsi,
                    } = regs;
                    gregs[libc::REG_RIP as usize] = rip as i64;
                    gregs[libc::REG_RSP as usize] = rsp as i64;
                    gregs[libc::REG_RBP as usize] = rbp as i64;
                    gregs[libc::REG_RDI as usize] = rdi as i64;
                    gregs[libc::REG_RSI as usize] = rsi as i64;
                    return;
                }
            }
            // Not an overflow of a fiber: the previous action takes over
            // when the fault repeats.
            let index = usize::from(signal == libc::SIGBUS);
            let previous = &raw const PREVIOUS_COPY;
            libc::sigaction(signal, &(*previous)[index], std::ptr::null_mut());
        }
    }
}

#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
mod handler {
    /// Step 1: no handler on this platform.
    pub fn install() {}
}

/// Step 1 of the module doc: installs the fault handler (cheap when it is
/// in place: one `sigaction` query). Call before running fibers.
pub fn install() {
    handler::install();
}

/// Bytes of the alternate signal stack [`resume`] gives an OS thread.
const ALTERNATE_STACK_BYTES: usize = 64 << 10;

/// An alternate signal stack this module mapped (`base` 0: none), unmapped
/// when its OS thread ends.
struct AlternateStack {
    base: Cell<usize>,
}

impl Drop for AlternateStack {
    fn drop(&mut self) {
        let base = self.base.get();
        if base == 0 {
            return;
        }
        // SAFETY: this thread's own alternate stack, which it no longer
        // uses (the thread is ending): disable it, then unmap it.
        unsafe {
            let mut off: libc::stack_t = std::mem::zeroed();
            off.ss_flags = libc::SS_DISABLE;
            libc::sigaltstack(&off, std::ptr::null_mut());
            libc::munmap(base as *mut libc::c_void, ALTERNATE_STACK_BYTES);
        }
    }
}

/// Gives this OS thread an alternate signal stack if it has none (Rust's
/// runtime gives one to the threads it starts; others may lack it).
fn ensure_alternate_stack() {
    ALTERNATE_STACK.with(|own| {
        if own.base.get() != 0 {
            return;
        }
        // SAFETY: sigaltstack queries and sets this thread's alternate
        // stack to a fresh mapping of ours.
        unsafe {
            let mut current: libc::stack_t = std::mem::zeroed();
            if libc::sigaltstack(std::ptr::null(), &mut current) == 0
                && current.ss_flags & libc::SS_DISABLE == 0
            {
                return;
            }
            let base = libc::mmap(
                std::ptr::null_mut(),
                ALTERNATE_STACK_BYTES,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if base == libc::MAP_FAILED {
                return;
            }
            let stack = libc::stack_t {
                ss_sp: base,
                ss_flags: 0,
                ss_size: ALTERNATE_STACK_BYTES,
            };
            if libc::sigaltstack(&stack, std::ptr::null_mut()) == 0 {
                own.base.set(base as usize);
            } else {
                libc::munmap(base, ALTERNATE_STACK_BYTES);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Recurses with a 4 KiB frame per level (kept by `black_box`).
    fn deep(level: u64) -> u64 {
        let mut frame = [0u8; 4096];
        frame[0] = level as u8;
        let frame = std::hint::black_box(frame);
        if level == 0 {
            return u64::from(frame[0]);
        }
        deep(level - 1) + u64::from(frame[4095])
    }

    #[test]
    fn an_overflowing_fiber_returns_overflow_and_the_next_runs() {
        install();
        let stack = DefaultStack::new(256 << 10).expect("a stack");
        let mut fiber: Coroutine<(), (), (), DefaultStack> =
            Coroutine::with_stack(stack, |_, ()| {
                std::hint::black_box(deep(1 << 20));
            });
        assert_eq!(resume(&mut fiber), Resumed::Overflow);
        assert!(fiber.done());
        // The handler stays in place: a second overflow is caught too, and
        // a fiber that fits runs normally.
        let stack = fiber.into_stack();
        let mut again: Coroutine<(), (), (), DefaultStack> =
            Coroutine::with_stack(stack, |_, ()| {
                std::hint::black_box(deep(1 << 20));
            });
        assert_eq!(resume(&mut again), Resumed::Overflow);
        let mut fits: Coroutine<(), u8, (), DefaultStack> =
            Coroutine::with_stack(again.into_stack(), |y, ()| {
                y.suspend(std::hint::black_box(deep(8)) as u8);
            });
        assert_eq!(resume(&mut fits), Resumed::Yield(0));
        assert_eq!(resume(&mut fits), Resumed::Return);
    }

    #[test]
    fn sizes_read_as_units() {
        assert_eq!(describe_bytes(1 << 30), "1 GiB");
        assert_eq!(describe_bytes(2 << 20), "2 MiB");
        assert_eq!(describe_bytes(64 << 10), "64 KiB");
    }
}
