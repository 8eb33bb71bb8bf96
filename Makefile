# Quick start on a fresh Debian 12 machine (as root):
#   make example   installs what is missing, builds, runs the pipeline on examples/
#   make test      installs what is missing, builds, runs every test through ctest,
#                  then each fuzzer for FUZZ_SECONDS on its corpus (clang and the
#                  sanitizers, in $(BUILD)-fuzz; FUZZ_SECONDS=0 skips them)
# Variables: BUILD (build directory), CMAKE_FLAGS (e.g. -DWARPDP_CUDA=OFF), JOBS,
# FUZZ_SECONDS (default 60).
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
FUZZ_SECONDS ?= 60

.PHONY: all deps build test example clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@if [ "$(FUZZ_SECONDS)" != 0 ]; then bash tests/fuzz/ci.sh $(BUILD)-fuzz $(FUZZ_SECONDS); fi

example: build
	bash examples/run-example.sh $(BUILD)

clean:
	rm -rf $(BUILD)
