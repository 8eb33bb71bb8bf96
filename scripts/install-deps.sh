#!/usr/bin/env bash
# Installs the Debian 12 packages warpdp builds and tests with.
# Idempotent: a no-op when everything is present; `apt-get update` runs only
# when something has to be installed. Needs root (or sudo) only in that case.
set -euo pipefail

build_pkgs=(cmake make g++ pkg-config libhts-dev libisal-dev zlib1g-dev
            libboost-program-options-dev nlohmann-json3-dev doctest-dev)
# openmpi-bin: NDist and SeqDist are MPI programs; without it they cannot start.
oracle_pkgs=(hmmer hmmer-examples ampliconnoise openmpi-bin vsearch-examples parasail fasta3)
# The fuzzers (tests/fuzz/ci.sh): clang, and its libFuzzer and sanitizer
# runtimes, which clang only recommends.
fuzz_pkgs=(clang libclang-rt-14-dev)

missing=()
for p in "${build_pkgs[@]}" "${oracle_pkgs[@]}" "${fuzz_pkgs[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
