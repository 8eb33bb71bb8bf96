#!/usr/bin/env bash
# gpu-msv's MSV and MSV+bias pass sets equal hmmsearch's (docs/hmmer-filters.md
# §8.4 (a)): for real Pfam models against freshly generated targets, several F1
# values, with and without the bias filter, the Passed counts are equal and
# every target hmmsearch reports is one gpu-msv passes. Then a per-target
# oracle: hmmsearch on single-sequence files gives exact 0/1 MSV and bias
# decisions.
source "$(dirname "$0")/lib.sh"
BIN=$1
need hmmsearch hmmemit "$BIN/gpu-msv"
seed=$(oracle_seed)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

models=(fn3 globins4 Pkinase RRM_1 Patched)
paths=()
for m in "${models[@]}"; do paths+=("$(model_file "$m" "$tmp")"); done
bash "$ORACLE_DIR/make_targets.sh" "$seed" 12 100000 "${paths[@]}" > "$tmp/db.fa"
echo "targets: $(grep -c '>' "$tmp/db.fa")"

checks=0
for m in "${models[@]}"; do
    for F1 in 0.02 0.001 0.2; do
        for bias in nobias bias; do
            opt=(); [ $bias = nobias ] && opt=(--nobias)
            hmmsearch "${opt[@]}" --F1 $F1 --F2 1 --F3 1 -E 1e30 --domE 1e30 --noali \
                --tblout "$tmp/h.tbl" -o "$tmp/h.out" "$tmp/$m.hmm" "$tmp/db.fa"
            "$BIN/gpu-msv" --hmm "$tmp/$m.hmm" --db "$tmp/db.fa" --F1 $F1 "${opt[@]}" --quiet \
                > "$tmp/g.tsv"
            awk -F'\t' '!/^#/ && $9 == 1 { print $3 }' "$tmp/g.tsv" | sort > "$tmp/g.pass"
            grep -v '^#' "$tmp/h.tbl" | awk '{ print $1 }' | sort > "$tmp/h.rep"
            stage=MSV; [ $bias = bias ] && stage=bias
            check_eq "$m F1=$F1 $bias: passed count" "$(wc -l < "$tmp/g.pass")" "$(passed_count $stage "$tmp/h.out")"
            extra=$(comm -13 "$tmp/g.pass" "$tmp/h.rep" | head -3 | tr '\n' ' ')
            check_eq "$m F1=$F1 $bias: hmmsearch hits gpu-msv rejected" "$extra" ""
            checks=$((checks + 2))
        done
    done
done

# Per-target oracle on a sample: one hmmsearch per sequence turns the Passed
# counts into exact 0/1 decisions (no "no domain" caveat).
awk '/^>/ { n++ } n % 9 == 1 || /^>(rnd_fixed_L1|allstar|xs_|empty|odd)/ { p = 1 } /^>/ && !(n % 9 == 1 || /^>(rnd_fixed_L1|allstar|xs_|empty|odd)/) { p = 0 } p' \
    "$tmp/db.fa" > "$tmp/sample.fa"
mkdir "$tmp/one"
awk -v d="$tmp/one" '/^>/ { f = sprintf("%s/%05d.fa", d, ++n) } { print > f }' "$tmp/sample.fa"
for m in fn3 Pkinase; do
    "$BIN/gpu-msv" --hmm "$tmp/$m.hmm" --db "$tmp/sample.fa" --all --nobias --quiet | grep -v '^#' | cut -f9 > "$tmp/msv.col"
    "$BIN/gpu-msv" --hmm "$tmp/$m.hmm" --db "$tmp/sample.fa" --all --quiet | grep -v '^#' | cut -f3,4,9 > "$tmp/bias.col"
    i=0
    while IFS=$'\t' read -r target L passed msv_passed; do
        i=$((i + 1))
        hmmsearch --F2 1 --F3 1 -o "$tmp/one.out" "$tmp/$m.hmm" "$(printf '%s/%05d.fa' "$tmp/one" $i)"
        check_eq "$m $target (L=$L) MSV decision" "$msv_passed" "$(passed_count MSV "$tmp/one.out")"
        check_eq "$m $target (L=$L) bias decision" "$passed" "$(passed_count bias "$tmp/one.out")"
        checks=$((checks + 2))
    done < <(paste "$tmp/bias.col" "$tmp/msv.col")
done
echo "oracle: $((checks - fail)) passed, $fail failed"
[ $fail -eq 0 ]
