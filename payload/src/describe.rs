//! Builds a [`PayloadInfo`] from a parsed module: every structured (linalg) op,
//! its iteration dimensions and their static extents, its operands' indexing
//! maps and producers.
//!
//! Named ops (`linalg.matmul`, `linalg.broadcast`, …) carry no indexing maps
//! of their own, so the module is cloned and generalized with the upstream
//! `linalg-generalize-named-ops` pass; op i of the original corresponds to op i
//! of the clone, which is a `linalg.generic` with explicit maps.

use crate::ffi::OpView;
use crate::PayloadError;
use melior::ir::Module;
use melior::Context;
use schedule_lang::{IteratorKind, MapResult, OperandInfo, PayloadInfo, PayloadOp};

/// Rewrites every linalg op of a module as a `linalg.generic`, in place.
pub const GENERALIZE_SCRIPT: &str = r#"module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %generic = transform.structured.generalize %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
"#;

/// Describes the structured ops of `module`, which was parsed in `context`.
pub fn describe(
    context: &Context,
    module: &Module,
    name: &str,
) -> Result<PayloadInfo, PayloadError> {
    describe_with_ops(context, module, name).map(|(info, _)| info)
}

/// [`describe`], with a view of each described op (indexed by its id).
pub(crate) fn describe_with_ops<'m>(
    context: &Context,
    module: &'m Module,
    name: &str,
) -> Result<(PayloadInfo, Vec<OpView<'m>>), PayloadError> {
    let mut generalized = crate::ffi::clone_module(module)
        .ok_or_else(|| PayloadError::internal("could not copy the payload to generalize it"))?;
    // Through the transform op, not the pass: the pass's greedy driver erases
    // ops whose results are unused, and then the ops no longer pair up.
    crate::transform::apply_script(context, &mut generalized, GENERALIZE_SCRIPT).map_err(
        |error| {
            PayloadError::internal(format!("could not generalize the payload's ops: {error:?}"))
        },
    )?;

    let original_root = OpView::of_module(module);
    let generic_root = OpView::of_module(&generalized);
    let mut functions = Vec::new();
    let mut originals = Vec::new();
    let mut generics = Vec::new();
    for (function, original) in functions_of(original_root) {
        functions.push(function.clone());
        collect_ops(original, &function, &mut originals);
    }
    for (function, generic) in functions_of(generic_root) {
        collect_ops(generic, &function, &mut generics);
    }
    // Generalization may move constants; linalg ops keep their order one for one.
    originals.retain(|(_, op)| op.name().starts_with("linalg."));
    generics.retain(|(_, op)| op.name().starts_with("linalg."));
    if originals.len() != generics.len() {
        return Err(PayloadError::internal(format!(
            "generalization changed the number of linalg ops ({} before, {} after)",
            originals.len(),
            generics.len()
        )));
    }
    let mut ops = Vec::new();
    let mut views = Vec::new();
    let mut raw_ids: Vec<(mlir_sys::MlirOperation, usize)> = Vec::new();
    for ((function, original), (_, generic)) in originals.iter().zip(&generics) {
        let kind = original.name();
        if !kind.starts_with("linalg.") || generic.name() != "linalg.generic" {
            continue;
        }
        let id = ops.len();
        raw_ids.push((original.to_raw(), id));
        views.push(*original);
        ops.push(describe_op(*original, *generic, function, id)?);
    }
    // Producers (which structured op defines each operand) and arguments.
    let function_ops = functions_of(original_root);
    for ((function, original), op) in originals
        .iter()
        .filter(|(_, o)| raw_ids.iter().any(|(raw, _)| raw.ptr == o.to_raw().ptr))
        .zip(ops.iter_mut())
    {
        let function_op = function_ops
            .iter()
            .find(|(name, _)| name == function)
            .map(|(_, f)| *f);
        for (index, operand) in op.operands.iter_mut().enumerate() {
            if let Some((owner, views)) = original.operand_through_views(index) {
                operand.producer = raw_ids
                    .iter()
                    .find(|(raw, _)| raw.ptr == owner.ptr)
                    .map(|(_, id)| *id);
                if operand.producer.is_some() {
                    operand.via = views;
                }
            }
            operand.argument = function_op.and_then(|f| original.operand_argument_of(index, f));
            operand.padding = padding_of(*original, index);
        }
    }
    let info = PayloadInfo {
        name: name.to_string(),
        ops,
        functions,
    };
    Ok((info, views))
}

