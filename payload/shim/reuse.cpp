// `transform.sched.reuse_buffer` (SchedTransformOps.td): HeteroCL's reuse
// buffer on tensors. The tiles an op reads of one tensor inside an scf.for
// move by a fixed step along one dimension; consecutive iterations share
// most of them. The loop carries their union (the rectangular hull) as an
// iteration argument: each iteration shifts it by the step, extracts only
// the step's new elements from the tensor, and the op reads its tiles from
// the buffer. No upstream transform op keeps a tensor across iterations,
// hence C++.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"
#include "reuse.h"
#include "llvm/ADT/MapVector.h"

#define GET_OP_CLASSES
#include "SchedTransformOps.h.inc"

#define GET_OP_CLASSES
#include "SchedTransformOps.cpp.inc"

using namespace mlir;

namespace {

// An index as `constant + sum(coefficient * value)`, the values opaque.
struct Linear {
  int64_t constant = 0;
  llvm::MapVector<Value, int64_t> terms;

  void add(const Linear &other, int64_t scale = 1) {
    constant += scale * other.constant;
    for (auto [value, coefficient] : other.terms)
      terms[value] += scale * coefficient;
    terms.remove_if([](auto &term) { return term.second == 0; });
  }
  bool sameTerms(const Linear &other) const {
    if (terms.size() != other.terms.size())
      return false;
    for (auto [value, coefficient] : terms) {
      auto found = other.terms.find(value);
      if (found == other.terms.end() || found->second != coefficient)
        return false;
    }
    return true;
  }
  int64_t coefficient(Value value) const {
    auto found = terms.find(value);
    return found == terms.end() ? 0 : found->second;
  }
};

Linear opaque(Value value) {
  Linear linear;
  linear.terms[value] = 1;
  return linear;
}

Linear linearize(Value value);

// `expr` over `operands` (dims then symbols) as a linear form, if it is one.
std::optional<Linear> linearizeExpr(AffineExpr expr, ValueRange operands,
                                    unsigned numDims) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    Linear linear;
    linear.constant = constant.getValue();
    return linear;
  }
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return linearize(operands[dim.getPosition()]);
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return linearize(operands[numDims + symbol.getPosition()]);
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  std::optional<Linear> lhs = linearizeExpr(binary.getLHS(), operands, numDims);
  std::optional<Linear> rhs = linearizeExpr(binary.getRHS(), operands, numDims);
  if (!lhs || !rhs)
    return std::nullopt;
  if (expr.getKind() == AffineExprKind::Add) {
    lhs->add(*rhs);
    return lhs;
  }
  if (expr.getKind() == AffineExprKind::Mul) {
    if (rhs->terms.empty()) {
      Linear scaled;
      scaled.add(*lhs, rhs->constant);
      return scaled;
    }
    if (lhs->terms.empty()) {
      Linear scaled;
      scaled.add(*rhs, lhs->constant);
      return scaled;
    }
  }
  return std::nullopt;
}

// `value` as a linear form over the values it is computed from by constants
// and single-result affine.apply ops; anything else is an opaque term.
Linear linearize(Value value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value)) {
    Linear linear;
    linear.constant = *constant;
    return linear;
  }
  if (auto apply = value.getDefiningOp<affine::AffineApplyOp>()) {
    AffineMap map = apply.getAffineMap();
    if (std::optional<Linear> linear = linearizeExpr(
            map.getResult(0), apply.getMapOperands(), map.getNumDims()))
      return *linear;
  }
  return opaque(value);
}

Linear linearize(OpFoldResult offset) {
  if (auto value = dyn_cast<Value>(offset))
    return linearize(value);
  Linear linear;
  linear.constant = cast<IntegerAttr>(cast<Attribute>(offset)).getInt();
  return linear;
}

// `linear` as an index computed at the rewriter's insertion point.
OpFoldResult materialize(RewriterBase &rewriter, Location loc,
                         const Linear &linear) {
  MLIRContext *context = rewriter.getContext();
  AffineExpr expr = getAffineConstantExpr(linear.constant, context);
  SmallVector<OpFoldResult> operands;
  for (auto [value, coefficient] : linear.terms) {
    expr = expr + getAffineSymbolExpr(operands.size(), context) * coefficient;
    operands.push_back(value);
  }
  AffineMap map = AffineMap::get(0, operands.size(), expr);
  return affine::makeComposedFoldedAffineApply(rewriter, loc, map, operands);
}

