//! Every kind of bad input gets a located, whole diagnostic and never a panic.
//! Each case checks the full rendered text, caret included.

mod common;

use interpreter::pipeline::{run, Failure, Stop};
use schedule_lang::SourceFile;

fn payload(name: &str) -> String {
    std::fs::read_to_string(common::root().join("tests/payloads").join(name)).unwrap()
}

/// Runs `schedule` against `payload_name` up to applying it, and compares the report.
fn check(payload_name: &str, schedule: &str, expected: &str) {
    check_text(payload_name, &payload(payload_name), schedule, expected);
}

fn check_text(payload_name: &str, payload_text: &str, schedule: &str, expected: &str) {
    let source = SourceFile::new("test.sched", schedule);
    let expected = expected.strip_prefix('\n').unwrap_or(expected);
    match run(&source, payload_name, payload_text, Stop::Apply) {
        Ok(_) => panic!("expected an error for:\n{schedule}"),
        Err(Failure::Internal(text)) => {
            panic!("internal failure instead of an input error:\n{text}")
        }
        Err(Failure::Input(text)) => {
            if text.trim_end() != expected.trim_end() {
                panic!("report differs.\n--- got:\n{text}\n--- expected:\n{expected}");
            }
        }
    }
}

const MM: &str = "func mm = linalg.matmul (i, j | k)\n";

#[test]
fn missing_equals() {
    check(
        "matmul.mlir",
        "func mm linalg.matmul (i, j | k)\n",
        r#"
test.sched:1:9: error: expected `=` after the func name, found `linalg.matmul`
  |
1 | func mm linalg.matmul (i, j | k)
  |         ^
"#,
    );
}

#[test]
fn bad_closing_bracket() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(i, io, ii, 16]\n"),
        r#"
test.sched:2:23: error: expected `,` or `)` in the argument list, found `]`
  |
2 | mm.split(i, io, ii, 16]
  |                       ^
"#,
    );
}

#[test]
fn unterminated_string() {
    check(
        "matmul.mlir",
        "func mm = \"fc1 (i, j | k)\n",
        r#"
test.sched:1:11: error: unterminated string
  |
1 | func mm = "fc1 (i, j | k)
  |           ^ this quote is never closed
"#,
    );
}

#[test]
fn continuation_without_chain() {
    check(
        "matmul.mlir",
        &format!("{MM}.split(i, io, ii, 4)\n"),
        r#"
test.sched:2:1: error: a `.directive(...)` line must continue a chain
  |
2 | .split(i, io, ii, 4)
  | ^ nothing to continue here
  = help: start the chain with the func's name, as in `relu.split(x, xo, xi, 8)`
"#,
    );
}

#[test]
fn missing_parenthesis() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split i\n"),
        r#"
test.sched:2:10: error: expected `(` after `split`, found `i`
  |
2 | mm.split i
  |          ^
"#,
    );
}

#[test]
fn op_without_dialect() {
    check(
        "matmul.mlir",
        "func mm = matmul (i, j | k)\n",
        r#"
test.sched:1:11: error: `matmul` is not an op name
  |
1 | func mm = matmul (i, j | k)
  |           ^^^^^^ expected `dialect.op`
  = help: write the op with its dialect, as in `linalg.matmul`
"#,
    );
}

#[test]
fn chain_without_call() {
    check(
        "matmul.mlir",
        &format!("{MM}mm\n"),
        r#"
test.sched:2:3: error: expected `.directive(...)` after `mm`
  |
2 | mm
  |   ^
  = help: schedule the func with a call, as in `mm.compute_root()`
"#,
    );
}

