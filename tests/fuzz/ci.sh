#!/usr/bin/env bash
# CI's fuzzing step: builds the libFuzzer harnesses with clang and the
# address and undefined-behaviour sanitizers (no CUDA, no test suite) in
# BUILD, then runs each for SECONDS on a copy of its corpus, as many at once
# as there are cores; fails on any finding (tests/fuzz/run-fuzzer.sh).
#   bash tests/fuzz/ci.sh [BUILD [SECONDS]]      (defaults: build-fuzz, 60)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-fuzz}
seconds=${2:-60}
jobs=$(nproc 2>/dev/null || echo 2)
start=$SECONDS
cmake -S . -B "$build" -DWARPDP_FUZZ=ON -DWARPDP_TESTS=OFF -DWARPDP_CUDA=OFF \
      -DCMAKE_CXX_COMPILER=clang++ -DWARPDP_FUZZ_SECONDS="$seconds" >/dev/null
cmake --build "$build" --target fuzz_all -j "$jobs"
built=$SECONDS
echo "fuzz: harnesses built in $((built - start)) s" >&2
ctest --test-dir "$build/tests/fuzz" -L fuzz --output-on-failure -j "$jobs"
echo "fuzz: built and ran in $((SECONDS - start)) s" >&2
