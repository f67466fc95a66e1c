//! A compiled program called with the GIL released, so other Python threads
//! run meanwhile: the crate's only `unsafe`.
//!
//! `Python::detach` takes only `Send` closures: PyO3's stand-in for "holds
//! no Python object", although it runs the closure on the calling thread
//! before it returns. A compiled program is not `Send` (its JIT engine and
//! its accelerators' contexts are raw pointers), and need not be: it never
//! leaves this thread.

use pyo3::Python;
use runner::call::Argument;
use runner::jit::Program;

/// Calls `program` on `arguments`, writing `results`' bytes, with the GIL
/// released.
pub(crate) fn call(
    py: Python<'_>,
    program: &Program,
    arguments: &mut [Argument<'_>],
    results: &mut [&mut [u8]],
) -> Result<(), String> {
    let call = OnThisThread(move || {
        program
            .call_lent(arguments, results)
            .map_err(|error| error.to_string())
    });
    py.detach(move || call.run())
}

/// A closure that `detach` runs on the thread that made it.
struct OnThisThread<F>(F);

// SAFETY: the only value of this type is made in `call`, around a closure
// that holds the program, its arguments' and results' bytes (memory of numpy
// arrays among them, whose owners the caller holds until it returns) and no
// Python object, and handed to
// `Python::detach`, which runs it on this same thread before returning: it
// is never sent to another thread, which is what `Send` guards against.
unsafe impl<F> Send for OnThisThread<F> {}

impl<F: FnOnce() -> T, T> OnThisThread<F> {
    /// Runs the closure (a method, so the closure given to `detach`
    /// captures the whole wrapper, not its non-`Send` field).
    fn run(self) -> T {
        (self.0)()
    }
}
