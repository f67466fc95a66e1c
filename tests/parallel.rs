//! `parallel` runs on several threads: the marked `scf.forall` becomes an
//! OpenMP loop, the JIT loads LLVM's OpenMP runtime, the thread count can be
//! set, and the results still match the unscheduled payload.
//!
//! In its own binary: it counts the process's threads.

mod common;

use interpreter::pipeline::{run, Machine, Stop};
use runner::jit::Program;
use runner::tensor::Tensor;
use schedule_lang::SourceFile;

/// The process's threads that were started by the calling thread's code, as
/// thread ids: a new thread inherits its creator's name, and the test harness
/// names each test's thread after the test, so the threads of other tests
/// (which may start or end at any time) are left out.
fn threads_named_like_this_one() -> std::collections::BTreeSet<String> {
    let name =
        |dir: &std::path::Path| std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
    let mine = name(std::path::Path::new("/proc/thread-self"));
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|task| name(task) == mine)
        .map(|task| task.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

fn scheduled(payload: &str, schedule: &str) -> (String, String) {
    let text =
        std::fs::read_to_string(common::root().join("tests/payloads").join(payload)).unwrap();
    let source = SourceFile::new("test.sched", schedule);
    let outcome = run(&source, payload, &text, Stop::Apply, &Machine::host())
        .unwrap_or_else(|f| panic!("{}", f.message()));
    (text, outcome.payload.expect("applied"))
}

#[test]
fn parallel_loops_run_on_openmp_threads_and_match() {
    let (text, transformed) = scheduled(
        "matmul.mlir",
        "func mm = linalg.matmul (i, j | k)\nmm.parallel(i, 16)\n",
    );
    assert!(
        transformed.contains("sched.parallel"),
        "the forall is not marked:\n{transformed}"
    );
    let program = Program::compile("scheduled", &transformed, None)
        .unwrap_or_else(|e| panic!("{}", e.message));
    assert!(program.is_parallel());
    program.set_threads(2).unwrap();
    assert_eq!(program.threads(), Some(2));

    let inputs: Vec<Tensor> = program.random_inputs(3);
    let before = threads_named_like_this_one();
    let mut got = program.new_results();
    program.call(&mut inputs.clone(), &mut got).unwrap();
    // OpenMP keeps its worker threads after the first parallel region.
    let after = threads_named_like_this_one();
    assert!(
        after.difference(&before).next().is_some(),
        "no new thread after a parallel call (before: {before:?}, after: {after:?})"
    );

    let reference = Program::compile("matmul.mlir", &text, None).unwrap();
    assert!(!reference.is_parallel());
    let mut want = reference.new_results();
    reference.call(&mut inputs.clone(), &mut want).unwrap();
    assert_eq!(
        got[0].to_f64(),
        want[0].to_f64(),
        "row-parallel matmul must compute the same sums in the same order"
    );
}

#[test]
fn a_thread_count_needs_parallel_loops() {
    let (_, transformed) = scheduled(
        "matmul.mlir",
        "func mm = linalg.matmul (i, j | k)\nmm.split(i, io, ii, 16)\n",
    );
    let program = Program::compile("scheduled", &transformed, None).unwrap();
    assert!(!program.is_parallel());
    assert_eq!(program.threads(), None);
    let error = program.set_threads(2).unwrap_err();
    assert!(error.contains("no parallel loops"), "{error}");
}

#[test]
fn rfactor_partial_reductions_run_on_two_threads_and_match() {
    // Two partial matmuls over halves of k, in parallel, then their sum.
    let (text, transformed) = scheduled(
        "matmul.mlir",
        "func mm = linalg.matmul (i, j | k)\n\
         mm.split(k, ko, ki, 64).reorder(j, ki, i, ko).rfactor(ko, u).parallel(u)\n",
    );
    assert!(
        transformed.contains("tensor<64x96x2xf32>") && transformed.contains("sched.parallel"),
        "no parallel partial reductions:\n{transformed}"
    );
    let program = Program::compile("scheduled", &transformed, None)
        .unwrap_or_else(|e| panic!("{}", e.message));
    program.set_threads(2).unwrap();
    let inputs: Vec<Tensor> = program.random_inputs(5);
    let mut got = program.new_results();
    program.call(&mut inputs.clone(), &mut got).unwrap();
    let reference = Program::compile("matmul.mlir", &text, None).unwrap();
    let mut want = reference.new_results();
    reference.call(&mut inputs.clone(), &mut want).unwrap();
    let (got, want) = (got[0].to_f64(), want[0].to_f64());
    let scale = want.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    assert!(scale > 0.0);
    for (index, (g, w)) in got.iter().zip(&want).enumerate() {
        // Summed in another order: equal up to rounding.
        assert!(
            (g - w).abs() <= 1e-5 * scale,
            "element {index}: {g} against {w}"
        );
    }
}
