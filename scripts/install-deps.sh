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

# The packaging checks (tests/packaging/) run nf-core's module linter,
# reftrace, hadolint and spython from PyPI, in a virtual environment.
venv_pkgs=(python3-venv python3-pip git)
# The container checks (tests/packaging/test_containers.sh) build the images
# with podman on a Debian base made by debootstrap; podman runs them with runc
# (crun, its default here, cannot set resource limits in some sandboxes).
container_pkgs=(podman buildah debootstrap runc)

missing=()
for p in "${build_pkgs[@]}" "${oracle_pkgs[@]}" "${fuzz_pkgs[@]}" "${venv_pkgs[@]}" "${container_pkgs[@]}"; do
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
