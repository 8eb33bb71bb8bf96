#!/usr/bin/env bash
# The AVX2 kernel files share no AVX2 code with the rest of the program
# (core/base/simd_variants.hpp says why that matters):
#  - in the source of every core/**/*_avx2*.cpp, the AVX2 region is opened,
#    and after it only a kernel template (*_kernel_impl.hpp) is included;
#  - in its object, no symbol the linker may merge with another file's copy
#    (nm types W, V, u) holds a VEX-encoded instruction, and every global
#    function's name ends in _avx2 (the file's entry points; the rest sits
#    in an anonymous namespace).
#   simd_isa.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=${1:?usage: simd_isa.sh SOURCE_DIR BUILD_DIR}
build=${2:?usage: simd_isa.sh SOURCE_DIR BUILD_DIR}
bad=0
fail() { echo "simd_isa: $*"; bad=1; }

mapfile -t files < <(cd "$src" && find core -name '*_avx2*.cpp' | sort)
for f in "${files[@]}"; do
    grep -q '#include "core/base/avx2_region_begin.hpp"' "$src/$f" || fail "$f: opens no AVX2 region"
    hits=$(awk '/#include "core\/base\/avx2_region_begin.hpp"/ { inside = 1; next }
                /#include "core\/base\/avx2_region_end.hpp"/ { inside = 0; next }
                inside && /^[ \t]*#[ \t]*include/ && !/_kernel_impl\.hpp"/ { print FNR ": " $0 }' "$src/$f")
    [ -z "$hits" ] || fail "$f: included inside the AVX2 region (only *_kernel_impl.hpp may be): $hits"
done

mapfile -t objs < <(find "$build/CMakeFiles/warpdp_core.dir" -name '*_avx2*.cpp.o' 2>/dev/null | sort)
if [ ${#objs[@]} -eq 0 ]; then
    echo "simd_isa: no AVX2 kernel objects under $build (not x86-64, or not built): skipped"
    exit 77
fi
for tool in nm objdump c++filt; do
    command -v "$tool" >/dev/null || { echo "simd_isa: needs $tool: skipped"; exit 77; }
done
for o in "${objs[@]}"; do
    rel=${o#"$build"/CMakeFiles/warpdp_core.dir/}
    while read -r type sym; do
        name=$(c++filt "$sym")
        case $type in
            W|V|u)
                if objdump -d --no-show-raw-insn --disassemble="$sym" "$o" | grep -qE '^ *[0-9a-f]+:[[:space:]]+v[a-z]'; then
                    fail "$rel: shared symbol with AVX code: $name"
                fi ;;
            T)
                [[ $name == *_avx2\(* ]] || fail "$rel: global function not named *_avx2: $name" ;;
        esac
    done < <(nm --defined-only "$o" | awk '$2 ~ /^[TWVu]$/ { print $2, $3 }')
done
[ "$bad" -eq 0 ] || exit 1
echo "simd_isa: ${#objs[@]} AVX2 kernel objects share no AVX2 code"
