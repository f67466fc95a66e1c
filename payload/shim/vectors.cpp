// After bufferization: vectors whose innermost dimension is not a power of
// two (`vector<8x48xf32>` on AVX-512: 3 registers per row) are split into
// pieces of one row and a power-of-two width, at most one machine vector.
// LLVM legalizes such a type by widening it (48 lanes to 64): a register
// tile of 6 x 48 carried by the reduction loop was rebuilt through the
// stack lane by lane at every step, 20 times slower than the 6 x 64 tile
// (1536³ SGEMM on Zen 4: 5.04 GFLOP/s against 109.78; 6 x 24 with
// `vectorize(ji, 8)`: 6.20). Powers of two split cleanly in LLVM and are
// left as they are.
//
// The pieces are single rows, and a register tile's contraction is unrolled
// row by row: each row's broadcast feeds all of that row's pieces and is
// dead before the next row's. Pieces of whole columns (every row of the
// first 8 lanes, then of the next) kept every row's broadcast live across
// the pieces: the 4 x 24 AVX2 tile (12 accumulators, 3 vectors of B, a
// broadcast: 16 registers) then needed 19, and LLVM spilled two
// accumulators to the stack in the reduction loop.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/VectorInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "each.h"

using namespace mlir;

namespace {

// The width of the pieces to cut `type` into: when its innermost dimension
// is not a power of two, the largest power of two that divides it, at most
// one `bits`-wide machine vector and at least 128 bits (`vector<8x48xf32>`
// on AVX-512: 16 lanes; `vector<6x24xf32>`: 8); else nothing.
std::optional<int64_t> pieceLanes(Type type, int64_t bits) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || vector.getRank() == 0 || vector.isScalable() ||
      !vector.getElementType().isIntOrFloat())
    return std::nullopt;
  int64_t elementBits = vector.getElementType().getIntOrFloatBitWidth();
  int64_t inner = vector.getShape().back();
  if (elementBits == 0 || inner <= 0 ||
      llvm::isPowerOf2_64(static_cast<uint64_t>(inner)))
    return std::nullopt;
  int64_t lanes = std::min(bits / elementBits, inner & -inner);
  if (lanes * elementBits < 128)
    return std::nullopt;
  return lanes;
}

// A piece of `type`: one row (every outer dimension 1), `lanes` wide.
VectorType pieceType(VectorType type, int64_t lanes) {
  SmallVector<int64_t> shape(type.getRank(), 1);
  shape.back() = lanes;
  return VectorType::get(shape, type.getElementType());
}

// The offsets of `type`'s pieces `lanes` wide, row by row (the rows in
// row-major order, each row's pieces left to right).
SmallVector<SmallVector<int64_t>> pieceOffsets(VectorType type,
                                               int64_t lanes) {
  SmallVector<SmallVector<int64_t>> all;
  SmallVector<int64_t> at(type.getRank(), 0);
  ArrayRef<int64_t> shape = type.getShape();
  while (true) {
    all.push_back(at);
    // The next offset: the innermost dimension by `lanes`, the others by
    // one, carried over as on an odometer.
    int64_t d = type.getRank() - 1;
    at[d] += lanes;
    while (d > 0 && at[d] >= shape[d]) {
      at[d] = 0;
      --d;
      at[d] += 1;
    }
    if (at[d] >= shape[d])
      return all;
  }
}

// The pieces of `whole`, one row and `lanes` wide each, in `pieceOffsets`'
// order.
SmallVector<Value> cut(OpBuilder &builder, Location loc, Value whole,
                       int64_t lanes) {
  auto type = cast<VectorType>(whole.getType());
  SmallVector<int64_t> strides(type.getRank(), 1);
  SmallVector<int64_t> sizes(pieceType(type, lanes).getShape());
  SmallVector<Value> pieces;
  for (ArrayRef<int64_t> offsets : pieceOffsets(type, lanes))
    pieces.push_back(vector::ExtractStridedSliceOp::create(
        builder, loc, whole, offsets, sizes, strides));
  return pieces;
}

