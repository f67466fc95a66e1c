//! `accelerate(target[, loop][, edges])`: a stage's tiles are computed by a
//! GEMM accelerator's kernel instead of generated code.
//!
//! First the op is proved to be what every kernel of the tile ABI computes
//! (`microkernels/README.md`): a contraction `C[.., m, n] += A[.., m, k] *
//! B[.., k, n]`, whose body is a multiply-accumulate and whose element types
//! the target lists. An A stored `[k, m]` or a B stored `[n, k]` (a matmul
//! with transposed operands) is copied into the kernel's layout before each
//! call (`sched.accelerate_transposed`). Then the tile to offload is
//! chosen:
//! - `accelerate(T, loop)`: the op's tile inside `loop`, one kernel call per
//!   iteration; the loops inside it stay implicit. It must not span a batch
//!   dimension, and a strict target's tile must fit its native tile (whose
//!   operands must fit the target's local memory).
//! - `accelerate(T)`: the op (or its tile inside the schedule's loops) is tiled
//!   once more (`tile_using_for`) to the target's native tile, batch
//!   dimensions to 1. What happens to the partial tiles at the edges is
//!   [`super::edges`]'s.
//!
//! The tile op is annotated `sched.accelerate = "T"` (`param.constant`,
//! `annotate`); after bufferization, `runner::offload` replaces it by a call
//! of the target's kernel (the "offload" phase of lowering).

use super::nest::Nest;
use super::Planner;
use super::Region;
use crate::script::ANY_OP;
use microkernels::Target;
use payload::attributes::{ACCELERATE as ANNOTATION, ACCELERATE_TRANSPOSED as TRANSPOSED};
use schedule_lang::model::{Accelerate, Edges, Stage};
use schedule_lang::{Diagnostic, MapResult};

/// A stage proved offloadable, and where its dimensions go in a tile call.
pub(super) struct Offload<'a> {
    /// The directive.
    pub directive: &'a Accelerate,
    /// The target it names.
    pub target: &'a Target,
    /// Rows of C, columns of C, reduction: dimensions of the op.
    pub m: usize,
    pub n: usize,
    pub k: usize,
    /// Which of A and B are stored transposed (`[k, m]`, `[n, k]`): the
    /// offload phase copies them into the kernel's layout before each call.
    pub transposed: [bool; 2],
    /// The stage's dimension names, for messages.
    pub dim_names: Vec<&'a str>,
}

