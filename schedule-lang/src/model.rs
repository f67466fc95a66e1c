//! The schedule model: per func, the bound payload ops and, per stage, the
//! loop nest as Halide sees it after split/reorder/tile, with vector, unroll
//! and parallel marks and the func's placement (`compute_at`). The planner
//! turns this into transform ops.

use crate::payload_info::{PayloadInfo, PayloadOp};
use crate::span::Span;

/// A resolved schedule: every func and what was asked of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    /// Funcs in declaration order.
    pub funcs: Vec<FuncModel>,
    /// Directives that have no effect (a `reorder` into the order the loops
    /// have, a mark on a loop of one iteration, ...), in source order.
    pub warnings: Vec<crate::Diagnostic>,
    /// What the schedule should know but need not fix (a `pipeline` mark
    /// changes nothing on a CPU), in source order.
    pub notes: Vec<crate::Diagnostic>,
    /// The loop nest of the stage each directive scheduled, right after it,
    /// in schedule order (`sched-apply explain` prints it).
    pub trace: Vec<TraceStep>,
}

/// One directive and the loop nest it left (Halide's `print_loop_nest`
/// after each step).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    /// The func (an index into [`Model::funcs`]).
    pub func: usize,
    /// The stage the directive scheduled (0: pure, 1: update).
    pub stage: usize,
    /// The directive call.
    pub span: Span,
    /// The stage's loops after it, outermost first.
    pub loops: Vec<Loop>,
}

/// One func: its stages (pure, then update) and where it is computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuncModel {
    /// The func's name.
    pub name: String,
    /// Where the func was declared.
    pub span: Span,
    /// The pure stage and, if bound, the update stage.
    pub stages: Vec<Stage>,
    /// Where the func is computed.
    pub placement: Placement,
    /// Where it keeps its values when computed at an inner loop of its
    /// consumer (`store_at`): a sliding window over that loop.
    pub stored_at: Option<StoredAt>,
}

/// A func's storage loop (`store_at`), just outside its `compute_at` loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAt {
    /// The consumer's loop the storage lives in.
    pub loop_name: String,
    /// The `store_at` call.
    pub span: Span,
}

/// Where a func's values are computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placement {
    /// In its own loop nest (`compute_root`, the default).
    Root,
    /// Inside loop `loop_name` of func `consumer` (an index into [`Model::funcs`]).
    At {
        /// The consuming func.
        consumer: usize,
        /// The consumer's loop.
        loop_name: String,
        /// The `compute_at` call.
        span: Span,
    },
    /// Fused into every op that reads it (`compute_inline`): it has no loops
    /// of its own, and its op is gone from the payload the planner sees.
    Inline {
        /// The `compute_inline` call.
        span: Span,
    },
}

/// One definition of a func, bound to one payload op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    /// The payload op's id ([`crate::PayloadOp::id`]).
    pub op: usize,
    /// True for the update definition.
    pub is_update: bool,
    /// The op's iteration dimensions, in linalg order.
    pub dims: Vec<Dim>,
    /// The loop nest, outermost first.
    pub loops: Vec<Loop>,
    /// The binding that created the stage.
    pub span: Span,
    /// The last `reorder` or `tile` that set the loop order, if any.
    pub order_span: Option<Span>,
    /// `pack(inK, loop[, dim])`: once per iteration of `loop`, copy the part
    /// of input K the stage reads inside it into a contiguous buffer, and
    /// read that instead (BLIS-style packing; the copy's layout follows the
    /// operand's, with `dim`'s axis moved innermost if given). In schedule
    /// order.
    pub packs: Vec<OperandAtLoop>,
    /// `prefetch(inK, loop)`: at the start of each iteration of `loop`,
    /// prefetch the part of input K the stage reads in the next iteration
    /// (Halide's `prefetch(input, loop, loop, 1)`). In schedule order.
    pub prefetches: Vec<OperandAtLoop>,
    /// `accelerate(target[, loop])`: the stage's tiles are computed by an
    /// accelerator's kernel instead of generated code.
    pub accelerate: Option<Accelerate>,
    /// `buffer_at(loop)`: HeteroCL's write buffer: once per iteration of
    /// `loop`, the stage's output tile there is copied into a local buffer,
    /// computed (accumulated) there, and written back once.
    pub write_buffer: Option<BufferAt>,
    /// `reuse_at(input, loop)`: HeteroCL's reuse buffers, in schedule order
    /// (an outer loop's first: applied again at an inner loop of the same
    /// input, the buffer is filled from the outer one).
    pub reuse_buffers: Vec<ReuseAt>,
    /// `fuse` of two whole loops made them one dimension of the op: the
    /// payload's collapse phase rewrites the op so (its rows and columns
    /// one run of pixels, say), in order; [`Stage::dims`] are the op's
    /// after, and [`Collapsed::op`] describes it.
    pub collapsed: Option<Collapsed>,
}

