//! Measures this core's fp32 multiply-add throughput: a JIT-compiled loop of
//! independent `vector.fma` chains that stay in registers (12 chains, deep
//! enough to hide the FMA latency), once with 16-lane vectors (AVX-512) and
//! once with 8-lane vectors (AVX2). The faster is the peak.

use crate::jit::Program;
use crate::tensor::Tensor;
use payload::types::{ElementType, TensorType};
use payload::PayloadError;
use std::time::Instant;

const CHAINS: usize = 12;
const UNROLL: usize = 4;
const ITERATIONS: u64 = 1 << 21;

/// One measured kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct PeakMeasure {
    /// Vector lanes (f32).
    pub lanes: usize,
    /// Median GFLOP/s over the timed calls.
    pub gflops: f64,
}

/// The kernel for one vector width, as MLIR text.
fn kernel(lanes: usize) -> String {
    let vector = format!("vector<{lanes}xf32>");
    let mut body = String::new();
    let accs: Vec<String> = (0..CHAINS).map(|c| format!("%acc{c}")).collect();
    let mut current = accs.clone();
    for u in 0..UNROLL {
        for (c, value) in current.iter_mut().enumerate() {
            let next = format!("%f{u}_{c}");
            body.push_str(&format!(
                "      {next} = vector.fma {value}, %mul, %add : {vector}\n"
            ));
            *value = next;
        }
    }
    let iter_args: Vec<String> = accs.iter().map(|a| format!("{a} = %start")).collect();
    let types = vec![vector.clone(); CHAINS].join(", ");
    let results: Vec<String> = (0..CHAINS).map(|c| format!("%r#{c}")).collect();
    let mut sum = String::new();
    let mut total = results[0].clone();
    for (i, r) in results.iter().enumerate().skip(1) {
        sum.push_str(&format!("  %s{i} = arith.addf {total}, {r} : {vector}\n"));
        total = format!("%s{i}");
    }
    format!(
        "func.func @fma_peak(%seed: tensor<{lanes}xf32>) -> tensor<{lanes}xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {ITERATIONS} : index
  %pad = arith.constant 0.0 : f32
  %mul = arith.constant dense<0.999> : {vector}
  %add = arith.constant dense<0.001> : {vector}
  %start = vector.transfer_read %seed[%c0], %pad : tensor<{lanes}xf32>, {vector}
  %r:{CHAINS} = scf.for %i = %c0 to %n step %c1 iter_args({}) -> ({types}) {{
{body}      scf.yield {} : {types}
  }}
{sum}  %empty = tensor.empty() : tensor<{lanes}xf32>
  %out = vector.transfer_write {total}, %empty[%c0] : {vector}, tensor<{lanes}xf32>
  return %out : tensor<{lanes}xf32>
}}
",
        iter_args.join(", "),
        current.join(", "),
    )
}

/// The peak kernel for one vector width, compiled once, to be timed as often
/// as needed (a run can measure the peak again before each round of timing).
pub struct PeakKernel {
    program: Program,
    /// Vector lanes (f32).
    pub lanes: usize,
}

impl PeakKernel {
    /// JIT-compiles the kernel for `lanes`.
    pub fn compile(lanes: usize) -> Result<Self, PayloadError> {
        Ok(PeakKernel {
            program: Program::compile("fma_peak.mlir", &kernel(lanes), None)?,
            lanes,
        })
    }

    /// GFLOP/s at the median of `calls` timed calls (at least one), after one warm-up call.
    pub fn gflops(&self, calls: usize) -> Result<f64, PayloadError> {
        let lanes = self.lanes;
        let mut inputs = vec![Tensor::random(
            TensorType {
                element: ElementType::F32,
                shape: vec![lanes as i64],
            },
            1,
        )];
        let mut results = self.program.new_results();
        let flops = (ITERATIONS as usize * UNROLL * CHAINS * lanes * 2) as f64;
        let mut seconds = Vec::new();
        for call in 0..=calls.max(1) {
            let start = Instant::now();
            self.program
                .call(&mut inputs, &mut results)
                .map_err(|e| PayloadError::internal(e.to_string()))?;
            if call > 0 {
                seconds.push(start.elapsed().as_secs_f64());
            }
        }
        if results[0].to_f64().iter().any(|v| !v.is_finite()) {
            return Err(PayloadError::internal(
                "the peak kernel produced a non-finite value",
            ));
        }
        seconds.sort_by(f64::total_cmp);
        Ok(flops / seconds[seconds.len() / 2] / 1e9)
    }
}

/// The 16- and 8-lane kernels, compiled, each with its GFLOP/s over `calls` timed calls.
fn timed_kernels(calls: usize) -> Result<Vec<(PeakKernel, f64)>, PayloadError> {
    [16, 8]
        .into_iter()
        .map(|lanes| {
            let kernel = PeakKernel::compile(lanes)?;
            let gflops = kernel.gflops(calls)?;
            Ok((kernel, gflops))
        })
        .collect()
}

/// The peak: the best of the 16- and 8-lane kernels, both returned.
pub fn measure_peak(calls: usize) -> Result<(f64, Vec<PeakMeasure>), PayloadError> {
    let measures: Vec<PeakMeasure> = timed_kernels(calls)?
        .into_iter()
        .map(|(kernel, gflops)| PeakMeasure {
            lanes: kernel.lanes,
            gflops,
        })
        .collect();
    let best = measures.iter().map(|m| m.gflops).fold(0.0, f64::max);
    Ok((best, measures))
}

/// The faster of the 16- and 8-lane kernels (each timed over `calls` calls),
/// compiled, for measuring the peak again and again.
pub fn fastest_kernel(calls: usize) -> Result<PeakKernel, PayloadError> {
    let kernels = timed_kernels(calls)?;
    let fastest = kernels
        .into_iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .expect("two kernels");
    Ok(fastest.0)
}

/// This core's memory bandwidth in GB/s (10^9 bytes read and written per
/// second): the best of `rounds` passes of `b[i] = a[i] * s` over two
/// 256 MiB buffers, far larger than any cache.
pub fn measure_bandwidth(rounds: usize) -> f64 {
    const FLOATS: usize = 64 << 20;
    let source: Vec<f32> = (0..FLOATS).map(|i| (i % 1024) as f32).collect();
    let mut target = vec![0f32; FLOATS];
    let mut best = f64::INFINITY;
    for round in 0..rounds.max(1) {
        let factor = 1.0 + round as f32 * 1e-3;
        let start = std::time::Instant::now();
        for (t, s) in target.iter_mut().zip(&source) {
            *t = *s * factor;
        }
        std::hint::black_box(&mut target);
        best = best.min(start.elapsed().as_secs_f64());
    }
    (2 * FLOATS * std::mem::size_of::<f32>()) as f64 / best / 1e9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_compiles_runs_and_stays_finite() {
        let program = Program::compile("fma_peak.mlir", &kernel(8), None).unwrap();
        let mut inputs = vec![Tensor::random(
            TensorType {
                element: ElementType::F32,
                shape: vec![8],
            },
            1,
        )];
        let mut results = program.new_results();
        program.call(&mut inputs, &mut results).unwrap();
        // Each chain converges to the fixed point of x*0.999 + 0.001, which is 1; 12 chains sum to 12.
        for value in results[0].to_f64() {
            assert!((value - 12.0).abs() < 1e-3, "{value}");
        }
    }
}
