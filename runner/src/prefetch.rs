//! The `prefetch` directive's code, inserted when lowering: the planner
//! annotates an `scf.forall` with `sched.prefetch_N = {argument, offsets,
//! sizes, shifts}` (the region of a function argument one iteration reads: an
//! offset map from the forall's induction variables, a size per dimension, and
//! how far it moves per iteration of the innermost variable). After
//! bufferization, each annotation becomes a private function that prefetches,
//! one `memref.prefetch` per cache line, the region the *next* iteration of
//! the forall's innermost variable reads, and a call to it at the start of
//! the forall's body. A prefetch is a hint: it cannot change any value.

use melior::ir::attribute::{
    ArrayAttribute, DenseI64ArrayAttribute, DictionaryAttribute, FlatSymbolRefAttribute,
    IntegerAttribute,
};
use melior::ir::block::BlockLike;
use melior::ir::operation::{
    OperationBuilder, OperationLike, OperationMutLike, OperationRefMut, WalkOrder, WalkResult,
};
use melior::ir::{Attribute, Identifier, Module, RegionLike, Value, ValueLike};
use melior::Context;
use payload::types::ElementType;
use payload::PayloadError;

use payload::attributes::PREFETCH_PREFIX as ANNOTATION;

use payload::prefetch_lines::{elements_per_line, line_count, line_offsets, new_part, MAX_LINES};

/// One annotation, read back.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Region {
    argument: usize,
    offsets: Vec<String>,
    sizes: Vec<i64>,
    /// How far the region moves, per dimension, from one iteration of the
    /// forall's innermost variable to the next.
    shifts: Vec<i64>,
}

/// Inserts the prefetches of every annotated forall of the bufferized
/// `module`; returns how many it inserted.
pub fn insert_prefetches(context: &Context, module: &mut Module) -> Result<usize, PayloadError> {
    let mut helpers = Vec::new();
    let mut failure = None;
    module
        .as_operation_mut()
        .walk_mut(WalkOrder::PreOrder, |mut op| {
            if op.name().as_string_ref().as_str() != Ok("scf.forall") {
                return WalkResult::Advance;
            }
            let names: Vec<String> = op
                .attributes()
                .filter_map(|(name, _)| {
                    name.as_string_ref()
                        .as_str()
                        .ok()
                        .filter(|n| n.starts_with(ANNOTATION))
                        .map(str::to_string)
                })
                .collect();
            for name in names {
                let outcome = read_region(&op, &name).and_then(|region| {
                    let upper = upper_bounds(&op)?;
                    let memref = function_argument(&op, region.argument)?;
                    let symbol = format!("__sched_prefetch_{}", helpers.len());
                    let helper =
                        helper_text(&region, &upper, &memref.r#type().to_string(), &symbol)?;
                    insert_call(context, &mut op, memref, upper.len(), &symbol)?;
                    Ok(helper)
                });
                match outcome {
                    Ok(helper) => helpers.push(helper),
                    Err(why) => {
                        failure = Some(format!("cannot insert the prefetch `{name}`: {why}"));
                        return WalkResult::Interrupt;
                    }
                }
            }
            WalkResult::Advance
        });
    if let Some(why) = failure {
        return Err(PayloadError::internal(why));
    }
    if helpers.is_empty() {
        return Ok(0);
    }
    crate::passes::append_generated(context, module, &helpers.join("\n"), "prefetch functions")?;
    Ok(helpers.len())
}

fn read_region(op: &OperationRefMut, name: &str) -> Result<Region, String> {
    let dictionary = op
        .attribute(name)
        .ok()
        .and_then(|a| DictionaryAttribute::try_from(a).ok())
        .ok_or("not a dictionary")?;
    let argument = dictionary
        .element_by_name("argument")
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .ok_or("no integer `argument`")?
        .value();
    let offsets = dictionary
        .element_by_name("offsets")
        .and_then(|a| ArrayAttribute::try_from(a).ok())
        .ok_or("no array `offsets`")?;
    let offsets = (0..offsets.len())
        .map(|i| {
            offsets
                .element(i)
                .map(|map| map.to_string())
                .map_err(|e| e.to_string())
        })
        .collect::<Result<Vec<_>, _>>()?;
    let sizes = i64_array(dictionary.element_by_name("sizes"), "sizes")?;
    let shifts = i64_array(dictionary.element_by_name("shifts"), "shifts")?;
    if offsets.len() != sizes.len()
        || shifts.len() != sizes.len()
        || sizes.iter().any(|&s| s < 1)
        || argument < 0
    {
        return Err("its offsets, sizes and shifts do not describe a region".into());
    }
    Ok(Region {
        argument: argument as usize,
        offsets,
        sizes,
        shifts,
    })
}

/// The elements of a `array<i64: ...>` attribute named `what`.
fn i64_array(attribute: Option<Attribute>, what: &str) -> Result<Vec<i64>, String> {
    let values = attribute
        .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok())
        .ok_or(format!("no i64 array `{what}`"))?;
    (0..values.len())
        .map(|i| values.element(i).map_err(|e| e.to_string()))
        .collect()
}

