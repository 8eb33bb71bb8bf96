# Sourced by scripts/build-image.sh and scripts/build-sif.sh: the image names
# the modules use (their container directive), which the builds must produce,
# and the project's version. Sets $repo, $version, $docker_image, $sif_url.
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=$(sed -n 's/^project(warpdp VERSION \([0-9][0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")
[ -n "$version" ] || { echo "$(basename "$0"): no project version in $repo/CMakeLists.txt" >&2; exit 1; }
# Each module's container ternary: the https:// SIF, then the Docker reference.
mapfile -t _sifs < <(sed -n "s/^ *'\(https:[^']*\.sif\)' :\$/\1/p" "$repo"/modules/warpdp/*/*/main.nf | sort -u)
mapfile -t _dockers < <(sed -n "s/^ *'\([^' ]*\)' }\"\$/\1/p" "$repo"/modules/warpdp/*/*/main.nf | sort -u)
if [ ${#_sifs[@]} -ne 1 ] || [ ${#_dockers[@]} -ne 1 ]; then
    echo "$(basename "$0"): the modules do not name one image each way: ${_sifs[*]:-no SIF}; ${_dockers[*]:-no Docker image}" >&2
    exit 1
fi
docker_image=${_dockers[0]}
sif_url=${_sifs[0]}
case "$docker_image $sif_url" in
    *":$version "*"-$version.sif") ;;
    *) echo "$(basename "$0"): the modules name $docker_image and $sif_url, but the project is $version" >&2; exit 1 ;;
esac
# The commit the image is built from, for its revision label.
revision=$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown)
if [ "$revision" != unknown ] && [ -n "$(git -C "$repo" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    revision=$revision-modified
fi
