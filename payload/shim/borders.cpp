// After bufferization: a padded buffer's border is filled inside the loop
// that writes its interior, each iteration, once it has written its part of
// the interior, the border beside that part. `empties.cpp` turned each pad
// into fills of the border before the producer, so each fill was a pass of
// its own over the whole buffer: a column border (one float per row)
// touches a cache line of every row, out of cache then, and on one thread
// however many the producer runs on. In resnet18 at batch 8 the 72 border
// fills took 7-9 ms of a 122 ms call on two threads. Filled at the end of
// the iteration, a column border's lines are those of the rows just written
// (filled at the start, the same moves ran 0-5% slower).
//
// Moving a fill is safe when nothing between it and the loop touches the
// buffer but the other border fills (of one value), the loop touches it
// only through the interior (which the border does not overlap), and the
// loop's iterations together cover the interior's range in each dimension
// the fill is split along. A fill spanning more than that range there (a
// column border's rows include the corners) leaves the rest in its place.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "boxes.h"
#include "each.h"

using namespace mlir;

namespace {

// How one induction variable of a loop steps through a buffer: along
// dimension `dim`, `tile` elements per iteration, from `start` to
// `start + extent` (the interior's range there).
struct Step {
  unsigned dim;
  int64_t tile, start, extent;
};

// The multiple of `iv` that `offset` is (`iv` itself, or an `affine.apply`
// of `d0 * c` to it), or nothing.
std::optional<int64_t> multipleOf(Value offset, Value iv) {
  if (offset == iv)
    return 1;
  auto apply = offset.getDefiningOp<affine::AffineApplyOp>();
  if (!apply || apply.getMapOperands().size() != 1 ||
      apply.getMapOperands()[0] != iv)
    return std::nullopt;
  AffineExpr expr = apply.getAffineMap().getResult(0);
  auto product = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!product || product.getKind() != AffineExprKind::Mul ||
      !isa<AffineDimExpr>(product.getLHS()))
    return std::nullopt;
  auto factor = dyn_cast<AffineConstantExpr>(product.getRHS());
  if (!factor)
    return std::nullopt;
  return factor.getValue();
}

// How `loop` (normalized: lower bounds 0, steps 1, static trip counts)
// steps through `interior` (whose box in its buffer is `box`) when `tile`,
// a subview of it at the top of the loop's body, is what each iteration
// writes: every induction variable is the offset of one dimension, in
// steps of the tile's size there, and the iterations cover the interior in
// that dimension; the other offsets are static.
std::optional<SmallVector<Step>> stepsOf(scf::ForallOp loop, memref::SubViewOp tile,
                                         const sched::Box &box) {
  auto zero = [](OpFoldResult v) { return isConstantIntValue(v, 0); };
  auto one = [](OpFoldResult v) { return isConstantIntValue(v, 1); };
  if (!loop.getOutputs().empty() || !llvm::all_of(loop.getMixedLowerBound(), zero) ||
      !llvm::all_of(loop.getMixedStep(), one) ||
      tile.getSourceType().getRank() != tile.getType().getRank() ||
      !llvm::all_of(tile.getStaticStrides(), [](int64_t s) { return s == 1; }))
    return std::nullopt;
  SmallVector<Step> steps;
  for (auto [iv, bound] : llvm::zip(loop.getInductionVars(), loop.getMixedUpperBound())) {
    std::optional<int64_t> trips = getConstantIntValue(bound);
    std::optional<Step> step;
    for (auto [dim, offset] : llvm::enumerate(tile.getMixedOffsets())) {
      auto value = dyn_cast<Value>(offset);
      if (!value)
        continue;
      std::optional<int64_t> factor = multipleOf(value, iv);
      if (!factor)
        continue;
      int64_t size = tile.getStaticSizes()[dim];
      if (step || !trips || *factor != size || ShapedType::isDynamic(size) ||
          *trips * size != box.sizes[dim])
        return std::nullopt;
      step = Step{static_cast<unsigned>(dim), size, box.offsets[dim], box.sizes[dim]};
    }
    if (!step)
      return std::nullopt;
    steps.push_back(*step);
  }
  // Every dynamic offset is one of the steps.
  if (llvm::count_if(tile.getMixedOffsets(), [](OpFoldResult v) { return isa<Value>(v); }) !=
      static_cast<int64_t>(steps.size()))
    return std::nullopt;
  return steps;
}