// One tile the op reads: the slice it reads (`value`) as offsets into
// `source` (composed through the slices in between) and static sizes.
struct Tile {
  Value value;
  Value source;
  SmallVector<Linear> offsets;
  SmallVector<int64_t> sizes;
};

// The tile operand `input` of `op` reads inside `loop`, or why not.
FailureOr<Tile> tileOf(Operation *op, int64_t input, scf::ForOp loop,
                       std::string &why) {
  Value value = op->getOperand(input);
  auto slice = value.getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || !loop->isProperAncestor(slice)) {
    why = "input " + std::to_string(input) +
          " is not a tile (tensor.extract_slice) made inside the loop";
    return failure();
  }
  Tile tile{value, Value(), {}, {}};
  for (int64_t size : slice.getStaticSizes()) {
    if (ShapedType::isDynamic(size)) {
      why = "the tile of input " + std::to_string(input) +
            " has a dynamic size";
      return failure();
    }
    tile.sizes.push_back(size);
  }
  tile.offsets.resize(tile.sizes.size());
  Value source = value;
  while (auto current = source.getDefiningOp<tensor::ExtractSliceOp>()) {
    bool unitStrides = llvm::all_of(current.getStaticStrides(),
                                    [](int64_t s) { return s == 1; });
    if (!unitStrides ||
        current.getSourceType().getRank() != current.getType().getRank()) {
      why = "the tile of input " + std::to_string(input) +
            " is strided or drops dimensions";
      return failure();
    }
    for (auto [d, offset] : llvm::enumerate(current.getMixedOffsets()))
      tile.offsets[d].add(linearize(offset));
    source = current.getSource();
  }
  if (!loop.isDefinedOutsideOfLoop(source)) {
    why = "input " + std::to_string(input) +
          " reads a tensor computed inside the loop";
    return failure();
  }
  tile.source = source;
  return tile;
}

// Whether `linear`'s terms other than `iv` are all defined outside `loop`.
bool invariantBesides(const Linear &linear, Value iv, scf::ForOp loop) {
  return llvm::all_of(linear.terms, [&](auto &term) {
    return term.first == iv || loop.isDefinedOutsideOfLoop(term.first);
  });
}

} // namespace

