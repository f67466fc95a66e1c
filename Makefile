# The two commands a fresh machine needs (see README.md).
.PHONY: demo test test-torch wheel install

install:
	@bash scripts/install.sh

# Apply examples/halide_conv's schedule, print the script and the transformed IR, then run, check and time it.
demo: install
	cargo build --release --quiet
	@bash scripts/demo.sh

# The whole test suite: formatting (rustfmt's defaults) and lints first, then every test,
# then the Python module's (numpy only, in a venv under ~/.cache/sched-apply).
test: install
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --quiet -- -D warnings
	cargo test --workspace --quiet
	@bash scripts/test_python.sh

# The Python module's torch tests (torch and torch-mlir in a venv under ~/.cache/sched-apply).
test-torch: install
	@bash scripts/test_torch.sh

# The Python module as an abi3 wheel in target/wheels (then: pip install target/wheels/sched_apply-*.whl).
wheel: install
	@bash scripts/test_python.sh >/dev/null
	cd python && PATH=$$HOME/.cache/sched-apply/python-venv/bin:$$PATH maturin build --release --quiet
