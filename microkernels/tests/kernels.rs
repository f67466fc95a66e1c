//! Every kernel against a naive GEMM, on random and edge shapes; hwacc16's
//! refusals, counters and cycle model; the C ABI through raw pointers; the
//! target descriptions.

use microkernels::abi::{self, DeviceContext};
use microkernels::hwacc16::Device;
use microkernels::{builtin_targets, reference_gemm, Counters, Target, TargetError, TileF32};
use proptest::prelude::*;

/// Operands for an `m x n x k` tile with padded leading dimensions, filled
/// with small integers (exact in f32, so any summation order agrees).
fn operands(m: usize, n: usize, k: usize, pad: usize, seed: u64) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) % 9) as f32 - 4.0
    };
    let a = (0..m.max(1) * (k + pad)).map(|_| next()).collect();
    let b = (0..k.max(1) * (n + pad)).map(|_| next()).collect();
    let c = (0..m.max(1) * (n + pad)).map(|_| next()).collect();
    (a, b, c)
}

/// Runs `kernel` and the reference on the same operands; returns both C's.
fn both(
    (m, n, k, pad, accumulate, seed): (usize, usize, usize, usize, bool, u64),
    kernel: impl FnOnce(&mut TileF32, &mut Counters) -> Result<(), microkernels::TileError>,
) -> (Vec<f32>, Vec<f32>, Counters) {
    let (a, b, c) = operands(m, n, k, pad, seed);
    let (mut got, mut want) = (c.clone(), c);
    let mut counters = Counters::default();
    let tile = |c| TileF32 {
        m,
        n,
        k,
        a: &a,
        lda: k + pad,
        b: &b,
        ldb: n + pad,
        c,
        ldc: n + pad,
        accumulate,
    };
    kernel(&mut tile(&mut got), &mut counters).expect("the tile is computed");
    reference_gemm(&mut tile(&mut want));
    (got, want, counters)
}

fn hwacc16() -> Device {
    let target = builtin_targets()
        .into_iter()
        .find(|t| t.name == "hwacc16")
        .unwrap();
    Device::from_target(&target)
}

/// A dense `m x n x k` tile over `a`, `b` and `c` (leading dimensions equal to the rows).
fn dense<'a>(
    (m, n, k): (usize, usize, usize),
    a: &'a [f32],
    b: &'a [f32],
    c: &'a mut [f32],
    accumulate: bool,
) -> TileF32<'a> {
    TileF32 {
        m,
        n,
        k,
        a,
        lda: k,
        b,
        ldb: n,
        c,
        ldc: n,
        accumulate,
    }
}

const EDGES: &[usize] = &[1, 2, 15, 16];
const HOST_EDGES: &[usize] = &[1, 15, 17, 63, 65];

proptest! {
    #[test]
    fn hwacc16_computes_every_tile_it_accepts(
        m in 1usize..=16, n in 1usize..=16, k in 1usize..=16, pad in 0usize..3, accumulate: bool, seed: u64
    ) {
        let device = hwacc16();
        let (got, want, counters) = both((m, n, k, pad, accumulate, seed), |t, c| device.run(t, c));
        prop_assert_eq!(got, want);
        prop_assert_eq!(counters.macs, (m * n * k) as u64);
    }

    #[test]
    fn hwacc16_computes_quantized_tiles_exactly(
        m in 1usize..=16, n in 1usize..=16, k in 1usize..=16, accumulate: bool, seed: u64
    ) {
        let device = hwacc16();
        let (a, b, c) = operands(m, n, k, 0, seed);
        // Full i8 range, to exercise the widening: 127 * 127 * 16 fits in i32.
        let a: Vec<i8> = a.iter().map(|&v| (v * 31.0) as i8).collect();
        let b: Vec<i8> = b.iter().map(|&v| (v * 31.0) as i8).collect();
        let c: Vec<i32> = c.iter().map(|&v| v as i32 * 1000).collect();
        let (mut got, mut want) = (c.clone(), c);
        let mut counters = Counters::default();
        let tile = |c| microkernels::TileI8 { m, n, k, a: &a, lda: k, b: &b, ldb: n, c, ldc: n, accumulate };
        device.run(&mut tile(&mut got), &mut counters).unwrap();
        reference_gemm(&mut tile(&mut want));
        prop_assert_eq!(got, want);
        // A and B move a byte per element, C four.
        let accumulated = if accumulate { m * n * 4 } else { 0 };
        prop_assert_eq!(counters.bytes_in, (m * k + k * n + accumulated) as u64);
        prop_assert_eq!(counters.bytes_out, (m * n * 4) as u64);
    }

    #[test]
    fn host_computes_any_tile(
        m in 1usize..70, n in 1usize..70, k in 1usize..70, pad in 0usize..3, accumulate: bool, seed: u64
    ) {
        let (got, want, _) = both((m, n, k, pad, accumulate, seed), microkernels::host::run);
        prop_assert_eq!(got, want);
    }
}

