#!/usr/bin/env bash
# Installs the Debian 12 packages warpdp needs, at one of three levels:
#   install-deps.sh build     what the build needs (make build)
#   install-deps.sh example   the build, and the peers the tour compares with (make example)
#   install-deps.sh test      everything the tests use: oracles, fuzzers, the
#                             packaging checks' Python tools, container tools (make test)
# Idempotent: a no-op when everything is present; `apt-get update` runs only
# when something has to be installed. Needs root (or sudo) only in that case.
# Elsewhere than Debian, install the README's Requirements by hand and use
# `make build NO_DEPS=1` (or cmake directly).
set -euo pipefail
level=${1:-test}
case "$level" in build|example|test) ;; *) echo "install-deps: unknown level '$level' (build, example or test)" >&2; exit 1 ;; esac

build_pkgs=(cmake ninja-build make g++ pkg-config libhts-dev libisal-dev zlib1g-dev
            libboost-program-options-dev nlohmann-json3-dev doctest-dev)
# The tour (examples/run-example.sh) compares with hmmsearch, NDist and parasail.
example_pkgs=(hmmer ampliconnoise openmpi-bin parasail)
# openmpi-bin: NDist and SeqDist are MPI programs; without it they cannot start.
oracle_pkgs=(hmmer hmmer-examples ampliconnoise openmpi-bin vsearch-examples parasail fasta3)
# The fuzzers (tests/fuzz/ci.sh): clang, and its libFuzzer and sanitizer
# runtimes, which clang only recommends.
fuzz_pkgs=(clang libclang-rt-14-dev)

# The packaging checks (tests/packaging/) run nf-core's module linter,
# reftrace, hadolint and spython from PyPI, in a virtual environment.
venv_pkgs=(python3-venv python3-pip git)
# The container checks (tests/packaging/test_containers.sh) build the images
# with podman on a Debian base made by debootstrap; podman runs them with runc
# (crun, its default here, cannot set resource limits in some sandboxes).
container_pkgs=(podman buildah debootstrap runc)

wanted=("${build_pkgs[@]}")
[ "$level" != build ] && wanted+=("${example_pkgs[@]}")
[ "$level" = test ] && wanted+=("${oracle_pkgs[@]}" "${fuzz_pkgs[@]}" "${venv_pkgs[@]}" "${container_pkgs[@]}")
if ! command -v dpkg-query > /dev/null || ! command -v apt-get > /dev/null; then
    echo "install-deps: not a Debian system (no dpkg/apt-get): install the README's Requirements by hand" >&2
    exit 1
fi
missing=()
for p in "${wanted[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: installing ${missing[*]} (this may take a few minutes)" >&2
    sudo_cmd=()
    [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[ "$level" = test ] || exit 0
# The virtual environment is rebuilt whenever the pinned list changes.
here=$(cd "$(dirname "$0")" && pwd)
venv=${WARPDP_CHECKS_VENV:-$HOME/.cache/warpdp/checks-venv}
if ! cmp -s "$here/check-requirements.txt" "$venv/check-requirements.txt"; then
    echo "install-deps: installing the packaging checks' Python tools into $venv (about a minute)" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$here/check-requirements.txt"
    cp "$here/check-requirements.txt" "$venv/check-requirements.txt"
fi
