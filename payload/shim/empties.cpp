// Before bufferization: every use of a `tensor.empty` gets an empty of its
// own. An empty only says "a new tensor of this shape"; upstream's
// canonicalization and CSE merge identical ones, so a model's stages all
// start from one value. One-shot bufferization then checks each in-place
// write into it against every other use of it: a chain of n stages took
// time growing with n² (1 000 stages: 40 s in the analysis alone, 0.24 s
// with one empty per stage). Each stage was written into a new buffer
// either way, so the bufferized code is the same. The same holds for a
// `linalg.fill` of an empty (a convolution's zero init): CSE merges those of
// one shape, and each reader writing its result in place then got a copy of
// the one filled buffer (a whole read and write per convolution, on top of
// the fill), where a fill cloned per use is one write.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "each.h"

using namespace mlir;

// Gives every use of `op` (whose operands are defined before `op`) but the
// last a clone placed just before the user, or right after `op` when the
// user is in another block. Returns the clones made.
static int64_t cloneForEachUse(Operation *op) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : op->getUses())
    uses.push_back(&use);
  if (uses.size() < 2)
    return 0;
  // One use keeps the op itself.
  uses.pop_back();
  for (OpOperand *use : uses) {
    Operation *user = use->getOwner();
    OpBuilder builder(op->getContext());
    if (user->getBlock() == op->getBlock())
      builder.setInsertionPoint(user);
    else
      builder.setInsertionPointAfter(op);
    IRMapping mapping;
    // A fill's empty is cloned with it: a new tensor per use.
    for (Value operand : op->getOperands())
      if (auto empty = operand.getDefiningOp<tensor::EmptyOp>())
        mapping.map(operand, builder.clone(*empty)->getResult(0));
    Operation *copy = builder.clone(*op, mapping);
    use->set(copy->getResult(cast<OpResult>(use->get()).getResultNumber()));
  }
  return uses.size();
}

// Gives every use of a tensor.empty under `root`, and of a fill of one, but
// the last a copy of its own placed just before the op that uses it. Returns
// the copies made.
extern "C" int64_t schedUntieSharedEmptyTensors(MlirOperation root) {
  int64_t copies = 0;
  SmallVector<linalg::FillOp> fills;
  // Only fills whose every use is the init of a linalg op or a forall's
  // shared output: a fill also read through a slice and inserted into (a
  // tiled or split op's parts) is one tensor written in place.
  auto writesInto = [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user))
      return linalgOp.isDpsInit(&use);
    if (auto forall = dyn_cast<scf::ForallOp>(user))
      return llvm::is_contained(forall.getOutputsMutable(), use);
    return false;
  };
  unwrap(root)->walk([&](linalg::FillOp fill) {
    if (fill.hasPureTensorSemantics() &&
        fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>() &&
        llvm::all_of(fill->getUses(), writesInto))
      fills.push_back(fill);
  });
  for (linalg::FillOp fill : fills)
    copies += cloneForEachUse(fill);
  return copies + rewriteEach<tensor::EmptyOp>(
                      unwrap(root), [](tensor::EmptyOp empty) { return cloneForEachUse(empty); });
}

// True when `slice` takes all of its source (zero offsets, unit strides,
// the whole size), perhaps dropping unit dimensions.
static bool takesAll(tensor::ExtractSliceOp slice) {
  return slice.hasZeroOffset() && slice.hasUnitStride() &&
         slice.getSourceType().getNumElements() ==
             slice.getResultType().getNumElements() &&
         slice.getSourceType().hasStaticShape();
}

// True when `insert` overwrites all of its destination, perhaps adding unit
// dimensions.
static bool fillsAll(tensor::InsertSliceOp insert) {
  return insert.hasZeroOffset() && insert.hasUnitStride() &&
         insert.getDestType().hasStaticShape() &&
         insert.getDestType().getNumElements() ==
             insert.getSourceType().getNumElements();
}

// What a pad becomes: `source` written at `low` into a `type` tensor filled
// with the padding value, replacing `result`.
struct PadForm {
  Value source;
  RankedTensorType type;
  SmallVector<int64_t> low;
  Value result;
};

// The pad as it is; or, when the pad reads all of a tensor with its unit
// dimensions dropped and its only use puts them back (the form unit-extent
// folding gives a convolution's padded input), the same pad at the full
// rank, so the fill is of the tensor the producer writes and the producer
// can write into its interior.
static PadForm padForm(tensor::PadOp pad) {
  PadForm plain{pad.getSource(), pad.getResultType(),
                SmallVector<int64_t>(pad.getStaticLow()), pad.getResult()};
  auto slice = pad.getSource().getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || !takesAll(slice) || !pad->hasOneUse())
    return plain;
  auto insert = dyn_cast<tensor::InsertSliceOp>(*pad->getUsers().begin());
  if (!insert || insert.getSource() != pad.getResult() || !fillsAll(insert))
    return plain;
  RankedTensorType full = slice.getSourceType();
  RankedTensorType out = insert.getDestType();
  llvm::SmallBitVector dropped = slice.getDroppedDims();
  if (full.getRank() != out.getRank() || dropped != insert.getDroppedDims())
    return plain;
  SmallVector<int64_t> low;
  unsigned reduced = 0;
  for (int64_t dim = 0; dim < full.getRank(); ++dim) {
    if (dropped.test(dim)) {
      if (full.getDimSize(dim) != 1 || out.getDimSize(dim) != 1)
        return plain;
      low.push_back(0);
      continue;
    }
    if (out.getDimSize(dim) != pad.getResultType().getDimSize(reduced))
      return plain;
    low.push_back(pad.getStaticLow()[reduced++]);
  }
  return PadForm{slice.getSource(), out, low, insert.getResult()};
}

