# Quick start on a fresh Debian 12 machine (as root):
#   make example   installs what is missing, builds, runs the pipeline on examples/
#   make test      installs what is missing, builds, runs every test through ctest,
#                  then each fuzzer for FUZZ_SECONDS on its corpus (clang and the
#                  sanitizers, in $(BUILD)-fuzz; FUZZ_SECONDS=0 skips them)
#   make install   builds, then copies the tools into $(PREFIX)/bin
# Variables: BUILD (build directory), CMAKE_FLAGS (e.g. -DWARPDP_CUDA=OFF), JOBS,
# FUZZ_SECONDS (default 60), PREFIX (default /usr/local), CTEST_ARGS (e.g.
# -LE containers: leave out the container builds).
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
FUZZ_SECONDS ?= 60
PREFIX ?= /usr/local

.PHONY: all deps build test example install clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)
	@if [ "$(FUZZ_SECONDS)" != 0 ]; then bash tests/fuzz/ci.sh $(BUILD)-fuzz $(FUZZ_SECONDS); fi

example: build
	bash examples/run-example.sh $(BUILD)

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD)