// The reuse buffer of input `input` of `op` at `loop`, and of every other
// input reading the same tensor; on failure, `why`.
LogicalResult sched::reuseBuffer(RewriterBase &rewriter, scf::ForOp loop,
                                 Operation *op, int64_t input,
                                 ArrayRef<Operation *> producers,
                                 ReuseSites &sites, std::string &why) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !loop->isProperAncestor(op)) {
    why = "the target is not a structured op inside the loop";
    return failure();
  }
  if (input < 0 || input >= linalgOp.getNumDpsInputs()) {
    why = "the op has no input " + std::to_string(input);
    return failure();
  }
  FailureOr<Tile> named = tileOf(op, input, loop, why);
  if (failed(named))
    return failure();
  SmallVector<Tile> tiles;
  for (int64_t other = 0; other < linalgOp.getNumDpsInputs(); ++other) {
    if (other == input) {
      tiles.push_back(*named);
      continue;
    }
    std::string ignored;
    FailureOr<Tile> tile = tileOf(op, other, loop, ignored);
    if (succeeded(tile) && tile->source == named->source)
      tiles.push_back(*tile);
  }
  Value source = tiles.front().source;
  if (!producers.empty() &&
      !llvm::is_contained(producers, source.getDefiningOp())) {
    why = "input " + std::to_string(input) +
          " does not read a tensor the stored func computes";
    return failure();
  }
  Value iv = loop.getInductionVar();
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step) {
    why = "the loop's step is not a constant";
    return failure();
  }
  int64_t rank = tiles.front().sizes.size();
  // The hull of the tiles along each dimension, relative to their common
  // moving part, and the dimension that moves with the loop.
  SmallVector<int64_t> low(rank), shape(rank);
  std::optional<int64_t> moving;
  int64_t advance = 0;
  for (int64_t d = 0; d < rank; ++d) {
    const Linear &first = tiles.front().offsets[d];
    int64_t high = INT64_MIN;
    low[d] = INT64_MAX;
    for (const Tile &tile : tiles) {
      const Linear &offset = tile.offsets[d];
      if (!offset.sameTerms(first) || !invariantBesides(offset, iv, loop)) {
        why = "the tiles' offsets along dimension " + std::to_string(d) +
              " do not differ by constants, or depend on values computed in "
              "the loop";
        return failure();
      }
      low[d] = std::min(low[d], offset.constant);
      high = std::max(high, offset.constant + tile.sizes[d]);
    }
    shape[d] = high - low[d];
    if (int64_t coefficient = first.coefficient(iv)) {
      if (moving) {
        why = "the tiles move along more than one dimension";
        return failure();
      }
      moving = d;
      advance = coefficient * *step;
    }
  }
  if (!moving) {
    why = "the tiles do not move with the loop: every iteration reads the "
          "same elements, nothing new to shift in";
    return failure();
  }
  int64_t dim = *moving;
  if (advance <= 0 || advance >= shape[dim]) {
    why = "each iteration moves " + std::to_string(advance) +
          " along dimension " + std::to_string(dim) +
          " and the tiles span " + std::to_string(shape[dim]) +
          " there: consecutive iterations share no elements";
    return failure();
  }
  Location loc = op->getLoc();
  Type element = cast<ShapedType>(source.getType()).getElementType();
  SmallVector<OpFoldResult> ones(rank, rewriter.getIndexAttr(1));
  auto sizesWith = [&](int64_t along) {
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(rewriter.getIndexAttr(d == dim ? along : shape[d]));
    return sizes;
  };
  auto offsetsWith = [&](int64_t along) {
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    offsets[dim] = rewriter.getIndexAttr(along);
    return offsets;
  };
  // Offsets into `source` of the elements of the hull from `from` on along
  // the moving dimension, at the iteration where iv is `at`.
  auto sourceOffsets = [&](const Linear &at, int64_t from) {
    SmallVector<OpFoldResult> offsets;
    for (int64_t d = 0; d < rank; ++d) {
      Linear offset = tiles.front().offsets[d];
      int64_t coefficient = offset.coefficient(iv);
      offset.terms.erase(iv);
      if (coefficient)
        offset.add(at, coefficient);
      offset.constant += low[d] - tiles.front().offsets[d].constant +
                         (d == dim ? from : 0);
      offsets.push_back(materialize(rewriter, loc, offset));
    }
    return offsets;
  };
  int64_t kept = shape[dim] - advance;

  // Before the loop: the part of the first iteration's hull it shares with
  // the iteration before, placed where the shift will move it from.
  rewriter.setInsertionPoint(loop);
  auto first = tensor::ExtractSliceOp::create(
      rewriter, loc, source, sourceOffsets(linearize(loop.getLowerBound()), 0),
      sizesWith(kept), ones);
  sites.prologue = first;
  Value empty = tensor::EmptyOp::create(rewriter, loc, shape, element);
  Value init = tensor::InsertSliceOp::create(rewriter, loc, first, empty,
                                             offsetsWith(advance),
                                             sizesWith(kept), ones);

  NamedAttrList attributes(loop->getDiscardableAttrDictionary());
  FailureOr<LoopLikeOpInterface> replaced =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalIterOperands(rewriter, ValueRange{init},
                                             /*replaceInitOperandUsesInLoop=*/
                                             false);
  if (failed(replaced)) {
    why = "the loop could not carry the buffer";
    return failure();
  }
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());
  for (NamedAttribute attribute : attributes)
    newLoop->setDiscardableAttr(attribute.getName(), attribute.getValue());
  Value previous = newLoop.getRegionIterArgs().back();
  Value newIv = newLoop.getInductionVar();

  // In the loop: shift, then extract the new elements. The shift moves
  // `advance` elements at a time, front first, so no move reads what it
  // writes (bufferization keeps each one in place, in the buffer).
  rewriter.setInsertionPointToStart(newLoop.getBody());
  Value shifted = previous;
  for (int64_t from = advance; from < shape[dim]; from += advance) {
    int64_t length = std::min(advance, shape[dim] - from);
    Value moved = tensor::ExtractSliceOp::create(
        rewriter, loc, shifted, offsetsWith(from), sizesWith(length), ones);
    shifted = tensor::InsertSliceOp::create(rewriter, loc, moved, shifted,
                                            offsetsWith(from - advance),
                                            sizesWith(length), ones);
  }
  // The new elements, copied by a linalg.copy into the buffer's slice
  // (bufferized in place): folding a read of the buffer through an
  // insert_slice would read the tensor again instead. The slot comes first,
  // so what replaces the copy (a sliding window's producer) can write to it.
  Value slot = tensor::ExtractSliceOp::create(
      rewriter, loc, shifted, offsetsWith(kept), sizesWith(advance), ones);
  Linear at = opaque(newIv);
  Value fresh = tensor::ExtractSliceOp::create(
      rewriter, loc, source, sourceOffsets(at, kept), sizesWith(advance),
      ones);
  sites.refill = linalg::CopyOp::create(rewriter, loc, fresh, slot);
  Value filled = sites.refill->getResult(0);
  Value buffer = tensor::InsertSliceOp::create(rewriter, loc, filled, shifted,
                                               offsetsWith(kept),
                                               sizesWith(advance), ones);
  // The tiles, read from the buffer.
  llvm::SmallPtrSet<void *, 8> done;
  for (const Tile &tile : tiles) {
    // Operands reading the same slice value share its replacement.
    if (!done.insert(tile.value.getAsOpaquePointer()).second)
      continue;
    SmallVector<OpFoldResult> offsets, sizes;
    for (int64_t d = 0; d < rank; ++d) {
      offsets.push_back(
          rewriter.getIndexAttr(tile.offsets[d].constant - low[d]));
      sizes.push_back(rewriter.getIndexAttr(tile.sizes[d]));
    }
    Value read = tensor::ExtractSliceOp::create(
        rewriter, loc, cast<RankedTensorType>(tile.value.getType()), buffer,
        offsets, sizes, ones);
    Operation *old = tile.value.getDefiningOp();
    rewriter.replaceAllUsesWith(tile.value, read);
    // The slices it was read through, now unused.
    while (old && old->use_empty()) {
      auto slice = dyn_cast<tensor::ExtractSliceOp>(old);
      if (!slice)
        break;
      Operation *next = slice.getSource().getDefiningOp();
      rewriter.eraseOp(old);
      old = next;
    }
  }
  auto yield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
  rewriter.modifyOpInPlace(yield, [&] {
    yield->setOperand(yield->getNumOperands() - 1, buffer);
  });
  return success();
}