/// The op of a stage whose dimensions `fuse` collapsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collapsed {
    /// Each collapse, in order: the outer dimension (in the op as the
    /// collapses before left it) joined with the next one, and the `fuse`.
    pub steps: Vec<(usize, Span)>,
    /// The op as the payload describes it after the collapses.
    pub op: PayloadOp,
}

/// Where a stage's output is buffered (`buffer_at`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferAt {
    /// The stage's loop at which the buffer lives.
    pub loop_name: String,
    /// The loop argument.
    pub loop_span: Span,
    /// The directive call.
    pub span: Span,
}

/// A reuse buffer (`reuse_at`): what the stage reads of one tensor inside
/// a loop, kept from one iteration to the next, shifted by what the loop
/// moves, with only the new elements read from the tensor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReuseAt {
    /// An input (position among the op's inputs) reading the tensor; every
    /// input reading the same tensor shares the buffer.
    pub input: usize,
    /// The input argument as written (`in0`, or the producing func's name).
    pub input_name: String,
    /// The stage's loop at which the buffer lives.
    pub loop_name: String,
    /// The loop argument.
    pub loop_span: Span,
    /// The directive call.
    pub span: Span,
    /// For a sliding window (`store_at`), the func computing the tensor
    /// (an index into [`Model::funcs`]): the new elements are computed,
    /// not read.
    pub computing: Option<usize>,
}

/// Where and on what a stage is offloaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accelerate {
    /// The target's name (`sched-apply targets` lists them).
    pub target: String,
    /// The target argument.
    pub target_span: Span,
    /// One kernel call per iteration of this loop; `None`: the whole op, in
    /// tiles of the target's native shape.
    pub loop_name: Option<String>,
    /// The loop argument.
    pub loop_span: Option<Span>,
    /// What happens to the partial tiles at the edges.
    pub edges: Edges,
    /// The edge-policy argument, if one was given.
    pub edges_span: Option<Span>,
    /// The directive call.
    pub span: Span,
}

/// What `accelerate` does with the partial tiles at the edges of an op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edges {
    /// The kernel gets them as they are, smaller (the default).
    Partial,
    /// They are padded with zeros to the native tile, so every call is a full tile.
    Pad,
    /// They are split off and computed by generated code; only full tiles are offloaded.
    Split,
}

impl Edges {
    /// The names a schedule writes.
    pub const NAMES: [&'static str; 3] = ["partial", "pad", "split"];

    /// The policy a name writes, if any.
    pub fn from_name(name: &str) -> Option<Edges> {
        match name {
            "partial" => Some(Edges::Partial),
            "pad" => Some(Edges::Pad),
            "split" => Some(Edges::Split),
            _ => None,
        }
    }
}

/// A directive about one input operand at one loop (`pack`, `prefetch`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperandAtLoop {
    /// Position of the operand among the op's inputs (after an inline
    /// phase, among the fused op's).
    pub operand: usize,
    /// Its position as the schedule names it (`inK`), among the inputs of
    /// the op before inlining: what diagnostics say.
    pub written: usize,
    /// The loop: the stage's own, or its consumer's when the func is
    /// computed inside it.
    pub loop_name: String,
    /// The loop argument.
    pub loop_span: Span,
    /// `pack`'s optional dimension: the one its copy stores innermost.
    pub innermost: Option<Innermost>,
    /// The directive call.
    pub span: Span,
}

impl OperandAtLoop {
    /// The input of func `func` as the schedule names it (`in1 of mm`),
    /// and where it went when an inline phase moved it (`in1 of mm (input
    /// 2 of the fused op)`).
    pub fn label(&self, func: &str) -> String {
        if self.operand == self.written {
            format!("in{} of {func}", self.written)
        } else {
            format!(
                "in{} of {func} (input {} of the fused op)",
                self.written, self.operand
            )
        }
    }
}

