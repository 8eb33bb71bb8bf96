#!/usr/bin/env bash
# The container recipes as text (fast; test_containers.sh builds them):
#  - hadolint on every Dockerfile under containers/, failing on any finding,
#    down to style (the recipe carries its one ignore inline, with the why);
#  - the conventions an image for Nextflow needs, and that builds offline
#    need: no ENTRYPOINT, no `# syntax=` line (it pulls a frontend image),
#    base images as build arguments, the CUDA runtime linked statically;
#  - containers/warpdp.def parsed strictly and by spython, and held to the
#    Dockerfile (tests/packaging/apptainer_def.py).
# Usage: test_container_recipes.sh BUILD_DIR (unused: the recipes need no build).
# hadolint and spython come from the checks' virtual environment (checks_venv.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/checks_venv.sh"
src=$repo

shopt -s nullglob
dockerfiles=("$src"/containers/Dockerfile*)
[ ${#dockerfiles[@]} -gt 0 ] || { echo "FAIL: no containers/Dockerfile" >&2; exit 1; }
for f in "${dockerfiles[@]}"; do
    name=${f#"$src"/}
    "$venv/bin/hadolint" --no-color --failure-threshold style "$f" || { echo "FAIL: hadolint on $name" >&2; exit 1; }
    if grep -qiE '^\s*#\s*syntax\s*=' "$f"; then echo "FAIL: $name has a '# syntax=' line" >&2; exit 1; fi
    if grep -qiE '^\s*ENTRYPOINT' "$f"; then echo "FAIL: $name sets an ENTRYPOINT" >&2; exit 1; fi
    for arg in BUILD_IMAGE RUNTIME_IMAGE; do
        grep -qE "^FROM \\\$\\{$arg\\}" "$f" || { echo "FAIL: $name has no stage FROM \${$arg}" >&2; exit 1; }
    done
    grep -q -- '-DCMAKE_CUDA_RUNTIME_LIBRARY=Static' "$f" ||
        { echo "FAIL: $name does not link the CUDA runtime statically" >&2; exit 1; }
    echo "hadolint (threshold style) and conventions: $name"
done

(cd "$src" && "$py" tests/packaging/apptainer_def.py check containers/warpdp.def containers/Dockerfile)
