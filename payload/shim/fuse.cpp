// `transform.sched.fuse_into` (SchedTransformOps.td): compute_at's fusion
// of a producer into a loop its consumer was tiled by. Upstream's
// `fuse_into_containing_op` does the same, but first builds a remark that
// prints the producer and the whole loop, whether the fusion fails or not;
// printing numbers every value in the loop, so a chain of n producers fused
// into one loop took O(n²) (1 000 producers: 16 s). Here nothing is printed
// unless the fusion fails, and then only the ops' names.
// `transform.sched.fresh_init` gives a fill fused this way a destination of
// its own (its description says why).

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/TilingInterface.h"

#define GET_OP_CLASSES
#include "SchedTransformOps.h.inc"

using namespace mlir;

namespace {

// How many uses `producer`'s results have in `loop`, the loop's own
// operands included.
size_t usesIn(Operation *producer, Operation *loop) {
  size_t count = 0;
  for (OpOperand &use : producer->getUses())
    if (loop->isAncestor(use.getOwner()))
      ++count;
  return count;
}

// The first `tensor.extract_slice` of `value` strictly inside `loop`.
tensor::ExtractSliceOp firstSliceIn(Value value, Operation *loop) {
  for (Operation *user : value.getUsers())
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user))
      if (loop->isProperAncestor(slice))
        return slice;
  return {};
}

// Whether `init` is the tensor `start` a loop's iteration argument starts
// from, directly or through the iteration arguments of loops around it.
bool startsFrom(Value start, Value init) {
  while (start != init) {
    auto argument = dyn_cast<BlockArgument>(start);
    auto loop = argument ? dyn_cast<LoopLikeOpInterface>(
                               argument.getOwner()->getParentOp())
                         : LoopLikeOpInterface();
    OpOperand *tied = loop ? loop.getTiedLoopInit(argument) : nullptr;
    if (!tied)
      return false;
    start = tied->get();
  }
  return true;
}

// A copy of `producer` just before `slice`, to be tiled and then erased,
// writing into the iteration arguments of the loop that holds `slice`
// where they start from the producer's own destinations: its tiles then
// write into the consumer's output in place, not into tensors of their
// own. Null when `slice` is not directly in a loop.
Operation *copyWritingInPlace(RewriterBase &rewriter, Operation *producer,
                              tensor::ExtractSliceOp slice) {
  auto loop = dyn_cast<LoopLikeOpInterface>(slice->getParentOp());
  if (!loop)
    return nullptr;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(slice);
  Operation *copy = rewriter.clone(*producer);
  auto dps = dyn_cast<DestinationStyleOpInterface>(copy);
  if (!dps)
    return copy;
  for (OpOperand &init : dps.getDpsInitsMutable())
    for (BlockArgument argument : loop.getRegionIterArgs()) {
      OpOperand *start = loop.getTiedLoopInit(argument);
      if (start && startsFrom(start->get(), init.get()))
        rewriter.modifyOpInPlace(copy, [&] { init.set(argument); });
    }
  return copy;
}

// Replaces `slice` by result `resultNumber` of `producer` computed on the
// slice's tile, just before it. Returns the tile, or failure (nothing
// changed).
FailureOr<TilingResult> computeAt(RewriterBase &rewriter,
                                  TilingInterface producer,
                                  unsigned resultNumber,
                                  tensor::ExtractSliceOp slice) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(slice);
  FailureOr<TilingResult> tile = producer.generateResultTileValue(
      rewriter, resultNumber, slice.getMixedOffsets(), slice.getMixedSizes());
  if (failed(tile))
    return failure();
  FailureOr<Value> value = tensor::ExtractSliceOp::rankReduceIfNeeded(
      rewriter, slice.getLoc(), tile->tiledValues.front(),
      slice.getResultType().getShape());
  if (failed(value)) {
    for (Operation *op : llvm::reverse(tile->tiledOps))
      rewriter.eraseOp(op);
    return failure();
  }
  rewriter.replaceOp(slice, *value);
  return tile;
}

