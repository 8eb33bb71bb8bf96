#!/usr/bin/env bash
# The tour behind `make example`: the hmmsearch-identical pipeline on
# examples/data with the device chosen automatically (CUDA when a GPU is
# visible, else the CPU):
#   1. gpu-msv      MSV + bias filter        -> candidate table
#   2. gpu-viterbi  Viterbi filter           -> survivors FASTA, Z
#   3. hmmsearch -Z <Z> on the survivors     -> hit tables
# and then shows that the hit tables equal plain hmmsearch's; then gpu-nw-dist
# on amplicon reads, compared with AmpliconNoise's NDist; gpu-nussinov on 40
# RNAs; gpu-sw with three protein queries, its best score compared with
# parasail's. Each step says which device it ran on, as the tool itself
# reported it.
# Usage: run-example.sh [DIR]   DIR holds the tools: a build directory (default
# build) or an install's bin directory (e.g. /usr/local/bin in the image).
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
data=$(cd "$(dirname "$0")/data" && pwd)
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
zcat "$data/targets.fa.gz" > "$out/targets.fa"
hmm=$data/tutorial3.hmm
reads=$data/amplicons.fa
n_targets=$(grep -c '>' "$out/targets.fa")

# "cpu" or "cuda:0,1" (a tool's --stats "device"), in words.
device_words() {
    case "$1" in
        cpu) echo "the CPU" ;;
        cuda*) echo "GPU ${1#cuda:} (CUDA)" ;;
        *) echo "$1" ;;
    esac
}
json_field() { sed -n "s/^ *\"$1\": *\"\{0,1\}\([^\",]*\).*/\1/p" "$2" | head -n 1; }

"$BUILD/gpu-msv" --version > "$out/version.txt"
gpus=$(sed -n 's/^visible GPUs: //p' "$out/version.txt")
echo "warpdp example tour"
echo "  tools:   $BUILD (warpdp $(sed -n 's/^gpu-msv (warpdp) //p' "$out/version.txt"), build: $(sed -n 's/^build: //p' "$out/version.txt"))"
if [ "$gpus" = 0 ]; then
    echo "  GPUs:    none visible to the tools, so every step runs on the CPU"
else
    echo "  GPUs:    $gpus visible:"; sed -n 's/^  cuda:/           cuda:/p' "$out/version.txt"
fi
echo "  host:    $(uname -n), $(nproc) CPU cores"
echo "  data:    $data"
echo "           3 Pfam protein models (globins4, fn3, Pkinase), $n_targets protein targets,"
echo "           $(grep -c '>' "$reads") amplicon reads"
echo "  scratch: $out (removed at the end)"

echo
echo "Step 1. gpu-msv: HMMER's MSV and bias filters, every model against every target"
"$BUILD/gpu-msv" --hmm "$hmm" --db "$out/targets.fa" --quiet --stats "$out/msv.json" > "$out/msv.tsv"
echo "  ran on:     $(device_words "$(json_field device "$out/msv.json")") (engine $(json_field engine "$out/msv.json"))"
echo "  candidates: $(($(wc -l < "$out/msv.tsv") - 1)) (model, target) pairs passed; the first rows of the table:"
awk -F '\t' 'NR <= 4 { printf "    %-9s %-24s %-9s %-10s %s\n", $1, $3, $5, $7, $9 }' "$out/msv.tsv"

echo
echo "Step 2. gpu-viterbi: HMMER's Viterbi filter on those candidates only"
"$BUILD/gpu-viterbi" --hmm "$hmm" --db "$out/targets.fa" --candidates "$out/msv.tsv" --quiet \
    --survivors "$out/survivors.fa" --stats "$out/vit.json" > "$out/vit.tsv"
Z=$(json_field Z "$out/vit.json")
echo "  ran on:     $(device_words "$(json_field device "$out/vit.json")") (engine $(json_field engine "$out/vit.json"))"
echo "  survivors:  $(grep -c '>' "$out/survivors.fa") of $Z targets passed a filter for some model (survivors.fa)"

echo
echo "Step 3. hmmsearch -Z $Z on the survivors only, then plain hmmsearch on all $n_targets targets"
hmmsearch -Z "$Z" --noali -o "$out/fast.out" --tblout "$out/fast.tbl" --domtblout "$out/fast.dom" "$hmm" "$out/survivors.fa"
hmmsearch --noali -o "$out/plain.out" --tblout "$out/plain.tbl" --domtblout "$out/plain.dom" "$hmm" "$out/targets.fa"
echo "  ran on:     the CPU (hmmsearch $(hmmsearch -h | sed -n 's/^# HMMER \([^ ]*\).*/\1/p'))"
echo "  plain hmmsearch's own filter counts, the same as steps 1 and 2:"
awk '$1 == "Query:" { q = $2 } $1 == "Passed" { n[$2] = $4 }
     $1 == "Initial" { printf "    %-9s passed MSV %4d, bias %4d, Viterbi %4d\n", q, n["MSV"], n["bias"], n["Vit"] }' "$out/plain.out"
