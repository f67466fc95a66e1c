//! What compiled code is linked with, whether compiled now or loaded from
//! the cache: the shared libraries (MLIR's C runtime, OpenMP), the kernels
//! of the targets its tiles call, and the check that the entry's C
//! interface is there.

use crate::ffi::{JitEngine, KernelSlot};
use crate::lowering::{C_RUNNER_UTILS, OPENMP_RUNTIME};
use payload::signature::Signature;
use payload::PayloadError;

/// The shared libraries a program's code is linked with: MLIR's C runtime
/// (`memrefCopy`), and the OpenMP runtime when it has parallel loops.
pub(crate) fn libraries(parallel: bool) -> &'static [&'static str] {
    if parallel {
        &[C_RUNNER_UTILS, OPENMP_RUNTIME]
    } else {
        &[C_RUNNER_UTILS]
    }
}

/// A slot for each target the program's tiles are offloaded to, with its
/// kernel; an error names a target no description gives, or one whose
/// kernel cannot compute the tiles' element types.
pub(crate) fn bind_kernels(
    offloaded: &[(String, crate::offload::Types)],
    targets: &[microkernels::Target],
    payload_name: &str,
) -> Result<Vec<KernelSlot>, PayloadError> {
    let mut kernels: Vec<KernelSlot> = Vec::new();
    for (name, types) in offloaded {
        let target = targets.iter().find(|t| &t.name == name).ok_or_else(|| PayloadError::input(
            format!("{payload_name}: its tiles are offloaded to `{name}`, which no target describes (`sched-apply targets` lists them; `--target FILE` adds one)"),
            Vec::new(),
        ))?;
        let slot = match kernels.iter().position(|k| &k.target == name) {
            Some(index) => &kernels[index],
            None => {
                let kernel = microkernels::Kernel::for_target(target)
                    .map_err(|message| PayloadError::input(message, Vec::new()))?;
                kernels.push(KernelSlot::new(name, kernel));
                &kernels[kernels.len() - 1]
            }
        };
        if *types == crate::offload::Types::I8I32 && slot.kernel.i8i32.is_none() {
            return Err(PayloadError::input(
                format!("{payload_name}: its i8 x i8 -> i32 tiles are offloaded to `{name}`, whose kernel computes f32 tiles only"),
                Vec::new(),
            ));
        }
    }
    Ok(kernels)
}

/// An error unless `engine` defines the entry's C interface. The ORC JIT
/// links lazily, so a function the payload declares (`declared`: name and
/// location) and no library defines surfaces here: that is the payload's
/// error, located at the declarations; without any, the fault is ours.
pub(crate) fn check_c_interface(
    engine: &JitEngine,
    signature: &Signature,
    declared: &[(String, String)],
) -> Result<(), PayloadError> {
    if engine.has_c_interface(&signature.name) {
        return Ok(());
    }
    if declared.is_empty() {
        // LLVM prints what it could not resolve ("Symbols not found: ...")
        // on stderr, not as an MLIR diagnostic.
        return Err(PayloadError::internal(format!(
            "the compiled module has no C interface for @{}: it may call a runtime function the JIT could not link (see \"JIT session error\" above)",
            signature.name
        )));
    }
    let names: Vec<String> = declared
        .iter()
        .map(|(name, _)| format!("@{name}"))
        .collect();
    Err(PayloadError::input(
        format!(
            "@{} cannot be linked: it calls a function the payload declares without a body ({}) that no library loaded into the JIT defines (see \"JIT session error\" above for the symbol)",
            signature.name,
            names.join(", ")
        ),
        declared
            .iter()
            .map(|(name, location)| payload::MlirMessage {
                severity: "error",
                location: location.clone(),
                message: format!("@{name} is declared here without a body; define it in the payload"),
                notes: Vec::new(),
            })
            .collect(),
    ))
}
