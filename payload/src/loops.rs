//! The loop nests of a transformed payload, for `sched-apply explain`: every
//! `scf.for` and `scf.forall` of each function, nested as in the IR, with
//! its static iteration count, the schedule's loop names the planner
//! annotated it with (`sched.loop`, when asked to), and the shapes of the
//! vector values its body computes.

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
    /// The vector types its body's ops (outside inner loops) compute, each
    /// once, in order (`vector<16xf32>`).
    pub vectors: Vec<String>,
}

/// Each function's name and outermost loops, in payload order.
pub fn loop_nests(
    payload_name: &str,
    text: &str,
    attribute: &str,
) -> Result<Vec<FunctionLoops>, PayloadError> {
    let context = crate::new_context();
    let module = crate::parse_module(&context, payload_name, text)?;
    let root = OpView::of_module(&module);
    Ok(root
        .children()
        .into_iter()
        .filter(|op| op.name() == "func.func")
        .map(|function| FunctionLoops {
            name: function.string_attribute("sym_name").unwrap_or_default(),
            loops: loops_in(function, attribute),
            vectors: vectors_in(function),
        })
        .collect())
}

/// One function's loops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionLoops {
    /// Its symbol name.
    pub name: String,
    /// Its outermost loops.
    pub loops: Vec<IrLoop>,
    /// The vector types computed outside any loop.
    pub vectors: Vec<String>,
}

/// The vector types of the results of the ops in `op`'s regions, not inside
/// loops and not constants, each once.
fn vectors_in(op: OpView<'_>) -> Vec<String> {
    let mut vectors = Vec::new();
    let mut pending = op.children();
    while let Some(child) = pending.pop() {
        // Loops report their own; constants are not computations.
        if matches!(
            child.name().as_str(),
            "scf.for" | "scf.forall" | "arith.constant" | "ub.poison"
        ) {
            continue;
        }
        for ty in child.result_types() {
            if ty.starts_with("vector<") && !vectors.contains(&ty) {
                vectors.push(ty);
            }
        }
        pending.extend(child.children());
    }
    vectors.sort();
    vectors
}

fn loops_in(op: OpView<'_>, attribute: &str) -> Vec<IrLoop> {
    let mut loops = Vec::new();
    for child in op.children() {
        match child.name().as_str() {
            kind @ ("scf.for" | "scf.forall") => loops.push(IrLoop {
                kind: kind.to_string(),
                names: child.string_attribute(attribute),
                iterations: iterations(child),
                parallel: child.attribute_text(crate::attributes::PARALLEL).is_some(),
                inner: loops_in(child, attribute),
                vectors: vectors_in(child),
            }),
            _ => loops.extend(loops_in(child, attribute)),
        }
    }
    loops
}

/// A loop's static trip count: a forall's from its static bounds, a for's
/// from constant bounds and step.
pub fn iterations(op: OpView<'_>) -> Option<i64> {
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
