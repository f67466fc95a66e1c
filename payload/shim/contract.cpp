// After bufferization: every vector multiply and add (`arith.mulf`,
// `arith.addf`, `arith.subf` on vectors) may be contracted, so LLVM fuses a
// multiply whose product only feeds an add into one fused multiply-add. A
// vectorized convolution or elementwise body is `mulf` then `addf` (only a
// `vector.contract` lowers to `vector.fma` itself): two instructions per
// step, and on CPUs whose FMA units also do the separate adds and
// multiplies (Intel's; Zen has adders of its own), half the arithmetic
// throughput. Scalar arithmetic is left as it is: a reduction into one
// scalar is bound by its chain's latency, longer for a fused multiply-add
// than for an add, and the unscheduled payload, the reference speedups are
// measured against, stays compiled as before.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

// Adds `contract` to the fast-math flags of every vector `arith.mulf`,
// `arith.addf` and `arith.subf` under `root`; returns how many ops changed.
extern "C" int64_t schedContractVectorArithmetic(MlirOperation root) {
  int64_t changed = 0;
  unwrap(root)->walk([&](Operation *op) {
    if (!isa<arith::MulFOp, arith::AddFOp, arith::SubFOp>(op) ||
        !isa<VectorType>(op->getResult(0).getType()))
      return;
    auto fastMath = cast<arith::ArithFastMathInterface>(op);
    arith::FastMathFlags flags = fastMath.getFastMathFlagsAttr().getValue();
    if (bitEnumContainsAll(flags, arith::FastMathFlags::contract))
      return;
    op->setAttr(fastMath.getFastMathAttrName(),
                arith::FastMathFlagsAttr::get(
                    op->getContext(), flags | arith::FastMathFlags::contract));
    ++changed;
  });
  return changed;
}
