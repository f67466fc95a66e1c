//! Latency of each phase of `sched-apply` on the examples: parse, resolve +
//! plan, and the whole apply (payload parsing, description, interpreter);
//! then the JIT-compiled payload's call throughput, scheduled and not
//! (criterion reports it in elements per second: FLOPs).
//! Run with `cargo bench`; pin to one core (`taskset -c 1`) on a shared machine.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use interpreter::pipeline::{run, Machine, Stop};
use runner::jit::Program;
use runner::tensor::Tensor;
use schedule_lang::SourceFile;
use std::hint::black_box;

struct Example {
    name: &'static str,
    schedule: SourceFile,
    payload_name: &'static str,
    payload: String,
}

fn examples() -> Vec<Example> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &str| std::fs::read_to_string(root.join(path)).unwrap();
    vec![
        Example {
            name: "conv_layer",
            schedule: SourceFile::new("conv.sched", read("examples/halide_conv/conv.sched")),
            payload_name: "conv.mlir",
            payload: read("examples/halide_conv/conv.mlir"),
        },
        Example {
            name: "gemm",
            schedule: SourceFile::new("gemm.sched", read("examples/gemm/gemm.sched")),
            payload_name: "gemm.mlir",
            payload: read("examples/gemm/gemm.mlir"),
        },
        Example {
            name: "matmul_register_tile",
            schedule: SourceFile::new(
                "matmul_register_tile.sched",
                read("tests/fixtures/matmul_register_tile.sched"),
            ),
            payload_name: "matmul.mlir",
            payload: read("tests/payloads/matmul.mlir"),
        },
    ]
}

fn phases(c: &mut Criterion) {
    for example in examples() {
        let mut group = c.benchmark_group(example.name);
        group.bench_function("parse", |b| {
            b.iter(|| schedule_lang::parse(black_box(&example.schedule.text)))
        });
        group.bench_function("parse+resolve+plan", |b| {
            b.iter(|| {
                run(
                    &example.schedule,
                    example.payload_name,
                    black_box(&example.payload),
                    Stop::Plan,
                    &Machine::host(),
                )
                .unwrap()
            })
        });
        group.bench_function("apply (all phases)", |b| {
            b.iter(|| {
                run(
                    &example.schedule,
                    example.payload_name,
                    black_box(&example.payload),
                    Stop::Apply,
                    &Machine::host(),
                )
                .unwrap()
            })
        });
        group.finish();
    }
}

fn jit_run(c: &mut Criterion) {
    for example in examples() {
        let outcome = run(
            &example.schedule,
            example.payload_name,
            &example.payload,
            Stop::Apply,
            &Machine::host(),
        )
        .unwrap();
        let flops = outcome
            .info
            .static_flops(&outcome.info.functions[0])
            .unwrap();
        let transformed = outcome.payload.unwrap();
        let mut group = c.benchmark_group(format!("{}/run", example.name));
        group.throughput(Throughput::Elements(flops));
        group.sample_size(10);
        for (label, text) in [
            ("scheduled", transformed.as_str()),
            ("unscheduled", example.payload.as_str()),
        ] {
            if label == "unscheduled" && flops > 1_000_000_000 {
                continue; // seconds per call; `sched-apply run --bench` measures it
            }
            let program = Program::compile(example.payload_name, text, None).unwrap();
            let inputs: Vec<Tensor> = program.random_inputs(0);
            let mut results = program.new_results();
            group.bench_function(label, |b| {
                b.iter(|| program.call(&mut inputs.clone(), &mut results).unwrap())
            });
        }
        group.finish();
    }
}

criterion_group!(benches, phases, jit_run);
criterion_main!(benches);
