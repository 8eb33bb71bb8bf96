#!/usr/bin/env bash
# The install rule as a user meets it: `cmake --install BUILD --prefix P` puts
# exactly the tools (one per tools/*.cpp, nothing from bench/ or tests/) into
# P/bin; each answers --version there, after the prefix has been moved (no
# path into the build or the first prefix is baked in); and gpu-hmmsearch run
# from there finds what it starts (gpu-viterbi beside it, Debian's hmmsearch
# on the PATH): its hit tables equal plain hmmsearch's on the example data.
# Usage: test_install.sh BUILD_DIR   (exit 77 when hmmsearch is not installed)
set -euo pipefail
build=$(cd "${1:?usage: test_install.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/first" > "$tmp/install.log"
mv "$tmp/first" "$tmp/moved"
prefix=$tmp/moved

version=$(sed -n 's/^project(warpdp VERSION \([0-9][0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[ -n "$version" ] || { echo "FAIL: no project version in CMakeLists.txt" >&2; exit 1; }
tools=$(for f in "$src"/tools/*.cpp; do n=$(basename "$f" .cpp); echo "${n//_/-}"; done | sort)
want=$(sed 's|^|bin/|' <<< "$tools")
got=$(cd "$prefix" && find . ! -type d | sed 's|^\./||' | sort)
if [ "$got" != "$want" ]; then
    echo "FAIL: the install holds other files than one per tool:" >&2
    diff <(echo "$want") <(echo "$got") >&2 || true
    exit 1
fi

for t in $tools; do
    [ -x "$prefix/bin/$t" ] || { echo "FAIL: $prefix/bin/$t is not executable" >&2; exit 1; }
    first=$(env -i PATH=/usr/bin:/bin "$prefix/bin/$t" --version | head -n 1)
    if [ "$first" != "$t (warpdp) $version" ]; then
        echo "FAIL: installed $t --version says '$first', expected '$t (warpdp) $version'" >&2; exit 1
    fi
done
echo "installed and answering --version: $(echo $tools)"

# `make install` from an existing build on a system without apt-get or dpkg:
# it installs the tools and nothing else, and asks for no package.
nodeb=$tmp/no-apt-bin
mkdir -p "$nodeb"
for p in make cmake ninja sh bash env cat mkdir rm cp mv ln chmod install sed grep test true nproc; do
    w=$(command -v "$p" 2>/dev/null) && ln -sf "$w" "$nodeb/$p"
done
env -i HOME="$tmp" PATH="$nodeb" make -s -C "$src" install BUILD="$build" PREFIX="$tmp/no-apt" > "$tmp/make-install.log" 2>&1 || {
    echo "FAIL: make install without apt-get:" >&2; cat "$tmp/make-install.log" >&2; exit 1; }
got=$(cd "$tmp/no-apt" && find . ! -type d | sed 's|^\./||' | sort)
[ "$got" = "$want" ] || { echo "FAIL: make install without apt-get installed other files" >&2; echo "$got" >&2; exit 1; }
echo "make install without apt-get: the same tools"

if ! command -v hmmsearch > /dev/null; then
    echo "SKIP: hmmsearch is not installed (Debian package hmmer): gpu-hmmsearch not run" >&2; exit 77
fi
data=$src/examples/data
zcat "$data/targets.fa.gz" > "$tmp/targets.fa"
(cd "$tmp" && env -i PATH="$prefix/bin:/usr/bin:/bin" gpu-hmmsearch --cpu 2 --noali -o /dev/null \
     --tblout fast.tbl --domtblout fast.dom "$data/tutorial3.hmm" targets.fa)
hmmsearch --cpu 2 --noali -o /dev/null --tblout "$tmp/plain.tbl" --domtblout "$tmp/plain.dom" \
    "$data/tutorial3.hmm" "$tmp/targets.fa"
for t in tbl dom; do
    rows=$(grep -vc '^#' "$tmp/plain.$t")
    [ "$rows" -gt 0 ] || { echo "FAIL: plain hmmsearch found no hits in the example data" >&2; exit 1; }
    if ! diff <(grep -v '^#' "$tmp/fast.$t") <(grep -v '^#' "$tmp/plain.$t") > /dev/null; then
        echo "FAIL: installed gpu-hmmsearch's $t table differs from plain hmmsearch's" >&2; exit 1
    fi
done
echo "installed gpu-hmmsearch: hit tables identical to plain hmmsearch ($rows domain rows)"
