//! The tile ABI as C functions (with [`crate::simd`], this crate's `unsafe`). Generated
//! code (and a HAL written in C) calls a kernel through these symbols; each
//! one checks its arguments, builds a safe [`TileF32`] over the pointers and
//! runs the kernel. See `microkernels/README.md` for the contract.

use crate::counters::Counters;
use crate::hwacc16::Device;
use crate::tile::{leading_fits, span, Element, Tile, TileError, TileF32, TileI8};

/// What a built-in kernel's calls share: the counters first (a C caller reads
/// them at offset 0), then the device's parameters.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviceContext {
    /// Updated by every call.
    pub counters: Counters,
    /// Native tile rows (the host kernel does not use them).
    pub native_m: u64,
    /// Native tile columns.
    pub native_n: u64,
    /// Native reduction length.
    pub native_k: u64,
    /// Local memory, bytes.
    pub local_bytes: u64,
    /// Host-memory bytes per cycle.
    pub bytes_per_cycle: u64,
}

impl DeviceContext {
    /// The context of a simulated device.
    pub fn for_device(device: &Device) -> Self {
        DeviceContext {
            counters: Counters::default(),
            native_m: device.native.0 as u64,
            native_n: device.native.1 as u64,
            native_k: device.native.2 as u64,
            local_bytes: device.local_bytes as u64,
            bytes_per_cycle: device.bytes_per_cycle as u64,
        }
    }
}

/// The signature of every tile call, for operands `E` summed in `C`:
/// context, `m, n, k`, A and its leading dimension, B and its, C and its,
/// accumulate. Returns a [`status`].
pub type TileKernel<E, C> = unsafe extern "C" fn(
    *mut DeviceContext,
    i64,
    i64,
    i64,
    *const E,
    i64,
    *const E,
    i64,
    *mut C,
    i64,
    i32,
) -> i32;

/// An f32 tile call.
pub type TileF32Kernel = TileKernel<f32, f32>;

/// An i8 x i8 -> i32 tile call (`int8_t` operands, `int32_t` C).
pub type TileI8Kernel = TileKernel<i8, i32>;

impl DeviceContext {
    /// The simulated device whose parameters the context holds.
    pub fn device(&self) -> Device {
        Device {
            native: (
                self.native_m as usize,
                self.native_n as usize,
                self.native_k as usize,
            ),
            local_bytes: self.local_bytes as usize,
            bytes_per_cycle: (self.bytes_per_cycle as usize).max(1),
        }
    }
}

/// Return codes of a tile call.
pub mod status {
    /// The tile was computed.
    pub const OK: i32 = 0;
    /// The device refused the tile (beyond its native tile or local memory).
    pub const REFUSED: i32 = 1;
    /// A null pointer, a negative size or a leading dimension shorter than its row.
    pub const BAD_ARGUMENTS: i32 = 2;
}

/// The operands of one call, checked.
struct Sizes {
    m: usize,
    n: usize,
    k: usize,
    lda: usize,
    ldb: usize,
    ldc: usize,
}

fn sizes(m: i64, n: i64, k: i64, lda: i64, ldb: i64, ldc: i64) -> Option<Sizes> {
    let convert = |v: i64| usize::try_from(v).ok();
    let sizes = Sizes {
        m: convert(m)?,
        n: convert(n)?,
        k: convert(k)?,
        lda: convert(lda)?,
        ldb: convert(ldb)?,
        ldc: convert(ldc)?,
    };
    (leading_fits(sizes.m, sizes.k, sizes.lda)
        && leading_fits(sizes.k, sizes.n, sizes.ldb)
        && leading_fits(sizes.m, sizes.n, sizes.ldc))
    .then_some(sizes)
}

