//! A last word before a crash: while a program whose tiles call a HAL's
//! shared library runs, a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE)
//! first writes which targets' libraries the call used, then kills the
//! process as the signal would have. A HAL runs in the process, as a plugin
//! does, so its crash cannot be caught; it can be named.

use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

/// The signals whose default action ends the process with a core.
const FATAL: [libc::c_int; 4] = [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE];

/// The message the handler writes (leaked, so it lives as long as the
/// handler may run) and its length.
static MESSAGE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static MESSAGE_LENGTH: AtomicUsize = AtomicUsize::new(0);

extern "C" fn name_the_hal(signal: libc::c_int) {
    let message = MESSAGE.load(Ordering::Acquire);
    let length = MESSAGE_LENGTH.load(Ordering::Acquire);
    // SAFETY: write(2), signal(2) and raise(3) are async-signal-safe; the
    // message is a leaked allocation of `length` bytes, never freed.
    unsafe {
        if !message.is_null() {
            libc::write(2, message.cast(), length);
        }
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// While alive, a fatal signal writes `message` to standard error before the
/// process dies of it; dropping it puts the previous handlers back.
pub struct HalCrashGuard {
    previous: Vec<(libc::c_int, libc::sigaction)>,
}

impl HalCrashGuard {
    /// Arms the handler with `message` (one line). The message is kept for
    /// good (the handler may run at any time), once per distinct text: a
    /// program called a thousand times keeps one copy.
    pub fn arm(message: &str) -> Self {
        let current = MESSAGE.load(Ordering::Acquire);
        let length = MESSAGE_LENGTH.load(Ordering::Acquire);
        // SAFETY: a non-null MESSAGE is a leaked allocation of `length` bytes.
        let same = !current.is_null()
            && unsafe { std::slice::from_raw_parts(current, length) } == message.as_bytes();
        if !same {
            let bytes: &'static mut [u8] = Box::leak(message.as_bytes().into());
            MESSAGE.store(std::ptr::null_mut(), Ordering::Release);
            MESSAGE_LENGTH.store(bytes.len(), Ordering::Release);
            MESSAGE.store(bytes.as_mut_ptr(), Ordering::Release);
        }
        let mut previous = Vec::new();
        for signal in FATAL {
            // SAFETY: a zeroed sigaction is a valid value to fill; the
            // handler is a plain `extern "C" fn(c_int)`, and sigaction only
            // reads `action` and writes `old`, both alive for the call.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = name_the_hal as *const () as usize;
                libc::sigemptyset(&mut action.sa_mask);
                action.sa_flags = libc::SA_NODEFER | libc::SA_RESETHAND;
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, &action, &mut old) == 0 {
                    previous.push((signal, old));
                }
            }
        }
        HalCrashGuard { previous }
    }
}

impl Drop for HalCrashGuard {
    fn drop(&mut self) {
        for (signal, old) in &self.previous {
            // SAFETY: `old` is the action sigaction returned for `signal`.
            unsafe {
                libc::sigaction(*signal, old, std::ptr::null_mut());
            }
        }
    }
}
