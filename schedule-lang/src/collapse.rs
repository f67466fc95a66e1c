//! `fuse` of two whole loops as one dimension: an op's neighbouring
//! iteration dimensions `outer` and `outer + 1` collapsed into one, as
//! Halide's `fuse(x, y, xy)` makes one variable a later `split` can cut (a
//! 1x1 convolution's rows and columns become one run of pixels, read as a
//! matrix multiplication reads its columns). [`collapse`] says whether an op
//! allows it and describes the op after; the payload's collapse phase
//! (`shim/collapse.cpp`) rewrites the op the same way.
//!
//! The rule, for every operand: a dimension of extent 1 in an index sum
//! counts as 0 (a 1x1 window's `y + ky` is `y`); then either neither
//! dimension indexes it, or `outer` alone indexes one axis and `inner` alone
//! the next, whose sizes are the two extents (so the pair is one run of
//! elements in memory, and the operand is reshaped to one axis). The body
//! must not read its indices.

use crate::payload_info::{linear_terms, IteratorKind, MapResult, OperandInfo, PayloadOp};

/// Why an op's dimensions cannot collapse; worded to follow "because".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal(pub String);

/// The op `op` with dimensions `outer` and `outer + 1` collapsed into
/// dimension `outer` of extent their product (later dimensions move down
/// by one), as a `linalg.generic`; `names` names its dimensions in
/// messages.
pub fn collapse(op: &PayloadOp, outer: usize, names: &[String]) -> Result<PayloadOp, Refusal> {
    let inner = outer + 1;
    let name = |d: usize| names.get(d).map_or(format!("d{d}"), |n| format!("`{n}`"));
    if inner >= op.iterators.len() {
        return Err(Refusal(format!(
            "{} is the op's last dimension",
            name(outer)
        )));
    }
    if op.iterators[outer] != op.iterators[inner] {
        return Err(Refusal(format!(
            "{} and {} are not both parallel or both reductions",
            name(outer),
            name(inner)
        )));
    }
    let (Some(outer_extent), Some(inner_extent)) = (op.extents[outer], op.extents[inner]) else {
        return Err(Refusal("their extents are not static".to_string()));
    };
    if op.body.iter().any(|b| b == "linalg.index") {
        return Err(Refusal("the op's body reads its indices".to_string()));
    }
    let mut operands = Vec::with_capacity(op.operands.len());
    for (index, operand) in op.operands.iter().enumerate() {
        let label = operand_label(op, index);
        let collapsed = collapse_operand(operand, op, (outer, outer_extent), inner_extent)
            .map_err(|why| {
                Refusal(format!(
                    "{label} {why}",
                    why = why
                        .replace("{o}", &name(outer))
                        .replace("{i}", &name(inner))
                ))
            })?;
        operands.push(collapsed);
    }
    let mut extents = op.extents.clone();
    extents[outer] = Some(outer_extent * inner_extent);
    extents.remove(inner);
    let mut iterators: Vec<IteratorKind> = op.iterators.clone();
    iterators.remove(inner);
    Ok(PayloadOp {
        kind: "linalg.generic".to_string(),
        iterators,
        extents,
        operands,
        ..op.clone()
    })
}

/// `in0`, `in1`, ... for inputs, `out` for the (first) init.
fn operand_label(op: &PayloadOp, index: usize) -> String {
    let inputs = op.operands.iter().filter(|o| !o.is_init).count();
    match index.checked_sub(inputs) {
        None => format!("in{index}"),
        Some(0) => "out".to_string(),
        Some(k) => format!("out{k}"),
    }
}

