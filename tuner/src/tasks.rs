//! Tasks: the payload's ops grouped by what a schedule depends on (kind,
//! iteration dimensions and extents, windows, element types, body, maps),
//! so each group is tuned once, on one op isolated, and its schedule bound
//! to every op of the group.

use crate::records::short_hash;
use schedule_lang::naming::{binding, dim_names};
use schedule_lang::{IteratorKind, MapResult, PayloadInfo, PayloadOp};

/// One kind of op to tune, and the payload ops it stands for.
#[derive(Clone, Debug)]
pub struct Task {
    /// A stable key: the SHA-256 (16 hex digits) of [`Task::description`].
    pub key: String,
    /// What the key hashes: kind, iterators and extents, strides and
    /// dilations, element types, body and operand maps.
    pub description: String,
    /// The ops' kind (`linalg.conv_2d_nchw_fchw`).
    pub kind: String,
    /// The ops' dimension names in linalg order.
    pub dims: Vec<String>,
    /// Whether each dimension is a reduction.
    pub reduction: Vec<bool>,
    /// Static extents, in linalg order.
    pub extents: Vec<i64>,
    /// The ops (by id); the first is the one measured.
    pub ops: Vec<usize>,
    /// The first op of each other description merged into this task
    /// ([`merged_alike`]): candidates must plan on these too.
    pub also: Vec<usize>,
    /// The transposes feeding the measured op's inputs (a weight's, for a
    /// matmul): isolated with it and inlined into it in every candidate,
    /// so the chain is chosen for reading the weight in place.
    pub feeders: Vec<usize>,
    /// FLOPs of one op.
    pub flops: u64,
}

impl Task {
    /// The task of `ops`, measured on `op` (the first of them): its kind,
    /// dimensions and extents, described as [`tasks`] does but for the
    /// readers' kinds, which need the payload (`write.rs` binds the bias
    /// broadcasts it computes in a reader's tiles so; no records key them);
    /// no feeders.
    pub fn of_op(op: &PayloadOp, ops: Vec<usize>) -> Task {
        Task::described(op, ops, describe(op), Vec::new())
    }

    /// [`Task::of_op`] with its description and feeders given.
    fn described(
        op: &PayloadOp,
        ops: Vec<usize>,
        description: String,
        feeders: Vec<usize>,
    ) -> Task {
        let extents: Vec<i64> = op.extents.iter().map(|e| e.unwrap_or(0)).collect();
        let points: u64 = extents.iter().map(|e| *e as u64).product();
        Task {
            key: short_hash(&description, 8),
            description,
            kind: op.kind.clone(),
            dims: dim_names(op),
            reduction: op
                .iterators
                .iter()
                .map(|k| *k == IteratorKind::Reduction)
                .collect(),
            extents,
            ops,
            also: Vec::new(),
            feeders,
            flops: op.flops_per_point.max(1) * points,
        }
    }

    /// The binding a `func` line writes (`n, f, y, x | c, ky, kx`).
    pub fn binding(&self, info: &PayloadInfo) -> String {
        binding(&info.ops[self.ops[0]], &self.dims)
    }
}

/// Ops no task is made for: fills, copies and broadcasts move data a
/// reader can fuse (transposes are tasks: inlining one into the matmul
/// reading it is a decision, `fusion.rs`), and an op with a dynamic extent, a reduction
/// before a parallel dimension (which a binding cannot name) or no
/// parallel dimension is left as the payload has it.
fn tunable(op: &PayloadOp) -> bool {
    let data_movement = matches!(
        op.kind.as_str(),
        "linalg.fill" | "linalg.copy" | "linalg.broadcast"
    ) || (op.kind == "linalg.generic" && op.body_words() == ["copy"]);
    let reductions_last = !op
        .iterators
        .windows(2)
        .any(|pair| pair[0] == IteratorKind::Reduction && pair[1] == IteratorKind::Parallel);
    let has_parallel = op.iterators.contains(&IteratorKind::Parallel);
    !data_movement
        && reductions_last
        && has_parallel
        && op.extents.iter().all(|e| e.is_some_and(|e| e > 0))
}

/// The transposes whose results a contraction (a matmul's `in += a * b`)
/// reads directly: a weight's, which it is better off reading in place.
fn feeders(op: &PayloadOp, info: &PayloadInfo) -> Vec<usize> {
    if !op.multiply_accumulate {
        return Vec::new();
    }
    op.operands
        .iter()
        .filter(|o| !o.is_init && o.via.is_empty())
        .filter_map(|o| o.producer)
        .filter(|&p| info.ops[p].kind == "linalg.transpose")
        .collect()
}

