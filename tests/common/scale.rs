//! Generated models of any number of ops, for measuring how applying,
//! lowering and compiling grow with a model's size (`benches/scale.rs`) and
//! for checking that large schedules keep semantics (`tests/scale.rs`).
//!
//! A model is a chain on 256×256 `f32` tensors: every fourth op is a
//! `linalg.matmul` by the weight `%w`, the others elementwise generics
//! `y = max(prev * 0.5 + x, 0)`. Its schedule splits, reorders and
//! vectorizes every op, as a user scheduling a real export op by op would.

use std::fmt::Write;

/// Side of the square tensors.
pub const SIZE: usize = 256;

/// How the generated schedule treats the chain's producers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Matmuls and elementwise ops, each scheduled on its own.
    Mixed,
    /// Elementwise ops only; every producer is computed at the last op's
    /// row loop (`compute_at`), so one loop nest holds the whole chain.
    ComputeAtLast,
}

/// Whether op `index` of a [`Shape::Mixed`] chain is a matmul.
fn is_matmul(shape: Shape, index: usize) -> bool {
    shape == Shape::Mixed && index % 4 == 3
}

/// The payload: `@model(%x, %w) -> tensor` chaining `ops` linalg ops.
pub fn payload(ops: usize, shape: Shape) -> String {
    let t = format!("tensor<{SIZE}x{SIZE}xf32>");
    let mut text = String::new();
    writeln!(text, "#id = affine_map<(i, j) -> (i, j)>").unwrap();
    writeln!(text, "func.func @model(%x: {t}, %w: {t}) -> {t} {{").unwrap();
    writeln!(text, "  %half = arith.constant 0.5 : f32").unwrap();
    writeln!(text, "  %zero = arith.constant 0.0 : f32").unwrap();
    writeln!(text, "  %empty = tensor.empty() : {t}").unwrap();
    if shape == Shape::Mixed {
        writeln!(
            text,
            "  %init = linalg.fill ins(%zero : f32) outs(%empty : {t}) -> {t}"
        )
        .unwrap();
    }
    let mut previous = "%x".to_string();
    for index in 0..ops {
        let value = format!("%v{index}");
        if is_matmul(shape, index) {
            writeln!(
                text,
                "  {value} = linalg.matmul ins({previous}, %w : {t}, {t}) outs(%init : {t}) -> {t}"
            )
            .unwrap();
        } else {
            writeln!(
                text,
                "  {value} = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = [\"parallel\", \"parallel\"]}} ins({previous}, %x : {t}, {t}) outs(%empty : {t}) {{\n  ^bb0(%p: f32, %xv: f32, %o: f32):\n    %s = arith.mulf %p, %half : f32\n    %a = arith.addf %s, %xv : f32\n    %r = arith.maximumf %a, %zero : f32\n    linalg.yield %r : f32\n  }} -> {t}"
            )
            .unwrap();
        }
        previous = value;
    }
    writeln!(text, "  return {previous} : {t}\n}}").unwrap();
    text
}

/// The schedule of [`payload`]`(ops, shape)`.
pub fn schedule(ops: usize, shape: Shape) -> String {
    let mut text = String::from("# A generated chain, every op scheduled.\n");
    let (mut generics, mut matmuls) = (0, 0);
    for index in 0..ops {
        if is_matmul(shape, index) {
            writeln!(
                text,
                "func s{index} = linalg.matmul[{matmuls}] (i, j | k)\ns{index}.split(j, jo, ji, 64).reorder(ji, k, i, jo).vectorize(ji, 16)"
            )
            .unwrap();
            matmuls += 1;
        } else {
            writeln!(
                text,
                "func s{index} = linalg.generic[{generics}] (i, j)\ns{index}.split(j, jo, ji, 64).reorder(ji, i, jo).vectorize(ji, 16)"
            )
            .unwrap();
            generics += 1;
        }
    }
    if shape == Shape::ComputeAtLast && ops > 1 {
        let last = ops - 1;
        for index in 0..last {
            writeln!(text, "s{index}.compute_at(s{last}, i)").unwrap();
        }
    }
    text
}
