#!/usr/bin/env bash
# Real image builds with podman, offline but for Debian's mirror (ctest label
# "containers": minutes on first run, cached after):
#  1. a Debian base image (release $WARPDP_CONTAINER_SUITE, default bookworm)
#     made with debootstrap --variant=minbase and `podman import`, kept in
#     $WARPDP_CONTAINER_CACHE (default ~/.cache/warpdp/containers) so reruns
#     skip it;
#  2. the CPU-only image from containers/Dockerfile, built by
#     scripts/build-image.sh (WARPDP_CUDA=OFF, that base for both stages,
#     --pull=never); its labels (MIT, the version); inside it: HMMER 3.3.2
#     (on bookworm), exactly the tools of
#     tools/*.cpp, each answering --version; no compiler; ps; no entrypoint;
#     the example tour; and every tool's output on the example data equal,
#     byte for byte, to the build's (gpu-hmmsearch: its hit tables);
#  3. containers/warpdp.def turned into a Containerfile (apptainer_def.py:
#     %files, %post as Apptainer runs it, %test) and built the same way, CPU
#     only; its %test runs in the build, and gpu-msv's output must equal the
#     build's again;
#  4. only when WARPDP_CONTAINER_CUDA names a CUDA toolkit directory (e.g.
#     /usr/local/cuda-13.0): the Dockerfile's CUDA build, with that toolkit
#     mounted at /usr/local/cuda in the build stage, then in the image (no GPU
#     or driver there) --version and the outputs of step 2. Debian 12's own
#     CMake (3.25.1) cannot configure CUDA 13, which no longer ships
#     nvToolsExt: use WARPDP_CONTAINER_SUITE=trixie for that one.
# No `apptainer build` and no GPU run happen here.
# Usage: test_containers.sh BUILD_DIR. Fails when podman or debootstrap is
# missing (scripts/install-deps.sh installs them) or a recipe fails; exit 77
# (skipped, with the reason) when the base image cannot be made or podman
# cannot start a container on this machine at all.
set -euo pipefail
build=$(cd "${1:?usage: test_containers.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/checks_venv.sh"
src=$repo
cache=${WARPDP_CONTAINER_CACHE:-$HOME/.cache/warpdp/containers}
suite=${WARPDP_CONTAINER_SUITE:-bookworm}
mirror=${WARPDP_DEBIAN_MIRROR:-http://deb.debian.org/debian}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
skip() { echo "SKIP: $*" >&2; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
started=$SECONDS
since() { echo "$((SECONDS - started)) s"; }

for t in podman debootstrap; do command -v $t > /dev/null || fail "$t is not installed (scripts/install-deps.sh installs it)"; done
[ "$(id -u)" -eq 0 ] || skip "debootstrap and these podman builds need root"

# crun cannot set the open-file limit in some sandboxes, nor use systemd's
# cgroups where no systemd runs; runc with explicit limits works there and
# on ordinary hosts alike.
cat > "$tmp/containers.conf" <<'EOF'
[containers]
default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
EOF
export CONTAINERS_CONF=$tmp/containers.conf

# ---- 1. base image ------------------------------------------------------------
base=localhost/warpdp-checks/debian:$suite-minbase
if ! podman image exists "$base"; then
    tarball=$cache/debian-$suite-minbase.tar
    if [ ! -s "$tarball" ]; then
        mkdir -p "$cache"
        echo "making a Debian $suite base with debootstrap (about a minute; cached in $tarball)"
        debootstrap --variant=minbase "$suite" "$tmp/rootfs" "$mirror" > "$tmp/debootstrap.log" 2>&1 ||
            skip "debootstrap from $mirror failed: $(tail -n 1 "$tmp/debootstrap.log")"
        tar -C "$tmp/rootfs" -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
        rm -rf "$tmp/rootfs"
    fi
    podman import --quiet "$tarball" "$base" > "$tmp/import.log" 2>&1 ||
        skip "podman import of the base failed on this machine: $(tail -n 1 "$tmp/import.log")"
fi
probe=$(podman run --rm --network none "$base" echo ok 2>&1) || true
[ "$probe" = ok ] || skip "podman cannot start a container here: $probe"
echo "base image $base ready ($(since))"

version=$(sed -n 's/^project(warpdp VERSION \([0-9][0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
tools=$(for f in "$src"/tools/*.cpp; do n=$(basename "$f" .cpp); echo "${n//_/-}"; done | sort)
data=$src/examples/data
mkdir -p "$tmp/host" "$tmp/io"
zcat "$data/targets.fa.gz" > "$tmp/io/targets.fa"
cp "$data/tutorial3.hmm" "$data/amplicons.fa" "$data/queries.fa" "$tmp/io/"

# The same commands run by the build's tools (in $tmp/host) and the image's
# (in $tmp/io): outputs that must agree byte for byte, whatever the device.
runs='gpu-msv --hmm tutorial3.hmm --db targets.fa --quiet -o msv.tsv
gpu-viterbi --hmm tutorial3.hmm --db targets.fa --msv --forward --quiet --survivors vit.fa -o vit.tsv
gpu-nw-dist --in amplicons.fa --quiet -o nw.ndist
gpu-nussinov --in amplicons.fa --quiet -o fold.tsv
gpu-sw --query queries.fa --db targets.fa --quiet -o sw.tsv
gpu-hmmsearch --cpu 2 --noali -o /dev/null --tblout hs.tbl --domtblout hs.dom tutorial3.hmm targets.fa'
cp "$tmp/io/"* "$tmp/host/"
(cd "$tmp/host" && PATH=$build:$PATH bash -euo pipefail -c "$runs")
outputs="msv.tsv vit.tsv vit.fa nw.ndist fold.tsv sw.tsv hs.tbl hs.dom"

# Runs $2... in image $1 with examples/ at /examples and $tmp/io at /io.
in_image() {
    local image=$1; shift
    podman run --rm --network none -v "$src/examples:/examples:ro" -v "$tmp/io:/io" -w /io "$image" "$@"
}
compare_outputs() {  # image label, files...
    local label=$1; shift
    for f in "$@"; do
        case $f in
            hs.*) cmp -s <(grep -v '^#' "$tmp/host/$f") <(grep -v '^#' "$tmp/io/$f") ;;
            *) cmp -s "$tmp/host/$f" "$tmp/io/$f" ;;
        esac || fail "$label: $f differs from the build's"
    done
    echo "$label: $* equal to the build's"
}

# ---- 2. the CPU image from containers/Dockerfile ---------------------------------
image=localhost/warpdp-checks/warpdp-cpu:$suite
# The recipe insists on Debian 12's HMMER 3.3.2; other releases ship another.
hmmer_args=()
[ "$suite" = bookworm ] || hmmer_args=(--build-arg HMMER_VERSION="${WARPDP_CONTAINER_HMMER:-3.4}")
echo "building the CPU image from containers/Dockerfile with scripts/build-image.sh (minutes the first time)"
CONTAINER_ENGINE=podman "$src/scripts/build-image.sh" --tag "$image" --pull=never --network host \
    --build-arg BUILD_IMAGE="$base" --build-arg RUNTIME_IMAGE="$base" --build-arg WARPDP_CUDA=OFF "${hmmer_args[@]}" \
    > "$tmp/build.log" 2>&1 || { tail -n 40 "$tmp/build.log" >&2; fail "scripts/build-image.sh (podman build of containers/Dockerfile)"; }
echo "built $image ($(since), $(podman image inspect --format '{{.Size}}' "$image" | awk '{ printf "%.0f MB", $1 / 1e6 }'))"

[ "$(podman image inspect --format '{{.Config.Entrypoint}}' "$image")" = "[]" ] || fail "the image has an entrypoint"
label() { podman image inspect --format "{{index .Labels \"org.opencontainers.image.$2\"}}" "$1"; }
[ "$(label "$image" licenses)" = MIT ] || fail "the image's licences label is '$(label "$image" licenses)'"
[ "$(label "$image" version)" = "$version" ] || fail "the image's version label is '$(label "$image" version)'"
head=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
case $(label "$image" revision) in "$head"*) ;; *) fail "the image's revision label is '$(label "$image" revision)', not $head" ;; esac
if [ "$suite" = bookworm ]; then
    hmmer=$(in_image "$image" hmmsearch -h | sed -n 2p)
    case $hmmer in "# HMMER 3.3.2 "*) ;; *) fail "the image's HMMER: $hmmer" ;; esac
fi
echo "labels: licences MIT, version $version, revision $(label "$image" revision); ${hmmer:-HMMER not checked on $suite}"
got=$(in_image "$image" sh -c 'cd /usr/local/bin && ls gpu-*' | sort)
[ "$got" = "$tools" ] || fail "the image holds tools $(echo $got), expected $(echo $tools)"
for t in $tools; do
    first=$(in_image "$image" "$t" --version | head -n 1)
    [ "$first" = "$t (warpdp) $version" ] || fail "$t --version in the image says '$first'"
done
in_image "$image" sh -c '! command -v g++ && ! command -v cmake && ! command -v nvcc' > /dev/null ||
    fail "the runtime image holds a compiler"
in_image "$image" ps -p 1 > /dev/null || fail "no ps in the image (procps)"
echo "image: tools $(echo $tools) at version $version, ps, no compiler, no entrypoint"
in_image "$image" bash /examples/run-example.sh /usr/local/bin > "$tmp/example.log" 2>&1 ||
    { cat "$tmp/example.log" >&2; fail "the example tour in the image"; }
grep -q -- '--domtblout identical to plain' "$tmp/example.log" || { cat "$tmp/example.log" >&2; fail "the example tour's result"; }
sed 's/^/    /' "$tmp/example.log"
in_image "$image" bash -euo pipefail -c "$runs"
compare_outputs "CPU image" $outputs

# ---- 3. the Apptainer definition's stages, built by podman ------------------------
defimage=localhost/warpdp-checks/warpdp-def-cpu:$suite
(cd "$src" && "$py" tests/packaging/apptainer_def.py containerfile containers/warpdp.def \
    "$tmp/defctx" BUILD_IMAGE="$base" RUNTIME_IMAGE="$base" WARPDP_CUDA=OFF)
echo "building containers/warpdp.def's stages with podman"
podman build --pull=never --network host -f "$tmp/defctx/Containerfile" -t "$defimage" "$tmp/defctx" \
    > "$tmp/defbuild.log" 2>&1 || { tail -n 40 "$tmp/defbuild.log" >&2; fail "podman build of containers/warpdp.def's stages"; }
# As `apptainer test` would (the build ran it too, unless its layer was cached).
in_image "$defimage" sh -c '. /.singularity.d/env/90-environment.sh && /bin/sh -e /.singularity.d/test' \
    > "$tmp/deftest.log" 2>&1 || { cat "$tmp/deftest.log" >&2; fail "warpdp.def's %test"; }
grep -q "^gpu-msv (warpdp) $version" "$tmp/deftest.log" || fail "warpdp.def's %test printed no gpu-msv version"
rm -f "$tmp/io/msv.tsv"
in_image "$defimage" gpu-msv --hmm tutorial3.hmm --db targets.fa --quiet -o msv.tsv
compare_outputs "image from warpdp.def (%post and %test run)" msv.tsv
echo "built $defimage ($(since))"

# ---- 4. the CUDA build, with a toolkit lent by the host (opt-in) --------------------
if [ -n "${WARPDP_CONTAINER_CUDA:-}" ]; then
    [ -x "$WARPDP_CONTAINER_CUDA/bin/nvcc" ] || fail "WARPDP_CONTAINER_CUDA=$WARPDP_CONTAINER_CUDA holds no bin/nvcc"
    cudaimage=localhost/warpdp-checks/warpdp-cuda:$suite
    echo "building the CUDA image with $WARPDP_CONTAINER_CUDA lent to the build stage (long)"
    podman build --pull=never --network host -v "$WARPDP_CONTAINER_CUDA:/usr/local/cuda:ro" \
        -f "$src/containers/Dockerfile" --build-arg BUILD_IMAGE="$base" --build-arg RUNTIME_IMAGE="$base" \
        -t "$cudaimage" "$src" > "$tmp/cudabuild.log" 2>&1 ||
        { tail -n 40 "$tmp/cudabuild.log" >&2; fail "podman build of containers/Dockerfile with CUDA"; }
    in_image "$cudaimage" gpu-msv --version | grep -q '^build: .*CUDA on' || fail "the CUDA image's tools say CUDA off"
    in_image "$cudaimage" gpu-msv --version | grep -q '^visible GPUs: 0' || fail "the CUDA image sees a GPU here"
    in_image "$cudaimage" bash -euo pipefail -c "$runs"
    compare_outputs "CUDA image without a GPU" $outputs
    echo "built $cudaimage ($(since))"
fi
echo "containers: all checks passed in $(since)"
