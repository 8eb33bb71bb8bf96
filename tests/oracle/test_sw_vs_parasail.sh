#!/usr/bin/env bash
# gpu-sw's scores and end positions equal parasail_aligner's (Debian
# parasail 2.6; docs/sw.md §1-§4): on real proteins (hmmer-examples) and
# random ones (make_sw_proteins.sh: relatives with gaps, repeats with many
# equal-scoring alignments, lowercase and B Z X U O J * letters), for the
# four built-in matrices with several gap costs, every pair's score equals
# parasail's sw and sw_striped_profile_16, a pair gpu-sw leaves out is one
# parasail scores 0, and every reported alignment ends where parasail's
# does (qend, tend). Then every entry of the built-in matrices, '*' and the
# letters outside them included, against parasail's matrices (WWWW x WWWW
# around each pair of letters), and a self-alignment of 7,662 residues
# whose score needs more than 16 bits.
source "$(dirname "$0")/lib.sh"
set +e
BIN=$1
TOOL=$BIN/gpu-sw
need parasail_aligner "$TOOL"
[ -f "$EXAMPLES/tutorial/globins45.fa" ] || { echo "skipped: hmmer-examples not installed"; exit 77; }
seed=$(oracle_seed)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash "$ORACLE_DIR/make_sw_proteins.sh" "$seed" "$tmp" odd
echo "queries: $(grep -c '>' "$tmp/queries.fa"), targets: $(grep -c '>' "$tmp/db.fa")"
checks=0

# parasail_aligner reads stdin when it is open (<&-). Its CSV rows:
# query index, target index, lengths, score, 0-based query and target ends.
parasail() {  # function matrix open extend query.fa db.fa out.csv
    parasail_aligner -a "$1" -m "$2" -o "$3" -e "$4" -x -t 1 -q "$5" -f "$6" -g "$7" <&- > /dev/null 2>&1
}

