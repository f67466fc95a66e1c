// After a long function's loop nests are outlined and given the constants
// their calls pass (`constants.cpp`, `noalias.cpp`): nests that are the same
// function under another name are merged into one, their calls sent to it.
// A network repeats its blocks, and a repeated block's nests have the same
// shapes, bounds and buffer layouts; only the buffers their calls pass
// differ. MobileNet-v2's 202 outlined nests were 92 distinct ones, and each was
// lowered, optimized and compiled as many times as it appeared.
//
// Two nests are the same when their types, their attributes other than the
// name (the no-alias marks among them, which say what each call site knew)
// and their bodies are, op by op, locations aside. Only functions named with
// the outlined prefix that nothing but calls uses are merged: upstream's
// `duplicate-function-elimination` merges every function, the public ones
// sched-apply calls by name among them.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseMap.h"
#include "outlined.h"

using namespace mlir;

namespace {

constexpr OperationEquivalence::Flags ignoringLocations =
    OperationEquivalence::IgnoreLocations;

// `function`'s attributes other than its name, in order.
SmallVector<NamedAttribute> attributesButName(func::FuncOp function) {
  SmallVector<NamedAttribute> attributes;
  for (NamedAttribute attribute : function->getAttrs())
    if (attribute.getName() != SymbolTable::getSymbolAttrName())
      attributes.push_back(attribute);
  return attributes;
}

// A hash of `function`'s type, attributes other than its name, and body,
// equal for functions `sameFunction` finds the same.
llvm::hash_code shapeHash(func::FuncOp function) {
  llvm::hash_code hash = hash_value(function.getFunctionType());
  for (NamedAttribute attribute : attributesButName(function))
    hash = llvm::hash_combine(hash, attribute.getName(), attribute.getValue());
  function.getBody().walk([&](Operation *op) {
    hash = llvm::hash_combine(
        hash, OperationEquivalence::computeHash(
                  op, OperationEquivalence::ignoreHashValue,
                  OperationEquivalence::ignoreHashValue, ignoringLocations));
  });
  return hash;
}

// Whether two functions differ only in their names (and locations).
bool sameFunction(func::FuncOp a, func::FuncOp b) {
  return a.getFunctionType() == b.getFunctionType() &&
         attributesButName(a) == attributesButName(b) &&
         OperationEquivalence::isRegionEquivalentTo(
             &a.getBody(), &b.getBody(), ignoringLocations);
}

} // namespace

// Merges the functions whose names start with `prefix` (the outlined nests)
// that are the same: the first of each kind, in the order of the first calls,
// is kept, the others' calls call it, and they are erased. Returns how many
// were erased.
extern "C" int64_t schedMergeIdenticalOutlined(MlirOperation root,
                                               MlirStringRef prefix) {
  Operation *module = unwrap(root);
  llvm::DenseMap<llvm::hash_code, SmallVector<func::FuncOp>> kept;
  int64_t merged = 0;
  for (auto &[function, sites] : onlyCalledOutlined(module, unwrap(prefix))) {
    SmallVector<func::FuncOp> &candidates = kept[shapeHash(function)];
    auto same = llvm::find_if(candidates, [&](func::FuncOp other) {
      return sameFunction(other, function);
    });
    if (same == candidates.end()) {
      candidates.push_back(function);
      continue;
    }
    for (func::CallOp call : sites)
      call.setCallee(same->getName());
    function.erase();
    ++merged;
  }
  return merged;
}
