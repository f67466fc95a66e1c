// Before bufferization: a vector read of a broadcast's result reads the
// broadcast's input instead, the broadcast dimensions becoming broadcast
// dimensions of the read (`0` in its permutation map). A convolution whose
// output channels are vectorized starts each tile from its bias broadcast
// (`compute_at`ed into the tile, NCHW): read through the broadcast tile, the
// transposed read gathered its 7 x 32 lanes one `vinsertps` at a time; from
// the bias itself it is one vector load per 16 channels and a broadcast.
// Broadcasts are `linalg.broadcast`, or generics that only copy their one
// input (a projected permutation of the loops) into an identity output.
// A broadcast whose values, after that, are all overwritten before any is
// read (the tile's accumulators written back over it) is not computed at
// all: lowered, it was 28 `vscatterdps` per tile.
// The same for a zero init filled in a register tile's own forall (a fill
// vectorized: a constant splat written over all of the tile): the tile's
// read of it is the splat, and the write, then never read, is dropped.
// Upstream's folding forwards such a write only to a read of the same
// vector shape: a `vector<32x1x1xf32>` write read back as the
// `vector<32xf32>` of output channels was written, read back one gathered
// element at a time, and overwritten.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "each.h"

using namespace mlir;

namespace {

// What a broadcast reads: its input, and for each of the input's dimensions
// the dimension of the result it is (in increasing order for a
// `linalg.broadcast`; any projected permutation for a generic).
struct Source {
  Value input;
  SmallVector<unsigned> resultDims;
};

// Whether the offsets are all 0 and the strides all 1.
bool fromOrigin(OffsetSizeAndStrideOpInterface slice) {
  auto is = [](int64_t value) {
    return [value](OpFoldResult r) { return isConstantIntValue(r, value); };
  };
  return llvm::all_of(slice.getMixedOffsets(), is(0)) &&
         llvm::all_of(slice.getMixedStrides(), is(1));
}

// Whether `insert` overwrites all of its destination (its source has as
// many elements, perhaps with unit dimensions dropped).
bool coversAll(tensor::InsertSliceOp insert) {
  return fromOrigin(insert) && insert.getSourceType().hasStaticShape() &&
         insert.getDestType().hasStaticShape() &&
         insert.getSourceType().getNumElements() == insert.getDestType().getNumElements();
}

// `value`'s producer as a broadcast of a ranked tensor, also through an
// insert of all of it into a tensor of its shape with unit dimensions
// added back (the form a broadcast takes once those were dropped); else
// nothing.
std::optional<Source> broadcastSource(Value value) {
  if (auto insert = value.getDefiningOp<tensor::InsertSliceOp>()) {
    std::optional<Source> inner;
    std::optional<llvm::SmallDenseSet<unsigned>> dropped;
    if (coversAll(insert))
      inner = broadcastSource(insert.getSource());
    if (inner)
      dropped = computeRankReductionMask(insert.getDestType().getShape(),
                                         insert.getSourceType().getShape());
    if (!dropped)
      return std::nullopt;
    SmallVector<unsigned> kept;
    for (unsigned dim = 0; dim < insert.getDestType().getRank(); ++dim)
      if (!dropped->contains(dim))
        kept.push_back(dim);
    for (unsigned &dim : inner->resultDims)
      dim = kept[dim];
    return inner;
  }
  if (auto broadcast = value.getDefiningOp<linalg::BroadcastOp>()) {
    Source source{broadcast.getInput(), {}};
    ArrayRef<int64_t> added = broadcast.getDimensions();
    unsigned rank = broadcast.getInit().getType().getRank();
    for (unsigned dim = 0; dim < rank; ++dim)
      if (!llvm::is_contained(added, static_cast<int64_t>(dim)))
        source.resultDims.push_back(dim);
    return source;
  }
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
      generic.getNumReductionLoops() != 0 || !generic.hasPureTensorSemantics())
    return std::nullopt;
  Block &body = generic.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (body.getOperations().size() != 1 || yield.getNumOperands() != 1 ||
      yield.getOperand(0) != body.getArgument(0))
    return std::nullopt;
  OpOperand *input = generic.getDpsInputOperand(0);
  AffineMap inputMap = generic.getMatchingIndexingMap(input);
  AffineMap outputMap = generic.getMatchingIndexingMap(generic.getDpsInitOperand(0));
  if (!outputMap.isIdentity() || !inputMap.isProjectedPermutation(/*allowZeroInResults=*/false) ||
      !isa<RankedTensorType>(input->get().getType()))
    return std::nullopt;
  Source source{input->get(), {}};
  for (AffineExpr expr : inputMap.getResults())
    source.resultDims.push_back(cast<AffineDimExpr>(expr).getPosition());
  return source;
}