// When the result of `producer` (a `linalg.generic`, as upstream's op
// requires) is also read after `loop` (an `scf.forall`),
// gives the loop one more shared output, initialized by the producer's
// init, into which every iteration inserts its tile; the readers after the
// loop read that output instead, so the producer is not computed twice.
// Returns the new loop, or null when there is nothing to do.
Operation *shareTile(RewriterBase &rewriter, Operation *producer,
                     unsigned resultNumber, Operation *loop, Value tile,
                     ArrayRef<OpFoldResult> offsets,
                     ArrayRef<OpFoldResult> sizes) {
  auto forall = dyn_cast<scf::ForallOp>(loop);
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  if (!forall || !generic)
    return nullptr;
  Value result = producer->getResult(resultNumber);
  DominanceInfo dominance(forall);
  SmallPtrSet<Operation *, 4> after;
  for (Operation *user : result.getUsers())
    if (!forall->isAncestor(user) && dominance.dominates(forall, user))
      after.insert(user);
  if (after.empty())
    return nullptr;

  Value init = generic.getDpsInitOperand(resultNumber)->get();
  SmallVector<Value> outputs(forall.getOutputs());
  outputs.push_back(init);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(forall);
  auto widened = scf::ForallOp::create(
      rewriter, forall.getLoc(), forall.getMixedLowerBound(),
      forall.getMixedUpperBound(), forall.getMixedStep(), outputs,
      forall.getMapping());
  rewriter.eraseBlock(widened.getBody());
  widened.getRegion().takeBody(forall.getRegion());
  BlockArgument slot =
      widened.getBody()->addArgument(init.getType(), init.getLoc());
  rewriter.replaceUsesWithIf(init, slot, [&](OpOperand &use) {
    return widened->isProperAncestor(use.getOwner());
  });
  scf::InParallelOp terminator = widened.getTerminator();
  rewriter.setInsertionPointToStart(terminator.getBody());
  SmallVector<OpFoldResult> strides(offsets.size(), rewriter.getIndexAttr(1));
  tensor::ParallelInsertSliceOp::create(rewriter, forall.getLoc(), tile, slot,
                                        offsets, sizes, strides);
  for (auto [old, replacement] :
       llvm::zip(forall.getResults(), widened.getResults()))
    rewriter.replaceAllUsesWith(old, replacement);
  rewriter.replaceUsesWithIf(result, widened.getResults().back(),
                             [&](OpOperand &use) {
                               return after.contains(use.getOwner());
                             });
  return widened;
}

// Computes a tile of `producer` where `loop` reads it through its shared
// output (an `scf.forall`'s `shared_outs` operand is the producer's
// result): the tile is computed in the slice of the block argument the
// loop's body reads, and the loop's output starts from the producer's
// destination instead. Returns the tile's ops, or none.
SmallVector<Operation *> computeInOutput(RewriterBase &rewriter,
                                         TilingInterface producer,
                                         Operation *loop) {
  auto forall = dyn_cast<scf::ForallOp>(loop);
  if (!forall)
    return {};
  OpOperand *output = nullptr;
  for (OpOperand &use : producer->getUses())
    if (use.getOwner() == loop) {
      output = &use;
      break;
    }
  if (!output)
    return {};
  BlockArgument slot = forall.getTiedBlockArgument(output);
  tensor::ExtractSliceOp slice = firstSliceIn(slot, loop);
  if (!slice)
    return {};
  unsigned resultNumber = cast<OpResult>(output->get()).getResultNumber();

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(slice);
  SmallVector<Value> destinations;
  if (failed(tensor::getOrCreateDestinations(rewriter, producer->getLoc(),
                                             producer, destinations)))
    return {};
  // A copy of the producer writing into the block argument is tiled, then
  // dropped: its tile writes into the slice the body reads.
  IRMapping intoSlot;
  intoSlot.map(destinations[resultNumber], slot);
  auto copy = cast<TilingInterface>(rewriter.clone(*producer, intoSlot));
  FailureOr<TilingResult> tile = computeAt(rewriter, copy, resultNumber, slice);
  rewriter.eraseOp(copy);
  if (failed(tile))
    return {};
  rewriter.modifyOpInPlace(
      loop, [&] { output->set(destinations[resultNumber]); });
  return tile->tiledOps;
}

// Clones `producer` before its first reader in `loop` that reads it whole.
// Returns the clone, or null.
Operation *cloneAtUse(RewriterBase &rewriter, Operation *producer,
                      Operation *loop) {
  for (OpOperand &use : producer->getUses()) {
    if (use.getOwner() == loop ||
        isa<tensor::ParallelInsertSliceOp>(use.getOwner()))
      return nullptr;
  }
  for (OpOperand &use : producer->getUses()) {
    if (!loop->isProperAncestor(use.getOwner()))
      continue;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(use.getOwner());
    Operation *clone = rewriter.clone(*producer);
    unsigned resultNumber = cast<OpResult>(use.get()).getResultNumber();
    rewriter.modifyOpInPlace(use.getOwner(),
                             [&] { use.set(clone->getResult(resultNumber)); });
    return clone;
  }
  return nullptr;
}

