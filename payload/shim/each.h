// Shared by the shim's walk-and-rewrite entry points (`results.cpp`,
// `keepdims.cpp`, `deinterleave.cpp`, `empties.cpp`, `vectors.cpp`): every op
// of one kind under a root, collected first (a rewrite may erase or add ops
// the walk would then visit), then rewritten one by one.

#ifndef SCHED_SHIM_EACH_H
#define SCHED_SHIM_EACH_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>

// Calls `rewrite` (returning whether, or how many times, it rewrote) on
// every `OpT` under `root`; returns the sum.
template <typename OpT, typename Rewrite>
int64_t rewriteEach(mlir::Operation *root, Rewrite rewrite) {
  llvm::SmallVector<OpT> ops;
  root->walk([&](OpT op) { ops.push_back(op); });
  int64_t rewritten = 0;
  for (OpT op : ops)
    rewritten += rewrite(op);
  return rewritten;
}

#endif
