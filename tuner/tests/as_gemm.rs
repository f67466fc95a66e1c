//! The whole-model decision to run a 1x1 convolution left at root as a
//! GEMM over its pixels (`tuner/src/as_gemm.rs`): taken when the model,
//! measured, is faster so, left when it is not; what is written plans
//! cleanly and computes what the payload does.

mod common;

use common::described;
use common::fused::{computes_the_same, header, quick_options, tuned_inlining, written, ByText};
use tuner::as_gemm::{is_pixels, take_gemm_forms};
use tuner::space::candidates;

const POINTWISE: &str = include_str!("../../tests/payloads/pointwise.mlir");

/// The pointwise payload's tasks as tuning leaves them: the convolution's
/// best its first candidate with a register tile, its fused-pixels
/// candidate measured 10% slower alone; the scale inlined into it.
fn tuned(info: &schedule_lang::PayloadInfo) -> Vec<tuner::TaskResult> {
    let mut results = tuned_inlining(info, |_| true, "mul");
    for result in &mut results {
        let op = &info.ops[result.task.ops[0]];
        if op.multiply_accumulate {
            let pixels = candidates(&result.task, op, 16, 1)
                .into_iter()
                .find(|c| is_pixels(&c.chain))
                .expect("a fused-pixels candidate");
            result.pixels = Some((pixels.chain, 5.5e-4));
        }
    }
    results
}

/// `take_gemm_forms` on the pointwise payload with `measurer`: the
/// decision's kinds taken, and the schedule written after.
fn decided(measurer: &mut ByText) -> (usize, usize, String) {
    let info = described(POINTWISE);
    let mut results = tuned(&info);
    let context = payload::new_context();
    let module = payload::parse_module(&context, "f.mlir", POINTWISE).expect("parses");
    let isolate = |ops: &[usize]| {
        payload::isolate::isolate_groups(&context, &module, "f.mlir", &[ops.to_vec()])
            .map_err(|e| e.message)
            .map(|mut all| all.remove(0))
    };
    let header = header(1);
    let parsed = interpreter::pipeline::Parsed::new(&context, "f.mlir", POINTWISE).unwrap();
    let model = tuner::Model {
        info: &info,
        name: "f.mlir",
        text: POINTWISE,
        header: &header,
        isolate: &isolate,
        parsed: &parsed,
    };
    let options = quick_options();
    let mut records = tuner::records::Records::in_memory();
    let mut session = tuner::Session {
        options: &options,
        records: &mut records,
        measurer,
        spent: 0.0,
        last_pair: 0.0,
    };
    let decision = take_gemm_forms(&model, &mut results, &mut session, 60.0)
        .expect("measures")
        .expect("the convolution has a fused-pixels candidate to try");
    (
        decision.possible,
        decision.taken,
        written(&info, &results, 1),
    )
}

#[test]
fn a_pointwise_convolution_runs_as_a_gemm_where_the_model_is_faster_so() {
    let mut measurer = ByText {
        fast: ".fuse(",
        timed: 0,
    };
    let (possible, taken, schedule) = decided(&mut measurer);
    assert_eq!((possible, taken), (1, 1));
    assert_eq!(measurer.timed, 2, "one pair: with and without");
    assert!(schedule.contains(".fuse(x, y, yx)"), "{schedule}");
    assert!(
        schedule.contains("# a GEMM over its pixels, though the best alone took 0.5000 ms"),
        "{schedule}"
    );
    assert!(schedule.contains("compute_inline()"), "{schedule}");
    assert!(computes_the_same(POINTWISE, &schedule), "{schedule}");
}

#[test]
fn a_pointwise_convolution_keeps_its_tuned_chain_where_the_model_is_not_faster() {
    let mut measurer = ByText {
        fast: "never written",
        timed: 0,
    };
    let (possible, taken, schedule) = decided(&mut measurer);
    assert_eq!((possible, taken), (1, 0));
    assert_eq!(measurer.timed, 2, "one pair: with and without");
    assert!(!schedule.contains(".fuse("), "{schedule}");
    assert!(computes_the_same(POINTWISE, &schedule), "{schedule}");
}