#[test]
fn every_syntax_error_at_once() {
    check(
        "matmul.mlir",
        "func mm = linalg.matmul (i, j | k\nmm.split(i, io, ii 4)\nmm.unroll(k)\n",
        r#"
test.sched:1:34: error: expected `,`, `|` or `)` in the dimension list, found the end of the line
  |
1 | func mm = linalg.matmul (i, j | k
  |                                  ^

test.sched:2:20: error: expected `,` or `)` in the argument list, found `4`
  |
2 | mm.split(i, io, ii 4)
  |                    ^
"#,
    );
}

#[test]
fn negative_index() {
    check(
        "chain.mlir",
        "func g = linalg.generic[-1] (i, j)\n",
        r#"
test.sched:1:25: error: an op index cannot be negative
  |
1 | func g = linalg.generic[-1] (i, j)
  |                         ^^
"#,
    );
}

#[test]
fn unknown_func() {
    check(
        "matmul.mlir",
        &format!("{MM}nm.split(i, io, ii, 4)\n"),
        r#"
test.sched:2:1: error: unknown func `nm`
  |
2 | nm.split(i, io, ii, 4)
  | ^^
  = help: did you mean `mm`?
"#,
    );
}

#[test]
fn unknown_directive() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.splt(i, io, ii, 4)\n"),
        r#"
test.sched:2:4: error: unknown directive `splt`
  |
2 | mm.splt(i, io, ii, 4)
  |    ^^^^
  = help: did you mean `split`?
"#,
    );
}

#[test]
fn unknown_loop() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(i, io, ii, 4)\n  .unroll(iii)\n"),
        r#"
test.sched:3:11: error: `iii` is not a loop of `mm`
  |
3 |   .unroll(iii)
  |           ^^^ not a loop of `mm`
  = help: did you mean `ii`?
"#,
    );
}

#[test]
fn zero_split_factor() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(i, io, ii, 0)\n"),
        r#"
test.sched:2:21: error: `split` needs a positive integer here, not 0
  |
2 | mm.split(i, io, ii, 0)
  |                     ^ must be 1 or more
  = help: write `split(d, outer, inner, factor)`
"#,
    );
}

#[test]
fn wrong_arity() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(i, io, 4)\n"),
        r#"
test.sched:2:4: error: `split` takes 4 argument(s), 3 given
  |
2 | mm.split(i, io, 4)
  |    ^^^^^^^^^^^^^^^
  = help: write `split(d, outer, inner, factor)`
"#,
    );
}

#[test]
fn integer_for_loop() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.unroll(4)\n"),
        r#"
test.sched:2:11: error: expected a loop name, found an integer
  |
2 | mm.unroll(4)
  |           ^
  = help: write `unroll(l[, factor])`
"#,
    );
}

#[test]
fn name_for_integer() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(i, io, ii, four)\n"),
        r#"
test.sched:2:21: error: expected an integer, found name `four`
  |
2 | mm.split(i, io, ii, four)
  |                     ^^^^
  = help: write `split(d, outer, inner, factor)`
"#,
    );
}

#[test]
fn loop_named_twice() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.reorder(i, j, i)\n"),
        r#"
test.sched:2:18: error: loop `i` is named twice
  |
2 | mm.reorder(i, j, i)
  |                  ^
test.sched:2:12: note: first named here
  |
2 | mm.reorder(i, j, i)
  |            ^
"#,
    );
}

#[test]
fn new_loop_name_taken() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(i, j, ii, 4)\n"),
        r#"
test.sched:2:13: error: a loop named `j` already exists
  |
2 | mm.split(i, j, ii, 4)
  |             ^
  = help: give the new loop a fresh name
"#,
    );
}

#[test]
fn selector_matches_nothing() {
    check(
        "matmul.mlir",
        "func mm = linalg.conv_2d (i, j | k)\n",
        r#"
test.sched:1:11: error: no `linalg.conv_2d` op in `matmul.mlir`
  |
1 | func mm = linalg.conv_2d (i, j | k)
  |           ^^^^^^^^^^^^^^ matches nothing
  = help: the payload has: linalg.matmul
"#,
    );
}

#[test]
fn selector_ambiguous() {
    check(
        "chain.mlir",
        "func g = linalg.generic (i, j)\n",
        r#"
test.sched:1:10: error: `linalg.generic` matches 2 ops
  |
1 | func g = linalg.generic (i, j)
  |          ^^^^^^^^^^^^^^ which one?
  = help: add an index in payload order, from `linalg.generic[0]` to `linalg.generic[1]`
"#,
    );
}

#[test]
fn index_out_of_range() {
    check(
        "chain.mlir",
        "func g = linalg.generic[2] (i, j)\n",
        r#"
test.sched:1:25: error: index 2 is out of range: there are 2 `linalg.generic` ops
  |
1 | func g = linalg.generic[2] (i, j)
  |                         ^
  = help: indices count from 0, in payload order: use 0 to 1
"#,
    );
}

