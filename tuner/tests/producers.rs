//! Convolutions computed in their activations' tiles: the fusion the tuner
//! writes when a convolution was tuned with a channel tile and an
//! activation reads it through inlined elementwise ops alone. The written
//! schedule plans without a warning and computes what the payload does.

mod common;

use common::fused::{
    computes_the_same, header, isolated, quick_options, tuned_inlining, written, ByText,
};
use common::{described, planned};
use schedule_lang::PayloadInfo;
use tuner::dividing::{dividing_tiles, DIVIDING_TILES_TRIED};
use tuner::measure::{InProcess, Measurer};
use tuner::producers::{apply, fusions, variants};
use tuner::space::{candidates, RegisterTile};
use tuner::tasks::tasks;
use tuner::TaskResult;

/// A 3x3 convolution, a per-channel bias add, a ReLU, on 8 x 8 outputs;
/// `extra` is returned too (the convolution's result when it is `%c`).
fn conv_bias_relu(extra: &str) -> String {
    conv_bias_relu_of(extra, 8)
}

/// The same on `width` x `width` outputs.
fn conv_bias_relu_of(extra: &str, width: i64) -> String {
    let output = format!("1x64x{width}x{width}xf32");
    let (types, values) = match extra {
        "" => (String::new(), String::new()),
        value => (format!(", tensor<{output}>"), format!(", {value}")),
    };
    let input = format!("1x64x{0}x{0}xf32", width + 2);
    format!(
        r#"
#id = affine_map<(n, c, y, x) -> (n, c, y, x)>
#channel = affine_map<(n, c, y, x) -> (c)>
func.func @f(%a: tensor<{input}>, %w: tensor<64x64x3x3xf32>, %b: tensor<64xf32>)
    -> (tensor<{output}>{types}) {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{output}>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<{output}>) -> tensor<{output}>
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}}
      ins(%a, %w : tensor<{input}>, tensor<64x64x3x3xf32>) outs(%o : tensor<{output}>) -> tensor<{output}>
  %s = linalg.generic {{indexing_maps = [#id, #channel, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%c, %b : tensor<{output}>, tensor<64xf32>) outs(%e : tensor<{output}>) {{
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %m = arith.addf %in, %bias : f32
    linalg.yield %m : f32
  }} -> tensor<{output}>
  %r = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%s : tensor<{output}>) outs(%e : tensor<{output}>) {{
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  }} -> tensor<{output}>
  return %r{values} : tensor<{output}>{types}
}}
"#
    )
}

/// The packed-channels tile of 32 channels by 4 columns.
fn packed_32_by_4(tile: &RegisterTile) -> bool {
    tile.packed.is_some() && tile.tile == 32 && tile.unrolled == [(3, 4)]
}

/// The packed-channels tile of 32 channels by a whole row of 7 columns.
fn packed_32_by_a_row_of_7(tile: &RegisterTile) -> bool {
    tile.packed.is_some() && tile.tile == 32 && tile.unrolled == [(3, 7)]
}

/// The row tile: the 8 columns vectorized, 4 channels and 2 rows unrolled.
fn rows_by_4_by_2(tile: &RegisterTile) -> bool {
    tile.packed.is_none() && tile.vector == 3 && tile.unrolled == [(1, 4), (2, 2)]
}

/// The tasks as tuning leaves them ([`tuned_inlining`]), the bias add inlined.
fn tuned(info: &PayloadInfo, best: fn(&RegisterTile) -> bool) -> Vec<TaskResult> {
    tuned_inlining(info, best, "add")
}

#[test]
fn a_convolution_read_by_its_activation_alone_is_computed_in_its_tiles() {
    let payload = conv_bias_relu("");
    let info = described(&payload);
    let mut results = tuned(&info, packed_32_by_4);
    let found = fusions(&info, &results, 1);
    assert_eq!(found.len(), 1, "the ReLU's kind, with the convolution");
    let fusion = &found[0];
    assert_eq!(fusion.producers.len(), 1);
    // The ReLU tiled as the register tile: 32 channels by 4 columns, the
    // columns vectorized, the channel blocks outermost.
    assert!(fusion.tiled.contains("32).split("), "{}", fusion.tiled);
    assert!(fusion.tiled.ends_with(".vectorize(li)"), "{}", fusion.tiled);
    apply(&mut results, &[fusion]);
    let text = written(&info, &results, 1);
    let joined = text.replace("\n    ", "");
    assert!(
        joined.contains(
            "conv0.compute_at(g1, lo).reorder(f, x, kx, ky, c).vectorize(f, 16).unroll(f)\
             .unroll(x).pack(in1, jo, f)"
        ),
        "{text}"
    );
    assert_eq!(planned(&payload, &text), Ok(Vec::new()), "{text}");
    assert!(computes_the_same(&payload, &text), "{text}");

    // With two threads, the ReLU's outermost loop of several iterations is parallel.
    let found = fusions(&info, &results, 2);
    assert!(
        found[0].tiled.ends_with(".parallel(jo)"),
        "{}",
        found[0].tiled
    );
    apply(&mut results, &[&found[0]]);
    let text = written(&info, &results, 2);
    assert_eq!(planned(&payload, &text), Ok(Vec::new()), "{text}");
}

