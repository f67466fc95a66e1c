// compute_inline: fuses one elementwise linalg op into every linalg op that
// reads its result as an input, with upstream's elementwise-op fusion (the
// rewrite the linalg-fuse-elementwise-ops pass applies everywhere, here to
// one chosen producer). The C API has no entry point for it, hence C++.
//
// Each reader gets a copy of the producer first, so every fusion sees a
// producer with one use and the fused op need not keep the producer's value
// as an extra result (where upstream keeps it all the same, it is dropped
// after: `dropUnusedLeadingResults`). Named ops are generalized (linalg.transpose,
// linalg.matmul, ... become linalg.generic) and keep their discardable
// attributes, as do the fused ops, so the caller can find them again.
//
// A reader that sees the producer through `tensor.expand_shape` or
// `tensor.collapse_shape` gets it directly: upstream's reshape propagation
// first moves the reshape above the producer (the producer's iteration
// dimensions expanded or collapsed with it), for this producer only.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/IR/PatternMatch.h"
#include "generic.h"

using namespace mlir;

namespace {

// Keep in step with payload/src/ffi/mod.rs (InlineStatus).
enum InlineStatus {
  Inlined = 0,
  ProducerNotFusable = 1,
  ReaderRefused = 2,
};

// The first use of `value` as an input of a linalg op.
OpOperand *firstLinalgInputUse(Value value) {
  for (OpOperand &use : value.getUses()) {
    auto reader = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (reader && reader.isDpsInput(&use))
      return &use;
  }
  return nullptr;
}

// Records the ops a rewrite erases (the greedy driver erases a producer the
// rewrite left without uses).
struct ErasedOps : public RewriterBase::Listener {
  llvm::DenseSet<Operation *> erased;
  void notifyOperationErased(Operation *op) override { erased.insert(op); }
};

// Moves each reshape of `producer`'s result above it, and of the ops that
// replace it, and so on: `expand_shape(P(x))` becomes `P'(expand_shape(x))`
// (upstream's `populateFoldReshapeOpsByExpansionPatterns`; collapsing
// through `populateFoldReshapeOpsByCollapsingPatterns`), so the reshape's
// readers read P' directly. Returns the producers left (P, unless it lost
// every use, and each P', with P's discardable attributes), or the reshape
// that cannot move.
FailureOr<SmallVector<Operation *>> moveReshapesAbove(Operation *original,
                                                      Operation **stuck) {
  SmallVector<Operation *> work{original}, producers;
  while (!work.empty()) {
    Operation *producer = work.pop_back_val();
    SmallVector<Operation *> reshapes;
    for (Operation *user : producer->getResult(0).getUsers())
      if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user))
        reshapes.push_back(user);
    // The attributes are read first: the driver erases a producer once unused.
    SmallVector<NamedAttribute> kept(producer->getDiscardableAttrs());
    ErasedOps listener;
    for (Operation *reshape : reshapes) {
      SmallVector<OpOperand *> readers;
      for (OpOperand &use : reshape->getResult(0).getUses())
        readers.push_back(&use);
      if (readers.empty())
        continue;
      linalg::ControlFusionFn onlyThis = [producer](OpOperand *operand) {
        return operand->get().getDefiningOp() == producer &&
               isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
                   operand->getOwner());
      };
      RewritePatternSet patterns(producer->getContext());
      if (isa<tensor::ExpandShapeOp>(reshape))
        linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, onlyThis);
      else
        linalg::populateFoldReshapeOpsByCollapsingPatterns(patterns, onlyThis);
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingOps);
      config.setListener(&listener);
      bool changed = false;
      (void)applyOpPatternsGreedily(ArrayRef<Operation *>{reshape},
                                    std::move(patterns), config, &changed);
      Operation *moved = readers.front()->get().getDefiningOp();
      if (!changed || !moved || !isa<linalg::GenericOp>(moved)) {
        *stuck = reshape;
        return failure();
      }
      for (NamedAttribute attribute : kept)
        moved->setDiscardableAttr(attribute.getName(), attribute.getValue());
      work.push_back(moved);
    }
    if (!listener.erased.contains(producer))
      producers.push_back(producer);
  }
  return producers;
}

// Drops the first `count` results of `op` (the producer's values fusion
// kept) when nothing uses them, the body does not read their inits, and the
// loop bounds stay computable from the other operands. Upstream keeps such a
// result whenever the bounds are not computable from the producer's and the
// reader's maps apart (a convolution's window dimensions appear in its input
// only as `y + ky`), though the fused op's own maps give them; two results
// would then stop unit-dimension folding from tracking the op. (Upstream's
// `deduplicateOperandsAndRemoveDeadResults` would also merge equal inputs,
// moving the positions `pack` and `prefetch` name: see
// interpreter/src/inline/operands.rs.)
Operation *dropUnusedLeadingResults(RewriterBase &rewriter,
                                    linalg::GenericOp op, unsigned count) {
  unsigned inputs = op.getNumDpsInputs();
  for (unsigned i = 0; i < count; ++i)
    if (!op->getResult(i).use_empty() ||
        op.payloadUsesValueFromOperand(op.getDpsInitOperand(i)))
      return op;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps.erase(maps.begin() + inputs, maps.begin() + inputs + count);
  if (!inversePermutation(concatAffineMaps(maps, op.getContext())))
    return op;
  SmallVector<Value> inits(llvm::drop_begin(op.getDpsInits(), count));
  rewriter.setInsertionPoint(op);
  auto kept = linalg::GenericOp::create(
      rewriter, op.getLoc(), ValueRange(inits).getTypes(), op.getDpsInputs(),
      inits, maps, op.getIteratorTypesArray());
  rewriter.inlineRegionBefore(op.getRegion(), kept.getRegion(),
                              kept.getRegion().begin());
  Block &body = kept.getRegion().front();
  Operation *yield = body.getTerminator();
  rewriter.modifyOpInPlace(yield, [&] { yield->eraseOperands(0, count); });
  body.eraseArguments(inputs, count);
  for (NamedAttribute attribute : op->getDiscardableAttrs())
    kept->setDiscardableAttr(attribute.getName(), attribute.getValue());
  rewriter.replaceAllUsesWith(op->getResults().drop_front(count),
                              kept->getResults());
  rewriter.eraseOp(op);
  return kept;
}

