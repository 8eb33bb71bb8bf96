#!/usr/bin/env bash
# The full pipeline equals plain hmmsearch: gpu-msv | gpu-viterbi --survivors,
# then `hmmsearch -Z <Z>` on the survivors (the gpu-hmmsearch wrapper), gives
# --tblout, --domtblout and main output identical to hmmsearch on the whole
# database (file-name header lines and pipeline statistics aside), for
# several option sets; and gpu-viterbi's per-model "passed Vit" and
# "passed Fwd" counts equal hmmsearch's "Passed Vit filter" and "Passed Fwd
# filter".
source "$(dirname "$0")/lib.sh"
export LC_ALL=C  # this script's own greps see bytes (some descriptions below are not UTF-8)
BIN=$1
need hmmsearch hmmemit "$BIN/gpu-msv" "$BIN/gpu-viterbi" "$BIN/gpu-hmmsearch"
seed=$(oracle_seed)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

for m in globins4 fn3 Pkinase RRM_1 LuxC; do model_file "$m" "$tmp" > /dev/null; done
cat "$tmp/globins4.hmm" "$tmp/fn3.hmm" "$tmp/Pkinase.hmm" > "$tmp/three.hmm"
# Some descriptions end in blanks, start with a form feed or are not UTF-8:
# hmmsearch prints them as Easel read them, so the survivors must carry them
# unchanged, and the stitching must not take them for binary. Some names
# start with '#' (a table row then does too), hold a backslash (escaped in
# gpu-msv's TSV), or repeat the name before (told apart by target_index).
# 28 per model make 966 records: hmmsearch deals its threads blocks of 1,000
# records, and on a database of one block its output does not depend on how
# the threads took them, so it is one answer to compare with (more blocks:
# docs/hmmer-filters.md).
bash "$ORACLE_DIR/make_targets.sh" "$seed" 28 100000 \
    "$tmp/globins4.hmm" "$tmp/fn3.hmm" "$tmp/Pkinase.hmm" "$tmp/RRM_1.hmm" "$tmp/LuxC.hmm" |
    awk '/^>/ { n++; name = substr($1, 2); rest = substr($0, length($1) + 1)
                if (n % 7 == 3) name = "#" name; else if (n % 11 == 6) name = name "\\x"; else if (n % 13 == 8) name = prev
                prev = name; $0 = ">" name rest
                if (n % 3 == 1) $0 = $0 " desc \t "; else if (n % 3 == 2) $0 = $0 " \fd"; else if (n % 6 == 0) $0 = $0 " \377\376 x" }
         { print }' > "$tmp/db.fa"
echo "targets: $(grep -c '>' "$tmp/db.fa")"
[ "$(grep -c '>' "$tmp/db.fa")" -lt 1000 ] || { echo "FAIL: the database has 1,000 records or more"; exit 1; }

table_rows() {  # a --tblout/--domtblout without its three header lines and its footer (from the lone "#")
    awk 'NR > 3 && /^#$/ { exit } NR > 3' "$1"
}
main_output() {  # the main output without file-name headers and statistics
    grep -av '^#' "$1" | sed '/^Internal pipeline statistics summary/,/^\/\//d'
}

checks=0
run_case() {  # model-file options...
    local hmm=$1; shift
    hmmsearch "$@" -o "$tmp/h.out" --tblout "$tmp/h.tbl" --domtblout "$tmp/h.dom" "$hmm" "$tmp/db.fa"
    # (in a UTF-8 locale, where grep takes a line that is not UTF-8 for binary)
    LC_ALL=C.UTF-8 "$BIN/gpu-hmmsearch" "$@" -o "$tmp/g.out" --tblout "$tmp/g.tbl" --domtblout "$tmp/g.dom" "$hmm" "$tmp/db.fa"
    local what="$(basename "$hmm") [$*]"
    check_eq "$what tblout" "$(table_rows "$tmp/g.tbl" | md5sum)" "$(table_rows "$tmp/h.tbl" | md5sum)"
    check_eq "$what domtblout" "$(table_rows "$tmp/g.dom" | md5sum)" "$(table_rows "$tmp/h.dom" | md5sum)"
    check_eq "$what main output" "$(main_output "$tmp/g.out" | md5sum)" "$(main_output "$tmp/h.out" | md5sum)"
    check_eq "$what has hits" "$(grep -vc '^#' "$tmp/h.tbl" | awk '{ print ($1 > 0) }')" 1
    # The headers name the user's model file (several models are searched
    # by one run each, their outputs stitched).
    check_eq "$what header names the models" "$(grep '^# query HMM file:' "$tmp/g.out" | awk '{ print $NF }')" "$hmm"
    check_eq "$what tblout names the models" "$(grep '^# Query file:' "$tmp/g.tbl" | awk '{ print $NF }')" "$hmm"
    check_eq "$what header names the targets" "$(grep '^# target sequence database:' "$tmp/g.out" | awk '{ print $NF }')" "$tmp/db.fa"
    checks=$((checks + 7))
}
run_case "$tmp/three.hmm"
check_eq "three.hmm: some hits are named '#...'" "$(table_rows "$tmp/h.tbl" | grep -c '^#' | awk '{ print ($1 > 0) }')" 1
checks=$((checks + 1))
# The models' final searches reading FIFOs as the filters run (gpu-hmmsearch
# does so when every model has a run of its own), and one run on a file.
WARPDP_FINAL_JOBS=3 run_case "$tmp/three.hmm" --F1 0.05 --F2 0.01
WARPDP_FINAL_JOBS=1 run_case "$tmp/three.hmm" --F1 0.05 --F2 0.01
run_case "$tmp/RRM_1.hmm" --nobias
run_case "$tmp/LuxC.hmm" --F3 1 -E 1e30 --domE 1e30
run_case "$tmp/fn3.hmm" --F1 0.001 --F2 1e-5 --cut_ga
# hmmsearch's other spellings: --opt=value, abbreviations, a glued value.
run_case "$tmp/three.hmm" --F1=0.05 --F2=0.01 --nob --domE=1e-3 -E5

