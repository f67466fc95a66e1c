//! The `.sched` file `tune` writes: one func per task, bound by kind and
//! `where` conditions to every op of the task, its chain, and a comment with
//! what was measured and where the ops are; then put in canonical form, so
//! `fmt --check` passes.

use crate::selector::{conditions_for, OpFacts};
use crate::TaskResult;
use schedule_lang::naming::FuncNames;
use schedule_lang::PayloadInfo;

/// What [`TaskResult::failed`] names the unscheduled op's own measurement.
pub(crate) const UNSCHEDULED: &str = "(the unscheduled op)";

/// What the header says about the run.
pub struct Header {
    /// The payload's name.
    pub payload: String,
    /// The CPU measured on.
    pub cpu: String,
    /// Threads.
    pub threads: usize,
    /// Whether the calls were timed with the caches warm (`--caches warm`;
    /// cold, the default, is not named).
    pub warm: bool,
    /// The person's schedule the written one extends (`tune` keeps it), and
    /// the func names it takes.
    pub kept: Option<String>,
    pub taken: Vec<String>,
}

/// How the header of a file `tune` wrote begins, and of the part it added to
/// a person's file; the CPU follows the payload's name after ` on `.
const WRITTEN_BY: &str = "Written by `sched-apply tune`";
const ADDED_BY: &str = "Added by `sched-apply tune` (the ops above are kept as written)";

/// A CPU a schedule's header names as the one `tune` measured on.
#[derive(Debug, PartialEq, Eq)]
pub struct TunedOn {
    /// The CPU as [`crate::records::this_cpu`] names it (`znver3/6763a6f3`).
    pub cpu: String,
    /// Its byte offset in the schedule's text.
    pub offset: usize,
}

/// The CPUs named by the headers `tune` writes in `text` (one per run of
/// `tune` that wrote or added to it), in order.
pub fn tuned_on(text: &str) -> Vec<TunedOn> {
    let mut found = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let Some(rest) = line.strip_prefix("# ") else {
            continue;
        };
        if !rest.starts_with(WRITTEN_BY) && !rest.starts_with(ADDED_BY) {
            continue;
        }
        // `... for PAYLOAD on CPU (THREADS).`: the payload's path may hold
        // ` on `, a CPU name never holds a space.
        let Some(at) = rest.rfind(" on ") else {
            continue;
        };
        let after = &rest[at + 4..];
        let Some(end) = after.find(" (") else {
            continue;
        };
        found.push(TunedOn {
            cpu: after[..end].to_string(),
            offset: start + 2 + at + 4,
        });
    }
    found
}

fn milliseconds(seconds: f64) -> String {
    format!("{:.4} ms", seconds * 1e3)
}

/// The ops' locations: the first whole, the rest as `:line:column`.
fn locations(info: &PayloadInfo, result: &TaskResult, payload: &str) -> String {
    let all: Vec<String> = result
        .task
        .ops
        .iter()
        .map(|&id| payload::plain_location(&info.ops[id].location, payload))
        .collect();
    let prefix = format!("{payload}:");
    let mut text = String::new();
    for (i, location) in all.iter().enumerate() {
        if i == 0 {
            text.push_str(location);
        } else {
            text.push_str(", ");
            text.push_str(location.strip_prefix(&prefix).unwrap_or(location));
        }
    }
    text
}

/// A chain broken before a call where a line would pass 100 columns.
fn wrap(name: &str, chain: &str) -> String {
    let mut lines = vec![name.to_string()];
    let mut rest = chain;
    while let Some(end) = rest[1..].find(").").map(|i| i + 2) {
        push_piece(&mut lines, &rest[..end]);
        rest = &rest[end..];
    }
    push_piece(&mut lines, rest);
    lines.join("\n")
}

fn push_piece(lines: &mut Vec<String>, piece: &str) {
    let last = lines.last_mut().expect("starts with the name");
    if last.len() + piece.len() > 100 {
        lines.push(format!("    {piece}"));
    } else {
        last.push_str(piece);
    }
}

