//! The warnings resolution gives for directives that do nothing: a
//! `reorder` into the order the loops have, a mark on a loop of one
//! iteration, a split factor equal to the loop's iteration count; and for
//! what runs slower than asked: a parallel loop nested in another, a
//! register tile larger than the vector registers, a pack repeated by a
//! loop its tile does not depend on.

use super::loops::{info_name, loop_names, stage_label};
use crate::ast::Ident;
use crate::diagnostic::Diagnostic;
use crate::directives::DirectiveKind;
use crate::machine::VectorUnit;
use crate::model::{Loop, OperandAtLoop, Stage};
use crate::payload_info::PayloadOp;
use crate::span::Span;

/// A `reorder` that left the loops as they were.
pub(super) fn reorder_no_op(stage: &Stage, func: &str, span: Span) -> Diagnostic {
    Diagnostic::warning(
        "reorder-no-op",
        span,
        "this `reorder` changes nothing: the loops are already in this order",
    )
    .with_help(format!(
        "{}'s loops, outermost first: {}",
        stage_label(stage, func),
        loop_names(stage)
    ))
}

/// `vectorize(l, f)` or `unroll(l, f)` where `l` has exactly `f` iterations.
pub(super) fn factor_is_extent(
    kind: DirectiveKind,
    target: &Ident,
    factor: i64,
    span: Span,
) -> Diagnostic {
    Diagnostic::warning(
        "factor-is-extent",
        span,
        format!(
            "`{}` has exactly {factor} iterations, so splitting it by {factor} leaves an outer \
             loop of one iteration",
            target.name
        ),
    )
    .with_help(format!(
        "`{}({})` says the same",
        info_name(kind),
        target.name
    ))
}

/// A `vectorize`, `unroll` or `parallel` whose loop has one iteration.
pub(super) fn one_iteration(kind: DirectiveKind, target: &Ident, span: Span) -> Diagnostic {
    let verb = info_name(kind);
    let (what, fix) = match kind {
        DirectiveKind::Parallel => ("leaves one task", "parallelize"),
        _ => ("changes nothing", verb),
    };
    Diagnostic::warning(
        "one-iteration",
        span,
        format!(
            "`{}` has one iteration here, so `{verb}` {what}",
            target.name
        ),
    )
    .with_help(format!(
        "{fix} a loop with more iterations, or remove this directive"
    ))
}

/// The parallel loops of `stage` that run inside another parallel loop of
/// it, with that outer loop: OpenMP (as lowering runs it) gives a parallel
/// loop nested in another one thread, so its iterations run in turn.
/// Adjacent parallel loops over different dimensions become one
/// multi-dimensional `scf.forall` and do not nest; a loop of the same
/// dimension, a sequential loop between, or `rfactor`'s forall ends that run.
pub(super) fn nested_parallel_loops(stage: &Stage, outside: Option<&Loop>) -> Vec<(Loop, Loop)> {
    let mut nested = Vec::new();
    // The outermost parallel loop so far (the consumer's, when given).
    let mut first: Option<&Loop> = outside;
    // The dimensions of the open run of adjacent parallel loops (one forall).
    let mut run: Option<Vec<usize>> = None;
    for l in &stage.loops {
        if l.parallel.is_none() {
            run = None;
            continue;
        }
        match (&mut run, first) {
            (Some(dims), _) if !dims.contains(&l.dim) => dims.push(l.dim),
            (_, Some(outer)) => {
                nested.push((l.clone(), outer.clone()));
                run = None;
            }
            (_, None) => {
                first = Some(l);
                run = Some(vec![l.dim]);
            }
        }
        if l.rfactor.is_some() {
            // rfactor's forall is a loop of its own: nothing joins it.
            run = None;
        }
    }
    nested
}

/// The warning for a parallel loop nested in another.
pub(super) fn nested_parallel(inner: &Loop, outer: &Loop, outer_func: Option<&str>) -> Diagnostic {
    let span = inner.parallel.expect("a parallel loop");
    let whose = outer_func.map_or(String::new(), |f| format!(" of `{f}`"));
    Diagnostic::warning(
        "nested-parallel",
        span,
        format!(
            "`{}` runs inside parallel loop `{}`{whose}: OpenMP gives a parallel loop nested in \
             another one thread, so `parallel` here changes nothing",
            inner.name, outer.name
        ),
    )
    .with_note(outer.parallel, format!("`{}` is parallel here", outer.name))
    .with_help("mark only the outer loop, or make the two adjacent loops over different dimensions (one multi-dimensional forall)")
}