fn functions_of(root: OpView<'_>) -> Vec<(String, OpView<'_>)> {
    root.children()
        .into_iter()
        .filter(|op| op.name() == "func.func")
        .map(|op| (op.string_attribute("sym_name").unwrap_or_default(), op))
        .collect()
}

/// Collects ops in payload order, without entering linalg ops' bodies.
fn collect_ops<'m>(op: OpView<'m>, function: &str, out: &mut Vec<(String, OpView<'m>)>) {
    for child in op.children() {
        out.push((function.to_string(), child));
        if !child.name().starts_with("linalg.") {
            collect_ops(child, function, out);
        }
    }
}

/// The element type of a shaped type's text (`tensor<4x8xf32>` → `f32`), or
/// the text itself for a scalar type.
fn element_type(type_text: &str) -> String {
    match type_text.strip_suffix('>').and_then(|t| t.split_once('<')) {
        Some((_, inner)) => inner.rsplit('x').next().unwrap_or(inner).trim().to_string(),
        None => type_text.trim().to_string(),
    }
}

fn describe_op(
    original: OpView<'_>,
    generic: OpView<'_>,
    function: &str,
    id: usize,
) -> Result<PayloadOp, PayloadError> {
    let maps_text = generic
        .attribute_text("indexing_maps")
        .ok_or_else(|| PayloadError::internal("a linalg.generic without indexing_maps"))?;
    let maps = parse_maps(&maps_text)
        .ok_or_else(|| PayloadError::internal(format!("unreadable indexing maps: {maps_text}")))?;
    let iterators_text = generic.attribute_text("iterator_types").unwrap_or_default();
    // `[#linalg.iterator_type<parallel>, ...]`, or `[]` for a 0-d op (no loops).
    let iterators: Vec<IteratorKind> = iterators_text
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(',')
        .filter(|part| !part.trim().is_empty())
        .map(|part| {
            if part.contains("reduction") {
                IteratorKind::Reduction
            } else {
                IteratorKind::Parallel
            }
        })
        .collect();
    let segments = generic
        .i32_array_attribute("operandSegmentSizes")
        .unwrap_or_default();
    let inputs = segments.first().copied().unwrap_or(0).max(0) as usize;
    let operand_count = generic.operand_count().min(maps.len());
    let dims = iterators.len();
    let mut extents = vec![None; dims];
    let mut operands = Vec::new();
    for (index, map) in maps.iter().take(operand_count).enumerate() {
        let operand_type = generic.operand_type(index);
        let shape = static_shape(&operand_type);
        for (position, result) in map.iter().enumerate() {
            if let (MapResult::Dim(d), Some(Some(size))) = (result, shape.get(position)) {
                if *d < dims && extents[*d].is_none() {
                    extents[*d] = Some(*size);
                }
            }
        }
        operands.push(OperandInfo {
            map: map.clone(),
            producer: None,
            via: Vec::new(),
            argument: None,
            padding: None,
            is_init: index >= inputs,
            element: element_type(&operand_type),
            shape: shape.clone(),
        });
    }
    let unvectorizable_reduction = if iterators.contains(&IteratorKind::Reduction) {
        unrecognized_reduction(generic, inputs)
    } else {
        None
    };
    Ok(PayloadOp {
        id,
        kind: original.name(),
        function: function.to_string(),
        name: original.string_attribute(crate::attributes::NAME),
        iterators,
        extents,
        operands,
        flops_per_point: generic
            .children()
            .into_iter()
            .flat_map(|block_op| std::iter::once(block_op).chain(block_op.children()))
            .map(|op| flops_of(&op.name()))
            .sum(),
        location: original.location(),
        multiply_accumulate: inputs == 2
            && generic.operand_count() == 3
            && is_multiply_accumulate(generic),
        combiner: combiner(generic),
        unvectorizable_reduction,
        body: body_names(generic),
    })
}