#[test]
fn every_host_micro_kernel_across_block_edges() {
    // Shapes that cross the blocks (320 steps of k, 640 columns) and the
    // register tiles (1 to 6 rows; 16 or 64 columns), each by one, with B's
    // full panels read in place (up to 256 rows) and packed (more rows).
    let shapes = [
        (7, 641, 321),
        (13, 705, 330),
        (6, 64, 320),
        (1, 1, 641),
        (12, 1280, 640),
        (5, 65, 17),
        (257, 130, 321),
    ];
    let kernels = microkernels::simd::available();
    assert!(!kernels.is_empty());
    for kernel in kernels {
        for (m, n, k) in shapes {
            for accumulate in [false, true] {
                let (got, want, counters) = both((m, n, k, 3, accumulate, 5), |t, c| {
                    microkernels::host::run_with(t, kernel, c)
                });
                assert_eq!(got, want, "{} on {m}x{n}x{k}", kernel.name);
                assert_eq!(counters.macs, (m * n * k) as u64);
            }
        }
    }
}

#[test]
fn edge_shapes() {
    let device = hwacc16();
    for &m in EDGES {
        for &n in EDGES {
            for &k in EDGES {
                let (got, want, _) = both((m, n, k, 1, true, 7), |t, c| device.run(t, c));
                assert_eq!(got, want, "hwacc16 {m}x{n}x{k}");
            }
        }
    }
    for &m in HOST_EDGES {
        for &n in HOST_EDGES {
            for &k in HOST_EDGES {
                let (got, want, _) = both((m, n, k, 2, false, 9), microkernels::host::run);
                assert_eq!(got, want, "host {m}x{n}x{k}");
            }
        }
    }
}

#[test]
fn hwacc16_refuses_tiles_beyond_its_native_tile_and_memory() {
    let device = hwacc16();
    let (a, b, mut c) = operands(17, 16, 16, 0, 1);
    let mut counters = Counters::default();
    let mut tile = dense((17, 16, 16), &a, &b, &mut c, false);
    let error = device.run(&mut tile, &mut counters).unwrap_err();
    assert_eq!(
        error.to_string(),
        "a 17x16x16 tile is beyond the native 16x16x16 tile"
    );
    assert_eq!((counters.tiles, counters.refused), (0, 1));

    let small = Device {
        local_bytes: 1000,
        ..device
    };
    let (a, b, mut c) = operands(16, 16, 16, 0, 1);
    let mut tile = dense((16, 16, 16), &a, &b, &mut c, false);
    let error = small.run(&mut tile, &mut counters).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the tiles need 3072 bytes of local memory, the device has 1000"
    );
}

#[test]
fn hwacc16_counts_and_models_cycles() {
    let device = hwacc16();
    assert_eq!(device.bytes_per_cycle, 16, "16e9 bytes/s at 1 GHz");
    let mut counters = Counters::default();
    // A 256x256x256 matmul in native tiles: 16 x 16 x 16 = 4096 calls.
    let (a, b, mut c) = operands(16, 16, 16, 0, 3);
    for call in 0..4096 {
        let mut tile = dense((16, 16, 16), &a, &b, &mut c, call % 16 != 0);
        device.run(&mut tile, &mut counters).unwrap();
    }
    assert_eq!(counters.tiles, 4096);
    assert_eq!(counters.macs, 256 * 256 * 256);
    // Per call: A and B in (2 KiB), C in when accumulating (1 KiB, 15 of 16 calls), C out (1 KiB).
    assert_eq!(counters.bytes_in, 4096 * 2048 + 3840 * 1024);
    assert_eq!(counters.bytes_out, 4096 * 1024);
    // Load 128 or 192 cycles, compute 16 + 15 + 15, drain 64.
    assert_eq!(
        counters.cycles,
        256 * (128 + 46 + 64) + 3840 * (192 + 46 + 64)
    );
    let utilization = counters.utilization(256.0).unwrap();
    assert!(utilization > 0.05 && utilization < 0.07, "{utilization}");
}