// The vector of `type` made of `pieces` (the inverse of `cut`).
Value join(OpBuilder &builder, Location loc, VectorType type,
           ValueRange pieces, int64_t lanes) {
  Value whole = ub::PoisonOp::create(builder, loc, type);
  SmallVector<int64_t> strides(type.getRank(), 1);
  for (auto [piece, offsets] : llvm::zip(pieces, pieceOffsets(type, lanes)))
    whole = vector::InsertStridedSliceOp::create(builder, loc, piece, whole,
                                                 offsets, strides);
  return whole;
}

// `values` with each one that has a piece width in `lanes` replaced by its
// pieces.
SmallVector<Value> cutEach(OpBuilder &builder, Location loc, ValueRange values,
                           ArrayRef<std::optional<int64_t>> lanes) {
  SmallVector<Value> cutValues;
  for (auto [value, width] : llvm::zip(values, lanes)) {
    if (width)
      llvm::append_range(cutValues, cut(builder, loc, value, *width));
    else
      cutValues.push_back(value);
  }
  return cutValues;
}

// The inverse of `cutEach`: `pieces` joined back into values of `types`.
SmallVector<Value> joinEach(OpBuilder &builder, Location loc, TypeRange types,
                            ValueRange pieces,
                            ArrayRef<std::optional<int64_t>> lanes) {
  SmallVector<Value> joined;
  unsigned next = 0;
  for (auto [type, width] : llvm::zip(types, lanes)) {
    auto vector = dyn_cast<VectorType>(type);
    unsigned count = width ? vector.getNumElements() / *width : 1;
    ValueRange own = pieces.slice(next, count);
    joined.push_back(width ? join(builder, loc, vector, own, *width)
                           : own.front());
    next += count;
  }
  return joined;
}

// Replaces `loop` by one that carries each wide vector as its pieces: the
// body and the users still see the whole vector, joined from the pieces,
// which canonicalization then takes apart. Returns whether it changed.
bool splitCarriedVectors(scf::ForOp loop, int64_t bits) {
  SmallVector<std::optional<int64_t>> lanes;
  for (Value init : loop.getInitArgs())
    lanes.push_back(pieceLanes(init.getType(), bits));
  if (llvm::none_of(lanes, [](auto width) { return width.has_value(); }))
    return false;
  Location loc = loop.getLoc();
  OpBuilder builder(loop);
  auto split = scf::ForOp::create(
      builder, loc, loop.getLowerBound(), loop.getUpperBound(), loop.getStep(),
      cutEach(builder, loc, loop.getInitArgs(), lanes));
  Block *body = split.getBody();
  builder.setInsertionPointToStart(body);
  SmallVector<Value> wholeArguments{split.getInductionVar()};
  llvm::append_range(wholeArguments,
                     joinEach(builder, loc, loop.getInitArgs().getTypes(),
                              split.getRegionIterArgs(), lanes));
  // The old body moves after the joins, its arguments replaced by them.
  Block *old = loop.getBody();
  auto oldYield = cast<scf::YieldOp>(old->getTerminator());
  body->getOperations().splice(body->end(), old->getOperations(),
                               old->begin(), std::prev(old->end()));
  for (auto [argument, whole] : llvm::zip(old->getArguments(), wholeArguments))
    argument.replaceAllUsesWith(whole);
  builder.setInsertionPointToEnd(body);
  scf::YieldOp::create(builder, loc,
                       cutEach(builder, loc, oldYield.getOperands(), lanes));
  builder.setInsertionPointAfter(split);
  for (auto [result, whole] :
       llvm::zip(loop.getResults(), joinEach(builder, loc, loop.getResultTypes(),
                                             split.getResults(), lanes)))
    result.replaceAllUsesWith(whole);
  loop->erase();
  return true;
}