/// The register tile of `stage`: the loops inside its innermost sequential
/// reduction loop, over parallel dimensions, each vectorized or unrolled,
/// whose values stay in registers across that reduction. Returns the
/// accumulator vectors it holds (`lanes` elements each) and those loops,
/// when there is such a tile.
fn register_tile(stage: &Stage, lanes: i64) -> Option<(i64, Vec<&Loop>)> {
    let innermost_reduction = stage.loops.iter().rposition(|l| {
        stage.dims[l.dim].reduction
            && l.rfactor.is_none()
            && l.vectorize.is_none()
            && l.unroll.is_none()
    })?;
    let inside = &stage.loops[innermost_reduction + 1..];
    let in_registers = |l: &&Loop| l.vectorize.is_some() || l.unroll.is_some();
    if inside.is_empty() || !inside.iter().all(|l| in_registers(&l)) {
        return None;
    }
    let mut vectors = 1;
    let mut tile = Vec::new();
    for l in inside.iter().filter(|l| !stage.dims[l.dim].reduction) {
        let covered = l.tile.or(stage.dims[l.dim].extent)?;
        let iterations = (covered + l.step - 1) / l.step;
        vectors *= match l.vectorize {
            Some(_) => (iterations + lanes - 1) / lanes,
            None => iterations,
        };
        tile.push(l);
    }
    Some((vectors, tile))
}

/// A register tile of more accumulators than `unit`'s registers hold
/// beside what each step reads ([`VectorUnit::accumulators`]): they spill
/// to memory at every step.
pub(super) fn register_tile_spills(
    stage: &Stage,
    element: &str,
    func: &str,
    unit: VectorUnit,
) -> Option<Diagnostic> {
    let element_bytes = match element {
        "f64" | "i64" => 8,
        "f16" | "bf16" | "i16" => 2,
        "i8" => 1,
        _ => 4,
    };
    let (vectors, tile) = register_tile(stage, unit.lanes(element_bytes))?;
    let fit = unit.accumulators();
    if vectors <= fit {
        return None;
    }
    let span = tile
        .iter()
        .find_map(|l| l.vectorize)
        .or_else(|| tile.iter().find_map(|l| l.unroll))?;
    let parts: Vec<String> = tile
        .iter()
        .map(|l| {
            let what = if l.vectorize.is_some() {
                "vectorized"
            } else {
                "unrolled"
            };
            format!("`{}` {what}", l.name)
        })
        .collect();
    Some(
        Diagnostic::warning(
            "register-tile-spills",
            span,
            format!(
                "`{func}` keeps {vectors} vectors of {element} accumulators in registers ({}), \
                 more than {}'s {} vector registers of {} bytes hold beside the vectors each step \
                 reads: they spill to memory at every step (a ResNet stem on AVX-512: 30.9% of \
                 the peak with 32, 56.4% with 16)",
                parts.join(", "),
                unit.name,
                unit.registers,
                unit.bytes
            ),
        )
        .with_help(format!(
            "keep the tile at {fit} vectors or fewer: a smaller split factor of a vectorized or \
             unrolled loop (on another machine: `--vector-unit` names the one to check for)"
        )),
    )
}

/// `pack(inK, l)` at or inside loops whose dimension input K's index does
/// not use: every iteration of them copies the same tile again (the filters
/// of a convolution packed per block of output channels inside the batch
/// loop, or at the batch loop, are packed once per image).
pub(super) fn repeated_pack(
    stage: &Stage,
    op: &PayloadOp,
    pack: &OperandAtLoop,
    func: &str,
) -> Option<Diagnostic> {
    let at = stage.find_loop(&pack.loop_name)?;
    let operand = op.input(pack.written)?;
    // The loops from the outermost to `at` of more than one iteration whose
    // dimension the operand's index does not use, with their iterations.
    let mut repeating: Vec<(&str, i64)> = Vec::new();
    let mut at_itself = false;
    for (i, l) in stage.loops[..at.end].iter().enumerate() {
        let iterations = l.trip_count(stage.dims[l.dim].extent)?;
        if iterations > 1 && operand.depends_on(l.dim) == Some(false) {
            repeating.push((l.name.as_str(), iterations));
            at_itself |= i >= at.start;
        }
    }
    if repeating.is_empty() {
        return None;
    }
    let copies: i64 = repeating.iter().map(|(_, n)| n).product();
    let counted: Vec<String> = repeating
        .iter()
        .map(|(name, n)| format!("`{name}` ({n} iterations)"))
        .collect();
    let names: Vec<String> = repeating
        .iter()
        .map(|(name, _)| format!("`{name}`"))
        .collect();
    let (where_, fix) = if at_itself {
        (
            String::new(),
            format!(
                "pack at a loop outside {} (reordered outward first if no loop is)",
                names.join(" and ")
            ),
        )
    } else {
        (
            format!(
                ", which run{} outside `{}`",
                if repeating.len() == 1 { "s" } else { "" },
                pack.loop_name
            ),
            format!(
                "move {} inside `{}` (a `reorder`)",
                names.join(" and "),
                pack.loop_name
            ),
        )
    };
    Some(
        Diagnostic::warning(
            "repeated-pack",
            pack.span,
            format!(
                "`{func}` packs the same tile of in{} {copies} times: its index does not use \
                 {}{where_}",
                pack.written,
                counted.join(" or "),
            ),
        )
        .with_help(format!(
            "{fix}, so that each tile is packed once (ResNet-18 at batch 8, filters packed per \
             block of output channels: 9% less time with the batch loop inside the block's)"
        )),
    )
}