// Fuses one use of `producer` in `loop`, first by tiling it to a slice the
// loop reads, then through the loop's shared output, then by cloning it,
// and appends what computes it there to `fused`. Returns the loop that
// replaced `loop` (when the tile is also read after it) or null; failure
// when no route applies (nothing changed).
FailureOr<Operation *> fuseOneUse(RewriterBase &rewriter, Operation *producer,
                                  Operation *loop,
                                  SmallVectorImpl<Operation *> &fused) {
  if (auto tileable = dyn_cast<TilingInterface>(producer)) {
    tensor::ExtractSliceOp slice;
    for (OpResult result : producer->getResults())
      if ((slice = firstSliceIn(result, loop)))
        break;
    if (slice) {
      unsigned resultNumber =
          cast<OpResult>(slice.getSource()).getResultNumber();
      SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
      SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
      Operation *copy = copyWritingInPlace(rewriter, producer, slice);
      FailureOr<TilingResult> tile = computeAt(
          rewriter, copy ? cast<TilingInterface>(copy) : tileable,
          resultNumber, slice);
      if (copy)
        rewriter.eraseOp(copy);
      if (succeeded(tile)) {
        llvm::append_range(fused, tile->tiledOps);
        return shareTile(rewriter, producer, resultNumber, loop,
                         tile->tiledValues.front(), offsets, sizes);
      }
    }
    SmallVector<Operation *> inOutput =
        computeInOutput(rewriter, tileable, loop);
    if (!inOutput.empty()) {
      llvm::append_range(fused, inOutput);
      return nullptr;
    }
  }
  if (Operation *clone = cloneAtUse(rewriter, producer, loop)) {
    fused.push_back(clone);
    return nullptr;
  }
  return failure();
}

} // namespace

DiagnosedSilenceableFailure
transform::FuseIntoOp::apply(transform::TransformRewriter &rewriter,
                             transform::TransformResults &results,
                             transform::TransformState &state) {
  auto loops = llvm::to_vector(state.getPayloadOps(getLoop()));
  if (loops.size() != 1)
    return emitDefiniteFailure()
           << "expects one loop, got " << loops.size();
  Operation *loop = loops.front();
  SmallVector<Operation *> fused;
  // Every use in the loop gets its own tile, as upstream's op does. Uses
  // are fused one at a time, each from the first producer that has one
  // (fusing a producer can give another its first use in the loop).
  SetVector<Operation *> remaining;
  for (Operation *producer : state.getPayloadOps(getProducer()))
    remaining.insert(producer);
  auto refuse = [&](Operation *producer, const Twine &why) {
    DiagnosedSilenceableFailure diag = emitSilenceableError() << why;
    diag.attachNote(producer->getLoc()) << "the producer";
    diag.attachNote(loop->getLoc()) << "the loop";
    return diag;
  };
  while (!remaining.empty()) {
    Operation *const *next = llvm::find_if(
        remaining, [&](Operation *op) { return usesIn(op, loop) > 0; });
    if (next == remaining.end())
      return refuse(remaining.front(),
                    "the producer is not used inside the loop: nothing to fuse");
    Operation *producer = *next;
    FailureOr<Operation *> widened = fuseOneUse(rewriter, producer, loop, fused);
    if (failed(widened))
      return refuse(producer, "cannot compute " +
                                  producer->getName().getStringRef() +
                                  " inside " + loop->getName().getStringRef() +
                                  ": no use of it there can be tiled or cloned");
    if (*widened) {
      // The loop got a shared output: handles to it follow it.
      if (failed(rewriter.notifyPayloadOperationReplaced(loop, *widened)))
        return emitDefiniteFailure()
               << "cannot update the handles to the loop";
      rewriter.eraseOp(loop);
      loop = *widened;
    }
    if (usesIn(producer, loop) == 0)
      remaining.remove(producer);
  }
  results.set(cast<OpResult>(getFused()), fused);
  results.set(cast<OpResult>(getNewLoop()), {loop});
  return DiagnosedSilenceableFailure::success();
}

void transform::FuseIntoOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getProducerMutable(), effects);
  onlyReadsHandle(getLoopMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

DiagnosedSilenceableFailure
transform::FreshInitOp::apply(transform::TransformRewriter &rewriter,
                              transform::TransformResults &,
                              transform::TransformState &state) {
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto fill = dyn_cast<linalg::FillOp>(target);
    if (!fill || !fill.hasPureTensorSemantics())
      return emitSilenceableError()
             << "expected a linalg.fill on tensors, got " << target->getName();
    OpOperand &init = fill.getDpsInitsMutable()[0];
    if (init.get().getDefiningOp<tensor::EmptyOp>())
      continue;
    auto type = cast<RankedTensorType>(init.get().getType());
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(fill);
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, fill.getLoc(), init.get());
    Value empty = tensor::EmptyOp::create(rewriter, fill.getLoc(), sizes,
                                          type.getElementType());
    rewriter.modifyOpInPlace(fill, [&] { init.set(empty); });
  }
  return DiagnosedSilenceableFailure::success();
}

void transform::FreshInitOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}
