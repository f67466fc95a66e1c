//! The PyTorch exports in `examples/torch` (torch-mlir's linalg-on-tensors and
//! TOSA forms, written by `scripts/export_torch.py`; one model frozen, its
//! weights `dense_resource` blobs in the file), each under every
//! schedule beside it, JIT-run with `run --check` against the unscheduled
//! payload. The inputs are seeded and written as `.npy` files, with each
//! batch norm's running variance made positive: with `run`'s default inputs
//! in [-1, 1) its square root is NaN and the whole output with it, which
//! would make the check compare NaN with NaN. (The comparison with PyTorch's
//! own outputs needs PyTorch: `scripts/export_torch.py --check`.)

mod common;

use common::exports::{exports_in, for_every_schedule, run_json};

const EXPORTS: &str = "examples/torch";

#[test]
fn every_export_under_every_schedule_beside_it_gives_the_unscheduled_outputs() {
    let payloads = exports_in(&common::root().join(EXPORTS));
    assert_eq!(
        payloads.len(),
        12,
        "six models (one frozen), two forms each"
    );
    let runs = for_every_schedule(&payloads, |payload, schedule, inputs| {
        let report = run_json(payload, schedule, &["--inputs", inputs, "--check"]);
        let what = format!("{} with {}", payload.display(), schedule.display());
        assert_eq!(report["check"], "ok", "{what}: {report}");
        assert_eq!(report["non_finite_results"], 0, "{what}: {report}");
    });
    // Every export has its own schedule, the batch-64 CNN an accelerated one too, and the
    // ResNet block one written as recipes (funcs of many ops); every model but the two
    // smallest, in both forms, one `tune` wrote on an AVX2 CPU for one thread and one for
    // two (`*.tuned.avx2.sched`, `*.tuned.avx2.parallel.sched`), the two smallest one for two
    // threads of their linalg form; the same four models' linalg form tuned on a Zen 3 for one
    // thread and two (`*.tuned.znver3.sched`, `*.tuned.znver3.parallel.sched`), and on an Intel
    // `rocketlake` (`*.tuned.rocketlake.sched`, `*.tuned.rocketlake.parallel.sched`).
    assert_eq!(runs, 14 + 4 * 2 * 2 + 2 + 4 * 2 + 4 * 2);
}
