//! `pack(inK, loop)`: BLIS packing. Once per iteration of `loop`, the part
//! of input K the stage reads inside it is copied into a contiguous buffer,
//! and the op reads that instead. The copy is a `nofold` `structured.pad`
//! that pads nothing (it bufferizes to a fresh buffer and a copy), tiled to
//! rows and vectorized so each row folds to one contiguous `memcpy`. A pack
//! is planned right after the tiling run that ends at its loop; a loop that
//! is not materialized, a partial or dynamic reduction tile, and a partial
//! accumulator inside a reduction loop are refused at the directive.

use super::nest::Nest;
use super::Planner;
use crate::script::ANY_OP;
use schedule_lang::model::OperandAtLoop;
use schedule_lang::{Diagnostic, MapResult};

/// The shape of the tile an operand read through `map` has where the op's
/// tile is `region`: known when every axis is a plain dimension with a
/// static tile.
fn tile_shape(map: &[MapResult], region: &[Option<i64>]) -> Option<Vec<i64>> {
    map.iter()
        .map(|r| match r {
            MapResult::Dim(d) => region.get(*d).copied().flatten(),
            _ => None,
        })
        .collect()
}

impl Planner<'_> {
    /// Plans the `pack`s of a stage at loop `at`, now that the op (`handle`)
    /// is inside it: a `nofold` pad of each packed operand, which bufferizes
    /// to a copy into a fresh contiguous buffer, made once per iteration of
    /// `at`. `region` is the stage's tile there. Its reduction dimensions must
    /// be static: padding a reduction would add terms (zeros) to it. Partial
    /// tiles of parallel dimensions are padded to their bound, and the extra
    /// results dropped.
    pub(super) fn plan_packs(
        &mut self,
        func: usize,
        stage_index: usize,
        at: &str,
        handle: &mut String,
        region: &[Option<i64>],
    ) {
        let stage = &self.model.funcs[func].stages[stage_index];
        let op = &self.payload.ops[stage.op];
        let name = self.stage_name(func, stage_index);
        for (index, pack) in stage.packs.iter().enumerate() {
            if pack.loop_name != at || self.packed.contains(&(func, stage_index, index)) {
                continue;
            }
            self.packed.push((func, stage_index, index));
            if let Some(dim) =
                (0..stage.dims.len()).find(|&d| stage.dims[d].reduction && region[d].is_none())
            {
                self.errors.push(
                    Diagnostic::error(
                        "pack-dynamic",
                        pack.span,
                        format!(
                            "cannot pack `in{}` of `{name}` at `{at}`: the tile of reduction `{}` \
                             there is partial or dynamic, and padding it would change the sum",
                            pack.written, stage.dims[dim].name
                        ),
                    )
                    .with_help("choose split factors that divide the extents"),
                );
                continue;
            }
            let map = &op.operands[pack.operand].map;
            if let Some(innermost) = pack.innermost.as_ref().filter(|i| i.axis + 1 < map.len()) {
                let dynamic = map.iter().find_map(|r| match r {
                    MapResult::Dim(d) if region[*d].is_none() => Some(*d),
                    _ => None,
                });
                if let Some(d) = dynamic {
                    self.errors.push(
                        Diagnostic::error(
                            "pack-dynamic",
                            pack.span,
                            format!(
                                "cannot pack `in{}` of `{name}` at `{at}` with `{}` innermost: its \
                                 tile of `{}` there is partial or dynamic, and the copy needs a \
                                 static shape",
                                pack.written, stage.dims[innermost.dim].name, stage.dims[d].name
                            ),
                        )
                        .with_help("choose split factors that divide the extents"),
                    );
                    continue;
                }
                let shape = tile_shape(map, region);
                self.plan_relayout(pack, innermost.axis, &name, at, handle, shape);
                continue;
            }
            // The pad also pads the accumulator when a parallel tile is
            // partial; inside a reduction loop that breaks the loop-carried
            // accumulator (bufferization cannot keep it in place).
            let enclosing_reduction = stage
                .loops
                .iter()
                .position(|l| l.visible_name() == at)
                .and_then(|p| {
                    stage.loops[..=p]
                        .iter()
                        .find(|l| stage.dims[l.dim].reduction)
                });
            let partial =
                (0..stage.dims.len()).find(|&d| !stage.dims[d].reduction && region[d].is_none());
            if let (Some(reduction_loop), Some(dim)) = (enclosing_reduction, partial) {
                self.errors.push(
                    Diagnostic::error(
                        "pack-partial-accumulator",
                        pack.span,
                        format!(
                            "cannot pack `in{}` of `{name}` at `{at}`: the tile of `{}` there is \
                             partial or dynamic, so the accumulator would be padded too, inside \
                             reduction loop `{}`",
                            pack.written,
                            stage.dims[dim].name,
                            reduction_loop.visible_name()
                        ),
                    )
                    .with_help(
                        "choose split factors that divide the extents, or pack at a loop outside \
                         the reduction loops",
                    ),
                );
                continue;
            }
            let values: Vec<String> = op
                .operands
                .iter()
                .map(|o| crate::script::zero_attribute(&o.element))
                .collect();
            let dims: Vec<String> = (0..stage.dims.len()).map(|d| d.to_string()).collect();
            let nofold: Vec<&str> = op
                .operands
                .iter()
                .enumerate()
                .map(|(i, _)| if i == pack.operand { "1" } else { "0" })
                .collect();
            let padded = self
                .script
                .fresh(&format!("{}_packed", self.model.funcs[func].name));
            let pad = self.script.fresh("pack");
            let copy = self.script.fresh("copy");
            self.script.comment(format!(
                "pack: {} copied into a contiguous buffer once per iteration of {at} (a nofold \
                 pad that pads nothing)",
                pack.label(&name)
            ));
            self.script.op(
                format!(
                    "%{padded}, %{pad}, %{copy} = transform.structured.pad %{handle} {{padding_values = [{}], padding_dimensions = [{}], nofold_flags = [{}], copy_back_op = \"none\"}} : ({ANY_OP}) -> ({ANY_OP}, {ANY_OP}, {ANY_OP})",
                    values.join(", "),
                    dims.join(", "),
                    nofold.join(", ")
                ),
                self.at(pack.span),
            );
            // Fold the identity slice the pad leaves on the result, so later
            // fusion sees the op's result used directly. Folders only: the
            // canonicalization patterns would also inline a one-iteration
            // forall that later fusion still needs.
            self.script
                .comment("fold the identity slice of the result (no patterns: folders only)");
            let location = self.at(pack.span);
            self.apply_patterns_at(&self.functions(), &[], false, location);
            self.plan_pack_copy(&padded, pack.operand, map, region, location);
            *handle = padded;
            self.transformed = true;
        }
    }

    /// Plans a pack whose copy moves axis `axis` of the operand innermost:
    /// `sched.relayout_operand` copies the tile with a `linalg.transpose`
    /// and permutes the op's map of it (`handle` stays the op); the copy is
    /// then tiled and vectorized so that each piece is one `vector.transpose`
    /// of up to 16 × 16, which the lowering turns into AVX-512 shuffles.
    /// `shape` is the operand's tile, unknown when it is read through
    /// expressions (the copy is then left whole).
    fn plan_relayout(
        &mut self,
        pack: &OperandAtLoop,
        axis: usize,
        name: &str,
        at: &str,
        handle: &str,
        shape: Option<Vec<i64>>,
    ) {
        let (operand, location) = (pack.operand, self.at(pack.span));
        let copy = self.script.fresh("relayout");
        self.script.comment(format!("pack: {} copied once per iteration of {at}, its axis {axis} innermost (the op reads the copy through a permuted map)", pack.label(name)));
        self.script.op(
            format!("%{copy} = transform.sched.relayout_operand %{handle} input {operand} axis {axis} : ({ANY_OP}) -> {ANY_OP}"),
            location,
        );
        self.transformed = true;
        let Some(mut shape) = shape else {
            self.script
                .comment("the copy's shape is not known here: it is left whole");
            return;
        };
        // The copy's shape: the tile's, with the axis moved last.
        let moved = shape.remove(axis);
        shape.push(moved);
        // Blocks of up to 16 x 16: the largest powers of two dividing the
        // last two axes (the moved one last), every other axis one at a time.
        let n = shape.len();
        let block = |extent: i64| {
            [16, 8, 4, 2]
                .into_iter()
                .find(|b| extent % b == 0)
                .unwrap_or(1)
        };
        let (rows, columns) = (block(shape[n - 2]), block(moved));
        self.script.comment(format!(
            "the copy in blocks of {rows} x {columns}, each one vector transpose"
        ));
        let tile: Vec<i64> = std::iter::repeat_n(1, n - 2)
            .chain([rows, columns])
            .collect();
        self.copy_in_pieces(&copy, "block", &shape, &tile, location);
    }

    /// Makes the copy of a pack row by row (its ops located at the `pack`): the nofold pad feeding operand
    /// `operand` of `padded` is tiled to single rows (`1 x ... x 1 x W`) and
    /// each row vectorized, which folds to a contiguous row copy (a `memcpy`
    /// of `W` elements). Left whole, the pad bufferizes to a zero fill of the
    /// buffer and an element-by-element strided copy, several times slower.
    /// Needs the operand's tile shape, static and read through plain
    /// dimensions; otherwise the pad is left whole (correct, only slower).
    fn plan_pack_copy(
        &mut self,
        padded: &str,
        operand: usize,
        map: &[MapResult],
        region: &[Option<i64>],
        location: Option<(usize, usize)>,
    ) {
        let shape = tile_shape(map, region);
        let Some(shape) = shape.filter(|s| !s.is_empty()) else {
            self.script
                .comment("the packed tile's shape is not static: the pad is copied whole");
            return;
        };
        self.script.comment(format!("copy the packed tile row by row (rows of {} elements, each one vector, so each folds to a contiguous copy)", shape[shape.len() - 1]));
        // The pad handle also holds the pads of partial tiles of other operands: take this operand's.
        let pad = self.script.fresh("pack_copy");
        self.script.op(format!("%{pad} = transform.get_producer_of_operand %{padded}[{operand}] : ({ANY_OP}) -> {ANY_OP}"), location);
        // Unit tiles of every dimension but the last, which stays whole.
        let tile: Vec<i64> = std::iter::repeat_n(1, shape.len() - 1).chain([0]).collect();
        self.copy_in_pieces(&pad, "row", &shape, &tile, location);
    }

    /// Tiles the copy op `copy` (of result shape `shape`) by `tile` (0: the
    /// dimension stays whole, no loop) and vectorizes each piece, named
    /// `{copy}_{piece}`, whole: one vector op per piece.
    fn copy_in_pieces(
        &mut self,
        copy: &str,
        piece: &str,
        shape: &[i64],
        tile: &[i64],
        location: Option<(usize, usize)>,
    ) {
        let mut each = copy.to_string();
        let tiled = tile.iter().filter(|&&t| t != 0).count();
        if tiled > 0 {
            each = self.script.fresh(&format!("{copy}_{piece}"));
            let loops: Vec<String> = (0..tiled)
                .map(|_| self.script.fresh(&format!("{copy}_loop")))
                .collect();
            let sizes: Vec<String> = tile.iter().map(i64::to_string).collect();
            self.tile_using_for(&each, &loops, copy, &sizes, location);
        }
        let vector: Vec<String> = tile
            .iter()
            .zip(shape)
            .map(|(&t, &extent)| if t == 0 { extent } else { t }.to_string())
            .collect();
        self.script.op(
            format!(
                "transform.structured.vectorize %{each} vector_sizes [{}] : {ANY_OP}",
                vector.join(", ")
            ),
            location,
        );
    }

    /// Reports the packs of a stage that no materialized loop took.
    pub(super) fn report_unplanned_packs(&mut self, func: usize, stage_index: usize, nest: &Nest) {
        let stage = &self.model.funcs[func].stages[stage_index];
        let name = self.stage_name(func, stage_index);
        let (loops, first_implicit, vector_mode) =
            (nest.loops, nest.first_implicit, nest.vector_mode);
        for (index, pack) in stage.packs.iter().enumerate() {
            if !self.packed.contains(&(func, stage_index, index)) {
                let at = &pack.loop_name;
                let why = match loops.iter().position(|l| l.visible_name() == *at) {
                    Some(i) if i >= first_implicit && vector_mode => format!(
                        "`{at}` stays inside the vector op, so it is not a loop of the generated \
                         code"
                    ),
                    Some(i) if i >= first_implicit => format!(
                        "`{at}` is left to the op itself (innermost unit-step loops in the op's \
                         dimension order are not tiled), so it is not a loop of the generated code"
                    ),
                    Some(_) => {
                        format!(
                            "`{at}` has one iteration, so it is not a loop of the generated code"
                        )
                    }
                    None => format!(
                        "`{at}` is tiled together with the loops inside it into one loop nest, so \
                         no copy can be placed between them"
                    ),
                };
                self.errors.push(
                    Diagnostic::error(
                        "pack-unplannable",
                        pack.span,
                        format!(
                            "cannot pack `in{}` of `{name}` at `{at}`: {why}",
                            pack.written
                        ),
                    )
                    .with_help(
                        "pack at a loop that is materialized: the innermost loop of a tiling run \
                         (e.g. the `compute_at` loop) or an outer one that is tiled on its own",
                    ),
                );
            }
        }
    }
}
