//! Candidates for a matmul's reduction: partial sums side by side when it
//! runs along the inputs' rows (a classifier's transposed weight), and a
//! long one also packed in blocks, which the model prefers.

mod common;

use common::{described, matmul_tasks, planned, plans_on};
use tuner::space::{candidates, Candidate};
use tuner::tasks::tasks;

/// A classifier as torch-mlir exports it, one row: the weight transposed,
/// then a matmul of 1 x 1280 by 1280 x 96.
const CLASSIFIER: &str = r#"
func.func @f(%x: tensor<1x1280xf32>, %w: tensor<96x1280xf32>) -> tensor<1x96xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<1280x96xf32>
  %wt = linalg.transpose ins(%w : tensor<96x1280xf32>) outs(%et : tensor<1280x96xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<1x96xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x96xf32>) -> tensor<1x96xf32>
  %r = linalg.matmul ins(%x, %wt : tensor<1x1280xf32>, tensor<1280x96xf32>) outs(%z : tensor<1x96xf32>) -> tensor<1x96xf32>
  return %r : tensor<1x96xf32>
}
"#;

/// [`CLASSIFIER`] described, and its matmul's task.
fn classifier() -> (schedule_lang::PayloadInfo, tuner::tasks::Task) {
    let info = described(CLASSIFIER);
    let matmul = tasks(&info)
        .into_iter()
        .find(|t| t.kind == "linalg.matmul")
        .unwrap();
    (info, matmul)
}

/// The `rfactor` candidates of `matmul` for `threads` threads (16 lanes).
fn rfactored(
    info: &schedule_lang::PayloadInfo,
    matmul: &tuner::tasks::Task,
    threads: usize,
) -> Vec<Candidate> {
    candidates(matmul, &info.ops[matmul.ops[0]], 16, threads)
        .into_iter()
        .filter(|c| c.chain.contains(".rfactor("))
        .collect()
}

/// Panics unless `candidate` plans on [`CLASSIFIER`]'s matmul with the
/// transpose inlined, as the tuner measures it.
fn assert_plans_on_the_classifier(
    info: &schedule_lang::PayloadInfo,
    matmul: &tuner::tasks::Task,
    candidate: &Candidate,
) {
    let schedule = format!(
        "func t = linalg.matmul ({})\nfunc w = linalg.transpose (a, b)\nw.compute_inline()\nt{}\n",
        matmul.binding(info),
        candidate.chain
    );
    if let Err(message) = planned(CLASSIFIER, &schedule) {
        panic!("{}\n{message}", candidate.chain);
    }
}

#[test]
fn a_reduction_along_the_rows_gets_partial_sums_side_by_side() {
    let (info, matmul) = classifier();
    let matmul = &matmul;
    let rfactored = rfactored(&info, matmul, 1);
    let chains: Vec<&str> = rfactored.iter().map(|c| c.chain.as_str()).collect();
    let (i, j, k) = (&matmul.dims[0], &matmul.dims[1], &matmul.dims[2]);
    let mut expected = Vec::new();
    for tile in [16, 32, 64] {
        let rfactor = format!(".split({k}, {k}o, {k}i, {tile}).rfactor({k}i, {k}u)");
        expected.push(format!("{rfactor}.vectorize({k}u)"));
        // Four of the 96 outputs summed side by side.
        expected.push(format!(
            ".split({j}, {j}o, {j}i, 4){rfactor}.reorder({k}u, {j}i, {k}o, {j}o, {i}).vectorize({k}u).unroll({j}i)"
        ));
    }
    assert_eq!(chains, expected);
    // Each plans with the transpose inlined, as the tuner measures it.
    for candidate in &rfactored {
        assert_plans_on_the_classifier(&info, matmul, candidate);
    }
    // Two layers' matmuls read their weight's columns: no such candidate.
    let (info, tasks) = matmul_tasks();
    let op = &info.ops[tasks[0].ops[0]];
    assert!(!candidates(&tasks[0], op, 16, 1)
        .iter()
        .any(|c| c.chain.contains(".rfactor(")));
}

#[test]
fn on_two_threads_the_blocks_of_outputs_summed_side_by_side_are_also_shared() {
    let (info, matmul) = classifier();
    let matmul = &matmul;
    let (one, two) = (rfactored(&info, matmul, 1), rfactored(&info, matmul, 2));
    let j = &matmul.dims[1];
    let shared: Vec<&Candidate> = two
        .iter()
        .filter(|c| c.chain.ends_with(&format!(".parallel({j}o)")))
        .collect();
    // One for each vector width of the three, and nothing else new.
    assert_eq!(shared.len(), 3, "{two:#?}");
    assert_eq!(two.len(), one.len() + shared.len());
    for candidate in &shared {
        let serial = candidate.chain.strip_suffix(&format!(".parallel({j}o)"));
        assert!(one.iter().any(|c| Some(c.chain.as_str()) == serial));
        assert_plans_on_the_classifier(&info, matmul, candidate);
    }
    assert!(!one.iter().any(|c| c.chain.contains(".parallel(")));
}

/// A classifier's first layer as the MNIST CNN has it: 64 x 1024 | 6272.
const LONG_K: &str = r#"
func.func @f(%a: tensor<64x6272xf32>, %w: tensor<6272x1024xf32>, %c: tensor<64x1024xf32>)
    -> tensor<64x1024xf32> {
  %r = linalg.matmul ins(%a, %w : tensor<64x6272xf32>, tensor<6272x1024xf32>) outs(%c : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  return %r : tensor<64x1024xf32>
}
"#;

#[test]
fn a_long_reduction_is_also_packed_in_blocks_and_the_model_prefers_them() {
    let info = described(LONG_K);
    let tasks = tasks(&info);
    let op = &info.ops[tasks[0].ops[0]];
    let mut all = candidates(&tasks[0], op, 16, 1);
    let blocked: Vec<&Candidate> = all
        .iter()
        .filter(|c| c.chain.contains(".split(k, ko, ki, 1568)"))
        .collect();
    assert!(!blocked.is_empty());
    for candidate in &blocked {
        assert!(
            candidate.chain.contains(".pack(in1, ko, j)"),
            "{}",
            candidate.chain
        );
        assert!(!candidate.streamed_panel);
        assert!(
            plans_on(LONG_K, &tasks[0], &info, candidate),
            "{}",
            candidate.chain
        );
    }
    // Its twin of the same register tile packing the whole k per column
    // block rates lower.
    let packed_whole: Vec<&Candidate> = all.iter().filter(|c| c.streamed_panel).collect();
    assert!(!packed_whole.is_empty());
    for b in &blocked {
        for w in packed_whole.iter().filter(|w| w.family() == b.family()) {
            assert!(
                tuner::cost::score(b) > tuner::cost::score(w),
                "{} {}",
                b.chain,
                w.chain
            );
        }
    }
    // The favourite packs in blocks; matmuls of a shorter k never block.
    tuner::cost::rank(&mut all);
    assert!(
        all[0].chain.contains(".pack(in1, ko, j)"),
        "{}",
        all[0].chain
    );
    let (short, short_tasks) = matmul_tasks();
    let short_op = &short.ops[short_tasks[0].ops[0]];
    assert!(candidates(&short_tasks[0], short_op, 16, 1)
        .iter()
        .all(|c| !c.chain.contains("ko") && !c.streamed_panel));
}
