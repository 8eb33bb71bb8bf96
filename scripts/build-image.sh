#!/usr/bin/env bash
# Builds the warpdp image from containers/Dockerfile with Podman or Docker and
# tags it with the exact name the modules use (quay.io/warpdp/warpdp:<version>),
# its labels carrying the version and the commit. Pushing it is up to you
# (containers/README.md, "Publishing"). Building needs no GPU, but the build
# stage downloads NVIDIA's CUDA compiler (WARPDP_CUDA=OFF builds without).
# Usage: scripts/build-image.sh [--print-name] [--tag NAME] [BUILD-OPTION...]
#   --print-name   print the name the modules use and stop
#   --tag NAME     tag the image NAME instead (e.g. a CPU-only or a test build)
#   BUILD-OPTION   passed to `podman build` / `docker build`, e.g.
#                  --build-arg WARPDP_CUDA=OFF, --build-arg BUILD_IMAGE=...
# The engine: $CONTAINER_ENGINE, else podman, else docker.
set -euo pipefail
. "$(dirname "$0")/image-names.sh"
tag=$docker_image
while [ $# -gt 0 ]; do
    case $1 in
        --print-name) echo "$docker_image"; exit 0 ;;
        --tag) tag=${2:?--tag needs a name}; shift 2 ;;
        *) break ;;
    esac
done
engine=${CONTAINER_ENGINE:-}
if [ -z "$engine" ]; then
    engine=$(command -v podman || command -v docker || true)
fi
if [ -z "$engine" ] || ! command -v "$engine" > /dev/null; then
    echo "build-image.sh: no container engine: install Podman (apt-get install podman) or Docker, or set CONTAINER_ENGINE" >&2
    exit 1
fi
echo "building $tag (warpdp $version, revision $revision) with $engine"
cd "$repo"
exec "$engine" build -f containers/Dockerfile -t "$tag" \
    --build-arg WARPDP_VERSION="$version" --build-arg WARPDP_REVISION="$revision" "$@" .
