// The transform ops sched-apply adds to MLIR's transform dialect, for
// directives no upstream op can express, and in place of upstream ops that
// grow quadratically with a model's length. `build.rs` runs mlir-tblgen on
// this file; `reuse.cpp`, `sliding.cpp`, `fuse.cpp`, `cse.cpp`, `union.cpp`,
// `reshapes.cpp`, `relayout.cpp` and `strided.cpp` implement the ops, and `reuse.cpp`
// registers them.

#ifndef SCHED_TRANSFORM_OPS
#define SCHED_TRANSFORM_OPS

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def ReuseBufferOp : TransformDialectOp<"sched.reuse_buffer",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "A reuse buffer (HeteroCL's reuse_at) of a structured op's inputs at an scf.for";
  let description = [{
    `target` is one structured op inside the `scf.for` `loop`; its input
    at position `input` reads a tile (a `tensor.extract_slice`, through any
    number of them) of a tensor defined outside the loop. Every input of
    the op that reads a tile of the same tensor is buffered with it; their
    offsets must differ by constants and move by the same number of elements
    along one dimension at every iteration. The loop gets a buffer of the tiles' union (their rectangular
    hull) as an iteration argument: before the loop it holds what the first
    iteration shares with the one before it; every iteration shifts it by
    that step, extracts only the new elements from the tensor, and the
    operands read their tiles from the buffer. Applied to a loop inside
    another one that has a buffer of the same tensor, the new buffer is
    filled from the outer one (a window buffer in a line buffer).

    Reads both handles; the loop is replaced by one with the extra
    iteration argument (handles to it are updated).
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       TransformHandleTypeInterface:$loop,
                       I64Attr:$input);
  let results = (outs);
  let assemblyFormat = [{
    $target `input` $input `at` $loop attr-dict `:` type($target) `,` type($loop)
  }];
}

def SlidingWindowOp : TransformDialectOp<"sched.sliding_window",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "Halide's sliding window (store_at + compute_at) on a reuse buffer";
  let description = [{
    The reuse buffer of `sched.reuse_buffer` (same `target`, `input` and
    `loop`, same conditions), where the buffered tensor is computed by the
    `producers` (a func: its op, or its init and update ops, each handle
    one op) instead of read: the part the first iteration shares with the
    one before it is computed before the loop, and every iteration
    computes only the step's new elements, into the buffer. The producers
    are tiled there (through their chain of inits) and erased once unused.

    Consumes the producer handles. Returns, per producer in order, the
    tiles computed before the loop, then, per producer in order, the tiles
    computed in it (`2 * N` handles for `N` producers).
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       TransformHandleTypeInterface:$loop,
                       I64Attr:$input,
                       Variadic<TransformHandleTypeInterface>:$producers);
  let results = (outs Variadic<TransformHandleTypeInterface>:$computed);
  let assemblyFormat = [{
    $target `input` $input `at` $loop `computing` $producers attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def FuseIntoOp : TransformDialectOp<"sched.fuse_into",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "compute_at's fusion of producers into a loop that reads them";
  let description = [{
    Computes each op of `producer` inside `loop` (an `scf.forall` or
    `scf.for`) at every use there, as upstream's
    `transform.structured.fuse_into_containing_op` does: where the loop
    reads a `tensor.extract_slice` of a result, the producer is tiled to
    that slice (and when the result is also read after an `scf.forall`,
    the loop gets a shared output the tiles are inserted into, read
    instead); where the loop's shared output is the result, the tile is
    computed into the slice the body reads; any other use gets a clone.
    Unlike upstream's op it prints nothing unless it fails, so fusing
    many producers into one loop costs time linear in their number.

    Consumes `producer`; returns the fused tiles and clones, and the loop
    (a new one when it got a shared output; handles to the old one follow).
  }];
  let arguments = (ins TransformHandleTypeInterface:$producer,
                       TransformHandleTypeInterface:$loop);
  let results = (outs TransformHandleTypeInterface:$fused,
                      TransformHandleTypeInterface:$new_loop);
  let assemblyFormat = [{
    $producer `into` $loop attr-dict `:` functional-type(operands, results)
  }];
}

def UnionSlicesOp : TransformDialectOp<"sched.union_slices",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "Halide's bounds union: a producer's slices in a loop, read through one covering slice";
  let description = [{
    In each block inside `loop`, the `tensor.extract_slice`s of one result
    of `producer` (unit strides, the source's rank, static sizes, offsets
    that differ by constants) become slices of one slice that covers them
    all (their rectangular hull, taken before the first), when the hull has
    no more elements than the slices together. Fusing the producer into
    the loop then computes the hull once, where it computed each slice on
    its own (a stencil's overlapping rows once per tap). Other slices are
    left as they are.

    Reads both handles.
  }];
  let arguments = (ins TransformHandleTypeInterface:$producer,
                       TransformHandleTypeInterface:$loop);
  let results = (outs);
  let assemblyFormat = [{
    $producer `in` $loop attr-dict `:` type($producer) `,` type($loop)
  }];
}

def SliceThroughReshapesOp : TransformDialectOp<"sched.slice_through_reshapes",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "compute_at through a reshape: slices of a producer's reshape inside a loop, taken before it";
  let description = [{
    Each `tensor.extract_slice` inside `loop` of a `tensor.collapse_shape`
    or `tensor.expand_shape` of a result of `producer` (through any chain
    of them, inside the loop or around it) becomes the same reshape of a slice of its source, when that
    slice is a rectangle: whole inner dimensions of each regrouped
    dimension, at offsets that are multiples of them (constants, affine
    expressions, or loop induction variables whose bounds and steps are).
    The producer can then be fused into the slice. A slice that is no
    rectangle is a silenceable error, with the reshape as a note.

    Reads both handles.
  }];
  let arguments = (ins TransformHandleTypeInterface:$producer,
                       TransformHandleTypeInterface:$loop);
  let results = (outs);
  let assemblyFormat = [{
    $producer `in` $loop attr-dict `:` type($producer) `,` type($loop)
  }];
}

def CseOp : TransformDialectOp<"sched.cse",
    [TransformOpInterface, TransformEachOpTrait,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "Common subexpressions of ops without regions, eliminated in the targets' bodies";
  let description = [{
    Inside the regions of each target op, replaces every op without
    regions or memory effects by an equal op before it (the same name,
    attributes, operands and result types, in its block or a block around
    it), and erases the ops whose results nothing reads, as upstream's
    `transform.apply_cse` does, except that ops with regions (loops) are
    never merged: upstream's looks them up by a hash that leaves their
    regions out, so many similar loops in one nest cost time quadratic in
    their number.

    Reads the target handle; handles to replaced ops are updated.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs);
  let assemblyFormat = "`to` $target attr-dict `:` type($target)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
      ::mlir::transform::TransformRewriter &rewriter,
      ::mlir::Operation *target,
      ::mlir::transform::ApplyToEachResultList &results,
      ::mlir::transform::TransformState &state);
  }];
}

