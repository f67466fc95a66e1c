// `transform.sched.relayout_operand` (SchedTransformOps.td): `pack(inK,
// loop, dim)`'s copy. BLIS and oneDNN copy an operand's tile into the layout
// their inner loop reads contiguously: a convolution vectorized over output
// channels reads FHWC weights with a stride of H·W·C floats per lane; packed
// with F innermost, each step reads one vector. The generic keeps computing
// the same values: only the map of the copied input is permuted.

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "SchedTransformOps.h.inc"

using namespace mlir;

DiagnosedSilenceableFailure
transform::RelayoutOperandOp::apply(transform::TransformRewriter &rewriter,
                                    transform::TransformResults &results,
                                    transform::TransformState &state) {
  SmallVector<Operation *> copies;
  int64_t input = getInput(), axis = getAxis();
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto generic = dyn_cast<linalg::GenericOp>(target);
    if (!generic || !generic.hasPureTensorSemantics())
      return emitSilenceableError()
             << "expected a linalg.generic on tensors, got " << target->getName();
    if (input >= generic.getNumDpsInputs())
      return emitSilenceableError() << "the op has no input " << input;
    OpOperand &operand = *generic.getDpsInputOperand(input);
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type || !type.hasStaticShape())
      return emitSilenceableError()
             << "the input's tile has no static shape (" << operand.get().getType()
             << "): choose split factors that divide the extents";
    int64_t rank = type.getRank();
    if (axis >= rank)
      return emitSilenceableError() << "the input has no axis " << axis;
    // The copy's axes: the input's, with `axis` moved last.
    SmallVector<int64_t> permutation;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        permutation.push_back(d);
    permutation.push_back(axis);
    SmallVector<int64_t> shape;
    for (int64_t d : permutation)
      shape.push_back(type.getDimSize(d));

    rewriter.setInsertionPoint(generic);
    Location loc = generic.getLoc();
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
    auto copy = linalg::TransposeOp::create(rewriter, loc, operand.get(), empty,
                                            permutation);
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    SmallVector<AffineExpr> permuted;
    for (int64_t d : permutation)
      permuted.push_back(map.getResult(d));
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    maps[operand.getOperandNumber()] =
        AffineMap::get(map.getNumDims(), map.getNumSymbols(), permuted,
                       rewriter.getContext());
    rewriter.modifyOpInPlace(generic, [&] {
      operand.set(copy->getResult(0));
      generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    copies.push_back(copy);
  }
  results.set(cast<OpResult>(getCopies()), copies);
  return DiagnosedSilenceableFailure::success();
}

void transform::RelayoutOperandOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}