/// `func NAME = KIND[*] (dims) where ...`, with its newline.
fn func_line(
    name: &str,
    task: &crate::tasks::Task,
    info: &PayloadInfo,
    conditions: &[String],
) -> String {
    let filter = if conditions.is_empty() {
        String::new()
    } else {
        format!(" where {}", conditions.join(", "))
    };
    format!(
        "func {name} = {}[*] ({}){filter}\n",
        task.kind,
        task.binding(info)
    )
}

/// What a func does to its ops.
#[derive(Clone, PartialEq)]
enum Action {
    Chain(String),
    Inline,
    /// Computed in the tiles of result `reader`'s ops at its loop `at`,
    /// with `chain` after that.
    At {
        reader: usize,
        at: String,
        chain: String,
        init_at: Option<String>,
    },
}

/// Tasks of one kind with the same action, bound by one func.
struct Group<'r> {
    members: Vec<&'r TaskResult>,
    action: Action,
    conditions: Vec<String>,
}

/// What `result` asks of its ops; None: nothing (left as the payload has them).
fn action(result: &TaskResult) -> Option<Action> {
    if let Some(c) = &result.computed_in {
        return Some(Action::At {
            reader: c.reader,
            at: c.at.clone(),
            chain: c.chain.clone(),
            init_at: c.init_at.clone(),
        });
    }
    if let Some(tiled) = &result.tiled {
        return Some(Action::Chain(tiled.clone()));
    }
    match (&result.best, result.inlined) {
        (_, true) => Some(Action::Inline),
        (Some((chain, _)), false) => Some(Action::Chain(chain.clone())),
        (None, false) => None,
    }
}

/// Whether two tasks are of one kind with the same dimensions.
fn same_kind(a: &crate::tasks::Task, b: &crate::tasks::Task) -> bool {
    a.kind == b.kind && a.reduction == b.reduction
}