def RelayoutOperandOp : TransformDialectOp<"sched.relayout_operand",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "A packed copy of a generic's input with one axis moved innermost";
  let description = [{
    Each `target` is a `linalg.generic` on tensors whose input at position
    `input` has a static shape. Right before it, the input is copied by a
    `linalg.transpose` into a fresh tensor whose axes are the input's with
    axis `axis` moved last (so what varies along it is contiguous), and the
    generic reads the copy instead: its indexing map for that input is
    permuted the same way, so it computes the same values.

    Reads the target handle (the generics are updated in place); returns
    the copies.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       I64Attr:$input,
                       I64Attr:$axis);
  let results = (outs TransformHandleTypeInterface:$copies);
  let assemblyFormat = [{
    $target `input` $input `axis` $axis attr-dict `:`
    functional-type(operands, results)
  }];
}

def SliceStridedReadsOp : TransformDialectOp<"sched.slice_strided_reads",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "A generic's inputs read with a stride, read through strided slices instead";
  let description = [{
    Each `target` is a `linalg.generic` on tensors. Every input whose
    indexing map has a result `c * d + k` (a loop dimension `d` with a
    static range, constants `c > 1` and `k >= 0`), and otherwise only
    dimensions and constants, is read through a `tensor.extract_slice`
    taking, along each such axis, the range of `d` with stride `c` from
    offset `k` (the whole of every other axis), and the map's result
    becomes `d`: the generic computes the same values, and its maps are
    projected permutations again, which MLIR's vectorizer needs (a
    convolution with stride 2, once its window loops are outside the tile).

    Reads the target handle (the generics are updated in place).
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

def FreshInitOp : TransformDialectOp<"sched.fresh_init",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "A fill's destination replaced by a new empty tensor";
  let description = [{
    Each `target` is a `linalg.fill` on tensors. Its destination becomes a
    `tensor.empty` of the same shape, placed just before it: a fill writes
    every element, so what it wrote into never mattered, and bufferization
    then gives it a buffer of its own. compute_at fuses a producer's zero
    init into its consumer's loop; when CSE had made the init and the
    consumer's output one empty tensor, the fused fill wrote into the
    consumer's output, so the producer's tile was computed there and copied
    out before the consumer overwrote it.

    Reads the target handle (the fills are updated in place).
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

#endif // SCHED_TRANSFORM_OPS