#[test]
fn the_c_abi_runs_kernels_through_raw_pointers() {
    let (m, n, k) = (5usize, 7usize, 3usize);
    let (a, b, c) = operands(m, n, k, 0, 11);
    let mut want = c.clone();
    reference_gemm(&mut TileF32 {
        m,
        n,
        k,
        a: &a,
        lda: k,
        b: &b,
        ldb: n,
        c: &mut want,
        ldc: n,
        accumulate: true,
    });
    let symbols: [(&str, abi::TileF32Kernel); 2] = [
        ("hwacc16", abi::sched_tile_f32_hwacc16),
        ("host", abi::sched_tile_f32_host),
    ];
    for (name, kernel) in symbols {
        let mut context = DeviceContext::for_device(&hwacc16());
        let mut got = c.clone();
        // SAFETY: each pointer covers its whole tile, C is a separate buffer,
        // and the context is a local the call has to itself.
        let status = unsafe {
            kernel(
                &mut context,
                m as i64,
                n as i64,
                k as i64,
                a.as_ptr(),
                k as i64,
                b.as_ptr(),
                n as i64,
                got.as_mut_ptr(),
                n as i64,
                1,
            )
        };
        assert_eq!(status, abi::status::OK, "{name}");
        assert_eq!(got, want, "{name}");
        assert_eq!(context.counters.tiles, 1, "{name}");
        // A leading dimension shorter than its row is refused before any access.
        // SAFETY: as above; the call returns without touching the buffers.
        let status = unsafe {
            kernel(
                &mut context,
                m as i64,
                n as i64,
                k as i64,
                a.as_ptr(),
                1,
                b.as_ptr(),
                n as i64,
                got.as_mut_ptr(),
                n as i64,
                0,
            )
        };
        assert_eq!(status, abi::status::BAD_ARGUMENTS, "{name}");
    }
}

#[test]
fn targets_are_read_from_toml_and_checked() {
    let names: Vec<String> = builtin_targets().into_iter().map(|t| t.name).collect();
    assert_eq!(names, ["hwacc16", "host"]);
    let text = include_str!("../targets/hwacc16.toml");
    let bad_kernel = text.replace("kernel = \"hwacc16\"", "kernel = \"tpu\"");
    assert_eq!(
        Target::from_toml("mine.toml", &bad_kernel).unwrap_err(),
        TargetError::Invalid {
            file: "mine.toml".into(),
            message: "unknown kernel `tpu`: the built-in kernels are hwacc16, host, or \
                      `library` with a [library] table for your own"
                .into()
        }
    );
    let message = |text: &str| {
        Target::from_toml("dir/mine.toml", text)
            .unwrap_err()
            .to_string()
    };
    let library = text.replace("kernel = \"hwacc16\"", "kernel = \"library\"");
    assert!(message(&library).contains("needs a [library] table with `path` and `symbol`"));
    let table = "\n[library]\npath = \"libnpu.so\"\nsymbol = \"npu_tile\"\n";
    let described = Target::from_toml("dir/mine.toml", &format!("{library}{table}")).unwrap();
    let found = described.library.expect("the table is read");
    // A relative path is relative to the description's directory.
    assert_eq!(found.path, std::path::Path::new("dir/libnpu.so"));
    assert_eq!(found.symbol, "npu_tile");
    assert!(message(&format!("{text}{table}")).contains("is for kernel = \"library\""));
    let column = text.replacen("a = \"row-major\"", "a = \"column-major\"", 1);
    assert!(message(&column).contains("layout.a = \"column-major\": kernels take row-major"));
    let spaced = text.replace("name = \"hwacc16\"", "name = \"my npu\"");
    assert!(message(&spaced).contains("must be letters, digits and `_`"));
    let zero_tile = text.replace("m = 16", "m = 0");
    assert!(Target::from_toml("mine.toml", &zero_tile)
        .unwrap_err()
        .to_string()
        .contains("at least 1x1x1, not 0x16x16"));
    let typo = text.replace("local_bytes", "local_byte");
    let error = Target::from_toml("mine.toml", &typo)
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with("mine.toml: ") && error.contains("local_byte"),
        "{error}"
    );
}