DiagnosedSilenceableFailure
sched::loopAndTarget(Operation *transformOp, transform::TransformState &state,
                     Value loopHandle, Value targetHandle, scf::ForOp &loop,
                     Operation *&target) {
  auto loops = llvm::to_vector(state.getPayloadOps(loopHandle));
  auto targets = llvm::to_vector(state.getPayloadOps(targetHandle));
  if (loops.size() != 1 || targets.size() != 1)
    return emitDefiniteFailure(transformOp)
           << "expects one loop and one target, got " << loops.size()
           << " and " << targets.size();
  loop = dyn_cast<scf::ForOp>(loops.front());
  if (!loop)
    return emitDefiniteFailure(transformOp) << "the loop is not an scf.for";
  target = targets.front();
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
transform::ReuseBufferOp::apply(transform::TransformRewriter &rewriter,
                                transform::TransformResults &,
                                transform::TransformState &state) {
  scf::ForOp loop;
  Operation *target;
  DiagnosedSilenceableFailure found = sched::loopAndTarget(
      getOperation(), state, getLoop(), getTarget(), loop, target);
  if (!found.succeeded())
    return found;
  std::string why;
  sched::ReuseSites sites;
  if (failed(sched::reuseBuffer(rewriter, loop, target, getInput(),
                                {}, sites, why)))
    return emitSilenceableError() << "no reuse buffer here: " << why;
  return DiagnosedSilenceableFailure::success();
}

void transform::ReuseBufferOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  onlyReadsHandle(getLoopMutable(), effects);
  modifiesPayload(effects);
}

namespace {

class SchedTransformExtension
    : public transform::TransformDialectExtension<SchedTransformExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SchedTransformExtension)

  SchedTransformExtension() {
    declareGeneratedDialect<affine::AffineDialect>();
    declareGeneratedDialect<tensor::TensorDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "SchedTransformOps.cpp.inc"
        >();
  }
};

} // namespace

// Registers sched-apply's own transform ops (called by registry.cpp).
void schedRegisterTransformOps(DialectRegistry &registry) {
  registry.addExtensions<SchedTransformExtension>();
}
