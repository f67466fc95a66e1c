#!/usr/bin/env bash
# The demo: apply Halide's conv_layer schedule to its linalg payload, then
# JIT-run the result, check it against the unscheduled payload and time it.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/sched-apply
example=examples/halide_conv
# conv.sched's register tile is AVX-512's (5 x 64 floats: 20 of its 32 registers); on a CPU
# without AVX-512 it would take 40 of AVX2's 16 and spill, so there the same schedule with
# AVX2's tile runs instead.
schedule=$example/conv.sched
if ! grep -qw avx512f /proc/cpuinfo 2> /dev/null; then
  schedule=$example/conv_avx2.sched
  echo "== this CPU has no AVX-512: $schedule, conv.sched with a register tile for AVX2's registers"
fi

echo "== the schedule ($schedule)"
cat "$schedule"
echo
echo "== the transform script sched-apply generates from it"
"$bin" "$example/conv.mlir" "$schedule" --emit transform
echo
echo "== the transformed payload"
"$bin" "$example/conv.mlir" "$schedule"
echo
echo "== apply latency (parse + resolve + plan + apply + print), median of 10 runs"
times=()
for _ in $(seq 10); do
  start=$(date +%s%N)
  "$bin" "$example/conv.mlir" "$schedule" > /dev/null
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000 )))
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 5p)
echo "median: ${median} us per run of sched-apply"
echo
# Pinned to one core (the machine is shared); the unscheduled reference takes ~11 s per call.
pin=()
if command -v taskset > /dev/null; then pin=(taskset -c 1); fi
echo "== this core's fp32 FMA peak"
"${pin[@]}" "$bin" peak
echo
echo "== run: JIT, check against the unscheduled payload, time 5 rounds of 10 calls (the peak measured again before each)"
"${pin[@]}" "$bin" run "$example/conv.mlir" "$schedule" --check --bench 10 --rounds 5 --reference-calls 1