/// The static low and high padding of operand `index` of `op` when a
/// `tensor.pad` computes it; `None` otherwise (or when any amount is dynamic).
fn padding_of(op: OpView<'_>, index: usize) -> Option<(Vec<i64>, Vec<i64>)> {
    let owner = op.operand_owner(index)?;
    // SAFETY: the owner is an op of the same module as `op`, alive as long.
    let pad = unsafe { OpView::from_raw(owner) };
    if pad.name() != "tensor.pad" {
        return None;
    }
    let amounts = |name: &str| -> Option<Vec<i64>> {
        let text = pad.attribute_text(name)?;
        let list = text.strip_prefix("array<i64")?.trim_end_matches('>');
        let list = list.trim_start_matches(':').trim();
        if list.is_empty() {
            return Some(Vec::new());
        }
        list.split(',')
            .map(|v| v.trim().parse::<i64>().ok().filter(|v| *v >= 0))
            .collect()
    };
    Some((amounts("static_low")?, amounts("static_high")?))
}

/// The names of a generic's body ops but its yield, each select that
/// picks the larger (smaller) of the two values a comparison just compared
/// followed by `max` (`min`): ReLU and ReLU6's clamps, which exporters
/// write as a compare and a select, can then be told apart by `where body
/// == max`.
fn body_names(generic: OpView<'_>) -> Vec<String> {
    let body = generic.children();
    let mut names = Vec::new();
    for (position, op) in body.iter().enumerate() {
        let name = op.name();
        if name == "linalg.yield" {
            continue;
        }
        names.push(name.clone());
        if name == "arith.select" {
            if let Some(word) = select_extremum(generic, &body, position) {
                names.push(word.to_string());
            }
        }
    }
    names
}

/// `max` or `min` when the select at `position` in `generic`'s body is
/// `select(cmp(a, b), a, b)` with a greater-than (less-than) comparison,
/// ordered or not, of floats or signed integers.
fn select_extremum(
    generic: OpView<'_>,
    body: &[OpView<'_>],
    position: usize,
) -> Option<&'static str> {
    use crate::ffi::ValueSource::Op;
    let select = body[position];
    let Some(Op(compare_at)) = select.operand_source(0, generic) else {
        return None;
    };
    let compare = *body.get(compare_at)?;
    let predicate: i64 = compare
        .attribute_text("predicate")?
        .split(':')
        .next()?
        .trim()
        .parse()
        .ok()?;
    // arith.cmpf: ogt oge ugt uge / olt ole ult ule; arith.cmpi: sgt sge / slt sle.
    let word = match (compare.name().as_str(), predicate) {
        ("arith.cmpf", 2 | 3 | 9 | 10) | ("arith.cmpi", 4 | 5) => "max",
        ("arith.cmpf", 4 | 5 | 11 | 12) | ("arith.cmpi", 2 | 3) => "min",
        _ => return None,
    };
    // The same value: one block argument or body op, or one op outside.
    let same = |a: OpView<'_>, i: usize, b: OpView<'_>, j: usize| match (
        a.operand_source(i, generic),
        b.operand_source(j, generic),
    ) {
        (Some(x), Some(y)) => x == y,
        (None, None) => match (a.operand_owner(i), b.operand_owner(j)) {
            (Some(x), Some(y)) => x.ptr == y.ptr,
            _ => false,
        },
        _ => false,
    };
    (select.operand_count() == 3
        && compare.operand_count() == 2
        && same(select, 1, compare, 0)
        && same(select, 2, compare, 1))
    .then_some(word)
}

/// The op a one-result generic's body yields, when it takes the accumulator
/// (the init's block argument) as an operand: the reduction's combiner.
fn combiner(generic: OpView<'_>) -> Option<String> {
    use crate::ffi::ValueSource::{Argument, Op};
    let init = generic.operand_count().checked_sub(1)?;
    let body = generic.children();
    let terminator = body.last()?;
    if terminator.name() != "linalg.yield" || terminator.operand_count() != 1 {
        return None;
    }
    let Some(Op(position)) = terminator.operand_source(0, generic) else {
        return None;
    };
    let op = *body.get(position)?;
    (0..op.operand_count())
        .any(|i| op.operand_source(i, generic) == Some(Argument(init)))
        .then(|| op.name())
}

