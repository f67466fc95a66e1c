// After a long function's loop nests are outlined (`runner/src/lowering.rs`,
// OUTLINE_SCRIPT): each outlined nest's buffer arguments that cannot share
// memory with another of its buffer arguments are marked `llvm.noalias`.
// Inline, LLVM saw each buffer come from its own allocation and vectorized
// the loops the schedule left scalar; outlined, every buffer is a pointer
// argument that might overlap the others, and those loops stayed scalar
// (MobileNet-v2's unscheduled 1x1 convolutions took 5-10x longer). The
// mark says what the caller knew. The conversion to the LLVM dialect drops a
// memref argument's attributes, so the marks ride on a function attribute
// until the arguments are pointers.
//
// A buffer's root is what its views (subview, reshapes, casts) are views of.
// An argument is marked when its root is one no other buffer argument of the
// call has, and is a fresh allocation, a global, or the only argument of the
// caller among the call's roots (two of the caller's arguments may be one
// buffer). A root of any other kind (a call's or a branch's result) marks
// nothing in that call.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "outlined.h"

using namespace mlir;

namespace {

// What a buffer root is, for deciding whether it may alias another.
enum class RootKind { Allocation, Global, CallerArgument, Unknown };

// The buffer `value` is a view of (itself when it is no view), and its kind.
std::pair<Value, RootKind> rootOf(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(op);
    if (!view)
      break;
    value = view.getViewSource();
  }
  if (isa<BlockArgument>(value))
    return {value, RootKind::CallerArgument};
  Operation *op = value.getDefiningOp();
  if (isa<memref::AllocOp, memref::AllocaOp>(op))
    return {value, RootKind::Allocation};
  if (isa<memref::GetGlobalOp>(op))
    return {value, RootKind::Global};
  return {value, RootKind::Unknown};
}

// Two get_global ops of one global are one buffer.
bool sameBuffer(std::pair<Value, RootKind> a, std::pair<Value, RootKind> b) {
  if (a.first == b.first)
    return true;
  if (a.second == RootKind::Global && b.second == RootKind::Global)
    return cast<memref::GetGlobalOp>(a.first.getDefiningOp()).getName() ==
           cast<memref::GetGlobalOp>(b.first.getDefiningOp()).getName();
  return false;
}

// The function attribute that carries the marks through the conversion to
// the LLVM dialect, which drops memref arguments' own attributes: the
// positions of the marked buffers' pointers among the converted arguments.
constexpr llvm::StringLiteral marksAttribute = "sched.noalias_pointers";

// The position of each argument's first converted argument: a ranked
// memref becomes its allocated and aligned pointers, offset, sizes and
// strides (3 + 2 * rank), any other argument one.
SmallVector<int64_t> convertedPositions(func::FuncOp function) {
  SmallVector<int64_t> positions;
  int64_t next = 0;
  for (Type type : function.getArgumentTypes()) {
    positions.push_back(next);
    auto memref = dyn_cast<MemRefType>(type);
    next += memref ? 3 + 2 * memref.getRank() : 1;
  }
  return positions;
}

// Marks the arguments of `callee` that `call` passes buffers no other
// argument can share (their pointers' positions, in `marksAttribute`).
// Returns how many.
int64_t markCall(func::CallOp call, func::FuncOp callee) {
  SmallVector<std::pair<unsigned, std::pair<Value, RootKind>>> buffers;
  for (auto [index, operand] : llvm::enumerate(call.getOperands()))
    if (isa<MemRefType>(operand.getType()))
      buffers.push_back({static_cast<unsigned>(index), rootOf(operand)});
  int callerArguments = 0;
  for (auto &[index, root] : buffers) {
    if (root.second == RootKind::Unknown)
      return 0;
    if (root.second == RootKind::CallerArgument)
      ++callerArguments;
  }
  SmallVector<int64_t> positions = convertedPositions(callee);
  SmallVector<int64_t> pointers;
  for (auto &[index, root] : buffers) {
    bool shared = llvm::any_of(buffers, [&](auto &other) {
      return other.first != index && sameBuffer(other.second, root);
    });
    bool mayAliasArgument =
        root.second == RootKind::CallerArgument && callerArguments > 1;
    if (shared || mayAliasArgument)
      continue;
    pointers.push_back(positions[index]);
    pointers.push_back(positions[index] + 1);
  }
  if (!pointers.empty())
    callee->setAttr(marksAttribute,
                    DenseI64ArrayAttr::get(callee.getContext(), pointers));
  return pointers.size() / 2;
}

} // namespace

// Marks the buffer arguments of every function whose name starts with
// `prefix` (the outlined nests, internal to the module) and that has
// exactly one call, as above. Returns the
// arguments marked.
extern "C" int64_t schedMarkOutlinedNoAlias(MlirOperation root,
                                            MlirStringRef prefix) {
  int64_t marked = 0;
  for (auto &[callee, sites] : callsOfOutlined(unwrap(root), unwrap(prefix)))
    if (sites.size() == 1)
      marked += markCall(sites.front(), callee);
  return marked;
}

// After the conversion to the LLVM dialect: each function's marked pointers
// (`marksAttribute`) become `llvm.noalias` arguments. Returns the pointers
// marked.
extern "C" int64_t schedApplyNoAliasMarks(MlirOperation root) {
  int64_t marked = 0;
  unwrap(root)->walk([&](LLVM::LLVMFuncOp function) {
    auto pointers = function->getAttrOfType<DenseI64ArrayAttr>(marksAttribute);
    if (!pointers)
      return;
    function->removeAttr(marksAttribute);
    for (int64_t position : pointers.asArrayRef()) {
      if (position < 0 || position >= function.getNumArguments() ||
          !isa<LLVM::LLVMPointerType>(function.getArgument(position).getType()))
        continue;
      function.setArgAttr(position, LLVM::LLVMDialect::getNoAliasAttrName(),
                          UnitAttr::get(function.getContext()));
      ++marked;
    }
  });
  return marked;
}