// A `type` tensor whose border around an interior of shape `interior` at
// `low` holds `value`: one fill per padded side of each dimension, each
// inserted into a new tensor (the interior is left to its producer). The
// corners are filled twice; the border is small against the whole
// (4 x 114 of 114 x 114 per channel for a 3x3 convolution's 112 x 112 input).
static Value fillBorder(OpBuilder &builder, Location loc, Value value,
                        RankedTensorType type, ArrayRef<int64_t> low,
                        ArrayRef<int64_t> interior) {
  Value padded = tensor::EmptyOp::create(builder, loc, type.getShape(),
                                         type.getElementType());
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    int64_t high = type.getDimSize(dim) - low[dim] - interior[dim];
    for (auto [offset, amount] :
         {std::pair{int64_t{0}, low[dim]},
          std::pair{type.getDimSize(dim) - high, high}}) {
      if (amount == 0)
        continue;
      SmallVector<int64_t> shape(type.getShape());
      shape[dim] = amount;
      Value side = tensor::EmptyOp::create(builder, loc, shape,
                                           type.getElementType());
      Value filled = linalg::FillOp::create(builder, loc, value, side).getResult(0);
      SmallVector<OpFoldResult> offsets(type.getRank(), builder.getIndexAttr(0));
      offsets[dim] = builder.getIndexAttr(offset);
      SmallVector<OpFoldResult> sizes, strides;
      for (int64_t size : shape) {
        sizes.push_back(builder.getIndexAttr(size));
        strides.push_back(builder.getIndexAttr(1));
      }
      padded = tensor::InsertSliceOp::create(builder, loc, filled, padded,
                                             offsets, sizes, strides);
    }
  }
  return padded;
}

// Has every reader of `source` after `inserted` (the insert of `source`
// into its padded tensor) read the padded tensor's interior instead. The
// producer writes into that interior; a later reader of `source` itself (a
// residual block's 1x1 downsampling convolution beside the padded 3x3 one)
// made one-shot bufferization see a write into the padded buffer before a
// read of `source`, and copy `source` out and back: 2 x 6.4 MB per stage
// boundary of resnet18 at batch 8.
static void readInterior(OpBuilder &builder, DominanceInfo &dominance, Value source,
                         Value inserted, ArrayRef<OpFoldResult> offsets,
                         ArrayRef<OpFoldResult> sizes, ArrayRef<OpFoldResult> strides) {
  Operation *insert = inserted.getDefiningOp();
  SmallVector<OpOperand *> later;
  for (OpOperand &use : source.getUses())
    if (use.getOwner() != insert && dominance.properlyDominates(insert, use.getOwner()))
      later.push_back(&use);
  if (later.empty())
    return;
  builder.setInsertionPointAfter(insert);
  Value interior = tensor::ExtractSliceOp::create(
      builder, insert->getLoc(), cast<RankedTensorType>(source.getType()), inserted,
      offsets, sizes, strides);
  for (OpOperand *use : later)
    use->set(interior);
}

// Before bufferization: each `tensor.pad` of static shapes with a constant
// value (not `nofold`: those are `pack`'s copies) becomes fills of the
// padded shape's border (`fillBorder`) and a `tensor.insert_slice` of the
// source into its interior, the fills placed before the source's producer
// where they can be.
// Upstream's empty-tensor elimination then has that producer write into the
// interior directly: bufferized as it was, a pad allocated the padded
// buffer, filled it and copied the source in (a whole read and write of the
// tensor per pad, 18 pads in resnet18).
extern "C" int64_t schedPadsIntoFills(MlirOperation root) {
  SmallVector<tensor::PadOp> pads;
  unwrap(root)->walk([&](tensor::PadOp pad) { pads.push_back(pad); });
  DominanceInfo dominance(unwrap(root));
  int64_t rewritten = 0;
  for (tensor::PadOp pad : pads) {
    Value value = pad.getConstantPaddingValue();
    if (!value || pad.getNofold() || !pad.getResultType().hasStaticShape() ||
        !pad.getSourceType().hasStaticShape() || !pad.getLow().empty() ||
        !pad.getHigh().empty())
      continue;
    PadForm form = padForm(pad);
    // The fill goes right before the source's producer when that is in the
    // pad's block and the padding value is defined before it; else at the pad.
    Operation *at = pad;
    Operation *producer = form.source.getDefiningOp();
    if (producer && producer->getBlock() == pad->getBlock() &&
        dominance.properlyDominates(value, producer))
      at = producer;
    OpBuilder builder(pad->getContext());
    builder.setInsertionPoint(at);
    Location loc = pad.getLoc();
    auto shape = cast<RankedTensorType>(form.source.getType()).getShape();
    Value filled = fillBorder(builder, loc, value, form.type, form.low, shape);
    builder.setInsertionPoint(pad);
    SmallVector<OpFoldResult> offsets, sizes, strides;
    for (auto [low, size] : llvm::zip(form.low, shape)) {
      offsets.push_back(builder.getIndexAttr(low));
      sizes.push_back(builder.getIndexAttr(size));
      strides.push_back(builder.getIndexAttr(1));
    }
    Value inserted = tensor::InsertSliceOp::create(builder, loc, form.source,
                                                   filled, offsets, sizes, strides);
    readInterior(builder, dominance, form.source, inserted, offsets, sizes, strides);
    Operation *replaced = form.result.getDefiningOp();
    form.result.replaceAllUsesWith(inserted);
    if (replaced != pad.getOperation())
      replaced->erase();
    Operation *slice = pad.getSource().getDefiningOp();
    pad->erase();
    if (slice && slice->use_empty() && isa<tensor::ExtractSliceOp>(slice))
      slice->erase();
    ++rewritten;
  }
  return rewritten;
}