# --pfamtblout is not stitched: one final run over all models, same table.
hmmsearch --pfamtblout "$tmp/h.pfam" -o /dev/null "$tmp/three.hmm" "$tmp/db.fa"
"$BIN/gpu-hmmsearch" --pfamtblout "$tmp/g.pfam" -o /dev/null "$tmp/three.hmm" "$tmp/db.fa"
check_eq "three.hmm --pfamtblout" "$(grep -av '^#' "$tmp/g.pfam" | md5sum)" "$(grep -av '^#' "$tmp/h.pfam" | md5sum)"
checks=$((checks + 1))

# Passed Vit filter counts, model by model.
hmmsearch --F3 1 --noali -o "$tmp/h.out" "$tmp/three.hmm" "$tmp/db.fa"
"$BIN/gpu-msv" --hmm "$tmp/three.hmm" --db "$tmp/db.fa" --quiet |
    "$BIN/gpu-viterbi" --hmm "$tmp/three.hmm" --db "$tmp/db.fa" --candidates - --stats "$tmp/v.json" --quiet > /dev/null
want=$(awk '$1 == "Passed" && $2 == "Vit" { print $4 }' "$tmp/h.out" | tr '\n' ' ')
got=$(grep '"passed_vit"' "$tmp/v.json" | tr -dc '0-9\n' | tr '\n' ' ')
check_eq "Passed Vit counts per model" "$got" "$want"
checks=$((checks + 1))
# Passed Fwd filter counts, model by model, for several F3 (and without the
# bias filter, which changes the score Forward is compared against); the
# candidate stream and --msv give the same rows.
for opts in "" "--F3 1e-3" "--F3 0.05 --nobias"; do
    hmmsearch $opts --noali -o "$tmp/h.out" "$tmp/three.hmm" "$tmp/db.fa"
    "$BIN/gpu-viterbi" --hmm "$tmp/three.hmm" --db "$tmp/db.fa" --msv --forward $opts --all --stats "$tmp/f.json" \
        --quiet > "$tmp/inline.tsv"
    want=$(awk '$1 == "Passed" && $2 == "Fwd" { print $4 }' "$tmp/h.out" | tr '\n' ' ')
    got=$(grep '"passed_fwd"' "$tmp/f.json" | tr -dc '0-9\n' | tr '\n' ' ')
    check_eq "Passed Fwd counts per model [$opts]" "$got" "$want"
    msv_opts=(); [[ "$opts" != *--nobias* ]] || msv_opts=(--nobias)
    "$BIN/gpu-msv" --hmm "$tmp/three.hmm" --db "$tmp/db.fa" --quiet "${msv_opts[@]}" |
        "$BIN/gpu-viterbi" --hmm "$tmp/three.hmm" --db "$tmp/db.fa" --candidates - --forward ${opts% --nobias} \
            --all --quiet > "$tmp/stream.tsv"
    check_eq "--forward rows, stream and --msv [$opts]" "$(md5sum < "$tmp/stream.tsv")" "$(md5sum < "$tmp/inline.tsv")"
    checks=$((checks + 2))
