//! Loop-order pieces the candidate generators ([`crate::space`],
//! [`crate::packed`]) and the fusion of producers into their readers'
//! tiles ([`crate::producers`], [`crate::pooled`]) share: a `.parallel` mark
//! on the outermost loop of several iterations, a `.reorder`, a
//! `.vectorize`, and the loops a packed input does not use.

use schedule_lang::PayloadOp;

/// `.parallel(l)` for the outermost loop of `order` (innermost first) that
/// `trips` lists with more than one iteration; `None` when there is none.
pub(crate) fn parallel_mark(order: &[String], trips: &[(String, i64)]) -> Option<String> {
    order.iter().rev().find_map(|name| {
        let (_, trip) = trips.iter().find(|(n, _)| n == name)?;
        (*trip > 1).then(|| format!(".parallel({name})"))
    })
}

/// `.reorder(...)` to `order` (innermost first), or nothing when the loops
/// are in that order already: linalg order, outermost first, each split
/// dimension (`splits`: dimension and whether it is split) as its outer then
/// inner loop.
pub(crate) fn reorder(dims: &[String], splits: &[(usize, bool)], order: &[String]) -> String {
    let mut natural: Vec<String> = Vec::new();
    for (d, name) in dims.iter().enumerate() {
        if splits.iter().any(|&(s, split)| s == d && split) {
            natural.push(format!("{name}o"));
            natural.push(format!("{name}i"));
        } else {
            natural.push(name.clone());
        }
    }
    natural.reverse();
    if natural == order {
        String::new()
    } else {
        format!(".reorder({})", order.join(", "))
    }
}

/// The dimensions of `parallel` that input `input`'s index does not use:
/// a loop over one of them outside a pack of that input copies the same
/// tile again each iteration.
pub(crate) fn unused_by(op: &PayloadOp, input: usize, parallel: &[usize]) -> Vec<usize> {
    let Some(operand) = op.input(input) else {
        return Vec::new();
    };
    parallel
        .iter()
        .copied()
        .filter(|&d| operand.depends_on(d) == Some(false))
        .collect()
}

/// `.vectorize(loop)` for a loop of `extent` points; in machine vectors of
/// `lanes`, unrolled, when it holds more than one.
pub(crate) fn vectorized(name: &str, extent: i64, lanes: i64) -> String {
    if extent > lanes {
        format!(".vectorize({name}, {lanes}).unroll({name})")
    } else {
        format!(".vectorize({name})")
    }
}
