#!/usr/bin/env bash
# The gpu-nussinov benchmark of a GPU machine (issue 37): bench_nussinov_sets
# on the length distributions users fold (BioMarKs 50k, 100,000 x 200,
# 10,000 x 1,000, 150 x 4,000, 20 x 8,000, one of 26,000, a mixed set; the CPU
# engine in the same run, every result compared), then, with BATCH_MAX set
# (e.g. "338 240"), the sets again with the batch reach moved down, for the
# batch/tiles crossover of docs/nussinov.md §10.2; then the whole tool on
# BioMarKs 50k with structures on --device cuda, auto and cpu: wall time,
# engine seconds from --stats, and the three outputs byte-identical.
#   bench/nussinov-sets.sh BIN_DIR BioMarKs50k.fsa.gz [SETS=all]
set -euo pipefail
bin=$1 data=$2 sets=${3:-all}
logs=${OUT:-$PWD}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
rc=0
"$bin/bench_nussinov_sets" "$data" "$sets" 0 0 1 | tee "$logs/nussinov-sets.txt" || rc=1
for m in ${BATCH_MAX:-}; do
    echo "== batch reach $m"
    "$bin/bench_nussinov_sets" "$data" "${BATCH_MAX_SETS:-biomarks,100000x200,mixed}" 0 "$m" 0 |
        tee "$logs/nussinov-sets-batch$m.txt" || rc=1
done
for dev in cuda auto cpu; do
    t0=$(date +%s.%N)
    "$bin/gpu-nussinov" --in "$data" --device "$dev" --quiet -o "$tmp/$dev.tsv" --stats "$tmp/$dev.json"
    wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    engine=$(grep -oE '"(engine_seconds|steps_per_second)": [^,}]*' "$tmp/$dev.json" | tr '\n' ' ' || true)
    printf 'gpu-nussinov BioMarKs 50k with structures, --device %-4s: wall %s s, %s\n' "$dev" "$wall" "$engine"
done
for dev in auto cpu; do
    cmp -s "$tmp/cuda.tsv" "$tmp/$dev.tsv" && echo "cuda and $dev: identical output" ||
        { echo "MISMATCH: gpu-nussinov --device cuda and $dev differ"; rc=1; }
done
exit $rc
