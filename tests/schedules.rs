//! Fixture-driven tests of whole schedules: each `tests/fixtures/*.sched`
//! names its payload in a `# payload:` header. For each one:
//! - the generated script and the transformed payload (verified by MLIR's
//!   verifier when applied) are snapshotted together;
//! - upstream `mlir-opt --transform-interpreter` given the same script must
//!   produce the same IR;
//! - the payload before and after is run with `mlir-runner` on the same
//!   inputs and the results must agree.

mod common;

use interpreter::pipeline::{run, Machine, Stop};
use schedule_lang::SourceFile;
use std::path::Path;

/// Applies a schedule; returns (script, transformed payload, and the
/// payload after the inline phase when the schedule inlines a func).
fn apply(
    schedule: &SourceFile,
    payload_name: &str,
    payload_text: &str,
) -> (String, String, Option<String>) {
    let targets = microkernels::builtin_targets();
    let machine = Machine {
        vector_unit: schedule_lang::VectorUnit::AVX512,
        accelerators: &targets,
    };
    let outcome = |stop| {
        run(schedule, payload_name, payload_text, stop, &machine)
            .unwrap_or_else(|failure| panic!("{} failed:\n{}", schedule.name, failure.message()))
    };
    // The payload the script applies to is printed by a run that stops
    // after planning, as `--emit inlined` does.
    let planned = outcome(Stop::Plan);
    let applied = outcome(Stop::Apply);
    assert_eq!(planned.script, applied.script);
    (
        applied.script,
        applied.payload.expect("applied"),
        planned.inlined,
    )
}

/// The same script through upstream mlir-opt gives the same IR. Our own
/// ops that stand in for upstream ones (only to be faster on long chains)
/// are given to mlir-opt as the upstream ops, so this also proves they
/// transform alike: `sched.fuse_into` as `structured.fuse_into_containing_op`,
/// `sched.cse` as `apply_cse`. `sched.union_slices` and
/// `sched.slice_through_reshapes`, `sched.relayout_operand` and `sched.fresh_init` have no
/// upstream counterpart: a script with them is compared without them (and
/// without the steps on the handles they return), applied by both (what
/// they do is checked by running the payloads, and in
/// `payload/tests/own_ops.rs`).
fn cross_check(script: &str, payload_text: &str, ours: &str) {
    const OURS_ONLY: [&str; 4] = [
        "transform.sched.union_slices ",
        "transform.sched.slice_through_reshapes ",
        "transform.sched.relayout_operand ",
        "transform.sched.fresh_init ",
    ];
    let ours_only = |line: &str| OURS_ONLY.iter().any(|op| line.contains(op));
    if script.lines().any(ours_only) {
        let without = without_ours_only(script, ours_only);
        let context = payload::new_context();
        let mut module = payload::parse_module(&context, "payload.mlir", payload_text).unwrap();
        payload::transform::apply_script(&context, &mut module, &without).unwrap();
        let ours_without = payload::ffi::print_module(&module);
        return cross_check(&without, payload_text, &ours_without);
    }
    let directory = common::tempdir();
    let script_path = directory.join("script.mlir");
    let upstream_script = script
        .replace(
            "transform.sched.fuse_into ",
            "transform.structured.fuse_into_containing_op ",
        )
        .replace("transform.sched.cse ", "transform.apply_cse ");
    std::fs::write(&script_path, upstream_script).unwrap();
    let preload = format!(
        "--transform-preload-library=transform-library-paths={}",
        script_path.display()
    );
    let upstream = common::mlir_opt(payload_text, &[&preload, "--transform-interpreter"]);
    let _ = std::fs::remove_dir_all(&directory);
    assert_eq!(
        upstream.trim_end(),
        ours.trim_end(),
        "mlir-opt and sched-apply disagree"
    );
}

/// `script` without the lines `ours_only` picks, nor any line that reads a
/// handle such a line (or a line dropped this way) defines.
fn without_ours_only(script: &str, ours_only: impl Fn(&str) -> bool) -> String {
    let mut dropped_handles: Vec<String> = Vec::new();
    let mut kept: Vec<&str> = Vec::new();
    for line in script.lines() {
        let reads_dropped = line
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '%'))
            .any(|token| dropped_handles.iter().any(|h| h == token));
        if ours_only(line) || reads_dropped {
            if let Some((defined, _)) = line.split_once(" = ") {
                dropped_handles.extend(defined.split(',').map(|h| h.trim().to_string()));
            }
        } else {
            kept.push(line);
        }
    }
    kept.join("\n")
}