/// The tasks grouped, in the order of their first member: first every
/// task of a kind with one action, where `where` conditions can bind them
/// all together (every batch norm step inlined: `body != cmp`); the rest
/// each join the first group of its kind and action whose ops conditions
/// can still tell apart with it. `facts` are the payload's
/// [`crate::selector::OpFacts`].
fn groups<'r>(
    info: &PayloadInfo,
    results: &'r [TaskResult],
    facts: &OpFacts<'_>,
) -> Vec<Group<'r>> {
    let mut groups: Vec<(usize, Group<'r>)> = Vec::new();
    let mut placed = vec![false; results.len()];
    for (first, result) in results.iter().enumerate() {
        let Some(wanted) = action(result) else {
            continue;
        };
        if placed[first] {
            continue;
        }
        let bucket: Vec<usize> = (first..results.len())
            .filter(|&j| {
                !placed[j]
                    && same_kind(&results[j].task, &result.task)
                    && action(&results[j]).as_ref() == Some(&wanted)
            })
            .collect();
        if bucket.len() < 2 {
            continue;
        }
        let ops: Vec<usize> = bucket
            .iter()
            .flat_map(|&j| results[j].task.ops.clone())
            .collect();
        if let Some(conditions) = conditions_for(&result.task, &ops, info, facts) {
            for &j in &bucket {
                placed[j] = true;
            }
            let members = bucket.iter().map(|&j| &results[j]).collect();
            groups.push((
                first,
                Group {
                    members,
                    action: wanted,
                    conditions,
                },
            ));
        }
    }
    let mut rest: Vec<(usize, Group<'r>)> = Vec::new();
    for (index, result) in results.iter().enumerate() {
        if placed[index] {
            continue;
        }
        let (Some(action), Some(conditions)) = (action(result), &result.conditions) else {
            continue;
        };
        let task = &result.task;
        let joined = rest.iter_mut().find_map(|(_, group)| {
            let first = &group.members[0].task;
            if group.action != action || !same_kind(first, task) {
                return None;
            }
            let mut ops: Vec<usize> = group
                .members
                .iter()
                .flat_map(|m| m.task.ops.clone())
                .collect();
            ops.extend(&task.ops);
            let merged = conditions_for(first, &ops, info, facts)?;
            Some((group, merged))
        });
        match joined {
            Some((group, merged)) => {
                group.members.push(result);
                group.conditions = merged;
            }
            None => rest.push((
                index,
                Group {
                    members: vec![result],
                    action,
                    conditions: conditions.clone(),
                },
            )),
        }
    }
    groups.extend(rest);
    groups.sort_by_key(|(first, _)| *first);
    groups.into_iter().map(|(_, group)| group).collect()
}

/// The comment line describing one task's ops and measurements.
fn task_comment(info: &PayloadInfo, result: &TaskResult, payload: &str) -> String {
    let task = &result.task;
    let extents: Vec<String> = task.extents.iter().map(|e| e.to_string()).collect();
    let ops = match task.ops.len() {
        1 => "1 op".to_string(),
        n => format!("{n} ops"),
    };
    let measured = match (&result.best, result.reference) {
        (Some((_, seconds)), Some(reference)) => format!(
            ": {} per op, unscheduled {}, {:.1}x",
            milliseconds(*seconds),
            milliseconds(reference),
            reference / seconds
        ),
        (None, Some(reference)) => format!(
            ": no candidate of {} beat the unscheduled {}",
            result.measured,
            milliseconds(reference)
        ),
        (None, None) => match result.failed.first() {
            // Why, on one line: the comment must stay a comment.
            Some((what, why)) if what == UNSCHEDULED => format!(
                ": the unscheduled op could not be timed ({})",
                why.lines().next().unwrap_or_default()
            ),
            _ if result.conditions.is_some() && result.legal == 0 => {
                ": the planner accepts none of its candidates".to_string()
            }
            _ => String::new(),
        },
        _ => String::new(),
    };
    format!(
        "# {ops} {} {}{measured}; at {}\n",
        task.kind.trim_start_matches("linalg."),
        extents.join("x"),
        locations(info, result, payload)
    )
}

/// The func binding the bias broadcasts initializing `group`'s ops
/// ([`crate::fused::init_broadcast`]), computed in their loop `init_at` of
/// func `name`; nothing when an op has none or no `where` binds just them
/// (they are then written whole, as the payload has them). `facts` as for
/// [`groups`].
fn inits(
    info: &PayloadInfo,
    group: &Group<'_>,
    name: &str,
    init_at: &str,
    namer: &mut FuncNames,
    taken: &[String],
    facts: &OpFacts<'_>,
) -> String {
    let ops: Option<Vec<usize>> = group
        .members
        .iter()
        .flat_map(|m| &m.task.ops)
        .map(|&op| crate::fused::init_broadcast(info, op))
        .collect();
    let Some(ops) = ops else {
        return String::new();
    };
    let task = crate::tasks::Task::of_op(&info.ops[ops[0]], ops.clone());
    let Some(conditions) = conditions_for(&task, &ops, info, facts) else {
        return String::new();
    };
    let mut bias = namer.next(&task.kind);
    while taken.contains(&bias) {
        bias.push('_');
    }
    format!(
        "# the broadcasts initializing {name}, computed in its tiles: never written whole\n\
         {}{bias}.compute_at({name}, {init_at})\n",
        func_line(&bias, &task, info, &conditions)
    )
}

/// The schedule text for `results` on `info`.
pub fn schedule_text(info: &PayloadInfo, results: &[TaskResult], header: &Header) -> String {
    let mut threads = match header.threads {
        1 => "one thread".to_string(),
        n => format!("{n} threads"),
    };
    if header.warm {
        threads.push_str(", caches warm");
    }
    let what = match &header.kept {
        Some(_) => ADDED_BY,
        None => WRITTEN_BY,
    };
    let mut text = header
        .kept
        .as_ref()
        .map_or(String::new(), |kept| format!("{}\n\n", kept.trim_end()));
    text.push_str(&format!(
        "# {what} for {} on {} ({threads}).\n\
         # Each kind of op was measured alone against itself unscheduled; kinds with the same\n\
         # schedule share a func.\n",
        header.payload, header.cpu
    ));
    let mut namer = FuncNames::default();
    let facts = OpFacts::of(info);
    let groups = groups(info, results, &facts);
    // Named first: a func computed in another's tiles names it, before or after.
    let names: Vec<String> = groups
        .iter()
        .map(|group| {
            let mut name = namer.next(&group.members[0].task.kind);
            while header.taken.contains(&name) {
                name.push('_');
            }
            name
        })
        .collect();
    let name_of = |result: usize| {
        groups
            .iter()
            .position(|g| g.members.iter().any(|m| std::ptr::eq(*m, &results[result])))
            .map(|g| names[g].as_str())
    };
    for (group, name) in groups.iter().zip(&names) {
        let task = &group.members[0].task;
        text.push('\n');
        for member in &group.members {
            text.push_str(&task_comment(info, member, &header.payload));
        }
        text.push_str(&func_line(name, task, info, &group.conditions));
        match &group.action {
            Action::Inline => {
                text.push_str(if group.members.iter().all(|m| m.fed) {
                    "# inlined into the matmuls reading them, which were tuned so (reading it in place)\n"
                } else {
                    "# inlined into the ops reading them (the whole model measured no slower so)\n"
                });
                text.push_str(&format!("{name}.compute_inline()\n"));
            }
            Action::Chain(chain) => {
                if group.members.iter().any(|m| m.tiled.is_some()) {
                    text.push_str(
                        "# tiled as the ops computed in it (the whole model measured faster so)\n",
                    );
                }
                if let Some(alone) = group.members.iter().find_map(|m| m.gemm_over) {
                    text.push_str(&format!(
                        "# a GEMM over its pixels, though the best alone took {:.4} ms: the \
                         whole model measured faster so\n",
                        alone * 1e3
                    ));
                }
                text.push_str(&wrap(name, chain));
                text.push('\n');
            }
            Action::At {
                reader,
                at,
                chain,
                init_at,
            } => {
                let reader = name_of(*reader).unwrap_or("(unbound)");
                text.push_str(&format!(
                    "# computed in {reader}'s tiles: the output goes through it while in cache\n"
                ));
                text.push_str(&wrap(name, &format!(".compute_at({reader}, {at}){chain}")));
                text.push('\n');
                if let Some(init_at) = init_at {
                    text.push_str(&inits(
                        info,
                        group,
                        name,
                        init_at,
                        &mut namer,
                        &header.taken,
                        &facts,
                    ));
                }
            }
        }
    }
    let bound = |r: &TaskResult| {
        groups
            .iter()
            .any(|g| g.members.iter().any(|m| std::ptr::eq(*m, r)))
    };
    let left: Vec<&TaskResult> = results.iter().filter(|r| !bound(r)).collect();
    if !left.is_empty() {
        text.push_str("\n# Left as the payload has them:\n");
        for result in left {
            if action(result).is_some() {
                text.push_str("# (no `where` tells these apart from other ops of their kind)\n");
            }
            text.push_str(&task_comment(info, result, &header.payload));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpus_a_header_names_are_found_where_they_are() {
        let text = format!(
            "# {WRITTEN_BY} for runs on ice/m.mlir on znver1/6abae8f2 (one thread).\n\
             func mm = linalg.matmul (i, j | k)\n\
             # a person's comment: tuned on a laptop (by hand)\n\
             \n# {ADDED_BY} for m.mlir on znver3/6763a6f3 (2 threads).\n"
        );
        let found = tuned_on(&text);
        let cpus: Vec<&str> = found.iter().map(|t| t.cpu.as_str()).collect();
        assert_eq!(cpus, ["znver1/6abae8f2", "znver3/6763a6f3"]);
        for tuned in &found {
            assert!(text[tuned.offset..].starts_with(&tuned.cpu), "{tuned:?}");
        }
    }
}
