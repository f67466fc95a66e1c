// When a payload is loaded: a `linalg.generic` output indexed by a constant
// 0 (a kept unit dimension: PyTorch's `sum(dim=-1, keepdim=True)` exports as
// a reduction into a 1x4x128x1 tensor through `(d0, d1, d2, d3) -> (d0, d1,
// d2, 0)`) is written through a tensor without that dimension, and the
// result is expanded back for its readers. The op's loops are unchanged, so
// a schedule names it as before; but once `rfactor` splits its reduction,
// the partial op's output map `(d0, d1, d2, 0, d3)` is not a projected
// permutation, which MLIR's vectorizer refuses (softmax's and layer norm's
// sums could not be vectorized by parts).

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "dead.h"
#include "inits.h"
#include "each.h"

using namespace mlir;

// The positions of `map`'s results that are a constant 0 over a unit
// dimension of `type`.
static SmallVector<int64_t> keptUnitDims(AffineMap map, RankedTensorType type) {
  SmallVector<int64_t> positions;
  for (auto [position, result] : llvm::enumerate(map.getResults())) {
    auto constant = dyn_cast<AffineConstantExpr>(result);
    if (constant && constant.getValue() == 0 && type.getDimSize(position) == 1)
      positions.push_back(position);
  }
  return positions;
}

// Groups the dimensions of a `rank`-dimensional tensor so that each dropped
// one joins a kept neighbour: collapsing by the groups removes the dropped
// dimensions. No kept dimension: no groups (a rank-0 tensor).
static SmallVector<ReassociationIndices> groupsWithout(int64_t rank,
                                                       ArrayRef<int64_t> dropped) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (int64_t dim = 0; dim < rank; ++dim) {
    pending.push_back(dim);
    if (!llvm::is_contained(dropped, dim)) {
      groups.push_back(pending);
      pending.clear();
    }
  }
  if (!groups.empty())
    groups.back().append(pending.begin(), pending.end());
  return groups;
}

// Rewrites `generic` with its outputs' kept unit dimensions dropped.
// Returns whether it did.
static bool dropKeptDims(linalg::GenericOp generic) {
  SmallVector<SmallVector<int64_t>> dropped;
  bool any = false;
  for (OpOperand &init : generic.getDpsInitsMutable()) {
    auto type = dyn_cast<RankedTensorType>(init.get().getType());
    if (!type) // on buffers: not from an exporter; left alone
      return false;
    dropped.push_back(keptUnitDims(generic.getMatchingIndexingMap(&init), type));
    any |= !dropped.back().empty();
  }
  if (!any)
    return false;
  OpBuilder builder(generic);
  Location loc = generic.getLoc();
  SmallVector<AffineMap> maps;
  for (OpOperand *input : generic.getDpsInputOperands())
    maps.push_back(generic.getMatchingIndexingMap(input));
  SmallVector<Value> outputs;
  SmallVector<Type> types;
  SmallVector<SmallVector<ReassociationIndices>> groups;
  SmallVector<Value> oldInits;
  for (auto [index, init] : llvm::enumerate(generic.getDpsInitsMutable())) {
    auto type = cast<RankedTensorType>(init.get().getType());
    AffineMap map = generic.getMatchingIndexingMap(&init);
    oldInits.push_back(init.get());
    groups.push_back(groupsWithout(type.getRank(), dropped[index]));
    if (dropped[index].empty()) {
      outputs.push_back(init.get());
      maps.push_back(map);
      types.push_back(type);
      continue;
    }
    llvm::SmallBitVector drop(map.getNumResults());
    for (int64_t position : dropped[index])
      drop.set(position);
    Value output = collapsedInit(builder, loc, init.get(), type, groups.back());
    outputs.push_back(output);
    maps.push_back(map.dropResults(drop));
    types.push_back(output.getType());
  }
  auto replacement =
      linalg::GenericOp::create(builder, loc, types, generic.getDpsInputs(), outputs, maps,
                                generic.getIteratorTypesArray());
  replacement.getRegion().takeBody(generic.getRegion());
  // Keep what the op carried (a `sched.name`), but not its segment sizes.
  for (NamedAttribute attribute : generic->getDiscardableAttrs())
    replacement->setAttr(attribute.getName(), attribute.getValue());
  for (auto [index, result] : llvm::enumerate(generic->getResults())) {
    Value value = replacement->getResult(index);
    if (!dropped[index].empty())
      value = tensor::ExpandShapeOp::create(builder, loc, result.getType(), value,
                                            groups[index]);
    result.replaceAllUsesWith(value);
  }
  generic->erase();
  eraseDeadProducers(oldInits);
  return true;
}

// Drops the kept unit dimensions of the outputs of every `linalg.generic`
// under `root`. Returns the ops rewritten.
extern "C" int64_t schedDropKeptDims(MlirOperation root) {
  return rewriteEach<linalg::GenericOp>(unwrap(root), dropKeptDims);
}
