//! A compiled program called with the GIL released, so other Python threads
//! run meanwhile: the crate's only `unsafe`.
//!
//! `Python::detach` takes only `Send` closures: PyO3's stand-in for "holds
//! no Python object", although it runs the closure on the calling thread
//! before it returns. A compiled program is not `Send` (its JIT engine and
//! its accelerators' contexts are raw pointers), and need not be: it never
//! leaves this thread.

use pyo3::Python;
use runner::jit::Program;
use runner::tensor::Tensor;

/// Calls `program` on `arguments`, writing `results`, with the GIL released.
pub(crate) fn call(
    py: Python<'_>,
    program: &Program,
    arguments: &mut [Tensor],
    results: &mut [Tensor],
) -> Result<(), String> {
    let call = OnThisThread(move || {
        program
            .call(arguments, results)
            .map_err(|error| error.to_string())
    });
    py.detach(move || call.run())
}

/// A closure that `detach` runs on the thread that made it.
struct OnThisThread<F>(F);

// SAFETY: the only value of this type is made in `call`, around a closure
// that holds the program, its tensors and nothing from Python, and handed to
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