/// The payload description has no uses outside structured ops, so the
/// fusion is found; the planner keeps the returned result whole as well,
/// and the whole model's measurement decides whether that pays.
#[test]
fn a_convolution_whose_result_is_also_returned_still_computes_the_same() {
    let payload = conv_bias_relu("%c");
    let info = described(&payload);
    let mut results = tuned(&info, packed_32_by_4);
    let found = fusions(&info, &results, 1);
    apply(&mut results, &[&found[0]]);
    let text = written(&info, &results, 1);
    assert_eq!(planned(&payload, &text), Ok(Vec::new()), "{text}");
    assert!(computes_the_same(&payload, &text), "{text}");
}

#[test]
fn a_row_tile_tiles_the_reader_in_all_three_dimensions() {
    let payload = conv_bias_relu("");
    let info = described(&payload);
    let mut results = tuned(&info, rows_by_4_by_2);
    let found = fusions(&info, &results, 1);
    assert_eq!(found.len(), 1);
    // The 8 columns whole and vectorized, 4 channels and 2 rows inside
    // their blocks; the convolution computed in each block of channels.
    assert_eq!(
        found[0].tiled,
        ".split(j, jo, ji, 4).split(k, ko, ki, 2).reorder(l, ji, ki, jo, ko, i).vectorize(l)"
    );
    let computed = &found[0].producers[0].1;
    assert_eq!(computed.at, "jo");
    assert!(
        computed.chain.starts_with(".reorder(x, f, y, ")
            && computed.chain.contains(".vectorize(x).unroll(f).unroll(y)"),
        "{}",
        computed.chain
    );
    apply(&mut results, &[&found[0]]);
    let text = written(&info, &results, 1);
    assert_eq!(planned(&payload, &text), Ok(Vec::new()), "{text}");
    assert!(computes_the_same(&payload, &text), "{text}");
}

#[test]
fn a_tile_that_does_not_divide_the_reader_gives_way_to_one_a_little_slower() {
    let payload = conv_bias_relu("");
    let info = described(&payload);
    let packed = tuned(&info, packed_32_by_4).remove(0).tiles.remove(0).0;
    // The best tile unrolls 3 of the 8 rows: the packed tile, 10% slower, is taken.
    let mut results = tuned(&info, rows_by_4_by_2);
    let mut three_rows = results[0].tiles[0].0.clone();
    three_rows.unrolled = vec![(1, 4), (2, 3)];
    let conv = &info.ops[results[0].task.ops[0]];
    let extents = &results[0].task.extents;
    assert!(!three_rows.divides_output(conv, extents));
    assert!(packed.divides_output(conv, extents));
    results[0].tiles = vec![(three_rows.clone(), 5e-4), (packed.clone(), 5.5e-4)];
    let found = fusions(&info, &results, 1);
    assert_eq!(found.len(), 1);
    assert!(
        found[0].tiled.starts_with(".split(j, jo, ji, 32)"),
        "{}",
        found[0].tiled
    );
    // The convolution computed in those tiles keeps the packed tile.
    let chain = &found[0].producers[0].1.chain;
    assert!(chain.ends_with(".pack(in1, jo, f)"), "{chain}");
    // Nor is a faster tile taken for it whose dimensions the reader tiles
    // by other sizes: 3 channels of 64 do not divide, and inside the
    // reader's 32 channels by 4 columns it would unroll 32 by 8.
    let mut three_channels = results[0].tiles[0].0.clone();
    three_channels.unrolled = vec![(1, 3)];
    results[0].tiles = vec![(three_channels, 5e-4), (packed.clone(), 5.5e-4)];
    let found = fusions(&info, &results, 1);
    let chain = &found[0].producers[0].1.chain;
    assert!(chain.ends_with(".pack(in1, jo, f)"), "{chain}");
    // Twice as slow, it is not.
    results[0].tiles = vec![(three_rows, 5e-4), (packed, 1e-3)];
    assert!(fusions(&info, &results, 1).is_empty());
}

