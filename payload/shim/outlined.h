// Shared by the rewrites of outlined loop nests (`noalias.cpp`,
// `constants.cpp`, `merge.cpp`): the functions outlining made, found by
// their name's prefix, with their calls, and those used by calls alone.

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

// `callsOfOutlined`, only the functions defined in `module` that nothing
// but their calls uses (a function whose address is taken is left out: its
// arguments and identity must stay as they are).
inline llvm::MapVector<mlir::func::FuncOp, llvm::SmallVector<mlir::func::CallOp>>
onlyCalledOutlined(mlir::Operation *module, llvm::StringRef prefix) {
  llvm::DenseMap<mlir::StringAttr, size_t> uses;
  if (std::optional<mlir::SymbolTable::UseRange> all =
          mlir::SymbolTable::getSymbolUses(&module->getRegion(0)))
    for (const mlir::SymbolTable::SymbolUse &use : *all)
      ++uses[use.getSymbolRef().getRootReference()];
  auto calls = callsOfOutlined(module, prefix);
  calls.remove_if([&](auto &entry) {
    auto &[callee, sites] = entry;
    return callee.isExternal() ||
           uses.lookup(callee.getNameAttr()) != sites.size();
  });
  return calls;
}

#endif