#[test]
fn dim_count() {
    check(
        "matmul.mlir",
        "func mm = linalg.matmul (i, j)\n",
        r#"
test.sched:1:11: error: `linalg.matmul` has 3 iteration dimensions (2 parallel, 1 reduction), but 2 named
  |
1 | func mm = linalg.matmul (i, j)
  |           ^^^^^^^^^^^^^^^^^^^^
  = help: name them in linalg order, reduction dimensions after `|`: (d0, d1 | d2)
"#,
    );
}

#[test]
fn reduction_named_parallel() {
    check(
        "matmul.mlir",
        "func mm = linalg.matmul (i, j, k)\n",
        r#"
test.sched:1:32: error: `k` is named as a parallel dimension, but d2 of `linalg.matmul` is reduction
  |
1 | func mm = linalg.matmul (i, j, k)
  |                                ^
  = help: the op's dimensions are (d0, d1 | d2)
"#,
    );
}

#[test]
fn dim_named_twice() {
    check(
        "matmul.mlir",
        "func mm = linalg.matmul (i, i | k)\n",
        r#"
test.sched:1:29: error: dimension `i` is named twice
  |
1 | func mm = linalg.matmul (i, i | k)
  |                             ^
test.sched:1:26: note: first named here
  |
1 | func mm = linalg.matmul (i, i | k)
  |                          ^
"#,
    );
}

#[test]
fn unknown_function_scope() {
    check(
        "matmul.mlir",
        "func mm = @forward:linalg.matmul (i, j | k)\n",
        r#"
test.sched:1:12: error: no function `@forward` in `matmul.mlir`
  |
1 | func mm = @forward:linalg.matmul (i, j | k)
  |            ^^^^^^^
"#,
    );
}

#[test]
fn unknown_named_op() {
    check(
        "matmul.mlir",
        "func mm = \"fc1\" (i, j | k)\n",
        r#"
test.sched:1:11: error: no op in `matmul.mlir` is named "fc1"
  |
1 | func mm = "fc1" (i, j | k)
  |           ^^^^^ matches nothing
  = help: name an op by giving it a `sched.name = "..."` attribute in the payload
"#,
    );
}

#[test]
fn func_declared_twice() {
    check(
        "matmul.mlir",
        &format!("{MM}func mm = linalg.matmul (a, b | c)\n"),
        r#"
test.sched:2:6: error: func `mm` is declared twice
  |
2 | func mm = linalg.matmul (a, b | c)
  |      ^^
test.sched:1:6: note: first declared here
  |
1 | func mm = linalg.matmul (i, j | k)
  |      ^^
"#,
    );
}

#[test]
fn op_bound_twice() {
    check(
        "matmul.mlir",
        &format!("{MM}func other = linalg.matmul (a, b | c)\n"),
        r#"
test.sched:2:14: error: this op is already bound to func `mm`
  |
2 | func other = linalg.matmul (a, b | c)
  |              ^^^^^^^^^^^^^^^^^^^^^^^^
test.sched:1:6: note: bound here
  |
1 | func mm = linalg.matmul (i, j | k)
  |      ^^
"#,
    );
}

#[test]
fn compute_at_unknown_loop() {
    check(
        "fill_matmul.mlir",
        &format!(
            "func zero = linalg.fill (i, j)\n{MM}mm.split(i, io, ii, 8)\nzero.compute_at(mm, i0)\n"
        ),
        r#"
test.sched:4:21: error: `i0` is not a loop of `mm`
  |
4 | zero.compute_at(mm, i0)
  |                     ^^ not a loop of `mm`
  = help: did you mean `io`?
"#,
    );
}

#[test]
fn compute_at_unknown_consumer() {
    check(
        "fill_matmul.mlir",
        &format!("func zero = linalg.fill (i, j)\n{MM}zero.compute_at(mn, i)\n"),
        r#"
test.sched:3:17: error: unknown func `mn`
  |
3 | zero.compute_at(mn, i)
  |                 ^^
  = help: did you mean `mm`?
"#,
    );
}