// Whether a vector read or write is unmasked, of fixed size and in bounds
// along every dimension.
template <typename Transfer> bool plainTransfer(Transfer transfer) {
  if (transfer.getMask() || transfer.getVectorType().isScalable())
    return false;
  for (unsigned dim = 0; dim < transfer.getVectorType().getRank(); ++dim)
    if (!transfer.isDimInBounds(dim))
      return false;
  return true;
}

// Rewrites `read` when it reads, unmasked and in bounds, from a broadcast's
// result. Returns whether it did.
bool readBroadcastInput(vector::TransferReadOp read) {
  std::optional<Source> source = broadcastSource(read.getBase());
  if (!source || !plainTransfer(read))
    return false;
  AffineMap map = read.getPermutationMap();
  MLIRContext *context = read.getContext();
  unsigned inputRank = source->resultDims.size();
  // Each result of the read's map: the input's dimension that the result's
  // dimension is, or 0 (broadcast) for one the broadcast added.
  SmallVector<AffineExpr> results;
  for (AffineExpr expr : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return false;
    auto at = llvm::find(source->resultDims, dim.getPosition());
    results.push_back(at == source->resultDims.end()
                          ? getAffineConstantExpr(0, context)
                          : getAffineDimExpr(at - source->resultDims.begin(), context));
  }
  SmallVector<Value> indices;
  for (unsigned dim : source->resultDims)
    indices.push_back(read.getIndices()[dim]);
  OpBuilder builder(read);
  SmallVector<bool> inBounds(read.getVectorType().getRank(), true);
  auto replacement = vector::TransferReadOp::create(
      builder, read.getLoc(), read.getVectorType(), source->input, indices, read.getPadding(),
      AffineMap::get(inputRank, 0, results, context), ArrayRef<bool>(inBounds));
  read.replaceAllUsesWith(replacement.getResult());
  read.erase();
  return true;
}

// Whether `indices` are all the constant 0.
bool allZero(ValueRange indices) {
  return llvm::all_of(indices, [](Value index) {
    std::optional<int64_t> at = getConstantIntValue(index);
    return at && *at == 0;
  });
}

// Whether `write` writes `count` elements from the origin of its tensor,
// unmasked and in bounds: all of a tensor of `count` elements.
bool writesAll(vector::TransferWriteOp write, int64_t count) {
  return plainTransfer(write) && write.getVectorType().getNumElements() == count &&
         write.getPermutationMap().isProjectedPermutation(/*allowZeroInResults=*/false) &&
         allZero(write.getIndices());
}

// Whether no value of the static tensor `value` is ever read: each use
// overwrites all of it (a `tensor.insert_slice` or an in-bounds, unmasked
// `vector.transfer_write` from the origin with as many elements, into it),
// or takes all of it as a slice whose values are in turn never read.
bool neverRead(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return false;
  int64_t count = type.getNumElements();
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(user)) {
      if (use.get() != insert.getDest() || insert.getSource() == value || !fromOrigin(insert) ||
          !insert.getSourceType().hasStaticShape() ||
          insert.getSourceType().getNumElements() != count)
        return false;
    } else if (auto write = dyn_cast<vector::TransferWriteOp>(user)) {
      if (use.get() != write.getBase() || !writesAll(write, count))
        return false;
    } else if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user)) {
      if (!fromOrigin(slice) || !slice.getType().hasStaticShape() ||
          slice.getType().getNumElements() != count || !neverRead(slice.getResult()))
        return false;
    } else {
      return false;
    }
  }
  return true;
}

