# The two commands a fresh machine needs (see README.md).
.PHONY: demo test install

install:
	@bash scripts/install.sh

# Apply examples/halide_conv's schedule, print the script and the transformed IR, then run, check and time it.
demo: install
	cargo build --release --quiet
	@bash scripts/demo.sh

# The whole test suite: formatting (rustfmt's defaults) and lints first, then every test.
test: install
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --quiet -- -D warnings
	cargo test --workspace --quiet
