#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (cargo-fuzz, on the stable toolchain:
# no sanitizer, so coverage instrumentation only; panics, aborts, hangs and
# internal failures are the crashes). Not part of `make test`.
#
#   scripts/fuzz.sh schedule 600    # the language: parse, format, resolve, plan
#   scripts/fuzz.sh apply 600       # the whole apply path on tests/payloads
#   scripts/fuzz.sh apply_generated 600   # the same, bytes decoded as directive
#                                          # choices, so most inputs are valid
#
# The corpus starts from every .sched file in tests/ (for `apply`, each behind
# the byte that picks its payload) and grows in fuzz/corpus/TARGET (ignored by
# git). Crashes land in fuzz/artifacts/TARGET; each one found becomes a
# diagnostics fixture under tests/diagnostics.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh schedule|apply|apply_generated SECONDS}
seconds=${2:-600}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked

corpus=fuzz/corpus/$target
mkdir -p "$corpus"
payloads=($(ls tests/payloads | LC_ALL=C sort))
seed() { # seed FILE PAYLOAD
  local name; name=$(basename "$1" .sched)
  if [ "$target" = apply ]; then
    for i in "${!payloads[@]}"; do
      if [ "${payloads[$i]}" = "$2" ]; then
        { printf "\\$(printf '%03o' "$i")"; cat "$1"; } > "$corpus/seed-$name"
      fi
    done
  else
    cp "$1" "$corpus/seed-$name"
  fi
}
# apply_generated reads choices, not text: libFuzzer starts it from nothing.
if [ "$target" != apply_generated ]; then
  for file in tests/fixtures/*.sched; do
    seed "$file" "$(sed -n 's/^# payload: //p' "$file" | head -1)"
  done
  for file in tests/diagnostics/*/*.sched; do
    folder=$(basename "$(dirname "$file")")
    [ "$folder" = own ] || seed "$file" "$folder.mlir"
  done
fi

# The fuzz targets build in a workspace of their own; the C++ shim is taken
# from the workspace's release build when it was built from the same sources
# (payload/build.rs checks the stamp), instead of compiled again.
cargo build --release -p payload --quiet
for out in $(ls -td target/release/build/payload-*/out 2>/dev/null); do
  if [ -f "$out/shim.stamp" ]; then export SCHED_SHIM_PREBUILT="$PWD/$out"; break; fi
done

cd fuzz
exec cargo fuzz run -s none "$target" "corpus/$target" -- \
  -max_total_time="$seconds" -timeout=60 -rss_limit_mb=8192 -print_final_stats=1
