// Shared by the rewrites done as a payload loads (`results.cpp`,
// `keepdims.cpp`): once an op is replaced, the producers of the values it
// alone read (a fill of an empty tensor), now read by nothing, go too.

#ifndef SCHED_SHIM_DEAD_H
#define SCHED_SHIM_DEAD_H

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

// Erases the producers of `values` that nothing reads, and then theirs.
inline void eraseDeadProducers(llvm::SmallVector<mlir::Value> values) {
  while (!values.empty()) {
    mlir::Operation *producer = values.pop_back_val().getDefiningOp();
    if (!producer || !mlir::isOpTriviallyDead(producer))
      continue;
    for (mlir::Value operand : producer->getOperands())
      values.push_back(operand);
    producer->erase();
  }
}

#endif
