#!/usr/bin/env bash
# gpu-sw as a user runs it, on databases of two length distributions
# (docs/benchmarks.md, "gpu-sw in the tool"): Swiss-Prot-like lengths
# (make_protein_db --swissprot-lengths) and the narrower lognormal around
# 350. Twenty random queries of the lengths of CUDASW++'s query set (144 to
# 5,478), top 10, scores only. The scan is the difference between a run of
# the twenty queries once and a run of them three times, so it holds no
# database read; the whole process is the once run's wall time. With
# OLD_SW (another gpu-sw binary) both are timed in the same run, and the
# hits compared. With CHUNK (residues), gpu-sw is also timed with
# --chunk-residues CHUNK, so the database read overlaps the first chunks'
# scans (the default chunk holds the whole of these databases).
# DEVICE (default cuda) picks the device.
#   bash bench/sw-tool.sh BIN_DIR [N_TARGETS (default 1000000)]
set -euo pipefail
bin=$1
n=${2:-1000000}
work=${OUT:-$(mktemp -d)}/sw-tool
mkdir -p "$work"
lengths="144 189 222 375 464 567 657 729 850 1000 1500 2005 2504 3005 3564 4061 4548 4743 5147 5478"
awk -v lens="$lengths" 'BEGIN {
    srand(20261207); aa = "ACDEFGHIKLMNPQRSTVWY"; n = split(lens, L, " ")
    for (q = 1; q <= n; ++q) { s = ""; for (i = 0; i < L[q]; ++i) s = s substr(aa, int(rand() * 20) + 1, 1); printf ">q%d_%d\n%s\n", q, L[q], s }
}' > "$work/q1.fa"
cat "$work/q1.fa" "$work/q1.fa" "$work/q1.fa" > "$work/q3.fa"
"$bin/make_protein_db" --swissprot-lengths "$n" 20261126 > "$work/swissprot-like.fa"
"$bin/make_protein_db" "$n" 20261126 > "$work/lognormal350.fa"

wall() { local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'; }
sum_lengths=$(echo "$lengths" | tr ' ' '\n' | awk '{ s += $1 } END { print s }')
for db in swissprot-like lognormal350; do
    residues=$(grep -v '^>' "$work/$db.fa" | tr -d '\n' | wc -c)
    for tool in gpu-sw ${OLD_SW:+old} ${CHUNK:+chunked}; do
        exe=$bin/gpu-sw; [ "$tool" = old ] && exe=$OLD_SW
        extra=(); [ "$tool" = chunked ] && extra=(--chunk-residues "$CHUNK")
        run() { "$exe" --query "$work/$1" --db "$work/$db.fa" --device "${DEVICE:-cuda}" --score-only --no-evalue --max-hits 10 "${extra[@]}" -o "$work/$db.$tool.$1.tsv"; }
        w1=$(wall run q1.fa); w3=$(wall run q3.fa)
        awk -v db="$db" -v tool="$tool" -v r="$residues" -v q="$sum_lengths" -v w1="$w1" -v w3="$w3" 'BEGIN {
            scan = (w3 - w1) / 2
            printf "%s %s: %d residues x %d query residues = %.3g cells a pass; whole process %.2f s, scan %.2f s (%.2f TCUPS)\n",
                db, tool, r, q, r * q, w1, scan, r * q / scan / 1e12 }'
    done
    for other in ${OLD_SW:+old} ${CHUNK:+chunked}; do
        cmp -s "$work/$db.gpu-sw.q1.fa.tsv" "$work/$db.$other.q1.fa.tsv" && echo "$db: $other hits identical" || echo "$db: $other HITS DIFFER"
    done
done
