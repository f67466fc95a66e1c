// compute_inline: fuses one elementwise linalg op into every linalg op that
// reads its result as an input, with upstream's elementwise-op fusion (the
// rewrite the linalg-fuse-elementwise-ops pass applies everywhere, here to
// one chosen producer). The C API has no entry point for it, hence C++.
//
// Each reader gets a copy of the producer first, so every fusion sees a
// producer with one use and the fused op does not keep the producer's value
// as an extra result. Named ops are generalized (linalg.transpose,
// linalg.matmul, ... become linalg.generic) and keep their discardable
// attributes, as do the fused ops, so the caller can find them again.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {

// Keep in step with payload/src/ffi/mod.rs (InlineStatus).
enum InlineStatus {
  Inlined = 0,
  ProducerNotFusable = 1,
  ReaderRefused = 2,
};

// `op` as a linalg.generic: itself, or generalized in its place with its
// discardable attributes.
FailureOr<linalg::GenericOp> asGeneric(RewriterBase &rewriter, Operation *op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return generic;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return failure();
  SmallVector<NamedAttribute> kept(op->getDiscardableAttrs());
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::GenericOp> generic =
      linalg::generalizeNamedOp(rewriter, linalgOp);
  if (failed(generic))
    return failure();
  for (NamedAttribute attribute : kept)
    (*generic)->setDiscardableAttr(attribute.getName(), attribute.getValue());
  return generic;
}

// The first use of `value` as an input of a linalg op.
OpOperand *firstLinalgInputUse(Value value) {
  for (OpOperand &use : value.getUses()) {
    auto reader = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (reader && reader.isDpsInput(&use))
      return &use;
  }
  return nullptr;
}

} // namespace

// Fuses `rawProducer` into each linalg op reading it as an input; erases it
// when nothing else uses it. On `ReaderRefused`, `failedReader` is the reader
// fusion refused (already generalized); the payload is then partly rewritten.
extern "C" int schedInlineProducer(MlirOperation rawProducer,
                                   MlirOperation *failedReader) {
  Operation *producerOp = unwrap(rawProducer);
  IRRewriter rewriter(producerOp->getContext());
  FailureOr<linalg::GenericOp> producer = asGeneric(rewriter, producerOp);
  if (failed(producer) || (*producer)->getNumResults() != 1)
    return ProducerNotFusable;
  Operation *original = producer->getOperation();
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
    for (NamedAttribute attribute : kept)
      fusion->fusedOp->setDiscardableAttr(attribute.getName(),
                                          attribute.getValue());
    rewriter.eraseOp(reader->getOperation());
    if (copy->use_empty())
      rewriter.eraseOp(copy);
  }
  if (original->use_empty())
    rewriter.eraseOp(original);
  return Inlined;
}
