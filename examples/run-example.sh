#!/usr/bin/env bash
# The tour behind `make example`: the hmmsearch-identical pipeline on
# examples/data with the device chosen automatically (CUDA when a GPU is
# visible, else the CPU):
#   1. gpu-msv      MSV + bias filter        -> candidate stream
#   2. gpu-viterbi  Viterbi filter           -> survivors FASTA, Z
#   3. hmmsearch -Z <Z> on the survivors     -> hit tables
# and then shows that the hit tables equal plain hmmsearch's; then gpu-nw-dist
# on amplicon reads, compared with AmpliconNoise's NDist.
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
data=$(cd "$(dirname "$0")/data" && pwd)
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
zcat "$data/targets.fa.gz" > "$out/targets.fa"
hmm=$data/tutorial3.hmm
echo "== 3 Pfam models (globins4, fn3, Pkinase) x $(grep -c '>' "$out/targets.fa") targets"

echo "== 1. gpu-msv (first rows of its candidate stream)"
"$BUILD/gpu-msv" --hmm "$hmm" --db "$out/targets.fa" > "$out/msv.tsv"
head -n 4 "$out/msv.tsv"

echo "== 2. gpu-viterbi --candidates - --survivors"
"$BUILD/gpu-viterbi" --hmm "$hmm" --db "$out/targets.fa" --candidates "$out/msv.tsv" \
    --survivors "$out/survivors.fa" --stats "$out/vit.json" > "$out/vit.tsv"
Z=$(sed -n 's/^ *"Z": *\([0-9][0-9]*\).*/\1/p' "$out/vit.json")
echo "   $(grep -c '>' "$out/survivors.fa") survivors of $Z targets"

echo "== 3. hmmsearch -Z $Z on the survivors, and plain hmmsearch on everything"
hmmsearch -Z "$Z" --noali -o "$out/fast.out" --tblout "$out/fast.tbl" --domtblout "$out/fast.dom" "$hmm" "$out/survivors.fa"
hmmsearch --noali -o "$out/plain.out" --tblout "$out/plain.tbl" --domtblout "$out/plain.dom" "$hmm" "$out/targets.fa"
awk '$1 == "Query:" { q = $2 } $1 == "Passed" { n[$2] = $4 }
     $1 == "Initial" { printf "   hmmsearch %-9s passed MSV %4d, bias %4d, Vit %4d\n", q, n["MSV"], n["bias"], n["Vit"] }' "$out/plain.out"
awk '!/^#/ && n++ < 5' "$out/fast.tbl"
for t in tbl dom; do
    label=--tblout; [ $t = dom ] && label=--domtblout
    if diff <(grep -v '^#' "$out/fast.$t") <(grep -v '^#' "$out/plain.$t") > /dev/null; then
        echo "   $label: identical to plain hmmsearch ($(grep -vc '^#' "$out/plain.$t") lines)"
    else
        echo "   $label DIFFERS from plain hmmsearch" >&2; exit 1
    fi
done

# gpu-nw-dist: AmpliconNoise's NDist distances of 60 synthetic 454-like reads
# (bench/make_amplicon_reads --n 60 --length 250 --sd 20 --seed 7 --species 4 --wrap 60).
reads=$data/amplicons.fa
echo "== 4. gpu-nw-dist: all-pairs NDist distances of $(grep -c '>' "$reads") amplicon reads"
"$BUILD/gpu-nw-dist" --in "$reads" --quiet > "$out/reads.ndist"
"$BUILD/gpu-nw-dist" --in "$reads" --quiet --format tsv --max-dist 0.02 > "$out/close.tsv"
echo "   $(($(wc -l < "$out/reads.ndist") - 1)) distances; $(($(wc -l < "$out/close.tsv") - 1)) pairs within 0.02:"
sed -n 2,4p "$out/close.tsv"
if command -v NDist > /dev/null && NDist -in "$reads" > "$out/oracle.ndist" 2> /dev/null; then
    if cmp -s "$out/oracle.ndist" "$out/reads.ndist"; then
        echo "   byte-identical to AmpliconNoise's NDist -in $(basename "$reads")"
    else
        echo "   DIFFERS from AmpliconNoise's NDist" >&2; exit 1
    fi
fi
