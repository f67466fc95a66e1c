// Before bufferization: a vector read of a strided slice (a stride-2
// convolution or pooling vectorized along its strided row reads every second
// input, `sched.slice_strided_reads`) becomes reads of the contiguous row,
// 16 lanes' worth at a time, and a shuffle that keeps every second (s-th)
// element: `vector<32xf32>` read, `vpermt2ps` keeps 16. As a strided read it
// was lowered one element at a time (mobilenet_v2's stride-2 depthwise
// convolutions ran at 7 GFLOP/s, a third of the stride-1 ones).
//
// A read that broadcasts each element of a strided row along a second
// dimension (a convolution's output channels vectorized beside unrolled
// stride-2 columns: each column's input is one value for all channels)
// becomes one scalar read and broadcast per element. Read as a strided
// vector and broadcast, LLVM carried the channel tile transposed through the
// reduction loop, rebuilding it lane by lane every iteration (a 1x1 stride-2
// convolution's 16 channels x 4 columns ran at a fifth of the peak).

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "each.h"

using namespace mlir;

namespace {

// Output lanes gathered per contiguous read: one AVX-512 vector of f32.
constexpr int64_t CHUNK = 16;

// The stride of `slice`'s innermost dimension when it is the only one
// above 1 and all are static; else nothing.
std::optional<int64_t> innermostStride(tensor::ExtractSliceOp slice) {
  ArrayRef<int64_t> strides = slice.getStaticStrides();
  if (strides.empty() || ShapedType::isDynamic(strides.back()) || strides.back() <= 1)
    return std::nullopt;
  for (int64_t stride : strides.drop_back())
    if (stride != 1)
      return std::nullopt;
  return strides.back();
}

// The stride-1 slice of the same region as `slice` (stride `stride` on its
// innermost dimension, of `extent` elements there): element `j` of `slice`
// is element `j * stride` of it.
Value contiguousRow(OpBuilder &builder, Location loc, tensor::ExtractSliceOp slice,
                    int64_t stride, int64_t extent) {
  SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
  SmallVector<OpFoldResult> strides = slice.getMixedStrides();
  sizes.back() = builder.getIndexAttr((extent - 1) * stride + 1);
  strides.back() = builder.getIndexAttr(1);
  return tensor::ExtractSliceOp::create(builder, loc, slice.getSource(), slice.getMixedOffsets(),
                                        sizes, strides);
}

// A read's strided row: the slice it reads, with a stride above 1 on its
// innermost dimension (and no dimension dropped), the stride, the read's
// constant position there, and the slice's static extent there.
struct StridedRow {
  tensor::ExtractSliceOp slice;
  int64_t stride;
  int64_t at;
  int64_t extent;
};

// `read`'s strided row, when `lanes` elements of it from the read's
// position are in bounds; else nothing.
std::optional<StridedRow> stridedRow(vector::TransferReadOp read, int64_t lanes) {
  auto slice = read.getBase().getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || read.getVectorType().isScalable() || read.getMask() || !read.isDimInBounds(0))
    return std::nullopt;
  std::optional<int64_t> stride = innermostStride(slice);
  auto sliceType = slice.getType();
  std::optional<int64_t> at = getConstantIntValue(read.getIndices().back());
  // A rank-reducing slice could drop the innermost source dimension.
  if (!stride || !at || sliceType.getRank() != slice.getSourceType().getRank() ||
      ShapedType::isDynamic(sliceType.getShape().back()))
    return std::nullopt;
  int64_t extent = sliceType.getShape().back();
  if (*at + lanes > extent)
    return std::nullopt;
  return StridedRow{slice, *stride, *at, extent};
}

// Replaces `read` by `result`, and drops its slice once nothing reads it.
void replaceRead(vector::TransferReadOp read, tensor::ExtractSliceOp slice, Value result) {
  read.replaceAllUsesWith(result);
  read.erase();
  if (slice->use_empty())
    slice->erase();
}

