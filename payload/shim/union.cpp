// `transform.sched.union_slices` (SchedTransformOps.td): Halide's bounds
// union for a producer read through several slices. A consumer that reads
// a producer through shifted `tensor.extract_slice`s (a stencil's rows)
// takes one slice per tap inside its loop, and fusing the producer there
// computes each slice on its own: an 8-row strip of a 3-row blur computes
// 3 × 8 rows where 10 cover them. Here the slices of one block become
// slices of one slice covering them all, so the fusion computes that once.

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

#define GET_OP_CLASSES
#include "SchedTransformOps.h.inc"

using namespace mlir;

namespace {

// `to - from` when it is a constant.
std::optional<int64_t> constantDelta(OpFoldResult from, OpFoldResult to) {
  std::optional<int64_t> first = getConstantIntValue(from);
  std::optional<int64_t> second = getConstantIntValue(to);
  if (first && second)
    return *second - *first;
  if (first || second)
    return std::nullopt;
  FailureOr<int64_t> delta = ValueBoundsConstraintSet::computeConstantDelta(
      cast<Value>(to), cast<Value>(from));
  if (failed(delta))
    return std::nullopt;
  return *delta;
}

// Replaces `slices` (of one tensor, in one block, in block order) by slices
// of their rectangular hull, taken just before the first, when every one
// has unit strides, its source's rank and a static shape, their offsets
// differ by constants, and the hull has no more elements than they have
// together. Returns whether it did.
bool readThroughHull(RewriterBase &rewriter,
                     ArrayRef<tensor::ExtractSliceOp> slices) {
  tensor::ExtractSliceOp first = slices.front();
  int64_t rank = first.getSourceType().getRank();
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  SmallVector<SmallVector<int64_t>> shifts;
  int64_t elements = 0;
  for (tensor::ExtractSliceOp slice : slices) {
    if (!slice.hasUnitStride() || slice.getType().getRank() != rank ||
        !slice.getType().hasStaticShape())
      return false;
    SmallVector<int64_t> shift(rank);
    for (int64_t d = 0; d < rank; ++d) {
      std::optional<int64_t> delta = constantDelta(
          first.getMixedOffsets()[d], slice.getMixedOffsets()[d]);
      if (!delta)
        return false;
      shift[d] = *delta;
      low[d] = std::min(low[d], *delta);
      high[d] = std::max(high[d], *delta + slice.getType().getDimSize(d));
    }
    shifts.push_back(shift);
    elements += slice.getType().getNumElements();
  }
  int64_t hullElements = 1;
  for (int64_t d = 0; d < rank; ++d)
    hullElements *= high[d] - low[d];
  if (hullElements > elements)
    return false;

  Location loc = first.getLoc();
  rewriter.setInsertionPoint(first);
  SmallVector<OpFoldResult> offsets, sizes, strides(rank,
                                                    rewriter.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d) {
    AffineExpr at = rewriter.getAffineSymbolExpr(0) + low[d];
    offsets.push_back(affine::makeComposedFoldedAffineApply(
        rewriter, loc, at, {first.getMixedOffsets()[d]}));
    sizes.push_back(rewriter.getIndexAttr(high[d] - low[d]));
  }
  auto hull = tensor::ExtractSliceOp::create(rewriter, loc, first.getSource(),
                                             offsets, sizes, strides);
  for (auto [constSlice, shift] : llvm::zip(slices, shifts)) {
    tensor::ExtractSliceOp slice = constSlice;
    SmallVector<OpFoldResult> within;
    for (int64_t d = 0; d < rank; ++d)
      within.push_back(rewriter.getIndexAttr(shift[d] - low[d]));
    rewriter.setInsertionPoint(slice);
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        slice, slice.getType(), hull.getResult(), within, slice.getMixedSizes(),
        strides);
  }
  return true;
}

} // namespace

DiagnosedSilenceableFailure
transform::UnionSlicesOp::apply(transform::TransformRewriter &rewriter,
                                transform::TransformResults &,
                                transform::TransformState &state) {
  for (Operation *loop : state.getPayloadOps(getLoop())) {
    for (Operation *producer : state.getPayloadOps(getProducer())) {
      for (Value result : producer->getResults()) {
        // The slices of `result` inside the loop, by block, in block order.
        llvm::MapVector<Block *, SmallVector<tensor::ExtractSliceOp>> byBlock;
        for (Operation *user : result.getUsers())
          if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user))
            if (loop->isProperAncestor(slice))
              byBlock[slice->getBlock()].push_back(slice);
        for (auto &[block, slices] : byBlock) {
          if (slices.size() < 2)
            continue;
          llvm::sort(slices, [](tensor::ExtractSliceOp a,
                                tensor::ExtractSliceOp b) {
            return a->isBeforeInBlock(b);
          });
          readThroughHull(rewriter, slices);
        }
      }
    }
  }
  return DiagnosedSilenceableFailure::success();
}

void transform::UnionSlicesOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getProducerMutable(), effects);
  onlyReadsHandle(getLoopMutable(), effects);
  modifiesPayload(effects);
}