/// The reductions MLIR's vectorizer knows (`vector.CombiningKind`).
const VECTOR_COMBINERS: [&str; 15] = [
    "arith.addf",
    "arith.addi",
    "arith.mulf",
    "arith.muli",
    "arith.minimumf",
    "arith.maximumf",
    "arith.minnumf",
    "arith.maxnumf",
    "arith.minsi",
    "arith.maxsi",
    "arith.minui",
    "arith.maxui",
    "arith.andi",
    "arith.ori",
    "arith.xori",
];

/// Why MLIR's vectorizer cannot vectorize a reduction generic, if it cannot:
/// an accumulator (an init's block argument the body reads) must be read by
/// one op, which yields the result and is a reduction it knows. An argmax's
/// index is `select(v > best, i, index)`: read by the select, a reduction of
/// no kind.
fn unrecognized_reduction(generic: OpView<'_>, inputs: usize) -> Option<String> {
    use crate::ffi::ValueSource::{Argument, Op};
    let body = generic.children();
    let terminator = *body.last()?;
    let results = generic.operand_count().checked_sub(inputs)?;
    for result in 0..results {
        let argument = Argument(inputs + result);
        let readers: Vec<usize> = (0..body.len())
            .filter(|&p| {
                let op = body[p];
                op.name() != "linalg.yield"
                    && (0..op.operand_count())
                        .any(|i| op.operand_source(i, generic) == Some(argument))
            })
            .collect();
        let yielded = match terminator.operand_source(result, generic) {
            Some(Op(position)) => Some(position),
            _ => None,
        };
        let problem = match readers.as_slice() {
            [] => continue,
            &[reader] if Some(reader) == yielded => {
                let name = body[reader].name();
                if VECTOR_COMBINERS.contains(&name.as_str()) {
                    continue;
                }
                format!("accumulates through `{name}`, not a reduction it knows")
            }
            [_] => "is not yielded by the op that reads its accumulator".to_string(),
            many => format!("reads its accumulator in {} ops, not one", many.len()),
        };
        return Some(format!("its result {result} {problem}"));
    }
    None
}

/// Whether a generic's body is `init + in0 * in1` (each input perhaps
/// extended first, as in a quantized matmul), and yields that.
fn is_multiply_accumulate(generic: OpView<'_>) -> bool {
    use crate::ffi::ValueSource::{Argument, Op};
    let body = generic.children();
    // What each body op computes, by position: an input (0, 1) extended, the
    // product, the sum.
    #[derive(Clone, Copy, PartialEq)]
    enum Value {
        Input(usize),
        Product,
        Sum,
        Other,
    }
    let mut values = Vec::new();
    let source = |op: OpView<'_>, i: usize, values: &[Value]| match op.operand_source(i, generic) {
        Some(Argument(n)) if n < 2 => Value::Input(n),
        Some(Argument(2)) => Value::Other, // the init, checked by the sum
        Some(Op(p)) => values.get(p).copied().unwrap_or(Value::Other),
        _ => Value::Other,
    };
    let mut yielded = None;
    for op in body.iter().copied() {
        let name = op.name();
        let value = match name.as_str() {
            "arith.extf" | "arith.extsi" | "arith.extui" | "arith.sitofp" | "arith.uitofp"
                if op.operand_count() == 1 =>
            {
                match source(op, 0, &values) {
                    Value::Input(n) => Value::Input(n),
                    _ => Value::Other,
                }
            }
            "arith.mulf" | "arith.muli" if op.operand_count() == 2 => {
                let mut pair = [source(op, 0, &values), source(op, 1, &values)];
                pair.sort_by_key(|v| match v {
                    Value::Input(n) => *n,
                    _ => 9,
                });
                if pair == [Value::Input(0), Value::Input(1)] {
                    Value::Product
                } else {
                    Value::Other
                }
            }
            "arith.addf" | "arith.addi" if op.operand_count() == 2 => {
                let init = |i| op.operand_source(i, generic) == Some(Argument(2));
                let product = |i| source(op, i, &values) == Value::Product;
                if (init(0) && product(1)) || (product(0) && init(1)) {
                    Value::Sum
                } else {
                    Value::Other
                }
            }
            "linalg.yield" if op.operand_count() == 1 => {
                yielded = Some(source(op, 0, &values));
                Value::Other
            }
            _ => Value::Other,
        };
        values.push(value);
    }
    yielded == Some(Value::Sum)
}