// Rewrites `read` when it reads a 1-D vector along the innermost dimension
// of a slice with stride above 1 there, in bounds, from a constant position
// on that dimension. Returns whether it did.
bool deinterleave(vector::TransferReadOp read) {
  auto vectorType = read.getVectorType();
  if (vectorType.getRank() != 1 || !read.getPermutationMap().isMinorIdentity())
    return false;
  int64_t lanes = vectorType.getShape().back();
  std::optional<StridedRow> strided = stridedRow(read, lanes);
  if (!strided)
    return false;
  int64_t stride = strided->stride, at = strided->at;
  OpBuilder builder(read);
  Location loc = read.getLoc();
  Value row = contiguousRow(builder, loc, strided->slice, stride, strided->extent);
  SmallVector<Value> indices(read.getIndices().begin(), read.getIndices().end());
  Value result = ub::PoisonOp::create(builder, loc, vectorType);
  for (int64_t first = 0; first < lanes; first += CHUNK) {
    int64_t count = std::min(CHUNK, lanes - first);
    // All but the last chunk read up to the next chunk's first element;
    // the last reads only up to its own last element, which is in bounds.
    bool last = first + count == lanes;
    int64_t width = last ? (count - 1) * stride + 1 : count * stride;
    indices.back() = arith::ConstantIndexOp::create(builder, loc, (at + first) * stride);
    auto wideType = VectorType::get({width}, vectorType.getElementType());
    Value wide = vector::TransferReadOp::create(builder, loc, wideType, row, indices,
                                                read.getPadding(), ArrayRef<bool>{true});
    SmallVector<int64_t> kept;
    for (int64_t lane = 0; lane < count; ++lane)
      kept.push_back(lane * stride);
    Value chunk = vector::ShuffleOp::create(builder, loc, wide, wide, kept);
    result = count == lanes ? chunk
                            : vector::InsertStridedSliceOp::create(builder, loc, chunk, result,
                                                                   ArrayRef<int64_t>{first},
                                                                   ArrayRef<int64_t>{1})
                                  .getResult();
  }
  replaceRead(read, strided->slice, result);
  return true;
}

// Rewrites `read` when it reads a 2-D vector whose first dimension runs
// along the innermost dimension of a slice with stride above 1 there (in
// bounds, from a constant position) and whose second is a broadcast: each
// row becomes a scalar read broadcast. Returns whether it did.
bool broadcastLanes(vector::TransferReadOp read) {
  auto vectorType = read.getVectorType();
  AffineMap map = read.getPermutationMap();
  unsigned innermost = map.getNumDims() - 1;
  if (vectorType.getRank() != 2 || map.getNumResults() != 2 ||
      map.getResult(0) != getAffineDimExpr(innermost, read.getContext()) ||
      map.getResult(1) != getAffineConstantExpr(0, read.getContext()))
    return false;
  int64_t lanes = vectorType.getShape()[0];
  std::optional<StridedRow> strided = stridedRow(read, lanes);
  if (!strided)
    return false;
  int64_t stride = strided->stride, at = strided->at;
  OpBuilder builder(read);
  Location loc = read.getLoc();
  Value row = contiguousRow(builder, loc, strided->slice, stride, strided->extent);
  auto rowType = VectorType::get({vectorType.getShape()[1]}, vectorType.getElementType());
  SmallVector<Value> indices(read.getIndices().begin(), read.getIndices().end());
  Value result = ub::PoisonOp::create(builder, loc, vectorType);
  for (int64_t lane = 0; lane < lanes; ++lane) {
    indices.back() = arith::ConstantIndexOp::create(builder, loc, (at + lane) * stride);
    Value element = tensor::ExtractOp::create(builder, loc, row, indices);
    Value broadcast = vector::BroadcastOp::create(builder, loc, rowType, element);
    result = vector::InsertOp::create(builder, loc, broadcast, result, ArrayRef<int64_t>{lane});
  }
  replaceRead(read, strided->slice, result);
  return true;
}

} // namespace

// De-interleaves every strided vector read under `root`, or reads its
// elements one by one where each is broadcast. Returns the reads rewritten.
extern "C" int64_t schedDeinterleaveStridedReads(MlirOperation root) {
  return rewriteEach<vector::TransferReadOp>(unwrap(root), [](vector::TransferReadOp read) {
    return deinterleave(read) || broadcastLanes(read);
  });
}
