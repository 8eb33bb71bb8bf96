#!/usr/bin/env bash
# Writes the protein sets of the gpu-sw oracle tests into DIR: queries.fa and
# db.fa from real proteins of Debian's hmmer-examples (a random pick of the
# 45 globins as queries, all of them, PAX8_HUMAN and 7LESS_DROME, 2,554
# residues, in the database) and random ones: proteins of 1 to 500 residues
# with Swiss-Prot's composition, mutated copies of the queries (substitutions
# and indels, so alignments carry gaps), low-complexity repeats (many
# alignments of equal score: the end-position rule), and, with LETTERS=odd,
# lowercase and B Z X U O J * letters. Short names (ssearch36 cuts long ones).
# Usage: make_sw_proteins.sh SEED DIR [std|odd]
set -euo pipefail
seed=$1; dir=$2; letters=${3:-std}
ex=/usr/share/doc/hmmer/examples
less=$(awk '/^SQ/ { f = 1; next } /^\/\// { f = 0 } f { gsub(/ /, ""); s = s $0 } END { print s }' "$ex/tutorial/7LESS_DROME")
pax=$(awk '!/^>/ { s = s $0 } END { print s }' "$ex/testsuite/PAX8_HUMAN")
awk -v seed="$seed" -v letters="$letters" -v less="$less" -v pax="$pax" -v dir="$dir" '
function rres(   r, k) {
    r = rand() * total
    for (k = 1; k <= 20; k++) { r -= freq[k]; if (r <= 0) return substr(aa, k, 1) }
    return "L"
}
function randseq(L,   s, k) { s = ""; for (k = 0; k < L; k++) s = s rres(); return s }
function odd(s,   out, k, c) {   # lowercase runs and rare letters, when asked for
    if (letters != "odd") return s
    out = ""
    for (k = 1; k <= length(s); k++) {
        c = substr(s, k, 1)
        if (rand() < 0.02) c = substr("BZXUOJ*", int(rand() * 7) + 1, 1)
        if (rand() < 0.1) c = tolower(c)
        out = out c
    }
    return out
}
function mutate(s, rate,   out, k, r) {
    out = ""
    for (k = 1; k <= length(s); k++) {
        r = rand()
        if (r < rate / 4) continue
        if (r < rate / 2) out = out randseq(int(rand() * 4) + 1)
        out = out (rand() < rate ? rres() : substr(s, k, 1))
    }
    return out
}
function emit(file, name, s,   k) {
    print ">" name > file
    for (k = 1; k <= length(s); k += 60) print substr(s, k, 60) > file
}
BEGIN {
    srand(seed)
    aa = "ACDEFGHIKLMNPQRSTVWY"
    split("8.25 1.38 5.46 6.72 3.86 7.07 2.27 5.91 5.80 9.65 2.41 4.06 4.74 3.93 5.53 6.65 5.36 6.86 1.10 2.92", freq, " ")
    for (k = 1; k <= 20; k++) total += freq[k]
    q = dir "/queries.fa"; d = dir "/db.fa"
}
/^>/ { name = substr($1, 2); names[++n] = name; next }
{ seq[name] = seq[name] $0 }
END {
    # Queries: 6 random globins, PAX8, a random protein, a repeat.
    for (k = 1; k <= 6; k++) { g = names[int(rand() * n) + 1]; emit(q, "q" k "_" g, odd(seq[g])); qs[k] = seq[g] }
    emit(q, "q7_pax8", pax); qs[7] = pax
    qs[8] = randseq(int(rand() * 300) + 20); emit(q, "q8_rnd", odd(qs[8]))
    emit(q, "q9_rep", "WWAWWAWWAWWHHWWAWWA")
    emit(q, "q10_one", "W")
    # Database: every globin, PAX8, 7LESS, relatives of the queries, random
    # proteins, repeats.
    for (k = 1; k <= n; k++) emit(d, names[k], odd(seq[names[k]]))
    emit(d, "pax8", pax); emit(d, "less", less)
    for (k = 1; k <= 8; k++) for (r = 1; r <= 3; r++) emit(d, "rel" k "_" r, odd(mutate(qs[k], 0.1 * r)))
    for (k = 1; k <= 40; k++) emit(d, "rnd" k, odd(randseq(int(rand() * 500) + 1)))
    emit(d, "rep1", "WWAWWAWWAWWAWW"); emit(d, "rep2", "AWWAWWHHWWAWWAWWAWWA"); emit(d, "rep3", "WWWW")
    emit(d, "one", "W"); emit(d, "two", "WA")
}' "$ex/tutorial/globins45.fa"
