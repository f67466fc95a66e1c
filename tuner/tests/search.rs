//! The tuner's pieces on small payloads: tasks group alike ops, `where`
//! conditions bind exactly a task's ops, candidates are legal chains (with
//! a parallel loop only when threads are asked for), the cost model
//! prefers a full register tile, and each register tile shape near its
//! favourite is tried once the favourite's patience is out. The packed
//! filters' candidates are in `packed.rs`.

mod common;

use common::{described, matmul_tasks, plans_on, TWO_LAYERS};
use schedule_lang::PayloadInfo;
use tuner::space::{candidates, Candidate};
use tuner::tasks::{tasks, Task};

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
    plans_on(TWO_LAYERS, task, info, candidate)
}

/// A ResNet stem in small: 3 channels, a 7x7 window, stride 2.
const STEM: &str = r#"
func.func @f(%in: tensor<1x3x21x21xf32>, %w: tensor<16x3x7x7xf32>, %o: tensor<1x16x8x8xf32>)
    -> tensor<1x16x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%in, %w : tensor<1x3x21x21xf32>, tensor<16x3x7x7xf32>) outs(%o : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}
"#;

/// The stem's one task and its candidates for `lanes` floats a vector, one thread.
fn stem_candidates(lanes: i64) -> (Task, Vec<Candidate>) {
    let info = described(STEM);
    let task = tasks(&info).swap_remove(0);
    let all = candidates(&task, &info.ops[task.ops[0]], lanes, 1);
    (task, all)
}

#[test]
fn a_window_of_more_than_16_points_is_never_unrolled() {
    let (task, all) = stem_candidates(16);
    assert!(!all.is_empty());
    let window = &task.dims[6];
    assert!(
        all.iter()
            .all(|c| !c.chain.contains(&format!(".unroll({window})"))),
        "{all:?}"
    );
}

