// Shared by the rewrites of outlined loop nests (`noalias.cpp`,
// `constants.cpp`, `merge.cpp`): the functions outlining made, found by
// their name's prefix, with their calls, and how often each is used.

#ifndef SCHED_SHIM_OUTLINED_H
#define SCHED_SHIM_OUTLINED_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

// Each function under `module` whose name starts with `prefix` and that is
// called there, with its calls, in the order of their first call.
inline llvm::MapVector<mlir::func::FuncOp, llvm::SmallVector<mlir::func::CallOp>>
callsOfOutlined(mlir::Operation *module, llvm::StringRef prefix) {
  llvm::MapVector<mlir::func::FuncOp, llvm::SmallVector<mlir::func::CallOp>>
      calls;
  mlir::SymbolTable symbols(module);
  module->walk([&](mlir::func::CallOp call) {
    auto callee = symbols.lookup<mlir::func::FuncOp>(call.getCallee());
    if (callee && callee.getName().starts_with(prefix))
      calls[callee].push_back(call);
  });
  return calls;
}

// How many times each symbol defined under `module` is referred to there
// (calls and any other use): a function used as often as it is called is
// called and nothing else.
inline llvm::DenseMap<mlir::StringAttr, size_t>
symbolUseCounts(mlir::Operation *module) {
  llvm::DenseMap<mlir::StringAttr, size_t> uses;
  if (std::optional<mlir::SymbolTable::UseRange> all =
          mlir::SymbolTable::getSymbolUses(&module->getRegion(0)))
    for (const mlir::SymbolTable::SymbolUse &use : *all)
      ++uses[use.getSymbolRef().getRootReference()];
  return uses;
}

#endif
