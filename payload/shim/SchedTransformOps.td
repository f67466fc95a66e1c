// The transform ops sched-apply adds to MLIR's transform dialect, for
// directives no upstream op can express. `build.rs` runs mlir-tblgen on this
// file; `reuse.cpp` and `sliding.cpp` implement the ops, and `reuse.cpp`
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

#endif // SCHED_TRANSFORM_OPS
