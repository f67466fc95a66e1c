//! The edges of an offloaded op (`accelerate(target[, loop], edges)`): where
//! a dimension is not a multiple of the target's native tile, the last tiles
//! are partial. `partial` (the default) hands them to the kernel as they are;
//! `pad` pads each tile op with zeros to the native tile (`structured.pad`,
//! the result copied back with `linalg.copy`: the default copy-back op,
//! `bufferization.materialize_in_destination`, crashed in-process), so every
//! call is a whole tile; `split` cuts the op at the last whole tile of m, n
//! and k (`structured.split`), offloads the part of whole tiles and leaves
//! the edges to generated code.

use super::accelerate::Offload;
use super::{Planner, Region};
use crate::script::ANY_OP;
use schedule_lang::Diagnostic;

impl Planner<'_> {
    /// `edges = split`: splits the op at the last whole native tile of each
    /// of m, n and k (`structured.split`); the parts past it stay generated
    /// code. Returns the handle to the part of whole tiles, or `None` after
    /// an error.
    pub(super) fn split_off_edges(
        &mut self,
        func: usize,
        handle: &str,
        offload: &Offload,
        region: &Region,
    ) -> Option<String> {
        let span = offload
            .directive
            .edges_span
            .unwrap_or(offload.directive.span);
        let location = self.at(span);
        let native = offload.target.tile;
        let mut whole = handle.to_string();
        for (dim, size) in [
            (offload.m, native.m),
            (offload.n, native.n),
            (offload.k, native.k),
        ] {
            let name = offload.dim_names[dim];
            let Some(extent) = region[dim] else {
                self.errors.push(
                    Diagnostic::error(
                        "accelerate-split",
                        span,
                        format!("`split` needs a static extent of `{name}`, and its tiles here are partial or dynamic"),
                    )
                    .with_help("split the loops outside by factors that divide the extent, or write `pad`"),
                );
                return None;
            };
            let size = size as i64;
            if extent < size {
                self.errors.push(
                    Diagnostic::error(
                        "accelerate-split",
                        span,
                        format!(
                            "`{name}` has {extent} elements here, less than one native tile ({size}): \
                             nothing would be offloaded"
                        ),
                    )
                    .with_help("write `partial` or `pad`"),
                );
                return None;
            }
            let cut = extent - extent % size;
            if cut == extent {
                continue;
            }
            let stage_name = &self.model.funcs[func].name;
            self.script.comment(format!(
                "{stage_name}: {name} after {cut} (whole {size}-element tiles) to the accelerator, the \
                 {} left to generated code",
                extent - cut
            ));
            let (first, rest) = (
                self.script.fresh(&format!("{stage_name}_whole")),
                self.script.fresh(&format!("{stage_name}_edge")),
            );
            let parts = self.script.fresh(&format!("{stage_name}_parts"));
            self.script.op(
                format!(
                    "%{parts} = transform.structured.split %{whole} after {cut} {{dimension = {dim}}} : {ANY_OP}"
                ),
                location,
            );
            self.script.op(
                format!(
                    "%{first}, %{rest} = transform.split_handle %{parts} : ({ANY_OP}) -> ({ANY_OP}, {ANY_OP})"
                ),
                None,
            );
            whole = first;
        }
        Some(whole)
    }

    /// `edges = pad`: pads the tile op with zeros to a multiple of the native
    /// tile (`structured.pad`, the result copied back); returns the padded op.
    pub(super) fn pad_to_native(
        &mut self,
        func: usize,
        stage_index: usize,
        tile: &str,
        native_sizes: &[usize],
        location: Option<(usize, usize)>,
    ) -> String {
        let op = &self.payload.ops[self.model.funcs[func].stages[stage_index].op];
        let zeros: Vec<String> = op
            .operands
            .iter()
            .map(|o| {
                if o.element.starts_with('f') {
                    format!("0.0 : {}", o.element)
                } else {
                    format!("0 : {}", o.element)
                }
            })
            .collect();
        let dims: Vec<String> = (0..native_sizes.len()).map(|d| d.to_string()).collect();
        let multiples: Vec<String> = native_sizes.iter().map(usize::to_string).collect();
        let name = self.model.funcs[func].name.clone();
        self.script.comment(format!(
            "{name}: partial tiles padded with zeros to the native tile"
        ));
        let (padded, pad, copy) = (
            self.script.fresh(&format!("{name}_padded")),
            self.script.fresh("pad"),
            self.script.fresh("copy_back"),
        );
        self.script.op(
            format!(
                "%{padded}, %{pad}, %{copy} = transform.structured.pad %{tile} pad_to_multiple_of [{}] \
                 {{padding_values = [{}], padding_dimensions = [{}], copy_back_op = \"linalg.copy\"}} : ({ANY_OP}) -> ({ANY_OP}, {ANY_OP}, {ANY_OP})",
                multiples.join(", "),
                zeros.join(", "),
                dims.join(", ")
            ),
            location,
        );
        padded
    }
}
