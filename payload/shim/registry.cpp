// The dialect registry sched-apply's contexts use: every upstream dialect and
// its interface implementations, but only the transform-dialect extensions
// whose ops the planner emits and the LLVM-conversion interfaces of the
// dialects the lowering meets.
//
// MLIR's C API offers only `mlirRegisterAllDialects`, which also registers
// the transform extensions of GPU, NVGPU, XeGPU, SparseTensor, Arm, DLTI, PDL,
// IRDL, SMT and more. Loading the transform dialect applies every registered
// extension, and each one loads the dialects its ops generate (AMDGPU, ROCDL,
// NVVM, LLVM, ...): that was a fifth of the time of applying a schedule.
// The C API cannot name single extensions, hence this file.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Func/Extensions/AllExtensions.h"
#include "mlir/Dialect/Linalg/TransformOps/DialectExtension.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/Tensor/Extensions/AllExtensions.h"
#include "mlir/Dialect/Tensor/TransformOps/TensorTransformOps.h"
#include "mlir/Dialect/Transform/LoopExtension/LoopExtension.h"
#include "mlir/Dialect/Vector/TransformOps/VectorTransformOps.h"
#include "mlir/InitAllDialects.h"

// sched-apply's own transform ops (reuse.cpp).
void schedRegisterTransformOps(mlir::DialectRegistry &registry);

extern "C" void schedRegisterDialects(MlirDialectRegistry raw) {
  mlir::DialectRegistry &registry = *unwrap(raw);
  mlir::registerAllDialects(registry);

  // Transform ops the planner emits: structured.* (linalg), loop.unroll,
  // loop.coalesce and loop.forall_to_parallel (scf),
  // loop.hoist_loop_invariant_subsets (the loop extension), sched.* (our own,
  // reuse.cpp), and the tensor
  // and vector pattern sets of its clean-ups.
  mlir::linalg::registerTransformDialectExtension(registry);
  mlir::scf::registerTransformDialectExtension(registry);
  mlir::tensor::registerTransformDialectExtension(registry);
  mlir::vector::registerTransformDialectExtension(registry);
  mlir::transform::registerLoopExtension(registry);
  schedRegisterTransformOps(registry);

  // What `convert-to-llvm` needs for the dialects a lowered CPU payload has.
  mlir::arith::registerConvertArithToLLVMInterface(registry);
  mlir::registerConvertComplexToLLVMInterface(registry);
  mlir::cf::registerConvertControlFlowToLLVMInterface(registry);
  mlir::registerConvertFuncToLLVMInterface(registry);
  mlir::index::registerConvertIndexToLLVMInterface(registry);
  mlir::registerConvertMathToLLVMInterface(registry);
  mlir::registerConvertMemRefToLLVMInterface(registry);
  mlir::registerConvertOpenMPToLLVMInterface(registry);
  mlir::ub::registerConvertUBToLLVMInterface(registry);
  mlir::vector::registerConvertVectorToLLVMInterface(registry);

  // Inliner and sharding interfaces of func and tensor.
  mlir::func::registerAllExtensions(registry);
  mlir::tensor::registerAllExtensions(registry);
}
