//! Helpers the tuner's integration tests share: a payload described as the
//! tuner reads it, two matmul layers and their tasks, and a candidate
//! planned as a schedule.

#![allow(dead_code)]

pub mod fused;

use schedule_lang::PayloadInfo;
use tuner::space::Candidate;
use tuner::tasks::{tasks, Task};

/// Two matmul layers, the first two alike.
pub const TWO_LAYERS: &str = r#"
func.func @f(%x: tensor<32x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x48xf32>,
             %c1: tensor<32x64xf32>, %c2: tensor<32x64xf32>, %c3: tensor<32x48xf32>)
    -> (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x48xf32>) {
  %a = linalg.matmul ins(%x, %w1 : tensor<32x64xf32>, tensor<64x64xf32>) outs(%c1 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %b = linalg.matmul ins(%a, %w1 : tensor<32x64xf32>, tensor<64x64xf32>) outs(%c2 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %c = linalg.matmul ins(%b, %w2 : tensor<32x64xf32>, tensor<64x48xf32>) outs(%c3 : tensor<32x48xf32>) -> tensor<32x48xf32>
  return %a, %b, %c : tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x48xf32>
}
"#;

/// `text` described as the tuner reads a payload.
pub fn described(text: &str) -> PayloadInfo {
    let context = payload::new_context();
    let module = payload::parse_module(&context, "f.mlir", text).expect("parses");
    payload::describe(&context, &module, "f.mlir").expect("describes")
}

/// [`TWO_LAYERS`] and its tasks.
pub fn matmul_tasks() -> (PayloadInfo, Vec<Task>) {
    let info = described(TWO_LAYERS);
    let tasks = tasks(&info);
    (info, tasks)
}

/// Whether `candidate` plans as a schedule of `task`'s first op in `payload`.
pub fn plans_on(payload: &str, task: &Task, info: &PayloadInfo, candidate: &Candidate) -> bool {
    planned(payload, &schedule_of(task, info, candidate)).is_ok()
}

/// `candidate` as a schedule of `task`'s first op.
pub fn schedule_of(task: &Task, info: &PayloadInfo, candidate: &Candidate) -> String {
    format!(
        "func t = {}[{}] ({})\nt{}\n",
        task.kind,
        task.ops[0],
        task.binding(info),
        candidate.chain
    )
}

/// `schedule` planned on `payload`: its warnings, or the planner's message
/// if it refuses. The tests tune for AVX-512 (16 lanes), so its register
/// tiles are checked against AVX-512's registers whatever this CPU has.
pub fn planned(payload: &str, schedule: &str) -> Result<Vec<String>, String> {
    let source = schedule_lang::SourceFile::new("t.sched", schedule);
    let stop = interpreter::pipeline::Stop::Plan;
    let machine = interpreter::pipeline::Machine {
        vector_unit: schedule_lang::VectorUnit::AVX512,
        accelerators: &[],
    };
    interpreter::pipeline::run(&source, "f.mlir", payload, stop, &machine)
        .map(|outcome| outcome.warnings)
        .map_err(|failure| failure.message().to_string())
}