/// The forall's static bounds, checked normalized (zero lower bounds, unit steps).
fn upper_bounds(op: &OperationRefMut) -> Result<Vec<i64>, String> {
    let array = |name: &str| i64_array(op.attribute(name).ok(), name);
    let (lower, upper, step) = (
        array("staticLowerBound")?,
        array("staticUpperBound")?,
        array("staticStep")?,
    );
    if lower.iter().any(|&l| l != 0) || step.iter().any(|&s| s != 1) || upper.iter().any(|&u| u < 1)
    {
        return Err(format!("the forall is not normalized with static bounds (lower {lower:?}, upper {upper:?}, step {step:?})"));
    }
    Ok(upper)
}

/// Argument `index` of the function around `op`.
fn function_argument<'c, 'a>(
    op: &OperationRefMut<'c, 'a>,
    index: usize,
) -> Result<Value<'c, 'a>, String> {
    let mut parent = op.parent_operation();
    while let Some(candidate) = parent {
        if candidate.name().as_string_ref().as_str() == Ok("func.func") {
            let entry = candidate
                .region(0)
                .ok()
                .and_then(|r| r.first_block())
                .ok_or("the function has no body")?;
            return entry
                .argument(index)
                .map(Into::into)
                .map_err(|_| format!("the function has no argument {index}"));
        }
        parent = candidate.parent_operation();
    }
    Err("the forall is not inside a function".into())
}

/// The text of the private function `symbol` that prefetches `region` of the
/// `memref` (the type, printed) for the iteration after the one its index
/// arguments name; `upper` are the forall's trip counts.
fn helper_text(
    region: &Region,
    upper: &[i64],
    memref: &str,
    symbol: &str,
) -> Result<String, String> {
    let element = memref
        .rsplit('x')
        .next()
        .map(|e| e.trim_end_matches('>'))
        .and_then(ElementType::from_mlir);
    let element_bytes = element
        .ok_or(format!(
            "argument {} is a `{memref}`, not a memref of a type `run` passes",
            region.argument
        ))?
        .bytes() as i64;
    let line = elements_per_line(element_bytes);
    let variables = upper.len();
    // Each offset map takes the forall's variables (the planner left out those
    // of one iteration, which cleanups fold away).
    let inputs = |map: &str| {
        map.split_once('(')
            .and_then(|(_, rest)| rest.split_once(')'))
            .map(|(list, _)| list.split(',').filter(|v| !v.trim().is_empty()).count())
    };
    if let Some(map) = region
        .offsets
        .iter()
        .find(|map| inputs(map) != Some(variables))
    {
        return Err(format!(
            "the offset map `{map}` does not take the forall's {variables} induction variable(s)"
        ));
    }
    let ivs: Vec<String> = (0..variables).map(|k| format!("%i{k}")).collect();
    let mut next_ivs = ivs.clone();
    next_ivs[variables - 1] = "%next".into();
    let (start, sizes) = new_part(&region.sizes, &region.shifts);
    // The planner refuses such a region with the directive's location; this
    // is the check that lowering never emits millions of instructions.
    let count = line_count(&sizes, line);
    if count > MAX_LINES as u64 {
        return Err(format!(
            "{count} cache lines per iteration is more than the {MAX_LINES} prefetched at most"
        ));
    }
    let lines = line_offsets(&sizes, line);
    let mut body = String::new();
    body.push_str(&format!(
        "  %one = arith.constant 1 : index
  %end = arith.constant {} : index
",
        upper[variables - 1]
    ));
    body.push_str(&format!(
        "  %next = arith.addi {}, %one : index
  %more = arith.cmpi ult, %next, %end : index
  scf.if %more {{
",
        ivs[variables - 1]
    ));
    for (r, map) in region.offsets.iter().enumerate() {
        body.push_str(&format!(
            "    %o{r} = affine.apply {map}({})
",
            next_ivs.join(", ")
        ));
    }
    // Straight-line code: each prefetch's address is the region's start plus a
    // constant, one instruction once compiled.
    let mut constants: Vec<i64> = lines
        .iter()
        .flat_map(|line| line.iter().zip(&start).map(|(a, s)| a + s))
        .collect();
    constants.sort_unstable();
    constants.dedup();
    for c in &constants {
        body.push_str(&format!(
            "    %k{c} = arith.constant {c} : index
"
        ));
    }
    for (n, offsets) in lines.iter().enumerate() {
        let mut indices = Vec::new();
        for (r, a) in offsets.iter().enumerate() {
            body.push_str(&format!(
                "    %x{n}_{r} = arith.addi %o{r}, %k{} : index
",
                a + start[r]
            ));
            indices.push(format!("%x{n}_{r}"));
        }
        body.push_str(&format!(
            "    memref.prefetch %m[{}], read, locality<3>, data : {memref}
",
            indices.join(", ")
        ));
    }
    body.push_str(
        "  }
  return
",
    );
    let parameters: Vec<String> = ivs.iter().map(|v| format!("{v}: index")).collect();
    Ok(format!(
        "func.func private @{symbol}(%m: {memref}, {}) {{
{body}}}
",
        parameters.join(", ")
    ))
}