echo "  best hits (target, model, E-value, score) from the survivors' --tblout:"
awk '!/^#/ && n++ < 5 { printf "    %-26s %-9s %9s %7s\n", $1, $3, $5, $6 }' "$out/fast.tbl"
for t in tbl dom; do
    label=--tblout; [ $t = dom ] && label=--domtblout
    if diff <(grep -v '^#' "$out/fast.$t") <(grep -v '^#' "$out/plain.$t") > /dev/null; then
        echo "  result:     $label identical to plain hmmsearch's ($(grep -vc '^#' "$out/plain.$t") lines)"
    else
        echo "  result:     $label DIFFERS from plain hmmsearch's" >&2; exit 1
    fi
done

# gpu-nw-dist: AmpliconNoise's NDist distances of 60 synthetic 454-like reads
# (bench/make_amplicon_reads --n 60 --length 250 --sd 20 --seed 7 --species 4 --wrap 60).
echo
echo "Step 4. gpu-nw-dist: all-pairs Needleman-Wunsch distances (AmpliconNoise's NDist) of the amplicon reads"
"$BUILD/gpu-nw-dist" --in "$reads" > "$out/reads.ndist" 2> "$out/nw.err"
"$BUILD/gpu-nw-dist" --in "$reads" --quiet --format tsv --max-dist 0.02 > "$out/close.tsv"
ran=$(sed -n 's/.*, device \([^ ,]*\).*/\1/p' "$out/nw.err" | head -n 1)
echo "  ran on:     $(device_words "$ran")"
echo "  distances:  $(($(wc -l < "$out/reads.ndist") - 1)); $(($(wc -l < "$out/close.tsv") - 1)) pairs within 0.02, the first:"
sed -n 2,4p "$out/close.tsv" | sed 's/^/    /'
if command -v NDist > /dev/null && NDist -in "$reads" > "$out/oracle.ndist" 2> /dev/null; then
    if cmp -s "$out/oracle.ndist" "$out/reads.ndist"; then
        echo "  result:     byte-identical to AmpliconNoise's NDist -in $(basename "$reads")"
    else
        echo "  result:     DIFFERS from AmpliconNoise's NDist" >&2; exit 1
    fi
else
    echo "  result:     not compared (AmpliconNoise's NDist is not installed here)"
fi
# gpu-nussinov: the 40 MADE1 samples (inverted-repeat ends: hairpins).
echo
echo "Step 5. gpu-nussinov: Nussinov base-pair maximisation with structures, 40 RNAs"
"$BUILD/gpu-nussinov" --in "$data/rnas.fa" --quiet --stats "$out/fold.json" > "$out/fold.tsv"
echo "  ran on:     $(device_words "$(json_field device "$out/fold.json")") (engine $(json_field engine "$out/fold.json"))"
echo "  folded:     $(($(wc -l < "$out/fold.tsv") - 1)) sequences; the first (name, length, pairs, structure):"
awk -F '\t' 'NR > 1 && NR <= 3 { printf "    %-14s %4s %3s %s\n", $1, $2, $4, substr($5, 1, 60) (length($5) > 60 ? "..." : "") }' "$out/fold.tsv"

# gpu-sw: the three models' consensus sequences against the targets.
echo
echo "Step 6. gpu-sw: Smith-Waterman search (BLOSUM62, BLAST's gap costs 11/1), 3 queries against the $n_targets targets"
"$BUILD/gpu-sw" --query "$data/queries.fa" --db "$out/targets.fa" --quiet --format m8 --max-hits 3 \
    --stats "$out/sw.json" > "$out/sw.m8"
echo "  ran on:     $(device_words "$(json_field device "$out/sw.json")") (engine $(json_field engine "$out/sw.json"))"
echo "  best hits, BLAST's tabular layout (query, target, identity, length, E-value, bits):"
awk -F '\t' '{ printf "    %-18s %-26s %7s %5s %9s %7s\n", $1, $2, $3, $4, $11, $12 }' "$out/sw.m8"
if command -v parasail_aligner > /dev/null; then
    head -n 2 "$data/queries.fa" > "$out/q1.fa"
    # (gpu-sw's BLAST-style 11/1, a gap of k costing 11 + k, is parasail's -o 12 -e 1)
    parasail_aligner -a sw_striped_32 -o 12 -e 1 -x -t 1 -q "$out/q1.fa" -f "$out/targets.fa" -g "$out/p.csv" <&- > /dev/null 2>&1 || true
    theirs=$(sort -t, -k5,5nr "$out/p.csv" 2> /dev/null | awk -F, 'NR == 1 { print $5 }')
    ours=$("$BUILD/gpu-sw" --query "$out/q1.fa" --db "$out/targets.fa" --quiet --score-only --max-hits 1 | awk -F '\t' 'NR == 2 { print $3 }')
    if [ -n "$theirs" ] && [ "$theirs" = "$ours" ]; then
        echo "  result:     the first query's best score, $ours, equals parasail_aligner's"
    else
        echo "  result:     the first query's best score ($ours) DIFFERS from parasail_aligner's ($theirs)" >&2; exit 1
    fi
else
    echo "  result:     not compared (parasail_aligner is not installed here)"
fi

echo
echo "Done: every step ran with the tools in $BUILD (README.md: how to install them or put them on the PATH)."
