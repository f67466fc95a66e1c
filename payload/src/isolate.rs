//! One structured op of a payload as a payload of its own: a public function
//! whose arguments are the op's operands (its inits too, so it computes
//! `init ⊕ op`), its constant operands copied in (a frozen weight, whose
//! `dense_resource` data the text does not hold, an argument instead),
//! returning its results.
//! The tuner measures each kind of op this way, apart from the model.

use crate::describe::describe_with_ops;
use crate::ffi::{AsmNames, OpView};
use crate::PayloadError;
use melior::ir::Module;
use melior::Context;

/// The name of the function an isolated op's module holds.
pub const ISOLATED_ENTRY: &str = "task";

/// The module text of each group of ops (by [`schedule_lang::PayloadOp::id`];
/// `name` is the payload's name in messages): the ops of a group in the order
/// given (producers first: a weight's transpose, then the matmul reading
/// it), the values they take from each other kept inside, the group's last
/// op's results returned.
pub fn isolate_groups(
    context: &Context,
    module: &Module,
    name: &str,
    groups: &[Vec<usize>],
) -> Result<Vec<String>, PayloadError> {
    let (_, views) = describe_with_ops(context, module, name)?;
    let names = AsmNames::of_module(module);
    groups
        .iter()
        .map(|group| {
            let ops = group
                .iter()
                .map(|&id| {
                    views.get(id).copied().ok_or_else(|| {
                        PayloadError::internal(format!(
                            "{name} has no structured op {id} to isolate"
                        ))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(isolated_text(&ops, &names))
        })
        .collect()
}

/// `ops` alone in a function `@task`: the constants they use from outside
/// (operands, or captured by their bodies) copied in front of them, every
/// other value from outside (not a result of an earlier op of `ops`) an
/// argument; the last op's results returned.
fn isolated_text<'m>(ops: &[OpView<'m>], names: &AsmNames<'m>) -> String {
    let Some(&op) = ops.last() else {
        return String::new();
    };
    let inside: Vec<String> = ops[..ops.len() - 1]
        .iter()
        .flat_map(|o| (0..o.result_types().len()).map(|i| o.result_name(i, names)))
        .collect();
    let mut outside = Vec::new();
    for value in ops.iter().flat_map(|o| o.values_from_outside(names)) {
        let seen = outside
            .iter()
            .any(|v: &crate::ffi::OutsideValue| v.name == value.name);
        if !seen && !inside.contains(&value.name) {
            outside.push(value);
        }
    }
    let arguments: Vec<(String, String)> = outside
        .iter()
        .filter(|v| v.constant.is_none())
        .map(|v| (v.name.clone(), v.ty.clone()))
        .collect();
    let constants: Vec<(String, String)> = outside
        .iter()
        .filter_map(|v| Some((v.name.clone(), v.constant.clone()?)))
        .collect();
    let results: Vec<String> = (0..op.result_types().len())
        .map(|i| op.result_name(i, names))
        .collect();
    let result_types = op.result_types();
    let parameters: Vec<String> = arguments
        .iter()
        .map(|(value, ty)| format!("{value}: {ty}"))
        .collect();
    let mut text = format!(
        "func.func @{ISOLATED_ENTRY}({}) -> ({}) {{\n",
        parameters.join(", "),
        result_types.join(", ")
    );
    for (_, constant) in &constants {
        text.push_str(&format!("  {constant}\n"));
    }
    for o in ops {
        text.push_str(&format!("  {}\n", o.printed_with(names)));
    }
    text.push_str(&format!(
        "  return {} : {}\n}}\n",
        results.join(", "),
        result_types.join(", ")
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAYLOAD: &str = r#"
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @model(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %bias: tensor<4xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x4xf32>
  %c = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x4xf32>) -> tensor<8x4xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<8x4xf32>, tensor<4xf32>) outs(%empty : tensor<8x4xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
"#;

    fn isolated(id: usize) -> String {
        isolated_from(PAYLOAD, id)
    }

    fn isolated_from(payload: &str, id: usize) -> String {
        let context = crate::new_context();
        let module = crate::parse_module(&context, "model.mlir", payload).expect("parses");
        isolate_groups(&context, &module, "model.mlir", &[vec![id]])
            .expect("isolates")
            .remove(0)
    }

    #[test]
    fn an_op_becomes_a_function_of_its_operands_that_parses_again() {
        let text = isolated(1);
        assert!(text.starts_with("func.func @task(%arg0: tensor<8x16xf32>, %arg1: tensor<16x4xf32>, %1: tensor<8x4xf32>) -> (tensor<8x4xf32>)"), "{text}");
        let context = crate::new_context();
        let module = crate::parse_module(&context, "task.mlir", &text).expect("parses again");
        let info = crate::describe(&context, &module, "task.mlir").expect("describes");
        assert_eq!(info.ops.len(), 1);
        assert_eq!(info.ops[0].kind, "linalg.matmul");
        assert_eq!(info.ops[0].extents, vec![Some(8), Some(4), Some(16)]);
    }

    #[test]
    fn a_generic_keeps_its_maps_and_the_constants_its_body_uses() {
        let text = isolated(2);
        let context = crate::new_context();
        let module = crate::parse_module(&context, "task.mlir", &text)
            .unwrap_or_else(|e| panic!("{text}\ndoes not parse: {e:?}"));
        let info = crate::describe(&context, &module, "task.mlir").expect("describes");
        let op = &info.ops[0];
        assert_eq!(op.body_words(), vec!["add", "max"]);
        assert_eq!(op.operands.len(), 3);
        assert_eq!(
            op.operands[1].map.len(),
            1,
            "the bias keeps its broadcast map"
        );
    }

    /// A frozen export's weight: a `dense_resource` constant, its data in the
    /// module's resource section.
    const FROZEN: &str = r#"
func.func @model(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense_resource<weight> : tensor<2x2xf32>
  %empty = tensor.empty() : tensor<2x2xf32>
  %c = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %mm : tensor<2x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
"#;

    #[test]
    fn a_weight_whose_data_is_a_resource_becomes_an_argument() {
        let text = isolated_from(FROZEN, 1);
        assert!(!text.contains("dense_resource"), "{text}");
        assert!(
            text.starts_with("func.func @task(%arg0: tensor<2x2xf32>, %cst_0: tensor<2x2xf32>, "),
            "{text}"
        );
        let context = crate::new_context();
        let module = crate::parse_module(&context, "task.mlir", &text)
            .unwrap_or_else(|e| panic!("{text}\ndoes not parse: {e:?}"));
        let info = crate::describe(&context, &module, "task.mlir").expect("describes");
        assert_eq!(info.ops[0].kind, "linalg.matmul");
    }
}
