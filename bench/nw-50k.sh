#!/usr/bin/env bash
# The gpu-nw-dist benchmark of a GPU machine: all 50,000 BioMarKs reads
# against each other (1.25e9 NDist pairs) keeping pairs with distance
# <= MAX_DIST as TSV, plus the same for a SeqDist subset, with wall time,
# pairs/s and cell updates/s. NDist/SeqDist themselves are timed by
# bench/nw-bench.sh on a host that has them (cells/s per core).
#   bench/nw-50k.sh BIN_DIR BioMarKs50k.fsa.gz [MAX_DIST=0.03] [DEVICE=cuda]
set -euo pipefail
bin=$1 data=$2 maxd=${3:-0.03} dev=${4:-cuda}
logs=${OUT:-$PWD}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
zcat "$data" | awk '/^>/ { print; next } { print toupper($0) }' > "$tmp/all.fa"
run() {  # label args...
    local label=$1; shift
    local t0=$(date +%s.%N)
    "$bin/gpu-nw-dist" "$@" --device "$dev" > "$tmp/out" 2> "$logs/nw-$label.err"
    local s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
    local lines=$(wc -l < "$tmp/out")
    echo "$label: $(tail -1 "$logs/nw-$label.err")"
    printf '%-28s wall %8.2f s  output lines %d\n' "$label" "$s" "$lines"
}
run "ndist-50k-maxdist$maxd" --in "$tmp/all.fa" --format tsv --max-dist "$maxd"
awk '/^>/ { if (++k > 10000) exit } { print }' "$tmp/all.fa" > "$tmp/s10k.fa"
run "seqdist-10k-full-binary" --in "$tmp/s10k.fa" --metric seqdist --format binary
run "ndist-10k-full-text" --in "$tmp/s10k.fa"
# With several GPUs, the same matrix from the first GPU alone must be identical.
if [ "$(nvidia-smi -L 2> /dev/null | grep -c '^GPU' || true)" -gt 1 ]; then
    mv "$tmp/out" "$tmp/all-gpus.out"
    CUDA_VISIBLE_DEVICES=0 run "ndist-10k-full-text-one-gpu" --in "$tmp/s10k.fa"
    cmp -s "$tmp/out" "$tmp/all-gpus.out" && echo "one GPU and all GPUs: identical matrices" ||
        { echo "MISMATCH: gpu-nw-dist on one GPU and on all GPUs differ"; exit 1; }
fi
