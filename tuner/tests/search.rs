//! The tuner's pieces on small payloads: tasks group alike ops, `where`
//! conditions bind exactly a task's ops, candidates are legal chains (with
//! a parallel loop only when threads are asked for) and the cost model
//! prefers a full register tile.

use schedule_lang::PayloadInfo;
use tuner::space::{candidates, Candidate};
use tuner::tasks::{tasks, Task};

const TWO_LAYERS: &str = r#"
func.func @f(%x: tensor<32x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x48xf32>,
             %c1: tensor<32x64xf32>, %c2: tensor<32x64xf32>, %c3: tensor<32x48xf32>)
    -> (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x48xf32>) {
  %a = linalg.matmul ins(%x, %w1 : tensor<32x64xf32>, tensor<64x64xf32>) outs(%c1 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %b = linalg.matmul ins(%a, %w1 : tensor<32x64xf32>, tensor<64x64xf32>) outs(%c2 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %c = linalg.matmul ins(%b, %w2 : tensor<32x64xf32>, tensor<64x48xf32>) outs(%c3 : tensor<32x48xf32>) -> tensor<32x48xf32>
  return %a, %b, %c : tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x48xf32>
}
"#;

fn described(text: &str) -> PayloadInfo {
    let context = payload::new_context();
    let module = payload::parse_module(&context, "f.mlir", text).expect("parses");
    payload::describe(&context, &module, "f.mlir").expect("describes")
}

fn matmul_tasks() -> (PayloadInfo, Vec<Task>) {
    let info = described(TWO_LAYERS);
    let tasks = tasks(&info);
    (info, tasks)
}

#[test]
fn alike_ops_are_one_task_bound_by_the_fewest_conditions() {
    let (info, tasks) = matmul_tasks();
    assert_eq!(tasks.len(), 2);
    assert_eq!(
        tasks[0].ops,
        vec![0, 1],
        "the two 32x64x64 matmuls, larger first"
    );
    assert_eq!(tasks[1].ops, vec![2]);
    assert_ne!(tasks[0].key, tasks[1].key);
    let first = tuner::selector::where_conditions(&tasks[0], &info).unwrap();
    let second = tuner::selector::where_conditions(&tasks[1], &info).unwrap();
    assert_eq!(first, vec!["j == 64"]);
    assert_eq!(second, vec!["j == 48"]);
}

/// Every candidate, as a schedule of the one task's first op, plans without
/// an error.
fn plans(task: &Task, info: &PayloadInfo, candidate: &Candidate) -> bool {
    let schedule = format!(
        "func t = {}[{}] ({})\nt{}\n",
        task.kind,
        task.ops[0],
        task.binding(info),
        candidate.chain
    );
    let source = schedule_lang::SourceFile::new("t.sched", schedule);
    let stop = interpreter::pipeline::Stop::Plan;
    interpreter::pipeline::run(&source, "f.mlir", TWO_LAYERS, stop, &[]).is_ok()
}

#[test]
fn candidates_are_chains_the_planner_takes_and_parallel_only_with_threads() {
    let (info, tasks) = matmul_tasks();
    let op = &info.ops[tasks[0].ops[0]];
    let one = candidates(&tasks[0], op, 16, 1);
    assert!(one.len() > 20, "{}", one.len());
    assert!(one.iter().all(|c| !c.chain.contains(".parallel(")));
    assert!(one.iter().any(|c| c.chain.contains(".pack(in1, jo)")));
    let planned = one.iter().filter(|c| plans(&tasks[0], &info, c)).count();
    assert!(planned * 2 > one.len(), "{planned} of {} plan", one.len());
    let two = candidates(&tasks[0], op, 16, 2);
    assert!(
        two.iter().any(|c| c.chain.ends_with(".parallel(io)")),
        "{two:?}"
    );
    assert!(two.len() > one.len());
}

#[test]
fn the_model_prefers_a_full_register_tile() {
    let (info, tasks) = matmul_tasks();
    let op = &info.ops[tasks[0].ops[0]];
    let mut all = candidates(&tasks[0], op, 16, 1);
    tuner::cost::rank(&mut all);
    let best = &all[0];
    let worst = all.last().unwrap();
    assert!(tuner::cost::score(best) > 2.0 * tuner::cost::score(worst));
    // The best tile has several vectors and rows: at least 8 accumulators.
    let vectors = best.vector_tile / best.lanes;
    assert!(
        vectors * best.unroll_tile * best.second_tile >= 8,
        "{}",
        best.chain
    );
}
