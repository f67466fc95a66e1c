// After bufferization, two rewrites of copies. A copy through a temporary
// buffer between two regions that do not overlap becomes one direct copy
// (`schedForwardTemporaryCopies`); a small copy becomes one vector read
// and write (`schedVectorizeSmallCopies`, below). One-shot
// bufferization cannot prove that an `extract_slice` and an `insert_slice`
// of one tensor at different offsets touch different elements, so it reads
// the slice into a fresh buffer first; a reuse buffer's shift
// (`transform.sched.reuse_buffer` moves it in steps that never overlap) then
// allocated and copied twice per iteration.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "boxes.h"

using namespace mlir;

using sched::disjoint;

// Replaces each `%t = memref.alloc; memref.copy %a, %t; ...; memref.copy %t,
// %b` (the temporary used by nothing else, only effect-free ops between the
// copies, %a and %b disjoint regions of one buffer) with `memref.copy %a,
// %b` as a `linalg.copy`. Returns the temporaries removed.
extern "C" int64_t schedForwardTemporaryCopies(MlirOperation root) {
  SmallVector<memref::AllocOp> allocs;
  unwrap(root)->walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
  int64_t removed = 0;
  for (memref::AllocOp alloc : allocs) {
    Value temporary = alloc.getResult();
    memref::CopyOp in, out;
    bool other = false;
    for (Operation *user : temporary.getUsers()) {
      auto copy = dyn_cast<memref::CopyOp>(user);
      if (copy && copy.getTarget() == temporary && !in)
        in = copy;
      else if (copy && copy.getSource() == temporary && !out)
        out = copy;
      else
        other = true;
    }
    if (other || !in || !out || in->getBlock() != out->getBlock() ||
        !in->isBeforeInBlock(out))
      continue;
    bool quiet = true;
    for (Operation *op = in->getNextNode(); op != out.getOperation();
         op = op->getNextNode())
      quiet = quiet && isMemoryEffectFree(op);
    if (!quiet || !disjoint(in.getSource(), out.getTarget()))
      continue;
    // A linalg.copy: lowered to loops in the function (a memref.copy of
    // strided regions is a call of the runtime's element-wise copy).
    OpBuilder builder(out);
    linalg::CopyOp::create(builder, out.getLoc(), in.getSource(),
                           out.getTarget());
    out->erase();
    in->erase();
    alloc->erase();
    ++removed;
  }
  return removed;
}

namespace {

// Whether a transfer can read or write a whole `type` as one vector: a
// static shape of vector elements whose innermost dimension is contiguous.
bool wholeTransferable(MemRefType type) {
  if (!type || !type.hasStaticShape() || type.getRank() == 0 ||
      !VectorType::isValidElementType(type.getElementType()))
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return strides.back() == 1;
}

} // namespace

// Replaces each copy between two buffers (`memref.copy`, or `linalg.copy`
// on buffers) of the same static shape of at most `maxElements` elements,
// contiguous in their innermost dimension, with one `vector.transfer_read`
// of the whole source and one `vector.transfer_write` of it: lowered to a
// few vector loads and stores in the function. (A `memref.copy` of strided
// regions is a call of the runtime's element-wise copy; a `linalg.copy`
// becomes scalar loops.) Self-copies, which canonicalization removes, are
// left alone. Returns the copies replaced.
extern "C" int64_t schedVectorizeSmallCopies(MlirOperation root,
                                             int64_t maxElements) {
  SmallVector<Operation *> copies;
  unwrap(root)->walk([&](Operation *op) {
    if (isa<memref::CopyOp>(op))
      copies.push_back(op);
    else if (auto copy = dyn_cast<linalg::CopyOp>(op))
      if (copy.hasPureBufferSemantics())
        copies.push_back(op);
  });
  if (copies.empty())
    return 0;
  // A payload without vector (or arith) ops has not loaded the dialects.
  MLIRContext *context = unwrap(root)->getContext();
  context->getOrLoadDialect<vector::VectorDialect>();
  context->getOrLoadDialect<arith::ArithDialect>();
  int64_t replaced = 0;
  for (Operation *op : copies) {
    Value source = op->getOperand(0), target = op->getOperand(1);
    auto sourceType = dyn_cast<MemRefType>(source.getType());
    auto targetType = dyn_cast<MemRefType>(target.getType());
    if (source == target || !wholeTransferable(sourceType) ||
        !wholeTransferable(targetType) ||
        sourceType.getShape() != targetType.getShape() ||
        sourceType.getElementType() != targetType.getElementType() ||
        sourceType.getNumElements() > maxElements)
      continue;
    OpBuilder builder(op);
    Location loc = op->getLoc();
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    SmallVector<Value> indices(sourceType.getRank(), zero);
    SmallVector<bool> inBounds(sourceType.getRank(), true);
    auto vectorType =
        VectorType::get(sourceType.getShape(), sourceType.getElementType());
    Value whole = vector::TransferReadOp::create(
        builder, loc, vectorType, source, indices, std::nullopt, inBounds);
    vector::TransferWriteOp::create(builder, loc, whole, target, indices,
                                    inBounds);
    op->erase();
    ++replaced;
  }
  return replaced;
}

// Replaces each `memref.copy` whose source or target is not contiguous (a
// padded tensor's interior, a slice of channels) with a `linalg.copy`, which
// becomes loops that LLVM vectorizes along the rows: lowered as it was, such a
// copy called the runtime's element-wise copy, which computes every element's
// address from the descriptor (about 5.5 ns an element: 1.1 ms for the
// interior of one 1x64x56x56 pad). Contiguous copies stay `memcpy`, and
// self-copies are left for canonicalization. Returns the copies replaced.
extern "C" int64_t schedStridedCopiesToLoops(MlirOperation root) {
  SmallVector<memref::CopyOp> copies;
  unwrap(root)->walk([&](memref::CopyOp copy) {
    auto source = dyn_cast<MemRefType>(copy.getSource().getType());
    auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
    // A self-copy is left for canonicalization to remove.
    if (copy.getSource() != copy.getTarget() && source && target &&
        source.hasStaticShape() &&
        target.hasStaticShape() &&
        !(memref::isStaticShapeAndContiguousRowMajor(source) &&
          memref::isStaticShapeAndContiguousRowMajor(target)))
      copies.push_back(copy);
  });
  if (copies.empty())
    return 0;
  unwrap(root)->getContext()->getOrLoadDialect<linalg::LinalgDialect>();
  for (memref::CopyOp copy : copies) {
    OpBuilder builder(copy);
    linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                           copy.getTarget());
    copy->erase();
  }
  return copies.size();
}
