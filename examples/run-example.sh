#!/usr/bin/env bash
# The tour behind `make example`: runs the suite's tools on examples/data with
# the device chosen automatically (CUDA when a GPU is visible, else the CPU),
# and shows that the results agree with Debian's HMMER.
set -euo pipefail
BUILD=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
data=$here/data
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT

echo "== gpu-msv: MSV + bias filter, 3 Pfam models x $(zcat "$data/targets.fa.gz" | grep -c '>') targets"
"$BUILD/gpu-msv" --hmm "$data/tutorial3.hmm" --db "$data/targets.fa.gz" --stats "$out/stats.json" > "$out/msv.tsv"
head -n 6 "$out/msv.tsv" | column -t -s $'\t'
echo "   ... $(grep -vc '^#' "$out/msv.tsv") surviving (model, target) pairs"

if command -v hmmsearch >/dev/null; then
    echo "== the same filter stages in hmmsearch 3.3.2 (Passed MSV / Passed bias per model)"
    zcat "$data/targets.fa.gz" > "$out/targets.fa"
    hmmsearch --F2 1 --F3 1 --noali -o "$out/h.out" "$data/tutorial3.hmm" "$out/targets.fa"
    awk '$1 == "Query:" { q = $2 } $1 == "Passed" && $2 == "MSV" { m = $4 }
         $1 == "Passed" && $2 == "bias" { printf "   hmmsearch %-9s passed MSV %5d  passed bias %5d\n", q, m, $4 }' "$out/h.out"
    python_free_counts=$(awk -F'\t' '!/^#/ { n[$1]++ } END { for (k in n) print k, n[k] }' "$out/msv.tsv" | sort)
    echo "$python_free_counts" | awk '{ printf "   gpu-msv   %-9s passed bias %5d\n", $1, $2 }'
fi
