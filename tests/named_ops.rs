//! Every named convolution and pooling op in the layouts torch-mlir and TOSA
//! produce (and the 1-D and 3-D forms) vectorizes from the schedule, on the
//! loops a user would vectorize: the output width, and the output channels
//! (the channels, for depthwise convolutions and pooling), and with a window
//! loop unrolled beside the vector loop. Each schedule is
//! applied, JIT-run and checked against the unscheduled payload with
//! `sched-apply run --check`.

mod common;

use std::process::Command;

const STRIDES_1D: &str =
    "{dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}";
const STRIDES_2D: &str =
    "{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}";
const STRIDE2_2D: &str =
    "{dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}";
const STRIDES_3D: &str =
    "{dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}";

/// One named op: its name, attributes, input and output shapes, the dims a
/// `.sched` binds (parallel `|` reduction, in linalg order), and the two
/// loops to vectorize (width, channels).
struct NamedOp {
    name: &'static str,
    attributes: &'static str,
    inputs: &'static [&'static str],
    output: &'static str,
    dims: &'static str,
    width: &'static str,
    channels: &'static str,
}

const OPS: &[NamedOp] = &[
    NamedOp {
        name: "conv_2d_nchw_fchw",
        attributes: STRIDES_2D,
        inputs: &["1x4x10x18", "8x4x3x3"],
        output: "1x8x8x16",
        dims: "n, f, y, x | c, ky, kx",
        width: "x",
        channels: "f",
    },
    NamedOp {
        name: "conv_2d_nhwc_hwcf",
        attributes: STRIDES_2D,
        inputs: &["1x10x18x4", "3x3x4x8"],
        output: "1x8x16x8",
        dims: "n, y, x, f | ky, kx, c",
        width: "x",
        channels: "f",
    },
    NamedOp {
        name: "conv_2d_nhwc_fhwc",
        attributes: STRIDES_2D,
        inputs: &["1x10x18x4", "8x3x3x4"],
        output: "1x8x16x8",
        dims: "n, y, x, f | ky, kx, c",
        width: "x",
        channels: "f",
    },
    NamedOp {
        name: "depthwise_conv_2d_nhwc_hwc",
        attributes: STRIDES_2D,
        inputs: &["1x10x18x16", "3x3x16"],
        output: "1x8x16x16",
        dims: "n, y, x, c | ky, kx",
        width: "x",
        channels: "c",
    },
    NamedOp {
        name: "depthwise_conv_2d_nchw_chw",
        attributes: STRIDES_2D,
        inputs: &["1x16x10x18", "16x3x3"],
        output: "1x16x8x16",
        dims: "n, c, y, x | ky, kx",
        width: "x",
        channels: "c",
    },
    NamedOp {
        name: "pooling_nchw_max",
        attributes: STRIDES_2D,
        inputs: &["1x4x10x18", "3x3"],
        output: "1x4x8x16",
        dims: "n, c, y, x | ky, kx",
        width: "x",
        channels: "c",
    },
    NamedOp {
        name: "pooling_nhwc_max",
        attributes: STRIDES_2D,
        inputs: &["1x10x18x16", "3x3"],
        output: "1x8x16x16",
        dims: "n, y, x, c | ky, kx",
        width: "x",
        channels: "c",
    },
    NamedOp {
        name: "pooling_nhwc_sum",
        attributes: STRIDES_2D,
        inputs: &["1x10x18x16", "3x3"],
        output: "1x8x16x16",
        dims: "n, y, x, c | ky, kx",
        width: "x",
        channels: "c",
    },
    NamedOp {
        name: "conv_1d_nwc_wcf",
        attributes: STRIDES_1D,
        inputs: &["1x18x4", "3x4x8"],
        output: "1x16x8",
        dims: "n, x, f | kx, c",
        width: "x",
        channels: "f",
    },
    NamedOp {
        name: "conv_3d_ndhwc_dhwcf",
        attributes: STRIDES_3D,
        inputs: &["1x4x6x18x4", "3x3x3x4x8"],
        output: "1x2x4x16x8",
        dims: "n, z, y, x, f | kz, ky, kx, c",
        width: "x",
        channels: "f",
    },
];

/// The 2-D ops with stride 2 (ResNet's downsampling convolutions, max
/// pooling), input sizes `(out - 1) * 2 + 3`.
const STRIDED: &[NamedOp] = &[
    NamedOp {
        name: "conv_2d_nchw_fchw",
        attributes: STRIDE2_2D,
        inputs: &["1x4x17x33", "16x4x3x3"],
        output: "1x16x8x16",
        dims: "n, f, y, x | c, ky, kx",
        width: "x",
        channels: "f",
    },
    NamedOp {
        name: "conv_2d_nhwc_hwcf",
        attributes: STRIDE2_2D,
        inputs: &["1x17x33x4", "3x3x4x16"],
        output: "1x8x16x16",
        dims: "n, y, x, f | ky, kx, c",
        width: "x",
        channels: "f",
    },
    NamedOp {
        name: "depthwise_conv_2d_nchw_chw",
        attributes: STRIDE2_2D,
        inputs: &["1x16x17x33", "16x3x3"],
        output: "1x16x8x16",
        dims: "n, c, y, x | ky, kx",
        width: "x",
        channels: "c",
    },
    NamedOp {
        name: "depthwise_conv_2d_nhwc_hwc",
        attributes: STRIDE2_2D,
        inputs: &["1x17x33x16", "3x3x16"],
        output: "1x8x16x16",
        dims: "n, y, x, c | ky, kx",
        width: "x",
        channels: "c",
    },
    NamedOp {
        name: "pooling_nchw_max",
        attributes: STRIDE2_2D,
        inputs: &["1x16x17x33", "3x3"],
        output: "1x16x8x16",
        dims: "n, c, y, x | ky, kx",
        width: "x",
        channels: "c",
    },
    NamedOp {
        name: "pooling_nhwc_max",
        attributes: STRIDE2_2D,
        inputs: &["1x17x33x16", "3x3"],
        output: "1x8x16x16",
        dims: "n, y, x, c | ky, kx",
        width: "x",
        channels: "c",
    },
];

