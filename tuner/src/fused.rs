//! A fusion of producers into their reader's tiles ([`Fusion`]), and the
//! reader's tiles chosen by measuring them fused: each variant of a
//! fusion ([`crate::producers::variants`]: the biggest producer's register
//! tiles of other shapes) is timed on its ops alone (the producer, the
//! elementwise ops inlined after it and the reader, isolated as one
//! payload) against the fastest so far; the fastest is the one the
//! whole-model decision then tries.
//! A tile fastest alone need not be fastest inside the reader's tiles.

use crate::records::short_hash;
use crate::{paired, Model, Session, TaskResult};
use schedule_lang::naming::{binding, dim_names};
use schedule_lang::PayloadInfo;

/// Where a task's ops are computed: in the tiles of the ops of result
/// `reader`, at its loop `at`, with `chain` after the `compute_at`; their
/// inits (bias broadcasts, [`init_broadcast`]) computed at their own loop
/// `init_at`, when it is set, so that no whole broadcast is written.
#[derive(Clone, Debug, PartialEq)]
pub struct ComputedIn {
    pub reader: usize,
    pub at: String,
    pub chain: String,
    pub init_at: Option<String>,
}

/// The broadcast op (by id) whose result op `op` takes as its init, when
/// `op` is the only op reading it (a convolution's bias).
pub fn init_broadcast(info: &PayloadInfo, op: usize) -> Option<usize> {
    let init = info.ops[op].operands.iter().find(|o| o.is_init)?;
    let producer = init.producer.filter(|_| init.via.is_empty())?;
    let alone = info.reads_of(&[producer]).count() == 1;
    (info.ops[producer].kind == "linalg.broadcast" && alone).then_some(producer)
}

/// One possible fusion: the reader's result, its tiled chain, and the
/// producers' results with their chains.
pub struct Fusion {
    /// The reader's result (the activation kind), and its tiled chain.
    pub reader: usize,
    pub tiled: String,
    /// The producers' results, with what each is computed by.
    pub producers: Vec<(usize, ComputedIn)>,
    /// The producers' FLOPs, all ops together.
    pub flops: f64,
    /// The ops measured alone to choose among a reader's tiles
    /// ([`fastest`]): the biggest producer's first op, the inlined
    /// ops after it and the reader reading them.
    pub group: Vec<usize>,
    /// The broadcast initializing that first op, when it is computed in
    /// the producer's loops ([`ComputedIn::init_at`]): measured with them.
    pub init: Option<usize>,
}

/// What measuring a reader's variants found: the chosen one's index, and
/// how many pairs were timed (or found in the records).
pub struct Chosen {
    pub index: usize,
    pub pairs: usize,
}

/// The fastest of `variants` on its ops alone: each against the fastest so
/// far, as a pair whose calls take turns ([`crate::paired`]), since tiles a
/// few percent apart are within one spell of a noisy machine. The first
/// when there is one, its ops cannot be isolated, or no pair could be
/// measured.
pub fn fastest(
    model: &Model<'_>,
    results: &[TaskResult],
    variants: &[Fusion],
    session: &mut Session<'_>,
) -> Result<Chosen, String> {
    let mut chosen = Chosen { index: 0, pairs: 0 };
    let Some(first) = variants.first() else {
        return Ok(chosen);
    };
    if variants.len() == 1 {
        return Ok(chosen);
    }
    // Ops that cannot be isolated (none here so far) keep the first.
    // The group's ops, after the broadcast initializing its first op when
    // one of the variants computes it in the producer's loops.
    let init = variants.iter().find_map(|v| v.init);
    let ops: Vec<usize> = init.iter().chain(&first.group).copied().collect();
    let Ok(payload) = (model.isolate)(&ops) else {
        return Ok(chosen);
    };
    let key = format!("fused {}", short_hash(&payload, 8));
    let producer = first.group.first().and_then(|&op| result_of(results, op));
    let description = format!(
        "{} computed in {}",
        producer.map_or("", |p| results[p].task.description.as_str()),
        results[first.reader].task.description
    );
    let mut best = group_schedule(model.info, results, first);
    for (index, variant) in variants.iter().enumerate().skip(1) {
        let trial = group_schedule(model.info, results, variant);
        chosen.pairs += 1;
        if let Ok((base, seconds)) = paired(&key, &description, (&best, &trial), &payload, session)?
        {
            if seconds < base {
                best = trial;
                chosen.index = index;
            }
        }
    }
    Ok(chosen)
}

/// The result whose task holds `op`.
fn result_of(results: &[TaskResult], op: usize) -> Option<usize> {
    results.iter().position(|r| r.task.ops.contains(&op))
}

/// The schedule of `fusion` on its group's ops isolated
/// ([`Fusion::group`]): the producer computed in the reader's tiles, the
/// ops between inlined, the broadcast initializing the producer computed
/// in its loops when [`Fusion::init`] is.
pub fn group_schedule(info: &PayloadInfo, results: &[TaskResult], fusion: &Fusion) -> String {
    let (Some(&first), Some(&last)) = (fusion.group.first(), fusion.group.last()) else {
        return String::new();
    };
    let (Some(producer), Some(reader)) = (result_of(results, first), result_of(results, last))
    else {
        return String::new();
    };
    let Some((_, computed)) = fusion.producers.iter().find(|(p, _)| *p == producer) else {
        return String::new();
    };
    // Each op's selector: its kind, and its index among the group's ops of
    // that kind (the isolated payload holds them in the group's order).
    let selector = |at: usize| {
        let kind = &info.ops[fusion.group[at]].kind;
        let index = fusion.group[..at]
            .iter()
            .filter(|&&id| info.ops[id].kind == *kind)
            .count();
        format!("{kind}[{index}]")
    };
    let (producer, reader) = (&results[producer].task, &results[reader].task);
    let mut text = format!(
        "func p = {} ({})
",
        selector(0),
        producer.binding(info)
    );
    // The ops between, inlined.
    let last_at = fusion.group.len() - 1;
    for at in 1..last_at {
        let op = &info.ops[fusion.group[at]];
        text.push_str(&format!(
            "func e{at} = {} ({})
e{at}.compute_inline()
",
            selector(at),
            binding(op, &dim_names(op))
        ));
    }
    text.push_str(&format!(
        "func r = {} ({})
r{}
p.compute_at(r, {}){}
",
        selector(last_at),
        reader.binding(info),
        fusion.tiled,
        computed.at,
        computed.chain
    ));
    if let (Some(init), Some(at)) = (fusion.init, &computed.init_at) {
        let op = &info.ops[init];
        text.push_str(&format!(
            "func b = {}[0] ({})\nb.compute_at(p, {at})\n",
            op.kind,
            binding(op, &dim_names(op))
        ));
    }
    text
}