/// Floating-point operations one op performs (a fused multiply-add counts 2, a
/// math function 1).
pub fn flops_of(op_name: &str) -> u64 {
    match op_name {
        "arith.addf" | "arith.subf" | "arith.mulf" | "arith.divf" | "arith.maximumf"
        | "arith.minimumf" | "arith.maxnumf" | "arith.minnumf" => 1,
        "math.fma" => 2,
        // A math function counts one operation, as a divide does, however
        // many instructions its approximation or libm call takes.
        "math.exp" | "math.exp2" | "math.expm1" | "math.log" | "math.log2" | "math.log10"
        | "math.log1p" | "math.tanh" | "math.erf" | "math.erfc" | "math.sqrt" | "math.rsqrt"
        | "math.cbrt" | "math.sin" | "math.cos" | "math.tan" | "math.asin" | "math.acos"
        | "math.atan" | "math.atan2" | "math.sinh" | "math.cosh" | "math.powf" => 1,
        _ => 0,
    }
}

/// Parses `[affine_map<(d0, d1) -> (d0, 0, d1 + d0)>, ...]` into result lists.
pub fn parse_maps(text: &str) -> Option<Vec<Vec<MapResult>>> {
    let mut maps = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("affine_map<") {
        rest = &rest[start + "affine_map<".len()..];
        let arrow = rest.find("->")?;
        let end = arrow + 2 + rest[arrow + 2..].find('>')?;
        let body = &rest[..end];
        rest = &rest[end..];
        let (domain, results) = body.split_once("->")?;
        let domain = domain.trim();
        let dim_names: Vec<&str> = domain
            .trim_start_matches('(')
            .split(')')
            .next()?
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        let results = results.trim().strip_prefix('(')?.strip_suffix(')')?;
        let map = split_top_level(results)
            .into_iter()
            .filter(|r| !r.is_empty())
            .map(|r| {
                if let Some(d) = dim_names.iter().position(|name| *name == r) {
                    MapResult::Dim(d)
                } else if let Ok(value) = r.parse() {
                    MapResult::Constant(value)
                } else {
                    MapResult::Expression(r.to_string())
                }
            })
            .collect();
        maps.push(map);
    }
    Some(maps)
}

fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(text[start..].trim());
    parts
}

/// `tensor<5x?x3xf32>` → `[Some(5), None, Some(3)]`; scalars → `[]`.
fn static_shape(ty: &str) -> Vec<Option<i64>> {
    let Some(inner) = ty
        .strip_prefix("tensor<")
        .or_else(|| ty.strip_prefix("memref<"))
    else {
        return Vec::new();
    };
    let inner = inner.split(',').next().unwrap_or(inner);
    let parts: Vec<&str> = inner.split('x').collect();
    parts[..parts.len().saturating_sub(1)]
        .iter()
        .map(|p| p.parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_maps_with_expressions_and_constants() {
        let maps = parse_maps(
            "[affine_map<(d0, d1, d2) -> (d0 + d2, 0)>, affine_map<(d0, d1, d2) -> ()>]",
        )
        .unwrap();
        assert_eq!(
            maps,
            vec![
                vec![
                    MapResult::Expression("d0 + d2".into()),
                    MapResult::Constant(0)
                ],
                vec![]
            ]
        );
    }

    #[test]
    fn reads_static_shapes() {
        assert_eq!(
            static_shape("tensor<5x?x3xf32>"),
            vec![Some(5), None, Some(3)]
        );
        assert_eq!(
            static_shape("memref<4x8xf32, strided<[8, 1]>>"),
            vec![Some(4), Some(8)]
        );
        assert_eq!(static_shape("f32"), Vec::<Option<i64>>::new());
    }
}