#[test]
fn compute_at_not_a_producer() {
    check(
        "chain.mlir",
        "func scaled = linalg.generic[0] (i, j)\nfunc out = linalg.generic[1] (i, j)\nout.compute_at(scaled, i)\n",
        r#"
test.sched:3:5: error: `out` does not feed `scaled`
  |
3 | out.compute_at(scaled, i)
  |     ^^^^^^^^^^^^^^^^^^^^^
  = help: `compute_at(f, loop)` needs `f` (or a func computed inside `f`) to use this func's result
"#,
    );
}

#[test]
fn compute_at_cycle() {
    check(
        "chain.mlir",
        "func scaled = linalg.generic[0] (i, j)\nfunc out = linalg.generic[1] (i, j)\nout.compute_at(scaled, i)\nscaled.compute_at(out, i)\n",
        r#"
test.sched:3:5: error: `compute_at` makes a cycle through `out`
  |
3 | out.compute_at(scaled, i)
  |     ^^^^^^^^^^^^^^^^^^^^^

test.sched:4:8: error: `compute_at` makes a cycle through `scaled`
  |
4 | scaled.compute_at(out, i)
  |        ^^^^^^^^^^^^^^^^^^
"#,
    );
}

#[test]
fn compute_root_after_update() {
    check(
        "fill_matmul.mlir",
        "func c = linalg.fill (i, j) update linalg.matmul (i, j | k)\nc.update().compute_root()\n",
        r#"
test.sched:2:12: error: `compute_root` places a whole func; call it before `update()`
  |
2 | c.update().compute_root()
  |            ^^^^^^^^^^^^^^
"#,
    );
}

#[test]
fn update_without_definition() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.update().split(k, ko, ki, 8)\n"),
        r#"
test.sched:2:4: error: func `mm` has no update definition
  |
2 | mm.update().split(k, ko, ki, 8)
  |    ^^^^^^^^
  = help: bind one: `func mm = SELECTOR (dims) update SELECTOR (dims | reduction dims)`
"#,
    );
}

#[test]
fn parallel_reduction() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.parallel(k)\n"),
        r#"
test.sched:2:13: error: `k` iterates reduction dimension `k`; its iterations cannot run in parallel
  |
2 | mm.parallel(k)
  |             ^
  = help: parallelize a loop over a parallel dimension instead
"#,
    );
}

#[test]
fn split_order_broken() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(i, io, ii, 8)\n  .reorder(io, ii)\n"),
        r#"
test.sched:3:4: error: this order puts `ii` outside `io`, but both iterate `i` and `ii` was split inside `io`
  |
3 |   .reorder(io, ii)
  |    ^^^^^^^^^^^^^^^
  = help: loops are materialized by tiling, so the inner part of a split must stay inside its outer part
"#,
    );
}

#[test]
fn vectorize_not_innermost() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.vectorize(i, 16)\n"),
        r#"
test.sched:2:4: error: cannot vectorize `i.v` in `mm`: `k` is inside it and is neither vectorized nor unrolled
  |
2 | mm.vectorize(i, 16)
  |    ^^^^^^^^^^^^^^^^
  = help: vectorize the innermost loop (reorder it inside), and unroll or vectorize the loops between
"#,
    );
}

#[test]
fn vectorize_partial_reduction_tiles() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(k, ko, ki, 48)\n  .reorder(j, ki, i, ko)\n  .vectorize(j, 16)\n  .unroll(ki)\n  .unroll(i)\n"),
        r#"
test.sched:4:4: error: cannot vectorize `mm`: the vectorized tile must have a static shape, but the tiles of `k` are partial (its 128 iterations are not divided evenly by the splits)
  |
4 |   .vectorize(j, 16)
  |    ^^^^^^^^^^^^^^^^
  = help: choose split factors that divide the extents of reduction dimensions (the partial last tile of a parallel dimension is split off, but a reduction's is not)
"#,
    );
}

