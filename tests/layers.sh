#!/usr/bin/env bash
# The layers point one way (docs/architecture.md): core/ includes nothing from
# kernels/ or tools/ and no CUDA header; kernels/ includes nothing from tools/;
# a CUDA-free header (*.hpp) under kernels/ includes no CUDA header; and
# tools/common, shared by every tool, includes no family's tools/<family>.
# Prints each offending include and fails if there is one.
set -uo pipefail
root=${1:?usage: layers.sh SOURCE_DIR}
cd "$root" || exit 2
bad=0
report() { # pattern, files..., message
    local pattern=$1 what=$2; shift 2
    local hits
    hits=$(grep -HnE "$pattern" "$@" 2>/dev/null)
    if [ -n "$hits" ]; then
        printf '%s\n' "$hits" | sed "s|^|layers: $what: |"
        bad=1
    fi
}
mapfile -t core_files < <(find core -type f \( -name '*.hpp' -o -name '*.cpp' -o -name '*.in' \))
mapfile -t kernel_files < <(find kernels -type f)
mapfile -t kernel_headers < <(find kernels -type f -name '*.hpp')
mapfile -t tool_common_files < <(find tools/common -type f)
report '#include ["<](kernels|tools)/' "core may not include kernels/ or tools/" "${core_files[@]}"
report '#include [<"](cuda|cub/|thrust/|curand|cublas)' "core is CUDA-free" "${core_files[@]}"
report '#include ["<]tools/' "kernels may not include tools/" "${kernel_files[@]}"
report '#include [<"](cuda|cub/|thrust/|.*\.cuh")' "a kernels/*.hpp header is CUDA-free" "${kernel_headers[@]}"
report '#include ["<]tools/([^c]|c[^o]|co[^m])' "tools/common may include only tools/common" "${tool_common_files[@]}"
if [ "$bad" -ne 0 ]; then exit 1; fi
echo "layers: core <- kernels <- tools, no include against the grain"
