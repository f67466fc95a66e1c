//! The `where` conditions that bind a task's ops and no other: of all the
//! conditions the language has (extents, stride, dilation, type, body
//! words), the fewest a greedy cover needs to leave out every other op of
//! the kind that `[*]` with the same dimensions would bind.

use crate::tasks::Task;
use schedule_lang::{PayloadInfo, PayloadOp};

/// One condition, as written and as evaluated.
struct Condition {
    text: String,
    holds: Box<dyn Fn(&PayloadOp) -> bool>,
}

/// Every condition that holds for the task's ops.
fn conditions(task: &Task, op: &PayloadOp, others: &[&PayloadOp]) -> Vec<Condition> {
    let mut all = Vec::new();
    for (at, (name, extent)) in task.dims.iter().zip(&task.extents).enumerate() {
        let extent = *extent;
        all.push(Condition {
            text: format!("{name} == {extent}"),
            holds: Box::new(move |o: &PayloadOp| o.extents.get(at) == Some(&Some(extent))),
        });
    }
    let uniform = |values: Vec<i64>| match values.as_slice() {
        [first, rest @ ..] if rest.iter().all(|v| v == first) => Some(*first),
        _ => None,
    };
    if let Some(stride) = uniform(op.strides()) {
        all.push(Condition {
            text: format!("stride == {stride}"),
            holds: Box::new(move |o: &PayloadOp| {
                let s = o.strides();
                !s.is_empty() && s.iter().all(|v| *v == stride)
            }),
        });
    }
    if let Some(dilation) = uniform(op.dilations()) {
        all.push(Condition {
            text: format!("dilation == {dilation}"),
            holds: Box::new(move |o: &PayloadOp| {
                let d = o.dilations();
                !d.is_empty() && d.iter().all(|v| *v == dilation)
            }),
        });
    }
    if let Some(element) = op.element().map(str::to_string) {
        all.push(Condition {
            text: format!("type == {element}"),
            holds: Box::new(move |o: &PayloadOp| o.element() == Some(element.as_str())),
        });
    }
    let words = op.body_words();
    for word in &words {
        let word = word.clone();
        all.push(Condition {
            text: format!("body == {word}"),
            holds: Box::new(move |o: &PayloadOp| o.body_words().contains(&word)),
        });
    }
    let mut absent: Vec<String> = others
        .iter()
        .flat_map(|o| o.body_words())
        .filter(|w| !words.contains(w))
        .collect();
    absent.sort();
    absent.dedup();
    for word in absent {
        all.push(Condition {
            text: format!("body != {word}"),
            holds: Box::new(move |o: &PayloadOp| !o.body_words().contains(&word)),
        });
    }
    all
}

/// `d >= least` and `d <= most` for each dimension whose extents differ
/// among `ops` (several tasks': `c >= 64` keeps three kinds of convolution
/// where no one extent is theirs alone).
fn ranges(task: &Task, ops: &[usize], info: &PayloadInfo) -> Vec<Condition> {
    let mut all = Vec::new();
    for (at, name) in task.dims.iter().enumerate() {
        let extents: Vec<i64> = ops
            .iter()
            .filter_map(|&id| info.ops[id].extents[at])
            .collect();
        let (Some(&least), Some(&most)) = (extents.iter().min(), extents.iter().max()) else {
            continue;
        };
        if least == most {
            continue;
        }
        all.push(Condition {
            text: format!("{name} >= {least}"),
            holds: Box::new(move |o: &PayloadOp| {
                o.extents
                    .get(at)
                    .is_some_and(|e| e.is_some_and(|e| e >= least))
            }),
        });
        all.push(Condition {
            text: format!("{name} <= {most}"),
            holds: Box::new(move |o: &PayloadOp| {
                o.extents
                    .get(at)
                    .is_some_and(|e| e.is_some_and(|e| e <= most))
            }),
        });
    }
    all
}

/// The conditions (`x == 56, c == 64`) that keep exactly the task's ops
/// among the ops `[*]` would bind: empty when none other would be; `None`
/// when no conditions tell them apart (the same sizes and body, other maps).
pub fn where_conditions(task: &Task, info: &PayloadInfo) -> Option<Vec<String>> {
    conditions_for(task, &task.ops, info)
}

/// The conditions keeping exactly `ops` (several tasks' ops, of `task`'s
/// kind and dimension counts): only conditions all of them satisfy.
pub fn conditions_for(task: &Task, ops: &[usize], info: &PayloadInfo) -> Option<Vec<String>> {
    let op = &info.ops[task.ops[0]];
    let mut others: Vec<&PayloadOp> = info
        .ops
        .iter()
        .filter(|o| {
            o.kind == op.kind
                && o.dimension_counts() == op.dimension_counts()
                && !ops.contains(&o.id)
        })
        .collect();
    let mut all = conditions(task, op, &others);
    all.extend(ranges(task, ops, info));
    all.retain(|c| ops.iter().all(|&id| (c.holds)(&info.ops[id])));
    let mut chosen = Vec::new();
    while !others.is_empty() {
        let (best, excluded) = all
            .iter()
            .enumerate()
            .map(|(i, c)| (i, others.iter().filter(|o| !(c.holds)(o)).count()))
            .max_by_key(|(i, excluded)| (*excluded, std::cmp::Reverse(*i)))?;
        if excluded == 0 {
            return None;
        }
        others.retain(|o| (all[best].holds)(o));
        chosen.push(best);
    }
    chosen.sort();
    Some(chosen.into_iter().map(|i| all[i].text.clone()).collect())
}