#[test]
fn partial_tile_split_off_with_a_func_computed_inside() {
    check(
        "fill_matmul.mlir",
        "func zero = linalg.fill (i, j)\nfunc mm = linalg.matmul (i, j | k)\nmm.split(j, jo, ji, 64)\n  .reorder(ji, k, i, jo)\n  .vectorize(ji, 16)\nzero.compute_at(mm, jo)\n",
        r#"
test.sched:3:4: error: cannot split off the partial last tile of `jo` in `mm`: `zero` is computed at `jo`, and it cannot be fused into both parts of the split
  |
3 | mm.split(j, jo, ji, 64)
  |    ^^^^^^^^^^^^^^^^^^^^
test.sched:6:6: note: computed there
  |
6 | zero.compute_at(mm, jo)
  |      ^^^^^^^^^^^^^^^^^^
  = help: choose a split factor that divides 96 (the extent of `j` there), or compute the func at a loop outside `jo`
"#,
    );
}

#[test]
fn parallel_and_unroll() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.parallel(i).unroll(i)\n"),
        r#"
test.sched:2:4: error: `i` cannot be both parallel and unrolled
  |
2 | mm.parallel(i).unroll(i)
  |    ^^^^^^^^^^^
test.sched:2:16: note: marked here
  |
2 | mm.parallel(i).unroll(i)
  |                ^^^^^^^^^
  = help: split the loop and mark the outer part parallel, as `parallel(x, 16)` does
"#,
    );
}

#[test]
fn unplanned_directive() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.pipeline(i)\n"),
        r#"
test.sched:2:4: error: `pipeline` is not supported by the planner yet
  |
2 | mm.pipeline(i)
  |    ^^^^^^^^ understood, but cannot be turned into transform ops yet
  = help: remove it for now; it is never ignored silently
"#,
    );
}

#[test]
fn pack_unknown_operand() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.pack(in2, i)\nmm.pack(b, i)\n"),
        r#"
test.sched:2:9: error: `mm` has 2 inputs, so there is no `in2`
  |
2 | mm.pack(in2, i)
  |         ^^^
  = help: inputs are named in payload order (`ins(...)` of `linalg.matmul`): `in0`, `in1`

test.sched:3:9: error: `b` does not name an input of `mm`
  |
3 | mm.pack(b, i)
  |         ^
  = help: name an input by its position in the op's `ins(...)`: `in0`, `in1`
"#,
    );
}

#[test]
fn pack_at_unknown_loop() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(k, ko, ki, 16)\nmm.pack(in1, kk)\n"),
        r#"
test.sched:3:14: error: `kk` is not a loop around `mm`
  |
3 | mm.pack(in1, kk)
  |              ^^ not a loop around it
  = help: did you mean `ko`?
"#,
    );
}

#[test]
fn pack_at_unmaterialized_loop() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(j, jo, ji, 16).pack(in1, k)\n"),
        r#"
test.sched:2:25: error: cannot pack `in1` of `mm` at `k`: `k` is left to the op itself (innermost unit-step loops in the op's dimension order are not tiled), so it is not a loop of the generated code
  |
2 | mm.split(j, jo, ji, 16).pack(in1, k)
  |                         ^^^^^^^^^^^^
  = help: pack at a loop that is materialized: the innermost loop of a tiling run (e.g. the `compute_at` loop) or an outer one that is tiled on its own
"#,
    );
}

#[test]
fn pack_of_a_partial_reduction_tile() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(k, ko, ki, 48).reorder(ki, j, i, ko).pack(in1, ko)\n"),
        r#"
test.sched:2:47: error: cannot pack `in1` of `mm` at `ko`: the tile of reduction `k` there is partial or dynamic, and padding it would change the sum
  |
2 | mm.split(k, ko, ki, 48).reorder(ki, j, i, ko).pack(in1, ko)
  |                                               ^^^^^^^^^^^^^
  = help: choose split factors that divide the extents
"#,
    );
}

#[test]
fn pack_in_a_reduction_loop_with_a_partial_accumulator_tile() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(i, io, ii, 5).split(k, ko, ki, 1).reorder(ii, j, ki, ko, io).pack(in0, ko)\n"),
        r#"
test.sched:2:71: error: cannot pack `in0` of `mm` at `ko`: the tile of `i` there is partial or dynamic, so the accumulator would be padded too, inside reduction loop `ko`
  |
