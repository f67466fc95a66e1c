//! Pads cost no copy: the op computing a padded tensor writes into the
//! padded buffer's interior (a `tensor.pad` becomes a fill and an insert
//! before bufferization, and empty-tensor elimination redirects the
//! producer), and the results stay those of the unscheduled payload, also
//! where one tensor is padded twice, read unpadded too (also after its pad,
//! from the padded buffer's interior), or is an argument,
//! or the schedule folded its unit dimensions; ops sharing one zero fill
//! each fill their own buffer instead of copying a filled one.

mod common;

use common::sched_apply_on as sched_apply;

/// `payload` under `schedule`, bufferized and offloaded (`--emit
/// offloaded`), after asserting it holds no copy.
fn bufferized_without_copies(payload: &str, schedule: &str) -> String {
    let (code, bufferized) = sched_apply(payload, schedule, &["--emit", "offloaded"]);
    assert_eq!(code, Some(0), "{bufferized}");
    assert!(
        !bufferized.contains("memref.copy") && !bufferized.contains("linalg.copy"),
        "{bufferized}"
    );
    bufferized
}

/// Asserts that `payload` under `schedule` computes what it does
/// unscheduled (`run --check`).
fn checks_equal(payload: &str, schedule: &str) {
    let (code, report) = sched_apply(payload, schedule, &["run", "--check"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(report.contains("check: ok"), "{report}");
}

/// The payloads' first op: `%relu`, the ReLU of the argument `%a`, and the
/// constant `%zero`.
macro_rules! relu_of_a {
    () => {
        r#"  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a : tensor<1x4x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%v: f32, %out: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x8xf32>
"#
    };
}

/// A ReLU padded by one (the convolution's zero border), then convolved.
const RELU_PAD_CONV: &str = concat!(
    r#"
#id = affine_map<(n, c, y, x) -> (n, c, y, x)>
func.func @f(%a: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32> {
"#,
    relu_of_a!(),
    r#"  %padded = tensor.pad %relu low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %oe = tensor.empty() : tensor<1x8x8x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%padded, %w : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}
"#
);

/// One ReLU padded twice (by one with zeros, by two with ones: defined after
/// the ReLU, so that fill stays at its pad) and also returned as it is, and
/// an argument padded.
const SHARED_PADS: &str = concat!(
    r#"
#id = affine_map<(n, c, y, x) -> (n, c, y, x)>
func.func @f(%a: tensor<1x4x8x8xf32>) -> (tensor<1x4x10x10xf32>, tensor<1x4x12x12xf32>, tensor<1x4x8x8xf32>, tensor<1x4x9x9xf32>) {
"#,
    relu_of_a!(),
    r#"  %one = arith.constant 1.0 : f32
  %p1 = tensor.pad %relu low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %p2 = tensor.pad %relu low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %one : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x12x12xf32>
  %p3 = tensor.pad %a low[0, 0, 1, 0] high[0, 0, 0, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %one : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x9x9xf32>
  return %p1, %p2, %relu, %p3 : tensor<1x4x10x10xf32>, tensor<1x4x12x12xf32>, tensor<1x4x8x8xf32>, tensor<1x4x9x9xf32>
}
"#
);

const CONV_SCHEDULE: &str = "func c = linalg.conv_2d_nchw_fchw (n, f, y, x | c, ky, kx)\n\
                             c.reorder(x, kx, ky, c, y, f, n).vectorize(x)\n";

#[test]
fn a_padded_producer_writes_into_the_padded_buffer() {
    let bufferized = bufferized_without_copies(RELU_PAD_CONV, CONV_SCHEDULE);
    // The ReLU's output is a view of the padded buffer's interior.
    assert!(
        bufferized.contains("[0, 1, 1] [4, 8, 8] [1, 1, 1]"),
        "{bufferized}"
    );
    checks_equal(RELU_PAD_CONV, CONV_SCHEDULE);
}

/// A ReLU padded for a depthwise convolution whose schedule folds the unit
/// batch dimension (so the pad reads the ReLU with it dropped and puts it
/// back after), and two convolutions and the depthwise one starting from one
/// zero fill (as CSE leaves those of one shape). 1 024 elements: copies that
/// small are not turned into vector code.
const FOLDED_PAD_SHARED_FILL: &str = r#"
#id = affine_map<(n, c, y, x) -> (n, c, y, x)>
func.func @f(%a: tensor<1x4x16x16xf32>, %w: tensor<4x3x3xf32>, %k1: tensor<4x4x1x1xf32>, %k2: tensor<4x4x1x1xf32>) -> (tensor<1x4x16x16xf32>, tensor<1x4x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x16x16xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a : tensor<1x4x16x16xf32>) outs(%e : tensor<1x4x16x16xf32>) {
  ^bb0(%v: f32, %out: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x16x16xf32>
  %padded = tensor.pad %relu low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x16x16xf32> to tensor<1x4x18x18xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%padded, %w : tensor<1x4x18x18xf32>, tensor<4x3x3xf32>) outs(%o : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %r1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%d, %k1 : tensor<1x4x16x16xf32>, tensor<4x4x1x1xf32>) outs(%o : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %r2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%d, %k2 : tensor<1x4x16x16xf32>, tensor<4x4x1x1xf32>) outs(%o : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  return %r1, %r2 : tensor<1x4x16x16xf32>, tensor<1x4x16x16xf32>
}
"#;

const FOLDED_SCHEDULE: &str = "func relu = linalg.generic (n, c, y, x)\n\
                               func dw = linalg.depthwise_conv_2d_nchw_chw (n, y, x, c | ky, kx)\n\
                               func convs = linalg.conv_2d_nchw_fchw[*] (n, f, y, x | c, ky, kx)\n\
                               relu.vectorize(x)\n\
                               dw.reorder(x, kx, ky, y, c, n).vectorize(x).unroll(kx).unroll(ky)\n\
                               convs.reorder(x, c, ky, kx, y, f, n).vectorize(x)\n";

#[test]
fn a_pad_with_unit_dimensions_folded_and_a_shared_fill_cost_no_copy() {
    let bufferized = bufferized_without_copies(FOLDED_PAD_SHARED_FILL, FOLDED_SCHEDULE);
    // Each of the three convolutions fills its own buffer.
    assert_eq!(bufferized.matches("linalg.fill").count(), 4, "{bufferized}");
    checks_equal(FOLDED_PAD_SHARED_FILL, FOLDED_SCHEDULE);
}

/// A residual block's stage boundary: the sum's ReLU padded for a stride-2
/// 3x3 convolution, and read unpadded after the pad by the stride-2 1x1
/// downsampling convolution. At batch 2 (no unit dimension to fold).
const PADDED_AND_READ_AFTER: &str = r#"
#id = affine_map<(n, c, y, x) -> (n, c, y, x)>
func.func @f(%a: tensor<2x4x16x16xf32>, %b: tensor<2x4x16x16xf32>, %w: tensor<8x4x3x3xf32>, %k: tensor<8x4x1x1xf32>) -> (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x16x16xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a, %b : tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) outs(%e : tensor<2x4x16x16xf32>) {
  ^bb0(%v: f32, %u: f32, %out: f32):
    %s = arith.addf %v, %u : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x4x16x16xf32>
  %padded = tensor.pad %relu low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %y: index, %x: index):
    tensor.yield %zero : f32
  } : tensor<2x4x16x16xf32> to tensor<2x4x18x18xf32>
  %oe = tensor.empty() : tensor<2x8x8x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%padded, %w : tensor<2x4x18x18xf32>, tensor<8x4x3x3xf32>) outs(%o : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %d = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%relu, %k : tensor<2x4x16x16xf32>, tensor<8x4x1x1xf32>) outs(%o : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  return %r, %d : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>
}
"#;

/// The two convolutions tiled as resnet18's tuned schedules tile them.
const PADDED_AND_READ_AFTER_SCHEDULE: &str =
    "func c3 = linalg.conv_2d_nchw_fchw[0] (n, f, y, x | c, ky, kx)\n\
     func c1 = linalg.conv_2d_nchw_fchw[1] (n, f, y, x | c, ky, kx)\n\
     c3.split(f, fo, fi, 8).reorder(fi, x, kx, ky, c, y, n, fo).vectorize(fi).unroll(x)\n\
         .pack(in1, fo, f)\n\
     c1.split(x, xo, xi, 8).split(f, fo, fi, 4).reorder(xi, fi, c, ky, kx, fo, xo, y, n)\n\
         .vectorize(xi).unroll(fi)\n";

/// Readers of the padded tensor's source after the pad read the padded
/// buffer's interior: the ReLU is written once, into that interior, where
/// one-shot bufferization had computed it apart and copied it in (a read
/// after the pad's write into the padded buffer is a conflict to it).
#[test]
fn a_source_also_read_after_its_pad_is_written_once_into_the_padded_buffer() {
    bufferized_without_copies(PADDED_AND_READ_AFTER, PADDED_AND_READ_AFTER_SCHEDULE);
    checks_equal(PADDED_AND_READ_AFTER, PADDED_AND_READ_AFTER_SCHEDULE);
}

/// `values` (8x8 per channel, 4 channels) padded on the last two axes.
fn padded(
    values: &[f32],
    (top, left, bottom, right): (usize, usize, usize, usize),
    fill: f32,
) -> Vec<f32> {
    let (h, w) = (8 + top + bottom, 8 + left + right);
    let mut out = vec![fill; 4 * h * w];
    for c in 0..4 {
        for y in 0..8 {
            for x in 0..8 {
                out[(c * h + y + top) * w + x + left] = values[(c * 8 + y) * 8 + x];
            }
        }
    }
    out
}

/// An .npy file of `values` with shape `shape` in `directory`.
fn npy(directory: &std::path::Path, name: &str, shape: &str, values: &[f32]) -> String {
    let ty = payload::types::parse_tensor_type(&format!("tensor<{shape}xf32>")).unwrap();
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let tensor = runner::tensor::Tensor::from_bytes(ty, &bytes).unwrap();
    let path = directory.join(name);
    std::fs::write(&path, runner::npy::write(&tensor)).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn shared_and_argument_pads_compute_their_padded_values() {
    let directory = common::tempdir();
    let input: Vec<f32> = (0..256).map(|i| (i % 7) as f32 - 3.0).collect();
    let relu: Vec<f32> = input.iter().map(|v| v.max(0.0)).collect();
    let inputs = npy(&directory, "a.npy", "1x4x8x8", &input);
    let expected = [
        npy(
            &directory,
            "p1.npy",
            "1x4x10x10",
            &padded(&relu, (1, 1, 1, 1), 0.0),
        ),
        npy(
            &directory,
            "p2.npy",
            "1x4x12x12",
            &padded(&relu, (2, 2, 2, 2), 1.0),
        ),
        npy(&directory, "relu.npy", "1x4x8x8", &relu),
        npy(
            &directory,
            "p3.npy",
            "1x4x9x9",
            &padded(&input, (1, 0, 0, 1), 1.0),
        ),
    ]
    .join(",");
    let (code, report) = sched_apply(
        SHARED_PADS,
        "",
        &["run", "--inputs", &inputs, "--expect", &expected],
    );
    assert_eq!(code, Some(0), "{report}");
    assert!(!report.contains("differs"), "{report}");
}

/// A ReLU padded by one with -1 (a value no interior element has) and
/// returned padded.
const RELU_PADDED_RETURNED: &str = concat!(
    r#"
#id = affine_map<(n, c, y, x) -> (n, c, y, x)>
func.func @f(%a: tensor<1x4x8x8xf32>) -> tensor<1x4x10x10xf32> {
"#,
    relu_of_a!(),
    r#"  %border = arith.constant -1.0 : f32
  %p = tensor.pad %relu low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %border : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  return %p : tensor<1x4x10x10xf32>
}
"#
);

/// The ReLU in blocks of two channels, on threads.
const RELU_IN_CHANNEL_BLOCKS: &str = "func relu = linalg.generic (n, c, y, x)\n\
                                      relu.split(c, co, ci, 2).parallel(co).vectorize(x)\n";

/// Asserts that `RELU_PADDED_RETURNED` under `schedule`, on two threads,
/// computes the padded ReLU of known inputs.
fn computes_the_padded_relu(schedule: &str) {
    let directory = common::tempdir();
    let input: Vec<f32> = (0..256).map(|i| (i % 7) as f32 - 3.0).collect();
    let relu: Vec<f32> = input.iter().map(|v| v.max(0.0)).collect();
    let inputs = npy(&directory, "a.npy", "1x4x8x8", &input);
    let expected = npy(
        &directory,
        "p.npy",
        "1x4x10x10",
        &padded(&relu, (1, 1, 1, 1), -1.0),
    );
    let (code, report) = sched_apply(
        RELU_PADDED_RETURNED,
        schedule,
        &[
            "run",
            "--threads",
            "2",
            "--inputs",
            &inputs,
            "--expect",
            &expected,
        ],
    );
    assert_eq!(code, Some(0), "{report}");
    assert!(report.contains("check: ok"), "{report}");
}

/// The `linalg.fill` lines of `bufferized` before its first `scf.forall`,
/// and those after.
fn fills_before_and_in_the_loop(bufferized: &str) -> (Vec<&str>, Vec<&str>) {
    let forall = bufferized.find("scf.forall").unwrap();
    let (before, after) = bufferized.split_at(forall);
    (
        before
            .lines()
            .filter(|l| l.contains("linalg.fill"))
            .collect(),
        after
            .lines()
            .filter(|l| l.contains("linalg.fill"))
            .collect(),
    )
}

/// The border of a padded buffer is filled in the loop that writes its
/// interior, each iteration the border of its own block of channels (the
/// fills are of two channels), in an out-parameter as in a buffer the
/// payload allocates; the results are the padded values.
#[test]
fn a_border_is_filled_in_each_iteration_of_the_loop_writing_the_interior() {
    let returned = bufferized_without_copies(RELU_PADDED_RETURNED, RELU_IN_CHANNEL_BLOCKS);
    let (before, within) = fills_before_and_in_the_loop(&returned);
    assert!(before.is_empty(), "{returned}");
    assert_eq!(within.len(), 4, "{returned}");
    assert!(
        within
            .iter()
            .all(|f| f.contains("memref<1x2x1x10xf32") || f.contains("memref<1x2x10x1xf32")),
        "{returned}"
    );
    computes_the_padded_relu(RELU_IN_CHANNEL_BLOCKS);

    let convolved = bufferized_without_copies(RELU_PAD_CONV, RELU_IN_CHANNEL_BLOCKS);
    let (before, within) = fills_before_and_in_the_loop(&convolved);
    assert!(
        within.iter().any(|f| f.contains("memref<1x2x10x1xf32")),
        "{convolved}"
    );
    assert!(before.is_empty(), "{convolved}");
    checks_equal(RELU_PAD_CONV, RELU_IN_CHANNEL_BLOCKS);
}

/// A loop over the interior's rows fills the column borders row by row;
/// the row borders, which no iteration's rows reach, stay whole before it,
/// and fill the column borders' corners, which no iteration reaches either.
#[test]
fn a_loop_over_the_interior_rows_fills_the_column_borders_row_by_row() {
    let schedule = "func relu = linalg.generic (n, c, y, x)\n\
                    relu.reorder(x, c, n, y).parallel(y).vectorize(x)\n";
    let bufferized = bufferized_without_copies(RELU_PADDED_RETURNED, schedule);
    let (before, within) = fills_before_and_in_the_loop(&bufferized);
    assert_eq!(
        before
            .iter()
            .filter(|f| f.contains("memref<1x4x1x10xf32"))
            .count(),
        2,
        "{bufferized}"
    );
    assert_eq!(before.len(), 2, "{bufferized}");
    assert_eq!(within.len(), 2, "{bufferized}");
    assert!(
        within.iter().all(|f| f.contains("memref<1x4x1x1xf32")),
        "{bufferized}"
    );
    computes_the_padded_relu(schedule);
}