// Fuses the generic `original` into each linalg op reading it as an input;
// erases it when nothing else uses it (or only unused reshapes).
int inlineInto(IRRewriter &rewriter, Operation *original,
               MlirOperation *failedReader) {
  while (OpOperand *use = firstLinalgInputUse(original->getResult(0))) {
    Operation *readerOp = use->getOwner();
    unsigned operandNumber = use->getOperandNumber();
    rewriter.setInsertionPointAfter(original);
    Operation *copy = rewriter.clone(*original);
    use->set(copy->getResult(0));
    FailureOr<linalg::GenericOp> reader = asGeneric(rewriter, readerOp);
    if (failed(reader)) {
      *failedReader = wrap(readerOp);
      return ReaderRefused;
    }
    SmallVector<NamedAttribute> kept((*reader)->getDiscardableAttrs());
    OpOperand &fused = (*reader)->getOpOperand(operandNumber);
    if (!linalg::areElementwiseOpsFusable(&fused)) {
      *failedReader = wrap(reader->getOperation());
      return ReaderRefused;
    }
    // The fused op takes the reader's place (as in the upstream pattern,
    // whose root is the reader): its body may use values defined before it.
    rewriter.setInsertionPoint(reader->getOperation());
    FailureOr<linalg::ElementwiseOpFusionResult> fusion =
        linalg::fuseElementwiseOps(rewriter, &fused);
    if (failed(fusion)) {
      *failedReader = wrap(reader->getOperation());
      return ReaderRefused;
    }
    for (auto [value, replacement] : fusion->replacements)
      rewriter.replaceUsesWithIf(value, replacement, [&](OpOperand &u) {
        return u.get().getDefiningOp() != copy;
      });
    unsigned readerResults = (*reader)->getNumResults();
    rewriter.eraseOp(reader->getOperation());
    if (copy->use_empty())
      rewriter.eraseOp(copy);
    Operation *fusedOp = fusion->fusedOp;
    if (fusedOp->getNumResults() > readerResults)
      fusedOp = dropUnusedLeadingResults(
          rewriter, cast<linalg::GenericOp>(fusedOp),
          fusedOp->getNumResults() - readerResults);
    for (NamedAttribute attribute : kept)
      fusedOp->setDiscardableAttr(attribute.getName(), attribute.getValue());
  }
  // Moving a collapse_shape above the producer leaves an unused expand_shape
  // of its result (the other way round too), which would keep it alive.
  for (Operation *user :
       llvm::make_early_inc_range(original->getResult(0).getUsers()))
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user) &&
        user->use_empty())
      rewriter.eraseOp(user);
  if (original->use_empty())
    rewriter.eraseOp(original);
  return Inlined;
}

// Erases the `tensor.empty` and reshape ops in `function` that nothing
// uses any more (moving a reshape leaves the producer's empty init
// reshaped), users first.
void eraseDeadShapeOps(RewriterBase &rewriter, Operation *function) {
  SmallVector<Operation *> ops;
  function->walk([&](Operation *op) {
    if (isa<tensor::EmptyOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
            op))
      ops.push_back(op);
  });
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty())
      rewriter.eraseOp(op);
}

} // namespace

// Fuses `rawProducer` into each linalg op reading it as an input, directly
// or through reshapes (`moveReshapesAbove`); erases it when nothing else
// uses it. On `ReaderRefused`, `failedReader` is the reader fusion refused
// (already generalized) or the reshape that could not move; the payload is
// then partly rewritten.
extern "C" int schedInlineProducer(MlirOperation rawProducer,
                                   MlirOperation *failedReader) {
  Operation *producerOp = unwrap(rawProducer);
  IRRewriter rewriter(producerOp->getContext());
  FailureOr<linalg::GenericOp> producer = asGeneric(rewriter, producerOp);
  if (failed(producer) || (*producer)->getNumResults() != 1)
    return ProducerNotFusable;
  // Read first: moving reshapes may erase the producer.
  Operation *function = producer->getOperation()->getParentOp();
  Operation *stuck = nullptr;
  FailureOr<SmallVector<Operation *>> producers =
      moveReshapesAbove(producer->getOperation(), &stuck);
  if (failed(producers)) {
    *failedReader = wrap(stuck);
    return ReaderRefused;
  }
  for (Operation *each : *producers)
    if (int status = inlineInto(rewriter, each, failedReader);
        status != Inlined)
      return status;
  eraseDeadShapeOps(rewriter, function);
  return Inlined;
}
