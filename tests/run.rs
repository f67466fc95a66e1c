//! `sched-apply run` as a user meets it: the examples run and match their
//! unscheduled payloads, `.npy` inputs and outputs, located input errors,
//! and the JSON report. No test asserts a duration.

mod common;

use common::sched_apply;

use payload::types::{ElementType, TensorType};
use runner::tensor::Tensor;

/// The `--json` report, parsed.
fn json(bytes: &[u8]) -> serde_json::Value {
    serde_json::from_slice(bytes).unwrap_or_else(|e| panic!("not JSON ({e}): {}", text(bytes)))
}

/// A number of a JSON object; panics naming the key when it is missing.
fn number(object: &serde_json::Value, key: &str) -> f64 {
    object[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number in {object}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `sched-apply run ARGS` and asserts that it exits 0 and that its
/// output says the check passed (`ok`: the text or the `--json` form).
fn assert_runs_and_matches(args: &[&str], ok: &str) {
    let mut command = vec!["run"];
    command.extend_from_slice(args);
    let output = sched_apply(&command);
    let report = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{args:?}: {report}{}",
        text(&output.stderr)
    );
    assert!(report.contains(ok), "{args:?}: {report}");
}

/// Runs an example `payload` with `args` (its schedule, and flags), checked
/// against the unscheduled payload and with warnings denied. The examples'
/// register tiles are written for AVX-512 (`--vector-unit avx512`, unless
/// `args` name another unit): on a CPU without it they run, and the check of
/// their results holds, but the warning about their tiles would be this
/// machine's.
fn assert_example_matches(payload: &str, args: &[&str]) {
    let mut command = vec![payload];
    command.extend_from_slice(args);
    command.extend(["--check", "--deny-warnings"]);
    if !args.contains(&"--vector-unit") {
        command.extend(["--vector-unit", "avx512"]);
    }
    assert_runs_and_matches(&command, CHECK_OK);
}

/// The check's verdict as `run` prints it, and as `run --json` does.
const CHECK_OK: &str = "check: ok against the unscheduled payload";
const CHECK_OK_JSON: &str = "\"check\": \"ok\"";

/// Halide's schedule (conv.sched, and with AVX2's register tile
/// conv_avx2.sched, also on two threads) and oneDNN's register tile
/// (conv_16x25.sched, and on two threads conv_16x25_parallel.sched), all
/// without a warning.
#[test]
fn the_conv_layer_example_runs_and_matches_the_unscheduled_payload() {
    for args in [
        &["examples/halide_conv/conv.sched"][..],
        &[
            "examples/halide_conv/conv_avx2.sched",
            "--vector-unit",
            "avx2",
        ],
        &[
            "examples/halide_conv/conv_avx2_parallel.sched",
            "--vector-unit",
            "avx2",
            "--threads",
            "2",
        ],
        &["examples/halide_conv/conv_16x25.sched"],
        &[
            "examples/halide_conv/conv_16x25_parallel.sched",
            "--threads",
            "2",
        ],
    ] {
        assert_example_matches("examples/halide_conv/conv.mlir", args);
    }
}

#[test]
fn the_resnet_conv_example_runs_and_matches_on_one_thread_and_on_two() {
    for args in [
        &["examples/halide_conv/resnet_conv.sched"][..],
        &[
            "examples/halide_conv/resnet_conv_parallel.sched",
            "--threads",
            "2",
        ],
    ] {
        assert_example_matches("examples/halide_conv/resnet_conv.mlir", args);
    }
}

#[test]
fn the_blur_examples_run_and_match_the_unscheduled_payload() {
    for (form, schedule) in [
        ("slices", "blur_slices.sched"),
        ("slices", "blur_slices_strip.sched"),
        ("maps", "blur_maps.sched"),
    ] {
        let payload = format!("examples/blur/blur_{form}.mlir");
        let schedule = format!("examples/blur/{schedule}");
        assert_runs_and_matches(&[&payload, &schedule, "--check", "--json"], CHECK_OK_JSON);
    }
}

#[test]
fn the_heterocl_examples_run_and_match_the_unscheduled_payload() {
    for stem in ["gemm", "gemm_interleave", "conv2d"] {
        let payload = format!("examples/heterocl/{stem}.mlir");
        assert_runs_and_matches(&[&payload, "--check", "--json"], CHECK_OK_JSON);
    }
}

#[test]
fn every_fixture_schedule_runs_and_matches() {
    let mut fixtures: Vec<String> = std::fs::read_dir(common::root().join("tests/fixtures"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().to_string())
        .filter(|name| name.ends_with(".sched"))
        .collect();
    fixtures.sort();
    assert!(fixtures.len() >= 10, "the fixtures were not found");
    for fixture in fixtures {
        let path = format!("tests/fixtures/{fixture}");
        let header = std::fs::read_to_string(common::root().join(&path)).unwrap();
        let payload = header
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# payload: "))
            .unwrap()
            .to_string();
        assert_runs_and_matches(
            &[
                &format!("tests/payloads/{payload}"),
                &path,
                "--check",
                "--json",
            ],
            CHECK_OK_JSON,
        );
    }
}

fn f32_tensor(shape: &[i64], seed: u64) -> Tensor {
    Tensor::random(
        TensorType {
            element: ElementType::F32,
            shape: shape.to_vec(),
        },
        seed,
    )
}

#[test]
fn npy_inputs_and_outputs_agree_with_an_independent_reference() {
    let directory = common::tempdir();
    let (a, b, c) = (
        f32_tensor(&[64, 128], 1),
        f32_tensor(&[128, 96], 2),
        f32_tensor(&[64, 96], 3),
    );
    let out = common::run_on_npy(
        &directory,
        (
            "tests/payloads/matmul.mlir",
            "tests/fixtures/matmul_register_tile.sched",
        ),
        &[("a", &a), ("b", &b), ("c", &c)],
        &[],
    );
    let result = runner::npy::read(&std::fs::read(out.join("result0.npy")).unwrap()).unwrap();
    assert_eq!(result.ty.shape, vec![64, 96]);
    // C + A·B computed here in f64.
    let (a, b, c, r) = (a.to_f64(), b.to_f64(), c.to_f64(), result.to_f64());
    for i in 0..64 {
        for j in 0..96 {
            let want = c[i * 96 + j]
                + (0..128)
                    .map(|k| a[i * 128 + k] * b[k * 96 + j])
                    .sum::<f64>();
            assert!(
                (r[i * 96 + j] - want).abs() < 1e-4,
                "[{i}, {j}]: {} vs {want}",
                r[i * 96 + j]
            );
        }
    }
}

#[test]
fn an_input_of_the_wrong_shape_is_a_located_error() {
    let directory = common::tempdir();
    let mut paths = Vec::new();
    for (name, shape) in [
        ("a", vec![64, 128]),
        ("b", vec![96, 128]),
        ("c", vec![64, 96]),
    ] {
        let path = directory.join(format!("{name}.npy"));
        std::fs::write(&path, runner::npy::write(&f32_tensor(&shape, 0))).unwrap();
        paths.push(path.display().to_string());
    }
    let output = sched_apply(&[
        "run",
        "tests/payloads/matmul.mlir",
        "tests/fixtures/matmul_split.sched",
        "--inputs",
        &paths.join(","),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let expected = format!(
        "{}: error: holds tensor<96x128xf32>, but argument 1 of @matmul (tests/payloads/matmul.mlir) is tensor<128x96xf32>\n  = help: the file must have the argument's shape and dtype exactly\n",
        paths[1]
    );
    assert_eq!(text(&output.stderr), expected);
    let output = sched_apply(&[
        "run",
        "tests/payloads/matmul.mlir",
        "tests/fixtures/matmul_split.sched",
        "--inputs",
        &paths[0],
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stderr),
        "error: --inputs gives 1 file(s), but @matmul in tests/payloads/matmul.mlir takes 3 argument(s): tensor<64x128xf32>, tensor<128x96xf32>, tensor<64x96xf32>\n"
    );
}

#[test]
fn bench_json_reports_every_figure() {
    let output = sched_apply(&[
        "run",
        "tests/payloads/matmul.mlir",
        "tests/fixtures/matmul_register_tile.sched",
        "--bench",
        "3",
        "--json",
        "--peak-gflops",
        "100",
        "--check",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let report = json(&output.stdout);
    let value = |key: &str| number(&report, key);
    assert_eq!(
        value("flops"),
        (2 * 64 * 96 * 128) as f64,
        "the matmul's multiply-adds, 2 FLOPs each"
    );
    assert_eq!(value("calls"), 3.0);
    assert_eq!(value("peak_gflops"), 100.0);
    assert_eq!(report["peak_source"], "given");
    let gflops = value("gflops");
    assert!((gflops - value("flops") / value("median_s") / 1e9).abs() <= 1e-9 * gflops);
    assert!(
        (value("percent_of_peak") - gflops).abs() <= 1e-9 * gflops,
        "with a peak of 100, % of peak equals GFLOP/s"
    );
    assert!(
        (value("speedup_vs_unscheduled") - value("unscheduled_median_s") / value("median_s")).abs()
            < 1e-6 * value("speedup_vs_unscheduled")
    );
    assert!(value("max_abs_diff") >= 0.0);
    for phase in ["parse", "plan", "apply", "lower", "jit"] {
        assert!(number(&report["compile_s"], phase) >= 0.0, "{report}");
    }
}

#[test]
fn bench_measures_the_peak_in_the_same_run_by_default() {
    let output = sched_apply(&[
        "run",
        "tests/payloads/matmul.mlir",
        "tests/fixtures/matmul_register_tile.sched",
        "--bench",
        "1",
        "--reference-calls",
        "0",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let report = json(&output.stdout);
    assert_eq!(report["peak_source"], "measured");
    assert!(number(&report, "peak_gflops") > 0.0);
}

#[test]
fn rounds_measure_the_peak_before_each_round_and_report_each_ratio() {
    let output = sched_apply(&[
        "run",
        "tests/payloads/matmul.mlir",
        "tests/fixtures/matmul_register_tile.sched",
        "--bench",
        "2",
        "--rounds",
        "3",
        "--reference-calls",
        "0",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let report = json(&output.stdout);
    let flops = number(&report, "flops");
    assert_eq!(number(&report, "calls"), 6.0, "all calls of all rounds");
    let rounds = report["rounds"].as_array().expect("a rounds list");
    assert_eq!(rounds.len(), 3, "{report}");
    let mut percents = Vec::new();
    for round in rounds {
        let (median_s, peak) = (number(round, "median_s"), number(round, "peak_gflops"));
        assert!(median_s > 0.0 && peak > 0.0, "{round}");
        let percent = number(round, "percent_of_peak");
        let want = 100.0 * flops / median_s / 1e9 / peak;
        assert!(
            (percent - want).abs() <= 1e-9 * want,
            "each round's % is of its own peak: {round}"
        );
        percents.push(percent);
    }
    percents.sort_by(f64::total_cmp);
    assert_eq!(
        number(&report, "percent_of_peak_per_round_median"),
        percents[1]
    );

    let text_output = sched_apply(&[
        "run",
        "tests/payloads/matmul.mlir",
        "tests/fixtures/matmul_register_tile.sched",
        "--bench",
        "1",
        "--rounds",
        "2",
        "--reference-calls",
        "0",
    ]);
    assert!(
        text(&text_output.stdout)
            .contains("rounds: 2 of 1 calls, each after measuring the peak again: "),
        "{}",
        text(&text_output.stdout)
    );
}

#[test]
fn rounds_need_bench_and_a_measured_peak() {
    for args in [
        &["--rounds", "3"][..],
        &["--bench", "2", "--rounds", "3", "--peak-gflops", "100"],
        &["--bench", "2", "--rounds", "0"],
    ] {
        let mut all = vec![
            "run",
            "tests/payloads/matmul.mlir",
            "tests/fixtures/matmul_register_tile.sched",
        ];
        all.extend_from_slice(args);
        let output = sched_apply(&all);
        assert_eq!(output.status.code(), Some(2), "{args:?}: a usage error");
        assert!(
            text(&output.stderr).contains("--rounds"),
            "{args:?}: {}",
            text(&output.stderr)
        );
    }
}

#[test]
fn several_public_functions_need_an_entry() {
    let directory = common::tempdir();
    let payload = directory.join("two.mlir");
    let matmul =
        std::fs::read_to_string(common::root().join("tests/payloads/matmul.mlir")).unwrap();
    std::fs::write(
        &payload,
        format!("{matmul}\n{}", matmul.replace("@matmul", "@other")),
    )
    .unwrap();
    let schedule = directory.join("two.sched");
    std::fs::write(
        &schedule,
        "func mm = @matmul:linalg.matmul (i, j | k)\nmm.split(i, io, ii, 8)\n",
    )
    .unwrap();
    let output = sched_apply(&["run", payload.to_str().unwrap(), schedule.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr)
            .contains("has 2 public functions: @matmul, @other; choose one with --entry NAME"),
        "{}",
        text(&output.stderr)
    );
    let output = sched_apply(&[
        "run",
        payload.to_str().unwrap(),
        schedule.to_str().unwrap(),
        "--entry",
        "matmul",
        "--check",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
}

#[test]
fn threads_set_the_openmp_thread_count_of_parallel_loops() {
    let output = sched_apply(&[
        "run",
        "tests/payloads/matmul.mlir",
        "tests/fixtures/matmul_parallel.sched",
        "--threads",
        "2",
        "--check",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let report = json(&output.stdout);
    assert!(
        report["threads"] == 2 && report["check"] == "ok",
        "{report}"
    );

    let output = sched_apply(&[
        "run",
        "tests/payloads/matmul.mlir",
        "tests/fixtures/matmul_split.sched",
        "--threads",
        "2",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(text(&output.stderr), "error: --threads 2: the program has no parallel loops (the schedule marks none `parallel`), so a thread count does not apply\n");

    let output = sched_apply(&[
        "run",
        "tests/payloads/matmul.mlir",
        "tests/fixtures/matmul_parallel.sched",
        "--threads",
        "0",
    ]);
    assert_eq!(output.status.code(), Some(2), "clap's usage error");
    assert!(
        text(&output.stderr).contains("--threads <N>"),
        "{}",
        text(&output.stderr)
    );
}

/// Writes `payload` and `schedule` into a fresh directory; returns their paths.
fn case_files(payload: &str, schedule: &str) -> (common::TempDir, String, String) {
    let directory = common::tempdir();
    let payload_path = directory.join("payload.mlir");
    let schedule_path = directory.join("payload.sched");
    std::fs::write(&payload_path, payload).unwrap();
    std::fs::write(&schedule_path, schedule).unwrap();
    let (p, s) = (
        payload_path.display().to_string(),
        schedule_path.display().to_string(),
    );
    (directory, p, s)
}

/// A result that is NaN where the unscheduled payload's is NaN matches
/// (numpy's `equal_nan`); fuzz finding 12 called it a mismatch. The check
/// says how many results matched only as NaN, since that proves little.
#[test]
fn nan_where_the_reference_has_nan_matches() {
    let payload = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  \
                   %nan = arith.constant 0x7FC00000 : f32\n  \
                   %e = tensor.empty() : tensor<4xf32>\n  \
                   %r = linalg.fill ins(%nan : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>\n  \
                   return %r : tensor<4xf32>\n}\n";
    let (directory, payload, schedule) =
        case_files(payload, "func z = linalg.fill (i)\nz.split(i, io, ii, 2)\n");
    let output = sched_apply(&["run", &payload, &schedule, "--check"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("check: ok"), "{stdout}");
    assert!(
        stdout.contains("note: 4 of 4 results are NaN or infinite in both payloads"),
        "{stdout}"
    );
    let output = sched_apply(&["run", &payload, &schedule, "--check", "--json"]);
    let report = json(&output.stdout);
    assert_eq!(report["check"], "ok");
    assert_eq!(report["non_finite_results"], 4);
    let _ = std::fs::remove_dir_all(directory);
}

/// Tensors larger than the machine's memory are refused before anything is
/// allocated (fuzz finding 11 aborted in the allocator).
#[test]
fn tensors_too_large_for_memory_are_an_input_error() {
    let big = "tensor<4294967296x128xf32>";
    let out = "tensor<4294967296x96xf32>";
    let payload = format!(
        "func.func @matmul(%a: {big}, %b: tensor<128x96xf32>, %c: {out}) -> {out} {{\n  \
         %r = linalg.matmul ins(%a, %b : {big}, tensor<128x96xf32>) outs(%c : {out}) -> {out}\n  \
         return %r : {out}\n}}\n"
    );
    let (directory, payload, schedule) =
        case_files(&payload, "func mm = linalg.matmul (i, j | k)\n");
    let output = sched_apply(&["run", &payload, &schedule]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error: running @matmul needs about") && stderr.contains("GiB available"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(directory);
}

/// `--expect` compares the results with saved files instead of compiling the
/// unscheduled payload: they match when saved from the same inputs, differ
/// (exit 1, naming the files) for others, and a file of the wrong count or
/// shape is a clear error.
#[test]
fn expected_outputs_replace_the_unscheduled_reference() {
    let scratch = common::tempdir();
    let payload = "tests/payloads/exp.mlir";
    let schedule = "tests/fixtures/exp_vectorize.sched";
    let saved = scratch.join("saved");
    let saved_text = saved.to_str().unwrap();
    let output = sched_apply(&["run", payload, schedule, "--save-outputs", saved_text]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let expected = saved.join("result0.npy");
    let expected = expected.to_str().unwrap();

    let output = sched_apply(&["run", payload, schedule, "--expect", expected, "--json"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let report = json(&output.stdout);
    assert_eq!(report["check"], "ok");
    assert_eq!(report["check_against"], "expected");

    let other_inputs = sched_apply(&[
        "run", payload, schedule, "--seed", "3", "--expect", expected,
    ]);
    assert_eq!(other_inputs.status.code(), Some(1));
    assert!(
        text(&other_inputs.stderr).contains("differs from the expected outputs"),
        "{}",
        text(&other_inputs.stderr)
    );

    let two = format!("{expected},{expected}");
    let output = sched_apply(&["run", payload, schedule, "--expect", &two]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("2 file(s) given for 1 result(s)"));

    let wrong = scratch.join("wrong.npy");
    std::fs::write(&wrong, runner::npy::write(&f32_tensor(&[16, 63], 1))).unwrap();
    let output = sched_apply(&[
        "run",
        payload,
        schedule,
        "--expect",
        wrong.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("but result 0 of @expo is tensor<16x64xf32>"),
        "{}",
        text(&output.stderr)
    );
    let both = sched_apply(&["run", payload, schedule, "--expect", expected, "--check"]);
    assert_eq!(both.status.code(), Some(2), "a usage error");
    let _ = std::fs::remove_dir_all(scratch);
}