/// The text a task's key hashes.
fn describe(op: &PayloadOp) -> String {
    let map = |m: &MapResult| match m {
        MapResult::Dim(d) => format!("d{d}"),
        MapResult::Constant(c) => c.to_string(),
        MapResult::Expression(e) => e.clone(),
    };
    let operands: Vec<String> = op
        .operands
        .iter()
        .map(|o| {
            let maps: Vec<String> = o.map.iter().map(map).collect();
            format!(
                "{}{}({})",
                if o.is_init { "out " } else { "" },
                o.element,
                maps.join(",")
            )
        })
        .collect();
    let iterators: Vec<String> = op
        .iterators
        .iter()
        .zip(&op.extents)
        .map(|(k, e)| {
            let kind = if *k == IteratorKind::Reduction {
                "r"
            } else {
                "p"
            };
            format!("{kind}{}", e.unwrap_or(-1))
        })
        .collect();
    format!(
        "{} [{}] strides {:?} dilations {:?} body [{}] operands [{}]",
        op.kind,
        iterators.join(" "),
        op.strides(),
        op.dilations(),
        op.body.join(" "),
        operands.join("; ")
    )
}

/// Whether `op` is an elementwise generic: whose readers' kinds are part
/// of its task, since they decide whether inlining it recomputes it (a
/// batch norm's last step read by a 1x1 convolution once per block of its
/// output channels, the same step read by a residual add once).
pub fn split_by_readers(op: &PayloadOp) -> bool {
    op.kind == "linalg.generic" && op.iterators.iter().all(|k| *k == IteratorKind::Parallel)
}

/// The readers' kinds an elementwise generic's task and signature name
/// (` read by [conv_2d_nchw_fchw generic]`); empty for other ops.
fn readers(op: &PayloadOp, info: &PayloadInfo) -> String {
    match split_by_readers(op) {
        true => format!(" read by [{}]", info.reader_kinds(op).join(" ")),
        false => String::new(),
    }
}

/// The payload's tasks, largest share of FLOPs first (ties in payload order).
pub fn tasks(info: &PayloadInfo) -> Vec<Task> {
    let mut tasks: Vec<Task> = Vec::new();
    for op in info.ops.iter().filter(|op| tunable(op)) {
        let mut description = describe(op);
        description.push_str(&readers(op, info));
        let feeders = feeders(op, info);
        if !feeders.is_empty() {
            description.push_str(" fed by transposes, inlined");
        }
        if let Some(task) = tasks.iter_mut().find(|t| t.description == description) {
            task.ops.push(op.id);
            continue;
        }
        tasks.push(Task::described(op, vec![op.id], description, feeders));
    }
    tasks.sort_by_key(|t| std::cmp::Reverse(t.flops * t.ops.len() as u64));
    tasks
}

/// `tasks` without the ops in `kept` (a person's schedule binds them), and
/// without the tasks left with no op.
pub fn without_ops(mut tasks: Vec<Task>, kept: &[usize]) -> Vec<Task> {
    for task in &mut tasks {
        task.ops.retain(|id| !kept.contains(id));
    }
    tasks.retain(|t| !t.ops.is_empty());
    tasks
}

/// What `where` conditions can see of an op (`selector.rs`): kind,
/// dimension counts and extents, uniform stride and dilation, element
/// type and body words, and an elementwise generic's readers' kinds. Ops
/// that differ only elsewhere (an operand's map: a bias added by broadcast
/// against a residual add) no func can bind apart.
fn signature(op: &PayloadOp, info: &PayloadInfo) -> String {
    let uniform = |values: Vec<i64>| match values.as_slice() {
        [first, rest @ ..] if rest.iter().all(|v| v == first) => Some(*first),
        _ => None,
    };
    let mut words = op.body_words();
    words.sort();
    words.dedup();
    format!(
        "{} {:?} {:?} {:?} {:?} {:?} {:?}{}",
        op.kind,
        op.dimension_counts(),
        op.extents,
        uniform(op.strides()),
        uniform(op.dilations()),
        op.element(),
        words,
        readers(op, info)
    )
}

/// `tasks` with the tasks that no `where` can tell apart merged into the
/// first (largest) of them: one schedule must serve them all, so they are
/// tuned once, on its op, and its candidates must also plan on the first
/// op of each merged task ([`Task::also`]).
pub fn merged_alike(tasks: Vec<Task>, info: &PayloadInfo) -> Vec<Task> {
    let mut merged: Vec<(String, Task)> = Vec::new();
    for task in tasks {
        let signature = signature(&info.ops[task.ops[0]], info);
        match merged.iter_mut().find(|(s, _)| *s == signature) {
            Some((_, first)) => {
                first.also.push(task.ops[0]);
                first.also.extend(task.also);
                first.ops.extend(task.ops);
                first.ops[1..].sort();
            }
            None => merged.push((signature, task)),
        }
    }
    merged.into_iter().map(|(_, task)| task).collect()
}