/// Runs `kernel` on the tile the pointers describe. Calls from parallel
/// loops share one context: the kernel counts into its own [`Counters`],
/// which are then added to the context's atomically, and the device's
/// parameters (never written after the context is made) are only read.
///
/// # Safety
/// `a`, `b` and `c` must point to row-major tiles of the given sizes and
/// leading dimensions (`(rows - 1) * leading + columns` elements each, `c`
/// writable and not overlapping `a` or `b`, nor any other call's C), valid
/// for the call; `context` must point to a live `DeviceContext` whose
/// counters every concurrent user updates atomically.
#[allow(clippy::too_many_arguments)]
unsafe fn call<E: Element>(
    kernel: impl FnOnce(&mut Tile<E>, &Device, &mut Counters) -> Result<(), TileError>,
    context: *mut DeviceContext,
    (m, n, k): (i64, i64, i64),
    (a, lda): (*const E, i64),
    (b, ldb): (*const E, i64),
    (c, ldc): (*mut E::Accumulator, i64),
    accumulate: i32,
) -> i32 {
    let Some(s) = sizes(m, n, k, lda, ldb, ldc) else {
        return status::BAD_ARGUMENTS;
    };
    if context.is_null() || a.is_null() || b.is_null() || c.is_null() {
        return status::BAD_ARGUMENTS;
    }
    // SAFETY: the caller guarantees each pointer covers its tile's span
    // (checked sizes above) and that C aliases nothing else in use. The
    // parameter fields are read through raw places, never the counters.
    let (a, b, c, device) = unsafe {
        let parameters = DeviceContext {
            counters: Counters::default(),
            native_m: std::ptr::addr_of!((*context).native_m).read(),
            native_n: std::ptr::addr_of!((*context).native_n).read(),
            native_k: std::ptr::addr_of!((*context).native_k).read(),
            local_bytes: std::ptr::addr_of!((*context).local_bytes).read(),
            bytes_per_cycle: std::ptr::addr_of!((*context).bytes_per_cycle).read(),
        };
        (
            std::slice::from_raw_parts(a, span(s.m, s.k, s.lda)),
            std::slice::from_raw_parts(b, span(s.k, s.n, s.ldb)),
            std::slice::from_raw_parts_mut(c, span(s.m, s.n, s.ldc)),
            parameters.device(),
        )
    };
    let mut tile = Tile {
        m: s.m,
        n: s.n,
        k: s.k,
        a,
        lda: s.lda,
        b,
        ldb: s.ldb,
        c,
        ldc: s.ldc,
        accumulate: accumulate != 0,
    };
    let mut counted = Counters::default();
    let outcome = kernel(&mut tile, &device, &mut counted);
    // SAFETY: the counters are six aligned u64 fields of a live context,
    // which every concurrent caller updates only atomically (contract above).
    unsafe {
        let counters = std::ptr::addr_of_mut!((*context).counters);
        let add = |field: *mut u64, value: u64| {
            if value != 0 {
                std::sync::atomic::AtomicU64::from_ptr(field)
                    .fetch_add(value, std::sync::atomic::Ordering::Relaxed);
            }
        };
        add(std::ptr::addr_of_mut!((*counters).tiles), counted.tiles);
        add(std::ptr::addr_of_mut!((*counters).macs), counted.macs);
        add(
            std::ptr::addr_of_mut!((*counters).bytes_in),
            counted.bytes_in,
        );
        add(
            std::ptr::addr_of_mut!((*counters).bytes_out),
            counted.bytes_out,
        );
        add(std::ptr::addr_of_mut!((*counters).cycles), counted.cycles);
        add(std::ptr::addr_of_mut!((*counters).refused), counted.refused);
    }
    match outcome {
        Ok(()) => status::OK,
        Err(_) => status::REFUSED,
    }
}

/// Defines a tile entry point of the ABI, for operands `$e` accumulated in
/// `$acc`, over a kernel `(tile, device, counters) -> Result<(), TileError>`.
macro_rules! tile_entry_point {
    ($(#[$doc:meta])* $name:ident ($e:ty => $acc:ty) => $kernel:expr) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// As for every kernel of the ABI: see `call`'s contract above.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name(
            context: *mut DeviceContext,
            m: i64,
            n: i64,
            k: i64,
            a: *const $e,
            lda: i64,
            b: *const $e,
            ldb: i64,
            c: *mut $acc,
            ldc: i64,
            accumulate: i32,
        ) -> i32 {
            // SAFETY: forwarded from this function's own contract.
            unsafe { call($kernel, context, (m, n, k), (a, lda), (b, ldb), (c, ldc), accumulate) }
        }
    };
}

tile_entry_point! {
    /// `hwacc16`'s f32 tile call: C = A * B (+ C when `accumulate` is non-zero).
    /// Returns a [`status`] code.
    sched_tile_f32_hwacc16 (f32 => f32) => |tile: &mut TileF32, device: &Device, counters: &mut Counters| {
        device.run(tile, counters)
    }
}

tile_entry_point! {
    /// `hwacc16`'s i8 x i8 -> i32 tile call: C = A * B (+ C when `accumulate`
    /// is non-zero), products summed in i32 (wrapping). Returns a [`status`] code.
    sched_tile_i8i32_hwacc16 (i8 => i32) => |tile: &mut TileI8, device: &Device, counters: &mut Counters| {
        device.run(tile, counters)
    }
}

tile_entry_point! {
    /// The host's f32 tile call (any shape). Returns a [`status`] code.
    sched_tile_f32_host (f32 => f32) => |tile: &mut TileF32, _: &Device, counters: &mut Counters| {
        crate::host::run(tile, counters)
    }
}

/// A HAL's shared library, loaded, with its tile function.
#[derive(Debug)]
pub struct HalLibrary {
    /// The tile function (valid while `library` is loaded).
    pub tile_f32: TileF32Kernel,
    /// The file it was loaded from.
    pub path: std::path::PathBuf,
    /// Kept loaded as long as the function may be called.
    _library: libloading::Library,
}

/// Why a HAL's library could not be used.
#[derive(Debug)]
pub enum HalLoadError {
    /// The dynamic loader refused the file (missing, not a shared library...).
    Library(String),
    /// The library has no such symbol.
    Symbol(String),
}

impl HalLibrary {
    /// Loads `path` and finds `symbol` in it.
    pub fn load(path: &std::path::Path, symbol: &str) -> Result<Self, HalLoadError> {
        // SAFETY: loading runs the library's initializers; a HAL is code the
        // user chose to run, as a plugin is. The symbol is then trusted to
        // have the tile ABI's signature, which the target description says.
        unsafe {
            let library = libloading::Library::new(path).map_err(|error| {
                HalLoadError::Library(format!("cannot load {}: {error}", path.display()))
            })?;
            let tile_f32 = *library
                .get::<TileF32Kernel>(symbol.as_bytes())
                .map_err(|error| {
                    HalLoadError::Symbol(format!("no `{symbol}` in {}: {error}", path.display()))
                })?;
            Ok(HalLibrary {
                tile_f32,
                path: path.to_path_buf(),
                _library: library,
            })
        }
    }
}
