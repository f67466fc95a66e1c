//! From a [`Target`] to what generated code calls: the kernel function of
//! the tile ABI and the context its calls share.

use crate::abi::{sched_tile_f32_host, sched_tile_f32_hwacc16, DeviceContext, TileF32Kernel};
use crate::hwacc16::Device;
use crate::target::Target;

/// A target's kernel, ready to be bound into generated code.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    /// The f32 tile call.
    pub f32: TileF32Kernel,
    /// The context its calls start from (zeroed counters, the device's parameters).
    pub context: DeviceContext,
}

impl Kernel {
    /// The kernel a target names.
    pub fn for_target(target: &Target) -> Result<Kernel, String> {
        let device = Device::from_target(target);
        let f32: TileF32Kernel = match target.kernel.as_str() {
            "hwacc16" => sched_tile_f32_hwacc16,
            "host" => sched_tile_f32_host,
            other => {
                return Err(format!(
                    "target `{}`: unknown kernel `{other}`",
                    target.name
                ))
            }
        };
        Ok(Kernel {
            f32,
            context: DeviceContext::for_device(&device),
        })
    }
}
