// After a long function's loop nests are outlined (`runner/src/lowering.rs`,
// OUTLINE_SCRIPT): the constants each outlined nest's call passes (loop
// bounds, steps, a fill's zero vector) are cloned into the nest and its
// arguments' uses replaced. Outlining makes every value the nest uses from
// outside an argument. LLVM propagated the constants back from the call
// (IPSCCP) into the nest, but not into the function OpenMP outlines from a
// parallel loop's body, which receives its values through memory: there,
// loop bounds were unknown, and a 96x2x14 zero vector (MobileNet-v2's
// 1x1 convolutions with parallel output rows) was stored and reloaded as one
// aggregate whose instruction selection took 2-6 s per nest.
//
// Only functions named with the outlined prefix and called from this module
// (their address never taken) are changed, and only arguments every call
// passes the same constant for.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/BitVector.h"
#include "outlined.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

namespace {

// The constant op `value` comes from, or null.
Operation *constantOf(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op || !op->hasTrait<OpTrait::ConstantLike>() || op->getNumResults() != 1)
    return nullptr;
  return op;
}

// Whether two constant ops make the same value (same op kind, attributes
// and type).
bool sameConstant(Operation *a, Operation *b) {
  return a->getName() == b->getName() &&
         a->getAttrDictionary() == b->getAttrDictionary() &&
         a->getResult(0).getType() == b->getResult(0).getType();
}

// Clones into `callee`'s entry the constants all its `calls` pass for the
// same argument, replaces that argument's uses, and drops the argument from
// the function and its calls (left in place, a large constant was still
// passed by value: an aggregate each call stores to the stack, whose
// instruction selection took the caller seconds). Returns how many.
int64_t sinkInto(func::FuncOp callee, MutableArrayRef<func::CallOp> calls) {
  Block &entry = callee.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  llvm::BitVector sunk(callee.getNumArguments());
  for (unsigned index = 0; index < callee.getNumArguments(); ++index) {
    BlockArgument argument = entry.getArgument(index);
    Operation *first = constantOf(calls.front().getOperand(index));
    if (!first || !llvm::all_of(calls, [&](func::CallOp call) {
          Operation *other = constantOf(call.getOperand(index));
          return other && sameConstant(first, other);
        }))
      continue;
    if (!argument.use_empty()) {
      Operation *clone = builder.clone(*first);
      clone->setLoc(argument.getLoc());
      argument.replaceAllUsesWith(clone->getResult(0));
    }
    sunk.set(index);
  }
  if (sunk.none() || failed(callee.eraseArguments(sunk)))
    return 0;
  for (func::CallOp call : calls)
    call->eraseOperands(sunk);
  return sunk.count();
}

} // namespace

// Gives every function whose name starts with `prefix` (the outlined nests)
// the constants its calls pass, as above. Returns the arguments replaced.
extern "C" int64_t schedSinkOutlinedConstants(MlirOperation root,
                                              MlirStringRef prefix) {
  Operation *module = unwrap(root);
  int64_t sunk = 0;
  for (auto &[callee, sites] : onlyCalledOutlined(module, unwrap(prefix)))
    sunk += sinkInto(callee, sites);
  return sunk;
}
