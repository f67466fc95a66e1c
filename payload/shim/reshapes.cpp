// `transform.sched.slice_through_reshapes` (SchedTransformOps.td):
// compute_at through a reshape. A consumer that reads a producer through a
// `tensor.collapse_shape` or `expand_shape` takes, inside its loop, a slice
// of the reshape; fusion can only tile the producer to a slice of the
// producer's own result. Where the slice is a rectangle of the producer
// (whole inner dimensions of each regrouped dimension, at offsets that are
// multiples of them), it becomes the reshape of that rectangle, and the
// producer is then fused into the rectangle as into any slice.

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "SchedTransformOps.h.inc"

using namespace mlir;

namespace {

// Whether `value` is a multiple of `factor` for every value it takes: a
// constant, an affine.apply whose expression is, or a loop's induction
// variable with a lower bound and step that are.
bool multipleOf(OpFoldResult value, int64_t factor) {
  if (factor == 1)
    return true;
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return *constant % factor == 0;
  auto v = cast<Value>(value);
  if (auto apply = v.getDefiningOp<affine::AffineApplyOp>()) {
    // The expression a multiple whatever its operands (`d0 * 2`, not `d0 + 1`).
    AffineMap map = apply.getAffineMap();
    return map.getNumResults() == 1 && map.getResult(0).isMultipleOf(factor);
  }
  if (auto argument = dyn_cast<BlockArgument>(v)) {
    auto loop = dyn_cast<LoopLikeOpInterface>(argument.getOwner()->getParentOp());
    if (!loop)
      return false;
    auto ivs = loop.getLoopInductionVars();
    auto lowers = loop.getLoopLowerBounds();
    auto steps = loop.getLoopSteps();
    if (!ivs || !lowers || !steps)
      return false;
    for (auto [iv, lower, step] : llvm::zip(*ivs, *lowers, *steps))
      if (iv == v)
        return multipleOf(lower, factor) && multipleOf(step, factor);
  }
  return false;
}

// Whether `slice` has unit strides, a static shape and its source's rank.
bool plain(tensor::ExtractSliceOp slice) {
  return slice.hasUnitStride() && slice.getType().hasStaticShape() &&
         slice.getType().getRank() == slice.getSourceType().getRank();
}

// The slice of a collapse_shape's source whose collapse is `slice`, or
// failure when that is no rectangle.
LogicalResult throughCollapse(RewriterBase &rewriter,
                              tensor::ExtractSliceOp slice,
                              tensor::CollapseShapeOp collapse) {
  RankedTensorType source = collapse.getSrcType();
  if (!source.hasStaticShape() || !plain(slice))
    return failure();
  Location loc = slice.getLoc();
  rewriter.setInsertionPoint(slice);
  SmallVector<OpFoldResult> offsets, sizes;
  for (auto [d, group] : llvm::enumerate(collapse.getReassociationIndices())) {
    int64_t inner = 1;
    for (int64_t g : llvm::drop_begin(group))
      inner *= source.getDimSize(g);
    int64_t size = slice.getType().getDimSize(d);
    OpFoldResult offset = slice.getMixedOffsets()[d];
    if (size % inner != 0 || !multipleOf(offset, inner))
      return failure();
    AffineExpr outer = rewriter.getAffineSymbolExpr(0).floorDiv(inner);
    offsets.push_back(
        affine::makeComposedFoldedAffineApply(rewriter, loc, outer, {offset}));
    sizes.push_back(rewriter.getIndexAttr(size / inner));
    for (int64_t g : llvm::drop_begin(group)) {
      offsets.push_back(rewriter.getIndexAttr(0));
      sizes.push_back(rewriter.getIndexAttr(source.getDimSize(g)));
    }
  }
  SmallVector<OpFoldResult> strides(source.getRank(), rewriter.getIndexAttr(1));
  Value rectangle = tensor::ExtractSliceOp::create(
      rewriter, loc, collapse.getSrc(), offsets, sizes, strides);
  rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
      slice, slice.getType(), rectangle, collapse.getReassociationIndices());
  return success();
}

