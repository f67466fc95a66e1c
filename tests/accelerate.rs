//! `accelerate`: contraction tiles run on an accelerator's kernel. Each case
//! applies a schedule, JIT-runs the payload with the kernels bound in,
//! checks the results against the unscheduled payload (`run --check`), and
//! checks the counters against the static count: tiles issued, MACs (the
//! op's, edges included), and the bytes each tile moves.

mod common;

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// A payload computing `fill` then `matmul` on `m x k` times `k x n`.
fn matmul(m: usize, n: usize, k: usize) -> String {
    format!(
        "func.func @mm(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%c : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
"
    )
}

/// A matmul written as a `linalg.generic` (C += A * B) on `m x k` times `k x n`.
fn generic_matmul(m: usize, n: usize, k: usize) -> String {
    format!(
        "func.func @gm(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>, %c: tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = [\"parallel\", \"parallel\", \"reduction\"]}}
    ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%c : tensor<{m}x{n}xf32>) {{
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }} -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
"
    )
}

/// Writes `files` (name, text) to a fresh directory under the target dir.
fn scratch(case: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = common::root()
        .join("target/test-scratch/accelerate")
        .join(case);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

/// `sched-apply run PAYLOAD SCHEDULE --check --counters --json [extra]`:
/// the JSON report, after asserting the check passed.
fn run(case: &str, payload: &str, schedule: &str, extra: &[&str]) -> Value {
    let dir = scratch(case, &[("p.mlir", payload), ("p.sched", schedule)]);
    let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .args([
            "run",
            "p.mlir",
            "p.sched",
            "--check",
            "--counters",
            "--json",
        ])
        .args(extra)
        .current_dir(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{case}: {stderr}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["check"], "ok", "{case}: {report}");
    report
}

/// `sched-apply ARGS` in `dir`, expected to fail: its exit code and standard error.
fn fails(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let (code, stderr) = outcome(dir, args);
    assert_ne!(code, Some(0), "{stderr}");
    (code, stderr)
}

/// `sched-apply ARGS` in `dir`: its exit code and standard error.
fn outcome(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    (output.status.code(), stderr)
}

/// The counters of `target` in a report.
fn counters(report: &Value, target: &str) -> [u64; 5] {
    let c = &report["counters"][target];
    ["tiles", "macs", "bytes_in", "bytes_out", "cycles"]
        .map(|key| c[key].as_u64().unwrap_or_else(|| panic!("no {key} in {c}")))
}

/// Bytes one f32 tile call moves: A, B and C (accumulated) in, C out.
fn tile_bytes(m: u64, n: u64, k: u64) -> (u64, u64) {
    ((m * k + k * n + m * n) * 4, m * n * 4)
}

#[test]
fn a_256_cubed_matmul_is_4096_native_tiles_on_hwacc16() {
    let report = run(
        "native_256",
        &matmul(256, 256, 256),
        "func mm = linalg.matmul (i, j | k)\nmm.accelerate(hwacc16)\n",
        &["--bench", "2", "--reference-calls", "1"],
    );
    let [tiles, macs, bytes_in, bytes_out, cycles] = counters(&report, "hwacc16");
    // The counters are one call's, though the payload ran several times.
    assert_eq!(tiles, 4096);
    assert_eq!(macs, 256 * 256 * 256);
    let (tile_in, tile_out) = tile_bytes(16, 16, 16);
    assert_eq!((bytes_in, bytes_out), (4096 * tile_in, 4096 * tile_out));
    // Per tile: 3072 bytes in and 1024 out at 16 bytes a cycle, and
    // k + (m - 1) + (n - 1) = 46 cycles through the array.
    assert_eq!(cycles, 4096 * (3072 / 16 + 46 + 1024 / 16));
    assert_eq!(report["counters"]["hwacc16"]["refused"], 0);
}

#[test]
fn edge_tiles_are_smaller_and_every_mac_is_counted_once() {
    let (m, n, k) = (100u64, 70u64, 50u64);
    let report = run(
        "edges",
        &matmul(100, 70, 50),
        "func mm = linalg.matmul (i, j | k)\nmm.accelerate(hwacc16)\n",
        &[],
    );
    let [tiles, macs, bytes_in, bytes_out, _] = counters(&report, "hwacc16");
    assert_eq!(tiles, m.div_ceil(16) * n.div_ceil(16) * k.div_ceil(16));
    assert_eq!(macs, m * n * k);
    // Each dimension splits into full tiles of 16 and one edge.
    let parts = |extent: u64| [(extent / 16, 16), (1, extent % 16)];
    let (mut want_in, mut want_out) = (0, 0);
    for (count_m, size_m) in parts(m) {
        for (count_n, size_n) in parts(n) {
            for (count_k, size_k) in parts(k) {
                let (tile_in, tile_out) = tile_bytes(size_m, size_n, size_k);
                let count = count_m * count_n * count_k;
                want_in += count * tile_in;
                want_out += count * tile_out;
            }
        }
    }
    assert_eq!((bytes_in, bytes_out), (want_in, want_out));
}

#[test]
fn one_host_call_per_iteration_of_the_accelerated_loop() {
    // The loops run jo, io, ji, ii (outermost first): one call per (jo, io),
    // 3 x 3 of them, the last row and column of tiles partial.
    let report = run(
        "host_loop",
        &matmul(96, 80, 40),
        "func mm = linalg.matmul (i, j | k)\nmm.tile(i, j, io, jo, ii, ji, 40, 32)\n  .accelerate(host, io)\n",
        &[],
    );
    let [tiles, macs, _, bytes_out, cycles] = counters(&report, "host");
    assert_eq!(tiles, 3 * 3);
    assert_eq!(macs, 96 * 80 * 40);
    assert_eq!(bytes_out, 96 * 80 * 4, "each element of C is written once");
    assert_eq!(cycles, 0, "the host has no cycle model");
}

#[test]
fn a_batch_matmul_is_offloaded_one_matrix_per_call() {
    let payload =
        std::fs::read_to_string(common::root().join("tests/payloads/batch_matmul.mlir")).unwrap();
    let report = run(
        "batch",
        &payload,
        "func bmm = linalg.batch_matmul (b, i, j | k)\nbmm.accelerate(hwacc16)\n",
        &[],
    );
    let [tiles, macs, ..] = counters(&report, "hwacc16");
    // 4 batches of 32x48 outputs over k = 64.
    assert_eq!(tiles, 4 * 2 * 3 * 4);
    assert_eq!(macs, 4 * 32 * 48 * 64);
}

#[test]
fn a_generic_that_is_a_matmul_is_offloaded_at_a_loop() {
    // At io the tile is 16 x 16 x 16 (the loops run jo, io, ji, ii): one
    // call per (jo, io), 3 x 3 of them, the last column partial.
    let report = run(
        "generic",
        &generic_matmul(48, 40, 16),
        "func gm = linalg.generic (i, j | k)\ngm.tile(i, j, io, jo, ii, ji, 16, 16).accelerate(hwacc16, io)\n",
        &[],
    );
    let [tiles, macs, ..] = counters(&report, "hwacc16");
    assert_eq!(tiles, 3 * 3);
    assert_eq!(macs, 48 * 40 * 16);
}

#[test]
fn a_users_target_file_is_found_by_name() {
    let description =
        std::fs::read_to_string(common::root().join("microkernels/targets/hwacc16.toml"))
            .unwrap()
            .replace("name = \"hwacc16\"", "name = \"npu8\"")
            .replace("m = 16\nn = 16\nk = 16", "m = 8\nn = 8\nk = 8");
    let dir = scratch("user_target_file", &[("npu8.toml", &description)]);
    let target = dir.join("npu8.toml");
    let report = run(
        "user_target",
        &matmul(64, 96, 128),
        "func mm = linalg.matmul (i, j | k)\nmm.accelerate(npu8)\n",
        &["--target", target.to_str().unwrap()],
    );
    let [tiles, macs, ..] = counters(&report, "npu8");
    assert_eq!(tiles, 8 * 12 * 16);
    assert_eq!(macs, 64 * 96 * 128);
}

#[test]
fn a_native_tile_beyond_the_targets_local_memory_is_a_located_error() {
    // A device with a 64x64x64 array but 16 KiB of local memory: the array's
    // tile needs 48 KiB, so no tile a strict device accepts is safe.
    let description =
        std::fs::read_to_string(common::root().join("microkernels/targets/hwacc16.toml"))
            .unwrap()
            .replace("name = \"hwacc16\"", "name = \"tiny\"")
            .replace("m = 16\nn = 16\nk = 16", "m = 64\nn = 64\nk = 64")
            .replace("local_bytes = 65536", "local_bytes = 16384");
    let dir = scratch(
        "local_memory",
        &[
            ("tiny.toml", &description),
            ("p.mlir", &matmul(64, 64, 64)),
            ("p.sched", "func mm = linalg.matmul (i, j | k)\nmm.split(i, io, ii, 16).accelerate(tiny, io)\n"),
        ],
    );
    let (code, stderr) = fails(&dir, &["run", "p.mlir", "p.sched", "--target", "tiny.toml"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("p.sched:2:36: error: `tiny`'s native 64x64x64 tile needs 49152 bytes of local memory, and its description gives it 16384"),
        "{stderr}"
    );
}

#[test]
fn the_offload_phase_shows_each_tile_as_a_kernel_call() {
    let root = common::root();
    let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .args([
            "tests/payloads/matmul.mlir",
            "tests/fixtures/matmul_accelerate_native.sched",
            "--emit",
            "offloaded",
        ])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    insta::assert_snapshot!(String::from_utf8_lossy(&output.stdout));
}

/// A target description for the tiny C HAL (`tests/hal/tiny_hal.c`).
fn tiny_hal_target() -> String {
    hal_target(env!("TINY_HAL"), "tiny_tile_f32")
}

/// A target description `tiny` whose tile function is `symbol` in `path`.
fn hal_target(path: &str, symbol: &str) -> String {
    format!(
        "name = \"tiny\"
summary = \"a tiny C HAL loaded at run time\"
kernel = \"library\"

[library]
path = \"{path}\"
symbol = \"{symbol}\"

[tile]
m = 32
n = 32
k = 64
strict = false

[memory]
local_bytes = 1048576

[roofline]
peak_macs_per_second = 1e9
bandwidth_bytes_per_second = 1e9
clock_hz = 1e9

[[types]]
a = \"f32\"
b = \"f32\"
c = \"f32\"

[layout]
a = \"row-major\"
b = \"row-major\"
c = \"row-major\"
"
    )
}

#[test]
fn a_relative_library_path_is_found_beside_its_description_never_on_the_search_path() {
    let dir = scratch(
        "hal_relative",
        &[
            ("tiny.toml", &hal_target("libtiny.so", "tiny_tile_f32")),
            ("libc.toml", &hal_target("libc.so.6", "abort")),
            ("p.mlir", &matmul(32, 32, 32)),
            (
                "p.sched",
                "func mm = linalg.matmul (i, j | k)\nmm.accelerate(tiny)\n",
            ),
        ],
    );
    std::fs::copy(env!("TINY_HAL"), dir.join("libtiny.so")).unwrap();
    // A bare file name for the description: its directory is the current one.
    let (code, stderr) = outcome(
        &dir,
        &[
            "run",
            "p.mlir",
            "p.sched",
            "--check",
            "--target",
            "tiny.toml",
        ],
    );
    assert_eq!(code, Some(0), "{stderr}");
    // `libc.so.6` beside the description does not exist: the system's is not loaded instead.
    let (code, stderr) = fails(&dir, &["run", "p.mlir", "p.sched", "--target", "libc.toml"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "libc.toml:6:8: error: target `tiny`: cannot load {}",
            std::fs::canonicalize(&dir)
                .unwrap()
                .join("libc.so.6")
                .display()
        )),
        "{stderr}"
    );
}

#[test]
fn a_library_that_cannot_be_used_is_an_error_at_its_line_in_the_description() {
    let missing = "/nonexistent/libnothing.so";
    let cases = [
        (
            "missing",
            hal_target(missing, "tiny_tile_f32"),
            "missing.toml:6:8: error: target `tiny`: cannot load /nonexistent/libnothing.so",
        ),
        (
            "not_elf",
            hal_target("not_elf.so", "tiny_tile_f32"),
            "not_elf.toml:6:8: error: target `tiny`: cannot load",
        ),
        (
            "no_symbol",
            hal_target(env!("TINY_HAL"), "no_such_symbol"),
            "no_symbol.toml:7:10: error: target `tiny`: no `no_such_symbol` in",
        ),
        (
            "empty",
            hal_target("", "tiny_tile_f32"),
            "empty.toml:6:8: error: the library's `path` is empty",
        ),
    ];
    for (name, description, expected) in cases {
        let file = format!("{name}.toml");
        let dir = scratch(
            &format!("hal_error_{name}"),
            &[
                (file.as_str(), description.as_str()),
                ("not_elf.so", "not an ELF file"),
                ("p.mlir", &matmul(32, 32, 32)),
                (
                    "p.sched",
                    "func mm = linalg.matmul (i, j | k)\nmm.accelerate(tiny)\n",
                ),
            ],
        );
        let (code, stderr) = fails(&dir, &["run", "p.mlir", "p.sched", "--target", &file]);
        assert_eq!(code, Some(1), "{name}: {stderr}");
        assert!(stderr.contains(expected), "{name}: {stderr}");
    }
}

#[test]
fn an_external_hal_is_loaded_from_its_target_file_and_computes_the_tiles() {
    let dir = scratch("hal_target", &[("tiny.toml", &tiny_hal_target())]);
    let target = dir.join("tiny.toml");
    let report = run(
        "hal",
        &matmul(96, 80, 48),
        "func mm = linalg.matmul (i, j | k)\nmm.accelerate(tiny)\n",
        &["--target", target.to_str().unwrap()],
    );
    // The HAL counts tiles and MACs itself (no bytes, no cycles).
    let [tiles, macs, bytes_in, _, cycles] = counters(&report, "tiny");
    assert_eq!(tiles, 3 * 3, "3 x 3 tiles of 32 x 32, k = 48 in one");
    assert_eq!(macs, 96 * 80 * 48);
    assert_eq!((bytes_in, cycles), (0, 0));
}

#[test]
fn a_tile_the_hal_refuses_fails_the_run_instead_of_returning_wrong_results() {
    // With k = 128 in one tile (the description is not strict), the HAL refuses.
    let dir = scratch(
        "hal_refuses",
        &[
            ("tiny.toml", &tiny_hal_target()),
            ("p.mlir", &matmul(32, 32, 128)),
            (
                "p.sched",
                "func mm = linalg.matmul (i, j | k)\nmm.split(i, io, ii, 16).accelerate(tiny, io)\n",
            ),
        ],
    );
    let (code, stderr) = fails(&dir, &["run", "p.mlir", "p.sched", "--target", "tiny.toml"]);
    assert!(
        stderr.contains(
            "error: accelerator `tiny` failed a tile call with status 1 (it refused the tile"
        ),
        "{stderr}"
    );
    assert_eq!(
        code,
        Some(3),
        "an accelerator's failure has its own exit code"
    );
}

/// A quantized matmul: i32 arguments narrowed to i8 (the random inputs are
/// in [-8, 8)), multiplied as i8 x i8 -> i32 by `linalg.matmul`.
fn quantized_matmul(m: usize, n: usize, k: usize) -> String {
    let narrow = |name: &str, rows: usize, columns: usize| {
        format!(
            "  %{name}8 = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [\"parallel\", \"parallel\"]}}
    ins(%{name} : tensor<{rows}x{columns}xi32>) outs(%{name}_e : tensor<{rows}x{columns}xi8>) {{
  ^bb0(%v: i32, %o: i8):
    %t = arith.trunci %v : i32 to i8
    linalg.yield %t : i8
  }} -> tensor<{rows}x{columns}xi8>
"
        )
    };
    format!(
        "func.func @qmm(%a: tensor<{m}x{k}xi32>, %b: tensor<{k}x{n}xi32>) -> tensor<{m}x{n}xi32> {{
  %zero = arith.constant 0 : i32
  %a_e = tensor.empty() : tensor<{m}x{k}xi8>
  %b_e = tensor.empty() : tensor<{k}x{n}xi8>
{}{}  %e = tensor.empty() : tensor<{m}x{n}xi32>
  %c = linalg.fill ins(%zero : i32) outs(%e : tensor<{m}x{n}xi32>) -> tensor<{m}x{n}xi32>
  %r = linalg.matmul ins(%a8, %b8 : tensor<{m}x{k}xi8>, tensor<{k}x{n}xi8>) outs(%c : tensor<{m}x{n}xi32>) -> tensor<{m}x{n}xi32>
  return %r : tensor<{m}x{n}xi32>
}}
",
        narrow("a", m, k),
        narrow("b", k, n)
    )
}

