// Before bufferization: each tensor argument of the entry function that no
// op takes as its destination (a DPS init: a linalg op's `outs`, an
// insert_slice's `dest`, a forall's shared output; or a loop's carried
// init, as a tiled op's accumulator is) is marked
// `bufferization.writable = false`.
// One-shot bufferization then never writes that argument's buffer: where an
// op would write into it in place, it copies the tensor to a new buffer
// first. So the caller may pass the caller's own memory for such an
// argument (a numpy array, without a copy into a buffer of the runner's),
// and it comes back unchanged. An argument some op writes into keeps its
// in-place bufferization (a result computed in it, with no copy).

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace {

// Whether some op takes `argument` as a destination it may write: a DPS
// init, or a loop's carried init (the loop's body writes into it in place).
bool isDestination(BlockArgument argument) {
  for (OpOperand &use : argument.getUses()) {
    Operation *user = use.getOwner();
    auto destination = dyn_cast<DestinationStyleOpInterface>(user);
    if (destination && destination.isDpsInit(&use))
      return true;
    auto loop = dyn_cast<LoopLikeOpInterface>(user);
    if (loop && llvm::is_contained(loop.getInitsMutable(), use))
      return true;
  }
  return false;
}

} // namespace

// Marks the tensor arguments of `entry` (a func.func directly in `root`) that
// no op takes as its destination, and sets `readOnly[i]` to 1 for each
// argument `i` marked, 0 for the others (`count` entries). Returns the
// arguments marked, or -1 when `root` has no function `entry` of `count`
// arguments.
extern "C" int64_t schedMarkReadOnlyArguments(MlirOperation root,
                                              MlirStringRef entry,
                                              int8_t *readOnly,
                                              int64_t count) {
  auto function = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      unwrap(root), StringAttr::get(unwrap(root)->getContext(), unwrap(entry)));
  if (!function || function.isExternal() ||
      static_cast<int64_t>(function.getNumArguments()) != count)
    return -1;
  Builder builder(function.getContext());
  int64_t marked = 0;
  for (BlockArgument argument : function.getArguments()) {
    unsigned index = argument.getArgNumber();
    bool mark = isa<TensorType>(argument.getType()) && !isDestination(argument);
    readOnly[index] = mark ? 1 : 0;
    if (!mark)
      continue;
    function.setArgAttr(index,
                        bufferization::BufferizationDialect::kWritableAttrName,
                        builder.getBoolAttr(false));
    ++marked;
  }
  return marked;
}
