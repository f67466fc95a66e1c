// The reuse buffer's rewrite (reuse.cpp), shared with the sliding window
// (sliding.cpp), which computes the new elements instead of reading them.

#ifndef SCHED_REUSE_H
#define SCHED_REUSE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include <string>

namespace sched {

// Where a reuse buffer takes elements from the buffered tensor: the slice
// read before the loop (the part the first iteration shares with the one
// before it), and the copy of each iteration's new elements into the buffer.
struct ReuseSites {
  mlir::tensor::ExtractSliceOp prologue;
  mlir::linalg::CopyOp refill;
};

// Rewrites `loop` to carry a reuse buffer of operand `input` of `op` (and of
// every input reading the same tensor); see `transform.sched.reuse_buffer`.
// When `producers` is not empty, the buffered tensor must be a result of one
// of them. On failure the payload is unchanged and `why` says why.
mlir::LogicalResult reuseBuffer(mlir::RewriterBase &rewriter,
                                mlir::scf::ForOp loop, mlir::Operation *op,
                                int64_t input,
                                llvm::ArrayRef<mlir::Operation *> producers,
                                ReuseSites &sites, std::string &why);

// The one `scf.for` and the one op the `loop` and `target` handles of
// `transformOp` hold, or a definite failure.
mlir::DiagnosedSilenceableFailure
loopAndTarget(mlir::Operation *transformOp,
              mlir::transform::TransformState &state, mlir::Value loopHandle,
              mlir::Value targetHandle, mlir::scf::ForOp &loop,
              mlir::Operation *&target);

} // namespace sched

#endif // SCHED_REUSE_H