// A buffer's border fills before a loop: those that move into it, and the
// boxes of those that stay.
struct Borders {
  SmallVector<linalg::FillOp> moved;
  SmallVector<sched::Box> kept;
};

// The border fills of `box.base` before `loop`; those that may move into it
// are fills of a subview of the buffer, disjoint from `interior`, spanning
// the interior's range in every dimension the loop steps through. None unless
// every use of the buffer before the loop is such a fill's subview, used by
// the fill only, all with one value (so the fills left in place and those
// moved may be written in any order), no use of the buffer is in the loop
// but through the interior, and every use of the interior is in the loop
// or after it.
Borders bordersBefore(scf::ForallOp loop, Value interior, const sched::Box &box,
                      ArrayRef<Step> steps) {
  Block *block = loop->getBlock();
  auto inOrAfter = [&](Operation *user) {
    Operation *held = block->findAncestorOpInBlock(*user);
    return held && (held == loop || loop->isBeforeInBlock(held));
  };
  if (!llvm::all_of(interior.getUsers(), inOrAfter))
    return {};
  Borders borders;
  Value value;
  for (Operation *user : box.base.getUsers()) {
    if (user == interior.getDefiningOp())
      continue;
    Operation *held = block->findAncestorOpInBlock(*user);
    if (held == loop)
      return {};
    if (held && loop->isBeforeInBlock(held))
      continue;
    auto subview = dyn_cast<memref::SubViewOp>(user);
    if (!subview || user->getBlock() != block || !subview->hasOneUse())
      return {};
    auto fill = dyn_cast<linalg::FillOp>(*subview->getUsers().begin());
    std::optional<sched::Box> border = sched::boxOf(subview.getResult());
    if (!fill || fill->getBlock() != block || !fill->isBeforeInBlock(loop) || !border ||
        border->base != box.base || !sched::disjoint(subview.getResult(), interior) ||
        (value && fill.getInputs()[0] != value))
      return {};
    value = fill.getInputs()[0];
    bool spans = llvm::all_of(steps, [&](Step step) {
      return border->offsets[step.dim] <= step.start &&
             border->offsets[step.dim] + border->sizes[step.dim] >= step.start + step.extent;
    });
    if (spans)
      borders.moved.push_back(fill);
    else
      borders.kept.push_back(*border);
  }
  return borders;
}

// Whether box `inner` lies in box `outer` (of the same buffer).
bool within(const sched::Box &inner, const sched::Box &outer) {
  for (size_t d = 0; d < inner.offsets.size(); ++d)
    if (inner.offsets[d] < outer.offsets[d] ||
        inner.offsets[d] + inner.sizes[d] > outer.offsets[d] + outer.sizes[d])
      return false;
  return true;
}

// The offset each induction variable of `loop` starts its part at in the
// dimension it steps through, computed where `builder` inserts.
SmallVector<Value> stepOffsets(OpBuilder &builder, scf::ForallOp loop, ArrayRef<Step> steps) {
  Location loc = loop.getLoc();
  SmallVector<Value> offsets;
  for (auto [iv, step] : llvm::zip(loop.getInductionVars(), steps)) {
    Value offset = iv;
    if (step.tile != 1)
      offset = arith::MulIOp::create(builder, loc, offset,
                                     arith::ConstantIndexOp::create(builder, loc, step.tile));
    if (step.start != 0)
      offset = arith::AddIOp::create(builder, loc, offset,
                                     arith::ConstantIndexOp::create(builder, loc, step.start));
    offsets.push_back(offset);
  }
  return offsets;
}

// A fill with `value` of the box at `offsets` of `sizes` in `base`.
void fillBox(OpBuilder &builder, Location loc, Value value, Value base,
             ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(offsets.size(), builder.getIndexAttr(1));
  Value part = memref::SubViewOp::create(builder, loc, base, offsets, sizes, strides);
  linalg::FillOp::create(builder, loc, value, part);
}