# Compares gpu-sw's rows (TSV) with parasail's CSV over all pairs.
compare() {  # label query.fa db.fa gpu.tsv parasail.csv [ends]
    local label=$1 out
    out=$(awk -F'\t' -v ends="${6:-}" '
        FILENAME == ARGV[1] { if (/^>/) qn[nq++] = substr($1, 2); next }
        FILENAME == ARGV[2] { if (/^>/) tn[nt++] = substr($1, 2); next }
        FILENAME == ARGV[3] { if (!/^#/) { key = $1 SUBSEP $2; s[key] = $3; qe[key] = $7; te[key] = $9; rows++ } next }
        {
            split($0, f, ",")
            key = qn[f[1]] SUBSEP tn[f[2]]
            if (f[5] > 0) {
                positive++
                if (!(key in s)) { bad++; if (bad <= 3) print "missing " qn[f[1]] " " tn[f[2]] " parasail " f[5] }
                else if (s[key] != f[5]) { bad++; if (bad <= 3) print "score " qn[f[1]] " " tn[f[2]] ": " s[key] ", parasail " f[5] }
                else if (ends != "" && (qe[key] != f[6] + 1 || te[key] != f[7] + 1)) {
                    bad++; if (bad <= 3) print "end " qn[f[1]] " " tn[f[2]] ": " qe[key] "," te[key] ", parasail " f[6] + 1 "," f[7] + 1
                }
            } else if (key in s) { bad++; if (bad <= 3) print "extra " qn[f[1]] " " tn[f[2]] }
            pairs++
        }
        END {
            if (pairs == 0) print "parasail gave no pairs"
            if (rows != positive) print "rows " rows ", parasail positive pairs " positive
            if (bad) print bad " pairs differ"
        }' <(sed 's/^>\([^ ]*\).*/>\1/' "$2") <(sed 's/^>\([^ ]*\).*/>\1/' "$3") "$4" "$5")
    checks=$((checks + 1))
    if [ -n "$out" ]; then fail=$((fail + 1)); echo "FAIL $label:"; echo "$out" | sed 's/^/    /'; fi
}

# matrix open extend, in gpu-sw's (BLAST's) terms: a gap of k costs open +
# k extend, which is parasail's -o open+extend -e extend (docs/sw.md section
# 1). BLOSUM62 11/1 (the default), 10/1, 8/2, 0/5 (linear gaps: parasail's
# open equals its extend; no BLAST statistics: --no-evalue); BLOSUM45 12/2;
# BLOSUM50 11/2 (no BLAST statistics); BLOSUM80 9/1.
for setting in "blosum62 11 1" "blosum62 10 1" "blosum62 8 2" "blosum62 0 5" "blosum45 12 2" "blosum50 11 2" \
    "blosum80 9 1"; do
    read -r m o e <<< "$setting"
    opt=(); [ "$m" = blosum50 ] || [ "$o" = 0 ] && opt=(--no-evalue)
    "$TOOL" --query "$tmp/queries.fa" --db "$tmp/db.fa" --matrix "$m" --gap-open "$o" --gap-extend "$e" \
        --max-hits 100000 --quiet "${opt[@]}" > "$tmp/g.tsv" || { fail=$((fail + 1)); echo "FAIL gpu-sw $setting"; }
    # Where parasail's open equals its extend its striped functions score
    # some pairs below its own sw (docs/sw.md section 1); sw is the oracle there.
    fns=(sw sw_striped_profile_16); [ "$o" = 0 ] && fns=(sw)
    for fn in "${fns[@]}"; do
        parasail "$fn" "$m" $((o + e)) "$e" "$tmp/queries.fa" "$tmp/db.fa" "$tmp/p.csv"
        compare "$m $o/$e vs parasail $fn -o $((o + e)) -e $e" "$tmp/queries.fa" "$tmp/db.fa" "$tmp/g.tsv" "$tmp/p.csv" ends
    done
done

# Every matrix entry: W x 4, a letter, W x 4 against the same around another
# letter scores 8 s(W,W) + s(a,b) (gaps cost more than any entry saves).
L='ARNDCQEGHILKMFPSTWYVBZX*UOJ'
for ((k = 0; k < ${#L}; k++)); do
    printf '>q%d\nWWWW%sWWWW\n' "$k" "${L:k:1}"
done > "$tmp/mq.fa"
sed 's/^>q/>t/' "$tmp/mq.fa" > "$tmp/mt.fa"
for m in blosum45 blosum50 blosum62 blosum80; do
    "$TOOL" --query "$tmp/mq.fa" --db "$tmp/mt.fa" --matrix "$m" --max-hits 1000 --no-evalue --score-only --quiet \
        | awk -F'\t' '!/^#/ { print $1, $2, $3 }' | sort > "$tmp/g.txt"
    parasail sw "$m" 12 1 "$tmp/mq.fa" "$tmp/mt.fa" "$tmp/p.csv"  # gpu-sw's default, BLAST's 11/1
    awk -F, '{ print "q" $1, "t" $2, $5 }' "$tmp/p.csv" | sort > "$tmp/p.txt"
    checks=$((checks + 1))
    if [ "$(wc -l < "$tmp/p.txt")" != $((${#L} * ${#L})) ] || ! cmp -s "$tmp/g.txt" "$tmp/p.txt"; then
        fail=$((fail + 1)); echo "FAIL $m entries:"; diff "$tmp/g.txt" "$tmp/p.txt" | head -5 | sed 's/^/    /'
    fi
done

# Past 16 bits: 7LESS_DROME three times over (40,227 against itself), and a relative.
awk '/^SQ/ { f = 1; next } /^\/\// { f = 0 } f { gsub(/ /, ""); s = s $0 } END { print ">less3"; print s s s }' \
    "$EXAMPLES/tutorial/7LESS_DROME" > "$tmp/l3.fa"
awk 'NR == 2 { srand('"$seed"'); s = ""; for (k = 1; k <= length($0); k++) { if (rand() < 0.03) continue; s = s substr($0, k, 1) } print ">less3m"; print s }' \
    "$tmp/l3.fa" > "$tmp/l3m.fa"
cat "$tmp/l3.fa" "$tmp/l3m.fa" > "$tmp/ldb.fa"
"$TOOL" --query "$tmp/l3.fa" --db "$tmp/ldb.fa" --quiet > "$tmp/g.tsv"
parasail sw blosum62 12 1 "$tmp/l3.fa" "$tmp/ldb.fa" "$tmp/p.csv"
compare "7,662-residue self-alignment vs parasail sw" "$tmp/l3.fa" "$tmp/ldb.fa" "$tmp/g.tsv" "$tmp/p.csv" ends
top=$(awk -F'\t' '!/^#/ { print $3; exit }' "$tmp/g.tsv")
checks=$((checks + 1))
[ "${top:-0}" -gt 32767 ] || { fail=$((fail + 1)); echo "FAIL the long self-alignment scores $top, not above 32767"; }

echo "gpu-sw vs parasail_aligner: $checks checks, $fail failed ($((SECONDS)) s)"
[ "$fail" -eq 0 ]
