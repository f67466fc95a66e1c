// `transform.sched.slice_strided_reads` (SchedTransformOps.td): a
// convolution or pooling with stride 2, tiled so its window loops are
// outside the tile and folded, reads its input at `2 * d`, which MLIR's
// vectorizer refuses (not a projected permutation). Read through a slice
// with stride 2, the same input is at `d`: the vector op reads the strided
// elements one by one (broadcast when vectorized along output channels).

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "SchedTransformOps.h.inc"

using namespace mlir;

namespace {

/// A map result `c * d + k` with constants `c > 1` and `k >= 0`.
struct StridedResult {
  unsigned dim;
  int64_t stride;
  int64_t offset;
};

/// `expr` as `c * d + k`, when it has that form with `c > 1`, `k >= 0`.
std::optional<StridedResult> asStrided(AffineExpr expr) {
  int64_t offset = 0;
  if (auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
      sum && sum.getKind() == AffineExprKind::Add) {
    auto constant = dyn_cast<AffineConstantExpr>(sum.getRHS());
    if (!constant || constant.getValue() < 0)
      return std::nullopt;
    offset = constant.getValue();
    expr = sum.getLHS();
  }
  auto product = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!product || product.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(product.getLHS());
  auto stride = dyn_cast<AffineConstantExpr>(product.getRHS());
  if (!dim || !stride || stride.getValue() <= 1)
    return std::nullopt;
  return StridedResult{dim.getPosition(), stride.getValue(), offset};
}

} // namespace

DiagnosedSilenceableFailure
transform::SliceStridedReadsOp::apply(transform::TransformRewriter &rewriter,
                                      transform::TransformResults &,
                                      transform::TransformState &state) {
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto generic = dyn_cast<linalg::GenericOp>(target);
    if (!generic || !generic.hasPureTensorSemantics())
      return emitSilenceableError()
             << "expected a linalg.generic on tensors, got " << target->getName();
    SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    bool changed = false;
    for (OpOperand *operand : generic.getDpsInputOperands()) {
      AffineMap map = maps[operand->getOperandNumber()];
      SmallVector<std::optional<StridedResult>> strided;
      bool any = false, plain = true;
      for (AffineExpr result : map.getResults()) {
        strided.push_back(asStrided(result));
        any |= strided.back().has_value();
        plain &= strided.back().has_value() || isa<AffineDimExpr>(result) ||
                 isa<AffineConstantExpr>(result);
      }
      if (!any || !plain)
        continue;
      auto type = dyn_cast<RankedTensorType>(operand->get().getType());
      if (!type || !type.hasStaticShape())
        return emitSilenceableError()
               << "the strided input's tile has no static shape ("
               << operand->get().getType()
               << "): choose split factors that divide the extents";
      SmallVector<OpFoldResult> offsets, sizes, strides;
      SmallVector<AffineExpr> results;
      for (auto [axis, result] : llvm::enumerate(map.getResults())) {
        const std::optional<StridedResult> &s = strided[axis];
        if (!s) {
          offsets.push_back(rewriter.getIndexAttr(0));
          sizes.push_back(rewriter.getIndexAttr(type.getDimSize(axis)));
          strides.push_back(rewriter.getIndexAttr(1));
          results.push_back(result);
          continue;
        }
        int64_t range = ranges[s->dim];
        if (ShapedType::isDynamic(range) ||
            s->offset + (range - 1) * s->stride >= type.getDimSize(axis))
          return emitSilenceableError()
                 << "input " << operand->getOperandNumber() << " is read with stride "
                 << s->stride << " beyond its axis " << axis << " of "
                 << type.getDimSize(axis) << " elements (or over a dynamic range)";
        offsets.push_back(rewriter.getIndexAttr(s->offset));
        sizes.push_back(rewriter.getIndexAttr(range));
        strides.push_back(rewriter.getIndexAttr(s->stride));
        results.push_back(rewriter.getAffineDimExpr(s->dim));
      }
      rewriter.setInsertionPoint(generic);
      Value slice = tensor::ExtractSliceOp::create(
          rewriter, generic.getLoc(), operand->get(), offsets, sizes, strides);
      maps[operand->getOperandNumber()] =
          AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                         rewriter.getContext());
      rewriter.modifyOpInPlace(generic, [&] { operand->set(slice); });
      changed = true;
    }
    if (changed)
      rewriter.modifyOpInPlace(generic, [&] {
        generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
  }
  return DiagnosedSilenceableFailure::success();
}

void transform::SliceStridedReadsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}
