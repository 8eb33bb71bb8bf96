#!/usr/bin/env bash
# Writes a protein FASTA that exercises the MSV/bias/Viterbi thresholds of the
# given models: hmmemit homologs (core and with flanks), homologs mutated at
# several rates (they populate the region around the thresholds), random
# sequences from L = 1 to MAXLEN, lowercase records, degenerate and
# non-residue characters (B J Z O U X * ~ . _), and one empty record.
# Usage: make_targets.sh SEED N_PER_MODEL MAXLEN MODEL.hmm... > targets.fa
set -euo pipefail
seed=$1; n=$2; maxlen=$3; shift 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
i=0
for model in "$@"; do
    i=$((i + 1))
    hmmemit -N "$n" --seed $((seed + i)) "$model" > "$tmp/core.$i.fa"
    hmmemit -p -L 300 -N "$n" --seed $((seed + 100 + i)) "$model" > "$tmp/flank.$i.fa"
done
cat "$tmp"/core.*.fa "$tmp"/flank.*.fa |
awk -v seed="$seed" -v maxlen="$maxlen" '
function rres(   r, k) {   # a residue drawn from (rounded) Swiss-Prot frequencies
    r = rand() * total
    for (k = 1; k <= 20; k++) { r -= freq[k]; if (r <= 0) return substr(aa, k, 1) }
    return "L"
}
function randseq(L,   s, k) { s = ""; for (k = 0; k < L; k++) s = s rres(); return s }
function emit(name, s,   k) {
    print ">" name
    for (k = 1; k <= length(s); k += 60) print substr(s, k, 60)
    if (length(s) == 0) print ""
}
function mutate(s, rate,   out, k, c) {
    out = ""
    for (k = 1; k <= length(s); k++) { c = substr(s, k, 1); out = out (rand() < rate ? rres() : c) }
    return out
}
function sprinkle(s, chars, count,   k, pos) {
    for (k = 0; k < count && length(s) > 0; k++) {
        pos = 1 + int(rand() * length(s))
        s = substr(s, 1, pos - 1) substr(chars, 1 + int(rand() * length(chars)), 1) substr(s, pos + 1)
    }
    return s
}
BEGIN {
    srand(seed)
    aa = "ACDEFGHIKLMNPQRSTVWY"
    split("79 15 54 67 40 70 23 59 59 96 24 41 48 40 54 68 54 67 11 30", freq, " ")
    total = 0; for (k = 1; k <= 20; k++) total += freq[k]
}
/^>/ { if (name != "") seqs[++ns] = cur; name = substr($1, 2); names[ns + 1] = name; cur = ""; next }
{ cur = cur $0 }
END {
    seqs[++ns] = cur
    nrand = 0
    for (k = 1; k <= ns; k++) {
        s = seqs[k]
        emit("hom" k "_" names[k], s)
        split("0.2 0.35 0.5 0.6 0.7 0.8", rates, " ")
        r = rates[1 + (k % 6)]
        emit("mut" k "_r" r, mutate(s, r))
        if (k % 5 == 0) emit("odd" k, sprinkle(s, "BJZOUX*~._", 1 + int(rand() * 8)))
        if (k % 7 == 0) emit("low" k, tolower(mutate(s, 0.3)))
    }
    split("1 2 3 4 5 8 10 16 31 32 33 50 64 100 127 128 129 200 255 256 257", fixed, " ")
    for (k in fixed) emit("rnd_fixed_L" fixed[k], randseq(fixed[k]))
    for (k = 1; k <= ns; k++) { L = 1 + int(exp(log(3000) * rand())); emit("rnd" k "_L" L, randseq(L)) }
    for (L = 5000; L <= maxlen; L *= 4) emit("rnd_long_L" L, randseq(L))
    if (maxlen >= 100000) emit("rnd_long_L100000", randseq(100000))
    emit("allstar_L3", "***")
    emit("xs_L40", "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX")
    emit("lowrnd_L200", tolower(randseq(200)))
    emit("empty_L0", "")
    emit("lowcomplexity_L300", sprintf("%300s", "") )
}' | sed 's/^                                                            $/QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ/'
