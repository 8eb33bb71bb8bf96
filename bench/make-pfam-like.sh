#!/usr/bin/env bash
# A Pfam-like model set for the benchmarks: COUNT models (default 360) built
# by hmmbuild from alignments that hmmemit -a samples from parent models (the
# models of PARENTS.hmm in turn; default the nine example models fn3,
# globins4, Pkinase, RRM_1, 2OG-FeII_Oxy_3, Caudal_act, LuxC, Patched, SMC_N
# of Debian's hmmer-examples), each alignment varied so that the models
# differ from their parents and from each other:
#   - 8 to 120 sequences (log-uniform), so the models' entropies differ;
#   - half of them cut to a window of 40-100% of the match columns (M varies);
#   - residues replaced at random at a rate of 0-30%, which drifts the family
#     away from its parent;
#   - one in 16 is two parents' alignments joined row by row (a two-domain
#     family).
# hmmbuild --hand keeps the emitted match columns (the RF line), so M is the
# window's length; each model is named PARENT_vK. Everything is seeded: the
# same arguments give the same file, byte for byte, with the same awk (its
# rand() draws the variations; hmmbuild's calibration is seeded by
# default). Runs hmmbuild on all cores (2.6 minutes for 360 models on 2).
#   make-pfam-like.sh OUT.hmm [COUNT [SEED [PARENTS.hmm]]]
set -euo pipefail
out=$1; count=${2:-360}; seed=${3:-1}; from=${4:-}
[ "$seed" -ge 1 ] 2> /dev/null || { echo "make-pfam-like.sh: SEED must be a whole number >= 1" >&2; exit 1; }
ex=${HMMER_EXAMPLES:-/usr/share/doc/hmmer/examples}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ -n "$from" ]; then  # one file per model of PARENTS.hmm, named after it
    awk -v d="$tmp" '/^HMMER/ { buf = ""; name = "" } { buf = buf $0 "\n" } $1 == "NAME" { name = $2 }
                     /^\/\// { printf "%s", buf > (d "/" name ".hmm"); close(d "/" name ".hmm"); print name }' "$from" > "$tmp/names"
    mapfile -t parents < "$tmp/names"
else
    parents=(fn3 globins4 Pkinase RRM_1 2OG-FeII_Oxy_3 Caudal_act LuxC Patched SMC_N)
    for p in "${parents[@]}"; do
        if [ -f "$ex/tutorial/$p.hmm" ]; then cp "$ex/tutorial/$p.hmm" "$tmp/$p.hmm"; else zcat "$ex/testsuite/$p.hmm.gz" > "$tmp/$p.hmm"; fi
    done
fi
np=${#parents[@]}
[ "$np" -ge 1 ] || { echo "make-pfam-like.sh: no models in $from" >&2; exit 2; }
# One alignment per model: hmmemit -a, then the variation above (awk, seeded
# by the model's number). hmmemit writes blocks of rows "name aligned-part"
# (one block per 200 columns or so); the "#=GC RF" rows mark match columns
# ('x') and inserts ('.'). The result is one block.
vary() {  # K PARENT [SECOND]
    awk -v seed="$1" '
    BEGIN { srand(seed); aa = "ACDEFGHIKLMNPQRSTVWY"
            cut = rand() < 0.5; frac = 0.4 + 0.6 * rand(); rate = 0.3 * rand() }
    /^#=GC RF/ { rf = rf $3; next }
    /^[^#\/]/ && NF == 2 { if (!($1 in at)) { at[$1] = ++n; name[n] = $1 } row[at[$1]] = row[at[$1]] $2 }
    END {
        m = 0; for (c = 1; c <= length(rf); c++) if (substr(rf, c, 1) == "x") m++
        lo = 1; hi = m
        if (cut) { w = int(frac * m); if (w < 1) w = 1; lo = 1 + int(rand() * (m - w + 1)); hi = lo + w - 1 }
        print "# STOCKHOLM 1.0\n"
        for (i = 1; i <= n; i++) {
            s = ""; k = 0
            for (c = 1; c <= length(rf); c++) {
                if (substr(rf, c, 1) == "x") k++
                if (k < lo || k > hi || (k == hi && substr(rf, c, 1) != "x")) continue
                ch = substr(row[i], c, 1)
                if (ch ~ /[A-Za-z]/ && rand() < rate) ch = substr(aa, 1 + int(rand() * 20), 1)
                s = s ch
            }
            printf "%-24s %s\n", name[i], s
        }
        s = ""; k = 0
        for (c = 1; c <= length(rf); c++) {
            if (substr(rf, c, 1) == "x") k++
            if (k < lo || k > hi || (k == hi && substr(rf, c, 1) != "x")) continue
            s = s substr(rf, c, 1)
        }
        printf "%-24s %s\n//\n", "#=GC RF", s
    }'
}

build_one() {  # K
    local k=$1 p q n
    p=${parents[$(( (k - 1) % np ))]}
    n=$(awk -v s=$((seed * 100003 + k)) 'BEGIN { srand(s); print int(exp(log(8) + rand() * (log(120) - log(8)))) }')
    hmmemit -a -N "$n" --seed $((seed * 1000 + k)) "$tmp/$p.hmm" | vary $((seed * 7919 + k)) > "$tmp/$k.sto"
    if [ $((k % 16)) = 0 ]; then  # a two-domain family
        q=${parents[$(( (k / 16) % np ))]}
        hmmemit -a -N "$n" --seed $((seed * 1000 + k + 500000)) "$tmp/$q.hmm" | vary $((seed * 7919 + k + 1)) > "$tmp/$k.b.sto"
        awk 'FNR == 1 { f++ } /^#=GC RF/ { rf[f] = $3 } NF == 2 && !/^#/ { r[f, FNR] = $1 " " $2; last[f] = FNR }
             END { print "# STOCKHOLM 1.0\n"
                   for (i = 3; i <= last[1]; i++) { split(r[1, i], a, " "); split(r[2, i], b, " "); printf "%-24s %s%s\n", a[1], a[2], b[2] }
                   printf "%-24s %s%s\n//\n", "#=GC RF", rf[1], rf[2] }' "$tmp/$k.sto" "$tmp/$k.b.sto" > "$tmp/$k.j.sto"
        mv "$tmp/$k.j.sto" "$tmp/$k.sto"
        p=$p-$q
    fi
    hmmbuild --hand --amino -n "${p}_v$k" -o /dev/null "$tmp/$k.hmm" "$tmp/$k.sto"
}
export -f build_one vary
export tmp seed np
export PARENTS="${parents[*]}"
# (bash cannot export arrays: each worker rebuilds it from PARENTS)
seq 1 "$count" | xargs -P "$(nproc)" -I{} bash -c 'parents=($PARENTS); build_one {}'
# (without hmmbuild's DATE lines, which are optional: the file is then the
# same byte for byte on every run)
for k in $(seq 1 "$count"); do grep -v '^DATE ' "$tmp/$k.hmm"; done > "$out"
awk '$1 == "LENG" { n++; s += $2; if ($2 > max) max = $2; if (min == "" || $2 < min) min = $2 }
     END { printf "%d models, sum M %d, M %d..%d\n", n, s, min, max }' "$out" >&2
