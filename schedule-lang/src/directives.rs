//! The registry of scheduling directives: name, arguments, one-line summary,
//! and whether the planner can honour it yet. It feeds argument checking,
//! "did you mean", and `sched-apply --help`.

/// Every directive the language knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DirectiveKind {
    /// `split(d, outer, inner, factor)`.
    Split,
    /// `reorder(l0, l1, …)`, innermost first.
    Reorder,
    /// `compute_at(consumer, loop)`.
    ComputeAt,
    /// `store_at(consumer, loop)`: where a func computed at an inner loop keeps its values.
    StoreAt,
    /// `compute_root()`.
    ComputeRoot,
    /// `compute_inline()`.
    ComputeInline,
    /// `vectorize(loop[, width])`.
    Vectorize,
    /// `unroll(loop[, factor])`.
    Unroll,
    /// `tile(x, y, [xo, yo,] xi, yi, fx, fy)`.
    Tile,
    /// `fuse(inner, outer, fused)`.
    Fuse,
    /// `parallel(loop[, task_size])`.
    Parallel,
    /// `update()`: later directives schedule the update definition.
    Update,
    /// `rfactor(r, u)`: partial reductions over loop `r`, as a loop `u` over their results.
    Rfactor,
    /// `accelerate(target[, loop])`: hand matmul tiles to a GEMM accelerator.
    Accelerate,
    /// `reuse_at(input, loop)`: HeteroCL reuse buffer.
    ReuseAt,
    /// `buffer_at([func,] loop)`: HeteroCL write buffer.
    BufferAt,
    /// `pipeline(loop[, ii])`: mark a loop for pipelining by an HLS back end.
    Pipeline,
    /// `pack(inK, loop[, dim])`: BLIS-style packing of an input operand at a
    /// loop, perhaps with one axis moved innermost.
    Pack,
    /// `prefetch(inK, loop)`: prefetch an input's next tile at a loop.
    Prefetch,
}

/// What one argument position accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// An existing loop of the func.
    Loop,
    /// A name for a new loop.
    NewLoop,
    /// A func name.
    Func,
    /// A positive integer.
    Int,
    /// Any name (targets, operands) checked by the directive itself.
    Name,
}

/// Static facts about a directive.
#[derive(Clone, Copy, Debug)]
pub struct DirectiveInfo {
    /// Which directive.
    pub kind: DirectiveKind,
    /// The name used in `.sched` files.
    pub name: &'static str,
    /// The call as documented.
    pub signature: &'static str,
    /// What it does, in one line.
    pub summary: &'static str,
    /// The accepted argument lists (each one alternative arity).
    pub forms: &'static [&'static [ArgKind]],
    /// For `reorder`: any number (two or more) of loops.
    pub variadic: bool,
    /// Whether the planner can turn it into transform ops yet.
    pub planned: bool,
}

use ArgKind::*;

