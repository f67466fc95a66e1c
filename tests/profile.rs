//! `sched-apply profile`: exact static counts on known kernels, per func and
//! in total, unknown counts reported as unknown, the measured run (per
//! func and whole, on the threads asked for) and the roofline picture, and
//! the off-chip traffic a write buffer saves.

mod common;

use common::{sched_apply, stderr};

/// `profile` counts exactly on known kernels, before and after the
/// schedule: 2·M·N·K FLOPs for SGEMM 2048³, 11 801 600 000 for conv_layer;
/// the schedule keeps the FLOPs and cuts the off-chip bytes.
#[test]
fn profile_counts_known_kernels_exactly() {
    for (payload, flops) in [
        ("examples/gemm/gemm.mlir", 2u64 * 2048 * 2048 * 2048),
        ("examples/halide_conv/conv.mlir", 11_801_600_000),
    ] {
        let output = sched_apply(&["profile", payload, "--json"]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let total = &report["total"];
        for side in ["before", "after"] {
            assert_eq!(
                total[side]["flops"].as_u64(),
                Some(flops),
                "{payload} {side}"
            );
        }
        let bytes = |side: &str| total[side]["bytes"].as_u64().unwrap();
        assert!(bytes("after") * 10 < bytes("before"), "{payload}: {report}");
        let intensity = total["after"]["intensity"].as_f64().unwrap();
        assert!((intensity - flops as f64 / bytes("after") as f64).abs() < 1e-9);
        // Every func has a row, and the rows add up to the total.
        let stages = report["stages"].as_array().unwrap();
        let sum: u64 = stages
            .iter()
            .map(|s| s["after"]["flops"].as_u64().unwrap())
            .sum();
        assert_eq!(sum, flops, "{payload}");
    }
}

/// The rows are per func: the blur's producer, computed inside each row of
/// its consumer over the three rows it reads, does three times its work;
/// inside each strip of 8 rows, 10/8 of it.
#[test]
fn profile_shows_recomputation_per_func() {
    let output = sched_apply(&["profile", "examples/blur/blur_slices.mlir", "--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let row = |name: &str| common::stage_row(&report, name);
    let blur_x = row("blur_x");
    // 1026 x 1024 points of 3 FLOPs each before; 3 rows per output row after.
    assert_eq!(blur_x["before"]["flops"].as_u64(), Some(1026 * 1024 * 3));
    assert_eq!(blur_x["after"]["flops"].as_u64(), Some(3 * 1024 * 1024 * 3));
    assert_eq!(
        row("blur_y")["after"]["flops"],
        row("blur_y")["before"]["flops"]
    );
    // Computed per strip of 8 rows: 10 rows each (the union of the three
    // 8-row slices), not 24.
    let output = sched_apply(&[
        "profile",
        "examples/blur/blur_slices.mlir",
        "examples/blur/blur_slices_strip.sched",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let blur_x = common::stage_row(&report, "blur_x");
    assert_eq!(blur_x["after"]["flops"].as_u64(), Some(128 * 10 * 1024 * 3));
}

/// With --run, both versions are timed and the roofs measured; --svg draws
/// the roofline, and needs --run.
#[test]
fn profile_runs_and_draws_the_roofline() {
    let directory = common::tempdir();
    let svg = directory.join("roofline.svg");
    let svg_path = svg.display().to_string();
    let args = [
        "profile",
        "tests/payloads/matmul.mlir",
        "tests/fixtures/matmul_parallel.sched",
        "--run",
        "--calls",
        "2",
        "--svg",
        &svg_path,
        "--json",
    ];
    let output = sched_apply(&args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    for side in ["before", "after"] {
        let figures = &report["total"][side];
        let seconds = figures["seconds"].as_f64().unwrap();
        let gflops = figures["gflops"].as_f64().unwrap();
        let flops = figures["flops"].as_f64().unwrap();
        assert!(seconds > 0.0 && ((flops / seconds / 1e9) - gflops).abs() < 1e-6 * gflops);
    }
    assert!(report["peak_gflops"].as_f64().unwrap() > 0.0);
    assert!(report["bandwidth_gbs"].as_f64().unwrap() > 0.0);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg"), "{picture}");
    for text in [
        "operational intensity",
        "before the schedule",
        "after the schedule",
        "this core",
    ] {
        assert!(picture.contains(text), "{text} missing");
    }
    let without_run = sched_apply(&[
        "profile",
        "tests/payloads/matmul.mlir",
        "tests/fixtures/matmul_parallel.sched",
        "--svg",
        &svg_path,
    ]);
    assert_eq!(
        without_run.status.code(),
        Some(2),
        "{}",
        stderr(&without_run)
    );
    let _ = std::fs::remove_dir_all(&directory);
}

/// With --run, each func is timed: before the schedule on its own; after
/// `compute_at`, the producer inside its consumer's loops, so its time is
/// the consumer's, which says so (JSON, table, picture).
#[test]
fn profile_times_each_func_and_says_which_are_timed_together() {
    let directory = common::tempdir();
    let svg = directory.join("blur.svg");
    let svg_path = svg.display().to_string();
    let payload = "examples/blur/blur_slices.mlir";
    let run = ["profile", payload, "--run", "--calls", "2"];
    let output = sched_apply(&[&run[..], &["--json", "--svg", &svg_path]].concat());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let row = |name: &str| common::stage_row(&report, name);
    let (blur_x, blur_y) = (row("blur_x"), row("blur_y"));
    for figures in [&blur_x["before"], &blur_y["before"], &blur_y["after"]] {
        assert!(figures["seconds"].as_f64().unwrap() > 0.0, "{figures}");
    }
    // Before, each func is its own loop nest, with its own GFLOP/s.
    let seconds = blur_x["before"]["seconds"].as_f64().unwrap();
    let flops = blur_x["before"]["flops"].as_f64().unwrap();
    let gflops = blur_x["before"]["gflops"].as_f64().unwrap();
    assert!((flops / seconds / 1e9 - gflops).abs() <= 1e-9 * gflops);
    assert!(blur_y["before"].get("includes").is_none());
    // After, blur_x has no time of its own: it is inside blur_y's, whose
    // GFLOP/s count both funcs' FLOPs.
    assert!(blur_x["after"].get("seconds").is_none());
    assert_eq!(blur_x["after"]["timed_in"], serde_json::json!(["blur_y"]));
    assert_eq!(blur_y["after"]["includes"], serde_json::json!(["blur_x"]));
    let both =
        blur_x["after"]["flops"].as_f64().unwrap() + blur_y["after"]["flops"].as_f64().unwrap();
    let seconds = blur_y["after"]["seconds"].as_f64().unwrap();
    let gflops = blur_y["after"]["gflops"].as_f64().unwrap();
    assert!((both / seconds / 1e9 - gflops).abs() <= 1e-9 * gflops);
    let picture = std::fs::read_to_string(&svg).unwrap();
    for text in [
        "blur_x",
        "blur_y (with blur_x)",
        "a func before the schedule",
    ] {
        assert!(picture.contains(text), "{text} missing");
    }

    let table = sched_apply(&run);
    assert_eq!(table.status.code(), Some(0), "{}", stderr(&table));
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(
        text.contains("ms before") && text.contains("ms after"),
        "{text}"
    );
    let blur_x_line = text.lines().find(|l| l.starts_with("blur_x")).unwrap();
    assert!(blur_x_line.ends_with("in blur_y"), "{text}");
    assert!(text.contains("after: blur_y's time includes blur_x, computed inside its loops"));
    let _ = std::fs::remove_dir_all(&directory);
}

/// A partial tile (40 does not divide 96) has no static size: its counts
/// are unknown (JSON null, "unknown" in the table), never guessed.
#[test]
fn profile_reports_unknown_counts_as_unknown() {
    let directory = common::tempdir();
    let schedule = directory.join("partial.sched");
    std::fs::write(
        &schedule,
        "func mm = linalg.matmul (i, j | k)\nmm.split(j, jo, ji, 40)\n",
    )
    .unwrap();
    let schedule = schedule.display().to_string();
    let output = sched_apply(&["profile", "tests/payloads/matmul.mlir", &schedule, "--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        report["total"]["before"]["flops"].as_u64(),
        Some(2 * 64 * 96 * 128)
    );
    assert!(report["total"]["after"]["flops"].is_null(), "{report}");
    assert!(report["total"]["after"]["intensity"].is_null(), "{report}");
    let text = sched_apply(&["profile", "tests/payloads/matmul.mlir", &schedule]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("unknown"));
    let _ = std::fs::remove_dir_all(&directory);
}

/// `buffer_at` cuts the output's off-chip traffic as HeteroCL's write buffer
/// does: stores from one per multiply-add (M·N·K) to one per output (M·N),
/// the buffer's copy in and out included.
#[test]
fn a_write_buffer_stores_each_output_once() {
    let output = sched_apply(&[
        "profile",
        "tests/payloads/matmul.mlir",
        "tests/fixtures/matmul_buffer_at.sched",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let (m, n, k) = (64u64, 96, 128);
    let total = &report["total"];
    assert_eq!(
        total["before"]["bytes_written"].as_u64(),
        Some(4 * m * n * k)
    );
    assert_eq!(total["after"]["bytes_written"].as_u64(), Some(4 * m * n));
    // A and B per multiply-add, C once into the buffer.
    assert_eq!(
        total["after"]["bytes_read"].as_u64(),
        Some(4 * (2 * m * n * k + m * n))
    );
}

/// `--threads` runs the schedule's parallel loops on that many threads and
/// says so; the peak is then as many cores' (as `run --threads`). Without
/// parallel loops, it is an error, as for `run`.
#[test]
fn profile_runs_parallel_loops_on_the_threads_asked_for() {
    let directory = common::tempdir();
    let schedule = directory.join("rows.sched");
    std::fs::write(
        &schedule,
        "func mm = linalg.matmul (i, j | k)\nmm.split(i, io, ii, 16).parallel(io)\n",
    )
    .unwrap();
    let schedule = schedule.display().to_string();
    let payload = "tests/payloads/matmul.mlir";
    let run = ["profile", payload, &schedule, "--run", "--calls", "2"];
    let output = sched_apply(&[&run[..], &["--threads", "2", "--json"]].concat());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["threads"].as_u64(), Some(2), "{report}");
    assert!(report["total"]["after"]["seconds"].as_f64().unwrap() > 0.0);
    let text = sched_apply(&[&run[..], &["--threads", "2"]].concat());
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("(2 threads ran the scheduled payload: the peak of as many cores)"),
        "{text}"
    );

    let serial = directory.join("serial.sched");
    std::fs::write(
        &serial,
        "func mm = linalg.matmul (i, j | k)\nmm.split(i, io, ii, 16)\n",
    )
    .unwrap();
    let serial = serial.display().to_string();
    let output = sched_apply(&["profile", payload, &serial, "--run", "--threads", "2"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("--threads 2: the program has no parallel loops"),
        "{}",
        stderr(&output)
    );
    // --threads means nothing without --run.
    let output = sched_apply(&["profile", payload, &schedule, "--threads", "2"]);
    assert_ne!(output.status.code(), Some(0));
    assert!(stderr(&output).contains("--run"), "{}", stderr(&output));
    let _ = std::fs::remove_dir_all(&directory);
}