/// Runs both versions and compares.
fn semantics(name: &str, payload_text: &str, transformed: &str) {
    let (difference, magnitude) = common::differential(payload_text, transformed);
    assert!(
        magnitude > 0.0,
        "{name}: the reference result is all zeros, the check would prove nothing"
    );
    assert!(
        difference <= 1e-4 * (1.0 + magnitude),
        "{name}: scheduled result differs by {difference} (reference magnitude {magnitude})"
    );
}

#[test]
fn fixtures() {
    insta::glob!("fixtures/*.sched", |path| {
        let fixture = common::fixture(path);
        let payload_name = fixture
            .payload_path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let (script, transformed, inlined) =
            apply(&fixture.schedule, &payload_name, &fixture.payload_text);
        let inlined_part = match &inlined {
            Some(text) => format!("// ---- payload after the inline phase ----\n{text}\n"),
            None => String::new(),
        };
        insta::assert_snapshot!(format!(
            "{inlined_part}{script}\n// ---- transformed payload ----\n{transformed}"
        ));
        // The script applies to the payload after the inline phase, if any.
        let scripted = inlined.as_deref().unwrap_or(&fixture.payload_text);
        cross_check(&script, scripted, &transformed);
        if fixture.run_check {
            semantics(&fixture.schedule.name, &fixture.payload_text, &transformed);
        }
    });
}

/// Applies `examples/<directory>/<stem>.sched` to `<stem>.mlir` at full size,
/// snapshots the result as `snapshot`, and cross-checks it with mlir-opt.
/// Returns the schedule.
fn example(directory: &str, stem: &str, snapshot: &str) -> SourceFile {
    let root = common::root().join("examples").join(directory);
    let schedule = SourceFile::new(
        format!("{stem}.sched"),
        std::fs::read_to_string(root.join(format!("{stem}.sched"))).unwrap(),
    );
    let payload_text = std::fs::read_to_string(root.join(format!("{stem}.mlir"))).unwrap();
    let (script, transformed, _) = apply(&schedule, &format!("{stem}.mlir"), &payload_text);
    insta::assert_snapshot!(
        snapshot,
        format!("{script}\n// ---- transformed payload ----\n{transformed}")
    );
    cross_check(&script, &payload_text, &transformed);
    assert!(
        Path::new(&root.join("README.md")).exists(),
        "the example documents itself"
    );
    schedule
}

/// The example the README shows: Halide's conv_layer schedule on the full-size payload.
/// (The full size is run through tests/fixtures/conv_small.sched: the same schedule, smaller shapes.)
#[test]
fn conv_layer_example() {
    example("halide_conv", "conv", "conv_layer");
}

/// The second convolution shape (ResNet's 3x3, 64 channels, 56 x 56, batch 8) under
/// conv.sched's directives, one thread and on threads; run and checked in tests/run.rs.
#[test]
fn resnet_conv_example() {
    example("halide_conv", "resnet_conv", "resnet_conv");
    let root = common::root().join("examples/halide_conv");
    let schedule = SourceFile::new(
        "resnet_conv_parallel.sched",
        std::fs::read_to_string(root.join("resnet_conv_parallel.sched")).unwrap(),
    );
    let payload_text = std::fs::read_to_string(root.join("resnet_conv.mlir")).unwrap();
    let (script, transformed, _) = apply(&schedule, "resnet_conv.mlir", &payload_text);
    assert!(
        script.contains("transform.structured.tile_using_forall"),
        "{script}"
    );
    cross_check(&script, &payload_text, &transformed);
}

/// The BLIS-style SGEMM example applies on the full-size payload, and upstream
/// mlir-opt agrees (tests/fixtures/gemm_small.sched runs the same schedule).
#[test]
fn gemm_example() {
    let schedule = example("gemm", "gemm", "gemm");
    let small =
        std::fs::read_to_string(common::root().join("tests/fixtures/gemm_small.sched")).unwrap();
    let directives = |text: &str| {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        directives(&small),
        directives(&schedule.text),
        "gemm_small.sched must be the example's schedule"
    );
}

/// The differential check can fail: a payload that computes something else is caught.
#[test]
fn differential_check_detects_a_wrong_result() {
    let original =
        std::fs::read_to_string(common::root().join("tests/payloads/chain.mlir")).unwrap();
    let wrong = original.replace("arith.maximumf %a, %zero", "arith.minimumf %a, %zero");
    assert_ne!(original, wrong);
    let (difference, magnitude) = common::differential(&original, &wrong);
    assert!(magnitude > 0.0);
    assert!(
        difference > 0.1,
        "a min instead of a max went unnoticed: difference {difference}"
    );
}

