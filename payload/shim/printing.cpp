// How MLIR prints ops: briefly in diagnostics, whole in the payloads
// sched-apply writes.
//
// The transform interpreter's fuse_into_containing_op builds a remark
// before every fusion that prints the whole containing loop (verifying it
// first), whether or not the fusion fails. A compute_at chain fuses many
// producers into one loop, which grows with each: the printing made the
// chain quadratic (500 producers: 3.5 s in printing alone). MLIR prints
// with default flags that read its command-line printing options, so the
// process sets two of them once, `mlir-print-skip-regions` and
// `mlir-print-assume-verified`: an op in a diagnostic is printed without
// its regions and without verifying it again. Set once and never changed,
// so no thread sees them change. Payloads are printed with explicit flags
// (`schedPrintOperation`), whole and verified, as before.

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
