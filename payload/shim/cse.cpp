// `transform.sched.cse` (SchedTransformOps.td): common subexpressions of
// ops without regions eliminated inside the targets. Upstream's
// `apply_cse` also merges ops with regions, and looks them up by a hash
// that leaves the regions out: the loops of a compute_at chain, one per
// producer, all hash alike, so each was compared with every other (1 000
// producers: 0.5 s, growing as n²). The values worth merging in a loop nest
// (index arithmetic, constants, slices, empties) have no regions.

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/ScopedHashTable.h"

#define GET_OP_CLASSES
#include "SchedTransformOps.h.inc"

using namespace mlir;

namespace {

// Ops are keys by what they compute: name, attributes, operands and result
// types, never their locations.
struct SameValue : llvm::DenseMapInfo<Operation *> {
  static unsigned getHashValue(const Operation *op) {
    return OperationEquivalence::computeHash(
        const_cast<Operation *>(op), OperationEquivalence::directHashValue,
        OperationEquivalence::ignoreHashValue,
        OperationEquivalence::IgnoreLocations);
  }
  static bool isEqual(const Operation *a, const Operation *b) {
    if (a == b)
      return true;
    if (a == getEmptyKey() || a == getTombstoneKey() || b == getEmptyKey() ||
        b == getTombstoneKey())
      return false;
    return OperationEquivalence::isEquivalentTo(
        const_cast<Operation *>(a), const_cast<Operation *>(b),
        OperationEquivalence::exactValueMatch, nullptr,
        OperationEquivalence::IgnoreLocations);
  }
};

using Known = llvm::ScopedHashTable<Operation *, Operation *, SameValue>;

// Whether `op` may be replaced by an earlier op computing the same values.
bool mergeable(Operation &op) {
  return op.getNumRegions() == 0 && op.getNumResults() > 0 &&
         !op.hasTrait<OpTrait::IsTerminator>() && isMemoryEffectFree(&op);
}

// Merges the ops of `block` with equal ones before them (in it or in the
// blocks around it, whose ops are in `known`), erases the ops nothing
// reads, and does the same in the single-block regions of its ops.
void eliminate(RewriterBase &rewriter, Block &block, Known &known) {
  Known::ScopeTy scope(known);
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (isOpTriviallyDead(&op)) {
      rewriter.eraseOp(&op);
      continue;
    }
    if (mergeable(op)) {
      if (Operation *earlier = known.lookup(&op)) {
        rewriter.replaceOp(&op, earlier->getResults());
        continue;
      }
      known.insert(&op, &op);
      continue;
    }
    for (Region &region : op.getRegions()) {
      if (!region.hasOneBlock())
        continue;
      if (op.hasTrait<OpTrait::IsIsolatedFromAbove>()) {
        Known inside;
        eliminate(rewriter, region.front(), inside);
      } else {
        eliminate(rewriter, region.front(), known);
      }
    }
  }
}

} // namespace

DiagnosedSilenceableFailure
transform::CseOp::applyToOne(transform::TransformRewriter &rewriter,
                             Operation *target,
                             transform::ApplyToEachResultList &results,
                             transform::TransformState &state) {
  for (Region &region : target->getRegions()) {
    if (!region.hasOneBlock())
      continue;
    Known known;
    eliminate(rewriter, region.front(), known);
  }
  return DiagnosedSilenceableFailure::success();
}

void transform::CseOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}
