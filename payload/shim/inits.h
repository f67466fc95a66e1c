// Shared by the rewrites that reshape an op's inits (`keepdims.cpp`,
// `collapse.cpp`): an init collapsed to a new shape, a fill of an empty
// tensor made again at that shape so it stays a fill a schedule can fuse.

#ifndef SCHED_SHIM_INITS_H
#define SCHED_SHIM_INITS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

// The init `value` without the dimensions `groups` collapse: a fill of an
// empty tensor is made again at the smaller shape (so the fill stays a fill
// a schedule can fuse), anything else is collapsed.
inline mlir::Value collapsedInit(mlir::OpBuilder &builder, mlir::Location loc,
                                 mlir::Value value, mlir::RankedTensorType type,
                                 llvm::ArrayRef<mlir::ReassociationIndices> groups) {
  using namespace mlir;
  auto collapsedType = tensor::CollapseShapeOp::inferCollapsedType(type, groups);
  if (auto fill = value.getDefiningOp<linalg::FillOp>())
    if (fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>()) {
      Value empty = tensor::EmptyOp::create(builder, loc, collapsedType.getShape(),
                                            collapsedType.getElementType());
      return linalg::FillOp::create(builder, fill.getLoc(), fill.getInputs()[0], empty)
          .getResult(0);
    }
  return tensor::CollapseShapeOp::create(builder, loc, collapsedType, value, groups);
}

#endif