#[test]
fn two_schedules_of_a_model_are_timed_in_turns() {
    let payload = conv_bias_relu("");
    let info = described(&payload);
    let mut results = tuned(&info, packed_32_by_4);
    let apart = written(&info, &results, 1);
    let found = fusions(&info, &results, 1);
    apply(&mut results, &[&found[0]]);
    let fused = written(&info, &results, 1);
    let mut measurer = InProcess::new(1, 0.05, false);
    let (a, b) = measurer
        .measure_pair("model", &payload, (&apart, &fused))
        .expect("both run and compute the same");
    // Taking turns, each got as many calls, at least 3.
    assert_eq!(a.calls, b.calls);
    assert!(a.calls >= 3);
    assert!(a.seconds > 0.0 && b.seconds > 0.0);
}

#[test]
fn a_whole_row_of_seven_columns_is_one_register_tile() {
    let payload = conv_bias_relu_of("", 7);
    let info = described(&payload);
    let mut results = tuned(&info, packed_32_by_a_row_of_7);
    // Apart: the 7 columns unrolled without a split, 14 accumulators.
    let apart = written(&info, &results, 1);
    let chain = &results[0].best.as_ref().expect("tuned").0;
    assert!(
        chain.contains(".unroll(x)") && !chain.contains(".split(x"),
        "{chain}"
    );
    assert_eq!(planned(&payload, &apart), Ok(Vec::new()), "{apart}");
    assert!(computes_the_same(&payload, &apart), "{apart}");
    // In the ReLU's tiles: 32 channels by the whole row, the convolution
    // computed at the row loop.
    let found = fusions(&info, &results, 1);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].tiled,
        ".split(j, jo, ji, 32).reorder(l, ji, k, i, jo).vectorize(l)"
    );
    let computed = &found[0].producers[0].1;
    assert_eq!(computed.at, "k");
    assert_eq!(
        computed.chain,
        ".reorder(f, x, kx, ky, c).vectorize(f, 16).unroll(f).unroll(x).pack(in1, jo, f)"
    );
    apply(&mut results, &[&found[0]]);
    let fused = written(&info, &results, 1);
    assert_eq!(planned(&payload, &fused), Ok(Vec::new()), "{fused}");
    assert!(computes_the_same(&payload, &fused), "{fused}");
}

#[test]
fn tiles_tried_for_a_reader_take_turns_between_packed_and_unpacked_shapes() {
    let payload = conv_bias_relu("");
    let info = described(&payload);
    let task = tasks(&info)
        .into_iter()
        .find(|t| t.kind == "linalg.conv_2d_nchw_fchw")
        .expect("the convolution");
    let op = &info.ops[task.ops[0]];
    let mut all = candidates(&task, op, 16, 1);
    tuner::cost::rank(&mut all);
    let divides = |t: &RegisterTile| t.divides_output(op, &task.extents);
    let tried = dividing_tiles(&all, &[], divides);
    assert_eq!(tried.len(), DIVIDING_TILES_TRIED);
    let tiles: Vec<&RegisterTile> = tried.iter().filter_map(|c| c.tile.as_ref()).collect();
    assert_eq!(tiles.len(), tried.len());
    for (i, tile) in tiles.iter().enumerate() {
        assert!(divides(tile), "{}", tried[i].chain);
        assert_eq!(tile.packed.is_some(), i % 2 == 0, "{}", tried[i].chain);
        assert!(
            tiles[..i].iter().all(|t| !t.same_shape(tile)),
            "{}",
            tried[i].chain
        );
    }
    // A shape measured already is not tried again.
    let measured = vec![(tiles[0].clone(), 1e-3)];
    let again = dividing_tiles(&all, &measured, divides);
    assert!(again
        .iter()
        .all(|c| !c.tile.as_ref().is_some_and(|t| t.same_shape(tiles[0]))));
    assert!(std::ptr::eq(again[0], tried[2]), "{}", again[0].chain);
}