// The same through an expand_shape: each regrouped dimension's inner
// dimensions read whole.
LogicalResult throughExpand(RewriterBase &rewriter,
                            tensor::ExtractSliceOp slice,
                            tensor::ExpandShapeOp expand) {
  RankedTensorType result = expand.getResultType();
  if (!result.hasStaticShape() || !plain(slice))
    return failure();
  Location loc = slice.getLoc();
  rewriter.setInsertionPoint(slice);
  SmallVector<OpFoldResult> offsets, sizes;
  for (ReassociationIndices group : expand.getReassociationIndices()) {
    int64_t inner = 1;
    for (int64_t g : llvm::drop_begin(group)) {
      std::optional<int64_t> offset =
          getConstantIntValue(slice.getMixedOffsets()[g]);
      if (!offset || *offset != 0 ||
          slice.getType().getDimSize(g) != result.getDimSize(g))
        return failure();
      inner *= result.getDimSize(g);
    }
    AffineExpr outer = rewriter.getAffineSymbolExpr(0) * inner;
    offsets.push_back(affine::makeComposedFoldedAffineApply(
        rewriter, loc, outer, {slice.getMixedOffsets()[group.front()]}));
    sizes.push_back(
        rewriter.getIndexAttr(slice.getType().getDimSize(group.front()) * inner));
  }
  SmallVector<OpFoldResult> strides(offsets.size(), rewriter.getIndexAttr(1));
  Value rectangle = tensor::ExtractSliceOp::create(
      rewriter, loc, expand.getSrc(), offsets, sizes, strides);
  rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
      slice, slice.getType(), rectangle, expand.getReassociationIndices());
  return success();
}

} // namespace

DiagnosedSilenceableFailure
transform::SliceThroughReshapesOp::apply(transform::TransformRewriter &rewriter,
                                         transform::TransformResults &,
                                         transform::TransformState &state) {
  for (Operation *loop : state.getPayloadOps(getLoop())) {
    for (Operation *producer : state.getPayloadOps(getProducer())) {
      // Reshapes of the producer's results (through reshapes of those),
      // inside the loop or not; their slices inside it are rewritten, the
      // reshapes farthest from the producer first, so a chain of them ends
      // as slices of the producer.
      SmallVector<Operation *> reshapes;
      SmallVector<Value> worklist(producer->getResults());
      while (!worklist.empty()) {
        Value value = worklist.pop_back_val();
        for (Operation *user : value.getUsers())
          if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(user)) {
            reshapes.push_back(user);
            worklist.push_back(user->getResult(0));
          }
      }
      for (Operation *reshape : llvm::reverse(reshapes)) {
        for (Operation *user :
             llvm::make_early_inc_range(reshape->getResult(0).getUsers())) {
          auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
          if (!slice || !loop->isProperAncestor(slice))
            continue;
          LogicalResult done =
              isa<tensor::CollapseShapeOp>(reshape)
                  ? throughCollapse(rewriter, slice,
                                    cast<tensor::CollapseShapeOp>(reshape))
                  : throughExpand(rewriter, slice,
                                  cast<tensor::ExpandShapeOp>(reshape));
          if (failed(done)) {
            DiagnosedSilenceableFailure failure = emitSilenceableError()
                << "the part of the reshape one iteration reads is no "
                   "rectangle of the producer (a tile must cover whole inner "
                   "dimensions of each regrouped dimension)";
            failure.attachNote(reshape->getLoc()) << "the reshape";
            return failure;
          }
        }
      }
    }
  }
  return DiagnosedSilenceableFailure::success();
}

void transform::SliceThroughReshapesOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getProducerMutable(), effects);
  onlyReadsHandle(getLoopMutable(), effects);
  modifiesPayload(effects);
}
