//! The loop nests of a transformed payload, for `sched-apply explain`: every
//! `scf.for` and `scf.forall` of each function, nested as in the IR, with
//! its static iteration count and the schedule's loop names the planner
//! annotated it with (`sched.loop`, when asked to).

use crate::ffi::OpView;
use crate::PayloadError;

/// One loop of the IR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrLoop {
    /// `scf.for` or `scf.forall`.
    pub kind: String,
    /// The schedule's names of the loops it holds (`sched.loop`), if annotated.
    pub names: Option<String>,
    /// Iterations (all of a forall's dimensions together), when static.
    pub iterations: Option<i64>,
    /// Whether it is marked to run in parallel (`sched.parallel`).
    pub parallel: bool,
    /// The loops directly inside it.
    pub inner: Vec<IrLoop>,
}

/// Each function's name and outermost loops, in payload order.
pub fn loop_nests(
    payload_name: &str,
    text: &str,
    attribute: &str,
) -> Result<Vec<(String, Vec<IrLoop>)>, PayloadError> {
    let context = crate::new_context();
    let module = crate::parse_module(&context, payload_name, text)?;
    let root = OpView::of_module(&module);
    Ok(root
        .children()
        .into_iter()
        .filter(|op| op.name() == "func.func")
        .map(|function| {
            let name = function.string_attribute("sym_name").unwrap_or_default();
            (name, loops_in(function, attribute))
        })
        .collect())
}

fn loops_in(op: OpView<'_>, attribute: &str) -> Vec<IrLoop> {
    let mut loops = Vec::new();
    for child in op.children() {
        match child.name().as_str() {
            kind @ ("scf.for" | "scf.forall") => loops.push(IrLoop {
                kind: kind.to_string(),
                names: child.string_attribute(attribute),
                iterations: iterations(child),
                parallel: child.attribute_text("sched.parallel").is_some(),
                inner: loops_in(child, attribute),
            }),
            _ => loops.extend(loops_in(child, attribute)),
        }
    }
    loops
}

/// A loop's static trip count: a forall's from its static bounds, a for's
/// from constant bounds and step.
fn iterations(op: OpView<'_>) -> Option<i64> {
    if op.name() == "scf.forall" {
        let bounds = |name: &str| -> Option<Vec<i64>> {
            let text = op.attribute_text(name)?;
            let inner = text.split_once(':')?.1.trim_end_matches('>');
            inner
                .split(',')
                .map(|v| v.trim().parse::<i64>().ok())
                .collect()
        };
        let (lower, upper, step) = (
            bounds("staticLowerBound")?,
            bounds("staticUpperBound")?,
            bounds("staticStep")?,
        );
        // Dynamic bounds print as a sentinel (i64::MIN).
        if lower
            .iter()
            .chain(&upper)
            .chain(&step)
            .any(|&v| v == i64::MIN)
        {
            return None;
        }
        return lower
            .iter()
            .zip(&upper)
            .zip(&step)
            .map(|((l, u), s)| (*s > 0).then(|| (u - l + s - 1) / s))
            .product();
    }
    let (lower, upper, step) = (
        op.operand_constant(0)?,
        op.operand_constant(1)?,
        op.operand_constant(2)?,
    );
    (step > 0).then(|| (upper - lower + step - 1) / step)
}