// Replaces `fill` by a fill, where `builder` inserts (the end of the
// loop's body), of the part of its region each iteration steps through
// (`steps`, at the offsets `at`), and fills in its place of the parts
// outside the interior's range in those dimensions (a column border's
// corners) that no fill kept in place (`kept`, a row border) covers.
void fillInEachIteration(OpBuilder &builder, linalg::FillOp fill, ArrayRef<Step> steps,
                         ArrayRef<Value> at, ArrayRef<sched::Box> kept) {
  auto subview = fill.getOutputs()[0].getDefiningOp<memref::SubViewOp>();
  sched::Box border = *sched::boxOf(subview.getResult());
  Value value = fill.getInputs()[0];
  Location loc = fill.getLoc();
  OpBuilder before(fill);
  auto attrs = [&](ArrayRef<int64_t> values) {
    return llvm::map_to_vector(values, [&](int64_t v) -> OpFoldResult {
      return before.getIndexAttr(v);
    });
  };
  for (Step step : steps) {
    int64_t low = border.offsets[step.dim], end = low + border.sizes[step.dim];
    for (auto [from, to] : {std::pair{low, step.start},
                            std::pair{step.start + step.extent, end}}) {
      if (from >= to)
        continue;
      sched::Box rest = border;
      rest.offsets[step.dim] = from;
      rest.sizes[step.dim] = to - from;
      if (llvm::none_of(kept, [&](const sched::Box &box) { return within(rest, box); }))
        fillBox(before, loc, value, border.base, attrs(rest.offsets), attrs(rest.sizes));
    }
    border.offsets[step.dim] = step.start;
    border.sizes[step.dim] = step.extent;
  }
  SmallVector<OpFoldResult> offsets = attrs(border.offsets), sizes = attrs(border.sizes);
  for (auto [offset, step] : llvm::zip(at, steps)) {
    offsets[step.dim] = offset;
    sizes[step.dim] = builder.getIndexAttr(step.tile);
  }
  fillBox(builder, loc, value, border.base, offsets, sizes);
  fill->erase();
  subview->erase();
}

// Moves the border fills of the buffer whose interior `loop` writes into
// it. Returns the fills moved.
int64_t moveBordersInto(scf::ForallOp loop) {
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto tile = dyn_cast<memref::SubViewOp>(op);
    if (!tile)
      continue;
    // The interior: a subview of an allocation or an argument (a result
    // the caller allocates), both before the loop.
    Value interior = tile.getSource();
    auto defining = interior.getDefiningOp<memref::SubViewOp>();
    std::optional<sched::Box> box = sched::boxOf(interior);
    if (!defining || defining->getBlock() != loop->getBlock() || !box ||
        box->base != defining.getSource() || box->base.getParentBlock() != loop->getBlock() ||
        !(box->base.getDefiningOp<memref::AllocOp>() || isa<BlockArgument>(box->base)))
      continue;
    std::optional<SmallVector<Step>> steps = stepsOf(loop, tile, *box);
    if (!steps)
      continue;
    Borders borders = bordersBefore(loop, interior, *box, *steps);
    SmallVector<linalg::FillOp> &fills = borders.moved;
    if (fills.empty())
      return 0;
    OpBuilder builder(loop.getBody()->getTerminator());
    SmallVector<Value> at = stepOffsets(builder, loop, *steps);
    llvm::sort(fills, [](linalg::FillOp a, linalg::FillOp b) { return a->isBeforeInBlock(b); });
    for (linalg::FillOp fill : fills)
      fillInEachIteration(builder, fill, *steps, at, borders.kept);
    return fills.size();
  }
  return 0;
}

} // namespace

// Moves each padded buffer's border fills into the `scf.forall` that then
// writes its interior (see the top of this file). Returns the fills moved.
extern "C" int64_t schedFillBordersInProducers(MlirOperation root) {
  return rewriteEach<scf::ForallOp>(unwrap(root), moveBordersInto);
}
