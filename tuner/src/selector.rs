//! The `where` conditions that bind a task's ops and no other: of all the
//! conditions the language has (extents, stride, dilation, type, body
//! words, and for an elementwise generic its readers' kinds), the fewest a
//! greedy cover needs to leave out every other op of the kind that `[*]`
//! with the same dimensions would bind.

use crate::tasks::Task;
use schedule_lang::{PayloadInfo, PayloadOp};

/// What the conditions read of every op of a payload, by op id: its body
/// words and the kinds of the ops reading its result; listed once, in one
/// pass over the operands, for all the conditions a schedule's funcs need
/// (asked per op, the readers took a pass over the payload each, and the
/// inlining decision writes the whole schedule once per kind: mobilenet_v2's
/// decision, its pairs all in the records, took 107.7 s so, 23.3 s after).
pub struct OpFacts<'a> {
    words: Vec<Vec<String>>,
    readers: Vec<Vec<&'a str>>,
}

impl<'a> OpFacts<'a> {
    /// The facts of every op of `info`.
    pub fn of(info: &'a PayloadInfo) -> Self {
        let mut readers: Vec<Vec<&str>> = vec![Vec::new(); info.ops.len()];
        for reader in &info.ops {
            let kind = reader.kind.strip_prefix("linalg.").unwrap_or(&reader.kind);
            for operand in &reader.operands {
                if let Some(kinds) = operand.producer.and_then(|p| readers.get_mut(p)) {
                    kinds.push(kind);
                }
            }
        }
        for kinds in &mut readers {
            kinds.sort_unstable();
            kinds.dedup();
        }
        OpFacts {
            words: info.ops.iter().map(PayloadOp::body_words).collect(),
            readers,
        }
    }
}

/// An op as the conditions see it: with its body words and, for an
/// elementwise generic (the only ops `reader` conditions are offered for),
/// its readers' kinds (`none` for a result no op reads).
struct Seen<'a> {
    op: &'a PayloadOp,
    words: &'a [String],
    readers: Vec<&'a str>,
}

impl<'a> Seen<'a> {
    fn new(op: &'a PayloadOp, facts: &'a OpFacts<'a>) -> Self {
        let mut readers = Vec::new();
        if crate::tasks::split_by_readers(op) {
            readers = facts.readers[op.id].clone();
            if readers.is_empty() {
                readers.push("none");
            }
        }
        Seen {
            op,
            words: &facts.words[op.id],
            readers,
        }
    }
}

/// One condition, as written and as evaluated.
struct Condition {
    text: String,
    holds: Box<dyn Fn(&Seen<'_>) -> bool>,
}

/// Every condition that holds for the task's ops.
fn conditions(task: &Task, seen: &Seen<'_>, others: &[Seen<'_>]) -> Vec<Condition> {
    let words = seen.words;
    let op = seen.op;
    let mut all = Vec::new();
    for (at, (name, extent)) in task.dims.iter().zip(&task.extents).enumerate() {
        let extent = *extent;
        all.push(Condition {
            text: format!("{name} == {extent}"),
            holds: Box::new(move |o: &Seen<'_>| o.op.extents.get(at) == Some(&Some(extent))),
        });
    }
    let uniform = |values: Vec<i64>| match values.as_slice() {
        [first, rest @ ..] if rest.iter().all(|v| v == first) => Some(*first),
        _ => None,
    };
    if let Some(stride) = uniform(op.strides()) {
        all.push(Condition {
            text: format!("stride == {stride}"),
            holds: Box::new(move |o: &Seen<'_>| {
                let s = o.op.strides();
                !s.is_empty() && s.iter().all(|v| *v == stride)
            }),
        });
    }
    if let Some(dilation) = uniform(op.dilations()) {
        all.push(Condition {
            text: format!("dilation == {dilation}"),
            holds: Box::new(move |o: &Seen<'_>| {
                let d = o.op.dilations();
                !d.is_empty() && d.iter().all(|v| *v == dilation)
            }),
        });
    }
    if let Some(element) = op.element().map(str::to_string) {
        all.push(Condition {
            text: format!("type == {element}"),
            holds: Box::new(move |o: &Seen<'_>| o.op.element() == Some(element.as_str())),
        });
    }
    for word in words {
        let word = word.clone();
        all.push(Condition {
            text: format!("body == {word}"),
            holds: Box::new(move |o: &Seen<'_>| o.words.contains(&word)),
        });
    }
    let absent: std::collections::BTreeSet<&str> = others
        .iter()
        .flat_map(|o| o.words.iter().map(String::as_str))
        .filter(|w| !words.iter().any(|own| own == w))
        .collect();
    for word in absent {
        let word = word.to_string();
        all.push(Condition {
            text: format!("body != {word}"),
            holds: Box::new(move |o: &Seen<'_>| !o.words.contains(&word)),
        });
    }
    if crate::tasks::split_by_readers(op) {
        all.extend(reader_conditions(seen, others));
    }
    all
}

/// `reader == K` for each kind reading the op, `reader != K` for each kind
/// reading another op of its kind and not it (as `where` evaluates them:
/// an op with several readers' kinds has each).
fn reader_conditions(seen: &Seen<'_>, others: &[Seen<'_>]) -> Vec<Condition> {
    let own: Vec<String> = seen.readers.iter().map(|k| k.to_string()).collect();
    let absent: std::collections::BTreeSet<&str> = others
        .iter()
        .flat_map(|o| o.readers.iter().copied())
        .filter(|k| !own.iter().any(|own| own == k))
        .collect();
    let mut all = Vec::new();
    for kind in own {
        all.push(Condition {
            text: format!("reader == {kind}"),
            holds: Box::new(move |o: &Seen<'_>| o.readers.contains(&kind.as_str())),
        });
    }
    for kind in absent {
        let kind = kind.to_string();
        all.push(Condition {
            text: format!("reader != {kind}"),
            holds: Box::new(move |o: &Seen<'_>| !o.readers.contains(&kind.as_str())),
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
            holds: Box::new(move |o: &Seen<'_>| {
                o.op.extents
                    .get(at)
                    .is_some_and(|e| e.is_some_and(|e| e >= least))
            }),
        });
        all.push(Condition {
            text: format!("{name} <= {most}"),
            holds: Box::new(move |o: &Seen<'_>| {
                o.op.extents
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
    conditions_for(task, &task.ops, info, &OpFacts::of(info))
}

/// The conditions keeping exactly `ops` (several tasks' ops, of `task`'s
/// kind and dimension counts): only conditions all of them satisfy;
/// `facts` are the payload's [`OpFacts`].
pub fn conditions_for<'a>(
    task: &Task,
    ops: &[usize],
    info: &'a PayloadInfo,
    facts: &'a OpFacts<'a>,
) -> Option<Vec<String>> {
    let op = &info.ops[task.ops[0]];
    let mut others: Vec<Seen<'_>> = info
        .ops
        .iter()
        .filter(|o| {
            o.kind == op.kind
                && o.dimension_counts() == op.dimension_counts()
                && !ops.contains(&o.id)
        })
        .map(|o| Seen::new(o, facts))
        .collect();
    let own: Vec<Seen<'_>> = ops
        .iter()
        .map(|&id| Seen::new(&info.ops[id], facts))
        .collect();
    let mut all = conditions(task, &Seen::new(op, facts), &others);
    all.extend(ranges(task, ops, info));
    all.retain(|c| own.iter().all(|o| (c.holds)(o)));
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