// A constant splat written over all of a tensor: the write, and the
// splat's value.
struct SplatWrite {
  vector::TransferWriteOp write;
  Attribute value;
};

// `value`'s producer as a constant splat written over all of a static
// tensor (unmasked, in bounds, from the origin); else nothing.
std::optional<SplatWrite> splatWriteOverAll(Value value) {
  auto write = value.getDefiningOp<vector::TransferWriteOp>();
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!write || !type || !type.hasStaticShape() || !writesAll(write, type.getNumElements()))
    return std::nullopt;
  DenseElementsAttr splat;
  if (!matchPattern(write.getVector(), m_Constant(&splat)) || !splat.isSplat())
    return std::nullopt;
  return SplatWrite{write, splat.getSplatValue<Attribute>()};
}

// Rewrites `read` when it reads, unmasked and in bounds, a tensor a constant
// splat was written over: it becomes that splat, in its own shape; the
// write, if its values are then never read, is dropped. Returns whether it
// rewrote.
bool readSplatWrite(vector::TransferReadOp read) {
  std::optional<SplatWrite> splat = splatWriteOverAll(read.getBase());
  if (!splat || !plainTransfer(read))
    return false;
  OpBuilder builder(read);
  Value value = arith::ConstantOp::create(builder, read.getLoc(),
                                          DenseElementsAttr::get(read.getVectorType(), splat->value));
  read.replaceAllUsesWith(value);
  read.erase();
  Value written = splat->write.getResult();
  if (neverRead(written)) {
    written.replaceAllUsesWith(splat->write.getBase());
    splat->write->erase();
  }
  return true;
}

// Replaces a broadcast none of whose values is read by its destination,
// which the overwriting ops then write into; the same when its one use is
// an insert of all of it whose result is never read (replaced by the
// insert's destination). Returns whether it did.
bool skipUnreadBroadcast(Operation *op) {
  auto destination = dyn_cast<DestinationStyleOpInterface>(op);
  if (!destination || op->getNumResults() != 1 || !broadcastSource(op->getResult(0)))
    return false;
  Value result = op->getResult(0);
  // Inserts of it nothing reads (the one its reads went through).
  for (Operation *user : llvm::make_early_inc_range(result.getUsers()))
    if (isa<tensor::InsertSliceOp>(user) && user->use_empty())
      user->erase();
  if (result.hasOneUse()) {
    auto insert = dyn_cast<tensor::InsertSliceOp>(*result.getUsers().begin());
    if (insert && insert.getSource() == result && coversAll(insert) &&
        neverRead(insert.getResult())) {
      insert.getResult().replaceAllUsesWith(insert.getDest());
      insert->erase();
      op->erase();
      return true;
    }
  }
  if (!neverRead(result))
    return false;
  result.replaceAllUsesWith(destination.getDpsInitOperand(0)->get());
  op->erase();
  return true;
}

} // namespace

// Reads every broadcast's input directly under `root`, and every splat
// written over a tile as that splat, then skips the broadcasts whose
// values are no longer read. Returns the reads rewritten and the
// broadcasts skipped.
extern "C" int64_t schedReadBroadcastInputs(MlirOperation root) {
  int64_t rewritten = rewriteEach<vector::TransferReadOp>(unwrap(root), [](vector::TransferReadOp read) {
    return readBroadcastInput(read) || readSplatWrite(read);
  });
  rewritten += rewriteEach<linalg::BroadcastOp>(
      unwrap(root), [](linalg::BroadcastOp op) { return skipUnreadBroadcast(op); });
  rewritten += rewriteEach<linalg::GenericOp>(
      unwrap(root), [](linalg::GenericOp op) { return skipUnreadBroadcast(op); });
  return rewritten;
}