/// All directives, in the order `--help` lists them.
pub const DIRECTIVES: &[DirectiveInfo] = &[
    DirectiveInfo {
        kind: DirectiveKind::Split,
        name: "split",
        signature: "split(d, outer, inner, factor)",
        summary: "strip-mine loop d into outer and inner loops, inner of `factor` iterations",
        forms: &[&[Loop, NewLoop, NewLoop, Int]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::Reorder,
        name: "reorder",
        signature: "reorder(l0, l1, ...)",
        summary: "order the listed loops, innermost first (as in Halide)",
        forms: &[],
        variadic: true,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::ComputeAt,
        name: "compute_at",
        signature: "compute_at(consumer, loop)",
        summary: "compute this func inside `loop` of `consumer`, fusing it into that loop",
        forms: &[&[Func, Loop]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::StoreAt,
        name: "store_at",
        signature: "store_at(consumer, loop)",
        summary: "with `compute_at(consumer, inner)` at the loop just inside `loop`: keep this \
            func's values from one iteration of `inner` to the next (Halide's sliding window), so \
            each iteration computes only the rows the previous one did not",
        forms: &[&[Func, Loop]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::ComputeRoot,
        name: "compute_root",
        signature: "compute_root()",
        summary: "compute this func in its own loop nest (the default)",
        forms: &[&[]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::ComputeInline,
        name: "compute_inline",
        signature: "compute_inline()",
        summary: "fuse this elementwise func into every op that reads it, recomputed per use \
            (Halide's default; ours is compute_root)",
        forms: &[&[]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::Vectorize,
        name: "vectorize",
        signature: "vectorize(l[, width])",
        summary: "vectorize loop l; with `width`, split it first and vectorize the inner part",
        forms: &[&[Loop], &[Loop, Int]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::Unroll,
        name: "unroll",
        signature: "unroll(l[, factor])",
        summary: "unroll loop l fully; with `factor`, split it first and unroll the inner part",
        forms: &[&[Loop], &[Loop, Int]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::Tile,
        name: "tile",
        signature: "tile(x, y, [xo, yo,] xi, yi, fx, fy)",
        summary: "split x and y; the loops run yo, xo, yi, xi, outermost first (as in Halide)",
        forms: &[
            &[Loop, Loop, NewLoop, NewLoop, NewLoop, NewLoop, Int, Int],
            &[Loop, Loop, NewLoop, NewLoop, Int, Int],
        ],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::Fuse,
        name: "fuse",
        signature: "fuse(inner, outer, fused)",
        summary: "fuse two adjacent loops into one; two whole loops over one run of elements become one dimension a split can cut",
        forms: &[&[Loop, Loop, NewLoop]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::Parallel,
        name: "parallel",
        signature: "parallel(l[, task_size])",
        summary: "run loop l's iterations in parallel (scf.forall); with `task_size`, split first",
        forms: &[&[Loop], &[Loop, Int]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::Update,
        name: "update",
        signature: "update()",
        summary: "the directives that follow schedule the func's update definition",
        forms: &[&[]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::Rfactor,
        name: "rfactor",
        signature: "rfactor(r, u)",
        summary: "compute a partial reduction per iteration of reduction loop `r` (renamed `u`, \
            which may then run in parallel), then combine the partial results; `u` must be \
            outermost",
        forms: &[&[Loop, NewLoop]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::Accelerate,
        name: "accelerate",
        signature: "accelerate(target[, loop][, edges])",
        summary: "hand the contraction's tiles to a GEMM accelerator: in its native tiles, or one \
            call per iteration of `loop`; edge tiles `partial` (default), `pad`ded to the native \
            tile, or `split` off to the CPU",
        forms: &[&[Name], &[Name, Name], &[Name, Name, Name]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::ReuseAt,
        name: "reuse_at",
        signature: "reuse_at(input, loop)",
        summary: "HeteroCL's reuse buffer: keep what this func reads of `input` (`inK`, or the \
            func producing it) inside `loop` from one iteration to the next, shift it by what the \
            loop moves, and read only the new elements; again at an inner loop, a window buffer \
            filled from it",
        forms: &[&[Name, Loop]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::BufferAt,
        name: "buffer_at",
        signature: "buffer_at([func,] loop)",
        summary: "HeteroCL's write buffer: once per iteration of `loop`, copy this func's output \
            tile into a local buffer, accumulate there, and write it back once (`func`, if given, \
            is this func)",
        forms: &[&[Loop], &[Func, Loop]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::Pipeline,
        name: "pipeline",
        signature: "pipeline(l[, ii])",
        summary: "mark loop l for pipelining with initiation interval ii (default 1) by an HLS \
            back end: the loop carries `sched.pipeline = ii`; on a CPU it changes nothing (a note \
            says so)",
        forms: &[&[Loop], &[Loop, Int]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::Pack,
        name: "pack",
        signature: "pack(inK, loop[, dim])",
        summary: "copy the op's K-th input, as read inside `loop`, into a contiguous buffer once \
            per iteration of `loop` (BLIS packing); with `dim`, its axis indexed by `dim` stored \
            innermost, so a vector along `dim` reads contiguously",
        forms: &[&[Name, Name], &[Name, Name, Name]],
        variadic: false,
        planned: true,
    },
    DirectiveInfo {
        kind: DirectiveKind::Prefetch,
        name: "prefetch",
        signature: "prefetch(inK, loop)",
        summary:
            "at the start of each iteration of `loop`, prefetch what the op reads of its K-th \
            input in the next one",
        forms: &[&[Name, Name]],
        variadic: false,
        planned: true,
    },
];

/// Looks a directive up by its name.
pub fn lookup(name: &str) -> Option<&'static DirectiveInfo> {
    DIRECTIVES.iter().find(|d| d.name == name)
}

/// The facts about a directive kind.
pub fn info(kind: DirectiveKind) -> &'static DirectiveInfo {
    DIRECTIVES
        .iter()
        .find(|d| d.kind == kind)
        .expect("every kind is in DIRECTIVES")
}
