// How MLIR prints ops: briefly in diagnostics, whole in the payloads
// sched-apply writes.
//
// Upstream transform ops build diagnostics that print payload ops, some
// whether or not they fail (fuse_into_containing_op printed the whole
// containing loop, verifying it first, before every fusion: a compute_at
// chain grew quadratic; the planner now emits our own `sched.fuse_into`,
// fuse.cpp). MLIR prints with default flags that read its command-line
// printing options, so the process sets two of them once,
// `mlir-print-skip-regions` and `mlir-print-assume-verified`: an op in a
// diagnostic is printed without its regions and without verifying it
// again. Set once and never changed, so no thread sees them change.
// Payloads are printed with explicit flags (`schedPrintOperation`), whole
// and verified, as before.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/CommandLine.h"

extern "C" void schedPrintOpsBrieflyInDiagnostics() {
  static const bool done = [] {
    mlir::registerAsmPrinterCLOptions();
    auto &options =
        llvm::cl::getRegisteredOptions();
    for (const char *name :
         {"mlir-print-skip-regions", "mlir-print-assume-verified"}) {
      auto found = options.find(name);
      if (found != options.end())
        static_cast<llvm::cl::opt<bool> *>(found->second)->setValue(true);
    }
    return true;
  }();
  (void)done;
}

// Prints `op` whole (every region, verified first, as MLIR's defaults do
// without the options above); with `debugInfo`, every op's location too.
extern "C" void schedPrintOperation(MlirOperation op, bool debugInfo,
                                    MlirStringCallback callback,
                                    void *userData) {
  mlir::OpPrintingFlags flags;
  flags.skipRegions(false).assumeVerified(false);
  if (debugInfo)
    flags.enableDebugInfo(true, /*prettyForm=*/false);
  mlir::detail::CallbackOstream stream(callback, userData);
  unwrap(op)->print(stream, flags);
}

// The SSA names of `op` and everything in it, numbered once, with flags that
// print regions whole whatever the options above say (the C API's flags
// read them): `payload::ffi::AsmNames`, through which one op is printed
// with its operands' names to copy it into a module of its own.
extern "C" MlirAsmState schedAsmStateWhole(MlirOperation op) {
  mlir::OpPrintingFlags flags;
  flags.skipRegions(false).assumeVerified(true);
  return wrap(new mlir::AsmState(unwrap(op), flags));
}