done
# hmmsearch takes any threshold, NaN, zero and negative ones too (a target
# passes unless its P-value is above it; above 1 counts as 1); so do the
# filters: every stage's pass counts, model by model, equal hmmsearch's.
passed() { awk -v s="$2" '$1 == "Passed" && $2 == s { print $4 }' "$1" | tr '\n' ' '; }
from_json() { grep "\"$2\"" "$1" | tr -dc '0-9\n' | tr '\n' ' '; }
# Spelled as strtod reads them too: hex, out of range (1e400 = inf, 1e-400 = 0).
for opts in "--F1 nan --F3 inf" "--F1 0 --F2 nan --F3 nan" "--F1 -1" "--F2 0 --F3 2" "--F1 0x1p-5 --F2 1e-400 --F3 1e400"; do
    hmmsearch $opts --noali -o "$tmp/h.out" "$tmp/three.hmm" "$tmp/db.fa"
    "$BIN/gpu-viterbi" --hmm "$tmp/three.hmm" --db "$tmp/db.fa" --msv --forward $opts --stats "$tmp/f.json" \
        --quiet > /dev/null
    check_eq "Passed Vit counts per model [$opts]" "$(from_json "$tmp/f.json" passed_vit)" "$(passed "$tmp/h.out" Vit)"
    check_eq "Passed Fwd counts per model [$opts]" "$(from_json "$tmp/f.json" passed_fwd)" "$(passed "$tmp/h.out" Fwd)"
    # gpu-viterbi --msv counts the MSV and bias stages' passers too.
    check_eq "--msv: Passed MSV counts per model [$opts]" "$(from_json "$tmp/f.json" passed_msv)" "$(passed "$tmp/h.out" MSV)"
    check_eq "--msv: Passed bias counts per model [$opts]" "$(from_json "$tmp/f.json" passed_bias)" "$(passed "$tmp/h.out" bias)"
    msv_opts=(); [[ "$opts" != --F1* ]] || msv_opts=(${opts%% --F[23]*})
    "$BIN/gpu-msv" --hmm "$tmp/three.hmm" --db "$tmp/db.fa" "${msv_opts[@]}" --stats "$tmp/m.json" --quiet > /dev/null
    check_eq "Passed MSV counts per model [$opts]" "$(from_json "$tmp/m.json" passed_msv)" "$(passed "$tmp/h.out" MSV)"
    check_eq "Passed bias counts per model [$opts]" "$(from_json "$tmp/m.json" passed_bias)" "$(passed "$tmp/h.out" bias)"
    checks=$((checks + 6))
done
run_case "$tmp/fn3.hmm" --F1 nan --F3 inf
# gpu-viterbi --msv (one process) decides exactly as gpu-msv | gpu-viterbi.
for opts in "" "--nobias --F1 0.1 --F2 0.01"; do
    "$BIN/gpu-msv" --hmm "$tmp/three.hmm" --db "$tmp/db.fa" --quiet ${opts/--F2 0.01/} |
        "$BIN/gpu-viterbi" --hmm "$tmp/three.hmm" --db "$tmp/db.fa" --candidates - --all --quiet \
            ${opts:+--F2 0.01} --survivors "$tmp/s1.fa" > "$tmp/stream.tsv"
    "$BIN/gpu-viterbi" --hmm "$tmp/three.hmm" --db "$tmp/db.fa" --msv $opts --all --quiet \
        --survivors "$tmp/s2.fa" > "$tmp/inline.tsv"
    check_eq "--msv rows [$opts]" "$(md5sum < "$tmp/inline.tsv")" "$(md5sum < "$tmp/stream.tsv")"
    check_eq "--msv survivors [$opts]" "$(md5sum < "$tmp/s2.fa")" "$(md5sum < "$tmp/s1.fa")"
    # Many small chunks (the Viterbi stage of one overlaps the MSV stage of
    # the next): the same rows and survivors, in either mode.
    "$BIN/gpu-viterbi" --hmm "$tmp/three.hmm" --db "$tmp/db.fa" --msv $opts --all --quiet \
        --chunk-residues 3000 --survivors "$tmp/s3.fa" > "$tmp/chunked.tsv"
    check_eq "--msv in small chunks, rows [$opts]" "$(md5sum < "$tmp/chunked.tsv")" "$(md5sum < "$tmp/stream.tsv")"
    check_eq "--msv in small chunks, survivors [$opts]" "$(md5sum < "$tmp/s3.fa")" "$(md5sum < "$tmp/s1.fa")"
    "$BIN/gpu-msv" --hmm "$tmp/three.hmm" --db "$tmp/db.fa" --quiet ${opts/--F2 0.01/} |
        "$BIN/gpu-viterbi" --hmm "$tmp/three.hmm" --db "$tmp/db.fa" --candidates - --all --quiet \
            ${opts:+--F2 0.01} --chunk-residues 3000 > "$tmp/chunked.tsv"
    check_eq "--candidates in small chunks [$opts]" "$(md5sum < "$tmp/chunked.tsv")" "$(md5sum < "$tmp/stream.tsv")"
    checks=$((checks + 5))
done
echo "pipeline: $((checks - fail)) passed, $fail failed"
[ $fail -eq 0 ]