#[test]
fn a_quantized_matmul_runs_on_hwacc16_as_i8_tiles_exactly() {
    let (m, n, k) = (40u64, 24u64, 48u64);
    let report = run(
        "quantized",
        &quantized_matmul(40, 24, 48),
        "func mm = linalg.matmul (i, j | k)\nmm.accelerate(hwacc16)\n",
        &[],
    );
    // Integers: the check's tolerance is 0, so the results are exact.
    assert_eq!(report["max_abs_diff"], 0.0);
    let [tiles, macs, bytes_in, bytes_out, _] = counters(&report, "hwacc16");
    assert_eq!(tiles, m.div_ceil(16) * n.div_ceil(16) * k.div_ceil(16));
    assert_eq!(macs, m * n * k);
    // A and B are bytes, C (accumulated) 4-byte words; every tile's k is 16.
    let c_words = m * n * k.div_ceil(16);
    assert_eq!(
        bytes_in,
        m * k * n.div_ceil(16) + k * n * m.div_ceil(16) + 4 * c_words
    );
    assert_eq!(bytes_out, 4 * c_words);
}

#[test]
fn quantized_tiles_are_refused_for_a_target_without_them() {
    let dir = scratch(
        "quantized_host",
        &[
            ("p.mlir", &quantized_matmul(16, 16, 16)),
            (
                "p.sched",
                "func mm = linalg.matmul (i, j | k)\nmm.accelerate(host)\n",
            ),
        ],
    );
    let (code, stderr) = fails(&dir, &["p.mlir", "p.sched"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("it computes i8 x i8 -> i32, and `host` takes f32 x f32 -> f32"),
        "{stderr}"
    );
}

/// A matmul whose A is stored `[k, m]` and/or B `[n, k]` (indexing maps of
/// `linalg.matmul`, as a transposed-weight linear layer has).
fn transposed_matmul(m: usize, n: usize, k: usize, a_t: bool, b_t: bool) -> String {
    let (a_shape, a_map) = if a_t {
        (format!("{k}x{m}"), "(d2, d0)")
    } else {
        (format!("{m}x{k}"), "(d0, d2)")
    };
    let (b_shape, b_map) = if b_t {
        (format!("{n}x{k}"), "(d1, d2)")
    } else {
        (format!("{k}x{n}"), "(d2, d1)")
    };
    format!(
        "func.func @mmt(%a: tensor<{a_shape}xf32>, %b: tensor<{b_shape}xf32>, %c: tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> {a_map}>, affine_map<(d0, d1, d2) -> {b_map}>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%a, %b : tensor<{a_shape}xf32>, tensor<{b_shape}xf32>) outs(%c : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
"
    )
}

#[test]
fn operands_stored_transposed_are_copied_into_the_kernels_layout() {
    let (m, n, k) = (40, 24, 20);
    for (a_t, b_t) in [(false, true), (true, false), (true, true)] {
        for (target, schedule) in [
            ("hwacc16", "mm.accelerate(hwacc16)"),
            ("host", "mm.split(i, io, ii, 16).accelerate(host, io)"),
        ] {
            let case = format!("transposed_{a_t}_{b_t}_{target}");
            let report = run(
                &case,
                &transposed_matmul(m, n, k, a_t, b_t),
                &format!("func mm = linalg.matmul (i, j | k)\n{schedule}\n"),
                &[],
            );
            let [tiles, macs, ..] = counters(&report, target);
            assert_eq!(macs, (m * n * k) as u64, "{case}");
            let want_tiles = if target == "hwacc16" { 3 * 2 * 2 } else { 3 };
            assert_eq!(tiles, want_tiles, "{case}");
        }
    }
}

#[test]
fn edge_tiles_can_be_padded_or_split_off_to_generated_code() {
    let (m, n, k) = (100u64, 70u64, 50u64);
    let native = |e: u64| e.div_ceil(16);
    // pad: every call is a whole 16x16x16 tile, the padding included.
    let report = run(
        "edges_pad",
        &matmul(100, 70, 50),
        "func mm = linalg.matmul (i, j | k)\nmm.accelerate(hwacc16, pad)\n",
        &[],
    );
    let [tiles, macs, ..] = counters(&report, "hwacc16");
    assert_eq!(tiles, native(m) * native(n) * native(k));
    assert_eq!(macs, tiles * 16 * 16 * 16);
    // split: only the whole tiles reach the device; the edges are generated code.
    let report = run(
        "edges_split",
        &matmul(100, 70, 50),
        "func mm = linalg.matmul (i, j | k)\nmm.accelerate(hwacc16, split)\n",
        &[],
    );
    let [tiles, macs, ..] = counters(&report, "hwacc16");
    assert_eq!(tiles, (m / 16) * (n / 16) * (k / 16));
    assert_eq!(macs, (m / 16 * 16) * (n / 16 * 16) * (k / 16 * 16));
    // pad at a loop: one call per (jo, io), the partial last row and column
    // of tiles padded to 16 x 16.
    let report = run(
        "edges_pad_loop",
        &matmul(100, 70, 16),
        "func mm = linalg.matmul (i, j | k)\nmm.tile(i, j, io, jo, ii, ji, 16, 16).accelerate(hwacc16, io, pad)\n",
        &[],
    );
    let [tiles, macs, ..] = counters(&report, "hwacc16");
    assert_eq!(tiles, native(m) * native(n));
    assert_eq!(macs, tiles * 16 * 16 * 16);
}

#[test]
fn an_inlined_weight_transpose_is_offloaded_with_the_matmul() {
    // The exporter's linear layer: the weight [n, k] transposed by
    // linalg.transpose for linalg.matmul. Inlined, the matmul reads the
    // weight through (k, j) -> (j, k) and the offload packs it.
    let payload =
        std::fs::read_to_string(common::root().join("tests/payloads/transpose_matmul.mlir"))
            .unwrap();
    let report = run(
        "inline_transpose",
        &payload,
        "func wt = linalg.transpose (k, j)\nfunc fc = linalg.matmul (i, j | k)\n\
         wt.compute_inline()\nfc.accelerate(hwacc16)\n",
        &[],
    );
    let [tiles, macs, ..] = counters(&report, "hwacc16");
    assert_eq!(tiles, 2 * 3 * 4, "24 x 48 x 64 in 16 x 16 x 16 tiles");
    assert_eq!(macs, 24 * 48 * 64);
}

#[test]
fn a_hal_that_crashes_is_named_before_the_process_dies() {
    use std::os::unix::process::ExitStatusExt;
    let dir = scratch(
        "hal_crashes",
        &[
            (
                "tiny.toml",
                &hal_target(env!("TINY_HAL"), "tiny_crashing_tile_f32"),
            ),
            ("p.mlir", &matmul(32, 32, 32)),
            (
                "p.sched",
                "func mm = linalg.matmul (i, j | k)\nmm.accelerate(tiny)\n",
            ),
        ],
    );
    let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .args([
            "run",
            "p.mlir",
            "p.sched",
            "--target",
            "tiny.toml",
            "--no-cache",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.signal(), Some(libc_sigsegv()), "{stderr}");
    assert!(
        stderr
            .contains("died of a fatal signal while @mm ran, which calls the HAL of target `tiny`"),
        "{stderr}"
    );
}

/// SIGSEGV's number on Linux.
fn libc_sigsegv() -> i32 {
    11
}
