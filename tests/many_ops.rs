//! Funcs of many ops (`[*]` with `where`): one chain schedules every op a
//! selector matches, exactly as one `func` per op would; overlaps follow the
//! documented rule with a warning; the syntax formats back as written.

mod common;

use common::{sched_apply, stderr};

const BLOCK: &str = "examples/torch/resnet_block.linalg.mlir";

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `sched-apply explain` of the block under `schedule`, written to
/// `scratch/name`: its standard output, after asserting it succeeded.
fn explained(scratch: &std::path::Path, name: &str, schedule: &str) -> String {
    let path = scratch.join(name);
    std::fs::write(&path, schedule).unwrap();
    let output = sched_apply(&["explain", BLOCK, path.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
}

#[test]
fn recipes_give_the_same_ir_as_one_func_per_op() {
    let by_op = sched_apply(&[BLOCK, "examples/torch/resnet_block.linalg.sched"]);
    let by_recipe = sched_apply(&[BLOCK, "examples/torch/resnet_block.linalg.recipes.sched"]);
    assert!(by_op.status.success(), "{}", stderr(&by_op));
    assert!(by_recipe.status.success(), "{}", stderr(&by_recipe));
    assert_eq!(stdout(&by_recipe), stdout(&by_op));
}

#[test]
fn the_later_of_two_overlapping_funcs_schedules_an_op_and_says_so() {
    let scratch = common::tempdir();
    let schedule = scratch.join("overlap.sched");
    std::fs::write(
        &schedule,
        "func all = linalg.generic[*] (n, c, y, x)\n\
         func subs = linalg.generic[*] (n, c, y, x) where body == sub\n\
         subs.vectorize(x)\n",
    )
    .unwrap();
    let schedule = schedule.to_str().unwrap();
    let output = sched_apply(&["check", schedule, "--payload", BLOCK]);
    assert!(output.status.success(), "{}", stderr(&output));
    let report = stderr(&output);
    // Two batch norms, each with one subtraction.
    assert_eq!(
        report
            .matches("warning: `subs` and `all` both match")
            .count(),
        2,
        "{report}"
    );
    assert!(report.contains("the later line schedules it"), "{report}");
    let denied = sched_apply(&["check", schedule, "--payload", BLOCK, "--deny-warnings"]);
    assert_eq!(denied.status.code(), Some(1), "{}", stderr(&denied));
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn an_op_a_single_func_binds_is_left_out_of_every_many_op_func() {
    let scratch = common::tempdir();
    let schedule = scratch.join("single.sched");
    // The first convolution has its own func; `convs` binds only the second,
    // so the chain's mistake names `convs[0]`, the convolution at line 63.
    std::fs::write(
        &schedule,
        "func first = linalg.conv_2d_nchw_fchw[0] (n, f, y, x | c, ky, kx)\n\
         func convs = linalg.conv_2d_nchw_fchw[*] (n, f, y, x | c, ky, kx)\n\
         convs.split(q, qo, qi, 2)\n",
    )
    .unwrap();
    let output = sched_apply(&["check", schedule.to_str().unwrap(), "--payload", BLOCK]);
    assert_eq!(output.status.code(), Some(1));
    let report = stderr(&output);
    assert!(
        report.contains("`convs[0]` is the `linalg.conv_2d_nchw_fchw` at examples/torch/resnet_block.linalg.mlir:63:11"),
        "{report}"
    );
    assert_eq!(report.matches("error:").count(), 1, "{report}");
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn strides_and_extents_select_ops() {
    let scratch = common::tempdir();
    let text = explained(
        &scratch,
        "where.sched",
        "func convs = linalg.conv_2d_nchw_fchw[*] (n, f, y, x | c, ky, kx) where stride == 1, dilation == 1, f >= 64, ky == 3, type == f32\n\
         convs.split(f, fo, fi, 8)\n",
    );
    assert!(
        text.contains("convs[0]") && text.contains("convs[1]"),
        "{text}"
    );
    assert!(!text.contains("convs[2]"), "{text}");
    // Each op says which it is, and so which rule scheduled it.
    assert!(
        text.contains("# this one: the `linalg.conv_2d_nchw_fchw` at examples/torch/resnet_block.linalg.mlir:63:11"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn the_kind_of_an_ops_readers_selects_it() {
    let scratch = common::tempdir();
    // In the block, a convolution reads one generic: the first ReLU.
    let text = explained(
        &scratch,
        "read.sched",
        "func feeds = linalg.generic[*] (n, c, y, x) where reader == conv_2d_nchw_fchw\n\
         feeds.vectorize(x)\n",
    );
    assert!(
        text.contains(
            "# this one: the `linalg.generic` at examples/torch/resnet_block.linalg.mlir:53:11"
        ),
        "{text}"
    );
    assert!(
        text.contains("feeds[0]") && !text.contains("feeds[1]"),
        "{text}"
    );
    // `!=`: the other 10 of its 11 four-dimensional generics.
    let text = explained(
        &scratch,
        "others.sched",
        "func rest = linalg.generic[*] (n, c, y, x) where reader != conv_2d_nchw_fchw\n\
         rest.vectorize(x)\n",
    );
    assert!(
        text.contains("rest[9]") && !text.contains("rest[10]"),
        "{text}"
    );
    // `ops` says which kinds read each generic.
    let ops = sched_apply(&["ops", BLOCK]);
    let listed = stdout(&ops);
    let relu = listed
        .lines()
        .find(|l| l.contains("resnet_block.linalg.mlir:53:11"))
        .unwrap_or_else(|| panic!("{listed}"));
    assert!(relu.contains(", read by: conv_2d_nchw_fchw,"), "{relu}");
    // A kind no op reads them with: what reads them instead.
    let none = scratch.join("none.sched");
    std::fs::write(
        &none,
        "func feeds = linalg.generic[*] (n, c, y, x) where reader == matmul\n",
    )
    .unwrap();
    let output = sched_apply(&["check", none.to_str().unwrap(), "--payload", BLOCK]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = stderr(&output);
    assert!(
        report.contains(":1:51: error: no `linalg.generic` left satisfies this condition"),
        "{report}"
    );
    assert!(
        report.contains("the ops there are read by: conv_2d_nchw_fchw, generic, none"),
        "{report}"
    );
    // `none`: the op no op reads, the block's result; `!= none` all others.
    let text = explained(
        &scratch,
        "result.sched",
        "func out = linalg.generic[*] (n, c, y, x) where reader == none\n\
         func inner = linalg.generic[*] (n, c, y, x) where reader != none\n\
         out.vectorize(x)\n\
         inner.vectorize(x)\n",
    );
    assert!(
        text.contains("out[0]") && !text.contains("out[1]"),
        "{text}"
    );
    assert!(
        text.contains("inner[9]") && !text.contains("inner[10]"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn the_new_syntax_formats_back_as_written() {
    let output = sched_apply(&["fmt", "examples/torch/resnet_block.linalg.recipes.sched"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let written = std::fs::read_to_string(
        common::root().join("examples/torch/resnet_block.linalg.recipes.sched"),
    )
    .unwrap();
    assert_eq!(stdout(&output), written);
}

#[test]
fn a_func_of_its_own_turns_a_default_off_for_one_op() {
    let scratch = common::tempdir();
    let all = scratch.join("all.sched");
    let but_one = scratch.join("but_one.sched");
    let defaults = "func relus = linalg.generic[*] (n, c, y, x) where body == select\n\
                    default func rest = linalg.generic[*] (n, c, y, x)\n\
                    rest.compute_inline()\n";
    std::fs::write(&all, defaults).unwrap();
    // The residual add keeps its own loop nest: a func with no directives.
    std::fs::write(
        &but_one,
        format!("func residual = linalg.generic[13] (n, c, y, x)\n{defaults}"),
    )
    .unwrap();
    let generics = |schedule: &std::path::Path| {
        let output = sched_apply(&[BLOCK, schedule.to_str().unwrap()]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(
            stderr(&output).is_empty(),
            "a default warns of nothing: {}",
            stderr(&output)
        );
        stdout(&output).matches("linalg.generic").count()
    };
    assert_eq!(generics(&but_one), generics(&all) + 1);
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn a_clamps_direction_is_a_body_word_relu6s_two_halves_apart() {
    // MobileNet-v2's ReLU6 is a compare-and-select for max(x, 0), then one
    // for min(6, x); the ResNet block's ReLU is the first kind.
    let ops = sched_apply(&["ops", "examples/torchvision/mobilenet_v2.linalg.mlir"]);
    assert!(ops.status.success(), "{}", stderr(&ops));
    let text = stdout(&ops);
    let count = |body: &str| {
        text.lines()
            .filter(|l| l.contains(&format!("body: {body},")))
            .count()
    };
    assert_eq!(count("cmp select max"), 35, "{text}");
    assert_eq!(count("cmp select min"), 35, "{text}");
    assert_eq!(
        count("cmp select"),
        0,
        "every select of mobilenet_v2 is a clamp: {text}"
    );
    let scratch = common::tempdir();
    let schedule = scratch.join("relu.sched");
    let apply = |word: &str| {
        let text = format!(
            "func relus = linalg.generic[*] (n, c, y, x) where body == {word}\nrelus.vectorize(x)\n"
        );
        std::fs::write(&schedule, text).unwrap();
        sched_apply(&[BLOCK, schedule.to_str().unwrap()])
    };
    let by_max = apply("max");
    let by_select = apply("select");
    assert!(by_max.status.success(), "{}", stderr(&by_max));
    assert_eq!(stdout(&by_max), stdout(&by_select));
    assert!(stdout(&by_max).contains("vector.transfer_read"));
}

#[test]
fn body_copy_selects_the_generics_whose_body_only_yields() {
    // The broadcast whose tile the cleanups fold (the diagnostics fixture)
    // is left out by `body != copy`, as `ops` names its body.
    let payload = "tests/diagnostics/own/broadcast_tile_folded_in_a_func_of_many_ops.mlir";
    let ops = sched_apply(&["ops", payload]);
    assert!(stdout(&ops).contains("body: copy,"), "{}", stdout(&ops));
    let scratch = common::tempdir();
    let schedule = scratch.join("no_copies.sched");
    std::fs::write(
        &schedule,
        "default func ew2 = linalg.generic[*] (a, b) where b >= 16, body != copy\n\
         ew2.split(b, bo, bi, 16).vectorize(bi)\n",
    )
    .unwrap();
    let applied = sched_apply(&[payload, schedule.to_str().unwrap()]);
    assert!(applied.status.success(), "{}", stderr(&applied));
    assert_eq!(stdout(&applied).matches("vector.transfer_write").count(), 1);
}

#[test]
fn ops_shows_a_convolutions_and_a_pools_padding() {
    let ops = sched_apply(&["ops", "examples/torchvision/resnet18_b1.linalg.mlir"]);
    let text = stdout(&ops);
    let line = |func: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("func {func} =")))
            .unwrap_or_else(|| panic!("no {func}: {text}"))
            .to_string()
    };
    assert!(
        line("conv0").contains("stride 2, dilation 1, padding 3,"),
        "{}",
        line("conv0")
    );
    assert!(
        line("pool0").contains("stride 2, dilation 1, padding 1,"),
        "{}",
        line("pool0")
    );
    let json = sched_apply(&[
        "ops",
        "examples/torchvision/resnet18_b1.linalg.mlir",
        "--json",
    ]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let ops = report.as_array().or(report["ops"].as_array()).unwrap();
    let conv0 = ops.iter().find(|o| o["func"] == "conv0").unwrap();
    assert_eq!(
        conv0["padding"],
        serde_json::json!([[0, 0, 3, 3], [0, 0, 3, 3]])
    );
}

/// The ReLU's and the convolution's chains the pairing tests share.
const RELU: &str = ".split(c, co, ci, 8).reorder(x, ci, y, co, n).vectorize(x).unroll(ci)\n";
const CONV: &str = ".reorder(x, f, ky, kx, c, y, n).vectorize(x).unroll(f)\n";

/// The block's payload after each of two schedules, both applied.
fn applied_both(paired: &str, explicit: &str) -> (String, String) {
    let scratch = common::tempdir();
    let outputs: Vec<String> = [("paired", paired), ("explicit", explicit)]
        .iter()
        .map(|(name, text)| {
            let path = scratch.join(format!("{name}.sched"));
            std::fs::write(&path, text).unwrap();
            let output = sched_apply(&[BLOCK, path.to_str().unwrap()]);
            assert!(output.status.success(), "{name}: {}", stderr(&output));
            stdout(&output)
        })
        .collect();
    let _ = std::fs::remove_dir_all(scratch);
    (outputs[0].clone(), outputs[1].clone())
}

/// A compute_at between two funcs of many ops pairs each producer with the
/// nearest op of the consumer func downstream of it: the block's two
/// convolutions go into its two ReLUs' loops (through the batch norms'
/// steps, inlined), exactly as with one func per op.
#[test]
fn compute_at_between_funcs_of_many_ops_pairs_each_op_with_its_reader() {
    let (by_pairs, by_op) = applied_both(
        &format!(
            "func convs = linalg.conv_2d_nchw_fchw[*] (n, f, y, x | c, ky, kx)\n\
             func relus = linalg.generic[*] (n, c, y, x) where body == select\n\
             default func norms = linalg.generic[*] (n, c, y, x)\n\
             relus{RELU}convs.compute_at(relus, co){CONV}norms.compute_inline()\n"
        ),
        // The ReLUs are generics 6 and 14 of the block.
        &format!(
            "func c0 = linalg.conv_2d_nchw_fchw[0] (n, f, y, x | c, ky, kx)\n\
             func c1 = linalg.conv_2d_nchw_fchw[1] (n, f, y, x | c, ky, kx)\n\
             func r0 = linalg.generic[6] (n, c, y, x)\n\
             func r1 = linalg.generic[14] (n, c, y, x)\n\
             default func norms = linalg.generic[*] (n, c, y, x)\n\
             r0{RELU}r1{RELU}c0.compute_at(r0, co){CONV}c1.compute_at(r1, co){CONV}\
             norms.compute_inline()\n"
        ),
    );
    assert_eq!(by_pairs, by_op);
    assert!(by_pairs.contains("scf.for"));
}

/// A func of one op computed at a func of many is paired the same way:
/// the block's first convolution goes into its own ReLU's loops, as when
/// that ReLU is named by a func of its own.
#[test]
fn compute_at_from_one_op_to_a_func_of_many_pairs_it_with_its_reader() {
    let common = "func c0 = linalg.conv_2d_nchw_fchw[0] (n, f, y, x | c, ky, kx)\n\
                  default func norms = linalg.generic[*] (n, c, y, x)\n";
    let (by_pair, by_op) = applied_both(
        &format!(
            "{common}func relus = linalg.generic[*] (n, c, y, x) where body == select\n\
             relus{RELU}c0.compute_at(relus, co){CONV}norms.compute_inline()\n"
        ),
        // The block's first ReLU is its generic 6.
        &format!(
            "{common}func r0 = linalg.generic[6] (n, c, y, x)\n\
             func r1 = linalg.generic[14] (n, c, y, x)\n\
             r0{RELU}r1{RELU}c0.compute_at(r0, co){CONV}norms.compute_inline()\n"
        ),
    );
    assert_eq!(by_pair, by_op);
}

/// An op of the producer func no op of the consumer func reads from is a
/// located error naming it: the block's last ReLU feeds no convolution.
#[test]
fn a_producer_no_consumer_op_reads_is_an_error_at_the_consumers_name() {
    let scratch = common::tempdir();
    let schedule = scratch.join("unpaired.sched");
    std::fs::write(
        &schedule,
        "func convs = linalg.conv_2d_nchw_fchw[*] (n, f, y, x | c, ky, kx)\n\
         func relus = linalg.generic[*] (n, c, y, x) where body == select\n\
         relus.compute_at(convs, f)\n",
    )
    .unwrap();
    let output = sched_apply(&["check", schedule.to_str().unwrap(), "--payload", BLOCK]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = stderr(&output);
    assert!(
        report.contains("unpaired.sched:3:18: error: no op `convs` binds reads from `relus[1]`"),
        "{report}"
    );
    assert!(
        report.contains("resnet_block.linalg.mlir:104:11"),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(scratch);
}