#[test]
fn candidates_are_chains_the_planner_takes_and_parallel_only_with_threads() {
    let (info, tasks) = matmul_tasks();
    let op = &info.ops[tasks[0].ops[0]];
    let one = candidates(&tasks[0], op, 16, 1);
    assert!(one.len() > 20, "{}", one.len());
    assert!(one.iter().all(|c| !c.chain.contains(".parallel(")));
    assert!(one.iter().any(|c| c.chain.contains(".pack(in1, jo, j)")));
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

#[test]
fn register_tiles_fit_the_vector_registers_of_the_lanes_tuned_for() {
    // AVX-512 (16 lanes): up to 24 accumulators of its 32 registers; AVX2
    // (8 lanes): up to 12 of its 16 (40 spilled on conv_layer, 41% of the
    // peak, where 10 ran at 90%). The model's favourite keeps both FMA ports
    // busy through the FMA latency (8 accumulators or more) on each.
    let (info, tasks) = matmul_tasks();
    let op = &info.ops[tasks[0].ops[0]];
    for (lanes, most) in [(16, 24), (8, 12)] {
        let mut all = candidates(&tasks[0], op, lanes, 1);
        assert!(!all.is_empty());
        let accumulators =
            |c: &Candidate| (c.vector_tile + lanes - 1) / lanes * c.unroll_tile * c.second_tile;
        let largest = all.iter().map(accumulators).max().unwrap();
        assert_eq!(largest, most, "{lanes} lanes");
        tuner::cost::rank(&mut all);
        assert!(
            accumulators(&all[0]) >= 8,
            "{lanes} lanes: {}",
            all[0].chain
        );
    }
}

#[test]
fn a_tile_whose_accumulators_fit_only_without_the_vector_row_ranks_lower() {
    // AVX2's 16 registers: 3 x 32 holds 12 accumulators, the 4 vectors of
    // B's row and a broadcast (17), and LLVM spilled an accumulator (the
    // transformer's batch matmul on a Zen 3: 0.210 ms against 6 x 16's
    // 0.127). 6 x 16 (15) and 4 x 24 (16) fit; on AVX-512 3 x 64 fits too.
    let (info, tasks) = matmul_tasks();
    let op = &info.ops[tasks[0].ops[0]];
    let tile = |all: &[Candidate], vectors: i64, rows: i64| {
        let lanes = all[0].lanes;
        let found = all.iter().find(|c| {
            c.vector_tile == vectors * lanes && c.unroll_tile == rows && c.second_tile == 1
        });
        tuner::cost::score(found.expect("the tile is a candidate"))
    };
    let avx2 = candidates(&tasks[0], op, 8, 1);
    let (three, six, four) = (tile(&avx2, 4, 3), tile(&avx2, 2, 6), tile(&avx2, 3, 4));
    assert!(three < 0.7 * six, "3 x 32 {three}, 6 x 16 {six}");
    assert!(four > 0.9 * six, "4 x 24 {four}, 6 x 16 {six}");
    let avx512 = candidates(&tasks[0], op, 16, 1);
    let (three, six) = (tile(&avx512, 4, 3), tile(&avx512, 2, 6));
    assert!(three > 0.9 * six, "AVX-512: 3 x 64 {three}, 6 x 32 {six}");
}

#[test]
fn a_vector_gathered_lane_by_lane_is_held_in_one_register() {
    // The stride-2 stem reads its input with a stride along the vector:
    // gathered lane by lane (8 loads a vector on AVX2), but built in one
    // register, so the registers a step holds count vectors, not lanes.
    let (_, all) = stem_candidates(8);
    let strided: Vec<&Candidate> = all.iter().filter(|c| c.strided_vector).collect();
    assert!(!strided.is_empty());
    for c in strided {
        let vectors = (c.vector_tile + 7) / 8;
        let held = c.held.expect("counted from the maps");
        assert!(
            held <= (2 * vectors * c.second_tile + 1) as f64,
            "{held} held by {}",
            c.chain
        );
    }
}

/// ResNet's 3x3 convolution as examples/halide_conv has it (NHWC, 64
/// channels in and out, 56 x 56, batch 8; bias and ReLU).
const RESNET_CONV: &str = include_str!("../../examples/halide_conv/resnet_conv.mlir");

#[test]
fn out_of_patience_each_register_tile_near_the_favourite_is_tried_then_the_best_ones_family() {
    let info = described(RESNET_CONV);
    let tasks = tasks(&info);
    let task = tasks
        .iter()
        .find(|t| t.extents.len() == 7)
        .expect("the convolution");
    let mut all = candidates(task, &info.ops[task.ops[0]], 16, 1);
    tuner::cost::rank(&mut all);
    let total = all.len();
    // As when the favourite and the plain schedule were measured, then
    // the patience ran out.
    let (measured, order) = (2, all.clone());
    let leading = tuner::cost::lead(&mut all, measured);
    assert!(leading > 2 && leading < total / 4, "{leading} of {total}");
    assert_eq!(all[..measured], order[..measured]);
    let families: Vec<_> = all[..measured + leading]
        .iter()
        .map(|c| c.family())
        .collect();
    for (i, family) in families.iter().enumerate().skip(measured) {
        assert!(!families[..i].contains(family), "{} twice", all[i].chain);
    }
    // The hand schedule's tile: all 64 channels by 4 columns (`x`, the
    // third dimension), the filter read in place; the model rates packed
    // 2-vector tiles higher, so in its order the first of this shape comes
    // far later.
    let x = task.dims.iter().position(|d| d == "k").expect("x is k");
    let hand = |c: &Candidate| {
        c.vector_tile == 64 && c.tiled[1..] == [x] && c.unroll_tile == 4 && !c.packed
    };
    let at = all[..measured + leading]
        .iter()
        .position(hand)
        .expect("the 64 x 4 tile leads");
    assert!(order.iter().position(hand).unwrap() > measured + leading);
    assert!(tuner::cost::score(&all[0]) > tuner::cost::score(&all[at]));
    // Once it measured best, its family's members come next, in order.
    let family = all[at].family();
    let rest = measured + leading;
    let before: Vec<String> = all[rest..]
        .iter()
        .filter(|c| c.family() == family)
        .map(|c| c.chain.clone())
        .collect();
    assert!(!before.is_empty());
    tuner::cost::favour(&mut all[rest..], &family);
    let after: Vec<String> = all[rest..rest + before.len()]
        .iter()
        .map(|c| c.chain.clone())
        .collect();
    assert_eq!(after, before);
}

/// A stride-2 depthwise convolution and a pointwise one over the same
/// output (mobilenet_v2's 56 x 56 steps).
const DEPTHWISE_AND_POINTWISE: &str = r#"
func.func @f(%in: tensor<1x96x113x113xf32>, %w: tensor<96x3x3xf32>, %o: tensor<1x96x56x56xf32>,
             %f: tensor<24x96x1x1xf32>, %p: tensor<1x24x56x56xf32>) -> tensor<1x24x56x56xf32> {
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%in, %w : tensor<1x96x113x113xf32>, tensor<96x3x3xf32>) outs(%o : tensor<1x96x56x56xf32>) -> tensor<1x96x56x56xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%d, %f : tensor<1x96x56x56xf32>, tensor<24x96x1x1xf32>) outs(%p : tensor<1x24x56x56xf32>) -> tensor<1x24x56x56xf32>
  return %c : tensor<1x24x56x56xf32>
}
"#;