/// One operand after the collapse, or why not (`{o}`, `{i}`: the two
/// dimensions' names).
fn collapse_operand(
    operand: &OperandInfo,
    op: &PayloadOp,
    (outer, outer_extent): (usize, i64),
    inner_extent: i64,
) -> Result<OperandInfo, String> {
    let inner = outer + 1;
    let unit = |d: usize| op.extents.get(d).copied().flatten() == Some(1);
    let map: Vec<MapResult> = operand
        .map
        .iter()
        .map(|r| without_unit_dims(r, unit))
        .collect();
    let mentions = |r: &MapResult, dim: usize| match r {
        MapResult::Dim(d) => *d == dim,
        MapResult::Constant(_) => false,
        MapResult::Expression(text) => {
            linear_terms(text).is_none_or(|terms| terms.iter().any(|(d, _)| *d == Some(dim)))
        }
    };
    let in_sums = map.iter().any(|r| {
        matches!(r, MapResult::Expression(_)) && (mentions(r, outer) || mentions(r, inner))
    });
    if in_sums {
        return Err("indexes an axis by {o} or {i} with other dimensions (a window)".to_string());
    }
    let uses = (
        map.iter().filter(|r| mentions(r, outer)).count(),
        map.iter().filter(|r| mentions(r, inner)).count(),
    );
    let at = |dim: usize| map.iter().position(|r| *r == MapResult::Dim(dim));
    let (outer_at, inner_at) = (at(outer), at(inner));
    let mut shape = operand.shape.clone();
    let mut map = map;
    match (uses, outer_at, inner_at) {
        ((0, 0), _, _) => {}
        ((1, 1), Some(a), Some(b)) if b == a + 1 => {
            if shape.get(a).copied().flatten() != Some(outer_extent)
                || shape.get(b).copied().flatten() != Some(inner_extent)
            {
                return Err(format!(
                    "has {} and {} elements along the axes {{o}} and {{i}} index, not {outer_extent} and {inner_extent}: they are not one run of elements",
                    size(shape.get(a)),
                    size(shape.get(b))
                ));
            }
            map.remove(b);
            shape.remove(b);
            shape[a] = Some(outer_extent * inner_extent);
        }
        ((_, 0), _, _) => return Err("is indexed by {o} but not by {i}".to_string()),
        ((0, _), _, _) => return Err("is indexed by {i} but not by {o}".to_string()),
        _ => {
            return Err(
                "is not indexed by {o} and {i} on neighbouring axes, in that order".to_string(),
            )
        }
    }
    Ok(OperandInfo {
        map: map.iter().map(|r| renumbered(r, inner)).collect(),
        shape,
        ..operand.clone()
    })
}

fn size(size: Option<&Option<i64>>) -> String {
    size.copied()
        .flatten()
        .map_or("?".to_string(), |s| s.to_string())
}

/// `result` with every dimension `unit` says has extent 1 taken as 0: a sum
/// left with one dimension is that dimension, with none a constant.
fn without_unit_dims(result: &MapResult, unit: impl Fn(usize) -> bool) -> MapResult {
    let MapResult::Expression(text) = result else {
        return result.clone();
    };
    let Some(terms) = linear_terms(text) else {
        return result.clone();
    };
    let kept: Vec<(Option<usize>, i64)> = terms
        .iter()
        .copied()
        .filter(|(d, _)| !d.is_some_and(&unit))
        .collect();
    if kept.len() == terms.len() {
        return result.clone();
    }
    let constant: i64 = kept
        .iter()
        .filter(|(d, _)| d.is_none())
        .map(|(_, c)| c)
        .sum();
    let dims: Vec<(usize, i64)> = kept
        .iter()
        .filter_map(|(d, c)| d.map(|d| (d, *c)))
        .collect();
    match (dims.as_slice(), constant) {
        ([], c) => MapResult::Constant(c),
        ([(d, 1)], 0) => MapResult::Dim(*d),
        _ => MapResult::Expression(print_terms(&kept)),
    }
}

/// `result` with the dimensions after `removed` moved down by one.
fn renumbered(result: &MapResult, removed: usize) -> MapResult {
    let down = |d: usize| if d > removed { d - 1 } else { d };
    match result {
        MapResult::Dim(d) => MapResult::Dim(down(*d)),
        MapResult::Constant(c) => MapResult::Constant(*c),
        MapResult::Expression(text) => match linear_terms(text) {
            Some(terms) => MapResult::Expression(print_terms(
                &terms
                    .iter()
                    .map(|(d, c)| (d.map(down), *c))
                    .collect::<Vec<_>>(),
            )),
            None => result.clone(),
        },
    }
}