// The shape `op` unrolls to: its unroll shape with the dimension that
// becomes a wide vector's innermost one cut to machine-vector width and,
// for a contraction, an element-wise op or a transfer, the dimensions of
// the result's (a write's vector's) other dimensions cut to one, so that
// it unrolls to pieces as `cut` makes them, in their order; none when no
// operand or result of `op` is such a vector.
std::optional<SmallVector<int64_t>> nativeShape(Operation *op, int64_t bits) {
  auto unrollable = dyn_cast<VectorUnrollOpInterface>(op);
  if (!unrollable)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> shape = unrollable.getShapeForUnroll();
  if (!shape || shape->empty())
    return std::nullopt;
  // The widest vector `op` touches sets the piece.
  std::optional<int64_t> lanes;
  for (Type type : llvm::concat<Type>(op->getOperandTypes(),
                                      op->getResultTypes()))
    if (auto width = pieceLanes(type, bits))
      lanes = lanes ? std::min(*lanes, *width) : *width;
  if (!lanes)
    return std::nullopt;
  // Which iteration dimension is the innermost one of the result (the
  // accumulator's for a contraction, else the last), and which are its rows.
  size_t dimension = shape->size() - 1;
  SmallVector<int64_t> rows;
  if (auto contract = dyn_cast<vector::ContractionOp>(op)) {
    AffineMap accumulator = contract.getIndexingMapsArray().back();
    if (accumulator.getNumResults() == 0)
      return std::nullopt;
    auto last = dyn_cast<AffineDimExpr>(accumulator.getResults().back());
    if (!last)
      return std::nullopt;
    dimension = last.getPosition();
    for (AffineExpr result : accumulator.getResults().drop_back())
      if (auto row = dyn_cast<AffineDimExpr>(result))
        rows.push_back(row.getPosition());
  } else if (isa<vector::TransferReadOp, vector::TransferWriteOp>(op) ||
             OpTrait::hasElementwiseMappableTraits(op)) {
    // Their unroll shape is the vector's.
    for (size_t d = 0; d + 1 < shape->size(); ++d)
      rows.push_back(d);
  }
  if ((*shape)[dimension] % *lanes != 0)
    return std::nullopt;
  SmallVector<int64_t> native(*shape);
  native[dimension] = *lanes;
  for (int64_t d : rows)
    native[d] = 1;
  if (native == *shape)
    return std::nullopt;
  return native;
}

} // namespace

// Splits every vector whose innermost dimension is not a power of two into
// power-of-two pieces of at most a `bits`-wide machine vector (`pieceLanes`):
// loop-carried values become one `scf.for` argument per piece, and the
// vector ops on them (contractions, transfers, element-wise ops) are
// unrolled to the pieces. Returns the loops whose arguments were split.
extern "C" int64_t schedSplitWideVectors(MlirOperation root, int64_t bits) {
  int64_t split = rewriteEach<scf::ForOp>(
      unwrap(root), [&](scf::ForOp loop) { return splitCarriedVectors(loop, bits); });
  bool wide = false;
  unwrap(root)->walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      wide |= pieceLanes(type, bits).has_value();
  });
  if (!wide)
    return split;
  MLIRContext *context = unwrap(root)->getContext();
  // The unrolled ops' indices are affine applies and arith constants; a
  // payload that had none has not loaded those dialects.
  context->getOrLoadDialect<ub::UBDialect>();
  context->getOrLoadDialect<affine::AffineDialect>();
  context->getOrLoadDialect<arith::ArithDialect>();
  RewritePatternSet patterns(context);
  vector::populateVectorUnrollPatterns(
      patterns, vector::UnrollVectorOptions().setNativeShapeFn(
                    [bits](Operation *op) { return nativeShape(op, bits); }));
  vector::ExtractStridedSliceOp::getCanonicalizationPatterns(patterns,
                                                             context);
  vector::InsertStridedSliceOp::getCanonicalizationPatterns(patterns, context);
  (void)applyPatternsGreedily(unwrap(root), std::move(patterns));
  return split;
}
