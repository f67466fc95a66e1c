//! The memory directives. `buffer_at(loop)`, HeteroCL's write buffer: once
//! per iteration of `loop`, the stage's output tile there is copied into a
//! local buffer, the op computes (accumulates) into that buffer, and the
//! buffer is copied back once. Planned like a pack of the output: right
//! after the tiling run that ends at `loop`, a `nofold` `structured.pad`
//! that pads nothing, on the init operand, with `copy_back_op =
//! "linalg.copy"`: bufferization gives the pad a fresh buffer and a copy in,
//! and the copy back writes the result tile once. The loops inside `loop`
//! are then tiled on the buffered op, so a reduction inside accumulates in
//! the buffer (with `reorder`, HeteroCL's interleaving accumulation).
//!
//! `reuse_at` is planned by [`super::reuse`], `store_at` by [`super::sliding`].

use super::nest::Nest;
use super::Planner;
use crate::script::ANY_OP;
use schedule_lang::Diagnostic;

impl Planner<'_> {
    /// Plans the stage's write buffer at loop `at`, now that the op
    /// (`handle`) is inside it; `region` is its tile there, which must be
    /// static (a padded partial tile would accumulate into padding).
    pub(super) fn plan_write_buffer(
        &mut self,
        func: usize,
        stage_index: usize,
        at: &str,
        handle: &mut String,
        region: &[Option<i64>],
    ) {
        let stage = &self.model.funcs[func].stages[stage_index];
        let Some(buffer) = stage.write_buffer.as_ref().filter(|b| b.loop_name == at) else {
            return;
        };
        let name = self.stage_name(func, stage_index);
        self.write_buffered.push((func, stage_index));
        if let Some(dim) = (0..stage.dims.len()).find(|&d| region[d].is_none()) {
            self.errors.push(
                Diagnostic::error(
                    "buffer-at-partial",
                    buffer.span,
                    format!(
                        "cannot buffer the output of `{name}` at `{at}`: the tile of `{}` there \
                         is partial or dynamic",
                        stage.dims[dim].name
                    ),
                )
                .with_help("choose split factors that divide the extents"),
            );
            return;
        }
        let op = &self.payload.ops[stage.op];
        let values: Vec<String> = op
            .operands
            .iter()
            .map(|o| crate::script::zero_attribute(&o.element))
            .collect();
        let dims: Vec<String> = (0..stage.dims.len()).map(|d| d.to_string()).collect();
        let nofold: Vec<&str> = op
            .operands
            .iter()
            .map(|o| if o.is_init { "1" } else { "0" })
            .collect();
        let buffered = self
            .script
            .fresh(&format!("{}_buffered", self.model.funcs[func].name));
        let pad = self.script.fresh("write_buffer");
        let copy = self.script.fresh("write_back");
        self.script.comment(format!(
            "buffer_at: the output tile of {name} in a local buffer once per iteration of {at}, \
             written back once (a nofold pad of the init, copied back)"
        ));
        self.script.op(
            format!(
                "%{buffered}, %{pad}, %{copy} = transform.structured.pad %{handle} {{padding_values = [{}], padding_dimensions = [{}], nofold_flags = [{}], copy_back_op = \"linalg.copy\"}} : ({ANY_OP}) -> ({ANY_OP}, {ANY_OP}, {ANY_OP})",
                values.join(", "),
                dims.join(", "),
                nofold.join(", ")
            ),
            self.at(buffer.span),
        );
        *handle = buffered;
        self.transformed = true;
    }

    /// Reports a write buffer no materialized loop took.
    pub(super) fn report_unplanned_write_buffer(
        &mut self,
        func: usize,
        stage_index: usize,
        nest: &Nest,
    ) {
        let stage = &self.model.funcs[func].stages[stage_index];
        let Some(buffer) = &stage.write_buffer else {
            return;
        };
        if self.write_buffered.contains(&(func, stage_index)) {
            return;
        }
        let name = self.stage_name(func, stage_index);
        let at = &buffer.loop_name;
        let why = nest.why_not_a_loop(at);
        self.errors.push(
            Diagnostic::error(
                "buffer-at-unplannable",
                buffer.span,
                format!("cannot buffer the output of `{name}` at `{at}`: {why}"),
            )
            .with_help(
                "buffer at a loop that is materialized: a split's outer loop, or a loop with \
                 others inside it",
            ),
        );
    }
}