/// The best score among `all` of candidates reading their inputs in place
/// (none packed) with (`true`) or without other dimensions unrolled beside
/// the vector.
fn best_score(all: &[Candidate], unrolled: bool) -> f64 {
    all.iter()
        .filter(|c| (c.unroll_tile * c.second_tile > 1) == unrolled && !c.packed)
        .map(tuner::cost::score)
        .fold(0.0, f64::max)
}

#[test]
fn unrolling_a_depthwise_convolutions_channels_saves_no_loads() {
    let info = described(DEPTHWISE_AND_POINTWISE);
    let tasks = tasks(&info);
    let of = |kind: &str| {
        let task = tasks.iter().find(|t| t.kind == kind).unwrap();
        candidates(task, &info.ops[task.ops[0]], 16, 1)
    };
    // Each unrolled row or channel of a depthwise convolution reads its
    // own input: a tile of one row of vectors issues as many loads per FMA
    // as any, and is measured as early.
    let depthwise = of("linalg.depthwise_conv_2d_nchw_chw");
    let (alone, unrolled) = (best_score(&depthwise, false), best_score(&depthwise, true));
    assert!(
        alone > 0.0 && alone >= 0.9 * unrolled,
        "{alone} against {unrolled}"
    );
    // Whatever the model prefers, the plain schedule (whole rows
    // vectorized, the window unrolled) is measured second.
    let mut ranked = depthwise.clone();
    tuner::cost::rank(&mut ranked);
    let plain = &ranked[1];
    assert_eq!(
        (
            plain.vector_tile,
            plain.unroll_tile,
            plain.second_tile,
            plain.packed
        ),
        (56, 1, 1, false),
        "{}",
        plain.chain
    );
    assert!(
        plain.chain.contains(".unroll(r).unroll(s)"),
        "{}",
        plain.chain
    );
    // A pointwise convolution's unrolled channels share each input vector.
    let pointwise = of("linalg.conv_2d_nchw_fchw");
    let (alone, unrolled) = (best_score(&pointwise, false), best_score(&pointwise, true));
    assert!(unrolled > 1.5 * alone, "{alone} against {unrolled}");
}

/// A batch norm's steps, a residual add and a ReLU on one shape: the bias
/// add (broadcast operand) and the residual add differ only in their maps.
const NORM_AND_RESIDUAL: &str = r#"
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @f(%x: tensor<8x16xf32>, %r: tensor<8x16xf32>, %b: tensor<16xf32>, %s: tensor<16xf32>,
             %o: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %scaled = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<8x16xf32>, tensor<16xf32>) outs(%o : tensor<8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  %biased = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%scaled, %b : tensor<8x16xf32>, tensor<16xf32>) outs(%o : tensor<8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %m = arith.addf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  %summed = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%biased, %r : tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %m = arith.addf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%summed : tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  return %relu : tensor<8x16xf32>
}
"#;