2 | mm.split(i, io, ii, 5).split(k, ko, ki, 1).reorder(ii, j, ki, ko, io).pack(in0, ko)
  |                                                                       ^^^^^^^^^^^^^
  = help: choose split factors that divide the extents, or pack at a loop outside the reduction loops
"#,
    );
}

#[test]
fn prefetch_of_an_unknown_or_repeated_operand() {
    check(
        "matmul.mlir",
        &format!(
            "{MM}mm.prefetch(in2, i)\nmm.split(i, io, ii, 8).prefetch(in1, io).prefetch(in1, io)\n"
        ),
        r#"
test.sched:2:13: error: `mm` has 2 inputs, so there is no `in2`
  |
2 | mm.prefetch(in2, i)
  |             ^^^
  = help: inputs are named in payload order (`ins(...)` of `linalg.matmul`): `in0`, `in1`

test.sched:3:42: error: `in1` is already prefetched
  |
3 | mm.split(i, io, ii, 8).prefetch(in1, io).prefetch(in1, io)
  |                                          ^^^^^^^^^^^^^^^^^
test.sched:3:24: note: prefetched here
  |
3 | mm.split(i, io, ii, 8).prefetch(in1, io).prefetch(in1, io)
  |                        ^^^^^^^^^^^^^^^^^
"#,
    );
}

#[test]
fn prefetch_at_a_sequential_loop() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(k, ko, ki, 16).prefetch(in0, ko)\n"),
        r#"
test.sched:2:25: error: cannot prefetch `in0` of `mm` at `ko`: `ko` is an `scf.for` (a sequential loop), and only `scf.forall` loops prefetch so far
  |
2 | mm.split(k, ko, ki, 16).prefetch(in0, ko)
  |                         ^^^^^^^^^^^^^^^^^
  = help: prefetch at a loop over a parallel dimension, such as the `compute_at` loop
"#,
    );
}

#[test]
fn prefetch_of_an_input_computed_in_the_function() {
    check(
        "chain.mlir",
        "func scale = linalg.generic[0] (y, x)\nfunc relu = linalg.generic[1] (y, x)\nrelu.split(x, xo, xi, 8).prefetch(in0, xo)\n",
        r#"
test.sched:3:26: error: cannot prefetch `in0` of `relu` at `xo`: `in0` is not an argument of @chain, and only arguments are prefetched so far
  |
3 | relu.split(x, xo, xi, 8).prefetch(in0, xo)
  |                          ^^^^^^^^^^^^^^^^^
  = help: prefetch an input the function receives
"#,
    );
}

#[test]
fn prefetch_of_a_tile_that_does_not_move() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(i, io, ii, 8).split(j, jo, ji, 16).reorder(ii, ji, k, jo, io).prefetch(in0, jo)\n"),
        r#"
test.sched:2:72: error: cannot prefetch `in0` of `mm` at `jo`: the next iteration of `jo` reads the same part of `in0`, so there is nothing new to prefetch
  |
2 | mm.split(i, io, ii, 8).split(j, jo, ji, 16).reorder(ii, ji, k, jo, io).prefetch(in0, jo)
  |                                                                        ^^^^^^^^^^^^^^^^^
  = help: prefetch an input whose tile moves with `jo`, or at a loop that moves it
"#,
    );
}

#[test]
fn prefetch_of_a_tile_an_outer_loop_moves() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(i, io, ii, 8).split(j, jo, ji, 16).reorder(ii, ji, k, io, jo).prefetch(in1, io)\n"),
        r#"
test.sched:2:72: error: cannot prefetch `in1` of `mm` at `io`: what it reads depends on `j`, which a loop outside `io` tiles
  |
2 | mm.split(i, io, ii, 8).split(j, jo, ji, 16).reorder(ii, ji, k, io, jo).prefetch(in1, io)
  |                                                                        ^^^^^^^^^^^^^^^^^
"#,
    );
}

#[test]
fn prefetch_at_a_loop_the_op_keeps() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(j, jo, ji, 16).prefetch(in1, k)\n"),
        r#"
test.sched:2:25: error: cannot prefetch `in1` of `mm` at `k`: it is not a loop of the generated code (it has one iteration, stays inside the op, or is tiled together with the loops inside it)
  |