/// Calls `symbol` with `memref` and the forall's `variables` induction
/// variables, first thing in the forall's body.
fn insert_call<'c, 'a>(
    context: &Context,
    op: &mut OperationRefMut<'c, 'a>,
    memref: Value<'c, 'a>,
    variables: usize,
    symbol: &str,
) -> Result<(), String> {
    let body = op
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or("the forall has no body")?;
    if body.argument_count() < variables {
        return Err("the forall has fewer induction variables than bounds".into());
    }
    let mut operands: Vec<Value> = vec![memref];
    for k in 0..variables {
        operands.push(body.argument(k).map_err(|e| e.to_string())?.into());
    }
    let call = OperationBuilder::new("func.call", op.location())
        .add_attributes(&[(
            Identifier::new(context, "callee"),
            FlatSymbolRefAttribute::new(context, symbol).into(),
        )])
        .add_operands(&operands)
        .build()
        .map_err(|e| e.to_string())?;
    body.insert_operation(0, call);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use payload::{new_context, parse_module};

    /// A forall over 4 tiles of 8 rows, each reading rows [8i, 8i + 10) of %a.
    const ANNOTATED: &str = "func.func @f(%a: memref<34x40xf32>, %out: memref<4xf32>) {
      scf.forall (%i) in (4) {
        %c0 = arith.constant 0 : index
        %v = memref.load %a[%i, %c0] : memref<34x40xf32>
        memref.store %v, %out[%i] : memref<4xf32>
      } {sched.prefetch_0 = {argument = 0 : i64, offsets = [affine_map<(d0) -> (d0 * 8)>, affine_map<(d0) -> (0)>], sizes = array<i64: 10, 40>, shifts = array<i64: 8, 0>}}
      return
    }";

    #[test]
    fn the_next_iterations_lines_are_prefetched() {
        let context = new_context();
        let mut module = parse_module(&context, "t.mlir", ANNOTATED).unwrap();
        assert_eq!(insert_prefetches(&context, &mut module).unwrap(), 1);
        assert!(module.as_operation().verify(), "{}", module.as_operation());
        let text = payload::ffi::print_module(&module);
        // The call comes first in the body, with the argument and the variable.
        let body = &text[text.find("scf.forall").unwrap()..];
        let first = body.lines().nth(1).unwrap().trim();
        assert!(
            first.starts_with("func.call @__sched_prefetch_0(%arg0, %arg2)"),
            "{text}"
        );
        // The next tile's rows 8 (i + 1) + [0, 10), of which the current tile
        // already read the first two: 8 new rows, of 40 columns in lines of 16
        // elements (0, 16, 32, and the last one, 39), for i + 1 < 4.
        for piece in [
            "func.func private @__sched_prefetch_0(%arg0: memref<34x40xf32>, %arg1: index)",
            "arith.constant 4 : index",
            "arith.cmpi ult",
            "affine_map<(d0) -> (d0 * 8)>",
            "arith.constant 2 : index",
            "arith.constant 9 : index",
            "arith.constant 39 : index",
        ] {
            assert!(text.contains(piece), "missing `{piece}` in:\n{text}");
        }
        assert_eq!(text.matches("memref.prefetch").count(), 8 * 4, "{text}");
    }

    #[test]
    fn a_malformed_annotation_is_an_internal_error() {
        let context = new_context();
        let text = ANNOTATED.replace("sizes = array<i64: 10, 40>", "sizes = array<i64: 10>");
        let mut module = parse_module(&context, "t.mlir", &text).unwrap();
        let error = insert_prefetches(&context, &mut module).unwrap_err();
        assert!(
            error.is_internal() && error.message.contains("do not describe a region"),
            "{error:?}"
        );
    }
}