#[test]
fn tasks_no_where_tells_apart_are_merged_and_bound_together() {
    let info = described(NORM_AND_RESIDUAL);
    let apart = tasks(&info);
    assert_eq!(
        apart.len(),
        4,
        "the two adds are two tasks: their maps differ"
    );
    let add = apart
        .iter()
        .find(|t| t.ops == vec![1])
        .expect("the bias add");
    assert_eq!(
        tuner::selector::where_conditions(add, &info),
        None,
        "no condition keeps the bias add from the residual add"
    );
    let merged = tuner::tasks::merged_alike(apart, &info);
    assert_eq!(merged.len(), 3);
    let adds = merged.iter().find(|t| t.ops.contains(&1)).unwrap();
    assert_eq!(adds.ops.len(), 2);
    assert!(adds.ops.contains(&2));
    assert_eq!(
        adds.also.len(),
        1,
        "the residual add's op is planned on too"
    );
    assert_eq!(
        tuner::selector::where_conditions(adds, &info),
        Some(vec!["body == add".to_string()])
    );

    // The mul and the adds inlined, the ReLU vectorized: one func inlines
    // all three elementwise ops, bound by what they have that the ReLU has not.
    let results: Vec<tuner::TaskResult> = merged
        .into_iter()
        .map(|task| {
            let relu = task.ops == vec![3];
            tuner::TaskResult {
                conditions: tuner::selector::where_conditions(&task, &info),
                task,
                reference: Some(1e-3),
                best: relu.then(|| (".vectorize(j)".to_string(), 5e-4)),
                tiles: Vec::new(),
                legal: 1,
                measured: 1,
                reused: 0,
                failed: Vec::new(),
                inlined: !relu,
                fed: false,
                computed_in: None,
                tiled: None,
                pixels: None,
                gemm_over: None,
            }
        })
        .collect();
    let mut header = tuner::write::Header {
        payload: "f.mlir".to_string(),
        cpu: "test".to_string(),
        threads: 1,
        warm: true,
        kept: None,
        taken: Vec::new(),
    };
    // Timed with the caches warm, the header says so; cold, the default, not.
    let warm = tuner::write::schedule_text(&info, &results, &header);
    assert!(
        warm.starts_with(
            "# Written by `sched-apply tune` for f.mlir on test (one thread, caches warm).\n"
        ),
        "{warm}"
    );
    assert_eq!(tuner::write::tuned_on(&warm)[0].cpu, "test");
    header.warm = false;
    let text = tuner::write::schedule_text(&info, &results, &header);
    assert!(
        text.starts_with("# Written by `sched-apply tune` for f.mlir on test (one thread).\n"),
        "{text}"
    );
    let funcs: Vec<&str> = text.lines().filter(|l| l.starts_with("func ")).collect();
    assert_eq!(funcs.len(), 2, "{text}");
    assert!(
        funcs.iter().any(|l| l.ends_with("where body != max")),
        "{text}"
    );
    assert!(!text.contains("Left as the payload has them"), "{text}");
    let source = schedule_lang::SourceFile::new("t.sched", text.clone());
    let planned = interpreter::pipeline::run(
        &source,
        "f.mlir",
        NORM_AND_RESIDUAL,
        interpreter::pipeline::Stop::Plan,
        &interpreter::pipeline::Machine {
            vector_unit: schedule_lang::VectorUnit::AVX512,
            accelerators: &[],
        },
    );
    match planned {
        Ok(outcome) => assert!(
            outcome.warnings.is_empty(),
            "{:?}\n{text}",
            outcome.warnings
        ),
        Err(failure) => panic!("{}\n{text}", failure.message()),
    }
}

