#!/usr/bin/env bash
# gpu-sw's scores equal ssearch36's (Debian fasta3 36.3.8; docs/sw.md §1):
# ssearch36 -s BLxx -f -open -g -extend gives, for every query and library
# sequence, the Smith-Waterman score of gpu-sw --gap-open open --gap-extend
# extend (both charge a gap of k residues open + k extend). Real proteins (hmmer-examples' globins, PAX8_HUMAN,
# 7LESS_DROME) and random ones with the 20 standard letters only:
# ssearch36 reads U as C, O as K and J, and '*' in library sequences, its
# own way (docs/sw.md §2), so those letters are left to the parasail test.
source "$(dirname "$0")/lib.sh"
set +e
BIN=$1
TOOL=$BIN/gpu-sw
need ssearch36 "$TOOL"
[ -f "$EXAMPLES/tutorial/globins45.fa" ] || { echo "skipped: hmmer-examples not installed"; exit 77; }
seed=$(oracle_seed)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash "$ORACLE_DIR/make_sw_proteins.sh" "$seed" "$tmp" std
checks=0

# gpu-sw matrix, ssearch36 matrix, open, extend. ssearch36 has no BL45, and
# its built-in BL80 is scaled otherwise than NCBI's BLOSUM80: those two come
# from fasta3's NCBI-format files, and the last line reads such a file into
# gpu-sw too (--matrix FILE).
data=/usr/share/fasta3/data
[ -f "$data/blosum45.mat" ] || { echo "skipped: $data/blosum45.mat missing"; exit 77; }
# (Linear gaps, open 0, are the parasail test's: ssearch36 -f 0 estimates no
# statistics on some queries and then lists none of their library sequences.)
for setting in "BLOSUM62 BL62 11 1" "BLOSUM62 BL62 10 1" "BLOSUM62 BL62 11 2" "BLOSUM50 BL50 10 2" \
               "BLOSUM45 $data/blosum45.mat 12 3" "BLOSUM80 $data/blosum80.mat 9 1" \
               "$data/blosum62.mat $data/blosum62.mat 11 1"; do
    read -r m sm o e <<< "$setting"
    "$TOOL" --query "$tmp/queries.fa" --db "$tmp/db.fa" --matrix "$m" --gap-open "$o" --gap-extend "$e" \
        --max-hits 100000 --no-evalue --score-only --quiet | awk -F'\t' '!/^#/ { print $1, $2, $3 }' | sort > "$tmp/g.txt"
    # The best-scores list of each query: name, (length), s-w score, ...
    ssearch36 -q -s "$sm" -f "-$o" -g "-$e" -d 0 -b 100000 -E 1e9 "$tmp/queries.fa" "$tmp/db.fa" 2> "$tmp/s.err" |
        awk '/^ *[0-9]+>>>/ { sub(/^ *[0-9]+>>>/, ""); q = $1; next }
             /^The best scores are:/ { on = 1; next }
             on && NF == 0 { on = 0 }
             on { for (k = 2; k < NF; k++) if ($k ~ /\)$/) { if ($(k + 1) > 0) print q, $1, $(k + 1); break } }' |
        sort > "$tmp/s.txt"
    checks=$((checks + 1))
    if [ ! -s "$tmp/s.txt" ] || ! cmp -s "$tmp/g.txt" "$tmp/s.txt"; then
        fail=$((fail + 1))
        echo "FAIL $m $o/$e vs ssearch36 -s $sm -f -$o -g -$e: $(wc -l < "$tmp/g.txt") gpu-sw pairs, $(wc -l < "$tmp/s.txt") ssearch36 pairs"
        diff "$tmp/g.txt" "$tmp/s.txt" | head -6 | sed 's/^/    /'
        head -3 "$tmp/s.err" | sed 's/^/    /'
    fi
done
echo "gpu-sw vs ssearch36: $checks checks, $fail failed ($((SECONDS)) s)"
[ "$fail" -eq 0 ]
