//! The `.sched` file `tune` writes: one func per task, bound by kind and
//! `where` conditions to every op of the task, its chain, and a comment with
//! what was measured and where the ops are; then put in canonical form, so
//! `fmt --check` passes.

use crate::TaskResult;
use schedule_lang::naming::short_kind_name;
use schedule_lang::PayloadInfo;

/// What the header says about the run.
pub struct Header {
    /// The payload's name.
    pub payload: String,
    /// The CPU measured on.
    pub cpu: String,
    /// Threads.
    pub threads: usize,
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

/// A chain broken before a directive where a line would pass 96 columns.
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
    if last.len() + piece.len() > 96 {
        lines.push(format!("    {piece}"));
    } else {
        last.push_str(piece);
    }
}

/// The schedule text for `results` on `info`.
pub fn schedule_text(info: &PayloadInfo, results: &[TaskResult], header: &Header) -> String {
    let threads = match header.threads {
        1 => "one thread".to_string(),
        n => format!("{n} threads"),
    };
    let mut text = format!(
        "# Written by `sched-apply tune` for {} on {} ({threads}): one func per kind of op,\n\
         # each measured on one op of its kind alone against that op unscheduled.\n",
        header.payload, header.cpu
    );
    let mut counts: Vec<(String, usize)> = Vec::new();
    for result in results {
        let task = &result.task;
        let short = short_kind_name(&task.kind);
        let number = match counts.iter_mut().find(|(k, _)| *k == short) {
            Some((_, n)) => {
                *n += 1;
                *n - 1
            }
            None => {
                counts.push((short.clone(), 1));
                0
            }
        };
        let name = format!("{short}{number}");
        let extents: Vec<String> = task.extents.iter().map(|e| e.to_string()).collect();
        let ops = match task.ops.len() {
            1 => "1 op".to_string(),
            n => format!("{n} ops"),
        };
        text.push_str(&format!(
            "\n# {ops} {} {}, at {}\n",
            task.kind,
            extents.join("x"),
            locations(info, result, &header.payload)
        ));
        let reference = result.reference.map(milliseconds).unwrap_or("?".into());
        let (Some((chain, seconds)), Some(conditions)) = (&result.best, &result.conditions) else {
            let why = match (&result.conditions, &result.best) {
                (None, _) => {
                    "no `where` tells these ops apart from others of their kind".to_string()
                }
                (_, None) => format!(
                    "no candidate beat the unscheduled op ({reference}; {} measured)",
                    result.measured
                ),
                _ => unreachable!("both present is handled above"),
            };
            text.push_str(&format!("# left as the payload has it: {why}\n"));
            continue;
        };
        let speedup = result
            .reference
            .map_or(String::new(), |r| format!(", {:.1}x", r / seconds));
        text.push_str(&format!(
            "# {} per op, unscheduled {reference}{speedup} ({} candidates measured)\n",
            milliseconds(*seconds),
            result.measured
        ));
        let filter = if conditions.is_empty() {
            String::new()
        } else {
            format!(" where {}", conditions.join(", "))
        };
        let binding = task.binding(info);
        text.push_str(&format!(
            "func {name} = {}[*] ({binding}){filter}\n",
            task.kind
        ));
        text.push_str(&wrap(&name, chain));
        text.push('\n');
    }
    text
}
