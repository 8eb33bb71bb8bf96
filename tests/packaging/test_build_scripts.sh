#!/usr/bin/env bash
# scripts/build-image.sh and scripts/build-sif.sh, without building (the
# container checks build for real): the names they give are the ones every
# module names, the engine or Apptainer gets the recipe, that name and the
# version and revision labels, and a missing Apptainer or engine is said
# plainly and fails.
# Usage: test_build_scripts.sh BUILD_DIR (unused)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
version=$(sed -n 's/^project(warpdp VERSION \([0-9][0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")
revision=$(git -C "$repo" rev-parse HEAD)
# a build of a tree with uncommitted changes says so in its revision label
[ -z "$(git -C "$repo" status --porcelain --untracked-files=no)" ] || revision=$revision-modified

image=$("$repo/scripts/build-image.sh" --print-name)
read -r sif url < <("$repo/scripts/build-sif.sh" --print-name)
[ "$image" = "quay.io/warpdp/warpdp:$version" ] || fail "build-image.sh names $image"
[ "$sif" = "warpdp-$version.sif" ] || fail "build-sif.sh names $sif"
for main in "$repo"/modules/warpdp/*/*/main.nf; do
    grep -qF "'$image' }\"" "$main" || fail "${main#"$repo"/} does not name $image"
    grep -qF "'$url' :" "$main" || fail "${main#"$repo"/} does not name $url"
done
echo "names: $image and $url, as every module names them"

# Stand-ins that record how they are called.
mkdir "$tmp/bin"
for t in engine apptainer; do
    printf '#!/bin/sh\nprintf "%%s\\n" "$PWD" "$@" > %s/%s.args\n' "$tmp" "$t" > "$tmp/bin/$t"
    chmod +x "$tmp/bin/$t"
done
CONTAINER_ENGINE=$tmp/bin/engine "$repo/scripts/build-image.sh" --build-arg WARPDP_CUDA=OFF > /dev/null
expect() {  # file, lines that must follow one another in it
    local file=$1; shift
    python3 - "$file" "$@" <<'PY' || fail "$(basename "$file" .args) was called with: $(tr '\n' ' ' < "$file")"
import sys
got, want = open(sys.argv[1]).read().splitlines(), sys.argv[2:]
sys.exit(0 if any(got[i:i + len(want)] == want for i in range(len(got))) else 1)
PY
}
expect "$tmp/engine.args" "$repo" build -f containers/Dockerfile -t "$image"
expect "$tmp/engine.args" --build-arg "WARPDP_VERSION=$version" --build-arg "WARPDP_REVISION=$revision"
expect "$tmp/engine.args" --build-arg WARPDP_CUDA=OFF .
PATH=$tmp/bin:$PATH "$repo/scripts/build-sif.sh" --notest > /dev/null
expect "$tmp/apptainer.args" "$repo" build --build-arg "WARPDP_VERSION=$version"
expect "$tmp/apptainer.args" --notest "$repo/$sif" containers/warpdp.def
echo "build-image.sh runs: engine build -f containers/Dockerfile -t $image, version and revision labels"
echo "build-sif.sh runs: apptainer build $sif containers/warpdp.def, version and revision labels"

# Without Apptainer or an engine: a plain message and a failure. PATH keeps
# only what the scripts need.
mkdir "$tmp/min"
for t in bash sh sed sort basename dirname git cat realpath env; do ln -s "$(command -v $t)" "$tmp/min/$t"; done
if PATH=$tmp/min bash "$repo/scripts/build-sif.sh" > "$tmp/out" 2>&1; then fail "build-sif.sh without apptainer succeeded"; fi
grep -q "Install Apptainer" "$tmp/out" || fail "build-sif.sh without apptainer says: $(cat "$tmp/out")"
if PATH=$tmp/min bash "$repo/scripts/build-image.sh" > "$tmp/out" 2>&1; then fail "build-image.sh without an engine succeeded"; fi
grep -q "install Podman" "$tmp/out" || fail "build-image.sh without an engine says: $(cat "$tmp/out")"
echo "without apptainer or an engine: each says what to install and exits $(PATH=$tmp/min bash "$repo/scripts/build-sif.sh" > /dev/null 2>&1 || echo $?)"