/// The rfactor examples apply at full size, as partial reductions in a
/// parallel forall or as a vector of partial sums carried by a loop, and
/// upstream mlir-opt agrees (semantics: tests/parallel.rs runs the forall
/// form on two threads, tests/fixtures/row_sum_rfactor_vectorized.sched the
/// vector form).
#[test]
fn rfactor_examples() {
    let root = common::root().join("examples/rfactor");
    for (payload, schedule) in [
        ("tall_matmul", "tall_matmul"),
        ("tall_matmul", "tall_matmul_serial"),
        ("vector_sum", "vector_sum"),
        ("vector_sum", "vector_sum_vectorized"),
    ] {
        let source = SourceFile::new(
            format!("{schedule}.sched"),
            std::fs::read_to_string(root.join(format!("{schedule}.sched"))).unwrap(),
        );
        let payload_text = std::fs::read_to_string(root.join(format!("{payload}.mlir"))).unwrap();
        let (script, transformed, _) = apply(&source, &format!("{payload}.mlir"), &payload_text);
        let parallel = script.contains("tile_reduction_using_forall");
        let vectorized = script.contains("tile_reduction_using_for ");
        match schedule {
            "tall_matmul_serial" => assert!(!parallel && !vectorized),
            "vector_sum_vectorized" => {
                assert!(vectorized && !parallel);
                // One vector of partial sums carried by the loop.
                assert!(transformed.contains("iter_args(%arg2 = %5) -> (vector<16xf32>)"));
            }
            _ => assert!(
                parallel && transformed.contains("sched.parallel"),
                "{schedule}"
            ),
        }
        cross_check(&script, &payload_text, &transformed);
    }
    assert!(
        root.join("README.md").exists(),
        "the example documents itself"
    );
}

/// Halide's blur schedule applies to both forms of the stencil at full size,
/// and upstream mlir-opt agrees (semantics: tests/run.rs runs both). Read
/// through three shifted slices or through one window map, blur_x is
/// computed once inside each row of blur_y, over the three rows it reads
/// (for the slices, their union); inside each strip of 8 rows, over 10.
#[test]
fn blur_examples() {
    let root = common::root().join("examples/blur");
    let source = |stem: &str| std::fs::read_to_string(root.join(stem)).unwrap();
    example("blur", "blur_slices", "blur_slices");
    example("blur", "blur_maps", "blur_maps");
    let schedule = SourceFile::new("blur_slices.sched", source("blur_slices.sched"));
    let (_, slices, _) = apply(&schedule, "blur_slices.mlir", &source("blur_slices.mlir"));
    // One instance of blur_x and blur_y itself, each dividing by 3.
    assert_eq!(slices.matches("arith.divf").count(), 2, "{slices}");
    assert!(slices.contains("tensor<3x1024xf32>"), "{slices}");
    let schedule = SourceFile::new("blur_slices_strip.sched", source("blur_slices_strip.sched"));
    let (_, strip, _) = apply(&schedule, "blur_slices.mlir", &source("blur_slices.mlir"));
    assert_eq!(strip.matches("arith.divf").count(), 2, "{strip}");
    assert!(strip.contains("tensor<10x1024xf32>"), "{strip}");
    let schedule = SourceFile::new("blur_maps.sched", source("blur_maps.sched"));
    let (_, maps, _) = apply(&schedule, "blur_maps.mlir", &source("blur_maps.mlir"));
    // blur_x's tile inside yi: the three rows one row of blur_y reads.
    assert!(maps.contains("tensor<3x1024xf32>"), "{maps}");
}

/// The HeteroCL memory examples apply at full size and upstream mlir-opt
/// agrees (semantics: tests/run.rs runs them): each buffers its output tile
/// in a nofold pad copied back once per iteration of the buffer's loop.
#[test]
fn heterocl_examples() {
    for stem in ["gemm", "gemm_interleave", "conv2d"] {
        example("heterocl", stem, &format!("heterocl_{stem}"));
    }
    let root = common::root().join("examples/heterocl");
    for stem in ["gemm", "gemm_interleave", "conv2d"] {
        let source = SourceFile::new(
            format!("{stem}.sched"),
            std::fs::read_to_string(root.join(format!("{stem}.sched"))).unwrap(),
        );
        let payload = std::fs::read_to_string(root.join(format!("{stem}.mlir"))).unwrap();
        let (_, transformed, _) = apply(&source, &format!("{stem}.mlir"), &payload);
        assert!(transformed.contains("nofold"), "{stem}: no write buffer");
        assert!(transformed.contains("linalg.copy"), "{stem}: no write-back");
    }
}
