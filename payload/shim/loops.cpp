// Loops LLVM should keep rolled. After linalg ops become loops, an innermost
// `scf.for` of scalar code with a constant trip count of at least a row
// (`minTrips`, 8) is marked `unroll disable` for LLVM. Left to itself, LLVM
// fully unrolls such a loop (a 16-wide tile of a split the schedule did not
// vectorize), makes the loop around it the innermost one and vectorizes that
// with gathers and runtime alias checks: slow to compile and slow to run.
// Kept rolled, the loop is vectorized along its own contiguous row.
// Shorter loops (a convolution window's taps) and loops holding vector code
// (the schedule's own vector tiles) are LLVM's to unroll. The loops around a
// marked row that hold nothing else are marked too: a padded tensor's border
// rows (8x64 rows of 58 zeros in ResNet-18 at batch 8) became one `memset`
// per row, which LLVM then unrolled into 512 calls in one block whose
// instruction selection took 0.6-0.8 s per border.
//
// The mark is an `llvm.loop_annotation` on the loop; the SCF-to-CF
// conversion copies it onto the loop's back edge, but the conversion to the
// LLVM dialect leaves it a discardable attribute the translation to LLVM IR
// ignores, so after it the mark is moved into `llvm.br`'s own
// `loop_annotation`.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace {

constexpr llvm::StringLiteral annotationName = "llvm.loop_annotation";

// Whether `loop` has no loop inside it and computes nothing on vectors.
bool innermostScalar(scf::ForOp loop) {
  bool scalar = true;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<LoopLikeOpInterface>(op) ||
        llvm::any_of(op->getResultTypes(),
                     [](Type type) { return isa<VectorType>(type); }) ||
        llvm::any_of(op->getOperandTypes(),
                     [](Type type) { return isa<VectorType>(type); })) {
      scalar = false;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return scalar;
}

// The loop `loop` is the only op of (besides the terminator), or null.
scf::ForOp perfectParent(scf::ForOp loop) {
  auto parent = loop->getParentOfType<scf::ForOp>();
  if (!parent || loop->getParentOp() != parent.getOperation() ||
      parent.getBody()->getOperations().size() != 2)
    return nullptr;
  return parent;
}

} // namespace

// Marks `unroll disable` every innermost scalar `scf.for` under `root` whose
// constant trip count is at least `minTrips`, and the loops around it that
// hold nothing else; returns how many rows.
extern "C" int64_t schedKeepScalarRowsRolled(MlirOperation root,
                                             int64_t minTrips) {
  MLIRContext *context = unwrap(root)->getContext();
  // The attributes below belong to the LLVM dialect, which is loaded only
  // once something converts to it.
  context->getOrLoadDialect<LLVM::LLVMDialect>();
  // `#llvm.loop_annotation<unroll = <disable = true>>`: the parameters in
  // the order LLVMAttrDefs.td declares them.
  auto unroll = LLVM::LoopUnrollAttr::get(
      context, /*disable=*/BoolAttr::get(context, true), /*count=*/{},
      /*runtimeDisable=*/{}, /*full=*/{}, /*followupUnrolled=*/{},
      /*followupRemainder=*/{}, /*followupAll=*/{});
  auto annotation = LLVM::LoopAnnotationAttr::get(
      context, /*disableNonforced=*/{}, /*vectorize=*/{}, /*interleave=*/{},
      unroll, /*unrollAndJam=*/{}, /*licm=*/{}, /*distribute=*/{},
      /*pipeline=*/{}, /*peeled=*/{}, /*unswitch=*/{}, /*mustProgress=*/{},
      /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{},
      /*parallelAccesses=*/{});
  int64_t marked = 0;
  unwrap(root)->walk([&](scf::ForOp loop) {
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (!trips || trips->getSExtValue() < minTrips || !innermostScalar(loop))
      return;
    loop->setAttr(annotationName, annotation);
    ++marked;
    for (scf::ForOp parent = perfectParent(loop); parent;
         parent = perfectParent(parent))
      parent->setAttr(annotationName, annotation);
  });
  return marked;
}

// Moves each discardable `llvm.loop_annotation` of an `llvm.br` under `root`
// into the branch's own `loop_annotation`, which the translation to LLVM IR
// turns into `!llvm.loop` metadata; returns how many.
extern "C" int64_t schedAttachLoopAnnotations(MlirOperation root) {
  int64_t moved = 0;
  unwrap(root)->walk([&](LLVM::BrOp branch) {
    auto annotation =
        branch->getAttrOfType<LLVM::LoopAnnotationAttr>(annotationName);
    if (!annotation)
      return;
    branch->removeAttr(annotationName);
    branch.setLoopAnnotationAttr(annotation);
    ++moved;
  });
  return moved;
}
