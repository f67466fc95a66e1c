//! How `sched-apply`'s time grows with the model: generated chains of
//! N = 10, 100 and 1 000 ops on 256×256 tensors (`tests/common/scale.rs`:
//! every fourth op a matmul, the others elementwise, each split, reordered
//! and vectorized), applied (parse, plan, interpret), then lowered and
//! JIT-compiled; and a chain whose every producer is computed at its last
//! op. Linear growth shows as a time per op that stays flat across N.
//! Run with `cargo bench --bench scale` (a few minutes: the 1 000-op
//! compile takes seconds per sample); pin to one core (`taskset -c 1`).

#[path = "../tests/common/scale.rs"]
mod scale;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use interpreter::pipeline::{run, Machine, Stop};
use runner::jit::Program;
use scale::{payload, schedule, Shape};
use schedule_lang::SourceFile;
use std::hint::black_box;

const SIZES: [usize; 3] = [10, 100, 1000];

/// Applies the schedule of `ops` ops; returns the transformed payload.
fn apply(ops: usize, shape: Shape, payload_text: &str) -> String {
    let source = SourceFile::new("model.sched", schedule(ops, shape));
    run(
        &source,
        "model.mlir",
        payload_text,
        Stop::Apply,
        &Machine::host(),
    )
    .unwrap()
    .payload
    .unwrap()
}

fn applying(c: &mut Criterion) {
    for (name, shape) in [
        ("apply", Shape::Mixed),
        ("apply compute_at", Shape::ComputeAtLast),
    ] {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        for ops in SIZES {
            let text = payload(ops, shape);
            group.throughput(Throughput::Elements(ops as u64));
            group.bench_with_input(BenchmarkId::from_parameter(ops), &text, |b, text| {
                b.iter(|| apply(ops, shape, black_box(text)))
            });
        }
        group.finish();
    }
}

fn compiling(c: &mut Criterion) {
    let mut group = c.benchmark_group("lower + JIT");
    group.sample_size(10);
    for ops in SIZES {
        let transformed = apply(ops, Shape::Mixed, &payload(ops, Shape::Mixed));
        group.throughput(Throughput::Elements(ops as u64));
        group.bench_with_input(BenchmarkId::from_parameter(ops), &transformed, |b, text| {
            b.iter(|| Program::compile("model.mlir", black_box(text), None).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, applying, compiling);
criterion_main!(benches);
