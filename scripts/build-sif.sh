#!/usr/bin/env bash
# Builds the warpdp SIF from containers/warpdp.def with Apptainer (or
# SingularityCE), named as the modules' release download names it
# (warpdp-<version>.sif), its labels carrying the version and the commit.
# Publishing it is up to you (containers/README.md, "Publishing"). Building
# needs no GPU, but the build stage downloads NVIDIA's CUDA compiler.
# Usage: scripts/build-sif.sh [--print-name] [-o FILE] [BUILD-OPTION...]
#   --print-name   print the file name and the URL the modules use, and stop
#   -o FILE        write FILE (default: warpdp-<version>.sif in the repository root)
#   BUILD-OPTION   passed to `apptainer build`, e.g. --notest, --fakeroot,
#                  --build-arg WARPDP_CUDA=OFF
set -euo pipefail
. "$(dirname "$0")/image-names.sh"
sif=$repo/$(basename "$sif_url")
while [ $# -gt 0 ]; do
    case $1 in
        --print-name) echo "$(basename "$sif_url") $sif_url"; exit 0 ;;
        -o) sif=$(realpath -m "${2:?-o needs a file name}"); shift 2 ;;
        *) break ;;
    esac
done
builder=$(command -v apptainer || command -v singularity || true)
if [ -z "$builder" ]; then
    cat >&2 <<'MSG'
build-sif.sh: neither apptainer nor singularity is installed. Install Apptainer
(https://apptainer.org/docs/admin/main/installation.html: the .deb or .rpm of
https://github.com/apptainer/apptainer/releases, or your distribution's
package; Debian 12 has none) or SingularityCE, then run this again. Or build
the SIF from the Docker image: scripts/build-image.sh, then
apptainer build warpdp-<version>.sif docker-daemon://<the image's name>.
MSG
    exit 1
fi
echo "building $sif (warpdp $version, revision $revision) with $builder"
cd "$repo"
exec "$builder" build --build-arg WARPDP_VERSION="$version" --build-arg WARPDP_REVISION="$revision" \
    "$@" "$sif" containers/warpdp.def
