// After bufferization, on AVX2 (16 registers of 8 f32 lanes): every 2-D
// `vector.transpose` of f32 whose sides are multiples of 8 is cut into
// 8 x 8 blocks, and each block becomes AVX2's 24-shuffle 8 x 8 transpose
// (MLIR's x86vector lowering: unpacks, shuffles and 128-bit lane
// permutes), all in registers.
//
// A `pack` that moves an axis innermost copies its tile in 16 x 16 blocks
// (`interpreter/src/plan/pack.rs`), each one `vector.transpose`, which the
// lowering's `shuffle16x16` turns into AVX-512 shuffles. On AVX2 a 16 x 16
// block is 32 registers of 16: LLVM spilled most of its shuffles to the
// stack, and the transposing pack of a 128x1024x256 matmul's weight took
// 21% of the matmul's time (Zen 3, `perf` samples), against 72% for the
// reduction loop itself.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/X86Vector/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {

// The block AVX2 transposes in registers.
constexpr int64_t kBlock = 8;

// Whether `op` swaps the two sides of a 2-D f32 vector whose sides are
// multiples of 8 (those to cut), or, `exactly`, of the 8 x 8 blocks.
bool transposesF32Matrix(vector::TransposeOp op, bool exactly = false) {
  VectorType type = op.getSourceVectorType();
  auto fits = [&](int64_t size) {
    return exactly ? size == kBlock : size % kBlock == 0;
  };
  return type.getRank() == 2 && !type.isScalable() &&
         type.getElementType().isF32() && fits(type.getDimSize(0)) &&
         fits(type.getDimSize(1));
}

} // namespace

// Cuts every 2-D f32 `vector.transpose` under `root` whose sides are
// multiples of 8 into 8 x 8 transposes and lowers each to AVX2 shuffles.
// Returns how many transposes were lowered so (before the cut).
extern "C" int64_t schedTransposeInAvx2Blocks(MlirOperation root) {
  int64_t found = 0;
  unwrap(root)->walk([&](vector::TransposeOp op) {
    found += transposesF32Matrix(op);
  });
  if (found == 0)
    return 0;
  MLIRContext *context = unwrap(root)->getContext();
  // The unrolled ops' offsets are arith constants, the joins start from
  // poison, the 8 x 8 transpose blends in LLVM inline assembly: a payload
  // that had none of these has not loaded their dialects.
  context->getOrLoadDialect<ub::UBDialect>();
  context->getOrLoadDialect<affine::AffineDialect>();
  context->getOrLoadDialect<arith::ArithDialect>();
  context->getOrLoadDialect<LLVM::LLVMDialect>();
  RewritePatternSet blocks(context);
  vector::populateVectorUnrollPatterns(
      blocks, vector::UnrollVectorOptions()
                  .setNativeShapeFn(
                      [](Operation *op) -> std::optional<SmallVector<int64_t>> {
                        auto transpose = dyn_cast<vector::TransposeOp>(op);
                        if (!transpose || !transposesF32Matrix(transpose))
                          return std::nullopt;
                        return SmallVector<int64_t>{kBlock, kBlock};
                      }));
  vector::ExtractStridedSliceOp::getCanonicalizationPatterns(blocks, context);
  vector::InsertStridedSliceOp::getCanonicalizationPatterns(blocks, context);
  (void)applyPatternsGreedily(unwrap(root), std::move(blocks));
  // Only the 8 x 8 blocks: the AVX2 patterns also take an 8 x 8 transpose
  // among unit dimensions (`vector<8x8x1xf32>`, [1, 0, 2]), which the MNIST
  // CNN's batch-packed convolution has, and the results were then wrong.
  SmallVector<Operation *> blocks8x8;
  unwrap(root)->walk([&](vector::TransposeOp op) {
    if (transposesF32Matrix(op, /*exactly=*/true))
      blocks8x8.push_back(op);
  });
  RewritePatternSet shuffles(context);
  x86vector::avx2::populateSpecializedTransposeLoweringPatterns(
      shuffles, x86vector::avx2::LoweringOptions().setTransposeOptions(
                    x86vector::avx2::TransposeLoweringOptions().lower8x8xf32()));
  (void)applyOpPatternsGreedily(blocks8x8, std::move(shuffles));
  return found;
}
