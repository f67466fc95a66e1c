// `fuse` of two whole loops (schedule-lang/src/collapse.rs, which states the
// rule and describes the op after; keep the two in step): a linalg op's
// iteration dimensions `outer` and `outer + 1` become one dimension of
// extent their product. A dimension of extent 1 in an index sum counts as 0
// (a 1x1 window's `y + ky` is `y`); each operand both dimensions index, on
// neighbouring axes whose sizes are their extents, is reshaped with
// `tensor.collapse_shape` (an init that is a fill of an empty tensor is
// filled again at the new shape, so a schedule still fuses the fill), and
// each result expanded back for its readers. The op becomes a
// `linalg.generic` with the old one's discardable attributes.
//
// Upstream's `collapseOpIterationDims` does this for projected permutations
// only: a convolution's windows and a broadcast's constant indices stop it.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/PatternMatch.h"
#include "dead.h"
#include "generic.h"
#include "inits.h"

using namespace mlir;

namespace {

// One operand's indices after the collapse's first step (unit dimensions
// as 0), and where the two dimensions index it.
struct OperandPlan {
  SmallVector<AffineExpr> results;
  // The axis `outer` indexes, when both do (the next is `inner`'s).
  std::optional<int64_t> axis;
};

// The plan for `operand`, or nothing when the rule refuses it.
std::optional<OperandPlan> planOperand(linalg::LinalgOp op, OpOperand &operand,
                                       ArrayRef<int64_t> ranges, unsigned outer) {
  unsigned inner = outer + 1;
  MLIRContext *context = op->getContext();
  unsigned loops = ranges.size();
  SmallVector<AffineExpr> unitsAsZero;
  for (unsigned d = 0; d < loops; ++d)
    unitsAsZero.push_back(ranges[d] == 1 ? getAffineConstantExpr(0, context)
                                         : getAffineDimExpr(d, context));
  OperandPlan plan;
  std::optional<int64_t> outerAt, innerAt;
  for (auto [axis, result] : llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults())) {
    AffineExpr expr = result;
    if (!isa<AffineDimExpr>(expr))
      expr = simplifyAffineExpr(expr.replaceDims(unitsAsZero), loops, 0);
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      if (dim.getPosition() == outer)
        outerAt = axis;
      if (dim.getPosition() == inner)
        innerAt = axis;
    } else if (expr.isFunctionOfDim(outer) || expr.isFunctionOfDim(inner)) {
      return std::nullopt;
    }
    plan.results.push_back(expr);
  }
  if (!outerAt && !innerAt)
    return plan;
  if (!outerAt || !innerAt || *innerAt != *outerAt + 1)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(operand.get().getType());
  if (!type || type.getDimSize(*outerAt) != ranges[outer] ||
      type.getDimSize(*innerAt) != ranges[inner])
    return std::nullopt;
  plan.axis = *outerAt;
  return plan;
}

// The groups collapsing axes `axis` and `axis + 1` of a `rank`-axis tensor.
SmallVector<ReassociationIndices> pairAt(int64_t rank, int64_t axis) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t a = 0; a < rank; ++a) {
    if (a == axis + 1)
      continue;
    if (a == axis)
      groups.push_back({a, a + 1});
    else
      groups.push_back({a});
  }
  return groups;
}

// The plans for every operand of `op`, or nothing when the rule refuses it.
std::optional<SmallVector<OperandPlan>> planOp(linalg::LinalgOp op, unsigned outer) {
  unsigned inner = outer + 1;
  if (inner >= op.getNumLoops() || op.hasIndexSemantics() || !op.hasPureTensorSemantics())
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators[outer] != iterators[inner])
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ShapedType::isDynamic(ranges[outer]) || ShapedType::isDynamic(ranges[inner]))
    return std::nullopt;
  SmallVector<OperandPlan> plans;
  for (OpOperand &operand : op->getOpOperands()) {
    std::optional<OperandPlan> plan = planOperand(op, operand, ranges, outer);
    if (!plan)
      return std::nullopt;
    plans.push_back(*plan);
  }
  return plans;
}

} // namespace

// Collapses dimensions `outer` and `outer + 1` of the linalg op `raw`.
// Returns 0 when it did, 1 when the rule refuses the op (left untouched).
extern "C" int schedCollapseDims(MlirOperation raw, int64_t outer) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(unwrap(raw));
  if (!linalgOp || outer < 0)
    return 1;
  std::optional<SmallVector<OperandPlan>> plans = planOp(linalgOp, outer);
  if (!plans)
    return 1;
  IRRewriter rewriter(linalgOp->getContext());
  FailureOr<linalg::GenericOp> generalized = asGeneric(rewriter, linalgOp);
  if (failed(generalized))
    return 1;
  linalg::GenericOp generic = *generalized;
  MLIRContext *context = generic->getContext();
  unsigned inner = outer + 1, loops = generic.getNumLoops();
  SmallVector<AffineExpr> renumbered;
  for (unsigned d = 0; d < loops; ++d)
    renumbered.push_back(getAffineDimExpr(d > inner ? d - 1 : d, context));
  Location loc = generic.getLoc();
  rewriter.setInsertionPoint(generic);
  SmallVector<Value> inputs, outputs, oldInits;
  SmallVector<AffineMap> maps;
  SmallVector<Type> types;
  SmallVector<std::optional<SmallVector<ReassociationIndices>>> expand;
  for (auto [index, operand] : llvm::enumerate(generic->getOpOperands())) {
    OperandPlan &plan = (*plans)[index];
    Value value = operand.get();
    bool init = generic.isDpsInit(&operand);
    std::optional<SmallVector<ReassociationIndices>> groups;
    if (plan.axis) {
      auto type = cast<RankedTensorType>(value.getType());
      groups = pairAt(type.getRank(), *plan.axis);
      if (init) {
        oldInits.push_back(value);
        value = collapsedInit(rewriter, loc, value, type, *groups);
      } else {
        auto collapsedType = tensor::CollapseShapeOp::inferCollapsedType(type, *groups);
        value = tensor::CollapseShapeOp::create(rewriter, loc, collapsedType, value, *groups);
      }
      plan.results.erase(plan.results.begin() + *plan.axis + 1);
    }
    SmallVector<AffineExpr> results;
    for (AffineExpr expr : plan.results)
      results.push_back(expr.replaceDims(renumbered));
    maps.push_back(AffineMap::get(loops - 1, 0, results, context));
    if (init) {
      outputs.push_back(value);
      types.push_back(value.getType());
      expand.push_back(groups);
    } else {
      inputs.push_back(value);
    }
  }
  SmallVector<utils::IteratorType> iterators = generic.getIteratorTypesArray();
  iterators.erase(iterators.begin() + inner);
  auto collapsed =
      linalg::GenericOp::create(rewriter, loc, types, inputs, outputs, maps, iterators);
  collapsed.getRegion().takeBody(generic.getRegion());
  for (NamedAttribute attribute : generic->getDiscardableAttrs())
    collapsed->setAttr(attribute.getName(), attribute.getValue());
  for (auto [index, result] : llvm::enumerate(generic->getResults())) {
    Value value = collapsed->getResult(index);
    if (expand[index])
      value = tensor::ExpandShapeOp::create(rewriter, loc, result.getType(), value,
                                            *expand[index]);
    result.replaceAllUsesWith(value);
  }
  generic->erase();
  eraseDeadProducers(oldInits);
  return 0;
}
