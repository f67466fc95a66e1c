// Shared by the rewrites that need an op as a `linalg.generic`
// (`inline.cpp`, `collapse.cpp`).

#ifndef SCHED_SHIM_GENERIC_H
#define SCHED_SHIM_GENERIC_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

// `op` as a linalg.generic: itself, or generalized in its place with its
// discardable attributes (but the named op's cache of its indexing maps,
// which would misdescribe the generic's once fusion changes them).
inline mlir::FailureOr<mlir::linalg::GenericOp> asGeneric(mlir::RewriterBase &rewriter,
                                                        mlir::Operation *op) {
  using namespace mlir;
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return generic;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return failure();
  SmallVector<NamedAttribute> kept;
  for (NamedAttribute attribute : op->getDiscardableAttrs())
    if (attribute.getName() !=
        linalg::LinalgDialect::kMemoizedIndexingMapsAttrName)
      kept.push_back(attribute);
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::GenericOp> generic =
      linalg::generalizeNamedOp(rewriter, linalgOp);
  if (failed(generic))
    return failure();
  for (NamedAttribute attribute : kept)
    (*generic)->setDiscardableAttr(attribute.getName(), attribute.getValue());
  return generic;
}

#endif
