// The MLIR dialect plugin of sched-apply's own transform ops
// (`transform.sched.*`, SchedTransformOps.td), so that upstream tools run
// the scripts sched-apply generates:
//
//   mlir-opt --load-dialect-plugin=$(sched-apply plugin) payload.mlir \
//     --transform-preload-library=transform-library-paths=script.mlir \
//     --transform-interpreter
//
// build.rs links it from the same objects as the static library the crate
// uses, against the shared libMLIR that mlir-opt itself loads.

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "llvm/Config/llvm-config.h"

void schedRegisterTransformOps(mlir::DialectRegistry &registry);

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "SchedTransformOps", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            schedRegisterTransformOps(*registry);
          }};
}
