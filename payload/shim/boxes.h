// Static regions of buffers, shared by `copies.cpp` and `borders.cpp`: the
// box a view covers in the buffer it views through `memref.subview`s with
// unit strides, and whether two views share no element.

#ifndef SCHED_SHIM_BOXES_H
#define SCHED_SHIM_BOXES_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include <optional>

namespace sched {

// The buffer a view reads through unit-stride subviews, and the static box
// (offsets, sizes) the view covers there.
struct Box {
  mlir::Value base;
  llvm::SmallVector<int64_t> offsets, sizes;
};

// The box `value` covers in the buffer it views, if every subview on the
// way keeps the rank, has unit strides and static offsets.
inline std::optional<Box> boxOf(mlir::Value value) {
  auto type = llvm::dyn_cast<mlir::MemRefType>(value.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  Box box{value, llvm::SmallVector<int64_t>(type.getRank(), 0),
          llvm::to_vector(type.getShape())};
  while (auto subview = box.base.getDefiningOp<mlir::memref::SubViewOp>()) {
    bool plain = llvm::all_of(subview.getStaticStrides(),
                              [](int64_t s) { return s == 1; }) &&
                 subview.getSourceType().getRank() == type.getRank();
    if (!plain)
      return std::nullopt;
    for (auto [d, offset] : llvm::enumerate(subview.getStaticOffsets())) {
      if (mlir::ShapedType::isDynamic(offset))
        return std::nullopt;
      box.offsets[d] += offset;
    }
    box.base = subview.getSource();
  }
  return box;
}

// Whether `a` and `b` are regions of one buffer that share no element.
inline bool disjoint(mlir::Value a, mlir::Value b) {
  std::optional<Box> first = boxOf(a), second = boxOf(b);
  if (!first || !second || first->base != second->base)
    return false;
  for (size_t d = 0; d < first->offsets.size(); ++d) {
    int64_t firstEnd = first->offsets[d] + first->sizes[d];
    int64_t secondEnd = second->offsets[d] + second->sizes[d];
    if (firstEnd <= second->offsets[d] || secondEnd <= first->offsets[d])
      return true;
  }
  return false;
}

} // namespace sched

#endif