impl<'a> Planner<'a> {
    /// Checks a stage's `accelerate`: a known target, an op its kernel
    /// computes, element types it takes, and nothing generated inside the
    /// kernel's tile. `None` after an error (or without the directive).
    pub(super) fn check_accelerate(&mut self, stage: &'a Stage) -> Option<Offload<'a>> {
        let directive = stage.accelerate.as_ref()?;
        let Some(target) = self.targets.iter().find(|t| t.name == directive.target) else {
            let known: Vec<&str> = self.targets.iter().map(|t| t.name.as_str()).collect();
            self.errors.push(
                Diagnostic::error(
                    "unknown-target",
                    directive.target_span,
                    format!("no accelerator is called `{}`", directive.target),
                )
                .with_help(format!(
                    "the targets are {} (`sched-apply targets` lists them; `--target FILE` adds one)",
                    known.join(", ")
                )),
            );
            return None;
        };
        let op = &self.payload.ops[stage.op];
        let refuse = |detail: String| {
            Diagnostic::error(
                "not-a-contraction",
                directive.span,
                format!("`{}` cannot run on `{}`: {detail}", op.kind, target.name),
            )
            .with_note(
                Some(stage.span),
                format!("bound here to this `{}`", op.kind),
            )
            .with_help(
                "a kernel computes C[m, n] += A[m, k] * B[k, n] (A or B may be stored \
                 transposed): linalg.matmul, batch_matmul (per batch), or a generic that is one",
            )
        };
        let (m, n, k, transposed) = match contraction_dims(stage, op) {
            Ok(dims) => dims,
            Err(detail) => {
                self.errors.push(refuse(detail));
                return None;
            }
        };
        let elements: Vec<&str> = op.operands.iter().map(|o| o.element.as_str()).collect();
        let supported = target
            .types
            .iter()
            .any(|t| [t.a.as_str(), t.b.as_str(), t.c.as_str()] == elements[..]);
        if !supported {
            let types: Vec<String> = target
                .types
                .iter()
                .map(|t| format!("{} x {} -> {}", t.a, t.b, t.c))
                .collect();
            self.errors.push(refuse(format!(
                "it computes {} x {} -> {}, and `{}` takes {}",
                elements[0],
                elements[1],
                elements[2],
                target.name,
                types.join(" or ")
            )));
            return None;
        }
        let native = target.tile;
        let native_bytes = (native.m * native.k + native.k * native.n + native.m * native.n)
            * std::mem::size_of::<f32>();
        if native.strict && native_bytes > target.memory.local_bytes {
            self.errors.push(
                Diagnostic::error(
                    "accelerate-memory",
                    directive.target_span,
                    format!(
                        "`{}`'s native {}x{}x{} tile needs {native_bytes} bytes of local memory, \
                         and its description gives it {}",
                        target.name, native.m, native.n, native.k, target.memory.local_bytes
                    ),
                )
                .with_help("fix the target description: a smaller tile, or more local memory"),
            );
            return None;
        }
        if let Some(marked) = stage.loops.iter().find_map(|l| l.vectorize) {
            self.errors.push(
                Diagnostic::error(
                    "accelerate-vectorize",
                    marked,
                    "an offloaded stage is computed by the accelerator's kernel, not vectorized",
                )
                .with_note(Some(directive.span), "offloaded here")
                .with_help("drop `vectorize`, or the `accelerate`"),
            );
            return None;
        }
        Some(Offload {
            directive,
            target,
            m,
            n,
            k,
            transposed,
            dim_names: stage.dims.iter().map(|d| d.name.as_str()).collect(),
        })
    }

    /// Chooses the loops that stay in the kernel's tile: those inside the
    /// accelerated loop, or (without one) the plain innermost loops, which the
    /// native tiling then covers. False after an error.
    pub(super) fn choose_accelerated_tile(&mut self, nest: &mut Nest, offload: &Offload) -> bool {
        let Some(name) = &offload.directive.loop_name else {
            nest.keep_plain_loops_implicit();
            return true;
        };
        if offload.directive.edges == Edges::Split {
            self.errors.push(
                Diagnostic::error(
                    "accelerate-split",
                    offload.directive.edges_span.unwrap_or(offload.directive.span),
                    "`split` splits the edges off the native tiling, which a call per loop iteration does not use",
                )
                .with_help(format!(
                    "write `accelerate({}, split)`, or `pad` at `{name}`",
                    offload.target.name
                )),
            );
            return false;
        }
        let loops = nest.loops;
        let span = offload
            .directive
            .loop_span
            .unwrap_or(offload.directive.span);
        let Some(at) = loops.iter().rposition(|l| l.visible_name() == name) else {
            self.errors.push(
                Diagnostic::error(
                    "unknown-loop",
                    span,
                    format!("the stage has no loop `{name}` any more"),
                )
                .with_help("a later directive split or fused it: name a loop the stage still has"),
            );
            return false;
        };
        if let Some((l, mark)) = loops[at + 1..]
            .iter()
            .find_map(|l| l.unroll.or(l.parallel).map(|mark| (l, mark)))
        {
            self.errors.push(
                Diagnostic::error(
                    "accelerate-inside",
                    mark,
                    format!("`{}` is inside the kernel call at `{name}`", l.name),
                )
                .with_note(Some(offload.directive.span), "offloaded here")
                .with_help(format!(
                    "mark a loop outside `{name}`, or offload at a loop inside it"
                )),
            );
            return false;
        }
        let tile = &nest.after[at];
        let bound = |d: usize| -> Option<i64> {
            tile[d].or_else(|| {
                (0..=at)
                    .rev()
                    .find(|&i| loops[i].dim == d)
                    .map(|i| nest.tile_sizes[i])
            })
        };
        let stage_dims = nest.region.len();
        for d in 0..stage_dims {
            let size = bound(d);
            let (limit, role) = if d == offload.m {
                (offload.target.tile.m, "rows")
            } else if d == offload.n {
                (offload.target.tile.n, "columns")
            } else if d == offload.k {
                (offload.target.tile.k, "reduction")
            } else {
                (1, "batch")
            };
            let strict = offload.target.tile.strict || role == "batch";
            let fits = size.is_some_and(|s| s <= limit as i64);
            if strict && !fits {
                let dim_name = offload.dim_names[d];
                let size = size.map_or("a dynamic number of".to_string(), |s| s.to_string());
                let help = if role == "batch" {
                    format!(
                        "a call computes one matrix: put a loop over `{dim_name}` outside `{name}`"
                    )
                } else {
                    format!(
                        "split `{dim_name}` by {limit} (or less) outside `{name}`, or write \
                         `accelerate({})` to tile to the native {}x{}x{} tile",
                        offload.target.name,
                        offload.target.tile.m,
                        offload.target.tile.n,
                        offload.target.tile.k
                    )
                };
                self.errors.push(
                    Diagnostic::error(
                        "accelerate-tile",
                        span,
                        format!(
                            "the tile at `{name}` spans {size} elements of `{dim_name}` \
                             ({role}); `{}` takes at most {limit}",
                            offload.target.name
                        ),
                    )
                    .with_help(help),
                );
                return false;
            }
        }
        nest.first_implicit = at + 1;
        true
    }

    /// Tiles the op `handle` to the target's native tile (without a loop
    /// given) and marks the tile op for the offload phase.
    /// `region` is the op's tile inside the materialized loops.
    pub(super) fn emit_offload(
        &mut self,
        func: usize,
        stage_index: usize,
        handle: String,
        offload: &Offload,
        region: &Region,
    ) {
        let stage_name = self.stage_name(func, stage_index);
        let location = self.at(offload.directive.span);
        self.transformed = true;
        let mut tile = handle;
        let dims = self.model.funcs[func].stages[stage_index].dims.len();
        let native = &offload.target.tile;
        let native_sizes: Vec<usize> = (0..dims)
            .map(|d| match d {
                d if d == offload.m => native.m,
                d if d == offload.n => native.n,
                d if d == offload.k => native.k,
                _ => 1,
            })
            .collect();
        if offload.directive.edges == Edges::Split {
            match self.split_off_edges(func, &tile, offload, region) {
                Some(whole_tiles) => tile = whole_tiles,
                None => return,
            }
        }
        if offload.directive.loop_name.is_none() {
            self.script.comment(format!(
                "{stage_name}: tiles of {}'s native {}x{}x{} shape",
                offload.target.name, native.m, native.n, native.k
            ));
            let tiled = self
                .script
                .fresh(&format!("{}_tile", self.model.funcs[func].name));
            let loops: Vec<String> = (0..dims).map(|_| self.script.fresh("native")).collect();
            let results: Vec<String> = std::iter::once(&tiled)
                .chain(&loops)
                .map(|h| format!("%{h}"))
                .collect();
            let types = vec![ANY_OP; dims + 1].join(", ");
            self.script.op(
                format!(
                    "{} = transform.structured.tile_using_for %{tile} tile_sizes [{}] : ({ANY_OP}) -> ({types})",
                    results.join(", "),
                    native_sizes.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
                ),
                location,
            );
            tile = tiled;
        }
        if offload.directive.edges == Edges::Pad {
            tile = self.pad_to_native(func, stage_index, &tile, &native_sizes, location);
        }
        self.script.comment(format!(
            "{stage_name}: each tile becomes a call of {}'s kernel when lowering (offload phase)",
            offload.target.name
        ));
        let target = format!("\"{}\"", offload.target.name);
        self.script
            .annotate(&tile, ANNOTATION, &target, "target", location);
        let transposed: String = ["a", "b"]
            .iter()
            .zip(offload.transposed)
            .filter(|(_, t)| *t)
            .map(|(name, _)| *name)
            .collect();
        if !transposed.is_empty() {
            self.script.comment(format!(
                "{stage_name}: operand(s) {transposed} stored transposed, copied into the kernel's \
                 layout before each call"
            ));
            let value = format!("\"{transposed}\"");
            self.script
                .annotate(&tile, TRANSPOSED, &value, "transposed", location);
        }
    }
}

/// The op's m, n and k dimensions when it is a contraction a tile kernel
/// computes: a multiply-accumulate body, one reduction dimension, and maps
/// `A[.., m, k]`, `B[.., k, n]`, `C[.., m, n]` whose leading results are
/// the same batch dimensions. Otherwise what does not match.
fn contraction_dims(
    stage: &Stage,
    op: &schedule_lang::PayloadOp,
) -> Result<(usize, usize, usize, [bool; 2]), String> {
    if !op.multiply_accumulate || op.operands.len() != 3 {
        return Err("its body is not `init + in0 * in1`".into());
    }
    let reductions: Vec<usize> = (0..stage.dims.len())
        .filter(|&d| stage.dims[d].reduction)
        .collect();
    if reductions.len() != 1 {
        return Err(format!(
            "it has {} reduction dimensions; a kernel reduces over one",
            reductions.len()
        ));
    }
    let names = ["A (in0)", "B (in1)", "C (the init)"];
    let mut maps = Vec::new();
    for (operand, name) in op.operands.iter().zip(names) {
        let dims: Option<Vec<usize>> = operand
            .map
            .iter()
            .map(|r| match r {
                MapResult::Dim(d) => Some(*d),
                _ => None,
            })
            .collect();
        let Some(dims) = dims.filter(|d| d.len() >= 2) else {
            let shown: Vec<String> = operand.map.iter().map(show_result).collect();
            return Err(format!(
                "{name} is read at ({}), not as a matrix of two loop dimensions",
                shown.join(", ")
            ));
        };
        maps.push(dims);
    }
    let (a, b, c) = (&maps[0], &maps[1], &maps[2]);
    let rank = c.len();
    let k = reductions[0];
    let (m, n) = (c[rank - 2], c[rank - 1]);
    let trailing = |dims: &[usize]| (dims.len() == rank).then(|| [dims[rank - 2], dims[rank - 1]]);
    let a_layout = match trailing(a) {
        Some(t) if t == [m, k] => Some(false),
        Some(t) if t == [k, m] => Some(true),
        _ => None,
    };
    let b_layout = match trailing(b) {
        Some(t) if t == [k, n] => Some(false),
        Some(t) if t == [n, k] => Some(true),
        _ => None,
    };
    let rows_and_columns = a_layout.is_some() && b_layout.is_some() && m != n;
    if !rows_and_columns {
        let show = |dims: &[usize]| {
            let names: Vec<&str> = dims.iter().map(|&d| stage.dims[d].name.as_str()).collect();
            format!("[{}]", names.join(", "))
        };
        return Err(format!(
            "it reads A as {}, B as {} and C as {}; a kernel computes C[.., m, n] from \
             A[.., m, k] (or A[.., k, m], copied) and B[.., k, n] (or B[.., n, k], copied)",
            show(a),
            show(b),
            show(c)
        ));
    }
    let every_dim_read = stage.dims.len() == rank + 1;
    if a[..rank - 2] != c[..rank - 2] || b[..rank - 2] != c[..rank - 2] || !every_dim_read {
        return Err("its operands do not share their batch dimensions".into());
    }
    Ok((m, n, k, [a_layout == Some(true), b_layout == Some(true)]))
}

fn show_result(result: &MapResult) -> String {
    match result {
        MapResult::Dim(d) => format!("d{d}"),
        MapResult::Constant(c) => c.to_string(),
        MapResult::Expression(text) => text.clone(),
    }
}