2 | mm.split(j, jo, ji, 16).prefetch(in1, k)
  |                         ^^^^^^^^^^^^^^^^
  = help: prefetch at a loop that is materialized as an `scf.forall`: the innermost loop of a tiling run over parallel dimensions (e.g. the `compute_at` loop)
"#,
    );
}

/// Found by the property tests: the forall's bounds are dynamic, which lowering cannot prefetch for.
#[test]
fn prefetch_at_a_forall_with_a_dynamic_trip_count() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(i, io, ii, 5).split(j, jo, ji, 1).split(k, ko, ki, 1)\nmm.reorder(ki, ji, ko, jo, ii, io)\nmm.prefetch(in1, jo)\n"),
        r#"
test.sched:4:4: error: cannot prefetch `in1` of `mm` at `jo`: `ii`, in the same `scf.forall` as `jo`, has a trip count that is not static (a split around it does not divide its extent), so the forall's bounds are dynamic
  |
4 | mm.prefetch(in1, jo)
  |    ^^^^^^^^^^^^^^^^^
  = help: choose split factors that divide the extents
"#,
    );
}

#[test]
fn compute_at_inside_a_reduction_loop() {
    check(
        "fill_matmul.mlir",
        &format!("func zero = linalg.fill (i, j)\n{MM}mm.split(k, ko, ki, 32).split(i, io, ii, 4).reorder(ii, ki, io, ko)\nzero.compute_at(mm, io)\n"),
        r#"
test.sched:4:6: error: cannot compute `zero` inside `io` of `mm`
  |
4 | zero.compute_at(mm, io)
  |      ^^^^^^^^^^^^^^^^^^
test.sched:3:4: note: `ko`, a loop around `io`, iterates reduction dimension `k`, and `zero` initializes what `mm` accumulates: it would be reset at every step
  |
3 | mm.split(k, ko, ki, 32).split(i, io, ii, 4).reorder(ii, ki, io, ko)
  |    ^^^^^^^^^^^^^^^^^^^^
  = help: compute it at a loop outside the reduction loops
"#,
    );
}

#[test]
fn compute_at_reduction_loop() {
    check(
        "fill_matmul.mlir",
        &format!("func zero = linalg.fill (i, j)\n{MM}mm.split(k, ko, ki, 32)\nzero.compute_at(mm, ko)\n"),
        r#"
test.sched:4:6: error: cannot compute `zero` inside `ko` of `mm`
  |
4 | zero.compute_at(mm, ko)
  |      ^^^^^^^^^^^^^^^^^^
test.sched:3:4: note: `ko` iterates reduction dimension `k`, and `zero` initializes what `mm` accumulates: it would be reset at every step
  |
3 | mm.split(k, ko, ki, 32)
  |    ^^^^^^^^^^^^^^^^^^^^
  = help: compute it at a loop outside the reduction loops
"#,
    );
}

#[test]
fn payload_does_not_parse() {
    check_text(
        "broken.mlir",
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %b : tensor<4xf32>\n}\n",
        MM,
        r#"
broken.mlir: error: cannot parse the payload
broken.mlir:2:10: error: use of undeclared SSA value name
  |
2 |   return %b : tensor<4xf32>
  |          ^
"#,
    );
}

#[test]
fn payload_has_no_linalg_ops() {
    check_text(
        "empty.mlir",
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n",
        MM,
        r#"
test.sched:1:11: error: no `linalg.matmul` op in `empty.mlir`
  |
1 | func mm = linalg.matmul (i, j | k)
  |           ^^^^^^^^^^^^^ matches nothing
  = help: the payload has no linalg ops to schedule
"#,
    );
}

const CONV: &str = "func conv = linalg.broadcast (n, y, x, c) update linalg.generic[0] (n, y, x, c | rz, ry, rx)\n";

#[test]
fn fuse_not_adjacent() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.fuse(i, k, ik)\n"),
        r#"
test.sched:2:4: error: cannot fuse `i` into `k`: `k` must be the loop directly outside `i`
  |
2 | mm.fuse(i, k, ik)
  |    ^^^^^^^^^^^^^^
  = help: `mm` has loops `i`, `j`, `k` (outermost first); `fuse(inner, outer, fused)` lists the inner loop first
