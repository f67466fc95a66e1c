//! From a [`Target`] to what generated code calls: the kernel function of
//! the tile ABI (built in, or loaded from a HAL's shared library) and the
//! context its calls share.

use crate::abi::{
    sched_tile_f32_host, sched_tile_f32_hwacc16, sched_tile_i8i32_hwacc16, DeviceContext,
    HalLibrary, HalLoadError, TileF32Kernel, TileI8Kernel,
};
use crate::hwacc16::Device;
use crate::target::Target;

/// A target's kernel, ready to be bound into generated code.
#[derive(Debug)]
pub struct Kernel {
    /// The f32 tile call.
    pub f32: TileF32Kernel,
    /// The i8 x i8 -> i32 tile call, if the kernel has one.
    pub i8i32: Option<TileI8Kernel>,
    /// The context its calls start from (zeroed counters, the device's parameters).
    pub context: DeviceContext,
    /// The shared library `f32` is in, kept loaded as long as the kernel.
    pub library: Option<HalLibrary>,
}

impl Kernel {
    /// The kernel a target names.
    pub fn for_target(target: &Target) -> Result<Kernel, String> {
        let device = Device::from_target(target);
        // The built-in kernels, or the HAL's f32 function (kept with its library).
        let (f32, i8i32, library): (TileF32Kernel, Option<TileI8Kernel>, _) =
            match (target.kernel.as_str(), &target.library) {
                ("hwacc16", _) => (
                    sched_tile_f32_hwacc16,
                    Some(sched_tile_i8i32_hwacc16 as TileI8Kernel),
                    None,
                ),
                ("host", _) => (sched_tile_f32_host, None, None),
                (_, Some(description)) => {
                    let loaded = HalLibrary::load(&description.path, &description.symbol).map_err(
                        |why| match why {
                            HalLoadError::Library(why) => {
                                hal_error(&description.path_at, &target.name, &why)
                            }
                            HalLoadError::Symbol(why) => {
                                hal_error(&description.symbol_at, &target.name, &why)
                            }
                        },
                    )?;
                    (loaded.tile_f32, None, Some(loaded))
                }
                (other, None) => {
                    return Err(format!(
                        "target `{}`: unknown kernel `{other}`",
                        target.name
                    ))
                }
            };
        let quantized = target
            .types
            .iter()
            .any(|t| (t.a.as_str(), t.b.as_str(), t.c.as_str()) == ("i8", "i8", "i32"));
        if quantized && i8i32.is_none() {
            return Err(format!(
                "target `{}` lists i8 x i8 -> i32, which its kernel `{}` does not compute",
                target.name, target.kernel
            ));
        }
        Ok(Kernel {
            f32,
            i8i32,
            context: DeviceContext::for_device(&device),
            library,
        })
    }
}

/// A HAL's library error, located at the description's line when known.
fn hal_error(at: &str, target: &str, why: &str) -> String {
    if at.is_empty() {
        format!("error: target `{target}`: {why}")
    } else {
        format!("{at}: error: target `{target}`: {why}")
    }
}
