# Quick start on a fresh Debian 12 machine (as root):
#   make example   installs what the build and the tour need, builds, runs the
#                  pipeline on examples/ (no PyPI, no container tools)
#   make test      installs everything the tests use, builds, runs every test
#                  through ctest (skip reasons printed), then each fuzzer for
#                  FUZZ_SECONDS on its corpus (clang and the sanitizers, in
#                  $(BUILD)-fuzz; FUZZ_SECONDS=0 skips them)
#   make install   builds if needed (installing nothing), then copies the tools
#                  into $(PREFIX)/bin
#   make image / make sif   the container images under the names the modules use
# Variables: BUILD (build directory), CMAKE_FLAGS (e.g. -DWARPDP_CUDA=OFF), JOBS,
# FUZZ_SECONDS (default 60), PREFIX (default /usr/local), CTEST_ARGS (e.g.
# -LE containers: leave out the container builds), NO_DEPS=1 (install no
# packages: on other systems, with the README's Requirements in place).
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
FUZZ_SECONDS ?= 60
PREFIX ?= /usr/local
MAKEFLAGS += --no-print-directory
# Ninja for a new build directory (quiet, and it uses every core); an
# existing one keeps the generator it was made with.
GENERATOR := $(if $(wildcard $(BUILD)/CMakeCache.txt),,$(if $(shell command -v ninja),-G Ninja,))
deps = $(if $(NO_DEPS),@true,@bash scripts/install-deps.sh $(1))

.PHONY: all build compile test example install image sif clean

all: build

build:
	$(call deps,build)
	@$(MAKE) compile

compile:
	cmake -S . -B $(BUILD) $(GENERATOR) --log-level=NOTICE $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

test:
	$(call deps,test)
	@$(MAKE) compile
	cd $(BUILD) && ctest --output-on-failure --output-junit ctest-report.xml -j $(JOBS) $(CTEST_ARGS); rc=$$?; bash $(CURDIR)/scripts/ctest-skips.sh ctest-report.xml; exit $$rc
	@if [ "$(FUZZ_SECONDS)" != 0 ]; then bash tests/fuzz/ci.sh $(BUILD)-fuzz $(FUZZ_SECONDS); fi

example:
	$(call deps,example)
	@$(MAKE) compile
	bash examples/run-example.sh $(BUILD)

install:
	@if [ ! -f $(BUILD)/CMakeCache.txt ]; then $(MAKE) compile; else cmake --build $(BUILD) -j $(JOBS); fi
	cmake --install $(BUILD) --prefix $(PREFIX)

image:
	bash scripts/build-image.sh

sif:
	bash scripts/build-sif.sh

clean:
	rm -rf $(BUILD)
