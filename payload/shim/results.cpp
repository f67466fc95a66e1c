// When a payload is loaded: a `linalg.generic` result nothing reads is
// dropped, with its init and the body ops only it needed. PyTorch's softmax
// exports as a max reduction that also yields the index of the maximum
// (`aten.max.dim`), which nothing reads; with the index, the reduction
// carries an i64 along a `linalg.index`, which MLIR's vectorizer refuses
// (0.2 ms of a 128-token encoder layer's 2.2, one element at a time).
// Without it, it is a max reduction like any other.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "dead.h"
#include "each.h"

using namespace mlir;

// The ops of `block` the values `wanted` (yielded, so defined in or before
// the block) need, in block order.
static SmallVector<Operation *> neededOps(Block &block, ArrayRef<Value> wanted) {
  llvm::SmallPtrSet<Operation *, 16> needed;
  SmallVector<Value> work(wanted.begin(), wanted.end());
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || op->getBlock() != &block || !needed.insert(op).second)
      continue;
    for (Value operand : op->getOperands())
      work.push_back(operand);
    // Values the op's own regions use from the block.
    op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        work.push_back(operand);
    });
  }
  SmallVector<Operation *> ordered;
  for (Operation &op : block.without_terminator())
    if (needed.contains(&op))
      ordered.push_back(&op);
  return ordered;
}

// Drops the unread results of `generic` when the others do not depend on
// what they accumulate. Returns whether it did.
static bool dropUnreadResults(linalg::GenericOp generic) {
  SmallVector<unsigned> kept;
  for (OpResult result : generic->getResults())
    if (!result.use_empty())
      kept.push_back(result.getResultNumber());
  if (kept.empty() || kept.size() == generic->getNumResults())
    return false;
  Block &body = generic.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  SmallVector<Value> wanted;
  for (unsigned r : kept)
    wanted.push_back(yield.getOperand(r));
  SmallVector<Operation *> ops = neededOps(body, wanted);
  // The dropped outputs' block arguments must be needed by nothing kept.
  unsigned inputs = generic.getNumDpsInputs();
  llvm::SmallPtrSet<Value, 8> droppedArgs;
  for (unsigned r = 0; r < generic->getNumResults(); ++r)
    if (!llvm::is_contained(kept, r))
      droppedArgs.insert(body.getArgument(inputs + r));
  for (Value value : wanted)
    if (droppedArgs.contains(value))
      return false;
  for (Operation *op : ops) {
    bool usesDropped = false;
    op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        usesDropped |= droppedArgs.contains(operand);
    });
    if (usesDropped)
      return false;
  }
  SmallVector<Value> outputs;
  SmallVector<AffineMap> maps;
  SmallVector<Type> types;
  for (OpOperand *input : generic.getDpsInputOperands())
    maps.push_back(generic.getMatchingIndexingMap(input));
  for (unsigned r : kept) {
    OpOperand *init = generic.getDpsInitOperand(r);
    outputs.push_back(init->get());
    maps.push_back(generic.getMatchingIndexingMap(init));
    types.push_back(generic->getResult(r).getType());
  }
  OpBuilder builder(generic);
  auto replacement = linalg::GenericOp::create(
      builder, generic.getLoc(), types, generic.getDpsInputs(), outputs, maps,
      generic.getIteratorTypesArray(),
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        IRMapping mapping;
        for (unsigned i = 0; i < inputs; ++i)
          mapping.map(body.getArgument(i), args[i]);
        for (auto [position, r] : llvm::enumerate(kept))
          mapping.map(body.getArgument(inputs + r), args[inputs + position]);
        for (Operation *op : ops)
          nested.clone(*op, mapping);
        SmallVector<Value> yielded;
        for (Value value : wanted)
          yielded.push_back(mapping.lookupOrDefault(value));
        linalg::YieldOp::create(nested, loc, yielded);
      });
  // Keep what the op carried (a `sched.name`), but not its segment sizes.
  for (NamedAttribute attribute : generic->getDiscardableAttrs())
    replacement->setAttr(attribute.getName(), attribute.getValue());
  for (auto [position, r] : llvm::enumerate(kept))
    generic->getResult(r).replaceAllUsesWith(replacement->getResult(position));
  SmallVector<Value> droppedInits;
  for (unsigned r = 0; r < generic->getNumResults(); ++r)
    if (!llvm::is_contained(kept, r))
      droppedInits.push_back(generic.getDpsInitOperand(r)->get());
  generic->erase();
  eraseDeadProducers(droppedInits);
  return true;
}

// Drops the unread results of every `linalg.generic` under `root` that has
// some read ones. Returns the ops rewritten.
extern "C" int64_t schedDropUnreadResults(MlirOperation root) {
  return rewriteEach<linalg::GenericOp>(unwrap(root), dropUnreadResults);
}