/// Two alike batch-norm steps (a bias add), one read by a 1x1 convolution,
/// which reads each element once per block of its output channels, the
/// other by a ReLU, which reads it once.
const NORM_INTO_CONV_AND_RELU: &str = r#"
#id = affine_map<(n, c, y, x) -> (n, c, y, x)>
#ch = affine_map<(n, c, y, x) -> (c)>
func.func @f(%x: tensor<1x8x4x4xf32>, %z: tensor<1x8x4x4xf32>, %b: tensor<8xf32>,
             %w: tensor<16x8x1x1xf32>, %o: tensor<1x8x4x4xf32>, %co: tensor<1x16x4x4xf32>)
    -> (tensor<1x16x4x4xf32>, tensor<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %into_conv = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<1x8x4x4xf32>, tensor<8xf32>) outs(%o : tensor<1x8x4x4xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %m = arith.addf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x8x4x4xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%into_conv, %w : tensor<1x8x4x4xf32>, tensor<16x8x1x1xf32>) outs(%co : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %into_relu = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%z, %b : tensor<1x8x4x4xf32>, tensor<8xf32>) outs(%o : tensor<1x8x4x4xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %m = arith.addf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x8x4x4xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%into_relu : tensor<1x8x4x4xf32>) outs(%o : tensor<1x8x4x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x4x4xf32>
  return %conv, %relu : tensor<1x16x4x4xf32>, tensor<1x8x4x4xf32>
}
"#;

/// An elementwise op's readers' kinds are part of its task: the same add
/// read by a convolution and by a ReLU is two tasks (inlining one
/// recomputes it, the other not), bound apart by `reader` conditions.
#[test]
fn alike_elementwise_ops_with_other_readers_are_two_tasks() {
    let info = described(NORM_INTO_CONV_AND_RELU);
    let merged = tuner::tasks::merged_alike(tasks(&info), &info);
    let adds: Vec<&Task> = merged
        .iter()
        .filter(|t| t.kind == "linalg.generic" && info.ops[t.ops[0]].body_words() == ["add"])
        .collect();
    assert_eq!(adds.len(), 2, "{merged:#?}");
    assert!(adds.iter().all(|t| t.ops.len() == 1 && t.also.is_empty()));
    for add in adds {
        let conditions = tuner::selector::where_conditions(add, &info).unwrap();
        let readers = info.reader_kinds(&info.ops[add.ops[0]]);
        let expected = match readers.as_slice() {
            ["conv_2d_nchw_fchw"] => "reader == conv_2d_nchw_fchw",
            ["generic"] => "reader == generic",
            other => panic!("readers {other:?}"),
        };
        assert_eq!(conditions, vec![expected.to_string()]);
        let others = merged.iter().filter(|t| t.key != add.key);
        assert!(others.clone().all(|t| !t.ops.contains(&add.ops[0])));
    }
}

#[test]
fn a_matmul_reading_a_transposed_weight_is_fed_by_the_transpose() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/payloads/transpose_matmul.mlir"
    ))
    .unwrap();
    let info = described(&text);
    let all = tasks(&info);
    let matmul = all.iter().find(|t| t.kind == "linalg.matmul").unwrap();
    let transpose = all.iter().find(|t| t.kind == "linalg.transpose").unwrap();
    assert_eq!(matmul.feeders, transpose.ops);
    assert!(matmul.description.ends_with("fed by transposes, inlined"));
    assert!(transpose.feeders.is_empty());
}

/// resnet18's max pool in small: a 3x3 window at stride 2 over a padded
/// 8 x 8 input, batch 2.
const MAX_POOL: &str = r#"
func.func @f(%in: tensor<2x8x17x17xf32>, %o: tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32> {
  %k = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%in, %k : tensor<2x8x17x17xf32>, tensor<3x3xf32>) outs(%o : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  return %r : tensor<2x8x8x8xf32>
}
"#;

#[test]
fn with_threads_the_plain_schedules_parallel_twin_is_measured_right_after_it() {
    let info = described(MAX_POOL);
    let tasks = tasks(&info);
    let op = &info.ops[tasks[0].ops[0]];
    let mut all = candidates(&tasks[0], op, 8, 2);
    tuner::cost::rank(&mut all);
    let plain = &all[1].chain;
    assert!(!plain.contains(".parallel("), "{plain}");
    assert!(plain.contains(".unroll(ky)"), "the plain schedule: {plain}");
    assert_eq!(all[2].chain, format!("{plain}.parallel(n)"));
    // One thread: no twin.
    let mut one = candidates(&tasks[0], op, 8, 1);
    tuner::cost::rank(&mut one);
    assert!(one.iter().all(|c| !c.chain.contains(".parallel(")));
}
