// `transform.sched.sliding_window` (SchedTransformOps.td): Halide's
// `store_at` + `compute_at`. The consumer's reuse buffer of a producer's
// result (reuse.cpp) takes its elements from slices of that result; here the
// producer is tiled to each of those slices instead, so the loop computes
// only what the previous iteration did not, straight into the buffer.

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"
#include "reuse.h"

#define GET_OP_CLASSES
#include "SchedTransformOps.h.inc"

using namespace mlir;

namespace {

// The position in `producers` of the op defining `value`, if any.
std::optional<size_t> producerOf(Value value, ArrayRef<Operation *> producers) {
  auto found = llvm::find(producers, value.getDefiningOp());
  if (found == producers.end())
    return std::nullopt;
  return found - producers.begin();
}

// Replaces `slice` of a producer's result by the producer tiled to it, and
// the slices the tile reads of other producers' results (an update's init,
// the fill) by their tiles too. Adds each tile to `tiled` at its producer's
// position. Returns the value that replaced `slice`.
FailureOr<Value> computeSlice(RewriterBase &rewriter,
                              tensor::ExtractSliceOp slice,
                              ArrayRef<Operation *> producers,
                              SmallVector<SmallVector<Operation *>> &tiled,
                              std::string &why) {
  Value computed;
  SmallVector<tensor::ExtractSliceOp> worklist{slice};
  while (!worklist.empty()) {
    tensor::ExtractSliceOp current = worklist.pop_back_val();
    std::optional<size_t> index = producerOf(current.getSource(), producers);
    if (!index)
      continue;
    rewriter.setInsertionPoint(current);
    FailureOr<TilingResult> tile = tensor::replaceExtractSliceWithTiledProducer(
        rewriter, current, cast<OpResult>(current.getSource()));
    if (failed(tile)) {
      why = "the stored func cannot be computed on a tile";
      return failure();
    }
    if (current == slice)
      computed = tile->tiledValues.front();
    rewriter.replaceOp(current, tile->tiledValues.front());
    for (Operation *op : tile->tiledOps) {
      tiled[*index].push_back(op);
      for (Value operand : op->getOperands())
        if (auto read = operand.getDefiningOp<tensor::ExtractSliceOp>())
          if (producerOf(read.getSource(), producers))
            worklist.push_back(read);
    }
  }
  return computed;
}

// Makes the tiles that compute `value` write it into `slot` instead of a
// tensor of their own, when the innermost init of their chain is not read
// (a fill's, or a pure map's). Returns whether they do.
bool computeInto(RewriterBase &rewriter, Value value, Value slot) {
  auto result = dyn_cast<OpResult>(value);
  while (result) {
    auto op = dyn_cast<linalg::LinalgOp>(result.getOwner());
    if (!op)
      return false;
    OpOperand *init = op.getDpsInitOperand(result.getResultNumber());
    if (op.payloadUsesValueFromOperand(init)) {
      // An update reads its init: follow it down to where it is made.
      result = dyn_cast<OpResult>(init->get());
      if (!result || !isa<linalg::LinalgOp>(result.getOwner()))
        return false;
      continue;
    }
    if (init->get().getType() != slot.getType())
      return false;
    rewriter.modifyOpInPlace(op, [&] { init->set(slot); });
    return true;
  }
  return false;
}

} // namespace

LogicalResult transform::SlidingWindowOp::verify() {
  if (getComputed().size() != 2 * getProducers().size())
    return emitOpError() << "expects two results per producer (its tiles "
                            "before the loop, then in it), got "
                         << getComputed().size() << " for "
                         << getProducers().size();
  if (getProducers().empty())
    return emitOpError() << "expects at least one producer";
  return success();
}

DiagnosedSilenceableFailure
transform::SlidingWindowOp::apply(transform::TransformRewriter &rewriter,
                                  transform::TransformResults &results,
                                  transform::TransformState &state) {
  scf::ForOp loop;
  Operation *target;
  DiagnosedSilenceableFailure found = sched::loopAndTarget(
      getOperation(), state, getLoop(), getTarget(), loop, target);
  if (!found.succeeded())
    return found;
  SmallVector<Operation *> producers;
  for (Value handle : getProducers()) {
    auto ops = llvm::to_vector(state.getPayloadOps(handle));
    if (ops.size() != 1)
      return emitDefiniteFailure()
             << "expects one op per producer handle, got " << ops.size();
    producers.push_back(ops.front());
  }
  std::string why;
  sched::ReuseSites sites;
  if (failed(sched::reuseBuffer(rewriter, loop, target, getInput(), producers,
                                sites, why)))
    return emitSilenceableError() << "no sliding window here: " << why;

  SmallVector<SmallVector<Operation *>> before(producers.size());
  SmallVector<SmallVector<Operation *>> inside(producers.size());
  if (failed(computeSlice(rewriter, sites.prologue, producers, before, why)))
    return emitDefiniteFailure() << why;
  auto fresh = sites.refill.getInputs().front().getDefiningOp<tensor::ExtractSliceOp>();
  FailureOr<Value> computed = computeSlice(rewriter, fresh, producers, inside, why);
  if (failed(computed))
    return emitDefiniteFailure() << why;
  // The new elements are computed into the buffer: the copy is not needed.
  if (computeInto(rewriter, *computed, sites.refill.getOutputs().front()))
    rewriter.replaceOp(sites.refill, *computed);

  // The producers, computed whole before, are read no more (an update
  // first, then the fill it read).
  SmallVector<Operation *> left(producers);
  bool erased = true;
  while (erased) {
    erased = false;
    for (Operation *&producer : left)
      if (producer && producer->use_empty()) {
        rewriter.eraseOp(producer);
        producer = nullptr;
        erased = true;
      }
  }
  for (auto [i, tiles] : llvm::enumerate(before))
    results.set(cast<OpResult>(getComputed()[i]), tiles);
  for (auto [i, tiles] : llvm::enumerate(inside))
    results.set(cast<OpResult>(getComputed()[producers.size() + i]), tiles);
  return DiagnosedSilenceableFailure::success();
}

void transform::SlidingWindowOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  onlyReadsHandle(getLoopMutable(), effects);
  consumesHandle(getProducersMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}
