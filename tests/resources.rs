//! The scheduled conv_layer (examples/halide_conv, full size) runs within
//! the default 8 MiB stack of a thread, computes the right values, and does
//! not leak: the process's peak memory does not grow from call to call
//! (calls 10 to 100, in two stretches).
//!
//! One test in its own binary, so no other test allocates in the process
//! while its memory is measured.

mod common;

use interpreter::pipeline::{run, Machine, Stop};
use runner::jit::Program;
use runner::tensor::Tensor;
use schedule_lang::SourceFile;

/// A field of /proc/self/status in KiB (`VmHWM`: peak resident memory).
fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with(&format!("{field}:")))
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"));
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// conv_layer at one output point, straight from its definition in conv.mlir:
/// relu(bias[c] + sum over rz, ry, rx of input[n, y+rz, x+ry, rx] * filter[rx, rz, ry, c]).
fn conv_point(input: &[f64], filter: &[f64], bias: &[f64], [n, y, x, c]: [usize; 4]) -> f64 {
    let (ih, iw, ci, co) = (82, 102, 128, 128);
    let mut sum = bias[c];
    for rz in 0..3 {
        for ry in 0..3 {
            for rx in 0..ci {
                sum += input[((n * ih + y + rz) * iw + x + ry) * ci + rx]
                    * filter[((rx * 3 + rz) * 3 + ry) * co + c];
            }
        }
    }
    sum.max(0.0)
}

#[test]
fn scheduled_conv_layer_runs_on_a_default_stack_and_keeps_its_memory_flat() {
    let root = common::root();
    let payload_text =
        std::fs::read_to_string(root.join("examples/halide_conv/conv.mlir")).unwrap();
    let schedule = SourceFile::new(
        "conv.sched",
        std::fs::read_to_string(root.join("examples/halide_conv/conv.sched")).unwrap(),
    );
    let outcome = run(
        &schedule,
        "conv.mlir",
        &payload_text,
        Stop::Apply,
        &Machine::host(),
    )
    .unwrap_or_else(|f| panic!("{}", f.message()));
    let transformed = outcome.payload.expect("applied");

    // A thread with the default 8 MiB main-thread stack (test threads get 2 MiB).
    let worker = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            let program = Program::compile("conv (scheduled)", &transformed, None)
                .unwrap_or_else(|e| panic!("{}", e.message));
            let inputs: Vec<Tensor> = program.random_inputs(11);
            let mut results = program.new_results();
            let call =
                |results: &mut Vec<Tensor>| program.call(&mut inputs.clone(), results).unwrap();
            for _ in 0..10 {
                call(&mut results);
            }
            let mut peaks = vec![status_kib("VmHWM")];
            for _ in 0..2 {
                for _ in 0..45 {
                    call(&mut results);
                }
                peaks.push(status_kib("VmHWM"));
            }
            (inputs, results, peaks)
        })
        .unwrap();
    let (inputs, results, peaks) = worker
        .join()
        .expect("the scheduled conv_layer crashed on an 8 MiB stack");

    // A leak of the packed filter block alone would add 2 x 288 KiB per call, 25 MiB in each stretch
    // of 45 calls. Tensors of 1 MiB and more have mappings of their own (`HostBuffer`), so the
    // allocator's heaps cannot creep either: the peak stays flat in both stretches.
    let growth_kib: Vec<u64> = peaks
        .windows(2)
        .map(|w| w[1].saturating_sub(w[0]))
        .collect();
    assert!(
        growth_kib.iter().all(|&g| g < 4 * 1024),
        "peak memory grew over 45 calls: by {growth_kib:?} KiB (peaks after calls 10, 55, 100: {peaks:?} KiB)"
    );

    // The values are right: 400 output points against the definition.
    let (input, filter, bias) = (inputs[0].to_f64(), inputs[1].to_f64(), inputs[2].to_f64());
    let output = results[0].to_f64();
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    let mut positive = 0;
    for _ in 0..400 {
        let point = [next(5), next(80), next(100), next(128)];
        let [n, y, x, c] = point;
        let want = conv_point(&input, &filter, &bias, point);
        let got = output[((n * 80 + y) * 100 + x) * 128 + c];
        assert!(
            (got - want).abs() <= 1e-4 * (1.0 + want.abs()) + 1e-3,
            "output {point:?} is {got}, the definition gives {want}"
        );
        positive += usize::from(want > 0.0);
    }
    assert!(
        positive > 50,
        "too few positive outputs ({positive} of 400) to test anything past the ReLU"
    );
}
