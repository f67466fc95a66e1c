//! The `sched-apply` binary as a user meets it: exit codes, files, defaults, help.

mod common;

use common::{sched_apply, stderr};

use std::process::Command;

#[test]
fn applies_the_default_schedule_next_to_the_payload() {
    let output = sched_apply(&["examples/halide_conv/conv.mlir"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("scf.forall") && text.contains("vector<5x64xf32>"),
        "{text}"
    );
}

#[test]
fn emits_the_transform_script() {
    let output = sched_apply(&["examples/halide_conv/conv.mlir", "--emit", "transform"]);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("transform.named_sequence @__transform_main"));
    assert!(text.contains("loc(\"examples/halide_conv/conv.sched\":"));
}

#[test]
fn bad_schedule_is_exit_1_and_writes_no_output_file() {
    let directory = common::tempdir();
    let schedule = directory.join("bad.sched");
    std::fs::write(
        &schedule,
        "func mm = linalg.matmul (i, j | k)\nmm.split(i, io, ii, 0)\n",
    )
    .unwrap();
    let out = directory.join("out.mlir");
    let output = sched_apply(&[
        "tests/payloads/matmul.mlir",
        schedule.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output)
            .contains("bad.sched:2:21: error: `split` needs a positive integer here, not 0"),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists(), "no partial output on failure");
    let output = sched_apply(&[
        "tests/payloads/matmul.mlir",
        "tests/fixtures/matmul_split.sched",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("scf.forall"));
    let leftovers: Vec<_> = std::fs::read_dir(&directory)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left behind");
}

#[test]
fn missing_files_are_exit_1_with_the_path() {
    let output = sched_apply(&["no/such/model.mlir", "no/such/fast.sched"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).starts_with("no/such/fast.sched: error: cannot read the file:"),
        "{}",
        stderr(&output)
    );
    let output = sched_apply(&["tests/payloads/matmul.mlir"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains(
            "no schedule given, and no `tests/payloads/matmul.sched` next to the payload"
        ),
        "{}",
        stderr(&output)
    );
    let output = sched_apply(&[]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("no payload given"));
}

#[test]
fn unknown_flag_is_a_usage_error() {
    let output = sched_apply(&["--frobnicate"]);
    assert_ne!(output.status.code(), Some(0));
    assert!(stderr(&output).contains("--frobnicate"));
}

#[test]
fn check_reports_without_applying() {
    let output = sched_apply(&[
        "check",
        "tests/fixtures/matmul_tile.sched",
        "--payload",
        "tests/payloads/matmul.mlir",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("ok against tests/payloads/matmul.mlir"));
    let output = sched_apply(&["check", "examples/halide_conv/conv.sched"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

#[test]
fn fmt_prints_and_checks_canonical_form() {
    let directory = common::tempdir();
    let path = directory.join("messy.sched");
    std::fs::write(
        &path,
        "func   mm=linalg.matmul(i,j|k)  # the product\nmm.split(i,io,ii,4)   .unroll(ii)\n  .vectorize(j,16)\n",
    )
    .unwrap();
    let path = path.to_str().unwrap();
    let output = sched_apply(&["fmt", path]);
    assert_eq!(output.status.code(), Some(0));
    // Spacing and indentation are fixed; the chain's line breaks are the author's.
    assert_eq!(String::from_utf8(output.stdout).unwrap(), "func mm = linalg.matmul (i, j | k)  # the product\nmm.split(i, io, ii, 4).unroll(ii)\n    .vectorize(j, 16)\n");
    assert_eq!(
        sched_apply(&["fmt", "--check", path]).status.code(),
        Some(1)
    );
    assert_eq!(
        sched_apply(&["fmt", "--write", path]).status.code(),
        Some(0)
    );
    assert_eq!(
        sched_apply(&["fmt", "--check", path]).status.code(),
        Some(0)
    );
    for example in std::fs::read_dir("examples").unwrap() {
        let directory = example.unwrap().path();
        if !directory.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&directory).unwrap() {
            let file = file.unwrap().path();
            if file.extension().is_some_and(|e| e == "sched") {
                let path = file.to_str().unwrap();
                let output = sched_apply(&["fmt", "--check", path]);
                assert_eq!(output.status.code(), Some(0), "{path} is not canonical");
            }
        }
    }
}

#[test]
fn help_teaches_with_examples() {
    let output = sched_apply(&["--help"]);
    let text = String::from_utf8(output.stdout).unwrap();
    for expected in [
        "split(d, outer, inner, factor)",
        "compute_at(consumer, loop)",
        "sched-apply check conv.sched --payload conv.mlir",
        "mlir-opt --load-dialect-plugin=$(sched-apply plugin) model.mlir --transform-preload-library",
    ] {
        assert!(text.contains(expected), "--help lacks {expected}:\n{text}");
    }
    for subcommand in ["check", "fmt", "plugin"] {
        let text = String::from_utf8(sched_apply(&[subcommand, "--help"]).stdout).unwrap();
        assert!(
            text.contains("Example"),
            "{subcommand} --help has no example:\n{text}"
        );
    }
}

/// A reader that closes the pipe early (`sched-apply … | head -1`) ends the
/// command quietly: exit 0, no panic (fuzz finding 10).
#[test]
fn a_closed_standard_output_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .args(["examples/halide_conv/conv.mlir"])
        .current_dir(common::root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).is_empty(), "{}", stderr(&output));
}

/// `targets` lists the built-in accelerators with their native tiles, and
/// checks a user's description (located errors, exit 1).
#[test]
fn targets_lists_accelerators_and_checks_descriptions() {
    let output = sched_apply(&["targets"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("hwacc16    16x16x16     f32 x f32 -> f32, i8 x i8 -> i32  64 KiB"),
        "{text}"
    );
    assert!(text.contains("host       6x64x256"), "{text}");

    let directory = common::tempdir();
    let builtin =
        std::fs::read_to_string(common::root().join("microkernels/targets/hwacc16.toml")).unwrap();
    let mine = directory.join("npu.toml");
    std::fs::write(
        &mine,
        builtin.replace("name = \"hwacc16\"", "name = \"npu\""),
    )
    .unwrap();
    let output = sched_apply(&["targets", "--target", mine.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(String::from_utf8(output.stdout)
        .unwrap()
        .contains("npu        16x16x16"));

    let bad = directory.join("bad.toml");
    std::fs::write(
        &bad,
        builtin.replace("kernel = \"hwacc16\"", "kernel = \"tpu\""),
    )
    .unwrap();
    let output = sched_apply(&["targets", "--target", bad.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "{}: error: unknown kernel `tpu`: the built-in kernels are hwacc16, host, or `library` \
             with a [library] table for your own\n",
            bad.display()
        )
    );
    let _ = std::fs::remove_dir_all(&directory);
}

#[test]
fn directives_that_do_nothing_are_located_warnings_and_deny_warnings_fails() {
    let directory = common::tempdir();
    let schedule = directory.join("idle.sched");
    std::fs::write(
        &schedule,
        "func scaled = linalg.generic[0] (i, j)\nfunc out = linalg.generic[1] (i, j)\n\
         out.split(j, jo, ji, 16).reorder(ji, jo, i).vectorize(ji)\n\
         scaled.split(i, io, ii, 32).parallel(io)\n\
         scaled.vectorize(j, 256)\n",
    )
    .unwrap();
    let schedule = schedule.to_str().unwrap();
    let out = directory.join("out.mlir");
    let out = out.to_str().unwrap();
    let applied = sched_apply(&["tests/payloads/chain.mlir", schedule, "-o", out]);
    let warnings = stderr(&applied);
    assert_eq!(applied.status.code(), Some(0), "{warnings}");
    for expected in [
        "idle.sched:3:26: warning: this `reorder` changes nothing: the loops are already in this order",
        "idle.sched:4:29: warning: `io` has one iteration here, so `parallel` leaves one task",
        "idle.sched:5:8: warning: `j` has exactly 256 iterations, so splitting it by 256 leaves an outer loop of one iteration",
        "= help: `vectorize(j)` says the same",
    ] {
        assert!(warnings.contains(expected), "{expected}\n in\n{warnings}");
    }
    assert!(
        std::path::Path::new(out).exists(),
        "warnings do not stop the output"
    );
    std::fs::remove_file(out).unwrap();

    let denied = sched_apply(&[
        "tests/payloads/chain.mlir",
        schedule,
        "-o",
        out,
        "--deny-warnings",
    ]);
    assert_eq!(denied.status.code(), Some(1));
    assert!(stderr(&denied).contains("error: 3 warnings denied (--deny-warnings)"));
    assert!(
        !std::path::Path::new(out).exists(),
        "denied: no output file"
    );

    let checked = sched_apply(&["check", schedule, "--payload", "tests/payloads/chain.mlir"]);
    assert_eq!(checked.status.code(), Some(0));
    assert!(stderr(&checked).contains("ok against tests/payloads/chain.mlir (3 warnings)"));
}

/// Every example and fixture through `explain --json`: each stage's final
/// nest is the nest its last directive left, the outermost loop over each
/// dimension covers the dimension's extent exactly once, and every loop of
/// the generated IR the planner named is a loop of that stage's nest.
#[test]
fn explain_prints_the_requested_nest_of_every_example_and_fixture() {
    let root = common::root();
    let mut cases: Vec<(String, String)> = Vec::new();
    for entry in std::fs::read_dir(root.join("tests/fixtures")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let payload = text
            .lines()
            .find_map(|l| l.strip_prefix("# payload: "))
            .unwrap()
            .to_string();
        cases.push((
            format!("tests/payloads/{payload}"),
            path.strip_prefix(&root).unwrap().display().to_string(),
        ));
    }
    for (payload, schedule) in [
        (
            "examples/halide_conv/conv.mlir",
            "examples/halide_conv/conv.sched",
        ),
        ("examples/gemm/gemm.mlir", "examples/gemm/gemm.sched"),
        ("examples/gemm/gemm.mlir", "examples/gemm/gemm_accel.sched"),
        ("examples/gemm/gemm.mlir", "examples/gemm/gemm_blis.sched"),
        ("examples/cnn/mnist.mlir", "examples/cnn/mnist_cpu.sched"),
        ("examples/cnn/mnist.mlir", "examples/cnn/mnist_accel.sched"),
        (
            "examples/rfactor/tall_matmul.mlir",
            "examples/rfactor/tall_matmul.sched",
        ),
        (
            "examples/rfactor/vector_sum.mlir",
            "examples/rfactor/vector_sum.sched",
        ),
        (
            "examples/blur/blur_slices.mlir",
            "examples/blur/blur_slices.sched",
        ),
        (
            "examples/blur/blur_maps.mlir",
            "examples/blur/blur_maps.sched",
        ),
    ] {
        cases.push((payload.to_string(), schedule.to_string()));
    }
    let mut named_in_all = 0;
    for (payload, schedule) in &cases {
        let output = sched_apply(&["explain", payload, schedule, "--json"]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{schedule}: {}",
            stderr(&output)
        );
        let explanation: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        // Every loop of the generated IR the planner named maps to loops
        // of that stage's requested nest.
        let mut requested: Vec<(String, Vec<String>)> = Vec::new();
        for func in explanation["funcs"].as_array().unwrap() {
            for (index, stage) in func["stages"].as_array().unwrap().iter().enumerate() {
                let name = func["name"].as_str().unwrap();
                let label = if index == 1 {
                    format!("{name}.update()")
                } else {
                    name.to_string()
                };
                let loops = stage["loops"].as_array().unwrap();
                let names = loops
                    .iter()
                    .map(|l| l["name"].as_str().unwrap().to_string());
                requested.push((label, names.collect()));
            }
        }
        let mut named = 0;
        let mut pending: Vec<&serde_json::Value> = explanation["generated"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|f| f["loops"].as_array().unwrap())
            .collect();
        while let Some(l) = pending.pop() {
            pending.extend(l["inner"].as_array().unwrap());
            let Some(names) = l["names"].as_str() else {
                continue;
            };
            named += 1;
            let (label, names) = names.split_once(": ").unwrap();
            let (_, loops) = requested
                .iter()
                .find(|(l, _)| l == label)
                .unwrap_or_else(|| panic!("{schedule}: no stage `{label}`"));
            for name in names.split(", ") {
                assert!(
                    loops.iter().any(|l| l == name),
                    "{schedule}: `{name}` is no loop of `{label}`"
                );
            }
        }
        named_in_all += named;
        for func in explanation["funcs"].as_array().unwrap() {
            for stage in func["stages"].as_array().unwrap() {
                let loops = stage["loops"].as_array().unwrap();
                let names = |loops: &[serde_json::Value]| -> Vec<String> {
                    loops.iter().map(|l| l["name"].to_string()).collect()
                };
                if let Some(last) = stage["steps"].as_array().unwrap().last() {
                    assert_eq!(
                        names(last["loops"].as_array().unwrap()),
                        names(loops),
                        "{schedule}"
                    );
                }
                let mut outermost: Vec<&serde_json::Value> = Vec::new();
                for l in loops {
                    if !outermost.iter().any(|o| o["dimension"] == l["dimension"]) {
                        outermost.push(l);
                    }
                }
                for l in outermost {
                    // The loops of a dimension nest outer to inner; the
                    // outermost covers the extent (partial tiles included).
                    let (Some(n), Some(step), Some(extent)) = (
                        l["iterations"].as_i64(),
                        l["step"].as_i64(),
                        l["extent"].as_i64(),
                    ) else {
                        continue;
                    };
                    assert!(
                        n * step >= extent && (n - 1) * step < extent,
                        "{schedule}: {l} does not cover the extent once"
                    );
                    assert_eq!(l["partial"], extent % step != 0, "{schedule}: {l}");
                }
            }
        }
    }
    assert!(
        named_in_all > cases.len(),
        "the generated loops carry their names"
    );
    let text = sched_apply(&["explain", "examples/halide_conv/conv.mlir"]);
    assert_eq!(text.status.code(), Some(0));
    insta::assert_snapshot!(
        "explain_conv_layer",
        String::from_utf8(text.stdout).unwrap()
    );
}

/// `ops` prints `func` lines that bind: pasted as a schedule, every test
/// payload's and example's listing checks clean, one line per linalg op.
#[test]
fn ops_lists_func_lines_that_bind() {
    let root = common::root();
    let mut payloads: Vec<String> = std::fs::read_dir(root.join("tests/payloads"))
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            path.strip_prefix(&root).unwrap().display().to_string()
        })
        .collect();
    payloads.extend(
        [
            "examples/halide_conv/conv.mlir",
            "examples/cnn/mnist.mlir",
            "examples/gemm/gemm.mlir",
        ]
        .map(String::from),
    );
    let directory = common::tempdir();
    for payload in &payloads {
        let listed = sched_apply(&["ops", payload]);
        assert_eq!(
            listed.status.code(),
            Some(0),
            "{payload}: {}",
            stderr(&listed)
        );
        let text = String::from_utf8(listed.stdout).unwrap();
        let schedule = directory.join("listed.sched");
        std::fs::write(&schedule, &text).unwrap();
        let checked = sched_apply(&["check", schedule.to_str().unwrap(), "--payload", payload]);
        assert_eq!(
            checked.status.code(),
            Some(0),
            "{payload}: the listing does not bind:\n{text}\n{}",
            stderr(&checked)
        );
        let json = sched_apply(&["ops", payload, "--json"]);
        let ops: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        let funcs = text.lines().filter(|l| l.starts_with("func ")).count();
        let commented = text.lines().filter(|l| l.starts_with("# linalg.")).count();
        assert_eq!(
            ops.as_array().unwrap().len(),
            funcs + commented,
            "{payload}"
        );
    }
    let mnist = sched_apply(&["ops", "examples/cnn/mnist.mlir"]);
    let text = String::from_utf8(mnist.stdout).unwrap();
    assert!(
        text.contains(
            "func mm0 = linalg.matmul[0] (i, j | k)  # 64 x 1024 | 6272, 822083584 FLOPs"
        ),
        "{text}"
    );
}

/// A bytecode payload (`mlir-opt --emit-bytecode`) loads like its text and
/// runs under the same schedule; a truncated one is a located input error.
#[test]
fn bytecode_payloads_load_and_a_broken_one_is_an_input_error() {
    let directory = common::tempdir();
    let bytecode = directory.join("matmul.mlirbc");
    let status = Command::new(common::tool("mlir-opt"))
        .args(["--emit-bytecode", "tests/payloads/matmul.mlir", "-o"])
        .arg(&bytecode)
        .current_dir(common::root())
        .status()
        .unwrap();
    assert!(status.success());
    let bytes = std::fs::read(&bytecode).unwrap();
    assert!(bytes.starts_with(b"ML\xefR"), "not bytecode");
    let path = bytecode.display().to_string();
    let output = sched_apply(&[
        "run",
        &path,
        "tests/fixtures/matmul_parallel.sched",
        "--check",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains("\"check\": \"ok\""));
    let listed = sched_apply(&["ops", &path]);
    assert!(String::from_utf8_lossy(&listed.stdout).contains("func mm0 = linalg.matmul"));

    let broken = directory.join("broken.mlirbc");
    std::fs::write(&broken, &bytes[..bytes.len() / 2]).unwrap();
    let output = sched_apply(&["ops", &broken.display().to_string()]);
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    assert!(text.contains("cannot read the MLIR bytecode"), "{text}");
    assert!(text.contains("broken.mlirbc"), "{text}");
    let _ = std::fs::remove_dir_all(&directory);
}