/// Terms as MLIR prints a sum: `d2 * 2 + d5`, constants last.
fn print_terms(terms: &[(Option<usize>, i64)]) -> String {
    let mut parts: Vec<String> = terms
        .iter()
        .filter_map(|(d, c)| {
            d.map(|d| {
                if *c == 1 {
                    format!("d{d}")
                } else {
                    format!("d{d} * {c}")
                }
            })
        })
        .collect();
    parts.extend(
        terms
            .iter()
            .filter(|(d, _)| d.is_none())
            .map(|(_, c)| c.to_string()),
    );
    parts.join(" + ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::payload_info::IteratorKind::{Parallel, Reduction};

    fn operand(map: Vec<MapResult>, shape: &[i64], is_init: bool) -> OperandInfo {
        OperandInfo {
            map,
            producer: None,
            via: Vec::new(),
            argument: None,
            padding: None,
            is_init,
            element: "f32".to_string(),
            shape: shape.iter().map(|&s| Some(s)).collect(),
        }
    }

    fn expr(text: &str) -> MapResult {
        MapResult::Expression(text.to_string())
    }

    /// `linalg.conv_2d_nchw_fchw` of `n x c x h x w` by `f x c x k x k`, stride 1.
    fn conv(h: i64, w: i64, k: i64, input: [i64; 4]) -> PayloadOp {
        use MapResult::Dim;
        PayloadOp {
            id: 0,
            kind: "linalg.conv_2d_nchw_fchw".to_string(),
            function: "forward".to_string(),
            name: None,
            iterators: vec![
                Parallel, Parallel, Parallel, Parallel, Reduction, Reduction, Reduction,
            ],
            extents: [1, 8, h, w, 4, k, k].iter().map(|&e| Some(e)).collect(),
            operands: vec![
                operand(
                    vec![Dim(0), Dim(4), expr("d2 + d5"), expr("d3 + d6")],
                    &input,
                    false,
                ),
                operand(vec![Dim(1), Dim(4), Dim(5), Dim(6)], &[8, 4, k, k], false),
                operand(vec![Dim(0), Dim(1), Dim(2), Dim(3)], &[1, 8, h, w], true),
            ],
            flops_per_point: 2,
            location: "conv.mlir:3:10".to_string(),
            multiply_accumulate: true,
            combiner: Some("arith.addf".to_string()),
            unvectorizable_reduction: None,
            body: vec!["arith.mulf".to_string(), "arith.addf".to_string()],
        }
    }

    fn names() -> Vec<String> {
        ["n", "f", "y", "x", "c", "ky", "kx"]
            .map(String::from)
            .to_vec()
    }

    #[test]
    fn a_pointwise_convolution_collapses_its_rows_and_columns() {
        use MapResult::Dim;
        let op = collapse(&conv(14, 14, 1, [1, 4, 14, 14]), 2, &names()).expect("collapses");
        assert_eq!(op.kind, "linalg.generic");
        assert_eq!(op.extents, [1, 8, 196, 4, 1, 1].map(Some).to_vec());
        assert_eq!(op.iterators.len(), 6);
        assert_eq!(op.operands[0].map, vec![Dim(0), Dim(3), Dim(2)]);
        assert_eq!(op.operands[0].shape, [1, 4, 196].map(Some).to_vec());
        assert_eq!(op.operands[1].map, vec![Dim(1), Dim(3), Dim(4), Dim(5)]);
        assert_eq!(op.operands[2].map, vec![Dim(0), Dim(1), Dim(2)]);
        assert_eq!(op.operands[2].shape, [1, 8, 196].map(Some).to_vec());
    }

    #[test]
    fn a_window_wider_than_one_refuses() {
        let refusal = collapse(&conv(14, 14, 3, [1, 4, 16, 16]), 2, &names()).unwrap_err();
        assert_eq!(
            refusal.0,
            "in0 indexes an axis by `y` or `x` with other dimensions (a window)"
        );
    }

    #[test]
    fn a_wider_input_than_the_pixels_read_refuses() {
        let refusal = collapse(&conv(14, 14, 1, [1, 4, 14, 16]), 2, &names()).unwrap_err();
        assert_eq!(
            refusal.0,
            "in0 has 14 and 16 elements along the axes `y` and `x` index, not 14 and 14: they \
             are not one run of elements"
        );
    }

    #[test]
    fn dimensions_of_two_kinds_refuse() {
        let refusal = collapse(&conv(14, 14, 1, [1, 4, 14, 14]), 3, &names()).unwrap_err();
        assert_eq!(
            refusal.0,
            "`x` and `c` are not both parallel or both reductions"
        );
    }

    #[test]
    fn sums_of_other_dimensions_are_renumbered() {
        assert_eq!(renumbered(&expr("d3 * 2 + d6"), 4), expr("d3 * 2 + d5"));
        assert_eq!(
            without_unit_dims(&expr("d2 + d5"), |d| d == 2),
            MapResult::Dim(5)
        );
        assert_eq!(
            without_unit_dims(&expr("d2 + d5"), |_| true),
            MapResult::Constant(0)
        );
    }
}