#[test]
fn a_readers_tiles_are_chosen_by_measuring_them_fused_on_its_ops_alone() {
    let payload = conv_bias_relu("");
    let info = described(&payload);
    let mut results = tuned(&info, packed_32_by_4);
    let rows = tuned(&info, rows_by_4_by_2).remove(0).tiles.remove(0).0;
    results[0].tiles.push((rows, 5.5e-4));
    let found = variants(&info, &results, 1);
    assert_eq!(found.len(), 1);
    let options = &found[0];
    assert_eq!(options.len(), 2, "both tiles are within the slack");
    // The group: the convolution, the bias add inlined, the ReLU.
    let conv = results[0].task.ops[0];
    assert_eq!(options[0].group.len(), 3);
    assert_eq!(options[0].group[0], conv);
    let context = payload::new_context();
    let module = payload::parse_module(&context, "f.mlir", &payload).expect("parses");
    let isolate = |ops: &[usize]| {
        payload::isolate::isolate_groups(&context, &module, "f.mlir", &[ops.to_vec()])
            .map_err(|e| e.message)
            .map(|mut all| all.remove(0))
    };
    let alone = isolated(&payload, &options[0].group);
    // Each variant's schedule on those ops alone plans cleanly and computes
    // what they do: the packed tile first (fastest alone), then the rows.
    let schedules: Vec<String> = options
        .iter()
        .map(|v| tuner::fused::group_schedule(&info, &results, v))
        .collect();
    assert!(
        schedules[0].starts_with("func p = linalg.conv_2d_nchw_fchw[0] (n, f, y, x | c, ky, kx)\n")
    );
    assert!(
        schedules[0].contains("e1.compute_inline()\n"),
        "{}",
        schedules[0]
    );
    assert!(
        schedules[0].contains(".pack(in1, jo, f)"),
        "{}",
        schedules[0]
    );
    assert!(
        schedules[1].contains(".vectorize(x).unroll(f).unroll(y)"),
        "{}",
        schedules[1]
    );
    for schedule in &schedules {
        assert_eq!(planned(&alone, schedule), Ok(Vec::new()), "{schedule}");
        assert!(computes_the_same(&alone, schedule), "{schedule}");
    }
    // Measured so, the row tile is faster in the ReLU's tiles: it is chosen,
    // by one pair, which the records keep for a second run.
    let header = header(1);
    let context = payload::new_context();
    let parsed = interpreter::pipeline::Parsed::new(&context, "f.mlir", &payload).unwrap();
    let model = tuner::Model {
        info: &info,
        name: "f.mlir",
        text: &payload,
        header: &header,
        isolate: &isolate,
        parsed: &parsed,
    };
    let options_used = quick_options();
    let mut records = tuner::records::Records::in_memory();
    let mut measurer = ByText {
        fast: ".unroll(y)",
        timed: 0,
    };
    let mut spent = Vec::new();
    for _ in 0..2 {
        let mut session = tuner::Session {
            options: &options_used,
            records: &mut records,
            measurer: &mut measurer,
            spent: 0.0,
            last_pair: 0.0,
        };
        let chosen =
            tuner::fused::fastest(&model, &results, options, &mut session).expect("measures");
        assert_eq!(chosen.index, 1);
        assert_eq!(chosen.pairs, 1);
        spent.push(session.spent);
        assert_eq!(measurer.timed, 2, "the second run reads the records");
    }
    // ... and spends of its budget what the first run's pair took.
    assert!(spent[0] > 0.0);
    assert_eq!(spent[1], spent[0]);
}

/// A 1 x 64 by 64 x 160 matmul and a ReLU reading it.
const MATMUL_RELU: &str = r#"
#id = affine_map<(i, j) -> (i, j)>
func.func @f(%a: tensor<1x64xf32>, %w: tensor<64x160xf32>) -> tensor<1x160xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x160xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x160xf32>) -> tensor<1x160xf32>
  %m = linalg.matmul ins(%a, %w : tensor<1x64xf32>, tensor<64x160xf32>) outs(%o : tensor<1x160xf32>) -> tensor<1x160xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<1x160xf32>) outs(%e : tensor<1x160xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %zero : f32
    linalg.yield %x : f32
  } -> tensor<1x160xf32>
  return %r : tensor<1x160xf32>
}
"#;

/// A tile of the output row vectorized, nothing unrolled.
fn a_row_alone(tile: &RegisterTile) -> bool {
    tile.vector == 1 && tile.unrolled.is_empty() && 160 % tile.tile == 0
}

#[test]
fn a_reader_already_in_its_tiles_order_gets_no_reorder() {
    // The ReLU split by the matmul's tile of its row keeps its loops'
    // order: a `.reorder` would change nothing, and the planner warns
    // about such a one, so the fusion would never be tried.
    let info = described(MATMUL_RELU);
    let mut results = tuned(&info, a_row_alone);
    let found = fusions(&info, &results, 1);
    assert_eq!(found.len(), 1);
    assert!(!found[0].tiled.contains(".reorder("), "{}", found[0].tiled);
    // Its schedule on its two ops alone selects each by its kind's index.
    let group = &found[0].group;
    assert_eq!(group.len(), 2);
    let alone = isolated(MATMUL_RELU, group);
    let schedule = tuner::fused::group_schedule(&info, &results, &found[0]);
    assert!(
        schedule.starts_with("func p = linalg.matmul[0] ")
            && schedule.contains("func r = linalg.generic[0] "),
        "{schedule}"
    );
    assert_eq!(planned(&alone, &schedule), Ok(Vec::new()), "{schedule}");
    assert!(computes_the_same(&alone, &schedule), "{schedule}");
    apply(&mut results, &[&found[0]]);
    let text = written(&info, &results, 1);
    assert_eq!(planned(MATMUL_RELU, &text), Ok(Vec::new()), "{text}");
    assert!(computes_the_same(MATMUL_RELU, &text), "{text}");
}