/// The dimension a packed copy stores innermost (`pack(inK, loop, dim)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Innermost {
    /// The stage's dimension.
    pub dim: usize,
    /// The operand's axis indexed by it.
    pub axis: usize,
    /// The dimension argument.
    pub span: Span,
}

/// One iteration dimension of a stage's op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dim {
    /// The name given in the binding (or by the `fuse` that made it).
    pub name: String,
    /// True for a reduction dimension.
    pub reduction: bool,
    /// Static extent in the payload, if known.
    pub extent: Option<i64>,
    /// The binding's dimensions `fuse` made this one, outermost first;
    /// empty for a dimension of the op as bound.
    pub joined: Vec<String>,
}

/// One loop of a stage's nest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// The loop's name (split-generated inner loops of `vectorize(x, 16)` are `x.v`).
    pub name: String,
    /// The dimension it iterates.
    pub dim: usize,
    /// Elements of the dimension covered by one iteration.
    pub step: i64,
    /// Elements covered by the whole loop; `None`: the stage's whole extent.
    pub tile: Option<i64>,
    /// Where `vectorize` marked it.
    pub vectorize: Option<Span>,
    /// Where `unroll` marked it.
    pub unroll: Option<Span>,
    /// Where `parallel` marked it.
    pub parallel: Option<Span>,
    /// Where `rfactor` made it a loop over partial reductions: it iterates a
    /// reduction dimension, but its iterations are independent.
    pub rfactor: Option<Span>,
    /// Where `pipeline` marked it, with the initiation interval asked for.
    pub pipeline: Option<(Span, i64)>,
    /// Set when `fuse` joined it with its neighbours into one loop.
    pub fused: Option<Fused>,
    /// The directive (or binding) that created it.
    pub span: Span,
}

/// Membership in a fused loop: the adjacent loops that `fuse` joined all carry
/// the fused loop's name; only that name is visible to later directives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fused {
    /// The fused loop's name.
    pub name: String,
    /// The `fuse` call that made it.
    pub span: Span,
    /// Why the fused dimensions stay two loops of the op (joined after
    /// tiling, so no factor can split them): `fuse` of two whole loops
    /// collapses them into one dimension where [`crate::collapse`] allows.
    pub kept_apart: Option<String>,
}

impl Loop {
    /// The name directives use: the fused loop's name for a fused component.
    pub fn visible_name(&self) -> &str {
        self.fused.as_ref().map_or(&self.name, |f| &f.name)
    }

    /// Number of iterations, given the extent of the dimension in the stage's region.
    pub fn trip_count(&self, region_extent: Option<i64>) -> Option<i64> {
        let covered = self.tile.or(region_extent)?;
        Some((covered + self.step - 1) / self.step)
    }
}

impl Stage {
    /// Its op as `info` describes it, or as its collapses left it.
    pub fn op<'a>(&'a self, info: &'a PayloadInfo) -> &'a PayloadOp {
        self.collapsed
            .as_ref()
            .map_or(&info.ops[self.op], |c| &c.op)
    }

    /// The positions in [`Stage::loops`] of the loop directives call `name`:
    /// one loop, or the adjacent components of a fused loop.
    pub fn find_loop(&self, name: &str) -> Option<std::ops::Range<usize>> {
        let start = self.loops.iter().position(|l| l.visible_name() == name)?;
        let len = self.loops[start..]
            .iter()
            .take_while(|l| l.visible_name() == name)
            .count();
        Some(start..start + len)
    }

    /// The loops as directives see them, outermost first: each entry is the
    /// range of [`Stage::loops`] making up one (possibly fused) loop.
    pub fn visible_loops(&self) -> Vec<std::ops::Range<usize>> {
        let mut units: Vec<std::ops::Range<usize>> = Vec::new();
        for (i, l) in self.loops.iter().enumerate() {
            match units.last_mut() {
                Some(last)
                    if l.fused.is_some()
                        && self.loops[last.start].fused.as_ref().map(|f| &f.name)
                            == l.fused.as_ref().map(|f| &f.name) =>
                {
                    last.end = i + 1
                }
                _ => units.push(i..i + 1),
            }
        }
        units
    }
}