"#,
    );
}

#[test]
fn split_a_fused_loop() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.fuse(j, i, ij).split(ij, o, in, 4)\n"),
        r#"
test.sched:2:25: error: cannot split `ij`: it is a fused loop (of `i`, `j`)
  |
2 | mm.fuse(j, i, ij).split(ij, o, in, 4)
  |                         ^^
  = help: loops are materialized by tiling, which cannot split a fused iteration space; split before `fuse`
"#,
    );
}

#[test]
fn vectorize_a_fused_loop_by_a_factor() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.fuse(j, i, ij).vectorize(ij, 8)\n"),
        r#"
test.sched:2:19: error: cannot vectorize `ij` by 8: it is a fused loop, and a factor splits it
  |
2 | mm.fuse(j, i, ij).vectorize(ij, 8)
  |                   ^^^^^^^^^^^^^^^^
  = help: write `vectorize(ij)` to mark the whole fused loop, or split before `fuse`
"#,
    );
}

#[test]
fn fused_components_are_hidden() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.fuse(j, i, ij).reorder(k, i)\n"),
        r#"
test.sched:2:30: error: `i` is not a loop of `mm`
  |
2 | mm.fuse(j, i, ij).reorder(k, i)
  |                              ^ not a loop of `mm`
  = help: did you mean `ij`?
"#,
    );
}

#[test]
fn fused_name_taken() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.fuse(j, i, k)\n"),
        r#"
test.sched:2:15: error: a loop named `k` already exists
  |
2 | mm.fuse(j, i, k)
  |               ^
  = help: give the fused loop a fresh name
"#,
    );
}

#[test]
fn fuse_parallel_with_reduction() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.reorder(k, j, i).fuse(k, j, jk)\n"),
        r#"
test.sched:2:21: error: cannot make `jk` one loop in `mm`: `j` becomes an scf.forall (parallel dimension) but `k` becomes an scf.for (reduction or unrolled)
  |
2 | mm.reorder(k, j, i).fuse(k, j, jk)
  |                     ^^^^^^^^^^^^^^
  = help: fuse loops of the same kind whose dimensions follow the op's order (linalg's d0, d1, …), outermost first
"#,
    );
}

#[test]
fn fuse_against_dimension_order() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(i, io, ii, 8).reorder(k, ii, j, io).fuse(ii, j, jii)\n"),
        r#"
test.sched:2:46: error: cannot make `jii` one loop in `mm`: `j` is outside `ii` (over `i`), against the op's dimension order, so tiling makes them separate loops
  |
2 | mm.split(i, io, ii, 8).reorder(k, ii, j, io).fuse(ii, j, jii)
  |                                              ^^^^^^^^^^^^^^^^
  = help: fuse loops of the same kind whose dimensions follow the op's order (linalg's d0, d1, …), outermost first
"#,
    );
}

#[test]
fn fuse_vectorized_with_loop() {
    check(
        "matmul.mlir",
        &format!("{MM}mm.split(j, jo, ji, 8).reorder(k, ji, jo, i).vectorize(ji).unroll(k).fuse(ji, jo, jj)\n"),
        r#"
test.sched:2:70: error: cannot make `jj` one loop in `mm`: `ji` (over `j`) stays inside the vectorized op while `jo` (over `j`) must be a loop
  |
2 | mm.split(j, jo, ji, 8).reorder(k, ji, jo, i).vectorize(ji).unroll(k).fuse(ji, jo, jj)
  |                                                                      ^^^^^^^^^^^^^^^^
  = help: mark the whole fused loop, as in `vectorize(jj)`, or do not fuse a vectorized loop
"#,
    );
}

#[test]
fn unroll_part_of_fused_loop() {
    check(
        "conv_small.mlir",
        &format!("{CONV}conv.update().unroll(ry).fuse(ry, rz, window)\n"),
        r#"
test.sched:2:15: error: `ry` is unrolled, but it was fused into `window` with loops that are not
  |
2 | conv.update().unroll(ry).fuse(ry, rz, window)
  |               ^^^^^^^^^^
  = help: unroll the fused loop: `unroll(window)`
"#,
    );
}
