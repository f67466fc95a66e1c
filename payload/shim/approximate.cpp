// After bufferization: vector `math` ops (exp, tanh, erf, log, ...) become
// MLIR's polynomial approximations, in vector arithmetic. Lowered as they
// are, they become LLVM intrinsics on vectors, which LLVM scalarizes into
// one libm call per lane: `vectorize` on an exponential bought nothing.
// Scalar math ops are left as they are, so the unscheduled payload, which
// speedups and `--check` compare against, keeps libm's results.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

// The math ops MLIR approximates (by name, with or without `math.`: the
// pattern sets ask with the whole name). Not `rsqrt`: upstream's pattern
// builds x86vector ops, whose dialect is not loaded here (it crashed); a
// vector rsqrt lowers to a vector square root and divide instead.
static bool approximated(StringRef name) {
  name.consume_front("math.");
  return llvm::is_contained(
      {"atan", "atan2", "tanh", "log", "log2", "log1p", "erf", "erfc", "asin",
       "acos", "exp", "expm1", "cbrt", "sin", "cos"},
      name);
}

// Rewrites every vector math op under `root` that MLIR can approximate;
// returns how many there were.
extern "C" int64_t schedApproximateVectorMath(MlirOperation root) {
  SmallVector<Operation *> ops;
  unwrap(root)->walk([&](Operation *op) {
    if (op->getDialect() && op->getDialect()->getNamespace() == "math" &&
        op->getNumResults() == 1 && isa<VectorType>(op->getResult(0).getType()) &&
        approximated(op->getName().stripDialect()))
      ops.push_back(op);
  });
  if (ops.empty())
    return 0;
  MLIRContext *context = unwrap(root)->getContext();
  // The approximations build arith and vector ops: their dialects must be
  // loaded (a context loads a dialect when first used).
  context->loadDialect<arith::ArithDialect, vector::VectorDialect>();
  RewritePatternSet patterns(context);
  populateMathF32ExpansionPatterns(patterns, approximated);
  populateMathPolynomialApproximationPatterns(patterns, approximated);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  (void)applyOpPatternsGreedily(ops, std::move(patterns), config);
  return static_cast<int64_t>(ops.size());
}
