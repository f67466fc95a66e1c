//! Helpers the tests of producers computed in their readers' tiles share:
//! the tasks as tuning leaves them, the schedule written from them, a
//! group of ops isolated, and whether a schedule computes what the payload
//! does.

use schedule_lang::PayloadInfo;
use tuner::measure::{InProcess, Measurement, Measurer};
use tuner::space::{candidates, RegisterTile};
use tuner::tasks::{merged_alike, tasks};
use tuner::TaskResult;

/// The tasks as tuning leaves them: each contraction's (a convolution's or
/// matmul's) best candidate the first that `best` picks, its register tile
/// measured; the elementwise ops whose body has `inline_word` inlined, the
/// other ops with no schedule of their own.
pub fn tuned_inlining(
    info: &PayloadInfo,
    best: fn(&RegisterTile) -> bool,
    inline_word: &str,
) -> Vec<TaskResult> {
    merged_alike(tasks(info), info)
        .into_iter()
        .map(|task| {
            let op = &info.ops[task.ops[0]];
            let contraction = op.multiply_accumulate;
            let chosen = contraction.then(|| {
                candidates(&task, op, 16, 1)
                    .into_iter()
                    .find(|c| c.tile.as_ref().is_some_and(best))
                    .expect("the candidate")
            });
            let elementwise = op.kind == "linalg.generic";
            TaskResult {
                conditions: tuner::selector::where_conditions(&task, info),
                reference: Some(1e-3),
                best: chosen.as_ref().map(|c| (c.chain.clone(), 5e-4)),
                tiles: chosen
                    .and_then(|c| c.tile)
                    .map(|t| (t, 5e-4))
                    .into_iter()
                    .collect(),
                legal: 1,
                measured: 1,
                reused: 0,
                failed: Vec::new(),
                inlined: elementwise && op.body_words().iter().any(|w| w == inline_word),
                fed: false,
                computed_in: None,
                tiled: None,
                pixels: None,
                gemm_over: None,
                task,
            }
        })
        .collect()
}

/// Whether `schedule` computes what `payload` does (the measurer checks
/// the results against the unscheduled payload's before timing).
pub fn computes_the_same(payload: &str, schedule: &str) -> bool {
    let mut measurer = InProcess::new(1, 0.0, true);
    measurer
        .reference("model", payload)
        .expect("the payload runs");
    measurer.measure("model", payload, schedule).is_ok()
}

/// Options for a whole-model decision on the test payload: one thread, a
/// second's budget, one try without improvement.
pub fn quick_options() -> tuner::Options {
    tuner::Options {
        budget: std::time::Duration::from_secs(1),
        threads: 1,
        lanes: 16,
        cpu: "test".to_string(),
        patience: 1,
        warm: false,
    }
}

/// The header of a schedule written for the test payload.
pub fn header(threads: usize) -> tuner::write::Header {
    tuner::write::Header {
        payload: "f.mlir".to_string(),
        cpu: "test".to_string(),
        threads,
        warm: false,
        kept: None,
        taken: Vec::new(),
    }
}

/// The schedule `tune` writes for `results`.
pub fn written(info: &PayloadInfo, results: &[TaskResult], threads: usize) -> String {
    tuner::write::schedule_text(info, results, &header(threads))
}

/// The ops `group` of `payload` isolated as a payload of their own.
pub fn isolated(payload: &str, group: &[usize]) -> String {
    let context = payload::new_context();
    let module = payload::parse_module(&context, "f.mlir", payload).expect("parses");
    payload::isolate::isolate_groups(&context, &module, "f.mlir", &[group.to_vec()])
        .expect("isolates")
        .remove(0)
}

/// A measurer timing schedules by their text: those holding `fast` take
/// 1 ms, the others 2 ms; it counts the schedules it timed.
pub struct ByText {
    pub fast: &'static str,
    pub timed: usize,
}

impl Measurer for ByText {
    fn reference(&mut self, _: &str, _: &str) -> Result<Measurement, String> {
        Ok(Measurement {
            seconds: 3e-3,
            calls: 3,
        })
    }
    fn measure(&mut self, _: &str, _: &str, schedule: &str) -> Result<Measurement, String> {
        self.timed += 1;
        let seconds = if schedule.contains(self.fast) {
            1e-3
        } else {
            2e-3
        };
        Ok(Measurement { seconds, calls: 3 })
    }
}
