# Quick start on a fresh Debian 12 machine (as root):
#   make example   installs what is missing, builds, runs the pipeline on examples/
#   make test      installs what is missing, builds, runs every test through ctest
# Variables: BUILD (build directory), CMAKE_FLAGS (e.g. -DWARPDP_CUDA=OFF), JOBS.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all deps build test example clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

example: build
	bash examples/run-example.sh $(BUILD)

clean:
	rm -rf $(BUILD)