impl NamedOp {
    /// A function computing the op on its arguments.
    fn payload(&self) -> String {
        let tensor = |shape: &str| format!("tensor<{shape}xf32>");
        let mut arguments: Vec<String> = (0..self.inputs.len())
            .map(|k| format!("%i{k}: {}", tensor(self.inputs[k])))
            .collect();
        arguments.push(format!("%o: {}", tensor(self.output)));
        let values: Vec<String> = (0..self.inputs.len()).map(|k| format!("%i{k}")).collect();
        let types: Vec<String> = self.inputs.iter().map(|s| tensor(s)).collect();
        let out = tensor(self.output);
        format!(
            "func.func @f({}) -> {out} {{\n  %r = linalg.{} {} ins({} : {}) outs(%o : {out}) -> {out}\n  return %r : {out}\n}}\n",
            arguments.join(", "),
            self.name,
            self.attributes,
            values.join(", "),
            types.join(", ")
        )
    }

    /// A schedule that splits `vectorized` by 8 and vectorizes the inner
    /// part, innermost, with the window loops (reductions) around it; with
    /// `unroll`, the window loop right outside the vector loop is unrolled.
    fn schedule(&self, vectorized: &str, unroll: bool) -> String {
        let (parallel, reduction) = self.dims.split_once('|').unwrap();
        let names =
            |list: &str| -> Vec<String> { list.split(',').map(|d| d.trim().to_string()).collect() };
        let (parallel, reduction) = (names(parallel), names(reduction));
        let unrolled = if unroll {
            format!("\n  .unroll({})", reduction[0])
        } else {
            String::new()
        };
        let mut order = vec![format!("{vectorized}i")];
        order.extend(reduction);
        order.push(format!("{vectorized}o"));
        order.extend(parallel.iter().rev().filter(|d| *d != vectorized).cloned());
        format!(
            "func op = linalg.{} ({})\nop.split({vectorized}, {vectorized}o, {vectorized}i, 8)\n  .reorder({})\n  .vectorize({vectorized}i){unrolled}\n",
            self.name,
            self.dims,
            order.join(", ")
        )
    }

    /// A register tile: the channels split by 8 and vectorized, inside 4
    /// output columns unrolled in the vector tile, the window loops around
    /// them (the op's iterators order `x` before the channels only in the
    /// NHWC forms).
    fn register_tile_schedule(&self) -> String {
        let (parallel, reduction) = self.dims.split_once('|').unwrap();
        let names =
            |list: &str| -> Vec<String> { list.split(',').map(|d| d.trim().to_string()).collect() };
        let (parallel, reduction) = (names(parallel), names(reduction));
        let (c, x) = (self.channels, self.width);
        let mut order = vec![format!("{c}i"), format!("{x}i")];
        order.extend(reduction);
        order.extend([format!("{x}o"), format!("{c}o")]);
        order.extend(
            parallel
                .iter()
                .rev()
                .filter(|d| *d != c && *d != x)
                .cloned(),
        );
        format!(
            "func op = linalg.{} ({})\nop.split({c}, {c}o, {c}i, 8).split({x}, {x}o, {x}i, 4)\n  .reorder({})\n  .vectorize({c}i).unroll({x}i)\n",
            self.name,
            self.dims,
            order.join(", ")
        )
    }
}

/// Runs `schedule` on `op`'s payload with `--check`; a failure's report.
fn check(directory: &std::path::Path, op: &NamedOp, label: &str, schedule: &str) -> Option<String> {
    let payload = directory.join(format!("{}_{label}.mlir", op.name));
    std::fs::write(&payload, op.payload()).unwrap();
    let path = directory.join(format!("{}_{label}.sched", op.name));
    std::fs::write(&path, schedule).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .arg("run")
        .arg(&payload)
        .arg(&path)
        .arg("--check")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    (output.status.code() != Some(0) || !stdout.contains("check: ok")).then(|| {
        format!(
            "{} ({label}):\n{schedule}{stdout}{}",
            op.name,
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[test]
fn stride_2_ops_vectorize_along_the_strided_width_and_in_register_tiles() {
    let directory = common::tempdir();
    let mut failures = Vec::new();
    for op in STRIDED {
        failures.extend(check(
            &directory,
            op,
            "width",
            &op.schedule(op.width, false),
        ));
        failures.extend(check(&directory, op, "tile", &op.register_tile_schedule()));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_named_convolution_and_pooling_op_vectorizes_and_matches() {
    let directory = common::tempdir();
    let mut failures = Vec::new();
    for op in OPS {
        let payload = directory.join(format!("{}.mlir", op.name));
        std::fs::write(&payload, op.payload()).unwrap();
        for (vectorized, unroll) in [(op.width, false), (op.channels, false), (op.width, true)] {
            let schedule = directory.join(format!("{}_{vectorized}_{unroll}.sched", op.name));
            std::fs::write(&schedule, op.schedule(vectorized, unroll)).unwrap();
            let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
                .arg("run")
                .arg(&payload)
                .arg(&schedule)
                .arg("--check")
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&output.stdout);
            if output.status.code() != Some(0) || !stdout.contains("check: ok") {
                failures.push(format!(
                    "{} vectorized on {vectorized} (unrolling a window loop: {unroll}):\n{stdout}{}",
                    op.name,
                    String::from_utf8_lossy(&output.stderr)
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&directory);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
